"""Build a :class:`~pdnkit.pdn.record.GameRecord` from what the parser hands over: the
main line and its variations (iteratively: nesting depth costs memory, never recursion),
moves with what hangs on them, the result, and the departures from strict PDN 3.0 noted on
the way (:class:`Ctx`).

Example:
    >>> from pdnkit.pdn.lalr import parser
    >>> from pdnkit.pdn.record import GameRecord
    >>> rec, ctx = GameRecord(), Ctx(1, False)
    >>> records_from_parse(parser().parse("1. 32-28 (1. 33-29) 19-23 *"), ctx, rec)
    >>> [m.text for m in rec.moves], rec.moves[0].variations[0][0].text, rec.result
    (['32-28', '19-23'], '33-29', '*')
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pdnkit._lazy import lazy_pattern
from pdnkit.pdn.lalr import (
    STANDARD_RESULTS,
    TOKEN_CACHE,
    UNESCAPE,
    UPPER_CASE,
    Tag,
    Var,
    move_token,
)
from pdnkit.pdn.layout import IDENTIFIER
from pdnkit.pdn.record import BodyElement, CommentNode, GameRecord, MoveNode, NagNode, SetupNode
from pdnkit.pdn.tags import result_tag

_STRENGTH_NAG = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
_BARE_SCORE = lazy_pattern(r"\d{1,2}-\d{1,2}")



#: strict-violation findings listed per game; beyond it they are counted in one more finding
#: (a megabyte of ``(`` or ``--`` would otherwise make a finding per character)
MAX_VIOLATIONS = 100


class Ctx:
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
        self.upper_case = False  # upper-case squares remarked on (once a game)

    def where(self, tok: Any) -> tuple[int | None, int | None]:
        line = getattr(tok, "line", None)
        return (None if line is None else line + self.line0 - 1), getattr(tok, "column", None)

    def violation(self, message: str, tok: Any = None) -> None:
        if len(self.violations) >= MAX_VIOLATIONS:
            self.unlisted += 1
            return
        line, col = self.where(tok) if tok is not None else (None, None)
        self.violations.append((message, line, col))


def tag_value_of(tag: Tag, ctx: Ctx) -> str:
    inner = tag.value
    if inner is None:
        ctx.violation(f"tag [{tag.name}] has no value", tag.tok)
        return ""
    if tag.bare:
        ctx.violation(f"tag value without quotes: {inner!r}", tag.tok)
        return inner
    if "\\" in inner:
        inner = UNESCAPE.sub(r"\1", inner)
    elif '"' in inner:
        ctx.violation("unescaped quote inside a tag value", tag.tok)
    return inner


def _flatten_leading_variations(items: list[Any], ctx: Ctx) -> list[Any]:
    """A variation before the first move of its line replaces nothing: read its moves as
    part of the line (a warning says so). Iterative: any depth of nesting."""
    if not any(isinstance(it, Var) for it in items):
        return items
    out: list[Any] = []
    seen_move = False
    stack = [iter(items)]
    while stack:
        it = next(stack[-1], _DONE)
        if it is _DONE:
            stack.pop()
        elif isinstance(it, Var) and not seen_move:
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

    def move(self, it: Any, ctx: Ctx) -> None:
        """A NUMMOVE / ALPHAMOVE token (``12. 32-28``, ``c3:e5``)."""
        tinfo = TOKEN_CACHE.get(it.value)
        if tinfo is None:
            tinfo = move_token(it.value)
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
        if remark is not None and not (remark is UPPER_CASE and ctx.upper_case):
            ctx.upper_case = ctx.upper_case or remark is UPPER_CASE
            ctx.violation(remark, it)
        self._add_move(mv)

    def placeholder(self, it: Any, ctx: Ctx) -> None:
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

    def movenum(self, it: Any, ctx: Ctx) -> None:
        """A move number standing alone (``12.`` before a placeholder or a result)."""
        val = it.value.rstrip()
        digits = val.rstrip(".")
        dots = len(val) - len(digits)
        self.number = int(digits)
        self.black_dots = dots >= 2
        if dots == 2:
            ctx.violation(f"move number {val!r} with two dots (PDN: N. or N...)", it)
        self.number_tok = it

    def comment(self, it: Any, ctx: Ctx) -> None:
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

    def nag(self, it: Any, ctx: Ctx) -> None:
        """A ``$n`` glyph: on the last move, else free-standing."""
        value = int(it.value.rstrip()[1:])
        if self.last is not None:
            self.last.nags.append(value)
        else:
            line, col = ctx.where(it)
            self.body.append(NagNode(value, line, col))

    def strength(self, it: Any, ctx: Ctx) -> None:
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

    def setup_(self, it: Any, ctx: Ctx) -> None:
        """A ``/FEN "..."/`` setup: it goes to the next move."""
        val = it.value.rstrip()
        fen = val[val.index('"') + 1:val.rindex('"')]
        if self.setup is not None:
            line, col = ctx.where(it)
            self.body.append(SetupNode(self.setup, line, col))
        self.setup = fen

    def result_(self, it: Any, ctx: Ctx) -> None:
        """The game's terminator (or a result written inside a variation)."""
        val = it.value.rstrip()
        self.result = val
        if not self.main and ctx.lifted_result == (it.line, it.column):
            ctx.main_result = val  # the game's result, inside a variation left open
        elif not self.main:
            ctx.violation(f"result {val!r} inside a variation", it)
        elif val not in STANDARD_RESULTS:
            ctx.violation(f"non-standard result token {val!r}", it)

    def finish(self, ctx: Ctx) -> list[BodyElement]:
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


def build_line(items: list[Any], ctx: Ctx,
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
            if isinstance(it, Var):
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


def records_from_parse(children: list[Any], ctx: Ctx, rec: GameRecord) -> None:
    tags: list[tuple[str, str]] = []
    items: list[Any] = []
    for ch in children:
        if isinstance(ch, Tag):
            if items:
                ctx.violation(f"tag [{ch.name}] after the game's result", ch.tok)
            name = ch.name
            if not name[:1].isupper():
                ctx.violation(f"tag name {name!r} does not start with a capital letter", ch.tok)
            elif not IDENTIFIER.fullmatch(name):
                ctx.violation(f"tag name {name!r} has characters PDN 3.0 does not allow "
                              "(letters, digits and '_' only)", ch.tok)
            tags.append((name, tag_value_of(ch, ctx)))
        else:
            items.append(ch)
    rec.tags = rec.tags + tags if rec.tags else tags
    moves: list[MoveNode] = []
    body, result = build_line(items, ctx, moves)
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
        tag_result = result_tag(rec)  # under any name (Uitslag, Résultat ...)
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


__all__ = ["MAX_VIOLATIONS", "Ctx", "build_line", "records_from_parse", "tag_value_of"]
