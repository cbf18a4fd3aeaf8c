"""Speed at the compiled limit, side by side: this tree against an earlier commit of pdnkit
and against py-draughts, in one run.

Usage::

    .venv/bin/python benchmarks/speed.py                        # against main, best of 3
    .venv/bin/python benchmarks/speed.py --base 107f5fd --games 20000 --repeat 5
    .venv/bin/python benchmarks/speed.py --jobs 1 2 --games 100000

The earlier commit (``--base``, default ``main``) is taken out of git into
``benchmarks/out/base-<sha>`` with its own compiled core (its C sources built with
setuptools' compiler driver, as ``hatch_build.py`` builds them) and run from there with
``PYTHONPATH``, in the same interpreter and packages. Every figure is measured for both trees
in alternation (best of ``--repeat``, after an untimed run), so a machine that drifts affects
both alike:

* ``pdnkit validate intl_2000.pdn --jobs 1 --format jsonl`` as a whole process against
  py-draughts' ``Board.from_pdn`` on the same games (``benchmarks/validate.py``'s script and
  venv): wall and CPU seconds, the ratio to py-draughts;
* ``pdnkit.validate(light=True)`` in a fresh process, imports and the first (warming) pass
  excluded: games a second of CPU time;
* the same file ``--games`` games long (the games repeated), ``pdnkit validate`` and ``pdnkit
  import`` (into a new database) as whole processes, each with ``--jobs`` as given: CPU
  seconds of the process tree, games a second, the import's speed as a share of validate's,
  and the database's size a game.

CPU times (user + system of the process tree, workers included) are the figures to trust
on a shared machine: wall times then depend on what else runs; the load average is printed
before and after.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from validate import (  # noqa: E402 - the script beside this one
    DEFAULT_FILE,
    PEER_PY,
    PEER_SCRIPT,
    bench_env,
    ensure_peer,
    replicated,
)

#: runs light validation in a fresh process and prints games a second of CPU time
IN_PROCESS = """
import sys, time
from pdnkit.validation import validate
path = sys.argv[1]
sum(1 for _ in validate(path, light=True))
best = 0.0
for _ in range(int(sys.argv[2])):
    t = time.process_time()
    n = sum(1 for _ in validate(path, light=True))
    best = max(best, n / (time.process_time() - t))
print(best)
"""


def base_tree(ref: str) -> Path:
    """The tree of commit ``ref`` with its compiled core, made once under benchmarks/out."""
    sha = subprocess.run(["git", "rev-parse", "--short", ref], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.strip()
    out = HERE / "out" / f"base-{sha}"
    core = out / "pdnkit" / "core"
    if out.exists() and any(core.glob("_core.*")):
        return out
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", sha], cwd=ROOT, check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(out)], input=archive, check=True)
    _compile(out)
    return out


def _compile(tree: Path) -> None:
    """Build ``tree``'s C core next to its sources (what an editable install does)."""
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    src = Path("pdnkit") / "core" / "src"
    sources = sorted(str(p.relative_to(tree)) for p in (tree / src).glob("*.c"))
    ext = Extension("pdnkit.core._core", sources=sources,
                    extra_compile_args=["-O2", "-Wall", "-Wextra"])
    cmd = build_ext(Distribution({"name": "pdnkit-core", "ext_modules": [ext]}))
    tmp = Path(tempfile.mkdtemp(prefix="pdnkit-base-"))
    cmd.build_lib = str(tmp / "lib")
    cmd.build_temp = str(tmp / "tmp")
    cwd = os.getcwd()
    os.chdir(tree)
    try:
        cmd.ensure_finalized()
        cmd.run()
    finally:
        os.chdir(cwd)
    built = Path(cmd.get_ext_fullpath(ext.name))
    built = built if built.is_absolute() else tree / built
    shutil.copy2(built, tree / "pdnkit" / "core" / built.name)


def _children_cpu() -> float:
    import resource

    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run(cmd: list[str], tree: Path | None) -> tuple[float, float, str]:
    """One whole process: wall seconds, CPU seconds of its tree, its output."""
    env = bench_env()
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    c = _children_cpu()
    t = time.perf_counter()
    # (run elsewhere than the project: ``-m`` and ``-c`` put the working folder first)
    res = subprocess.run(cmd, capture_output=True, text=True, env=env,
                         cwd=tempfile.gettempdir())
    wall = time.perf_counter() - t
    if res.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed:\n{res.stderr[-2000:]}")
    return wall, _children_cpu() - c, res.stdout


def best_of(cmds: dict[str, tuple[list[str], Path | None]], repeat: int,
            after: object = None) -> dict[str, tuple[float, float, str]]:
    """Each command once untimed, then ``repeat`` rounds in alternation; the best wall and
    CPU time of each. ``after``: called with the name after each timed run (a cleanup)."""
    for name, (cmd, tree) in cmds.items():
        run(cmd, tree)
        if callable(after):
            after(name)
    best: dict[str, tuple[float, float, str]] = {}
    for _ in range(repeat):
        for name, (cmd, tree) in cmds.items():
            wall, cpu, out = run(cmd, tree)
            if callable(after):
                after(name)
            w0, c0, _ = best.get(name, (float("inf"), float("inf"), ""))
            best[name] = (min(w0, wall), min(c0, cpu), out)
    return best


