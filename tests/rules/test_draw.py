"""Draw and endgame rules (RULES.md 4): every rule of section 4.2 on real positions and moves.

Moves are made with the engine (``Position.legal_moves()`` / ``play()``); limits are checked
against the rulebook numbers (FMJD 6.x, Russian 7.2.x, WCDF 1.32, EDA 1991, Frisian art. 18 and
21.1, Czech, Italian, antidraughts), never against numbers the tracker produced.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import pytest

from pdnkit.rules import Position, get_rules, parse_square
from pdnkit.rules.draw import (
    MATERIAL_CONDITIONS,
    DrawTracker,
    RuleEvent,
    main_road_squares,
    material_holds,
    move_events,
)

# --------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------


def sq(rules, name: str | int) -> int:
    """A square written in the variant's own notation (``"c3"`` or ``28``)."""
    return name if isinstance(name, int) else parse_square(rules, name)


def find_move(pos: Position, origin, destination):
    """The unique legal move from ``origin`` to ``destination`` (notation of the variant)."""
    o, d = sq(pos.rules, origin), sq(pos.rules, destination)
    found = [m for m in pos.legal_moves() if (m.origin, m.destination) == (o, d)]
    assert len(found) == 1, f"{origin}-{destination} not uniquely legal in {pos!r}"
    return found[0]


class Game:
    """A game being played move by move with a tracker attached; records what each push
    returned so tests can check that nothing fired before the limit."""

    def __init__(self, pos: Position, halfmove: int | None = None) -> None:
        self.pos = pos
        self.tracker = DrawTracker(pos.rules, pos, halfmove=halfmove)
        self.ply = 0
        self.fired: dict[int, list[str]] = {}
        self.keys = {pos.key()}

    def move(self, m) -> Game:
        self.pos = self.pos.play(m)
        self.ply += 1
        self.keys.add(self.pos.key())
        got = self.tracker.push(self.ply, m, self.pos)
        if got:
            self.fired[self.ply] = [e.rule for e in got]
        return self

    def play(self, *moves: tuple) -> Game:
        for origin, destination in moves:
            self.move(find_move(self.pos, origin, destination))
        return self

    def walk(self, plies: int, man_plies: Iterable[int] = (),
             keep: Callable[[Position], bool] | None = None) -> Game:
        """Play ``plies`` moves chosen by :func:`quiet_walk` (king moves, men at the given
        game plies, never repeating a position of this game)."""
        wanted = {p - self.ply for p in man_plies}
        for m in quiet_walk(self.pos, plies, wanted, self.keys, keep):
            self.move(m)
        return self

    def event(self, rule: str) -> RuleEvent:
        found = [e for e in self.tracker.events if e.rule == rule]
        assert found, f"no event for {rule}: {self.tracker.events}"
        return found[-1]

    def events(self, rule: str) -> list[RuleEvent]:
        return [e for e in self.tracker.events if e.rule == rule]


def quiet_walk(pos: Position, plies: int, man_plies: set[int] = frozenset(),
               seen: set[int] | None = None,
               keep: Callable[[Position], bool] | None = None) -> list:
    """Real moves from ``pos``: ``plies`` non-capturing moves, king moves except at the
    (1-based, relative) plies in ``man_plies`` where a non-promoting man moves; no position
    occurs twice (the start included) and no side is ever left with a capture to make, so no
    repetition, capture, promotion or forced capture happens along the way. ``keep``: a
    condition every position of the walk must satisfy."""
    seen = set(seen or ()) | {pos.key()}
    path: list = []

    def dfs(p: Position, i: int) -> bool:
        if i == plies:
            return True
        want_man = (i + 1) in man_plies
        for m in p.legal_moves():
            if m.is_capture or m.promotes or m.is_king == want_man:
                continue
            q = p.play(m)
            k = q.key()
            if k in seen or q.has_capture() or not q.legal_moves() or (keep and not keep(q)):
                continue
            seen.add(k)
            path.append(m)
            if dfs(q, i + 1):
                return True
            seen.discard(k)
            path.pop()
        return False

    assert dfs(pos, 0), "no quiet walk found"
    for m in path:
        assert not m.is_capture and not m.promotes
    return path


def reached_at(game: Game, rule: str) -> int | None:
    return game.event(rule).reached_ply


# --------------------------------------------------------------------------------------------
# material conditions (truth tables from the rule texts)
# --------------------------------------------------------------------------------------------


