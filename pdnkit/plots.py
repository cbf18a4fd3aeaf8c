"""Plots: pandas DataFrames (from :mod:`pdnkit.stats` and :mod:`pdnkit.reports`) to
matplotlib Figures, and board diagrams.

Every function returns a :class:`matplotlib.figure.Figure` built without ``pyplot`` (no
global state, no file I/O, no display needed): save it with ``fig.savefig("x.png")`` or
let a notebook show it. Each plot has a title, labelled axes and a legend where the
colours need one.

Example:
    >>> import pandas as pd
    >>> from pdnkit.plots import findings_by_code
    >>> df = pd.DataFrame({"code": ["illegal-move", "bad-date"], "severity": ["error", "info"],
    ...                    "findings": [3, 5]})
    >>> fig = findings_by_code(df)
    >>> fig.axes[0].get_title()
    'Findings by code'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from pdnkit.errors import ArgumentError

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from pdnkit.stats.filters import DateBound, GameFilter
    from pdnkit.store.session import DbLike

__all__ = [
    "PLOT_KINDS",
    "board",
    "endgame_verdicts",
    "findings_by_code",
    "length_histogram",
    "plot",
    "rating_history",
    "results_by_opening",
    "results_over_time",
    "square_heatmap",
]

#: the kinds ``pdnkit plot KIND`` draws
PLOT_KINDS = ("openings", "lengths", "results", "findings", "board", "heatmap", "endgame",
              "ratings")

#: colours of the outcomes (White wins light, Black wins dark, draws grey, unknown hatched)
RESULT_COLOURS = {
    "white_wins": "#f2e6c9",
    "draws": "#9e9e9e",
    "black_wins": "#3b3b3b",
    "unknown": "#d8d8f0",
}
RESULT_LABELS = {
    "white_wins": "White wins",
    "draws": "Draws",
    "black_wins": "Black wins",
    "unknown": "Unknown result",
}
SEVERITY_COLOURS = {"error": "#c0392b", "warning": "#e69f00", "info": "#5b8bd0"}
VERDICT_COLOURS = {
    "ended-in-time": "#7fb069",
    "drawn-by-rule": "#5b8bd0",
    "played-past-limit": "#e69f00",
    "result-contradicts-rule": "#c0392b",
}


def _figure(width: float = 8.0, height: float = 5.0) -> tuple[Figure, Axes]:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    return fig, fig.add_subplot()


def _empty(ax: Axes, message: str = "no data") -> None:
    ax.text(0.5, 0.5, message, ha="center", va="center", transform=ax.transAxes,
            color="#777777", fontsize=12)


# --------------------------------------------------------------------------------------
# results, lengths, findings
# --------------------------------------------------------------------------------------


def results_by_opening(df: pd.DataFrame, *, top: int = 15, title: str | None = None) -> Figure:
    """Stacked horizontal bars of White wins, draws and Black wins per opening.

    ``df`` is :func:`pdnkit.stats.openings` output (columns ``opening``, ``games``,
    ``white_wins``, ``draws``, ``black_wins`` and optionally ``unknown``, ``variant``);
    the ``top`` openings by games are drawn, the most played at the top, each bar
    labelled with its game count and White's score.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"opening": ["32-28 19-23"], "games": [3], "white_wins": [2],
    ...                    "draws": [1], "black_wins": [0], "white_score": [83.3]})
    >>> [t.get_text() for t in results_by_opening(df).axes[0].get_yticklabels()]
    ['32-28 19-23']
    """
    d = df.sort_values("games", ascending=False, kind="stable").head(top).iloc[::-1]
    fig, ax = _figure(9.0, max(2.5, 0.42 * len(d) + 1.6))
    ax.set_title(title or "Results by opening")
    if d.empty:
        _empty(ax)
        ax.set_xlabel("games")
        ax.set_ylabel("opening")
        return fig
    many_variants = "variant" in d and d["variant"].nunique() > 1
    labels = [
        (f"{v}: " if many_variants else "") + str(o)
        for v, o in zip(d.get("variant", [""] * len(d)), d["opening"], strict=True)
    ]
    y = list(range(len(d)))
    left = [0.0] * len(d)
    for col in ("white_wins", "draws", "black_wins", "unknown"):
        if col not in d or (col == "unknown" and not d[col].any()):
            continue
        vals = [float(v) for v in d[col]]
        ax.barh(y, vals, left=left, color=RESULT_COLOURS[col], edgecolor="#555555",
                linewidth=0.6, label=RESULT_LABELS[col])
        left = [a + b for a, b in zip(left, vals, strict=True)]
    for yi, total, sc in zip(y, left, d.get("white_score", [None] * len(d)), strict=True):
        note = f" {int(total)}" + (f"  ({sc:.0f}%)" if sc is not None and sc == sc else "")
        ax.text(total, yi, note, va="center", fontsize=8)
    ax.set_yticks(y, labels, fontsize=9)
    ax.set_xlabel("games (White's score in brackets)")
    ax.set_ylabel("opening")
    ax.set_xlim(0, max(left) * 1.18)
    _integer_axis(ax.xaxis)
    ax.legend(loc="lower right", fontsize=8)
    return fig


def length_histogram(df: pd.DataFrame, *, title: str | None = None) -> Figure:
    """Game length histogram per variant, from :func:`pdnkit.stats.lengths`.

    ``df`` has ``variant``, ``plies_from``, ``plies_to`` and ``games`` (one row per bin);
    with several variants the histograms are overlaid (shares, so their sizes compare).

    >>> import pandas as pd
    >>> df = pd.DataFrame({"variant": ["russian"] * 2, "plies_from": [0, 10],
    ...                    "plies_to": [10, 20], "games": [1, 3], "share": [25.0, 75.0]})
    >>> length_histogram(df).axes[0].get_xlabel()
    'game length (plies)'
    """
    fig, ax = _figure(8.0, 4.5)
    ax.set_title(title or "Game length per variant")
    ax.set_xlabel("game length (plies)")
    if df.empty:
        _empty(ax)
        ax.set_ylabel("games")
        return fig
    df = df.assign(variant=df["variant"].astype(object).where(df["variant"].notna(),
                                                               "(unknown variant)"))
    variants = list(dict.fromkeys(df["variant"]))
    share = len(variants) > 1 and "share" in df
    ax.set_ylabel("share of the variant's games (%)" if share else "games")
    cmap = _cmap("tab10")
    for i, v in enumerate(variants):
        d = df[df["variant"] == v].sort_values("plies_from")
        edges = list(d["plies_from"]) + [int(d["plies_to"].iloc[-1])]
        vals = list(d["share"] if share else d["games"])
        colour = cmap(i % 10)
        label = f"{v} ({int(d['games'].sum())} games)"
        ax.stairs(vals, edges, fill=True, alpha=0.35 if len(variants) > 1 else 0.8,
                  color=colour, label=label)
        ax.stairs(vals, edges, color=colour, linewidth=1.2)
    ax.set_ylim(bottom=0)
    ax.legend(title="variant", fontsize=8)
    return fig


def results_over_time(df: pd.DataFrame, *, title: str | None = None) -> Figure:
    """Results per year as stacked bars with the draw rate on a second axis, one panel per
    variant when ``df`` has a ``variant`` column with several variants. The draw-rate line
    is broken at years without games (no line is drawn across them).

    ``df`` is :func:`pdnkit.stats.results` grouped ``by="year"`` or ``by="variant,year"``
    (other grouping columns are summed over).

    >>> import pandas as pd
    >>> df = pd.DataFrame({"year": [2020, 2021], "games": [2, 3], "white_wins": [1, 2],
    ...                    "draws": [1, 0], "black_wins": [0, 1], "unknown": [0, 0]})
    >>> results_over_time(df).axes[0].get_ylabel()
    'games'
    """
    d = df.dropna(subset=["year"]) if "year" in df else df.iloc[0:0]
    variants = (sorted(str(v) for v in d["variant"].dropna().unique())
                if "variant" in d and len(d) else [])
    panels: list[tuple[str | None, pd.DataFrame]] = (
        [(v, d[d["variant"] == v]) for v in variants] if len(variants) > 1 else [(None, d)])
    fig, axes = _figure_rows(len(panels), 9.0, 4.8 if len(panels) == 1 else 2.6)
    axes[0].set_title(title or "Results over time")
    if d.empty:
        axes[0].set_xlabel("year")
        axes[0].set_ylabel("games")
        _empty(axes[0], "no games with a known year")
        return fig
    years = range(int(d["year"].min()), int(d["year"].max()) + 1)
    for i, (ax, (name, part)) in enumerate(zip(axes, panels, strict=True)):
        _results_panel(ax, part, years, name, legend=i == 0)
    axes[-1].set_xlabel("year")
    return fig


def _figure_rows(rows: int, width: float, height: float) -> tuple[Figure, list[Axes]]:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height * rows), layout="constrained")
    axes = fig.subplots(rows, 1, sharex=True, squeeze=False)
    return fig, [a[0] for a in axes]


def _results_panel(ax: Axes, d: pd.DataFrame, years: range, name: str | None, *,
                   legend: bool = True) -> None:
    """One panel of :func:`results_over_time`: bars per year, the draw rate as a line that
    stops at years without games."""
    ax.set_ylabel("games" if name is None else f"{name}\ngames")
    cols = [c for c in ("white_wins", "draws", "black_wins", "unknown") if c in d]
    g = d.groupby("year")[cols].sum().reindex(list(years))
    xs = list(years)
    bottom = [0.0] * len(xs)
    for col in cols:
        if col == "unknown" and not g[col].fillna(0).any():
            continue
        vals = [float(v) for v in g[col].fillna(0)]
        ax.bar(xs, vals, bottom=bottom, color=RESULT_COLOURS[col], edgecolor="#555555",
               linewidth=0.5, label=RESULT_LABELS[col], width=0.8)
        bottom = [a + b for a, b in zip(bottom, vals, strict=True)]
    known = g[[c for c in ("white_wins", "draws", "black_wins") if c in g]].sum(axis=1,
                                                                               min_count=1)
    if "draws" in g and known.gt(0).any():
        ax2 = ax.twinx()
        rate = (100.0 * g["draws"] / known.where(known > 0)).tolist()  # NaN: no line there
        ax2.plot(xs, rate, color="#1f5fa8", marker="o", linewidth=1.5, label="draw rate")
        ax2.set_ylabel("draw rate (%)", color="#1f5fa8")
        ax2.set_ylim(0, 100)
        h1, l1 = ax.get_legend_handles_labels()
        h2, l2 = ax2.get_legend_handles_labels()
        if legend:
            ax.legend(h1 + h2, l1 + l2, loc="upper left", fontsize=8)
    elif legend:
        ax.legend(loc="upper left", fontsize=8)
    _integer_axis(ax.xaxis)
    _integer_axis(ax.yaxis)


def rating_history(df: pd.DataFrame, *, players: Iterable[str] | None = None, top: int = 5,
                   panels: int = 4, title: str | None = None) -> Figure:
    """Ratings over time: one line per player, the rating after each period he played (a
    step at the period's first game), with the band rating +- 2 RD (Glickman's 95% interval)
    where ``df`` has an ``rd`` column; one panel per variant (each list is its own scale).
    ``df`` is :func:`pdnkit.stats.ratings`' history.

    ``players``: the names to draw (a name, or text a name contains when no name equals it);
    by default the ``top`` players with the most rated games in each of the ``panels``
    variants with the most rated games.

    >>> import pandas as pd, datetime as dt
    >>> df = pd.DataFrame({"variant": ["russian"] * 2, "player": ["Ann", "Ann"],
    ...                    "period_start": [dt.date(2020, 1, 1), dt.date(2020, 2, 1)],
    ...                    "rating": [1510.0, 1530.0], "games": [2, 1]})
    >>> fig = rating_history(df)
    >>> fig.axes[0].get_title(), fig.axes[0].get_legend_handles_labels()[1]
    ('Ratings over time: russian', ['Ann'])
    """
    from matplotlib.figure import Figure

    chosen = _rated_players(df, players, top, panels)
    variants = list(dict.fromkeys(v for v, _ in chosen))
    fig = Figure(figsize=(9.0, 5.0 if len(variants) < 2 else 3.4 * len(variants)),
                 layout="constrained")
    axes = fig.subplots(max(len(variants), 1), 1, squeeze=False)[:, 0]
    head = title or "Ratings over time"
    if not chosen:
        axes[0].set_title(head)
        _empty(axes[0], "no rated player to draw")
        return fig
    for ax, variant in zip(axes, variants, strict=True):
        ax.set_title(f"{head}: {variant}")
        ax.set_ylabel("rating")
        for name in [p for v, p in chosen if v == variant]:
            _rating_line(ax, df[(df["variant"] == variant) & (df["player"] == name)], name)
        ax.legend(loc="best", fontsize=8)
        ax.grid(True, color="#dddddd", linewidth=0.5)
    axes[-1].set_xlabel("period")
    return fig


def _rating_line(ax: Axes, part: pd.DataFrame, name: str) -> None:
    """One player's line of :func:`rating_history`, with its 2 RD band."""
    part = part.sort_values("period_start")
    xs = list(part["period_start"])
    ys = [float(v) for v in part["rating"]]
    line = ax.step(xs, ys, where="post", marker="o", markersize=3, linewidth=1.4,
                   label=name)[0]
    if "rd" in part and part["rd"].notna().all():
        rd = [2.0 * float(v) for v in part["rd"]]
        ax.fill_between(xs, [y - r for y, r in zip(ys, rd, strict=True)],
                        [y + r for y, r in zip(ys, rd, strict=True)], step="post",
                        alpha=0.1, color=line.get_color(), linewidth=0)


