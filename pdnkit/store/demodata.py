"""``pdnkit demo``: import the bundled sample collections and show what pdnkit makes of them.

The samples live in the repository's ``data/`` folder, which the wheel ships as
``pdnkit/data`` (one copy; :func:`sample_dir` finds it in both places).

Example:
    >>> sample_dir().name
    'data'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pdnkit.store.ingest import ImportSummary, import_files
from pdnkit.store.ops import summary_tables

#: the database file ``demo`` writes inside its folder
DEMO_DB = "pdnkit-demo.duckdb"
#: the game viewer page ``demo`` writes beside it
DEMO_VIEW = "pdnkit-demo-games.html"


def sample_dir() -> Path:
    """The folder holding the bundled ``*.pdn`` samples: ``pdnkit/data`` in an installed
    wheel, else ``data/`` of the source tree. Raises ``FileNotFoundError`` when neither exists.

    Example:
        >>> any(sample_dir().glob("*.pdn"))
        True
    """
    here = Path(__file__).resolve()
    candidates = [here.parent.parent / "data", here.parents[2] / "data"]
    for c in candidates:
        if c.is_dir() and any(c.glob("*.pdn")):
            return c
    raise FileNotFoundError("the pdnkit sample collections are not installed "
                            f"(looked in {', '.join(str(c) for c in candidates)})")


def sample_files() -> list[Path]:
    """The bundled sample collections, sorted by name.

    Example:
        >>> [p.suffix for p in sample_files()][:1]
        ['.pdn']
    """
    return sorted(sample_dir().glob("*.pdn"))


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
            >>> from pdnkit.store.ingest import ImportSummary
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
    from pdnkit.viewer.page import view

    page = view(files, out=folder / DEMO_VIEW, title="pdnkit demo: the sample games").path
    return DemoResult(db=db, files=files, summary=summary, tables={
        "Games by variant and status": tables["variants"],
        "Findings by code": tables["codes"],
        "Results": tables["results"],
    }, view=page)
