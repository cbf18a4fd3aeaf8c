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

from pdnkit.stats import VERDICTS, _isnull, endgame_rules, endgame_summary, verdict

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