def _rated_players(df: pd.DataFrame, players: Iterable[str] | None, top: int, panels: int
                   ) -> list[tuple[str, str]]:
    """The ``(variant, player)`` lines :func:`rating_history` draws, by variant."""
    if df.empty:
        return []
    games = df.groupby(["variant", "player"])["games"].sum()
    if players is None:
        by_variant = games.groupby(level=0).sum().sort_values(ascending=False, kind="stable")
        out: list[tuple[str, str]] = []
        for v in list(by_variant.index)[:max(panels, 1)]:
            ranked = sorted(games[v].items(), key=lambda kv: (-int(kv[1]), str(kv[0])))
            out += [(str(v), str(p)) for p, _ in ranked[:max(top, 0)]]
        return out
    keys = [(str(v), str(p)) for v, p in games.index]
    out = []
    for want in players:
        exact = [k for k in keys if k[1].lower() == want.strip().lower()]
        hits = exact or [k for k in keys if want.strip().lower() in k[1].lower()]
        if not hits:
            raise ArgumentError(f"no rated player is called {want!r}")
        out += [k for k in hits if k not in out]
    return sorted(out, key=lambda k: [v for v, _ in out].index(k[0]))


#: the severities the findings plot draws (``info`` findings are counted in its label)
SEVERITIES_DRAWN = ("error", "warning")


