"""Re-render PDN games in the dialects other exporters write, and compare what is read.

A clean file is read into :class:`Game` structures (its tags as read, and its movetext as
written); :func:`render` writes them again through any set of transformations, chosen by
name from :data:`TRANSFORMS` (each stands for one way exporters lay PDN out: line ends,
literal ``\\r`` text, games on one line, indented or broken tags, a missing bracket, junk
between games, tag names in another language, HTML character references, a missing or odd
terminator, move numbers written another way, a byte order mark, a legacy encoding). Every
choice comes from a seeded random generator, so a case is reproducible from its seed.

:func:`view` is what must not change: per game, the fields the tag mapping gives, the
main-line moves (squares and move numbers), and what the validator makes of the game
(variant, result, plies replayed, final position, finding codes less those the dialect
explains).

Used by ``tests/pdn/test_dialects.py`` and ``benchmarks/dialects.py``.
"""

from __future__ import annotations

import io
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pdnkit.pdn import read_games
from pdnkit.pdn.tags import game_tags
from pdnkit.validation import validate

#: a clean tag pair at the head of a game's raw text
_HEAD_TAG = re.compile(r'\s*\[[ \t]*[A-Za-z_][\w\-]*[ \t]+"(?:[^"\\\n]|\\.)*"[ \t]*\]')
#: the result token that ends a movetext (a king move such as 1-18 is not one)
_TERMINATOR = re.compile(
    r"(?<![\w/\-.:*])(2-0|0-2|1-1|0-0|1-0|0-1|1/2-1/2|\*)(?![\w/\-.:*])\s*\Z")
_MEANING = {"2-0": "first", "1-0": "first", "0-2": "second", "0-1": "second", "1-1": "draw",
            "1/2-1/2": "draw"}
#: the movetext's tokens: comments, line comments, escape lines, setups, words, space
_TOKEN = re.compile(r"\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}|;[^\n]*|(?m:^%[^\n]*)|/[ \t]*FEN[ \t]*\"[^\"\n]*\"[ \t]*/"
                    r"|\(|\)|[^\s(){};]+|\s+|.")
_MOVE = re.compile(r"(?:\d{1,2}(?:[-x:]\d{1,2})+|[a-l]\d{1,2}(?:[-x:]?[a-l]\d{1,2})+)\*?")
_NUMBER = re.compile(r"(\d{1,9})(\.{1,3})")
_NUMBERED = re.compile(r"(\d{1,9}\.{1,3})(?=[\da-l])")

#: tag names in other languages, from the tag mapping (``pdnkit/pdn/tags.py``); Italian is
#: left out on purpose (its names imply the variant when a game has no GameType)
LANGUAGES: dict[str, dict[str, str]] = {
    "fr": {"Event": "Événement", "Site": "Lieu", "Round": "Manche", "White": "Blanc",
           "Black": "Noir", "Result": "Résultat", "GameType": "Type de jeu"},
    "de": {"Event": "Turnier", "Site": "Ort", "Round": "Runde", "White": "Weiß",
           "Black": "Schwarz", "Result": "Ergebnis", "Date": "Datum"},
    "pt": {"Event": "Evento", "Site": "Local", "Round": "Rodada", "White": "Brancas",
           "Black": "Pretas", "Result": "Resultado", "Date": "Data"},
    "pl": {"Event": "Turniej", "White": "Białe", "Black": "Czarne", "Result": "Wynik",
           "Round": "Runda"},
    "ru": {"Event": "Турнир", "White": "Белые", "Black": "Черные", "Result": "Результат",
           "Date": "Дата", "Round": "Тур"},
    "uk": {"Event": "Турнір", "White": "Білі", "Black": "Чорні", "Result": "Результат",
           "Site": "Місце"},
    "nl": {"Event": "Toernooi", "White": "Wit", "Black": "Zwart", "Result": "Uitslag",
           "Site": "Plaats", "Round": "Ronde", "Date": "Datum"},
}
_JUNK = ("[Empty]", "[", "--- page {n} ---", "Page {n}", "----------", "[ ]")