def C(wm: int = 0, wk: int = 0, bm: int = 0, bk: int = 0) -> dict[str, int]:
    return {"white_men": wm, "white_kings": wk, "black_men": bm, "black_kings": bk}


def test_every_condition_used_by_a_variant_exists() -> None:
    from pdnkit.rules import list_variants

    for rules in list_variants():
        for rule in rules.draw_rules:
            assert rule.material in MATERIAL_CONDITIONS, (rules.name, rule.name)


@pytest.mark.parametrize(
    ("name", "counts", "expected"),
    [
        # FMJD 6.3: three kings, two kings and a man, or one king and two men v one king
        ("lone-king-vs-3-with-king", C(wk=3, bk=1), True),
        ("lone-king-vs-3-with-king", C(wk=2, wm=1, bk=1), True),
        ("lone-king-vs-3-with-king", C(wk=1, wm=2, bk=1), True),
        ("lone-king-vs-3-with-king", C(bk=1, bm=2, wk=1), True),  # colours swapped
        ("lone-king-vs-3-with-king", C(wm=3, bk=1), False),  # three men: no rule (2.1)
        ("lone-king-vs-3-with-king", C(wk=4, bk=1), False),
        ("lone-king-vs-3-with-king", C(wk=3, bm=1), False),  # the lone piece is a man
        ("lone-king-vs-3-with-king", C(wk=2, bk=2), False),
        # FMJD 6.4 / Russian 7.2.8: two kings, one king and a man, or one king v one king
        ("lone-king-vs-2-with-king", C(wk=2, bk=1), True),
        ("lone-king-vs-2-with-king", C(wk=1, wm=1, bk=1), True),
        ("lone-king-vs-2-with-king", C(wk=1, bk=1), True),
        ("lone-king-vs-2-with-king", C(wm=2, bk=1), False),
        ("lone-king-vs-2-with-king", C(wm=1, bk=1), False),
        ("lone-king-vs-2-with-king", C(wk=3, bk=1), False),
        # Russian 7.2.4: three (or more) kings v a single king
        ("lone-king-vs-3plus-kings", C(wk=3, bk=1), True),
        ("lone-king-vs-3plus-kings", C(bk=5, wk=1), True),
        ("lone-king-vs-3plus-kings", C(wk=3, wm=1, bk=1), False),
        ("lone-king-vs-3plus-kings", C(wk=2, wm=1, bk=1), False),
        # Russian 7.2.5 (lidraughts: both sides have kings)
        ("both-have-kings", C(wk=1, wm=5, bk=1, bm=3), True),
        ("both-have-kings", C(wk=3, bm=1), False),
        # Russian 7.2.6: both sides have kings; 4-5 / 6-7 pieces on the whole board
        ("both-kings-4-5-pieces", C(wk=2, bk=2), True),
        ("both-kings-4-5-pieces", C(wk=1, wm=2, bk=1, bm=1), True),
        ("both-kings-4-5-pieces", C(wk=2, wm=2, bk=2), False),
        ("both-kings-4-5-pieces", C(wk=3, bm=1), False),
        ("both-kings-6-7-pieces", C(wk=2, wm=2, bk=2), True),
        ("both-kings-6-7-pieces", C(wk=1, wm=3, bk=1, bm=2), True),
        ("both-kings-6-7-pieces", C(wk=1, wm=3, bk=1, bm=3), False),
        ("both-kings-6-7-pieces", C(wm=4, bk=1, bm=2), False),
        # Frisian art. 18 and 21.1, Canadian / pool 3 kings v king: kings only
        ("kings-only-2-vs-1", C(wk=2, bk=1), True),
        ("kings-only-2-vs-1", C(wk=1, bk=2), True),
        ("kings-only-2-vs-1", C(wk=2, wm=1, bk=1), False),
        ("kings-only-2-vs-1", C(wk=1, wm=1, bk=1), False),
        ("kings-only-1-vs-1", C(wk=1, bk=1), True),
        ("kings-only-1-vs-1", C(wk=1, bk=1, bm=1), False),
        ("kings-only-3-vs-1", C(wk=3, bk=1), True),
        ("kings-only-3-vs-1", C(wk=1, bk=3), True),
        ("kings-only-3-vs-1", C(wk=4, bk=1), False),
        ("kings-only-3-vs-1", C(wk=2, wm=1, bk=1), False),
        ("any", C(wm=20, bm=20), True),
    ],
)
def test_material_conditions(name: str, counts: dict[str, int], expected: bool) -> None:
    assert MATERIAL_CONDITIONS[name](counts) is expected
    assert material_holds(name, counts) is expected


