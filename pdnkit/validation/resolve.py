"""The resolve stage of the validator: which rules a game uses.

Resolution order (the issue "Replay validator"): the ``GameType`` tag (number or full
form), else a ``Variant`` tag, else the caller's ``variant``, else a guess from the notation,
the square numbers and the tag language. A tag that disagrees with the caller's ``variant``
wins, with a ``variant-conflict`` warning; a guess is reported as ``variant-guessed`` (info).

Everything this stage knows about a game comes in as the record (its tags and its first
moves) and goes out as one :class:`Resolution`. The variant is resolved once per file
(:func:`scan_file`): before its games are replayed, the file's first :data:`SCAN_GAMES` games
(or :data:`SCAN_CHARS` characters) are cut by the splitter and read by regular expressions
only (tags, move squares, separators, FEN squares); the GameType/Variant tags most of them
carry, else the guess over all their evidence together, is the variant of every game of the
file that names none (header-only and unparsed games too). A game's own tags always win.

Example:
    >>> lookup_rules("russian", None).gametype, lookup_rules("no such game", None)
    (25, None)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from pdnkit._lazy import lazy_pattern
from pdnkit.errors import ArgumentError
from pdnkit.findings import Finding, make_finding
from pdnkit.pdn.tags import ITALIAN_NAMES, TAG_NAMES, field_of
from pdnkit.rules.variants import Rules, get_rules

if TYPE_CHECKING:
    from pdnkit.pdn.layout import Header
    from pdnkit.pdn.record import GameRecord

#: lidraughts' private GameType numbers (RULES.md 1.3) and the names they stand for.
LIDRAUGHTS_GAMETYPES = {"96": "breakthrough", "97": "frysk", "98": "antidraughts"}

#: ``Variant`` tag values written by lidraughts / PlayStrategy that are not rules names.
VARIANT_TAG_NAMES = {
    "standard": "international",
    "american/english": "english",
    "american": "english",
    "english": "english",
    "frysk!": "frysk",
    "from position": "",
}

#: Tag names in Italian files (FID exports) that hint the variant: the tag mapping's list
#: (:data:`pdnkit.pdn.tags.ITALIAN_NAMES`: Bianco, Nero, Risultato, Dati, Anno, Apertura ...).
ITALIAN_TAGS = ITALIAN_NAMES

_CYRILLIC = lazy_pattern("[\u0400-\u04ff]")
_ALPHA_SQ = lazy_pattern(r"^[a-l](1[0-2]|[1-9])$", re.IGNORECASE)


def lookup_rules(value: str | int, edition: str | None) -> Rules | None:
    """``get_rules`` with the edition when one is given, ``None`` for an unknown name."""
    try:
        if edition:
            try:
                return get_rules(value, edition)
            except (ValueError, KeyError, TypeError):
                return get_rules(value)
        return get_rules(value)
    except (ValueError, KeyError, TypeError):
        return None


@dataclass
class Resolution:
    """The outcome of :func:`resolve_rules`: the rules (or ``None``), how they were found,
    the findings to report and, for a guess, the other variants worth trying."""

    rules: Rules | None
    source: str  # "gametype" | "variant-tag" | "argument" | "guess" | "none"
    findings: list[Finding] = field(default_factory=list)
    alternatives: list[str] = field(default_factory=list)


@lru_cache(maxsize=64)
def _spellings(name: str) -> frozenset[str]:
    """``name`` and every name the tag mapping gives its field, lower-cased."""
    want = field_of(name)
    return frozenset({name.lower(), *(n.lower() for n in TAG_NAMES.get(want, ()))})


def _tag(tags: Sequence[tuple[str, str]], name: str) -> str | None:
    """The first tag that fills the same field as ``name`` (``GameType`` is also
    ``Type de jeu``: the tag mapping, :func:`pdnkit.pdn.tags.field_of`)."""
    names = _spellings(name)
    for k, v in tags:
        if k.lower() in names:
            return v
    return None


def _type_tags(tags: Sequence[tuple[str, str]]) -> tuple[str | None, str | None]:
    """``(_tag(tags, "GameType"), _tag(tags, "Variant"))`` in one pass over the tags."""
    gt_names, vt_names = _spellings("GameType"), _spellings("Variant")
    gt = vt = None
    for k, v in tags:
        low = k.lower()
        if gt is None and low in gt_names:
            gt = v
            if vt is not None:
                break
        elif vt is None and low in vt_names:
            vt = v
            if gt is not None:
                break
    return gt, vt


@lru_cache(maxsize=256)  # the variants are fixed data: a tag value always reads the same
def rules_from_gametype(value: str, edition: str | None = None
                        ) -> tuple[Rules | None, str | None]:
    """Rules for a ``GameType`` tag value (bare number or full form) and, when the full form
    is not the standard one for that number, a note saying so.

    Example:
        >>> r, note = rules_from_gametype("20,W,10,10,N1,0")
        >>> r.name, bool(note)
        ('international', True)
    """
    text = value.strip().replace(" ", "")
    if not text:
        return None, None
    number = text.split(",", 1)[0]
    rules = lookup_rules(text, edition)
    if rules is None and number in LIDRAUGHTS_GAMETYPES:
        rules = lookup_rules(LIDRAUGHTS_GAMETYPES[number], edition)
    if rules is None:
        return None, None
    if "," in text and text.upper() != str(rules.gametype_full).upper():
        return rules, (f"GameType {value!r} is not the standard full form "
                       f"{rules.gametype_full!r}; read as {rules.name}")
    return rules, None


def rules_from_variant_tag(value: str, edition: str | None = None) -> Rules | None:
    """Rules for a ``Variant`` tag (lidraughts / PlayStrategy names), or ``None``.

    Example:
        >>> rules_from_variant_tag("American/English").name
        'english'
    """
    text = value.strip()
    if not text:
        return None
    low = text.lower()
    mapped = VARIANT_TAG_NAMES.get(low)
    if mapped == "":
        return None
    for cand in ([mapped] if mapped else []) + [text, low, *re.split(r"[/,;]", low)]:
        cand = cand.strip()
        if cand:
            r = lookup_rules(cand, edition)
            if r is not None:
                return r
    return None


def _square_tokens(record: GameRecord) -> list[str]:
    out: list[str] = []
    for node in getattr(record, "moves", None) or ():
        out.extend(getattr(node, "squares", ()) or ())
        if len(out) > 40:
            break
    return out


#: a square in a FEN: a number of at most 3 digits (no board has more squares; a longer
#: run of digits is no square and no evidence) or an alphanumeric square
_FEN_SQUARE = lazy_pattern(r"(?<!\d)[0-9]{1,3}(?!\d)|(?<![a-z])[a-l](?:1[0-2]|[1-9])(?!\d)")


@dataclass
class Evidence:
    """What the guess goes by: tag names, Cyrillic tag values, the square tokens of the
    moves, the FEN's squares, the move separators and the first move's origin. One game's
    (:meth:`of_record`) or a whole file's (:meth:`merge`)."""

    tag_names: set[str] = field(default_factory=set)
    cyrillic: bool = False
    tokens: list[str] = field(default_factory=list)
    fen_squares: list[str] = field(default_factory=list)
    separators: set[str] = field(default_factory=set)
    firsts: list[str] = field(default_factory=list)  # first move origin of games without FEN
    fen: bool = False

    @classmethod
    def of_record(cls, record: GameRecord) -> Evidence:
        tags = list(getattr(record, "tags", ()) or ())
        tokens = _square_tokens(record)
        fen = _tag(tags, "FEN") or ""
        seps = {sep for node in (getattr(record, "moves", None) or ())[:60]
                for sep in (getattr(node, "separators", ()) or ())}
        return cls({k.lower() for k, _ in tags}, any(_CYRILLIC.search(v or "") for _, v in tags),
                   tokens, _FEN_SQUARE.findall(fen.split(":", 1)[-1]) if fen else [], seps,
                   [tokens[0]] if tokens and not fen else [], bool(fen))

    def merge(self, other: Evidence, limit: int = 4000) -> None:
        """Add another game's evidence (the lists stop growing at ``limit`` items)."""
        self.tag_names |= other.tag_names
        self.cyrillic = self.cyrillic or other.cyrillic
        self.separators |= other.separators
        for mine, theirs in ((self.tokens, other.tokens), (self.fen_squares, other.fen_squares),
                             (self.firsts, other.firsts)):
            mine.extend(theirs[:max(0, limit - len(mine))])
        self.fen = self.fen or other.fen


