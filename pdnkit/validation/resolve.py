"""The resolve stage of the validator: which rules a game uses.

Resolution order (the issue "Replay validator"): the ``GameType`` tag (number or full
form), else a ``Variant`` tag, else the caller's ``variant``, else a guess from the notation,
the square numbers and the tag language. A tag that disagrees with the caller's ``variant``
wins, with a ``variant-conflict`` warning; a guess is reported as ``variant-guessed`` (info).

Everything this stage knows about a game comes in as the record (its tags and its first
moves) and goes out as one :class:`Resolution`; evidence gathered over a whole file would come
in the same way, as another argument of :func:`resolve_rules`.

Example:
    >>> lookup_rules("russian", None).gametype, lookup_rules("no such game", None)
    (25, None)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pdnkit.findings import Finding, make_finding
from pdnkit.rules.variants import Rules, get_rules

if TYPE_CHECKING:
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

#: Tag names in Italian files (FID exports) and in Russian-language files that hint the variant.
ITALIAN_TAGS = frozenset({"bianco", "nero", "risultato", "evento", "luogo", "data", "turno"})

_CYRILLIC = re.compile("[\u0400-\u04ff]")
_ALPHA_SQ = re.compile(r"^[a-l](1[0-2]|[1-9])$", re.IGNORECASE)


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


def _tag(tags: Sequence[tuple[str, str]], name: str) -> str | None:
    low = name.lower()
    for k, v in tags:
        if k.lower() == low:
            return v
    return None


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


def resolve_rules(record: GameRecord, variant: str | None = None, edition: str | None = None,
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
    arg_rules = lookup_rules(variant, edition) if variant else None
    if variant and arg_rules is None:
        raise ValueError(f"unknown variant {variant!r}")

    tag_rules: Rules | None = None
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
