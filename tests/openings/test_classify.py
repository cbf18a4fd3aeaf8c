"""Classification by position on hand-made games whose openings are known by construction:
transpositions, ballots reached by another move order, FEN starts, the side to move, and
users' own tables."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdnkit.openings import (
    OpeningTableError,
    classify_record,
    load_tables,
    load_user_table,
    mirror_position,
    square_bits,
)
from pdnkit.pdn import parse_game
from pdnkit.rules import Position, get_rules, match_move, parse_fen
from pdnkit.validation import replay


def positions(variant: str, moves: str, fen: str | None = None) -> list[Position]:
    rules = get_rules(variant)
    out = [parse_fen(fen, rules) if fen else Position.initial(rules)]
    for text in moves.split():
        found = match_move(out[-1], text)
        assert len(found) == 1, text
        out.append(out[-1].play(found[0]))
    return out


def test_transposition_into_a_named_line() -> None:
    """11-15 22-17 8-11 23-19 4-8 reaches the Old Fourteenth's position by another road."""
    book = load_tables("english")
    direct = book.classify(positions("english", "11-15 23-19 8-11 22-17 4-8"))
    other = book.classify(positions("english", "11-15 22-17 8-11 23-19 4-8 26-23"))
    assert direct.name == other.name == "Old Fourteenth"
    assert direct.ply == other.ply == 5
    assert direct.entry is other.entry
    # the ballots each move order passed through differ: the code says which
    assert (direct.code, other.code) == ("ACF 126", "ACF 116")


def test_a_ballot_reached_by_a_different_move_order() -> None:
    """10-14 22-18 9-13 gives the position of ACF 6 (9-13 22-18 10-14, the Inferno)."""
    book = load_tables("english")
    c = book.classify(positions("english", "10-14 22-18 9-13 18x9"))
    assert (c.code, c.name, c.ply) == ("ACF 6", "Inferno", 3)
    assert [m.entry.full_code for m in c.matches] == ["denny", "2-move 17", "ACF 6"]


def test_russian_transposition_real_games_show() -> None:
    """Жертва Кукуева by 1.cb4 fg5 2.bc5 (as a game of Abatsiev's reaches it) and by its
    defining 1.cd4 fg5 2.dc5."""
    book = load_tables("russian")
    a = book.classify(positions("russian", "cd4 fg5 dc5 d:b4 a:c5 b:d4 e:c5 gf4 g:e5"))
    b = book.classify(positions("russian", "cb4 fg5 bc5 d:b4 a:c5 b:d4 e:c5 gf4 g:e5"))
    assert a.name == b.name == "Жертва Кукуева" and a.translit == "Zhertva Kukuyeva"
    # both pass the same basic position at ply 3 (1.cd4 fg5 2.dc5 = 1.cb4 fg5 2.bc5) ...
    assert a.code == b.code == "150:3-I"
    # ... and the deepest code of the tables too: the cb4 order transposed into a cd4 line
    da, db = a.deepest(family="codes"), b.deepest(family="codes")
    assert da is not None and db is not None and da.entry is db.entry
    assert da.entry.line[0] == "cd4"


def test_a_fen_start_that_equals_a_ballot() -> None:
    """A game set up at an 11-man ballot position gets that ballot at ply 0; a game set up
    at the ballot's removal position gets it after the ballot's two moves."""
    book = load_tables("english")
    ballot = book.classify(positions(
        "english", "9-14 22-18", "B:W19,21,22,23,25,26,27,29,30,31,32:B1,2,3,4,5,6,7,9,10,11,12"))
    assert (ballot.code, ballot.ply) == ("11-man 1", 0)
    played = book.classify(positions(
        "english", "8-11 24-19 9-14",
        "B:W21,22,23,24,25,26,27,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12"))
    assert (played.code, played.ply) == ("11-man 1", 2)


def test_a_ballot_fen_in_a_file() -> None:
    rec = parse_game('[GameType "21"][FEN "B:W19,21,22,23,25,26,27,29,30,31,32:B1,2,3,4,5,6,'
                     '7,9,10,11,12"] 1. 9-14 22-18 *')
    assert classify_record(rec).code == "11-man 1"


def test_a_set_up_line_counts_only_from_its_own_start() -> None:
    """An entry that starts from a FEN is a start, not a destination: the same placement
    reached from the starting position is another entry's business."""
    book = load_tables("english")
    after_two = "B:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"
    import io

    from pdnkit.openings import OpeningBook, read_table

    user = OpeningBook("english", read_table(io.StringIO(
        f'code,fen,moves,source\nu1,"{after_two}",8-11,test\n'), "english", kind="ballot",
        prefix="U "))
    both = book.combined(user)
    from_start = both.classify(positions("english", "11-15 23-19 8-11"))
    assert from_start.code == "ACF 126"
    assert "U u1" not in [m.entry.full_code for m in from_start.matches]
    from_fen = both.classify(positions("english", "8-11", after_two))
    mine = from_fen.deepest(family="table")
    assert mine is not None and mine.entry.full_code == "U u1" and mine.ply == 1
    assert from_fen.code == "ACF 126"  # the same position, by the longer line


def test_the_side_to_move_is_part_of_the_position() -> None:
    """The Edinburgh's placement with Black to move again is not the Edinburgh."""
    book = load_tables("english")
    after = positions("english", "9-13")[-1]
    assert book.lookup(after)[0].name == "Edinburgh"
    assert book.lookup(after.with_side("B")) == ()
    assert book.lookup_bits(square_bits(after.with_side("B"))) == ()


