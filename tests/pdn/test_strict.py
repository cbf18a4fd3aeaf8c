"""Strict mode is the PDN 3.0 reading grammar (issue 10 point 6): ``read_games(strict=True)``
and ``lint --strict`` reject what the standard's grammar rejects, production by production,
and accept what it accepts; the liberal reader still reads every case."""

from __future__ import annotations

import pytest

from pdnkit.pdn.reader import read_games
from pdnkit.pdn.tools import lint
from tests.shared import shared_path


def errors(text: str, strict: bool) -> list[tuple[str, str]]:
    return [(f.code, f.message) for g in read_games(text, strict=strict) for f in g.findings
            if f.severity.value == "error"]


#: text the PDN 3.0 reading grammar accepts, one case per production
ACCEPTED = {
    "PdnFile: games separated by results and *":
        '[Event "a"]\n1. 32-28 2-0\n[Event "b"]\n1. 32-28 *\n[Event "c"]\n1. 32-28 1/2-1/2',
    "PdnFile: the last game needs no separator": "1. 32-28 19-23",
    "Game: header only, then a separator": '[FEN "W:W31-50:B1-20"]\n*\n[FEN "B:W31:B1"]\n*',
    "GameHeader: several tags, escaped quote": '[White "a \\" b"]\n[Black_2 "x"]\n32-28 *',
    "GameMove: numbers with one and three dots": "1. 32-28 1... 19-23 2.28x19 *",
    "Move: capture paths with x and :, alphanumeric, no separator": "1. 28x19x10 2. c3:e5 a3b4 *",
    "Move: ELLIPSES for an unknown move": "1. ... 19-23 *",
    "NUMSQUARE: a leading zero": "1. 06-11 *",
    "MOVESTRENGTH": "1. 32-28!? 19-23(!?) 2. 28x19?? *",
    "NAG": "1. 32-28 $1 19-23 $14 *",
    "Variation: nested": "1. 32-28 19-23 (18-23 38-32 (37-32 23-29 {wins}) 12-18) 28x19 *",
    "COMMENT and SETUP": '{start} 1. 32-28 {a} /FEN "W:W31-50:B1-20"/ 19-23 *',
    "Result: every token": "1. 32-28 0-0",
    "escape lines": "% a note\n1. 32-28 *",
}

#: text it rejects (and the liberal reader reads with a warning)
REJECTED = {
    "PdnFile: no separator before the next game's tags":
        ('[Event "a"]\n1. 32-28 19-23\n[Event "b"]\n1. 33-29 *', "missing-terminator"),
    "GameBody: an identifier among the moves":
        ("1. 32-28 Whiteoverstepped 19-23 *", "unreadable-text"),
    "GameBody: a stray bracket": ("1. 32-28 ] 19-23 *", "unreadable-text"),
    "COMMENT: unclosed": ("1. 32-28 {open", "unclosed-comment"),
    "COMMENT: nested": ("1. 32-28 {a {b} c} *", "strict-violation"),
    "COMMENT: ; line comment": ("1. 32-28 ; note\n19-23 *", "strict-violation"),
    "Variation: unclosed": ("1. 32-28 (19-23 *", "unclosed-variation"),
    "Variation: empty": ("1. 32-28 () 19-23 *", "strict-violation"),
    "Variation: a result inside": ("1. 32-28 (19-23 2-0) 19-23 *", "strict-violation"),
    "PdnTag: lower-case name": ('[event "x"]\n1. 32-28 *', "strict-violation"),
    "PdnTag: no quotes": ("[Event x]\n1. 32-28 *", "strict-violation"),
    "PdnTag: no value (a bracketed word, junk)": ("[Event]\n1. 32-28 *", "ignored-text"),
    "PdnTag: missing its ']'": ('[Event "x"\n1. 32-28 *', "unknown-tag-syntax"),
    "PdnTag: missing its '['": ('Event "x"]\n1. 32-28 *', "unknown-tag-syntax"),
    "PdnTag: a quote never closed": ('[Event "x]\n1. 32-28 *', "unknown-tag-syntax"),
    "Result: a lone '-'": ("1. 32-28 -", "lone-dash-result"),
    "PdnTag: tag after the result": ('1. 32-28 *\n[FILENAME "x.pdn"]\n', "strict-violation"),
    "MOVENUMBER: two dots": ("1.. 32-28 *", "strict-violation"),
    "GameMove: a number without a move": ("1. 2-0", "strict-violation"),
    "Move: placeholder - -": ("1. - - 19-23 *", "strict-violation"),
    "Move: no separator in a numeric move": ("1. 3228 *", "strict-violation"),
    "CAPTURESEPARATOR: capital X": ("1. 28X19 *", "strict-violation"),
    "NormalMove: '-' between three squares": ("1. 28-19-10 *", "strict-violation"),
    "MOVESEPARATOR: a non-ASCII dash": ("1. 32\u201328 *", "strict-violation"),
    "MOVESTRENGTH: '*' glued to a move": ("1. 32-28* 19-23 *", "strict-violation"),
    "Result: a non-standard token": ("1. 32-28 \u00bd-\u00bd", "strict-violation"),
    "forum wrapper": ("[pdn]1. 32-28 *[/pdn]", "strict-violation"),
}


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_strict_accepts_what_the_grammar_accepts(name: str) -> None:
    text = ACCEPTED[name]
    for strict in (False, True):
        games = list(read_games(text, strict=strict))
        assert games and all(g.parsed for g in games)
        assert [f for g in games for f in g.findings] == [], (name, strict)


@pytest.mark.parametrize("name", sorted(REJECTED))
def test_strict_rejects_what_the_grammar_rejects(name: str) -> None:
    text, code = REJECTED[name]
    strict = errors(text, True)
    assert strict and {c for c, _ in strict} == {code}, strict
    liberal = list(read_games(text))
    assert all(g.parsed for g in liberal), name
    assert errors(text, False) == []
    assert code in {f.code for g in liberal for f in g.findings}


#: tag names that are not PDN identifiers: read as written, remarked on in strict mode only
STRICT_ONLY = {
    "'-' in the name": '[Event-Date "x"]\n1. 32-28 *',
    "a name with spaces": '[Type de jeu "20"]\n1. 32-28 *',
    "a name with a character reference": '[R&#x00e9;sultat "2-0"]\n1. 32-28 *',
}


@pytest.mark.parametrize("name", sorted(STRICT_ONLY))
def test_a_tag_name_that_is_no_identifier_is_remarked_on_in_strict_mode_only(name: str) -> None:
    text = STRICT_ONLY[name]
    assert {c for c, _ in errors(text, True)} == {"strict-violation"}
    (g,) = read_games(text)
    assert g.parsed and len(g.tags) == 1
    assert [f.code for f in g.findings if f.severity.value != "info"] == []


def test_the_standards_syntax_corpus(tmp_path) -> None:
    succeed = shared_path("syntax", "succeed")
    fail = shared_path("syntax", "fail")
    assert lint([succeed], strict=True).ok
    assert lint([succeed], strict=True).findings == []
    for path in sorted(fail.glob("*.pdn")):
        assert not lint([path], strict=True).ok, path
        assert lint([path]).ok, path  # liberal: warnings only
        assert all(g.parsed and g.moves for g in read_games(path))


def test_real_files_of_the_fail_set_still_read_liberally() -> None:
    for name in ("russian/abatsiev.pdn", "international/delfts.pdn", "czech/mrdrcd08.pdn"):
        path = shared_path("real", *name.split("/"))
        assert lint([path]).ok and not lint([path], strict=True).ok
        assert all(g.parsed for g in read_games(path))
