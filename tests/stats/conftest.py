"""Small hand-made databases whose counts are known (see the table in ``small_db``)."""

from __future__ import annotations

import datetime as dt
import zlib
from collections.abc import Iterable
from typing import Any

import duckdb
import pytest

from pdnkit.pdn.dates import date_span, date_text, year_span
from pdnkit.rows.compact import MOVE_ROWS_SELECT
from pdnkit.store.db import schema_sql


def fake_key(variant: str, moves: Iterable[str]) -> int:
    """Stand-in for the position reached by quiet, non-interfering moves.

    For the openings used here the position after a move sequence depends only on the
    *set* of moves each side played (and on who is to move), which is exactly when two
    move orders transpose; the key hashes that (the games need not be legal).
    """
    mv = list(moves)
    white = sorted(mv[0::2])
    black = sorted(mv[1::2])
    text = f"{variant}|{','.join(white)}|{','.join(black)}|{len(mv) % 2}"
    return zlib.crc32(text.encode())


def game_positions(variant: str, fen: str | None, moves: list[str]
                   ) -> list[tuple[bool, tuple[int, int, int, int]]]:
    """The positions (Black to move, square bitboards) of a game: the start as the rules
    engine sets it up (the variant's initial position, or the FEN), then stand-ins, a
    :func:`fake_key` as white men, so move orders that play the same moves transpose."""
    from pdnkit.rows.bitboards import square_bits
    from pdnkit.rules import Position, get_rules, parse_fen

    prefix = (f"fen:{fen}|" if fen else "") + str(variant)
    try:
        rules = get_rules(variant)
        pos = parse_fen(fen, rules) if fen else Position.initial(rules)
        out = [(str(pos.side) == "B", square_bits(pos))]
    except ValueError:  # a variant the engine does not know
        out = [(False, (fake_key(prefix, []), 0, 0, 0))]
    for i in range(1, len(moves) + 1):
        out.append((bool(i % 2) != out[0][0], (fake_key(prefix, moves[:i]), 0, 0, 0)))
    return out


