"""``pdnkit validate`` of real files, whole processes: the verdict on a clean file
(:mod:`pdnkit.lean.verdict`) against the validator forced (a databases' folder that is not
empty: the verdict then leaves every file to it), side by side in one run.

Usage::

    .venv/bin/python benchmarks/validate_real.py                 # 7 rounds
    .venv/bin/python benchmarks/validate_real.py --rounds 11 --games 200

The inputs: every file of ``../shared/data/real``, the bundled samples (``data/``),
``../shared/data/bench/intl_2000.pdn`` and, for each variant the verdict takes, a file of
``--games`` seeded random games of it (the rules engine's legal moves, each result the one
the final position gives, else ``*``; CR LF line ends for every other variant). For each
input: its games, how many of them the verdict takes (``game_verdicts``) and whether it takes
the file whole; then the medians over interleaved rounds of CPU time (user + system of the
process: the figure to trust on a shared machine) of ``pdnkit validate FILE`` to a pipe, the
verdict's way and the validator's, and their ratio, with bytecode cached (as ``start.py``). The load average is printed before and
after.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"


def _program() -> list[str]:
    script = Path(sys.executable).parent / "pdnkit"
    return [str(script)] if script.exists() else [sys.executable, "-m", "pdnkit"]


def _cpu(args: list[str], env: dict[str, str]) -> float:
    """CPU seconds (user + system) of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, stdin=subprocess.DEVNULL, capture_output=True, env=env, check=False,
                   cwd=tempfile.gettempdir())
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _random_file(gametype: int, name: str, games: int, out: Path, crlf: bool) -> Path:
    """``games`` seeded random games of a variant, each scored as its final position says."""
    from pdnkit.rules import Position, get_rules
    from pdnkit.rules.notation import canonical_notation

    rules = get_rules(name)
    rng = random.Random(gametype)
    texts = []
    for i in range(games):
        pos, words, number = Position.initial(rules), [], 1
        for _ in range(rng.randint(20, 160)):
            legal = pos.legal_moves()
            if not legal:
                break
            move = rng.choice(legal)
            if pos.side == rules.first_mover:
                words.append(f"{number}.")
            elif not words:
                words.append(f"{number}...")
            words.append(canonical_notation(move, pos, legal))
            if pos.side != rules.first_mover:
                number += 1
            pos = pos.play(move)
        winner = pos.winner() if pos.is_terminal() else None
        token = "*" if winner is None else ("2-0" if int(winner) == 0 else "0-2")
        if winner is not None and int(rules.first_mover) == 1:
            token = "*"  # (a decisive end where Black begins: the judge names its reading)
        texts.append(f'[Event "Random {i}"]\n[Date "2024.01.{1 + i % 28:02d}"]\n'
                     f'[White "W{i}"]\n[Black "B{i}"]\n[Result "{token}"]\n'
                     f'[GameType "{gametype}"]\n\n{" ".join(words)} {token}\n')
    text = "\n".join(texts)
    out.write_bytes((text.replace("\n", "\r\n") if crlf else text).encode("ascii"))
    return out


def _inputs(tmp: Path, games: int) -> list[Path]:
    from pdnkit.verdict.startdata import STARTS

    files = sorted(p for p in (SHARED / "real").rglob("*") if p.is_file())
    files += sorted((ROOT / "data").glob("*.pdn"))
    if (SHARED / "bench" / "intl_2000.pdn").exists():
        files.append(SHARED / "bench" / "intl_2000.pdn")
    for k, (gametype, entry) in enumerate(sorted(STARTS.items())):
        files.append(_random_file(gametype, str(entry[0]), games,
                                  tmp / f"random-{entry[0]}.pdn", crlf=k % 2 == 1))
    return files


def _taken(path: Path) -> tuple[int, int, bool]:
    """(games, games the verdict takes, whether it takes the file whole)."""
    from pdnkit.lean.verdict import clean_files, game_verdicts

    got = game_verdicts(str(path))
    whole = clean_files([str(path)]) is not None
    if got is None:
        return 0, 0, False
    return len(got), sum(v is not None for v in got), whole


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--games", type=int, default=100, help="random games of each variant")
    a = ap.parse_args()
    print(f"load average before: {os.getloadavg()}")
    program = _program()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        (tmp / "egdb").mkdir()
        (tmp / "egdb" / "README").write_text("", encoding="utf-8")
        # (bytecode cached, as an install leaves it: the warm round writes what is missing)
        env = {k: v for k, v in os.environ.items()
               if k not in ("PDNKIT_EGDB", "PYTHONDONTWRITEBYTECODE")}
        forced = {**env, "PDNKIT_EGDB": str(tmp / "egdb")}
        files = _inputs(tmp, a.games)
        ways = {"verdict": env, "validator": forced}
        runs: dict[tuple[str, str], list[float]] = {}
        for f in files:  # warm the caches once
            for e in ways.values():
                _cpu([*program, "validate", str(f)], e)
        for _ in range(a.rounds):
            for f in files:
                for way, e in ways.items():
                    runs.setdefault((str(f), way), []).append(
                        _cpu([*program, "validate", str(f)], e))
        counts = {str(f): _taken(f) for f in files}
    print(f"load average after: {os.getloadavg()}")
    print("| file | games | taken | whole | verdict CPU | validator CPU | ratio |")
    print("|---|---|---|---|---|---|---|")
    for f in files:
        n, taken, whole = counts[str(f)]
        v = statistics.median(runs[(str(f), "verdict")])
        w = statistics.median(runs[(str(f), "validator")])
        name = f.name if "random-" in f.name else str(f.relative_to(
            SHARED if SHARED in f.parents else ROOT))
        print(f"| {name} | {n} | {taken} | {'yes' if whole else 'no'} | {v:.3f} s "
              f"| {w:.3f} s | {w / v if v else 0:.2f}x |")


if __name__ == "__main__":
    main()