def test_unknown_condition_is_api_misuse() -> None:
    with pytest.raises(ValueError, match="unknown material condition"):
        material_holds("two-rooks", C(wk=1, bk=1))


def test_main_road_is_a1_h8() -> None:
    rules = get_rules("russian")
    expected = {parse_square(rules, s) for s in ("a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8")}
    assert main_road_squares(rules) == expected
    # International: 46 (a1) to 5 (j10), the long diagonal (FMJD 2.4)
    assert main_road_squares(get_rules("international")) == {46, 41, 37, 32, 28, 23, 19, 14, 10, 5}


def test_main_road_condition_needs_lone_king_alone_on_the_road() -> None:
    rules = get_rules("russian")
    on_road = Position.from_squares(
        rules, "W", white_kings=[sq(rules, "c1"), sq(rules, "e1")], white_men=[sq(rules, "a3")],
        black_kings=[sq(rules, "d4")])
    cond = MATERIAL_CONDITIONS["lone-king-on-main-road-vs-3"]
    assert cond(on_road)
    off_road = Position.from_squares(
        rules, "W", white_kings=[sq(rules, "c1"), sq(rules, "e1")], white_men=[sq(rules, "a3")],
        black_kings=[sq(rules, "d6")])
    assert not cond(off_road)
    shared = Position.from_squares(
        rules, "W", white_kings=[sq(rules, "c1"), sq(rules, "h8")], white_men=[sq(rules, "a3")],
        black_kings=[sq(rules, "d4")])
    assert not cond(shared)
    with pytest.raises(TypeError):
        cond(C(wk=3, bk=1))


# --------------------------------------------------------------------------------------------
# move classes
# --------------------------------------------------------------------------------------------


def test_move_classes_from_real_moves() -> None:
    rules = get_rules("international")
    pos = Position.from_squares(rules, "W", white_men=[7, 33], white_kings=[46],
                                black_men=[29])
    by = {(m.origin, m.destination): m for m in pos.legal_moves()}
    assert move_events(by[(33, 24)]) == {"capture", "man_move"}  # 33x24 takes 29
    pos = Position.from_squares(rules, "W", white_men=[7, 33], white_kings=[46],
                                black_men=[20])
    by = {(m.origin, m.destination): m for m in pos.legal_moves()}
    assert move_events(by[(7, 1)]) == {"man_move", "promotion"}
    assert move_events(by[(33, 28)]) == {"man_move"}
    assert move_events(by[(46, 41)]) == {"king_quiet"}
    assert move_events(None) == {"capture", "man_move", "promotion"}


# --------------------------------------------------------------------------------------------
# International (FMJD article 6)
# --------------------------------------------------------------------------------------------

INTL = get_rules("international")


#: kings and a man each: only 6.1 and 6.2 apply
INTL_MIDDLE = {"white_kings": [46, 47], "white_men": [45], "black_kings": [4, 5], "black_men": [6]}


def intl(side: str = "W", **pieces) -> Position:
    return Position.from_squares(INTL, side, **pieces)


def test_fmjd_6_1_third_occurrence_with_kings_shuffling() -> None:
    # Men on both sides keep 6.3/6.4 out; the kings shuffle a1-b2 and b10-c9.
    g = Game(intl(white_kings=[46], white_men=[45], black_kings=[1], black_men=[6]))
    shuffle = ((46, 41), (1, 7), (41, 46), (7, 1))
    g.play(*shuffle)  # back to the start: 2nd occurrence at ply 4
    assert g.fired == {}
    g.play(*shuffle)  # 3rd occurrence at ply 8 (the start counts as the first)
    assert g.fired == {8: ["fmjd-6.1"]}
    e = g.event("fmjd-6.1")
    assert (e.start_ply, e.reached_ply, e.automatic, e.article) == (0, 8, True, "FMJD 6.1")
    assert g.tracker.first_reached() is e
    # a man move clears the table: the repetition activation ends there
    g.play((45, 40))
    assert e.end_ply == 9
    assert g.tracker.counts()["fmjd-6.1"] == 1


def test_fmjd_6_2_fifty_plies_of_king_moves_after_the_last_man_move() -> None:
    g = Game(intl(**INTL_MIDDLE))
    g.walk(1, man_plies=[1])  # a man move at ply 1: the count starts after it
    g.walk(49)
    assert g.fired == {}  # 49 king moves: nothing yet
    g.walk(1)
    assert g.fired == {51: ["fmjd-6.2"]}
    e = g.event("fmjd-6.2")
    assert (e.start_ply, e.limit_plies, e.deadline_ply, e.reached_ply) == (1, 50, 51, 51)


