"""pdnkit: draughts and checkers game collections (PDN) as trustworthy data.

The public API is imported lazily, so ``import pdnkit`` is cheap and the CLI starts fast.

Example:
    >>> import pdnkit
    >>> pdnkit.get_rules("russian").gametype
    25
"""

from __future__ import annotations

from pdnkit._lazy import lazy_exports
from pdnkit._version import __version__

#: public name -> module that defines it
_API: dict[str, str] = {
    # findings
    "Finding": "pdnkit.findings",
    "Severity": "pdnkit.findings",
    "CODES": "pdnkit.findings",
    "explain": "pdnkit.findings",
    # rules engine
    "Rules": "pdnkit.rules",
    "get_rules": "pdnkit.rules",
    "list_variants": "pdnkit.rules",
    "Position": "pdnkit.rules",
    "Move": "pdnkit.rules",
    "Color": "pdnkit.rules",
    "perft": "pdnkit.rules",
    "parse_fen": "pdnkit.rules",
    "write_fen": "pdnkit.rules",
    "FenError": "pdnkit.rules",
    # PDN reading and writing
    "GameRecord": "pdnkit.pdn",
    "read_games": "pdnkit.pdn",
    "write_game": "pdnkit.pdn",
    "write_games": "pdnkit.pdn",
    "lint": "pdnkit.pdn",
    "convert": "pdnkit.validation",
    # replay and validation
    "validate": "pdnkit.validation",
    "replay": "pdnkit.validation",
    "GameReport": "pdnkit.validation",
    "PlyRecord": "pdnkit.validation",
    # seeing the games
    "show": "pdnkit.viewer",
    "view": "pdnkit.viewer",
    # database
    "connect": "pdnkit.store",
    "import_files": "pdnkit.store",
    "query": "pdnkit.store",
    "export": "pdnkit.store",
    "duplicates": "pdnkit.store",
    "demo": "pdnkit.demo",
    # search
    "search": "pdnkit.stats.search",
    # engine analysis
    "analyse": "pdnkit.analysis",
}

__all__ = sorted(_API) + ["__version__"]

__getattr__, __dir__ = lazy_exports(__name__, _API, globals())
