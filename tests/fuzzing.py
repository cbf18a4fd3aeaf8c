"""A seeded mutator of PDN collections and a watchdog runner for the whole pipeline (issue 16,
"Proof"): used by ``tests/test_fuzz_pipeline.py`` and ``benchmarks/fuzz.py``.

A *window* is a run of consecutive real games (or generated ones when the shared data is
absent). A *local* mutation changes only the movetext or comments of one game in the middle
of its window, so the games before and after it must read, validate and load exactly as in
the unmutated window. A *global* mutation may touch anything (tags, separators, the whole
file); for those only "no exception, bounded time, bounded memory" is checked.

Each case runs in a worker process (``Runner``): read_games, validate (jobs=1) and, for
some cases, import_files into a fresh DuckDB. The worker is killed and restarted when a case
exceeds its time bound; its peak resident memory is reset before each case
(``/proc/self/clear_refs``) so the growth measured is the case's own.
"""

from __future__ import annotations

import multiprocessing as mp
import random
import re
import tempfile
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

LOCAL_KINDS = ("flip", "delete-bracket", "double-bracket", "insert-bracket",
               "unclosed-comment", "unclosed-variation", "digits", "huge-token", "nul",
               "invalid-utf8", "line-ends", "cut-span", "double-span")
GLOBAL_KINDS = ("truncate", "flips", "delete-any-bracket", "double-any-bracket",
                "cut-any-span", "huge-tag", "huge-comment", "nul-block", "fen-digits",
                "fen-range", "deep-variations", "one-line", "random-bytes", "line-ends-all")
BRACKETS = b"[]{}()"


@dataclass
class Window:
    """Consecutive games as bytes, with the byte span of each game's movetext."""

    name: str
    data: bytes
    bodies: list[tuple[int, int]]  # (start, end) of each game's movetext, in bytes


@dataclass
class Case:
    """One fuzz case: the mutated bytes, and for a local case the game it touched."""

    seed: int
    kind: str
    data: bytes
    window: Window
    game: int | None = None  # the mutated game (local cases)
    db: bool = False


@dataclass
class Outcome:
    """What the worker saw: per game summaries, time, peak memory growth, or an error."""

    games: list[tuple] = field(default_factory=list)  # type: ignore[type-arg]
    seconds: float = 0.0
    rss_growth: int = 0  # bytes
    error: str | None = None
    db_games: int | None = None


# ------------------------------------------------------------------------------------------
# the corpus

_TAG_LINE = re.compile(r"[ \t]*\[[^\n]*\][ \t]*\r?\n")


def _body_span(raw: str) -> tuple[int, int]:
    """Character span of the movetext of a game's raw text (after its tag lines)."""
    pos = 0
    while True:
        m = _TAG_LINE.match(raw, pos)
        if not m:
            break
        pos = m.end()
    return pos, len(raw.rstrip())


def windows_of(path_or_text: Path | str, name: str, size: int = 7) -> list[Window]:
    """Windows of ``size`` consecutive games that have tags and moves, from a file (in its
    own encoding) or a text."""
    from pdnkit.pdn.reader import read_games

    if isinstance(path_or_text, Path):
        games = list(read_games(path_or_text))
        enc = games[0].encoding if games and games[0].encoding else "utf-8"
        text = path_or_text.read_bytes().decode(enc)
    else:
        games = list(read_games(path_or_text))
        enc, text = "utf-8", path_or_text
    out: list[Window] = []
    spans: list[tuple[int, int]] = []
    pos = 0
    for g in games:
        at = text.find(g.raw, pos) if g.raw else -1
        good = (at >= 0 and g.parsed and g.tags and len(g.moves) >= 4 and not g.findings
                and len(g.raw) < 20_000)
        if not good:
            spans = []
            if at >= 0:
                pos = at + len(g.raw)
            continue
        spans.append((at, at + len(g.raw)))
        pos = at + len(g.raw)
        if len(spans) == size:
            start, end = spans[0][0], spans[-1][1]
            chunk = text[start:end] + "\n"
            data = chunk.encode(enc)
            bodies = []
            for a, b in spans:
                s, e = _body_span(text[a:b])
                bodies.append((len(text[start:a + s].encode(enc)),
                               len(text[start:a + e].encode(enc))))
            out.append(Window(f"{name}@{start}", data, bodies))
            spans = []
    return out


