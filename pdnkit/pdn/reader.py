"""Read PDN into :class:`~pdnkit.pdn.record.GameRecord` objects, game by game.

:func:`read_games` decodes the input (:mod:`pdnkit.pdn.source`: UTF-8, UTF-16/32, else
CP1251, CP866 or CP1252 with an ``encoding-fallback`` finding), cuts it into game chunks
(:mod:`pdnkit.pdn.split`) and parses each chunk with the
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

import os
import re
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from pdnkit.findings import Finding, Severity, make_finding
from pdnkit.pdn.record import BodyElement, CommentNode, GameRecord, MoveNode, NagNode, SetupNode
from pdnkit.pdn.recover import Recovery
from pdnkit.pdn.source import Source, bare_record, open_source
from pdnkit.pdn.split import Chunk

_STRENGTH_NAG = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
_SQUARE = re.compile(r"[a-l](?:1[0-2]|[1-9])?|\d+")  # a bare file: Russian short form cd4
_STANDARD_RESULTS = frozenset({"2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "1/2-1/2", "*"})
_DASHES = {"\u2010", "\u2011", "\u2012", "\u2013", "\u2014", "\u2212"}
_BARE_SCORE = re.compile(r"\d{1,2}-\d{1,2}")
_UNESCAPE = re.compile(r"\\(.)")
_TAG_TOKENS = frozenset({"TAGBARE", "TAGNAME", "TAGVALUE"})
_IDENTIFIER = re.compile(r"[A-Z][A-Za-z0-9_]*")  # a PDN 3.0 tag name


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
            if not _IDENTIFIER.fullmatch(name):
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


#: strict-violation findings listed per game; beyond it they are counted in one more finding
#: (a megabyte of ``(`` or ``--`` would otherwise make a finding per character)
MAX_VIOLATIONS = 100


class _Ctx:
    """Per-game state while turning parse output into a record."""

    def __init__(self, line0: int, strict: bool) -> None:
        self.line0 = line0
        self.strict = strict
        self.violations: list[tuple[str, int | None, int | None]] = []
        self.unlisted = 0  # violations beyond MAX_VIOLATIONS
        self.starred: tuple[MoveNode, int] | None = None  # last move with a glued '*'
        self.recovered: set[tuple[int, int]] = set()  # (line, column) of recovered comments
        self.lifted_result: tuple[int, int] | None = None  # see Recovery.lifted_result
        self.main_result: str | None = None

    def where(self, tok: Any) -> tuple[int | None, int | None]:
        line = getattr(tok, "line", None)
        return (None if line is None else line + self.line0 - 1), getattr(tok, "column", None)

    def violation(self, message: str, tok: Any = None) -> None:
        if len(self.violations) >= MAX_VIOLATIONS:
            self.unlisted += 1
            return
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
        elif "X" in seps:
            remark = f"capital 'X' as the capture separator in {core!r} (PDN 3.0: x or :)"
        elif "-" in seps and len(seps) > 1:
            remark = f"move {core!r} with '-' between more than two squares (PDN 3.0: a " \
                "capture path is written with x or :)"
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
    part of the line (a warning says so). Iterative: any depth of nesting."""
    if not any(isinstance(it, _Var) for it in items):
        return items
    out: list[Any] = []
    seen_move = False
    stack = [iter(items)]
    while stack:
        it = next(stack[-1], _DONE)
        if it is _DONE:
            stack.pop()
        elif isinstance(it, _Var) and not seen_move:
            ctx.violation("a variation before any move of its line (read as part of the line)")
            stack.append(iter(it.items))
        else:
            if getattr(it, "type", None) in _MOVE_TYPES:
                seen_move = True
            out.append(it)
    return out


_MOVE_TYPES = frozenset({"NUMMOVE", "ALPHAMOVE", "PLACEHOLDER"})
_DONE = object()


