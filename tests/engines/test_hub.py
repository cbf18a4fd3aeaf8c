"""The Hub client against a scripted engine run as a real process: the handshake, a search
read into moves of the rules engine (captures told apart by the pieces they take, whatever
the order Hub lists them in), and every way an engine fails: a missing program, a start that
never reaches ``ready``, a crash, a hang, garbage; none leaves a process behind."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path

import pytest

from pdnkit.engines import EngineError, EngineFault, HubEngine, open_engine
from pdnkit.engines.hubtext import (
    HubSyntaxError,
    format_line,
    hub_move,
    hub_position,
    move_from_hub,
    parse_line,
)
from pdnkit.rules import Position, canonical_notation, get_rules, parse_fen
from tests.engines.helpers import INTERNATIONAL, KING_FEN, alive, fake_engine, pids

START = Position.initial(INTERNATIONAL)


def test_lines_read_and_write_as_the_protocol_says() -> None:
    assert parse_line('param name=book-file value="" type=string') == \
        ("param", {"name": "book-file", "value": "", "type": "string"})
    assert parse_line('error message="no \\"book\\""') == ("error", {"message": 'no "book"'})
    assert parse_line("   ") == ("", {})
    with pytest.raises(HubSyntaxError):
        parse_line('info pv="32-28')
    assert format_line("set-param", name="variant", value="killer draughts") == \
        'set-param name=variant value="killer draughts"'
    assert hub_position(START) == "W" + "b" * 20 + "e" * 10 + "w" * 20


def test_every_capture_is_found_by_the_pieces_it_takes_in_any_order() -> None:
    pos = parse_fen(KING_FEN, INTERNATIONAL)
    legal = pos.legal_moves()
    assert len(pos.legal_moves(all_routes=True)) > len(legal)  # routes to the same pieces
    for m in legal:
        for order in (m.captured, tuple(reversed(m.captured)), tuple(sorted(m.captured))):
            text = "x".join(map(str, (m.origin, m.destination, *order)))
            assert move_from_hub(pos, text) == m
        assert move_from_hub(pos, hub_move(m)) == m
    # two moves 16x6 take other pieces: written short, they are the full path in PDN
    twins = [m for m in legal if (m.origin, m.destination) == (16, 6)]
    assert len(twins) == 2
    assert {canonical_notation(m, pos) for m in twins} == {"16x27x9x20x33x6", "16x43x25x9x22x6"}
    with pytest.raises(HubSyntaxError, match="more than one"):
        move_from_hub(pos, "16x6")
    with pytest.raises(HubSyntaxError, match="no legal move"):
        move_from_hub(pos, "16x6x5")
    with pytest.raises(HubSyntaxError, match="not a Hub move"):
        move_from_hub(pos, "16:6")


def test_a_search_is_read_into_moves_and_the_parameters_are_set(tmp_path: Path) -> None:
    log = tmp_path / "log.txt"
    pos = parse_fen(KING_FEN, INTERNATIONAL)
    target = next(m for m in pos.legal_moves() if m.path == (16, 43, 25, 9, 22, 6))
    reply = pos.play(target).legal_moves()[0]
    script = {"name": "Fake", "version": "2.1", "log": str(log),
              "params": [{"name": "hash", "value": "64", "type": "int"},
                         {"name": "book", "value": "true", "type": "bool"}],
              "positions": {hub_position(pos): {
                  "score": -0.75, "depth": 9, "nodes": 4321,
                  "move": "16x6x11x13x14x39x21",
                  "pv": f"16x6x11x13x14x39x21 {hub_move(reply)}"}}}
    with HubEngine(fake_engine(tmp_path, script), depth=9, params={"book": "false"}) as engine:
        assert engine.info.label == "Fake 2.1"
        assert engine.info.settings == {"depth": 9, "params": {"book": "false"}}
        assert engine.info.variants == ("international",)
        ev = engine.evaluate(pos)
    assert (ev.score, ev.depth, ev.nodes, ev.best, ev.line) == (-0.75, 9, 4321, target,
                                                                (target, reply))
    said = log.read_text().splitlines()
    assert said[:4] == ["hub", "set-param name=book value=false", "init",
                        f"pos pos={hub_position(pos)}"]
    assert "level depth=9" in said and "go analyze" in said and said[-1] == "quit"


def test_an_unknown_parameter_is_refused_with_the_engine_s_own(tmp_path: Path) -> None:
    script = {"params": [{"name": "hash", "value": "64", "type": "int"}]}
    with pytest.raises(EngineError, match="no parameter 'threads'.*its parameters: hash"):
        HubEngine(fake_engine(tmp_path, script), params={"threads": "2"})


def test_a_missing_program_is_one_clear_error() -> None:
    with pytest.raises(EngineError, match="there is no program 'no-such-engine-xyz'"):
        open_engine("no-such-engine-xyz hub")


@pytest.mark.parametrize("mode, said", [("crash", "status 5 \\(fake: cannot load my tables"),
                                        ("hang", "no answer to hub"),
                                        ("silent", "no answer to hub")])
def test_a_start_that_never_reaches_ready_is_an_engine_error(tmp_path: Path, mode: str,
                                                             said: str) -> None:
    pidfile = tmp_path / "pids"
    script = {"handshake": mode, "pidfile": str(pidfile)}
    began = time.monotonic()
    with pytest.raises(EngineError, match=said):
        HubEngine(fake_engine(tmp_path, script), start_timeout=1.0)
    assert time.monotonic() - began < 15
    assert pids(pidfile) and not any(alive(p) for p in pids(pidfile))


def test_a_crash_a_hang_and_garbage_are_faults_and_the_next_position_gets_a_new_engine(
        tmp_path: Path) -> None:
    a, b, c, d = (START.play(m) for m in START.legal_moves()[:4])
    pidfile = tmp_path / "pids"
    script = {"pidfile": str(pidfile), "default": {"score": 0.1, "move": "32-28"},
              "crash_on": [hub_position(a)], "hang_on": [hub_position(b)],
              "garbage_on": [hub_position(c)]}
    engine = HubEngine(fake_engine(tmp_path, script), timeout=1.0)
    try:
        with pytest.raises(EngineFault, match="crashed: the process ended with status 3 "
                                              "\\(fake: segmentation fault"):
            engine.evaluate(a)
        assert engine.pid is None
        began = time.monotonic()
        with pytest.raises(EngineFault, match="hung: no answer to go analyze within 1 s"):
            engine.evaluate(b)
        assert time.monotonic() - began < 10
        with pytest.raises(EngineFault, match="cannot be read"):
            engine.evaluate(c)
        assert engine.evaluate(START).best == move_from_hub(START, "32-28")
        with pytest.raises(EngineFault, match="not a legal move|names no legal move"):
            engine.evaluate(d)  # 32-28 is not legal after d (Black to move)
        assert engine.starts == 4  # the last fault killed the fourth; none runs now
        assert engine.pid is None
    finally:
        engine.close()
    assert len(pids(pidfile)) == 4 and not any(alive(p) for p in pids(pidfile))


def test_an_error_line_and_a_missing_score_are_garbage(tmp_path: Path) -> None:
    script = {"positions": {hub_position(START): {"score": "", "move": "32-28"}}}
    with HubEngine(fake_engine(tmp_path, script)) as engine:
        with pytest.raises(EngineFault, match="no score"):
            engine.evaluate(START)
        with pytest.raises(EngineFault, match="unknown position"):
            engine.evaluate(START.play(START.legal_moves()[0]))


def test_variants_come_from_the_variant_parameter(tmp_path: Path) -> None:
    log = tmp_path / "log.txt"
    script = {"log": str(log), "default": {"score": 0, "move": "32-28"},
              "params": [{"name": "variant", "value": "normal", "type": "enum",
                          "values": "normal killer bt frisian losing"}]}
    with HubEngine(fake_engine(tmp_path, script)) as engine:
        assert engine.info.variants == ("international", "breakthrough", "frisian",
                                        "antidraughts")
        assert not engine.plays(get_rules("russian")) and engine.plays(get_rules("frisian"))
        engine.evaluate(Position.initial(get_rules("frisian")))
        assert engine.starts == 2  # started again for Frisian
    assert "set-param name=variant value=frisian" in log.read_text()
    with HubEngine(fake_engine(tmp_path, {}, "plain.json")) as plain:
        assert plain.info.variants == ("international",)
        assert not plain.plays(get_rules("frisian"))


def test_a_new_game_clears_the_tables_and_waits_for_pong(tmp_path: Path) -> None:
    log = tmp_path / "log.txt"
    script = {"log": str(log), "default": {"score": 0.0, "move": "32-28"}}
    with HubEngine(fake_engine(tmp_path, script)) as engine:
        engine.new_game()
        assert engine.pid is not None
        engine.evaluate(START)
    said = log.read_text().splitlines()
    assert said[said.index("new-game") + 1] == "ping"
    assert said.index("ping") < said.index("go analyze")


def test_a_kill_from_another_thread_ends_a_wait_even_where_a_grandchild_holds_the_pipe(
        tmp_path: Path) -> None:
    # the engine is started by a shell that runs it as its child and stays: killing the
    # shell leaves the engine holding the output pipe, so no end of output comes; the
    # waiting thread must still see the kill and not wait out the position's timeout
    import shlex
    import threading

    from pdnkit.engines.hub import READ_SLICE

    pidfile = tmp_path / "pids"
    script = {"pidfile": str(pidfile), "hang_on": [hub_position(START)]}
    inner = shlex.join(fake_engine(tmp_path, script))
    engine = HubEngine(["sh", "-c", f"{inner}; true"], timeout=60.0)
    try:
        threading.Timer(0.3, engine.kill).start()
        began = time.monotonic()
        with pytest.raises(EngineFault):
            engine.evaluate(START)
        assert time.monotonic() - began < 0.3 + READ_SLICE + 5
    finally:
        engine.close()
        for pid in pids(pidfile):  # the orphaned engine: ended by this test
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
