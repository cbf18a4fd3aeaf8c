"""Engine analysis speed: ``pdnkit analyse`` with a real Hub engine and with the built-in check.

Usage::

    .venv/bin/python benchmarks/analyse.py                    # dame hub, depth 6
    .venv/bin/python benchmarks/analyse.py --engine "scan hub" --depth 8 --games 20

Three figures, each the best of ``--repeat`` runs:

1. one game of about 100 plies (the real game nearest 100 plies of the Dutch championship 2003
   in ``../shared/data``, else the bundled sample's), analysed whole by ``analyse`` into a new
   database with one engine: import, engine start, every position, the findings; and the
   engine's share alone (its searches through :class:`pdnkit.engines.HubEngine`);
2. ``--games`` games analysed with ``--jobs 1`` and with ``--jobs 2``: the ratio is what a
   second engine buys (on an idle 2-core machine it can reach 2; a loaded one gives less),
   and the CPU time of one ``--jobs 1`` run split between the engine and pdnkit (pdnkit's
   share is the part a second engine does not take over);
3. the built-in tactical check at the same depth on the same games, positions a second.

The Hub engine defaults to dame-rs's ``dame hub`` (``pip install -e ".[engines]"``). Prints
the machine's load average beside the figures: on a shared machine they are noisy.
"""

from __future__ import annotations

import argparse
import os
import resource
import shlex
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT.parent / "shared" / "data" / "real" / "international" / "nk2003-amsterdam.pdn"


def _default_engine() -> str | None:
    here = Path(sys.executable).with_name("dame")
    found = str(here) if here.exists() else shutil.which("dame")
    return f"{shlex.quote(found)} hub" if found else None


def _games(count: int) -> tuple[str, list[str]]:
    """The source's games as texts (one file's), the real ones where the shared data is."""
    from pdnkit.pdn import read_games
    from pdnkit.samples import sample_dir

    src = REAL if REAL.exists() else sample_dir() / "international.pdn"
    return str(src), [r.raw for r in read_games(src)][: max(count, 1) * 4]


def _longest_near(texts: list[str], plies: int) -> str:
    from pdnkit.pdn import parse_game

    return min(texts, key=lambda t: abs(len(parse_game(t).moves) - plies))


def _best(fn: object, repeat: int) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()  # type: ignore[operator]
        best = min(best, time.perf_counter() - t)
    return best, out


def _analyse(folder: Path, text: str, engine: str, depth: int, jobs: int) -> object:
    from pdnkit.analysis import analyse

    work = Path(tempfile.mkdtemp(dir=folder))
    pdn = work / "games.pdn"
    pdn.write_text(text, encoding="utf-8")
    return analyse([pdn], work / "a.duckdb", engine=engine, depth=depth, jobs=jobs)


