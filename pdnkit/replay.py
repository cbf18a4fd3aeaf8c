"""Replay and validation: every move, every capture rule, results and draw claims.

:func:`replay` takes one :class:`~pdnkit.pdn.record.GameRecord`, decides its rules (GameType
tag, Variant tag, the caller's ``variant``, else a guess), replays every main-line move from
the variant's starting position (or the FEN), replays each variation from its own branch
point, checks the result against the final position and runs the variant's draw rules. It
returns a :class:`GameReport`: the plies (move, captured squares, position after), the
findings (coded, located, never exceptions) and the outcome.

:func:`validate` streams one report per game over files, folders (``*.pdn``, recursively) or
PDN text, optionally in worker processes (order preserved, memory flat).

Example:
    >>> from pdnkit.replay import validate
    >>> rep = next(validate('[GameType "20"]\\n1. 32-28 19-23 2. 28x19 14x23 *'))
    >>> rep.variant, rep.replayed_plies, rep.status, rep.plies[2].captured
    ('international', 4, 'ok', (23,))
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pdnkit._replay_match import (
    MatchResult,
    match_move,
    parse_squares,
    quiet_move,
    squares_cache,
)
from pdnkit._replay_resolve import (
    CONVENTIONS,
    first_number_side,
    normalise_token,
    outcome_of,
    resolve_rules,
    result_string,
)
from pdnkit.findings import Finding, Severity, make_finding, worst

__all__ = ["GameReport", "PlyRecord", "replay", "validate", "iter_sources"]

_COLOR_LETTER = ("W", "B")
_START_FEN: dict[tuple[int, int], tuple[Any, str]] = {}


class PlyRecord:
    """One ply of the main line as recorded, and what replay made of it.

    Fields: ``ply`` (1-based), ``move_number``, ``side`` (``"W"``/``"B"``), ``written`` (as in
    the file), ``notation`` (canonical PDN 3.0 form, ``None`` if not replayed), ``origin``,
    ``destination``, ``path``, ``captured`` (capture order), ``promotes``, ``piece``
    (``"man"``/``"king"``/``None``), ``nags``, ``comment``, ``line``, ``replayed``,
    ``fen_after``, ``key_after`` (int64), ``counts_after`` (the four piece counts).
    ``notation``, ``fen_after``, ``key_after`` and ``counts_after`` are computed on first use;
    ``move`` is the engine's :class:`~pdnkit.rules.Move` (``None`` once the record has been
    pickled, e.g. from a worker process).

    Example:
        >>> p = PlyRecord(1, 1, "W", "32-28")
        >>> p.replayed, p.notation, p.fen_after
        (False, None, None)
    """

    __slots__ = ("ply", "move_number", "side", "written", "origin", "destination", "path",
                 "captured", "promotes", "piece", "nags", "comment", "line", "replayed",
                 "move", "_before", "_after", "_legal", "_notation", "_fen", "_key", "_counts")

    def __init__(self, ply: int, move_number: int | None, side: str | None, written: str,
                 *, nags: Sequence[int] = (), comment: str | None = None,
                 line: int | None = None) -> None:
        self.ply = ply
        self.move_number = move_number
        self.side = side
        self.written = written
        self.origin: int | None = None
        self.destination: int | None = None
        self.path: tuple[int, ...] = ()
        self.captured: tuple[int, ...] = ()
        self.promotes = False
        self.piece: str | None = None
        self.nags = list(nags)
        self.comment = comment
        self.line = line
        self.replayed = False
        self.move: Any = None
        self._before: Any = None
        self._after: Any = None
        self._legal: Any = None
        self._notation: str | None = None
        self._fen: str | None = None
        self._key: int | None = None
        self._counts: dict[str, int] | None = None

    def _set(self, move: Any, before: Any, after: Any, legal: Any = None) -> None:
        self.replayed = True
        self.move = move
        self.origin = move.origin
        self.destination = move.destination
        self.path = tuple(move.path)
        self.captured = tuple(move.captured)
        self.promotes = bool(move.promotes)
        self.piece = "king" if move.is_king else "man"
        self._before = before
        self._after = after
        self._legal = legal

    @property
    def is_capture(self) -> bool:
        """True when the replayed move captured something."""
        return bool(self.captured)

    @property
    def position_after(self) -> Any:
        """The :class:`~pdnkit.rules.Position` after this ply (``None`` if not replayed)."""
        return self._after

    @property
    def position_before(self) -> Any:
        """The position before this ply (``None`` if not replayed)."""
        return self._before

    @property
    def notation(self) -> str | None:
        """Canonical PDN 3.0 notation of the move (short form unless ambiguous)."""
        if self._notation is None and self.replayed and self.move is not None:
            from pdnkit.rules import canonical_notation

            legal = self._legal if self.captured else None
            self._notation = canonical_notation(self.move, self._before, legal)
        return self._notation

    @property
    def fen_after(self) -> str | None:
        """FEN of the position after this ply."""
        if self._fen is None and self.replayed:
            from pdnkit.rules import write_fen

            self._fen = write_fen(self._after)
        return self._fen

    @property
    def key_after(self) -> int | None:
        """Position key (signed 64-bit) after this ply."""
        if self._key is None and self.replayed:
            self._key = int(self._after.key())
        return self._key

    @property
    def counts_after(self) -> dict[str, int] | None:
        """Piece counts after this ply (``white_men``, ``white_kings``, ``black_men``,
        ``black_kings``)."""
        if self._counts is None and self.replayed:
            self._counts = dict(self._after.counts())
        return self._counts

    def materialize(self) -> PlyRecord:
        """Compute every lazy field and drop the position objects (for pickling/storage)."""
        if self.replayed:
            _ = self.notation, self.fen_after, self.key_after, self.counts_after
        self._before = self._after = self._legal = None
        return self

    _STATE = ("ply", "move_number", "side", "written", "origin", "destination", "path",
              "captured", "promotes", "piece", "nags", "comment", "line", "replayed",
              "_notation", "_fen", "_key", "_counts")

    def __getstate__(self) -> tuple[Any, ...]:
        # compact: lazy fields computed, positions and the engine Move dropped
        self.materialize()
        return tuple(getattr(self, k) for k in self._STATE)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        for k, v in zip(self._STATE, state, strict=True):
            object.__setattr__(self, k, v)
        self.move = self._before = self._after = self._legal = None

    def to_dict(self) -> dict[str, Any]:
        """Plain dict of every field (the ``moves`` row shape plus the position after)."""
        return {
            "ply": self.ply, "move_number": self.move_number, "side": self.side,
            "written": self.written, "notation": self.notation, "origin": self.origin,
            "destination": self.destination, "path": list(self.path),
            "captured": list(self.captured), "promotes": self.promotes, "piece": self.piece,
            "nags": list(self.nags), "comment": self.comment, "line": self.line,
            "replayed": self.replayed, "fen_after": self.fen_after,
            "key_after": self.key_after, "counts_after": self.counts_after,
        }

    def __repr__(self) -> str:
        return (f"PlyRecord(ply={self.ply}, side={self.side!r}, written={self.written!r}, "
                f"replayed={self.replayed})")


@dataclass
class GameReport:
    """The validation of one game (see ``docs/architecture.md`` section 4).

    ``status`` is ``ok`` (no warning or error), ``warning``, ``error`` or ``unparsed``;
    ``result`` is the normalised White-first result (``1-0``, ``0-1``, ``1/2-1/2``, ``*``,
    or ``None`` for an unreadable score); ``outcome`` is ``white``/``black``/``draw``/
    ``unknown``; ``draw_basis`` the draw rule that backs a drawn result.

    Example:
        >>> GameReport(file=None, index=0, line=1).to_dict()["status"]
        'ok'
    """

    file: str | None
    index: int
    line: int | None
    record: Any = None
    variant: str | None = None
    gametype: int | None = None
    edition: str | None = None
    start_fen: str | None = None
    plies: list[PlyRecord] = field(default_factory=list)
    replayed_plies: int = 0
    findings: list[Finding] = field(default_factory=list)
    status: str = "ok"
    result: str | None = None
    result_raw: str | None = None
    outcome: str = "unknown"
    draw_basis: str | None = None
    final_fen: str | None = None
    rule_events: list[Any] = field(default_factory=list)
    white: str | None = None
    black: str | None = None
    ply_count: int = 0
    start_key: int | None = None
    start_counts: dict[str, int] | None = None
    final_position: Any = None

    def finding_codes(self) -> list[str]:
        """The codes of the findings, in order.

        Example:
            >>> GameReport(file=None, index=0, line=1).finding_codes()
            []
        """
        return [f.code for f in self.findings]

    def notation_map(self) -> dict[int, str]:
        """Canonical notation of every replayed main-line ply, ``{ply: text}``: the
        ``notation`` argument of :func:`pdnkit.pdn.write_game`.

        Example:
            >>> from pdnkit.replay import validate
            >>> next(validate('[GameType "20"] 1. 32-28 19-23 2. 28x19 *')).notation_map()
            {1: '32-28', 2: '19-23', 3: '28x19'}
        """
        return {p.ply: p.notation for p in self.plies if p.notation is not None}

    def errors(self) -> list[Finding]:
        """The error findings."""
        return [f for f in self.findings if f.severity is Severity.ERROR]

    def to_dict(self) -> dict[str, Any]:
        """The ``pdnkit validate --format jsonl`` object (DESIGN.md section 4)."""
        return {
            "file": self.file,
            "index": self.index,
            "line": self.line,
            "variant": self.variant,
            "gametype": self.gametype,
            "edition": self.edition,
            "white": self.white,
            "black": self.black,
            "result": self.result,
            "result_raw": self.result_raw,
            "outcome": self.outcome,
            "draw_basis": self.draw_basis,
            "plies": self.ply_count,
            "replayed_plies": self.replayed_plies,
            "status": self.status,
            "final_fen": self.final_fen,
            "findings": [
                {"code": f.code, "severity": f.severity.value, "ply": f.ply, "line": f.line,
                 "move": f.move, "message": f.message, "in_variation": f.in_variation,
                 "details": f.details}
                for f in self.findings
            ],
        }


# ----------------------------------------------------------------------------------------------
# replay
# ----------------------------------------------------------------------------------------------


class _Ctx:
    """Per-game state shared by the replay helpers."""

    __slots__ = ("record", "rules", "findings", "file", "index")

    def __init__(self, record: Any, rules: Any) -> None:
        self.record = record
        self.rules = rules
        self.findings: list[Finding] = []
        self.file = getattr(record, "file", None)
        self.index = getattr(record, "index", 0)

    def add(self, code: str, message: str | None = None, *, node: Any = None, ply: int | None = None,
            pos: Any = None, in_variation: bool = False, severity: str | None = None,
            **details: Any) -> Finding:
        fen = None
        if pos is not None:
            from pdnkit.rules import write_fen

            fen = write_fen(pos)
        line = getattr(node, "line", None) if node is not None else None
        f = make_finding(
            code, message, severity=severity, file=self.file, game_index=self.index,
            line=line if line is not None else (None if node is not None else None),
            ply=ply, move=getattr(node, "text", None) if node is not None else None, fen=fen,
            column=getattr(node, "column", None) if node is not None else None,
            in_variation=in_variation, details=details)
        self.findings.append(f)
        return f


def _fmt(move: Any, rules: Any) -> str:
    from pdnkit.rules import format_move

    return format_move(move, rules, full_path=len(move.captured) > 1)


def _fmt_list(moves: Iterable[Any], rules: Any, limit: int = 12) -> list[str]:
    out = sorted({_fmt(m, rules) for m in moves})
    return out[:limit]


def _play_quiet_sequence(pos: Any, nodes: Sequence[Any], rules: Any) -> int:
    """How many of ``nodes`` replay from ``pos`` (ambiguities take the first reading)."""
    n = 0
    for node in nodes:
        if node.placeholder or not node.squares:
            break
        if node.setup_before:
            break
        sq = parse_squares(rules, node.squares)
        if isinstance(sq, str):
            break
        res = match_move(pos, sq)
        if res.move is None or res.kind not in ("ok", "ambiguous"):
            break
        pos = pos.play(res.move)
        n += 1
    return n


def _merge_split_capture(pos: Any, sq: Sequence[int], nodes: Sequence[Any], k: int,
                         rules: Any) -> tuple[Any, int] | None:
    """A capture written one jump per ply (``d6xb4 b4xd2``, PlayStrategy exports): join the
    following plies that go on from where the last one landed, while that reads as one legal
    move. Returns (move, number of extra plies used) or None."""
    path = list(sq)
    for j in range(k + 1, min(len(nodes), k + 16)):
        nxt = nodes[j]
        if nxt.placeholder or not nxt.squares:
            return None
        nsq = parse_squares(rules, nxt.squares)
        if isinstance(nsq, str) or nsq[0] != path[-1]:
            return None
        path.extend(nsq[1:])
        res = match_move(pos, path)
        if res.move is not None and res.kind in ("ok", "ambiguous"):
            return res.move, j - k
    return None


def _separator_mismatch(node: Any, move: Any, rules: Any) -> str | None:
    seps = node.separators
    if not seps:
        return None
    if move.captured:
        if len(seps) == 1 and seps[0] == "-" and rules.capture_separator != "-":
            return "a capture written with '-'"
    elif seps[0] in ("x", "X", ":"):
        return "a quiet move written with a capture separator"
    return None


def _move_numbers(start_side: int, first_mover: int, fullmove: int | None, k: int
                  ) -> tuple[int, bool]:
    """(expected move number, is the second mover's move) for the k-th ply (0-based)."""
    base = fullmove or 1
    if start_side == first_mover:
        return base + k // 2, k % 2 == 1
    return base + (k + 1) // 2, k % 2 == 0


def _describe_failure(res: MatchResult, rules: Any, sq: Sequence[int], pos: Any
                      ) -> tuple[str, str, dict[str, Any]]:
    """(code, message, details) for a move that did not resolve."""
    from pdnkit.rules import square_name

    def nm(n: int) -> str:
        return square_name(rules, n)

    if res.kind == "missed-capture":
        req = _fmt_list(res.required, rules)
        return ("missed-capture",
                f"quiet move {nm(sq[0])}-{nm(sq[-1])} while a capture was compulsory "
                f"({', '.join(req)})", {"required": req})
    if res.kind == "not-max-capture":
        taken = max(len(m.captured) for m in res.candidates)
        need = max(len(m.captured) for m in res.required)
        req = _fmt_list(res.required, rules)
        pl = "piece" if taken == 1 else "pieces"
        return ("not-max-capture",
                f"captured {taken} {pl}; {need} were required ({', '.join(req)})",
                {"taken": taken, "required": need, "required_moves": req,
                 "rule": res.broken})
    if res.kind == "capture-priority":
        req = _fmt_list(res.required, rules)
        try:
            from pdnkit.rules.variants import CAPTURE_KEYS
        except ImportError:  # pragma: no cover - older engine
            CAPTURE_KEYS = {}  # noqa: N806
        what = CAPTURE_KEYS.get(res.broken or "", res.broken)
        return ("capture-priority",
                f"the capture breaks the priority rule '{res.broken}' ({what}); required: "
                f"{', '.join(req)}", {"rule": res.broken, "required_moves": req})
    # illegal: say what is wrong where it is cheap to tell
    piece = pos.piece_at(sq[0]) if sq else None
    side = int(pos.side)
    if piece is None:
        why = f"there is no piece on {nm(sq[0])}"
    elif int(piece[0]) != side:
        why = (f"the piece on {nm(sq[0])} is {'White' if int(piece[0]) == 0 else 'Black'}'s, "
               f"but {'White' if side == 0 else 'Black'} is to move")
    else:
        why = f"no legal move of the piece on {nm(sq[0])} goes to {nm(sq[-1])}"
    details: dict[str, Any] = {}
    if res.note:
        why = f"{res.note} ({nm(sq[0])}x{nm(sq[-1])})"
    if res.required:
        details["required"] = _fmt_list(res.required, rules)
        why += f"; a capture was compulsory ({', '.join(details['required'])})"
    return "illegal-move", why, details


def _start_position(ctx: _Ctx, rules: Any, fen: str | None) -> tuple[Any, Any]:
    """(position, FenInfo or None); (None, None) after reporting ``bad-fen``."""
    from pdnkit.rules import FenError, Position, parse_fen_info

    if not fen:
        return Position.initial(rules), None
    try:
        info = parse_fen_info(fen, rules)
    except FenError as exc:
        ctx.add("bad-fen", f"FEN {fen!r}: {exc}", fen_text=fen)
        return None, None
    return info.position, info


def _flip_side(pos: Any) -> Any:
    from pdnkit.rules import Position

    return Position.from_squares(
        pos.rules, pos.side.opponent, white_men=pos.white_men, white_kings=pos.white_kings,
        black_men=pos.black_men, black_kings=pos.black_kings)


def replay(record: Any, rules: Any = None, *, variant: str | None = None,
           edition: str | None = None, result_convention: str = "auto",
           light: bool = False) -> GameReport:
    """Replay one game record and validate it.

    ``rules`` (a :class:`~pdnkit.rules.Rules`) forces the rules; otherwise they come from the
    ``GameType`` tag, a ``Variant`` tag, ``variant``, or a guess. ``result_convention`` says
    whom the first number of a result belongs to in variants where Black moves first:
    ``auto`` (decide from the final position, else PDN 2.0: the first mover),
    ``first-mover`` or ``white``. ``light`` drops the record and the per-ply list from the
    report (counts stay), for summaries over large collections.

    Example:
        >>> from pdnkit.pdn import parse_game
        >>> rep = replay(parse_game('[GameType "20"] 1. 32-28 19-23 2. 28-23 *'))
        >>> rep.replayed_plies, rep.status, rep.findings[0].code
        (2, 'error', 'illegal-move')
    """
    if result_convention not in CONVENTIONS:
        raise ValueError(f"result_convention must be one of {CONVENTIONS}, "
                         f"got {result_convention!r}")
    if rules is not None:
        rep = _replay_guarded(record, rules, [], edition, result_convention, light)
    else:
        res = resolve_rules(record, variant, edition)
        rep = _replay_guarded(record, res.rules, res.findings, edition, result_convention,
                              light)
        if res.source == "guess" and rep.status == "error":
            # try the other candidates; keep the first that replays without errors
            from pdnkit._replay_resolve import _get_rules

            for name in res.alternatives:
                alt_rules = _get_rules(name, edition)
                if alt_rules is None:
                    continue
                fs = [f for f in res.findings if f.code != "variant-guessed"]
                note = make_finding(
                    "variant-guessed",
                    f"variant guessed as {alt_rules.name}: the game replays under its rules "
                    f"and not under {res.rules.name}'s",
                    details={"variant": alt_rules.name,
                             "candidates": [res.rules.name, *res.alternatives]})
                alt = _replay_guarded(record, alt_rules, [*fs, note], edition,
                                      result_convention,
                              light)
                if alt.status != "error":
                    rep = alt
                    break
    if light:
        rep.record = None
        rep.plies = []
        rep.final_position = None
    return rep


def _base_report(record: Any) -> GameReport:
    tag = record.tag if hasattr(record, "tag") else (lambda n, d=None: d)
    white = tag("White") or tag("Bianco")
    black = tag("Black") or tag("Nero")
    return GameReport(file=getattr(record, "file", None), index=getattr(record, "index", 0),
                      line=getattr(record, "line", None), record=record, white=white,
                      black=black, ply_count=len(getattr(record, "moves", ()) or ()))


def _unreplayed_plies(report: GameReport, nodes: Sequence[Any], start: int,
                      start_side: int | None, first_mover: int | None,
                      fullmove: int | None) -> None:
    for k in range(start, len(nodes)):
        node = nodes[k]
        side = None
        number = node.number
        if start_side is not None and first_mover is not None:
            num, second = _move_numbers(start_side, first_mover, fullmove, k)
            side = _COLOR_LETTER[(start_side + k) % 2]
            number = num
        report.plies.append(PlyRecord(
            k + 1, number, side, node.text, nags=node.nags,
            comment=" ".join(node.comments_after) or None, line=node.line))


class _NoPly:
    """Stands for the ply record when none is kept (light reports)."""

    __slots__ = ("side",)

    def _set(self, move: Any, before: Any, after: Any, legal: Any = None) -> None:
        pass


_NO_PLY: Any = _NoPly()
_DIRECT_QUIET: dict[type, bool] = {}


def _direct_quiet(pos: Any) -> bool:
    """Does the position class offer ``quiet_move`` and ``capture_move`` (direct tests)?"""
    cls = type(pos)
    got = _DIRECT_QUIET.get(cls)
    if got is None:
        got = _DIRECT_QUIET[cls] = hasattr(cls, "quiet_move") and hasattr(cls, "capture_move")
    return got


_CAPTURE_SEPS = frozenset(("x", "X", ":"))


def _plain_plies(pos: Any, nodes: Sequence[Any], rules: Any, sq_cache: dict[Any, Any],
                 base_num: int, offset: int, tracker: Any,
                 plies: list[PlyRecord] | None, first_setup_used: bool = False
                 ) -> tuple[int, Any]:
    """Replay the leading run of plain plies of a main line: a move of two known squares,
    no variation, no setup, the expected move number (or none), written with the right
    separator, that the direct tests resolve (a quiet move, or a capture that only one legal
    capture makes). Returns (index of the first ply not replayed, position reached); the
    general loop in :func:`_replay` goes on from there, so every finding comes from it.
    ``plies``: the list of ply records to fill (``None`` for a light report);
    ``first_setup_used``: a setup before the first move is the starting position already."""
    k = 0
    color = _COLOR_LETTER
    capture_seps = _CAPTURE_SEPS
    dash_is_wrong = rules.capture_separator != "-"
    push = tracker.push
    for node in nodes:
        if node.variations or node.placeholder or (
                node.setup_before and (k or not first_setup_used)):
            break
        sq = sq_cache.get(node.squares)
        if sq is None:
            sq = parse_squares(rules, node.squares)
        if type(sq) is str or len(sq) != 2:
            break
        number = node.number
        if number is not None and (number != base_num + (k + offset) // 2
                                   or (node.black_dots and not (k + offset) % 2)):
            break
        got = pos._play_written(sq[0], sq[1])
        if got is None:
            break
        move, after = got
        seps = node.separators
        if seps:
            if move.captured:
                if len(seps) == 1 and seps[0] == "-" and dash_is_wrong:
                    break
            elif seps[0] in capture_seps:
                break
        k += 1
        if plies is not None:
            exp_num = base_num + (k - 1 + offset) // 2
            comments = node.comments_after
            prec = PlyRecord(k, exp_num, color[int(pos.side)], node.text, nags=node.nags,
                             comment=" ".join(comments) if comments else None,
                             line=node.line)
            plies.append(prec)
            prec._set(move, pos, after, (move,) if move.captured else None)
        push(k, move, after)
        pos = after
    return k, pos


def _finish_status(report: GameReport) -> None:
    w = worst(report.findings)
    if report.record is not None and getattr(report.record, "parsed", True) is False:
        report.status = "unparsed"
    elif w is None or w is Severity.INFO:
        report.status = "ok"
    else:
        report.status = w.value


def internal_error(exc: BaseException, doing: str, **where: Any) -> Finding:
    """The ``internal-error`` finding for a fault of pdnkit's own code met while ``doing``
    something with one game: the exception and the place it was raised.

    Example:
        >>> internal_error(KeyError("x"), "replaying this game").message[:60]
        "pdnkit failed while replaying this game: KeyError: 'x'"
    """
    import traceback

    frames = traceback.extract_tb(exc.__traceback__)
    at = f" (at {Path(frames[-1].filename).name}:{frames[-1].lineno})" if frames else ""
    return make_finding(
        "internal-error", f"pdnkit failed while {doing}: {type(exc).__name__}: {exc}{at}",
        details={"exception": type(exc).__name__, "text": str(exc),
                 "where": [f"{Path(f.filename).name}:{f.lineno} {f.name}"
                           for f in frames[-5:]]}, **where)


def _replay_guarded(record: Any, rules: Any, pre: list[Finding], edition: str | None,
                    convention: str, light: bool = False) -> GameReport:
    """:func:`_replay`; a fault of pdnkit's own code becomes an ``internal-error`` finding
    of this game (its moves kept unreplayed) instead of stopping the whole collection."""
    try:
        return _replay(record, rules, pre, edition, convention, light)
    except Exception as exc:
        report = _base_report(record)
        where = {"file": getattr(record, "file", None),
                 "game_index": getattr(record, "index", None),
                 "line": getattr(record, "line", None)}
        report.findings = [*(getattr(record, "findings", ()) or ()),
                           *(f.located(**where) for f in pre),
                           internal_error(exc, "replaying this game", **where)]
        report.variant = getattr(rules, "name", None)
        report.gametype = getattr(rules, "gametype", None)
        report.edition = edition or getattr(rules, "edition", None)
        if not light:
            with contextlib.suppress(Exception):
                _unreplayed_plies(report, list(getattr(record, "moves", ()) or ()), 0, None,
                                  None, None)
        _finish_status(report)
        return report


def _replay(record: Any, rules: Any, pre: list[Finding], edition: str | None,
            convention: str, light: bool = False) -> GameReport:
    """Replay ``record`` under ``rules``; ``light``: no per-ply records are built."""
    report = _base_report(record)
    ctx = _Ctx(record, rules)
    report.findings = list(getattr(record, "findings", ()) or ())
    for f in pre:
        report.findings.append(f.located(file=ctx.file, game_index=ctx.index,
                                         line=getattr(record, "line", None)))
    nodes = list(getattr(record, "moves", ()) or ())
    tag = record.tag if hasattr(record, "tag") else (lambda n, d=None: d)
    raw_tag = tag("Result")
    if raw_tag is None:
        raw_tag = tag("Risultato")
    report.result_raw = raw_tag if raw_tag is not None else getattr(record, "result", None)

    if getattr(record, "parsed", True) is False or rules is None:
        _unreplayed_plies(report, nodes, 0, None, None, None)
        _results_without_position(report, record, rules, convention, ctx)
        report.findings.extend(ctx.findings)
        _finish_status(report)
        return report

    report.variant = rules.name
    report.gametype = getattr(rules, "gametype", None)
    report.edition = edition or getattr(rules, "edition", None)
    fen_tag = tag("FEN")
    fen_tag = fen_tag if fen_tag is not None and fen_tag.strip() else None
    setup = fen_tag or (nodes[0].setup_before if nodes else None)
    pos, info = _start_position(ctx, rules, setup)
    if pos is None:
        _unreplayed_plies(report, nodes, 0, None, None, None)
        _results_without_position(report, record, rules, convention, ctx)
        report.findings.extend(ctx.findings)
        _finish_status(report)
        return report
    if setup is not None and not any(pos.counts().values()):
        ctx.add("bad-fen", f"FEN {setup!r} has no pieces at all", fen_text=setup)
        _unreplayed_plies(report, nodes, 0, None, None, None)
        _results_without_position(report, record, rules, convention, ctx)
        report.findings.extend(ctx.findings)
        _finish_status(report)
        return report
    if info is not None and not info.side_known and nodes and nodes[0].squares:
        # '?' side to move: take the side whose first move replays
        sq = parse_squares(rules, nodes[0].squares)
        if not isinstance(sq, str) and match_move(pos, sq).move is None:
            other = _flip_side(pos)
            if match_move(other, sq).move is not None:
                pos = other
    from pdnkit.rules import write_fen
    from pdnkit.rules.draw import DrawTracker

    report.start_key = int(pos.key())
    if setup is None:
        # the variant's own starting position: its FEN is the same for every game
        ck = (id(rules), report.start_key)
        cached = _START_FEN.get(ck)
        if cached is None or cached[0] is not rules:
            cached = (rules, write_fen(pos))
            _START_FEN[ck] = cached
        report.start_fen = cached[1]
    else:
        report.start_fen = write_fen(pos)
    report.start_counts = dict(pos.counts())
    fullmove = info.fullmove if info is not None else None
    halfmove = info.halfmove if info is not None else None
    tracker = DrawTracker(rules, pos, halfmove)
    old_events: list[Any] = []
    first_mover = int(rules.first_mover)
    start_side = int(pos.side)
    numbers_warned = False
    stopped_at: int | None = None
    plies = report.plies
    sq_cache = squares_cache(rules)
    base_num = fullmove or 1
    offset = 0 if start_side == first_mover else 1
    skip_to = 0
    direct_quiet = _direct_quiet(pos)
    k0 = 0
    if direct_quiet and hasattr(pos, "_play_written"):
        # the usual plies (see _plain_plies); the loop below takes over at the first other one
        k0, pos = _plain_plies(pos, nodes, rules, sq_cache, base_num, offset, tracker,
                               None if light else plies, fen_tag is None)
    for k in range(k0, len(nodes)):
        node = nodes[k]
        ply = k + 1
        if k < skip_to:
            # a later jump of a capture written as several plies: part of the previous move
            if not light:
                cont = PlyRecord(ply, None, plies[-1].side, node.text, nags=node.nags,
                                 comment=" ".join(node.comments_after) if node.comments_after
                                 else None, line=node.line)
                cont.replayed = True
                cont._before = cont._after = pos
                plies.append(cont)
            continue
        side_idx = int(pos.side)
        exp_num = base_num + (k + offset) // 2
        second = (k + offset) % 2 == 1
        if light:
            prec = _NO_PLY
        else:
            comments = node.comments_after
            prec = PlyRecord(ply, exp_num, _COLOR_LETTER[side_idx], node.text, nags=node.nags,
                             comment=" ".join(comments) if comments else None, line=node.line)
            plies.append(prec)
        if node.setup_before and (k > 0 or fen_tag is not None):
            new_pos, new_info = _start_position(ctx, rules, node.setup_before)
            if new_pos is None:
                ctx.findings[-1].ply = ply
                stopped_at = k
                break
            old_events.extend(tracker.finish(k))
            pos = new_pos
            tracker = DrawTracker(rules, pos, new_info.halfmove if new_info else None)
            side_idx = int(pos.side)
            prec.side = _COLOR_LETTER[side_idx]
        toks = node.squares
        if node.placeholder or not toks:
            if k == 0 and side_idx != first_mover and node.text.strip() in ("...", ".."):
                # "1. ... 7-12": the first mover's move is only formatting
                continue
            ctx.add("unknown-move", f"{node.text!r} stands where a move should be; "
                    "replay stops here", node=node, ply=ply, pos=pos)
            stopped_at = k
            break
        if node.number is not None and not numbers_warned and (
                node.number != exp_num or (node.black_dots and not second)):
            numbers_warned = True
            written = f"{node.number}{'...' if node.black_dots else '.'}"
            ctx.add("move-number-mismatch",
                    f"move number {written} stands at ply {ply}, where "
                    f"{exp_num}{'...' if second else '.'} was expected", node=node, ply=ply,
                    expected=exp_num, written=node.number)
        sq = sq_cache.get(toks)
        if sq is None:
            sq = parse_squares(rules, toks)
        before = pos
        if type(sq) is str:
            from pdnkit.rules.notation import resolve_short_move  # Russian short form: cd4, c:e5

            short = resolve_short_move(pos, node.text)
            if type(short) is not list:
                ctx.add("ambiguous-move" if short and short.startswith("ambiguous")
                        else "illegal-move", short or sq, node=node, ply=ply, pos=pos)
                stopped_at = k
                break
            sq = short
        cap_seen = False
        if len(sq) == 2 and not node.variations:
            # fast paths: a quiet move needs no move list, nor a capture that only one legal
            # capture joins its two squares
            if not (cap_seen := pos.has_capture()):
                move = pos.quiet_move(sq[0], sq[1]) if direct_quiet \
                    else quiet_move(pos, sq[0], sq[1])
                if move is not None:
                    if node.separators and node.separators[0] in ("x", "X", ":"):
                        ctx.add("notation-mismatch",
                                f"a quiet move written with a capture separator: {node.text}",
                                node=node, ply=ply, pos=pos)
                    pos = pos.play(move)
                    prec._set(move, before, pos)
                    tracker.push(ply, move, pos)
                    continue
            elif direct_quiet:
                move = pos.capture_move(sq[0], sq[1])
                if move is not None:
                    seps = node.separators
                    if seps and len(seps) == 1 and seps[0] == "-" \
                            and rules.capture_separator != "-":
                        ctx.add("notation-mismatch",
                                f"a capture written with '-': {node.text}", node=node,
                                ply=ply, pos=pos)
                    pos = pos.play(move)
                    # the only legal move joining these squares: its notation is the short one
                    prec._set(move, before, pos, (move,))
                    tracker.push(ply, move, pos)
                    continue
        res = match_move(pos, sq, capture_known=cap_seen)
        # variations replace this move: replay them from the position before it
        if node.variations:
            for var in node.variations:
                _replay_variation(ctx, var, pos, k, rules)
        if res.kind == "ambiguous":
            rest = nodes[k + 1:]
            reach = [(_play_quiet_sequence(pos.play(m), rest, rules), m) for m in res.candidates]
            full = [m for n, m in reach if n == len(rest)]
            cands = _fmt_list(res.candidates, rules)
            if len(full) == 1:
                ctx.add("ambiguous-move",
                        f"matches {len(res.candidates)} legal moves ({', '.join(cands)}); "
                        f"only {_fmt(full[0], rules)} lets the game continue",
                        node=node, ply=ply, pos=pos, severity="warning", candidates=cands,
                        chosen=_fmt(full[0], rules))
                move = full[0]
            else:
                best = max(reach, key=lambda t: t[0])[1]
                ctx.add("ambiguous-move",
                        f"matches {len(res.candidates)} legal moves with different results "
                        f"({', '.join(cands)}); replayed as {_fmt(best, rules)}",
                        node=node, ply=ply, pos=pos, candidates=cands,
                        chosen=_fmt(best, rules))
                move = best
        elif res.ok:
            move = res.move
        elif res.kind == "no-moves":
            ctx.add("move-after-end",
                    f"{'White' if side_idx == 0 else 'Black'} has no legal move: the game "
                    "was over before this move", node=node, ply=ply, pos=pos)
            stopped_at = k
            break
        else:
            move = None
            if k == 0 and (info is None or not info.side_known):
                # the record starts with the other side (e.g. White first in English)
                other = _flip_side(pos)
                r2 = match_move(other, sq)
                if r2.move is not None and r2.kind in ("ok", "ambiguous"):
                    mover = "White" if int(other.side) == 0 else "Black"
                    ctx.add("move-number-mismatch",
                            f"the game starts with {mover}'s move although "
                            f"{'White' if first_mover == 0 else 'Black'} moves first in "
                            f"{rules.name}; replayed with {mover} to move", node=node,
                            ply=ply, pos=pos, first_mover=mover)
                    pos = before = other
                    start_side = int(pos.side)
                    offset = 0 if start_side == first_mover else 1
                    prec.side = _COLOR_LETTER[start_side]
                    report.start_fen = write_fen(pos)
                    report.start_key = int(pos.key())
                    tracker = DrawTracker(rules, pos, halfmove)
                    res = r2
                    move = r2.move
            if move is None:
                merged = _merge_split_capture(pos, sq, nodes, k, rules)
                if merged is not None:
                    move, extra = merged
                    ctx.add("notation-mismatch",
                            f"a capture written as {extra + 1} separate plies "
                            f"({' '.join(n.text for n in nodes[k:k + extra + 1])}); read as "
                            f"one move", node=node, ply=ply, pos=pos, plies=extra + 1)
                    skip_to = k + extra + 1
                    res = MatchResult("merged", move)
            if move is None:
                code, msg, details = _describe_failure(res, rules, sq, pos)
                ctx.add(code, msg, node=node, ply=ply, pos=pos, **details)
                stopped_at = k
                break
        mismatch = _separator_mismatch(node, move, rules)
        if mismatch:
            ctx.add("notation-mismatch", f"{mismatch}: {node.text}", node=node, ply=ply,
                    pos=pos)
        pos = pos.play(move)
        prec._set(move, before, pos, res.candidates if res.ok else None)
        tracker.push(ply, move, pos)

    if stopped_at is not None:
        report.replayed_plies = stopped_at
        _unreplayed_plies(report, nodes, stopped_at + 1, start_side, first_mover, fullmove)
    else:
        report.replayed_plies = len(nodes)
    last_pos = pos
    report.final_fen = write_fen(last_pos)
    report.final_position = last_pos
    events = old_events + tracker.finish(report.replayed_plies)
    report.rule_events = events
    complete = stopped_at is None
    _results(report, record, rules, convention, ctx, last_pos, complete, events)
    _draws(report, ctx, events, complete, nodes)
    report.findings.extend(ctx.findings)
    _finish_status(report)
    return report


def _replay_variation(ctx: _Ctx, elements: Sequence[Any], pos: Any, k0: int, rules: Any) -> None:
    """Replay one variation that replaces the main-line ply ``k0 + 1``, from ``pos``."""
    nodes = [e for e in elements if hasattr(e, "squares")]
    for j, node in enumerate(nodes):
        ply = k0 + j + 1
        if node.setup_before:
            new_pos, _ = _start_position(ctx, rules, node.setup_before)
            if new_pos is None:
                ctx.findings[-1].ply = ply
                ctx.findings[-1].in_variation = True
                return
            pos = new_pos
        if node.placeholder or not node.squares:
            if j == 0 and node.text.strip() in ("...", ".."):
                continue
            return
        sq = parse_squares(rules, node.squares)
        if isinstance(sq, str):
            ctx.add("illegal-move", sq, node=node, ply=ply, pos=pos, in_variation=True)
            return
        res = match_move(pos, sq)
        for var in node.variations:
            _replay_variation(ctx, var, pos, k0 + j, rules)
        if res.kind == "ambiguous":
            rest = nodes[j + 1:]
            reach = [(_play_quiet_sequence(pos.play(m), rest, rules), m) for m in res.candidates]
            full = [m for n, m in reach if n == len(rest)]
            cands = _fmt_list(res.candidates, rules)
            ctx.add("ambiguous-move",
                    f"matches {len(res.candidates)} legal moves ({', '.join(cands)})",
                    node=node, ply=ply, pos=pos, in_variation=True,
                    severity="warning" if len(full) == 1 else None, candidates=cands)
            move = full[0] if len(full) == 1 else max(reach, key=lambda t: t[0])[1]
        elif res.ok:
            move = res.move
        elif res.kind == "no-moves":
            ctx.add("move-after-end", "the side to move has no legal move", node=node,
                    ply=ply, pos=pos, in_variation=True)
            return
        else:
            code, msg, details = _describe_failure(res, rules, sq, pos)
            ctx.add(code, msg, node=node, ply=ply, pos=pos, in_variation=True, **details)
            return
        pos = pos.play(move)


# ----------------------------------------------------------------------------------------------
# results and draws
# ----------------------------------------------------------------------------------------------


def _result_sources(record: Any) -> tuple[str | None, str | None]:
    tag = record.tag if hasattr(record, "tag") else (lambda n, d=None: d)
    t = tag("Result")
    if t is None:
        t = tag("Risultato")
    return t, getattr(record, "result", None)


def _pick_raw(tag_value: str | None, term: str | None) -> str | None:
    if tag_value is not None and normalise_token(tag_value) != "unknown":
        return tag_value
    if term is not None and normalise_token(term) != "unknown":
        return term
    return tag_value if tag_value is not None else term


def _tag_vs_terminator(report: GameReport, ctx: _Ctx, tag_value: str | None,
                       term: str | None) -> None:
    if tag_value is None or term is None:
        return
    a, b = normalise_token(tag_value), normalise_token(term)
    if a == "unknown" or b == "unknown":
        return
    if a != b or (a is None and tag_value.strip() != term.strip()):
        ctx.add("result-tag-mismatch",
                f"the Result tag says {tag_value!r}, the movetext ends with {term!r}",
                ply=report.replayed_plies or None, tag=tag_value, terminator=term)


def _results_without_position(report: GameReport, record: Any, rules: Any, convention: str,
                              ctx: _Ctx) -> None:
    tag_value, term = _result_sources(record)
    raw = _pick_raw(tag_value, term)
    report.result_raw = raw
    meaning = normalise_token(raw)
    side = first_number_side(rules, "white" if convention == "white" else "first-mover") \
        if rules is not None else "W"
    report.outcome = outcome_of(meaning, side)
    report.result = result_string(report.outcome, meaning)
    _tag_vs_terminator(report, ctx, tag_value, term)


def _readings(meaning: str | None, rules: Any, convention: str) -> set[str]:
    """Every outcome a result token can mean under the conventions allowed."""
    if convention == "auto" and int(rules.first_mover) == 1:
        return {outcome_of(meaning, first_number_side(rules, c))
                for c in ("first-mover", "white")}
    return {outcome_of(meaning, first_number_side(rules, convention))}


def _results(report: GameReport, record: Any, rules: Any, convention: str, ctx: _Ctx,
             pos: Any, complete: bool, events: Sequence[Any] = ()) -> None:
    tag_value, term = _result_sources(record)
    last = report.replayed_plies or None

    # what the rules say: the final position decides, or an automatic draw was reached
    decided: str | None = None
    if complete and pos is not None and pos.is_terminal():
        mover = int(pos.side)
        loser = mover if not getattr(rules, "losing_game", False) else 1 - mover
        decided = "black" if loser == 0 else "white"
    verdict = decided
    if verdict is None and complete and any(e.automatic and e.reached_ply is not None
                                            for e in events):
        verdict = "draw"

    raw = _pick_raw(tag_value, term)
    if verdict is not None and tag_value is not None and term is not None \
            and verdict not in _readings(normalise_token(tag_value), rules, convention) \
            and verdict in _readings(normalise_token(term), rules, convention):
        raw = term  # the tag and the terminator disagree: keep the one the rules back
    report.result_raw = raw
    meaning = normalise_token(raw)
    _tag_vs_terminator(report, ctx, tag_value, term)
    if meaning is None:
        ctx.add("unknown-result", f"result {raw!r} is not a game result", ply=last)
    elif meaning == "unknown" and raw is not None and raw.strip() == "0-0":
        ctx.add("unknown-result", "0-0: double forfeit", ply=last)

    black_first = int(rules.first_mover) == 1
    if convention == "auto" and black_first:
        readings = {c: outcome_of(meaning, first_number_side(rules, c))
                    for c in ("first-mover", "white")}
        chosen = "first-mover"
        if decided is not None and readings["first-mover"] != decided \
                and readings["white"] == decided:
            chosen = "white"
        if decided is not None and readings[chosen] == decided and \
                readings["first-mover"] != readings["white"]:
            who = "Black (the first mover)" if chosen == "first-mover" else "White"
            ctx.add("result-convention",
                    f"{raw} read as: the first number is {who}; that reading fits the "
                    "final position", ply=last, convention=chosen)
        outcome = readings[chosen]
    else:
        outcome = outcome_of(meaning, first_number_side(rules, convention))
    report.outcome = outcome
    report.result = result_string(outcome, meaning)
    if decided is not None and outcome != "unknown" and outcome != decided:
        mover = "White" if int(pos.side) == 0 else "Black"
        what = "wins" if getattr(rules, "losing_game", False) else "loses"
        ctx.add("result-mismatch",
                f"{mover} has no legal move at the end and so {what}, but the result "
                f"{raw!r} says {'a draw' if outcome == 'draw' else outcome + ' won'}",
                ply=last, expected=decided, result=raw)


def _draws(report: GameReport, ctx: _Ctx, events: Sequence[Any], complete: bool,
           nodes: Sequence[Any]) -> None:
    last = report.replayed_plies
    reached = sorted((e for e in events if e.reached_ply is not None),
                     key=lambda e: e.reached_ply)
    decisive = report.outcome in ("white", "black")
    first_auto = next((e for e in reached if e.automatic), None)
    # rules reached and not respected
    for e in reached:
        if first_auto is not None and e.reached_ply > first_auto.reached_ply:
            break
        went_on = e.reached_ply < last
        if not (went_on or decisive):
            continue
        how = (f"the game went on for {last - e.reached_ply} more plies" if went_on
               else f"the game was scored {report.result_raw}")
        kind = "an automatic draw" if e.automatic else "a draw claim"
        ctx.add("draw-rule-ignored",
                f"{e.article} ({e.rule}) gives {kind} at ply {e.reached_ply}, but {how}",
                ply=e.reached_ply, severity=None if e.automatic else "warning",
                rule=e.rule, article=e.article, automatic=e.automatic,
                reached_ply=e.reached_ply)
        if e.automatic:
            break
    if report.outcome != "draw":
        return
    basis = first_auto
    if basis is None:
        # a claim that still holds at the end of the game backs the draw
        holding = [e for e in reached if e.end_ply is None or e.end_ply >= last]
        basis = holding[-1] if holding else None
    if basis is not None:
        report.draw_basis = basis.rule
        ctx.add("draw-by-rule", f"the draw is backed by {basis.article} ({basis.rule}), "
                f"reached at ply {basis.reached_ply}", ply=basis.reached_ply, rule=basis.rule,
                article=basis.article, automatic=basis.automatic)
    else:
        ctx.add("draw-unsupported", "no draw rule was reached; the draw was presumably agreed",
                ply=last or None)


# ----------------------------------------------------------------------------------------------
# validate
# ----------------------------------------------------------------------------------------------


def iter_sources(source: Any) -> Iterator[Any]:
    """The inputs behind ``source``: PDN files (a folder is searched recursively for
    ``*.pdn``), or a string of PDN text when it is not a path.

    Example:
        >>> list(iter_sources('[Event "x"] *'))
        ['[Event "x"] *']
    """
    if isinstance(source, (str, os.PathLike)):
        text = os.fspath(source)
        maybe_path = isinstance(source, os.PathLike) or ("\n" not in text and len(text) < 4096)
        if maybe_path:
            p = Path(text)
            if p.is_dir():
                yield from sorted(q for q in p.rglob("*") if q.is_file()
                                  and q.suffix.lower() == ".pdn")
                return
            if p.exists() or isinstance(source, os.PathLike) or not _looks_like_pdn(text):
                yield p
                return
        yield text
        return
    if hasattr(source, "read") or (hasattr(source, "tags") and hasattr(source, "moves")):
        yield source  # a file object, or an already read GameRecord
        return
    for s in source:
        yield from iter_sources(s)


def _looks_like_pdn(text: str) -> bool:
    """A string that is PDN text rather than a (missing) file name."""
    t = text.strip()
    return t.startswith(("[", "{", "%", ";")) or t[:1].isdigit() or t.endswith("*")


def validate(source: Any, variant: str | None = None, *, edition: str | None = None,
             jobs: int = 1, result_convention: str = "auto", strict: bool = False,
             light: bool = False, chunk_size: int = 200) -> Iterator[GameReport]:
    """Validate every game in ``source``: one :class:`GameReport` per game, in file order.

    ``source`` is a path, a folder (``*.pdn`` read recursively), a list of those, a file
    object, a string of PDN text, or :class:`~pdnkit.pdn.record.GameRecord` objects already
    read (replayed in this process). ``variant`` applies where the tags do not say (a tag that
    disagrees wins, with a warning). ``jobs`` > 1 replays in worker processes, ``chunk_size``
    games at a time, with the order kept. ``light`` drops records and ply lists from the
    reports (for summaries). Memory stays flat: games are read and replayed as a stream.

    Example:
        >>> [r.status for r in validate('1. 32-28 19-23 *\\n\\n1. 32-28 28-22 *',
        ...                             variant="international")]
        ['ok', 'error']
    """
    if result_convention not in CONVENTIONS:
        raise ValueError(f"result_convention must be one of {CONVENTIONS}")
    if variant is not None:
        from pdnkit._replay_resolve import _get_rules

        if _get_rules(variant, edition) is None:
            raise ValueError(f"unknown variant {variant!r}")
    if edition is not None:
        from pdnkit.rules import list_variants

        known = {r.edition for r in list_variants()}
        if edition.strip().lower() not in known:
            raise ValueError(f"unknown rules edition {edition!r} (known: "
                             f"{', '.join(sorted(known))})")
    if jobs and jobs > 1:
        from pdnkit._replay_jobs import validate_parallel

        yield from validate_parallel(source, variant, edition=edition, jobs=jobs,
                                     result_convention=result_convention, strict=strict,
                                     light=light, chunk_size=chunk_size)
        return
    from pdnkit.pdn import read_games

    for src in iter_sources(source):
        if hasattr(src, "tags") and hasattr(src, "moves"):
            yield replay(src, variant=variant, edition=edition,
                         result_convention=result_convention, light=light)
            continue
        file = str(src) if isinstance(src, Path) else None
        for record in read_games(src, strict=strict, file=file):
            yield replay(record, variant=variant, edition=edition,
                         result_convention=result_convention, light=light)
