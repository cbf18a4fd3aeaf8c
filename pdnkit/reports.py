"""Reports: the endgame-rule report, the collection (validation) report and the openings
(ballot) report.

Both are built from a pdnkit database and come out as Markdown or as one self-contained
HTML page with the plots embedded (base64 PNG). The data behind them are ordinary
DataFrames: :func:`endgame_rules` (one row per draw/endgame rule that became active in
a game, with a verdict) and :func:`endgame_summary`.

The verdicts (:data:`VERDICTS`: ``ended-in-time``, ``drawn-by-rule``, ``played-past-limit``,
``result-contradicts-rule``) are explained in :mod:`pdnkit.stats.endgame`, which computes them.

Example:
    >>> verdict(automatic=True, start_ply=40, limit_plies=30, reached_ply=70, end_ply=70,
    ...         plies=75, outcome="white", result="1-0")[0]
    'played-past-limit'
"""

from __future__ import annotations

import base64
import dataclasses
import datetime as _dt
import html
import io
from typing import TYPE_CHECKING, Any

from pdnkit.errors import ArgumentError
from pdnkit.stats.common import first_mover_first, frame, is_missing
from pdnkit.stats.endgame import VERDICTS, endgame_rules, endgame_summary, verdict
from pdnkit.stats.filters import DateBound, GameFilter
from pdnkit.store.session import DbLike, reading
from pdnkit.viewer.model import players, result_text, winner_text
from pdnkit.viewer.text import markdown, markdown_code, plain

if TYPE_CHECKING:  # pragma: no cover
    import os

    import duckdb
    import pandas as pd
    from matplotlib.figure import Figure

__all__ = [
    "REPORT_KINDS",
    "VERDICTS",
    "collection_report",
    "endgame_report",
    "endgame_rules",
    "endgame_summary",
    "games_to_check",
    "openings_report",
    "report",
    "verdict",
]

REPORT_KINDS = ("endgame", "collection", "openings")


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

    def folded(self, summary: str, df: pd.DataFrame) -> None:
        """A table folded away under ``summary`` (``<details>``, also in Markdown)."""
        if len(df):
            self.blocks.append(("folded", (summary, df)))

    def figure(self, fig: Figure, alt: str) -> None:
        self.blocks.append(("figure", (fig, alt)))

    def raw(self, html_text: str, md_text: str) -> None:
        """A block written as given: ``html_text`` in HTML, ``md_text`` in Markdown."""
        self.blocks.append(("raw", (html_text, md_text)))

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
            elif kind == "folded":
                summary, df = value
                out += ["<details>", f"<summary>{html.escape(summary)}</summary>", "",
                        _md_table(df), "", "</details>", ""]
            elif kind == "raw":
                out += [value[1], ""]
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
                parts.append(_html_table(df) if len(df)
                             else f"<p><em>{html.escape(empty)}</em></p>")
            elif kind == "folded":
                summary, df = value
                parts.append(f"<details><summary>{html.escape(summary)}</summary>"
                             f"{_html_table(df)}</details>")
            elif kind == "raw":
                parts.append(value[0])
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


def _html_table(df: pd.DataFrame) -> str:
    """A DataFrame as an HTML table in a box that scrolls sideways when it is wide (text
    escaped, bidi controls stripped: :func:`pdnkit.viewer.text.plain`)."""
    shown = df.map(lambda v: plain(v) if isinstance(v, str) else v)
    return ('<div class="scroll">' + str(shown.to_html(index=False, na_rep="", border=0,
                                                       classes="data", escape=True)) + "</div>")


_CSS = (
    "body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;"
    "color:#222}h1{border-bottom:2px solid #b58863}h2{margin-top:1.6em;color:#5a3d22}"
    "table.data{border-collapse:collapse;font-size:.85em;margin:.5em 0}"
    "table.data th,table.data td{padding:.25em .6em;border-bottom:1px solid #ddd;text-align:left}"
    "table.data th{background:#f0d9b5;position:sticky;top:0}figure{margin:1em 0}"
    "img{max-width:100%}.scroll{overflow-x:auto;max-width:100%}"
    "details{margin:.5em 0}summary{cursor:pointer;color:#5a3d22;font-weight:600}"
    "code{background:#f4f4f4;padding:0 .2em}footer{margin-top:3em;color:#888;font-size:.8em}"
    ".check{display:flex;gap:1.2em;align-items:flex-start;border-top:1px solid #e5dccd;"
    "padding:.8em 0}.check h3{margin:0 0 .3em;font-size:1em}.check p{margin:.2em 0}"
    ".check svg{flex:0 0 auto}.legal code{margin-right:.3em}"
)