def findings_by_code(df: pd.DataFrame, *, top: int = 25, title: str | None = None) -> Figure:
    """Horizontal bars of the error and warning findings per code, coloured by severity.
    Info findings (``variant-guessed`` and the like, often thousands) would dwarf them: they
    are not drawn, only counted in the x label.

    ``df`` is :func:`pdnkit.stats.findings` output with ``by="code"`` (``code``,
    ``severity``, ``findings``).

    >>> import pandas as pd
    >>> findings_by_code(pd.DataFrame(columns=["code", "severity", "findings"])).axes[0].get_xlabel()
    'findings'
    >>> df = pd.DataFrame({"code": ["illegal-move", "variant-guessed"],
    ...                    "severity": ["error", "info"], "findings": [3, 7882]})
    >>> findings_by_code(df).axes[0].get_xlabel()
    'findings (not drawn: 7,882 info findings of 1 code)'
    """
    drawn = df["severity"].astype(str).isin(SEVERITIES_DRAWN)
    info = df[~drawn]
    d = df[drawn].sort_values("findings", ascending=False, kind="stable").head(top).iloc[::-1]
    fig, ax = _figure(8.0, max(2.5, 0.38 * len(d) + 1.4))
    ax.set_title(title or "Findings by code")
    n_info = int(info["findings"].sum()) if len(info) else 0
    codes = info["code"].nunique() if len(info) else 0
    ax.set_xlabel("findings" + (f" (not drawn: {n_info:,} info findings of {codes} "
                                f"code{'s' * (codes != 1)})" if n_info else ""))
    ax.set_ylabel("code")
    if d.empty:
        _empty(ax, "no errors or warnings" if n_info else "no findings: every game is clean")
        return fig
    y = list(range(len(d)))
    colours = [SEVERITY_COLOURS.get(str(s), "#888888") for s in d["severity"]]
    ax.barh(y, [float(v) for v in d["findings"]], color=colours)
    ax.set_yticks(y, list(d["code"]), fontsize=9)
    for yi, v in zip(y, d["findings"], strict=True):
        ax.text(float(v), yi, f" {int(v)}", va="center", fontsize=8)
    ax.set_xlim(0, float(d["findings"].max()) * 1.15)
    _integer_axis(ax.xaxis)
    from matplotlib.patches import Patch

    present = [s for s in ("error", "warning", "info") if s in set(d["severity"])]
    ax.legend(handles=[Patch(color=SEVERITY_COLOURS[s], label=s) for s in present],
              title="severity", loc="lower right", fontsize=8)
    return fig


