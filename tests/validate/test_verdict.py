"""The verdict on a clean file (:mod:`pdnkit.lean.verdict`): every game it takes as clean is
one the validator reports ``ok`` with no finding (a draw: the one ``draw-unsupported``), on
the real files, intl_2000 and seeded mutations of clean games (results, tags, dates, moves);
its summary is the validator's, byte for byte but the time; a clean file's ``pdnkit
validate`` loads neither the validator nor dataclasses or pathlib; and its start data are
current."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from pdnkit.lean import startgen
from pdnkit.lean.verdict import game_verdicts, render
from pdnkit.verdict.facts import compiled_core
from tests.imported import modules_after
from tests.shared import SHARED_DATA, shared_path
from tests.validate.verdictcheck import check_taken

# the verdict judges with the compiled core alone; on the pure core (PDNKIT_PURE=1) every
# file goes to the validator, which the validator's own tests cover
pytestmark = pytest.mark.skipif(compiled_core() is None,
                                reason="the verdict needs the compiled core")

#: games of the international game (Article 3 moves), clean as written
WIN = ('[Event "Open"]\n[Site "Here"]\n[Date "2001.02.03"]\n[Round "1"]\n[White "A"]\n'
       '[Black "B"]\n[Result "2-0"]\n[GameType "20"]\n\n'
       '1. 32-28 19-23 2. 28x19 14x23 3. 33-28 23x32 4. 37x28 2-0\n')
DRAW = WIN.replace('"2-0"', '"1-1"').replace("37x28 2-0", "37x28 1-1")

_TIME = re.compile(r"\d+\.\d\d s \([\d,]+ games/s\)")


def test_start_data_are_current() -> None:
    assert startgen.source() == startgen.TARGET.read_text(encoding="utf-8"), \
        "run python -m pdnkit.lean.startgen"


def test_taken_games_of_intl_2000_are_clean() -> None:
    assert check_taken(shared_path("bench", "intl_2000.pdn")) == 2000


def _games(text: str) -> list[str]:
    starts = [m.start() for m in re.finditer(r"^\[Event ", text, re.MULTILINE)]
    return [text[a:b].rstrip("\n") + "\n" for a, b in zip(starts, [*starts[1:], len(text)],
                                                             strict=True)]


def _cut_last_move(game: str) -> str:
    """The game without its last move (the result kept)."""
    body, _, result = game.rstrip("\n").rpartition(" ")
    body = re.sub(r"\s*\{[^}]*\}$", "", body)  # (a comment after it goes with it)
    body = re.sub(r"\s*(\d+\.(\.\.)?\s*)?\S+$", "", body)
    return f"{body} {result}\n"


def _rescore(game: str) -> str:
    """The game with another result, in its tag and after its moves."""
    old = re.search(r'\[Result "([^"]*)"\]', game)
    assert old
    new = {"2-0": "1-1", "1-1": "0-2", "0-2": "2-0"}.get(old.group(1), "1-1")
    body = game.rstrip("\n")
    return body.replace(f'"{old.group(1)}"', f'"{new}"')[: -len(old.group(1))] + new + "\n"


def test_taken_mutations_of_draws_are_clean(tmp_path: Path) -> None:
    """Games of intl_2000 (its draws by rule among them) rescored and cut short: a draw
    rule reached and then ignored, a win where a rule drew, a draw no rule backs."""
    games = _games(shared_path("bench", "intl_2000.pdn").read_text(encoding="utf-8"))
    draws = [g for g in games if '"1-1"' in g]
    rng = random.Random(2000)
    picked = draws[:40] + rng.sample(games, 40)
    mutated = []
    for g in picked:
        mutated += [_rescore(g), _cut_last_move(g), _cut_last_move(_cut_last_move(g)), g]
    path = tmp_path / "mutated.pdn"
    path.write_text("\n".join(mutated), encoding="utf-8")
    taken = check_taken(path)
    assert 0 < taken < len(mutated)


def test_taken_games_of_real_files_are_clean() -> None:
    folder = shared_path("real")
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    assert files
    for path in files:
        check_taken(path)


#: one change each to a clean game: what the validator may find fault with
_MUTATIONS = [
    lambda g: g.replace('[Result "2-0"]', '[Result "0-2"]'),
    lambda g: g.replace("37x28 2-0", "37x28 0-2"),
    lambda g: g.replace('[Result "2-0"]', '[Result "1-0"]').replace("37x28 2-0", "37x28 1-0"),
    lambda g: g.replace('[Result "2-0"]', '[Result "*"]').replace("37x28 2-0", "37x28 *"),
    lambda g: g.replace("2001.02.03", "2001.02.30"),
    lambda g: g.replace("2001.02.03", "2001.13.03"),
    lambda g: g.replace("2001.02.03", "2001.??.??"),
    lambda g: g.replace("2001.02.03", "1066.02.03"),
    lambda g: g.replace('[Round "1"]', '[Round "1"]\n[Round "2"]'),
    lambda g: g.replace('[Round "1"]', '[PlyCount "3"]'),
    lambda g: g.replace('[Round "1"]', '[Opening "x"]'),
    lambda g: g.replace('[GameType "20"]', '[GameType "25"]'),
    lambda g: g.replace('[GameType "20"]\n', ""),
    lambda g: g.replace('[GameType "20"]', '[GameType "020"]'),
    lambda g: g.replace("23x32", "23-32"),
    lambda g: g.replace("2. 28x19", "3. 28x19"),
    lambda g: g.replace("19-23 2.", "19-23 {a comment} 2."),
    lambda g: g.replace('"A"', '"A &amp; C"'),
    lambda g: g.replace('"A"', '"A \\"C\\""'),
    lambda g: g.replace("4. 37x28 2-0", "4. 37x28 14-19 2-0"),
    lambda g: g,
]


def test_taken_mutations_are_clean(tmp_path: Path) -> None:
    rng = random.Random(35)
    taken = 0
    for trial in range(60):
        games = [rng.choice(_MUTATIONS)(rng.choice((WIN, DRAW))) for _ in range(rng.randint(1, 4))]
        path = tmp_path / f"m{trial}.pdn"
        path.write_text("\n".join(games), encoding="utf-8")
        taken += check_taken(path)
    assert taken  # the unchanged games


@pytest.mark.parametrize("fmt", ["text", "csv", "jsonl"])
def test_summary_is_the_validators(tmp_path: Path, fmt: str,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from pdnkit.lean.validate import Call, Display, run

    path = tmp_path / "clean.pdn"
    path.write_text(WIN + "\n" + (WIN if fmt == "csv" else DRAW), encoding="utf-8")
    outs = []
    for way in ("verdict", "validator"):
        out = tmp_path / f"{way}.txt"
        with out.open("w", encoding="utf-8") as stream:
            if way == "verdict":
                assert render([str(path)], fmt, stream) is not None
            else:
                # (a databases' folder that is not empty: the validator runs)
                (tmp_path / "egdb").mkdir()
                (tmp_path / "egdb" / "README").write_text("", encoding="utf-8")
                monkeypatch.setenv("PDNKIT_EGDB", str(tmp_path / "egdb"))
                call = Call(None, None, 1, "auto", False, None, None, None, "stand")
                run([path], call, Display(fmt, False, False, stream, False))
        outs.append(_TIME.sub("T", out.read_text(encoding="utf-8")))
    widths = [re.sub(r"[ ─━]+", " ", o) for o in outs]  # (the time sets the widths)
    assert widths[0] == widths[1]
    assert "draw-unsupported" in outs[0] or fmt == "csv"
    assert ('"white": "A"' in outs[0]) == (fmt == "jsonl")


def test_summary_leaves_a_fault_to_the_validator(tmp_path: Path) -> None:
    path = tmp_path / "bad.pdn"
    path.write_text(WIN.replace("23x32", "23-32"), encoding="utf-8")
    with (tmp_path / "out.txt").open("w", encoding="utf-8") as stream:
        assert render([str(path)], "text", stream) is None
        assert render([str(path), str(path)], "text", stream) is None
        (tmp_path / "draw.pdn").write_text(DRAW, encoding="utf-8")
        assert render([str(tmp_path / "draw.pdn")], "csv", stream) is None  # a CSV row
    assert (tmp_path / "out.txt").read_text(encoding="utf-8") == ""


@pytest.mark.parametrize("args", [[], ["--info"], ["-q"], ["--format", "jsonl"],
                                  ["--format", "csv"], ["--fail-on", "never"]])
def test_the_programs_output_is_the_validators(tmp_path: Path, args: list[str]) -> None:
    """``pdnkit validate`` of a clean file with a draw, the quick form and the Typer command
    (``-o``), as the validator writes it (a databases' folder that is not empty makes it
    run)."""
    import os
    import subprocess
    import sys

    path = tmp_path / "draw.pdn"
    path.write_text(WIN + "\n" + DRAW, encoding="utf-8")
    (tmp_path / "egdb").mkdir()
    (tmp_path / "egdb" / "README").write_text("", encoding="utf-8")
    outs: dict[str, list[str]] = {}
    for way in ("verdict", "validator"):
        env = dict(os.environ)
        if way == "validator":
            env["PDNKIT_EGDB"] = str(tmp_path / "egdb")
        for tail in ([], ["-o", str(tmp_path / f"{way}.out")]):
            res = subprocess.run([sys.executable, "-m", "pdnkit", "validate", str(path), *args,
                                  *tail], capture_output=True, text=True, env=env, timeout=120)
            written = (tmp_path / f"{way}.out").read_text(encoding="utf-8") if tail else ""
            outs.setdefault(way, []).extend(
                [str(res.returncode), _TIME.sub("T", res.stdout), _TIME.sub("T", res.stderr),
                 _TIME.sub("T", written)])
    strip = [[re.sub(r"[ ─━]+", " ", o) for o in outs[w]] for w in ("verdict", "validator")]
    assert strip[0] == strip[1]


def test_one_game_past_the_head_leaves_the_file(tmp_path: Path) -> None:
    """A file longer than the head judged first: a fault in its last game, or in its first,
    leaves it to the validator."""
    games = _games(shared_path("bench", "intl_2000.pdn").read_text(encoding="utf-8"))
    for k in (0, len(games) - 1):
        bad = list(games)
        bad[k] = _rescore(bad[k])
        path = tmp_path / f"bad{k}.pdn"
        path.write_text("\n".join(bad), encoding="utf-8")
        with (tmp_path / "out.txt").open("w", encoding="utf-8") as stream:
            assert render([str(path)], "text", stream) is None
        assert game_verdicts(str(path)) is not None


def test_a_large_input_streams_through_the_validator(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import pdnkit.lean.verdict as verdict

    path = tmp_path / "clean.pdn"
    path.write_text(WIN, encoding="utf-8")
    assert verdict.clean_files([str(path)]) is not None
    monkeypatch.setattr(verdict, "MOST_BYTES", len(WIN) - 1)
    assert verdict.clean_files([str(path)]) is None


def test_a_clean_files_validate_loads_no_validator(tmp_path: Path) -> None:
    path = tmp_path / "clean.pdn"
    path.write_text(WIN + "\n" + DRAW, encoding="utf-8")
    names = ("pdnkit.validation", "pdnkit.rules", "dataclasses", "pathlib", "rich", "typer")
    assert modules_after(["validate", str(path)], names) == []
    assert SHARED_DATA  # (the shared data's place is known)