class _Line:
    """One line of movetext (the main line or a variation) while its elements are read: the
    body so far and what waits for the next move (its number, comments, a setup, variations
    written before any move)."""

    __slots__ = ("main", "moves", "body", "last", "number", "black_dots", "number_tok",
                 "comments_before", "setup", "pending_vars", "result")

    def __init__(self, main: bool, moves: list[MoveNode] | None) -> None:
        self.main = main
        self.moves = moves  # the main line's move list (None in a variation)
        self.body: list[BodyElement] = []
        self.last: MoveNode | None = None
        self.number: int | None = None
        self.black_dots = False
        self.number_tok: Any = None
        self.comments_before: list[str] = []
        self.setup: str | None = None
        self.pending_vars: list[list[BodyElement]] = []
        self.result: str | None = None

    # -- moves --------------------------------------------------------------------------

    def move(self, it: Any, ctx: _Ctx) -> None:
        """A NUMMOVE / ALPHAMOVE token (``12. 32-28``, ``c3:e5``)."""
        tinfo = _TOKEN_CACHE.get(it.value)
        if tinfo is None:
            tinfo = _move_token(it.value)
        num, text, squares, seps, star, remark = tinfo
        if num is not None:  # the move number is part of the token: "12. 32-28"
            number, dots, written_num = num
            self.number = number
            self.black_dots = dots >= 2
            if dots == 2:
                ctx.violation(f"move number {written_num!r} with two dots (PDN: N. or N...)", it)
            self.number_tok = it
        mv = MoveNode(text, squares, seps, line=it.line + ctx.line0 - 1, column=it.column)
        if star:
            mv.nags.append(7)
            ctx.starred = (mv, len(ctx.violations))
            ctx.violation(f"'*' glued to the move {text} as a forced-move mark "
                          "(PDN 3.0: write $7)", it)
        if remark is not None:
            ctx.violation(remark, it)
        self._add_move(mv)

    def placeholder(self, it: Any, ctx: _Ctx) -> None:
        """``- -``, ``--`` or ``...`` where a move should be (``1. ... 7-12`` is ``1... 7-12``)."""
        val = it.value.strip()
        if val.startswith(".") and self.number_tok is not None:
            self.black_dots = True
            return
        ctx.violation(f"unknown move {val!r} (a placeholder, not a move)", it)
        self._add_move(MoveNode(text="- -" if val.startswith("-") else "...",
                                line=it.line + ctx.line0 - 1, column=it.column,
                                placeholder=True))

    def _add_move(self, mv: MoveNode) -> None:
        """Append ``mv`` with what waited for it (number, comments, setup, variations)."""
        if self.number_tok is not None:
            mv.number = self.number
            mv.black_dots = self.black_dots
            self.number_tok = None
            self.black_dots = False
        if self.comments_before:
            mv.comments_before = self.comments_before
            self.comments_before = []
        if self.setup is not None:
            mv.setup_before = self.setup
            self.setup = None
        if self.pending_vars:
            mv.variations.extend(self.pending_vars)
            self.pending_vars = []
        self.body.append(mv)
        if self.moves is not None:
            self.moves.append(mv)
        self.last = mv

    def variation(self, sub: list[BodyElement]) -> None:
        """A finished variation: it hangs on the move it replaces (the last one)."""
        if self.last is not None:
            self.last.variations.append(sub)
        else:
            self.pending_vars.append(sub)

    # -- what hangs on moves --------------------------------------------------------------

    def movenum(self, it: Any, ctx: _Ctx) -> None:
        """A move number standing alone (``12.`` before a placeholder or a result)."""
        val = it.value.rstrip()
        digits = val.rstrip(".")
        dots = len(val) - len(digits)
        self.number = int(digits)
        self.black_dots = dots >= 2
        if dots == 2:
            ctx.violation(f"move number {val!r} with two dots (PDN: N. or N...)", it)
        self.number_tok = it

    def comment(self, it: Any, ctx: _Ctx) -> None:
        """A ``{...}`` or ``;`` comment: after the last move, else before the next one."""
        val = it.value.rstrip()
        if it.type == "COMMENT":
            text = val[1:-1]
            if "{" in text and (it.line, it.column) not in ctx.recovered:
                ctx.violation("nested comment (PDN 3.0 forbids '{' inside a comment)", it)
        else:
            text = val[1:]
            ctx.violation("';' line comment (not in PDN 3.0; use braces)", it)
        if self.last is not None:
            self.last.comments_after.append(text)
        else:
            self.comments_before.append(text)

    def nag(self, it: Any, ctx: _Ctx) -> None:
        """A ``$n`` glyph: on the last move, else free-standing."""
        value = int(it.value.rstrip()[1:])
        if self.last is not None:
            self.last.nags.append(value)
        else:
            line, col = ctx.where(it)
            self.body.append(NagNode(value, line, col))

    def strength(self, it: Any, ctx: _Ctx) -> None:
        """A move-strength mark (``!``, ``?!``, ``(?)``) after a move."""
        val = it.value.rstrip()
        last = self.last
        if last is not None and last.strength is None:
            last.strength = val
            return
        ctx.violation(f"move-strength mark {val!r} with no move before it", it)
        bare = val.strip("()")
        if last is not None and bare in _STRENGTH_NAG:
            last.nags.append(_STRENGTH_NAG[bare])

    def setup_(self, it: Any, ctx: _Ctx) -> None:
        """A ``/FEN "..."/`` setup: it goes to the next move."""
        val = it.value.rstrip()
        fen = val[val.index('"') + 1:val.rindex('"')]
        if self.setup is not None:
            line, col = ctx.where(it)
            self.body.append(SetupNode(self.setup, line, col))
        self.setup = fen

    def result_(self, it: Any, ctx: _Ctx) -> None:
        """The game's terminator (or a result written inside a variation)."""
        val = it.value.rstrip()
        self.result = val
        if not self.main and ctx.lifted_result == (it.line, it.column):
            ctx.main_result = val  # the game's result, inside a variation left open
        elif not self.main:
            ctx.violation(f"result {val!r} inside a variation", it)
        elif val not in _STANDARD_RESULTS:
            ctx.violation(f"non-standard result token {val!r}", it)

    def finish(self, ctx: _Ctx) -> list[BodyElement]:
        """The line's body, with what waited for a move that never came kept visible."""
        for text in self.comments_before:
            self.body.append(CommentNode(text))
        if self.setup is not None:
            self.body.append(SetupNode(self.setup))
        if self.number_tok is not None and self.main and not self.black_dots:
            ctx.violation(f"move number {self.number_tok.value.strip()!r} with no move after it",
                          self.number_tok)
        for v in self.pending_vars:  # variation in a line without moves: keep its moves
            self.body.extend(v)
        return self.body


