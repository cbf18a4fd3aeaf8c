"""The fast lane's expression is derived from the grammar through Lark once and kept in a
cache file named after the grammar text's hash; a run whose games all take the fast lane then
never loads Lark. A missing, corrupt or unwritable cache only costs the derivation."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pdnkit.pdn import fast, lalr, read_games


@pytest.fixture()
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("PDNKIT_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(fast, "_FAST", [])
    return tmp_path


def _derived() -> str | None:
    return fast.fast_pattern(lalr.parser())


def test_the_cache_holds_the_expression_derived_from_the_grammar(fresh: Path) -> None:
    rx = fast.fast_regex()
    files = list(fresh.glob("fast-lane-*.json"))
    assert len(files) == 1
    assert json.loads(files[0].read_text())["pattern"] == _derived() == rx.pattern


def test_a_warm_cache_needs_no_parser(fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fast.fast_regex()
    monkeypatch.setattr(fast, "_FAST", [])

    def no_lark(*a: object, **k: object) -> None:
        raise AssertionError("the Lark parser was built")

    monkeypatch.setattr(lalr, "parser", no_lark)
    rec = next(read_games('[Event "x"]\n1. 32-28 19-23 2. 28x19 14x23 2-0\n'))
    assert [m.text for m in rec.moves] == ["32-28", "19-23", "28x19", "14x23"]


def test_a_corrupt_cache_is_derived_again(fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = fast.cache_file()
    assert path is not None and path.parent == fresh
    path.write_text('{"format": 1, "pattern": "(unclosed"}')
    assert fast.fast_regex().pattern == _derived()
    monkeypatch.setattr(fast, "_FAST", [])
    path.write_text("not json")
    assert fast.fast_regex().pattern == _derived()
    assert json.loads(path.read_text())["pattern"] == _derived()


def test_an_empty_cache_dir_setting_means_no_cache(fresh: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PDNKIT_CACHE_DIR", "")
    assert fast.cache_file() is None
    assert fast.fast_regex().pattern == _derived()
    assert not list(fresh.iterdir())


def test_an_edited_grammar_gets_another_cache_file(fresh: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from pdnkit.pdn import grammar

    first = fast.cache_file()
    monkeypatch.setattr(grammar, "grammar_text", lambda: "// edited\n")
    assert fast.cache_file() != first


def test_a_fast_lane_run_never_imports_lark(tmp_path: Path) -> None:
    pdn = tmp_path / "g.pdn"
    pdn.write_text('[Event "x"]\n[GameType "20"]\n\n1. 32-28 19-23 2. 28x19 14x23 2-0\n')
    code = ("import sys\nfrom pdnkit.validation import validate\n"
            f"reps = list(validate([{str(pdn)!r}]))\n"
            "print(reps[0].status, reps[0].replayed_plies, 'lark' in sys.modules)\n")
    # the Python reader (PDNKIT_PURE=1: no compiled lane): the first run derives the fast
    # lane's expression, the next one reads it from the cache
    env = {**os.environ, "PDNKIT_CACHE_DIR": str(tmp_path / "cache"), "PDNKIT_PURE": "1"}
    outs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env=env, timeout=120) for _ in range(2)]
    assert all(o.returncode == 0 for o in outs), outs[0].stderr
    assert outs[0].stdout.split() == ["ok", "4", "True"]  # the first run derives it
    assert outs[1].stdout.split() == ["ok", "4", "False"]
    # the compiled lane reads the game without the expression, even with no cache yet
    import pdnkit.core

    if pdnkit.core.core_in_use() == "compiled":
        env = {**os.environ, "PDNKIT_CACHE_DIR": str(tmp_path / "cache2")}
        env.pop("PDNKIT_PURE", None)
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env=env, timeout=120)
        assert out.stdout.split() == ["ok", "4", "False"], out.stderr
