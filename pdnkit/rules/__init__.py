"""The rules engine: variants as data, positions, legal moves, perft, FEN and notation.

Names are imported lazily from the submodules that define them.

Example:
    >>> from pdnkit.rules import get_rules, Position, perft
    >>> perft(Position.initial(get_rules("russian")), 3)
    302
"""

from __future__ import annotations

from pdnkit._lazy import lazy_exports

_API: dict[str, str] = {
    "Color": "pdnkit.rules.variants",
    "Rules": "pdnkit.rules.variants",
    "DrawRule": "pdnkit.rules.variants",
    "UnknownVariantError": "pdnkit.rules.variants",
    "get_rules": "pdnkit.rules.variants",
    "list_variants": "pdnkit.rules.variants",
    "Geometry": "pdnkit.rules.geometry",
    "Position": "pdnkit.rules.position",
    "Move": "pdnkit.rules.position",
    "perft": "pdnkit.rules.counting",
    "FenError": "pdnkit.rules.fen",
    "FenInfo": "pdnkit.rules.fen",
    "parse_fen": "pdnkit.rules.fen",
    "parse_fen_info": "pdnkit.rules.fen",
    "write_fen": "pdnkit.rules.fen",
    "square_name": "pdnkit.rules.notation",
    "parse_square": "pdnkit.rules.notation",
    "format_move": "pdnkit.rules.notation",
    "canonical_notation": "pdnkit.rules.notation",
    "match_move": "pdnkit.rules.notation",
    "to_numeric": "pdnkit.rules.notation",
    "to_alphanumeric": "pdnkit.rules.notation",
    "DrawTracker": "pdnkit.rules.draw",
    "RuleEvent": "pdnkit.rules.draw",
}

__all__ = sorted(_API)

__getattr__, __dir__ = lazy_exports(__name__, _API, globals())