@dataclass
class Game:
    """One game of a clean file: its tags (name, value as read), its movetext as written
    (without its terminator) and its terminator (``None``: none)."""

    tags: list[tuple[str, str]]
    moves: str
    terminator: str | None
    result_tag: str | None = None


@dataclass
class Options:
    """What :func:`render` does; built by :func:`options` from transform names."""

    line_end: str = "\n"  # "\n", "\r\n", "\r", "mixed", "esc-r", "esc-rn"
    layout: str = "lines"  # "lines", "game-line", "one-line"
    indent: bool = False
    blank_in_tags: bool = False
    split_tags: bool = False
    missing_bracket: bool = False
    junk: bool = False
    names: bool = False
    entities: bool = False
    terminator: str = "keep"  # "keep", "missing", "dash", "glued"
    numbers: bool = False
    encoding: str = "utf-8"  # "utf-8", "bom", "legacy"
    explains: set[str] = field(default_factory=set)


#: transform name -> (dimension, how it sets the options, the finding codes it explains)
TRANSFORMS: dict[str, tuple[str, Callable[[Options], None], frozenset[str]]] = {}


def _transform(name: str, dim: str, explains: Iterable[str] = ()) -> Callable[[Callable[[Options], None]], Callable[[Options], None]]:
    def deco(fn: Callable[[Options], None]) -> Callable[[Options], None]:
        TRANSFORMS[name] = (dim, fn, frozenset(explains))
        return fn
    return deco


for _name, _end in (("crlf", "\r\n"), ("cr", "\r"), ("mixed-line-ends", "mixed")):
    TRANSFORMS[_name] = ("line-end", lambda o, e=_end: setattr(o, "line_end", e), frozenset())
TRANSFORMS["escaped-r"] = ("line-end", lambda o: setattr(o, "line_end", "esc-r"),
                           frozenset({"escaped-line-ends"}))
TRANSFORMS["escaped-rn"] = ("line-end", lambda o: setattr(o, "line_end", "esc-rn"),
                            frozenset({"escaped-line-ends"}))
TRANSFORMS["game-on-one-line"] = ("layout", lambda o: setattr(o, "layout", "game-line"),
                                  frozenset())
TRANSFORMS["all-on-one-line"] = ("layout", lambda o: setattr(o, "layout", "one-line"),
                                 frozenset())
TRANSFORMS["indented-tags"] = ("indent", lambda o: setattr(o, "indent", True), frozenset())
TRANSFORMS["blank-lines"] = ("blank", lambda o: setattr(o, "blank_in_tags", True),
                             frozenset())
TRANSFORMS["split-tags"] = ("split", lambda o: setattr(o, "split_tags", True), frozenset())
TRANSFORMS["missing-bracket"] = ("bracket", lambda o: setattr(o, "missing_bracket", True),
                                 frozenset({"unknown-tag-syntax"}))
TRANSFORMS["junk-lines"] = ("junk", lambda o: setattr(o, "junk", True),
                            frozenset({"ignored-text", "unreadable-text"}))
TRANSFORMS["foreign-names"] = ("names", lambda o: setattr(o, "names", True), frozenset())
TRANSFORMS["html-entities"] = ("entities", lambda o: setattr(o, "entities", True),
                               frozenset({"html-entities"}))
TRANSFORMS["no-terminator"] = ("terminator", lambda o: setattr(o, "terminator", "missing"),
                               frozenset({"missing-terminator"}))
TRANSFORMS["dash-terminator"] = ("terminator", lambda o: setattr(o, "terminator", "dash"),
                                 frozenset({"lone-dash-result"}))
TRANSFORMS["glued-terminator"] = ("terminator", lambda o: setattr(o, "terminator", "glued"),
                                  frozenset())
TRANSFORMS["move-numbers"] = ("numbers", lambda o: setattr(o, "numbers", True), frozenset())
TRANSFORMS["bom"] = ("encoding", lambda o: setattr(o, "encoding", "bom"), frozenset())
TRANSFORMS["legacy-encoding"] = ("encoding", lambda o: setattr(o, "encoding", "legacy"),
                                 frozenset({"encoding-fallback"}))