_ELEMENT_READERS: dict[str, Any] = {
    "NUMMOVE": _Line.move, "ALPHAMOVE": _Line.move, "PLACEHOLDER": _Line.placeholder,
    "MOVENUM": _Line.movenum, "COMMENT": _Line.comment, "LINECOMMENT": _Line.comment,
    "NAG": _Line.nag, "STRENGTH": _Line.strength, "SETUP": _Line.setup_,
    "RESULT": _Line.result_,
}


def _build_line(items: list[Any], ctx: _Ctx,
                out_moves: list[MoveNode]) -> tuple[list[BodyElement], str | None]:
    """Turn the main line's flat element list into body elements (moves into
    ``out_moves``), with every variation inside it. Iterative, with an explicit stack of
    open lines: nesting depth costs memory, never Python recursion."""
    main = _Line(True, out_moves)
    stack: list[tuple[_Line, Iterator[Any]]] = [
        (main, iter(_flatten_leading_variations(items, ctx)))]
    readers = _ELEMENT_READERS
    while stack:
        line, pending = stack[-1]
        for it in pending:
            if isinstance(it, _Var):
                stack.append((_Line(False, None),
                              iter(_flatten_leading_variations(it.items, ctx))))
                break
            readers[it.type](line, it, ctx)
        else:  # the line is complete
            stack.pop()
            body = line.finish(ctx)
            if stack:
                if not body:
                    ctx.violation("empty variation '()' (PDN 3.0: a variation holds moves)")
                stack[-1][0].variation(body)
    return main.body, main.result or ctx.main_result


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
            elif not _IDENTIFIER.fullmatch(name):
                ctx.violation(f"tag name {name!r} has characters PDN 3.0 does not allow "
                              "(letters, digits and '_' only)", ch.tok)
            tags.append((name, _tag_value(ch, ctx)))
        else:
            items.append(ch)
    rec.tags = tags
    moves: list[MoveNode] = []
    body, result = _build_line(items, ctx, moves)
    if (result is None and moves and ctx.starred is not None and ctx.starred[0] is moves[-1]
            and body and body[-1] is moves[-1] and not moves[-1].comments_after
            and not moves[-1].variations and moves[-1].nags == [7]):
        # "45-40*" ending the game: the star is the terminator glued to the last move
        last = moves[-1]
        last.nags.clear()
        if ctx.starred[1] < len(ctx.violations):  # else counted among the unlisted
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

