"""The validator's stages used one by one, and the former module names gone."""

from __future__ import annotations

import importlib

import pytest

from pdnkit.pdn import parse_game
from pdnkit.rules import Position, get_rules
from pdnkit.validation.game import replay_game
from pdnkit.validation.match import match_move, merge_split_capture, settle_ambiguity
from pdnkit.validation.report import Findings
from pdnkit.validation.resolve import resolve_rules
from pdnkit.validation.start import game_start


def test_a_game_without_rules_is_given_up_with_its_plies_and_result_as_written() -> None:
    rec = parse_game('[Result "1-0"]\n1. 32-28 19-23 1-0')
    rep = replay_game(rec, None)
    assert rep.replayed_plies == 0 and [p.written for p in rep.plies] == ["32-28", "19-23"]
    assert not any(p.replayed for p in rep.plies)
    assert rep.result == "1-0" and rep.outcome == "white" and rep.final_fen is None


def test_a_fen_without_pieces_stops_at_the_start_stage() -> None:
    rules = get_rules("international")
    rec = parse_game('[FEN "W:W:B"]\n1. 32-28 *')
    found = Findings(rec)
    assert game_start(rec, rec.moves, rules, found) is None
    assert [f.code for f in found.items] == ["bad-fen"]
    rep = replay_game(rec, rules)
    assert rep.status == "error" and rep.replayed_plies == 0 and len(rep.plies) == 1


def test_resolution_prefers_the_tag_and_says_so() -> None:
    res = resolve_rules(parse_game('[GameType "25"] 1. c3-d4 *'), "international")
    assert res.rules is not None and res.rules.name == "russian"
    assert res.source == "gametype" and [f.code for f in res.findings] == ["variant-conflict"]


def test_a_capture_written_one_jump_per_ply_is_read_as_one_move() -> None:
    rules = get_rules("international")
    pos = Position.from_squares(rules, "W", white_men=[32], black_men=[27, 17])
    whole = match_move(pos, [32, 21, 12])
    assert whole.ok and whole.move is not None and len(whole.move.captured) == 2
    rec = parse_game("1. 32x21 21x12 *")
    assert merge_split_capture(pos, [32, 21], rec.moves, 0, rules) == (whole.move, 1)
    assert merge_split_capture(pos, [32, 21], rec.moves[:1], 0, rules) is None


def test_an_ambiguous_move_is_settled_by_the_moves_that_follow() -> None:
    rules = get_rules("international")
    pos = Position.initial(rules)
    a, b = (match_move(pos, sq).move for sq in ([32, 28], [32, 27]))
    assert a is not None and b is not None
    rest = parse_game("1. 32-28 19-23 2. 28x19 *").moves[1:]
    assert settle_ambiguity(pos, [b, a], rest, rules) == (a, True)
    # when no reading lets every move replay, the one that gets furthest, not settled
    stuck = parse_game("1. 32-28 19-23 2. 28x19 44-40 *").moves[1:]
    assert settle_ambiguity(pos, [b, a], stuck, rules) == (a, False)


def test_the_former_module_names_are_gone_and_the_package_names_stay() -> None:
    """``pdnkit.replay`` and ``pdnkit._replay_jobs`` only re-exported the validator (the
    database loader drove its workers through their private names); both are gone, and
    what they named lives in :mod:`pdnkit.validation` and at the top of ``pdnkit``."""
    for gone in ("pdnkit._replay_jobs", "pdnkit.replay"):
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module(gone)
    new = importlib.import_module("pdnkit.validation")
    for name in ("validate", "replay", "GameReport", "PlyRecord", "iter_sources",
                 "internal_error", "run", "RunOptions"):
        assert name in new.__all__ and getattr(new, name) is not None
    jobs = importlib.import_module("pdnkit.validation.jobs")
    for name in ("run_batches", "parallel_rows", "file_parts"):
        assert callable(getattr(jobs, name))
    costs = importlib.import_module("pdnkit.validation.costs")
    for name in ("worth_workers", "workers_pay", "default_jobs", "cpu_idle"):
        assert callable(getattr(costs, name))
    import pdnkit

    assert pdnkit.validate is new.validate and pdnkit.GameReport is new.GameReport
    assert pdnkit.replay is new.replay