def options(names: Sequence[str]) -> Options:
    """The options for a set of transform names (one per dimension)."""
    opts = Options()
    seen: set[str] = set()
    for name in names:
        dim, fn, explains = TRANSFORMS[name]
        if dim in seen:
            raise ValueError(f"two transforms of one kind: {names}")
        seen.add(dim)
        fn(opts)
        opts.explains |= explains
    return opts


def combinations(seed: int, count: int, size: tuple[int, int] = (2, 5)) -> list[tuple[str, ...]]:
    """``count`` random sets of transforms (one per dimension), from ``seed``."""
    rng = random.Random(seed)
    by_dim: dict[str, list[str]] = {}
    for name, (dim, _, _) in TRANSFORMS.items():
        by_dim.setdefault(dim, []).append(name)
    out = []
    for _ in range(count):
        dims = rng.sample(sorted(by_dim), rng.randint(*size))
        out.append(tuple(sorted(rng.choice(by_dim[d]) for d in dims)))
    return out


# ------------------------------------------------------------------------------------------
# reading a clean file


def clean_games(path: Path) -> list[Game] | None:
    """The games of a clean file, or None when a game's raw text is not tags then movetext
    (the file is then left out of the matrix)."""
    out = []
    for rec in read_games(path):
        raw = rec.raw
        pos = 0
        n = 0
        while True:
            m = _HEAD_TAG.match(raw, pos)
            if m is None:
                break
            pos = m.end()
            n += 1
        if n != len(rec.tags):
            return None
        moves = raw[pos:].strip()
        term = None
        m = _TERMINATOR.search(moves)
        if m is not None:
            term = m.group(1)
            moves = moves[:m.start()].rstrip()
        out.append(Game(list(rec.tags), moves, term, game_tags(rec).result))
    return out


# ------------------------------------------------------------------------------------------
# writing a dialect


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _entities(value: str, rng: random.Random) -> str:
    out = []
    for ch in value:
        if ch == "&":
            out.append("&amp;")
        elif ord(ch) > 127:
            out.append(f"&#x{ord(ch):04x};" if rng.random() < 0.5 else f"&#{ord(ch)};")
        elif ch == "'" and rng.random() < 0.5:
            out.append("&#39;")
        elif ch.isalpha() and rng.random() < 0.1:
            out.append(f"&#{ord(ch)};")
        else:
            out.append(ch)
    return "".join(out)


def _name_entities(name: str) -> str:
    return "".join(f"&#x{ord(c):04x};" if ord(c) > 127 else c for c in name)


def _tag_lines(game: Game, o: Options, rng: random.Random) -> list[str]:
    lang = LANGUAGES[rng.choice(sorted(LANGUAGES))] if o.names else {}
    lines = []
    for name, value in game.tags:
        name = lang.get(name, name)
        if o.entities and rng.random() < 0.5:
            name = _name_entities(name)
        value = _escape(value)
        if o.entities:
            value = _entities(value, rng)
        lines.append([name, value])
    missing = rng.randrange(len(lines)) if o.missing_bracket and lines else -1
    out = []
    for i, (name, value) in enumerate(lines):
        if i == missing:
            text = f'{name} "{value}"]' if rng.random() < 0.5 else f'[{name} "{value}"'
        elif o.split_tags and rng.random() < 0.4:
            text = rng.choice([f'[\n{name} "{value}"]', f'[{name}\n"{value}"]',
                               f'[{name} "{value}"\n]'])
        else:
            text = f'[{name} "{value}"]'
        if o.indent:
            text = rng.choice(["\t", "  ", "    ", " \t"]) + text
        out.append(text)
        if o.blank_in_tags and rng.random() < 0.3:
            out.append("\n" * rng.randint(0, 1))
    return out


