"""Statistics on the hand-made database of ``conftest.build_small`` (counts worked out by hand)."""

from __future__ import annotations

import datetime as dt
import doctest

import pandas as pd
import pytest

import pdnkit.stats as stats_mod
from pdnkit.stats import findings, lengths, openings, players, results, square_counts, stats, tree


def _row(df: pd.DataFrame, **where: object) -> pd.Series:
    sel = df
    for k, v in where.items():
        sel = sel[sel[k] == v]
    assert len(sel) == 1, f"expected one row for {where}, got {len(sel)}"
    return sel.iloc[0]


def test_openings_by_moves_two_plies(small_db):
    df = openings(small_db, plies=2, variant="international")
    # game 5 starts from a FEN: not an opening
    assert df["games"].sum() == 4
    r = _row(df, opening="32-28 19-23")
    assert (r.games, r.white_wins, r.draws, r.black_wins) == (3, 2, 1, 0)
    assert r.white_score == pytest.approx(83.3)
    assert r.avg_plies == pytest.approx((4 + 4 + 5) / 3, abs=0.05)
    r = _row(df, opening="37-32 19-23")
    assert (r.games, r.black_wins, r.white_score) == (1, 1, 0.0)


def test_openings_by_moves_keeps_move_orders_apart(small_db):
    df = openings(small_db, plies=3, variant="international")
    assert dict(zip(df["opening"], df["games"], strict=True)) == {
        "32-28 19-23 37-32": 2, "37-32 19-23 32-28": 1, "32-28 19-23 28x19": 1}


def test_openings_by_position_merges_transpositions(small_db):
    df = openings(small_db, plies=3, by="position", variant="international")
    assert sorted(df["games"]) == [1, 3]
    r = _row(df, games=3)
    assert r.opening == "32-28 19-23 37-32"  # the most played order
    assert r.sequences == 2
    assert (r.white_wins, r.draws, r.black_wins) == (2, 0, 1)
    assert r.white_score == pytest.approx(66.7)


def test_openings_short_games_and_min_games(small_db):
    # only game 4 has five plies
    df = openings(small_db, plies=5)
    assert list(df["opening"]) == ["32-28 19-23 37-32 16-21 33-29"]
    assert openings(small_db, plies=2, min_games=2)["games"].tolist() == [3]
    # without a variant filter the Russian game is its own row
    both = openings(small_db, plies=2)
    assert _row(both, variant="russian").opening == "c3-d4 f6-e5"
    assert _row(both, variant="russian").white_score is None or pd.isna(
        _row(both, variant="russian").white_score)


def test_openings_filters(small_db):
    assert openings(small_db, plies=2, event="cup")["games"].sum() == 2
    assert openings(small_db, plies=2, player="carol")["games"].sum() == 2
    assert openings(small_db, plies=2, date_from="2021")["games"].sum() == 2  # games 3, 4
    assert openings(small_db, plies=2, date_to="2020-05-01")["games"].sum() == 2  # 1 and 6
    with pytest.raises(ValueError):
        openings(small_db, plies=2, date_from="May 2020")


def test_players(small_db):
    df = players(small_db)
    a = _row(df, player="Alice")
    assert (a.games, a.wins, a.draws, a.losses, a.score) == (4, 3, 1, 0, 87.5)
    assert (a.white_games, a.white_wins, a.white_draws, a.white_losses) == (3, 2, 1, 0)
    assert (a.black_games, a.black_wins, a.black_draws, a.black_losses) == (1, 1, 0, 0)
    assert pd.Timestamp(a.first_date).date() == dt.date(2020, 5, 1)
    assert pd.Timestamp(a.last_date).date() == dt.date(2021, 3, 1)
    assert (a.first_year, a.last_year) == (2020, 2021)
    b = _row(df, player="Bob")
    assert (b.games, b.wins, b.losses, b.score) == (4, 0, 4, 0.0)
    c = _row(df, player="Carol")
    assert (c.games, c.wins, c.draws, c.score) == (2, 1, 1, 75.0)
    iv = _row(df, player="Ivanov")
    assert iv.unknown == 1 and pd.isna(iv.score)
    assert df["games"].sum() == 12  # two sides of six games
    assert players(small_db, player="ali")["player"].tolist() == ["Alice"]
    assert set(players(small_db, min_games=3)["player"]) == {"Alice", "Bob"}


