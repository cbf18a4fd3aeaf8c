"""How fast the hot commands start: whole processes of ``pdnkit`` on a tiny input, each as a
ratio to ``python3 -c pass`` (the interpreter's own start), side by side in one run.

Usage::

    .venv/bin/python benchmarks/start.py                  # 21 rounds
    .venv/bin/python benchmarks/start.py --rounds 41 --games 10
    .venv/bin/python benchmarks/start.py --base main    # and the same lines on main

Every round runs each command line once, in turn, so a machine that drifts affects all alike;
the figures are the medians over the rounds of CPU time (user + system of the process, the
figure to trust on a shared machine) and wall time, and each as a multiple of ``python -c
pass`` run by the same interpreter. The 10-game file is the first games of
``../shared/data/bench/intl_2000.pdn`` (else games ``benchmarks/randomgames.py`` writes); the
database is that file imported. Three floors run beside them: the standard library modules
validate's path imports, and ``pdnkit.validation`` imported without reading a game. Standard
output and error are pipes (never a terminal), as
in a script. With ``--base REV`` the same command lines also run on that commit (its sources
taken out of git into ``benchmarks/out/start-base``, the compiled core copied beside them) as
``python -m pdnkit``, interleaved with this tree's. The load average is printed before and
after.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: where the processes run: never this tree (``python -c`` and ``-m`` put the working folder
#: before ``PYTHONPATH``, so ``--base`` would run this tree's sources again)
CWD = tempfile.gettempdir()
BENCH = ROOT.parent / "shared" / "data" / "bench" / "intl_2000.pdn"


def _program() -> list[str]:
    """The ``pdnkit`` console script beside this interpreter, else ``python -m pdnkit``."""
    script = Path(sys.executable).parent / "pdnkit"
    return [str(script)] if script.exists() else [sys.executable, "-m", "pdnkit"]


def _env(root: Path = ROOT) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE",)}
    env["PYTHONPATH"] = str(root)
    return env


def _base_tree(rev: str) -> Path:
    """The sources of commit ``rev`` with this tree's compiled core beside them."""
    out = ROOT / "benchmarks" / "out" / "start-base"
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    # (the grammar sits beside the package, grammars/pdn.lark: without it the Python reader
    # cannot parse, and a file the compiled lane leaves to it reads as one not-pdn record)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "pdnkit", "grammars"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(out)], input=archive, check=True)
    for built in (ROOT / "pdnkit").rglob("*.so"):
        target = out / built.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built, target)
    return out


