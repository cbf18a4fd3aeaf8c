"""Where the endgame databases live: the databases' folder, found without loading the file
format (a validate of games no database covers only asks whether the folder exists).

Example:
    >>> import os
    >>> default_dir().name == "egdb" or "PDNKIT_EGDB" in os.environ
    True
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["default_dir"]


def default_dir() -> Path:
    """The databases' folder: ``$PDNKIT_EGDB``, else ``$XDG_CACHE_HOME/pdnkit/egdb``, else
    ``~/.cache/pdnkit/egdb``.

    Example:
        >>> import os
        >>> default_dir().name == "egdb" or "PDNKIT_EGDB" in os.environ
        True
    """
    env = os.environ.get("PDNKIT_EGDB", "").strip()
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "pdnkit" / "egdb"
