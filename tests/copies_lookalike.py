"""A seeded look-alike of the hidden set the copies are judged on, built from the shared real
files: originals; copies of some of them re-encoded (CP1252, CP1251), truncated, annotated,
renamed (other spellings of the same names), re-dated (another precision or format) and
re-wrapped; decoys: other games sharing 24-40 opening plies, the same short main line by
other players, the same players in another round.

:func:`build` writes ``originals/``, ``decoys/`` and ``variants/`` under a folder and
returns what it wrote: which record is a copy of which original, which are decoys."""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pdnkit.pdn import read_games
from pdnkit.pdn.names import parse_name, transliterate
from pdnkit.rules import Position, format_move, get_rules
from pdnkit.rules.notation import match_move

#: real files of tournament games (players, events, dates, rounds), with their variant
SOURCES = (("international/nk2003-amsterdam.pdn", "international"),
           ("international/wk2003.pdn", "international"),
           ("international/PROF2.pdn", "international"),
           ("international/DUTCH96H.pdn", "international"),
           ("russian/abatsiev.pdn", "russian"),
           ("czech/mrcd2006.pdn", "czech"),
           ("english/OCA_2.0.pdn", "english"))
#: players of the decoys (names in no source)
DECOY_NAMES = ["Kowalski, Piotr", "Moreau, Jean", "Okafor, Chidi", "Lindqvist, Sara",
               "Tanaka, Hiro", "Almeida, Rui", "Novak, Petra", "Ivanov, Oleg"]
DRAW = {"international": "1-1", "czech": "1/2-1/2", "russian": "1/2-1/2",
        "english": "1/2-1/2"}


@dataclass
class Game:
    """A record to write: its tags (in order), its moves as written, its result."""

    tags: list[tuple[str, str]]
    moves: list[str]
    result: str
    variant: str
    source: str = ""

    def tag(self, name: str) -> str | None:
        return next((v for k, v in self.tags if k.lower() == name.lower()), None)

    def with_tags(self, **changes: str | None) -> Game:
        out = []
        for k, v in self.tags:
            key = k.lower()
            if key in changes:
                new = changes[key]
                if new is not None:
                    out.append((k, new))
            else:
                out.append((k, v))
        return Game(out, list(self.moves), self.result, self.variant, self.source)

    def text(self, *, wrap: int = 8, comments: dict[int, str] | None = None,
             nags: dict[int, str] | None = None) -> str:
        head = "".join(f'[{k} "{v}"]\n' for k, v in self.tags)
        parts: list[str] = []
        for i, m in enumerate(self.moves):
            if i % 2 == 0:
                parts.append(f"{i // 2 + 1}.")
            parts.append(m)
            if nags and i in nags:
                parts.append(nags[i])
            if comments and i in comments:
                parts.append("{" + comments[i] + "}")
            if wrap and i % wrap == wrap - 1:
                parts.append("\n")
        body = " ".join(parts).replace(" \n ", "\n").replace(" \n", "\n")
        return f"{head}\n{body} {self.result}\n\n"


@dataclass
class LookAlike:
    """What :func:`build` wrote: the files, and for every record (``file-name#N``) of the
    variants the original it copies (``copy_of``); the decoys' places."""

    originals: list[Path] = field(default_factory=list)
    decoys: list[Path] = field(default_factory=list)
    variants: list[Path] = field(default_factory=list)
    copy_of: dict[str, str] = field(default_factory=dict)
    decoy_places: list[str] = field(default_factory=list)
    how: dict[str, str] = field(default_factory=dict)
    events: list[str] = field(default_factory=list)


def _read(shared: Path, rng: random.Random, per_file: int) -> list[Game]:
    """Up to ``per_file`` games of each source with moves, players and a date, each main line
    once (a real file's own repeated games left out)."""
    out: list[Game] = []
    seen: set[tuple[str, ...]] = set()
    for rel, variant in SOURCES:
        path = shared / "real" / rel
        if not path.exists():
            continue
        games = []
        for rec in read_games(path):
            moves = [m.text for m in rec.moves if not m.placeholder]
            tags = [(k, v) for k, v in rec.tags]
            names = {k.lower(): v for k, v in tags}
            if len(moves) < 12 or not names.get("white") or not names.get("black") \
                    or not names.get("date") or tuple(moves) in seen:
                continue
            seen.add(tuple(moves))
            result = rec.result or names.get("result") or "*"
            games.append(Game(tags, moves, result, variant, rel))
        out += rng.sample(games, min(per_file, len(games)))
    return out


