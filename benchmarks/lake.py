"""Lake import speed: the Parquet lake on Dask against the DuckDB store, on the same file.

Replicates ``../shared/data/bench/intl_2000.pdn`` to ``--games`` games (default 100,000) in
one file, then measures, each in a fresh process:

* ``duckdb``: ``pdnkit.import_files`` into a new database (one process),
* ``duckdb --jobs 2``: the same with two worker processes,
* ``lake 1 worker`` / ``lake 2 workers`` (and ``--more`` workers, more than cores if you like):
  ``pdnkit.lake.import_lake`` on a fresh ``LocalCluster``,

and prints games/s, the 2-worker/1-worker ratio (target >= 1.7 on two free cores), each
worker's peak RSS (target < 300 MB, whatever the file size: a worker holds one chunk), and the
size on disk of the lake and of the DuckDB file (target: the lake no larger).

    python benchmarks/lake.py --games 20000
    python benchmarks/lake.py --games 100000 --more 4
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

CHILD = r"""
import json, sys, time
mode, path, out, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
chunk = int(sys.argv[5])
t = time.perf_counter()
peak = []
if mode == "duckdb":
    from pdnkit.store import import_files
    games = import_files([path], db=out, jobs=n).games
else:
    from pdnkit.lake import import_lake, read_manifest
    games = import_lake([path], out, engine="dask", workers=n, chunk_bytes=chunk).games
    peak = sorted({(c["worker_pid"], c["peak_rss_mb"]) for e in read_manifest(out)
                   for c in e.chunks})
print(json.dumps({"games": games, "seconds": time.perf_counter() - t, "workers": peak}))
"""


def _size(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def run(mode: str, src: Path, out: Path, n: int, chunk: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    res = subprocess.run([sys.executable, "-c", CHILD, mode, str(src), str(out), str(n),
                          str(chunk)], capture_output=True, text=True, env=env, check=True)
    data = json.loads(res.stdout.strip().splitlines()[-1])
    data["size_mb"] = _size(out) / 1e6
    return data


def main() -> None:
    from importlib import import_module

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--chunk-mb", type=float, default=4.0)
    ap.add_argument("--more", type=int, default=0,
                    help="also a LocalCluster of this many workers")
    args = ap.parse_args()
    bench_import = import_module("import")  # benchmarks/import.py: the same replication
    chunk = int(args.chunk_mb * (1 << 20))
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        src = d / "games.pdn"
        n = bench_import.replicate(bench_import.SOURCE, args.games, src)
        print(f"{n} games, {src.stat().st_size / 1e6:.1f} MB, chunks of {args.chunk_mb} MB")
        rows = [("duckdb", 1), ("duckdb", 2), ("lake", 1), ("lake", 2)]
        if args.more:
            rows.append(("lake", args.more))
        results = {}
        for mode, k in rows:
            out = d / (f"db{k}.duckdb" if mode == "duckdb" else f"lake{k}")
            r = run(mode, src, out, k, chunk)
            results[(mode, k)] = r
            label = f"{mode} {'--jobs' if mode == 'duckdb' else 'workers'} {k}"
            mem = ""
            if r["workers"]:
                peaks = [p for _, p in r["workers"]]
                mem = f"  worker peak RSS {min(peaks):.0f}-{max(peaks):.0f} MB"
            print(f"{label:22} {r['games'] / r['seconds']:8.0f} games/s  "
                  f"{r['seconds']:7.1f} s  {r['size_mb']:7.1f} MB on disk{mem}")
        one, two = results[("lake", 1)], results[("lake", 2)]
        print(f"lake 2 workers / 1 worker: {one['seconds'] / two['seconds']:.2f}x")
        print(f"lake 2 workers / duckdb 1 process: "
              f"{results[('duckdb', 1)]['seconds'] / two['seconds']:.2f}x")
        print(f"lake / duckdb size: {two['size_mb'] / results[('duckdb', 1)]['size_mb']:.2f}")


if __name__ == "__main__":
    main()
