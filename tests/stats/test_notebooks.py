"""The notebooks run top to bottom on the bundled demo data (so they can never rot)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.fixture(scope="module")
def demo_db(demo_folder_or_skip: Path) -> Path:
    from pdnkit.demo import DEMO_DB

    return demo_folder_or_skip / DEMO_DB


@pytest.fixture(scope="module")
def demo_folder_or_skip(request: pytest.FixtureRequest) -> Path:
    """The shared demo folder (tests/conftest.py); skipped without the bundled samples."""
    from pdnkit.samples import sample_dir

    try:
        sample_dir()
    except FileNotFoundError:
        pytest.skip("the bundled demo collections are not available")
    return request.getfixturevalue("demo_folder")  # type: ignore[no-any-return]


def test_the_two_notebooks_exist():
    names = {p.name for p in NOTEBOOKS}
    assert {"openings.ipynb", "draw_rules.ipynb"} <= names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path: Path, demo_db: Path, monkeypatch, tmp_path) -> None:
    import nbformat
    from nbclient import NotebookClient

    monkeypatch.setenv("PDNKIT_NOTEBOOK_DB", str(demo_db))
    book = nbformat.read(path, as_version=4)
    NotebookClient(book, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [o for c in book.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors
    # every figure cell produced an image
    images = [o for c in book.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if "image/png" in o.get("data", {})]
    assert len(images) >= 2
