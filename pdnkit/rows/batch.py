"""Turning ``GameReport``s into columns: one Arrow table per database table, loaded in bulk.

A :class:`ReportBatch` collects the games of one slice of one file. Game numbers in a batch are
local (0, 1, 2, ...); the writer adds the database offset when it loads the batch, so batches can
be built in worker processes that know nothing about the database.

Example:
    >>> b = ReportBatch()
    >>> b.games_count
    0
    >>> sorted(b.to_arrow())  # doctest: +NORMALIZE_WHITESPACE
    ['findings', 'games', 'moves', 'position_bits', 'positions', 'rule_events', 'run_moves',
     'run_squares']
"""

from __future__ import annotations

import enum
import hashlib
import json
from itertools import compress
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from pdnkit.openings.labels import BatchOpenings
from pdnkit.pdn.tags import game_tags, unique_tags
from pdnkit.rows.bitboards import (
    Bits,
    BoardLayout,
    board_layout,
    square_bits,
)
from pdnkit.rows.runs import PendingHash, RunChunk, run_chunk, run_tables

if TYPE_CHECKING:

    import pyarrow as pa

    from pdnkit.validation.report import PlainRun


def moves_hash(variant: str | None, start_fen: str | None, moves: list[str]) -> str | None:
    """Hash that is equal for games with the same variant, start position and main-line moves
    (canonical notation where the move was replayed, else as written). ``None`` for a game
    without moves.

    Example:
        >>> moves_hash("russian", None, ["c3-d4", "f6-g5"]) == moves_hash(
        ...     "russian", None, ["c3-d4", "f6-g5"])
        True
        >>> moves_hash("russian", None, []) is None
        True
    """
    if not moves:
        return None
    h = hashlib.blake2b(digest_size=16)
    h.update(f"{variant or ''}\n{start_fen or ''}\n".encode())
    h.update(" ".join(moves).encode())
    return h.hexdigest()


def _val(x: Any) -> Any:
    """Enum members as their value; everything else as it is."""
    if isinstance(x, enum.Enum):
        if isinstance(x, int):
            return str(x)
        return x.value
    return x


def _opt_str(x: Any) -> str | None:
    x = _val(x)
    return None if x is None else str(x)


#: (variant, edition) -> the position key of the variant's initial position
_INITIAL_KEYS: dict[tuple[str, str | None], int | None] = {}


def initial_key(variant: str | None, edition: str | None = None) -> int | None:
    """The position key of a variant's initial position (side to move included), or
    ``None`` for an unknown variant.

    Example:
        >>> initial_key("russian") == initial_key("russian"), initial_key(None)
        (True, None)
    """
    if variant is None:
        return None
    key = (variant, edition)
    if key not in _INITIAL_KEYS:
        try:
            from pdnkit.rules import Position, get_rules

            try:
                rules = get_rules(variant, edition) if edition else get_rules(variant)
            except Exception:
                rules = get_rules(variant)
            _INITIAL_KEYS[key] = int(Position.initial(rules).key())
        except Exception:  # an unknown variant: no initial position to compare with
            _INITIAL_KEYS[key] = None
    return _INITIAL_KEYS[key]


def start_is_initial(report: Any, variant: str | None, edition: str | None) -> bool | None:
    """Whether a game starts from its variant's initial position: no set-up, or a FEN (tag
    or ``/FEN/`` before the first move) equal to the initial position, side to move included.
    ``None`` when unknown (a set-up that could not be read).

    Example:
        >>> from pdnkit.validation import validate
        >>> fen = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
        >>> rep = next(validate(f'[GameType "25"][FEN "{fen}"] 1. c3-d4 *'))
        >>> start_is_initial(rep, rep.variant, rep.edition)
        True
    """
    record = getattr(report, "record", None)
    setup = getattr(record, "setup", None) if record is not None else None
    start = getattr(report, "start_key", None)
    if start is not None:
        want = initial_key(variant, edition)
        return None if want is None else int(start) == want
    if record is None:
        return None
    return True if setup is None else None


# (variant, edition, fen) -> (square bitboards, layout) of starting positions, computed
# once per process
_START_CACHE: dict[tuple[Any, ...], tuple[Bits, BoardLayout] | None] = {}


