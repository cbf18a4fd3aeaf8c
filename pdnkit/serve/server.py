"""``pdnkit serve``: the explorer on the standard library's threading HTTP server.

:func:`make_server` binds the address (127.0.0.1 unless told otherwise; port 0 takes any free
port) and gives an :class:`ExplorerServer` to run and stop; :func:`serve` runs one until Ctrl-C
or SIGTERM and closes the database. Each request is answered in its own thread by
:class:`~pdnkit.serve.handler.Explorer` (no more than four read the database at once); a request
line or header over the standard library's limits, or a client silent for
:data:`IDLE_SECONDS`, is dropped. The log goes to standard error, one line a request, with
every control character of the request escaped (:func:`pdnkit.viewer.text.terminal`).

Why the standard library and not an ASGI or WSGI framework: measured in
``benchmarks/serve.py`` (a tree node on 100,000 games), the answer is the database's time; the
server adds a millisecond either way, and the standard library needs no dependency.

Example:
    >>> server = make_server(":memory:", port=0, log=False)
    >>> server.url.startswith("http://127.0.0.1:")
    True
    >>> server.close()
"""

from __future__ import annotations

import contextlib
import errno
import ipaddress
import signal
import socket
import sys
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

from pdnkit.errors import PdnkitError
from pdnkit.serve.handler import CACHE_BYTES, Explorer, Reply

if TYPE_CHECKING:  # pragma: no cover
    from pdnkit.store.session import DbLike

__all__ = ["DEFAULT_PORT", "IDLE_SECONDS", "ExplorerServer", "ServeError", "host_warning",
           "is_loopback", "make_server", "serve"]

#: the port ``pdnkit serve`` listens on unless told
DEFAULT_PORT = 8000
#: a connection that sends nothing for this long is closed
IDLE_SECONDS = 30.0


class ServeError(PdnkitError, OSError):
    """The server cannot start: its port is taken, its address is not this machine's."""


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine's loopback interface only.

    >>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("::1")
    (True, True, True)
    >>> is_loopback("0.0.0.0"), is_loopback("192.168.1.5"), is_loopback("example.org")
    (False, False, False)
    """
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def host_warning(host: str) -> str | None:
    """The warning ``pdnkit serve`` prints for a ``--host`` that is not loopback (``None``
    for one that is).

    >>> host_warning("127.0.0.1") is None
    True
    >>> print(host_warning("0.0.0.0"))
    listening on 0.0.0.0, not only on this machine: anyone who can reach it over the network can read the whole database
    """
    if is_loopback(host):
        return None
    return (f"listening on {host}, not only on this machine: anyone who can reach it over "
            "the network can read the whole database")


class _Handler(BaseHTTPRequestHandler):
    """One request: handed to the server's :class:`Explorer` as it is."""

    server: ExplorerServer
    protocol_version = "HTTP/1.1"  # keep-alive: the page asks several questions a node
    # headers and body go out as two writes: with Nagle's algorithm the body waited for the
    # client's delayed ACK, 40 ms an answer on a kept-alive connection (benchmarks/serve.py)
    disable_nagle_algorithm = True
    server_version = "pdnkit-explorer"
    sys_version = ""
    timeout = IDLE_SECONDS

    def version_string(self) -> str:
        return self.server_version

    def _answer(self, body: bool = True) -> None:
        reply = self.server.app.respond(self.command, self.path, dict(self.headers.items()))
        self._send(reply, body)

    def _send(self, reply: Reply, body: bool) -> None:
        self.send_response(reply.status)
        for name, value in reply.all_headers().items():
            self.send_header(name, value)
        self.end_headers()
        if body:
            try:
                self.wfile.write(reply.body)
            except (BrokenPipeError, ConnectionResetError):  # the page asked elsewhere
                self.close_connection = True

    def send_error(self, code: int, message: str | None = None,
                   explain: str | None = None) -> None:
        """A request the standard library refuses before the explorer sees it (a garbled
        request line, a header over its limits): plain text, with the explorer's headers."""
        self.close_connection = True
        text = f"{code} {message or self.responses.get(code, ('error',))[0]}"
        self._send(Reply(code, (text + "\n").encode("utf-8", "replace"),
                         "text/plain; charset=utf-8"), self.command != "HEAD")

    def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
        self._answer()

    def do_HEAD(self) -> None:  # noqa: N802
        self._answer(body=False)

    def _refuse(self) -> None:
        self.close_connection = True  # its body, if any, is never read
        self._answer()

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = _refuse

    def log_message(self, format: str, *args: object) -> None:
        if self.server.app.log:
            from pdnkit.viewer.text import terminal

            sys.stderr.write(terminal(f"{self.address_string()} {format % args}") + "\n")