#: endgame verdicts a person should look at (the endgame plot draws only these)
VERDICTS_TO_CHECK = ("result-contradicts-rule", "played-past-limit", "drawn-by-rule")


def endgame_verdicts(df: pd.DataFrame, *, by: str = "rule", title: str | None = None) -> Figure:
    """Stacked bars of the endgame-rule verdicts that need a person, per rule (or variant or
    event). Activations that only ended in time are not drawn; their count is in the x label.

    ``df`` is :func:`pdnkit.stats.endgame_summary` output: a ``by`` column, and one
    column per verdict with its count.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"rule": ["russian-7.2.4", "eda-50"], "ended-in-time": [1, 40],
    ...                    "drawn-by-rule": [1, 0], "played-past-limit": [2, 0],
    ...                    "result-contradicts-rule": [0, 0]})
    >>> fig = endgame_verdicts(df)
    >>> fig.axes[0].get_title(), fig.axes[0].get_xlabel()
    ('Endgame rules: verdicts by rule', 'rule activations (41 more ended in time, not shown)')
    """
    shown = [v for v in VERDICTS_TO_CHECK if v in df]
    in_time = int(df["ended-in-time"].sum()) if "ended-in-time" in df and len(df) else 0
    d = df[df[shown].sum(axis=1) > 0] if shown and len(df) else df.iloc[0:0]
    fig, ax = _figure(8.0, max(2.5, 0.45 * len(d) + 1.6))
    ax.set_title(title or f"Endgame rules: verdicts by {by}")
    ax.set_xlabel("rule activations" + (f" ({in_time} more ended in time, not shown)"
                                        if in_time else ""))
    ax.set_ylabel(by)
    if d.empty:
        _empty(ax, "no verdict needs a person" if len(df)
               else "no draw or endgame rule became active")
        return fig
    d = d.iloc[::-1]
    y = list(range(len(d)))
    left = [0.0] * len(d)
    for verdict in reversed(VERDICTS_TO_CHECK):
        if verdict not in d or not d[verdict].any():
            continue
        vals = [float(v) for v in d[verdict]]
        ax.barh(y, vals, left=left, color=VERDICT_COLOURS[verdict],
                label=verdict.replace("-", " "))
        left = [a + b for a, b in zip(left, vals, strict=True)]
    ax.set_yticks(y, [str(v) for v in d[by]], fontsize=9)
    ax.set_xlim(0, max(left) * 1.1 if max(left) else 1)
    _integer_axis(ax.xaxis)
    ax.legend(title="verdict", fontsize=8, loc="lower right")
    return fig


