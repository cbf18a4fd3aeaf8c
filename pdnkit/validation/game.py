"""The game stage of the validator: replay one record under known rules.

:func:`replay_game` is a short sequence of named steps: an empty report
(:func:`~pdnkit.validation.report.base_report`), the start position
(:mod:`pdnkit.validation.start`), the main line (:class:`MainLine`: every ply matched to one
legal move by :mod:`pdnkit.validation.match`, each variation replayed from its branch point,
the draw tracker fed), then the verdicts (:mod:`pdnkit.validation.judge`) and the status. A
game that cannot be replayed at all (unparsed, unknown rules, a bad FEN) goes through one
:func:`_give_up` step instead; a fault of pdnkit's own code becomes an ``internal-error``
finding of that game alone.

Example:
    >>> from pdnkit.pdn import parse_game
    >>> from pdnkit.rules import get_rules
    >>> rep = replay_game(parse_game("1. 32-28 19-23 *"), get_rules("international"))
    >>> rep.replayed_plies, rep.status, rep.plies[1].notation
    (2, 'ok', '19-23')
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from pdnkit.core import move_number, number_fits
from pdnkit.pdn.record import MoveNode
from pdnkit.rules.draw import DrawTracker
from pdnkit.rules.fen import write_fen
from pdnkit.rules.notation import resolve_short_move
from pdnkit.validation import coreline
from pdnkit.validation.clean import FinalState, clean_line
from pdnkit.validation.egdbcheck import add_egdb_findings
from pdnkit.validation.judge import (
    judge_draws,
    judge_result,
    result_without_position,
)
from pdnkit.validation.match import (
    CAPTURE_SEPS,
    MatchResult,
    describe_failure,
    flip_side,
    fmt_list,
    fmt_move,
    irregular_move,
    match_move,
    merge_split_capture,
    parse_squares,
    separator_mismatch,
    settle_ambiguity,
    squares_cache,
)
from pdnkit.validation.plainline import PlainLine
from pdnkit.validation.report import (
    COLOR_LETTER,
    NO_PLY,
    Findings,
    GameReport,
    Numbering,
    PlyRecord,
    base_report,
    finish_status,
    internal_error,
    unreplayed_plies,
)
from pdnkit.validation.runoptions import RunOptions
from pdnkit.validation.start import Start, game_start, start_fen, start_position
from pdnkit.validation.turn import turned_line

if TYPE_CHECKING:
    from pdnkit.findings import Finding
    from pdnkit.pdn.record import BodyElement, GameRecord
    from pdnkit.rules.draw import RuleEvent
    from pdnkit.rules.position import Move, Position
    from pdnkit.rules.variants import Rules

__all__ = ["IRREGULAR", "MainLine", "replay_game"]

#: the values of the ``irregular`` option: replay an irregular move as played where the
#: rules let it stand, or stop at it
IRREGULAR = ("stand", "stop")
#: the options of a plain replay
DEFAULTS = RunOptions()


def replay_game(record: GameRecord, rules: Rules | None, pre: Sequence[Finding] = (),
                options: RunOptions = DEFAULTS) -> GameReport:
    """Replay ``record`` under ``rules`` (``None``: unknown, the game is not replayed) and
    judge it; ``pre``: the findings of the rules' resolution. Of ``options``: ``edition``
    (named on the report), ``result_convention``, ``light`` (no per-ply records),
    ``compact`` (the leading plain plies as one :class:`~pdnkit.validation.report.PlainRun`,
    ``report.plain``, instead of records: for the database loader) and ``irregular``
    (``"stand"`` replays an irregular move as played where the variant's rules let it stand,
    :meth:`MainLine._irregular`; ``"stop"`` stops the replay at it).
    A fault of pdnkit's own code becomes an ``internal-error`` finding of this game (its
    moves kept unreplayed) instead of stopping the whole collection."""
    edition, light = options.edition, options.light
    try:
        return _replay(record, rules, pre, options)
    except Exception as exc:
        report = base_report(record)
        where = {"file": record.file, "game_index": record.index, "line": record.line}
        report.findings = [*record.findings,
                           *(f.located(**where) for f in pre),
                           internal_error(exc, "replaying this game", **where)]
        _name_rules(report, rules, edition)
        if not light:
            with contextlib.suppress(Exception):
                unreplayed_plies(report, list(record.moves), 0)
        finish_status(report)
        return report


def header_findings(record: GameRecord) -> list[Finding]:
    """The header checks of :func:`pdnkit.pdn.tags.check_tags` (duplicate tags, dates,
    PlyCount) of ``record``'s tags."""
    from pdnkit.pdn.tags import check_tags

    return check_tags(record)


