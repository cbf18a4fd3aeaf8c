"""The generic move generator on padded bitboards (internal; use :class:`Position`).

One :class:`Engine` per distinct set of move rules. It reads only fields of the
:class:`~pdnkit.rules.variants.Rules` record, never the variant's name.

State is four Python ints: ``own`` and ``opp`` (pieces of the side to move and of the other
side), ``kings`` (kings of both colours) and ``white`` (True when White is to move). White moves
towards bit 0 (right shifts), Black towards higher bits.

Internal moves are tuples ``(orig, dest, captured, ends_king)`` of bit masks (``ends_king``:
the moving piece is a king after the move). Detailed moves add ``(path, order)``: bit indices of
every square visited and of the captured pieces in capture order.

Example:
    >>> from pdnkit.rules.variants import get_rules
    >>> eng = engine_for(get_rules("international"))
    >>> g = get_rules("international").geometry
    >>> own, opp = g.mask_of(range(31, 51)), g.mask_of(range(1, 21))
    >>> eng.count(own, opp, 0, True, None), len(eng.moves(own, opp, 0, True, None))
    (9, 9)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pdnkit.errors import ArgumentError
from pdnkit.rules._movetables import build_tables
from pdnkit.rules.variants import Rules

# A king-move-limit state (Frisian art. 17): ((white_bit, white_count), (black_bit, black_count)),
# bit = internal bit index of the king that made the consecutive quiet moves (-1 = none).
Counters = tuple[tuple[int, int], tuple[int, int]]
NO_COUNTERS: Counters = ((-1, 0), (-1, 0))

_ENGINES: dict[tuple[Any, ...], Engine] = {}


def engine_for(rules: Rules) -> Engine:
    """The cached engine for a rules record (shared by records with the same move rules)."""
    key = (
        rules.width,
        rules.height,
        rules.men_capture_backward,
        rules.men_capture_kings,
        rules.orthogonal_captures,
        rules.flying_kings,
        rules.king_lands_behind,
        rules.removal,
        rules.promotion_during_capture,
        rules.capture_precedence,
        rules.king_move_limit,
        rules.a1_dark,
        rules.numbering,
        rules.all_squares,
        rules.orthogonal_moves,
        rules.men_move_sideways,
        rules.no_reversal,
        rules.wins_on_promotion,
    )
    eng = _ENGINES.get(key)
    if eng is None:
        eng = _ENGINES[key] = _engine_class(rules)(rules)
    return eng


def _engine_class(rules: Rules) -> type[Engine]:
    """The engine class for a rules record: :class:`Engine`, with the overrides its fields
    ask for (:class:`FirstKingWinsEngine`, :class:`LinesEngine`) mixed in; variants that need
    none run the plain engine, unchanged."""
    bases: list[type[Engine]] = []
    if rules.wins_on_promotion:
        bases.append(FirstKingWinsEngine)
    if rules.orthogonal_moves or rules.men_move_sideways or rules.no_reversal:
        bases.append(LinesEngine)
    if not bases:
        return Engine
    if len(bases) == 1:
        return bases[0]
    return type("_".join(b.__name__ for b in bases), tuple(bases), {})


class Engine:
    """Move generation for one rule set (see the module docstring for the state layout)."""

    def __init__(self, rules: Rules) -> None:
        t = build_tables(rules)
        self.geometry = rules.geometry
        self.board = t.board
        self.promo = t.promo  # by side: 0 White, 1 Black
        self.men_take_kings = rules.men_capture_kings
        self.flying = rules.flying_kings
        self.lands_behind = rules.king_lands_behind
        self.immediate = rules.removal == "immediate"
        self.promotion = rules.promotion_during_capture
        self.precedence = rules.capture_precedence
        self.king_limit = rules.king_move_limit
        self.first_king_wins = rules.wins_on_promotion  # see FirstKingWinsEngine
        # the capture search's per-square tables
        self.man_jumps = t.man_jumps
        self.king_jumps = t.king_jumps
        self.rays = t.rays
        self.qrays = t.qrays  # quiet king moves (along the lines only: no Frisian orthogonals)
        # whole-board shift descriptors for has_capture / count, and the quiet man steps
        self.man_cap_desc = t.man_cap_desc
        self.king_cap_desc = t.king_cap_desc
        self.man_steps = t.man_steps
        # the tables only LinesEngine reads, in one attribute (a plain engine's attribute
        # lookups stay on CPython's fast shared-key path, which a few more would leave)
        self.lines = t.lines
        self.diag_desc = t.diag_desc  # quiet king moves
        self._board = t.board
        # direct quiet-move test (no move list): per (origin bit, destination bit)
        self.man_step_pairs = t.man_step_pairs
        self.king_paths = t.king_paths
        self.quiet_cache: dict[tuple[int, int, int], Any] = {}  # quiet Move objects (Position)
        self.capture_cache: dict[tuple[Any, ...], Any] = {}  # capture Move objects (Position)
        # Position._play_capture without kings on the board: 0 = use captures(); 1 = no key
        # ranks captures of men alone; 2 = only the number of pieces taken does
        self.men_only_precedence = t.men_only_precedence

    def quiet_step(self, own: int, opp: int, kings: int, white: bool, ctr: Counters | None,
                   ob: int, db: int) -> int:
        """Is the quiet move from bit ``ob`` to bit ``db`` legal, captures aside? 0: no,
        1: a man's step, 2: a man's step that crowns, 3: a king's move. A few bit tests, no
        move list (the compulsory-capture rule is the caller's business)."""
        om = 1 << ob
        if not own & om:
            return 0
        if kings & om:
            path = self.king_paths.get((ob, db))
            if path is None or (own | opp) & path:
                return 0
            if self.king_limit and ctr is not None and own & ~kings:
                kb, cnt = ctr[0 if white else 1]
                if kb == ob and cnt >= self.king_limit:
                    return 0
            return 3
        if (ob, db) not in self.man_step_pairs[white] or (own | opp) >> db & 1:
            return 0
        return 2 if (self.promo[0 if white else 1] >> db) & 1 else 1

    # ------------------------------------------------------------------ fast queries
    def has_capture(self, own: int, opp: int, kings: int, white: bool) -> bool:
        """True when the side to move has a capture (a few whole-board shifts)."""
        empty = self.board & ~(own | opp)
        men = own & ~kings
        if men:
            target = opp if self.men_take_kings else opp & ~kings
            for s, left, m2 in self.man_cap_desc[white]:
                src = men if m2 is None else men & m2
                if left:
                    if (((src << s) & target) << s) & empty:
                        return True
                elif (((src >> s) & target) >> s) & empty:
                    return True
        k = own & kings
        if k:
            return self._king_can_capture(k, opp, empty)
        return False

    def _king_can_capture(self, k: int, opp: int, empty: int) -> bool:
        flying = self.flying
        for s, left, m in self.king_cap_desc:
            x = k
            if flying:
                acc = k
                while x:
                    if m is not None:
                        x &= m
                    x = ((x << s) if left else (x >> s)) & empty
                    acc |= x
                x = acc
            if m is not None:
                x &= m
            x = ((x << s) if left else (x >> s)) & opp
            if m is not None:
                x &= m
            if ((x << s) if left else (x >> s)) & empty:
                return True
        return False

    def count(self, own: int, opp: int, kings: int, white: bool, ctr: Counters | None) -> int:
        """Number of legal moves (duplicates dropped) without building the quiet moves."""
        if self.has_capture(own, opp, kings, white):
            return len(self.captures(own, opp, kings, white, False))
        empty = self.board & ~(own | opp)
        men = own & ~kings
        n = 0
        if men:
            a, b = self.man_steps[white]
            if white:
                n = ((men >> a) & empty).bit_count() + ((men >> b) & empty).bit_count()
            else:
                n = ((men << a) & empty).bit_count() + ((men << b) & empty).bit_count()
        k = own & kings
        if k:
            if self.king_limit and men and ctr is not None:
                kb, cnt = ctr[0 if white else 1]
                if cnt >= self.king_limit and kb >= 0:
                    k &= ~(1 << kb)
            if self.flying:
                for s, left, _m in self.diag_desc:
                    x = k
                    while x:
                        x = ((x << s) if left else (x >> s)) & empty
                        n += x.bit_count()
            else:
                for s, left, _m in self.diag_desc:
                    n += (((k << s) if left else (k >> s)) & empty).bit_count()
        return n

    # ------------------------------------------------------------------ move lists
    def moves(
        self, own: int, opp: int, kings: int, white: bool, ctr: Counters | None,
        detail: bool = False, all_routes: bool = False,
    ) -> list[tuple[Any, ...]]:
        """Legal moves: captures when any exist (after the precedence filter), else quiet moves."""
        if self.has_capture(own, opp, kings, white):
            return self.captures(own, opp, kings, white, detail, all_routes)
        return self.quiet(own, opp, kings, white, ctr, detail)

    def quiet(
        self, own: int, opp: int, kings: int, white: bool, ctr: Counters | None,
        detail: bool = False,
    ) -> list[tuple[Any, ...]]:
        """Non-capturing moves (whether or not a capture exists)."""
        empty = self.board & ~(own | opp)
        men = own & ~kings
        out: list[tuple[Any, ...]] = []
        append = out.append
        if men:
            promo = self.promo[0 if white else 1]
            for s in self.man_steps[white]:
                t = ((men >> s) if white else (men << s)) & empty
                while t:
                    d = t & -t
                    t ^= d
                    o = (d << s) if white else (d >> s)
                    if detail:
                        append((o, d, 0, bool(d & promo),
                                (o.bit_length() - 1, d.bit_length() - 1), ()))
                    else:
                        append((o, d, 0, bool(d & promo)))
        k = own & kings
        if k:
            if self.king_limit and men and ctr is not None:
                kb, cnt = ctr[0 if white else 1]
                if cnt >= self.king_limit and kb >= 0:
                    k &= ~(1 << kb)
            qrays = self.qrays
            while k:
                o = k & -k
                k ^= o
                i = o.bit_length() - 1
                for ray in qrays[i]:
                    for m, j in ray:
                        if not empty & m:
                            break
                        if detail:
                            append((o, m, 0, True, (i, j), ()))
                        else:
                            append((o, m, 0, True))
        return out

    def captures(
        self, own: int, opp: int, kings: int, white: bool, detail: bool = False,
        all_routes: bool = False,
    ) -> list[tuple[Any, ...]]:
        """Every complete capture after the precedence filter, duplicates dropped (unless
        ``all_routes``: then every route is kept, detailed)."""
        if not kings and self.promotion != "king":
            # no king on the board: only men capture, and none becomes a flying piece
            raw: list[tuple[Any, ...]] = self.men_captures(own, opp, white)
            return self._finish(raw, kings, detail, all_routes)
        raw = []
        empty0 = self.board & ~(own | opp)
        men_target = opp if self.men_take_kings else opp & ~kings
        record = _recorder(self, raw, kings)
        king_dfs = _king_search(self, opp, record)
        man_dfs = _man_search(self, white, men_target, record, king_dfs)
        men = own & ~kings
        x = own & kings
        while x:
            o = x & -x
            x ^= o
            i = o.bit_length() - 1
            king_dfs(o, i, 0, empty0 | o, [i], [])
        # only men with a first jump available start a search
        x = 0
        if men:
            for sft, left, m2 in self.man_cap_desc[white]:
                src = men if m2 is None else men & m2
                if left:
                    x |= src & ((men_target & (empty0 >> sft)) >> sft)
                else:
                    x |= src & ((men_target & (empty0 << sft)) << sft)
        while x:
            o = x & -x
            x ^= o
            i = o.bit_length() - 1
            man_dfs(o, i, 0, empty0 | o, [i], [])
        # the searches call themselves through their closure cells: emptying the cells
        # breaks that reference cycle, so they are freed at once rather than left to the
        # garbage collector (a few hundred objects a game otherwise)
        _unlink(king_dfs)
        _unlink(man_dfs)
        return self._finish(raw, kings, detail, all_routes)

    def _finish(self, raw: list[tuple[Any, ...]], kings: int, detail: bool,
                all_routes: bool) -> list[tuple[Any, ...]]:
        """The precedence filter and the duplicate drop of :meth:`captures`."""
        if len(raw) > 1 and self.precedence:
            raw = self._select(raw, kings)
        # drop duplicates: same origin, destination, captured set (and crowning)
        if all_routes:
            return raw
        if detail:
            seen: dict[tuple[int, int, int, bool], tuple[Any, ...]] = {}
            for r in raw:
                key = r[:4]
                if key not in seen:
                    seen[key] = r
            return list(seen.values())
        if len(raw) == 1:
            return [raw[0][:4]]
        return list(dict.fromkeys(r[:4] for r in raw))

    def men_captures(self, own: int, opp: int, white: bool) -> list[tuple[Any, ...]]:
        """Every capture route (detailed raw tuples, in the general search's order) when no
        king is on the board and a man that reaches the last row mid-capture either stops
        or goes on as a man. No precedence filter (the general search's pruning on the first
        key keeps exactly what :meth:`_select` keeps)."""
        empty0 = self.board & ~(own | opp)
        raw: list[tuple[Any, ...]] = []
        x = 0
        for sft, left, m2 in self.man_cap_desc[white]:
            src = own if m2 is None else own & m2
            if left:
                x |= src & ((opp & (empty0 >> sft)) >> sft)
            else:
                x |= src & ((opp & (empty0 << sft)) << sft)
        if not x:
            return raw
        jumps = self.man_jumps[white]
        promo = self.promo[0 if white else 1]
        stop = self.promotion == "stop"
        immediate = self.immediate
        append = raw.append

        def dfs(orig: int, i: int, captured: int, empty: int, path: tuple[int, ...],
                order: tuple[int, ...]) -> None:
            for m, lm, li in jumps[i]:
                if opp & m and not captured & m and empty & lm:
                    ncap = captured | m
                    npath = (*path, li)
                    norder = (*order, m.bit_length() - 1)
                    if lm & promo and stop:
                        append((orig, lm, ncap, True, npath, norder))
                        continue
                    n = len(raw)
                    dfs(orig, li, ncap, empty | m if immediate else empty, npath, norder)
                    if len(raw) == n:  # no further jump: the capture ends here
                        append((orig, lm, ncap, bool(lm & promo), npath, norder))

        while x:
            o = x & -x
            x ^= o
            i = o.bit_length() - 1
            dfs(o, i, 0, empty0 | o, (i,), ())
        dfs = None  # type: ignore[assignment]  # breaks the closure's reference cycle (see captures)
        return raw

    def _select(self, raw: list[tuple[Any, ...]], kings: int) -> list[tuple[Any, ...]]:
        for key in self.precedence:
            if len(raw) <= 1:
                break
            vals: list[Any]
            if key == "max_count":
                vals = [r[2].bit_count() for r in raw]
            elif key == "max_value":
                vals = [
                    (r[2] & ~kings).bit_count() * 100 + (r[2] & kings).bit_count() * 199
                    for r in raw
                ]
            elif key == "king_capturer":
                vals = [1 if r[0] & kings else 0 for r in raw]
            elif key == "max_kings":
                vals = [(r[2] & kings).bit_count() for r in raw]
            elif key == "first_king_earliest":
                # RULES.md 2.10 (Italian) choice rule 4: the positions (1st, 2nd, ... piece
                # taken) of ALL captured kings, compared in order; earlier wins. Negated so
                # that the greatest tuple is the best (kings at 1, 2, 4 beat 1, 3, 4).
                vals = [tuple(-idx for idx, b in enumerate(r[5]) if (kings >> b) & 1)
                        for r in raw]
            else:
                raise ArgumentError(f"unknown capture precedence key {key!r}")
            best = max(vals)
            raw = [r for r, v in zip(raw, vals, strict=True) if v == best]
        return raw


#: a search step: (origin mask, square, captured so far, empty squares, path, capture order)
#: -> whether the capture went on from there
Search = Callable[[int, int, int, int, list[int], list[int]], bool]
#: records a complete capture: (origin, destination, captured, ends as king, path, order)
Record = Callable[[int, int, int, bool, list[int], list[int]], None]


def _recorder(eng: Engine, raw: list[tuple[Any, ...]], kings: int) -> Record:
    """What :meth:`Engine.captures` keeps of a complete capture: every one, except that
    sequences that lose on the first precedence key (``max_count``/``max_value``) are never
    kept."""
    first = eng.precedence[0] if eng.precedence else ""
    prune = first in ("max_count", "max_value")
    by_value = first == "max_value"
    best = [-1]

    def record(orig: int, dest: int, ncap: int, ek: bool, path: list[int],
               order: list[int]) -> None:
        if prune:
            if by_value:
                s = (ncap & ~kings).bit_count() * 100 + (ncap & kings).bit_count() * 199
            else:
                s = ncap.bit_count()
            if s < best[0]:
                return
            if s > best[0]:
                best[0] = s
                raw.clear()
        raw.append((orig, dest, ncap, ek, tuple(path), tuple(order)))

    return record


def _king_search(eng: Engine, opp: int, record: Record) -> Search:
    """The depth-first search of a king's captures (flying or short, RULES.md 2.0)."""
    king_jumps = eng.king_jumps
    rays = eng.rays
    flying = eng.flying
    behind = eng.lands_behind
    immediate = eng.immediate

    def king_dfs(orig: int, i: int, captured: int, empty: int, path: list[int],
                 order: list[int]) -> bool:
        extended = False
        if flying:
            for ray in rays[i]:
                n = len(ray)
                k = 0
                while k < n and empty & ray[k][0]:
                    k += 1
                if k >= n - 1:
                    continue
                m, mi = ray[k]
                if not opp & m or captured & m:
                    continue
                k += 1
                if not empty & ray[k][0]:
                    continue
                ncap = captured | m
                nempty = empty | m if immediate else empty
                order.append(mi)
                ends = []
                cont = False
                while k < n and nempty & ray[k][0]:
                    lm, li = ray[k]
                    path.append(li)
                    if king_dfs(orig, li, ncap, nempty, path, order):
                        cont = True
                    else:
                        ends.append(li)
                    path.pop()
                    if behind:
                        break
                    k += 1
                if not cont:
                    for li in ends:
                        path.append(li)
                        record(orig, 1 << li, ncap, True, path, order)
                        path.pop()
                order.pop()
                extended = True
        else:
            for m, lm, li in king_jumps[i]:
                if opp & m and not captured & m and empty & lm:
                    ncap = captured | m
                    nempty = empty | m if immediate else empty
                    order.append(m.bit_length() - 1)
                    path.append(li)
                    if not king_dfs(orig, li, ncap, nempty, path, order):
                        record(orig, lm, ncap, True, path, order)
                    path.pop()
                    order.pop()
                    extended = True
        return extended

    return king_dfs


def _man_search(eng: Engine, white: bool, men_target: int, record: Record,
                king_dfs: Search) -> Search:
    """The depth-first search of a man's captures; a man reaching the promotion row stops,
    goes on as a king or as a man, as ``Rules.promotion_during_capture`` says."""
    promo = eng.promo[0 if white else 1]
    men_jumps = eng.man_jumps[white]
    immediate = eng.immediate
    promotion = eng.promotion

    def man_dfs(orig: int, i: int, captured: int, empty: int, path: list[int],
                order: list[int]) -> bool:
        extended = False
        for m, lm, li in men_jumps[i]:
            if men_target & m and not captured & m and empty & lm:
                extended = True
                ncap = captured | m
                nempty = empty | m if immediate else empty
                order.append(m.bit_length() - 1)
                path.append(li)
                if lm & promo:
                    if promotion == "stop":
                        cont = False
                    elif promotion == "king":
                        cont = king_dfs(orig, li, ncap, nempty, path, order)
                    else:
                        cont = man_dfs(orig, li, ncap, nempty, path, order)
                    if not cont:
                        record(orig, lm, ncap, True, path, order)
                elif not man_dfs(orig, li, ncap, nempty, path, order):
                    record(orig, lm, ncap, False, path, order)
                path.pop()
                order.pop()
        return extended

    return man_dfs


def _unlink(search: Search) -> None:
    """Empty the closure cell through which ``search`` calls itself (the cycle would
    otherwise wait for the garbage collector)."""
    for cell in getattr(search, "__closure__", None) or ():
        if cell.cell_contents is search:
            cell.cell_contents = None


class LinesEngine(Engine):
    """The engine of variants whose men step sideways or along files, or whose captures may
    not turn straight back (``Rules.men_move_sideways``, ``orthogonal_moves``,
    ``no_reversal``; Turkish, RULES.md 2.13): the men's quiet moves come from
    ``man_step_desc`` (any directions) instead of the two forward diagonals, and captures from
    the direction-aware search when ``no_reversal`` is set. The other variants run
    :class:`Engine`'s code untouched."""

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        self.directional = rules.no_reversal
        assert self.lines is not None
        (self.dir_rays, self.opposite, self.man_dir_ids, self.king_dir_ids,
         self.man_step_desc) = self.lines

    def count(self, own: int, opp: int, kings: int, white: bool, ctr: Counters | None) -> int:
        if self.has_capture(own, opp, kings, white):
            return len(self.captures(own, opp, kings, white, False))
        return len(self.quiet(own, opp, kings, white, ctr))

    def quiet(
        self, own: int, opp: int, kings: int, white: bool, ctr: Counters | None,
        detail: bool = False,
    ) -> list[tuple[Any, ...]]:
        men = own & ~kings
        if not men:
            return super().quiet(own, opp, kings, white, ctr, detail)
        empty = self.board & ~(own | opp)
        promo = self.promo[0 if white else 1]
        out: list[tuple[Any, ...]] = []
        append = out.append
        for s, left, m2 in self.man_step_desc[white]:
            src = men if m2 is None else men & m2
            t = ((src << s) if left else (src >> s)) & empty
            while t:
                d = t & -t
                t ^= d
                o = (d >> s) if left else (d << s)
                if detail:
                    append((o, d, 0, bool(d & promo),
                            (o.bit_length() - 1, d.bit_length() - 1), ()))
                else:
                    append((o, d, 0, bool(d & promo)))
        if own & kings:  # the kings' moves from the plain engine (men as blockers)
            out += [mv for mv in super().quiet(own, opp, kings, white, ctr, detail)
                    if mv[0] & kings]
        return out

    def captures(
        self, own: int, opp: int, kings: int, white: bool, detail: bool = False,
        all_routes: bool = False,
    ) -> list[tuple[Any, ...]]:
        if not self.directional:
            return super().captures(own, opp, kings, white, detail, all_routes)
        raw = self._directional_captures(own, opp, kings, white)
        return self._finish(raw, kings, detail, all_routes)

    def _directional_captures(self, own: int, opp: int, kings: int,
                              white: bool) -> list[tuple[Any, ...]]:
        """Every capture route (detailed raw tuples, no precedence filter) by a search that
        knows the direction of each jump, so that a jump may not go straight back the way
        the previous one came (``Rules.no_reversal``; Turkish, RULES.md 2.13). Otherwise the
        same rules as :meth:`captures`: immediate or end-of-move removal, a flying king must
        land where the capture goes on if it can, promotion on the far row per
        ``promotion_during_capture``."""
        raw: list[tuple[Any, ...]] = []
        empty0 = self.board & ~(own | opp)
        promo = self.promo[0 if white else 1]
        dir_rays = self.dir_rays
        opposite = self.opposite
        king_dirs = self.king_dir_ids
        man_dirs = self.man_dir_ids[white]
        flying = self.flying
        behind = self.lands_behind
        immediate = self.immediate
        promotion = self.promotion
        men_target = opp if self.men_take_kings else opp & ~kings

        def dfs(orig: int, i: int, king: bool, captured: int, empty: int, last: int,
                path: list[int], order: list[int]) -> bool:
            extended = False
            banned = opposite[last]
            fly = king and flying
            target = opp if king else men_target
            for di in king_dirs if king else man_dirs:
                if di == banned:
                    continue
                ray = dir_rays[i][di]
                n = len(ray)
                k = 0
                if fly:
                    while k < n and empty & ray[k][0]:
                        k += 1
                if k >= n - 1:
                    continue
                m, mi = ray[k]
                if not target & m or captured & m:
                    continue
                k += 1
                if not empty & ray[k][0]:
                    continue
                extended = True
                ncap = captured | m
                nempty = empty | m if immediate else empty
                order.append(mi)
                ends: list[tuple[int, bool]] = []
                cont = False
                while k < n and nempty & ray[k][0]:
                    lm, li = ray[k]
                    path.append(li)
                    crowned = king or bool(lm & promo)
                    if not king and crowned and promotion == "stop":
                        ends.append((li, True))
                    elif dfs(orig, li, king or (crowned and promotion == "king"), ncap,
                             nempty, di, path, order):
                        cont = True
                    else:
                        ends.append((li, crowned))
                    path.pop()
                    if not fly or behind:
                        break
                    k += 1
                if not cont:
                    for li, crowned in ends:
                        path.append(li)
                        raw.append((orig, 1 << li, ncap, crowned, tuple(path), tuple(order)))
                        path.pop()
                order.pop()
            return extended

        x = own
        while x:
            o = x & -x
            x ^= o
            i = o.bit_length() - 1
            dfs(o, i, bool(kings & o), 0, empty0 | o, -1, [i], [])
        dfs = None  # type: ignore[assignment]  # breaks the closure's reference cycle
        return raw


class FirstKingWinsEngine(Engine):
    """The engine of a variant won by the first king (``Rules.wins_on_promotion``,
    Breakthrough, RULES.md 2.5): once a king stands on the board the game is over, so no
    side has a move; otherwise it is :class:`Engine`."""

    def has_capture(self, own: int, opp: int, kings: int, white: bool) -> bool:
        return False if kings else super().has_capture(own, opp, kings, white)

    def count(self, own: int, opp: int, kings: int, white: bool, ctr: Counters | None) -> int:
        return 0 if kings else super().count(own, opp, kings, white, ctr)

    def moves(
        self, own: int, opp: int, kings: int, white: bool, ctr: Counters | None,
        detail: bool = False, all_routes: bool = False,
    ) -> list[tuple[Any, ...]]:
        if kings:
            return []
        return super().moves(own, opp, kings, white, ctr, detail, all_routes)

    def quiet(
        self, own: int, opp: int, kings: int, white: bool, ctr: Counters | None,
        detail: bool = False,
    ) -> list[tuple[Any, ...]]:
        return [] if kings else super().quiet(own, opp, kings, white, ctr, detail)

    def captures(
        self, own: int, opp: int, kings: int, white: bool, detail: bool = False,
        all_routes: bool = False,
    ) -> list[tuple[Any, ...]]:
        return [] if kings else super().captures(own, opp, kings, white, detail, all_routes)

    def quiet_step(self, own: int, opp: int, kings: int, white: bool, ctr: Counters | None,
                   ob: int, db: int) -> int:
        return 0 if kings else super().quiet_step(own, opp, kings, white, ctr, ob, db)