def pdnkit(tree: Path, *args: str) -> tuple[list[str], Path]:
    """A pdnkit command line run from ``tree`` (``python -m pdnkit``)."""
    return [sys.executable, "-m", "pdnkit", *args], tree


def in_process(trees: dict[str, Path], path: Path, repeat: int) -> None:
    """Light reports in a fresh process of each tree, alternating: the best games a second
    of CPU time of ``repeat`` rounds (3 passes each), and the microseconds a game."""
    print("\nin process, light reports (games a second of CPU time):")
    rates: dict[str, float] = {}
    for _ in range(repeat):
        for name, tree in trees.items():
            _, _, out = run([sys.executable, "-c", IN_PROCESS, str(path), "3"], tree)
            rates[name] = max(rates.get(name, 0.0), float(out))
    for name, rate in rates.items():
        print(f"  {name:<12}{rate:10,.0f}{1e6 / rate:10.1f} us a game")
    print(f"  now / base  {rates['now'] / rates['base']:10.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", default="main", help="the commit to compare with")
    ap.add_argument("--file", type=Path, default=DEFAULT_FILE)
    ap.add_argument("--games", type=int, default=20_000,
                    help="games of the validate and import runs (the file repeated)")
    ap.add_argument("--jobs", type=int, nargs="+", default=[1])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-peer", action="store_true")
    ap.add_argument("--in-process-only", action="store_true",
                    help="only the light reports in process (no whole processes)")
    args = ap.parse_args()
    path = args.file.resolve()
    if not path.exists():
        raise SystemExit(f"no such file: {path}")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    trees = {"now": ROOT, "base": base_tree(args.base)}
    print(f"base: {args.base} ({trees['base'].name[5:]}), now: this tree")
    tmp = Path(tempfile.mkdtemp(prefix="pdnkit-speed-"))

    if args.in_process_only:
        in_process(trees, path, args.repeat)
        print(f"\nload average {os.getloadavg()[0]:.1f}")
        return
    # whole process, intl_2000, against py-draughts
    cmds = {name: pdnkit(tree, "validate", str(path), "--jobs", "1", "--format", "jsonl",
                         "--out", str(tmp / f"{name}.jsonl"))
            for name, tree in trees.items()}
    if not args.no_peer:
        ensure_peer()
        script = tmp / "peer.py"
        script.write_text(PEER_SCRIPT)
        cmds["py-draughts"] = ([str(PEER_PY), str(script), str(path)], None)

    def drop(name: str) -> None:
        (tmp / f"{name}.jsonl").unlink(missing_ok=True)

    best = best_of(cmds, args.repeat, drop)
    games = len(re.findall(r"^\[Event ", path.read_text(encoding="utf-8"), re.MULTILINE))
    peer = best.get("py-draughts")
    print(f"\nvalidate {path.name} ({games} games), whole process, best of {args.repeat}:")
    print(f"  {'':<12}{'wall s':>8}{'CPU s':>8}{'x peer wall':>13}{'x peer CPU':>12}")
    for name, (wall, cpu, _) in best.items():
        ratio = (f"{peer[0] / wall:13.2f}{peer[1] / cpu:12.2f}" if peer else "")
        print(f"  {name:<12}{wall:8.2f}{cpu:8.2f}{ratio}")

    in_process(trees, path, args.repeat)

    # validate and import of --games games
    big = replicated(path, max(1, args.games // games))
    n = games * max(1, args.games // games)
    for jobs in args.jobs:
        cmds = {}
        for name, tree in trees.items():
            cmds[f"{name} validate"] = pdnkit(tree, "validate", str(big), "--jobs", str(jobs),
                                              "--format", "jsonl", "--out",
                                              str(tmp / f"{name}.jsonl"), "--quiet")
            cmds[f"{name} import"] = pdnkit(tree, "import", str(big), "--db",
                                            str(tmp / f"{name}.duckdb"), "--jobs", str(jobs))
        sizes: dict[str, int] = {}

        def clean(name: str, sizes: dict[str, int] = sizes) -> None:
            who = name.split()[0]
            (tmp / f"{who}.jsonl").unlink(missing_ok=True)
            db = tmp / f"{who}.duckdb"
            if db.exists():
                sizes[who] = db.stat().st_size
                db.unlink()

        best = best_of(cmds, args.repeat, clean)
        print(f"\n{n:,} games, --jobs {jobs}, whole processes, best of {args.repeat}:")
        print(f"  {'':<18}{'wall s':>8}{'CPU s':>8}{'games/s CPU':>13}{'import/validate':>17}"
              f"{'KB a game':>11}")
        for name in trees:
            v = best[f"{name} validate"]
            i = best[f"{name} import"]
            print(f"  {name + ' validate':<18}{v[0]:8.2f}{v[1]:8.2f}{n / v[1]:13,.0f}")
            print(f"  {name + ' import':<18}{i[0]:8.2f}{i[1]:8.2f}{n / i[1]:13,.0f}"
                  f"{v[1] / i[1]:16.2f}x{sizes.get(name, 0) / n / 1024:11.2f}")
    print(f"\nload average {os.getloadavg()[0]:.1f}")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