def _name_rules(report: GameReport, rules: Rules | None, edition: str | None) -> None:
    if rules is None:
        report.variant = report.gametype = None
        report.edition = edition
        return
    report.variant, report.gametype = rules.name, rules.gametype
    report.edition = edition or rules.edition


def _replay(record: GameRecord, rules: Rules | None, pre: Sequence[Finding],
            options: RunOptions) -> GameReport:
    convention = options.result_convention
    report = base_report(record)
    found = Findings(record)
    report.findings = [*record.findings, *header_findings(record)]
    for f in pre:
        report.findings.append(f.located(file=found.file, game_index=found.index,
                                         line=record.line))
    if not record.parsed or rules is None:
        return _give_up(report, record, rules, convention, found, list(record.moves))
    nodes = coreline.main_line(record, rules)
    _name_rules(report, rules, options.edition)
    final: Position | FinalState | None = clean_line(report, record, rules, nodes, options)
    start_pos: Position | None = None  # (a clean game: the variant's start)
    if final is None:  # not a clean game: the general replay, every diagnosis
        start = game_start(record, nodes, rules, found)
        if start is None:
            return _give_up(report, record, rules, convention, found, nodes)
        turned = turned_line(record, nodes, start.pos)
        if turned is not None:  # the first mover at the bottom of the notation's board
            _turned(found, nodes[0], turned[0], rules)
            nodes = turned
        start_pos = start.pos
        line = MainLine(report, found, rules, nodes, start, options)
        line.run()
        line.finish()
        final, complete = line.pos, line.stopped_at is None
    else:
        complete = True
    judge_result(report, record, rules, convention, found, final, complete,
                 report.rule_events)
    judge_draws(report, found, report.rule_events)
    add_egdb_findings(report, rules, start_pos, nodes, complete, found, final)
    report.findings.extend(found.items)
    finish_status(report)
    return report


def _turned(found: Findings, written: MoveNode, read: MoveNode, rules: Rules) -> None:
    """The ``board-turned`` finding of a game read on the board turned round."""
    mover = "Black" if int(rules.first_mover) else "White"
    found.add("board-turned",
              f"the moves are written from the first mover's side ({mover} at the bottom: "
              f"{written.text} is {read.text} on the usual board); read turned round",
              node=written, ply=1, written=written.text, read=read.text)


def _give_up(report: GameReport, record: GameRecord, rules: Rules | None, convention: str,
             found: Findings, nodes: Sequence[MoveNode]) -> GameReport:
    """The report of a game that is not replayed: its plies as written, its result as
    written."""
    unreplayed_plies(report, nodes, 0)
    result_without_position(report, record, rules, convention, found)
    report.findings.extend(found.items)
    finish_status(report)
    return report


class FastPlies(Protocol):
    """A strategy of the main line: the plies it replays without a diagnosis, from a given
    one on, pushed into the draw tracker and recorded in the report
    (:class:`~pdnkit.validation.coreline.CoreLine` on the compiled core,
    :class:`~pdnkit.validation.plainline.PlainLine` in Python)."""

    def take(self, k: int, pos: Position, tracker: DrawTracker, numbering: Numbering
             ) -> tuple[int, Position]:
        """Replay from main-line ply ``k`` (0-based) at ``pos``: how many plies, and the
        position reached."""
        ...


