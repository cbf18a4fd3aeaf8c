"""The verdict on a clean file (:mod:`pdnkit.lean.verdict`) on every variant it takes and
on the edges it takes: seeded random games of each variant of
:data:`pdnkit.verdict.startdata.STARTS` (the rules engine's own legal moves, results right,
wrong and unknown, in both scorings, with and without a Result tag) and seeded mutations of
the real files (``../shared/data/real``: GameType tags added, line ends, dates, extra tags,
PlyCount, results rescored, moves cut). Each game the verdict takes is held to the
validator's report, and each file it takes whole to the validator's output, byte for byte
but the time, in text and JSONL."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest

from pdnkit.lean import startgen
from pdnkit.lean.verdict import game_verdicts, render
from pdnkit.verdict.facts import compiled_core
from pdnkit.verdict.startdata import STARTS
from tests.imported import modules_after
from tests.shared import shared_path
from tests.validate.gengames import DATES as _DATES
from tests.validate.gengames import EDGES as _EDGES
from tests.validate.gengames import FOLDERS as _FOLDERS
from tests.validate.gengames import random_game as _random_game
from tests.validate.gengames import real_games as _real_games
from tests.validate.verdictcheck import check_taken

# the verdict judges with the compiled core alone; on the pure core (PDNKIT_PURE=1) every
# file goes to the validator, which the validator's own tests cover
pytestmark = pytest.mark.skipif(compiled_core() is None,
                                reason="the verdict needs the compiled core")

_TIME = re.compile(r"\d+\.\d\d s \([\d,]+ games/s\)")
def _outputs(paths: list[Path], fmt: str, tmp: Path, monkeypatch: pytest.MonkeyPatch
             ) -> tuple[str, str] | None:
    """What ``pdnkit validate`` prints of ``paths`` in ``fmt`` on the verdict's path and
    on the validator's (forced: a databases' folder that is not empty), time and widths
    blotted out; ``None`` where the verdict leaves them."""
    from pdnkit.lean.validate import Call, Display, run

    def stream() -> io.TextIOWrapper:  # (a stream with an encoding: plain tables print)
        return io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="")

    mine = stream()
    if render([str(p) for p in paths], fmt, mine) is None:
        return None
    eg = tmp / "egdb"
    eg.mkdir(exist_ok=True)
    (eg / "README").write_text("", encoding="utf-8")
    with monkeypatch.context() as m:
        m.setenv("PDNKIT_EGDB", str(eg))
        other = stream()
        call = Call(None, None, 1, "auto", False, None, None, None, "stand")
        run(list(paths), call, Display(fmt, True, False, other, False))
    texts = []
    for s in (mine, other):
        s.flush()
        raw = s.buffer.getvalue().decode("utf-8")  # type: ignore[attr-defined]
        texts.append(re.sub(r"[ ─━]+", " ", _TIME.sub("T", raw)))
    return texts[0], texts[1]


@pytest.mark.parametrize("gametype", sorted(STARTS))
def test_random_games_of_every_variant(gametype: int, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    name = STARTS[gametype][0]
    rng = random.Random(gametype)
    games = [_random_game(name, gametype, rng) for _ in range(40)]
    path = tmp_path / "gen.pdn"
    path.write_text("\n".join(games), encoding="utf-8")
    assert check_taken(path) > 0
    whole = 0
    for k in range(0, len(games), 2):  # files of one or two games, whole
        one = tmp_path / f"g{k}.pdn"
        one.write_text("\n".join(games[k:k + rng.randint(1, 2)]), encoding="utf-8")
        for fmt in ("text", "jsonl"):
            got = _outputs([one], fmt, tmp_path, monkeypatch)
            if got is not None:
                whole += 1
                assert got[0] == got[1], (one.read_text(encoding="utf-8"), fmt)
    assert whole > 0


def test_every_variant_the_core_replays_is_taken_or_said_why() -> None:
    from pdnkit.rules import list_variants
    from pdnkit.validation.resolve import rules_from_gametype

    numbers = {int(r.gametype) for r in list_variants()}
    taken = set(startgen.variants())
    for number in numbers - taken:
        rules = rules_from_gametype(str(number))[0]
        assert rules is not None and startgen.left_out(rules) is not None, number
    assert {20, 21, 22, 23, 25, 26, 29, 40, 97, 98} <= taken


@pytest.mark.slow
def test_seeded_mutations_of_real_files(tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    folder = shared_path("real")
    rng = random.Random(6)
    taken = whole = 0
    for path in sorted(p for p in folder.rglob("*.pdn") if p.is_file()):
        gametype = _FOLDERS.get(path.parent.name)
        games = _real_games(path)
        if gametype is None or not games:
            continue
        picked = rng.sample(games, min(len(games), 12))
        mutated = []
        for g in picked:
            if "[GameType " not in g:
                g = g.replace("[Event ", f'[GameType "{gametype}"]\n[Event ', 1)
            g = re.sub(r'\[(FEN|Setup|SetUp) "[^"]*"\]\n', "", g)
            mutated.append(rng.choice(_EDGES)(rng.choice(_EDGES)(g, rng), rng))
        out = tmp_path / f"{path.parent.name}-{path.stem}.pdn"
        encoding = rng.choice(("utf-8", "utf-8", "utf-8", "cp1252"))
        bom = "\ufeff" if encoding == "utf-8" and rng.random() < 0.3 else ""
        out.write_bytes((bom + "\n".join(mutated)).encode(encoding, "replace"))
        taken += check_taken(out)
        for k in range(0, len(mutated), 4):
            part = tmp_path / f"part{k}.pdn"
            part.write_bytes((bom + "\n".join(mutated[k:k + 2])).encode(encoding, "replace"))
            for fmt in ("text", "jsonl"):
                got = _outputs([part], fmt, tmp_path, monkeypatch)
                if got is not None:
                    whole += 1
                    assert got[0] == got[1], (part.read_bytes(), fmt)
    assert taken > 0 and whole > 0


def test_jsonl_numbers_each_files_games_from_0(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    game = '[Result "2-0"]\n[GameType "20"]\n\n1. 32-28 19-23 2-0\n'
    paths = []
    for name in ("a.pdn", "b.pdn"):
        (tmp_path / name).write_text(game + "\n" + game, encoding="utf-8")
        paths.append(tmp_path / name)
    got = _outputs(paths, "jsonl", tmp_path, monkeypatch)
    assert got is not None and got[0] == got[1]
    assert [int(i) for i in re.findall(r'"index": (\d+)', got[0])] == [0, 1, 0, 1]


def test_dates_taken_are_dates_to_the_validator() -> None:
    """Every Date the verdict takes (seeded texts of its shapes and near them) is one
    :func:`pdnkit.pdn.dates.parse_date` reads without a ``bad-date``."""
    from pdnkit.pdn.dates import parse_date
    from pdnkit.verdict.facts import _date_ok

    rng = random.Random(1)
    parts = ["??", "?", "0", "00", "1", "01", "2", "02", "12", "13", "28", "29", "30", "31",
             "32", "999", "1000", "1900", "2000", "2001", "2024", "2999", "3000", "0999"]
    taken = 0
    for _ in range(20000):
        sep = rng.choice(".-/ ")
        text = sep.join(rng.choice(parts) for _ in range(rng.choice((1, 2, 3, 3, 3))))
        text = rng.choice(("", " ")) + text + rng.choice(("", "", ".", " "))
        if _date_ok(text):
            taken += 1
            assert parse_date(text.strip() or None)[2], text
    assert taken > 1000
    for text in _DATES:
        assert _date_ok(text) == parse_date(text.strip() or None)[2], text


@pytest.mark.parametrize("head,ends,encoding,taken", [
    ("\ufeff", "\r\n", "utf-8", True), ("", "\n", "utf-8", True),
    ("", "\n", "cp1252", False), ("", "\r", "utf-8", False)])
def test_text_beyond_ascii_and_line_ends(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         head: str, ends: str, encoding: str,
                                         taken: bool) -> None:
    """UTF-8 (with or without a byte order mark) and CR LF line ends are taken, with the
    validator's output; a legacy encoding (``encoding-fallback``) and CR alone are left."""
    game = ('[Event "Ü"]\n[White "Müller"]\n[Black "Đorđe"]\n[Result "1-0"]\n'
            '[GameType "20"]\n\n1. 32-28 19-23 1-0\n')
    path = tmp_path / "u.pdn"
    path.write_bytes((head + (game + "\n" + game).replace("\n", ends)).encode(encoding,
                                                                             "replace"))
    for fmt in ("text", "jsonl"):
        got = _outputs([path], fmt, tmp_path, monkeypatch)
        assert (got is not None) == taken
        assert got is None or got[0] == got[1]
        assert got is None or ("plies replayed" in got[0]) == (fmt == "text")


