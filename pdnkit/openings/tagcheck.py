"""A game's opening tag against what its moves say.

Files name openings in tags: ``Opening`` (lidraughts, Russian collections), ``Apertura``
(Italian), ``ECO``, ``Ballot``. :func:`check_opening_tag` reads each such tag and says
whether the game's moves *agree* (the tag names an entry the game reached: its code, name,
transliteration or defining line), *disagree* (the tag names a known entry the game could
have reached, being long enough, and did not) or are *unknown* (the tables do not know what
the tag names, or the game's replayed moves end before the named entry's line does). Placeholders such as
``?``, ``*`` or ``***`` are no claim and are skipped. Only a disagreement is worth a
finding.

Example:
    >>> from pdnkit.openings import classify_record, load_tables
    >>> from pdnkit.pdn import parse_game
    >>> rec = parse_game('[GameType "25"][Opening "Кол"] 1. cd4 dc5 2. bc3 fg5 3. cb4 *')
    >>> c = classify_record(rec)
    >>> [(t.value, t.verdict) for t in check_opening_tag(rec.tags, c, load_tables("russian"))]
    [('Кол', 'disagrees')]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from pdnkit.openings.book import Classification, OpeningBook
from pdnkit.openings.table import Entry

__all__ = ["OPENING_TAGS", "TagCheck", "check_opening_tag", "tag_disagreement"]

#: the tags that name a game's opening (compared without case)
OPENING_TAGS = ("Opening", "Apertura", "ECO", "Ballot", "Debut", "Дебют")

_PLACEHOLDER = set("?*-._ ")


@dataclass(frozen=True)
class TagCheck:
    """One opening tag checked: ``verdict`` is ``agrees``, ``disagrees`` or ``unknown``;
    ``named`` holds the entries the tag names (empty when ``unknown``); ``message`` says it
    for people."""

    tag: str
    value: str
    verdict: str
    named: tuple[Entry, ...]
    message: str


#: the opening tags' names as :func:`_pairs` compares them
_WANTED = frozenset(t.casefold() for t in OPENING_TAGS)


def _pairs(tags: Mapping[str, str] | Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    items = tags.items() if isinstance(tags, Mapping) else tags
    return [(k, v) for k, v in items if k.strip().casefold() in _WANTED]


def _describe(c: Classification) -> str:
    if not c.classified:
        return "the moves reach no table entry"
    parts = [x for x in (c.code, c.name) if x]
    return "the moves give " + " / ".join(parts) if parts else "the moves give an entry"


def check_opening_tag(tags: Mapping[str, str] | Iterable[tuple[str, str]],
                      classification: Classification,
                      book: OpeningBook) -> list[TagCheck]:
    """Each opening tag of ``tags`` (a mapping or a record's ``(name, value)`` pairs)
    checked against ``classification`` (the game's, from ``book``).

    Example:
        >>> from pdnkit.openings import Classification, load_tables
        >>> check_opening_tag({"Opening": "?"}, Classification.empty(), load_tables("russian"))
        []
    """
    reached = {m.entry for m in classification.matches}
    out: list[TagCheck] = []
    for tag, value in _pairs(tags):
        text = value.strip()
        if not text or set(text) <= _PLACEHOLDER:
            continue
        named = tuple(book.find(text))
        if not named:
            out.append(TagCheck(tag, value, "unknown", (), f"{tag} {value!r} names no "
                                f"entry of the {book.variant} tables"))
        elif any(e in reached for e in named):
            out.append(TagCheck(tag, value, "agrees", named, f"{tag} {value!r} agrees: "
                                + _describe(classification)))
        elif not classification.stopped and classification.plies < min(
                e.depth for e in named):
            out.append(TagCheck(tag, value, "unknown", named, f"{tag} {value!r}: the "
                                f"replayed moves end at ply {max(classification.plies, 0)}, "
                                "before the line it names"))
        else:
            lines = "; ".join(f"{e.label()}: {' '.join(e.notation) or e.fen}"
                              for e in named[:3])
            out.append(TagCheck(tag, value, "disagrees", named,
                                f"{tag} {value!r} ({lines}) is not what the moves reach; "
                                + _describe(classification)))
    return out


def tag_disagreement(tags: Mapping[str, str] | Iterable[tuple[str, str]],
                     classification: Classification,
                     book: OpeningBook) -> TagCheck | None:
    """The first opening tag the moves disagree with, else ``None`` (the check the
    database loader turns into an ``info`` finding).

    Example:
        >>> from pdnkit.openings import classify_record, load_tables
        >>> from pdnkit.pdn import parse_game
        >>> rec = parse_game('[GameType "21"][Opening "Dyke"] 1. 11-15 22-17 15-19 *')
        >>> tag_disagreement(rec.tags, classify_record(rec), load_tables("english")) is None
        True
    """
    for check in check_opening_tag(tags, classification, book):
        if check.verdict == "disagrees":
            return check
    return None
