"""Reading PDN: constructs of the standard and of real files, checked against the text."""

from __future__ import annotations

import io

import pytest

from pdnkit.pdn import read_games
from pdnkit.pdn.reader import parse_game


def one(text: str, **kw: object):
    games = list(read_games(text, **kw))
    assert len(games) == 1, [g.raw for g in games]
    return games[0]


def codes(rec) -> list[str]:
    return [f.code for f in rec.findings]


# ---- moves --------------------------------------------------------------------------------

def test_numeric_moves_captures_and_full_paths() -> None:
    g = one("1. 32-28 19-23 2. 28x19 14x23 3. 37-32 23x41x32 *")
    assert [m.squares for m in g.moves] == [
        ("32", "28"), ("19", "23"), ("28", "19"), ("14", "23"), ("37", "32"),
        ("23", "41", "32")]
    assert [m.is_capture for m in g.moves] == [False, False, True, True, False, True]
    assert [m.number for m in g.moves] == [1, None, 2, None, 3, None]
    assert g.result == "*" and g.parsed and not g.findings


def test_alphanumeric_moves_all_separators() -> None:
    g = one("1. c3-d4 f6-g5 2. d4xf6 g7:e5 3. a3b4 e5-f4 4. g3xe5xc7 *")
    assert [m.squares for m in g.moves][2:4] == [("d4", "f6"), ("g7", "e5")]
    assert g.moves[3].separators == (":",) and g.moves[3].is_capture
    assert g.moves[4].squares == ("a3", "b4") and g.moves[4].separators == ("",)
    assert g.moves[6].squares == ("g3", "e5", "c7")
    assert not g.findings  # all of these are PDN 3.0


def test_leading_zeros_and_move_numbers() -> None:
    g = one("01. 34-29  06-11 02. 32-28 12... 01-06 *")
    assert g.moves[0].number == 1 and g.moves[1].squares == ("06", "11")
    assert g.moves[3].number == 12 and g.moves[3].black_dots
    assert g.moves[3].text == "01-06"


def test_dots_forms_and_moves_without_numbers() -> None:
    g = one("32-28 19-23 1. ... 7-12 5...18-23 *")
    assert [m.number for m in g.moves] == [None, None, 1, 5]
    assert g.moves[2].black_dots and g.moves[3].black_dots
    assert not any(m.placeholder for m in g.moves)


def test_king_move_1_18_is_a_move_before_result_1_1() -> None:
    g = one('[Result "1-1"]\n1. 1-18 1-1')
    assert [m.text for m in g.moves] == ["1-18"]
    assert g.result == "1-1"
    g = one("1. 32-28 1-1")
    assert [m.text for m in g.moves] == ["32-28"] and g.result == "1-1"


