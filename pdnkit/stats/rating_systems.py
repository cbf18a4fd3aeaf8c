"""The rating formulas: Elo's, Glicko-2 and the performance rating of an event, each as its
source writes it (no database here: :mod:`pdnkit.stats.rating_lists` feeds them games).

* **Elo** (A. E. Elo, *The Rating of Chessplayers, Past and Present*, 1978; the form the FIDE
  Rating Regulations use for a rating period): every game of a period is scored against the
  ratings both players had when the period began, ``E = 1 / (1 + 10^((Ro - R) / 400))``, and
  the new rating is ``R + K * sum(S - E)``.
* **Glicko-2** (M. E. Glickman, *Example of the Glicko-2 system*, Boston University, 2013 and
  later revisions): steps 2 to 8 of the paper, a player's rating ``r``, rating deviation
  ``RD`` and volatility ``sigma`` updated once a rating period from the games of the period,
  the volatility found with the paper's Illinois algorithm (step 5.1 to 5.5).
* **Elo by the table** (``fmjd``): the same update, the expected score read from Elo's table
  of the scoring probability by rating difference (:data:`EXPECTED_TABLE`), the table the
  draughts federations kept where chess moved to the logistic formula; see
  :func:`table_expected`.
* **Performance rating** (the table method of the FIDE Rating Regulations, table 8.1(a):
  the fractional score ``p`` read as the rating difference ``dp``): ``Rp = Ra + dp(p)``, ``Ra`` the average rating of the rated opponents.

Example:
    >>> elo_update(1500, [(1500, 1.0)], k=32), elo_update(1500, [(1500, 0.0)], k=32)
    (1516.0, 1484.0)
    >>> new = glicko2_update(Glicko(1500, 200, 0.06),
    ...                      [(Glicko(1400, 30), 1.0), (Glicko(1550, 100), 0.0),
    ...                       (Glicko(1700, 300), 0.0)], tau=0.5)
    >>> round(new.rating, 2), round(new.rd, 2), round(new.volatility, 5)
    (1464.05, 151.52, 0.06)
    >>> performance_rating([2400, 2500, 2600], 2.0)
    2625
    >>> round(elo_update(2300, [(2150, 1.0), (2400, 0.5)], k=20, expected=table_expected), 2)
    2308.8
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pdnkit.errors import ArgumentError

__all__ = [
    "DEFAULT_K",
    "DEFAULT_RATING",
    "DEFAULT_RD",
    "DEFAULT_TAU",
    "DEFAULT_VOLATILITY",
    "DP_TABLE",
    "EXPECTED_TABLE",
    "GLICKO2_SCALE",
    "Glicko",
    "elo_expected",
    "elo_update",
    "glicko2_idle",
    "glicko2_update",
    "performance_dp",
    "performance_of",
    "performance_rating",
    "table_expected",
]

#: the rating an unrated player starts with, in both systems (Glickman, step 1: "If the player
#: is unrated, set the rating to 1500")
DEFAULT_RATING = 1500.0
#: Glicko-2 step 1: an unrated player's RD (350) and volatility (0.06)
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
#: Glicko-2's system constant tau (Glickman, step 1: "reasonable choices are between 0.3 and
#: 1.2"; his worked example uses 0.5)
DEFAULT_TAU = 0.5
#: Elo's development coefficient K: 20, the FIDE Rating Regulations' K for a rated player
#: below 2400 (8.3.3; 40 for new players, 10 from 2400)
DEFAULT_K = 20.0
#: Glicko-2 step 2: the factor between the Glicko scale and the Glicko-2 scale
GLICKO2_SCALE = 173.7178
#: Glicko-2 step 5: the convergence tolerance of the volatility iteration
_EPSILON = 0.000001

#: FIDE Rating Regulations, table 8.1(a), "the conversion of a fractional score p into a
#: rating difference dp": dp for p = 0.50, 0.51 ... 0.99, 1.00 (a score below 0.50 is the
#: same difference negated; 1.00 and 0.00 are +-800, the regulations' convention)
DP_TABLE: tuple[int, ...] = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65,
    72, 80, 87, 95, 102, 110, 117, 125, 133, 141,
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230,
    240, 251, 262, 273, 284, 296, 309, 322, 336, 351,
    366, 383, 401, 422, 444, 470, 501, 538, 589, 677,
    800,
)

#: Elo's table of the scoring probability ``PD`` by rating difference ``D`` (A. E. Elo, *The
#: Rating of Chessplayers, Past and Present*, 1978, from the normal distribution; printed as
#: table 8.1(b) of the FIDE Rating Regulations, now 8.1.2, and as the "Percentage-Verwachting
#: tabel" of nl.wikipedia.org/wiki/Elo-rating): the largest ``D`` at which the higher rated
#: player's ``PD`` is .50, .51 ... .99 (``0-3`` .50, ``4-10`` .51 ... ``620-735`` .99; above
#: 735 it is 1.00); the lower rated player's is ``1 - PD``. The draughts federations rate by
#: this table ("de oorspronkelijke kansentabel van Arpad Elo, welke nog steeds wordt gebruikt
#: in de damwereld", De Rode Loper, drl.tuxtown.net/clubelo.php; the KNDB's expectation is
#: the normal distribution with sigma 2000/7, damforum.nl "K-factor in de KNDB rating").
EXPECTED_TABLE: tuple[int, ...] = (
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68,
    76, 83, 91, 98, 106, 113, 121, 129, 137, 145,
    153, 162, 170, 179, 188, 197, 206, 215, 225, 235,
    245, 256, 267, 278, 290, 302, 315, 328, 344, 357,
    374, 391, 411, 432, 456, 484, 517, 559, 619, 735,
)


@dataclass(frozen=True)
class Glicko:
    """A Glicko-2 rating on the Glicko scale: ``rating``, ``rd`` (rating deviation) and
    ``volatility``.

    Example:
        >>> Glicko(1500)
        Glicko(rating=1500, rd=350.0, volatility=0.06)
    """

    rating: float
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY


def elo_expected(rating: float, opponent: float) -> float:
    """The score Elo's model expects of a player rated ``rating`` against one rated
    ``opponent``: ``1 / (1 + 10^((opponent - rating) / 400))``.

    Example:
        >>> elo_expected(1500, 1500), round(elo_expected(1700, 1500), 3)
        (0.5, 0.76)
    """
    return 1.0 / (1.0 + math.pow(10.0, (opponent - rating) / 400.0))


def table_expected(rating: float, opponent: float) -> float:
    """The score Elo's table (:data:`EXPECTED_TABLE`) expects of a player rated ``rating``
    against one rated ``opponent``: the difference ``D`` taken to the nearest whole point
    (the table lists whole points; halves up), ``PD`` for the higher rated player and
    ``1 - PD`` for the lower.

    Example:
        >>> table_expected(1700, 1500), table_expected(1500, 1700), table_expected(2500, 1500)
        (0.76, 0.24, 1.0)
    """
    d = _half_up(abs(rating - opponent))
    band = next((i for i, top in enumerate(EXPECTED_TABLE) if d <= top), len(EXPECTED_TABLE))
    higher = (50 + band) / 100
    return higher if rating >= opponent else round(1.0 - higher, 2)


def elo_update(rating: float, games: Sequence[tuple[float, float]], *, k: float = DEFAULT_K,
               expected: Callable[[float, float], float] = elo_expected) -> float:
    """The rating after a period's ``games`` (``(opponent's rating, score)``, the score 1, 1/2
    or 0 and every rating as the period began): ``rating + k * sum(score - expected)``, the
    expected score by Elo's formula (:func:`elo_expected`) or by his table
    (``expected=table_expected``).

    Example:
        >>> round(elo_update(1500, [(1500, 0.5), (1700, 1.0)], k=20), 2)
        1515.19
        >>> round(elo_update(1500, [(1500, 0.5), (1700, 1.0)], k=20, expected=table_expected), 2)
        1515.2
    """
    if k < 0:
        raise ArgumentError(f"K must not be negative, got {k}")
    change = sum(score - expected(rating, opp) for opp, score in games)
    return rating + k * change


def _g(phi: float) -> float:
    """Glicko-2 step 3: ``g(phi) = 1 / sqrt(1 + 3 phi^2 / pi^2)``."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Glicko-2 step 5: the new volatility, by the paper's Illinois iteration on ``f``."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex)
                / (2.0 * (phi * phi + v + ex) ** 2)) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:  # step 5.2
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        n = 1
        while f(a - n * tau) < 0:
            n += 1
        big_b = a - n * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > _EPSILON and f_b != f_a:  # step 5.4
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)  # step 5.5


