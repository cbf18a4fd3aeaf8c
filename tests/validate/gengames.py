"""Seeded games for the verdict's and the batch's tests: random legal games of a variant
with right, wrong and unknown results, edges a game may gain, the games of a real file."""

from __future__ import annotations

import random
import re
from pathlib import Path

from pdnkit.rules import Position, get_rules
from pdnkit.rules.notation import canonical_notation

TOKENS = ("2-0", "0-2", "1-1", "1-0", "0-1", "1/2-1/2", "*", "0-0")
DATES = ("2001.02.03", "1970.4.2", "13-01-1996", "1841-??-??", "2001.02.??", "????.??.??",
         "2000.02.29", "2001.02.29", "1900.02.29", "2001", "2001.", "3.2.2001", "",
         "2001/02/03", "0999.01.01", "2001.13.01", "summer")


def random_game(rules_name: str, gametype: int, rng: random.Random) -> str:
    """A random legal game of the variant (moves in its own notation, numbered), with a
    result that is right, wrong or unknown, in either scoring, in the tag, the terminator
    or both."""
    rules = get_rules(rules_name)
    pos = Position.initial(rules)
    words: list[str] = []
    plies = rng.choice((rng.randint(1, 12), rng.randint(20, 200)))
    number, first = 1, True
    for _ in range(plies):
        legal = pos.legal_moves()
        if not legal:
            break
        move = rng.choice(legal)
        if first or pos.side == rules.first_mover:
            words.append(f"{number}." if pos.side == rules.first_mover else f"{number}...")
        words.append(canonical_notation(move, pos, legal))
        if pos.side != rules.first_mover:
            number += 1
        first = False
        pos = pos.play(move)
    winner = pos.winner() if pos.is_terminal() else None
    if winner is not None and rng.random() < 0.7:
        white = int(winner) == 0
        token = rng.choice(("2-0", "1-0") if white else ("0-2", "0-1"))
        if rules.first_mover == 1 and rng.random() < 0.5:  # the first mover's number first
            token = token[::-1]
    else:
        token = rng.choice(TOKENS)
    tag = rng.choice((token, token, token, token, None, "*", rng.choice(TOKENS)))
    date = rng.choice(DATES[:7] if rng.random() < 0.8 else DATES)
    tags = [("Event", "Gen"), ("Date", date), ("White", rng.choice(("A", ""))),
            ("Black", "B"), ("GameType", str(gametype))]
    if tag is not None:
        tags.insert(4, ("Result", tag))
    rng.shuffle(tags)
    head = "".join(f'[{k} "{v}"]\n' for k, v in tags)
    return f"{head}\n{' '.join(words)} {token}\n"


#: tags a game may gain: unread ones, read ones, a repeated one
EXTRA = ("Annotator", "ECO", "Opening", "UTCTime", "Termination", "TimeControl", "WhiteElo",
          "Event", "EVENT", "Site", "PlyCount", "SetUp", "Variant", "P1", "Bianco")


def moves(game: str) -> int:
    """The moves of a game's text (what a right PlyCount says)."""
    words = game.split("\n\n", 1)[-1].split()[:-1]  # (the result left out)
    square = r"(?:[0-9]{1,2}|[a-l][0-9]{1,2})"
    return sum(bool(re.fullmatch(f"{square}(?:[-x:]{square})+", w)) for w in words)


#: one edge each: a change to a game the verdict may take
EDGES = [
    lambda g, r: g.replace("\n", "\r\n"),
    lambda g, r: re.sub(r'\[Date "[^"]*"\]', f'[Date "{r.choice(DATES)}"]', g),
    lambda g, r: re.sub(r'\[Result "[^"]*"\]\n', "", g),
    lambda g, r: g.replace('"2-0"', '"1-0"').replace(" 2-0\n", " 1-0\n")
    .replace('"0-2"', '"0-1"').replace(" 0-2\n", " 0-1\n"),
    lambda g, r: g.replace('"1-1"', '"1/2-1/2"').replace(" 1-1\n", " 1/2-1/2\n"),
    lambda g, r: re.sub(r'\[Result "[^"]*"\]', '[Result "*"]', g),
    lambda g, r: g.replace("[Event ", f'[{r.choice(EXTRA)} "x"]\n[Event ', 1),
    lambda g, r: g.replace("[Event ", f'[PlyCount "{moves(g) + r.choice((0, 0, 1, -1))}"]'
                           "\n[Event ", 1),
    lambda g, r: re.sub(r'\[White "[^"]*"\]', f'[White "{r.choice(NAMES)}"]', g),
    lambda g, r: "".join("\t" if c == " " and r.random() < 0.3 else c for c in g),
    lambda g, r: g,
]

#: player names beyond ASCII: accents, Cyrillic, a C1 control, a line separator, a wide
#: character, a mark that combines
NAMES = ("Müller", "Đorđe", "Фёдор", "A\x85B", "A\u2028B", "李", "e\u0301", "Ω ", " ")


def real_games(path: Path) -> list[str]:
    """The games of a real file: its text (CR LF read as LF) cut before each tag line
    that follows a line which is no tag line."""
    text = path.read_bytes().decode("utf-8", "replace").replace("\r\n", "\n")
    parts = re.split(r"(?<=\n)(?=\[)(?<!\]\n)", text)
    return [p.strip("\n") + "\n" for p in parts if p.strip()]


#: the GameType of each folder of the real files
FOLDERS = {"international": 20, "english": 21, "italian": 22, "russian": 25,
            "brazilian": 26, "czech": 29, "frisian": 40, "frysk": 97, "antidraughts": 98}
