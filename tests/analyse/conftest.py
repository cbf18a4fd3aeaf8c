"""The collection the analysis tests share: two random international games full of
exchanges and multi-captures, and a king's capture game where two captures share origin and
destination, written once per test module."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdnkit.rules import parse_fen
from tests.engines.helpers import INTERNATIONAL, KING_FEN, game_text, random_game


def king_game() -> list:
    """From KING_FEN: the king's 16x6 that takes 21, 39, 14, 13, 11 (another 16x6 takes
    other men), then the first legal move each ply."""
    pos = parse_fen(KING_FEN, INTERNATIONAL)
    first = next(m for m in pos.legal_moves() if m.path == (16, 43, 25, 9, 22, 6))
    moves = [first]
    pos = pos.play(first)
    for _ in range(5):
        legal = pos.legal_moves()
        if not legal:
            break
        moves.append(legal[0])
        pos = pos.play(legal[0])
    return moves


GAMES = [(random_game(11), None), (random_game(12), None), (king_game(), KING_FEN)]


@pytest.fixture(scope="module")
def collection(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The PDN file of :data:`GAMES`."""
    path = tmp_path_factory.mktemp("collection") / "games.pdn"
    path.write_text("".join(game_text(m, f, f"G{i}") for i, (m, f) in enumerate(GAMES)),
                    encoding="utf-8")
    return path
