"""``pdnkit serve``: a local explorer of a database in the browser -- the opening explorer
(a board, the moves played from the position with their results, transpositions merged, the
opening's name), the game list of each node with filters, the game viewer of ``pdnkit view``
(with the engine's evaluations where the game was analysed), search on a board and the
statistics -- over a read-only connection, on 127.0.0.1, with a JSON API under ``/api/``
that answers with the rows the command line writes.

The rooms (names are imported lazily from them):

* :mod:`~pdnkit.serve.server` -- :func:`serve`, :func:`make_server`, :class:`ExplorerServer`
  (the standard library's threading HTTP server);
* :mod:`~pdnkit.serve.handler` -- :class:`Explorer`: a request in, a :class:`Reply` out (routes,
  security headers);
* :mod:`~pdnkit.serve.endpoints` -- the JSON endpoints, each a shell over a library function;
* :mod:`~pdnkit.serve.nodes` -- :func:`node`, the board of a node of the explorer;
* :mod:`~pdnkit.serve.games` -- one game: the view page and its JSON with its evaluations.

Example:
    >>> from pdnkit.serve import make_server
    >>> server = make_server(":memory:", port=0, log=False)
    >>> server.app.respond("GET", "/api/info", {"Host": server.url[7:-1]}).status
    200
    >>> server.close()
"""

from __future__ import annotations

from pdnkit._lazy import lazy_exports

_API: dict[str, str] = {
    "serve": "pdnkit.serve.server",
    "make_server": "pdnkit.serve.server",
    "ExplorerServer": "pdnkit.serve.server",
    "ServeError": "pdnkit.serve.server",
    "Explorer": "pdnkit.serve.handler",
    "Reply": "pdnkit.serve.handler",
    "node": "pdnkit.serve.nodes",
}

__all__ = sorted(_API)

__getattr__, __dir__ = lazy_exports(__name__, _API, globals())