def start_position_info(variant: str | None, edition: str | None,
                        fen: str | None) -> tuple[Bits, BoardLayout] | None:
    """``((wm, wk, bm, bk), layout)`` of a starting position given as FEN, through the
    rules engine; ``None`` when the variant or FEN is unknown or unreadable.

    Example:
        >>> start_position_info(None, None, None) is None
        True
        >>> bits, lay = start_position_info("english", None, "B:W21-32:B1-12")
        >>> bits[2] == (1 << 12) - 1, lay.squares
        (True, 32)
    """
    if variant is None or fen is None:
        return None
    key = (variant, edition, fen)
    if key in _START_CACHE:
        return _START_CACHE[key]
    info: tuple[Bits, BoardLayout] | None
    try:
        from pdnkit.rules import get_rules, parse_fen

        try:
            rules = get_rules(variant, edition) if edition else get_rules(variant)
        except Exception:
            rules = get_rules(variant)
        pos = parse_fen(fen, rules)
        info = (square_bits(pos), board_layout(rules))
    except Exception:  # an unreadable start is already a finding of the validator
        info = None
    if len(_START_CACHE) > 10_000:
        _START_CACHE.clear()
    _START_CACHE[key] = info
    return info


def canonical_notations(plies: list[Any]) -> list[str | None]:
    """The canonical notation of each ply (``None`` where it was not replayed): a quiet
    move's straight from the variant's square names, a capture's through the record (which
    knows the legal captures it was chosen from).

    Example:
        >>> from pdnkit.validation import validate
        >>> canonical_notations(next(validate('[GameType "25"] 1. c3-d4 f6-e5 2. d4:f6 *')).plies)
        ['c3-d4', 'f6-e5', 'd4:f6']
    """
    out: list[str | None] = []
    add = out.append
    names: tuple[str, ...] | None = None
    for p in plies:
        # (a replayed ply without an origin is the later part of a capture written as
        # several plies: its move is the previous ply's, and it has no notation of its own)
        if p.replayed and not p.captured and p.origin is not None:
            if names is None:
                before = getattr(p, "position_before", None)
                if before is None:  # a record from a worker process: computed there
                    add(p.notation)
                    continue
                from pdnkit.rules.notation import square_names

                names = square_names(before.rules)
            add(f"{names[p.origin]}-{names[p.destination]}")
        else:
            add(p.notation)
    return out


_MOVE_FIELDS = attrgetter("ply", "move_number", "side", "written", "origin", "destination",
                          "path", "captured", "promotes", "piece", "nags", "comment",
                          "replayed", "line")
_SIDES = frozenset(("W", "B"))
#: games per batch handed on to be loaded (bounds memory; every batch of a file shares its
#: transaction): :meth:`ReportBatch.full`. Each table of a batch is one ``INSERT``, and an
#: Arrow scan costs DuckDB a few milliseconds however few its rows: 1,000 games took 15-20%
#: less CPU time than 250 on an import of 20,000 games (peak RSS 332 MB against 306 MB)
BATCH_GAMES = 1000
#: move rows per batch handed on to be loaded
BATCH_PLIES = 100_000