def _version() -> str:
    from pdnkit._version import __version__

    return __version__


def _inline_html(text: str) -> str:
    """Escape, then render the Markdown the reports use: `code`, **strong** and *emphasis*.

    >>> _inline_html("a *b* **c** `d*e*` <x>")
    'a <em>b</em> <strong>c</strong> <code>d*e*</code> &lt;x&gt;'
    """
    import re

    parts = html.escape(text, quote=False).split("`")
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(f"<code>{part}</code>")
            continue
        part = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", part)
        out.append(re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<em>\1</em>", part))
    return "".join(out)


def _cell(v: Any) -> str:
    """A Markdown table cell: text escaped (:func:`pdnkit.viewer.text.markdown`), so no
    markup of a file becomes HTML or a link in a CommonMark renderer."""
    if is_missing(v):
        return ""
    if isinstance(v, float):
        return f"{v:g}"
    if hasattr(v, "strftime"):
        return str(v.strftime("%Y-%m-%d"))
    return markdown(str(v))


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


def _filters_text(gf: GameFilter) -> str:
    used = [f"{k.replace('_', ' ')} = {v}" for k, v in dataclasses.asdict(gf).items()
            if v not in (None, "") and v is not False  # a flag left off says nothing
            and k != "all_copies"]
    once = (" Every record, the copies of a game included." if gf.all_copies else
            " Each game once (its copies left out: pdnkit duplicates).")
    return (("Filters: " + ", ".join(used) + ".") if used else
            "All games in the database.") + once


# --------------------------------------------------------------------------------------
# the two reports
# --------------------------------------------------------------------------------------

_ENDGAME_COLUMNS = ["game_id", "file", "game_index", "variant", "event", "white", "black",
                    "rule", "article", "automatic", "start_ply", "deadline_ply", "reached_ply",
                    "end_ply", "ended", "verdict", "explanation"]
#: verdicts a person should look at, most serious first
NEEDS_A_PERSON = ("result-contradicts-rule", "played-past-limit", "drawn-by-rule")
#: rows of a table shown before the rest is folded away
_SHOWN = 15
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
    doc = _Doc("Endgame-rule report")
    n_games = int(df["game_id"].nunique()) if len(df) else 0
    counts = df["verdict"].value_counts().to_dict() if len(df) else {}
    if len(df):
        df = _needs_person_first(df)
    check = df[df["verdict"].isin(NEEDS_A_PERSON)] if len(df) else df
    doc.p(_filters_text(gf) + f" {len(df)} rule activations in {n_games} games: "
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
    if len(by_event) > _SHOWN:
        doc.p(f"The {_SHOWN} events with the most verdicts to check; "
              f"{len(by_event) - _SHOWN} more are folded.")
    doc.table(by_event.head(_SHOWN))
    doc.folded(f"{len(by_event) - _SHOWN} more events", by_event.iloc[_SHOWN:])
    return doc.html() if fmt == "html" else doc.markdown()


def games_to_check(
    con: DbLike = None,
    *,
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    filter: GameFilter | None = None,
) -> pd.DataFrame:
    """The games with an error, one row each with its first error in the main line.

    Columns: ``game_id``, ``file``, ``game_index``, ``variant``, ``white``, ``black``,
    ``event``, ``result_raw`` (as written), ``outcome``, ``status``, ``code``, ``message``,
    ``ply``, ``move`` (as written), ``fen`` (the position before the move), ``line``. Filters
    as in :mod:`pdnkit.stats`.

    >>> from pdnkit.store import connect
    >>> games_to_check(connect(":memory:")).empty
    True
    """
    gf = GameFilter.of(filter, variant=variant, event=event, player=player,
                       date_from=date_from, date_to=date_to)
    sql = """
        WITH f AS (
            SELECT *, row_number() OVER (PARTITION BY game_id
                                         ORDER BY ply NULLS FIRST, line, code) AS rn
            FROM findings WHERE severity = 'error' AND NOT coalesce(in_variation, FALSE))
        SELECT g.game_id, fl.path AS file, g.game_index, g.variant, g.white, g.black,
               g.event, g.result_raw, g.outcome, g.status, f.code, f.message, f.ply, f.move,
               f.fen, f.line
        FROM games g JOIN f ON f.game_id = g.game_id AND f.rn = 1
        LEFT JOIN files fl ON fl.file_id = g.file_id
        WHERE {where}
        ORDER BY g.game_id"""
    with reading(con) as c:
        where, params = gf.sql(con=c)
        return frame(c, sql.replace("{where}", where), params)


def _check_card(row: Any, link: str | None) -> tuple[str, str]:
    """One game to check as (HTML with a board, Markdown). Text from the file is escaped in
    both (and without bidi controls: :mod:`pdnkit.viewer.text`)."""
    from pathlib import Path

    where = (f"{Path(str(row.file)).name if not is_missing(row.file) else '?'}, game "
             f"{int(row.game_index) + 1}" + ("" if is_missing(row.ply) else f", ply {int(row.ply)}"))
    names = players(row.white, row.black) + (
        f" ({row.event})" if not is_missing(row.event) and row.event else "")
    names += ": " + result_text(None if is_missing(row.result_raw) else row.result_raw,
                                row.outcome, row.white, row.black)
    move = None if is_missing(row.move) else str(row.move)
    svg, legal = _check_board(row, move)
    legal_text = ", ".join(legal) if legal else ("none (the game was over)" if svg else "n/a")
    link_html = (f' &middot; <a href="{html.escape(link)}">open in the viewer</a>'
                 if link else "")
    body = (f"<h3>{_h(where)}: {_h(str(row.code))}</h3>"
            f"<p>{_h(names)}{link_html}</p>"
            f"<p>{_h(str(row.message))}</p>"
            + (f"<p>Move as written: <code>{_h(move)}</code> (red squares)</p>"
               if move else "")
            + (f'<p class="legal">Legal moves there (blue arrows): '
               f'{"".join(f"<code>{_h(m)}</code>" for m in legal) or legal_text}</p>'
               if svg else ""))
    card = f'<div class="check">{svg}<div>{body}</div></div>'
    md = (f"- **{markdown(where)}**: {markdown_code(str(row.code))} {markdown(names)}. "
          f"{markdown(str(row.message))}"
          + (f" Move as written: {markdown_code(move)}." if move else "")
          + (f" Legal moves: {markdown(legal_text)}." if svg else "")
          + (f" [Open in the viewer]({link})" if link else ""))
    return card, md


def _egdb_section(doc: _Doc, con: DbLike, gf: GameFilter, fmt: str) -> None:
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
            svg, _ = _check_board(row, None if is_missing(row.move) else str(row.move))
            doc.raw(f'<div class="check">{svg}<div><p>{_h(str(row.message))}</p></div></div>',
                    "")
    missing = cover[~cover["built"] & (cover["games"] > cover["variant"].map(done).fillna(0))]
    if len(missing):
        doc.p("Not built (no error: these would judge more endings):")
        doc.table(missing)


def _h(text: str) -> str:
    """Text from a file for HTML: escaped, without bidi controls."""
    return html.escape(plain(text))


def _check_board(row: Any, move: str | None) -> tuple[str, list[str]]:
    """The SVG board of the position before a faulty move (the squares of the move as
    written marked, the legal moves as arrows) and those legal moves; ``("", [])`` without
    a position."""
    from pdnkit.board import board_svg
    from pdnkit.rules import FenError, format_move, get_rules, parse_fen
    from pdnkit.rules.notation import NotationError, parse_move_text
    from pdnkit.viewer.model import placement_of

    if is_missing(row.fen) or is_missing(row.variant):
        return "", []
    try:
        rules = get_rules(str(row.variant))
        pos = parse_fen(str(row.fen), rules)
        moves = pos.legal_moves()
        legal = [format_move(m, rules, full_path=len(m.captured) > 1) for m in moves]
        marks = {}
        if move:
            try:
                marks = {s: "written" for s in parse_move_text(rules, move)[0]
                         if rules.geometry.is_square(s)}
            except (NotationError, ValueError):
                marks = {}
        svg = board_svg(rules, placement_of(pos), marks=marks,
                        arrows=[m.path for m in moves[:8]], size=240,
                        title=f"position before ply {row.ply}")
    except (FenError, ValueError, KeyError, LookupError):
        return "", []
    return svg, legal


def _view_link(view_page: Any, number: int, ply: Any) -> str:
    """The relative link to game ``number`` (from 1) and ``ply`` of the viewer
    page ``view_page``: ``./`` and the name URL-quoted, so no file name reads as a scheme
    (``javascript:``) or breaks the link.

    >>> _view_link("/tmp/javascript:x.games.html", 2, 5)
    './javascript%3Ax.games.html#g=2&ply=5'
    """
    from pathlib import Path
    from urllib.parse import quote

    at = "" if is_missing(ply) else f"&ply={max(0, int(ply))}"
    return f"./{quote(Path(str(view_page)).name)}#g={number}{at}"


def _write_view(con: duckdb.DuckDBPyConnection, ids: list[int],
                path: str | os.PathLike[str]) -> dict[int, int]:
    """Write the viewer page of the games ``ids`` to ``path``; ``game_id -> the game's
    number in the page`` (from 1, as ``#g=N`` counts)."""
    from pathlib import Path

    from pdnkit.viewer.page import view

    ordered = sorted(set(ids))
    if not ordered:
        return {}
    view(db=con, where="g.game_id IN (" + ",".join(str(int(i)) for i in ordered) + ")",
         out=Path(path), title="games to check")
    return {gid: i for i, gid in enumerate(ordered, 1)}


def collection_report(
    con: DbLike = None,
    *,
    fmt: str = "md",
    worst: int = 10,
    boards: int = 12,
    view_page: str | os.PathLike[str] | None = None,
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    filter: GameFilter | None = None,
) -> str:
    """The validation summary of a database as Markdown or self-contained HTML.

    Opens with the games that have errors: for the first ``boards`` of them the position
    before the faulty move (an SVG board in HTML), the move as written and the legal moves
    there, and, when ``view_page`` (a path) is given, a link to that game and ply in a
    ``pdnkit view`` page of these games written there. Then games, clean share, findings by
    code, the ``worst`` files and games, the players' Elo ratings, and (HTML) plots.

    >>> from pdnkit.store import connect
    >>> "0 games" in collection_report(connect(":memory:"))
    True
    """
    gf = GameFilter.of(filter, variant=variant, event=event, player=player,
                       date_from=date_from, date_to=date_to)
    doc = _Doc("Collection report")
    with reading(con) as c:
        _collection_head(doc, c, gf)
        _games_to_check(doc, c, gf, boards, view_page)
        _collection_tables(doc, c, gf, fmt, worst)
    return doc.html() if fmt == "html" else doc.markdown()


def _collection_head(doc: _Doc, con: duckdb.DuckDBPyConnection, gf: GameFilter) -> None:
    """The collection report's first paragraph: games, files, clean share, plies."""
    where, params = gf.sql(con=con)
    row = con.execute(f"""
        SELECT count(*), count(*) FILTER (WHERE status = 'ok'),
               count(*) FILTER (WHERE status = 'warning'),
               count(*) FILTER (WHERE status = 'error'),
               count(*) FILTER (WHERE status = 'unparsed'),
               count(DISTINCT file_id), coalesce(sum(plies), 0),
               coalesce(sum(replayed_plies), 0)
        FROM games g WHERE {where}""", params).fetchone() or (0,) * 8
    games, ok, warn, err, unparsed, files, plies, replayed = (int(x or 0) for x in row)
    share = f"{100.0 * ok / games:.1f}%" if games else "n/a"
    doc.p(_filters_text(gf) + f" {games} games from {files} files; {share} clean "
          f"(no finding above info): {ok} ok, {warn} with warnings, {err} with errors, "
          f"{unparsed} unparsed. {replayed} of {plies} recorded plies replayed.")


def _games_to_check(doc: _Doc, con: duckdb.DuckDBPyConnection, gf: GameFilter, boards: int,
                    view_page: str | os.PathLike[str] | None) -> None:
    """The section of the games with an error: a card (board, move, legal moves) for the
    first ``boards``, each linked to its game in the viewer page ``view_page`` if given."""
    from pathlib import Path

    check = games_to_check(con, filter=gf)
    doc.h("Games to check")
    if check.empty:
        doc.p("No game has an error.")
        return
    index: dict[int, int] = {}
    if view_page is not None:
        index = _write_view(con, [int(g) for g in check["game_id"]], view_page)
    shown = check.head(boards)
    doc.p(f"{len(check)} games have an error; the first error of each"
          + (f" (boards for the first {len(shown)})" if len(check) > len(shown) else "")
          + ", with the position before the faulty move."
          + (f" Every one is in the viewer page `{Path(str(view_page)).name}`."
             if view_page is not None else ""))
    for r in shown.itertuples(index=False):
        gid = int(r.game_id)
        link = _view_link(view_page, index[gid], r.ply) if gid in index else None
        card, md = _check_card(r, link)
        doc.raw(card, md)
    doc.folded(f"all {len(check)} games with errors", check.drop(columns=["fen"]))


def _collection_tables(doc: _Doc, con: duckdb.DuckDBPyConnection, gf: GameFilter, fmt: str,
                       worst: int) -> None:
    """The collection report's tables (and, in HTML, plots): results by variant, findings
    by code, the dirtiest files, games and events, game lengths."""
    from pdnkit import plots
    from pdnkit.stats.summaries import findings, lengths, results

    doc.h("Games by variant")
    doc.table(results(con, by="variant", filter=gf))
    _openings_section(doc, con, gf, worst)
    _ratings_section(doc, con, gf, fmt)
    codes = findings(con, by="code", filter=gf)
    doc.h("Findings by code")
    doc.table(codes, "No findings.")
    if fmt == "html":
        doc.figure(plots.findings_by_code(codes), "findings by code")
    doc.h(f"The {worst} dirtiest files")
    doc.table(findings(con, by="file", filter=gf).head(worst))
    doc.h(f"The {worst} games with the most problems")
    bad = findings(con, by="game", filter=gf)
    doc.table(bad.head(worst), "No game has findings.")
    doc.h("By event")
    events = findings(con, by="event", filter=gf)
    doc.table(events.head(worst * 2))
    doc.folded(f"{len(events) - worst * 2} more events", events.iloc[worst * 2:])
    _analysis_section(doc, con, gf, worst)
    if fmt == "html":
        doc.h("Game lengths")
        doc.figure(plots.length_histogram(lengths(con, filter=gf)), "game lengths")


def _analysis_section(doc: _Doc, con: duckdb.DuckDBPyConnection, gf: GameFilter,
                      top: int) -> None:
    """The engine analysis, where the database holds one (``pdnkit analyse``): the games
    with the most missed shots, blunders and mistakes, and the players by accuracy."""
    from pdnkit.analysis.figures import accuracy, worst_games
    from pdnkit.store.evals import choose_key

    key = choose_key(con)
    if key is None:
        return
    games = worst_games(con, key, gf)
    doc.h(f"Engine analysis: {key.label}")
    doc.p(f"{len(games)} games analysed ({key.scale} scale: "
          + ("exact material, not positional judgement" if key.scale == "material"
             else "the engine's judgement in men") + "). A blunder loses a man or more, a "
          "mistake half a man, a missed shot lets a win of material go (`pdnkit explain "
          "blunder`); scores are White's.")
    doc.table(games.head(top).drop(columns=["game_id"]), "No game was analysed.")
    doc.folded("the players by the engine's judgement",
               accuracy(con, engine=key.label, filter=gf).drop(columns=["engine"]))


#: the columns of an opening table in a report
_OPENING_COLUMNS = ("variant", "code", "name", "translit", "games", "black_wins", "white_wins",
                    "draws", "white_score", "black_score", "draw_rate")


def _classified_text(con: duckdb.DuckDBPyConnection, gf: GameFilter) -> str:
    """How many games the opening tables name, per variant."""
    where, params = gf.sql(con=con)
    rows = con.execute(f"""
        SELECT g.variant, count(*), count(g.opening_code), count(g.opening_name)
        FROM games g WHERE g.variant IS NOT NULL AND {where}
        GROUP BY 1 ORDER BY 2 DESC, 1""", params).fetchall()
    parts = [f"{v}: {c} of {n} games with a ballot or code, {m} with a name"
             for v, n, c, m in rows]
    return ("By position (transpositions merged): " + "; ".join(parts) + ".") if parts \
        else "No game to name."


def _openings_section(doc: _Doc, con: duckdb.DuckDBPyConnection, gf: GameFilter,
                      top: int) -> None:
    """The collection report's openings: the share named, the most played codes."""
    from pdnkit.stats.named import named_openings

    doc.h("Openings")
    doc.p(_classified_text(con, gf))
    codes = named_openings(con, by="code", filter=gf)
    doc.table(codes[[c for c in codes.columns if c in _OPENING_COLUMNS]].head(top),
              "No game reached a table's opening.")


def _ratings_section(doc: _Doc, con: duckdb.DuckDBPyConnection, gf: GameFilter,
                     fmt: str) -> None:
    """The collection report's ratings: the leaders of each variant's Elo list (``pdnkit
    ratings``' defaults) and, in HTML, the ratings over time of the most active players."""
    from pdnkit import plots
    from pdnkit.stats.rating_lists import ratings

    rated = ratings(con, filter=gf.without_player())
    doc.h("Ratings")
    doc.p(f"Elo ratings from these games (K 20, everyone from 1500, by month: `pdnkit "
          f"ratings` computes Glicko-2 and other periods): {rated.note}.")
    table = rated.table.drop(columns=["start"])
    doc.table(table[table["rank"] <= 5], "No game could be rated.")  # each list's leaders
    doc.folded(f"all {len(table)} rated players", table)
    if fmt == "html" and len(table):
        doc.figure(plots.rating_history(rated.history, top=3, title="Elo ratings of the "
                                        "most active players"), "ratings over time")


def openings_report(
    con: DbLike = None,
    *,
    fmt: str = "md",
    top: int = 30,
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    filter: GameFilter | None = None,
) -> str:
    """The openings report as Markdown or self-contained HTML: for each variant, the
    ballots played (:func:`pdnkit.stats.named.ballots`: games, wins by side, draws, the
    decisive ones; the English three-move ballots with their deck), which ballots were
    decisive, then the ``top`` openings by code and by name.

    >>> from pdnkit.store import connect
    >>> openings_report(connect(":memory:")).splitlines()[0]
    '# Openings report'
    """
    from pdnkit.stats.named import ballots, named_openings

    gf = GameFilter.of(filter, variant=variant, event=event, player=player,
                       date_from=date_from, date_to=date_to)
    doc = _Doc("Openings report")
    with reading(con) as c:
        doc.p(_filters_text(gf) + " " + _classified_text(c, gf))
        played = ballots(c, filter=gf)
        # White's columns first again (ballots() put Black's first for a --variant Black
        # begins), then each variant's first mover first
        cols = [c for c in played.columns if c != "view_where"]
        for side in ("wins", "score"):
            if f"white_{side}" in cols and f"black_{side}" in cols:
                i, j = cols.index(f"white_{side}"), cols.index(f"black_{side}")
                cols[min(i, j)], cols[max(i, j)] = f"white_{side}", f"black_{side}"
        for v in dict.fromkeys(played["variant"]):
            rows = first_mover_first(played.loc[played["variant"] == v, cols], [v])
            decisive = rows[rows["decisive"] > 0]
            doc.h(f"Ballots played: {v}")
            doc.p(f"{len(rows)} ballots in {int(rows['games'].sum())} games; "
                  f"{len(decisive)} produced a decisive game, {len(rows) - len(decisive)} "
                  "only draws (or results not known). Every game of a ballot counts, "
                  "whichever colour played it.")
            doc.table(rows.head(_SHOWN * 4))
            doc.folded(f"{len(rows) - _SHOWN * 4} more ballots", rows.iloc[_SHOWN * 4:])
        if played.empty:
            doc.h("Ballots played")
            doc.p("No game of the database is a ballot of the tables.")
        for by in ("code", "name"):
            df = named_openings(c, by=by, filter=gf)
            doc.h(f"Openings by {by}")
            doc.table(df[[x for x in df.columns if x in _OPENING_COLUMNS]].head(top),
                      "No game reached a table's opening.")
    return doc.html() if fmt == "html" else doc.markdown()


def report(
    kind: str,
    con: DbLike = None,
    *,
    fmt: str = "md",
    view_page: str | os.PathLike[str] | None = None,
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    filter: GameFilter | None = None,
) -> str:
    """The report ``kind`` (``endgame``, ``collection`` or ``openings``) as Markdown or HTML
    text.

    ``fmt`` is ``"md"`` or ``"html"`` (one self-contained page, plots embedded).
    ``None`` filters are ignored. ``view_page`` (collection report): write a ``pdnkit view``
    page of the games with errors there and link each game to it.

    >>> from pdnkit.store import connect
    >>> report("endgame", connect(":memory:"), fmt="html").startswith("<!DOCTYPE html>")
    True
    """
    if fmt not in ("md", "html"):
        raise ArgumentError("fmt must be 'md' or 'html'")
    gf = GameFilter.of(filter, variant=variant, event=event, player=player,
                       date_from=date_from, date_to=date_to)
    if kind == "endgame":
        return endgame_report(con, fmt=fmt, filter=gf)
    if kind == "collection":
        return collection_report(con, fmt=fmt, view_page=view_page, filter=gf)
    if kind == "openings":
        return openings_report(con, fmt=fmt, filter=gf)
    raise ArgumentError(f"unknown report {kind!r}; choose from {', '.join(REPORT_KINDS)}")
