"""What the engine tests share: the scripted Hub engine (``fake_hub.py``) as a command
line, the games it is scripted for, and whether a process is still alive."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from pdnkit.engines.hubtext import hub_move, hub_position
from pdnkit.rules import Position, canonical_notation, get_rules, parse_fen
from pdnkit.rules.position import Move
from pdnkit.rules.variants import Rules

FAKE = Path(__file__).with_name("fake_hub.py")
INTERNATIONAL = get_rules("international")
#: a king's captures where two moves share origin and destination with other pieces taken
#: (16x6 twice), a capture back onto its own square (16x16) and routes that take the same
#: pieces another way (nine routes, five moves)
KING_FEN = "W:WK16:B5,11,13,14,21,24,39"


def fake_engine(tmp: Path, script: dict[str, Any], name: str = "script.json") -> list[str]:
    """The command line of the fake engine run with ``script`` (written to ``tmp``)."""
    path = tmp / name
    path.write_text(json.dumps(script), encoding="utf-8")
    return [sys.executable, str(FAKE), str(path)]


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, killed and waiting for its parent to read
    its status, does not)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    state = next((line for line in status.splitlines() if line.startswith("State:")), "")
    return "Z" not in state.split(":", 1)[1][:3] if state else True


def pids(path: Path) -> list[int]:
    """The pids the fake engines wrote to their ``pidfile``."""
    if not path.exists():
        return []
    return [int(x) for x in path.read_text().split()]


def random_game(seed: int, plies: int = 70, rules: Rules = INTERNATIONAL) -> list[Move]:
    """A game of ``rules`` (international draughts) from the start, captures preferred (so
    it holds exchanges and multi-captures), reproducible from ``seed``."""
    rnd = random.Random(seed)
    pos = Position.initial(rules)
    moves = []
    for _ in range(plies):
        legal = pos.legal_moves()
        if not legal:
            break
        m = rnd.choice(legal)
        moves.append(m)
        pos = pos.play(m)
    return moves


def game_text(moves: list[Move], fen: str | None = None, event: str = "Test") -> str:
    """A PDN game of ``moves`` (White moving first) in canonical notation."""
    pos = parse_fen(fen, INTERNATIONAL) if fen else Position.initial(INTERNATIONAL)
    words = []
    for i, m in enumerate(moves):
        if i % 2 == 0:
            words.append(f"{i // 2 + 1}.")
        words.append(canonical_notation(m, pos))
        pos = pos.play(m)
    head = f'[Event "{event}"]\n[White "W{event}"]\n[Black "B{event}"]\n[GameType "20"]\n'
    if fen:
        head += f'[FEN "{fen}"]\n'
    return head + "\n" + " ".join(words) + " *\n\n"


def positions_of(moves: list[Move], fen: str | None = None) -> list[Position]:
    """Every position of the game: the start, then after each ply."""
    pos = parse_fen(fen, INTERNATIONAL) if fen else Position.initial(INTERNATIONAL)
    out = [pos]
    for m in moves:
        pos = pos.play(m)
        out.append(pos)
    return out


def engine_choice(pos: Position) -> Move:
    """The move the script makes the engine choose: a capture whose origin and destination
    another capture shares with other pieces taken where there is one, else the last legal
    move."""
    legal = pos.legal_moves()
    shared = [m for m in legal if m.captured and any(
        o is not m and (o.origin, o.destination) == (m.origin, m.destination) for o in legal)]
    return (shared or legal)[-1]


def scripted(positions: list[Position]) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The fake engine's answers for ``positions`` (a score from each position's key, the
    move of :func:`engine_choice` written with its captured pieces in reverse order, a line
    of two moves) and the ``evals`` row each must give (score turned to White's view, moves
    as PDN)."""
    answers: dict[str, Any] = {}
    rows: dict[str, dict[str, Any]] = {}
    for pos in positions:
        if pos.is_terminal():
            continue
        key = hub_position(pos)
        move = engine_choice(pos)
        after = pos.play(move)
        reply = after.legal_moves()[0] if after.legal_moves() else None
        score = round(((pos.key() % 401) - 200) / 100, 2)
        hub = hub_move(move)
        if move.captured:
            hub = "x".join([str(move.origin), str(move.destination),
                            *map(str, reversed(move.captured))])
        pv = hub + (f" {hub_move(reply)}" if reply else "")
        answers[key] = {"score": score, "depth": 7, "nodes": 1234, "move": hub, "pv": pv}
        best = canonical_notation(move, pos)
        rows[key] = {"score": -score if int(pos.side) else score, "depth": 7, "nodes": 1234,
                     "best": best,
                     "pv": best + (f" {canonical_notation(reply, after)}" if reply else "")}
    return answers, rows