def _renumber(moves: str, rng: random.Random, dots_ok: bool = True) -> str:
    """The movetext with its main line's move numbers written another way: glued to the
    move (``1.32-28``), apart from it (``1. 32-28``), and the second move of a pair numbered
    with three dots (``1... 19-23``)."""
    glue = rng.random() < 0.5
    dots = rng.random() < 0.7 and dots_ok
    out: list[str] = []
    depth = 0
    number: str | None = None
    after_number = 0  # main-line moves since the last move number
    for m in _TOKEN.finditer(moves):
        tok = m.group()
        if tok == "(":
            depth += 1
        elif tok == ")":
            depth = max(0, depth - 1)
        if depth or tok == ")" or tok.isspace() or tok[0] in "{;%/":
            out.append(tok)
            continue
        nm = _NUMBERED.match(tok)
        if nm is not None and _MOVE.fullmatch(tok[nm.end():]):
            number = _NUMBER.match(tok).group(1)  # type: ignore[union-attr]
            out.append(tok if glue else nm.group(1) + " " + tok[nm.end():])
            after_number = 1
            continue
        nb = _NUMBER.fullmatch(tok)
        if nb is not None:
            number = nb.group(1)
            out.append(tok if not glue else tok + "\x00")  # glued to the next move below
            after_number = 0
            continue
        if _MOVE.fullmatch(tok):
            if after_number == 1 and number is not None and dots:
                out.append(f"{number}... ")
            after_number += 1
        out.append(tok)
    text = "".join(out)
    text = re.sub(r"\x00\s+(?=\d{1,2}[-x:]\d|[a-l]\d)", "", text)  # glued to a move only
    return text.replace("\x00", "")


def render(games: Sequence[Game], names: Sequence[str], seed: int,
           legacy: str | None = None, irregular: Iterable[int] = ()) -> bytes:
    """The games written again through the transforms ``names`` (choices from ``seed``);
    ``legacy`` is the legacy codec for ``legacy-encoding``; ``irregular`` the games whose
    move numbers do not follow the sides (``move-number-mismatch`` in the clean file: each
    jump of a multi-jump written as a ply), where ``N...`` would say more than the file
    does."""
    irregular = set(irregular)
    o = options(names)
    rng = random.Random(seed)
    blocks: list[str] = []
    for i, game in enumerate(games):
        tags = _tag_lines(game, o, rng)
        moves = _renumber(game.moves, rng, i not in irregular) if o.numbers else game.moves
        term = game.terminator
        given = _MEANING.get(term or "") is not None and game.result_tag is not None \
            and _MEANING.get(game.result_tag.strip()) == _MEANING.get(term or "")
        if o.terminator in ("missing", "dash") and given and moves and i + 1 < len(games):
            term = None if o.terminator == "missing" else "-"
        body = moves + ((" " if moves else "") + term if term else "")
        parts = tags + ([""] if tags and body and o.layout == "lines" else []) + [body]
        if o.layout != "lines" and not re.search(r"(?m);|^%", body):
            text = " ".join(p.replace("\n", " ") for p in parts if p.strip())
        else:
            text = "\n".join(parts)
        blocks.append(text)
    out: list[str] = []
    for i, text in enumerate(blocks):
        if i:
            glued = o.terminator == "glued" and games[i - 1].terminator is not None
            one = o.layout == "one-line" and not re.search(r"(?m);|^%", blocks[i - 1])
            if glued and one:
                sep = ""
            elif one:
                sep = " "
            else:
                sep = "\n" * (rng.randint(2, 4) if o.blank_in_tags else 2)
                if glued:
                    sep = ""
            if o.junk and rng.random() < 0.5 and not (one or glued):
                junk = rng.choice(_JUNK).format(n=rng.randint(1, 99))
                sep = f"\n{junk}\n" + ("\n" if rng.random() < 0.5 else "")
            out.append(sep)
        out.append(text)
    text = "".join(out) + "\n"
    text = _line_ends(text, o.line_end, rng)
    if o.encoding == "bom":
        return b"\xef\xbb\xbf" + text.encode("utf-8")
    if o.encoding == "legacy" and legacy:
        return text.encode(legacy)
    return text.encode("utf-8")