# --------------------------------------------------------------------------------------
# boards
# --------------------------------------------------------------------------------------

_LIGHT = "#f0d9b5"
_DARK = "#b58863"


def _ink(background: Any) -> str:
    """Light or dark text, whichever reads on ``background``."""
    from matplotlib.colors import to_rgb

    r, g, b = to_rgb(background)
    return "#222222" if 0.299 * r + 0.587 * g + 0.114 * b > 0.62 else "#f8f1e4"


def _integer_axis(axis: Any) -> None:
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True))


def _cmap(name: str) -> Any:
    import matplotlib

    return matplotlib.colormaps[name]


def _board_axes(rules: Any, ax: Axes, *, numbers: bool, shade: dict[int, str] | None = None
                ) -> None:
    """Draw the squares of ``rules``' board on ``ax`` (White at the bottom)."""
    from matplotlib.patches import Rectangle

    g = rules.geometry
    w, h = rules.width, rules.height
    for f in range(w):
        for r in range(h):
            n = g.coords_to_square(f, r)
            colour = _DARK if n is not None else _LIGHT
            if shade is not None and n is not None and n in shade:
                colour = shade[n]
            ax.add_patch(Rectangle((f, r), 1, 1, facecolor=colour, edgecolor="none"))
            if numbers and n is not None:
                ax.text(f + 0.06, r + 0.94, str(n), ha="left", va="top",
                        fontsize=7 if w <= 10 else 6, color=_ink(colour))
    ax.add_patch(Rectangle((0, 0), w, h, facecolor="none", edgecolor="#5a3d22", linewidth=1.5))
    ax.set_xlim(0, w)
    ax.set_ylim(0, h)
    ax.set_aspect("equal")
    ax.set_xticks([f + 0.5 for f in range(w)], [chr(ord("a") + f) for f in range(w)])
    ax.set_yticks([r + 0.5 for r in range(h)], [str(r + 1) for r in range(h)])
    ax.tick_params(length=0)
    for s in ax.spines.values():
        s.set_visible(False)
    ax.set_xlabel("file (White's side at the bottom)")
    ax.set_ylabel("rank")


