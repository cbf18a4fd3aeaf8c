"""The pure-Python backend of :mod:`pdnkit.core`: the compiled core's procedure over the
reference engine.

:func:`replay` reads the movetext (or the list of move texts) with the same tokenizer as
``src/replay.c``, resolves each move with the same decisions (over
:meth:`Position.legal_moves`, :meth:`Position.quiet_move` and
:func:`pdnkit.rules.notation.canonical_path`), and writes the same arrays. The differential
tests (``tests/core``) hold the two backends to identical output on every real game, and both
to the validator's replay; with ``PDNKIT_PURE=1``, or without a compiled core, this module is
the core.

Example:
    >>> from pdnkit.rules import Position, get_rules
    >>> r = get_rules("english")
    >>> rep = replay(r, Position.initial(r), ["11-15", "23-19", "8-11", "22x8"])
    >>> rep.plies, rep.code, rep.reason
    (3, 'illegal-move', 'no legal move joins the squares')
"""

from __future__ import annotations

import dataclasses
from array import array
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pdnkit.core.api import (
    FLAG_ANNOTATED,
    FLAG_BLACK_DOTS,
    FLAG_CAPTURE,
    FLAG_FULL_PATH,
    FLAG_KING,
    FLAG_MISMATCH,
    FLAG_NUMBERED,
    FLAG_PROMOTES,
    CoreError,
    Replay,
    State,
    position_of,
    state_of,
)
from pdnkit.errors import ArgumentError
from pdnkit.rules.notation import canonical_path, parse_square

if TYPE_CHECKING:
    from pdnkit.rules.position import Move, Position
    from pdnkit.rules.variants import Rules

__all__ = ["has_capture", "key", "legal_moves", "perft", "replay"]

_WS = frozenset(" \t\n\r\f\v")
_DIGITS = frozenset("0123456789")
_LETTERS = frozenset("abcdefghijkl")
_NUM_SEPS = {"-": 1, "x": 2, "X": 2, ":": 2, "\u2010": 3, "\u2011": 3, "\u2012": 3, "\u2013": 3,
             "\u2014": 3, "\u2212": 3}
