"""The explorer as a plain function of a request: :class:`Explorer` answers a method, a
request target and its headers with a :class:`Reply`, whatever carries the bytes (the
standard library's HTTP server in :mod:`pdnkit.serve.server`; ``benchmarks/serve.py`` puts
the same object behind an ASGI server to compare).

What it answers, and nothing else:

* ``GET /``: the explorer page; ``/static/NAME``: its script, style and icon (package data,
  by name from a fixed list: no path of the request ever reaches the file system);
* ``GET /view/N``: the view page of game N (``pdnkit view``'s page, one game);
* ``GET /api/...``: JSON (:mod:`pdnkit.serve.endpoints`), ``/api/info`` included;
* ``HEAD`` of the same; any other method is refused (405): the server never writes, and the
  database is open read-only besides.

Every reply carries a Content-Security-Policy that allows only this server's own scripts,
styles and requests (the view page's inline script and style by their hashes), no framing by
other sites, no referrer and ``nosniff``. A request whose ``Host`` is not the address the
server listens on is refused (421) while it listens on the loopback interface, so a web page
elsewhere cannot reach it through a name that resolves to 127.0.0.1 (DNS rebinding).

Example:
    >>> app = Explorer(":memory:")
    >>> app.respond("GET", "/api/tree?variant=russian", {}).status
    200
    >>> app.respond("POST", "/api/tree", {}).status
    405
    >>> app.respond("GET", "/static/../pyproject.toml", {}).status
    404
    >>> app.close()
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import sys
import threading
import traceback
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, unquote, urlsplit

from pdnkit.errors import PdnkitError

if TYPE_CHECKING:  # pragma: no cover
    import duckdb

    from pdnkit.store.session import DbLike

__all__ = ["ASSETS", "MAX_TARGET", "Explorer", "Reply", "page_policy"]

#: the files the page is made of: request path -> (package file, content type)
ASSETS = {
    "/": ("explorer.html", "text/html; charset=utf-8"),
    "/static/explorer.js": ("explorer.js", "text/javascript; charset=utf-8"),
    "/static/explorer.css": ("explorer.css", "text/css; charset=utf-8"),
    "/static/favicon.svg": ("favicon.svg", "image/svg+xml"),
}
#: the longest request target answered (a search pattern or a long move sequence fits)
MAX_TARGET = 8192
#: how many requests read the database at once (the others wait their turn)
READERS = 4
#: the answers kept, at most (a question asked again is answered from memory: nothing can
#: change the database while the server holds it open, a writer is refused)
CACHE_BYTES = 64 * 2 ** 20

_COMMON = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "X-Frame-Options": "SAMEORIGIN",
}
_POLICY = ("default-src 'none'; script-src {script}; style-src {style}; img-src 'self' data:; "
           "connect-src 'self'; frame-src 'self'; frame-ancestors 'self'; base-uri 'none'; "
           "form-action 'none'")


def page_policy(page: str | None = None) -> str:
    """The Content-Security-Policy of a reply: this server's own files only; for an HTML
    ``page`` with inline ``<script>`` and ``<style>`` elements (the view page), those by
    their SHA-256 hashes.

    >>> page_policy().startswith("default-src 'none'; script-src 'self'; style-src 'self'")
    True
    >>> "'sha256-" in page_policy("<style>b{}</style><script>1</script>")
    True
    """
    if page is None:
        return _POLICY.format(script="'self'", style="'self'")

    def hashes(tag: str) -> str:
        found = re.findall(f"<{tag}>(.*?)</{tag}>", page, flags=re.S)
        digests = [base64.b64encode(hashlib.sha256(t.encode("utf-8")).digest()).decode()
                   for t in found]
        return " ".join(f"'sha256-{d}'" for d in digests) or "'none'"

    return _POLICY.format(script=hashes("script"), style=hashes("style"))


@dataclass
class Reply:
    """An answer: status, body, content type and the headers beside the common ones."""

    status: int
    body: bytes
    content_type: str = "application/json; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)

    def all_headers(self) -> dict[str, str]:
        """Every header of the reply (length, type, the security headers, its own)."""
        out = {"Content-Type": self.content_type, "Content-Length": str(len(self.body)),
               **_COMMON, "Content-Security-Policy": page_policy()}
        out.update(self.headers)
        return out


def _json(value: object, status: int = 200, headers: dict[str, str] | None = None) -> Reply:
    from pdnkit._cells import json_default

    body = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=json_default)
    return Reply(status, body.encode("utf-8"), headers={"Cache-Control": "no-store",
                                                         **(headers or {})})


def _error(status: int, message: str, api: bool) -> Reply:
    if api:
        return _json({"error": message}, status)
    return Reply(status, (message + "\n").encode("utf-8"), "text/plain; charset=utf-8")


class _Answers:
    """The JSON answers already given, by question, the least recently asked dropped first
    past ``limit`` bytes (0: none kept)."""

    def __init__(self, limit: int) -> None:
        from collections import OrderedDict

        self.limit = limit
        self.size = 0
        self.kept: OrderedDict[object, Reply] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: object) -> Reply | None:
        with self.lock:
            reply = self.kept.get(key)
            if reply is not None:
                self.kept.move_to_end(key)
                return Reply(reply.status, reply.body, reply.content_type, dict(reply.headers))
        return None

    def keep(self, key: object, reply: Reply) -> Reply:
        if len(reply.body) * 4 > self.limit:  # none kept, or too big to keep
            return reply
        with self.lock:
            if key not in self.kept:
                self.kept[key] = reply
                self.size += len(reply.body)
            while self.size > self.limit:
                _, old = self.kept.popitem(last=False)
                self.size -= len(old.body)
        return Reply(reply.status, reply.body, reply.content_type, dict(reply.headers))


class Explorer:
    """The explorer over one database, opened read-only (a DuckDB file or a lake folder;
    see :func:`pdnkit.store.connect`) until :meth:`close`. ``allowed_hosts``: the ``Host``
    values accepted (``None``: any; the server sets it to its own loopback address);
    ``cache_bytes``: how much memory the answers already given may keep (a question asked
    again, Back in the browser, is then answered at once; 0 keeps none)."""

    def __init__(self, db: DbLike, *, allowed_hosts: frozenset[str] | None = None,
                 log: bool = True, cache_bytes: int = CACHE_BYTES) -> None:
        from pdnkit.store import connect

        self.con: duckdb.DuckDBPyConnection = connect(db, read_only=True)
        self.name = Path(str(db)).name if db is not None else "pdnkit.duckdb"
        self.allowed_hosts = allowed_hosts
        self.log = log
        self._readers = threading.BoundedSemaphore(READERS)
        self._cache = _Answers(cache_bytes)

    def close(self) -> None:
        """Close the database."""
        self.con.close()

    def warm(self, variant: str | None = None) -> None:
        """Answer the first question before anyone asks it: the tree and board of the
        initial position of ``variant`` (default: the variant with most games), so the
        opening tables and the first scans are loaded when the page first asks."""
        from pdnkit.serve.endpoints import info

        cur = self.con.cursor()
        try:
            variants = info(cur, self.name)["variants"]
            chosen = variant or (variants[0]["variant"] if variants else None)
            if chosen:
                self._api("/api/tree", {"variant": [chosen]})
                self._api("/api/node", {"variant": [chosen]})
        finally:
            cur.close()

    # ------------------------------------------------------------------------------------

    def respond(self, method: str, target: str, headers: Mapping[str, str]) -> Reply:
        """The reply to one request (see the module's text); never raises."""
        try:
            return self._respond(method.upper(), target, headers)
        except Exception:  # a bug: the traceback to the log, one line to the page
            if self.log:
                traceback.print_exc(file=sys.stderr)
            return _error(500, "internal error (the server's log says more)",
                          target.startswith("/api/"))

    def _respond(self, method: str, target: str, headers: Mapping[str, str]) -> Reply:
        if len(target) > MAX_TARGET:
            return _error(414, f"request target over {MAX_TARGET} characters", False)
        parts = urlsplit(target)
        path = unquote(parts.path)
        api = path.startswith("/api/")
        if method not in ("GET", "HEAD"):
            reply = _error(405, f"{method} is refused: this server only reads (GET, HEAD)",
                           api)
            reply.headers["Allow"] = "GET, HEAD"
            return reply
        host = {k.lower(): v for k, v in headers.items()}.get("host", "")
        if self.allowed_hosts is not None and host.lower() not in self.allowed_hosts:
            return _error(421, f"this server answers only to {sorted(self.allowed_hosts)[0]} "
                          f"(the request asked for {host or 'no host'!r})", api)
        if parts.scheme or parts.netloc or not path.startswith("/") or any(
                bad in path for bad in ("..", "\\", "\x00", "//")):
            return _error(404, "not found", api)
        if path in ASSETS:
            return self._asset(path)
        if path == "/favicon.ico":
            return self._asset("/static/favicon.svg")
        if path.startswith("/view/"):
            return self._view(path[len("/view/"):], parts.query)
        if api:
            return self._api(path, parse_qs(parts.query, keep_blank_values=True))
        return _error(404, "not found", False)

    def _asset(self, path: str) -> Reply:
        name, kind = ASSETS[path]
        body = resources.files("pdnkit.serve").joinpath(name).read_bytes()
        return Reply(200, body, kind, {"Cache-Control": "no-cache"})

    def _view(self, number: str, query: str) -> Reply:
        from pdnkit.serve.games import view_page

        if not number.isdigit() or not 0 < int(number) < 2 ** 63:
            return _error(404, "not found: /view/N, N a game_id", False)
        embedded = parse_qs(query).get("embed", [""])[-1] == "1"
        with self._readers:
            cur = self.con.cursor()
            try:
                page = view_page(cur, int(number), embedded=embedded)
            finally:
                cur.close()
        if page is None:
            return _error(404, f"no game with game_id {number} in the database", False)
        return Reply(200, page.encode("utf-8"), "text/html; charset=utf-8",
                     {"Content-Security-Policy": page_policy(page),
                      "Cache-Control": "no-store"})

    def _api(self, path: str, query: dict[str, list[str]]) -> Reply:
        import duckdb

        from pdnkit.serve.endpoints import ENDPOINTS, answer, info

        if path != "/api/info" and path not in ENDPOINTS:
            known = ", ".join(["/api/info", *ENDPOINTS])
            return _error(404, f"no endpoint {path} (known: {known})", True)
        key = (path, tuple(sorted((k, tuple(v)) for k, v in query.items())))
        kept = self._cache.get(key)
        if kept is not None:
            return kept
        with self._readers:
            cur = self.con.cursor()
            try:
                if path == "/api/info":
                    if query:
                        return _error(400, "/api/info takes no parameter", True)
                    return _json(info(cur, self.name))
                got = answer(path, query, cur)
                return self._cache.keep(key, _json(got.body, headers=got.headers))
            except (PdnkitError, ValueError) as exc:  # bad input: the CLI's one line
                return _error(400, str(exc).splitlines()[0] if str(exc) else
                              type(exc).__name__, True)
            except duckdb.Error as exc:  # the database failed (a damaged lake part ...)
                return _error(500, str(exc).splitlines()[0], True)
            finally:
                cur.close()