class MainLine:
    """The replay of one main line: the position reached, the draw tracker, the ply records
    and where the replay stopped (``stopped_at``: the 0-based ply that could not be
    replayed, ``None`` when every ply was)."""

    __slots__ = ("report", "found", "rules", "nodes", "light", "pos", "tracker", "old_events",
                 "first_mover", "start_side", "offset", "base_num", "fullmove", "halfmove",
                 "side_known", "fen_tag", "numbers_warned", "skip_to", "stopped_at",
                 "sq_cache", "irregular", "pending", "on_core", "fast")

    def __init__(self, report: GameReport, found: Findings, rules: Rules,
                 nodes: Sequence[MoveNode], start: Start, options: RunOptions = DEFAULTS
                 ) -> None:
        light = options.light
        self.report = report
        self.irregular = options.irregular
        #: (ply, code) of an irregular move replayed as played and not yet accepted
        self.pending: tuple[int, str] | None = None
        self.found = found
        self.rules = rules
        self.nodes = nodes
        self.light = light
        pos = self.pos = start.pos
        info = start.info
        key = report.start_key = int(pos.key())
        report.start_fen = start_fen(rules, pos, start.setup, key)
        report.start_counts = dict(pos.counts())
        self.fullmove = info.fullmove if info is not None else None
        self.halfmove = info.halfmove if info is not None else None
        self.side_known = info is not None and info.side_known
        self.fen_tag = start.fen_tag
        #: the compiled core replays the plies it resolves (:mod:`.coreline`)
        self.on_core = coreline.usable(rules)
        self.tracker = self.new_tracker(pos, self.halfmove)
        self.old_events: list[RuleEvent] = []
        self.first_mover = int(rules.first_mover)
        self.start_side = int(pos.side)
        self.base_num = self.fullmove or 1
        self.offset = 0 if self.start_side == self.first_mover else 1
        self.numbers_warned = False
        self.skip_to = 0
        self.stopped_at: int | None = None
        self.sq_cache = squares_cache(rules)
        #: the plies replayed without a diagnosis: on the compiled core where it runs, else
        #: in a plain Python loop; every other ply is :meth:`_ply`'s
        self.fast: FastPlies
        if self.on_core:
            self.fast = coreline.CoreLine(rules, nodes, report.record, report,
                                          fen_tag=self.fen_tag, light=light,
                                          compact=options.compact)
        else:
            self.fast = PlainLine(rules, nodes, report, fen_tag=self.fen_tag, light=light,
                                  compact=options.compact)

    def new_tracker(self, pos: Position, halfmove: int | None) -> DrawTracker:
        """A draw tracker from ``pos`` (keyed as the core keys its plies when it runs)."""
        return DrawTracker(self.rules, pos, halfmove, int_keys=self.on_core)

    def run(self) -> None:
        """Replay the plies until the end or the first ply that cannot be replayed: the
        plies the fast strategy resolves (:attr:`fast`), and each other one in
        :meth:`_ply`, with every diagnosis, after which the fast strategy goes on (not while
        an irregular move waits for the opponent's next move to be accepted). A compact
        replay keeps the leading fast plies as one run (``report.plain``)."""
        nodes, fast = self.nodes, self.fast
        n = len(nodes)
        k = 0
        while k < n:
            if self.pending is None:
                numbering = Numbering(self.base_num, self.offset, not self.numbers_warned)
                taken, self.pos = fast.take(k, self.pos, self.tracker, numbering)
                k += taken
                if k >= n:
                    return
            if not self._ply(k):
                self.stopped_at = k
                return
            k += 1
            while k < self.skip_to and k < n:  # the later jumps of a capture written as plies
                self._ply(k)
                k += 1

    def finish(self) -> None:
        """Fill in what the replay reached: plies replayed, the plies after a stop, the final
        position, the draw-rule events."""
        report = self.report
        if self.stopped_at is not None:
            report.replayed_plies = self.stopped_at
            unreplayed_plies(report, self.nodes, self.stopped_at + 1, self.start_side,
                             self.first_mover, self.fullmove)
        else:
            report.replayed_plies = len(self.nodes)
        report.final_fen = write_fen(self.pos)
        report.final_position = self.pos
        report.rule_events = self.old_events + self.tracker.finish(report.replayed_plies)

    def _ply(self, k: int) -> bool:
        """Replay ply ``k`` (0-based); False when the replay stops there."""
        node = self.nodes[k]
        ply = k + 1
        pos = self.pos
        if k < self.skip_to:
            self._continuation(node, ply)
            return True
        exp_num = move_number(k, self.base_num, self.offset)
        prec = self._ply_record(node, ply, exp_num, int(pos.side))
        if node.setup_before and (k > 0 or self.fen_tag is not None):
            if not self._setup(node, k, prec):
                return False
            pos = self.pos
        toks = node.squares
        if node.placeholder or not toks:
            return self._placeholder(node, k, int(pos.side))
        if node.number is not None and not self.numbers_warned and not number_fits(
                node.number, node.black_dots, k, self.base_num, self.offset):
            self._number_mismatch(node, ply, exp_num, (k + self.offset) % 2 == 1)
        sq = self.sq_cache.get(toks)
        if sq is None:
            sq = parse_squares(self.rules, toks)
        if isinstance(sq, str):
            short = resolve_short_move(pos, node.text)  # Russian short forms: cd4, c:e5
            if not isinstance(short, list):
                self.found.add("ambiguous-move" if short and short.startswith("ambiguous")
                               else "illegal-move", short or sq, node=node, ply=ply, pos=pos)
                return False
            sq = short
        cap_seen = False
        if len(sq) == 2 and not node.variations:
            # fast paths, inlined for speed: a quiet move needs no move list, nor a capture
            # that only one legal capture joins its two squares
            if not (cap_seen := pos.has_capture()):
                move = pos.quiet_move(sq[0], sq[1])
                if move is not None:
                    if node.separators and node.separators[0] in CAPTURE_SEPS:
                        self.found.add(
                            "notation-mismatch",
                            f"a quiet move written with a capture separator: {node.text}",
                            node=node, ply=ply, pos=pos)
                    self._play(ply, move, prec, None)
                    return True
            else:
                move = pos.capture_move(sq[0], sq[1])
                if move is not None:
                    seps = node.separators
                    if seps and len(seps) == 1 and seps[0] == "-" \
                            and self.rules.capture_separator != "-":
                        self.found.add("notation-mismatch",
                                       f"a capture written with '-': {node.text}", node=node,
                                       ply=ply, pos=pos)
                    # the only legal move joining these squares: its notation is the short one
                    self._play(ply, move, prec, (move,))
                    return True
        res = match_move(pos, sq, capture_known=cap_seen)
        # variations replace this move: replay them from the position before it
        for var in node.variations:
            _replay_variation(self.found, var, pos, k, self.rules)
        if res.kind == "ambiguous":
            move = self._settle(node, k, res)
        elif res.ok and res.move is not None:
            move = res.move
        else:
            got = self._unmatched(node, k, sq, res, prec)
            if got is None:
                return False
            move, res = got
            if res.kind == "irregular":
                self._play(ply, move, prec, None, irregular=res.note)
                return True
        mismatch = separator_mismatch(node, move, self.rules)
        if mismatch:
            self.found.add("notation-mismatch", f"{mismatch}: {node.text}", node=node,
                           ply=ply, pos=self.pos)
        self._play(ply, move, prec, res.candidates if res.ok else None)
        return True

    def _play(self, ply: int, move: Move, prec: PlyRecord, legal: Sequence[Move] | None,
              irregular: str | None = None) -> None:
        """Play ``move`` as ply ``ply``; ``irregular``: the code of the rule it broke (an
        irregular move replayed as played)."""
        before = self.pos
        pos = self.pos = before.play(move)
        prec.set_replayed(move, before, pos, legal)
        # an irregular move is of unknown class for the draw rules: every count restarts
        self.tracker.push(ply, None if irregular else move, pos)
        if self.pending is not None and ply == self.pending[0] + 1:
            self._accepted(ply)
        if irregular:
            self.pending = (ply, irregular)

    def _accepted(self, ply: int) -> None:
        """The opponent's move after an irregular move: it accepts it (FMJD 5.7 and
        alike), an ``irregular-accepted`` finding at this ply names the article."""
        assert self.pending is not None
        at, code = self.pending
        self.pending = None
        article = self.rules.irregularity_article
        self.found.add("irregular-accepted",
                       f"this move plays on after the irregular move of ply {at} ({code}), "
                       f"which so stands ({article})", node=self.nodes[ply - 1], ply=ply,
                       pos=self.pos, irregular_ply=at, irregular_code=code, article=article)

    def _ply_record(self, node: MoveNode, ply: int, number: int, side_idx: int) -> PlyRecord:
        if self.light:
            return NO_PLY
        comments = node.comments_after
        prec = PlyRecord(ply, number, COLOR_LETTER[side_idx], node.text, nags=node.nags,
                         comment=" ".join(comments) if comments else None, line=node.line)
        self.report.plies.append(prec)
        return prec

    def _continuation(self, node: MoveNode, ply: int) -> None:
        """A later jump of a capture written as several plies: part of the previous move."""
        if self.light:
            return
        plies = self.report.plies
        cont = PlyRecord(ply, None, plies[-1].side, node.text, nags=node.nags,
                         comment=" ".join(node.comments_after) if node.comments_after
                         else None, line=node.line)
        cont.set_unmoved(self.pos)
        plies.append(cont)

    def _setup(self, node: MoveNode, k: int, prec: PlyRecord) -> bool:
        """A setup (FEN) written before ply ``k``: the game goes on from it, with a new draw
        tracker. False after a ``bad-fen`` finding."""
        new_pos, new_info = start_position(self.found, self.rules, node.setup_before)
        if new_pos is None:
            self.found.items[-1].ply = k + 1
            return False
        self.old_events.extend(self.tracker.finish(k))
        self.pos = new_pos
        self.tracker = self.new_tracker(new_pos, new_info.halfmove if new_info else None)
        prec.side = COLOR_LETTER[int(new_pos.side)]
        return True

    def _placeholder(self, node: MoveNode, k: int, side_idx: int) -> bool:
        """A ply with no move in it: ``1. ... 7-12`` at the start is formatting (True);
        anything else stops the replay."""
        if k == 0 and side_idx != self.first_mover and node.text.strip() in ("...", ".."):
            return True
        self.found.add("unknown-move", f"{node.text!r} stands where a move should be; "
                       "replay stops here", node=node, ply=k + 1, pos=self.pos)
        return False

    def _number_mismatch(self, node: MoveNode, ply: int, expected: int, second: bool) -> None:
        """The first move number that does not fit its ply (one finding per game)."""
        self.numbers_warned = True
        written = f"{node.number}{'...' if node.black_dots else '.'}"
        self.found.add("move-number-mismatch",
                       f"move number {written} stands at ply {ply}, where "
                       f"{expected}{'...' if second else '.'} was expected", node=node,
                       ply=ply, expected=expected, written=node.number)

    def _settle(self, node: MoveNode, k: int, res: MatchResult) -> Move:
        """The reading of an ambiguous move to replay, with its ``ambiguous-move`` finding."""
        rules = self.rules
        move, only = settle_ambiguity(self.pos, res.candidates, self.nodes[k + 1:], rules)
        cands = fmt_list(res.candidates, rules)
        if only:
            self.found.add("ambiguous-move",
                           f"matches {len(res.candidates)} legal moves ({', '.join(cands)}); "
                           f"only {fmt_move(move, rules)} lets the game continue",
                           node=node, ply=k + 1, pos=self.pos, severity="warning",
                           candidates=cands, chosen=fmt_move(move, rules))
        else:
            self.found.add("ambiguous-move",
                           f"matches {len(res.candidates)} legal moves with different "
                           f"results ({', '.join(cands)}); replayed as "
                           f"{fmt_move(move, rules)}",
                           node=node, ply=k + 1, pos=self.pos, candidates=cands,
                           chosen=fmt_move(move, rules))
        return move

    def _unmatched(self, node: MoveNode, k: int, sq: Sequence[int], res: MatchResult,
                   prec: PlyRecord) -> tuple[Move, MatchResult] | None:
        """The one place for a written move that is not one legal move as written: the game
        over before it, a first move of the other side, a capture written as several plies;
        else the finding that says why, and ``None`` (the replay stops)."""
        pos, rules, ply = self.pos, self.rules, k + 1
        if res.kind == "no-moves":
            self.found.add("move-after-end",
                           f"{'White' if int(pos.side) == 0 else 'Black'} has no legal move: "
                           "the game was over before this move", node=node, ply=ply, pos=pos)
            return None
        if k == 0 and not self.side_known:
            flipped = self._other_side_starts(node, sq, prec)
            if flipped is not None:
                return flipped
        merged = merge_split_capture(pos, sq, self.nodes, k, rules)
        if merged is not None:
            move, extra = merged
            written = " ".join(n.text for n in self.nodes[k:k + extra + 1])
            self.found.add("notation-mismatch",
                           f"a capture written as {extra + 1} separate plies ({written}); "
                           "read as one move", node=node, ply=ply, pos=pos, plies=extra + 1)
            self.skip_to = k + extra + 1
            return move, MatchResult("merged", move)
        code, msg, details = describe_failure(res, rules, sq, pos)
        return self._irregular(node, ply, sq, res, code, msg, details)

    def _irregular(self, node: MoveNode, ply: int, sq: Sequence[int], res: MatchResult,
                   code: str, msg: str, details: dict[str, object]
                   ) -> tuple[Move, MatchResult] | None:
        """The finding of a move that broke a rule, and what the rulebook does with it
        (RULES.md 2.0 "Irregularities"; ``Rules.irregularity``). A physically interpretable
        move (:func:`~pdnkit.validation.match.irregular_move`) stands where the variant lets
        the opponent accept it by playing on: it is replayed as played (the finding keeps its
        code and severity; the opponent's next move gets ``irregular-accepted``). Where the
        rulebook recalls it (EDA rule 19) the message says so and the replay stops, as it
        does for a move that cannot be read on the board and in ``irregular="stop"`` mode."""
        pos, rules = self.pos, self.rules
        move = irregular_move(pos, sq, res) if self.irregular == "stand" else None
        if move is not None and rules.irregularity == "recalled":
            self.found.add(code, f"{msg}; {rules.irregularity_article}: the move is recalled "
                           "and replaced by a legal one, a second offence forfeits the game; "
                           "replay stops here", node=node, ply=ply, pos=pos, details=details,
                           irregularity="recalled", article=rules.irregularity_article)
            return None
        if move is not None:
            try:
                pos.play(move)
            except ValueError:
                move = None
        if move is None:
            self.found.add(code, msg, node=node, ply=ply, pos=pos, details=details)
            return None
        what = "a capture stopped early, " if res.kind == "illegal" else ""
        self.found.add(code, f"{msg}; {what}replayed as played ({fmt_move(move, rules)}): "
                       f"it stands once the opponent plays on ({rules.irregularity_article})",
                       node=node, ply=ply, pos=pos, details=details,
                       irregularity="stands", played=fmt_move(move, rules))
        return move, MatchResult("irregular", move, note=code)

    def _other_side_starts(self, node: MoveNode, sq: Sequence[int], prec: PlyRecord
                           ) -> tuple[Move, MatchResult] | None:
        """The record starts with the other side (e.g. White first in English): replay it
        with that side to move."""
        rules = self.rules
        other = flip_side(self.pos)
        r2 = match_move(other, sq)
        if r2.move is None or not r2.readable:
            return None
        mover = "White" if int(other.side) == 0 else "Black"
        self.found.add("move-number-mismatch",
                       f"the game starts with {mover}'s move although "
                       f"{'White' if self.first_mover == 0 else 'Black'} moves first in "
                       f"{rules.name}; replayed with {mover} to move", node=node,
                       ply=1, pos=self.pos, first_mover=mover)
        self.pos = other
        self.start_side = int(other.side)
        self.offset = 0 if self.start_side == self.first_mover else 1
        prec.side = COLOR_LETTER[self.start_side]
        self.report.start_fen = write_fen(other)
        self.report.start_key = int(other.key())
        self.tracker = self.new_tracker(other, self.halfmove)
        return r2.move, r2