def glicko2_update(player: Glicko, games: Sequence[tuple[Glicko, float]], *,
                   tau: float = DEFAULT_TAU) -> Glicko:
    """The player's Glicko-2 rating after a rating period's ``games`` (``(the opponent's
    rating as the period began, score)``), steps 2 to 8 of Glickman's paper; without games,
    step 6 alone (:func:`glicko2_idle`).

    Example:
        >>> glicko2_update(Glicko(1500, 200), [])
        Glicko(rating=1500, rd=200.27141669877065, volatility=0.06)
    """
    if tau <= 0:
        raise ArgumentError(f"tau must be positive, got {tau}")
    if not games:
        return glicko2_idle(player)
    mu = (player.rating - DEFAULT_RATING) / GLICKO2_SCALE  # step 2
    phi = player.rd / GLICKO2_SCALE
    inv_v = 0.0
    gain = 0.0
    for opp, score in games:  # step 3: v; step 4: the sum in delta
        mu_j = (opp.rating - DEFAULT_RATING) / GLICKO2_SCALE
        g_j = _g(opp.rd / GLICKO2_SCALE)
        e_j = 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))
        inv_v += g_j * g_j * e_j * (1.0 - e_j)
        gain += g_j * (score - e_j)
    if inv_v == 0.0:  # every opponent so far off that the games say nothing (E is 0 or 1)
        return glicko2_idle(player)
    v = 1.0 / inv_v
    delta = v * gain
    sigma = _volatility(phi, player.volatility, delta, v, tau)  # step 5
    phi_star = math.sqrt(phi * phi + sigma * sigma)  # step 6
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)  # step 7
    mu_new = mu + phi_new * phi_new * gain
    return Glicko(GLICKO2_SCALE * mu_new + DEFAULT_RATING,  # step 8
                  GLICKO2_SCALE * phi_new, sigma)


