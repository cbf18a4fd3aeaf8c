"""The colour symmetry: a signature read off its colour-swapped one equals the signature
solved, on every variant; a variant whose tables differ between the colours is solved."""

from __future__ import annotations

import pytest

from pdnkit.core.retro import Retro
from pdnkit.egdb.index import Signature, build_order, leads_to

from .support import compiled, egdb_variants


@pytest.mark.parametrize("rules", egdb_variants(), ids=lambda r: f"{r.name}-{r.edition}")
def test_read_off_the_mirror_equals_solved(rules) -> None:
    retro = compiled(rules).retro
    assert retro.symmetric
    pieces = 3 if rules.width == 8 else 2
    for sig in build_order(pieces):
        solved = retro.solve(sig)
        mirror = Signature(sig.bm, sig.bk, sig.wm, sig.wk)
        if mirror != sig and mirror in _held(retro):
            assert retro.mirror(sig)[:-1] == solved[:-1], sig  # all but the passes
        retro.add(sig, solved.width, solved.codes)
        _held(retro).add(sig)


_HELD: dict[int, set[Signature]] = {}


def _held(retro: Retro) -> set[Signature]:
    return _HELD.setdefault(id(retro), set())


def test_tables_that_differ_between_the_colours_are_not_symmetric() -> None:
    """English with one of Black's promotion squares moved: the check sees it."""
    from pdnkit.core import compiled as ext
    from pdnkit.core.pack import pack_table
    from pdnkit.rules import get_rules

    rules = get_rules("english")
    compiled(rules)
    blob = pack_table(rules)
    assert blob is not None
    at = 15 + 1 + blob[15]  # after White's count and squares: Black's count, then squares
    assert blob[at] == 4 and list(blob[at + 1:at + 5]) == [29, 30, 31, 32]
    blob[at + 1] = 25
    core = ext.egdb_set(rules)[0]
    retro = Retro(core, core.egdb_new(core.table(blob.tobytes()), False))
    assert not retro.symmetric
    retro.add((0, 1, 0, 0), 1, bytes(64))
    with pytest.raises(ValueError, match="not the same for both colours"):
        retro.mirror((0, 0, 0, 1))


@pytest.mark.parametrize(("name", "expected"), [
    # RULES.md 2.13: Turkish men step forward or sideways, so the left-right mirror keeps
    # them; its kings move like rooks over all 64 squares, so every turn and reflection of
    # the square keeps a board of kings alone
    ("turkish", (2, 8)),
    # the dark squares: the half-turn and the two diagonal reflections keep the kings'
    # diagonals; no reflection keeps men that move forward only (without swapping colours)
    ("english", (1, 4)), ("russian", (1, 4)), ("italian", (1, 4)), ("international", (1, 4))])
def test_board_symmetries_are_read_from_the_tables(name: str, expected) -> None:
    from pdnkit.rules import get_rules

    assert compiled(get_rules(name)).retro.board_symmetries() == expected


def _both_ways(retro: Retro, sigs) -> None:
    """Each signature solved on one position of each class under the board symmetries and
    on every position: the same codes and counts, byte for byte."""
    try:
        for sig in sigs:
            retro.board_symmetries(True)
            reduced = retro.solve(sig)
            retro.board_symmetries(False)
            plain = retro.solve(sig)
            assert reduced.codes == plain.codes, sig
            assert reduced[2:7] == plain[2:7], sig
            retro.add(sig, reduced.width, reduced.codes)
    finally:
        retro.board_symmetries(True)


#: Turkish's three pieces take half a minute both ways: by default the kings alone and one
#: signature of men and kings, after the two pieces
TURKISH = [*build_order(2), Signature(0, 2, 0, 1), Signature(0, 1, 0, 2), Signature(1, 1, 0, 1)]


@pytest.mark.parametrize(("name", "sigs"), [
    ("turkish", TURKISH),
    pytest.param("turkish", build_order(3), marks=pytest.mark.slow),
    ("english", build_order(3)),
    ("giveaway", build_order(3)),
    ("international", [*build_order(2), Signature(0, 2, 0, 1), Signature(0, 1, 0, 2)])])
def test_solved_by_classes_equals_every_position_solved(name: str, sigs) -> None:
    from pdnkit.rules import get_rules

    _both_ways(compiled(get_rules(name)).retro, sigs)  # (a new index of its own)


def _own_swap_both_ways(name: str, targets: list[Signature]) -> None:
    """What the targets lead to solved once (by classes), then each target both ways."""
    from pdnkit.rules import get_rules

    retro = compiled(get_rules(name)).retro
    retro.board_symmetries(True)
    for sig in build_order(max(s.pieces for s in targets)):
        wanted = {s for t in targets for s in leads_to(t)}
        if sig not in wanted:
            continue
        if sig in targets:
            _both_ways(retro, [sig])
        else:
            solved = retro.solve(sig)
            retro.add(sig, solved.width, solved.codes)


@pytest.mark.parametrize(("name", "targets"), [
    ("english", [Signature(1, 1, 1, 1), Signature(0, 2, 0, 2)]),
    pytest.param("english", [Signature(2, 0, 2, 0)], marks=pytest.mark.slow),
    ("russian", [Signature(1, 1, 1, 1), Signature(0, 2, 0, 2)]),
    ("giveaway", [Signature(0, 2, 0, 2)]),
    pytest.param("turkish", [Signature(0, 2, 0, 2)], marks=pytest.mark.slow),
    pytest.param("turkish", [Signature(1, 1, 1, 1)], marks=pytest.mark.slow)])
def test_a_signature_its_own_colour_swap_solved_by_halves_equals_every_position(
        name: str, targets: list[Signature]) -> None:
    """K+M v K+M and 2K v 2K are their own colour-swapped signatures: the solver decides
    only the positions with White to move (one of each class under the board symmetries and
    the colour swap) and reads Black's off them; the codes are those of solving every
    position of both sides."""
    _own_swap_both_ways(name, targets)
