"""Reports: the endgame-rule report and the collection (validation) report.

Both are built from a pdnkit database and come out as Markdown or as one self-contained
HTML page with the plots embedded (base64 PNG). The data behind them are ordinary
DataFrames: :func:`endgame_rules` (one row per draw/endgame rule that became active in
a game, with a verdict) and :func:`endgame_summary`.

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

import base64
import datetime as _dt
import html
import io
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure

__all__ = [
    "REPORT_KINDS",
    "VERDICTS",
    "collection_report",
    "endgame_report",
    "endgame_rules",
    "endgame_summary",
    "report",
    "verdict",
]

REPORT_KINDS = ("endgame", "collection")
VERDICTS = ("ended-in-time", "drawn-by-rule", "played-past-limit", "result-contradicts-rule")


# --------------------------------------------------------------------------------------
# endgame rules
# --------------------------------------------------------------------------------------


def _isnull(v: Any) -> bool:
    """True for None, NaN, NaT and pandas' NA."""
    if v is None:
        return True
    try:
        import pandas as pd

        return bool(pd.isna(v))
    except (TypeError, ValueError):
        return False


def _int(v: Any) -> int | None:
    return None if _isnull(v) else int(v)


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
    auto = True if _isnull(automatic) else bool(automatic)
    start, limit, reached = _int(start_ply), _int(limit_plies), _int(reached_ply)
    end, last, deadline = _int(end_ply), _int(plies), _int(deadline_ply)
    if deadline is None and start is not None and limit is not None:
        deadline = start + limit
    if last is None:
        last = end if reached is None else max(reached, end or 0)
    decisive = outcome in ("white", "black")
    res = result if not _isnull(result) and result not in ("", "*") else None
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
    con: Any = None,
    *,
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: str | _dt.date | int | None = None,
    date_to: str | _dt.date | int | None = None,
) -> pd.DataFrame:
    """Every draw or endgame rule that became active in a game, with its verdict.

    Columns: ``game_id``, ``file``, ``game_index``, ``line``, ``variant``, ``event``,
    ``white``, ``black``, ``rule``, ``article``, ``automatic``, ``start_ply``,
    ``limit_plies``, ``deadline_ply``, ``reached_ply``, ``end_ply``, ``plies``,
    ``result``, ``outcome``, ``draw_basis``, ``ended`` (how the game actually ended),
    ``verdict`` and ``explanation``. Filters as in :mod:`pdnkit.stats`.

    >>> from pdnkit.stats import _memory_db
    >>> endgame_rules(_memory_db()).empty
    True
    """
    from pdnkit.stats import OUTCOME_SQL, _con, _game_filters

    con = _con(con)
    where, params = _game_filters(variant, event, player, date_from, date_to)
    df = con.execute(f"""
        SELECT g.game_id, fl.path AS file, g.game_index, g.line, g.variant, g.event,
               g.white, g.black, r.rule, r.article, r.automatic, r.start_ply, r.limit_plies,
               coalesce(r.deadline_ply, r.start_ply + r.limit_plies) AS deadline_ply,
               r.reached_ply, r.end_ply, g.plies, g.result, {OUTCOME_SQL} AS outcome,
               g.draw_basis
        FROM rule_events r JOIN games g ON g.game_id = r.game_id
        LEFT JOIN files fl ON fl.file_id = g.file_id
        WHERE {where}
        ORDER BY g.game_id, r.start_ply, r.rule
    """, params).df()
    ended, verdicts, texts = [], [], []
    for row in df.itertuples(index=False):
        res = None if _isnull(row.result) else row.result
        ended.append(f"{res or 'no result'} after {'?' if _isnull(row.plies) else int(row.plies)}"
                     " plies")
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
        raise ValueError("by must be 'rule', 'variant' or 'event'")
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


# --------------------------------------------------------------------------------------
# rendering
# --------------------------------------------------------------------------------------


