"""The seeded generator of the bundled sample collections in ``data/``.

``python -m pdnkit.store.samples [OUT_DIR]`` rewrites them (default: the repository's
``data/``). Everything comes from pdnkit itself, from a fixed seed:

* ``<variant>.pdn`` -- random legal games played by the rules engine (``Position.legal_moves``
  and ``play``), written in canonical notation with ``pdnkit.write_games``. A game ends when the
  side to move has no legal move (scored as a loss for it), when an automatic draw rule of the
  variant is reached (scored as a draw), or at a ply limit (scored as an agreed draw). A few
  games start from a set-up position (``FEN`` tag), a few moves carry comments, and the
  international file holds one duplicate entry (same moves, other tags).
* ``flawed.pdn`` and ``flawed-cp1252.pdn`` -- one small game per finding code, each showing
  one problem (positions built with the engine where the problem needs one).

Example:
    >>> rng_for("international", 1).random() == rng_for("international", 1).random()
    True
"""

from __future__ import annotations

import random
import re
import sys
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

#: the seed of every sample collection
SEED = 20240601

#: (variant, games) of the random collections
VARIANTS: tuple[tuple[str, int], ...] = (
    ("international", 30),
    ("english", 30),
    ("russian", 30),
    ("italian", 30),
    ("brazilian", 30),
    ("frisian", 12),
    ("czech", 12),
)

#: ply limit of a random game (then scored as an agreed draw)
MAX_PLIES = 160

_NAMES = ("Abel", "Berg", "Costa", "Dijk", "Evers", "Fokin", "Gant", "Hoek", "Ivanov", "Jansen",
          "Kok", "Lenz", "Moreau", "Nagy", "Olsen", "Petrov", "Quint", "Rossi", "Silva",
          "Tamm", "Ulrich", "Visser", "Wolf", "Young")
_COMMENTS = ("a quiet move", "the only move", "threatens a shot", "better was the exchange",
             "time trouble")


def rng_for(name: str, seed: int = SEED) -> random.Random:
    """A random generator seeded from ``seed`` and a name (stable across runs and Pythons)."""
    return random.Random(seed * 1_000_003 + zlib.crc32(name.encode()))


def _split_text(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    squares = tuple(s for s in re.split(r"[-x:]", text) if s)
    seps = tuple(re.findall(r"[-x:]", text))
    return squares, seps


def _result_text(rules: Any, winner: int | None) -> str:
    """Result token for a winner (0 White, 1 Black, None draw) in the variant's convention:
    international result type ``2-0``/``1-1``; for Black-first variants the first number is
    the first mover's (PDN 2.0)."""
    intl = getattr(rules, "result_type", "default") == "international"
    win, loss, draw = ("2", "0", "1-1") if intl else ("1", "0", "1/2-1/2")
    if winner is None:
        return draw
    first_is_black = int(rules.first_mover) == 1
    first_won = (winner == 1) if first_is_black else (winner == 0)
    return f"{win}-{loss}" if first_won else f"{loss}-{win}"


def make_record(rules: Any, tags: list[tuple[str, str]], moves: Sequence[str],
                result: str, *, start_side: int | None = None,
                comments: dict[int, str] | None = None) -> Any:
    """A ``GameRecord`` with the given tags and main-line move texts (move numbers placed as
    PDN wants them: on the first mover's moves, ``N...`` when the other side starts)."""
    from pdnkit.pdn import GameRecord, MoveNode

    first = int(rules.first_mover)
    side = first if start_side is None else start_side
    number = 1
    nodes = []
    for i, text in enumerate(moves):
        squares, seps = _split_text(text)
        node = MoveNode(text=text, squares=squares, separators=seps)
        if side == first:
            node.number = number
        elif i == 0:
            node.number, node.black_dots = number, True
        if comments and (i + 1) in comments:
            node.comments_after = [comments[i + 1]]
        nodes.append(node)
        if side != first:
            number += 1
        side = 1 - side
    tags = [*tags, ("Result", result)]
    return GameRecord(tags=tags, body=list(nodes), moves=list(nodes), result=result)


def random_game(rules: Any, rng: random.Random, start: Any = None,
                max_plies: int = MAX_PLIES) -> tuple[list[str], str]:
    """Play random legal moves from ``start`` (default: the initial position); returns the
    canonical move texts and the result token."""
    from pdnkit.rules import Position, canonical_notation
    from pdnkit.rules.draw import DrawTracker

    pos = start if start is not None else Position.initial(rules)
    tracker = DrawTracker(rules, pos)
    moves: list[str] = []
    for ply in range(1, max_plies + 1):
        legal = pos.legal_moves()
        if not legal:
            loser = int(pos.side)
            winner = loser if getattr(rules, "losing_game", False) else 1 - loser
            return moves, _result_text(rules, winner)
        move = rng.choice(legal)
        moves.append(canonical_notation(move, pos, legal))
        pos = pos.play(move)
        reached = tracker.push(ply, move, pos)
        if any(e.automatic for e in reached):
            return moves, _result_text(rules, None)
    if not pos.legal_moves():
        loser = int(pos.side)
        winner = loser if getattr(rules, "losing_game", False) else 1 - loser
        return moves, _result_text(rules, winner)
    return moves, _result_text(rules, None)


def variant_collection(variant: str, games: int, seed: int = SEED) -> list[Any]:
    """``games`` random games of one variant as ``GameRecord``s."""
    from pdnkit.rules import Position, get_rules, write_fen

    rules = get_rules(variant)
    rng = rng_for(variant, seed)
    records = []
    gametype = str(rules.gametype)
    for i in range(games):
        white, black = rng.sample(_NAMES, 2)
        tags = [("Event", f"pdnkit sample: {rules.title}"), ("Site", "pdnkit"),
                ("Date", f"2024.{1 + i % 12:02d}.{1 + (i * 7) % 28:02d}"),
                ("Round", str(i + 1)), ("White", white), ("Black", black),
                ("GameType", gametype)]
        start = None
        if i % 10 == 9:  # a set-up position: 20 random plies from the start, not recorded
            start = Position.initial(rules)
            for _ in range(20):
                legal = start.legal_moves()
                if not legal:
                    break
                start = start.play(rng.choice(legal))
            tags.append(("FEN", write_fen(start)))
        moves, result = random_game(rules, rng, start)
        comments = {k: rng.choice(_COMMENTS) for k in range(1, len(moves) + 1)
                    if rng.random() < 0.03}
        records.append(make_record(rules, tags, moves, result,
                                   start_side=None if start is None else int(start.side),
                                   comments=comments))
    if variant == "international" and records:
        # the same moves entered twice with other tags (`pdnkit duplicates` finds it)
        first = records[0]
        dup_tags = [(k, v) for k, v in first.tags if k != "Result"]
        dup_tags = [("Event", "pdnkit sample: entered twice") if k == "Event" else (k, v)
                    for k, v in dup_tags]
        records.append(make_record(rules, dup_tags, [m.text for m in first.moves],
                                   first.result or "*"))
    return records


def write_collections(out: Path, seed: int = SEED) -> list[Path]:
    """Write every random collection into ``out``; returns the paths."""
    from pdnkit.pdn import write_games

    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for variant, n in VARIANTS:
        path = out / f"{variant}.pdn"
        write_games(variant_collection(variant, n, seed), path)
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> None:
    """Regenerate the samples (``python -m pdnkit.store.samples [OUT_DIR]``)."""
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else Path(__file__).resolve().parents[2] / "data"
    paths = write_collections(out)
    from pdnkit.store.flawed import write_flawed

    paths += write_flawed(out)
    for p in paths:
        print(f"{p} ({p.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
