"""Error recovery inside one game's movetext, on top of Lark's own ``on_error`` hook.

When the LALR parser meets text it cannot use, Lark calls :meth:`Recovery.__call__` with the
error; the recovery decides what the text is, records an :class:`Event`, moves Lark's lexer
past it and lets the parse resume at the next token the grammar accepts:

* **unreadable text** (a word glued to a move, a lone ``.``, a stray ``]`` or ``)``, a tag in
  the middle of the moves, a second result): the run of text up to the next token that reads
  is handed to the parser as a comment, so the record keeps it (``unreadable-text``);
* **an unclosed** ``{``: the comment runs to the end of the game (before a final result token,
  which still ends the game) (``unclosed-comment``);
* **an unclosed** ``(``: the variation is closed at the end of the game
  (``unclosed-variation``).

Errors inside a tag pair are not recovered (the reader then reports a syntax error and keeps
the tags it can read). After :data:`MAX_EVENTS` events the rest of the movetext is read as one
unreadable text, which keeps the time per game linear in its length.

Example:
    >>> from lark import Transformer
    >>> from pdnkit.pdn.grammar import build_parser
    >>> text = "1. 32-28 Whiteoverstepped. 19-23 *"
    >>> rec = Recovery(text)
    >>> tree = build_parser(Transformer()).parse(text, on_error=rec)
    >>> [(e.kind, e.text, e.line, e.column) for e in rec.events]
    [('unreadable-text', 'Whiteoverstepped.', 1, 10)]
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pdnkit._lazy import lazy_pattern
from pdnkit.pdn.layout import RESULTS

#: Recoveries per game before the rest of its movetext is read as one unreadable text.
MAX_EVENTS = 100

#: a final result token (after an unclosed comment, it still ends the game)
_FINAL_RESULT = lazy_pattern(rf"(?<![\w/\-.:])(?:{RESULTS}|\*)\s*\Z")
#: where a run of unreadable text stops: white space or a bracket that starts a construct
_RUN_END = lazy_pattern(r"[\s{(\[]")
_WS = lazy_pattern(r"\s*")
#: a word the grammar reads in movetext (checked before an unreadable run grows over it)
_READABLE = lazy_pattern(
    r"(?:\d{1,9}\.{1,3}|\$\d|[!?]|\{|\(|\)|;|/[ \t]*FEN|\.\.|-[ \t]*-|\*(?!\S)|\[[ \t]*[A-Za-z_]"
    r"|\d{1,2}[ \t]*[-xX:\u2010-\u2014\u2212][ \t]*\d{1,2}(?![\d.])|\d{4}(?![\d.])"
    r"|[a-l](?:1[0-2]|[1-9])[-xX:\u2013]?[a-l](?:1[0-2]|[1-9])(?![0-9])"
    r"|[A-L](?:1[0-2]|[1-9])[-xX:\u2013]?[A-L](?:1[0-2]|[1-9])(?![0-9])"
    rf"|(?:{RESULTS})(?![\w/\-.:]))")
#: parser states inside a tag pair (no recovery there)
_TAG_STATE = frozenset({"TAGNAME", "TAGVALUE", "TAGBARE", "RSQB"})


@dataclass(slots=True)
class Event:
    """One recovery: ``kind`` (a finding code), the text concerned, where it starts (line and
    column within the game text, 1-based) and ``kept`` (False when the text could not be
    kept in the record as a comment: it followed the game's result)."""

    kind: str
    text: str
    line: int
    column: int
    kept: bool = True


class Recovery:
    """The ``on_error`` callback for one parse of ``text`` (use one instance per parse).

    ``events`` lists what was recovered, in text order; ``trailing`` holds unreadable texts
    that came after the result (the grammar has no place for a comment there: the reader
    appends them to the record's body).
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.events: list[Event] = []
        self.trailing: list[str] = []
        #: (line, column) of the final result token when it stood inside a variation left
        #: open: it is the game's result, not the variation's
        self.lifted_result: tuple[int, int] | None = None

    # -- Lark's hook --------------------------------------------------------------------------

    def __call__(self, exc: Any) -> bool:
        from lark.exceptions import UnexpectedCharacters, UnexpectedToken

        ip = exc.interactive_parser
        choices = ip.choices()
        if _TAG_STATE & set(choices) and "NUMMOVE" not in choices:
            return False  # inside a tag pair: the reader reports a syntax error
        if isinstance(exc, UnexpectedToken) and exc.token.type == "$END":
            return self._close_variations(ip, exc.token)
        if isinstance(exc, UnexpectedCharacters):
            where = (exc.pos_in_stream, exc.line, exc.column)
        elif isinstance(exc, UnexpectedToken):
            tok = exc.token
            where = (tok.start_pos, tok.line, tok.column)
        else:  # pragma: no cover - Lark raises only the two above here
            return False
        pos, line, col = where
        if pos is None or line is None or col is None:
            return False
        state = ip.lexer_thread.state
        _rewind(state.line_ctr, pos, line, col)
        text = self.text
        if len(self.events) >= MAX_EVENTS:
            return self._unreadable(ip, state, pos, line, col, self._final_start(pos))
        if text.startswith("{", pos):
            return self._unclosed_comment(ip, state, pos, line, col)
        return self._unreadable(ip, state, pos, line, col, self._run_end(pos))

    # -- the cases ----------------------------------------------------------------------------

    def _unclosed_comment(self, ip: Any, state: Any, pos: int, line: int, col: int) -> bool:
        end = self._final_start(pos)
        body = self.text[pos + 1:end].rstrip()  # the white space before the end stays out
        self.events.append(Event("unclosed-comment", body.strip(), line, col))
        self._feed_comment(ip, body, pos, line, col)
        state.line_ctr.feed(self.text[pos:end], True)
        return True

    def _unreadable(self, ip: Any, state: Any, pos: int, line: int, col: int, end: int) -> bool:
        end = max(end, pos + 1)
        raw = self.text[pos:end]
        shown = raw.rstrip()
        kept = self._feed_comment(ip, shown, pos, line, col)
        if not kept:
            self.trailing.append(shown)
        self.events.append(Event("unreadable-text", shown, line, col, kept))
        state.line_ctr.feed(raw, True)
        return True

    def _close_variations(self, ip: Any, end_tok: Any) -> bool:
        Token = token_class(ip)  # noqa: N806 - a class

        # each open variation still has its "(" token on the parser's value stack
        closed = sum(1 for v in ip.parser_state.value_stack if getattr(v, "type", "") == "LPAR")
        if not closed:
            return False
        for _ in range(closed):
            ip.feed_token(Token("RPAR", ")"))
        line = getattr(end_tok, "line", None) or 1
        col = getattr(end_tok, "column", None) or 1
        opened = _first_unclosed_paren(self.text)
        if opened is not None:
            line, col = opened
        self.events.append(Event("unclosed-variation", "(" * closed, line, col))
        end = self._final_start(0)
        if end < len(self.text):  # the game's result was read inside the open variation
            self.lifted_result = _line_col(self.text, end)
        return True

    # -- helpers ------------------------------------------------------------------------------

    def _feed_comment(self, ip: Any, body: str, pos: int, line: int, col: int) -> bool:
        """Hand ``body`` to the parser as a comment token; False when no comment fits here."""
        from lark.exceptions import UnexpectedToken

        Token = token_class(ip)  # noqa: N806 - a class

        if "COMMENT" not in ip.choices():
            return False
        try:
            ip.feed_token(Token("COMMENT", "{" + body + "}", start_pos=pos, line=line,
                                column=col))
        except UnexpectedToken:
            return False
        return True

    def _final_start(self, pos: int) -> int:
        """Where a final result token starts after ``pos`` (else the end of the text)."""
        text = self.text
        m = _FINAL_RESULT.search(text, pos + 1)
        return m.start() if m is not None else len(text)

    def _run_end(self, pos: int) -> int:
        """The end of the unreadable run that starts at ``pos``: its word, and the next words
        while they do not start with something the grammar reads."""
        text = self.text
        n = len(text)
        if text.startswith("[", pos):  # a tag (or a [%command]) among the moves: all of it
            close = text.find("]", pos, text.find("\n", pos) % (n + 1))
            if close >= 0:
                return close + 1
        m = _RUN_END.search(text, pos + 1)
        end = m.start() if m is not None else n
        while end < n:
            ws = _WS.match(text, end)
            nxt = ws.end() if ws is not None else end
            if nxt >= n or _READABLE.match(text, nxt) or text[nxt] in "{([":
                break
            m = _RUN_END.search(text, nxt + 1)
            end = m.start() if m is not None else n
        return end


def token_class(ip: Any) -> Any:
    """The token class the parser behind the interactive parser ``ip`` takes: lark-cython's
    own when the parser is lark-cython's (it refuses Lark's), else Lark's.

    Example:
        >>> from lark import Lark, Token
        >>> ip = Lark("start: WORD\\n%import common.WORD", parser="lalr").parse_interactive("a")
        >>> token_class(ip) is Token
        True
    """
    state = getattr(ip, "parser_state", None)
    if type(state).__module__.startswith("lark_cython"):
        import lark_cython

        return lark_cython.Token
    from lark import Token

    return Token


def _rewind(line_ctr: Any, pos: int, line: int, col: int) -> None:
    """Put Lark's lexer back at ``pos`` (line ``line``, column ``col``)."""
    line_ctr.char_pos = pos
    line_ctr.line = line
    line_ctr.column = col
    line_ctr.line_start_pos = pos - col + 1


def _line_col(text: str, pos: int) -> tuple[int, int]:
    return text.count("\n", 0, pos) + 1, pos - (text.rfind("\n", 0, pos) + 1) + 1


def _first_unclosed_paren(text: str) -> tuple[int, int] | None:
    """Line and column of the outermost ``(`` left open (comments skipped), or None."""
    stack: list[int] = []
    in_comment = 0
    for m in re.finditer(r"[{}()]", text):
        ch = m.group()
        if in_comment:
            in_comment += 1 if ch == "{" else -1 if ch == "}" else 0
        elif ch == "{":
            in_comment = 1
        elif ch == "(":
            stack.append(m.start())
        elif ch == ")" and stack:
            stack.pop()
    if not stack:
        return None
    return _line_col(text, stack[0])


__all__ = ["MAX_EVENTS", "Event", "Recovery", "token_class"]
