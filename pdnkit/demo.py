"""``pdnkit demo``: import the bundled sample collections and show what pdnkit makes of them.

It imports the bundled samples (:func:`pdnkit.samples.sample_files`) into a fresh database,
writes the game viewer page of every sample game and returns a few overview tables: a job of
the top floor (the store, the viewer and the samples below it).

The module is also callable (``pdnkit.demo(out)`` runs :func:`demo`), so the package
attribute ``pdnkit.demo`` stays the public function even after ``import pdnkit.demo`` (Python
sets a package's attribute to its submodule on import).

Example:
    >>> import pdnkit
    >>> from pdnkit.demo import DEMO_DB
    >>> callable(pdnkit.demo), DEMO_DB
    (True, 'pdnkit-demo.duckdb')
"""

from __future__ import annotations

import sys
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pdnkit.samples import sample_files
from pdnkit.store.ingest import ImportSummary, import_files
from pdnkit.store.ops import summary_tables
from pdnkit.viewer.page import view

#: the database file ``demo`` writes inside its folder
DEMO_DB = "pdnkit-demo.duckdb"
#: the game viewer page ``demo`` writes beside it
DEMO_VIEW = "pdnkit-demo-games.html"


@dataclass
class DemoResult:
    """What :func:`demo` did: the database, the sample files, the import summary and a few
    overview tables (DataFrames by title)."""

    db: Path
    files: list[Path]
    summary: ImportSummary
    tables: dict[str, Any] = field(default_factory=dict)
    view: Path | None = None

    def next_steps(self) -> list[str]:
        """Commands worth trying on the demo database.

        Example:
            >>> from pdnkit.store import ImportSummary
            >>> DemoResult(Path("d.duckdb"), [], ImportSummary("d")).next_steps()[0]
            'pdnkit query "SELECT code, count(*) AS n FROM findings GROUP BY ALL ORDER BY n DESC" --db d.duckdb'
        """
        db = self.db
        flawed = next((f for f in self.files if f.name == "flawed.pdn"), None)
        seen = [f"open {self.view} in a browser: every game on its board, findings included"
                ] if self.view is not None else []
        return [*seen,
            'pdnkit query "SELECT code, count(*) AS n FROM findings GROUP BY ALL ORDER BY n '
            f'DESC" --db {db}',
            'pdnkit query "SELECT white, black, result, plies, status FROM games WHERE '
            f"variant = 'russian' LIMIT 10\" --db {db}",
            f"pdnkit stats openings --db {db} --variant international --plies 2",
            f"pdnkit tree --db {db} --variant russian",
            f"pdnkit duplicates --db {db}",
            f"pdnkit export --db {db} --where \"status = 'ok'\" --out clean.pdn",
            f"pdnkit validate {flawed if flawed else 'FILE.pdn'}",
            f"pdnkit show {flawed if flawed else 'FILE.pdn'} --game 9    # the board at the error",
            "pdnkit explain not-max-capture",
            f"python -c \"import pdnkit; print(pdnkit.query('SELECT * FROM games', "
            f"db='{db}').head())\"",
        ]


def demo(out: str | Path | None = None, *, jobs: int = 1, progress: bool = False) -> DemoResult:
    """Import the bundled samples into a fresh ``DIR/pdnkit-demo.duckdb`` (default folder
    ``./pdnkit-demo``), write the game viewer page ``DIR/pdnkit-demo-games.html`` of every
    sample game, and return the summary, overview tables and the page.

    Example:
        >>> import tempfile
        >>> r = demo(tempfile.mkdtemp())
        >>> r.summary.games > 0, sorted(r.tables)[0]
        (True, 'Findings by code')
    """
    folder = Path(out) if out is not None else Path("pdnkit-demo")
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / DEMO_DB
    for stale in (db, db.with_name(db.name + ".wal")):
        if stale.exists():
            stale.unlink()
    files = sample_files()
    summary = import_files(files, db=db, jobs=jobs, progress=progress)
    tables = summary_tables(db)
    page = view(files, out=folder / DEMO_VIEW, title="pdnkit demo: the sample games").path
    return DemoResult(db=db, files=files, summary=summary, tables={
        "Games by variant and status": tables["variants"],
        "Findings by code": tables["codes"],
        "Results": tables["results"],
    }, view=page)


__all__ = ["DEMO_DB", "DEMO_VIEW", "DemoResult", "demo"]


class _CallableModule(types.ModuleType):
    """A module that runs :func:`demo` when called (see the module doc)."""

    def __call__(self, *args: Any, **kwargs: Any) -> DemoResult:
        return demo(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
