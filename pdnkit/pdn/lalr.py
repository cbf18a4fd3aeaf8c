"""The Lark parser of the PDN grammar, the actions it runs while parsing, and the light
structures and tokens those actions hand to the reader (:mod:`pdnkit.pdn.build` turns them
into a record; :mod:`pdnkit.pdn.fast` hands over the same ones without Lark).

Example:
    >>> p = parser()
    >>> children = p.parse('[Event "x"] 1. 32-28 *')
    >>> type(children[0]).__name__, children[1].type, move_token("12. 32-28 ")[0]
    ('Tag', 'NUMMOVE', (12, 1, '12.'))
"""

from __future__ import annotations

import threading
from typing import Any

from pdnkit._lazy import lazy_pattern

_SQUARE = lazy_pattern(r"[a-lA-L](?:1[0-2]|[1-9])?|\d+")  # a bare file: Russian short form cd4
_UPPER_FILES = frozenset("ABCDEFGHIJKL")
#: the remark on a move written with upper-case squares (one per game: see build.Ctx)
UPPER_CASE = "squares written in upper case (A3-B4; PDN 3.0 writes a3-b4), read in lower case"
#: the result tokens of PDN 3.0
STANDARD_RESULTS = frozenset({"2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "1/2-1/2", "*"})
_DASHES = {"\u2010", "\u2011", "\u2012", "\u2013", "\u2014", "\u2212"}
#: a backslash escape in a tag value
UNESCAPE = lazy_pattern(r"\\(.)")


class Var:
    """A variation as the transformer hands it over: its elements and where it opened."""

    __slots__ = ("items", "line", "column")

    def __init__(self, items: list[Any]) -> None:
        self.items = items
        self.line = None
        self.column = None


class Tag:
    """A tag pair as the transformer hands it over (value token None for ``[Name]``)."""

    __slots__ = ("name", "value", "bare", "tok")

    def __init__(self, name: str, value: str | None, bare: bool, tok: Any) -> None:
        self.name = name
        self.value = value
        self.bare = bare
        self.tok = tok


class ParseActions:
    """Callbacks Lark calls while parsing (LALR): build light structures, no tree."""

    __visit_tokens__ = False

    def tag(self, children: list[Any]) -> Tag:
        if len(children) == 1:  # TAG: [Name "value"]
            tok = children[0]
            v = tok.value
            q = v.index('"')
            return Tag(v[1:q].strip(), v[q + 1:v.rindex('"')], False, tok)
        # [LSQB, TAGNAME, (TAGVALUE | TAGBARE)?, RSQB]
        name = children[1]
        if len(children) < 4:
            return Tag(name.value.strip(), None, False, name)
        val = children[2]
        if val.type == "TAGBARE":
            return Tag(name.value.strip(), val.value.strip(), True, val)
        text = val.value.rstrip()
        return Tag(name.value.strip(), text[1:-1], False, val)

    def variation(self, children: list[Any]) -> Var:
        # [LPAR, elements?, RESULT?, RPAR]
        items: list[Any] = []
        for ch in children[1:-1]:
            if isinstance(ch, list):
                items.extend(ch)
            else:
                items.append(ch)
        return Var(items)

    def elements(self, children: list[Any]) -> list[Any]:
        # elements: _element | elements _element -- one list, appended in place
        if len(children) == 1:
            return [children[0]]
        lst: list[Any] = children[0]
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


def lark_actions() -> Any:
    from lark import Transformer

    class T(ParseActions, Transformer):  # type: ignore[type-arg]
        pass

    return T()


local = threading.local()
PARSERS: dict[bool, Any] = {}


def _wrapper_seen(tok: Any) -> Any:
    seen = getattr(local, "wrappers", None)
    if seen is not None:
        seen.append(tok)
    return tok


def parser(use_cython: bool | None = None) -> Any:
    from pdnkit.pdn.grammar import accelerator, build_parser

    key = accelerator() == "lark-cython" if use_cython is None else use_cython
    p = PARSERS.get(key)
    if p is None:
        p = build_parser(lark_actions(), {"WRAPPER": _wrapper_seen}, use_cython=key)
        PARSERS[key] = p
    return p



class Tok:
    """A token of the fast lane (the fields of a Lark token the reader reads)."""

    __slots__ = ("type", "value", "line", "column")

    def __init__(self, type_: str, value: str, line: int, column: int) -> None:
        self.type = type_
        self.value = value
        self.line = line
        self.column = column


_MOVE_CACHE: dict[str, tuple[str, tuple[str, ...], tuple[str, ...], bool, str | None]] = {}


def split_move(text: str) -> tuple[str, tuple[str, ...], tuple[str, ...], bool, str | None]:
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
        if squares and squares[0][0] in _UPPER_FILES:  # A3-B4: read as a3-b4
            remark = UPPER_CASE
            squares = tuple(s.lower() for s in squares)
            core = "".join(s + sep for s, sep in zip(squares, (*seps, ""), strict=True))
        elif any(s in _DASHES for s in seps):
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


TOKEN_CACHE: dict[str, tuple[Any, ...]] = {}


def move_token(val: str) -> tuple[Any, ...]:
    """((number, dots, number as written) or None, then :func:`split_move`'s fields) of a
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
    res = (num, *split_move(rest))
    if len(TOKEN_CACHE) > 50_000:
        TOKEN_CACHE.clear()
    TOKEN_CACHE[val] = res
    return res


__all__ = ["PARSERS", "STANDARD_RESULTS", "TOKEN_CACHE", "UNESCAPE", "UPPER_CASE", "ParseActions", "Tag",
           "Tok", "Var", "local", "move_token", "parser", "split_move"]
