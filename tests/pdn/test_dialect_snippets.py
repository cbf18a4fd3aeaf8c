"""The six points of issue 22, each from a snippet written in the style a user met (written
for these tests, not copied from anyone's file): every one of them used to come out wrong
without a word."""

from __future__ import annotations

from pdnkit.pdn import read_games
from pdnkit.pdn.tags import game_tags
from pdnkit.validation import validate


def _codes(rec: object) -> list[str]:
    return [f.code for f in rec.findings]  # type: ignore[attr-defined]


# 1. literal backslash-r at every line end; the Result tag on the 2-point scale, '*' ending
ESCAPED = (
    '[Event "Clubkampioenschap 2019"]\\r\n[Site "Paramaribo"]\\r\n[Date "2019.03.02"]\\r\n'
    '[Round "4"]\\r\n[White "Doelwijt, Ronald"]\\r\n[Black "Kasanwikrama, Iwan"]\\r\n'
    '[Result "2-0"]\\r\n\\r\n1. 32-28 17-21 2. 37-32 21-26 3. 41-37 19-23 4. 28x19 14x23 *\\r\n'
    '\\r\n'
    '[Event "Clubkampioenschap 2019"]\\r\n[Site "Paramaribo"]\\r\n[Date "2019.03.02"]\\r\n'
    '[Round "4"]\\r\n[White "Tjon, Marc"]\\r\n[Black "Sedney, Eric"]\\r\n'
    '[Result "1-1"]\\r\n\\r\n1. 33-28 18-23 2. 39-33 12-18 *\\r\n')


def test_literal_escape_text_at_line_ends_is_layout() -> None:
    games = list(read_games(ESCAPED))
    assert len(games) == 2
    t = game_tags(games[0])
    assert (t.event, t.site, t.round, t.white, t.black, t.result) == (
        "Clubkampioenschap 2019", "Paramaribo", "4", "Doelwijt, Ronald",
        "Kasanwikrama, Iwan", "2-0")
    assert [len(g.moves) for g in games] == [8, 4]
    assert _codes(games[0]) == ["escaped-line-ends"] and _codes(games[1]) == []
    reps = list(validate(ESCAPED, "international"))
    assert [(r.result, r.result_raw, r.result_source) for r in reps] == [
        ("1-0", "2-0", "tag"), ("1/2-1/2", "1-1", "tag")]


# 2. a tag line without its '[': its year must not be replayed as the move 20-25
NO_BRACKET = ('[Event "Open Paramaribo"]\n[Date "2025.06.14"]\n'
              'Event "Veteranenkampioenschap van Suriname 2025"]\n'
              '[White "Eersel, H."]\n[Black "Pinas, R."]\n[Result "0-2"]\n\n'
              '1. 32-28 18-23 2. 33-29 23x32 3. 37x28 *\n')


def test_a_tag_without_its_bracket_is_a_tag_not_moves() -> None:
    (g,) = read_games(NO_BRACKET)
    assert g.tags[2] == ("Event", "Veteranenkampioenschap van Suriname 2025")
    assert [m.text for m in g.moves] == ["32-28", "18-23", "33-29", "23x32", "37x28"]
    assert _codes(g) == ["unknown-tag-syntax"]
    (rep,) = validate(NO_BRACKET, "international")
    assert "duplicate-tag" in rep.finding_codes() and rep.result == "0-1"
    assert rep.ply_count == 5 and rep.status == "warning"


# 3. a blank line inside a tag block
BLANK_IN_HEADER = ('[Event "Kampioenschap"]\n[Site "Nieuw-Nickerie"]\n\n[White "Amatdjais, S."]\n'
                   '[Black "Wongsodikromo, T."]\n[Result "1-1"]\n\n1. 31-26 19-23 2. 36-31 *\n\n'
                   '[Event "Kampioenschap"]\n\n[White "Fung, A."]\n[Black "Lie, B."]\n'
                   '[Result "2-0"]\n\n1. 32-28 *\n')