def test_the_deepest_entry_wins_and_code_and_name_may_differ() -> None:
    book = load_tables("english")
    c = book.classify(positions("english", "11-15 23-19 8-11 22-17 9-13 17-14 10x17 19x10 "
                                           "7x14 25-22"))
    assert (c.name, c.ply, c.code) == ("Black Doctor", 9, "ACF 126")
    assert c.deepest(family="names").entry.name == "Black Doctor"  # type: ignore[union-attr]
    assert c.deepest(family="2move").entry.full_code == "2-move 33"  # type: ignore[union-attr]


def test_classify_bits_agrees_with_classify() -> None:
    for variant, line in (("english", "12-16 24-20 10-15 28-24"),
                          ("russian", "cd4 dc5 bc3 fg5 cb4 gh4"),
                          ("international", "32-28 18-23 38-32")):
        book = load_tables(variant)
        pos = positions(variant, line)
        a = book.classify(pos)
        b = book.classify_bits([square_bits(p) for p in pos])
        assert a.classified and (a.code, a.name, a.ply) == (b.code, b.name, b.ply)


def test_international_first_moves_by_name() -> None:
    c = load_tables("international").classify(positions("international", "32-28 18-23"))
    assert (c.code, c.name, c.ply) == ("32-28 18-23", "Chefneux opening", 2)


def test_a_problem_position_is_not_classified() -> None:
    c = load_tables("english").classify(positions("english", "", "W:W19,27,31:B5,12,17"))
    assert not c.classified and c.stopped and c.plies == 0


def test_a_game_recorded_with_the_colours_swapped_is_read_mirrored() -> None:
    """PlayStrategy writes English games with White moving first from the starting
    placement: turned round, 21-17 12-16 is 12-16 21-17."""
    rec = parse_game('[GameType "21"][FEN "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,'
                     '5,6,7,8,9,10,11,12"] 1. 21-17 12-16 2. 17-13 *')
    c = classify_record(rec)
    plain = load_tables("english").classify(positions("english", "12-16 21-17 16-20"))
    assert c.mirrored and (c.code, c.name) == (plain.code, plain.name) == ("ACF 163", "Dundee")
    start = Position.initial(get_rules("english"))
    assert mirror_position(mirror_position(start)) == start


def test_classify_record_reads_records_and_reports() -> None:
    rec = parse_game('[GameType "25"] 1. cd4 dc5 2. bc3 fg5 3. cb4 gh4 *')
    rep = replay(rec)
    assert classify_record(rec).name == classify_record(rep).name == "Городская партия"
    empty = classify_record(parse_game('[GameType "20"] 1. 31-26 *'),
                            book=load_tables("russian"))
    assert not empty.classified


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "club.csv"
    p.write_text(text, encoding="utf-8")
    return p


def test_a_user_table_extends_the_book(tmp_path: Path) -> None:
    p = write(tmp_path, "code,name,moves,flags,source\nc1,Club gambit,"
                        "1. 32-28 18-23 2. 33-29 23x32,ours,our club's book 2020\n")
    user = load_user_table(p, "international", kind="name")
    book = load_tables("international").combined(user)
    c = book.classify(positions("international", "32-28 18-23 33-29 23x32 37x28"))
    assert (c.name, c.ply, c.code) == ("Club gambit", 4, "32-28 18-23")
    assert user.entries[0].flags == ("ours",) and user.entries[0].family == "club"


@pytest.mark.parametrize("text, message", [
    ("code,source\nx,y\n", "lacks the column(s) moves"),
    ("code,moves,source,colour\nx,32-28,y,\n", "unknown column(s) colour"),
    ("code,moves,source\nx,32-28 18-23 32-27,y\n", "row 2 (x): move 3 '32-27' is not legal"),
    ("code,moves,source\nx,32-28,\n", "row 2 (x): the source is empty"),
    ("code,moves,source\n,32-28,y\n", "row 2: the code is empty"),
    ("code,moves,source\nx,32-28,y\nx,33-28,y\n", "row 3: code 'x' repeats row 2"),
    ("code,fen,moves,source\nx,W:W99:B1,,y\n", "row 2: FEN 'W:W99:B1' does not parse"),
    ("code,moves,source\nx,,y\n", "row 2 (x): neither moves nor a FEN"),
])
def test_a_user_table_is_validated_with_clear_errors(tmp_path: Path, text: str,
                                                     message: str) -> None:
    p = write(tmp_path, text)
    with pytest.raises(OpeningTableError) as err:
        load_user_table(p, "international")
    assert str(p) in str(err.value) and message in str(err.value)


def test_a_missing_user_table_is_an_opening_table_error(tmp_path: Path) -> None:
    with pytest.raises(OpeningTableError, match="cannot read the table"):
        load_user_table(tmp_path / "none.csv", "english")


def test_the_book_is_built_once() -> None:
    assert load_tables("english") is load_tables("checkers") is load_tables("21")
    assert load_tables("frisian").entries == ()


def test_a_label_names_each_entry_once_with_its_transliteration() -> None:
    """``entries_label``: a named opening with its transliteration in brackets, a code with
    its name, ``; `` between them, each once (the Кол, I-12 by construction)."""
    import io

    from pdnkit.openings.labels import entries_label
    from pdnkit.openings.table import read_table

    line = "cd4 ba5 dc5 d:b4 a:c5"
    names = read_table(io.StringIO(f"code,name,translit,moves,source\nk,Кол,Kol,{line},a book\n"
                                   f"o,Отказанный кол,,{line},a book\n"), "russian",
                       family="names", kind="name")
    codes = read_table(io.StringIO(f"code,name,moves,source\n12,,{line},a book\n"
                                   f"13,Stake,{line},a book\n"), "russian", family="codes",
                       kind="code", prefix="I-")
    assert entries_label([*names, *codes, *names]) == "Кол (Kol); Отказанный кол; I-12; I-13 Stake"
    assert entries_label(names[:1]) == "Кол (Kol)"
    assert entries_label([]) is None
