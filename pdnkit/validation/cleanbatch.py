"""Clean games in batch: a light report of a game nothing could fault, made from plain facts
and one call of the compiled core, without the validator's stages.

:func:`serial_reports <pdnkit.validation.pipeline.serial_reports>` hands each record of a
light run to :meth:`CleanBatch.report` first. A record is taken here only when the compiled
lane read it whole (a :class:`~pdnkit.pdn.fast.LaneRecord`, its moves unread, no finding of
the reader's), its text holds nothing the validator would unescape or flag (no ``\\``, no
``&``, no control character, no line or paragraph separator, no byte order mark), and
:func:`pdnkit.verdict.facts.judge_game` -- the verdict's own judging, shared, not copied --
finds it clean with no finding but a draw's: its tags are the Seven Tag Roster's,
``GameType`` and a ``PlyCount`` that counts the moves, its date a date, its result tokens
agree, the core replays every move as written, no draw rule is reached and ignored and the
end names the winner the rules name. A drawn game's one finding (``draw-by-rule``,
``draw-unsupported``) and its ``draw_basis`` are made by the validator's own
:func:`~pdnkit.validation.judge.judge_draws` from the same rule events, and taken only where
it makes that one finding and no other. Its rules are the validator's own
(:func:`~pdnkit.validation.resolve.resolve_rules`, once per GameType, taken only where the
tag alone decides with no finding and the verdict's start names the same variant), no
endgame database of the variant is installed, and the run's options are the defaults (no
variant or edition forced, the ``auto`` result convention). Any other game goes the
general path, unchanged; the report made here holds every field
the general path would (``tests/validate/test_clean_batch.py`` holds them field by field to it,
with this switched off, on seeded games of every variant and seeded mutations).

``PDNKIT_BATCH=0`` in the environment switches it off (read when a run starts).

Example:
    >>> from pdnkit.pdn import read_games
    >>> batch = CleanBatch.for_run(RunOptions(light=True))
    >>> rec = next(read_games('[GameType "20"]\\n1. 32-28 19-23 *\\n'))
    >>> rep = batch.report(rec) if batch is not None else None
    >>> rep is None or (rep.variant, rep.replayed_plies, rep.status, rep.result)
    ('international', 2, 'ok', '*')
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from pdnkit.validation.report import REPORT_DEFAULTS, GameReport
from pdnkit.validation.runoptions import RunOptions

if TYPE_CHECKING:
    from pdnkit.pdn.record import GameRecord
    from pdnkit.rules.draw import RuleEvent
    from pdnkit.rules.variants import Rules
    from pdnkit.validation.clean import CleanStart
    from pdnkit.verdict.facts import Core, Variant

__all__ = ["CleanBatch", "batch_enabled"]

#: a character of a game's text the validator may flag or read otherwise than as written:
#: the escapes, control characters (the tab and line feed apart), DEL and the C1 controls,
#: the line and paragraph separators and the byte order mark
_ODD = re.compile("[\\\\&\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff]")
#: the bytes of ASCII text that are not odd (printable, the tab and the line feed)
_ASCII = bytes(range(0x20, 0x7F)) + b"\t\n"
#: the defaults of a run the batch takes (what it may differ in: light, codes, encoding)
_PLAIN = RunOptions(light=True)


def batch_enabled() -> bool:
    """Whether clean games may be taken in batch (``PDNKIT_BATCH`` is not ``0``).

    Example:
        >>> isinstance(batch_enabled(), bool)
        True
    """
    return os.environ.get("PDNKIT_BATCH", "").strip() != "0"


class _Kind:
    """What every clean game of one GameType shares: the validator's rules, the core's
    start, and the fields of its reports (a dict to copy into each)."""

    __slots__ = ("rules", "start", "fields")

    def __init__(self, rules: Rules, start: CleanStart) -> None:
        self.rules = rules
        self.start = start
        fields = dict(REPORT_DEFAULTS)
        fields.update(variant=rules.name, gametype=rules.gametype, edition=rules.edition,
                      start_fen=start.fen, start_key=start.key)
        self.fields = fields


class CleanBatch:
    """The light reports of a run's clean games (see the module's text).

    Example:
        >>> CleanBatch.for_run(RunOptions(light=False)) is None
        True
    """

    __slots__ = ("core", "variants", "kinds", "lane", "judge", "events", "draws", "findings",
                 "status")

    def __init__(self, core: Core) -> None:
        from pdnkit.pdn.fast import LaneRecord
        from pdnkit.rules.draw import run_events
        from pdnkit.validation.judge import judge_draws
        from pdnkit.validation.report import Findings, finish_status
        from pdnkit.verdict.facts import judge_game

        # (the calls of every game, bound once: an import statement costs a game 1-2 us)
        self.judge = judge_game
        self.events = run_events
        self.draws = judge_draws
        self.findings = Findings
        self.status = finish_status
        self.core = core
        #: GameType -> the verdict's start of it (``None``: none)
        self.variants: dict[int, Variant | None] = {}
        #: GameType -> the validator's rules and the core's start (``None``: not taken)
        self.kinds: dict[int, _Kind | None] = {}
        self.lane = LaneRecord

    @classmethod
    def for_run(cls, options: RunOptions) -> CleanBatch | None:
        """The batch of a run under ``options``, or ``None`` where it takes no game: not a
        light report, an option the general path needs, the pure core, switched off.

        Example:
            >>> CleanBatch.for_run(RunOptions(light=True, variant="russian")) is None
            True
        """
        if not options.light or options.compact or not batch_enabled():
            return None
        if options.but(light=True, codes=None, encoding=None) != _PLAIN:
            return None
        from pdnkit.verdict.facts import compiled_core

        core = compiled_core()
        return None if core is None else cls(core)

    def report(self, record: GameRecord) -> GameReport | None:
        """The light report of ``record`` where it is a clean game, else ``None`` (the
        general path decides)."""
        if type(record) is not self.lane or record.findings or not record.parsed:
            return None
        raw = record.raw
        if record.__dict__.get("_moves") is not None:
            return None
        if raw.isascii():  # (one pass in C over its bytes)
            if raw.encode("ascii").translate(None, _ASCII) or "\\" in raw or "&" in raw:
                return None
        elif _ODD.search(raw) is not None:
            return None
        n = record.move_count
        got = self.judge(record.tags, record.result or "", n, raw,
                         record.lane_body,
                         self.variants, self.core)
        if got is None:
            return None
        values, v, token, source, fen, finding, made = got
        kind = self._kind(v.gametype, record, v.name)
        if kind is None:
            return None
        outcome, result = v.results[token][:2]
        rep: GameReport = object.__new__(GameReport)
        d = rep.__dict__
        d.update(kind.fields)
        d.update(file=record.file, index=record.index, line=record.line, plies=[],
                 replayed_plies=n, findings=[], result=result, result_raw=token,
                 result_source=source, outcome=outcome, final_fen=fen,
                 white=values.get("white", "").strip() or None,
                 black=values.get("black", "").strip() or None, ply_count=n,
                 start_counts=dict(kind.start.counts))
        events = d["rule_events"] = self.events(kind.rules, made, n) if made else []
        if finding is not None and not self._draw(rep, record, events, finding[0]):
            return None
        return rep

    def _draw(self, rep: GameReport, record: GameRecord, events: list[RuleEvent],
              code: str) -> bool:
        """Add the draw's finding to ``rep`` as the validator's judge makes it (its own
        :func:`~pdnkit.validation.judge.judge_draws`, the same events); whether it made
        that one finding, ``code`` (the verdict's), and nothing else (else the general path
        decides)."""
        found = self.findings(record)
        self.draws(rep, found, events)
        if len(found.items) != 1 or found.items[0].code != code:
            return False
        rep.findings.extend(found.items)
        self.status(rep)
        return True

    def _kind(self, gametype: int, record: GameRecord, name: str) -> _Kind | None:
        """The rules and start of GameType ``gametype``, decided on its first game
        (``None``: not taken, an endgame database of the variant installed among the
        reasons: the validator judges the end with it)."""
        if gametype in self.kinds:
            return self.kinds[gametype]
        from pdnkit.validation.clean import clean_start
        from pdnkit.validation.egdbcheck import databases_for
        from pdnkit.validation.resolve import resolve_rules

        kind = None
        res = resolve_rules(record, None, None, None)
        rules = res.rules
        if res.source == "gametype" and not res.findings and rules is not None \
                and rules.name == name and rules.gametype == gametype \
                and databases_for(rules)[0] is None:
            start = clean_start(rules)
            if start is not None and start.run is not None:
                kind = _Kind(rules, start)
        self.kinds[gametype] = kind
        return kind