def _cpu() -> tuple[float, float]:
    """CPU seconds of this process and of its children that have ended (the engines)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime


def _engine_only(text: str, engine: str, depth: int) -> int:
    from pdnkit.engines import open_engine
    from pdnkit.pdn import parse_game
    from pdnkit.validation import replay

    rep = replay(parse_game(text))
    positions = [rep.plies[0].position_before] + [p.position_after for p in rep.plies
                                                  if p.replayed]
    e = open_engine(engine, depth=depth)
    try:
        for pos in positions:
            if not pos.is_terminal():
                e.evaluate(pos)
    finally:
        e.close()
    return len(positions)


def _timed_engine(engine: str, log: Path) -> str:
    """``engine`` run under ``/usr/bin/time``, which appends the engine process's user and
    system CPU seconds to ``log`` when it ends (the engine as it is where there is none)."""
    timer = Path("/usr/bin/time")
    if not timer.exists():
        return engine
    return shlex.join([str(timer), "-a", "-o", str(log), "-f", "%U %S"]) + " " + engine


def _imported(folder: Path, text: str) -> Path:
    """A database with the games imported (each run analyses a copy of it)."""
    from pdnkit.store import import_files

    work = Path(tempfile.mkdtemp(dir=folder))
    pdn = work / "games.pdn"
    pdn.write_text(text, encoding="utf-8")
    import_files([pdn], db=work / "base.duckdb")
    return work / "base.duckdb"


def _one_run(base: Path, engine: str, depth: int, jobs: int) -> dict[str, object]:
    """One ``analyse`` of a copy of ``base`` with ``jobs`` engines: wall, pdnkit's CPU (every
    thread of this process), the children's CPU, each engine process's CPU, the load."""
    from pdnkit.analysis import analyse

    work = Path(tempfile.mkdtemp(dir=base.parent))
    db = work / "a.duckdb"
    shutil.copy(base, db)
    log = work / "engines.cpu"
    load = os.getloadavg()[0]
    me0, kids0 = _cpu()
    t = time.perf_counter()
    s = analyse(db=db, engine=_timed_engine(engine, log), depth=depth, jobs=jobs)
    wall = time.perf_counter() - t
    me1, kids1 = _cpu()
    each = ([sum(float(x) for x in line.split()) for line in log.read_text().splitlines()
             if line.strip()] if log.exists() else [])
    return {"wall": wall, "pdnkit": me1 - me0, "children": kids1 - kids0, "engines": each,
            "positions": s.positions, "load": load}


def _jobs_side_by_side(folder: Path, text: str, engine: str, depth: int, repeat: int,
                       games: int, plies: int) -> None:
    """``--jobs 1`` and ``--jobs 2`` on the same imported games, run in turns: wall, CPU per
    position of pdnkit and of the engines, and what the CPU projects for two idle cores."""
    base = _imported(folder, text)
    runs: dict[int, list[dict[str, object]]] = {1: [], 2: []}
    for _ in range(max(repeat, 1)):
        for jobs in (1, 2):
            runs[jobs].append(_one_run(base, engine, depth, jobs))
    best = {j: min(rs, key=lambda r: r["wall"]) for j, rs in runs.items()}  # type: ignore
    pos = int(best[1]["positions"])  # type: ignore[call-overload]
    print(f"2. {games} games, {plies} plies, {pos} positions, analysed in an imported "
          f"database, --jobs 1 and --jobs 2 in turns (best wall of {repeat}):")
    total = {}
    for j, r in best.items():
        mine, kids = float(r["pdnkit"]), float(r["children"])  # type: ignore[arg-type]
        each = r["engines"] or [kids]
        total[j] = (mine + kids, max([mine, *each]))  # type: ignore[list-item]
        per = ", ".join(f"{e:.2f}" for e in each)  # type: ignore[attr-defined]
        print(f"   --jobs {j}: {float(r['wall']):.2f} s wall (load {float(r['load']):.2f}); "
              f"CPU pdnkit {1000 * mine / pos:.2f} ms/position, engines "
              f"{1000 * kids / pos:.2f} ms/position (each engine process: {per} s)")
    t1, t2 = float(best[1]["wall"]), float(best[2]["wall"])  # type: ignore[arg-type]
    (c1, _), (c2, m2) = total[1], total[2]
    print(f"   wall x{t1 / t2:.2f} (load average now {os.getloadavg()[0]:.2f}); CPU "
          f"projection for two idle cores: the --jobs 2 run's CPU / its busiest process's "
          f"x{c2 / m2:.2f}, --jobs 1's CPU / max(--jobs 2's CPU / 2, its busiest process) "
          f"x{c1 / max(c2 / 2, m2):.2f}")


def _one_game(folder: Path, one: str, n: int, text: str, engine: str, depth: int,
              repeat: int) -> None:
    """Figure 1: the 100-ply game analysed whole, the engine's searches alone, and how one
    ``--jobs 1`` run of all the games splits its CPU between the engine and pdnkit."""
    t_all, s = _best(lambda: _analyse(folder, one, engine, depth, 1), repeat)
    t_eng, count = _best(lambda: _engine_only(one, engine, depth), repeat)
    print(f"1. one game of {n} plies ({count} positions): analyse {t_all:.2f} s "
          f"(import, engine start, searches, findings); the engine's searches "
          f"{t_eng:.2f} s ({count / t_eng:.0f} positions/s); {s}")
    before = _cpu()
    _analyse(folder, text, engine, depth, 1)
    mine, engines = (b - a for a, b in zip(before, _cpu(), strict=True))
    print(f"   CPU of one --jobs 1 run of all the games: the engine {engines:.2f} s, pdnkit "
          f"{mine:.2f} s ({100 * mine / (mine + engines):.0f}% of the work, the import and "
          "the findings included)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default=None, help="a Hub engine's command line")
    ap.add_argument("--depth", type=int, default=6)
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--parts", default="123", help="the figures to measure (default 123)")
    args = ap.parse_args()
    engine = args.engine or _default_engine()
    if engine is None:
        sys.exit("no Hub engine: pip install -e \".[engines]\" (dame hub) or give --engine")
    src, texts = _games(args.games)
    one = _longest_near(texts, 100)
    from pdnkit.pdn import parse_game

    chosen = texts[: args.games]
    plies = sum(len(parse_game(t).moves) for t in chosen)
    print(f"source: {src}; engine: {engine}, depth {args.depth}; "
          f"load average {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        n = len(parse_game(one).moves)
        text = "\n\n".join(chosen)
        if "1" in args.parts:
            _one_game(folder, one, n, text, engine, args.depth, args.repeat)
        if "2" in args.parts:
            _jobs_side_by_side(folder, text, engine, args.depth, args.repeat, len(chosen),
                               plies)
        if "3" not in args.parts:
            return
        tb, sb = _best(lambda: _analyse(folder, text, "builtin", args.depth, 1), args.repeat)
        print(f"3. the built-in check, depth {args.depth}, the same games: {tb:.2f} s "
              f"({sb.positions / tb:.0f} positions/s)")  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()