def test_results_by_variant_event_year(small_db):
    df = results(small_db, by="variant")
    i = _row(df, variant="international")
    assert (i.games, i.white_wins, i.draws, i.black_wins, i.unknown) == (5, 3, 1, 1, 0)
    assert i.white_score == 70.0 and i.draw_rate == 20.0
    r = _row(df, variant="russian")
    assert r.unknown == 1 and pd.isna(r.white_score)
    by_year = results(small_db, by="year")
    assert dict(zip(by_year["year"], by_year["games"], strict=True)) == {2019: 1, 2020: 2, 2021: 3}
    by_event = results(small_db, by=["event"])
    assert dict(zip(by_event["event"], by_event["games"], strict=True)) == {
        "Championship": 1, "Cup": 2, "Open": 3}
    two = results(small_db, by="variant,year")
    assert len(two) == 3
    with pytest.raises(ValueError):
        results(small_db, by="colour")


def test_lengths(small_db):
    df = lengths(small_db, bin_width=1, variant="international")
    # plies 4, 4, 4, 5 and 2: bins from 2 to 5 with the empty bin 3 listed
    assert df["plies_from"].tolist() == [2, 3, 4, 5]
    assert df["games"].tolist() == [1, 0, 3, 1]
    assert df["share"].tolist() == [20.0, 0.0, 60.0, 20.0]
    df = lengths(small_db, bin_width=2)
    assert _row(df, variant="international", plies_from=4).games == 4
    assert _row(df, variant="russian", plies_from=2).games == 1


def test_findings_by_code(small_db):
    df = findings(small_db, by="code")
    nm = _row(df, code="notation-mismatch")
    assert (nm.findings, nm.games, nm.files, nm.severity) == (2, 2, 2, "warning")
    assert nm.summary  # from the registry
    enc = _row(df, code="encoding-fallback")
    assert (enc.findings, enc.games, enc.files) == (1, 0, 1)
    # with a game filter file-level findings drop out
    assert set(findings(small_db, by="code", event="open")["code"]) == {
        "illegal-move", "notation-mismatch"}


def test_findings_by_file_and_event(small_db):
    df = findings(small_db, by="file")
    assert df["path"].tolist() == ["a.pdn", "b.pdn", "c.pdn"]  # dirtiest first
    a = _row(df, path="a.pdn")
    assert (a.games, a.ok, a.warning, a.clean_share, a.findings) == (2, 1, 1, 50.0, 1)
    b = _row(df, path="b.pdn")
    assert (b.games, b.ok, b.error, b.findings, b.errors, b.warnings) == (3, 2, 1, 3, 1, 2)
    assert b.clean_share == pytest.approx(66.7)
    c = _row(df, path="c.pdn")
    assert (c.clean_share, c.findings) == (100.0, 0)
    ev = findings(small_db, by="event")
    o = _row(ev, event="Open")
    assert (o.games, o.findings, o.errors) == (3, 2, 1)
    g = findings(small_db, by="game")
    assert g["game_id"].tolist()[0] == 4 and g.iloc[0].codes == "illegal-move, notation-mismatch"


def test_tree_merges_transpositions(small_db):
    one = tree(small_db, moves="32-28 19-23 37-32")
    other = tree(small_db, moves="1. 37-32 19-23 2. 32-28")
    pd.testing.assert_frame_equal(one, other)
    assert dict(zip(one["move"], one["games"], strict=True)) == {"18-22": 1, "17-21": 1, "16-21": 1}
    assert one["share"].tolist() == [33.3, 33.3, 33.3]
    assert _row(one, move="17-21").black_wins == 1
    # the next position can be explored by its FEN
    nxt = tree(small_db, fen=_row(one, move="16-21").fen_after)
    assert nxt["move"].tolist() == ["33-29"]


def test_tree_from_start_and_filters(small_db):
    df = tree(small_db)
    i = df[df["variant"] == "international"]
    assert dict(zip(i["move"], i["games"], strict=True)) == {"32-28": 3, "37-32": 1}
    assert _row(i, move="32-28").white_score == pytest.approx(83.3)
    assert _row(df, variant="russian").move == "c3-d4"
    assert tree(small_db, variant="international", player="Carol")["games"].sum() == 2
    with pytest.raises(ValueError, match="move 1 '46-41' is not legal"):
        tree(small_db, moves="46-41")  # an illegal move is an error, not an empty tree
    with pytest.raises(ValueError):
        tree(small_db, fen="W:W31:B1", moves="32-28")