@pytest.mark.parametrize("args", [[], ["--format", "jsonl"], ["--format", "csv"]])
def test_the_programs_output_on_variants_is_the_validators(tmp_path: Path,
                                                            args: list[str]) -> None:
    """``pdnkit validate`` as a whole process (the quick form) of a UTF-8, CR LF file of
    games of several variants, as the validator writes it."""
    import os
    import subprocess
    import sys

    rng = random.Random(4)
    games = []
    for gametype in (21, 25, 40, 98):
        while True:
            game = _random_game(STARTS[gametype][0], gametype, rng)
            one = tmp_path / "one.pdn"
            one.write_text(game, encoding="utf-8")
            got = game_verdicts(str(one))
            if got and got[0] is not None:
                break
        games.append(game.replace('[Black "B"]', '[Black "Фёдор"]'))
    path = tmp_path / "mixed.pdn"
    path.write_bytes("\n".join(games).replace("\n", "\r\n").encode("utf-8"))
    assert modules_after(["validate", str(path)], ("pdnkit.validation",)) == []  # the verdict
    (tmp_path / "egdb").mkdir()
    (tmp_path / "egdb" / "README").write_text("", encoding="utf-8")
    outs = []
    for way in ("verdict", "validator"):
        env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
        if way == "validator":
            env["PDNKIT_EGDB"] = str(tmp_path / "egdb")
        res = subprocess.run([sys.executable, "-m", "pdnkit", "validate", str(path), *args],
                             capture_output=True, text=True, env=env, timeout=120,
                             encoding="utf-8")
        outs.append([str(res.returncode), *(re.sub(r"[ ─━]+", " ", _TIME.sub("T", s))
                                            for s in (res.stdout, res.stderr))])
    assert outs[0] == outs[1]
    assert "russian" in outs[0][1] + outs[0][2]


def test_a_clean_file_past_the_head_is_taken_wherever_the_head_ends(tmp_path: Path) -> None:
    """Files of clean games longer than the head judged first, each move list on one line,
    shifted so that the head ends at every kind of place (inside a move, a move number, a
    tag, a result): every one taken whole."""
    from pdnkit.lean.verdict import _HEAD, clean_files

    rng = random.Random(64)
    games = []
    while sum(map(len, games)) < _HEAD + 4000:
        game = _random_game("international", 20, rng)
        one = tmp_path / "one.pdn"
        one.write_text(game, encoding="utf-8")
        got = game_verdicts(str(one))
        if got and got[0] is not None:
            games.append(game)
    for pad in sorted(rng.sample(range(400), 60)):  # (the first game's Event, longer)
        first = games[0].replace('[Event "Gen"]', f'[Event "{"x" * pad}"]')
        path = tmp_path / f"long{pad}.pdn"
        path.write_text("\n".join([first, *games[1:]]), encoding="utf-8")
        assert clean_files([str(path)]) is not None, pad
