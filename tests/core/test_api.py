"""The core's API: which core runs, the stop codes and flags, the movetext it reads, and what
misuse and hostile input give (an exception for misuse, a stop code for bad game data, the
same from both backends, never a crash)."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from pdnkit import core
from pdnkit.core import (
    FLAG_ANNOTATED,
    FLAG_BLACK_DOTS,
    FLAG_FULL_PATH,
    FLAG_MISMATCH,
    FLAG_NUMBERED,
    CoreError,
    Replay,
    State,
    compiled,
    pure,
    state_of,
)
from pdnkit.core.pack import pack_table
from pdnkit.rules import Position, get_rules, parse_fen
from tests.core.support import BACKENDS, COMPILED
from tests.shared import ROOT

INTL = get_rules("international")
START = Position.initial(INTL)


def both(rules: object, start: object, moves: object, offset: int = 0) -> Replay:
    """The replay of every backend; they must agree."""
    reps = [fn(rules, start, moves, offset) for fn in BACKENDS.values()]  # type: ignore[arg-type]
    assert all(r == reps[0] for r in reps[1:]), moves
    return reps[0]


def test_which_core_runs() -> None:
    env = {**os.environ, "PDNKIT_PURE": "1"}
    code = "import pdnkit.core as c; print(c.core_in_use(), c.core_note())"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, cwd=ROOT, check=True).stdout
    assert out.startswith("pure replay core: pure Python (PDNKIT_PURE=1)")
    env.pop("PDNKIT_PURE")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, cwd=ROOT, check=True).stdout
    assert out.split()[0] == ("compiled" if compiled.ERROR is None else "pure")
    assert core.core_in_use() == ("compiled" if COMPILED else "pure")


@pytest.mark.parametrize(("fen", "variant", "moves", "code"), [
    ("W:W32:B1", "international", ["32-37"], "illegal-move"),
    ("W:W32:B1", "international", ["32-99"], "illegal-move"),
    ("W:WK47:B14,19,29,31,42", "international", ["47x36"], "ambiguous-move"),
    ("W:W32:B27,28,17", "international", ["32x23"], "not-max-capture"),
    ("W:W32:B27", "international", ["32-28"], "missed-capture"),
    ("W:W22:BK18", "italian", ["22x13"], "illegal-move"),  # Italian men do not take kings
    ("W:W22,K21:B17,18", "italian", ["22x13"], "capture-priority"),
    ("W:W32:B1", "international", ["32-28", "1-7", "28-23", "7-12", "23-19", "12-17",
                                   "19-14", "17-22", "14-10", "22-27", "10-4", "27-31"], None),
    ("B:W41,47:B36", "international", ["36-41"], "move-after-end"),
    ("W:W32:B1", "international", ["32-28 {"], "handover"),
    ("W:W32:B1", "international", ["cd4"], "handover"),
    ("W:W32:B1", "international", ["- -"], "handover"),
])
def test_stop_codes(fen: str, variant: str, moves: list[str], code: str | None) -> None:
    rep = both(get_rules(variant), parse_fen(fen, get_rules(variant)), moves)
    assert rep.code == code, rep.reason
    assert (rep.plies == len(moves)) == (code is None)


def test_flags_and_movetext() -> None:
    text = ("1. 32-28 {opening} 19-23 $1 2. 28x19! 14x23 (2... 13x24) 3. 33-29 *")
    rep = both(INTL, START, text)
    assert (rep.plies, rep.code, rep.reason) == (4, "handover", "a variation")
    assert [f & FLAG_ANNOTATED for f in rep.flags] == [FLAG_ANNOTATED] * 3 + [0]
    assert [f & FLAG_NUMBERED for f in rep.flags] == [FLAG_NUMBERED, 0, FLAG_NUMBERED, 0]
    spans = memoryview(rep.spans).cast("i").tolist()
    assert [text[a:b] for a, b in zip(spans[::2], spans[1::2], strict=True)] == \
        ["32-28", "19-23", "28x19", "14x23"]
    assert memoryview(rep.numbers).cast("i").tolist() == [1, 0, 2, 0]
    rep = both(INTL, START, "1. 32-28 1... 19-23 2. 28x19 14x23 1-1")
    assert rep.code is None and rep.flags[1] & FLAG_BLACK_DOTS
    assert "1. 32-28 1... 19-23 2. 28x19 14x23 1-1"[rep.result_start:rep.result_end] == "1-1"
    for result in ("2-0", "0-2", "1-0", "0-1", "0-0", "1/2-1/2", "\u00bd-\u00bd", "0.5-0.5", "*"):
        assert both(INTL, START, f"32-28 {result}").result_end > 0, result
    assert both(INTL, START, "1. 1-18").code == "illegal-move"  # a move, not a result


def test_notation_flags() -> None:
    rep = both(INTL, START, ["32x28", "19-23", "28-19"])
    assert [f & FLAG_MISMATCH for f in rep.flags] == [FLAG_MISMATCH, 0, FLAG_MISMATCH]
    thai = get_rules("thai")  # captures are written with '-' there
    pos = parse_fen("B:W22:B18", thai)
    assert not both(thai, pos, ["18-25"]).flags[0] & FLAG_MISMATCH
    rep = both(INTL, parse_fen("W:WK47:B14,19,29,31,42", INTL), ["47x38x24x13x36"])
    assert rep.code is None and rep.flags[0] & FLAG_FULL_PATH
    assert rep.move(0).captured == (42, 29, 19, 31)


def test_the_arrays() -> None:
    can = get_rules("canadian")  # 72 squares: squares 65 and up in bits_high
    pos = parse_fen("W:W61,K66:B5", can)
    rep = both(can, pos, ["66-72", "5-11"])
    assert rep.plies == 2 and len(rep.bits_high) == len(rep.bits) == 64
    assert rep.position(0, False).wk == 1 << 71 and rep.position(1, False).black is False
    fr = get_rules("frisian")
    pos = parse_fen("W:WK50,36:BK1,15", fr)
    rep = both(fr, pos, ["50-6", "1-12", "6-1"])
    assert rep.position(2, False).king_moves == ((1, 2), (12, 1))
    assert type(rep) is Replay and type(rep.final) is State
    assert set(Replay._fields) >= {"origin", "keys", "counts", "king_moves"}


@pytest.mark.parametrize("state", [
    State(False, 1, 1, 0, 0),  # two pieces on square 1
    State(False, 1 << 50, 0, 0, 0),  # square 51 on a 50-square board
    State(False, -1, 0, 0, 0),
    State(False, 1 << 200, 0, 0, 0),
    State(False, 1, 0, 2, 0, ((99, 1), (0, 0))),
])
def test_malformed_states(state: State) -> None:
    rules = get_rules("frisian")
    for fn in BACKENDS.values():
        with pytest.raises(CoreError):
            fn(rules, state, ["32-28"], 0)


@pytest.mark.parametrize("moves", [None, 42, b"32-28", [b"32-28"], ["32-28", None]])
def test_moves_of_another_type(moves: object) -> None:
    for fn in BACKENDS.values():
        with pytest.raises(CoreError):
            fn(INTL, START, moves, 0)  # type: ignore[arg-type]
    with pytest.raises(CoreError):
        core.replay(INTL, START, "32-28", -1)


HOSTILE = ["", "   ", "*", "1.", "99-100", "00-01", "-32-28", "32--28", "32-28-", "32-28x",
           "x32-28", "32-28\x00", "\x00", "32-2\x008", "{", "}", "{{}}", "(", ")", "$",
           "$99999999999", "1234567890. 32-28", "12.... 32-28", "a1-b2", "A1-B2", "z9-z10",
           "l12-k11", "c3d4e5f6g7h8", "3228", "32283", "\u2603", "32\u221228", "32\u201328",
           "\udcff", "32-28 " * 3000, "x".join(str(i % 50 + 1) for i in range(500)),
           "%escape\n32-28", ";line comment\n32-28", "1" * 100_000, "{" + "a" * 100_000]


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_movetext(text: str) -> None:
    for variant in ("international", "russian", "turkish", "canadian"):
        rules = get_rules(variant)
        for moves in (text, text.split(), [text]):
            rep = both(rules, Position.initial(rules), moves)
            assert rep.code in (None, *core.CODES)


def test_a_million_plies() -> None:
    """Kings shuffling for 10**6 plies (10**4 through the pure core)."""
    pos = parse_fen("W:WK46:BK1", INTL)
    cycle = ["46-41", "1-6", "41-46", "6-1"]
    for name, fn in BACKENDS.items():
        n = 10**6 if name == "compiled" else 10**4
        rep = fn(INTL, pos, cycle * (n // 4), 0)
        assert rep.code is None and rep.plies == n and len(rep.keys) == 8 * n
        assert rep.final == state_of(pos)
        text = " ".join(cycle * (n // 4))
        assert fn(INTL, pos, text, 0).plies == n


def test_random_bytes_never_crash() -> None:
    rng = random.Random(25)
    alphabet = "0123456789-x:X. {}()$!?*abcdefghijklKW/\n\t\u2013\u00bd"
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(60)))
        rules = get_rules(rng.choice(["international", "english", "frisian", "turkish"]))
        rep = both(rules, Position.initial(rules), text)
        assert rep.code in (None, *core.CODES)


@pytest.mark.skipif(not COMPILED, reason="the compiled core is not in use")
def test_malformed_tables_are_refused() -> None:
    ext = compiled._core
    blob = pack_table(INTL)
    assert blob is not None
    good = blob.tobytes()
    assert ext.table(good) is not None
    with pytest.raises(ValueError):
        ext.table(good[:-4])
    with pytest.raises(ValueError):
        ext.table(good + b"\0\0\0\0")
    with pytest.raises(ValueError):
        ext.table(b"123")
    with pytest.raises(TypeError):
        ext.replay(object(), (0, 0, 0, 0, 0, None), "32-28")
    rng = random.Random(7)
    state = tuple(state_of(START))
    for _ in range(2000):  # one word changed: refused, or a table the core runs safely
        mutated = blob.__copy__()
        mutated[rng.randrange(len(mutated))] = rng.choice([-3, -1, 0, 1, 2, 7, 50, 64, 127,
                                                           128, 2**31 - 1])
        try:
            table = ext.table(mutated.tobytes())
        except ValueError:
            continue
        ext.replay(table, state, "32-28 19-23 28x19 14x23 33-29", 0)
        ext.perft(table, state, 2, 0)


@pytest.mark.skipif(not COMPILED, reason="the compiled core is not in use")
def test_perft_misuse() -> None:
    with pytest.raises(ValueError):
        core.perft(START, 65)
    with pytest.raises(ValueError):
        core.perft(START, 2, keep_duplicates="routes")
    assert pure.perft(START, 2) == core.perft(START, 2) == 81
