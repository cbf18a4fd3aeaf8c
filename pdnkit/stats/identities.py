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

from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING, TypeAlias

from pdnkit.errors import ArgumentError
from pdnkit.pdn.names import PersonName, parse_name, same_player
from pdnkit.store.copies import regroup_names
from pdnkit.store.session import PLACEHOLDERS, DbLike, ensure_names, reading, writing

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["PLACEHOLDERS", "AliasCount", "alias", "aliases", "ensure_names", "is_placeholder", "suggest",
           "unalias"]


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
            con.execute("ROLLBACK")
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

def suggest(db: DbLike = None, *, max_gap: int = 2) -> pd.DataFrame:
    """Pairs of names that likely stand for one player: the same surname, compatible
    initials (``M`` / ``MF`` / ``Marion``), years of play that overlap (or are at most
    ``max_gap`` years apart; names without years are compared anyway), and not already the
    same player. Columns: ``name_a``, ``name_b``, ``games_a``, ``games_b``, ``years_a``,
    ``years_b``.

    Example:
        >>> from pdnkit.store import connect
        >>> suggest(connect(":memory:")).empty
        True
    """
    import pandas as pd

    with reading(db) as con:
        # s.name, qualified: player_name()'s alias lookup has a column "name" of its own
        rows = con.execute("""
            WITH s AS (SELECT trim(white) AS name, year FROM games
                       UNION ALL SELECT trim(black), year FROM games)
            SELECT s.name, player_name(s.name) AS player, count(*) AS games, min(s.year),
                   max(s.year)
            FROM s WHERE player_name(s.name) IS NOT NULL AND s.name IS NOT NULL
            GROUP BY s.name ORDER BY s.name""").fetchall()
    parsed: list[_Seen] = []
    for name, player, games, y0, y1 in rows:
        n = parse_name(name)
        if n is not None:
            parsed.append((n, player, int(games), y0, y1))
    by_surname: dict[str, list[_Seen]] = {}
    for item in parsed:
        by_surname.setdefault(item[0].surname_key, []).append(item)
    out = []
    for group in by_surname.values():
        for (a, pa, ga, a0, a1), (b, pb, gb, b0, b1) in combinations(group, 2):
            if pa == pb or a.text == b.text or not same_player(a.text, b.text):
                continue
            if (a0 is not None and a1 is not None and b0 is not None and b1 is not None
                    and (a0 > b1 + max_gap or b0 > a1 + max_gap)):
                continue
            out.append((a.text, b.text, ga, gb, _years(a0, a1), _years(b0, b1)))
    return pd.DataFrame(out, columns=["name_a", "name_b", "games_a", "games_b", "years_a",
                                      "years_b"])


#: a name seen in the games: parsed, the player it stands for, games, first and last year
_Seen: TypeAlias = "tuple[PersonName, str, int, int | None, int | None]"


def _years(y0: int | None, y1: int | None) -> str:
    if y0 is None:
        return ""
    return str(y0) if y0 == y1 else f"{y0}-{y1}"
