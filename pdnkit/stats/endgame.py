"""Draw and endgame rules: one verdict per rule activation (the reports and plots read these).

Verdicts (:data:`VERDICTS`), from ``rule_events`` joined with ``games``:

* ``ended-in-time`` -- the limit was never reached: the game ended first, or the rule's
  count stopped (a capture, a promotion, a change of material) before the limit;
* ``drawn-by-rule`` -- the limit was reached and the game ended there as a draw (for a
  claim rule: the game was drawn while the claim was open);
* ``played-past-limit`` -- the limit was reached and the record goes on. For an automatic
  rule the game should have ended as a draw at the limit; for a claim rule a draw could
  have been claimed and was not (legal);
* ``result-contradicts-rule`` -- an automatic rule drew the game at the last ply, but the
  result is a win.

Example:
    >>> verdict(automatic=True, start_ply=40, limit_plies=30, reached_ply=70, end_ply=70,
    ...         plies=75, outcome="white", result="1-0")[0]
    'played-past-limit'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pdnkit.errors import ArgumentError
from pdnkit.stats.common import OUTCOME_SQL, as_int, frame, is_missing
from pdnkit.stats.filters import DateBound, GameFilter
from pdnkit.store.session import DbLike, reading

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["VERDICTS", "endgame_rules", "endgame_summary", "verdict"]

#: verdicts on a draw/endgame rule activation, see :func:`verdict`
VERDICTS = ("ended-in-time", "drawn-by-rule", "played-past-limit", "result-contradicts-rule")


def verdict(
    *,
    automatic: bool | None,
    start_ply: int | None,
    limit_plies: int | None,
    reached_ply: int | None,
    end_ply: int | None,
    plies: int | None,
    outcome: str | None,
    result: str | None = None,
    deadline_ply: int | None = None,
) -> tuple[str, str]:
    """The verdict on one rule activation and a sentence explaining it.

    ``plies`` is the length of the game's main line; ``outcome`` is ``white``,
    ``black``, ``draw`` or ``unknown``. A rule with unknown ``automatic`` is treated as
    automatic.

    >>> verdict(automatic=True, start_ply=40, limit_plies=30, reached_ply=70, end_ply=70,
    ...         plies=70, outcome="draw", result="1/2-1/2")
    ('drawn-by-rule', 'drawn by the rule at ply 70')
    >>> verdict(automatic=False, start_ply=10, limit_plies=80, reached_ply=90, end_ply=95,
    ...         plies=120, outcome="white", result="1-0")[1]
    'a draw could be claimed from ply 90 (a claim, so play could go on); the game went on to ply 120 and ended 1-0'
    """
    auto = True if is_missing(automatic) else bool(automatic)
    start, limit, reached = as_int(start_ply), as_int(limit_plies), as_int(reached_ply)
    end, last, deadline = as_int(end_ply), as_int(plies), as_int(deadline_ply)
    if deadline is None and start is not None and limit is not None:
        deadline = start + limit
    if last is None:
        last = end if reached is None else max(reached, end or 0)
    decisive = outcome in ("white", "black")
    res = result if not is_missing(result) and result not in ("", "*") else None
    ended = f"ended {res}" if res else "has no result"
    if reached is None:
        if end is not None and last is not None and end < last:
            left = f", {deadline - end} plies before the limit" if deadline is not None else ""
            return "ended-in-time", f"the count stopped at ply {end}{left}"
        left = (f", {deadline - last} plies before the limit"
                if deadline is not None and last is not None else "")
        return "ended-in-time", f"the game {ended} at ply {last}{left}"
    assert last is not None
    if auto:
        if last > reached:
            return ("played-past-limit",
                    f"the rule drew the game at ply {reached}; the record goes on to ply "
                    f"{last} and {ended}")
        if decisive:
            return ("result-contradicts-rule",
                    f"the rule drew the game at ply {reached}, but it is scored {res}")
        return ("drawn-by-rule", f"drawn by the rule at ply {reached}"
                + ("" if outcome == "draw" else " (no result recorded)"))
    still_open = end is None or end >= last
    if outcome == "draw" and still_open:
        return ("drawn-by-rule",
                f"a draw could be claimed from ply {reached}; the game was drawn at ply {last}")
    return ("played-past-limit",
            f"a draw could be claimed from ply {reached} (a claim, so play could go on); "
            f"the game went on to ply {last} and {ended}")


def endgame_rules(
    con: DbLike = None,
    *,
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    filter: GameFilter | None = None,
) -> pd.DataFrame:
    """Every draw or endgame rule that became active in a game, with its verdict.

    Columns: ``game_id``, ``file``, ``game_index``, ``line``, ``variant``, ``event``,
    ``white``, ``black``, ``rule``, ``article``, ``automatic``, ``start_ply``,
    ``limit_plies``, ``deadline_ply``, ``reached_ply``, ``end_ply``, ``plies``,
    ``result``, ``outcome``, ``draw_basis``, ``ended`` (how the game actually ended),
    ``verdict`` and ``explanation``. Filters as in :mod:`pdnkit.stats`.

    >>> from pdnkit.store import connect
    >>> endgame_rules(connect(":memory:")).empty
    True
    """
    gf = GameFilter.of(filter, variant=variant, event=event, player=player,
                       date_from=date_from, date_to=date_to)
    sql = f"""
        SELECT g.game_id, fl.path AS file, g.game_index, g.line, g.variant, g.event,
               g.white, g.black, r.rule, r.article, r.automatic, r.start_ply, r.limit_plies,
               coalesce(r.deadline_ply, r.start_ply + r.limit_plies) AS deadline_ply,
               r.reached_ply, r.end_ply, g.plies, g.result, {OUTCOME_SQL} AS outcome,
               g.draw_basis
        FROM rule_events r JOIN games g ON g.game_id = r.game_id
        LEFT JOIN files fl ON fl.file_id = g.file_id
        WHERE {{where}}
        ORDER BY g.game_id, r.start_ply, r.rule
    """
    with reading(con) as c:
        where, params = gf.sql(con=c)
        df = frame(c, sql.replace("{where}", where), params)
    ended, verdicts, texts = [], [], []
    for row in df.itertuples(index=False):
        res = None if is_missing(row.result) else str(row.result)
        length = "?" if is_missing(row.plies) else str(as_int(row.plies))
        ended.append(f"{res or 'no result'} after {length} plies")
        v, t = verdict(automatic=row.automatic, start_ply=row.start_ply,
                       limit_plies=row.limit_plies, reached_ply=row.reached_ply,
                       end_ply=row.end_ply, plies=row.plies, outcome=row.outcome,
                       result=res, deadline_ply=row.deadline_ply)
        verdicts.append(v)
        texts.append(t)
    df["ended"] = ended
    df["verdict"] = verdicts
    df["explanation"] = texts
    return df


def endgame_summary(rules_df: pd.DataFrame, by: str = "rule") -> pd.DataFrame:
    """Verdict counts per ``rule``, ``variant`` or ``event`` from :func:`endgame_rules`.

    Columns: the ``by`` column (plus ``article`` and ``automatic`` per rule),
    ``activations``, ``games``, then one column per verdict.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"game_id": [1, 2], "rule": ["r", "r"], "article": ["A", "A"],
    ...     "automatic": [True, True], "verdict": ["drawn-by-rule", "played-past-limit"]})
    >>> endgame_summary(df).iloc[0].to_dict()["played-past-limit"]
    1
    """
    import pandas as pd

    if by not in ("rule", "variant", "event"):
        raise ArgumentError("by must be 'rule', 'variant' or 'event'")
    keys = [by] + (["article", "automatic"] if by == "rule" else [])
    cols = keys + ["activations", "games", *VERDICTS]
    if rules_df.empty:
        return pd.DataFrame(columns=cols)
    d = rules_df.copy()
    for k in keys:
        d[k] = d[k].astype(object).where(d[k].notna(), "(none)")
    g = d.groupby(keys, sort=True, dropna=False)
    out = g.agg(activations=("verdict", "size"), games=("game_id", "nunique")).reset_index()
    counts = pd.crosstab([d[k] for k in keys], d["verdict"]).reset_index()
    out = out.merge(counts, on=keys, how="left")
    for v in VERDICTS:
        out[v] = out[v].fillna(0).astype(int) if v in out else 0
    return out[cols].sort_values(["activations", by], ascending=[False, True],
                                 kind="stable").reset_index(drop=True)