def _legal(game: Game, plies: int) -> list[tuple[Position, str]] | None:
    """The positions before each of the first ``plies`` moves, replayed (None where a move
    is not legal or is ambiguous: the game is not used for a decoy)."""
    rules = get_rules(game.variant)
    pos = Position.initial(rules)
    out = []
    for text in game.moves[:plies]:
        found = match_move(pos, text)
        if len(found) != 1:
            return None
        out.append((pos, text))
        pos = pos.play(found[0])
    out.append((pos, ""))
    return out


def _continue(game: Game, keep: int, more: int, rng: random.Random) -> list[str] | None:
    """``game``'s first ``keep`` moves, then ``more`` random legal ones (None where its
    moves cannot be replayed that far)."""
    replayed = _legal(game, keep)
    if replayed is None or len(replayed) <= keep:
        return None
    rules = get_rules(game.variant)
    pos = replayed[-1][0]
    moves = list(game.moves[:keep])
    avoid = game.moves[keep] if len(game.moves) > keep else None
    for i in range(more):
        legal = sorted(pos.legal_moves(), key=lambda m: format_move(m, rules))
        if not legal:
            break
        choices = [m for m in legal if i or format_move(m, rules) != avoid] or legal
        move = rng.choice(choices)
        moves.append(format_move(move, rules))
        pos = pos.play(move)
    return moves


def respell(name: str, rng: random.Random) -> str:
    """Another way to write the same player: order, initials, case, accents, alphabet."""
    options = []
    if any("\u0400" <= ch <= "\u04ff" for ch in name):
        options.append(transliterate(name))
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", name)
                    if not unicodedata.combining(ch))
    if plain != name:
        options.append(plain)
    parsed = parse_name(name)
    if parsed is not None:
        sur = " ".join(w.capitalize() if w not in ("van", "der", "den", "de") else w
                       for w in parsed.surname.split())
        initials = ".".join(i.upper() for i in parsed.initials) + "."
        options += [f"{initials} {sur}", f"{sur}, {initials}"]
        if parsed.given:
            options.append(f"{sur}, {parsed.given[0].capitalize()}")
    options.append(name.upper())
    return rng.choice(options)


def redate(date: str, rng: random.Random) -> str:
    """The same date at another precision or in another format."""
    parts = date.replace("-", ".").replace("/", ".").split(".")
    if len(parts) == 3 and len(parts[0]) == 4:
        y, m, d = parts
        options = [f"{y}"]
        if m.isdigit():
            options += [f"{y}.{m}.??", f"{y}-{m}-{d}" if d.isdigit() else f"{y}-{m}-??"]
            if d.isdigit():
                options.append(f"{int(d)}.{int(m)}.{y}")
        return rng.choice(options)
    return date


def _copy(g: Game, rng: random.Random) -> tuple[Game, str, dict[str, object]]:
    """A copy of ``g`` as another archive holds it, what was done to it, and how to write
    it."""
    how = rng.sample(["truncated", "annotated", "renamed", "re-dated", "re-wrapped",
                      "re-encoded"], rng.randint(1, 3))
    c = Game(list(g.tags), list(g.moves), g.result, g.variant, g.source)
    style: dict[str, object] = {"wrap": 8}
    if "truncated" in how and len(c.moves) >= 30:
        c.moves = c.moves[:rng.randint(20, len(c.moves) - 6)]
        c.result = "*"
        c = c.with_tags(result="*")
    else:
        how = [h for h in how if h != "truncated"] or ["re-wrapped"]
    if "renamed" in how:
        c = c.with_tags(white=respell(c.tag("White") or "", rng),
                        black=respell(c.tag("Black") or "", rng))
    if "re-dated" in how:
        c = c.with_tags(date=redate(c.tag("Date") or "", rng))
    if "annotated" in how:
        n = len(c.moves)
        style["comments"] = {rng.randrange(n): "a book move", rng.randrange(n): "threatens"}
        style["nags"] = {rng.randrange(n): rng.choice(["!", "?", "!?", "$1"])}
    if "re-wrapped" in how:
        style["wrap"] = rng.choice([3, 5, 13, 0])
    return c, "+".join(how), style


