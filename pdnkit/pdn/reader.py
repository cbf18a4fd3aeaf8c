"""Read PDN into :class:`~pdnkit.pdn.record.GameRecord` objects, game by game.

:func:`read_games` decodes the input (UTF-8, else CP1251/CP1252 with an ``encoding-fallback``
finding), cuts it into game chunks (:mod:`pdnkit.pdn.split`) and parses each chunk with the
Lark grammar ``grammars/pdn.lark`` (LALR, transformer applied during parsing). A syntax error
costs only its game: the record keeps its raw text and tags (when they can be read), gets a
``syntax-error`` finding with line, column and a plain message, and reading goes on.

Example:
    >>> text = '[White "Sijbrands"]\\n1. 32-28 {good} 19-23 (1... 18-23) 2. 28x19 14x23 2-0'
    >>> g = next(read_games(text))
    >>> g.tag("White"), [m.text for m in g.moves], g.result
    ('Sijbrands', ['32-28', '19-23', '28x19', '14x23'], '2-0')
    >>> g.moves[0].comments_after, g.moves[1].variations[0][0].squares
    (['good'], ('18', '23'))
"""

from __future__ import annotations

import io
import os
import re
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from pdnkit.findings import Finding, Severity, make_finding
from pdnkit.pdn.decode import LEGACY, detect_encoding_chunks
from pdnkit.pdn.record import BodyElement, CommentNode, GameRecord, MoveNode, NagNode, SetupNode
from pdnkit.pdn.split import Chunk, split_lines, split_text

Source = str | os.PathLike[str] | bytes | IO[str] | IO[bytes]

