"""Helpers of :mod:`pdnkit.replay`: which rules a game uses, and what its result means.

Variant resolution order (the issue "Replay validator"): the ``GameType`` tag (number or full
form), else a ``Variant`` tag, else the caller's ``variant``, else a guess from the notation,
the square numbers and the tag language. A tag that disagrees with the caller's ``variant``
wins, with a ``variant-conflict`` warning; a guess is reported as ``variant-guessed`` (info).

Example:
    >>> normalise_token("2-0"), normalise_token("½-½"), normalise_token("4-6")
    ('first', 'draw', None)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pdnkit.findings import Finding, make_finding

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

#: Tag names in Italian files (FID exports) and in Russian-language files that hint the variant.
ITALIAN_TAGS = frozenset({"bianco", "nero", "risultato", "evento", "luogo", "data", "turno"})

_CYRILLIC = re.compile("[\u0400-\u04ff]")
_ALPHA_SQ = re.compile(r"^[a-l](1[0-2]|[1-9])$", re.IGNORECASE)


def _get_rules(value: Any, edition: str | None) -> Any:
    """``get_rules`` with the edition when one is given, ``None`` for an unknown name."""
    from pdnkit.rules import get_rules

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

    rules: Any
    source: str  # "gametype" | "variant-tag" | "argument" | "guess" | "none"
    findings: list[Finding] = field(default_factory=list)
    alternatives: list[str] = field(default_factory=list)


def _tag(tags: Sequence[tuple[str, str]], name: str) -> str | None:
    low = name.lower()
    for k, v in tags:
        if k.lower() == low:
            return v
    return None


def rules_from_gametype(value: str, edition: str | None = None) -> tuple[Any, str | None]:
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
    rules = _get_rules(text, edition)
    if rules is None and number in LIDRAUGHTS_GAMETYPES:
        rules = _get_rules(LIDRAUGHTS_GAMETYPES[number], edition)
    if rules is None:
        return None, None
    if "," in text and text.upper() != str(rules.gametype_full).upper():
        return rules, (f"GameType {value!r} is not the standard full form "
                       f"{rules.gametype_full!r}; read as {rules.name}")
    return rules, None


def rules_from_variant_tag(value: str, edition: str | None = None) -> Any:
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
            r = _get_rules(cand, edition)
            if r is not None:
                return r
    return None


def _square_tokens(record: Any) -> list[str]:
    out: list[str] = []
    for node in getattr(record, "moves", None) or ():
        out.extend(getattr(node, "squares", ()) or ())
        if len(out) > 40:
            break
    return out


def guess_variant(record: Any) -> tuple[list[str], str]:
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
    tags = list(getattr(record, "tags", ()) or ())
    names = {k.lower() for k, _ in tags}
    if names & ITALIAN_TAGS and not names & {"white", "black"}:
        return ["italian", "english"], "Italian tag names (Bianco/Nero/Risultato)"
    tokens = _square_tokens(record)
    fen = _tag(tags, "FEN") or ""
    fen_squares = re.findall(r"[0-9]+|[a-l](?:1[0-2]|[1-9])", fen.split(":", 1)[-1]) if fen else []
    alpha = any(_ALPHA_SQ.match(t) for t in tokens) or any(
        not s.isdigit() for s in fen_squares)
    cyrillic = any(_CYRILLIC.search(v or "") for _, v in tags)
    if alpha:
        if cyrillic:
            return ["russian", "brazilian", "czech"], "alphanumeric squares and Cyrillic tags"
        seps = {sep for node in (getattr(record, "moves", None) or ())[:60]
                for sep in (getattr(node, "separators", ()) or ())}
        if ":" not in seps and ("x" in seps or "X" in seps):
            # Russian files write captures with ':' (PDN 3.0 GameType table), Czech ones 'x'
            return (["czech", "russian", "brazilian", "english"],
                    "alphanumeric squares and 'x' captures")
        return ["russian", "czech", "brazilian", "english"], "alphanumeric squares"
    nums = [int(t) for t in tokens if t.isdigit()] + [int(s) for s in fen_squares if s.isdigit()]
    top = max(nums, default=0)
    if top > 50:
        return ["canadian"], f"square numbers up to {top}"
    first = tokens[0] if tokens else ""
    if top > 32 or (first.isdigit() and 31 <= int(first) <= 35 and not fen):
        why = f"square numbers up to {top}" if top > 32 else "first move from 31-35"
        return ["international", "frisian"], why
    if cyrillic:
        return ["russian", "english"], "numeric squares and Cyrillic tags"
    if first.isdigit() and 21 <= int(first) <= 24 and not fen:
        return ["english", "russian", "italian"], "numeric squares 1-32, first move from 21-24"
    if nums:
        return ["english", "italian", "russian"], "numeric squares 1-32"
    return ["international", "english"], "no squares to go by (default)"


def resolve_rules(record: Any, variant: str | None = None, edition: str | None = None,
                  ) -> Resolution:
    """Decide which rules a game uses (see the module docstring for the order).

    Example:
        >>> class R:
        ...     tags = [("GameType", "25")]
        ...     moves = []
        >>> resolve_rules(R()).rules.name
        'russian'
    """
    tags = list(getattr(record, "tags", ()) or ())
    findings: list[Finding] = []
    arg_rules = _get_rules(variant, edition) if variant else None
    if variant and arg_rules is None:
        raise ValueError(f"unknown variant {variant!r}")

    tag_rules = None
    source = "none"
    gt = _tag(tags, "GameType")
    if gt is not None and gt.strip():
        tag_rules, note = rules_from_gametype(gt, edition)
        if tag_rules is not None:
            source = "gametype"
            if note:
                findings.append(make_finding("variant-guessed", note))
    if tag_rules is None:
        vt = _tag(tags, "Variant")
        if vt:
            tag_rules = rules_from_variant_tag(vt, edition)
            if tag_rules is not None:
                source = "variant-tag"
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
    candidates, why = guess_variant(record)
    resolved = [(c, _get_rules(c, edition)) for c in candidates]
    resolved = [(c, r) for c, r in resolved if r is not None]
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


# --- results ---------------------------------------------------------------------------------

_FIRST = {"1-0", "2-0", "1+-", "1+ -", "+-", "1:0", "2:0"}
_SECOND = {"0-1", "0-2", "-1+", "- 1+", "-+", "0:1", "0:2"}
_DRAW = {"1/2-1/2", "1-1", "=", "1/2", "1/2 1/2", "1:1", "draw", "remise"}
_UNKNOWN = {"*", "", "?", "0-0"}

#: accepted values of ``result_convention``
CONVENTIONS = ("auto", "white", "first-mover")


def normalise_token(raw: str | None) -> str | None:
    """Meaning of a result token independent of orientation: ``"first"`` (the first number
    won), ``"second"``, ``"draw"``, ``"unknown"`` (``*``, ``0-0``, empty) or ``None`` (an
    unrecognised score such as a match result ``4-6``).

    Example:
        >>> [normalise_token(t) for t in ("1-0", "0-2", "1-1", "*", "0.5-0.5")]
        ['first', 'second', 'draw', 'unknown', 'draw']
    """
    if raw is None:
        return "unknown"
    t = raw.strip().lower().replace("½", "1/2").replace("0.5", "1/2")
    t = t.replace("\u2013", "-").replace("\u2012", "-").replace("\u2011", "-")
    t = re.sub(r"\s*-\s*", "-", t)
    if t in _UNKNOWN:
        return "unknown"
    if t in _FIRST:
        return "first"
    if t in _SECOND:
        return "second"
    if t in _DRAW:
        return "draw"
    return None


def first_number_side(rules: Any, convention: str) -> str:
    """Which colour (``"W"``/``"B"``) the first number of a result belongs to under a
    convention: ``white`` -> White; ``first-mover`` -> the variant's first mover.

    Example:
        >>> class R: first_mover = 1
        >>> first_number_side(R(), "first-mover"), first_number_side(R(), "white")
        ('B', 'W')
    """
    if convention == "first-mover" and int(rules.first_mover) == 1:
        return "B"
    return "W"


def outcome_of(meaning: str | None, first_side: str) -> str:
    """``white``/``black``/``draw``/``unknown`` from a token meaning and the side the first
    number belongs to.

    Example:
        >>> outcome_of("first", "B"), outcome_of("second", "W"), outcome_of(None, "W")
        ('black', 'black', 'unknown')
    """
    if meaning == "draw":
        return "draw"
    if meaning == "first":
        return "white" if first_side == "W" else "black"
    if meaning == "second":
        return "black" if first_side == "W" else "white"
    return "unknown"


_RESULT_OF = {"white": "1-0", "black": "0-1", "draw": "1/2-1/2"}


def result_string(outcome: str, meaning: str | None) -> str | None:
    """The normalised White-first result string for an outcome (``None`` for an unreadable
    score, ``"*"`` for an unknown one).

    Example:
        >>> result_string("black", "first"), result_string("unknown", "unknown")
        ('0-1', '*')
    """
    if outcome in _RESULT_OF:
        return _RESULT_OF[outcome]
    return "*" if meaning == "unknown" else None