def glicko2_idle(player: Glicko, periods: int = 1) -> Glicko:
    """The rating after ``periods`` rating periods without a game: Glickman's step 6 for a
    player who did not compete (``phi' = sqrt(phi^2 + sigma^2)`` a period; rating and
    volatility unchanged).

    Example:
        >>> round(glicko2_idle(Glicko(1500, 50, 0.06), 12).rd, 2)
        61.67
    """
    if periods <= 0:
        return player
    phi = player.rd / GLICKO2_SCALE
    phi_new = math.sqrt(phi * phi + periods * player.volatility ** 2)
    return Glicko(player.rating, GLICKO2_SCALE * phi_new, player.volatility)


def performance_dp(p: float) -> int:
    """FIDE table 8.1(a): the rating difference ``dp`` of a fractional score ``p`` (0 to 1),
    ``p`` taken to the nearest hundredth as the table lists it.

    Example:
        >>> performance_dp(7 / 9), performance_dp(0.25), performance_dp(1.0)
        (220, -193, 800)
    """
    if not 0.0 <= p <= 1.0:
        raise ArgumentError(f"a fractional score lies between 0 and 1, got {p}")
    hundredths = _half_up(p * 100)
    return DP_TABLE[hundredths - 50] if hundredths >= 50 else -DP_TABLE[50 - hundredths]


def _half_up(x: float) -> int:
    """``x`` to the nearest whole number, halves up (``0.285 * 100`` is 28.499...: the
    tolerance reads it as the 28.5 it stands for)."""
    return math.floor(x + 0.5 + 1e-9)


def performance_rating(opponents: Sequence[float], score: float) -> int | None:
    """The performance rating of ``score`` points (a win 1, a draw 1/2) against the rated
    ``opponents`` (one rating a game): :func:`performance_of` their average.

    Example:
        >>> performance_rating([2300] * 9, 7.0), performance_rating([], 0) is None
        (2520, True)
    """
    if not opponents:
        return None
    return performance_of(sum(opponents) / len(opponents), len(opponents), score)


def performance_of(average: float, games: int, score: float) -> int | None:
    """The performance rating of ``score`` points in ``games`` games against rated opponents
    of ``average`` rating: ``Ra + dp(p)``, ``p = score / games`` (:func:`performance_dp`),
    rounded to a whole number; ``None`` without a game.

    Example:
        >>> performance_of(2375.0, 9, 8.0), performance_of(2000, 0, 0) is None
        (2726, True)
    """
    if games <= 0:
        return None
    if not 0 <= score <= games:
        raise ArgumentError(f"{score} points cannot be scored in {games} games")
    return _half_up(average + performance_dp(score / games))
