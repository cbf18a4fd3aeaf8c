"""``pdnkit duplicates`` as a user runs it (whole processes), side by side with another
pdnkit: wall seconds, CPU seconds (user + system) and peak memory (``ru_maxrss``) of the
listing to CSV, JSONL, JSON and Parquet files, of the screen's text table (to a file: the
first 50 groups and the counts), and of ``-f csv | head -3`` (seconds to the third line and
to the program's end); whether both programs wrote the same bytes; the load average before
and after.

    python benchmarks/duplicates.py --db /tmp/t1m-10.duckdb
    python benchmarks/duplicates.py --db /tmp/t1m-10.duckdb --base /work/main/.venv/bin/pdnkit

The database is only read (``pdnkit duplicates`` opens it read-only).
"""

from __future__ import annotations

import argparse
import filecmp
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _env(this: bool) -> dict[str, str]:
    """A child's environment: bytecode cached, as an installed package runs; this tree's
    sources first for this tree's program, nothing of it for the base's (its own
    installation, which ``PYTHONPATH`` would otherwise hide)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("PYTHONPATH", None)
    if this:
        env["PYTHONPATH"] = str(ROOT)
    return env

#: what is measured: a name, the arguments after ``duplicates --db DB``, the output's suffix
CASES = [("csv", ["-f", "csv"], "csv"), ("jsonl", ["-f", "jsonl"], "jsonl"),
         ("json", ["-f", "json"], "json"), ("parquet", ["-f", "parquet", "-o", "{out}"],
                                            "parquet"),
         ("screen (text, 50 groups)", [], "txt")]


def _run(args: list[str], out: Path, this: bool) -> tuple[float, float, int, int]:
    """Wall seconds, CPU seconds, peak memory (KB) and exit status of one process, its
    standard output written to ``out`` unless the arguments name it."""
    named = "{out}" in args
    args = [a.replace("{out}", str(out)) for a in args]
    start = time.perf_counter()
    with open(os.devnull if named else out, "wb") as fh:
        proc = subprocess.Popen(args, stdout=fh, stderr=subprocess.DEVNULL, env=_env(this))
        _, status, usage = os.wait4(proc.pid, 0)
    return (time.perf_counter() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss,
            os.waitstatus_to_exitcode(status))


def head(args: list[str], this: bool, lines: int = 3) -> tuple[float, float, float, int]:
    """``args | head -LINES``: seconds to the last line read, seconds to the program's end
    once the reader went away, its CPU seconds and its exit status."""
    start = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            env=_env(this))
    assert proc.stdout is not None
    for _ in range(lines):
        proc.stdout.readline()
    seen = time.perf_counter() - start
    proc.stdout.close()
    _, status, usage = os.wait4(proc.pid, 0)
    return (seen, time.perf_counter() - start, usage.ru_utime + usage.ru_stime,
            os.waitstatus_to_exitcode(status))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", type=Path, required=True)
    ap.add_argument("--base", default=None,
                    help="another pdnkit program to run side by side (e.g. main's)")
    a = ap.parse_args()
    programs = [("this", [sys.executable, "-m", "pdnkit"])]
    if a.base:
        programs.append(("base", [a.base]))
    print(f"load average before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, args, suffix in CASES:
            outs = []
            for label, program in programs:
                out = Path(tmp) / f"{label}.{suffix}"
                wall, cpu, kb, code = _run([*program, "duplicates", "--db", str(a.db), *args],
                                           out, label == "this")
                outs.append(out)
                print(f"{name:26} {label:5} {wall:7.2f} s wall {cpu:7.2f} s CPU "
                      f"{kb / 1024:8.0f} MB  exit {code}  {out.stat().st_size:,} bytes")
            if len(outs) == 2 and suffix != "parquet":
                same = filecmp.cmp(outs[0], outs[1], shallow=False)
                print(f"{'':26} the same bytes: {same}")
        for label, program in programs:
            seen, end, cpu, code = head([*program, "duplicates", "--db", str(a.db), "-f", "csv"],
                                        label == "this")
            print(f"{'-f csv | head -3':26} {label:5} {seen:7.2f} s to the 3rd line, "
                  f"{end:.2f} s to the end, {cpu:.2f} s CPU, exit {code}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