def guess_variant(record: GameRecord) -> tuple[list[str], str]:
    """Guess the variant of a record without GameType/Variant tags.

    Returns the candidate names, best first, and the evidence in words. The caller tries the
    candidates in order and keeps the first one under which the game replays cleanly.

    Example:
        >>> class R:
        ...     tags = [("Bianco", "Rossi"), ("Nero", "Bianchi")]
        ...     moves = []
        >>> guess_variant(R())[0][0]
        'italian'
    """
    return guess_from(Evidence.of_record(record))


def guess_from(ev: Evidence) -> tuple[list[str], str]:
    """:func:`guess_variant` over gathered :class:`Evidence` (one game's or a file's).

    Example:
        >>> guess_from(Evidence(tokens=["c3", "d4"], separators={"-", "x"}))[0][0]
        'czech'
    """
    names = ev.tag_names
    if names & ITALIAN_TAGS and not names & {"white", "black"}:
        return ["italian", "english"], "Italian tag names (Bianco/Nero/Risultato)"
    tokens, fen_squares = ev.tokens, ev.fen_squares
    alpha = any(_ALPHA_SQ.match(t) for t in tokens) or any(
        not s.isdigit() for s in fen_squares)
    if alpha:
        if ev.cyrillic:
            return ["russian", "brazilian", "czech"], "alphanumeric squares and Cyrillic tags"
        seps = ev.separators
        if ":" not in seps and ("x" in seps or "X" in seps):
            # Russian files write captures with ':' (PDN 3.0 GameType table), Czech ones 'x'
            return (["czech", "russian", "brazilian", "english"],
                    "alphanumeric squares and 'x' captures")
        return ["russian", "czech", "brazilian", "english"], "alphanumeric squares"
    nums = [int(t) for t in tokens if t.isdigit() and len(t) < 4] + [
        int(s) for s in fen_squares if s.isdigit() and len(s) < 4]
    top = max(nums, default=0)
    if top > 50:
        return ["canadian"], f"square numbers up to {top}"
    firsts = [int(f) for f in ev.firsts if f.isdigit() and len(f) < 7]
    from_31_35 = sum(31 <= f <= 35 for f in firsts)
    from_21_24 = sum(21 <= f <= 24 for f in firsts)
    if top > 32 or (from_31_35 and from_31_35 >= from_21_24):
        why = f"square numbers up to {top}" if top > 32 else "first move from 31-35"
        return ["international", "frisian"], why
    if ev.cyrillic:
        return ["russian", "english"], "numeric squares and Cyrillic tags"
    if from_21_24:
        return ["english", "russian", "italian"], "numeric squares 1-32, first move from 21-24"
    if nums:
        return ["english", "italian", "russian"], "numeric squares 1-32"
    return ["international", "english"], "no squares to go by (default)"


