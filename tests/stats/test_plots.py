"""Plots: titles, labelled axes, legends, bar sizes from the data, board geometry."""

from __future__ import annotations

import doctest

import matplotlib
import pandas as pd
import pytest
from matplotlib.patches import Circle, Rectangle

import pdnkit.plots as plots_mod
from pdnkit.plots import (
    board,
    findings_by_code,
    length_histogram,
    plot,
    results_by_opening,
    results_over_time,
    square_heatmap,
)
from pdnkit.stats import findings, lengths, openings, results, square_counts
from tests.stats.conftest import memory_db

matplotlib.use("Agg")


def _labelled(fig, legend: bool = True) -> None:
    ax = fig.axes[0]
    assert ax.get_title() and ax.get_xlabel() and ax.get_ylabel()
    if legend:
        assert ax.get_legend() is not None


def _bar_widths(ax) -> list[float]:
    return [p.get_width() for p in ax.patches if isinstance(p, Rectangle)]


def test_results_by_opening_stacks_the_counts(small_db):
    df = openings(small_db, plies=2, variant="international")
    fig = results_by_opening(df)
    _labelled(fig)
    ax = fig.axes[0]
    # bars: white wins, draws, black wins for the two openings (least played first)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["37-32 19-23", "32-28 19-23"]
    assert _bar_widths(ax) == [0.0, 2.0, 0.0, 1.0, 1.0, 0.0]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "White wins", "Draws", "Black wins"]


def test_length_histogram_and_results_over_time(small_db):
    fig = length_histogram(lengths(small_db, bin_width=1))
    _labelled(fig)
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert labels == ["international (5 games)", "russian (1 games)"]
    fig = results_over_time(results(small_db, by="year"))
    _labelled(fig)
    assert fig.axes[1].get_ylabel() == "draw rate (%)"
    heights = [p.get_height() for p in fig.axes[0].patches]
    assert sum(heights) == 6  # every game once


def test_findings_by_code_colours_by_severity(small_db):
    fig = findings_by_code(findings(small_db, by="code"))
    _labelled(fig)
    ax = fig.axes[0]
    assert sorted(_bar_widths(ax)) == [1.0, 1.0, 2.0]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["error", "warning"]
    empty = findings_by_code(findings(small_db, by="code").iloc[0:0])
    assert any("clean" in t.get_text() for t in empty.axes[0].texts)


def _discs(fig) -> dict[tuple[float, float], str]:
    """Centre -> face colour of the piece discs (outer discs only)."""
    return {tuple(round(c, 2) for c in p.center): matplotlib.colors.to_hex(p.get_facecolor())
            for p in fig.axes[0].patches if isinstance(p, Circle) and p.get_radius() > 0.3}


def test_board_international_orientation():
    # FMJD 2.6 / RULES.md 1.8: 1 = b10, 5 = j10, 46 = a1, 50 = i1
    fig = board(variant="international", white_men=[46, 50], black_men=[1], black_kings=[5])
    _labelled(fig)
    discs = _discs(fig)
    assert set(discs) == {(0.5, 0.5), (8.5, 0.5), (1.5, 9.5), (9.5, 9.5)}
    assert discs[(0.5, 0.5)] == discs[(8.5, 0.5)] != discs[(1.5, 9.5)]
    kings = [t for t in fig.axes[0].texts if t.get_text() == "K"]
    assert [k.get_position() for k in kings] == [(9.5, 9.5)]
    numbers = {t.get_text(): t.get_position() for t in fig.axes[0].texts
               if t.get_text().isdigit()}
    assert len(numbers) == 50
    assert numbers["1"][0] == pytest.approx(1.06) and numbers["46"][1] == pytest.approx(0.94)
    ax = fig.axes[0]
    assert ax.get_xlim() == (0, 10) and [t.get_text() for t in ax.get_xticklabels()][0] == "a"


def test_board_from_fen_8x8_variants():
    # English: 1 = b8, 29 = a1, 32 = g1 (RULES.md 1.8); Black to move
    fig = board("B:W32:B1", "english")
    assert set(_discs(fig)) == {(6.5, 0.5), (1.5, 7.5)}
    assert fig.axes[0].get_title().endswith("Black to move")
    # Italian: the board is mirrored, 1 = a8 and 32 = h1
    fig = board("W:W32:B1", "italian")
    assert set(_discs(fig)) == {(7.5, 0.5), (0.5, 7.5)}
    # Russian is noted a1..h8: no numbers on the squares, kings from the FEN
    fig = board("W:WKc3:Bf6", "russian")
    assert not any(t.get_text().isdigit() for t in fig.axes[0].texts)
    assert [t.get_position() for t in fig.axes[0].texts if t.get_text() == "K"] == [(2.5, 2.5)]