#: The largest game text (in characters) the reader parses. A longer game -- or a comment or
#: tag value that makes it longer -- is kept as raw text with a ``too-large`` finding and its
#: tag lines, without running the parser on it (memory stays proportional to the text).
MAX_GAME_CHARS = 10_000_000
#: The most variation brackets (``(`` and ``)``) and dashes a game may hold for the parser:
#: each is a token of its own, and a token costs the parser a few hundred bytes, so a run of
#: a million ``(`` would take hundreds of megabytes for one megabyte of text. A game over
#: either count is a ``too-large`` finding like a game over :data:`MAX_GAME_CHARS`
#: (variations nested 50,000 deep stay well inside it).
MAX_GAME_BRACKETS = 120_000
MAX_GAME_DASHES = 1_000_000

_LINE = re.compile(r"[^\n]*\n?")
_HEAD_TAG = re.compile(r'[ \t]*\[[ \t]*([A-Za-z_][\w\-]*)[ \t]+"([^"\\\n]*(?:\\.[^"\\\n]*)*)"'
                       r'[ \t]*\][ \t]*')
_HEAD_TAG_MAX = 1 << 16  # longest tag line read from a game too large to parse


def _lines(text: str) -> Iterator[str]:
    """The lines of ``text`` (with their ``\\n``), lazily."""
    for m in _LINE.finditer(text):
        if not m.group():
            return
        yield m.group()


def _first_content_line(text: str) -> int:
    for i, ln in enumerate(_lines(text)):
        s = ln.strip()
        if s and not ln.startswith("%"):
            return i
    return 0


def parse_game(text: str, *, strict: bool = False, file: str | None = None, index: int = 0,
               line: int = 1, encoding: str | None = None, _parser_obj: Any = None,
               followed: bool = False) -> GameRecord:
    """Parse the text of exactly one game (no splitting) into a :class:`GameRecord`.

    Never raises for game data: problems become findings on the record. Text inside the
    movetext that does not read is kept as a comment with an ``unreadable-text`` warning,
    and reading goes on at the next token the grammar accepts; an unclosed ``{`` or ``(``
    is closed at the end of the game (with a warning). ``followed=True`` says the next game
    of the file follows this text (the splitter cut it there): moves without a result then
    get ``missing-terminator``. ``strict=True`` makes these errors.

    Example:
        >>> g = parse_game('[Event "x"]\\n1. 32-28 {unclosed')
        >>> g.parsed, g.tag("Event"), [m.text for m in g.moves], g.moves[0].comments_after
        (True, 'x', ['32-28'], ['unclosed'])
        >>> g.findings[0].code, g.findings[0].line, g.findings[0].column
        ('unclosed-comment', 2, 10)
        >>> g = parse_game('1. 32-28 19-23 2. 28x19 14x23Whiteoverstepped. 0-1')
        >>> len(g.moves), g.moves[-1].comments_after, g.result, g.findings[0].code
        (4, ['Whiteoverstepped.'], '0-1', 'unreadable-text')
    """
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    skip = _first_content_line(text)
    rec = GameRecord(file=file, index=index, line=line + skip, raw=text, encoding=encoding)
    rec.end_line = line + text.count("\n", 0, len(text.rstrip("\n")))
    if (len(text) > MAX_GAME_CHARS or text.count("-") > MAX_GAME_DASHES
            or text.count("(") + text.count(")") > MAX_GAME_BRACKETS):
        _too_large(rec, text, line)
        return rec
    ctx = _Ctx(line, strict)
    try:
        _parse_into(rec, text, ctx, _parser_obj)
    except Exception as exc:  # noqa: BLE001 - never raise on game data
        _internal_error(rec, exc)
    finally:
        _local.wrappers = None
    if followed and rec.parsed and rec.moves and rec.result is None:
        _missing_terminator(rec, strict)
    sev = Severity.ERROR if strict else Severity.WARNING
    for msg, vline, vcol in ctx.violations:
        rec.findings.append(make_finding(
            "strict-violation", msg + ("" if strict else " (a strict PDN 3.0 reader rejects this)"),
            severity=sev, file=file, game_index=index, line=vline, column=vcol))
    if ctx.unlisted:
        rec.findings.append(make_finding(
            "strict-violation", f"{ctx.unlisted} more departures from strict PDN 3.0 in this "
            f"game, not listed (the first {MAX_VIOLATIONS} are)", severity=sev, file=file,
            game_index=index, details={"unlisted": ctx.unlisted}))
    return rec


