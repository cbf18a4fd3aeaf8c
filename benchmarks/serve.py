"""The explorer's answer time, and the server it runs on: a tree node on 100,000 games.

Builds (or reuses, ``--db``) a database of ``--games`` international games: the 2,000 random
legal games of ``../shared/data/bench/intl_2000.pdn`` (or, without the shared folder, games
made by ``pdnkit.samples``) repeated with each copy's players, event and date changed, so the
copies are other games played with the same moves, imported in a fresh process. Then, warm
(one untimed call first; median and best of ``--repeat``):

* the library's ``pdnkit.stats.tree`` for the nodes the page asks most (the initial position,
  after two and four moves of the most played line, a middle-game FEN), the node's board
  (``/api/node``) and the first page of its game list (``/api/games?limit=50``);
* the same questions through ``pdnkit serve``'s own server (the standard library's
  ``ThreadingHTTPServer``) and through Starlette on uvicorn (an ASGI framework and server,
  when installed: ``pip install starlette uvicorn``), both answering with the same
  :class:`pdnkit.serve.Explorer`, one keep-alive connection;
* a node as the page loads it: its three questions (board, tree, games) at once, on three
  connections, through each server;
* the same tree node asked again of ``pdnkit serve`` as it runs (its answers kept: the
  database cannot change while it is served).

Both servers are timed with the kept answers turned off (``cache_bytes=0``): every answer
is computed.

    python benchmarks/serve.py                  # 100,000 games (the import takes minutes)
    python benchmarks/serve.py --games 10000    # a quicker run
    python benchmarks/serve.py --db keep.duckdb # keep (or reuse) the database
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
SOURCE = (Path(os.environ.get("PDNKIT_SHARED_DATA", ROOT.parent / "shared" / "data"))
          / "bench" / "intl_2000.pdn")
TARGET_MS = 200

CHILD = r"""
import json, sys, time
from pdnkit.store import import_files
t = time.perf_counter()
n = import_files([sys.argv[1]], db=sys.argv[2]).games
print(json.dumps({"games": n, "seconds": time.perf_counter() - t}))
"""


def source_games(work: Path) -> str:
    """The PDN text of the games to repeat: the shared random games, else made here."""
    if SOURCE.exists():
        return SOURCE.read_text(encoding="utf-8")
    from pdnkit.pdn import write_games
    from pdnkit.samples.samples import variant_collection

    print(f"no {SOURCE}: making 400 random games with pdnkit.samples ...", flush=True)
    out = work / "made.pdn"
    write_games(variant_collection("international", 400), out)
    return out.read_text(encoding="utf-8")


def replicate(text: str, games: int, out: Path) -> int:
    """Write ``games`` games by repeating the games of ``text``; each copy gets its own
    players, event and year (so no copy is a duplicate of another game: other players,
    another date); returns the count."""
    import re

    blocks = [b.strip() for b in re.split(r"\n\s*\n(?=\[)", text.strip()) if b.strip()]
    n = copy = 0
    with open(out, "w", encoding="utf-8") as f:
        while n < games:
            for b in blocks:
                if n >= games:
                    break
                b = re.sub(r'\[(White|Black) "([^"]*)"\]', rf'[\1 "\2 {copy}"]', b)
                b = re.sub(r'\[Event "', f'[Event "c{copy} ', b, count=1)
                year = 60 - copy % 60
                b = re.sub(r'\[Date "(\d{4})', lambda m, y=year: f'[Date "{int(m.group(1)) - y}',
                           b, count=1)
                f.write(b + "\n\n")
                n += 1
            copy += 1
    return n


def build(db: Path, games: int, work: Path) -> None:
    pdn = work / "games.pdn"
    n = replicate(source_games(work), games, pdn)
    print(f"{n} games, {pdn.stat().st_size / 1e6:.1f} MB of PDN; importing ...", flush=True)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", CHILD, str(pdn), str(db)], env=env,
                         check=True, capture_output=True, text=True).stdout
    r = json.loads(out.strip().splitlines()[-1])
    print(f"import: {r['games'] / r['seconds']:.0f} games/s ({r['seconds']:.0f} s)", flush=True)
    pdn.unlink()


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, float, Any]:
    """Median and best milliseconds of ``repeat`` calls after one untimed call."""
    result = fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), min(times), result


# ------------------------------------------------------------------------------------------
# the two servers, each answering with the same Explorer


def start_stdlib(db: Path, keep: bool = False) -> tuple[str, Callable[[], None]]:
    from pdnkit.serve import make_server
    from pdnkit.serve.handler import CACHE_BYTES

    # keep=False: every answer computed; True: as pdnkit serve runs (answers kept)
    server = make_server(db, port=0, log=False, cache_bytes=CACHE_BYTES if keep else 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()

    def stop() -> None:
        server.close()
        thread.join()

    return f"127.0.0.1:{server.port}", stop


def start_asgi(db: Path, keep: bool = False) -> tuple[str, Callable[[], None]] | None:
    try:
        import uvicorn
        from starlette.applications import Starlette
        from starlette.concurrency import run_in_threadpool
        from starlette.requests import Request
        from starlette.responses import Response
        from starlette.routing import Route
    except ImportError:
        return None
    import socket

    from pdnkit.serve import Explorer
    from pdnkit.serve.handler import CACHE_BYTES

    explorer = Explorer(db, log=False, cache_bytes=CACHE_BYTES if keep else 0)

    async def endpoint(request: Request) -> Response:
        target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        reply = await run_in_threadpool(explorer.respond, request.method, target,
                                        dict(request.headers))
        headers = reply.all_headers()
        headers.pop("Content-Length", None)
        return Response(reply.body, reply.status, headers=headers,
                        media_type=reply.content_type)

    app = Starlette(routes=[Route("/{path:path}", endpoint, methods=["GET", "HEAD"])])
    # IPPROTO_TCP named: asyncio turns Nagle's algorithm off only on sockets that say so (a
    # plain socket.socket() cost every kept-alive answer a delayed ACK, 40 ms)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False,
                                           timeout_keep_alive=600))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)

    def stop() -> None:
        server.should_exit = True
        thread.join()
        explorer.close()

    return f"127.0.0.1:{port}", stop


class Client:
    """One keep-alive connection to a server."""

    def __init__(self, address: str) -> None:
        host, port = address.split(":")
        self.con = http.client.HTTPConnection(host, int(port), timeout=60)
        self.host = address

    def get(self, path: str, params: dict[str, str]) -> Any:
        self.con.request("GET", f"{path}?{urlencode(params)}", headers={"Host": self.host})
        r = self.con.getresponse()
        body = r.read()
        if r.status != 200:
            raise RuntimeError(f"{path}: {r.status} {body[:200]!r}")
        return json.loads(body)


# ------------------------------------------------------------------------------------------


def nodes(db: Path) -> list[tuple[str, dict[str, str]]]:
    """The nodes timed: the initial position, two and four moves of the most played line,
    a middle-game position."""
    from pdnkit.stats import tree
    from pdnkit.store import connect

    con = connect(db, read_only=True)
    line: list[str] = []
    for _ in range(4):
        t = tree(con, variant="international", moves=" ".join(line) or None)
        line.append(str(t.iloc[0]["move"]))
    fen = con.execute("SELECT fen FROM positions WHERE game_id = 1 AND ply = 20").fetchall()[0][0]
    con.close()
    base = {"variant": "international"}
    return [("initial position", base), (f"after {' '.join(line[:2])}", {**base, "moves": " ".join(line[:2])}),
            (f"after {' '.join(line)}", {**base, "moves": " ".join(line)}),
            ("a middle-game FEN (ply 20 of game 1)", {**base, "fen": fen})]


def page_load(address: str, p: dict[str, str]) -> None:
    """A node as the page loads it: board, tree and games asked at once, three connections."""
    threads = [threading.Thread(target=lambda path=path, q=q: Client(address).get(path, q))
               for path, q in (("/api/node", p), ("/api/tree", p),
                               ("/api/games", {**p, "limit": "50"}))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def measure(db: Path, cases: list[tuple[str, dict[str, str]]], servers: dict[str, str],
            repeat: int) -> dict[str, Any]:
    """Every way of asking, round by round (one call of each way per round, so that a load
    that comes and goes weighs on all of them alike); the first round untimed."""
    from pdnkit.serve.nodes import node
    from pdnkit.stats import games, tree
    from pdnkit.store import connect

    con = connect(db, read_only=True)
    clients = {name: Client(address) for name, address in servers.items()}
    out: dict[str, Any] = {}
    for name, p in cases:
        ways: dict[str, Callable[[], Any]] = {
            "library tree": lambda p=p: tree(con, **p),
            "library node": lambda p=p: node(con, **p),
            "library games": lambda p=p: games(con, limit=50, **p),
        }
        for server, client in clients.items():
            ways[f"{server} /api/tree"] = lambda c=client, p=p: c.get("/api/tree", p)
            ways[f"{server} page"] = lambda a=servers[server], p=p: page_load(a, p)
        times: dict[str, list[float]] = {w: [] for w in ways}
        for r in range(repeat + 1):
            for w, fn in ways.items():
                t = time.perf_counter()
                fn()
                if r:
                    times[w].append((time.perf_counter() - t) * 1000)
        got = tree(con, **p)
        out[name] = {w: [statistics.median(v), min(v)] for w, v in times.items()}
        out[name]["games"] = int(got["games"].sum())
        print(f"  {name} ({int(got['games'].sum())} games went on, {len(got)} moves):",
              flush=True)
        for w in ways:
            med, best = out[name][w]
            flag = "  (over the target)" if w.endswith("/api/tree") and med >= TARGET_MS else ""
            print(f"    {w:32s} {med:7.1f} / {best:7.1f} ms{flag}", flush=True)
    for client in clients.values():
        client.con.close()
    con.close()
    return out


def kept_times(db: Path, cases: list[tuple[str, dict[str, str]]],
               repeat: int) -> dict[str, float]:
    """A node asked again of each server with the answers kept (as pdnkit serve runs): the
    answer comes from memory, so the time is the server's own (HTTP, threads, a copy)."""
    out: dict[str, float] = {}
    for label, start in (("stdlib", start_stdlib), ("asgi", start_asgi)):
        started = start(db, keep=True)
        if started is None:
            continue
        address, stop = started
        client = Client(address)
        try:
            meds = [timed(lambda p=p, c=client: c.get("/api/tree", p), repeat * 10)[0]
                    for _, p in cases]
        finally:
            client.con.close()
            stop()
        out[label] = statistics.median(meds)
        print(f"  {label}: a kept answer (the server's own time), median of the nodes: "
              f"{out[label]:.2f} ms", flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=7, help="timed runs (median and best)")
    ap.add_argument("--db", type=Path, help="keep the database here (reused if present)")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="pdnkit-serve-"))
    db = args.db or work / "serve.duckdb"
    if not db.exists():
        build(db, args.games, work)
    from pdnkit.store import connect

    con = connect(db, read_only=True)
    total = con.execute("SELECT count(*) FROM games").fetchall()[0][0]
    con.close()
    print(f"database: {db} ({total} games, {db.stat().st_size / 1e6:.0f} MB)", flush=True)
    cases = nodes(db)
    servers: dict[str, str] = {}
    stops = []
    address, stop = start_stdlib(db)
    servers["stdlib"], stops = address, [stop]
    asgi = start_asgi(db)
    if asgi is None:
        print("Starlette/uvicorn not installed: the ASGI comparison is left out "
              "(pip install starlette uvicorn)")
    else:
        servers["asgi"] = asgi[0]
        stops.append(asgi[1])
    print(f"warm, round by round (median / best of {args.repeat}); stdlib: pdnkit serve "
          "(http.server), asgi: Starlette on uvicorn; page: a node's three questions at once",
          flush=True)
    try:
        result: dict[str, Any] = {"games": total, "nodes": measure(db, cases, servers,
                                                                     args.repeat)}
    finally:
        for stop in stops:
            stop()
    result["kept"] = kept_times(db, cases, args.repeat)
    for server in servers:
        over = [v[f"{server} /api/tree"][0] - v["library tree"][0]
                for v in result["nodes"].values()]
        ratio = [v[f"{server} /api/tree"][0] / v["library tree"][0]
                 for v in result["nodes"].values()]
        print(f"{server}: /api/tree over the library's tree, median of the nodes: "
              f"{statistics.median(over):+.1f} ms ({statistics.median(ratio):.2f}x)")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