def test_square_heatmap(small_db):
    df = square_counts(small_db, what="captured", variant="international")
    fig = square_heatmap(df, "international", label="pieces captured here")
    ax, bar = fig.axes
    assert ax.get_title() and bar.get_ylabel() == "pieces captured here"
    # square 23 (f6) was captured twice: the darkest cell is at file 5, rank 5
    cells = [p for p in ax.patches if isinstance(p, Rectangle) and p.get_width() == 1]
    darkest = min(cells, key=lambda p: sum(p.get_facecolor()[:3]))
    assert darkest.get_xy() == (5, 5)
    # only the international games have captures: that variant is chosen
    assert plot("heatmap", small_db, what="captured").axes[0].get_title().startswith(
        "International")
    with pytest.raises(ValueError):
        plot("heatmap", memory_db())  # no variant to draw


def test_plot_dispatch(small_db):
    assert plot("openings", small_db, plies=2).axes[0].get_title().startswith("Results by")
    with pytest.raises(ValueError):
        plot("pie", small_db)


def test_docstring_examples():
    res = doctest.testmod(plots_mod)
    assert res.attempted > 5 and res.failed == 0


def test_empty_frames_still_draw_labelled_plots():
    empty = pd.DataFrame(columns=["variant", "opening", "games", "white_wins", "draws",
                                  "black_wins"])
    fig = results_by_opening(empty)
    assert fig.axes[0].get_xlabel() and any(t.get_text() == "no data" for t in fig.axes[0].texts)


def test_length_histogram_with_games_of_unknown_variant(builder):
    builder.game("x.pdn", ["32-28"], variant=None)
    builder.game("x.pdn", ["32-28", "19-23"])
    fig = length_histogram(lengths(builder.con, bin_width=1))
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert labels == ["international (1 games)", "(unknown variant) (1 games)"]


def test_plots_does_not_import_reports() -> None:
    """plots only draws DataFrames: it may read stats, never reports (no import cycle)."""
    import ast
    from pathlib import Path

    import pdnkit.plots

    tree = ast.parse(Path(pdnkit.plots.__file__).read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
            imported.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            imported.update(a.name for a in node.names)
    assert not any(m.startswith("pdnkit.reports") for m in imported), imported


def test_endgame_verdicts_draws_only_what_needs_a_person():
    from pdnkit.plots import endgame_verdicts

    df = pd.DataFrame({"rule": ["a", "b", "c"], "ended-in-time": [500, 7, 0],
                       "drawn-by-rule": [0, 1, 0], "played-past-limit": [0, 2, 0],
                       "result-contradicts-rule": [0, 0, 3]})
    ax = endgame_verdicts(df).axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["c", "b"]   # "a" only in time
    assert sum(_bar_widths(ax)) == 6
    assert "507 more ended in time" in ax.get_xlabel()


def test_results_over_time_per_variant_breaks_at_empty_years():
    df = pd.DataFrame({"variant": ["russian", "russian", "english"],
                       "year": [2000, 2003, 2001], "games": [2, 2, 1],
                       "white_wins": [1, 1, 1], "draws": [1, 1, 0], "black_wins": [0, 0, 0],
                       "unknown": [0, 0, 0]})
    fig = results_over_time(df)
    panels = [ax for ax in fig.axes if ax.get_ylabel().endswith("games")]
    assert [ax.get_ylabel() for ax in panels] == ["english\ngames", "russian\ngames"]
    rates = [ax for ax in fig.axes if ax.get_ylabel() == "draw rate (%)"]
    russian = rates[1].lines[0].get_ydata()
    # 2000..2003: no games in 2001 and 2002 for Russian -> no line there
    assert list(rates[1].lines[0].get_xdata()) == [2000, 2001, 2002, 2003]
    assert russian[0] == 50 and russian[3] == 50
    assert all(r != r for r in russian[1:3])  # NaN


def test_findings_plot_draws_errors_and_warnings_and_counts_info_apart():
    """7,882 variant-guessed infos made the errors invisible: only errors and warnings are
    drawn, the info findings are counted in the label."""
    df = pd.DataFrame({"code": ["variant-guessed", "illegal-move", "bad-date", "notation-mismatch"],
                       "severity": ["info", "error", "info", "warning"],
                       "findings": [7882, 12, 40, 5]})
    ax = findings_by_code(df).axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["notation-mismatch", "illegal-move"]
    assert sorted(_bar_widths(ax)) == [5.0, 12.0]
    assert ax.get_xlabel() == "findings (not drawn: 7,922 info findings of 2 codes)"
    assert ax.get_xlim()[1] < 100  # scaled to the errors, not to the infos
    only_info = findings_by_code(df[df["severity"] == "info"]).axes[0]
    assert any(t.get_text() == "no errors or warnings" for t in only_info.texts)
