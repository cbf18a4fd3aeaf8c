"""Rating lists from a collection: every player of every variant rated by Elo's system (his
formula, or his table of expected scores as the draughts federations use it) or by Glicko-2,
period after period, from the games' dates and results (:func:`ratings`).

What is rated: the games a :class:`~pdnkit.stats.filters.GameFilter` selects (each game
once), with both players named (``player_name()``: aliases merged, placeholders no player),
a known result and a date. A game without a result, without a date (not even a year) or
without two different named players is left out and counted in the note. Each variant has
its own list (the FMJD keeps separate lists for 100 and 64 squares).

Rating periods (:func:`pdnkit.stats.rating_periods.game_period`, the one place that reads a
game's date):

* ``month`` -- the calendar month of the game: its date, else the month of a partial date
  (``1965.05.??``); a game known only by its year is rated at the end of that year, in the
  period ``1965`` after ``1965-12``;
* ``year`` -- the calendar year;
* ``event`` -- the games of one Event tag in one year (ordered by their first game); a game
  without an Event tag is rated in its month.

Within a period every game counts as played at once, against the ratings both players had
when the period began (Glickman's rating period; the FIDE Rating Regulations' rating period).
In Glicko-2 a player's RD grows by step 6 of Glickman's paper for each calendar month or
year (each event period) in which he did not play, up to an unrated player's 350; the final
list is the state after the last period of the variant.

Starting values: ``seed`` (a CSV file ``player,rating,rd,volatility``, an optional
``variant`` column to seed one list only), then, with ``from_tags``, the rating tag
(``WhiteElo``/``WhiteRating``...) of the player's earliest rated game that has one, then the
defaults: rating 1500, RD 350, volatility 0.06 (Glickman's step 1 for an unrated player).

The games are read as a stream, period by period in rating order
(:class:`pdnkit.stats.ratings_games.RatedGames`): memory holds the players' state and one
period's games, whatever the collection's size; the history can be had as it is computed
(:func:`pdnkit.stats.ratings_stream.ratings_history_stream`).

Example:
    >>> from pdnkit.store import connect
    >>> rl = ratings(connect(":memory:"))
    >>> rl.table.empty, rl.note
    (True, 'no game to rate')
"""

from __future__ import annotations

import csv
import math
import os
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pdnkit.errors import ArgumentError
from pdnkit.stats.filters import DateBound, GameFilter
from pdnkit.stats.rating_periods import RATING_PERIODS, GamePeriod
from pdnkit.stats.rating_systems import (
    DEFAULT_K,
    DEFAULT_RATING,
    DEFAULT_RD,
    DEFAULT_TAU,
    DEFAULT_VOLATILITY,
    Glicko,
    elo_expected,
    elo_update,
    glicko2_idle,
    glicko2_update,
    performance_of,
    table_expected,
)
from pdnkit.store.session import DbLike, reading

if TYPE_CHECKING:  # pragma: no cover
    import duckdb
    import pandas as pd

    from pdnkit.stats.ratings_games import Game

__all__ = ["ELO_SYSTEMS", "HISTORY_COLUMNS", "RATING_SYSTEMS", "Rater", "RatingList", "Seed",
           "checked_options", "names_containing", "rating_bar", "rating_note", "ratings",
           "read_seed", "seeds_by_identity"]

#: the systems :func:`ratings` rates by: Elo's formula, Elo's table (``fmjd``: the expected
#: score read from :data:`~pdnkit.stats.rating_systems.EXPECTED_TABLE`), Glicko-2
RATING_SYSTEMS = ("elo", "fmjd", "glicko2")
#: the systems that keep one number a player (no RD, no volatility)
ELO_SYSTEMS = {"elo": elo_expected, "fmjd": table_expected}

#: the columns of a rating history (Elo's without ``rd`` and ``volatility``)
HISTORY_COLUMNS = ("variant", "period", "period_start", "player", "rating", "rd",
                   "volatility", "games", "points", "performance")


@dataclass(frozen=True)
class Seed:
    """A player's starting values from a seed file (``None``: the default)."""

    rating: float
    rd: float | None = None
    volatility: float | None = None


