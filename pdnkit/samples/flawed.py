"""The deliberately flawed sample collection: one small game per finding code.

Each game's ``Event`` tag is ``flawed: <code>`` and names the finding the game shows. Games
whose flaw needs a position (a missed maximum capture, an Italian capture-priority breach, an
ambiguous capture, a game over before its last move, an ignored draw rule) are built with the
rules engine and checked with it, so each flaw is what its name says. Syntax flaws are written
by hand (no writer produces them).

Example:
    >>> sorted(FLAW_CODES)[:3]
    ['ambiguous-move', 'bad-date', 'bad-fen']
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pdnkit.rules.variants import Rules

#: codes the flawed collection has a game for (``variant-conflict`` needs ``--variant`` and
#: ``irregular-accepted`` the as-played mode, so no game shows them)
FLAW_CODES = (
    "syntax-error", "unreadable-text", "strict-violation", "unknown-tag-syntax", "unknown-variant",
    "variant-guessed", "bad-fen", "bad-date", "illegal-move", "missed-capture",
    "not-max-capture", "capture-priority", "ambiguous-move", "move-after-end",
    "notation-mismatch", "move-number-mismatch", "unknown-move", "result-mismatch",
    "result-tag-mismatch", "unknown-result", "result-convention", "draw-rule-ignored", "draw-by-rule",
    "draw-unsupported", "encoding-fallback", "empty-game",
)


def _tags(code: str, gametype: str | None = "20", result: str | None = None,
          fen: str | None = None, extra: tuple[tuple[str, str], ...] = ()) -> str:
    tags = [("Event", f"flawed: {code}"), ("Site", "pdnkit"), ("Date", "2024.06.01"),
            ("White", "Flaw, White"), ("Black", "Flaw, Black"), *extra]
    if result is not None:
        tags.append(("Result", result))
    if gametype is not None:
        tags.append(("GameType", gametype))
    if fen is not None:
        tags.append(("FEN", fen))
    return "".join(f'[{k} "{v}"]\n' for k, v in tags)


def _sq(rules: Any, f: int, r: int) -> int:
    n = rules.geometry.coords_to_square(f, r)
    if n is None:
        raise AssertionError(f"({f}, {r}) is not a playing square of {rules.name}")
    return int(n)


def _name(rules: Rules, n: int) -> str:
    from pdnkit.rules.notation import square_name

    return square_name(rules, n)


def _movetext(rules: Any, moves: list[str], start_side: int) -> str:
    """Move texts with numbers (``N...`` when the second mover starts)."""
    first = int(rules.first_mover)
    side, number, out = start_side, 1, []
    for i, m in enumerate(moves):
        if side == first:
            out.append(f"{number}. {m}")
        elif i == 0:
            out.append(f"{number}... {m}")
        else:
            out.append(m)
        if side != first:
            number += 1
        side = 1 - side
    return " ".join(out)


def _not_max_capture() -> str:
    """International: one white man can take one piece, another can take two; the record
    takes one."""
    from pdnkit.rules import Position, get_rules, write_fen

    rules = get_rules("international")
    double_man = _sq(rules, 0, 0)
    single_man = _sq(rules, 6, 0)
    black = [_sq(rules, 1, 1), _sq(rules, 3, 3), _sq(rules, 7, 1), _sq(rules, 9, 9)]
    pos = Position.from_squares(rules, "W", white_men=(double_man, single_man),
                                black_men=tuple(black))
    legal = pos.legal_moves()
    assert legal and all(len(m.captured) == 2 for m in legal), legal
    written = f"{_name(rules, single_man)}x{_name(rules, _sq(rules, 8, 2))}"
    return _tags("not-max-capture", "20", "*", write_fen(pos)) + f"1. {written} *\n"


def _capture_priority() -> str:
    """Italian: a man and a king can each take one man; the king must take (FID rules), the
    record takes with the man."""
    from pdnkit.rules import Position, get_rules, write_fen

    rules = get_rules("italian")
    man, king = _sq(rules, 1, 0), _sq(rules, 5, 0)
    black = [_sq(rules, 2, 1), _sq(rules, 6, 1), _sq(rules, 0, 7)]
    pos = Position.from_squares(rules, "W", white_men=(man,), white_kings=(king,),
                                black_men=tuple(black))
    legal = pos.legal_moves()
    assert legal and all(m.origin == king for m in legal), legal
    written = f"{_name(rules, man)}x{_name(rules, _sq(rules, 3, 2))}"
    return _tags("capture-priority", "22", "*", write_fen(pos)) + f"1. {written} *\n"


def _last_capture(variant: str) -> tuple[Any, Any, str]:
    """A position where White to move takes Black's last piece: (rules, position, move)."""
    from pdnkit.rules import Position, get_rules, square_name

    rules = get_rules(variant)
    n = rules.geometry.num_squares
    for w in range(n // 2, n + 1):
        for b in range(1, n + 1):
            if b == w:
                continue
            try:
                pos = Position.from_squares(rules, "W", white_men=(w,), black_men=(b,))
            except Exception:
                continue
            legal = pos.legal_moves()
            if len(legal) == 1 and legal[0].captured:
                m = legal[0]
                sep = rules.capture_separator
                text = f"{square_name(rules, m.origin)}{sep}{square_name(rules, m.destination)}"
                return rules, pos, text
    raise AssertionError(f"no last-capture position found for {variant}")


def _shuffle(rules: Any, pos: Any, plies: int) -> tuple[list[str], list[Any]]:
    """Kings moving back and forth (no capture possible); returns texts and moves."""
    from pdnkit.rules import format_move

    texts: list[str] = []
    moves: list[Any] = []
    last: dict[int, tuple[int, int]] = {}
    for _ in range(plies):
        legal = pos.legal_moves()
        assert legal and not any(m.captured for m in legal), "shuffle position allows a capture"
        side = int(pos.side)
        safe = [m for m in legal if not pos.play(m).has_capture()]
        assert safe, "no quiet move keeps the kings out of reach"
        back = [m for m in safe if last.get(side) == (m.destination, m.origin)]
        move = back[0] if back else sorted(safe, key=lambda m: (m.origin, m.destination))[0]
        last[side] = (move.origin, move.destination)
        texts.append(format_move(move, rules))
        moves.append(move)
        pos = pos.play(move)
    return texts, moves


def _draw_games() -> list[str]:
    """International kings endgame: two white kings against one black king (FMJD 6.4: drawn
    after 5 moves each) plus repetitions. One record scores it 2-0 after the draw (ignored),
    one scores 1-1 where the rule is reached (backed by the rule)."""
    from pdnkit.rules import Position, get_rules, write_fen
    from pdnkit.rules.draw import DrawTracker

    rules = get_rules("international")
    start = Position.from_squares(rules, "W", white_kings=(_sq(rules, 0, 0), _sq(rules, 2, 0)),
                                  black_kings=(_sq(rules, 7, 9),))
    texts, moves = _shuffle(rules, start, 24)
    tracker = DrawTracker(rules, start)
    pos, reached_at = start, None
    for ply, m in enumerate(moves, 1):
        pos = pos.play(m)
        if any(e.automatic for e in tracker.push(ply, m, pos)) and reached_at is None:
            reached_at = ply
    assert reached_at is not None and reached_at < len(moves)
    fen = write_fen(start)
    ignored = (_tags("draw-rule-ignored", "20", "2-0", fen)
               + _movetext(rules, texts, 0) + " 2-0\n")
    backed = (_tags("draw-by-rule", "20", "1-1", fen)
              + _movetext(rules, texts[:reached_at], 0) + " 1-1\n")
    return [ignored, backed]


def _result_convention() -> str:
    """English: White takes Black's last piece and the record writes ``1-0`` in the chess
    sense (White first), where PDN 2.0 English files put the first mover (Black) first."""
    from pdnkit.rules import write_fen

    rules, pos, capture = _last_capture("english")
    return (_tags("result-convention", "21", "1-0", write_fen(pos))
            + f"{_movetext(rules, [capture], int(pos.side))} 1-0\n")


def flawed_games() -> list[str]:
    """The PDN text of every flawed game (UTF-8 collection)."""
    from pdnkit.rules import write_fen

    rules, pos, capture = _last_capture("international")
    after_end = _tags("move-after-end", "20", "2-0", write_fen(pos)) + f"1. {capture} 16-11 2-0\n"
    wrong_result = _tags("result-mismatch", "20", "0-2", write_fen(pos)) + f"1. {capture} 0-2\n"
    games = [
        _tags("syntax-error", "20", "*") + "1) 32+28 19+23 2) 28+19 14+23 *\n",
        _tags("unreadable-text", "20", "*") + "1. 32-28 19-23 2. 28x19 14x23 ) 3. 37-32 *\n",
        _tags("strict-violation", "20", "*")
        + "1. 32-28 {a comment {nested inside} a comment} 19-23 *\n",
        _tags("unknown-tag-syntax", "20", "*").replace('[Site "pdnkit"]', "[Site pdnkit]")
        + "1. 32-28 19-23 *\n",
        _tags("unknown-variant", "77", "*") + "1. 32-28 19-23 *\n",
        _tags("variant-guessed", None, "*") + "1. 33-28 18-23 2. 39-33 12-18 *\n",
        _tags("bad-fen", "20", "*", "W:W31-50,51:B1-20") + "1. 32-28 19-23 *\n",
        _tags("bad-date", "20", "*").replace('"2024.06.01"', '"17 april 2009"')
        + "1. 32-28 19-23 *\n",
        _tags("illegal-move", "20", "*") + "1. 32-28 19-23 2. 37-26 *\n",
        _tags("missed-capture", "20", "*") + "1. 32-28 19-23 2. 33-29 *\n",
        _not_max_capture(),
        _capture_priority(),
        _tags("ambiguous-move", "20", "*", "W:WK47:B14,19,29,31,42") + "1. 47x36 *\n",
        after_end,
        _tags("notation-mismatch", "20", "*") + "1. 32x28 19-23 *\n",
        _tags("move-number-mismatch", "20", "*") + "1. 31-27 20-24 3. 36-31 *\n",
        _tags("unknown-move", "20", "*") + "1. 32-28 19-23 2. - - *\n",
        wrong_result,
        _tags("result-tag-mismatch", "20", "2-0") + "1. 32-28 19-23 0-2\n",
        _tags("unknown-result", "20", "4-6") + "1. 31-27 20-24 2. 36-31\n",
        _result_convention(),
        *_draw_games(),
        _tags("draw-unsupported", "20", "1-1") + "1. 32-28 19-23 2. 28x19 14x23 1-1\n",
    ]
    return games


def write_flawed(out: Path) -> list[Path]:
    """Write ``flawed.pdn`` (UTF-8) and ``flawed-cp1252.pdn`` (a legacy encoding) into
    ``out``; returns the paths."""
    out.mkdir(parents=True, exist_ok=True)
    text = "\n".join(flawed_games())
    # stray text after the last game (not a game): the reader reports it
    text += "\nThis line is a note, not a game.\n"
    main = out / "flawed.pdn"
    main.write_text(text, encoding="utf-8", newline="\n")
    legacy = out / "flawed-cp1252.pdn"
    legacy.write_bytes((_tags("encoding-fallback", "20", "2-0").replace(
        "Flaw, White", "Müller, Frédéric") + "1. 32-28 19-23 2. 28x19 14x23 2-0\n"
    ).encode("cp1252"))
    return [main, legacy]