def test_a_blank_line_inside_a_tag_block_does_not_split_the_game() -> None:
    games = list(read_games(BLANK_IN_HEADER))
    assert [(game_tags(g).event, game_tags(g).white, game_tags(g).result, len(g.moves))
            for g in games] == [("Kampioenschap", "Amatdjais, S.", "1-1", 3),
                                ("Kampioenschap", "Fung, A.", "2-0", 1)]
    assert [g.line for g in games] == [1, 10] and not any(g.findings for g in games)


def test_a_header_that_really_stands_alone_is_still_a_game_of_its_own() -> None:
    # the second block repeats the first one's fields: two games, the first without moves
    text = ('[Event "Probleem 1"]\n[White "Sijbrands"]\n\n'
            '[Event "Probleem 2"]\n[White "Baljakin"]\n[FEN "W:W28:B19"]\n1. 28x17 *\n')
    games = list(read_games(text))
    assert [(g.tag("Event"), len(g.moves)) for g in games] == [("Probleem 1", 0),
                                                               ("Probleem 2", 1)]


# 4. a tag pair broken over two lines: '[' alone at the end of one line
BROKEN_TAG = ('[\nEvent "Toernooi der Kampioenen"]\n[White "Sno, W."]\n[Result "0-2"]\n\n'
              '1. 34-29 19-24 2. 29x20 15x24 0-2\n\n'
              '[Event "Toernooi der Kampioenen"]\n[White "Ramdin, K."]\n[Result "1-1"]\n\n'
              '1. 32-28 1-1\n')


def test_a_tag_pair_broken_over_two_lines_is_one_tag_and_numbering_is_the_files() -> None:
    games = list(read_games(BROKEN_TAG))
    assert [(g.index, g.tag("Event"), g.tag("White")) for g in games] == [
        (0, "Toernooi der Kampioenen", "Sno, W."), (1, "Toernooi der Kampioenen", "Ramdin, K.")]
    assert not any(g.findings for g in games)
    assert [r.index for r in validate(BROKEN_TAG, "international")] == [0, 1]


# 5. tag names with HTML character references, French names, a C-style escape
FRENCH = ('[&#x00c9;v&#x00e9;nement "Championnat de France"]\n[Lieu "Montpellier"]\n'
          '[Date "2011.08.20"]\n[Manche "3"]\n[Blanc "D\\\'Almeida, Jo&#x00e3;o"]\n'
          '[Noir "Deslauriers, Fran&ccedil;ois"]\n[R&#x00e9;sultat "0-2"]\n'
          '[Type de jeu "20"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n')


def test_french_names_entities_and_c_style_escapes_reach_their_fields() -> None:
    (g,) = read_games(FRENCH)
    t = game_tags(g)
    assert (t.event, t.site, t.round, t.white, t.black, t.result, t.gametype) == (
        "Championnat de France", "Montpellier", "3", "D'Almeida, João",
        "Deslauriers, François", "0-2", "20")
    assert g.tags[0] == ("Événement", "Championnat de France")  # decoded, as written
    assert sorted(_codes(g)) == ["c-style-escapes", "html-entities"]
    (rep,) = validate(FRENCH)
    assert (rep.variant, rep.result, rep.white) == ("international", "0-1", "D'Almeida, João")
    assert "variant-guessed" not in rep.finding_codes()


# 6. a lone '-' where the result belongs, and a record that begins with [Empty]
ODD_ENDINGS = ('[Event "Onderlinge"]\n[White "Vos, P."]\n[Black "Kok, J."]\n[Result "-"]\n\n'
               '1. 32-28 18-23 2. 38-32 12-18 -\n\n'
               '[Empty] 1. 33-28 17-22 2. 28x17 11x22 2-0\n')


def test_a_lone_dash_and_an_empty_bracket_each_stay_one_game_with_their_moves() -> None:
    games = list(read_games(ODD_ENDINGS))
    assert [(g.result, len(g.moves), g.tags[:1]) for g in games] == [
        ("*", 4, [("Event", "Onderlinge")]), ("2-0", 4, [])]
    assert _codes(games[0]) == ["lone-dash-result"]
    assert _codes(games[1]) == ["ignored-text"]
    assert games[1].moves[0].comments_before == ["[Empty]"]  # kept, convert writes it
    reps = list(validate(ODD_ENDINGS, "international"))
    assert [(r.result, r.ply_count) for r in reps] == [("*", 4), ("1-0", 4)]
