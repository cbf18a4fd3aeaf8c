"""Player identities: placeholders, aliases, likely aliases.

A name as written in a White/Black tag stands for a player through the database's
``player_aliases`` table (``pdnkit players alias "M Tinsley" "MF Tinsley" --as "Marion
Tinsley"``); placeholder names (``White``, ``Black``, ``Red``, ``?``, ``-``, empty, ``N.N.``)
name no player. Every statistic reads names through the SQL macro ``player_name(name)``.

Example:
    >>> from pdnkit.store import connect
    >>> con = connect(":memory:")
    >>> alias(con, ["M Tinsley", "MF Tinsley"], "Marion Tinsley")
    2
    >>> con.execute("SELECT player_name(' M Tinsley'), player_name('Red')").fetchall()
    [('Marion Tinsley', None)]
    >>> is_placeholder("White"), is_placeholder("Tinsley")
    (True, False)
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, TypeAlias

from pdnkit.errors import ArgumentError
from pdnkit.pdn.names import (
    PersonName,
    name_key,
    parse_name,
    same_player,
    spelling_key,
    transliterate,
)
from pdnkit.store.copies import regroup_names
from pdnkit.store.session import PLACEHOLDERS, DbLike, ensure_names, reading, writing
from pdnkit.store.transaction import rollback

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["PLACEHOLDERS", "REASONS", "AliasCount", "alias", "aliases",
           "ensure_names", "is_placeholder", "proposal", "suggest", "unalias"]


def is_placeholder(name: str | None) -> bool:
    """True for a name that stands for no player (``White``, ``?``, empty ...)."""
    return name is None or name.strip().lower() in PLACEHOLDERS


class AliasCount(int):
    """How many names :func:`alias` recorded (an ``int``), with ``warnings``: sentences on
    the names it recorded that no game has (a misspelling, or games not imported yet).

    Example:
        >>> n = AliasCount(2, ["'X' is in no game"])
        >>> n == 2, f"{n} name(s)", n.warnings
        (True, '2 name(s)', ("'X' is in no game",))
    """

    warnings: tuple[str, ...]

    def __new__(cls, recorded: int, warnings: Sequence[str] = ()) -> AliasCount:
        self = super().__new__(cls, recorded)
        self.warnings = tuple(warnings)
        return self


def alias(db: DbLike, names: list[str], as_: str) -> AliasCount:
    """Record that each of ``names`` (as written in White/Black tags) stands for the player
    ``as_``; returns the number of names recorded (an earlier alias of a name is replaced;
    the player's own name among ``names`` stands for the player without an alias), with a
    warning for each name that no game has (it is recorded all the same). Raises
    ``ValueError`` for a placeholder or empty name, :class:`~pdnkit.store.session.
    LakeIsReadOnlyError` for a lake."""
    target = (as_ or "").strip()
    if is_placeholder(target):
        raise ArgumentError(f"{as_!r} is a placeholder, not a player's name")
    clean = [n.strip() for n in names if n and n.strip()]
    if not clean:
        raise ArgumentError("give at least one name to alias")
    with writing(db, what="aliases") as con:
        con.execute("BEGIN TRANSACTION")
        try:
            for n in clean:
                con.execute("DELETE FROM player_aliases WHERE alias = ?", [n])
                if n != target:  # an alias of a name to itself would match every name in
                    # player_name(name) when the caller's column is called "name"
                    con.execute("INSERT INTO player_aliases VALUES (?, ?)", [n, target])
            con.execute("COMMIT")
        except BaseException:
            rollback(con)
            raise
        unseen = [n for n in clean if not con.execute(
            "SELECT count(*) FROM games WHERE trim(white) = ? OR trim(black) = ?",
            [n, n]).fetchall()[0][0]]
        regroup_names(con, [*clean, target])  # copies are told apart by their players
    return AliasCount(len(clean), [
        f"{n!r} is in no game's White or Black tag (recorded all the same: check the "
        "spelling, or import its games)" for n in unseen])


def unalias(db: DbLike, names: list[str]) -> int:
    """Forget the aliases of ``names``; returns how many were removed.

    Example:
        >>> from pdnkit.store import connect
        >>> con = connect(":memory:")
        >>> alias(con, ["M Tinsley"], "Marion Tinsley"), unalias(con, ["M Tinsley", "X"])
        (1, 1)
    """
    n = 0
    with writing(db, what="aliases") as con:
        for name in names:
            n += len(con.execute("DELETE FROM player_aliases WHERE alias = ? RETURNING alias",
                                 [name.strip()]).fetchall())
        if n:
            regroup_names(con, names)
    return n


def aliases(db: DbLike = None) -> pd.DataFrame:
    """Every alias: ``alias``, ``name`` (the player), ``games`` (games with that alias as
    White or Black).

    Example:
        >>> from pdnkit.store import connect
        >>> con = connect(":memory:")
        >>> _ = alias(con, ["MF Tinsley"], "Marion Tinsley")
        >>> aliases(con).values.tolist()
        [['MF Tinsley', 'Marion Tinsley', 0]]
    """
    with reading(db) as con:
        return con.execute("""
            SELECT a.alias, a.name,
                   (SELECT count(*) FROM games g WHERE trim(g.white) = a.alias
                                                  OR trim(g.black) = a.alias)::BIGINT AS games
            FROM player_aliases a ORDER BY a.name, a.alias""").df()


# --------------------------------------------------------------------------------------
# likely aliases

#: why two names are proposed as one player, and how much each difference weighs on the
#: confidence (the product of the proposal's reasons): only spaces or punctuation differ,
#: case, accents, the order of surname and given names, Cyrillic against Latin, another
#: spelling of the surname (Tsjizjow / Chizhov, Agafonof / Agafonov), initials against given
#: names or fewer initials, a shortened given name (Alex / Alexander), a surname alone (its
#: weight divided among the people of that surname the games name: ``Dyke`` beside ``Paisley
#: Dyke`` and ``White Dyke`` is half as likely to be either), years of play more than
#: ``max_gap`` apart
REASONS: dict[str, float] = {
    "punctuation": 0.99, "case": 0.98, "accents": 0.97, "order": 0.95,
    "transliteration": 0.9, "spelling": 0.8, "initials": 0.85, "given name": 0.85,
    "surname only": 0.5, "years apart": 0.6,
}


def suggest(db: DbLike = None, *, max_gap: int = 2, all_copies: bool = False) -> pd.DataFrame:
    """Pairs of names that likely stand for one player: names that
    :func:`pdnkit.pdn.names.same_player` accepts (the same surname spelled alike: case,
    accents, Cyrillic or Latin, the spellings of the transliteration systems; initials and
    given names that agree, in either order; a surname alone), years of play that overlap
    and not already the same player. Names whose years of play are more than ``max_gap``
    years apart are proposed with less confidence (``years apart``: a career is long, a
    name's games may be few). Columns: ``name_a``, ``name_b``, ``reason`` (the differences,
    from :data:`REASONS`), ``confidence`` (0-1: the product of the reasons' weights),
    ``games_a``, ``games_b``, ``years_a``, ``years_b``; the most likely first. A name's
    games are counted once each: the copies of a game (``games.duplicate_of``) are that
    game, so a name written in a copy counts the game it copies, and a name written in a
    game and in its copies counts it once; ``all_copies`` counts every record.

    Example:
        >>> from pdnkit.store import connect
        >>> suggest(connect(":memory:")).empty
        True
        >>> proposal("Tinsley, Marion", "M. Tinsley"), proposal("Абациев Н.", "Abatsiev N.")
        (('order, initials', 0.81), ('transliteration', 0.9))
    """
    import pandas as pd

    with reading(db) as con:
        # s.name, qualified: player_name()'s alias lookup has a column "name" of its own
        # a game: the record standing for its copies (each game once), or every record
        game = "game_id" if all_copies else "coalesce(duplicate_of, game_id)"
        rows = con.execute(f"""
            WITH s AS (SELECT trim(white) AS name, year, {game} AS game FROM games
                       UNION ALL SELECT trim(black), year, {game} FROM games)
            SELECT s.name, player_name(s.name) AS player, count(DISTINCT s.game) AS games,
                   min(s.year), max(s.year)
            FROM s WHERE player_name(s.name) IS NOT NULL AND s.name IS NOT NULL
            GROUP BY s.name ORDER BY s.name""").fetchall()
    by_key: dict[str, list[_Seen]] = {}
    for name, player, games, y0, y1 in rows:
        key = name_key(name)
        if key:
            by_key.setdefault(key, []).append((name, player, int(games), y0, y1))
    out = []
    for group in by_key.values():
        people = _people(name for name, *_ in group)
        for (a, pa, ga, a0, a1), (b, pb, gb, b0, b1) in combinations(group, 2):
            if pa == pb or not same_player(a, b):
                continue
            apart = (a0 is not None and a1 is not None and b0 is not None and b1 is not None
                     and (a0 > b1 + max_gap or b0 > a1 + max_gap))
            reason, confidence = proposal(a, b, years_apart=apart)
            if "surname only" in reason and people > 1:
                confidence = round(confidence / people, 2)
            out.append((a, b, reason, confidence, ga, gb, _years(a0, a1), _years(b0, b1)))
    out.sort(key=lambda r: (-r[3], r[0], r[1]))
    return pd.DataFrame(out, columns=["name_a", "name_b", "reason", "confidence", "games_a",
                                      "games_b", "years_a", "years_b"])


def _people(names: Iterable[str]) -> int:
    """How many people of one surname the full names of a group can be: the distinct
    Latin letters their first initials are written with (a surname alone counts none)."""
    firsts = set()
    for n in names:
        parsed = parse_name(n)
        if parsed is not None:
            firsts.add(spelling_key(parsed.initials[0])[:1])
    return len(firsts)


def proposal(a: str, b: str, *, years_apart: bool = False) -> tuple[str, float]:
    """Why two names that :func:`pdnkit.pdn.names.same_player` accepts are likely one player,
    and how likely: the reasons of :data:`REASONS` that set them apart (``", "``-joined) and
    the product of their weights (``years_apart``: their years of play are).

    Example:
        >>> proposal("Gérard Jansen", "Gerard Jansen"), proposal("Heusdens, R.", "Heusdens,R.")
        (('accents', 0.97), ('punctuation', 0.99))
        >>> proposal("Gantwarg", "Gantwarg,A."), proposal("Tsjizjow,A.", "Alexei Chizhov")
        (('surname only', 0.5), ('order, spelling, initials', 0.65))
    """
    reasons = _reasons(a, b) + (["years apart"] if years_apart else [])
    confidence = 1.0
    for r in reasons:
        confidence *= REASONS[r]
    return ", ".join(reasons), round(confidence, 2)


def _squash(text: str) -> str:
    return re.sub(r"[\s.,]+", "", text)


def _plain(text: str) -> str:
    """Lower case without accents."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.casefold())
                   if not unicodedata.combining(c))


def _reasons(a: str, b: str) -> list[str]:
    """The differences between two names of one player, in the order of :data:`REASONS`."""
    sa, sb = _squash(a), _squash(b)
    if sa == sb:
        return ["punctuation"]
    if sa.casefold() == sb.casefold():
        return ["case"]
    if _plain(sa) == _plain(sb):
        return ["accents"]
    pa, pb = parse_name(a), parse_name(b)
    found: set[str] = set()
    if pa is None or pb is None:
        if pa is not None or pb is not None:
            found.add("surname only")
        words = (pa.surname if pa else a.strip().lower(), pb.surname if pb else b.strip().lower())
    else:
        words = (pa.surname, pb.surname)
        if _surname_first(a, pa) != _surname_first(b, pb):
            found.add("order")
        if pa.given and pb.given and pa.given[0] != pb.given[0]:
            found.add("given name" if _plain(pa.given[0]) != _plain(pb.given[0]) else "accents")
        elif len(pa.initials) != len(pb.initials) or bool(pa.given) != bool(pb.given):
            found.add("initials")
    found.update(_spelling(*words))
    if not found:  # the same words as read: case or accents of what the parse lower-cased
        found.add("case" if _plain(a) == _plain(b) else "accents")
    return [r for r in REASONS if r in found]


def _spelling(x: str, y: str) -> set[str]:
    """How two spellings of one surname differ (nothing when they are the same)."""
    if x.casefold() == y.casefold():
        return {"case"} if x != y else set()
    if _plain(x) == _plain(y):
        return {"accents"}
    if (transliterate(x) != x) != (transliterate(y) != y):
        return {"transliteration"}
    return {"spelling"}


def _surname_first(text: str, name: PersonName) -> bool:
    """Whether ``text`` writes the surname before the given names (``Tinsley, M.``,
    ``Абациев Н.``, ``SIJBRANDS Ton``)."""
    if "," in text:
        return True
    first = text.split()[0].strip(".").lower() if text.split() else ""
    return name.surname.split()[-1] == first or name.surname.split()[0] == first


#: a name seen in the games: as written, the player it stands for, games, first and last year
_Seen: TypeAlias = "tuple[str, str, int, int | None, int | None]"


def _years(y0: int | None, y1: int | None) -> str:
    if y0 is None:
        return ""
    return str(y0) if y0 == y1 else f"{y0}-{y1}"
