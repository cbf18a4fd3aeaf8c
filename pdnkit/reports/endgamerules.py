"""The endgame-rule report: every draw or endgame rule that became active in a game, with
its verdict (:data:`pdnkit.stats.endgame.VERDICTS`), the verdicts that need a person first,
then what the endgame databases say of the endings, and summaries by rule, variant and event.

Example:
    >>> from pdnkit.store import connect
    >>> endgame_report(connect(":memory:"), fmt="md").splitlines()[2][:26]
    'All games in the database.'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pdnkit.reports.document import SHOWN, Doc, check_board, escaped, filters_text
from pdnkit.stats.common import is_missing
from pdnkit.stats.endgame import VERDICTS, endgame_rules, endgame_summary
from pdnkit.stats.filters import DateBound, GameFilter
from pdnkit.store.session import DbLike
from pdnkit.viewer.model import winner_text

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["NEEDS_A_PERSON", "endgame_report"]

_ENDGAME_COLUMNS = ["game_id", "file", "game_index", "variant", "event", "white", "black",
                    "rule", "article", "automatic", "start_ply", "deadline_ply", "reached_ply",
                    "end_ply", "ended", "verdict", "explanation"]
#: verdicts a person should look at, most serious first
NEEDS_A_PERSON = ("result-contradicts-rule", "played-past-limit", "drawn-by-rule")
_SOURCE_MARKS = {"[S]": "a secondary source (a federation summary, not the rulebook itself)",
                 "[I]": "an implementation (another program's behaviour)",
                 "[U]": "an assumption of pdnkit where no source says"}


def _needs_person_first(df: pd.DataFrame) -> pd.DataFrame:
    order = {v: i for i, v in enumerate((*NEEDS_A_PERSON, "ended-in-time"))}
    return df.assign(_o=df["verdict"].map(order)).sort_values(
        ["_o", "game_id", "start_ply"], kind="stable").drop(columns="_o")


def _person_table(df: pd.DataFrame) -> pd.DataFrame:
    """The verdicts to check, narrow enough to read: file name, 1-based game number."""
    import pandas as pd

    cols = ["verdict", "game_id", "file", "game", "event", "white", "black", "article",
            "reached_ply", "ended", "explanation"]
    if df.empty:
        return pd.DataFrame(columns=cols)
    from pathlib import Path

    return df.assign(
        file=[Path(str(f)).name if not is_missing(f) else "" for f in df["file"]],
        game=[int(i) + 1 if not is_missing(i) else None for i in df["game_index"]])[cols]


def _source_note(names: Any) -> str | None:
    """A sentence explaining the ``[S]``-style marks that occur in ``names``."""
    text = " ".join(str(n) for n in names)
    used = [f"`{m}` = {why}" for m, why in _SOURCE_MARKS.items() if m in text]
    if not used:
        return None
    return ("Marks in rule names say where pdnkit took the rule from: " + "; ".join(used)
            + " (see docs/draw-rules.md).")


def _by_event(df: pd.DataFrame) -> pd.DataFrame:
    """Events sorted by what needs a person, then by activations."""
    ev = endgame_summary(df, by="event")
    if ev.empty:
        return ev
    need = sum(ev[v] for v in NEEDS_A_PERSON)
    return ev.assign(_n=need).sort_values(["_n", "activations", "event"],
                                          ascending=[False, False, True],
                                          kind="stable").drop(columns="_n")


def _winners_named(df: pd.DataFrame) -> pd.DataFrame:
    """``ended`` says who won, by side and name (``Black won: MF Tinsley, after 39 plies``),
    never a bare score whose first number is White's in one variant and Black's in another.

    >>> import pandas as pd
    >>> _winners_named(pd.DataFrame({"outcome": ["black"], "white": ["E Fuller"],
    ...     "black": ["MF Tinsley"], "plies": [39], "ended": ["1-0 after 39 plies"]})).ended[0]
    'Black won: MF Tinsley, after 39 plies'
    """
    if df.empty:
        return df
    plies = ["?" if is_missing(n) else str(int(n)) for n in df["plies"]]
    return df.assign(ended=[f"{winner_text(o, w, b)}, after {n} plies" for o, w, b, n in
                            zip(df["outcome"], df["white"], df["black"], plies, strict=True)])


def endgame_report(
    con: DbLike = None,
    *,
    fmt: str = "md",
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    filter: GameFilter | None = None,
) -> str:
    """The endgame-rule report as Markdown (``fmt="md"``) or self-contained HTML.

    Opens with the verdicts that need a person (a result that contradicts an automatic
    draw, play past a limit, draws by rule), then verdicts by rule, the activations that
    simply ended in time as counts per rule (the full list folded), and summaries per
    variant and event (the events with the most to check first, the rest folded).

    >>> from pdnkit.store import connect
    >>> endgame_report(connect(":memory:")).splitlines()[0]
    '# Endgame-rule report'
    """
    from pdnkit import plots

    gf = GameFilter.of(filter, variant=variant, event=event, player=player,
                       date_from=date_from, date_to=date_to)
    df = _winners_named(endgame_rules(con, filter=gf))
    doc = Doc("Endgame-rule report")
    n_games = int(df["game_id"].nunique()) if len(df) else 0
    counts = df["verdict"].value_counts().to_dict() if len(df) else {}
    if len(df):
        df = _needs_person_first(df)
    check = df[df["verdict"].isin(NEEDS_A_PERSON)] if len(df) else df
    doc.p(filters_text(gf) + f" {len(df)} rule activations in {n_games} games: "
          + ", ".join(f"{counts.get(v, 0)} {v}" for v in VERDICTS) + f". **{len(check)} "
          "need a person** (the first section); the rest ended before a limit.")
    doc.p("A rule is *active* from the ply its count started; it would draw the game at "
          "`deadline_ply` unless a capture, promotion or change of material resets it. "
          "Automatic rules end the game at the limit; claim rules only let a player claim "
          "the draw, so play going on is legal.")
    doc.h("Verdicts that need a person")
    doc.p("Results that contradict an automatic draw, games played on past a limit (or a "
          "claimable draw not claimed), and draws by rule to confirm, most serious first.")
    cols = _ENDGAME_COLUMNS
    person = _person_table(check)
    doc.table(person.head(200), "None.")
    if len(person) > 200:
        doc.folded(f"{len(person) - 200} more", person.iloc[200:])
    _egdb_section(doc, con, gf, fmt)
    by_rule = endgame_summary(df, by="rule")
    doc.h("Verdicts by rule")
    doc.table(by_rule, "No draw or endgame rule became active in these games.")
    note = _source_note(by_rule["rule"].tolist() + by_rule["article"].tolist()) \
        if len(by_rule) else None
    if note:
        doc.p(note)
    if fmt == "html":
        doc.figure(plots.endgame_verdicts(by_rule, by="rule"), "verdicts by rule")
    in_time = df[df["verdict"] == "ended-in-time"] if len(df) else df
    doc.h("Ended in time")
    if len(in_time):
        per_rule = (in_time.groupby(["rule", "article"], dropna=False)
                    .agg(activations=("game_id", "size"), games=("game_id", "nunique"))
                    .reset_index().sort_values(["activations", "rule"],
                                               ascending=[False, True], kind="stable"))
        doc.p(f"{len(in_time)} activations ended before their limit (the game ended or the "
              "count was reset): nothing to check. Counts per rule; the full list is folded.")
        doc.table(per_rule)
        doc.folded(f"every activation that ended in time ({len(in_time)})", in_time[cols])
    else:
        doc.p("None.")
    doc.h("By variant")
    doc.table(endgame_summary(df, by="variant"))
    by_event = _by_event(df)
    doc.h("By event")
    if len(by_event) > SHOWN:
        doc.p(f"The {SHOWN} events with the most verdicts to check; "
              f"{len(by_event) - SHOWN} more are folded.")
    doc.table(by_event.head(SHOWN))
    doc.folded(f"{len(by_event) - SHOWN} more events", by_event.iloc[SHOWN:])
    return doc.html() if fmt == "html" else doc.markdown()



def _egdb_section(doc: Doc, con: DbLike, gf: GameFilter, fmt: str) -> None:
    """What the endgame databases say of the endings (:mod:`pdnkit.stats.endings`)."""
    from pdnkit.stats.endings import egdb_coverage, egdb_verdicts

    cover, found = egdb_coverage(con, filter=gf), egdb_verdicts(con, filter=gf)
    doc.h("Endgame databases")
    done = cover.loc[cover["built"], ["variant", "games"]].groupby("variant")["games"].max()
    judged = int(done.sum()) if len(done) else 0
    n = found["code"].value_counts().to_dict() if len(found) else {}
    doc.p(f"{judged} games end in positions the built endgame databases hold: "
          f"{n.get('win-thrown-away', 0)} wins thrown away, {n.get('draw-thrown-away', 0)} "
          f"draws thrown away, {n.get('result-vs-egdb', 0)} results against the databases, "
          f"{n.get('egdb-win-drawn-by-rule', 0)} won endings drawn by a move-count rule "
          "(values with best play and no move-count rule; `fen` is the position before the "
          "move, `best_moves` the moves that keep its value).")
    doc.table(found.drop(columns=["message"]).head(200), "No verdict.")
    doc.folded(f"{len(found) - 200} more", found.iloc[200:])
    if fmt == "html":
        for row in found.head(12).itertuples(index=False):
            svg, _ = check_board(row, None if is_missing(row.move) else str(row.move))
            doc.raw(f'<div class="check">{svg}<div><p>{escaped(str(row.message))}</p></div></div>',
                    "")
    missing = cover[~cover["built"] & (cover["games"] > cover["variant"].map(done).fillna(0))]
    if len(missing):
        doc.p("Not built (no error: these would judge more endings):")
        doc.table(missing)