def _number(text: str | None, what: str, where: str, positive: bool = False) -> float | None:
    if text is None or not text.strip():
        return None
    try:
        value = float(text)
    except ValueError:
        raise ArgumentError(f"{where}: {what} {text.strip()!r} is not a number") from None
    if not math.isfinite(value) or (positive and value <= 0):
        raise ArgumentError(f"{where}: {what} must be a {'positive' if positive else 'finite'}"
                            f" number, got {text.strip()!r}")
    return value


def read_seed(path: str | os.PathLike[str]) -> dict[tuple[str | None, str], Seed]:
    """The starting values of a seed file: a CSV with the columns ``player`` and ``rating``,
    optionally ``rd``, ``volatility`` and ``variant`` (that list only; empty: every list);
    ``(variant, player) -> Seed``. A bad value raises
    :class:`~pdnkit.errors.ArgumentError` naming the file and line.

    Example:
        >>> import tempfile, pathlib
        >>> f = pathlib.Path(tempfile.mkdtemp()) / "seed.csv"
        >>> _ = f.write_text("player,rating,rd\\nAnn Lee,1600,80\\n")
        >>> read_seed(f)
        {(None, 'Ann Lee'): Seed(rating=1600.0, rd=80.0, volatility=None)}
    """
    try:
        with open(path, newline="", encoding="utf-8-sig") as fh:
            rows = list(csv.reader(fh))
    except FileNotFoundError:
        raise ArgumentError(f"no such seed file: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ArgumentError(f"cannot read the seed file {path}: {exc}") from None
    if not rows:
        raise ArgumentError(f"{path}: the seed file is empty (columns: player,rating,rd,"
                            "volatility)")
    head = [h.strip().lower() for h in rows[0]]
    missing = [c for c in ("player", "rating") if c not in head]
    if missing:
        raise ArgumentError(f"{path}, line 1: the seed file needs the columns player and "
                            f"rating (missing: {', '.join(missing)}; found: {', '.join(head)})")
    col = {name: i for i, name in enumerate(head)}
    out: dict[tuple[str | None, str], Seed] = {}
    for n, row in enumerate(rows[1:], 2):
        cells = {name: (row[i] if i < len(row) else None) for name, i in col.items()}
        name = (cells["player"] or "").strip()
        if not name and not any((c or "").strip() for c in row):
            continue  # a blank line
        where = f"{path}, line {n}"
        if not name:
            raise ArgumentError(f"{where}: no player's name")
        rating = _number(cells["rating"], "rating", where)
        if rating is None:
            raise ArgumentError(f"{where}: no rating for {name!r}")
        variant = (cells.get("variant") or "").strip() or None
        if variant:
            from pdnkit.rules import get_rules

            variant = get_rules(variant).name
        out[(variant, name)] = Seed(rating, _number(cells.get("rd"), "rd", where, True),
                                    _number(cells.get("volatility"), "volatility", where,
                                            True))
    return out


# --------------------------------------------------------------------------------------
# the rating
# --------------------------------------------------------------------------------------


@dataclass
class _Player:
    """A player's state in one variant's list."""

    rating: Glicko
    clock: int
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    last_period: str = ""
    seeded: str = "default"


@dataclass
class Rater:
    """Rates periods one after the other (:meth:`period`) and keeps the history."""

    system: str
    k: float
    tau: float
    seeds: Mapping[tuple[str | None, str], Seed]
    tags: Mapping[tuple[str, str], int]
    players: dict[tuple[str, str], _Player] = field(default_factory=dict)
    history: list[tuple[object, ...]] = field(default_factory=list)  # HISTORY_COLUMNS
    seeds_used: set[tuple[str | None, str]] = field(default_factory=set)
    last_clock: dict[str, int] = field(default_factory=dict)  # each list's last period

    def start(self, variant: str, name: str, clock: int) -> _Player:
        """The player's state as the period at ``clock`` begins (made from the seed, the
        tags or the defaults for a new player; grown by idle periods in Glicko-2)."""
        key = (variant, name)
        p = self.players.get(key)
        if p is None:
            seed_key = (variant, name) if (variant, name) in self.seeds else (None, name)
            seed = self.seeds.get(seed_key)
            if seed is not None:
                self.seeds_used.add(seed_key)
                rating = Glicko(seed.rating, seed.rd or DEFAULT_RD,
                                seed.volatility or DEFAULT_VOLATILITY)
                how = "seed"
            elif key in self.tags:
                rating, how = Glicko(float(self.tags[key])), "tag"
            else:
                rating, how = Glicko(DEFAULT_RATING), "default"
            p = self.players[key] = _Player(rating, clock - 1, seeded=how)
        elif self.system == "glicko2" and clock - p.clock > 1:
            p.rating = _idle(p.rating, clock - p.clock - 1)
        p.clock = max(p.clock, clock - 1)
        return p

    def period(self, variant: str, when: GamePeriod, games: Sequence[Game]) -> None:
        """Rate one period's ``games`` of ``variant``: every game against the ratings as the
        period began."""
        clock = int(when.clock or 0)
        self.last_clock[variant] = clock
        before: dict[str, Glicko] = {}
        for g in games:
            for name in (g.white, g.black):
                if name not in before:
                    before[name] = self.start(variant, name, clock).rating
        played: dict[str, list[tuple[Glicko, float]]] = defaultdict(list)
        for g in games:
            played[g.white].append((before[g.black], g.score))
            played[g.black].append((before[g.white], 1.0 - g.score))
        for name, results in played.items():
            p = self.players[(variant, name)]
            old = before[name]
            if self.system in ELO_SYSTEMS:
                p.rating = Glicko(elo_update(old.rating, [(o.rating, s) for o, s in results],
                                             k=self.k, expected=ELO_SYSTEMS[self.system]),
                                  old.rd, old.volatility)
            else:
                p.rating = glicko2_update(old, results, tau=self.tau)
            score = opp_sum = 0.0
            for o, s in results:
                score += s
                opp_sum += o.rating
                if s == 1.0:
                    p.wins += 1
                elif s == 0.5:
                    p.draws += 1
                else:
                    p.losses += 1
            p.games += len(results)
            p.clock, p.last_period = clock, when.label
            self.history.append((
                variant, when.label, when.start, name, p.rating.rating, p.rating.rd,
                p.rating.volatility, len(results), score,
                performance_of(opp_sum / len(results), len(results), score)))

    def finish(self) -> None:
        """Glicko-2: every player's RD grown to the last period of the variant's list."""
        if self.system != "glicko2":
            return
        last_clock = self.last_clock
        for (variant, _), p in self.players.items():
            if last_clock[variant] > p.clock:
                p.rating = _idle(p.rating, last_clock[variant] - p.clock)
                p.clock = last_clock[variant]


def _idle(rating: Glicko, periods: int) -> Glicko:
    """``periods`` Glicko-2 periods without a game, the RD held at an unrated player's 350
    (Glickman's Glicko system caps it there; a seeded RD above it is kept)."""
    grown = glicko2_idle(rating, periods)
    cap = max(DEFAULT_RD, rating.rd)
    return grown if grown.rd <= cap else Glicko(rating.rating, cap, rating.volatility)


@contextmanager
def rating_bar(show: bool, total: int, system: str) -> Iterator[Callable[[int], None]]:
    """A progress bar of the games rated (on a terminal, when ``show``); yields the
    function that moves it on."""
    from pdnkit.store.progress import is_terminal

    if not show or not is_terminal():
        yield lambda n: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    with Progress(TextColumn(f"[bold]rating ({system})[/bold]"), BarColumn(),
                  MofNCompleteColumn(), TextColumn("games"), console=Console(stderr=True),
                  transient=True) as bar:
        task = bar.add_task("rating", total=total)
        yield lambda n: bar.advance(task, n)


def seeds_by_identity(con: duckdb.DuckDBPyConnection,
                       seeds: Mapping[tuple[str | None, str], Seed]
                       ) -> dict[tuple[str | None, str], Seed]:
    """The seeds under the players their names stand for (``player_name()``: an alias
    seeds its player); names that stand for no player are dropped."""
    out: dict[tuple[str | None, str], Seed] = {}
    for (variant, name), seed in seeds.items():
        (who,) = con.execute("SELECT player_name(?)", [name]).fetchone() or (None,)
        if who:
            out[(variant, str(who))] = seed
    return out


@dataclass(frozen=True)
class RatingList:
    """What :func:`ratings` computed: ``table`` (the final list), ``history`` (each
    player's rating after each period he played), the games rated and those left out.

    Example:
        >>> import pandas as pd
        >>> RatingList(pd.DataFrame(), pd.DataFrame(), "elo", 0, {}, 0).note
        'no game to rate'
    """

    table: pd.DataFrame
    history: pd.DataFrame
    system: str
    rated: int
    left_out: Mapping[str, int]
    selected: int
    seeds_unused: int = 0

    @property
    def note(self) -> str:
        """One sentence on what was rated and what was left out."""
        players = len(self.table)
        lists = self.table["variant"].nunique() if players else 0
        return rating_note(self.system, self.rated, self.selected, self.left_out, players,
                           lists, self.seeds_unused)


def rating_note(system: str, rated: int, selected: int, left_out: Mapping[str, int],
                players: int, lists: int, seeds_unused: int = 0) -> str:
    """The sentence on what was rated (``rated`` of ``selected`` games, the ``players`` and
    variant ``lists`` listed) and what was left out (:attr:`RatingList.note`).

    Example:
        >>> rating_note("elo", 3, 4, {"without a date": 1}, 2, 1)
        '3 of 4 games rated (2 players, 1 variant list, elo); left out: 1 without a date'
    """
    if not rated and not any(left_out.values()):
        return "no game to rate"
    parts = [f"{rated} of {selected} games rated ({players} players, "
             f"{lists} variant list{'s' if lists != 1 else ''}, {system})"]
    left = [f"{n} {why}" for why, n in left_out.items() if n]
    if left:
        parts.append("left out: " + ", ".join(left))
    if seeds_unused:
        parts.append(f"{seeds_unused} seed row(s) name no player with a rated game")
    return "; ".join(parts)


def names_containing(names: Sequence[str], text: str | None) -> list[bool]:
    """Whether each name contains ``text`` (case ignored, no pattern; ``None``: every name):
    the ``player`` filter of a rating list's rows, as pandas' ``str.contains(text,
    case=False, regex=False)`` reads it on a text column (Arrow's ``match_substring``).

    Example:
        >>> names_containing(["Ann Lee", "Bo"], "lee")
        [True, False]
    """
    if not text:
        return [True] * len(names)
    from pdnkit._arrow import pyarrow_module

    pa = pyarrow_module()
    import pyarrow.compute as pc  # type: ignore[import-untyped, unused-ignore]

    found = pc.match_substring(pa.array(list(names), pa.string()), text, ignore_case=True)
    return [bool(v) for v in found.to_pylist()]


def _frames(rater: Rater, system: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The final list and the history as DataFrames (Elo without RD and volatility)."""
    import pandas as pd

    rows = [{"variant": v, "player": name, "rating": round(p.rating.rating, 2),
             "rd": round(p.rating.rd, 2), "volatility": round(p.rating.volatility, 6),
             "games": p.games, "wins": p.wins, "draws": p.draws, "losses": p.losses,
             "last_period": p.last_period, "start": p.seeded}
            for (v, name), p in rater.players.items()]
    cols = ["variant", "rank", "player", "rating", "rd", "volatility", "games", "wins",
            "draws", "losses", "last_period", "start"]
    if system in ELO_SYSTEMS:
        cols = [c for c in cols if c not in ("rd", "volatility")]
    table = pd.DataFrame(rows, columns=[c for c in cols if c != "rank"])
    table = table.sort_values(["variant", "rating", "player"], ascending=[True, False, True],
                              kind="stable").reset_index(drop=True)
    table.insert(1, "rank", table.groupby("variant").cumcount() + 1)
    history = pd.DataFrame(rater.history, columns=list(HISTORY_COLUMNS))
    history["rating"] = history["rating"].round(2)
    history["rd"] = history["rd"].round(2)
    history["volatility"] = history["volatility"].round(6)
    history["performance"] = history["performance"].astype("Int64")
    if system in ELO_SYSTEMS:
        history = history.drop(columns=["rd", "volatility"])
    return table, history


def ratings(
    db: DbLike = None,
    *,
    system: str = "elo",
    period: str = "month",
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    min_games: int = 1,
    seed: str | os.PathLike[str] | Mapping[tuple[str | None, str], Seed] | None = None,
    from_tags: bool = False,
    k: float = DEFAULT_K,
    tau: float = DEFAULT_TAU,
    filter: GameFilter | None = None,
    progress: bool = False,
) -> RatingList:
    """Rate every player of the selected games (see the module's text) by ``system``
    (``elo``: Elo's formula, K ``k``; ``fmjd``: Elo's table of expected scores, K ``k``;
    ``glicko2``: system constant ``tau``) over rating periods ``period``.

    ``variant``, ``event``, ``date_from``, ``date_to`` (or ``filter``) choose the games;
    ``player`` (text the name contains) and ``min_games`` choose the rows of the final list
    and of the history, not the games. ``seed`` is a CSV file (:func:`read_seed`) or its
    mapping; ``from_tags`` starts a player without a seed from his rating tag. ``progress``
    shows a progress bar of the games rated on standard error (on a terminal only).

    The final list (``RatingList.table``): ``variant``, ``rank``, ``player``, ``rating``,
    ``rd`` and ``volatility`` (Glicko-2), ``games``, ``wins``, ``draws``, ``losses``,
    ``last_period``, ``start`` (``seed``, ``tag`` or ``default``). The history: ``variant``,
    ``period``, ``period_start``, ``player``, ``rating`` (``rd``, ``volatility``) after the
    period, ``games`` and ``points`` in it and ``performance`` (the FIDE table method against
    the opponents' ratings as the period began).

    Example:
        >>> from pdnkit.store import connect
        >>> ratings(connect(":memory:"), system="glicko2").table.empty
        True
    """
    seeds = checked_options(system, period, k, tau, seed)
    gf = GameFilter.of(filter, variant=variant, event=event, player=player,
                       date_from=date_from, date_to=date_to)
    from pdnkit.stats.ratings_games import RatedGames

    with reading(db) as con, RatedGames(con, gf.without_player(), period) as games:
        seeds = seeds_by_identity(con, seeds)
        rater = Rater(system, k, tau, seeds, games.first_tags() if from_tags else {})
        with rating_bar(progress, games.rated, system) as advance:
            for v, when, group in games.periods():
                rater.period(v, when, group)
                advance(len(group))
    rater.finish()
    table, history = _frames(rater, system)
    import numpy as np

    keep = ((table["games"] >= min_games).to_numpy()
            & np.asarray(names_containing(list(table["player"]), gf.player), dtype=bool))
    table = table[keep].reset_index(drop=True)
    chosen = set(zip(table["variant"], table["player"], strict=True))
    history = history[[(v, p) in chosen for v, p in zip(history["variant"], history["player"],
                                                         strict=True)]].reset_index(drop=True)
    return RatingList(table, history, system, games.rated, games.left_out, games.selected,
                      len(set(seeds) - rater.seeds_used))


def checked_options(system: str, period: str, k: float, tau: float,
             seed: str | os.PathLike[str] | Mapping[tuple[str | None, str], Seed] | None
             ) -> dict[tuple[str | None, str], Seed]:
    """The options checked (an :class:`ArgumentError` for a bad one) and the seeds read."""
    if system not in RATING_SYSTEMS:
        raise ArgumentError(f"system must be one of {', '.join(RATING_SYSTEMS)}, got {system!r}")
    if period not in RATING_PERIODS:
        raise ArgumentError(f"period must be one of {', '.join(RATING_PERIODS)}, got {period!r}")
    if k < 0:
        raise ArgumentError(f"K must not be negative, got {k}")
    if tau <= 0:
        raise ArgumentError(f"tau must be positive, got {tau}")
    return read_seed(seed) if isinstance(seed, (str, os.PathLike)) else dict(seed or {})
