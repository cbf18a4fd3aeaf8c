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

#: the variants the verdict takes, by GameType, with the result tokens it takes for each and
#: the outcome each names (RULES.md 1.3: international draughts scores 2-0, 0-2 and 1-1)
VARIANTS: dict[int, tuple[str, dict[str, str]]] = {
    20: ("international", {"2-0": "white", "0-2": "black", "1-1": "draw"}),
}

TARGET = Path(__file__).with_name("startdata.py")


def _entry(name: str) -> tuple[object, ...]:
    from pdnkit.core.pack import pack_table
    from pdnkit.rules import get_rules
    from pdnkit.validation.clean import start_parts

    rules = get_rules(name)
    blob = pack_table(rules)
    assert blob is not None, name
    state, offset, spec, draws, layout = start_parts(rules)
    return (rules.name, blob.tobytes(), tuple(state), offset, spec, draws, layout,
            bool(rules.losing_game))


def source() -> str:
    """The text of :mod:`pdnkit.lean.startdata` as the rules and core make it now."""
    lines = ['"""What the verdict on a clean file (:mod:`pdnkit.lean.verdict`) needs of each '
             "variant it takes,\nwritten by :mod:`pdnkit.lean.startgen` "
             '(``python -m pdnkit.lean.startgen``): do not edit.\n"""',
             "",
             "#: GameType -> (variant, core table blob, start state, numbering offset, draw "
             "spec,", "#: draw state, FEN layout, losing game, result tokens -> winner)",
             "STARTS = {"]
    for gametype, (name, results) in sorted(VARIANTS.items()):
        lines.append(f"    {gametype}: (")
        for value in _entry(name):
            lines.append(f"        {value!r},")
        lines.append(f"        {results!r},")
        lines.append("    ),")
    lines += ["}", ""]
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover - a development step
    TARGET.write_text(source(), encoding="utf-8")
