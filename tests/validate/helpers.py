"""Small helpers for the validator tests: run one game, pick findings by code."""

from __future__ import annotations

from typing import Any

from pdnkit.validation import GameReport, validate


def run(pdn: str, **kwargs: Any) -> GameReport:
    """The report of the only game in ``pdn``."""
    reports = list(validate(pdn, **kwargs))
    assert len(reports) == 1, [r.index for r in reports]
    return reports[0]


def codes(report: GameReport, min_rank: int = 0) -> list[str]:
    """Finding codes of a report (optionally only warnings and errors: ``min_rank=1``)."""
    return [f.code for f in report.findings if f.severity.rank >= min_rank]


def only(report: GameReport, code: str) -> Any:
    """The single finding with ``code`` (fails when there is not exactly one)."""
    found = [f for f in report.findings if f.code == code]
    assert len(found) == 1, [str(f) for f in report.findings]
    return found[0]


def game(fen: str | None, moves: str, *, gametype: str | None = None, result: str = "*",
         tags: dict[str, str] | None = None) -> str:
    """PDN text of one game."""
    lines = []
    if gametype is not None:
        lines.append(f'[GameType "{gametype}"]')
    if fen is not None:
        lines.append(f'[FEN "{fen}"]')
    for k, v in (tags or {}).items():
        lines.append(f'[{k} "{v}"]')
    return "\n".join(lines) + f"\n\n{moves} {result}\n"


def shuffle(white: list[Any], black: list[Any], plies: int, first: str = "W",
            sep: str = "-", replace: dict[int, str] | None = None) -> str:
    """Movetext in which each side walks its king around a closed cycle of squares.

    ``white``/``black`` are the squares of each cycle in order (the king starts on the first
    one); ``plies`` moves are written, the side ``first`` to move first.
    """
    cyc = {"W": white, "B": black}
    at = {"W": 0, "B": 0}
    side = first
    out = []
    for ply in range(1, plies + 1):
        if replace and ply in replace:
            out.append(replace[ply])
            side = "B" if side == "W" else "W"
            continue
        c = cyc[side]
        i = at[side]
        out.append(f"{c[i]}{sep}{c[(i + 1) % len(c)]}")
        at[side] = (i + 1) % len(c)
        side = "B" if side == "W" else "W"
    return " ".join(out)