class _Doc:
    """A report as a list of blocks, rendered to Markdown or HTML."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.blocks: list[tuple[str, Any]] = []

    def h(self, text: str) -> None:
        self.blocks.append(("h", text))

    def p(self, text: str) -> None:
        self.blocks.append(("p", text))

    def table(self, df: pd.DataFrame, empty: str = "(none)") -> None:
        self.blocks.append(("table", (df, empty)))

    def figure(self, fig: Figure, alt: str) -> None:
        self.blocks.append(("figure", (fig, alt)))

    def markdown(self) -> str:
        out = [f"# {self.title}", ""]
        for kind, value in self.blocks:
            if kind == "h":
                out += [f"## {value}", ""]
            elif kind == "p":
                out += [value, ""]
            elif kind == "table":
                df, empty = value
                out += [_md_table(df) if len(df) else empty, ""]
        return "\n".join(out).rstrip() + "\n"

    def html(self) -> str:
        parts = [
            "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
            f"<title>{html.escape(self.title)}</title>", f"<style>{_CSS}</style>", "</head>",
            "<body>", f"<h1>{html.escape(self.title)}</h1>",
        ]
        for kind, value in self.blocks:
            if kind == "h":
                parts.append(f"<h2>{html.escape(value)}</h2>")
            elif kind == "p":
                parts.append(f"<p>{_inline_html(value)}</p>")
            elif kind == "table":
                df, empty = value
                if len(df):
                    parts.append(df.to_html(index=False, na_rep="", border=0,
                                            classes="data", escape=True))
                else:
                    parts.append(f"<p><em>{html.escape(empty)}</em></p>")
            elif kind == "figure":
                fig, alt = value
                buf = io.BytesIO()
                fig.savefig(buf, format="png", dpi=96, bbox_inches="tight")
                data = base64.b64encode(buf.getvalue()).decode("ascii")
                parts.append(f'<figure><img alt="{html.escape(alt)}" '
                             f'src="data:image/png;base64,{data}"></figure>')
        parts += [f'<footer>pdnkit {_version()} &middot; '
                  f'{_dt.datetime.now().strftime("%Y-%m-%d %H:%M")}</footer>', "</body>",
                  "</html>"]
        return "\n".join(parts) + "\n"


_CSS = (
    "body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;"
    "color:#222}h1{border-bottom:2px solid #b58863}h2{margin-top:1.6em;color:#5a3d22}"
    "table.data{border-collapse:collapse;font-size:.85em;margin:.5em 0}"
    "table.data th,table.data td{padding:.25em .6em;border-bottom:1px solid #ddd;text-align:left}"
    "table.data th{background:#f0d9b5}figure{margin:1em 0}img{max-width:100%}"
    "code{background:#f4f4f4;padding:0 .2em}footer{margin-top:3em;color:#888;font-size:.8em}"
)


def _version() -> str:
    from pdnkit import __version__

    return __version__


def _inline_html(text: str) -> str:
    """Escape, then turn `code` spans into <code>."""
    parts = html.escape(text).split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))


def _cell(v: Any) -> str:
    if _isnull(v):
        return ""
    if isinstance(v, float):
        return f"{v:g}"
    if hasattr(v, "strftime"):
        return v.strftime("%Y-%m-%d")
    return str(v).replace("|", "\\|").replace("\n", " ")


def _md_table(df: pd.DataFrame) -> str:
    """A GitHub-flavoured Markdown table.

    >>> import pandas as pd
    >>> print(_md_table(pd.DataFrame({"a": [1], "b": ["x|y"]})))
    | a | b |
    |---|---|
    | 1 | x\\|y |
    """
    head = "| " + " | ".join(str(c) for c in df.columns) + " |"
    rule = "|" + "|".join("---" for _ in df.columns) + "|"
    rows = ["| " + " | ".join(_cell(v) for v in row) + " |"
            for row in df.itertuples(index=False)]
    return "\n".join([head, rule, *rows])


def _filters_text(filters: dict[str, Any]) -> str:
    used = [f"{k.replace('_', ' ')} = {v}" for k, v in filters.items() if v not in (None, "")]
    return ("Filters: " + ", ".join(used) + ".") if used else "All games in the database."


# --------------------------------------------------------------------------------------
# the two reports
# --------------------------------------------------------------------------------------

_ENDGAME_COLUMNS = ["game_id", "file", "game_index", "variant", "event", "white", "black",
                    "rule", "article", "automatic", "start_ply", "deadline_ply", "reached_ply",
                    "end_ply", "ended", "verdict", "explanation"]


def endgame_report(con: Any = None, *, fmt: str = "md", **filters: Any) -> str:
    """The endgame-rule report as Markdown (``fmt="md"``) or self-contained HTML.

    Lists every game where a draw or endgame rule of its variant became active (see
    :func:`endgame_rules`), problems first, with summaries per variant, event and rule
    and (HTML) a plot of the verdicts.

    >>> from pdnkit.stats import _memory_db
    >>> endgame_report(_memory_db()).splitlines()[0]
    '# Endgame-rule report'
    """
    from pdnkit import plots

    con_ = _connection(con)
    df = endgame_rules(con_, **filters)
    doc = _Doc("Endgame-rule report")
    n_games = int(df["game_id"].nunique()) if len(df) else 0
    counts = df["verdict"].value_counts().to_dict() if len(df) else {}
    doc.p(_filters_text(filters) + f" {len(df)} rule activations in {n_games} games: "
          + ", ".join(f"{counts.get(v, 0)} {v}" for v in VERDICTS) + ".")
    doc.p("A rule is *active* from the ply its count started; it would draw the game at "
          "`deadline_ply` unless a capture, promotion or change of material resets it. "
          "Automatic rules end the game at the limit; claim rules only let a player claim "
          "the draw, so play going on is legal.")
    by_rule = endgame_summary(df, by="rule")
    doc.h("Verdicts by rule")
    doc.table(by_rule, "No draw or endgame rule became active in these games.")
    if fmt == "html":
        doc.figure(plots.endgame_verdicts(by_rule, by="rule"), "verdicts by rule")
    doc.h("By variant")
    doc.table(endgame_summary(df, by="variant"))
    doc.h("By event")
    doc.table(endgame_summary(df, by="event"))
    order = {"result-contradicts-rule": 0, "played-past-limit": 1, "drawn-by-rule": 2,
             "ended-in-time": 3}
    if len(df):
        df = df.assign(_o=df["verdict"].map(order)).sort_values(
            ["_o", "game_id", "start_ply"], kind="stable").drop(columns="_o")
    problems = df[df["verdict"].isin(["result-contradicts-rule", "played-past-limit"])] \
        if len(df) else df
    doc.h("Games to check")
    doc.p("Automatic draws that were ignored, results that contradict a rule, and claimable "
          "draws that were not claimed.")
    doc.table(problems[_ENDGAME_COLUMNS] if len(problems) else problems, "None.")
    doc.h("Every rule activation")
    doc.table(df[_ENDGAME_COLUMNS] if len(df) else df, "None.")
    return doc.html() if fmt == "html" else doc.markdown()


def collection_report(con: Any = None, *, fmt: str = "md", worst: int = 10,
                      **filters: Any) -> str:
    """The validation summary of a database as Markdown or self-contained HTML.

    Games, clean share (status ``ok``), games by status, findings by code, the ``worst``
    files and games, and (HTML) plots of findings by code and of game lengths.

    >>> from pdnkit.stats import _memory_db
    >>> "0 games" in collection_report(_memory_db())
    True
    """
    from pdnkit import plots, stats
    from pdnkit.stats import _con, _game_filters

    con_ = _connection(con)
    where, params = _game_filters(**{k: filters.get(k) for k in
                                     ("variant", "event", "player", "date_from", "date_to")})
    con2 = _con(con_)
    row = con2.execute(f"""
        SELECT count(*), count(*) FILTER (WHERE status = 'ok'),
               count(*) FILTER (WHERE status = 'warning'),
               count(*) FILTER (WHERE status = 'error'),
               count(*) FILTER (WHERE status = 'unparsed'),
               count(DISTINCT file_id), coalesce(sum(plies), 0),
               coalesce(sum(replayed_plies), 0)
        FROM games g WHERE {where}""", params).fetchone()
    games, ok, warn, err, unparsed, files, plies, replayed = (int(x or 0) for x in row)
    share = f"{100.0 * ok / games:.1f}%" if games else "n/a"
    doc = _Doc("Collection report")
    doc.p(_filters_text(filters) + f" {games} games from {files} files; {share} clean "
          f"(no finding above info): {ok} ok, {warn} with warnings, {err} with errors, "
          f"{unparsed} unparsed. {replayed} of {plies} recorded plies replayed.")
    by_variant = stats.results(con2, by="variant", **{k: v for k, v in filters.items() if v})
    doc.h("Games by variant")
    doc.table(by_variant)
    codes = stats.findings(con2, by="code", **{k: v for k, v in filters.items() if v})
    doc.h("Findings by code")
    doc.table(codes, "No findings.")
    if fmt == "html":
        doc.figure(plots.findings_by_code(codes), "findings by code")
    doc.h(f"The {worst} dirtiest files")
    doc.table(stats.findings(con2, by="file", **{k: v for k, v in filters.items() if v})
              .head(worst))
    doc.h(f"The {worst} games with the most problems")
    bad = stats.findings(con2, by="game", **{k: v for k, v in filters.items() if v})
    doc.table(bad.head(worst), "No game has findings.")
    doc.h("By event")
    doc.table(stats.findings(con2, by="event", **{k: v for k, v in filters.items() if v})
              .head(worst * 2))
    if fmt == "html":
        doc.h("Game lengths")
        doc.figure(plots.length_histogram(
            stats.lengths(con2, **{k: v for k, v in filters.items() if v})), "game lengths")
    return doc.html() if fmt == "html" else doc.markdown()


def _connection(con: Any) -> Any:
    from pdnkit.stats import _con

    return _con(con)


def report(kind: str, con: Any = None, *, fmt: str = "md", **filters: Any) -> str:
    """The report ``kind`` (``endgame`` or ``collection``) as Markdown or HTML text.

    ``fmt`` is ``"md"`` or ``"html"`` (one self-contained page, plots embedded).
    ``None`` filters are ignored.

    >>> from pdnkit.stats import _memory_db
    >>> report("endgame", _memory_db(), fmt="html").startswith("<!DOCTYPE html>")
    True
    """
    if fmt not in ("md", "html"):
        raise ValueError("fmt must be 'md' or 'html'")
    filters = {k: v for k, v in filters.items() if v is not None}
    if kind == "endgame":
        return endgame_report(con, fmt=fmt, **filters)
    if kind == "collection":
        return collection_report(con, fmt=fmt, **filters)
    raise ValueError(f"unknown report {kind!r}; choose from {', '.join(REPORT_KINDS)}")
