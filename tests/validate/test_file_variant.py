"""The variant is resolved once per file from all its games' evidence (issue 10, point 4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pdnkit.cli import app
from pdnkit.validation import costs as costs_mod
from pdnkit.validation import validate
from pdnkit.validation.resolve import SCAN_GAMES, scan_file

CZECH = """[Event "Czech cup"]
[White "A"]
[Black "B"]
[Result "2-0"]
2-0

[Event "Czech cup"]
[White "C"]
[Black "D"]
1. c3-d4 *

[Event "Czech cup"]
1. c3-d4 f6-g5 2. d4-c5 b6xd4 3. e3xc5 *
"""

INTERNATIONAL_PROBLEMS = """[Event "problems"]
[FEN "W:W33,34,35,40:B10,12,19"]
1. 34-29 *

[Event "problems"]
[FEN "W:W28:B22"]
1. 28x17 *

[Event "problems"]
1. 32-28 19-23 2. 28x19 14x23 *
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_czech_forfeit_and_one_ply_game_take_the_files_variant(tmp_path: Path) -> None:
    path = _write(tmp_path, "czech.pdn", CZECH)
    reps = list(validate(path))
    assert [r.variant for r in reps] == ["czech", "czech", "czech"]
    assert all(r.status == "ok" for r in reps), [(r.status, r.finding_codes()) for r in reps]
    # each game on its own is guessed otherwise (what the user saw)
    alone = [next(validate(_write(tmp_path, f"g{i}.pdn", t + "\n"))).variant
             for i, t in enumerate(CZECH.split("\n\n"))]
    assert alone[1] == "russian" and alone[0] != "czech"


def test_problem_fen_with_low_squares_in_a_10x10_file_is_not_english(tmp_path: Path) -> None:
    path = _write(tmp_path, "problems.pdn", INTERNATIONAL_PROBLEMS)
    reps = list(validate(path))
    assert [r.variant for r in reps] == ["international"] * 3
    assert "illegal-move" not in reps[1].finding_codes()
    guessed = [f for f in reps[1].findings if f.code == "variant-guessed"]
    assert guessed and "file" in guessed[0].message
    alone = next(validate('[FEN "W:W28:B22"]\n1. 28x17 *'))  # on its own: English, illegal
    assert alone.variant == "english" and "illegal-move" in alone.finding_codes()


def test_a_game_with_its_own_gametype_keeps_it(tmp_path: Path) -> None:
    text = INTERNATIONAL_PROBLEMS + '\n[GameType "21"]\n1. 22-18 *\n'
    reps = list(validate(_write(tmp_path, "mixed.pdn", text)))
    assert reps[-1].variant == "english"
    assert "variant-guessed" not in reps[-1].finding_codes()


def test_unparsed_and_header_only_games_get_the_files_variant(tmp_path: Path) -> None:
    text = ('[GameType "20"]\n1. 32-28 19-23 *\n\n[Event "x"]\n1. {{{ ]]] *\n\n'
            '[Event "header only"]\n[Result "*"]\n*\n')
    path = _write(tmp_path, "plain.pdn", text)
    result = CliRunner().invoke(app, ["validate", str(path), "--format", "jsonl"])
    rows = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert len(rows) == 3
    assert [r["variant"] for r in rows] == ["international"] * 3


def test_empty_file_gets_no_variant_guess(tmp_path: Path) -> None:
    for name, data in (("empty.pdn", b""), ("binary.pdn", bytes(range(256)) * 4)):
        p = tmp_path / name
        p.write_bytes(data)
        for rep in validate(p):
            assert "variant-guessed" not in rep.finding_codes(), rep.finding_codes()


def test_italian_tag_names_dati_anno_apertura(tmp_path: Path) -> None:
    text = ('[Dati "69 ASSOLUTO 1 TURNO"]\n[Anno "1990"]\n[Apertura "12"]\n'
            '1. 22-19 11-14 *\n')
    rep = next(validate(_write(tmp_path, "it.pdn", text)))
    assert rep.variant == "italian"


