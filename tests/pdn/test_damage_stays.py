"""Damage stays inside the game it is in (point 4 of the issue "The next exporters and the
next attacks"): a doubled ``[``, a NUL byte in a tag line, a quote never closed and bytes
that are not UTF-8 cost their own game at most; every neighbour reads as it would without
them. Hand-written snippets, then a seeded round of damage over a file of intact games."""

from __future__ import annotations

import random

import pytest

from pdnkit.pdn import read_games


def _view(data: bytes | str) -> list[tuple[object, ...]]:
    return [(tuple(g.tags), len(g.moves), g.result, tuple(f.code for f in g.findings))
            for g in read_games(data)]


INTACT = ('[Event "A"]\n[White "Wit"]\n1. 32-28 19-23 *\n\n'
          '[Event "B"]\n[White "Piet"]\n1. 32-28 *\n\n'
          '[Event "C"]\n[White "Roel"]\n1. 33-28 *\n')


@pytest.mark.parametrize("damaged", [
    '[Ev\0ent "B"]', '\0[Event "B"]', '[\0Event "B"]', '[Event\0 "B"]', '[Event "B"]\0',
    '[Event "B"\0]', '[Event "B\0\0\0"]'])
def test_a_nul_byte_in_a_tag_line_costs_nothing_but_a_finding(damaged: str) -> None:
    data = INTACT.replace('[Event "B"]', damaged).encode()
    games = list(read_games(data))
    assert _view(INTACT)[0] == _view(data)[0] and _view(INTACT)[2] == _view(data)[2]
    assert games[1].tags == [("Event", "B"), ("White", "Piet")]
    (f,) = games[1].findings
    assert (f.code, f.line, f.game_index) == ("invalid-bytes", 5, 1) and "NUL" in f.message


def test_a_nul_byte_in_text_input_is_removed_too() -> None:
    games = list(read_games(INTACT.replace('[Event "B"]', '[Ev\0ent "B"]')))
    assert [g.tag("Event") for g in games] == ["A", "B", "C"]


@pytest.mark.parametrize(("broken", "tags", "moves"), [
    # one line a game: the value stops before the moves, the game keeps them and its result
    ('[Event "B"] [FEN "W:W31,32:B1,2 1. 31-26 1-7 *',
     [("Event", "B"), ("FEN", "W:W31,32:B1,2")], 2),
    # the quote's line ends with the tag's ]: the next tag on the line is the next tag
    ('[Event "B"] [Result "*] [FEN "W:W31,32:B1,2"] 1. 31-26 1-7 *',
     [("Event", "B"), ("Result", "*"), ("FEN", "W:W31,32:B1,2")], 2),
    ('[Event "B"] [FEN "W:W31,32:B1,2 [White "Piet"]\n1. 31-26 1-7 *',
     [("Event", "B"), ("FEN", "W:W31,32:B1,2"), ("White", "Piet")], 2),
    # a game of tags only, its FEN never closed, then a blank line and the next game
    ('[Event "B"]\n[FEN "W:W31,32:B1,2', [("Event", "B"), ("FEN", "W:W31,32:B1,2")], 0),
])
def test_a_quote_never_closed_keeps_to_its_own_game(broken: str, tags: list[tuple[str, str]],
                                                     moves: int) -> None:
    text = '[Event "A"]\n[White "Wit"]\n1. 32-28 19-23 *\n\n' + broken + \
        '\n\n[Event "C"]\n[White "Roel"]\n1. 33-28 *\n'
    a, b, c = read_games(text)
    assert (a.tags, len(a.moves), a.findings) == ([("Event", "A"), ("White", "Wit")], 2, [])
    assert b.tags == tags and len(b.moves) == moves
    assert "unknown-tag-syntax" in [f.code for f in b.findings]
    assert (c.tags, len(c.moves), c.findings) == ([("Event", "C"), ("White", "Roel")], 1, [])