@pytest.mark.parametrize("token", ["2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "1/2-1/2", "*"])
def test_every_result_token(token: str) -> None:
    g = one(f"1. 32-28 19-23 {token}")
    assert g.result == token and len(g.moves) == 2 and not g.findings


@pytest.mark.parametrize("token", ["½-½", "0.5-0.5"])
def test_half_point_forms_are_results_with_a_warning(token: str) -> None:
    g = one(f"1. 32-28 19-23 {token}")
    assert g.result == token and len(g.moves) == 2
    assert codes(g) == ["strict-violation"]


def test_match_score_as_result_when_it_equals_the_result_tag() -> None:
    # delfts.pdn style: the score 4-6 stands where the terminator goes
    g = one('[Result "4-6"]\n01. 34-29 18-22 02. 32-28 4-6\n')
    assert [m.text for m in g.moves] == ["34-29", "18-22", "32-28"]
    assert g.result == "4-6"
    assert codes(g) == ["strict-violation"]


def test_spaces_inside_moves() -> None:
    g = one("1. 37-32  7-12 2. 41-37  1- 7 3. 46-41 16x 7 *")
    assert g.moves[3].squares == ("1", "7") and g.moves[5].squares == ("16", "7")
    assert g.moves[5].is_capture


def test_strength_nags_and_parenthesised_strength() -> None:
    g = one("1.32-28!? 19-23(!?!!!) 2.28x19 $3 $14 14x23?? *")
    assert [m.strength for m in g.moves] == ["!?", "(!?!!!)", None, "??"]
    assert g.moves[2].nags == [3, 14]


def test_glued_star_is_a_forced_move_mark() -> None:
    g = one("1. 32-28 19-23 2. 1-6* 32-28 *")
    assert [m.text for m in g.moves] == ["32-28", "19-23", "1-6", "32-28"]
    assert g.moves[2].nags == [7] and g.result == "*"
    assert codes(g) == ["strict-violation"]


def test_placeholders() -> None:
    g = one("1. - - 2. - - 0-0")
    assert [m.placeholder for m in g.moves] == [True, True]
    assert [m.number for m in g.moves] == [1, 2] and g.result == "0-0"


# ---- comments, variations, setups -------------------------------------------------------

def test_comments_before_and_after_and_clock_commands() -> None:
    g = one("{start} 1. 33-29 {[%clk 1:55:21] good} 20-25 {[%clock w0:00:10 B0:00:03]} *")
    assert g.moves[0].comments_before == ["start"]
    assert g.moves[0].comments_after == ["[%clk 1:55:21] good"]
    assert g.moves[0].commands == [("clk", "1:55:21")]
    assert g.moves[1].commands == [("clock", "w0:00:10 B0:00:03")]


def test_multiline_comment_and_line_comment() -> None:
    g = one("1. 32-28 {a comment\nover two lines} 19-23 ; rest of line\n2. 28x19 *")
    assert g.moves[0].comments_after == ["a comment\nover two lines"]
    assert g.moves[1].comments_after == [" rest of line"]
    assert codes(g) == ["strict-violation"]  # ';' is not PDN 3.0


def test_percent_escape_lines_are_ignored() -> None:
    g = one('% Board game: International Draughts 10x10\n[Date "2012.02.01"]\n'
            "% an escape line in the moves\n1. 32-28 19-23\n")
    assert g.tags == [("Date", "2012.02.01")] and len(g.moves) == 2 and not g.findings
    assert g.line == 2


def test_nested_variations_hang_on_the_move_they_replace() -> None:
    # the PDN 3.0 standard's own example (syntax/succeed/variation.pdn)
    g = one("32-28 19-23 (18-23 38-32 (37-32? 23-29! { Black wins }) 12-18) 28x19 14x23")
    assert [m.text for m in g.moves] == ["32-28", "19-23", "28x19", "14x23"]
    (var,) = g.moves[1].variations
    assert [m.text for m in var] == ["18-23", "38-32", "12-18"]
    (inner,) = var[1].variations
    assert [m.text for m in inner] == ["37-32", "23-29"]
    assert inner[0].strength == "?" and inner[1].comments_after == [" Black wins "]


def test_mid_game_setup() -> None:
    g = one('1. 32-28 /FEN "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"/ 2. 22-17 *')
    assert g.moves[1].setup_before == "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"
    g = one('/FEN "W:W31-50:B1-20"/ 1. 32-28 *')
    assert g.setup == "W:W31-50:B1-20"


def test_games_without_moves() -> None:
    g = one('[FEN "W:W31,29,K15:B14,13,12,9"]\n*\n')
    assert g.moves == [] and g.result == "*" and g.setup == "W:W31,29,K15:B14,13,12,9"
    g = one('[Event "header only"]\n[White "A"]\n')
    assert g.tags == [("Event", "header only"), ("White", "A")] and g.result is None
    g = one('[Event "no moves"]\n2-0\n')
    assert g.moves == [] and g.result == "2-0"


# ---- tags ---------------------------------------------------------------------------------

def test_tags_in_file_order_with_unknown_and_odd_ones() -> None:
    g = one('[Event       "XXV"]\n[Bianco "Rossi"]\n[White "a \\"b\\" c"]\n[Event "dup"]\n'
            '[setup "1"]\n[Site Amsterdam]\n1. 32-28 *')
    assert g.tags == [("Event", "XXV"), ("Bianco", "Rossi"), ("White", 'a "b" c'),
                      ("Event", "dup"), ("setup", "1"), ("Site", "Amsterdam")]
    assert g.tag("event") == "XXV" and g.tag("Nero") is None
    msgs = [f.message for f in g.findings]
    assert any("capital" in m for m in msgs) and any("without quotes" in m for m in msgs)


def test_forum_wrapper() -> None:
    g = one('[pdn][Event "x"]\n1. 32-28 *[/pdn]')
    assert g.tags == [("Event", "x")] and g.result == "*"
    assert codes(g) == ["strict-violation"]


# ---- splitting ----------------------------------------------------------------------------

def test_split_between_games() -> None:
    text = ('[Event "a"]\n1. 32-28 2-0[Event "b"]\n1. 33-29 *\n'
            '[FEN "W:W1:B2"] * [FEN "B:W1:B2"] 1-1\n'
            '1. 31-27 0-2\n1. 34-30 0-0\n')
    games = list(read_games(text))
    assert [g.tag("Event") for g in games[:2]] == ["a", "b"]
    assert [g.result for g in games] == ["2-0", "*", "*", "1-1", "0-2", "0-0"]
    assert [g.index for g in games] == list(range(6))
    assert [g.line for g in games] == [1, 2, 4, 4, 5, 6]


def test_text_between_games_is_not_a_game() -> None:
    text = ('[Event "a"]\n1. 32-28 2-0\n\nThis collection was typed by hand.\n\n'
            '[Event "b"]\n1. 33-29 *\n')
    games = list(read_games(text))
    assert [g.tag("Event") for g in games] == ["a", "b"]
    # the note is kept (a comment) with the game it follows, and said there
    assert codes(games[0]) == ["ignored-text"] and codes(games[1]) == []
    assert games[0].moves[-1].comments_after == ["This collection was typed by hand."]


def test_result_on_its_own_line_and_no_result() -> None:
    games = list(read_games('[Event "a"]\n1. 32-28 19-23\n2-0\n\n[Event "b"]\n1. 33-29\n'
                            '[Event "c"]\n'))
    assert [(g.tag("Event"), g.result, len(g.moves)) for g in games] == [
        ("a", "2-0", 2), ("b", None, 1), ("c", None, 0)]


def test_result_tokens_inside_comments_and_variations_do_not_split() -> None:
    games = list(read_games("1. 32-28 {not over: 2-0 *} 19-23 (19-24 *) 2. 28x19 0-2"))
    assert len(games) == 1 and len(games[0].moves) == 3 and games[0].result == "0-2"


# ---- syntax errors ------------------------------------------------------------------------

BROKEN = ('[Event "one"]\n1. 32-28 19-23 2-0\n\n'
          '[Event "two"]\n[White "X"]\n1) 32+28 {never closed\n2) 28+19 14+23 0-2\n\n'
          '[Event "three"]\n1. 33-29 *\n')


def test_a_syntax_error_costs_only_its_game() -> None:
    games = list(read_games(BROKEN))
    assert [g.tag("Event") for g in games] == ["one", "two", "three"]
    assert [g.parsed for g in games] == [True, False, True]
    bad = games[1]
    assert bad.tags == [("Event", "two"), ("White", "X")]
    assert "never closed" in bad.raw and bad.line == 4
    (f,) = bad.findings
    assert f.code == "syntax-error" and f.severity.value == "error"
    assert f.message == "nothing readable in the movetext: unreadable text '1) 32+28' in the movetext"
    assert (f.line, f.column, f.game_index) == (6, 1, 1)
    assert len(games[2].moves) == 1 and not games[2].findings


def test_unclosed_comment_does_not_swallow_the_next_games() -> None:
    text = '[Event "a"]\n1. 32-28 {oops\n19-23\n[Event "b"]\n1. 33-29 *\n[Event "c"]\n*\n'
    games = list(read_games(text))
    assert [g.tag("Event") for g in games] == ["a", "b", "c"]
    assert [g.parsed for g in games] == [True, True, True]
    assert [m.text for m in games[0].moves] == ["32-28"]
    assert games[0].moves[0].comments_after == ["oops\n19-23"]
    assert "unclosed-comment" in [f.code for f in games[0].findings]


@pytest.mark.parametrize(("text", "message"), [
    ("1) 32+28 19+23 *", "nothing readable in the movetext"),
    ("32+28 19+23 *", "nothing readable in the movetext"),
])
def test_syntax_error_messages(text: str, message: str) -> None:
    # a game with no readable move (a broken header, unreadable movetext) is unparsed
    g = parse_game(text)
    assert not g.parsed
    (f,) = [f for f in g.findings if f.code == "syntax-error"]
    assert f.message.startswith(message), f.message
    assert f.line == 1 or message.startswith("unterminated string")


# ---- sources and line ends -----------------------------------------------------------------

TEXT = '[Event "Ω"]\n1. 32-28 {a\nb} 19-23 2-0\n\n[Event "b"]\n1. 33-29 *\n'


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_line_ends(newline: str) -> None:
    text = TEXT.replace("\n", newline)
    for src in (text.encode("utf-8"), text, io.StringIO(text, newline="")):
        games = list(read_games(src))
        assert [g.tag("Event") for g in games] == ["Ω", "b"]
        assert games[0].moves[0].comments_after == ["a\nb"]
        assert [g.line for g in games] == [1, 5] and games[1].moves[0].line == 6


def test_sources(tmp_path) -> None:
    p = tmp_path / "g.pdn"
    p.write_bytes(b"\xef\xbb\xbf" + TEXT.encode("utf-8"))
    for src in (p, str(p), open(p, "rb"), open(p, encoding="utf-8-sig"),  # noqa: SIM115
                io.BytesIO(p.read_bytes()), p.read_bytes()):
        games = list(read_games(src))
        assert [g.tag("Event") for g in games] == ["Ω", "b"], src
        assert not any(g.findings for g in games)
    assert list(read_games(p))[0].file == str(p)
    assert list(read_games(p))[0].encoding == "utf-8-sig"


def test_cp1252_and_cp1251_files_decode_with_a_finding(tmp_path) -> None:
    p = tmp_path / "w.pdn"
    p.write_bytes('[White "Gérard Jansen"]\n[Black "Baliakin"]\n1. 32-28 *\n'
                  '[White "Müller"]\n*\n'.encode("cp1252"))
    games = list(read_games(p))
    assert games[0].tag("White") == "Gérard Jansen" and games[1].tag("White") == "Müller"
    assert codes(games[0]) == ["encoding-fallback"] and games[1].findings == []
    assert "cp1252" in games[0].findings[0].message
    p.write_bytes('[White "Абаулин В."]\n[Site "Лиепая"]\n1. c3-d4 *\n'.encode("cp1251"))
    (g,) = read_games(p)
    assert g.tag("White") == "Абаулин В." and g.encoding == "cp1251"
    assert g.findings[0].details == {"encoding": "cp1251"}


def test_reading_is_lazy() -> None:
    """Games come out before the whole input is read (memory stays flat)."""

    class Lines:
        def __init__(self) -> None:
            self.consumed = 0

        def __iter__(self):
            for i in range(10**9):
                self.consumed += 1
                yield f'[Event "{i}"]\n'
                yield "1. 32-28 *\n"

    src = Lines()
    it = read_games(io.TextIOWrapper(io.BytesIO(b"")))  # a text stream source works too
    assert list(it) == []
    from pdnkit.pdn.reader import parse_game as _pg  # noqa: F401
    from pdnkit.pdn.split import split_lines

    chunks = split_lines(iter(src))
    first = [next(chunks) for _ in range(3)]
    assert [c.text.split('"')[1] for c in first] == ["0", "1", "2"]
    assert src.consumed <= 4


def test_filename_tag_after_the_result_stays_with_its_game() -> None:
    games = list(read_games('[Event "a"]\n1. 32-28 2-0\n[FILENAME "x.pdn"]\n\n'
                            '[Event "b"]\n1. 33-29 *\n[FILENAME "y.pdn"]\n'))
    assert [g.tags for g in games] == [[("Event", "a"), ("FILENAME", "x.pdn")],
                                       [("Event", "b"), ("FILENAME", "y.pdn")]]
    assert [(g.line, g.end_line) for g in games] == [(1, 3), (5, 7)]
    assert [f.line for g in games for f in g.findings] == [3, 7]


def test_a_missing_file_name_is_api_misuse() -> None:
    with pytest.raises(FileNotFoundError):
        list(read_games("no/such/file.pdn"))


def test_star_glued_to_the_last_move_is_the_terminator() -> None:
    g = one("1. 32-28 19-23 2. 28x19 14x23*")
    assert g.result == "*" and g.moves[-1].nags == [] and g.moves[-1].text == "14x23"
    assert [f.message.split(" (")[0] for f in g.findings] == [
        "game terminator '*' glued to the last move 14x23"]


def test_unusual_separators() -> None:
    g = one("1. 32\u201328 19\u201323 2. 3228 *")
    assert [m.squares for m in g.moves] == [("32", "28"), ("19", "23"), ("32", "28")]
    assert [f.code for f in g.findings] == ["strict-violation"] * 3
    assert "without a separator" in g.findings[2].message
