"""Property-based tests: no input makes the reader raise; written games read back the same."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdnkit.pdn import read_games, write_game
from pdnkit.pdn.reader import parse_game
from tests.pdn.helpers import content

PDN_ALPHABET = st.sampled_from(list('0123456789-x:.[]"{}()*/$!?; \n\r\t%abcdefghFENW½\\') +
                               ["1-0", "2-0", "1/2-1/2", "32-28", "[Event \"", "\"]", "/FEN \""])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400))
def test_random_bytes_never_raise(data: bytes) -> None:
    for strict in (False, True):
        games = list(read_games(data, strict=strict))
        for g in games:
            assert isinstance(g.raw, str)
            write_game(g)  # writing whatever was read never raises either


@settings(max_examples=300, deadline=None)
@given(st.lists(PDN_ALPHABET, max_size=80).map("".join))
def test_pdn_like_text_never_raises(text: str) -> None:
    games = list(read_games(text))
    for g in games:
        assert g.parsed or any(f.code == "syntax-error" for f in g.findings)


square = st.integers(1, 50).map(str)
move = st.builds(lambda a, sep, b: f"{a}{sep}{b}", square, st.sampled_from(["-", "x"]),
                 square).filter(lambda m: m not in ("1-1", "2-0", "0-2", "1-0", "0-1"))
comment = st.text(st.characters(blacklist_characters="{}", blacklist_categories=["Cs"]),
                  max_size=20).map(lambda t: "{" + t + "}")
element = st.one_of(move, move, move, comment, st.integers(0, 255).map(lambda n: f"${n}"))


@st.composite
def games(draw: st.DrawFn) -> str:
    tags = draw(st.lists(st.tuples(st.sampled_from(["Event", "White", "Black", "Site", "X1"]),
                                   st.text(st.characters(blacklist_categories=["Cs", "Cc"]),
                                           max_size=12)), max_size=4))
    head = "".join('[{} "{}"]\n'.format(k, v.replace("\\", "\\\\").replace('"', '\\"'))
                   for k, v in tags)
    body = []
    for i in range(draw(st.integers(0, 30))):
        if i % 2 == 0:
            body.append(f"{i // 2 + 1}.")
        body.append(draw(element))
        if draw(st.integers(0, 9)) == 0:
            body.append("(" + " ".join(draw(st.lists(move, min_size=1, max_size=3))) + ")")
    result = draw(st.sampled_from(["2-0", "0-2", "1-1", "1/2-1/2", "*", ""]))
    return head + " ".join(body) + " " + result


@settings(max_examples=200, deadline=None)
@given(games())
def test_generated_games_round_trip(text: str) -> None:
    g = parse_game(text)
    assert g.parsed, (text, g.findings)
    out = write_game(g)
    again = parse_game(out)
    assert content(again) == content(g)
    assert write_game(again) == out
