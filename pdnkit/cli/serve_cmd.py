"""``pdnkit serve``: the explorer of a database in the browser.

A thin shell over :func:`pdnkit.serve.serve`.
"""

from __future__ import annotations

import typer

from pdnkit.cli.app import app, usage_errors
from pdnkit.cli.options import Db


@app.command("serve", epilog=(
    "Examples:\n\n"
    "  [bold]pdnkit serve --db club.duckdb --open[/bold]\n\n"
    "  [bold]pdnkit serve --db club.duckdb --port 8080[/bold]\n\n"
    "  [bold]curl \"http://127.0.0.1:8000/api/tree?variant=international&moves=32-28+19-23\""
    "[/bold]   (the rows of [bold]pdnkit tree --format json[/bold])\n\n"
    "The API: /api/tree, /api/games, /api/search, /api/stats, /api/node, /api/game, "
    "/api/info (docs/explorer.md)."))
def serve_command(
    db: Db = None,
    host: str = typer.Option("127.0.0.1", "--host", help="The address to listen on. Other "
                             "than this machine's loopback (127.0.0.1, ::1, localhost), "
                             "anyone who reaches it reads the database: a warning says so."),
    port: int = typer.Option(8000, "--port", min=0, max=65535,
                             help="The port to listen on (0: any free port; the line printed "
                                  "at the start says which)."),
    open_browser: bool = typer.Option(False, "--open", help="Open the page in the browser "
                                      "once the server listens."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No log line a request on "
                               "standard error."),
) -> None:
    """Explore the database in the browser: the opening explorer, the games of each
    position, the game viewer, search on a board and the statistics.

    A read-only server on 127.0.0.1 (the database is opened read-only and the server
    answers only GET), with every script and style its own, until Ctrl-C. Every number on
    the page comes from the library functions the commands call: its JSON API answers with
    the rows of [bold]pdnkit tree[/bold], [bold]games[/bold], [bold]search[/bold] and
    [bold]stats[/bold] [cyan]--format json[/cyan]. While it runs, nothing can write the
    database (an import or an alias ends with one error line): stop it first.
    """
    from pdnkit.serve import serve
    from pdnkit.serve.server import host_warning

    warning = host_warning(host)
    if warning:
        typer.echo(f"pdnkit: warning: {warning}", err=True)
    with usage_errors():  # no database, an older one, the port in use
        serve(db, host=host, port=port, open_browser=open_browser, log=not quiet,
              announce=typer.echo)