def test_fmjd_6_2_reset_by_man_move_and_by_capture() -> None:
    g = Game(intl(**INTL_MIDDLE))
    g.walk(30, man_plies=[20])  # king moves, but a black man moves at ply 20
    g.walk(40)
    assert g.fired == {70: ["fmjd-6.2"]}
    first, second = g.events("fmjd-6.2")
    assert (first.start_ply, first.end_ply, first.reached_ply) == (0, 20, None)
    assert (second.start_ply, second.deadline_ply, second.reached_ply) == (20, 70, 70)


def test_fmjd_6_3_sixteen_moves_each_after_the_capture_that_creates_it() -> None:
    # White kings 28, 47, 50; black king 3 and man 22: White must take the man (ply 1).
    g = Game(intl(white_kings=[28, 47, 50], black_kings=[3], black_men=[22]))
    caps = [m for m in g.pos.legal_moves() if m.is_capture]
    assert caps and all(m.captured == (22,) for m in caps)
    g.move(caps[0])  # ply 1: three kings v one king (FMJD 6.3) begins
    assert g.pos.counts() == C(wk=3, bk=1)
    g.walk(31)
    assert g.fired == {}
    g.walk(1)
    assert g.fired == {33: ["fmjd-6.3"]}  # 32 plies after the capture, not counting it
    e = g.event("fmjd-6.3")
    assert (e.start_ply, e.limit_plies, e.deadline_ply, e.reached_ply) == (1, 32, 33, 33)
    # 6.2 runs at the same time (restarted by the capture) but 6.3 comes first
    assert g.event("fmjd-6.2").deadline_ply == 51
    assert g.tracker.first_reached(automatic_only=True).rule == "fmjd-6.3"


def test_fmjd_6_3_not_reset_by_a_man_move_of_the_strong_side() -> None:
    # One king and two men v a king: the men may move without restarting the 16-move count
    # (FMJD 6.3 counts moves; lidraughts resets only on the class change), 6.2 restarts.
    g = Game(intl(white_kings=[46], white_men=[36, 40], black_kings=[4]))
    g.walk(20, man_plies=[11])  # white (ply 11 is White's) moves a man
    g.walk(12)
    assert g.fired == {32: ["fmjd-6.3"]}
    assert len(g.events("fmjd-6.3")) == 1
    assert g.event("fmjd-6.2").start_ply == 11


def test_fmjd_6_4_two_kings_v_king_five_moves_each() -> None:
    g = Game(intl(white_kings=[28, 47], black_kings=[3], black_men=[22]))
    caps = [m for m in g.pos.legal_moves() if m.is_capture]
    g.move(caps[0])
    assert g.pos.counts() == C(wk=2, bk=1)
    g.walk(9)
    assert g.fired == {}
    g.walk(1)
    assert g.fired == {11: ["fmjd-6.4"]}


def test_fmjd_6_4_started_by_the_promotion_that_gives_the_first_king() -> None:
    # Two men v a king: no endgame rule until a man is crowned (RULES.md 2.1)
    g = Game(intl(white_men=[7, 36], black_kings=[45]))
    g.play((7, 1))  # ply 1: crowned, one king and a man v a king
    assert g.tracker.counts()["fmjd-6.4"] == 0
    g.walk(10)
    assert g.fired == {11: ["fmjd-6.4"]}
    assert g.event("fmjd-6.4").start_ply == 1


def test_fmjd_6_3_to_6_4_by_a_capture_starts_a_fresh_count() -> None:
    # 3 v 1 for a while, then the lone king takes a piece: 6.3 ends, 6.4 starts (lidraughts).
    g = Game(intl(white_kings=[46, 50], white_men=[36], black_kings=[4]))
    g.walk(6)
    assert g.tracker.counts()["fmjd-6.3"] == 6
    # White blunders a king onto the lone king's line; the lone king takes it
    target = None
    for m in g.pos.legal_moves():
        q = g.pos.play(m)
        caps = [c for c in q.legal_moves() if c.is_capture]
        if m.is_king and caps:
            target = (m, caps[0])
            break
    assert target is not None
    g.move(target[0])  # ply 7 (white): still 3 v 1, counted
    g.move(target[1])  # ply 8 (black): the lone king captures: 2 v 1
    assert g.pos.counts()["white_kings"] + g.pos.counts()["white_men"] == 2
    e63 = g.event("fmjd-6.3")
    assert (e63.start_ply, e63.end_ply, e63.reached_ply) == (0, 8, None)
    g.walk(10)
    assert g.fired == {18: ["fmjd-6.4"]}
    assert g.event("fmjd-6.4").start_ply == 8