_ALPHA_SEPS = {"-": 1, "x": 2, "X": 2, ":": 2, "\u2013": 3}
_RESULTS = ("2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "1/2-1/2", "0.5-0.5")
_AFTER_RESULT = frozenset("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_/-.:")
DONE, ILLEGAL, AMBIGUOUS, NOT_MAX, MISSED, PRIORITY, AFTER_END, HANDOVER = range(8)
_CODE_NAMES = (None, "illegal-move", "ambiguous-move", "not-max-capture", "missed-capture",
               "capture-priority", "move-after-end", "handover")


@dataclasses.dataclass
class _Written:
    """A move as written: square numbers (-1: not a square of the board) and the separators
    (first one: 0 none, 1 ``-``, 2 ``x X :``, 3 another dash)."""

    squares: list[int] = dataclasses.field(default_factory=list)
    sep0: int = 0
    nseps: int = 0

    def sep(self, code: int) -> None:
        if not self.nseps:
            self.sep0 = code
        self.nseps += 1


# ------------------------------------------------------------------ tokenizer (replay.c)

def _square_number(rules: Rules, v: int) -> int:
    return v if 1 <= v <= rules.geometry.num_squares else -1


def _square_alpha(rules: Rules, letter: str, rank: int) -> int:
    try:
        return parse_square(rules, f"{letter}{rank}")
    except ValueError:
        return -1


def _rank_at(s: str, i: int) -> tuple[int, int]:
    c, d = s[i:i + 1], s[i + 1:i + 2]
    if c == "1" and d in ("0", "1", "2"):
        return 2, 10 + int(d)
    if c and c in "123456789":
        return 1, int(c)
    return 0, 0


def _digits(s: str, i: int) -> int:
    j = i
    while j < len(s) and s[j] in _DIGITS:
        j += 1
    return j


def _numeric_move(rules: Rules, s: str, i: int, w: _Written) -> int:
    j = _digits(s, i)
    if j - i == 4:
        if j < len(s) and (s[j] in _DIGITS or s[j] in "./-xX:"):
            return -1
        w.squares += [_square_number(rules, int(s[i:i + 2])),
                      _square_number(rules, int(s[i + 2:i + 4]))]
        w.sep(0)
        return j
    if not 1 <= j - i <= 2:
        return -1
    w.squares.append(_square_number(rules, int(s[i:j])))
    while True:
        k = j
        while s[k:k + 1] in (" ", "\t") and k < len(s):
            k += 1
        code = _NUM_SEPS.get(s[k:k + 1], 0) if k < len(s) else 0
        if not code:
            break
        k += 1
        while s[k:k + 1] in (" ", "\t") and k < len(s):
            k += 1
        e = _digits(s, k)
        if not 1 <= e - k <= 2 or len(w.squares) >= 64:
            return -1
        w.squares.append(_square_number(rules, int(s[k:e])))
        w.sep(code)
        j = e
    if len(w.squares) < 2 or (j < len(s) and s[j] in "./*"):
        return -1
    return j


def _alpha_move(rules: Rules, s: str, i: int, w: _Written) -> int:
    n, rank = _rank_at(s, i + 1)
    if not n:
        return -1
    w.squares.append(_square_alpha(rules, s[i], rank))
    j = i + 1 + n
    while True:
        k = j
        code = _ALPHA_SEPS.get(s[k:k + 1], 0) if k < len(s) else 0
        if code:
            k += 1
        if k >= len(s) or s[k] not in _LETTERS:
            if code:
                return -1
            break
        n, rank = _rank_at(s, k + 1)
        if not n or len(w.squares) >= 64:
            return -1
        w.squares.append(_square_alpha(rules, s[k], rank))
        w.sep(code)
        j = k + 1 + n
    if len(w.squares) < 2 or (j < len(s) and (s[j] in _DIGITS or s[j] == "*")):
        return -1
    return j


def _parse_move(rules: Rules, s: str, i: int, w: _Written) -> int:
    if i >= len(s):
        return -1
    if s[i] in _DIGITS:
        e = _numeric_move(rules, s, i, w)
        return e if e >= 0 and (e >= len(s) or s[e] not in _DIGITS) else -1
    if s[i] in _LETTERS:
        return _alpha_move(rules, s, i, w)
    return -1


def _result_at(s: str, i: int) -> int:
    """The length of a result token at ``i`` (0: none; -1: a character after it the core
    does not read)."""
    if s[i] == "*":
        return 1
    n = next((len(f) for f in _RESULTS if s.startswith(f, i)), 0)
    if not n and s.startswith("\u00bd-\u00bd", i):
        n = 3
    if not n or i + n >= len(s):
        return n
    c = s[i + n]
    if ord(c) > 127:
        return -1
    return 0 if c in _AFTER_RESULT else n


class _Cursor:
    """The movetext tokenizer's position and the move number waiting for its move."""

    def __init__(self, text: str, i: int) -> None:
        self.s = text
        self.i = i
        self.number = 0
        self.dots = 0

    def skip(self, flags: bytearray) -> str | None:
        """Skip whitespace, comments, NAGs, strength marks, line comments, escape lines and
        move numbers; ``None`` at the next token, else why the core stops here."""
        s = self.s
        while True:
            while self.i < len(s) and s[self.i] in _WS:
                self.i += 1
            i = self.i
            if i >= len(s):
                return None
            c = s[i]
            if c == "{":
                k = i + 1
                while k < len(s) and s[k] not in "{}":
                    k += 1
                if k >= len(s) or s[k] == "{":
                    return "a nested or unterminated comment"
                self.i = k + 1
            elif c == "$":
                k = _digits(s, i + 1)
                if k == i + 1 or k - i - 1 > 9:
                    return "a '$' without a NAG number"
                self.i = k
            elif c == ";" or (c == "%" and (i == 0 or s[i - 1] == "\n")):
                k = s.find("\n", i)
                self.i = len(s) if k < 0 else k
                if c == "%":
                    continue
            elif c in "!?(":
                k = i + 1 if c == "(" else i
                while k < len(s) and s[k] in "!?":
                    k += 1
                if c == "(" and (k == i + 1 or s[k:k + 1] != ")"):
                    return "a variation"
                self.i = k + 1 if c == "(" else k
            elif c in _DIGITS and _result_at(s, i) == 0:
                k = _digits(s, i)
                if s[k:k + 1] != ".":
                    return None
                e = k
                while e < len(s) and s[e] == ".":
                    e += 1
                dots = e - k
                if k - i > 9 or dots > 3:
                    return "a move number the core does not read"
                self.number, self.dots, self.i = int(s[i:k]), dots, k + dots
                continue
            else:
                return None
            if flags:
                flags[-1] |= FLAG_ANNOTATED


# ------------------------------------------------------------------ resolution

def _match_two(legal: Sequence[Move], o: int, d: int) -> tuple[int, Move | None, int]:
    """(readings, the move when one, pieces taken) of a two-square capture (match_two)."""
    ends = [m for m in legal if m.origin == o and m.destination == d]
    if not ends:
        return 0, None, 0
    if len(ends) == 1:
        return 1, ends[0], len(ends[0].captured)
    singles = [m for m in ends if len(m.captured) == 1]
    if len(singles) == 1:
        return 1, singles[0], 1
    return len(ends), None, max(len(m.captured) for m in ends)


def _classify(pos: Position, legal: Sequence[Move], o: int, d: int) -> tuple[int, str]:
    if pos.quiet_move(o, d) is not None:
        return MISSED, "a quiet move while a capture is compulsory"
    rules = pos.rules
    if not rules.capture_precedence:
        return ILLEGAL, "no legal capture joins the squares"
    need = max(len(m.captured) for m in legal)
    free = position_of(dataclasses.replace(rules, capture_precedence=()),
                       state_of(pos)._replace(king_moves=None))
    n, _m, taken = _match_two(free.legal_moves(), o, d)
    if not n:
        return ILLEGAL, "no legal capture joins the squares"
    if need > taken:
        return NOT_MAX, "fewer pieces taken than the rules require"
    return PRIORITY, "a capture the precedence rules exclude"


def _resolve(pos: Position, w: _Written) -> tuple[int, Move | None, int, str | None]:
    """(code, move, flags, why) of a written move in ``pos`` (replay.c resolve)."""
    rules = pos.rules
    if any(s < 0 for s in w.squares):
        return ILLEGAL, None, 0, "a square is not on the board"
    sq = w.squares
    o, d = sq[0], sq[-1]
    if not pos.has_capture():
        m = pos.quiet_move(o, d) if len(sq) == 2 else None
        if m is not None:
            return DONE, m, FLAG_MISMATCH if w.sep0 == 2 else 0, None
        if pos.is_terminal():
            return AFTER_END, None, 0, "the side to move has no legal move"
        return ILLEGAL, None, 0, "no legal move joins the squares"
    legal = pos.legal_moves()
    if not legal:
        return HANDOVER, None, 0, "the capture search is too large"
    ends = [m for m in legal if m.origin == o and m.destination == d]
    flags = 0
    if len(sq) == 2:
        n, move, _taken = _match_two(legal, o, d)
        if n > 1:
            return AMBIGUOUS, None, 0, "several legal captures join the squares"
        if not n:
            code, why = _classify(pos, legal, o, d)
            return code, None, 0, why
        if w.nseps == 1 and w.sep0 == 1 and rules.capture_separator != "-":
            flags |= FLAG_MISMATCH
    else:
        middle = tuple(sq[1:-1])
        found = [m for m in ends if tuple(m.path[1:-1]) == middle
                 or canonical_path(m, rules)[1:-1] == middle]
        if len(found) > 1:
            return AMBIGUOUS, None, 0, "the written path matches several legal captures"
        if not found:
            return HANDOVER, None, 0, "the written path needs the full matcher"
        move = found[0]
    if len(ends) > 1:
        flags |= FLAG_FULL_PATH
    return DONE, move, flags, None


# ------------------------------------------------------------------ output


class _Arrays:
    """The growing output arrays of one replay (the fields of :class:`Replay`)."""

    def __init__(self, wide: bool) -> None:
        self.wide = wide
        self.origin, self.dest, self.flags = bytearray(), bytearray(), bytearray()
        self.path_off, self.path = array("i", [0]), bytearray()
        self.cap_off, self.cap, self.capk = array("i", [0]), bytearray(), bytearray()
        self.bits, self.bits_high, self.keys = array("Q"), array("Q"), array("q")
        self.counts, self.numbers, self.spans = bytearray(), array("i"), array("i")
        self.kmoves = array("i")

    def emit(self, move: Move, after: Position, flags: int, number: int, span: tuple[int, int]
             ) -> None:
        flags |= ((FLAG_CAPTURE if move.captured else 0) | (FLAG_KING if move.is_king else 0)
                  | (FLAG_PROMOTES if move.promotes else 0))
        self.origin.append(move.origin)
        self.dest.append(move.destination)
        self.flags.append(flags)
        self.path.extend(move.path)
        self.path_off.append(len(self.path))
        self.cap.extend(move.captured)
        self.capk.extend(int(c in move.captured_kings) for c in move.captured)
        self.cap_off.append(len(self.cap))
        st = state_of(after)
        for b in (st.wm, st.wk, st.bm, st.bk):
            self.bits.append(b & ((1 << 64) - 1))
            if self.wide:
                self.bits_high.append(b >> 64)
            self.counts.append(b.bit_count())
        self.keys.append(after.key())
        self.numbers.append(min(number, 2**31 - 1))
        self.spans.extend(span)
        if st.king_moves is not None:
            (a, b), (c, e) = st.king_moves
            self.kmoves.extend((a, min(b, 2**31 - 1), c, min(e, 2**31 - 1)))

    def result(self, plies: int, code: int, why: str | None, stop: tuple[int, int],
               result: tuple[int, int], pos: Position) -> Replay:
        return Replay(plies, _CODE_NAMES[code], why, stop[0], stop[1], result[0], result[1],
                      state_of(pos), bytes(self.origin), bytes(self.dest), bytes(self.flags),
                      self.path_off.tobytes(), bytes(self.path), self.cap_off.tobytes(),
                      bytes(self.cap), bytes(self.capk), self.bits.tobytes(),
                      self.bits_high.tobytes(), self.keys.tobytes(), bytes(self.counts),
                      self.numbers.tobytes(), self.spans.tobytes(), self.kmoves.tobytes())


# ------------------------------------------------------------------ the loop


def _next_text(rules: Rules, cur: _Cursor, flags: bytearray, w: _Written
               ) -> tuple[str, int, int, str | None]:
    """(kind, start, end, why) of the next token of movetext: ``move``, ``end``, ``result``
    or ``other``."""
    cur.number = cur.dots = 0
    why = cur.skip(flags)
    s, i = cur.s, cur.i
    if why is not None:
        return "other", i, i + 1, why
    if i >= len(s):
        return "end", i, i, None
    res = _result_at(s, i)
    if res < 0:
        return "other", i, i + 1, "a result followed by a character the core does not read"
    if res > 0:
        cur.i = i + res
        return "result", i, i + res, None
    e = _parse_move(rules, s, i, w)
    if e < 0:
        return "other", i, i + 1, "text that is not a plain move"
    cur.i = e
    return "move", i, e, None


def _next_item(rules: Rules, items: Sequence[str], k: int, w: _Written
               ) -> tuple[str, int, int, str | None]:
    if k >= len(items):
        return "end", k, k, None
    text = items[k]
    if not isinstance(text, str):
        raise CoreError("moves must be movetext (str) or a sequence of move texts")
    i, n = 0, len(text)
    while i < n and text[i] in _WS:
        i += 1
    while n > i and text[n - 1] in _WS:
        n -= 1
    if _parse_move(rules, text[:n], i, w) != n:
        return "other", k, k + 1, "text that is not a plain move"
    return "move", k, k + 1, None


def replay(rules: Rules, start: State | Position, moves: str | Sequence[str],
           offset: int = 0) -> Replay:
    """One game's main line through the reference engine (see :func:`pdnkit.core.replay`)."""
    if not isinstance(moves, str) and (isinstance(moves, bytes) or not isinstance(moves, Sequence)):
        raise CoreError("moves must be movetext (str) or a sequence of move texts")
    if offset < 0:
        raise CoreError("offset cannot be negative")
    pos = position_of(rules, start) if isinstance(start, State) else start
    out = _Arrays(rules.geometry.num_squares > 64)
    text = isinstance(moves, str)
    cur = _Cursor(moves if isinstance(moves, str) else "", min(offset, len(moves)))
    k = min(offset, len(moves))
    plies, result = 0, (-1, -1)
    while True:
        w = _Written()
        if text:
            kind, s0, s1, why = _next_text(rules, cur, out.flags, w)
        else:
            kind, s0, s1, why = _next_item(rules, moves, k, w)
        if kind == "end":
            return out.result(plies, DONE, None, (s0, s0), result, pos)
        if kind == "result":
            return out.result(plies, DONE, None, (s1, s1), (s0, s1), pos)
        if kind == "other":
            return out.result(plies, HANDOVER, why, (s0, s1), result, pos)
        code, move, flags, why = _resolve(pos, w)
        if code != DONE or move is None:
            return out.result(plies, code, why, (s0, s1), result, pos)
        after = pos.play(move)
        if text and cur.dots:
            flags |= FLAG_NUMBERED | (FLAG_BLACK_DOTS if cur.dots >= 2 else 0)
        out.emit(move, after, flags, cur.number if text else 0, (s0, s1))
        pos = after
        plies += 1
        k += 1


def perft(position: Position, depth: int, keep_duplicates: bool | str = False) -> int:
    """Leaf count of the legal-move tree (:func:`pdnkit.rules.perft`; ``"order"``: captures
    count once per origin, destination and pieces taken in order)."""
    if keep_duplicates == "order":
        if not isinstance(depth, int) or depth < 0:
            raise ArgumentError(f"depth must be a non-negative integer, not {depth!r}")
        return _perft_order(position, depth)
    if keep_duplicates not in (False, True):
        raise ArgumentError(f"keep_duplicates is False, True or 'order', not {keep_duplicates!r}")
    n = _rules_perft()(position, depth, keep_duplicates=bool(keep_duplicates))
    assert isinstance(n, int)
    return n


def _rules_perft() -> Any:
    """:func:`pdnkit.rules.perft` (the pure rules engine's count)."""
    from pdnkit.rules.counting import perft

    return perft


def _perft_order(position: Position, depth: int) -> int:
    if depth == 0:
        return 1
    if position.has_capture():
        seen: dict[tuple[int, int, tuple[int, ...], bool], Move] = {}
        for m in position.legal_moves(all_routes=True):
            seen.setdefault((m.origin, m.destination, m.captured, m.promotes), m)
        moves = list(seen.values())
    else:
        moves = position.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(_perft_order(position.play(m), depth - 1) for m in moves)


def legal_moves(position: Position, all_routes: bool = False) -> list[Move]:
    """The legal moves of ``position`` (:meth:`Position.legal_moves`)."""
    return position.legal_moves(all_routes=all_routes)


def has_capture(rules: Rules, state: State) -> bool:
    """Whether the side to move has a capture."""
    return position_of(rules, state).has_capture()


def key(rules: Rules, state: State) -> int:
    """``Position.key()`` of ``state``."""
    return int(position_of(rules, state).key())