class ReportBatch:
    """Columns for the ``games``, ``moves``, ``positions``, ``findings`` and ``rule_events``
    tables, filled one ``GameReport`` at a time. ``game_id`` holds local numbers (0-based in
    the batch); ``file_id`` is filled by the writer. The plies of a compact report's plain
    run go to :attr:`runs` (a row per run) and :attr:`run_moves` (a
    :class:`pdnkit.rows.runs.RunChunk` per run: its moves and positions as arrays); the
    other plies to ``moves`` and ``position_bits``.

    Example:
        >>> b = ReportBatch()
        >>> b.plies_count, b.findings_count
        (0, 0)
    """

    GAME_COLS = ("game_id", "game_index", "line", "variant", "gametype", "edition", "fen",
                 "event", "site", "date", "date_raw", "year", "date_first", "date_last",
                 "date_precision", "date_text", "round", "white", "black",
                 "result", "result_raw", "white_rating", "black_rating", "tags", "plies",
                 "replayed_plies", "status", "outcome", "draw_basis", "moves_hash",
                 "final_fen", "raw_pdn", "start_is_initial", "opening", "result_source",
                 "opening_code", "opening_name", "opening_ply", "opening_family",
                 "opening_mirrored")
    MOVE_COLS = ("game_id", "ply", "move_number", "side", "notation", "canonical", "origin",
                 "destination", "path", "captured", "promotes", "piece", "nags", "comment", "replayed", "line")
    #: positions written in Python (square bitboards already computed; 12x12 boards, stand-in
    #: records, starting positions)
    POS_COLS = ("game_id", "ply", "layout", "black", "wm", "wk", "bm", "bk")
    FINDING_COLS = ("game_id", "game_index", "code", "severity", "message", "line", "col",
                    "ply", "move", "fen", "in_variation", "details")
    BITS_COLS = ("game_id", "ply", "layout", "black", "w", "b", "k")
    EVENT_COLS = ("game_id", "rule", "article", "automatic", "start_ply", "limit_plies",
                  "deadline_ply", "reached_ply", "end_ply")
    #: one row per plain run (:meth:`_add_run`): its game, length, first move number,
    #: numbering offset, first side (1: Black) and the layout code of its positions (``-1``
    #: for a board of more than 64 bits, whose positions go to :attr:`positions`)
    RUN_COLS = ("game_id", "plies", "base", "offset", "first", "layout")
    #: the columns of the runs' moves, one row per ply: only what differs from ply to ply
    #: (game, ply, move number and side are expanded from :attr:`runs` when the batch
    #: becomes Arrow; ``path`` is ``None`` where it is just origin and destination), cut
    #: from the runs' chunks by :func:`pdnkit.rows.runs.run_columns`
    RUN_MOVE_COLS = ("notation", "canonical", "origin", "destination", "path", "captured",
                     "promotes", "king", "nags", "comment", "line")

    def __init__(self) -> None:
        self.games: dict[str, list[Any]] = {c: [] for c in self.GAME_COLS}
        self.moves: dict[str, list[Any]] = {c: [] for c in self.MOVE_COLS}
        self.positions: dict[str, list[Any]] = {c: [] for c in self.POS_COLS}
        #: the same for boards of at most 64 squares (whole bitboards fit UBIGINT)
        self.squares: dict[str, list[Any]] = {c: [] for c in self.POS_COLS}
        self.findings: dict[str, list[Any]] = {c: [] for c in self.FINDING_COLS}
        self.rule_events: dict[str, list[Any]] = {c: [] for c in self.EVENT_COLS}
        self.runs: dict[str, list[Any]] = {c: [] for c in self.RUN_COLS}
        #: one :class:`pdnkit.rows.runs.RunChunk` a run (the moves and the positions
        #: after them, as arrays)
        self.run_moves: dict[str, list[Any]] = {"chunk": []}
        #: positions given as the engine's bitboards (a board of at most 64 bits): the
        #: loader turns them into square bitboards and computes their key in SQL
        self.position_bits: dict[str, list[Any]] = {c: [] for c in self.BITS_COLS}
        #: the board layouts that the ``layout`` columns number
        self.layouts: list[BoardLayout] = []
        self._layout_codes: dict[BoardLayout, int] = {}
        #: id(layout) -> (layout, code): the layout a run or position names is one object per
        #: rules record, and hashing its tuples cost 1.5-2 us a game (the object is kept, and
        #: checked, so an id reused elsewhere, or in a process the batch was pickled to, never
        #: finds another layout's code)
        self._layout_ids: dict[int, tuple[BoardLayout, int]] = {}
        #: the games whose opening columns wait for the batch (filled by :meth:`to_arrow`)
        self.openings = BatchOpenings()
        self.encoding: str | None = None
        self.status_counts: dict[str, int] = {}
        self.code_counts: dict[str, int] = {}
        self.replayed_count = 0

    @property
    def games_count(self) -> int:
        """Games in the batch."""
        return len(self.games["game_id"])

    @property
    def plies_count(self) -> int:
        """Move rows in the batch."""
        plies: list[int] = self.runs["plies"]
        return len(self.moves["game_id"]) + sum(plies)

    @property
    def findings_count(self) -> int:
        """Finding rows in the batch."""
        return len(self.findings["game_id"])

    def full(self) -> bool:
        """True from :data:`BATCH_GAMES` games or :data:`BATCH_PLIES` move rows on: the
        batch is loaded then, and the next one started.

        Example:
            >>> ReportBatch().full()
            False
        """
        return self.games_count >= BATCH_GAMES or self.plies_count >= BATCH_PLIES

    def add(self, report: Any) -> int:
        """Append one ``GameReport``; returns its local game number.

        Should building its rows fail (a fault of pdnkit's, not of the game), whatever was
        appended for it is taken back and the game goes in without moves and positions,
        with an ``internal-error`` finding (its raw text is kept): one game never stops
        an import."""
        tables = (self.games, self.moves, self.positions, self.squares, self.position_bits,
                  self.findings, self.rule_events, self.runs, self.run_moves)
        # (every table's first column is game_id, the runs' moves' their chunk)
        marks = [len(t["game_id"]) for t in tables[:-1]]
        marks.append(len(self.run_moves["chunk"]))
        counters = (dict(self.status_counts), dict(self.code_counts), self.replayed_count)
        try:
            return self._add(report)
        except Exception as exc:
            import dataclasses

            from pdnkit.validation import internal_error

            for t, n in zip(tables, marks, strict=True):
                for col in t.values():
                    del col[n:]
            self.openings.forget(marks[0])
            self.status_counts, self.code_counts, self.replayed_count = counters
            where = {"file": getattr(report, "file", None),
                     "game_index": getattr(report, "index", None),
                     "line": getattr(report, "line", None)}
            return self._add(dataclasses.replace(
                report, plies=[], plain=None, rule_events=[], status="error",
                replayed_plies=0,
                findings=[*report.findings,
                          internal_error(exc, "loading this game's rows", **where)]))

    def _add(self, report: Any) -> int:
        if getattr(report, "file_level", False):
            return self._add_file_findings(report)
        gid = self.games_count
        record = report.record
        tag_list = unique_tags(getattr(record, "tags", None) or [])  # the first one wins
        if self.encoding is None:
            self.encoding = getattr(record, "encoding", None)

        variant = _opt_str(report.variant)
        edition = _opt_str(getattr(report, "edition", None))
        info_tags = game_tags(tag_list, variant)
        status = _opt_str(report.status) or "unparsed"
        start_fen = getattr(report, "start_fen", None)
        plies = list(report.plies or [])
        canonical = canonical_notations(plies)
        run = getattr(report, "plain", None)  # a compact replay's leading plain plies
        chunk = run_chunk(run, board_layout(run.rules)) if run else None

        g = self.games
        g["game_id"].append(gid)
        g["game_index"].append(report.index)
        g["line"].append(report.line)
        g["variant"].append(variant)
        gametype = getattr(report, "gametype", None)
        g["gametype"].append(int(gametype) if gametype is not None else None)
        g["edition"].append(edition)
        g["fen"].append(info_tags.fen)
        g["start_is_initial"].append(start_is_initial(report, variant, edition))
        g["event"].append(info_tags.event)
        g["site"].append(info_tags.site)
        g["round"].append(info_tags.round)
        g["white"].append(info_tags.white)
        g["black"].append(info_tags.black)
        g["opening"].append(info_tags.opening)
        noted = self.openings.add(self.games, report, tag_list)  # (pdnkit.openings.labels)
        g["date"].append(info_tags.date)
        g["date_raw"].append(info_tags.date_raw)
        g["year"].append(info_tags.year)
        span = info_tags.span
        g["date_first"].append(span.first if span is not None else None)
        g["date_last"].append(span.last if span is not None else None)
        g["date_precision"].append(span.precision if span is not None else None)
        g["date_text"].append(info_tags.date_text)
        g["result"].append(_opt_str(report.result))
        g["result_raw"].append(_opt_str(getattr(report, "result_raw", None)))
        g["result_source"].append(_opt_str(getattr(report, "result_source", None)))
        g["white_rating"].append(info_tags.white_rating)
        g["black_rating"].append(info_tags.black_rating)
        g["tags"].append([(str(k), str(v)) for k, v in tag_list])
        g["plies"].append((chunk.n if chunk else 0) + len(plies))
        g["replayed_plies"].append(report.replayed_plies)
        g["status"].append(status)
        g["outcome"].append(_opt_str(getattr(report, "outcome", None)))
        g["draw_basis"].append(_opt_str(getattr(report, "draw_basis", None)))
        rest = [c or p.written or "" for c, p in zip(canonical, plies, strict=True)]
        g["moves_hash"].append(
            None if status == "unparsed" else
            PendingHash(variant, start_fen, chunk, rest) if chunk else
            moves_hash(variant, start_fen, rest))
        g["final_fen"].append(getattr(report, "final_fen", None))
        g["raw_pdn"].append(getattr(record, "raw", None))
        self.status_counts[status] = self.status_counts.get(status, 0) + 1
        self.replayed_count += int(report.replayed_plies or 0)

        # positions: ply 0 is the start
        info = start_position_info(variant, edition, start_fen)
        if start_fen is not None and info is not None:
            bits, layout = info
            self._add_position(gid, 0, layout, start_fen[:1].upper() == "B", bits)

        if run and chunk:
            self._add_run(gid, run, chunk)
        if plies:
            self._add_plies(gid, plies, canonical, variant, edition)

        self._add_findings(gid, report.index, [*(report.findings or []), *noted])

        ev = self.rule_events
        for e in getattr(report, "rule_events", None) or []:
            ev["game_id"].append(gid)
            ev["rule"].append(str(e.rule))
            ev["article"].append(getattr(e, "article", None))
            ev["automatic"].append(getattr(e, "automatic", None))
            ev["start_ply"].append(getattr(e, "start_ply", None))
            ev["limit_plies"].append(getattr(e, "limit_plies", None))
            ev["deadline_ply"].append(getattr(e, "deadline_ply", None))
            ev["reached_ply"].append(getattr(e, "reached_ply", None))
            ev["end_ply"].append(getattr(e, "end_ply", None))
        return gid

    def _add_file_findings(self, report: Any) -> int:
        """The findings of a file-level report (an empty file, a file that is not PDN,
        notes after the last game): ``findings`` rows without a game (``game_id`` and
        ``game_index`` NULL), no ``games`` row. Returns -1 (no game)."""
        if self.encoding is None:
            self.encoding = getattr(report.record, "encoding", None)
        self._add_findings(None, None, list(report.findings or []))
        return -1

    def _add_findings(self, gid: int | None, index: int | None, found: list[Any]) -> None:
        """``findings`` rows of the game ``gid`` (``index`` its place in the file: a
        finding's own, where it has one), or of the file (``None``)."""
        fd = self.findings
        for f in found:
            code = str(f.code)
            fd["game_id"].append(gid)
            fd["game_index"].append(f.game_index if f.game_index is not None or gid is None
                                    else index)
            fd["code"].append(code)
            fd["severity"].append(_opt_str(f.severity))
            fd["message"].append(f.message)
            fd["line"].append(f.line)
            fd["col"].append(getattr(f, "column", None))
            fd["ply"].append(f.ply)
            fd["move"].append(f.move)
            fd["fen"].append(f.fen)
            fd["in_variation"].append(bool(getattr(f, "in_variation", False)))
            details = getattr(f, "details", None)
            fd["details"].append(json.dumps(details, default=str, ensure_ascii=False)
                                 if details else None)
            self.code_counts[code] = self.code_counts.get(code, 0) + 1

    def _add_position(self, gid: int, ply: int, layout: BoardLayout, black: bool,
                      bits: Bits) -> None:
        """One ``position_bits`` row written in Python (square bitboards given)."""
        pos = self.squares if layout.squares <= 64 else self.positions
        pos["game_id"].append(gid)
        pos["ply"].append(ply)
        pos["layout"].append(self._layout_code(layout))
        pos["black"].append(black)
        for col, v in zip(("wm", "wk", "bm", "bk"), bits, strict=True):
            pos[col].append(v)

    def _add_run(self, gid: int, run: PlainRun, chunk: RunChunk) -> None:
        """The rows of a compact replay's plain run: one :attr:`runs` row and its
        :class:`~pdnkit.rows.runs.RunChunk` (the moves and the positions after them as
        arrays, made into columns a batch at a time in :meth:`to_arrow`:
        :func:`_run_tables`); positions on a board of more than 64 engine bits are written
        here, as square bitboards."""
        layout = board_layout(run.rules)
        wide = chunk.bits is None
        r = self.runs
        r["game_id"].append(gid)
        r["plies"].append(chunk.n)
        r["base"].append(run.base_num)
        r["offset"].append(run.offset)
        r["first"].append(run.start_side)
        r["layout"].append(-1 if wide else self._layout_code(layout))
        self.run_moves["chunk"].append(chunk)
        if wide:  # 12x12 boards: square bitboards in Python
            for k, a in enumerate(run.iter_afters(), 1):
                self._add_position(gid, k, layout, bool(a.side), square_bits(a))

    def _add_plies(self, gid: int, plies: list[Any], canonical: list[str | None],
                   variant: str | None = None, edition: str | None = None) -> None:
        """The ``moves`` rows of a game's plies and the ``positions`` rows after each replayed
        one (``captured_count`` and ``is_capture`` are derived by the loader).

        The columns are cut out of the records by C-level getters and transposed (no Python
        loop a ply at a time); FEN, key and piece counts come straight from the positions'
        bitboards."""
        try:
            fields = list(map(_MOVE_FIELDS, plies))
        except AttributeError:  # a record of another shape
            self._add_plies_general(gid, plies, canonical, variant, edition)
            return
        (ply, number, side, written, origin, dest, path, captured, promotes, piece, nags,
         comment, replayed, line) = zip(*fields, strict=True)
        if not _SIDES.issuperset(side):
            side = tuple(_opt_str(x) for x in side)
        try:
            afters = [p.position_after for p in compress(plies, replayed)]
            ws = bs = ks = None
            if not any(a is None for a in afters):
                ws, bs, ks = (list(x) for x in zip(*(a.engine_bits for a in afters),
                                                       strict=True)) if afters else ([], [], [])
                layout = board_layout(afters[0].rules) if afters else None
                if layout is not None and max(layout.engine_bits) >= 64:
                    layout = None
        except AttributeError:  # records without positions
            ws = None
        if ws is None or bs is None or ks is None or {*map(type, ws), *map(type, bs),
                                                      *map(type, ks)} - {int}:
            self._add_plies_general(gid, plies, canonical, variant, edition)
            return
        n = len(plies)
        mv = self.moves
        mv["game_id"].extend([gid] * n)
        mv["ply"].extend(ply)
        mv["move_number"].extend(number)
        mv["side"].extend(side)
        mv["notation"].extend(written)
        mv["canonical"].extend(canonical)
        mv["origin"].extend(origin)
        mv["destination"].extend(dest)
        mv["path"].extend(path)
        mv["captured"].extend(captured)
        mv["promotes"].extend(promotes)
        mv["piece"].extend(piece)
        mv["nags"].extend([x or None for x in nags])
        mv["comment"].extend(comment)
        mv["replayed"].extend(map(bool, replayed))
        mv["line"].extend(line)

        if layout is not None:  # square bitboards and key are computed by the loader
            pb = self.position_bits
            n_pos = len(afters)
            pb["game_id"].extend([gid] * n_pos)
            pb["ply"].extend(compress(ply, replayed))
            pb["layout"].extend([self._layout_code(layout)] * n_pos)
            pb["black"].extend([a.side for a in afters])
            pb["w"].extend(ws)
            pb["b"].extend(bs)
            pb["k"].extend(ks)
            return
        for p, a in zip(compress(ply, replayed), afters, strict=True):  # 12x12 boards
            self._add_position(gid, p, board_layout(a.rules), bool(a.side), square_bits(a))

    def _layout_code(self, layout: BoardLayout) -> int:
        """The batch's number for ``layout`` (an index into :attr:`layouts`)."""
        hit = self._layout_ids.get(id(layout))
        if hit is not None and hit[0] is layout:
            return hit[1]
        code = self._layout_codes.get(layout)
        if code is None:
            code = self._layout_codes[layout] = len(self.layouts)
            self.layouts.append(layout)
        self._layout_ids[id(layout)] = (layout, code)
        return code

    def _add_plies_general(self, gid: int, plies: list[Any], canonical: list[str | None],
                           variant: str | None = None, edition: str | None = None) -> None:
        """:meth:`_add_plies` for any ply record: one pass, a ply at a time, with the
        record's own FEN and key where it holds no position (a record from a worker process
        of the validator, a stand-in): its square bitboards then come from that FEN."""
        n = len(plies)
        mv = self.moves
        mv["game_id"].extend([gid] * n)
        mv["canonical"].extend(canonical)
        m_ply, m_num, m_side, m_written = (mv["ply"].append, mv["move_number"].append,
                                           mv["side"].append, mv["notation"].append)
        m_orig, m_dest, m_path, m_cap = (mv["origin"].append, mv["destination"].append,
                                         mv["path"].append, mv["captured"].append)
        m_prom, m_piece, m_nags, m_comm = (mv["promotes"].append, mv["piece"].append,
                                           mv["nags"].append, mv["comment"].append)
        m_repl, m_line = mv["replayed"].append, mv["line"].append
        for p in plies:
            ply = p.ply
            side = p.side
            if type(side) is not str:
                side = _opt_str(side)
            replayed = bool(p.replayed)
            m_ply(ply)
            m_num(p.move_number)
            m_side(side)
            m_written(p.written)
            m_orig(p.origin)
            m_dest(p.destination)
            m_path(p.path)
            m_cap(p.captured)
            m_prom(p.promotes)
            m_piece(p.piece)
            m_nags(p.nags or None)
            m_comm(p.comment)
            m_repl(replayed)
            m_line(p.line)
            if not replayed:
                continue
            try:
                after = p.position_after
            except AttributeError:  # a stand-in record without positions
                after = None
            if after is not None:  # straight from the position
                self._add_position(gid, ply, board_layout(after.rules),
                                   str(after.side)[:1].upper() == "B", square_bits(after))
                continue
            fen: str | None = getattr(p, "fen_after", None)  # a record from a worker
            info = start_position_info(variant, edition, fen) if fen else None
            if info is None:
                continue
            bits, layout = info
            self._add_position(gid, ply, layout, (fen or "")[:1].upper() == "B", bits)

    def extend(self, other: ReportBatch) -> None:
        """Append the games of ``other`` after this batch's own (its local game numbers
        shifted accordingly); its counters are added to this batch's.

        Example:
            >>> a, b = ReportBatch(), ReportBatch()
            >>> a.games["game_id"] += [0, 1]; b.games["game_id"] += [0]
            >>> b.moves["game_id"] += [0, 0]
            >>> a.extend(b)
            >>> a.games["game_id"], a.moves["game_id"]
            ([0, 1, 2], [2, 2])
        """
        base = self.games_count
        codes = [self._layout_code(lay) for lay in other.layouts]
        for mine, theirs in ((self.games, other.games), (self.moves, other.moves),
                             (self.positions, other.positions),
                             (self.squares, other.squares),
                             (self.position_bits, other.position_bits),
                             (self.findings, other.findings),
                             (self.rule_events, other.rule_events), (self.runs, other.runs),
                             (self.run_moves, other.run_moves)):
            for name, col in theirs.items():  # (a run's chunk is one item of its column)
                if name == "game_id" and base:  # (a file's own findings have none)
                    col = [None if g is None else g + base for g in col]
                elif name == "layout" and codes != list(range(len(codes))):
                    col = [codes[c] if c >= 0 else c for c in col]
                mine[name].extend(col)
        self.openings.extend(other.openings, base)
        if self.encoding is None:
            self.encoding = other.encoding
        for k, v in other.status_counts.items():
            self.status_counts[k] = self.status_counts.get(k, 0) + v
        for k, v in other.code_counts.items():
            self.code_counts[k] = self.code_counts.get(k, 0) + v
        self.replayed_count += other.replayed_count

    def shift_game_index(self, base: int) -> None:
        """Add ``base`` to the ``game_index`` of every game and finding (a batch built in a
        worker numbers its games from 0; the writer knows where they are in the file).

        Example:
            >>> b = ReportBatch()
            >>> b.games["game_index"] += [0, 1]
            >>> b.shift_game_index(10)
            >>> b.games["game_index"]
            [10, 11]
        """
        for cols in (self.games, self.findings):
            cols["game_index"] = [None if i is None else i + base for i in cols["game_index"]]

    def to_arrow(self) -> dict[str, pa.Table]:
        """The batch as one Arrow table per database table (local ``game_id``s), plus
        ``position_bits`` (positions as engine bitboards: see
        :func:`pdnkit.rows.load.position_bits_query`), ``run_squares`` (the compiled
        core's plain runs' positions as square bitboards), and ``run_moves`` (the plain
        runs' moves as ``move_rows`` stores them: :func:`pdnkit.rows.runs.run_tables`)."""
        from pdnkit._arrow import pyarrow_module

        pa = pyarrow_module()
        self.openings.settle(self.games)
        schemas = _schemas()
        bits = pa.table(self.position_bits, schema=schemas["position_bits"])
        run_moves, run_bits, squares = run_tables(self.runs, self.run_moves["chunk"],
                                                  self.games["moves_hash"], schemas)
        if run_bits.num_rows:
            bits = pa.concat_tables([bits, run_bits]) if bits.num_rows else run_bits
        if self.squares["game_id"]:
            starts = pa.table(self.squares, schema=schemas["run_squares"])
            squares = pa.concat_tables([starts, squares]) if squares.num_rows else starts
        return {
            "games": pa.table(self.games, schema=schemas["games"]),
            "moves": pa.table(self.moves, schema=schemas["moves"]),
            "run_moves": run_moves,
            "positions": pa.table(self.positions, schema=schemas["positions"]),
            "position_bits": bits,
            "run_squares": squares,
            "findings": pa.table(self.findings, schema=schemas["findings"]),
            "rule_events": pa.table(self.rule_events, schema=schemas["rule_events"]),
        }