def test_lidraughts_halfmove_clock_seeds_the_running_counters() -> None:
    pos = intl(white_kings=[46, 50, 47], black_kings=[4])  # 3 kings v king, 32 plies
    g = Game(pos, halfmove=30)
    g.walk(2)
    assert g.fired == {2: ["fmjd-6.3"]}
    e = g.event("fmjd-6.3")
    assert (e.start_ply, e.deadline_ply, e.reached_ply) == (0, 2, 2)
    g2 = Game(intl(**INTL_MIDDLE), halfmove=45)
    g2.walk(5)
    assert g2.fired == {5: ["fmjd-6.2"]}


# --------------------------------------------------------------------------------------------
# Russian (FMJD-64 7.2)
# --------------------------------------------------------------------------------------------

RUS = get_rules("russian")


def rus(side: str = "W", **pieces: Sequence[str]) -> Position:
    return Position.from_squares(
        RUS, side, **{k: [parse_square(RUS, s) for s in v] for k, v in pieces.items()})


def test_russian_7_2_3_threefold_repetition() -> None:
    g = Game(rus(white_kings=["a1"], white_men=["h2"], black_kings=["f8"], black_men=["a7"]))
    shuffle = (("a1", "b2"), ("f8", "e7"), ("b2", "a1"), ("e7", "f8"))
    g.play(*shuffle, *shuffle)
    assert g.fired == {8: ["russian-7.2.3"]}


def test_russian_7_2_4_three_kings_v_king_fifteen_moves() -> None:
    # lone king off the main road (7.2.7 does not apply)
    g = Game(rus(white_kings=["c1", "e1", "g1"], black_kings=["b8"]))
    assert not MATERIAL_CONDITIONS["lone-king-on-main-road-vs-3"](g.pos)
    g.walk(29)
    g.walk(1)
    # 7.2.4 and 7.2.5 both fall at ply 30; 7.2.4 is listed first
    assert g.fired == {30: ["russian-7.2.4", "russian-7.2.5"]}
    assert g.tracker.first_reached().rule == "russian-7.2.4"


def test_russian_7_2_5_fifteen_moves_of_kings_only() -> None:
    g = Game(rus(white_kings=["a1", "c1"], white_men=["e3", "g3", "h2"],
                 black_kings=["h8", "f8"], black_men=["b6", "d6", "a7"]))
    g.walk(30)
    assert g.fired == {30: ["russian-7.2.5"]}


def test_russian_7_2_6_four_five_pieces_sixty_plies_despite_man_moves() -> None:
    # both sides have kings, 5 pieces; men move at plies 20 and 40, restarting 7.2.5 only
    g = Game(rus(white_kings=["d6", "g3"], white_men=["f2"], black_kings=["f8"],
                 black_men=["b6"]))
    g.walk(60, man_plies=[20, 41])
    assert g.fired == {60: ["russian-7.2.6-4-5"]}
    assert [e.start_ply for e in g.events("russian-7.2.5")] == [0, 20, 41]


def test_russian_7_2_6_six_seven_pieces_hundred_twenty_plies() -> None:
    g = Game(rus(white_kings=["a7", "f8"], white_men=["d4", "h2"], black_kings=["d2"],
                 black_men=["f2", "f6"]))
    g.walk(120, man_plies=[20, 41, 60, 81, 100])
    assert g.fired == {120: ["russian-7.2.6-6-7"]}


def test_russian_7_2_7_lone_king_on_the_main_road_five_moves() -> None:
    # the lone black king stays on a1-h8 (alone on it) while White's three kings move
    on_road = MATERIAL_CONDITIONS["lone-king-on-main-road-vs-3"]
    g = Game(rus("B", white_kings=["c1", "e1", "g1"], black_kings=["d4"]))
    assert on_road(g.pos)
    g.walk(9, keep=on_road)
    assert g.fired == {}
    g.walk(1, keep=on_road)
    assert g.fired == {10: ["russian-7.2.7"]}
    assert g.tracker.first_reached().rule == "russian-7.2.7"  # before 7.2.4's 30 plies


