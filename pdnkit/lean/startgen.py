"""The generator of :mod:`pdnkit.verdict.startdata`: what the verdict on a clean file
(:mod:`pdnkit.lean.verdict`) needs of a variant's start, taken from the rules engine and the
core once, at development time, so that the verdict never loads either.

Run ``python -m pdnkit.lean.startgen`` after a change to the core's table format, a variant's
rules or its draw rules, the result tokens the judge reads or the tag names the validator
reads; ``tests/validate/test_verdict.py`` fails while the file is stale.

Example:
    >>> "STARTS = {" in source()
    True
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pdnkit.rules.variants import Rules

#: the results the core's scanner reads as standard (``src/scan.c``, ``result_at``) that the
#: judge reads without a finding: ``0-0`` is left out (a double forfeit: ``unknown-result``),
#: ``0.5-0.5`` and ``½-½`` the scanner leaves to the Python reader
TOKENS = ("2-0", "0-2", "1-1", "1-0", "0-1", "1/2-1/2", "*")

#: the game fields of :data:`pdnkit.pdn.tags.TAG_NAMES` the validator reads (players, the
#: date's ``bad-date``, the result, the variant, the set-up, ``plycount-mismatch``): a tag
#: filling another field (event, site, round, year, opening, ratings) gives no finding
_READ_FIELDS = ("white", "black", "date", "result", "gametype", "variant", "fen", "plycount")
#: tag names the validator reads that fill no field: PlayStrategy's players and ratings
#: (:func:`pdnkit.pdn.tags.players`), the set-up flag
_READ_NAMES = ("p1", "p2", "p1elo", "p2elo", "setup")

TARGET = Path(__file__).parents[1] / "verdict" / "startdata.py"


def left_out(rules: Rules) -> str | None:
    """Why the verdict cannot judge a game of ``rules`` exactly (``None``: it can). The
    reasons are rules fields, never names:

    * ``wins_on_promotion`` (Breakthrough, RULES.md 2.5): the judge decides such a game by
      the final position's kings (:func:`pdnkit.validation.judge.judge_result`), the
      verdict only by whether the side to move has a move; and the validator's clean line
      does not take it (:func:`pdnkit.validation.clean.clean_line`), so its report is
      the general path's;
    * no core table (:func:`pdnkit.core.pack.pack_table`): the core does not replay it.

    Example:
        >>> from pdnkit.rules import get_rules
        >>> left_out(get_rules("russian")) is None, left_out(get_rules("breakthrough")) is None
        (True, False)
    """
    from pdnkit.core.pack import pack_table

    if rules.wins_on_promotion:
        return "the first king wins: the judge reads the final kings, the verdict cannot"
    if pack_table(rules) is None:
        return "the compiled core holds no table for it"
    return None


def variants() -> dict[int, Rules]:
    """GameType number -> the rules a bare ``GameType`` tag of it names in the validator
    (:func:`pdnkit.validation.resolve.rules_from_gametype`: the default edition), for every
    number the verdict can judge (:func:`left_out`).

    Example:
        >>> sorted(variants())[:3]
        [20, 21, 22]
    """
    from pdnkit.rules import list_variants
    from pdnkit.validation.resolve import rules_from_gametype

    out = {}
    for number in sorted({int(r.gametype) for r in list_variants()}):
        rules = rules_from_gametype(str(number))[0]
        if rules is not None and int(rules.gametype) == number and left_out(rules) is None:
            out[number] = rules
    return out


def results(rules: Rules) -> dict[str, tuple[str, str, str, bool]]:
    """Each result token of :data:`TOKENS` -> (the outcome the judge reads under the
    ``auto`` convention where the rules decide nothing, the result the report writes, the
    token's meaning, whether another reading of it exists: where the rules decide the
    game, the judge then picks one and says so, ``result-convention``).

    Example:
        >>> from pdnkit.rules import get_rules
        >>> results(get_rules("international"))["2-0"]
        ('white', '1-0', 'first', False)
    """
    from pdnkit.validation.judge import (
        first_number_side,
        normalise_token,
        outcome_of,
        result_string,
    )

    black_first = int(rules.first_mover) == 1
    out = {}
    for token in TOKENS:
        meaning = normalise_token(token)
        # (judge_result: under auto, a variant Black begins reads the first number as the
        # first mover's unless the final position says otherwise)
        outcome = outcome_of(meaning, first_number_side(
            rules, "first-mover" if black_first else "white"))
        other = outcome_of(meaning, first_number_side(rules, "white"))
        result = result_string(outcome, meaning)
        assert meaning is not None and result is not None, token
        out[token] = (outcome, result, meaning, other != outcome)
    return out


def _slots(rules: Rules) -> list[tuple[str, str, bool]]:
    """The draw loop's rule slots: (rule, article, automatic) each, read back through
    :func:`pdnkit.rules.draw.run_events`."""
    from array import array

    from pdnkit.rules.draw import run_events

    out = []
    for slot in range(64):
        try:
            (e,) = run_events(rules, array("q", [slot, 0, -1, -1, -1]).tobytes(), 0)
        except IndexError:
            break
        out.append((e.rule, e.article, bool(e.automatic)))
    return out


def read_tags() -> frozenset[str]:
    """The tag names (lower case) the validator reads on a game: a game with one of them
    beyond the verdict's own is left to the validator.

    Example:
        >>> "bianco" in read_tags(), "event" in read_tags()
        (True, False)
    """
    from pdnkit.pdn.tags import TAG_NAMES

    names = {n.lower() for f in _READ_FIELDS for n in TAG_NAMES[f]}
    return frozenset(names | set(_READ_NAMES))


def _entry(rules: Rules) -> tuple[object, ...]:
    from pdnkit.core.pack import pack_table
    from pdnkit.validation.clean import start_parts

    blob = pack_table(rules)
    assert blob is not None, rules.name
    state, offset, spec, draws, layout = start_parts(rules)
    return (rules.name, blob.tobytes(), tuple(state), offset, spec, draws, layout,
            bool(rules.losing_game), results(rules), rules.gametype, rules.edition,
            _slots(rules))


def source() -> str:
    """The text of :mod:`pdnkit.verdict.startdata` as the rules and core make it now."""
    lines = ['"""What the verdict on a clean file (:mod:`pdnkit.lean.verdict`) needs of each '
             "variant it takes,\nwritten by :mod:`pdnkit.lean.startgen` "
             '(``python -m pdnkit.lean.startgen``): do not edit.\n"""',
             "",
             "#: the tag names (lower case) the validator reads: a game with one beyond the "
             "verdict's own",
             "#: is left to the validator",
             f"READ_TAGS = frozenset({sorted(read_tags())!r})",
             "",
             "#: GameType -> (variant, core table blob, start state, numbering offset, draw "
             "spec,", "#: draw state, FEN layout, losing game, result token -> (outcome, "
             "result, meaning,", "#: another reading), GameType, edition, draw rule slots "
             "(rule, article, automatic))",
             "STARTS = {"]
    for gametype, rules in sorted(variants().items()):
        lines.append(f"    {gametype}: (")
        for value in _entry(rules):
            lines.append(f"        {value!r},")
        lines.append("    ),")
    lines += ["}", ""]
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover - a development step
    TARGET.write_text(source(), encoding="utf-8")