def board(
    fen: str | None = None,
    variant: str = "international",
    *,
    white_men: Iterable[int] = (),
    white_kings: Iterable[int] = (),
    black_men: Iterable[int] = (),
    black_kings: Iterable[int] = (),
    side: str | None = None,
    numbers: bool | None = None,
    title: str | None = None,
) -> Figure:
    """A position on its own board: the variant's size, orientation and square numbers.

    Give a FEN (read with :func:`pdnkit.rules.parse_fen`) or the pieces as PDN square
    numbers. White sits at the bottom; kings carry a crown ring and a ``K``. Square
    numbers are written on the playing squares of numerically-noted variants
    (``numbers`` overrides); files and ranks are labelled on the axes.

    >>> fig = board(variant="english", black_men=[1, 2], white_kings=[32], side="B")
    >>> fig.axes[0].get_title()
    'English draughts / checkers: Black to move'
    """
    from matplotlib.lines import Line2D

    from pdnkit.rules import get_rules

    rules = get_rules(variant)
    wm, wk, bm, bk = set(white_men), set(white_kings), set(black_men), set(black_kings)
    if fen is not None:
        from pdnkit.rules import parse_fen

        pos = parse_fen(fen, rules)
        wm, wk = set(pos.white_men), set(pos.white_kings)
        bm, bk = set(pos.black_men), set(pos.black_kings)
        side = str(pos.side)
    size = 0.55 * max(rules.width, rules.height) + 1.2
    fig, ax = _figure(size, size * 0.92)
    if numbers is None:
        numbers = rules.notation == "numeric"
    _board_axes(rules, ax, numbers=numbers)
    g = rules.geometry
    for squares, colour, king in ((wm, "W", False), (wk, "W", True), (bm, "B", False),
                                  (bk, "B", True)):
        face, edge = ("#fbf7ee", "#333333") if colour == "W" else ("#222222", "#000000")
        for n in squares:
            f, r = g.square_to_coords(n)
            ax.add_patch(_disc(f + 0.5, r + 0.5, 0.36, face, edge))
            if king:
                mark = "#c9a227"
                ax.add_patch(_disc(f + 0.5, r + 0.5, 0.24, "none", mark, width=2.0))
                ax.text(f + 0.5, r + 0.5, "K", ha="center", va="center", fontsize=10,
                        fontweight="bold", color=mark)
    mover = {"W": "White", "B": "Black"}.get(side or "")
    ax.set_title(title or (rules.title + (f": {mover} to move" if mover else "")))

    def handle(face: str, edge: str, king: bool, label: str) -> Line2D:
        return Line2D([], [], marker="o", linestyle="none", markersize=11,
                      markerfacecolor=face, markeredgecolor="#c9a227" if king else edge,
                      markeredgewidth=2.0 if king else 1.0, label=label)

    ax.legend(handles=[handle("#fbf7ee", "#333333", False, "White man"),
                       handle("#fbf7ee", "#333333", True, "White king (K)"),
                       handle("#222222", "#000000", False, "Black man"),
                       handle("#222222", "#000000", True, "Black king (K)")],
              loc="upper center", bbox_to_anchor=(0.5, -0.09), ncol=4, fontsize=8,
              frameon=False)
    return fig


