"""Every real collection in ../shared/data reads: game counts as a person counts them, no
syntax error, the standard's syntax corpus, and the quirks SOURCES.md lists."""

from __future__ import annotations

import pytest

from pdnkit.pdn import read_games
from tests.shared import SHARED_DATA, shared_path

#: games per file, counted by hand-checkable markers: one game per `[Event` line unless the
#: comment says otherwise
EXPECTED_GAMES = {
    "antidraughts/random_pdns.derived.pdn": 25,
    "brazilian/random_pdns.derived.pdn": 25,
    "breakthrough/random_pdns.derived.pdn": 25,
    "czech/mrcd2006.pdn": 44,
    "czech/mrdrcd08.pdn": 40,
    "english/1.txt": 1,  # one tab-separated move list, no tags
    "english/11_man_english.pdn": 2400,  # one FEN line per ballot (2,400 ballots)
    "english/OCA_2.0.pdn": 43,
    "english/Principles of Strategy.pdn": 16,
    "english/beginner.pdn": 58,
    "english/bridges.pdn": 267,
    "english/gem.pdn": 162,
    "english/goulds.pdn": 262,
    "english/lpc.pdn": 100,
    "english/random_pdns.derived.pdn": 30,
    "frisian/random_pdns.derived.pdn": 14,
    "frysk/random_pdns.derived.pdn": 25,
    "international/DUTCH96H.pdn": 13,
    "international/PROF2.pdn": 16,  # no Event tags: one [GameType "20"] per game
    "international/candidate95.pdn": 8,  # likewise
    "international/delfts.pdn": 2,
    "international/kurnik.pdn": 4,
    "international/nk2003-amsterdam.latin1.pdn": 33,
    "international/nk2003-amsterdam.pdn": 33,
    "international/random_pdns.derived.pdn": 13,  # one [GameType "20"] per game
    "international/schildpad.pdn": 34,
    "international/windragon.pdn": 1,
    "international/wk2003.pdn": 23,
    "italian/11_man_italian.pdn": 2400,  # one FEN line per ballot
    "russian/abatsiev.cp1251.pdn": 56,
    "russian/abatsiev.pdn": 56,
    "russian/random_pdns.derived.pdn": 9,
}

#: real files the PDN 3.0 standard puts in its *fail* set, and what a strict reader rejects
STANDARD_FAIL_SET = {
    "russian/abatsiev.pdn": "unknown move '- -'",  # game 36 records 25 moves as "N. - -"
    "international/delfts.pdn": "non-standard result token '4-6'",
    "czech/mrdrcd08.pdn": "move number '1.' with no move after it",  # "1. 1-0", game 31
}


@pytest.mark.parametrize("name", sorted(EXPECTED_GAMES))
def test_real_file_reads_with_expected_count_and_no_syntax_error(name: str) -> None:
    path = shared_path("real", *name.split("/"))
    games = list(read_games(path))
    assert len(games) == EXPECTED_GAMES[name]
    assert [g.index for g in games] == list(range(len(games)))
    errors = [str(f) for g in games for f in g.findings if f.severity.value == "error"]
    assert errors == []
    assert all(g.parsed for g in games)


def test_every_real_file_is_listed() -> None:
    root = shared_path("real")
    present = {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}
    assert present == set(EXPECTED_GAMES)


@pytest.mark.parametrize("name", sorted(STANDARD_FAIL_SET))
def test_standard_fail_set_reads_liberally_but_not_strictly(name: str) -> None:
    path = shared_path("real", *name.split("/"))
    liberal = [f for g in read_games(path) for f in g.findings]
    assert liberal and all(f.severity.value == "warning" for f in liberal)
    assert any(STANDARD_FAIL_SET[name] in f.message for f in liberal)
    strict = [f for g in read_games(path, strict=True) for f in g.findings
              if f.severity.value == "error"]
    assert strict and all(f.code == "strict-violation" for f in strict)