def test_russian_7_2_8_king_and_man_v_king_five_moves() -> None:
    g = Game(rus(white_kings=["d4"], white_men=["f2"], black_kings=["h6"]))
    g.walk(10)
    assert g.fired == {10: ["russian-7.2.8"]}


# --------------------------------------------------------------------------------------------
# English: EDA 1991 v WCDF (claims)
# --------------------------------------------------------------------------------------------


def test_english_repetition_eda_fourth_v_wcdf_third_occurrence() -> None:
    start = {"white_kings": [29], "white_men": [24], "black_kings": [4], "black_men": [9]}
    shuffle = ((4, 8), (29, 25), (8, 4), (25, 29))  # Black moves first in English
    eda = Game(Position.from_squares(get_rules("english"), "B", **start))
    wcdf = Game(Position.from_squares(get_rules("english", edition="wcdf"), "B", **start))
    for g in (eda, wcdf):
        g.play(*shuffle, *shuffle, *shuffle)
    assert wcdf.fired == {8: ["wcdf-1.32.1"]}
    assert eda.fired == {12: ["eda-repetition"]}
    for g in (eda, wcdf):
        assert g.tracker.first_reached() is not None
        assert g.tracker.first_reached(automatic_only=True) is None  # claims only


def test_english_no_progress_eda_fifty_v_wcdf_forty_moves() -> None:
    start = {"white_kings": [29, 30], "white_men": [24], "black_kings": [1, 2],
             "black_men": [9]}
    eda = Game(Position.from_squares(get_rules("english"), "B", **start))
    wcdf = Game(Position.from_squares(get_rules("english", edition="wcdf"), "B", **start))
    for g in (eda, wcdf):
        g.walk(100)
    assert wcdf.fired == {80: ["wcdf-1.32.2"]}
    assert eda.fired == {100: ["eda-50"]}
    assert not wcdf.event("wcdf-1.32.2").automatic


# --------------------------------------------------------------------------------------------
# Frisian, Czech, Italian, antidraughts
# --------------------------------------------------------------------------------------------


def test_frisian_art_18_two_kings_v_king_seven_moves() -> None:
    rules = get_rules("frisian")
    g = Game(Position.from_squares(rules, "W", white_kings=[46, 50], black_kings=[3]))
    g.walk(14)
    assert g.fired == {14: ["frisian-18"]}
    assert not g.events("frisian-21.1")


def test_frisian_art_21_1_king_v_king_after_a_capture() -> None:
    rules = get_rules("frisian")
    g = Game(Position.from_squares(rules, "W", white_kings=[28], black_kings=[3],
                                   black_men=[22]))
    caps = [m for m in g.pos.legal_moves() if m.is_capture]
    g.move(caps[0])
    assert g.pos.counts() == C(wk=1, bk=1)
    g.walk(4)
    assert g.fired == {5: ["frisian-21.1"]}
    assert g.event("frisian-21.1").start_ply == 1


def test_frisian_has_no_repetition_rule() -> None:
    rules = get_rules("frisian")
    # two kings each (not bound by art. 17, no endgame article applies)
    g = Game(Position.from_squares(rules, "W", white_kings=[3, 16], black_kings=[10, 48]))
    shuffle = ((3, 12), (10, 15), (12, 3), (15, 10))
    g.play(*shuffle * 4)
    assert g.fired == {} and g.tracker.events == []


def test_czech_fifteen_moves_automatic_and_repetition_claim() -> None:
    rules = get_rules("czech")
    def pos(**pieces: list[str]) -> Position:
        return Position.from_squares(
            rules, "W", **{k: [parse_square(rules, s) for s in v] for k, v in pieces.items()})

    g = Game(pos(white_kings=["h6"], white_men=["f2"], black_kings=["f6"], black_men=["d4"]))
    g.walk(30)
    assert g.fired == {30: ["czech-15"]}
    g2 = Game(pos(white_kings=["a1"], white_men=["h2"], black_kings=["f8"], black_men=["a7"]))
    shuffle = (("a1", "b2"), ("f8", "e7"), ("b2", "a1"), ("e7", "f8"))
    g2.play(*shuffle, *shuffle)
    assert g2.fired == {8: ["czech-repetition"]}
    assert g.event("czech-15").automatic  # RULES.md 4.1.6: only the repetition is a claim
    assert not g2.event("czech-repetition").automatic
    assert g2.tracker.first_reached(automatic_only=True) is None


