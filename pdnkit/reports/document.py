"""The document every report is written into: a title and a list of blocks (headings,
paragraphs, tables, folded tables, figures, raw HTML) rendered to GitHub-flavoured Markdown or
to one self-contained HTML page (its CSS inline, figures as base64 PNG); the parts the reports
share: the sentence that says which games a report covers, text from a file made safe for
HTML, and the board of the position before a faulty move.

Example:
    >>> doc = Doc("A report")
    >>> doc.p("One *short* paragraph.")
    >>> print(doc.markdown(), end="")
    # A report
    <BLANKLINE>
    One *short* paragraph.
    >>> "<p>One <em>short</em> paragraph.</p>" in doc.html()
    True
"""

from __future__ import annotations

import base64
import dataclasses
import datetime as _dt
import html
import io
from typing import TYPE_CHECKING, Any, Protocol

from pdnkit.stats.common import is_missing
from pdnkit.viewer.text import markdown, plain

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure

    from pdnkit.stats.filters import GameFilter

__all__ = ["CSS", "SHOWN", "Doc", "FaultRow", "check_board", "escaped", "filters_text",
           "html_table", "inline_html", "md_table"]

#: rows of a table shown before the rest is folded away
SHOWN = 15


class Doc:
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
                out += [md_table(df) if len(df) else empty, ""]
            elif kind == "folded":
                summary, df = value
                out += ["<details>", f"<summary>{html.escape(summary)}</summary>", "",
                        md_table(df), "", "</details>", ""]
            elif kind == "raw":
                out += [value[1], ""]
        return "\n".join(out).rstrip() + "\n"

    def html(self) -> str:
        parts = [
            "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
            f"<title>{html.escape(self.title)}</title>", f"<style>{CSS}</style>", "</head>",
            "<body>", f"<h1>{html.escape(self.title)}</h1>",
        ]
        for kind, value in self.blocks:
            if kind == "h":
                parts.append(f"<h2>{html.escape(value)}</h2>")
            elif kind == "p":
                parts.append(f"<p>{inline_html(value)}</p>")
            elif kind == "table":
                df, empty = value
                parts.append(html_table(df) if len(df)
                             else f"<p><em>{html.escape(empty)}</em></p>")
            elif kind == "folded":
                summary, df = value
                parts.append(f"<details><summary>{html.escape(summary)}</summary>"
                             f"{html_table(df)}</details>")
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


def html_table(df: pd.DataFrame) -> str:
    """A DataFrame as an HTML table in a box that scrolls sideways when it is wide (text
    escaped, bidi controls stripped: :func:`pdnkit.viewer.text.plain`).

    >>> import pandas as pd
    >>> html_table(pd.DataFrame({"a": ["<b>"]})).count("&lt;b&gt;")
    1
    """
    shown = df.map(lambda v: plain(v) if isinstance(v, str) else v)
    return ('<div class="scroll">' + str(shown.to_html(index=False, na_rep="", border=0,
                                                       classes="data", escape=True)) + "</div>")


#: the style sheet of every HTML report
CSS = (
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


def inline_html(text: str) -> str:
    """Escape, then render the Markdown the reports use: `code`, **strong** and *emphasis*.

    >>> inline_html("a *b* **c** `d*e*` <x>")
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


def md_table(df: pd.DataFrame) -> str:
    """A GitHub-flavoured Markdown table.

    >>> import pandas as pd
    >>> print(md_table(pd.DataFrame({"a": [1], "b": ["x|y"]})))
    | a | b |
    |---|---|
    | 1 | x\\|y |
    """
    head = "| " + " | ".join(str(c) for c in df.columns) + " |"
    rule = "|" + "|".join("---" for _ in df.columns) + "|"
    rows = ["| " + " | ".join(_cell(v) for v in row) + " |"
            for row in df.itertuples(index=False)]
    return "\n".join([head, rule, *rows])


def filters_text(gf: GameFilter) -> str:
    """The sentence that says which games a report covers.

    >>> from pdnkit.stats.filters import GameFilter
    >>> filters_text(GameFilter(variant="english"))
    'Filters: variant = english. Each game once (its copies left out: pdnkit duplicates).'
    """
    used = [f"{k.replace('_', ' ')} = {v}" for k, v in dataclasses.asdict(gf).items()
            if v not in (None, "") and v is not False  # a flag left off says nothing
            and k != "all_copies"]
    once = (" Every record, the copies of a game included." if gf.all_copies else
            " Each game once (its copies left out: pdnkit duplicates).")
    return (("Filters: " + ", ".join(used) + ".") if used else
            "All games in the database.") + once


def escaped(text: str) -> str:
    """Text from a file for HTML: escaped, without bidi controls.

    >>> escaped("<b>\\u2067x")
    '&lt;b&gt;x'
    """
    return html.escape(plain(text))


class FaultRow(Protocol):
    """A row naming a position before a move (a game to check, an endgame database's
    verdict): the variant, the FEN before the move and the ply, each possibly missing."""

    @property
    def fen(self) -> object: ...

    @property
    def variant(self) -> object: ...

    @property
    def ply(self) -> object: ...


def check_board(row: FaultRow, move: str | None) -> tuple[str, list[str]]:
    """The SVG board of the position before a faulty move (the squares of the move as
    written marked, the legal moves as arrows) and those legal moves; ``("", [])`` without
    a position.

    >>> from collections import namedtuple
    >>> Row = namedtuple("Row", "fen variant ply")
    >>> svg, legal = check_board(Row("W:W21:B12", "english", 1), "21-17")
    >>> svg.startswith("<svg"), legal
    (True, ['21-17'])
    >>> check_board(Row(None, "english", 1), None)
    ('', [])
    """
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