def _disc(x: float, y: float, radius: float, face: str, edge: str, width: float = 1.2) -> Any:
    from matplotlib.patches import Circle

    return Circle((x, y), radius, facecolor=face, edgecolor=edge, linewidth=width, zorder=3)


def square_heatmap(
    df: pd.DataFrame,
    variant: str,
    *,
    value: str = "count",
    label: str | None = None,
    title: str | None = None,
    cmap: str = "YlOrRd",
) -> Figure:
    """A heatmap of squares on the variant's board (e.g. where captures land).

    ``df`` has a ``square`` column (PDN numbers) and a ``value`` column, as
    :func:`pdnkit.stats.square_counts` returns; rows of other variants (a ``variant``
    column) are ignored. Squares without a row count as 0.

    >>> import pandas as pd
    >>> fig = square_heatmap(pd.DataFrame({"square": [23], "count": [4]}), "international")
    >>> fig.axes[1].get_ylabel()
    'count'
    """
    from matplotlib.colors import Normalize

    from pdnkit.rules import get_rules

    rules = get_rules(variant)
    d = df
    if "variant" in d:
        d = d[d["variant"] == rules.name]
    values = {int(s): float(v) for s, v in zip(d["square"], d[value], strict=True)}
    vmax = max(values.values(), default=0.0) or 1.0
    norm = Normalize(vmin=0.0, vmax=vmax)
    colours = _cmap(cmap)
    shade = {n: colours(norm(values.get(n, 0.0)))
             for n in range(1, rules.geometry.num_squares + 1)}
    size = 0.55 * max(rules.width, rules.height) + 2.0
    fig, ax = _figure(size, size * 0.82)
    _board_axes(rules, ax, numbers=True, shade=shade)
    from matplotlib.cm import ScalarMappable

    bar = fig.colorbar(ScalarMappable(norm=norm, cmap=colours), ax=ax, shrink=0.8)
    bar.set_label(label or value)
    total = int(sum(values.values()))
    ax.set_title(title or f"{rules.title}: squares ({total} in all)")
    return fig


# --------------------------------------------------------------------------------------
# dispatcher for the CLI
# --------------------------------------------------------------------------------------