#: the file pre-scan stops after this many games ...
SCAN_GAMES = 500
#: ... or this many characters of text, whichever comes first
SCAN_CHARS = 4_000_000
#: ... or this many games when each of them names the same variant in its tags
SCAN_DECIDED = 50


@dataclass(frozen=True)
class FileGuess:
    """The variant of a whole file, for its games that do not name one: the candidates
    (best first) and the evidence in words. Small and picklable (sent to workers)."""

    candidates: tuple[str, ...]
    why: str


_COMMENT = lazy_pattern(r"\{[^}]*\}|\([^()]*\)|;[^\n]*|%[^\n]*")
_MOVE = lazy_pattern(r"(?<![\w/])(\d{1,3}|[a-lA-L](?:1[0-2]|[1-9]))([-x:X])"
                   r"(\d{1,3}|[a-lA-L](?:1[0-2]|[1-9]))(?![/\d])")


class _Node:
    __slots__ = ("separators", "squares")

    def __init__(self, squares: tuple[str, ...], separators: tuple[str, ...]) -> None:
        self.squares = squares
        self.separators = separators


#: characters of a game's text the pre-scan reads (its tags, and its first moves)
_SKETCH_CHARS = 6_000


class _Sketch:
    """A game as the pre-scan sees it: its tags as the reader's layout model reads them
    (:func:`pdnkit.pdn.layout.read_header`: any layout, names and values decoded; for a
    game the compiled lane read, whose tags all lie within the characters read, the lane's
    own, which are the record's) and the first moves, read by regular expressions from the
    splitter's text (no parsing) when first asked for: a file whose games name their
    variant never needs them."""

    def __init__(self, chunk: object) -> None:
        from pdnkit.pdn.split import LaneChunk

        self.text = (getattr(chunk, "text", "") or "")[:_SKETCH_CHARS]
        self._header: Header | None = None
        self._moves: list[_Node] | None = None
        if type(chunk) is LaneChunk and chunk.body <= _SKETCH_CHARS:
            self.tags = list(chunk.tags)
        else:
            self.tags = [(t.name, t.value) for t in self._read().tags]

    def _read(self) -> Header:
        from pdnkit.pdn.layout import read_header

        if self._header is None:
            self._header = read_header(self.text)
        return self._header

    @property
    def moves(self) -> list[_Node]:
        """The first moves (at most 40), as origin and destination with their separator."""
        if self._moves is None:
            body = _COMMENT.sub(" ", self._read().work.lstrip()[:2_000])  # tags blanked
            self._moves = [_Node((a.lower(), b.lower()), (sep,))
                           for a, sep, b in _MOVE.findall(body)[:60]
                           if a != b and "0" not in (a, b)][:40]  # not a result (1-0, 1-1)
        return self._moves


