"""The shipped opening tables: every line replays, the ACF decks add up, the lists agree with
the reference facts they were written from (``../shared/data/openings``), and every row says
where it comes from."""

from __future__ import annotations

import csv
import json
from collections import Counter
from importlib import resources

import pytest

from pdnkit.openings import load_tables, table_index
from pdnkit.openings.table import COLUMNS
from pdnkit.rules import Position, get_rules, parse_fen
from pdnkit.rules.notation import canonical_notation
from tests.shared import shared_path

TABLES = resources.files("pdnkit.openings").joinpath("tables")


def _family(variant: str, family: str) -> list:  # type: ignore[type-arg]
    return [e for e in load_tables(variant).entries if e.family == family]


def test_every_shipped_table_is_indexed_and_every_indexed_table_loads() -> None:
    files = {p.name for p in TABLES.iterdir() if p.name.endswith(".csv")} - {"index.csv"}
    indexed = {t.file for t in table_index()}
    assert files == indexed
    for t in table_index():
        for v in t.variants:
            assert load_tables(v).families()[t.family] > 0


def test_every_row_has_the_columns_a_code_and_a_source() -> None:
    for t in table_index():
        with TABLES.joinpath(t.file).open("r", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        assert rows and list(rows[0]) == list(COLUMNS), t.file
        for r in rows:
            assert r["code"] and r["source"], (t.file, r)
            if any("\u0400" <= ch <= "\u04ff" for ch in r["name"]):
                assert r["translit"] and r["translit"].isascii(), r


def test_all_174_acf_ballots_replay_to_distinct_positions() -> None:
    acf = _family("english", "acf-3move")
    assert len(acf) == 174 and [e.code for e in acf] == [str(n) for n in range(1, 175)]
    assert all(e.depth == 3 and str(e.position.side) == "W" for e in acf)
    assert len({e.position for e in acf}) == 174


def test_acf_decks_add_up() -> None:
    """156 tournament ballots = 144 cross-board + 12 mail-play; 18 barred; 50 in the computer
    tough deck, all of them tournament ballots."""
    acf = _family("english", "acf-3move")
    decks = Counter(f for e in acf for f in e.flags)
    assert decks == {"crossboard": 144, "mailplay": 12, "barred": 18, "ctd": 50}
    main = [e for e in acf if len(set(e.flags) & {"crossboard", "mailplay", "barred"}) == 1]
    assert len(main) == 174  # every ballot is in exactly one of the three
    tournament = [e for e in acf if "barred" not in e.flags]
    assert len(tournament) == 156
    assert all("barred" not in e.flags for e in acf if "ctd" in e.flags)


def test_acf_table_matches_the_reference_list() -> None:
    path = shared_path("openings", "acf_three_move_ballots.csv")
    with open(path, encoding="utf-8") as f:
        ref = {r["acf_number"]: r for r in csv.DictReader(f)}
    acf = {e.code: e for e in _family("english", "acf-3move")}
    assert set(acf) == set(ref)
    for code, e in acf.items():
        assert " ".join(e.line) == ref[code]["moves"]
        assert set(e.flags) == set(ref[code]["decks"].split(";"))
        if ref[code]["nickname"]:
            assert e.name == ref[code]["nickname"]


def test_two_move_ballots_are_every_first_move_and_reply() -> None:
    """The 49 two-move openings: each of Black's 7 first moves with each of White's 7
    replies, as the move generator lists them; every ACF ballot continues one of them."""
    rules = get_rules("english")
    start = Position.initial(rules)
    lines = {f"{canonical_notation(m, start)} {canonical_notation(n, start.play(m))}"
             for m in start.legal_moves() for n in start.play(m).legal_moves()}
    two = _family("english", "2move")
    assert len(lines) == 49 and {" ".join(e.notation) for e in two} == lines
    assert Counter(f for e in two for f in e.flags) == {"standard": 43, "lost": 6}
    firsts = {e.line[:2] for e in two}
    assert all(e.line[:2] in firsts for e in _family("english", "acf-3move"))


def test_eleven_man_ballots_agree_with_the_reference() -> None:
    path = shared_path("openings", "pydraughts", "11_english.json")
    ref = json.loads(path.read_text(encoding="utf-8"))
    rules = get_rules("english")
    ours = _family("english", "11man")
    assert len(ours) == len(ref["all"]) == 2500
    assert sum("lost" in e.flags for e in ours) == len(ref["lost"]) == 247
    for e, fen in zip(ours, ref["all"].values(), strict=True):
        assert e.depth == 2 and e.position == parse_fen(fen, rules)
        assert len(e.start.white_men) == len(e.start.black_men) == 11


def test_italian_eleven_man_positions_agree_with_the_reference() -> None:
    path = shared_path("openings", "pydraughts", "11_italian.json")
    ref = json.loads(path.read_text(encoding="utf-8"))["all"]
    rules = get_rules("italian")
    ours = _family("italian", "11man")
    assert [e.code for e in ours] == list(ref)
    assert all(e.position == parse_fen(ref[e.code], rules) for e in ours)
    assert len({e.position for e in ours}) == 2400


@pytest.mark.parametrize("variant", ["russian", "brazilian"])
def test_code_tables_reach_the_reference_positions(variant: str) -> None:
    """Each code's line ends where the reference FEN says (XXVII-9, whose FEN has the other
    side to move, excepted: the table follows its line)."""
    path = shared_path("openings", "pydraughts", f"{variant}.json")
    ref = {k.split(": ", 1)[0]: v for k, v in
           json.loads(path.read_text(encoding="utf-8"))["all"].items()}
    rules = get_rules(variant)
    codes = _family(variant, "codes")
    assert len(codes) == {"russian": 349, "brazilian": 342}[variant]
    for e in codes:
        want = parse_fen(ref[e.code], rules)
        if e.code == "XXVII-9":
            assert e.position != want and e.position == want.with_side("W")
        else:
            assert e.position == want, e.code


def test_basic_positions_serve_russian_and_brazilian() -> None:
    for v in ("russian", "brazilian"):
        basic = _family(v, "basic-150")
        assert len(basic) == 150 and basic[0].full_code == "150:1-I"
        assert [e.code for e in basic if "free" in e.flags] == ["5-VII"]


def test_international_first_moves_and_replies() -> None:
    firsts = _family("international", "first-moves")
    assert Counter(f for e in firsts for f in e.flags) == {"first-move": 9, "reply": 81}
    names = {e.name: " ".join(e.line) for e in firsts if e.name}
    assert names["Chefneux opening"] == "32-28 18-23"


def test_named_openings_carry_their_lines() -> None:
    en = {e.name: " ".join(e.notation) for e in _family("english", "names")}
    assert en["Old Fourteenth"] == "11-15 23-19 8-11 22-17 4-8"
    assert en["Black Doctor"].endswith("17-14 10x17 19x10 7x14")
    ru = {e.name: e for e in _family("russian", "names")}
    assert ru["Городская партия"].translit == "Gorodskaya partiya"
    assert " ".join(ru["Кол"].notation) == "c3-d4 b6-a5 d4-c5 d6:b4 a3:c5"