def generated_windows(count: int = 6) -> list[Window]:
    """Windows of made-up international games, for when the shared data is absent."""
    rng = random.Random(1616)
    lines = ["32-28 19-23", "28x19 14x23", "37-32 10-14", "33-29 23x34", "40x29 5-10",
             "31-27 17-22", "27x18 12x23", "34-30 20-24", "29x20 15x24", "38-33 18-22"]
    out = []
    for w in range(count):
        text = ""
        for g in range(7):
            moves = " ".join(f"{i + 1}. {m} {{note {w}.{g}.{i}}}" if i % 3 == 1 else
                             f"{i + 1}. {m}" for i, m in enumerate(lines[:rng.randint(4, 10)]))
            text += (f'[Event "Gen {w}.{g}"]\n[White "Wit {g}"]\n[Black "Zwart"]\n'
                     f'[GameType "20"]\n\n{moves} (3. 37-32 10-14) *\n\n')
        out.extend(windows_of(text, f"generated{w}"))
    return out


def real_windows(root: Path, per_file: int = 3) -> list[Window]:
    """Up to ``per_file`` windows from each ``*.pdn`` file under ``root``."""
    out = []
    for p in sorted(root.rglob("*.pdn")):
        out.extend(windows_of(p, p.relative_to(root).as_posix())[:per_file])
    return out


# ------------------------------------------------------------------------------------------
# mutations


def _insert(data: bytes, at: int, what: bytes) -> bytes:
    return data[:at] + what + data[at:]


def _positions(data: bytes, lo: int, hi: int, chars: bytes) -> list[int]:
    return [i for i in range(lo, hi) if data[i] in chars]


