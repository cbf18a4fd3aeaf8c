"""Re-render PDN games in the dialects other exporters write, and compare what is read.

A clean file is read into :class:`Game` structures (its tags as read, and its movetext as
written); :func:`render` writes them again through any set of transformations, chosen by
name from :data:`TRANSFORMS` (each stands for one way exporters lay PDN out: line ends,
literal ``\\r`` text, games on one line, indented or broken tags, a missing bracket, junk
between games, tag names in another language, HTML character references, a missing or odd
terminator, move numbers written another way, a byte order mark, a legacy encoding). Every
choice comes from a seeded random generator, so a case is reproducible from its seed. The
notation transforms write the moves another way: squares in upper case, zero-padded, each
capture with ``x``, ``:`` or ``-``, with its full path or the short one, and (English) the
board turned round as PlayStrategy writes it (the first mover at the bottom, ``1. c3-d4``),
the last three from the clean game's replay (:func:`attach_replays`); the tag transforms
space a tag's value from its name with nothing, several spaces or a tab.

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
from pdnkit.rules import list_variants
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


@dataclass(frozen=True)
class Ply:
    """A main-line ply of a clean game as the validator replayed it: its squares (origin,
    landings, destination), whether it captures, and its canonical notation."""

    path: tuple[int, ...]
    capture: bool
    canonical: str


@dataclass
class Game:
    """One game of a clean file: its tags (name, value as read), its movetext as written
    (without its terminator) and its terminator (``None``: none); after
    :func:`attach_replays`, its variant and main-line plies (``None`` where a move of the
    main line was not replayed as one move: the notation transforms leave it as written)
    and whether the board may be written turned round for it (``turnable``)."""

    tags: list[tuple[str, str]]
    moves: str
    terminator: str | None
    result_tag: str | None = None
    variant: str | None = None
    plies: list[Ply] | None = None
    turnable: bool = False


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
    tag_gap: str = " "  # between a tag's name and its value: "", " ", "   ", "\t"
    upper: bool = False  # alphanumeric squares in upper case
    turned: bool = False  # squares written from the first mover's side (algebraic)
    padded: bool = False  # numeric squares below 10 zero-padded
    separator: str | None = None  # every capture written with "x", ":" or "-"
    paths: str | None = None  # captures with their "full" path, or "short" where enough
    explains: set[str] = field(default_factory=set)

    @property
    def squares_changed(self) -> bool:
        """The squares as written change (not what they mean): the main-line moves are
        compared as replayed (``canonical``, ``final``), not as written."""
        return self.turned or self.paths is not None

    @property
    def ignore(self) -> frozenset[str]:
        """The keys of :func:`view` a dialect changes by design."""
        keys = {"moves"} if self.squares_changed else set()
        if self.turned or self.separator is not None:
            keys.add("type_tags")  # the GameType tag an exporter adds (_names_its_variant)
        return frozenset(keys)


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
# notation: how tag pairs are spaced and moves written (each cell must read as the clean file)
for _name, _gap in (("tag-no-space", ""), ("tag-spaces", "   "), ("tag-tab", "\t")):
    TRANSFORMS[_name] = ("tag-gap", lambda o, g=_gap: setattr(o, "tag_gap", g), frozenset())
TRANSFORMS["upper-case-squares"] = ("case", lambda o: setattr(o, "upper", True),
                                    frozenset({"strict-violation"}))
TRANSFORMS["board-turned"] = ("orientation", lambda o: setattr(o, "turned", True),
                              frozenset({"board-turned", "variant-guessed"}))
TRANSFORMS["zero-padded"] = ("padding", lambda o: setattr(o, "padded", True), frozenset())
for _name, _sep, _why in (("captures-x", "x", ("variant-guessed",)),
                          ("captures-colon", ":", ("variant-guessed",)),
                          ("captures-dash", "-", ("notation-mismatch", "strict-violation",
                                                  "variant-guessed"))):
    TRANSFORMS[_name] = ("separator", lambda o, x=_sep: setattr(o, "separator", x),
                         frozenset(_why))
TRANSFORMS["full-paths"] = ("paths", lambda o: setattr(o, "paths", "full"), frozenset())
TRANSFORMS["short-paths"] = ("paths", lambda o: setattr(o, "paths", "short"), frozenset())


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
            text = f'[{name}{o.tag_gap}"{value}"]'
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
        if _names_its_variant(game, o):
            # the squares or separators written were what the variant was told by: the
            # exporter names it (a GameType tag)
            from pdnkit.rules import get_rules

            gametype = get_rules(str(game.variant)).gametype
            game = Game([*game.tags, ("GameType", str(gametype))], game.moves,
                        game.terminator, game.result_tag, game.variant, game.plies,
                        game.turnable)
        tags = _tag_lines(game, o, rng)
        moves = _renotate(game, o) if _notation_changes(o) else game.moves
        moves = _renumber(moves, rng, i not in irregular) if o.numbers else moves
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
    """Whether a transform can be applied to a file at all (a notation transform: to one
    of its games at least)."""
    if name == "legacy-encoding":
        return legacy_codec(games) is not None
    tokens = [m.group() for g in games for m in _TOKEN.finditer(g.moves)
              if _MOVE.fullmatch(_NUMBERED.sub("", m.group()))]
    if name == "upper-case-squares":
        return any(re.search(r"[a-l]\d", t) for t in tokens)
    if name == "zero-padded":
        return any(re.search(r"(?<![\d.])\d(?!\d)", _NUMBERED.sub("", t)) for t in tokens)
    if name.startswith("captures-"):
        return any(re.search(r"\d[x:]", t) for t in tokens)
    if name == "board-turned":
        return any(g.turnable for g in games)
    if name.endswith("-paths"):
        return any(g.plies and any(p.capture for p in g.plies) for g in games)
    return True


def needs_replay(names: Sequence[str]) -> bool:
    """Whether a dialect changes the squares as written (then only the replay tells
    whether it reads as the clean file)."""
    return options(names).squares_changed


def attach_replays(games: list[Game], path: Path) -> None:
    """Give each clean game of ``path`` its variant and main-line plies as the validator
    replays them (the notation transforms write its moves from them), and say whether its
    board may be written turned round: a variant Black begins whose squares are numbers,
    every ply replayed as one move from the variant's own start, Black first."""
    from pdnkit.rules import get_rules

    for game, rep in zip(games, validate(path), strict=True):
        game.variant = rep.variant
        plies = rep.plies
        if rep.variant is None or rep.replayed_plies != rep.ply_count or not plies \
                or any(p.notation is None or not p.path for p in plies) \
                or _main_line_tokens(game.moves) != [p.written for p in plies]:
            continue  # a move written in pieces (1- 6, a jump a ply): left as written
        rules = get_rules(rep.variant)
        if {"notation-mismatch", "board-turned"} & set(rep.finding_codes()) \
                or (plies[0].written[:1].isalpha()) != (rules.notation != "numeric"):
            continue  # the notation is not the variant's own: left as written
        game.plies = [Ply(tuple(p.path), bool(p.captured), str(p.notation)) for p in plies]
        game.turnable = (int(rules.first_mover) == 1 and rules.notation == "numeric"
                         and game_tags(game.tags).fen is None and plies[0].side == "B"
                         and "move-number-mismatch" not in rep.finding_codes())