def _parse_into(rec: GameRecord, text: str, ctx: _Ctx, parser_obj: Any) -> None:
    """Read ``text`` into ``rec``: the fast lane when the game is plain, else Lark's parser
    with error recovery (:mod:`pdnkit.pdn.recover`). A tag line the grammar cannot read is
    left out and the game read again without it (:func:`_skip_tag_line`)."""
    lane = parser_obj is None or parser_obj is _PARSERS.get(True) or \
        parser_obj is _PARSERS.get(False)
    if lane and _fast_record(text, parser_obj, ctx.line0, rec):
        return
    parser = parser_obj or _parser()
    work = text
    skipped: list[tuple[int, str, str]] = []  # (line in the game, text, why) of tag lines
    first_error: Exception | None = None
    while True:
        _local.wrappers = []
        recovery = Recovery(work)
        try:
            children = _fast_children(work, parser) if lane and not skipped else None
            if children is None:
                children = parser.parse(work, on_error=recovery)
            break
        except Exception as exc:  # noqa: BLE001 - every parse failure becomes a finding
            first_error = first_error or exc
            step = _skip_tag_line(work, exc) if len(skipped) < _MAX_SKIPPED_TAG_LINES else None
            if step is None:
                _syntax_error(rec, first_error, text, ctx, parser)
                return
            why = _describe_error(exc, work, 1)[0]
            work, row, line_text = step
            skipped.append((row, line_text, why))
    ctx.recovered = {(ev.line, ev.column) for ev in recovery.events}
    ctx.lifted_result = recovery.lifted_result
    _records_from_parse(children, ctx, rec)
    if skipped and not rec.moves:  # a header that does not read, and no move: unparsed
        rec.tags, rec.body, rec.result = [], [], None
        ctx.violations.clear()
        ctx.unlisted = 0
        _syntax_error(rec, first_error, text, ctx, parser)  # type: ignore[arg-type]
        return
    if recovery.events:
        _recovered(rec, recovery, ctx, work)
    if skipped:
        _skipped_tag_lines(rec, skipped, ctx)
    for tok in _local.wrappers:
        ctx.violation("forum wrapper [pdn]...[/pdn] around the game", tok)


_MAX_SKIPPED_TAG_LINES = 10  # each one costs another parse (up to the header, mostly)


def _skip_tag_line(text: str, exc: Exception) -> tuple[str, int, str] | None:
    """When the parse failed on a line that starts a tag pair: the text with that line
    blanked (spaces keep every position), its 1-based line number and its text."""
    tok = getattr(exc, "token", None)
    line = getattr(tok, "line", None) if tok is not None and tok.type != "$END" else None
    line = line or getattr(exc, "line", None)
    if not isinstance(line, int) or line < 1:
        return None
    start = 0
    for _ in range(line - 1):
        start = text.find("\n", start) + 1
        if start == 0:
            return None
    end = text.find("\n", start)
    end = len(text) if end < 0 else end
    row = text[start:end]
    if not row.lstrip().startswith("["):
        return None
    return text[:start] + " " * len(row) + text[end:], line, row.strip()


def _skipped_tag_lines(rec: GameRecord, skipped: list[tuple[int, str, str]], ctx: _Ctx) -> None:
    """Findings for tag lines left out; their text is kept as comments before the first
    move (``convert`` writes them there)."""
    sev = Severity.ERROR if ctx.strict else Severity.WARNING
    found = [make_finding(
        "unreadable-text", f"{why}: the tag line {_excerpt(row_text)} was left out (kept as "
        "a comment)", severity=sev, file=rec.file, game_index=rec.index,
        line=row + ctx.line0 - 1, column=1, details={"text": row_text[:1000]})
        for row, row_text, why in skipped]
    rec.findings[:0] = found
    rec.moves[0].comments_before[:0] = [row_text for _, row_text, _ in skipped]


_RECOVERY_MESSAGES = {
    "unreadable-text": "unreadable text {text} in the movetext, kept as a comment",
    "unclosed-comment": "comment opened here is never closed: closed at the end of the game",
    "unclosed-variation": "variation opened here is never closed: closed at the end of the game",
}


