"""One game through every stage, and a stream of games in this process.

:func:`replay` is the validator for one record: resolve its rules
(:mod:`~pdnkit.validation.resolve`), replay and judge it (:mod:`~pdnkit.validation.game`);
a guessed variant under which the game fails is traded for the next candidate that replays.
:func:`validate_serial` reads the inputs and replays every game in order.

Example:
    >>> from pdnkit.pdn import parse_game
    >>> replay(parse_game('[GameType "25"] 1. c3-d4 f6-g5 *')).variant
    'russian'
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from pdnkit.findings import make_finding
from pdnkit.validation.game import IRREGULAR, replay_game
from pdnkit.validation.judge import CONVENTIONS
from pdnkit.validation.report import GameReport
from pdnkit.validation.resolve import Resolution, lookup_rules, resolve_rules
from pdnkit.validation.sources import Source, is_record, iter_sources

if TYPE_CHECKING:
    from pdnkit.pdn.record import GameRecord
    from pdnkit.rules.variants import Rules


def check_arguments(variant: str | None, edition: str | None, result_convention: str) -> None:
    """Raise ``ValueError`` for an unknown variant, rules edition or result convention (API
    misuse, said before any game is read)."""
    if result_convention not in CONVENTIONS:
        raise ValueError(f"result_convention must be one of {CONVENTIONS}")
    if variant is not None and lookup_rules(variant, edition) is None:
        raise ValueError(f"unknown variant {variant!r}")
    if edition is not None:
        from pdnkit.rules.variants import list_variants

        known = {r.edition for r in list_variants()}
        if edition.strip().lower() not in known:
            raise ValueError(f"unknown rules edition {edition!r} (known: "
                             f"{', '.join(sorted(known))})")


def replay(record: GameRecord, rules: Rules | None = None, *, variant: str | None = None,
           edition: str | None = None, result_convention: str = "auto",
           light: bool = False, irregular: str = "stand") -> GameReport:
    """Replay one game record and validate it.

    ``rules`` (a :class:`~pdnkit.rules.Rules`) forces the rules; otherwise they come from the
    ``GameType`` tag, a ``Variant`` tag, ``variant``, or a guess. ``result_convention`` says
    whom the first number of a result belongs to in variants where Black moves first:
    ``auto`` (decide from the final position, else PDN 2.0: the first mover),
    ``first-mover`` or ``white``. ``light`` drops the record and the per-ply list from the
    report (counts stay), for summaries over large collections. ``irregular``: ``"stand"``
    replays an irregular move (a capture omitted, too few pieces taken, a capture stopped
    early) as played where the variant's rules let it stand once the opponent plays on
    (RULES.md 2.0), ``"stop"`` stops the replay at it.

    Example:
        >>> from pdnkit.pdn import parse_game
        >>> rep = replay(parse_game('[GameType "20"] 1. 32-28 19-23 2. 28-23 *'))
        >>> rep.replayed_plies, rep.status, rep.findings[0].code
        (2, 'error', 'illegal-move')
    """
    if result_convention not in CONVENTIONS:
        raise ValueError(f"result_convention must be one of {CONVENTIONS}, "
                         f"got {result_convention!r}")
    if irregular not in IRREGULAR:
        raise ValueError(f"irregular must be one of {IRREGULAR}, got {irregular!r}")
    if rules is not None:
        rep = replay_game(record, rules, [], edition, result_convention, light, irregular)
    else:
        res = resolve_rules(record, variant, edition)
        rep = replay_game(record, res.rules, res.findings, edition, result_convention, light,
                          irregular)
        if res.source == "guess" and rep.status == "error":
            rep = _other_guesses(record, res, edition, result_convention, light,
                                 irregular) or rep
    if light:
        rep.record = None
        rep.plies = []
        rep.final_position = None
    return rep


def _other_guesses(record: GameRecord, res: Resolution, edition: str | None,
                   convention: str, light: bool, irregular: str = "stand"
                   ) -> GameReport | None:
    """The report under the first other guessed variant that replays without errors."""
    guessed = res.rules.name if res.rules is not None else None
    for name in res.alternatives:
        alt_rules = lookup_rules(name, edition)
        if alt_rules is None:
            continue
        fs = [f for f in res.findings if f.code != "variant-guessed"]
        note = make_finding(
            "variant-guessed",
            f"variant guessed as {alt_rules.name}: the game replays under its rules "
            f"and not under {guessed}'s",
            details={"variant": alt_rules.name, "candidates": [guessed, *res.alternatives]})
        alt = replay_game(record, alt_rules, [*fs, note], edition, convention, light,
                          irregular)
        if alt.status != "error":
            return alt
    return None


def validate_serial(source: Source, variant: str | None, *, edition: str | None,
                    result_convention: str, strict: bool, light: bool,
                    encoding: str | None = None, irregular: str = "stand"
                    ) -> Iterator[GameReport]:
    """:func:`pdnkit.validation.validate` in this process (arguments already checked)."""
    from pdnkit.pdn.reader import read_games
    from pdnkit.pdn.source import source_name

    for src in iter_sources(source):
        if is_record(src):
            yield replay(src, variant=variant, edition=edition,
                         result_convention=result_convention, light=light,
                         irregular=irregular)
            continue
        file = source_name(src) if isinstance(src, Path) else None
        for record in read_games(src, strict=strict, file=file, encoding=encoding):
            yield replay(record, variant=variant, edition=edition,
                         result_convention=result_convention, light=light,
                         irregular=irregular)
