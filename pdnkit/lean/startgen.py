"""The generator of :mod:`pdnkit.lean.startdata`: what the verdict on a clean file
(:mod:`pdnkit.lean.verdict`) needs of a variant's start, taken from the rules engine and the
core once, at development time, so that the verdict never loads either.

Run ``python -m pdnkit.lean.startgen`` after a change to the core's table format, a variant's
rules or its draw rules; ``tests/lean/test_verdict.py`` fails while the file is stale.

Example:
    >>> "STARTS = {" in source()
    True
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pdnkit.rules.variants import Rules

#: the variants the verdict takes, by GameType, with the result tokens it takes for each
#: (RULES.md 1.3: international draughts scores 2-0, 0-2 and 1-1)
VARIANTS: dict[int, tuple[str, tuple[str, ...]]] = {
    20: ("international", ("2-0", "0-2", "1-1")),
}

TARGET = Path(__file__).with_name("startdata.py")


def _results(rules: Rules, tokens: tuple[str, ...]) -> dict[str, tuple[str, str | None]]:
    """Each result token -> (the outcome it names, the result the report writes), as the
    judge reads it under the ``auto`` convention."""
    from pdnkit.validation.judge import (
        first_number_side,
        normalise_token,
        outcome_of,
        result_string,
    )

    out = {}
    for token in tokens:
        meaning = normalise_token(token)
        outcome = outcome_of(meaning, first_number_side(rules, "auto"))
        out[token] = (outcome, result_string(outcome, meaning))
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


def _entry(name: str, tokens: tuple[str, ...]) -> tuple[object, ...]:
    from pdnkit.core.pack import pack_table
    from pdnkit.rules import get_rules
    from pdnkit.validation.clean import start_parts

    rules = get_rules(name)
    blob = pack_table(rules)
    assert blob is not None, name
    state, offset, spec, draws, layout = start_parts(rules)
    return (rules.name, blob.tobytes(), tuple(state), offset, spec, draws, layout,
            bool(rules.losing_game), _results(rules, tokens), rules.gametype, rules.edition,
            _slots(rules))


def source() -> str:
    """The text of :mod:`pdnkit.lean.startdata` as the rules and core make it now."""
    lines = ['"""What the verdict on a clean file (:mod:`pdnkit.lean.verdict`) needs of each '
             "variant it takes,\nwritten by :mod:`pdnkit.lean.startgen` "
             '(``python -m pdnkit.lean.startgen``): do not edit.\n"""',
             "",
             "#: GameType -> (variant, core table blob, start state, numbering offset, draw "
             "spec,", "#: draw state, FEN layout, losing game, result token -> (outcome, "
             "result),", "#: GameType, edition, draw rule slots (rule, article, automatic))",
             "STARTS = {"]
    for gametype, (name, tokens) in sorted(VARIANTS.items()):
        lines.append(f"    {gametype}: (")
        for value in _entry(name, tokens):
            lines.append(f"        {value!r},")
        lines.append("    ),")
    lines += ["}", ""]
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover - a development step
    TARGET.write_text(source(), encoding="utf-8")