def scan_file(chunks: Iterable[object], edition: str | None = None,
              name: str | None = None) -> FileGuess | None:
    """The file's variant from the evidence of its first games (the splitter's ``chunks``,
    at most :data:`SCAN_GAMES` games or :data:`SCAN_CHARS` characters, :data:`SCAN_DECIDED`
    games when all of them name the same variant): the GameType or
    Variant tags most of its games carry, else a guess from the evidence of all of them
    together. ``None`` when nothing says (no tags, no moves). When the evidence leaves
    several variants and the file's ``name`` names one of them (``11_man_italian.pdn``),
    that one comes first.

    Example:
        >>> from pdnkit.pdn.split import split_text
        >>> text = '[FEN "W:W31,32:B1"] 1. 32-27 *\\n\\n1. 45-40 *\\n\\n1. 2-3 2-0'
        >>> scan_file(split_text(text)).candidates[0]
        'international'
    """
    declared: Counter[str] = Counter()
    sketches: list[_Sketch] = []  # their evidence is read only where no game names a variant
    seen = chars = 0
    for chunk in chunks:
        text = getattr(chunk, "text", "") or ""
        if not text:
            continue
        sketch = _Sketch(chunk)
        rules = _declared_rules(sketch.tags, edition)
        if rules is not None:
            declared[rules.name] += 1
        elif not declared:
            sketches.append(sketch)
        seen += 1
        chars += len(text)
        if seen >= SCAN_GAMES or chars >= SCAN_CHARS:
            break
        if seen >= SCAN_DECIDED and len(declared) == 1 and declared.total() == seen:
            break  # every game so far names the same variant: decided
    if declared:
        name, n = max(declared.items(), key=lambda kv: kv[1])  # most_common(1)'s first of
        # the most, without its import of heapq
        return FileGuess((name,), f"the GameType/Variant tags of {n} of the file's games")
    ev = Evidence()
    for sketch in sketches:  # in file order, as the games were read
        ev.merge(Evidence.of_record(sketch))  # type: ignore[arg-type]
    if not (ev.tokens or ev.fen_squares or ev.tag_names & ITALIAN_TAGS):
        return None
    candidates, why = guess_from(ev)
    named = _named_in(name, candidates) if name else None
    if named is not None and named != candidates[0]:
        candidates = [named] + [c for c in candidates if c != named]
        why += f"; the file name names {named}"
    return FileGuess(tuple(candidates), f"{why} (over the file's games)")


def _named_in(name: str, candidates: Sequence[str]) -> str | None:
    """The candidate variant that a word of the file name names (its name or an alias).

    Example:
        >>> _named_in("11_man_italian.pdn", ["english", "italian"])
        'italian'
    """
    words = {w for w in re.split(r"[^a-z]+", name.lower()) if w}
    for c in candidates:
        rules = lookup_rules(c, None)
        if rules is not None and words & {rules.name, *(a.lower() for a in rules.aliases)}:
            return c
    return None


def _declared_rules(tags: Sequence[tuple[str, str]], edition: str | None) -> Rules | None:
    gt = _tag(tags, "GameType")
    vt = _tag(tags, "Variant")
    rules = rules_from_gametype(gt, edition)[0] if gt and gt.strip() else None
    by_name = rules_from_variant_tag(vt, edition) if vt else None
    if rules is None:
        return by_name
    if by_name is not None and by_name.gametype == rules.gametype:
        return by_name  # a Variant tag refines a shared GameType number
    return rules