_SCHEMAS: dict[str, pa.Schema] | None = None


def _schemas() -> dict[str, pa.Schema]:
    global _SCHEMAS
    if _SCHEMAS is None:
        import pyarrow as pa

        i32, i64, s, b = pa.int32(), pa.int64(), pa.string(), pa.bool_()
        li = pa.list_(pa.int32())
        _SCHEMAS = {
            "games": pa.schema([
                ("game_id", i64), ("game_index", i32), ("line", i32), ("variant", s),
                ("gametype", i32), ("edition", s), ("fen", s), ("event", s), ("site", s),
                ("date", pa.date32()), ("date_raw", s), ("year", i32),
                ("date_first", pa.date32()), ("date_last", pa.date32()),
                ("date_precision", s), ("date_text", s), ("round", s),
                ("white", s), ("black", s), ("result", s), ("result_raw", s),
                ("white_rating", i32), ("black_rating", i32),
                ("tags", pa.map_(s, s)), ("plies", i32), ("replayed_plies", i32),
                ("status", s), ("outcome", s), ("draw_basis", s), ("moves_hash", s),
                ("final_fen", s), ("raw_pdn", s), ("start_is_initial", b), ("opening", s),
                ("result_source", s), ("opening_code", s), ("opening_name", s),
                ("opening_ply", i32), ("opening_family", s), ("opening_mirrored", b)]),
            "moves": pa.schema([
                ("game_id", i64), ("ply", i32), ("move_number", i32), ("side", s),
                ("notation", s), ("canonical", s), ("origin", i32), ("destination", i32),
                ("path", li), ("captured", li), ("promotes", b), ("piece", s), ("nags", li), ("comment", s),
                ("replayed", b), ("line", i32)]),
            "run_moves": pa.schema([
                ("game_id", i64), ("ply", i32), ("number_offset", i32), ("black", b),
                ("notation", s), ("canonical", s), ("origin", i32), ("destination", i32),
                ("path", li), ("captured", li), ("promotes", b), ("king", b), ("nags", li),
                ("comment", s), ("line", i32)]),
            "run_squares": pa.schema([
                ("game_id", i64), ("ply", i32), ("layout", pa.int16()), ("black", b),
                ("wm", pa.uint64()), ("wk", pa.uint64()), ("bm", pa.uint64()),
                ("bk", pa.uint64())]),
            "positions": pa.schema([
                ("game_id", i64), ("ply", i32), ("layout", pa.int16()), ("black", b),
                ("wm", pa.decimal128(38, 0)), ("wk", pa.decimal128(38, 0)),
                ("bm", pa.decimal128(38, 0)), ("bk", pa.decimal128(38, 0))]),
            "position_bits": pa.schema([
                ("game_id", i64), ("ply", i32), ("layout", pa.int16()), ("black", pa.int8()),
                ("w", pa.uint64()), ("b", pa.uint64()), ("k", pa.uint64())]),
            "findings": pa.schema([
                ("game_id", i64), ("game_index", i32), ("code", s), ("severity", s),
                ("message", s), ("line", i32), ("col", i32), ("ply", i32), ("move", s),
                ("fen", s), ("in_variation", b), ("details", s)]),
            "rule_events": pa.schema([
                ("game_id", i64), ("rule", s), ("article", s), ("automatic", b),
                ("start_ply", i32), ("limit_plies", i32), ("deadline_ply", i32),
                ("reached_ply", i32), ("end_ply", i32)]),
        }
    return _SCHEMAS