def _recovered(rec: GameRecord, recovery: Recovery, ctx: _Ctx, text: str) -> None:
    """Findings for what the recovery did; a game whose movetext gave nothing readable (no
    move) is ``unparsed`` with a syntax error instead."""
    if not rec.moves:
        first = recovery.events[0]
        line = first.line + ctx.line0 - 1
        rec.parsed = False
        rec.body = []
        rec.findings.append(make_finding(
            "syntax-error", "nothing readable in the movetext: "
            + _RECOVERY_MESSAGES[first.kind].format(text=_excerpt(first.text)).replace(
                ", kept as a comment", ""),
            file=rec.file, game_index=rec.index, line=line, column=first.column))
        return
    sev = Severity.ERROR if ctx.strict else Severity.WARNING
    for ev in recovery.events:
        msg = _RECOVERY_MESSAGES[ev.kind].format(text=_excerpt(ev.text))
        if not ev.kept:
            msg = msg.replace("kept as a comment", "after the result, kept as a comment at "
                              "the end")
        rec.findings.append(make_finding(
            ev.kind, msg, severity=sev, file=rec.file, game_index=rec.index,
            line=ev.line + ctx.line0 - 1, column=ev.column,
            details={"text": ev.text[:1000]}))
    rec.body.extend(CommentNode(t) for t in recovery.trailing)


def _missing_terminator(rec: GameRecord, strict: bool) -> None:
    """PDN 3.0 separates games with a result or ``*``: moves that stop without one right
    before the next game's tags (an error in strict mode). A header-only game is not
    concerned: to the standard's grammar its tags and the next game's are one header."""
    rec.findings.append(make_finding(
        "missing-terminator", "the movetext ends without a result (or '*') before the next "
        "game's tags: the game was ended there",
        severity=Severity.ERROR if strict else Severity.WARNING, file=rec.file,
        game_index=rec.index, line=rec.end_line))


def _internal_error(rec: GameRecord, exc: Exception) -> None:
    """A fault while reading one game: the game keeps its raw text and tags read so far."""
    rec.parsed = False
    rec.body = []
    rec.moves = []
    rec.findings.append(make_finding(
        "internal-error", f"reading the game failed: {type(exc).__name__}: {str(exc)[:200]}",
        file=rec.file, game_index=rec.index, line=rec.line))


def _too_large(rec: GameRecord, text: str, line0: int) -> None:
    """A game over :data:`MAX_GAME_CHARS` (or the bracket or dash limit): its tag lines are
    read, the rest is kept raw."""
    rec.parsed = False
    for ln in _lines(text):
        s = ln.strip()
        if not s or ln.startswith("%"):
            continue
        if len(ln) > _HEAD_TAG_MAX:
            break
        m = _HEAD_TAG.fullmatch(ln.rstrip("\n"))
        if m is None:
            break
        value = m.group(2)
        rec.tags.append((m.group(1), _UNESCAPE.sub(r"\1", value) if "\\" in value else value))
    brackets = text.count("(") + text.count(")")
    if len(text) > MAX_GAME_CHARS:
        what = f"the game is {len(text):,} characters long, over the reader's limit of " \
               f"{MAX_GAME_CHARS:,}"
        details = {"chars": len(text), "limit": MAX_GAME_CHARS}
    elif brackets > MAX_GAME_BRACKETS:
        what = f"the game holds {brackets:,} variation brackets, over the reader's limit of " \
               f"{MAX_GAME_BRACKETS:,}"
        details = {"brackets": brackets, "limit": MAX_GAME_BRACKETS}
    else:
        what = f"the game holds {text.count('-'):,} dashes, over the reader's limit of " \
               f"{MAX_GAME_DASHES:,}"
        details = {"dashes": text.count("-"), "limit": MAX_GAME_DASHES}
    rec.findings.append(make_finding(
        "too-large", f"{what}: kept as raw text, not read", file=rec.file,
        game_index=rec.index, line=rec.line, details=details))


def _syntax_error(rec: GameRecord, exc: Exception, text: str, ctx: _Ctx, parser: Any) -> None:
    msg, eline, ecol = _describe_error(exc, text, ctx.line0)
    rec.parsed = False
    rec.findings.append(make_finding(
        "syntax-error", msg, file=rec.file, game_index=rec.index, line=eline, column=ecol))
    # salvage the tags: parse the text before the first line that is not a tag line
    head_lines = []
    for ln in _lines(text):
        s = ln.strip()
        if s.startswith("[") or not s or ln.startswith("%"):
            head_lines.append(ln)
        else:
            break
    if eline is not None:
        head_lines = head_lines[: max(0, eline - ctx.line0)]
    head = "".join(head_lines)
    if head.strip():
        try:
            children = parser.parse(head)
        except Exception:  # noqa: BLE001
            return
        tmp = _Ctx(ctx.line0, ctx.strict)
        rec.tags = [(ch.name, _tag_value(ch, tmp)) for ch in children
                    if isinstance(ch, _Tag)]