def test_square_counts(small_db):
    df = square_counts(small_db, what="capture-landing", variant="international")
    assert dict(zip(df["square"], df["count"], strict=True)) == {19: 1, 23: 1, 28: 1}
    df = square_counts(small_db, what="captured", variant="international")
    assert dict(zip(df["square"], df["count"], strict=True)) == {19: 1, 23: 2}


def test_stats_dispatch(small_db):
    df = stats("openings", small_db, plies=2, variant="international", by_kind=None,
               bin_width=5)
    assert df["games"].sum() == 4
    with pytest.raises(ValueError):
        stats("elo", small_db)


def test_docstring_examples():
    """The examples of the package's face and of every room of it."""
    import importlib
    import pkgutil

    names = [stats_mod.__name__] + [f"{stats_mod.__name__}.{m.name}"
                                    for m in pkgutil.iter_modules(stats_mod.__path__)]
    attempted = failed = 0
    for name in names:
        res = doctest.testmod(importlib.import_module(name))
        attempted += res.attempted
        failed += res.failed
    assert attempted > 5 and failed == 0


@pytest.mark.parametrize("call", [
    lambda con: openings(con, variant="internationl"),
    lambda con: tree(con, variant="internationl"),
    lambda con: players(con, variant="internationl"),
    lambda con: results(con, variant="internationl"),
    lambda con: lengths(con, variant="internationl"),
    lambda con: findings(con, variant="internationl"),
    lambda con: square_counts(con, variant="internationl"),
    lambda con: stats("openings", con, variant="internationl"),
    lambda con: stats_mod.endgame_rules(con, variant="internationl"),
    lambda con: stats_mod.crosstable(con, event="Cup", variant="internationl"),
    lambda con: stats_mod.positions_at(con, variant="internationl"),
])
def test_an_unknown_variant_is_refused_with_the_known_ones(small_db, call):
    from pdnkit.rules import UnknownVariantError

    with pytest.raises(UnknownVariantError, match="internationl.*known: .*international"):
        call(small_db)


def test_a_variant_is_read_by_any_of_its_names(small_db):
    by_name = results(small_db, variant="international")
    assert results(small_db, variant="draughts").equals(by_name)
    assert results(small_db, variant="20").equals(by_name)


def test_a_filter_is_one_argument_or_keywords(small_db):
    from pdnkit.stats import GameFilter

    cup = GameFilter(event="cup", variant="international")
    assert results(small_db, filter=cup).equals(results(small_db, event="cup",
                                                        variant="international"))
    # a keyword given beside the filter replaces that field
    assert results(small_db, filter=cup, event="open")["games"].sum() == 3
    with pytest.raises(ValueError, match="YYYY"):
        GameFilter(date_from="May 2020")


def test_result_columns_follow_the_first_mover(builder):
    """English: Black moves first, so Black's columns come first; with another variant
    beside it (or none), White's lead as before."""
    b = builder
    b.game("e.pdn", ["11-15", "23-19"], variant="english", white="Tinsley", black="Fuller",
           result="1-0", event="Match", year=1950)
    b.game("e.pdn", ["11-15", "22-18"], variant="english", white="Fuller", black="Tinsley",
           result="0-1", event="Match", year=1951)
    con = b.con
    first = ["games", "black_wins", "draws", "white_wins", "unknown", "white_score"]
    df = results(con)
    assert list(df.columns)[1:7] == first
    assert list(results(con, by="year").columns)[1:7] == first
    assert list(openings(con, plies=1).columns)[2:6] == first[:4]
    assert list(tree(con).columns)[4:7] == first[1:4]
    cols = list(players(con).columns)
    assert cols.index("black_games") < cols.index("white_games")
    assert cols.index("black_losses") < cols.index("white_games")
    # the numbers do not move with their columns
    row = df.iloc[0]
    assert (row.games, row.white_wins, row.black_wins) == (2, 1, 1)
    b.game("r.pdn", ["c3-d4"], variant="russian", result="1-0")
    assert list(results(con).columns)[1:5] == ["games", "white_wins", "draws", "black_wins"]
    assert list(results(con, variant="english").columns)[2] == "black_wins"