def mutate_local(rng: random.Random, w: Window, kind: str, scale: float) -> tuple[bytes, int]:
    """Mutate the movetext of one middle game of ``w``: (bytes, the game's index)."""
    k = rng.randrange(1, len(w.bodies) - 1)
    lo, hi = w.bodies[k]
    d = w.data
    at = rng.randrange(lo, hi)
    if kind == "flip":
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(lo, hi)
            d = d[:i] + bytes([d[i] ^ (1 << rng.randrange(7))]) + d[i + 1:]
        return d, k
    if kind in ("delete-bracket", "double-bracket"):
        spots = _positions(d, lo, hi, BRACKETS)
        if not spots:
            return _insert(d, at, bytes([rng.choice(BRACKETS)])), k
        i = rng.choice(spots)
        return (d[:i] + d[i + 1:] if kind == "delete-bracket" else _insert(d, i, d[i:i + 1])), k
    if kind == "insert-bracket":
        return _insert(d, at, bytes(rng.choice(BRACKETS) for _ in range(rng.randint(1, 3)))), k
    if kind == "unclosed-comment":
        return _insert(d, at, b" {never closed "), k
    if kind == "unclosed-variation":
        return _insert(d, at, b" (1... 18-23 "), k
    if kind == "digits":
        n = rng.choice((4301, 5000, 20_000, int(200_000 * scale)))
        return _insert(d, at, b" " + b"1" * n + rng.choice((b". ", b" ", b"-28 "))), k
    if kind == "huge-token":
        n = int(rng.choice((1, 2)) * 1_000_000 * scale)
        what = rng.choice((b"x", b"{", b"(", b"-", b"*", b"a1"))
        return _insert(d, at, b" " + what * (n // len(what)) + b" "), k
    if kind == "nul":
        return _insert(d, at, b"\0" * rng.choice((1, 3, 16))), k
    if kind == "invalid-utf8":
        return _insert(d, at, rng.choice((b"\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80",
                                          b"\xf8\x88\x80\x80\x80", b"\xfe\xff"))), k
    if kind == "line-ends":
        body = d[lo:hi].replace(b" ", rng.choice((b"\r", b"\r\n", b"\n\r", b" \r ")), 3)
        return d[:lo] + body + d[hi:], k
    if kind == "cut-span":
        end = rng.randrange(at, min(hi, at + 40) + 1)
        return d[:at] + d[end:], k
    if kind == "double-span":
        end = rng.randrange(at, min(hi, at + 40) + 1)
        return d[:end] + d[at:end] + d[end:], k
    raise ValueError(kind)


def mutate_global(rng: random.Random, w: Window, kind: str, scale: float) -> bytes:
    """Mutate anywhere in ``w`` (separators and tags included)."""
    d = w.data
    at = rng.randrange(len(d))
    if kind == "truncate":
        return d[:at]
    if kind == "flips":
        b = bytearray(d)
        for _ in range(rng.randint(1, 50)):
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
        return bytes(b)
    if kind in ("delete-any-bracket", "double-any-bracket"):
        spots = _positions(d, 0, len(d), BRACKETS)
        for i in sorted(rng.sample(spots, min(len(spots), rng.randint(1, 5))), reverse=True):
            d = d[:i] + d[i + 1:] if kind == "delete-any-bracket" else _insert(d, i, d[i:i + 1])
        return d
    if kind == "cut-any-span":
        return d[:at] + d[rng.randrange(at, len(d) + 1):]
    if kind == "huge-tag":
        n = int(rng.choice((1, 2)) * 1_000_000 * scale)
        return b'[Event "' + b"v" * n + b'"]\n' + d
    if kind == "huge-comment":
        n = int(rng.choice((1, 3)) * 1_000_000 * scale)
        return d + b'[Event "c"]\n1. 32-28 {' + b"c" * n + b"} *\n"
    if kind == "nul-block":
        return _insert(d, at, b"\0" * rng.choice((64, 1000, 100_000)))
    if kind == "fen-digits":
        return (b'[FEN "W:W' + b"1" * 5000 + b':B1-' + b"9" * 4400 + b'"]\n1. 32-28 *\n\n' + d)
    if kind == "fen-range":
        return b'[FEN "W:W1-30000000:B2,K' + b"7" * 20 + b'"]\n1. 32-28 *\n\n' + d
    if kind == "deep-variations":
        n = int(5000 * scale) + rng.randrange(2000)
        open_only = rng.random() < 0.5
        return d + b"\n1. 32-28 " + b"(19-23 " * n + (b"" if open_only else b")" * n) + b" *\n"
    if kind == "one-line":
        return re.sub(rb"\r?\n", b" ", d)
    if kind == "random-bytes":
        return _insert(d, at, rng.randbytes(rng.choice((16, 4096, int(200_000 * scale)))))
    if kind == "line-ends-all":
        return re.sub(rb"\r?\n", lambda _: rng.choice((b"\r", b"\r\n", b"\n", b"\n\r")), d)
    raise ValueError(kind)


def make_cases(windows: list[Window], n: int, seed: int = 16, scale: float = 1.0,
               db_every: int = 8) -> Iterator[Case]:
    """``n`` seeded cases over ``windows``: local and global kinds in turn."""
    rng = random.Random(seed)
    kinds = [(True, k) for k in LOCAL_KINDS] + [(False, k) for k in GLOBAL_KINDS]
    for i in range(n):
        local, kind = kinds[i % len(kinds)]
        w = rng.choice(windows)
        case_seed = rng.randrange(1 << 30)
        crng = random.Random(case_seed)
        if local:
            data, k = mutate_local(crng, w, kind, scale)
            yield Case(case_seed, kind, data, w, k, db=i % db_every == 0)
        else:
            yield Case(case_seed, kind, mutate_global(crng, w, kind, scale), w,
                       db=i % db_every == 0)


# ------------------------------------------------------------------------------------------
# the pipeline, in a worker process


def _status() -> dict[str, int]:
    text = Path("/proc/self/status").read_text()
    return {k: int(re.search(k + r":\s+(\d+)", text).group(1)) * 1024  # type: ignore[union-attr]
            for k in ("VmRSS", "VmHWM")}


def _reset_peak() -> bool:
    try:
        Path("/proc/self/clear_refs").write_text("5")
        return True
    except OSError:
        return False


def pipeline(data: bytes, db: bool) -> Outcome:
    """Read, validate and (``db``) import ``data``; one summary per game (by the reader:
    moves written out, tags, finding codes; by the validator: status, result, plies,
    finding codes)."""
    from pdnkit.pdn.writer import write_game
    from pdnkit.store import import_files
    from pdnkit.validation import validate

    out = Outcome()
    with tempfile.TemporaryDirectory(prefix="pdnkit-fuzz-") as tmp:
        path = Path(tmp) / "case.pdn"
        path.write_bytes(data)
        from pdnkit.pdn.reader import read_games

        read = [(write_game(g), tuple(g.tags), tuple(f.code for f in g.findings))
                for g in read_games(path)]
        reports = [(r.status, r.result, r.replayed_plies, tuple(r.finding_codes()))
                   for r in validate(path, jobs=1, light=True)]
        if len(read) != len(reports):
            raise AssertionError(f"read {len(read)} games, validated {len(reports)}")
        out.games = [a + b for a, b in zip(read, reports, strict=True)]
        if db:
            import duckdb

            dbp = Path(tmp) / "g.duckdb"
            import_files([path], db=dbp)
            con = duckdb.connect(str(dbp), read_only=True)
            try:
                out.db_games = int(con.execute("SELECT count(*) FROM games").fetchall()[0][0])
            finally:
                con.close()
    return out


def _worker(conn) -> None:  # type: ignore[no-untyped-def]  # pragma: no cover - a child
    import gc

    while True:
        msg = conn.recv()
        if msg is None:
            return
        data, db = msg
        gc.collect()
        exact = _reset_peak()
        before = _status()
        start = time.perf_counter()
        try:
            out = pipeline(data, db)
        except BaseException:  # noqa: BLE001 - reported to the parent, which fails the case
            out = Outcome(error=traceback.format_exc())
        out.seconds = time.perf_counter() - start
        after = _status()
        out.rss_growth = max(0, after["VmHWM"] - (before["VmRSS"] if exact else
                                                  before["VmHWM"]))
        conn.send(out)


class Runner:
    """A worker process that runs cases one at a time under a time bound."""

    def __init__(self, timeout: float = 20.0) -> None:
        self.timeout = timeout
        self._ctx = mp.get_context("spawn")
        self._start()

    def _start(self) -> None:
        self._conn, child = self._ctx.Pipe()
        self._proc = self._ctx.Process(target=_worker, args=(child,), daemon=True)
        self._proc.start()
        child.close()

    def run(self, data: bytes, db: bool = False) -> Outcome:
        """The outcome of one case; ``error`` says "timeout" when it ran too long (the
        worker is then killed and replaced) or holds the traceback of an escaped
        exception."""
        self._conn.send((data, db))
        if self._conn.poll(self.timeout * (3 if db else 1)):
            try:
                return self._conn.recv()  # type: ignore[no-any-return]
            except (EOFError, OSError):
                pass
            err = f"worker died (exit code {self._proc.exitcode})"
        else:
            err = f"timeout after {self.timeout:.0f} s"
        self._proc.kill()
        self._proc.join()
        self._start()
        return Outcome(error=err, seconds=self.timeout)

    def close(self) -> None:
        """Stop the worker."""
        try:
            self._conn.send(None)
            self._proc.join(10)
        finally:
            if self._proc.is_alive():
                self._proc.kill()
                self._proc.join()


def memory_bound(case: Case) -> int:
    """The allowed peak memory growth of a case: 20 times its input plus 200 MB."""
    return 20 * len(case.data) + 200 * 2**20


def neighbours_changed(case: Case, before: Outcome, after: Outcome) -> str | None:
    """For a local case: which intact game (before or after the mutated one) came out
    differently, else ``None``. Games after it are matched counting from the end (the
    mutated game may legitimately become several)."""
    if case.game is None:
        return None
    k, n = case.game, len(before.games)
    if len(after.games) < n:
        return f"{len(after.games)} games instead of at least {n}"
    for i in range(k):
        if after.games[i] != before.games[i]:
            return f"game {i} (before the mutated game {k}) changed"
    for j in range(1, n - k):
        if after.games[-j] != before.games[-j]:
            return f"game {n - j} (after the mutated game {k}) changed"
    return None


def case_ok(case: Case, out: Outcome) -> str | None:
    """The first broken promise of a case, or ``None``."""
    if out.error:
        return out.error
    if out.rss_growth > memory_bound(case):
        return f"memory grew by {out.rss_growth >> 20} MB for {len(case.data)} bytes"
    if out.db_games is not None and out.db_games != len(out.games):
        return f"{out.db_games} games loaded, {len(out.games)} read"
    return None


def describe(case: Case) -> str:
    """A line naming a case (enough to reproduce it with the same seed)."""
    return (f"{case.kind} seed={case.seed} window={case.window.name} game={case.game} "
            f"size={len(case.data)}")


__all__ = ["Case", "Outcome", "Runner", "Window", "case_ok", "describe", "generated_windows",
           "make_cases", "memory_bound", "neighbours_changed", "real_windows", "windows_of"]
