"""Stand-ins shaped like the validator's ``GameReport`` (docs/architecture.md section 4), so
the loader can be tested on its own (:func:`fake_file_reports` replaces the pipeline's serial
stream: ``monkeypatch.setattr(flow, "serial_reports", fake_file_reports)``). Fake files hold one game per line:
``White|Black|Event|Date|move move ...|status`` and the fake validator turns each line into a
report with those values."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from pdnkit.findings import make_finding


def fake_report(index: int, white: str, black: str, event: str, date: str, moves: list[str],
                status: str = "ok", file: str | None = None) -> Any:
    tags = [("Event", event), ("Date", date), ("White", white), ("Black", black),
            ("WhiteRating", "2301"), ("Result", "2-0"), ("GameType", "20")]
    raw = "".join(f'[{k} "{v}"]\n' for k, v in tags) + " ".join(moves) + " 2-0\n"
    record = SimpleNamespace(tags=tags, raw=raw, encoding="utf-8", file=file, index=index)
    plies = []
    for i, m in enumerate(moves, start=1):
        a, b = (int(x) for x in m.replace("x", "-").split("-"))
        capture = "x" in m
        plies.append(SimpleNamespace(
            ply=i, move_number=(i + 1) // 2, side="W" if i % 2 else "B", written=m,
            notation=m, origin=a, destination=b, path=(a, b),
            captured=(((a + b) // 2),) if capture else (), promotes=False, piece="man",
            nags=[1] if i == 1 else [], comment="c" if i == 2 else None, line=2,
            replayed=True, fen_after=("B" if i % 2 else "W") + f":W{a}:B{b}",
            key_after=-(i * 1_000_003) if i % 3 else i,
            counts_after={"white_men": 20, "white_kings": 0, "black_men": 20 - i,
                          "black_kings": 0}, position_before=None, position_after=None))
    findings = []
    if status != "ok":
        findings.append(make_finding("illegal-move", "bad", file=file, game_index=index,
                                     line=2, ply=1, move=moves[0] if moves else None,
                                     details={"candidates": ["a", "b"]}))
    events = [SimpleNamespace(rule="fmjd-6.2", article="FMJD 6.2", automatic=True,
                              start_ply=0, limit_plies=50, deadline_ply=50, reached_ply=None,
                              end_ply=len(moves))]
    return SimpleNamespace(
        record=record, file=file, index=index, line=1 + index * 9, variant="international",
        gametype=20, edition=None, start_fen=None, plies=plies, replayed_plies=len(plies),
        findings=findings, status=status, result="2-0", result_raw="2-0", outcome="white",
        draw_basis=None, final_fen="W:W1:B2", rule_events=events, plain=None, file_level=False)


def fake_file_reports(path: Path, options: Any = None, guess: Any = None) -> Any:
    """Stands in for the pipeline's serial stream (``pdnkit.validation.flow.serial_reports``,
    which the store's import reads a file through)."""
    for i, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines()):
        if not line.strip():
            continue
        white, black, event, date, moves, status = line.split("|")
        yield fake_report(i, white, black, event, date, moves.split(), status, str(path))


def write_fake(path: Path, games: list[str]) -> Path:
    path.write_text("\n".join(games) + "\n", encoding="utf-8")
    return path