def test_variant_tag_refines_a_shared_gametype() -> None:
    # giveaway (GameType 25, like Russian): White gives all away and wins
    text = '[GameType "25"]\n[Variant "giveaway"]\n[FEN "W:Wc3:Bd4"]\n1. c3-b4 d4-c3 *'
    rep = next(validate(text))
    assert rep.variant == "giveaway"
    rep = next(validate('[GameType "25"]\n1. c3-d4 *', "giveaway"))
    assert rep.variant == "giveaway"
    assert "variant-conflict" not in rep.finding_codes()
    rep = next(validate('[GameType "25"]\n1. c3-d4 *', "international"))
    assert rep.variant == "russian" and "variant-conflict" in rep.finding_codes()


def test_giveaway_result_is_not_a_mismatch() -> None:
    # Black's last man is taken: Black has nothing left, so Black wins at giveaway
    text = '[GameType "25"]\n[Variant "giveaway"]\n[FEN "W:Wc3:Bd4"]\n1. c3xe5 0-1'
    rep = next(validate(text))
    assert rep.variant == "giveaway"
    assert "result-mismatch" not in rep.finding_codes(), rep.finding_codes()
    plain = next(validate(text.replace('[Variant "giveaway"]\n', "")))
    assert plain.variant == "russian" and "result-mismatch" in plain.finding_codes()


def test_jobs_give_the_same_variants(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = [_write(tmp_path, "czech.pdn", CZECH),
             _write(tmp_path, "problems.pdn", INTERNATIONAL_PROBLEMS)]
    serial = [(r.file, r.index, r.variant, r.status, r.finding_codes())
              for r in validate(paths)]
    monkeypatch.setattr(costs_mod, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(costs_mod, "workers_can_pay", lambda: True)
    monkeypatch.setattr(costs_mod, "workers_pay", lambda *a, **k: True)
    parallel = [(r.file, r.index, r.variant, r.status, r.finding_codes())
                for r in validate(paths, jobs=2, chunk_size=1)]
    assert parallel == serial


def test_import_jobs_give_the_same_variants(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from pdnkit.store import connect, import_files

    paths = [_write(tmp_path, "czech.pdn", CZECH),
             _write(tmp_path, "problems.pdn", INTERNATIONAL_PROBLEMS)]
    monkeypatch.setattr(costs_mod, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(costs_mod, "workers_can_pay", lambda: True)
    monkeypatch.setattr(costs_mod, "workers_pay", lambda *a, **k: True)
    got = []
    for jobs in (1, 2):
        db = tmp_path / f"j{jobs}.duckdb"
        import_files(paths, db=db, jobs=jobs, progress=False)
        with connect(db) as con:
            got.append(con.execute("SELECT variant, status FROM games ORDER BY game_id"
                                   ).fetchall())
    assert got[0] == got[1]
    assert [v for v, _ in got[0]] == ["czech"] * 3 + ["international"] * 3


def test_scan_is_bounded() -> None:
    from pdnkit.pdn.split import split_text

    seen = []

    def chunks():  # type: ignore[no-untyped-def]
        for c in split_text("1. 32-28 *\n\n" * (SCAN_GAMES + 50)):
            seen.append(c)
            yield c

    assert scan_file(chunks()).candidates[0] == "international"
    assert len(seen) == SCAN_GAMES


def test_text_summary_says_the_guessed_variant(tmp_path: Path) -> None:
    path = _write(tmp_path, "czech.pdn", CZECH)
    result = CliRunner().invoke(app, ["validate", str(path), "-q"])
    assert "variant guessed" in result.stdout and "czech 3" in result.stdout


def test_the_file_name_breaks_a_tie_the_games_leave_open(tmp_path) -> None:
    """Ballot positions without moves or Italian tags fit English as well as Italian: a file
    whose name says italian is Italian, the same bytes under another name are not."""
    from pdnkit.validation import validate

    text = "".join(f'[FEN "W:W{21 + i},{22 + i},30:B{1 + i},{2 + i},9"]\n*\n\n'
                   for i in range(3))
    named = tmp_path / "11_man_italian.pdn"
    plain = tmp_path / "ballots.pdn"
    named.write_text(text, encoding="utf-8")
    plain.write_text(text, encoding="utf-8")
    assert {r.variant for r in validate(named)} == {"italian"}
    assert "italian" not in {r.variant for r in validate(plain)}