def _replay_variation(found: Findings, elements: Sequence[BodyElement], pos: Position,
                      k0: int, rules: Rules) -> None:
    """Replay one variation that replaces the main-line ply ``k0 + 1``, from ``pos``, and
    every variation nested in it (:class:`_Variation` frames on an explicit stack, so a
    nesting of any depth needs no recursion). Findings come in the order of a depth-first
    walk: a move, then the variations that replace it, then the next move."""
    stack = [_Variation(elements, pos, k0)]
    while stack:
        frame = stack[-1]
        children = frame.step(found, rules)
        if children is None:
            stack.pop()
        elif children:
            stack.extend(reversed(children))


class _Variation:
    """One variation being replayed: its moves, the next one (``j``), the position reached,
    and a move matched whose own variations are being replayed first (``held``)."""

    __slots__ = ("nodes", "pos", "k0", "j", "held")

    def __init__(self, elements: Sequence[BodyElement], pos: Position, k0: int) -> None:
        self.nodes = [e for e in elements if isinstance(e, MoveNode)]
        self.pos = pos
        self.k0 = k0
        self.j = 0
        self.held: tuple[MoveNode, Sequence[int], MatchResult] | None = None

    def step(self, found: Findings, rules: Rules) -> list[_Variation] | None:
        """Advance by one move: ``None`` when the variation is over, else the frames of the
        variations to replay before going on (maybe none)."""
        if self.held is not None:
            held, self.held = self.held, None
            return [] if self._finish(found, rules, *held) else None
        if self.j >= len(self.nodes):
            return None
        j, node, pos = self.j, self.nodes[self.j], self.pos
        ply = self.k0 + j + 1
        if node.setup_before:
            new_pos, _ = start_position(found, rules, node.setup_before)
            if new_pos is None:
                found.items[-1].ply = ply
                found.items[-1].in_variation = True
                return None
            pos = self.pos = new_pos
        if node.placeholder or not node.squares:
            if j == 0 and node.text.strip() in ("...", ".."):
                self.j += 1
                return []
            return None
        parsed = parse_squares(rules, node.squares)
        if isinstance(parsed, str):
            short = resolve_short_move(pos, node.text)
            if not isinstance(short, list):
                found.add("ambiguous-move" if short and short.startswith("ambiguous")
                          else "illegal-move", short or parsed, node=node, ply=ply, pos=pos,
                          in_variation=True)
                return None
            parsed = short
        res = match_move(pos, parsed)
        self.held = (node, parsed, res)
        return [_Variation(var, pos, self.k0 + j) for var in node.variations]

    def _finish(self, found: Findings, rules: Rules, node: MoveNode, sq: Sequence[int],
                res: MatchResult) -> bool:
        """Play the move matched (after its variations); False when the variation stops."""
        pos, ply = self.pos, self.k0 + self.j + 1
        if res.kind == "ambiguous":
            move, only = settle_ambiguity(pos, res.candidates, self.nodes[self.j + 1:], rules)
            cands = fmt_list(res.candidates, rules)
            found.add("ambiguous-move",
                      f"matches {len(res.candidates)} legal moves ({', '.join(cands)})",
                      node=node, ply=ply, pos=pos, in_variation=True,
                      severity="warning" if only else None, candidates=cands)
        elif res.ok and res.move is not None:
            move = res.move
        elif res.kind == "no-moves":
            found.add("move-after-end", "the side to move has no legal move", node=node,
                      ply=ply, pos=pos, in_variation=True)
            return False
        else:
            code, msg, details = describe_failure(res, rules, sq, pos)
            found.add(code, msg, node=node, ply=ply, pos=pos, in_variation=True,
                      details=details)
            return False
        self.pos = pos.play(move)
        self.j += 1
        return True