class ExplorerServer(ThreadingHTTPServer):
    """The explorer's HTTP server (see the module's text): :meth:`serve_forever` in a
    thread or the main one, :meth:`close` to stop it and close the database."""

    daemon_threads = True
    app: Explorer

    def __init__(self, app: Explorer, host: str, port: int) -> None:
        self.app = app
        self._lock = threading.Lock()
        self._open: dict[socket.socket, threading.Thread] = {}  # connection -> its thread
        self.address_family = _family(host)
        try:
            super().__init__((host, port), _Handler)
        except OSError as exc:
            app.close()
            if exc.errno == errno.EADDRINUSE:
                raise ServeError(f"port {port} on {host} is in use: give another with "
                                 "--port (0 takes any free port)") from None
            raise ServeError(f"cannot listen on {host} port {port}: "
                             f"{exc.strerror or exc}") from None
        self.host = host
        self.port = int(self.server_address[1])
        if is_loopback(host):  # answer only to the names of this address (DNS rebinding)
            names = {host.lower(), "localhost", "127.0.0.1", "[::1]"}
            if ":" in host and not host.startswith("["):
                names.add(f"[{host.lower()}]")
            app.allowed_hosts = frozenset(f"{n}:{self.port}" for n in names) | (
                frozenset(names) if self.port == 80 else frozenset())

    def handle_error(self, request: object, client_address: object) -> None:
        """A client that went away is no error; anything else is logged (never answered:
        :class:`Explorer` answers every request itself)."""
        kind = sys.exc_info()[0]
        if kind is not None and issubclass(kind, (ConnectionError, TimeoutError)):
            return
        if self.app.log:
            super().handle_error(request, client_address)  # type: ignore[arg-type]

    @property
    def url(self) -> str:
        """The page's address."""
        shown = f"[{self.host}]" if ":" in self.host and not self.host.startswith("[") \
            else self.host
        return f"http://{shown}:{self.port}/"

    def process_request(self, request: Any, client_address: Any) -> None:
        """Answer a connection in a thread of its own (named ``pdnkit-serve-PORT-CLIENT``,
        PORT the server's), kept until the connection ends so that :meth:`close` can end
        it."""
        thread = threading.Thread(target=self.process_request_thread,
                                  args=(request, client_address), daemon=True,
                                  name=f"pdnkit-serve-{self.port}-{client_address[1]}")
        with self._lock:
            self._open[request] = thread
        thread.start()

    def shutdown_request(self, request: Any) -> None:
        with self._lock:
            self._open.pop(request, None)
        super().shutdown_request(request)

    def close(self) -> None:
        """Stop serving (when running), close the listening socket, end the open
        connections (a browser keeps some open) and wait for their threads, then close the
        database: nothing of the server is left."""
        if getattr(self, "_running", False):
            self.shutdown()
        self.server_close()
        with self._lock:
            open_now = list(self._open.items())
        for connection, _ in open_now:
            with contextlib.suppress(OSError):  # already closed by its client
                connection.shutdown(socket.SHUT_RDWR)
        for _, thread in open_now:
            thread.join(timeout=10)
        self.app.close()

    def serve_forever(self, poll_interval: float = 0.2) -> None:
        self._running = True
        try:
            super().serve_forever(poll_interval)
        finally:
            self._running = False


def _family(host: str) -> int:
    try:
        return socket.AF_INET6 if ipaddress.ip_address(host.strip("[]")).version == 6 \
            else socket.AF_INET
    except ValueError:  # a name: as the system resolves it
        return socket.AF_INET


def make_server(db: DbLike, *, host: str = "127.0.0.1", port: int = DEFAULT_PORT,
                log: bool = True, cache_bytes: int = CACHE_BYTES) -> ExplorerServer:
    """An :class:`ExplorerServer` for ``db`` (opened read-only now), bound to ``host`` and
    ``port`` (0: any free port; :attr:`ExplorerServer.url` says which) and not yet serving
    (``cache_bytes``: see :class:`~pdnkit.serve.handler.Explorer`). A port in use or an address
    not of this machine raises :class:`ServeError`."""
    return ExplorerServer(Explorer(db, log=log, cache_bytes=cache_bytes), host.strip("[]"),
                          port)


def serve(db: DbLike, *, host: str = "127.0.0.1", port: int = DEFAULT_PORT,
          open_browser: bool = False, log: bool = True,
          announce: Callable[[str], None] = print) -> None:
    """Serve the explorer over ``db`` until Ctrl-C or SIGTERM (then the socket and the
    database are closed and the function returns). ``announce`` gets the line that says
    where the page is, once the server listens and has answered its first question (the
    tree of the initial position); ``open_browser`` then opens the page.

    Example (not run: it serves until stopped)::

        serve("club.duckdb", port=8000, open_browser=True)
    """
    server = make_server(db, host=host, port=port, log=log)
    try:
        server.app.warm()
        from pdnkit.serve.endpoints import info

        games = info(server.app.con, server.app.name)["games"]  # each game once
        announce(f"pdnkit explorer on {server.url} ({games} games in {server.app.name}); "
                 "Ctrl-C stops it")
        if open_browser:
            import webbrowser

            webbrowser.open(server.url)
        _stop_on_sigterm()
        with contextlib.suppress(KeyboardInterrupt):
            server.serve_forever()
    finally:
        server.close()


def _stop_on_sigterm() -> None:
    """SIGTERM ends :func:`serve` as Ctrl-C does (in the main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        return

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