def _line_ends(text: str, how: str, rng: random.Random) -> str:
    if how == "\n":
        return text
    if how in ("\r\n", "\r"):
        return text.replace("\n", how)
    if how == "esc-r":
        return text.replace("\n", "\\r\n")
    if how == "esc-rn":
        return text.replace("\n", "\\r\\n\n")
    return "".join(line + rng.choice(["\n", "\r\n", "\r"])
                   for line in text.split("\n")[:-1])


def legacy_codec(games: Sequence[Game]) -> str | None:
    """The legacy codec a file can be written in (CP1251 for Cyrillic text, else CP1252),
    None when its text has characters neither holds."""
    text = "".join(v for g in games for _, v in g.tags) + "".join(g.moves for g in games)
    for codec in ("cp1251", "cp1252") if re.search("[\u0400-\u04ff]", text) else ("cp1252",):
        try:
            text.encode(codec)
            return codec
        except UnicodeEncodeError:
            continue
    return None


def applicable(name: str, games: Sequence[Game]) -> bool:
    """Whether a transform can be applied to a file at all."""
    if name == "legacy-encoding":
        return legacy_codec(games) is not None
    return True


# ------------------------------------------------------------------------------------------
# what must not change


def _effective_numbers(moves: Iterable[Any]) -> list[tuple[int | None, tuple[str, ...]]]:
    out = []
    number = None
    for m in moves:
        if m.number is not None:
            number = m.number
        out.append((number, tuple(str(int(s)) if s.isdigit() else s for s in m.squares)))
    return out


def view(data: bytes | Path) -> list[dict[str, Any]]:
    """Per game, what a dialect must not change (see the module doc)."""
    out = []
    for rep in validate(io.BytesIO(data) if isinstance(data, bytes) else data):
        rec = rep.record
        assert rec is not None
        t = game_tags(rec)
        out.append({
            "tags": (t.white, t.black, t.event, t.site, t.date_raw, t.round, t.result,
                     t.gametype, t.variant, t.fen),
            "moves": _effective_numbers(rec.moves),
            "variant": rep.variant, "result": rep.result, "outcome": rep.outcome,
            "plies": rep.ply_count, "replayed": rep.replayed_plies,
            "final": rep.final_fen, "codes": Counter(f.code for f in rep.findings)})
    return out


def read_view(data: bytes | Path) -> list[dict[str, Any]]:
    """Per game, what a dialect must not change, as the reader gives it (no replay): the
    fields of the tag mapping, the main-line moves, the result as written (the result tag
    under any name, else the terminator) and the reading finding codes."""
    out = []
    for rec in read_games(data):
        t = game_tags(rec)
        out.append({
            "tags": (t.white, t.black, t.event, t.site, t.date_raw, t.round, t.result,
                     t.gametype, t.variant, t.fen),
            "moves": _effective_numbers(rec.moves),
            "result": t.result or rec.result, "parsed": rec.parsed,
            "codes": Counter(f.code for f in rec.findings)})
    return out


def _less(game: dict[str, Any], explains: Iterable[str]) -> dict[str, Any]:
    codes = Counter(game["codes"])
    for code in explains:
        codes.pop(code, None)
    return {**game, "codes": codes}


def compare(clean: list[dict[str, Any]], got: list[dict[str, Any]],
            explains: Iterable[str] = ()) -> tuple[list[bool], list[str]]:
    """(per clean game: read equal?, what differs) between two views, game for game in
    file order; finding codes the dialect explains are left out on both sides."""
    explains = set(explains)
    diffs = []
    same = [False] * len(clean)
    if len(clean) != len(got):
        diffs.append(f"{len(got)} games read, {len(clean)} in the clean file")
        return same, diffs
    for i, (a, b) in enumerate(zip(clean, got, strict=True)):
        a, b = _less(a, explains), _less(b, explains)
        if a == b:
            same[i] = True
            continue
        keys = [k for k in a if a[k] != b[k]]
        diffs.append(f"game {i + 1}: " + "; ".join(f"{k}: {a[k]!r} -> {b[k]!r}" for k in keys))
    return same, diffs
