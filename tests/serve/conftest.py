"""A real explorer server for the tests: ``pdnkit.serve.make_server`` bound to 127.0.0.1 on a
free port, serving in a thread, stopped by the fixture, which then checks that nothing of it
is left (its port refuses connections, no thread of it runs)."""

from __future__ import annotations

import json
import socket
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pdnkit.serve import ExplorerServer, make_server


@dataclass
class Served:
    """A running server: its address, its database and the server itself."""

    url: str
    db: Path
    server: ExplorerServer

    def get(self, path: str, headers: dict[str, str] | None = None
            ) -> tuple[int, dict[str, str], bytes]:
        """``GET path``: status, headers (names in lower case), body."""
        req = urllib.request.Request(self.url.rstrip("/") + path, headers=headers or {})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read()
        except urllib.error.HTTPError as exc:
            return exc.code, {k.lower(): v for k, v in exc.headers.items()}, exc.read()

    def json(self, path: str) -> Any:
        status, _, body = self.get(path)
        assert status == 200, body
        return json.loads(body)


def server_threads(port: int) -> list[str]:
    """The threads of the explorer server on ``port`` still alive in this process (its
    connections' threads are named ``pdnkit-serve-PORT-CLIENT``)."""
    return [t.name for t in threading.enumerate() if t.name.startswith(f"pdnkit-serve-{port}")]


def refuses(port: int) -> bool:
    """Whether nothing listens on 127.0.0.1:``port`` any more."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    except OSError:
        return True
    return False


@contextmanager
def serving(db: Path) -> Iterator[Served]:
    """The explorer over ``db`` on a free port of 127.0.0.1, in a thread, until the block
    ends; then stopped, and checked gone."""
    server = make_server(db, port=0, log=False)
    thread = threading.Thread(target=server.serve_forever, name=f"pdnkit-serve-{server.port}")
    thread.start()
    try:
        yield Served(server.url, db, server)
    finally:
        server.close()
        thread.join(timeout=20)
        assert not thread.is_alive()
        assert server_threads(server.port) == []
        assert refuses(server.port)


@pytest.fixture(scope="module")
def demo_db(demo_folder: Path) -> Path:
    """The demo database: 200 records of eight variants, a flawed collection among them."""
    return demo_folder / "pdnkit-demo.duckdb"


def games_once(db: Path) -> int:
    """The games of ``db`` counted once (its records that stand for their copies): what the
    explorer counts, read from the database itself."""
    import shutil
    import tempfile

    import duckdb

    with tempfile.TemporaryDirectory() as tmp:  # (a copy: a server of this process has it open)
        copy = Path(tmp) / db.name
        shutil.copy(db, copy)
        con = duckdb.connect(str(copy), read_only=True)
        try:
            n, records = con.execute("SELECT count(*) FILTER (WHERE duplicate_of IS NULL), "
                                     "count(*) FROM games").fetchone()  # type: ignore[misc]
        finally:
            con.close()
    assert 0 < n < records  # the demo holds a copy of a game
    return int(n)


@pytest.fixture(scope="module")
def served(demo_db: Path) -> Iterator[Served]:
    """The explorer over the demo database."""
    with serving(demo_db) as s:
        yield s