def test_italian_threefold_repetition() -> None:
    rules = get_rules("italian")
    g = Game(Position.from_squares(rules, "W", white_kings=[32], white_men=[21],
                                   black_kings=[1], black_men=[12]))
    shuffle = ((32, 28), (1, 5), (28, 32), (5, 1))
    g.play(*shuffle, *shuffle)
    assert g.fired == {8: ["fid-repetition"]}


def test_antidraughts_repetition_is_the_only_draw() -> None:
    rules = get_rules("antidraughts")
    g = Game(Position.from_squares(rules, "W", white_kings=[46, 50], black_kings=[3]))
    g.walk(60)  # 2 kings v king, 60 king moves: FMJD 6.2/6.4 do not apply here
    assert g.fired == {}
    g2 = Game(Position.from_squares(rules, "W", white_kings=[46], white_men=[45],
                                    black_kings=[1], black_men=[6]))
    g2.play(*((46, 41), (1, 7), (41, 46), (7, 1)) * 2)
    assert g2.fired == {8: ["antidraughts-repetition"]}


# --------------------------------------------------------------------------------------------
# bookkeeping
# --------------------------------------------------------------------------------------------


def test_finish_closes_running_activations_and_api_misuse_raises() -> None:
    g = Game(intl(white_kings=[46, 50, 47], black_kings=[4]))
    g.walk(5)
    events = g.tracker.finish(5)
    assert {e.rule for e in events} == {"fmjd-6.2", "fmjd-6.3"}
    assert all(e.end_ply == 5 and e.reached_ply is None for e in events)
    with pytest.raises(ValueError):
        g.tracker.push(6, None, g.pos)
    t = DrawTracker(INTL, g.pos)
    t.push(1, None, g.pos)
    with pytest.raises(ValueError, match="increase"):
        t.push(1, None, g.pos)


def test_unknown_move_class_restarts_every_count() -> None:
    g = Game(intl(white_kings=[46, 50, 47], black_kings=[4]))
    g.walk(10)
    g.ply += 1
    g.pos = g.pos.play(g.pos.legal_moves()[0])
    g.tracker.push(g.ply, None, g.pos)  # an irregular move accepted as played
    assert g.tracker.counts()["fmjd-6.3"] == 0
    assert g.events("fmjd-6.3")[0].end_ply == 11


# --------------------------------------------------------------------------------------------
# real games: lidraughts applies its draw rules automatically and ends the game on the spot
# --------------------------------------------------------------------------------------------

LIDRAUGHTS_FILES = [
    ("international", None),
    ("russian", None),
    ("frisian", None),
    ("frysk", None),
    ("antidraughts", None),
    ("brazilian", "lidraughts"),  # lidraughts plays Brazilian with the Russian draw rules
]


@pytest.mark.parametrize(("folder", "edition"), LIDRAUGHTS_FILES)
def test_lidraughts_games_end_exactly_when_a_counter_rule_is_reached(folder: str,
                                                                     edition: str | None) -> None:
    """Every lidraughts game that ends in a draw by its server's rules ("1-1" terminator)
    reaches one of our rules at its very last ply, and no game goes on after an automatic
    ply-count rule was reached (threefold repetition is a claim on lidraughts, so it may)."""
    from pdnkit.validation import validate
    from tests.shared import shared_path

    path = shared_path("real", folder, "random_pdns.derived.pdn")
    games = draws = 0
    for rep in validate(path, edition=edition):
        games += 1
        counters = {r.name for r in get_rules(rep.variant, rep.edition).draw_rules
                    if r.kind == "counter"}
        last = rep.replayed_plies
        assert rep.replayed_plies == len(rep.plies), (rep.index, rep.findings)
        for e in rep.rule_events:
            if e.reached_ply is not None and e.rule in counters and e.automatic:
                assert e.reached_ply == last, (rep.index, e)
        if rep.record.result in ("1-1", "1/2-1/2"):
            draws += 1
            assert any(e.reached_ply == last for e in rep.rule_events), (rep.index,
                                                                         rep.rule_events)
    assert games >= 8