_STRENGTH_NAG = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
_SQUARE = re.compile(r"[a-l](?:1[0-2]|[1-9])|\d+")
_STANDARD_RESULTS = frozenset({"2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "1/2-1/2", "*"})
_DASHES = {"\u2010", "\u2011", "\u2012", "\u2013", "\u2014", "\u2212"}
_BARE_SCORE = re.compile(r"\d{1,2}-\d{1,2}")
_UNESCAPE = re.compile(r"\\(.)")
_TAG_TOKENS = frozenset({"TAGBARE", "TAGNAME", "TAGVALUE"})


class _Var:
    """A variation as the transformer hands it over: its elements and where it opened."""

    __slots__ = ("items", "line", "column")

    def __init__(self, items: list[Any]) -> None:
        self.items = items
        self.line = None
        self.column = None


class _Tag:
    """A tag pair as the transformer hands it over (value token None for ``[Name]``)."""

    __slots__ = ("name", "value", "bare", "tok")

    def __init__(self, name: str, value: str | None, bare: bool, tok: Any) -> None:
        self.name = name
        self.value = value
        self.bare = bare
        self.tok = tok


class _Transformer:
    """Callbacks Lark calls while parsing (LALR): build light structures, no tree."""

    __visit_tokens__ = False

    def tag(self, children: list[Any]) -> _Tag:
        if len(children) == 1:  # TAG: [Name "value"]
            tok = children[0]
            v = tok.value
            q = v.index('"')
            return _Tag(v[1:q].strip(), v[q + 1:v.rindex('"')], False, tok)
        # [LSQB, TAGNAME, (TAGVALUE | TAGBARE)?, RSQB]
        name = children[1]
        if len(children) < 4:
            return _Tag(name.value.strip(), None, False, name)
        val = children[2]
        if val.type == "TAGBARE":
            return _Tag(name.value.strip(), val.value.strip(), True, val)
        text = val.value.rstrip()
        return _Tag(name.value.strip(), text[1:-1], False, val)

    def variation(self, children: list[Any]) -> _Var:
        # [LPAR, elements?, RESULT?, RPAR]
        items: list[Any] = []
        for ch in children[1:-1]:
            if isinstance(ch, list):
                items.extend(ch)
            else:
                items.append(ch)
        return _Var(items)

    def elements(self, children: list[Any]) -> list[Any]:
        # elements: _element | elements _element -- one list, appended in place
        if len(children) == 1:
            return [children[0]]
        lst = children[0]
        lst.append(children[1])
        return lst

    tags = elements

    def start(self, children: list[Any]) -> list[Any]:
        # [tags?, elements?, RESULT?]
        out: list[Any] = []
        for ch in children:
            if isinstance(ch, list):
                out.extend(ch)
            else:
                out.append(ch)
        return out


def _lark_transformer() -> Any:
    from lark import Transformer

    class T(_Transformer, Transformer):  # type: ignore[misc]
        pass

    return T()


_local = threading.local()
_PARSERS: dict[bool, Any] = {}


def _wrapper_seen(tok: Any) -> Any:
    seen = getattr(_local, "wrappers", None)
    if seen is not None:
        seen.append(tok)
    return tok


def _parser(use_cython: bool | None = None) -> Any:
    from pdnkit.pdn.grammar import accelerator, build_parser

    key = accelerator() == "lark-cython" if use_cython is None else use_cython
    p = _PARSERS.get(key)
    if p is None:
        p = build_parser(_lark_transformer(), {"WRAPPER": _wrapper_seen}, use_cython=key)
        _PARSERS[key] = p
    return p


# ------------------------------------------------------------------------------------------
# the fast lane: a game that is only tag pairs, flat movetext and a result

# The terminals of the usual game, taken from the grammar (the same patterns, in the order
# Lark's lexer tries them). A game whose text is a sequence of these that fits
# ``tags? elements? (RESULT tags?)?`` -- no variation, no liberal tag, no forum wrapper -- is
# tokenised with one regular expression and handed to the reader as Lark's transformer would
# hand it over. Anything else (and every syntax error) goes through the Lark parser.
_FAST_ELEMENTS = ("MOVENUM", "NUMMOVE", "ALPHAMOVE", "PLACEHOLDER", "STRENGTH", "NAG",
                  "COMMENT", "LINECOMMENT", "SETUP")
_FAST_TERMINALS = frozenset((*_FAST_ELEMENTS, "TAG", "RESULT", "WS", "ESCAPE", "WRAPPER"))
_FAST: list[Any] = []


class _Tok:
    """A token of the fast lane (the fields of a Lark token the reader reads)."""

    __slots__ = ("type", "value", "line", "column")

    def __init__(self, type_: str, value: str, line: int, column: int) -> None:
        self.type = type_
        self.value = value
        self.line = line
        self.column = column


def _fast_pattern(parser: Any) -> str | None:
    """The fast lane's regular expression, from the terminals of the built grammar (None when
    the grammar no longer has them all)."""
    terms = [t for t in parser.terminals if t.name in _FAST_TERMINALS]
    if len(terms) != len(_FAST_TERMINALS):  # the grammar changed: no fast lane
        return None
    # Lark's own order (lark.lexer.BasicLexer): the first alternative that matches wins
    terms.sort(key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name))
    return "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in terms)


def _cache_file() -> Path | None:
    """Where the fast lane's expression for this grammar text is kept between runs:
    ``$PDNKIT_CACHE_DIR``, else ``$XDG_CACHE_HOME/pdnkit``, else ``~/.cache/pdnkit``; the name
    carries a hash of the grammar text, so an edited grammar is derived afresh. ``None`` when
    ``PDNKIT_CACHE_DIR`` is set empty (no cache)."""
    import hashlib

    from pdnkit.pdn.grammar import grammar_text

    base = os.environ.get("PDNKIT_CACHE_DIR")
    if base is not None and not base.strip():
        return None
    if not base:
        xdg = os.environ.get("XDG_CACHE_HOME")
        base = os.path.join(xdg, "pdnkit") if xdg else os.path.join(
            os.path.expanduser("~"), ".cache", "pdnkit")
    digest = hashlib.sha256(grammar_text().encode("utf-8")).hexdigest()[:24]
    return Path(base) / f"fast-lane-{digest}.json"


def _fast_regex(parser: Any = None) -> Any:
    """The fast lane's compiled expression (``None``: no fast lane). Derived once from the
    grammar's terminals through Lark and kept in a small cache file (see :func:`_cache_file`),
    so a run whose games all take the fast lane never loads Lark."""
    if _FAST:
        return _FAST[0]
    import json

    path = _cache_file()
    pattern: str | None = None
    found = False
    if path is not None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("format") == 1 and (data["pattern"] is None
                                            or isinstance(data["pattern"], str)):
                pattern = data["pattern"]
                found = True
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            found = False
    if found and pattern is not None:
        try:
            _FAST.append(re.compile(pattern))
            return _FAST[0]
        except re.error:
            found = False
    if not found:
        pattern = _fast_pattern(parser if parser is not None else _parser())
        if path is not None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_suffix(f".{os.getpid()}.tmp")
                tmp.write_text(json.dumps({"format": 1, "pattern": pattern}), encoding="utf-8")
                os.replace(tmp, path)
            except OSError:
                pass  # a read-only home: derive it again next time
    _FAST.append(re.compile(pattern) if pattern is not None else None)
    return _FAST[0]


_ELEMENT_TYPES = frozenset(_FAST_ELEMENTS)


def _fast_children(text: str, parser: Any) -> list[Any] | None:
    """What the parser's transformer returns for ``text``, when the text stays in the fast
    lane's subset; ``None`` otherwise (then Lark decides)."""
    rx = _FAST[0] if _FAST else _fast_regex(parser)
    if rx is None:
        return None
    out: list[Any] = []
    append = out.append
    state = 0  # 0: tags, 1: movetext, 2: after the result
    end = 0
    line = 1
    last_nl = -1
    elements = _ELEMENT_TYPES
    make_tag = _Transformer.tag
    for m in rx.finditer(text):
        start = m.start()
        if start != end:
            return None  # text no terminal of the lane matches
        val = m.group()
        end = start + len(val)
        typ = m.lastgroup
        if typ in elements:
            if state == 2:
                return None
            state = 1
            append(_Tok(typ, val, line, start - last_nl))
        elif typ == "TAG":
            if state == 1:
                return None
            append(make_tag(None, [_Tok(typ, val, line, start - last_nl)]))  # type: ignore[arg-type]
        elif typ == "RESULT":
            if state == 2:
                return None
            state = 2
            append(_Tok(typ, val, line, start - last_nl))
        elif typ == "WRAPPER":
            return None
        if "\n" in val:
            line += val.count("\n")
            last_nl = start + val.rindex("\n")
    if end != len(text) or not out:
        return None
    return out


def _fast_record(text: str, parser: Any, line0: int, rec: GameRecord) -> bool:
    """The fast lane's narrowest case, straight into ``rec``: tag pairs, numbered moves of
    known squares, brace comments after a move, NAGs after a move and a standard result, with
    nothing a strict reader would remark on. Fills ``rec.tags``, ``body``, ``moves`` and
    ``result`` exactly as the general path (:func:`_fast_children`, then
    :func:`_records_from_parse`) does and returns True; returns False, leaving ``rec`` alone,
    for anything else."""
    rx = _FAST[0] if _FAST else _fast_regex(parser)
    if rx is None:
        return False
    tags: list[tuple[str, str]] = []
    moves: list[MoveNode] = []
    result: str | None = None
    state = 0  # 0: tags, 1: movetext, 2: after the result
    end = 0
    line = 1
    last_nl = -1
    lo = line0 - 1
    number: int | None = None
    black_dots = False
    numbered = False  # a move number waits for its move
    before: list[str] = []
    last: MoveNode | None = None
    tokens = _TOKEN_CACHE
    for m in rx.finditer(text):
        start = m.start()
        if start != end:
            return False
        val = m.group()
        end = start + len(val)
        typ = m.lastgroup
        if typ == "NUMMOVE" or typ == "ALPHAMOVE":
            if state == 2:
                return False
            state = 1
            tinfo = tokens.get(val)
            if tinfo is None:
                tinfo = _move_token(val)
            num, mtext, squares, seps, star, remark = tinfo
            if star or remark is not None:
                return False
            if num is not None:
                if num[1] == 2:
                    return False
                number = num[0]
                black_dots = num[1] >= 2
                numbered = True
            last = MoveNode(mtext, squares, seps, None, False, None, [], [], [], [], None,
                            line + lo, start - last_nl, False)
            if numbered:
                last.number = number
                last.black_dots = black_dots
                numbered = False
                black_dots = False
            if before:
                last.comments_before = before
                before = []
            moves.append(last)
        elif typ == "COMMENT":
            if state == 2:
                return False
            state = 1
            body = val.rstrip()[1:-1]
            if "{" in body:
                return False
            if last is not None:
                last.comments_after.append(body)
            else:
                before.append(body)
        elif typ == "MOVENUM":
            if state == 2:
                return False
            state = 1
            val = val.rstrip()
            digits = val.rstrip(".")
            dots = len(val) - len(digits)
            if dots == 2:
                return False
            number = int(digits)
            black_dots = dots >= 2
            numbered = True
        elif typ == "TAG":
            if state != 0:
                return False
            q = val.index('"')
            name = val[1:q].strip()
            if not name[:1].isupper():
                return False
            inner = val[q + 1:val.rindex('"')]
            if "\\" in inner:
                inner = _UNESCAPE.sub(r"\1", inner)
            elif '"' in inner:
                return False
            tags.append((name, inner))
        elif typ == "RESULT":
            if state == 2:
                return False
            state = 2
            result = val.rstrip()
            if result not in _STANDARD_RESULTS:
                return False
        elif typ == "NAG":
            if state == 2 or last is None:
                return False
            state = 1
            last.nags.append(int(val.rstrip()[1:]))
        elif typ != "WS" and typ != "ESCAPE":
            return False  # placeholders, strength marks, line comments, setups, wrappers
        if "\n" in val:
            line += val.count("\n")
            last_nl = start + val.rindex("\n")
    if end != len(text) or result is None or numbered or before:
        return False
    rec.tags = tags
    rec.body = list(moves)
    rec.moves = moves
    rec.result = result
    return True


# ------------------------------------------------------------------------------------------
# building the record from the parse


class _Ctx:
    """Per-game state while turning parse output into a record."""

    def __init__(self, line0: int, strict: bool) -> None:
        self.line0 = line0
        self.strict = strict
        self.violations: list[tuple[str, int | None, int | None]] = []
        self.starred: tuple[MoveNode, int] | None = None  # last move with a glued '*'

    def where(self, tok: Any) -> tuple[int | None, int | None]:
        line = getattr(tok, "line", None)
        return (None if line is None else line + self.line0 - 1), getattr(tok, "column", None)

    def violation(self, message: str, tok: Any = None) -> None:
        line, col = self.where(tok) if tok is not None else (None, None)
        self.violations.append((message, line, col))


def _tag_value(tag: _Tag, ctx: _Ctx) -> str:
    inner = tag.value
    if inner is None:
        ctx.violation(f"tag [{tag.name}] has no value", tag.tok)
        return ""
    if tag.bare:
        ctx.violation(f"tag value without quotes: {inner!r}", tag.tok)
        return inner
    if "\\" in inner:
        inner = _UNESCAPE.sub(r"\1", inner)
    elif '"' in inner:
        ctx.violation("unescaped quote inside a tag value", tag.tok)
    return inner


_MOVE_CACHE: dict[str, tuple[str, tuple[str, ...], tuple[str, ...], bool, str | None]] = {}


def _split_move(text: str) -> tuple[str, tuple[str, ...], tuple[str, ...], bool, str | None]:
    """(text, squares, separators, glued star, strictness remark) of a move token's move part
    as written (cached: a collection uses few distinct move texts)."""
    hit = _MOVE_CACHE.get(text)
    if hit is not None:
        return hit
    core = text.strip()
    star = core.endswith("*")
    if star:
        core = core[:-1].rstrip()
    remark = None
    if core.isdigit():  # 3228: no separator
        squares: tuple[str, ...] = (core[:2], core[2:])
        seps: tuple[str, ...] = ("",)
        remark = f"move {core} written without a separator"
    else:
        ms = list(_SQUARE.finditer(core))
        squares = tuple(m.group() for m in ms)
        seps = tuple(core[a.end():b.start()].strip() for a, b in zip(ms, ms[1:], strict=False))
        if any(s in _DASHES for s in seps):
            remark = f"non-ASCII dash in the move {core!r}"
    res = (core, squares, seps, star, remark)
    if len(_MOVE_CACHE) > 50_000:
        _MOVE_CACHE.clear()
    _MOVE_CACHE[text] = res
    return res


_TOKEN_CACHE: dict[str, tuple[Any, ...]] = {}


def _move_token(val: str) -> tuple[Any, ...]:
    """((number, dots, number as written) or None, then :func:`_split_move`'s fields) of a
    whole move token such as ``"12. 32-28 "`` (cached)."""
    num = None
    rest = val
    if "." in val:
        i = val.index(".")
        j = i + 1
        while j < len(val) and val[j] == ".":
            j += 1
        num = (int(val[:i]), j - i, val[:j])
        rest = val[j:]
    res = (num, *_split_move(rest))
    if len(_TOKEN_CACHE) > 50_000:
        _TOKEN_CACHE.clear()
    _TOKEN_CACHE[val] = res
    return res


def _flatten_leading_variations(items: list[Any], ctx: _Ctx) -> list[Any]:
    """A variation before the first move of its line replaces nothing: read its moves as
    part of the line (a warning says so)."""
    out: list[Any] = []
    seen_move = False
    for it in items:
        if isinstance(it, _Var) and not seen_move:
            ctx.violation("a variation before any move of its line (read as part of the line)")
            inner = _flatten_leading_variations(it.items, ctx)
            out.extend(inner)
            seen_move = any(getattr(x, "type", None) in _MOVE_TYPES for x in inner)
            continue
        if getattr(it, "type", None) in _MOVE_TYPES:
            seen_move = True
        out.append(it)
    return out


_MOVE_TYPES = frozenset({"NUMMOVE", "ALPHAMOVE", "PLACEHOLDER"})


def _build_line(items: list[Any], ctx: _Ctx, main: bool, tags: dict[str, str] | None,
                out_moves: list[MoveNode] | None) -> tuple[list[BodyElement], str | None]:
    """Turn a flat element list (main line or variation) into body elements."""
    body: list[BodyElement] = []
    last: MoveNode | None = None
    number: int | None = None
    black_dots = False
    number_tok: Any = None
    comments_before: list[str] = []
    setup: str | None = None
    pending_vars: list[list[BodyElement]] = []
    result: str | None = None
    line0 = ctx.line0 - 1
    if items and last is None and any(isinstance(it, _Var) for it in items):
        items = _flatten_leading_variations(items, ctx)
    for it in items:
        if isinstance(it, _Var):
            sub, _ = _build_line(it.items, ctx, False, None, None)
            if last is not None:
                last.variations.append(sub)
            else:
                pending_vars.append(sub)
            continue
        typ = it.type
        val = it.value
        if typ == "NUMMOVE" or typ == "ALPHAMOVE":
            tinfo = _TOKEN_CACHE.get(val)
            if tinfo is None:
                tinfo = _move_token(val)
            num, text, squares, seps, star, remark = tinfo
            if num is not None:  # the move number is part of the token: "12. 32-28"
                number, dots, written_num = num
                black_dots = dots >= 2
                if dots == 2:
                    ctx.violation(f"move number {written_num!r} with two dots (PDN: N. or N...)",
                                  it)
                number_tok = it
            mv = MoveNode(text, squares, seps, line=it.line + line0, column=it.column)
            if star:
                mv.nags.append(7)
                ctx.starred = (mv, len(ctx.violations))
                ctx.violation(f"'*' glued to the move {text} as a forced-move mark "
                              "(PDN 3.0: write $7)", it)
            if remark is not None:
                ctx.violation(remark, it)
        elif typ == "PLACEHOLDER":
            val = val.strip()
            if val.startswith(".") and number_tok is not None:
                black_dots = True  # "1. ... 7-12" is "1... 7-12"
                continue
            ctx.violation(f"unknown move {val!r} (a placeholder, not a move)", it)
            mv = MoveNode(text="- -" if val.startswith("-") else "...", line=it.line + line0,
                          column=it.column, placeholder=True)
        else:
            mv = None
        if mv is not None:
            if number_tok is not None:
                mv.number = number
                mv.black_dots = black_dots
                number_tok = None
                black_dots = False
            if comments_before:
                mv.comments_before = comments_before
                comments_before = []
            if setup is not None:
                mv.setup_before = setup
                setup = None
            if pending_vars:
                mv.variations.extend(pending_vars)
                pending_vars = []
            body.append(mv)
            if out_moves is not None:
                out_moves.append(mv)
            last = mv
            continue
        val = val.rstrip()
        if typ == "MOVENUM":
            digits = val.rstrip(".")
            dots = len(val) - len(digits)
            number = int(digits)
            black_dots = dots >= 2
            if dots == 2:
                ctx.violation(f"move number {val!r} with two dots (PDN: N. or N...)", it)
            number_tok = it
        elif typ == "COMMENT" or typ == "LINECOMMENT":
            if typ == "COMMENT":
                text = val[1:-1]
                if "{" in text:
                    ctx.violation("nested comment (PDN 3.0 forbids '{' inside a comment)", it)
            else:
                text = val[1:]
                ctx.violation("';' line comment (not in PDN 3.0; use braces)", it)
            if last is not None:
                last.comments_after.append(text)
            else:
                comments_before.append(text)
        elif typ == "NAG":
            if last is not None:
                last.nags.append(int(val[1:]))
            else:
                line, col = ctx.where(it)
                body.append(NagNode(int(val[1:]), line, col))
        elif typ == "STRENGTH":
            if last is not None and last.strength is None:
                last.strength = val
            else:
                ctx.violation(f"move-strength mark {val!r} with no move before it", it)
                bare = val.strip("()")
                if last is not None and bare in _STRENGTH_NAG:
                    last.nags.append(_STRENGTH_NAG[bare])
        elif typ == "SETUP":
            q1 = val.index('"')
            fen = val[q1 + 1:val.rindex('"')]
            if setup is not None:
                line, col = ctx.where(it)
                body.append(SetupNode(setup, line, col))
            setup = fen
        elif typ == "RESULT":
            result = val
            if main:
                if val not in _STANDARD_RESULTS:
                    ctx.violation(f"non-standard result token {val!r}", it)
            else:
                ctx.violation(f"result {val!r} inside a variation", it)
    # leftovers with no move to attach to
    for text in comments_before:
        body.append(CommentNode(text))
    if setup is not None:
        body.append(SetupNode(setup))
    if number_tok is not None and main and not black_dots:
        ctx.violation(f"move number {number_tok.value.strip()!r} with no move after it", number_tok)
    for v in pending_vars:  # variation in a line without moves: keep its moves visible
        body.extend(v)
    return body, result


def _records_from_parse(children: list[Any], ctx: _Ctx, rec: GameRecord) -> None:
    tags: list[tuple[str, str]] = []
    items: list[Any] = []
    for ch in children:
        if isinstance(ch, _Tag):
            if items:
                ctx.violation(f"tag [{ch.name}] after the game's result", ch.tok)
            name = ch.name
            if not name[:1].isupper():
                ctx.violation(f"tag name {name!r} does not start with a capital letter", ch.tok)
            tags.append((name, _tag_value(ch, ctx)))
        else:
            items.append(ch)
    rec.tags = tags
    moves: list[MoveNode] = []
    body, result = _build_line(items, ctx, True, None, moves)
    if (result is None and moves and ctx.starred is not None and ctx.starred[0] is moves[-1]
            and body and body[-1] is moves[-1] and not moves[-1].comments_after
            and not moves[-1].variations and moves[-1].nags == [7]):
        # "45-40*" ending the game: the star is the terminator glued to the last move
        last = moves[-1]
        last.nags.clear()
        msg, vline, vcol = ctx.violations[ctx.starred[1]]
        ctx.violations[ctx.starred[1]] = (
            f"game terminator '*' glued to the last move {last.text}", vline, vcol)
        result = "*"
    if result is None and moves:
        last = moves[-1]
        tag_result = rec.tag("Result")
        # a score such as 4-6 written where the result goes (Delfts-style match points)
        if (tag_result is not None and last.text == tag_result.strip()
                and _BARE_SCORE.fullmatch(last.text) and not last.comments_after
                and not last.variations and not last.nags and last.strength is None
                and body and body[-1] is last):
            moves.pop()
            body.pop()
            result = last.text
            ctx.violations.append((f"non-standard result token {last.text!r}", last.line,
                                   last.column))
    rec.body = body
    rec.moves = moves
    rec.result = result


# ------------------------------------------------------------------------------------------
# syntax errors in words


def _describe_error(exc: Exception, text: str, line0: int = 1) -> tuple[str, int | None,
                                                                        int | None]:
    """A message a person understands, with the line (in the file: ``text`` starts at line
    ``line0``) and column."""
    msg, line, col = _describe_error_rel(exc, text)
    if line is not None:
        line += line0 - 1
        msg = _LINE_IN_MSG.sub(lambda m: f"line {int(m.group(1)) + line0 - 1}", msg)
    return msg, line, col


_LINE_IN_MSG = re.compile(r"line (\d+)")


def _describe_error_rel(exc: Exception, text: str) -> tuple[str, int | None, int | None]:
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    line = getattr(exc, "line", None)
    col = getattr(exc, "column", None)
    pos = None
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream
    elif isinstance(exc, UnexpectedToken) and getattr(exc.token, "type", "") in _TAG_TOKENS:
        # the contextual lexer re-lexed the text with tag terminals: judge by the character
        pos = getattr(exc.token, "start_pos", None)
        line = getattr(exc.token, "line", line)
        col = getattr(exc.token, "column", col)
    if pos is not None:
        ch = text[pos] if 0 <= pos < len(text) else ""
        if ch == "{":
            return f"unterminated comment opened at line {line}, column {col}", line, col
        if ch == "}":
            return ("'}' closes a comment that is not open (or a comment is nested too "
                    "deeply)"), line, col
        if ch == '"':
            end = text.find("\n", pos)
            rest = text[pos + 1:end if end >= 0 else len(text)]
            if '"' in rest:
                return "malformed tag: expected [Name \"value\"] with nothing after the value", line, col
            return "unterminated string (a tag value is missing its closing quote)", line, col
        if ch == "[":
            return "a tag where moves were expected (tags must come before the moves)", line, col
        if ch == "/":
            return "malformed setup: write /FEN \"...\"/", line, col
        shown = ch if ch.isprintable() and ch.strip() else repr(ch)
        return f"unexpected character {shown!r}: not a move, move number, comment or result", line, col
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        ttype = getattr(tok, "type", "")
        tval = getattr(tok, "value", "")
        if ttype == "$END":
            opened = _unclosed_paren(text)
            if opened is not None:
                return (f"unclosed variation '(' opened at line {opened[0]}, column {opened[1]}",
                        opened[0], opened[1])
            return "the game text ends in the middle of a construct", line, col
        line = getattr(tok, "line", line)
        col = getattr(tok, "column", col)
        if ttype == "RPAR" or tval == ")":
            return "')' closes a variation that was never opened", line, col
        if ttype == "LSQB" or tval == "[":
            return "a tag where moves were expected (tags must come before the moves)", line, col
        if ttype == "RESULT":
            return f"a second result {tval!r} in the same game", line, col
        if ttype == "RSQB" or tval == "]":
            return "malformed tag: expected [Name \"value\"]", line, col
        if ttype in ("TAG", "LSQB"):
            return "a tag where moves were expected (tags must come before the moves)", line, col
        expected = getattr(exc, "accepts", None) or getattr(exc, "expected", None) or ()
        shown = tval.strip()
        if "NUMMOVE" not in expected and "RPAR" not in expected:
            return (f"{shown!r} after the game's result (a new game without tags? put each "
                    "game's result last)"), line, col
        return f"{shown!r} is not allowed here", line, col
    if isinstance(exc, UnexpectedEOF):
        opened = _unclosed_paren(text)
        if opened is not None:
            return (f"unclosed variation '(' opened at line {opened[0]}, column {opened[1]}",
                    opened[0], opened[1])
        return "the game text ends in the middle of a construct", None, None
    return f"cannot parse: {exc}", line, col


def _unclosed_paren(text: str) -> tuple[int, int] | None:
    stack: list[int] = []
    in_comment = 0
    for i, ch in enumerate(text):
        if in_comment:
            if ch == "{":
                in_comment += 1
            elif ch == "}":
                in_comment -= 1
        elif ch == "{":
            in_comment = 1
        elif ch == "(":
            stack.append(i)
        elif ch == ")" and stack:
            stack.pop()
    if not stack:
        return None
    pos = stack[-1] if len(stack) == 1 else stack[0]
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return line, col


# ------------------------------------------------------------------------------------------
# one game


def _first_content_line(text: str) -> int:
    for i, ln in enumerate(text.split("\n")):
        s = ln.strip()
        if s and not ln.startswith("%"):
            return i
    return 0


def parse_game(text: str, *, strict: bool = False, file: str | None = None, index: int = 0,
               line: int = 1, encoding: str | None = None, _parser_obj: Any = None) -> GameRecord:
    """Parse the text of exactly one game (no splitting) into a :class:`GameRecord`.

    Never raises for bad input: problems become findings on the record.

    Example:
        >>> g = parse_game('[Event "x"]\\n1. 32-28 {unclosed')
        >>> g.parsed, g.tag("Event"), g.findings[0].code, g.findings[0].message
        (False, 'x', 'syntax-error', 'unterminated comment opened at line 2, column 10')
    """
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    skip = _first_content_line(text)
    rec = GameRecord(file=file, index=index, line=line + skip, raw=text, encoding=encoding)
    rec.end_line = line + text.count("\n", 0, len(text.rstrip("\n")))
    ctx = _Ctx(line, strict)
    lane = _parser_obj is None or _parser_obj is _PARSERS.get(True) or \
        _parser_obj is _PARSERS.get(False)
    if lane and _fast_record(text, _parser_obj, line, rec):
        return rec
    parser = _parser_obj or _parser()
    _local.wrappers = []
    try:
        children = _fast_children(text, parser) if lane else None
        if children is None:
            children = parser.parse(text)
    except Exception as exc:  # noqa: BLE001 - every parse failure becomes a finding
        _syntax_error(rec, exc, text, ctx, parser)
    else:
        try:
            _records_from_parse(children, ctx, rec)
        except Exception as exc:  # noqa: BLE001 - defensive: never raise on data
            rec.parsed = False
            rec.findings.append(make_finding(
                "syntax-error", f"cannot interpret the game: {exc}", file=file, game_index=index,
                line=rec.line))
    for tok in _local.wrappers:
        ctx.violation("forum wrapper [pdn]...[/pdn] around the game", tok)
    _local.wrappers = None
    sev = Severity.ERROR if strict else Severity.WARNING
    for msg, vline, vcol in ctx.violations:
        rec.findings.append(make_finding(
            "strict-violation", msg + ("" if strict else " (a strict PDN 3.0 reader rejects this)"),
            severity=sev, file=file, game_index=index, line=vline, column=vcol))
    return rec


def _syntax_error(rec: GameRecord, exc: Exception, text: str, ctx: _Ctx, parser: Any) -> None:
    msg, eline, ecol = _describe_error(exc, text, ctx.line0)
    rec.parsed = False
    rec.findings.append(make_finding(
        "syntax-error", msg, file=rec.file, game_index=rec.index, line=eline, column=ecol))
    # salvage the tags: parse the text before the first line that is not a tag line
    head_lines = []
    for ln in text.split("\n"):
        s = ln.strip()
        if s.startswith("[") or not s or ln.startswith("%"):
            head_lines.append(ln)
        else:
            break
    if eline is not None:
        head_lines = head_lines[: max(0, eline - ctx.line0)]
    head = "\n".join(head_lines)
    if head.strip():
        try:
            children = parser.parse(head)
        except Exception:  # noqa: BLE001
            return
        tmp = _Ctx(ctx.line0, ctx.strict)
        rec.tags = [(ch.name, _tag_value(ch, tmp)) for ch in children
                    if isinstance(ch, _Tag)]


# ------------------------------------------------------------------------------------------
# sources


def _open_lines(source: Source, encoding: str | None) -> tuple[Iterator[str] | None, str | None,
                                                                  str | None, Any]:
    """(lines, encoding, file name, closer) for any accepted source."""
    if isinstance(source, os.PathLike) or (
        isinstance(source, str) and "\n" not in source and len(source) < 4096
        and not source.lstrip().startswith(("[", "{", "%")) and os.path.isfile(source)
    ):
        path = Path(source)
        enc = encoding
        if enc is None:
            with open(path, "rb") as fh:
                enc = detect_encoding_chunks(iter(lambda: fh.read(1 << 20), b""))
        fh2 = open(path, encoding=enc, errors="replace", newline=None)  # noqa: SIM115
        return iter(fh2), enc, str(path), fh2
    if isinstance(source, str):
        if ("\n" not in source and source.strip().lower().endswith((".pdn", ".txt"))
                and not source.lstrip().startswith("[")):
            raise FileNotFoundError(f"no such PDN file: {source}")
        return None, encoding, None, None
    if isinstance(source, (bytes, bytearray)):
        enc = encoding or detect_encoding_chunks([bytes(source)])
        text = bytes(source).decode(enc, errors="replace")
        return iter(io.StringIO(text, newline=None)), enc, None, None
    name = getattr(source, "name", None)
    name = name if isinstance(name, str) else None
    if isinstance(source, io.TextIOBase):
        return _universal(source), getattr(source, "encoding", None), name, None
    # a binary file object (or something with read())
    seekable = False
    try:
        seekable = bool(source.seekable())  # type: ignore[union-attr]
    except Exception:  # noqa: BLE001
        seekable = False
    if encoding is not None:
        enc = encoding
    elif seekable:
        start = source.tell()  # type: ignore[union-attr]
        enc = detect_encoding_chunks(iter(lambda: source.read(1 << 20), b""))  # type: ignore[union-attr,arg-type]
        source.seek(start)  # type: ignore[union-attr]
    else:
        data = source.read()  # type: ignore[union-attr]
        if isinstance(data, str):
            return iter(io.StringIO(data, newline=None)), None, name, None
        enc = detect_encoding_chunks([data])
        return iter(io.StringIO(data.decode(enc, errors="replace"), newline=None)), enc, name, None
    first = source.read(0)  # type: ignore[union-attr]
    if isinstance(first, str):
        return _universal(source), None, name, None  # type: ignore[arg-type]
    wrapper = io.TextIOWrapper(source, encoding=enc, errors="replace", newline=None)  # type: ignore[arg-type]
    return iter(wrapper), enc, name, None


def _universal(lines: Iterable[str]) -> Iterator[str]:
    """Lines with ``\r\n`` and ``\r`` line ends turned into ``\n`` (for text streams
    opened without universal newlines)."""
    for line in lines:
        if "\r" in line:
            yield from line.replace("\r\n", "\n").replace("\r", "\n").splitlines(keepends=True)
        else:
            yield line


def read_games(source: Source, *, strict: bool = False, file: str | None = None,
               encoding: str | None = None) -> Iterator[GameRecord]:
    """Stream the games of ``source`` (a path, a text or binary file object, bytes, or a
    string of PDN text) as :class:`GameRecord` objects, in file order.

    Memory does not grow with the file: it is read line by line and cut into games. Never
    raises for bad data (syntax errors and odd constructs become findings); ``strict=True``
    turns what PDN 3.0 forbids from warnings into errors. ``file`` overrides the file name
    put on records; ``encoding`` skips detection.

    Example:
        >>> [g.result for g in read_games('1. 32-28 2-0\\n1. 33-29 0-2\\n')]
        ['2-0', '0-2']
        >>> g = next(read_games('[Event "x"]\\n1. 1-18 1-1'))
        >>> [m.text for m in g.moves], g.result
        (['1-18'], '1-1')
    """
    lines, enc, name, closer = _open_lines(source, encoding)
    fname = file if file is not None else name
    try:
        chunks: Iterable[Chunk]
        if lines is None:
            chunks = split_text(str(source))
            enc = enc or None
        else:
            chunks = split_lines(lines)
        parser = None  # the Lark parser, built by the first game outside the fast lane
        index = 0
        fallback = enc is not None and enc.lower().replace("_", "-") in LEGACY
        pending: list[Finding] = []
        for chunk in chunks:
            if not chunk.has_content:
                continue
            rec = parse_game(chunk.text, strict=strict, file=fname, index=index,
                             line=chunk.line, encoding=enc, _parser_obj=parser)
            if _is_stray_text(rec):
                pending.append(make_finding(
                    "ignored-text", "text between games that is neither tags nor moves was "
                    f"skipped: {_excerpt(rec.raw)}",
                    file=fname, line=rec.line))
                continue
            if index == 0 and fallback:
                rec.findings.insert(0, make_finding(
                    "encoding-fallback", f"the file is not UTF-8; decoded as {enc}",
                    file=fname, game_index=0, details={"encoding": enc}))
            if pending:
                rec.findings[:0] = [f.located(game_index=index) for f in pending]
                pending = []
            yield rec
            index += 1
        if pending:
            rec = GameRecord(file=fname, index=index, line=pending[0].line or 1, raw="",
                             encoding=enc, findings=[f.located(game_index=index) for f in pending])
            rec.findings.append(make_finding("empty-game", "text after the last game holds "
                                             "no game", file=fname, game_index=index))
            yield rec
    finally:
        if closer is not None:
            closer.close()


def _is_stray_text(rec: GameRecord) -> bool:
    """Text with no tags, no moves and no result (a note between games, a lone comment)."""
    if rec.tags or rec.moves or rec.result is not None:
        return False
    if not rec.parsed:
        # unparseable text without tags counts as a game only if it looks like movetext
        return not re.search(r"\d{1,2}[ \t]*[-x:][ \t]*\d{1,2}|[a-h][1-8][-x:]?[a-h][1-8]",
                             rec.raw)
    return True


def _excerpt(text: str, n: int = 60) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= n else flat[: n - 3] + "...")


__all__ = ["parse_game", "read_games"]
