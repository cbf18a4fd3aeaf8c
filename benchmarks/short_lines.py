"""What grouping copies costs for many records of one short main line with their tags
known (players, date, round, event: enough to group a short line), every pair of players
another: :func:`pdnkit.store.copyrules.partition` on generated records, CPU time and the
number of tag comparisons (:func:`~pdnkit.store.copyrules.contradict` calls).

    python benchmarks/short_lines.py --records 6000
"""

from __future__ import annotations

import argparse
import os
import resource


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=6000)
    args = ap.parse_args()

    from pdnkit.store import copyrules
    from pdnkit.store.copyrules import Record, Tags, partition

    records = [Record(i, "h", 8, "*", 7, 0, "/a.pdn", i,
                      Tags.of(f"White{i // 3}x Player", f"Black{i}y Player", "2001.05.02",
                              "1", "Cup"))
               for i in range(args.records)]
    calls = [0]
    real = copyrules.contradict

    def counted(a: Tags, b: Tags) -> bool:
        calls[0] += 1
        return real(a, b)

    copyrules.contradict = counted  # type: ignore[assignment]
    c = _cpu()
    groups = partition(records)
    spent = _cpu() - c
    print(f"{args.records:,} records of one short line, every pair of players another: "
          f"CPU {spent:.2f} s, {calls[0]:,} tag comparisons, "
          f"{len({a.canonical for a in groups.values()}):,} groups; "
          f"load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
