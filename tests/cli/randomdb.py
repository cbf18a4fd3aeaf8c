"""Databases of seeded random games for the comparisons of the quick forms with the Typer
commands: legal main lines from the rules engine in a few variants (one where Black moves
first), shared first moves so the explorer has branches, players with aliases and ratings,
events, whole and partial dates, results of every kind, imported by ``pdnkit import``."""

from __future__ import annotations

import random
from pathlib import Path

from pdnkit.rules import get_rules
from tests.cli.helpers import cli
from tests.copies_kit import random_line, record

#: the variants of a generated database (English: Black moves first)
VARIANTS = ("international", "english", "russian")
PLAYERS = ("Ann Lee", "Bob Stone", "Cor Smit", "Dana Wu", "Eve Roe", "Fay Moss", "=Gil")
EVENTS = ("Cup 2020", "Open", "Zonal, round 2")


def _date(rng: random.Random) -> str:
    year = rng.randint(1990, 2024)
    return rng.choice([f"{year}.{rng.randint(1, 12):02d}.{rng.randint(1, 28):02d}",
                       f"{year}.??.??", f"{year}.{rng.randint(1, 12):02d}.??", "????.??.??"])


def games_text(seed: int, count: int, variant: str) -> str:
    """``count`` random games of ``variant`` from ``seed``: most begin with one of a few
    first moves (so positions recur), some are short, one in ten has no result known."""
    rng = random.Random(seed)
    rules = get_rules(variant)
    starts = [random_line(seed * 7 + k, 2, variant=variant) for k in range(3)]
    out = []
    for i in range(count):
        prefix = rng.choice(starts)[:rng.randint(0, 2)] if rng.random() < 0.8 else []
        moves = random_line(seed * 1000 + i, rng.randint(1, 40), prefix, variant=variant)
        result = rng.choice(["1-0", "0-1", "1/2-1/2", "1-0", "0-1", "*"])
        white, black = rng.sample(PLAYERS, 2)
        tags = {"event": rng.choice(EVENTS), "white": white, "black": black,
                "date": _date(rng)}
        if rng.random() < 0.5:
            tags["whiteelo"] = str(rng.randint(1800, 2500))
            tags["blackelo"] = str(rng.randint(1800, 2500))
        out.append(record(moves, result, gametype=str(rules.gametype), **tags))
    return "".join(out)


def build_random(folder: Path, seed: int, count: int = 40,
                 variants: tuple[str, ...] = VARIANTS) -> Path:
    """The database ``folder / "random.duckdb"``: ``count`` random games of each of
    ``variants`` (one file each), imported, and an alias."""
    src = folder / "src"
    src.mkdir(parents=True)
    for k, variant in enumerate(variants):
        (src / f"{variant}.pdn").write_text(games_text(seed + k, count, variant),
                                            encoding="utf-8")
    db = folder / "random.duckdb"
    code, _, err = cli("import", src, "--db", db, "--quiet")
    assert code in (0, 1), err
    code, _, err = cli("players", "alias", "Cor Smit", "--as", "Ann Lee", "--db", db)
    assert code == 0, err
    return db