_HEAT_LABELS = {
    "capture-landing": "captures ending here",
    "captured": "pieces captured here",
    "destination": "moves ending here",
    "origin": "moves starting here",
    "promotion": "promotions here",
}


def plot(
    kind: str,
    con: DbLike = None,
    *,
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    min_games: int | None = None,
    plies: int | None = None,
    top: int | None = None,
    bin_width: int | None = None,
    what: str | None = None,
    fen: str | None = None,
    system: str | None = None,
    period: str | None = None,
    names: Sequence[str] | None = None,
    filter: GameFilter | None = None,
) -> Figure:
    """Draw the plot ``kind`` (one of :data:`PLOT_KINDS`) from a database.

    Options are the statistics' filters (``variant``, ``event``, ``player``,
    ``date_from``, ``date_to``, ``min_games``) plus ``plies`` and ``top`` (openings),
    ``bin_width`` (lengths), ``what`` (heatmap), ``fen`` (board), ``system``, ``period``,
    ``names`` and ``top`` (ratings: :func:`rating_history` of :func:`pdnkit.stats.ratings`;
    ``player`` there chooses the players drawn, not the games rated). ``board`` needs no
    database. Options a plot does not use, and ``None`` values, are ignored.

    >>> plot("board", variant="russian", fen="W:Wc3:Bf6").axes[0].get_title()
    'Russian draughts (shashki): White to move'
    """
    from pdnkit import stats
    from pdnkit.stats.filters import GameFilter

    if kind not in PLOT_KINDS:
        raise ArgumentError(f"unknown plot {kind!r}; choose from {', '.join(PLOT_KINDS)}")
    if kind == "board":
        return board(fen, variant or "international")
    gf = GameFilter.of(filter, variant=variant, event=event, player=player,
                       date_from=date_from, date_to=date_to)
    if kind == "ratings":
        rated = stats.ratings(con, system=system or "elo", period=period or "month",
                              filter=gf.without_player())
        label = {"elo": "Elo", "fmjd": "Elo (table)", "glicko2": "Glicko-2"}.get(
            rated.system, rated.system)
        chosen = list(names or []) or ([gf.player] if gf.player else None)
        return rating_history(rated.history, players=chosen, top=5 if top is None else top,
                              title=f"Ratings over time ({label}, by {period or 'month'})")
    if kind == "openings":
        n = 4 if plies is None else plies
        df = stats.openings(con, plies=n, min_games=1 if min_games is None else min_games,
                            filter=gf)
        return results_by_opening(df, top=15 if top is None else top,
                                  title=f"Results by opening (first {n} plies)")
    if kind == "lengths":
        return length_histogram(stats.lengths(con, bin_width=10 if bin_width is None
                                              else bin_width, filter=gf))
    if kind == "results":
        return results_over_time(stats.results(con, by="variant,year", filter=gf))
    if kind == "findings":
        return findings_by_code(stats.findings(con, by="code", filter=gf))
    if kind == "heatmap":
        return _heatmap(con, what or "capture-landing", gf)
    return endgame_verdicts(stats.endgame_summary(stats.endgame_rules(con, filter=gf),
                                                  by="rule"))


def _heatmap(con: DbLike, what: str, gf: GameFilter) -> Figure:
    """The heatmap of :func:`plot`: ``what`` (see :func:`pdnkit.stats.square_counts`) on
    the board of the filter's variant, or of the one variant the games are of."""
    from pdnkit import stats
    from pdnkit.rules import get_rules

    df = stats.square_counts(con, what=what, filter=gf)
    variant = gf.variant
    if not variant:
        present = sorted(set(df["variant"].dropna()))
        if len(present) != 1:
            raise ArgumentError("heatmap needs --variant when the database holds "
                             f"several variants ({', '.join(present) or 'none'})")
        variant = str(present[0])
    label = _HEAT_LABELS.get(what, what)
    return square_heatmap(df, variant, label=label, title=f"{get_rules(variant).title}: {label}")