def test_lidraughts_draws_by_rule_named() -> None:
    """The draws of the lidraughts samples, rule by rule. Each game carries lidraughts' own
    "1-1" terminator at that ply; the material was checked by hand: Russian game 5 enters
    king and man v king by the capture h2xb8 at ply 75 (the man is crowned at ply 81 without
    restarting the count) and ends at 85; Russian game 2 repeats W:WKa1,a7:BKb4,b8 at plies
    82, 86 and 90; international games 8 and 10 enter king and man v king at plies 120 and
    122 (16x27, 50x36); the Frysk! games enter king v king (or two kings v king, game 8 at
    ply 60 by 26x17) by a capture 4 (14) plies before their end."""
    from pdnkit.validation import validate
    from tests.shared import shared_path

    expected = {
        ("international", 8): ("fmjd-6.4", 130),
        ("international", 10): ("fmjd-6.4", 132),
        ("russian", 2): ("russian-7.2.3", 90),
        ("russian", 5): ("russian-7.2.8", 85),
        ("frysk", 2): ("frisian-21.1", 83),
        ("frysk", 6): ("frisian-21.1", 73),
        ("frysk", 8): ("frisian-18", 74),
        ("frysk", 10): ("frisian-21.1", 58),
        ("frysk", 17): ("frisian-21.1", 60),
    }
    got = {}
    for folder in ("international", "russian", "frysk"):
        for rep in validate(shared_path("real", folder, "random_pdns.derived.pdn")):
            for e in rep.rule_events:
                if e.reached_ply is not None:
                    got[(folder, rep.index)] = (e.rule, e.reached_ply)
    assert got == expected


# --------------------------------------------------------------------------------------------
# Canadian and pool (three kings v king), lidraughts FEN clock, table contract
# --------------------------------------------------------------------------------------------


def test_pool_three_kings_v_king_thirteen_moves() -> None:
    rules = get_rules("pool")  # Black (dark, 1-12) moves first
    g = Game(Position.from_squares(rules, "B", black_kings=[1, 2, 3], white_kings=[30]))
    g.walk(25)
    assert g.fired == {}
    g.walk(1)
    assert g.fired == {26: ["pool-3k-v-k"]}


def test_canadian_three_kings_v_king_sixteen_moves() -> None:
    rules = get_rules("canadian")
    g = Game(Position.from_squares(rules, "W", white_kings=[67, 68, 69], black_kings=[3]))
    g.walk(32)
    assert g.fired == {32: ["canadian-16"]}


def test_lidraughts_fen_clock_through_parse_fen_info() -> None:
    from pdnkit.rules import parse_fen_info

    # lidraughts: two kings and a king, 6 plies already played in the 6.4 ending
    info = parse_fen_info("W:WK47,K50:BK3:H6:F70", INTL)
    assert info.halfmove == 6
    g = Game(info.position, halfmove=info.halfmove)
    g.walk(4)
    assert g.fired == {4: ["fmjd-6.4"]}


def test_rule_event_rows_have_the_rule_events_columns() -> None:
    import re
    from pathlib import Path

    import pdnkit.store

    schema = (Path(pdnkit.store.__file__).parent / "schema.sql").read_text()
    block = schema[schema.index("CREATE TABLE IF NOT EXISTS rule_events"):]
    block = block[block.index("(") + 1:block.index(");")]
    columns = [m.group(1) for m in re.finditer(r"^\s*(\w+)\s+\w+", block, re.MULTILINE)]
    from pdnkit.rules.draw import events_to_rows

    row = events_to_rows([RuleEvent("fmjd-6.4", "FMJD 6.4", True, 40, 10, 50)], 7)[0]
    assert list(row) == columns


def test_tracker_started_mid_game_counts_from_that_ply() -> None:
    # a /FEN "..."/ setup after ply 40: two kings v king, FMJD 6.4 draws 10 plies later
    pos = intl(white_kings=[47, 50], black_kings=[3])
    t = DrawTracker(INTL, pos, start_ply=40)
    shuffle = [(47, 42), (3, 8), (42, 47), (8, 3), (50, 44), (3, 9), (44, 50), (9, 3),
               (47, 42), (3, 8)]
    fired = {}
    for ply, (a, b) in enumerate(shuffle, start=41):
        move = find_move(pos, a, b)
        pos = pos.play(move)
        got = t.push(ply, move, pos)
        if got:
            fired[ply] = [e.rule for e in got]
    # the start (ply 40) is the first occurrence: it recurs at 44 and 48 -> 6.1 at 48
    assert fired == {48: ["fmjd-6.1"], 50: ["fmjd-6.4"]}
    e = next(e for e in t.events if e.rule == "fmjd-6.4")
    assert (e.start_ply, e.deadline_ply) == (40, 50)
    assert next(e for e in t.events if e.rule == "fmjd-6.1").start_ply == 40
    with pytest.raises(ValueError):
        DrawTracker(INTL, pos, start_ply=-1)
