"""Syntax errors in words: what the parser's exception means, where, for a person.

Example:
    >>> from pdnkit.pdn.lalr import parser
    >>> try:
    ...     parser().parse("1. 32-28 )")
    ... except Exception as exc:
    ...     print(describe_error(exc, "1. 32-28 )", 5))
    ("')' closes a variation that was never opened", 5, 10)
"""

from __future__ import annotations

from pdnkit._lazy import lazy_pattern

_TAG_TOKENS = frozenset({"TAGBARE", "TAGNAME", "TAGVALUE"})



def describe_error(exc: Exception, text: str, line0: int = 1) -> tuple[str, int | None,
                                                                        int | None]:
    """A message a person understands, with the line (in the file: ``text`` starts at line
    ``line0``) and column."""
    msg, line, col = describe_error_rel(exc, text)
    if line is not None:
        line += line0 - 1
        msg = _LINE_IN_MSG.sub(lambda m: f"line {int(m.group(1)) + line0 - 1}", msg)
    return msg, line, col


_LINE_IN_MSG = lazy_pattern(r"line (\d+)")


def describe_error_rel(exc: Exception, text: str) -> tuple[str, int | None, int | None]:
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
            opened = unclosed_paren(text)
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
        opened = unclosed_paren(text)
        if opened is not None:
            return (f"unclosed variation '(' opened at line {opened[0]}, column {opened[1]}",
                    opened[0], opened[1])
        return "the game text ends in the middle of a construct", None, None
    return f"cannot parse: {exc}", line, col


def unclosed_paren(text: str) -> tuple[int, int] | None:
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


def excerpt(text: str, n: int = 60) -> str:
    flat = " ".join(text[:4 * n].split())
    return repr(flat if len(flat) <= n else flat[: n - 3] + "...")


__all__ = ["describe_error", "excerpt", "unclosed_paren"]