def _timed(args: list[str], root: Path = ROOT) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user + system, from this process's children totals around
    it) and exit status of one process."""

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    res = subprocess.run(args, stdin=subprocess.DEVNULL, capture_output=True,
                         env=_env(root), check=False, cwd=CWD)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, res.returncode


def _ten_games(path: Path, games: int) -> None:
    if BENCH.exists():
        text = BENCH.read_text(encoding="utf-8")
    else:
        pdn = path.with_suffix(".random.pdn")
        subprocess.run([sys.executable, str(ROOT / "benchmarks" / "randomgames.py"),
                        str(games), str(pdn)], check=True, env=_env())
        text = pdn.read_text(encoding="utf-8")
    parts = text.split('[Event "')[1:games + 1]
    path.write_text("".join('[Event "' + p for p in parts), encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=21)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--base", default=None, help="a commit to run side by side (e.g. main)")
    a = ap.parse_args()
    pdnkit = _program()
    print(f"load average before: {os.getloadavg()}")
    print(f"program: {' '.join(pdnkit)}")
    with tempfile.TemporaryDirectory() as tmp:
        ten = Path(tmp) / "ten.pdn"
        _ten_games(ten, a.games)
        db = Path(tmp) / "ten.duckdb"
        subprocess.run([*pdnkit, "import", str(ten), "--db", str(db), "--quiet"], check=True,
                       env=_env(), capture_output=True)
        lines: dict[str, tuple[list[str], Path]] = {}
        programs = [("", pdnkit, ROOT)]
        if a.base:  # both trees as python -m pdnkit, the one way the base tree can start
            programs = [("", [sys.executable, "-m", "pdnkit"], ROOT)]
            programs.append((f"[{a.base}] ", [sys.executable, "-m", "pdnkit"],
                             _base_tree(a.base)))
        for label, program, root in programs:
            for name, args in _lines(program, ten, db, a.games).items():
                lines[label + name] = (args, root)
        lines = {"python -c pass": ([sys.executable, "-c", "pass"], ROOT), **_floors(), **lines}
        for args, root in lines.values():  # warm the caches (bytecode, file system) once
            _timed(args, root)
        runs: dict[str, list[tuple[float, float, int]]] = {name: [] for name in lines}
        for _ in range(a.rounds):
            for name, (args, root) in lines.items():
                runs[name].append(_timed(args, root))
    _print(runs, a.rounds)


#: what any validate pays before pdnkit's own modules: the standard library modules its path
#: imports (``dataclasses`` brings ``inspect``, ``ast``, ``dis``, ``tokenize``), then the
#: validation package itself (no game read)
FLOORS = {
    "import re, typing, enum": "import re, typing, enum",
    "+ dataclasses, pathlib": "import re, typing, enum, dataclasses, pathlib",
    "import pdnkit.validation": "import pdnkit.validation, pdnkit.lean.validate",
}


def _floors() -> dict[str, tuple[list[str], Path]]:
    return {name: ([sys.executable, "-c", code], ROOT) for name, code in FLOORS.items()}


def _lines(pdnkit: list[str], ten: Path, db: Path, games: int) -> dict[str, list[str]]:
    """The command lines measured, by name."""
    return {
        "pdnkit --version": [*pdnkit, "--version"],
        f"validate {games} games (text)": [*pdnkit, "validate", str(ten)],
        f"validate {games} games (jsonl)": [*pdnkit, "validate", str(ten), "--format",
                                               "jsonl"],
        "search --fen": [*pdnkit, "search", "--db", str(db), "--fen", "W:W31-50:B1-20"],
        "search --pattern (csv)": [*pdnkit, "search", "--db", str(db), "--pattern", "W28:B19",
                                   "-f", "csv"],
        "stats results": [*pdnkit, "stats", "results", "--db", str(db)],
        "stats openings": [*pdnkit, "stats", "openings", "--db", str(db)],
        "stats openings (json)": [*pdnkit, "stats", "openings", "--db", str(db), "-f", "json"],
        "tree": [*pdnkit, "tree", "--db", str(db)],
        "tree --moves (csv)": [*pdnkit, "tree", "--db", str(db), "--moves", "32-28", "-f",
                               "csv"],
        "games (csv)": [*pdnkit, "games", "--db", str(db), "-f", "csv"],
        "query SELECT": [*pdnkit, "query", "SELECT count(*) FROM games", "--db", str(db)],
        "show (a file's game)": [*pdnkit, "show", str(ten), "--game", "2"],
        "show --db --game-id": [*pdnkit, "show", "--db", str(db), "--game-id", "1"],
        "query SELECT (csv)": [*pdnkit, "query", "SELECT * FROM games", "--db", str(db),
                               "-f", "csv"],
    }


def _print(runs: dict[str, list[tuple[float, float, int]]], rounds: int) -> None:
    """The medians, and their ratios to ``python -c pass``."""
    base_wall = statistics.median(r[0] for r in runs["python -c pass"])
    base_cpu = statistics.median(r[1] for r in runs["python -c pass"])
    print(f"medians of {rounds} rounds (CPU = user + system of the process)")
    print(f"{'command':32} {'CPU s':>7} {'x pass':>7} {'wall s':>7} {'x pass':>7}  exit")
    for name, rs in runs.items():
        cpu = statistics.median(r[1] for r in rs)
        wall = statistics.median(r[0] for r in rs)
        status = sorted({r[2] for r in rs})
        print(f"{name:32} {cpu:7.3f} {cpu / base_cpu:7.1f} {wall:7.3f} {wall / base_wall:7.1f}"
              f"  {status}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
