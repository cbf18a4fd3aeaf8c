"""Real collections: the benchmark file replays to its known final positions, every real file
validates, and each error finding on a real game is one checked by hand (pinned below)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from pdnkit.validation import validate
from tests.shared import shared_path


def test_intl_2000_replays_to_the_published_final_positions() -> None:
    pdn = shared_path("bench", "intl_2000.pdn")
    finals = json.loads(shared_path("bench", "intl_2000.final.json").read_text())
    reports = list(validate(pdn))
    assert len(reports) == len(finals) == 2000
    to_white_first = {"2-0": "1-0", "0-2": "0-1", "1-1": "1/2-1/2"}
    for rep, exp in zip(reports, finals, strict=True):
        assert not rep.errors(), (rep.index, [str(f) for f in rep.errors()])
        assert rep.replayed_plies == exp["plies"]
        pos = rep.final_position
        got = {"turn": str(pos.side), "wm": sorted(pos.white_men), "wk": sorted(pos.white_kings),
               "bm": sorted(pos.black_men), "bk": sorted(pos.black_kings)}
        assert got == exp["final"], rep.index
        assert rep.result == to_white_first.get(exp["result"], exp["result"])
    assert sum(r.replayed_plies for r in reports) == 184_008  # SOURCES.md


#: every error finding the real collections produce, each checked by hand:
#: (file, game index, code, ply)
GENUINE_ERRORS = {
    # problem FENs with a man on its own crowning row, an impossible position (White men
    # crown on 1-4, Black men on 29-32): Beginner's Problem #10 'W:W18,K15,1:...' (white man
    # on 1), Gould's Problems #88 (white man on 3), LPC Problems #36 (black men on 30, 32),
    # #63 (black men on 32 and 28-21: the colours look swapped), #65 (black man on 31) and
    # #73 (white man on 4)
    ("english/beginner.pdn", 9, "bad-fen", None),
    ("english/goulds.pdn", 92, "bad-fen", None),
    ("english/lpc.pdn", 35, "bad-fen", None),
    ("english/lpc.pdn", 62, "bad-fen", None),
    ("english/lpc.pdn", 64, "bad-fen", None),
    ("english/lpc.pdn", 72, "bad-fen", None),
    # Boland's Bridges #14 has the FEN 'W::.': an empty board
    ("english/bridges.pdn", 13, "bad-fen", None),
    # PlayOK game: after 68. 5x46 (ply 135) only kings move; the position
    # 'B:W15,K19,26:B4,9,K16' stands after plies 141 (71. 2-19), 153 (77. 46-19) and 157
    # (79. 5-19): the third occurrence, a draw under FMJD 6.1, but the game went on to ply 165
    ("international/kurnik.pdn", 2, "draw-rule-ignored", 157),
}


def _real_files() -> list:
    root = shared_path("real")
    return sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in (".pdn", ".txt"))


def test_real_collections_errors_are_the_hand_checked_ones() -> None:
    root = shared_path("real")
    seen = set()
    games = 0
    for path in _real_files():
        for rep in validate(path):
            games += 1
            for f in rep.errors():
                if f.code == "unknown-variant":  # lidraughts Breakthrough (GameType 96)
                    assert rep.record.tag("GameType") == "96"
                    continue
                seen.add((path.relative_to(root).as_posix(), rep.index, f.code, f.ply))
    assert games > 5000
    assert seen == GENUINE_ERRORS


def test_lidraughts_scrambled_result_tags_follow_the_board() -> None:
    # random_pdns.derived.pdn game 1: [Result "1-1"] but the movetext ends 33. h2xe5 2-0 and
    # Black has no piece left: the terminator is right, the tag is reported.
    rep = next(validate(shared_path("real", "russian", "random_pdns.derived.pdn")))
    assert rep.result == "1-0" and rep.result_raw == "2-0"
    assert [f.code for f in rep.findings if f.severity.rank >= 1] == ["result-tag-mismatch"]


def test_lidraughts_repetition_draw() -> None:
    # game 3: 41. h8-a1 a5-b4 ... 45. h8-a1 a5-b4: the same position for the third time at
    # ply 90, lidraughts' automatic draw (Russian 7.2.3); the terminator says 1-1.
    reps = list(validate(shared_path("real", "russian", "random_pdns.derived.pdn")))
    rep = reps[2]
    assert rep.draw_basis == "russian-7.2.3" and rep.replayed_plies == 90
    assert [f.ply for f in rep.findings if f.code == "draw-by-rule"] == [90]


def test_playstrategy_english_exports_replay_with_warnings() -> None:
    # PlayStrategy writes American/English games from the first mover's side (Black, P1, at
    # the bottom: 1. c3-d4) and each jump of a multi-jump as its own ply: every game is read
    # turned round (Black first, as its move numbers say), never with an error
    reps = list(validate(shared_path("real", "english", "random_pdns.derived.pdn")))
    assert len(reps) == 30
    assert all(r.status in ("ok", "warning") and r.replayed_plies == r.ply_count
               for r in reps)
    assert all(r.plies[0].side == "B" and r.black == r.record.tag("P1") for r in reps)
    assert all(r.finding_codes().count("board-turned") == 1 for r in reps)
    c = Counter(f.code for r in reps for f in r.findings if f.severity.rank >= 1)
    assert set(c) == {"notation-mismatch"}


@pytest.mark.parametrize(("name", "variant"), [
    ("russian/abatsiev.pdn", "russian"), ("russian/abatsiev.cp1251.pdn", "russian"),
    ("international/delfts.pdn", "international"), ("czech/mrdrcd08.pdn", "czech"),
])
def test_files_a_strict_reader_rejects_still_validate(name: str, variant: str) -> None:
    reps = list(validate(shared_path("real", *name.split("/"))))
    assert reps and not any(r.errors() for r in reps)
    assert Counter(r.variant for r in reps).most_common(1)[0][0] == variant