def resolve_rules(record: GameRecord, variant: str | None = None, edition: str | None = None,
                  file_guess: FileGuess | None = None) -> Resolution:
    """Decide which rules a game uses (see the module docstring for the order).

    ``file_guess`` (:func:`scan_file`) stands in for the game's own guess: a game without
    GameType or Variant tag, and without ``variant``, takes its file's variant. A ``Variant``
    tag or ``variant`` naming a variant that shares the GameType number refines it
    (``GameType 25`` with ``Variant giveaway`` is giveaway).

    Example:
        >>> class R:
        ...     tags = [("GameType", "25")]
        ...     moves = []
        >>> resolve_rules(R()).rules.name, resolve_rules(R(), "giveaway").rules.name
        ('russian', 'giveaway')
    """
    tags = list(getattr(record, "tags", ()) or ())
    gt, vt = _type_tags(tags)
    memo = (gt, vt, variant, edition)
    last = _LAST[0] if _LAST else None
    if last is not None and last[0] == memo:  # the tags decide, as for the last game
        res = last[1]
        return Resolution(res.rules, res.source, [f.located() for f in res.findings])
    res = _resolve(record, tags, gt, vt, variant, edition, file_guess)
    if res.source in ("gametype", "variant-tag", "argument"):  # from these four alone
        if _LAST:
            _LAST[0] = (memo, res)
        else:
            _LAST.append((memo, res))
        return Resolution(res.rules, res.source, [f.located() for f in res.findings])
    return res


#: ``((GameType tag, Variant tag, variant, edition), resolution)`` of the last game whose
#: rules these decided (a file's games mostly name the same variant)
_LAST: list[tuple[tuple[str | None, ...], Resolution]] = []


def _resolve(record: GameRecord, tags: list[tuple[str, str]], gt: str | None, vt: str | None,
             variant: str | None, edition: str | None, file_guess: FileGuess | None
             ) -> Resolution:
    """:func:`resolve_rules` once the game's ``GameType`` and ``Variant`` tags are read."""
    findings: list[Finding] = []
    arg_rules = lookup_rules(variant, edition) if variant else None
    if variant and arg_rules is None:
        raise ArgumentError(f"unknown variant {variant!r}")

    tag_rules: Rules | None = None
    source = "none"
    vt_rules = rules_from_variant_tag(vt, edition) if vt else None
    if gt is not None and gt.strip():
        tag_rules, note = rules_from_gametype(gt, edition)
        if tag_rules is not None:
            source = "gametype"
            if note:
                findings.append(make_finding("variant-guessed", note))
            for finer in (vt_rules, arg_rules):  # the same number, a named variant of it
                if (finer is not None and finer.gametype == tag_rules.gametype
                        and finer.name != tag_rules.name):
                    tag_rules, source = finer, ("variant-tag" if finer is vt_rules
                                                else "argument")
                    break
    if tag_rules is None and vt_rules is not None:
        tag_rules, source = vt_rules, "variant-tag"
    if tag_rules is not None:
        if arg_rules is not None and arg_rules.name != tag_rules.name:
            findings.append(make_finding(
                "variant-conflict",
                f"the {'GameType' if source == 'gametype' else 'Variant'} tag says "
                f"{tag_rules.name}, --variant says {arg_rules.name}; the tag wins",
                details={"tag": tag_rules.name, "argument": arg_rules.name}))
        return Resolution(tag_rules, source, findings)
    if arg_rules is not None:
        if gt is not None and gt.strip():
            findings.append(make_finding(
                "variant-conflict", f"GameType {gt!r} is unknown; using --variant "
                f"{arg_rules.name}", details={"tag": gt, "argument": arg_rules.name}))
        return Resolution(arg_rules, "argument", findings)
    if gt is not None and gt.strip():
        findings.append(make_finding(
            "unknown-variant", f"GameType {gt!r} is not a draughts variant pdnkit knows; "
            "pass --variant to replay it anyway", details={"gametype": gt}))
        return Resolution(None, "none", findings)
    if file_guess is not None:
        candidates, why = list(file_guess.candidates), file_guess.why
    elif not tags and not (getattr(record, "moves", None) or ()):
        return Resolution(None, "none", findings)  # nothing to go by (an empty file)
    else:
        candidates, why = guess_variant(record)
    looked_up = [(c, lookup_rules(c, edition)) for c in candidates]
    resolved = [(c, r) for c, r in looked_up if r is not None]
    if not resolved:
        findings.append(make_finding(
            "unknown-variant",
            "no GameType or Variant tag, and no variant could be guessed; pass --variant"))
        return Resolution(None, "none", findings)
    rules = resolved[0][1]
    findings.append(make_finding(
        "variant-guessed", f"variant guessed as {rules.name} from {why}",
        details={"variant": rules.name, "evidence": why,
                 "candidates": [c for c, _ in resolved]}))
    return Resolution(rules, "guess", findings, [c for c, _ in resolved[1:]])
