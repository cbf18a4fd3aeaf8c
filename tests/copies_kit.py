"""Games written by hand for the tests of copies: legal main lines from the rules engine
(seeded), PDN records with the tags a test gives, and the statistics a database of copies
must answer like the database of the originals alone."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

from pdnkit.rules import Position, format_move, get_rules


def random_line(seed: int, plies: int, prefix: Sequence[str] = (),
                variant: str = "international") -> list[str]:
    """A legal main line of ``plies`` plies (fewer where the game ends) that starts with
    ``prefix``, the rest chosen at random from ``seed``: numeric moves as the variant
    writes them."""
    rules = get_rules(variant)
    pos = Position.initial(rules)
    rng = random.Random(seed)
    out: list[str] = []
    for text in prefix:
        move = next(m for m in pos.legal_moves() if format_move(m, rules) == text)
        out.append(text)
        pos = pos.play(move)
    while len(out) < plies:
        legal = pos.legal_moves()
        if not legal:
            break
        move = rng.choice(sorted(legal, key=lambda m: format_move(m, rules)))
        out.append(format_move(move, rules))
        pos = pos.play(move)
    return out


def movetext(moves: Sequence[str], *, comments: dict[int, str] | None = None,
             nags: dict[int, str] | None = None, variations: dict[int, str] | None = None,
             wrap: int = 0) -> str:
    """``moves`` with move numbers (White first), a comment, NAG or variation after the ply
    (0-based) each dict names, and a line break every ``wrap`` plies (0: none)."""
    parts: list[str] = []
    for i, m in enumerate(moves):
        if i % 2 == 0:
            parts.append(f"{i // 2 + 1}.")
        parts.append(m)
        if nags and i in nags:
            parts.append(nags[i])
        if comments and i in comments:
            parts.append("{" + comments[i] + "}")
        if variations and i in variations:
            parts.append("(" + variations[i] + ")")
        if wrap and i % wrap == wrap - 1:
            parts.append("\n")
    return " ".join(parts).replace(" \n ", "\n")


def record(moves: Sequence[str], result: str = "2-0", *, gametype: str | None = "20",
           body: str | None = None, **tags: str) -> str:
    """One PDN game: the tags given (Python names: ``event``, ``white``, ``date`` ...,
    written ``Event``, ``White``, ``Date``), a ``Result`` tag, ``moves`` (or ``body``, a
    ready movetext) and the result."""
    head = "".join(f'[{k.capitalize()} "{v}"]\n' for k, v in tags.items())
    if gametype:
        head += f'[GameType "{gametype}"]\n'
    head += f'[Result "{result}"]\n'
    return f"{head}\n{body if body is not None else movetext(moves)} {result}\n\n"


EVENT = "Club Championship 2003"


NAMES = ["Sijbrands, Ton", "Clerc, Rob", "Wiersma, Harm", "Baliakin, Alexander"]
#: the same names as another archive writes them
OTHER_SPELLING = {"Sijbrands, Ton": "T. Sijbrands", "Clerc, Rob": "R. CLERC",
                  "Wiersma, Harm": "Harm Wiersma", "Baliakin, Alexander": "Baljakin A."}


def tournament_games() -> list[tuple[list[str], str, dict[str, str]]]:
    """A small tournament: six games of four players, each 40-65 plies."""
    out = []
    for i in range(6):
        tags = {"event": EVENT, "date": f"2003.03.{10 + i:02d}", "round": str(i + 1),
                "white": NAMES[i % 4], "black": NAMES[(i + 1 + i // 4) % 4]}
        out.append((random_line(100 + i, 40 + 5 * i), ["2-0", "1-1", "0-2"][i % 3], tags))
    return out


def tournament(folder: Path) -> Path:
    """``folder/originals.pdn``: the tournament's six games."""
    return write(folder / "originals.pdn", *(record(m, r, **t) for m, r, t in tournament_games()))


def tournament_copies(folder: Path) -> Path:
    """The same games as another archive holds them, in CP1252: names and dates written
    otherwise, the second one truncated (its last moves lost, its result open), the third
    annotated, lines wrapped at other places."""
    out = []
    for i, (moves, result, tags) in enumerate(tournament_games()):
        tags = {**tags, "white": OTHER_SPELLING[tags["white"]],
                "black": OTHER_SPELLING[tags["black"]],
                "date": "2003.03.??" if i % 2 else f"{10 + i}.03.2003"}
        if i == 1:
            out.append(record(moves[:36], "*", **tags))
        elif i == 2:
            out.append(record(moves, result, body=movetext(moves, comments={4: "a plan"},
                                                            nags={9: "!"}), **tags))
        else:
            out.append(record(moves, result, body=movetext(moves, wrap=7), **tags))
    return write(folder / "other archive" / "copies.pdn", *out, encoding="cp1252")


def write(path: Path, *games: str, encoding: str = "utf-8") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes("".join(games).encode(encoding))
    return path


def statistics(db: object, event: str | None = None) -> dict[str, object]:
    """What a database answers that copies must not change: players, openings by name,
    results, and the crosstable of ``event`` (as JSON)."""
    from pdnkit.stats import crosstable, named_openings, players, results

    def js(df: object) -> object:
        return json.loads(df.to_json(orient="records", date_format="iso"))  # type: ignore[attr-defined]

    # (whole rows: by name, every code the name's games have, in natural order)
    openings = named_openings(db, by="name")
    out = {"players": js(players(db)), "openings": js(openings),
           "results": js(results(db, by=["variant", "event", "year"]))}
    if event:
        out["crosstable"] = js(crosstable(db, event=event))
    return out


def groups(db: object) -> dict[int, tuple[int | None, str | None]]:
    """``game_id`` -> (``duplicate_of``, ``duplicate_kind``) of every stored record."""
    from pdnkit.store import connect

    con = connect(db, read_only=True)  # type: ignore[arg-type]
    try:
        return {int(g): (d, k) for g, d, k in con.execute(
            "SELECT game_id, duplicate_of, duplicate_kind FROM games ORDER BY 1").fetchall()}
    finally:
        con.close()


def by_location(db: object) -> dict[str, tuple[str | None, str | None]]:
    """``file-name#N`` -> (the location of the record it is a copy of, its kind)."""
    from pdnkit.store import connect

    con = connect(db, read_only=True)  # type: ignore[arg-type]
    try:
        rows = con.execute("""
            SELECT g.game_id, f.path, g.game_index, g.duplicate_of, g.duplicate_kind
            FROM games g JOIN files f USING (file_id)""").fetchall()
    finally:
        con.close()
    loc = {int(g): f"{Path(p).name}#{i + 1}" for g, p, i, _, _ in rows}
    return {loc[int(g)]: (loc[int(d)] if d is not None else None, k)
            for g, _, _, d, k in rows}