def test_one_game_in_a_legacy_encoding_does_not_change_its_neighbours() -> None:
    """The user's report: one game of CP1251 bytes in a UTF-8 file turned every name of the
    file into mojibake (Frédéric read as FrГ©dГ©ric)."""
    data = ('[Event "Zomer"]\n[White "Frédéric Hoogland"]\n1. 32-28 *\n\n'.encode()
            + '[Event "Лето"]\n[White "Петров Иван"]\n1. 32-28 *\n\n'.encode("cp1251")
            + '[Event "Zomer"]\n[White "Noël"]\n1. 33-28 *\n'.encode())
    games = list(read_games(data))
    assert [g.tag("White") for g in games] == ["Frédéric Hoogland", "Петров Иван", "Noël"]
    assert [g.encoding for g in games] == ["utf-8", "cp1251", "utf-8"]
    assert [[f.code for f in g.findings] for g in games] == [[], ["encoding-fallback"], []]
    assert games[1].findings[0].line == 5 and "this game" in games[1].findings[0].message


def test_a_character_cut_short_is_replaced_on_its_line() -> None:
    data = ('[White "Gérard"]\n1. 32-28 *\n\n[White "B"]\n1. 32-28 17-2').encode() + \
        b"\xe2\x822 *\n"
    a, b = read_games(data)
    assert a.tag("White") == "Gérard" and a.findings == []
    assert b.encoding == "utf-8" and [f.code for f in b.findings][0] == "invalid-bytes"
    assert b.findings[0].line == 5 and "\ufffd" in b.raw  # (and 17-2\ufffd2 is no move)


def test_a_legacy_file_stays_one_legacy_file() -> None:
    data = "".join(f'[White "Фёдор Жуков {i}"]\n1. 32-28 *\n\n' for i in range(5)).encode(
        "cp1251")
    games = list(read_games(data))
    assert [g.tag("White") for g in games] == [f"Фёдор Жуков {i}" for i in range(5)]
    assert [len(g.findings) for g in games] == [1, 0, 0, 0, 0]  # one encoding-fallback


# -- seeded damage -------------------------------------------------------------------------

_TAGS = ('[Event "E{i}"]', '[Site "S{i}"]', '[White "W{i}"]', '[Black "B{i}"]',
         '[Result "*"]', '[FEN "W:W31,32,33:B1,2,3"]')
_DAMAGE = {
    "unclosed": lambda t: t.replace('"]', "", 1),
    "unclosed-kept-bracket": lambda t: t.replace('"]', "]", 1),
    "nul-in-name": lambda t: t[:3] + "\0" + t[3:],
    "nul-first": lambda t: "\0" + t,
    "nul-in-value": lambda t: t.replace('"', '"\0', 1),
    "doubled-bracket": lambda t: "[" + t,
    "no-space": lambda t: t.replace(' "', '"', 1),
    "tab": lambda t: t.replace(' "', '\t"', 1),
    "spaces": lambda t: t.replace(' "', '    "', 1),
}


def _file(layout: str, damage: tuple[int, int, str] | None = None) -> str:
    games = []
    for i in range(6):
        tags = [t.format(i=i) for t in _TAGS]
        if damage is not None and damage[0] == i:
            tags[damage[1]] = _DAMAGE[damage[2]](tags[damage[1]])
        if layout == "blank":
            games.append("\n".join(tags) + "\n\n1. 31-26 1-7 *\n")
        elif layout == "tight":
            games.append("\n".join(tags) + "\n1. 31-26 1-7 *\n")
        elif layout == "one-line":
            games.append(" ".join(tags) + " 1. 31-26 1-7 *\n")
        else:  # header-only games
            games.append("\n".join(tags) + "\n")
    return "\n".join(games)


@pytest.mark.parametrize("seed", range(4))
def test_seeded_damage_never_reaches_a_neighbour(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(40):
        layout = rng.choice(["blank", "tight", "one-line", "header-only"])
        clean = _view(_file(layout))
        assert len(clean) == 6
        k, t, kind = rng.randrange(6), rng.randrange(len(_TAGS)), rng.choice(sorted(_DAMAGE))
        got = _view(_file(layout, (k, t, kind)).encode())
        case = (layout, k, t, kind)
        assert len(got) == 6, case
        assert [g for i, g in enumerate(got) if i != k] == [
            g for i, g in enumerate(clean) if i != k], case
        assert len(got[k][0]) == 6 and got[k][1:3] == clean[k][1:3], case