def _decoys(originals: list[Game], rng: random.Random) -> list[Game]:
    """Other games sharing 24-40 opening plies, the same short main line by other players,
    the same players in another round."""
    out: list[Game] = []
    long = [g for g in originals if len(g.moves) >= 50]
    rng.shuffle(long)
    for i, g in enumerate(long[: max(3, len(long) // 3)]):
        kind = i % 3
        keep = rng.randint(24, 40)
        if kind == 1:  # the same short book line, played by others years before
            keep = 2 * rng.randint(20, 24)
            moves: list[str] | None = list(g.moves[:keep])
        else:
            moves = _continue(g, keep, rng.randint(12, 30), rng)
        if moves is None:
            continue
        if kind == 2:  # the same players, another round
            rnd = g.tag("Round") or "1"
            other = f"{int(rnd) + 20}" if rnd.isdigit() else f"{rnd}-b"
            tags = g.with_tags(round=other).tags
            if not any(k.lower() == "round" for k, _ in tags):
                tags.append(("Round", other))
            out.append(Game(tags, moves, g.result, g.variant, g.source))
            continue
        w, b = rng.sample(DECOY_NAMES, 2)
        year = rng.randint(1950, 1990)
        tags = [(k, v) for k, v in g.tags if k.lower() not in ("white", "black", "date",
                                                             "event", "round", "result")]
        tags = [("Event", f"Decoy Open {year}"), ("Date", f"{year}.0{rng.randint(1, 9)}.1"
                                                          f"{rng.randint(0, 9)}"),
                ("Round", str(rng.randint(1, 9))), ("White", w), ("Black", b), *tags]
        result = DRAW[g.variant] if kind == 1 else g.result
        out.append(Game([*tags, ("Result", result)], moves, result, g.variant, g.source))
    return out


def build(shared: Path, folder: Path, *, seed: int = 2024, per_file: int = 12,
          copy_share: float = 0.7) -> LookAlike:
    """Write the look-alike under ``folder`` from the real files under ``shared``."""
    rng = random.Random(seed)
    originals = _read(shared, rng, per_file)
    decoys = _decoys(originals, rng)
    out = LookAlike()
    (folder / "originals").mkdir(parents=True)
    (folder / "decoys").mkdir()
    (folder / "variants").mkdir()
    by_source: dict[str, list[Game]] = {}
    for g in originals:
        by_source.setdefault(g.source, []).append(g)
    place: dict[int, str] = {}
    for src, games in by_source.items():
        path = folder / "originals" / Path(src).name
        path.write_text("".join(g.text() for g in games), encoding="utf-8")
        out.originals.append(path)
        for n, g in enumerate(games, 1):
            place[id(g)] = f"{path.name}#{n}"
        out.events += sorted({g.tag("Event") or "" for g in games} - {""})
    path = folder / "decoys" / "decoys.pdn"
    path.write_text("".join(g.text() for g in decoys), encoding="utf-8")
    out.decoys.append(path)
    out.decoy_places = [f"decoys.pdn#{n}" for n in range(1, len(decoys) + 1)]
    copies = [g for g in originals if rng.random() < copy_share]
    texts: dict[str, list[tuple[str, Game, str]]] = {}
    for g in copies:
        c, how, style = _copy(g, rng)
        enc = _legacy(c.text()) if "re-encoded" in how else "utf-8"
        name = f"{Path(g.source).stem}.{enc}.pdn"
        texts.setdefault(name, []).append((c.text(**style), g, how))  # type: ignore[arg-type]
    for name, items in sorted(texts.items()):
        enc = name.split(".")[-2]
        path = folder / "variants" / name
        path.write_bytes("".join(t for t, _, _ in items).encode(enc))
        out.variants.append(path)
        for n, (_, g, how) in enumerate(items, 1):
            out.copy_of[f"{name}#{n}"] = place[id(g)]
            out.how[f"{name}#{n}"] = how
    return out


def _legacy(text: str) -> str:
    """The one-byte encoding an archive of ``text``'s alphabet would use."""
    for enc in ("cp1251", "cp1252", "cp1250"):
        try:
            text.encode(enc)
        except UnicodeEncodeError:
            continue
        if enc != "cp1251" or any("\u0400" <= ch <= "\u04ff" for ch in text):
            return enc
    return "utf-8"


def places(paths: Sequence[Path]) -> list[str]:
    return [p.name for p in paths]
