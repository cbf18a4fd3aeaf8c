"""Decoding: encodings judged by the text (issue 10 point 3 and 7)."""

from __future__ import annotations

import pytest

from pdnkit.pdn.decode import decide, detect_encoding, detect_wide
from pdnkit.pdn.reader import read_games
from tests.shared import shared_path

RUSSIAN = ('[Event "Чемпионат СССР"]\n[White "Блиндер Б."]\n[Black "Иванов И."]\n'
           '[Site "Москва"]\n1. c3-d4 f6-g5 2-0\n\n'
           '[White "Абациев"]\n[Black "Жуков"]\n1. c3-b4 b6-a5 0-2\n')


def codes(rec) -> list[str]:
    return [f.code for f in rec.findings]


def test_cp866_text_reads_as_cp866_not_cp1251(tmp_path) -> None:
    """The user's report: `Блиндер Б.` in a DOS file came back as `Ѓ«Ё­¤Ґа Ѓ.`."""
    p = tmp_path / "dos.pdn"
    p.write_bytes(RUSSIAN.encode("cp866"))
    games = list(read_games(p))
    assert [g.tag("White") for g in games] == ["Блиндер Б.", "Абациев"]
    assert games[0].tag("Event") == "Чемпионат СССР" and games[0].encoding == "cp866"
    (f,) = [f for f in games[0].findings if f.code == "encoding-fallback"]
    assert f.details == {"encoding": "cp866"} and f.line == 1 and "cp866" in f.message


@pytest.mark.parametrize("name", ["Блиндер Б.", "ИВАНОВ", "Фёдоров", "Щёголев Ю.А."])
def test_short_russian_names_in_each_cyrillic_encoding(name: str) -> None:
    text = f'[White "{name}"]\n1. c3-d4 *\n'
    for enc in ("cp866", "cp1251"):
        assert detect_encoding(text.encode(enc)) == enc, (name, enc)
        (g,) = read_games(text.encode(enc))
        assert g.tag("White") == name


@pytest.mark.parametrize("name", ["Müller", "Frédéric Hoogland", "Gérard Jansen", "één",
                                  "Bjørn Ærø"])
def test_western_names_stay_cp1252(name: str) -> None:
    data = f'[White "{name}"]\n1. 32-28 *\n'.encode("cp1252")
    assert detect_encoding(data) == "cp1252"
    (g,) = read_games(data)
    assert g.tag("White") == name and codes(g) == ["encoding-fallback"]


def test_shared_cp1251_file_reads_like_its_utf8_copy() -> None:
    legacy = shared_path("real", "russian", "abatsiev.cp1251.pdn")
    utf8 = shared_path("real", "russian", "abatsiev.pdn")
    assert detect_encoding(legacy.read_bytes()) == "cp1251"
    a, b = list(read_games(legacy)), list(read_games(utf8))
    assert [g.tags for g in a] == [g.tags for g in b]
    # the same text re-encoded as CP866 is recognised as such
    c = list(read_games(utf8.read_text(encoding="utf-8").encode("cp866")))
    assert [g.tags for g in c] == [g.tags for g in b] and c[0].encoding == "cp866"


def test_encoding_option_overrides_detection() -> None:
    data = RUSSIAN.encode("cp866")
    (g, _) = read_games(data, encoding="cp1251")  # the user insists: mojibake, no fallback
    assert g.tag("White") == "Блиндер Б.".encode("cp866").decode("cp1251")
    (g, _) = read_games(data, encoding="cp866")
    assert g.tag("White") == "Блиндер Б." and g.encoding == "cp866"


@pytest.mark.parametrize("enc", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le",
                                 "utf-32-be"])
def test_utf16_and_utf32_with_or_without_bom(enc: str) -> None:
    """The user's report: UTF-16/32 files gave 0 games."""
    data = RUSSIAN.encode(enc)
    assert detect_wide(data) == enc
    games = list(read_games(data))
    assert [g.tag("White") for g in games] == ["Блиндер Б.", "Абациев"]
    assert [g.line for g in games] == [1, 7]
    assert not any(f.code == "encoding-fallback" for g in games for f in g.findings)


def test_utf8_with_a_few_invalid_bytes_stays_utf8_and_names_the_line() -> None:
    """The user's report: one invalid byte made the whole file CP1252 (mojibake in every
    game, a warning on game 0 only)."""
    games_text = [f'[White "Sijbrands é{i}"]\n[Black "Ω"]\n1. 32-28 *\n\n' for i in range(6)]
    data = "".join(games_text).encode("utf-8")
    bad = data.replace("é3".encode(), b"\xe93")  # a stray Latin-1 byte: game 3, line 13
    games = list(read_games(bad))
    assert [g.tag("White") for g in games] == [
        "Sijbrands é0", "Sijbrands é1", "Sijbrands é2", "Sijbrands \ufffd3", "Sijbrands é4",
        "Sijbrands é5"]
    assert [g.encoding for g in games] == ["utf-8"] * 6
    assert [codes(g) for g in games] == [[], [], [], ["invalid-bytes"], [], []]
    (f,) = games[3].findings
    assert (f.line, f.column, f.game_index) == (13, 19, 3) and "e9" in f.message


def test_legacy_only_without_valid_utf8_text() -> None:
    assert decide("Müller Ω".encode() + b" \xfc") == "utf-8"
    assert decide(b"M\xfcller") == "cp1252"
    assert decide("Фёдор Жуков".encode("cp1251")) == "cp1251"


def test_fallback_sits_on_the_game_with_the_first_legacy_byte() -> None:
    data = ('[White "A"]\n1. 32-28 *\n\n[White "B"]\n*\n\n[White "Müller"]\n*\n'
            ).encode("cp1252")
    games = list(read_games(data))
    assert [codes(g) for g in games] == [[], [], ["encoding-fallback"]]
    assert games[2].findings[0].line == 7 and games[2].tag("White") == "Müller"


def test_detection_reads_a_bounded_window(tmp_path) -> None:
    """Only about a megabyte from the first non-ASCII byte decides; a late legacy byte in
    a long ASCII file still gets a decision (and its game the finding)."""
    ascii_games = '[White "A"]\n1. 32-28 *\n\n' * 100_000  # 2.6 MB of ASCII
    data = (ascii_games + '[White "Жуков"]\n1. 32-28 *\n').encode("cp1251")
    p = tmp_path / "late.pdn"
    p.write_bytes(data)
    games = list(read_games(p))
    assert len(games) == 100_001 and games[-1].tag("White") == "Жуков"
    assert codes(games[-1]) == ["encoding-fallback"] and games[-1].findings[0].line == 300_001


@pytest.mark.parametrize("encoding", [None, "utf-8", "utf-8-sig"])
def test_a_utf8_bom_is_no_text(encoding: str | None) -> None:
    (g,) = read_games(b'\xef\xbb\xbf[Event "\xc3\xa9"]\n1. 32-28 *\n', encoding=encoding)
    assert g.tags == [("Event", "é")] and g.parsed and g.findings == []
