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

    def collections(self) -> tuple[list[Path], list[Path]]:
        """The sample collections and the flawed collection's files (``flawed.pdn`` and
        its CP1252 copy), as the Quick start counts them.

        Example:
            >>> r = DemoResult(Path("d"), [Path("a.pdn"), Path("flawed.pdn")], ImportSummary("d"))
            >>> [len(x) for x in r.collections()]
            [1, 1]
        """
        flawed = [f for f in self.files if f.name.startswith("flawed")]
        return [f for f in self.files if f not in flawed], flawed

    def headline(self) -> str:
        """The demo's first line: what was imported, counted as the README counts it.

        Example:
            >>> files = [Path("x/a.pdn"), Path("x/flawed.pdn"), Path("x/flawed-cp1252.pdn")]
            >>> DemoResult(Path("d.duckdb"), files, ImportSummary("d")).headline()
            'pdnkit demo: 1 sample collection plus the deliberately flawed one (flawed.pdn, also as flawed-cp1252.pdn), 3 files in x -> d.duckdb'
        """
        good, flawed = self.collections()
        folder = self.files[0].parent if self.files else Path("no samples")
        text = f"pdnkit demo: {len(good)} sample collection{'s' if len(good) != 1 else ''}"
        if flawed:
            main = "flawed.pdn" if any(f.name == "flawed.pdn" for f in flawed) else flawed[0].name
            copies = ", ".join(f.name for f in flawed if f.name != main)
            text += f" plus the deliberately flawed one ({main}" + (
                f", also as {copies})" if copies else ")")
        return f"{text}, {len(self.files)} files in {folder} -> {self.db}"

    def next_steps(self, program: str = "pdnkit") -> list[str]:
        """Commands worth trying on the demo database, each starting with ``program`` (how
        pdnkit was started: ``.venv/bin/pdnkit`` when it is not on the PATH, see
        :func:`program_name`).

        Example:
            >>> from pdnkit.store import ImportSummary
            >>> DemoResult(Path("d.duckdb"), [], ImportSummary("d")).next_steps()[0]
            'pdnkit query "SELECT code, count(*) AS n FROM findings GROUP BY ALL ORDER BY n DESC" --db d.duckdb'
            >>> DemoResult(Path("d.duckdb"), [], ImportSummary("d")).next_steps(
            ...     ".venv/bin/pdnkit")[-1][:20]
            '.venv/bin/python -c '
        """
        db = self.db
        p = program
        folder = Path(program).parent if "/" in program and " " not in program else None
        python = str(folder / "python") if folder is not None else "python"
        flawed = next((f for f in self.files if f.name == "flawed.pdn"), None)
        seen = [f"open {self.view} in a browser: every game on its board, findings included"
                ] if self.view is not None else []
        return [*seen,
            f'{p} query "SELECT code, count(*) AS n FROM findings GROUP BY ALL ORDER BY n '
            f'DESC" --db {db}',
            f'{p} query "SELECT white, black, result, plies, status FROM games WHERE '
            f"variant = 'russian' LIMIT 10\" --db {db}",
            f"{p} stats openings --db {db} --variant international --plies 2",
            f"{p} tree --db {db} --variant russian",
            f"{p} duplicates --db {db}",
            f"{p} export --db {db} --where \"status = 'ok'\" --out clean.pdn",
            f"{p} validate {flawed if flawed else 'FILE.pdn'}",
            f"{p} show {flawed if flawed else 'FILE.pdn'} --game 9    # the board at the error",
            f"{p} explain not-max-capture",
            f"{python} -c \"import pdnkit; print(pdnkit.query('SELECT * FROM games', "
            f"db='{db}').head())\"",
        ]


def program_name(argv0: str, on_path: str | None) -> str:
    """How to start pdnkit again, as the demo's "Try next" lines write it: ``pdnkit`` when
    the PATH finds the same program (``on_path``: ``shutil.which("pdnkit")``), else the path
    it was started by (``.venv/bin/pdnkit`` after the Quick start), ``python -m pdnkit`` for
    ``python -m``.

    Example:
        >>> program_name(".venv/bin/pdnkit", None)
        '.venv/bin/pdnkit'
        >>> program_name("/usr/bin/pdnkit", "/usr/bin/pdnkit")
        'pdnkit'
    """
    import os

    if os.path.basename(argv0) == "__main__.py":
        return "python -m pdnkit"
    if on_path and os.path.realpath(on_path) == os.path.realpath(argv0):
        return "pdnkit"
    rel = os.path.relpath(argv0) if os.path.isabs(argv0) else argv0
    return rel if not rel.startswith("..") else argv0


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


__all__ = ["DEMO_DB", "DEMO_VIEW", "DemoResult", "demo", "program_name"]


class _CallableModule(types.ModuleType):
    """A module that runs :func:`demo` when called (see the module doc)."""

    def __call__(self, *args: Any, **kwargs: Any) -> DemoResult:
        return demo(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
