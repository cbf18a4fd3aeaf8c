"""The seeded generator of the bundled sample collections in ``data/``.

``python -m pdnkit.samples [OUT_DIR]`` rewrites them (default: the repository's
``data/``). Everything comes from pdnkit itself, from a fixed seed:

* ``<variant>.pdn`` -- games that open with a fixed line of the variant (:data:`OPENINGS`)
  and go on with a seeded 2-ply alpha-beta search on material and mobility
  (:func:`choose_move`), written in canonical notation with ``pdnkit.write_games``. A game ends
  when the side to move has no legal move (scored as a loss for it), resigns far behind in
  material, agrees a draw in an even ending, reaches an automatic draw rule of the variant
  (scored as a draw), or at a ply limit (scored as an agreed draw). A few
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
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from pdnkit.rules.variants import Rules

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


def _result_text(rules: Rules, winner: int | None) -> str:
    """Result token for a winner (0 White, 1 Black, None draw) in the variant's convention:
    international result type ``2-0``/``1-1``; for Black-first variants the first number is
    the first mover's (PDN 2.0)."""
    intl = rules.result_type == "international"
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


#: opening moves the sample games start from (one line chosen per game, then the search
#: plays on), in each variant's own notation; every line is checked against the engine
OPENINGS: dict[str, tuple[str, ...]] = {
    "international": ("32-28 18-23", "33-28 18-22", "32-27 19-23", "34-29 17-21",
                      "31-27 16-21", "33-29 18-23 29x18 12x23", "35-30 20-24"),
    "frisian": ("32-28 18-23", "33-29 17-22", "31-27 19-24", "34-30 16-21"),
    "english": ("11-15 23-19", "9-13 22-18", "11-16 24-19", "10-14 22-17", "12-16 24-20",
                "11-15 22-17 8-11"),
    "russian": ("c3-d4 f6-g5", "c3-b4 b6-a5", "e3-d4 d6-c5", "g3-h4 f6-e5", "c3-d4 d6-c5"),
    "brazilian": ("c3-d4 f6-g5", "g3-h4 b6-a5", "e3-f4 d6-e5", "c3-b4 f6-e5"),
    "czech": ("c3-d4 f6-e5", "e3-f4 b6-c5", "a3-b4 h6-g5", "g3-h4 d6-c5"),
    "italian": ("22-19 10-14", "23-20 12-16", "21-18 11-15", "22-18 12-15"),
}

#: after this many plies a side that is this much material behind resigns (man 1, king 3)
RESIGN_AFTER, RESIGN_DEFICIT = 40, 3
#: after this many plies, an even ending with at most 6 pieces is agreed drawn
DRAW_AFTER = 60
#: weight of the opponent's mobility (number of replies) against material
MOBILITY_WEIGHT = 0.05


def _material(pos: Any, side: int) -> float:
    """Material of ``side`` minus the other's: men 1, kings 3."""
    c = pos.counts()
    white = c["white_men"] + 3 * c["white_kings"]
    black = c["black_men"] + 3 * c["black_kings"]
    return float(white - black) if side == 0 else float(black - white)


def _settled(pos: Any, me: int) -> float:
    """Material for ``me`` once ``me``'s compulsory capture, if any, is made (one ply of
    quiescence, so that an exchange is not mistaken for a lost piece)."""
    if int(pos.side) != me or not pos.has_capture():
        return _material(pos, me)
    return max(_material(pos.play(c), me) for c in pos.legal_moves())