def read_games(source: Source, *, strict: bool = False, file: str | None = None,
               encoding: str | None = None) -> Iterator[GameRecord]:
    """Stream the games of ``source`` (a path, a text or binary file object, bytes, or a
    string of PDN text) as :class:`GameRecord` objects, in file order.

    Memory does not grow with the file: it is read line by line and cut into games. Never
    raises for bad data (syntax errors and odd constructs become findings); ``strict=True``
    turns what PDN 3.0 forbids from warnings into errors. ``file`` overrides the file name
    put on records; ``encoding`` (a codec name such as ``"cp866"``) skips detection.
    Sources are opened by :func:`pdnkit.pdn.source.open_source` (``"-"`` is standard
    input; decoding findings land on the game whose lines they concern).

    Example:
        >>> [g.result for g in read_games('1. 32-28 2-0\\n1. 33-29 0-2\\n')]
        ['2-0', '0-2']
        >>> g = next(read_games('[Event "x"]\\n1. 1-18 1-1'))
        >>> [m.text for m in g.moves], g.result
        (['1-18'], '1-1')
    """
    opened = open_source(source, encoding)
    fname = file if file is not None else opened.name
    try:
        parser = None  # the Lark parser, built by the first game outside the fast lane
        index = 0
        pending: list[Finding] = []
        for chunk, followed in with_followed(opened.chunks):
            enc = opened.encoding
            rec = bare_record(chunk, file=fname, index=index, encoding=enc) or parse_game(
                chunk.text, strict=strict, file=fname, index=index, line=chunk.line,
                encoding=enc, _parser_obj=parser, followed=followed)
            if chunk.text and is_stray_text(rec):
                pending.extend(chunk.findings)
                pending.append(make_finding(
                    "ignored-text", "text between games that is neither tags nor moves was "
                    f"skipped: {_excerpt(rec.raw)}",
                    file=fname, line=rec.line))
                continue
            notes = pending + (chunk.findings if chunk.text else [])
            if notes:
                rec.findings[:0] = [f.located(file=fname, game_index=index) for f in notes]
                pending = []
            yield rec
            index += 1
        if pending:
            rec = GameRecord(file=fname, index=index, line=pending[0].line or 1, raw="",
                             encoding=opened.encoding,
                             findings=[f.located(game_index=index) for f in pending])
            rec.findings.append(make_finding("empty-game", "text after the last game holds "
                                             "no game", file=fname, game_index=index))
            yield rec
    finally:
        opened.close()


#: a game text whose last token is a result (no look-ahead needed for it)
_ENDS_WITH_RESULT = re.compile(r"(?:^|\s)(?:1-0|0-1|1/2-1/2|2-0|0-2|1-1|0-0|\*)\s*\Z")


def with_followed(chunks: Iterable[Chunk]) -> Iterator[tuple[Chunk, bool]]:
    """The chunks with content, each with True when another one follows it (one chunk of
    look-ahead: a game whose movetext stops without a result was cut by the next game's
    tags)."""
    held: Chunk | None = None
    for chunk in chunks:
        if not chunk.has_content:
            continue
        if held is not None:
            yield held, True
            held = None
        if _ENDS_WITH_RESULT.search(chunk.text):
            # terminated: whether a chunk follows cannot matter, and a game read from a pipe
            # comes out at once instead of waiting for the next one
            yield chunk, True
        else:
            held = chunk
    if held is not None:
        yield held, False


def is_stray_text(rec: GameRecord) -> bool:
    """Text with no tags, no moves and no result (a note between games, a lone comment)."""
    if rec.tags or rec.moves or rec.result is not None:
        return False
    if not rec.parsed:
        # unparseable text without tags counts as a game only if it looks like movetext
        return not re.search(r"\d{1,2}[ \t]*[-x:][ \t]*\d{1,2}|[a-h][1-8][-x:]?[a-h][1-8]",
                             rec.raw)
    return True


def _excerpt(text: str, n: int = 60) -> str:
    flat = " ".join(text[:4 * n].split())
    return repr(flat if len(flat) <= n else flat[: n - 3] + "...")


__all__ = ["parse_game", "read_games"]