def test_syntax_corpus_succeed_and_fail() -> None:
    succeed = sorted(shared_path("syntax", "succeed").glob("*.pdn"))
    assert len(succeed) == 8
    for p in succeed:
        for strict in (False, True):
            games = list(read_games(p, strict=strict))
            assert games, p
            assert not [f for g in games for f in g.findings], p
    for p in sorted(shared_path("syntax", "fail").glob("*.pdn")):
        strict = [f for g in read_games(p, strict=True) for f in g.findings]
        assert any(f.severity.value == "error" for f in strict), p
        liberal = list(read_games(p))
        assert all(g.parsed for g in liberal)
        assert not [f for g in liberal for f in g.findings if f.severity.value == "error"]


def test_syntax_corpus_content() -> None:
    (g,) = read_games(shared_path("syntax", "fail", "nested_comment.pdn"))
    assert [m.text for m in g.moves] == ["33-29", "19-23", "35-30"]
    assert g.moves[2].comments_after == [" nested { comment } "]
    (g,) = read_games(shared_path("syntax", "succeed", "unicode.pdn"))
    assert g.tags == [("White", "Сергей Фадеев"), ("Black", "高文龙")]
    fens = [g.tag("FEN") for g in read_games(shared_path("syntax", "succeed", "fen.pdn"))]
    assert fens == ["?:W29,13,11:B22,4,2", "W:W31,29,K15:B14,13,12,9", "W:W31-50:B1-20"]


def test_legacy_encodings_give_the_same_text_as_the_utf8_copies() -> None:
    for legacy, utf8, enc in [
        ("russian/abatsiev.cp1251.pdn", "russian/abatsiev.pdn", "cp1251"),
        ("international/nk2003-amsterdam.latin1.pdn", "international/nk2003-amsterdam.pdn",
         "cp1252"),
    ]:
        a = list(read_games(shared_path("real", *legacy.split("/"))))
        b = list(read_games(shared_path("real", *utf8.split("/"))))
        assert [g.tags for g in a] == [g.tags for g in b]
        # the fallback sits on the game holding the first non-ASCII byte, with its line
        (first,) = [g for g in a if any(f.code == "encoding-fallback" for f in g.findings)]
        assert first.findings[0].code == "encoding-fallback" and a[0].encoding == enc
        assert first.line <= (first.findings[0].line or 0) <= (first.end_line or 0)
        assert b[0].encoding == "utf-8" and not any(g.findings for g in b[:1])
    g = next(read_games(shared_path("real", "russian", "abatsiev.cp1251.pdn")))
    assert g.tag("Site") == "Лиепая"


def test_facts_checked_by_hand() -> None:
    delfts = list(read_games(shared_path("real", "international", "delfts.pdn")))
    assert delfts[0].tag("White") == "Alexei Chizhov" and delfts[0].result == "4-6"
    assert delfts[0].moves[0].number == 1 and delfts[0].moves[1].text == "18-22"
    assert len(delfts[0].moves) == 128  # the last line is "64. 38-32  13-19 4-6"
    assert delfts[1].result == "1-9" and delfts[1].moves[-1].text == "04x24"
    czech = list(read_games(shared_path("real", "czech", "mrdrcd08.pdn")))
    assert czech[0].tag("PlyCount") == "50" and len(czech[0].moves) == 50
    assert czech[0].moves[34].squares == ("a3", "c5", "e7")  # 18. a3xc5xe7
    assert czech[30].moves == [] and czech[30].result == "1-0"
    aba = list(read_games(shared_path("real", "russian", "abatsiev.pdn")))
    assert [m.placeholder for m in aba[35].moves] == [True] * 25
    (wd,) = read_games(shared_path("real", "international", "windragon.pdn"))
    assert ("eval", "-0.048") in wd.moves[9].commands
    kurnik = list(read_games(shared_path("real", "international", "kurnik.pdn")))
    assert kurnik[0].tag("GameType") == "20,W,10,10,N1,0" and kurnik[0].result == "0-1"


def test_shared_data_location() -> None:
    if not SHARED_DATA.is_dir():
        pytest.skip("shared data absent")
    assert (SHARED_DATA / "SOURCES.md").is_file()