def _main_line_tokens(moves: str) -> list[str]:
    """The main line's move tokens of a movetext, without their move numbers."""
    out: list[str] = []
    depth = 0
    for m in _TOKEN.finditer(moves):
        tok = m.group()
        if tok == "(":
            depth += 1
        elif tok == ")":
            depth = max(0, depth - 1)
        elif depth == 0 and not (tok.isspace() or tok[0] in "{;%/"):
            move = _NUMBERED.sub("", tok)
            if _MOVE.fullmatch(move):
                out.append(move)
    return out


def _names_its_variant(game: Game, o: Options) -> bool:
    """Whether the dialect writes a ``GameType`` tag the clean game lacks: a game without a
    GameType or Variant tag whose variant is guessed from what the dialect changes -- its
    board turned round (algebraic squares say Russian or Czech), or the capture separator of
    an alphanumeric variant (``x`` says Czech, ``:`` Russian)."""
    if game.variant is None:
        return False
    t = game_tags(game.tags)
    if t.gametype is not None or t.variant is not None:
        return False
    if o.turned and game.turnable:
        return True
    return o.separator is not None and game.variant in _ALPHA_VARIANTS


#: the variants whose notation is alphanumeric (their guess reads the capture separator)
_ALPHA_VARIANTS = frozenset(r.name for r in list_variants() if r.notation != "numeric")