def choose_move(pos: Any, legal: Sequence[Any], rng: random.Random) -> Any:
    """A 2-ply alpha-beta choice on material and the opponent's mobility: every move is
    scored by the worst material after the best reply (and our compulsory recapture), less a
    little for each reply the opponent has; moves within a hair of the best are chosen among
    by the seeded ``rng``.

    Example:
        >>> from pdnkit.rules import get_rules, parse_fen
        >>> pos = parse_fen("W:W28,33:B19,22", get_rules("international"))
        >>> from pdnkit.rules import format_move
        >>> format_move(choose_move(pos, pos.legal_moves(), rng_for("x")), pos.rules)
        '28x17'
    """
    if len(legal) == 1:
        return legal[0]
    me = int(pos.side)
    best = -1e9
    scored: list[tuple[float, int]] = []
    for i, move in enumerate(legal):
        after = pos.play(move)
        replies = after.legal_moves()
        if not replies:
            score = 1e6  # the opponent is blocked or wiped out: a win (a loss in giveaway)
        else:
            floor = best - 1e-6 + MOBILITY_WEIGHT * len(replies)
            worst = 1e9
            for reply in replies:
                worst = min(worst, _settled(after.play(reply), me))
                if worst < floor:  # alpha-beta: this move cannot beat the best one
                    break
            score = worst - MOBILITY_WEIGHT * len(replies)
        scored.append((score, i))
        best = max(best, score)
    near = [legal[i] for score, i in scored if score >= best - 1e-6]
    return rng.choice(near)


def _opening(rules: Any, pos: Any, rng: random.Random) -> list[Any]:
    """The engine moves of one opening line chosen by ``rng`` (raises if a line is not legal
    in the variant: a bug in :data:`OPENINGS`)."""
    from pdnkit.rules import format_move

    lines = OPENINGS.get(rules.name, ())
    if not lines:
        return []
    moves = []
    for text in rng.choice(lines).split():
        by_text = {format_move(m, rules): m for m in pos.legal_moves()}
        if text not in by_text:
            raise AssertionError(f"opening move {text} is not legal in {rules.name}")
        moves.append(by_text[text])
        pos = pos.play(by_text[text])
    return moves


def _resigns(pos: Any, ply: int) -> bool:
    return ply >= RESIGN_AFTER and _material(pos, int(pos.side)) <= -RESIGN_DEFICIT


def _agreed_draw(pos: Any, ply: int) -> bool:
    """Few pieces, even material, late in the game: the players agree a draw."""
    c = pos.counts()
    return (ply >= DRAW_AFTER and sum(c.values()) <= 6
            and abs(_material(pos, 0)) <= 1 and not pos.has_capture())


def random_game(rules: Any, rng: random.Random, start: Any = None,
                max_plies: int = MAX_PLIES) -> tuple[list[str], str]:
    """Play a game from ``start`` (default: the initial position, then a seeded opening line)
    with :func:`choose_move`; returns the canonical move texts and the result token. The game
    ends when the side to move has no move (its loss), resigns (far behind in material after
    :data:`RESIGN_AFTER` plies), an automatic draw rule is reached, or at ``max_plies``
    (an agreed draw)."""
    from pdnkit.rules import Position, canonical_notation
    from pdnkit.rules.draw import DrawTracker

    pos = start if start is not None else Position.initial(rules)
    book = [] if start is not None else _opening(rules, pos, rng)
    tracker = DrawTracker(rules, pos)
    moves: list[str] = []
    losing = rules.losing_game
    for ply in range(1, max_plies + 1):
        legal = pos.legal_moves()
        if not legal:
            loser = int(pos.side)
            return moves, _result_text(rules, loser if losing else 1 - loser)
        if not losing and _resigns(pos, ply):
            return moves, _result_text(rules, 1 - int(pos.side))
        if not losing and _agreed_draw(pos, ply):
            return moves, _result_text(rules, None)
        move = book[ply - 1] if ply <= len(book) else choose_move(pos, legal, rng)
        moves.append(canonical_notation(move, pos, legal))
        pos = pos.play(move)
        reached = tracker.push(ply, move, pos)
        if any(e.automatic for e in reached):
            return moves, _result_text(rules, None)
    if not pos.legal_moves():
        loser = int(pos.side)
        return moves, _result_text(rules, loser if losing else 1 - loser)
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
        if i % 10 == 9:  # a set-up position: 20 plies of the search, not recorded
            start = Position.initial(rules)
            for _ in range(20):
                legal = start.legal_moves()
                if not legal:
                    break
                start = start.play(choose_move(start, legal, rng))
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
    """Regenerate the samples (``python -m pdnkit.samples [OUT_DIR]``)."""
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else Path(__file__).resolve().parents[2] / "data"
    paths = write_collections(out)
    from pdnkit.samples.flawed import write_flawed

    paths += write_flawed(out)
    for p in paths:
        print(f"{p} ({p.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
