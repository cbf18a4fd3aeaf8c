"""The bundled sample collections: where they are (:func:`sample_dir`) and the seeded
generators that wrote them (:mod:`.samples`: games played by a small search, one collection
per variant; :mod:`.flawed`: one small game per finding code).

``python -m pdnkit.samples [OUT_DIR]`` rewrites them (default: the repository's ``data/``).
The samples live in the repository's ``data/`` folder, which the wheel ships as
``pdnkit/data`` (one copy; :func:`sample_dir` finds it in both places).

Example:
    >>> sample_dir().name, sample_files()[0].suffix
    ('data', '.pdn')
"""

from __future__ import annotations

from pathlib import Path

from pdnkit.errors import MissingFileError


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
    raise MissingFileError("the pdnkit sample collections are not installed "
                            f"(looked in {', '.join(str(c) for c in candidates)})")


def sample_files() -> list[Path]:
    """The bundled sample collections, sorted by name.

    Example:
        >>> [p.suffix for p in sample_files()][:1]
        ['.pdn']
    """
    return sorted(sample_dir().glob("*.pdn"))


__all__ = ["sample_dir", "sample_files"]