def _notation_changes(o: Options) -> bool:
    return o.upper or o.turned or o.padded or o.separator is not None or o.paths is not None


def _square_text(n: int, rules: Any, o: Options) -> str:
    """Square ``n`` as the dialect writes it: turned round (algebraic, seen from the first
    mover's side), else in the variant's notation."""
    from pdnkit.rules.notation import square_name

    if not o.turned:
        return square_name(rules, n)
    f, r = rules.geometry.square_to_coords(n)
    return chr(ord("a") + rules.width - 1 - f) + str(rules.height - r)


def _ply_text(ply: Ply, rules: Any, o: Options) -> str:
    """A main-line move written again from its replay: the canonical squares (the full
    path where the canonical notation has it, or always with ``full-paths``)."""
    full = o.paths == "full" or (len(re.findall(r"[a-l]?\d+", ply.canonical)) > 2)
    squares = ply.path if full else (ply.path[0], ply.path[-1])
    sep = rules.capture_separator if ply.capture else "-"
    return sep.join(_square_text(n, rules, o) for n in squares)


def _written(token: str, o: Options) -> str:
    """A move token (its number kept) with the written-form transforms: zero-padded numbers,
    the capture separator, upper-case files."""
    nm = _NUMBERED.match(token)
    head, move = (nm.group(1), token[nm.end():]) if nm else ("", token)
    if o.padded and move[:1].isdigit():  # numbers only (c3 stays c3)
        move = re.sub(r"(?<![\d])(\d)(?!\d)", r"0\1", move)
    if o.separator is not None and re.search(r"[x:]", move):
        move = re.sub(r"[-x:]", o.separator, move)
    if o.upper:
        move = move.upper().replace("X", "x")
    return head + move


def _renotate(game: Game, o: Options) -> str:
    """The movetext with its moves written another way: the main line's from their replay
    (``board-turned``, ``full-paths``, ``short-paths``) where the game has one, then every
    move's written form (``zero-padded``, ``captures-*``, ``upper-case-squares``)."""
    from pdnkit.rules import get_rules

    replayed = (o.turned and game.turnable) or (o.paths is not None and game.plies)
    rules = get_rules(game.variant) if replayed and game.variant else None
    out: list[str] = []
    depth = k = 0
    for m in _TOKEN.finditer(game.moves):
        tok = m.group()
        if tok == "(":
            depth += 1
        elif tok == ")":
            depth = max(0, depth - 1)
        elif not (tok.isspace() or tok[0] in "{;%/") and _MOVE.fullmatch(_NUMBERED.sub("", tok)) \
                and tok != (game.result_tag or "").strip():  # (a match score: 4-6)
            if depth == 0 and rules is not None and game.plies and k < len(game.plies):
                nm = _NUMBERED.match(tok)
                tok = (nm.group(1) if nm else "") + _ply_text(game.plies[k], rules, o)
            if depth == 0:
                k += 1
            tok = _written(tok, o)
        out.append(tok)
    return "".join(out)


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
            "tags": (t.white, t.black, t.event, t.site, t.date_raw, t.round, t.result, t.fen),
            "type_tags": (t.gametype, t.variant),
            "moves": _effective_numbers(rec.moves),
            "variant": rep.variant, "result": rep.result, "outcome": rep.outcome,
            "plies": rep.ply_count, "replayed": rep.replayed_plies,
            "canonical": [p.notation for p in rep.plies],
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
            "tags": (t.white, t.black, t.event, t.site, t.date_raw, t.round, t.result, t.fen),
            "type_tags": (t.gametype, t.variant),
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
            explains: Iterable[str] = (), ignore: Iterable[str] = ()) -> tuple[list[bool], list[str]]:
    """(per clean game: read equal?, what differs) between two views, game for game in
    file order; finding codes the dialect explains are left out on both sides, and the keys
    it changes by design (``ignore``: the moves as written of a dialect that writes other
    squares, compared as replayed instead)."""
    explains = set(explains)
    skip = set(ignore)
    clean = [{k: v for k, v in g.items() if k not in skip} for g in clean]
    got = [{k: v for k, v in g.items() if k not in skip} for g in got]
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