class Builder:
    """Insert files, games, moves, positions, findings and rule events by hand."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con
        self.next_game = 1
        self.next_file = 1
        self.files: dict[str, int] = {}

    def file(self, path: str, games: int = 0) -> int:
        if path not in self.files:
            fid = self.next_file
            self.next_file += 1
            self.con.execute(
                "INSERT INTO files VALUES (?, ?, ?, 0, 'utf-8', ?, now())",
                [fid, path, f"sha{fid}", games],
            )
            self.files[path] = fid
        return self.files[path]

    def game(
        self,
        path: str,
        moves: list[str],
        *,
        variant: str = "international",
        white: str = "?",
        black: str = "?",
        result: str | None = "*",
        event: str | None = None,
        date: str | None = None,
        year: int | None = None,
        fen: str | None = None,
        status: str = "ok",
        outcome: str | None = None,
        draw_basis: str | None = None,
        captures: dict[int, list[int]] | None = None,
        plies: int | None = None,
    ) -> int:
        """Insert a game; ``plies`` sets the recorded length without inserting moves."""
        fid = self.file(path)
        self.con.execute("UPDATE files SET games = games + 1 WHERE file_id = ?", [fid])
        gid = self.next_game
        self.next_game += 1
        idx = self.con.execute(
            "SELECT count(*) FROM games WHERE file_id = ?", [fid]
        ).fetchone()[0]
        if outcome is None:
            outcome = {"1-0": "white", "0-1": "black", "1/2-1/2": "draw"}.get(result or "",
                                                                             "unknown")
        d = dt.date.fromisoformat(date) if date else None
        if d is not None and year is None:
            year = d.year
        raw = date or (str(year) if year else None)
        span = date_span(raw) or (year_span(year) if year else None)  # as an import reads it
        self.con.execute(
            """INSERT INTO games (game_id, file_id, game_index, line, variant, fen, event, date,
                   date_raw, year, date_first, date_last, date_precision, date_text, white,
                   black, result, result_raw, plies, replayed_plies, status, outcome,
                   draw_basis)
               VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            [gid, fid, idx, variant, fen, event, d, raw, year,
             span.first if span else None, span.last if span else None,
             span.precision if span else None, date_text(span, raw), white, black, result,
             result, plies if plies is not None else len(moves),
             plies if plies is not None else len(moves), status, outcome, draw_basis],
        )
        captures = captures or {}
        positions = game_positions(variant, fen, moves)
        self._position(gid, 0, variant, *positions[0])
        for i, mv in enumerate(moves, 1):
            sep = "x" if "x" in mv else "-"
            a, b = (int(s) if s.isdigit() else None for s in mv.split(sep))
            cap = captures.get(i, [])
            self.con.execute(
                f"""INSERT INTO move_rows BY NAME SELECT {MOVE_ROWS_SELECT} FROM (
                       SELECT ?::BIGINT AS game_id, ?::INTEGER AS ply,
                       ?::INTEGER AS move_number, ? AS side, ? AS notation, ? AS canonical,
                       ?::INTEGER AS origin, ?::INTEGER AS destination, ?::INTEGER[] AS path,
                       ?::INTEGER[] AS captured, false AS promotes, 'man' AS piece,
                       NULL::INTEGER[] AS nags, NULL AS comment, true AS replayed,
                       NULL::INTEGER AS line)""",
                [gid, i, (i + 1) // 2, "W" if i % 2 else "B", mv, mv, a, b, [a, b], cap],
            )
            self._position(gid, i, variant, *positions[i])
        return gid

    def _position(self, gid: int, ply: int, variant: str, black: bool,
                  bits: tuple[int, int, int, int]) -> None:
        """The position at ``ply`` as an import stores it."""
        from pdnkit.rows.bitboards import board_layout, layout_ids
        from pdnkit.rules import get_rules

        try:
            rules = get_rules(variant)
        except ValueError:  # a variant the engine does not know: any board
            rules = get_rules("international")
        (lay,) = layout_ids(self.con, [board_layout(rules)])
        self.con.execute(
            "INSERT INTO position_bits (game_id, ply, layout, black, wm, wk, bm, bk) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [gid, ply, lay, black, *bits])

    def finding(self, gid: int | None, code: str, severity: str, path: str | None = None,
                ply: int | None = None) -> None:
        if gid is None:
            fid = self.files[path or ""]
            idx = None
        else:
            fid, idx = self.con.execute(
                "SELECT file_id, game_index FROM games WHERE game_id = ?", [gid]
            ).fetchone()
        self.con.execute(
            "INSERT INTO findings (game_id, file_id, game_index, code, severity, message, ply) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [gid, fid, idx, code, severity, code, ply],
        )

    def rule_event(self, gid: int, rule: str, article: str, automatic: bool, start_ply: int,
                   limit_plies: int, reached_ply: int | None, end_ply: int) -> None:
        self.con.execute(
            "INSERT INTO rule_events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [gid, rule, article, automatic, start_ply, limit_plies, start_ply + limit_plies,
             reached_ply, end_ply],
        )


def memory_db() -> duckdb.DuckDBPyConnection:
    """An empty in-memory database with the pdnkit schema (the tables only)."""
    con = duckdb.connect(":memory:")
    con.execute(schema_sql())
    return con


@pytest.fixture
def builder() -> Builder:
    return Builder(memory_db())


def build_small(b: Builder) -> dict[str, Any]:
    """Six games with counts checked by hand in the tests.

    | id | file | variant | white-black | result | event | date | moves |
    |----|------|---------|-------------|--------|-------|------|-------|
    | 1 | a.pdn | intl | Alice-Bob | 1-0 | Cup | 2020-05-01 | 32-28 19-23 37-32 18-22 |
    | 2 | a.pdn | intl | Bob-Alice | 0-1 | Cup | 2020-05-02 | 37-32 19-23 32-28 17-21 |
    | 3 | b.pdn | intl | Alice-Carol | draw | Open | 2021-03-01 | 32-28 19-23 28x19 14x23 |
    | 4 | b.pdn | intl | Carol-Bob | 1-0 | Open | 2021 | 32-28 19-23 37-32 16-21 33-29 |
    | 5 | b.pdn | intl, FEN | Alice-Bob | 1-0 | Open | 2021 | 28-23 19x28 |
    | 6 | c.pdn | russian | Ivanov-Petrov | * | Championship | 2019 | c3-d4 f6-e5 |

    Games 1, 2 and 4 transpose after three plies. Findings: game 2 notation-mismatch
    (warning); game 4 illegal-move (error) and notation-mismatch; b.pdn encoding-fallback
    (file level).
    """
    ids = {}
    ids[1] = b.game("a.pdn", ["32-28", "19-23", "37-32", "18-22"], white="Alice", black="Bob",
                    result="1-0", event="Cup", date="2020-05-01")
    ids[2] = b.game("a.pdn", ["37-32", "19-23", "32-28", "17-21"], white="Bob", black="Alice",
                    result="0-1", event="Cup", date="2020-05-02", status="warning")
    ids[3] = b.game("b.pdn", ["32-28", "19-23", "28x19", "14x23"], white="Alice",
                    black="Carol", result="1/2-1/2", event="Open", date="2021-03-01",
                    captures={3: [23], 4: [19]})
    ids[4] = b.game("b.pdn", ["32-28", "19-23", "37-32", "16-21", "33-29"], white="Carol",
                    black="Bob", result="1-0", event="Open", year=2021, status="error")
    ids[5] = b.game("b.pdn", ["28-23", "19x28"], white="Alice", black="Bob", result="1-0",
                    event="Open", year=2021, fen="W:W28,40:B19", captures={2: [23]})
    ids[6] = b.game("c.pdn", ["c3-d4", "f6-e5"], variant="russian", white="Ivanov",
                    black="Petrov", result="*", event="Championship", year=2019)
    b.finding(ids[2], "notation-mismatch", "warning", ply=3)
    b.finding(ids[4], "illegal-move", "error", ply=5)
    b.finding(ids[4], "notation-mismatch", "warning", ply=1)
    b.finding(None, "encoding-fallback", "warning", path="b.pdn")
    return ids


@pytest.fixture
def small_db(builder: Builder) -> duckdb.DuckDBPyConnection:
    build_small(builder)
    return builder.con
