"""Text from a file, made safe for where the views put it: HTML pages, Markdown, terminals.

PDN files are written by anyone: a player name, an event, a comment or a file name can hold
markup (``<img src=x onerror=...>``), Markdown links to ``javascript:`` URLs, terminal escape
sequences or Unicode bidi controls that reorder the text around them. The views never pass
such text on as it is:

* :func:`plain` -- for HTML (escaped by the page itself) and Markdown: the explicit bidi
  controls (embeddings, overrides, isolates: U+202A-U+202E, U+2066-U+2069) are *stripped*,
  so no text from a file can reorder the page's own text. Letters of right-to-left scripts
  keep their natural direction.
* :func:`terminal` -- for the terminal: every control character (C0 but newline and tab, DEL,
  C1) and every bidi control is written as a visible escape (``\\x1b``, ``\\u202e``), so file
  text can neither drive the terminal nor reorder its line. Rich markup in file text is never
  interpreted: the views hand it to rich as :class:`rich.text.Text`.
* :func:`markdown` and :func:`markdown_code` -- for Markdown: HTML and Markdown syntax
  (``<``, ``&``, ``[``, ``*``, backticks, ``|`` ...) is escaped, so a CommonMark renderer shows
  the text as written and makes no tag or link of it.

Example:
    >>> plain("\\u202egnp.exe\\u202c Smith")
    'gnp.exe Smith'
    >>> terminal("\\x1b[31mred\\x1b[0m")
    '\\\\x1b[31mred\\\\x1b[0m'
    >>> markdown("<img src=x onerror=alert(1)> [a](javascript:b)")
    '\\\\<img src=x onerror=alert(1)\\\\> \\\\[a\\\\](javascript:b)'
"""

from __future__ import annotations

import re

__all__ = ["BIDI_CONTROLS", "markdown", "markdown_code", "plain", "terminal"]

#: the explicit bidi formatting characters: LRE RLE PDF LRO RLO and LRI RLI FSI PDI
BIDI_CONTROLS = frozenset([*range(0x202A, 0x202F), *range(0x2066, 0x206A)])
_STRIP_BIDI = dict.fromkeys(BIDI_CONTROLS)
_TERMINAL_BAD = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
#: ASCII punctuation that means something in CommonMark inline text (or in a table cell)
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>&|~#!])")


def plain(text: str) -> str:
    """``text`` without the explicit bidi controls (see the module docstring).

    >>> plain("a\\u2067b\\u2069c")
    'abc'
    """
    return text.translate(_STRIP_BIDI)


def terminal(text: str) -> str:
    """``text`` with control and bidi characters written as visible escapes; newlines and
    tabs stay.

    >>> terminal("bell\\x07 cr\\r nl\\n")
    'bell\\\\x07 cr\\\\x0d nl\\n'
    """
    return _TERMINAL_BAD.sub(lambda m: _escape(m.group()), text)


def _escape(ch: str) -> str:
    n = ord(ch)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}"


def markdown(text: str) -> str:
    """``text`` for Markdown inline text or a table cell: without bidi controls, on one
    line, every HTML or Markdown character backslash-escaped.

    >>> markdown("**x** | y\\nz")
    '\\\\*\\\\*x\\\\*\\\\* \\\\| y z'
    """
    one_line = " ".join(plain(text).splitlines())
    return _MARKDOWN_SPECIAL.sub(r"\\\1", one_line)


def markdown_code(text: str) -> str:
    """``text`` as a Markdown code span (shown literally by any CommonMark renderer): the
    fence is longer than any run of backticks in the text.

    >>> markdown_code("a`b")
    '`` a`b ``'
    >>> markdown_code("28x19")
    '`28x19`'
    """
    one_line = " ".join(plain(text).splitlines())
    longest = max((len(run) for run in re.findall("`+", one_line)), default=0)
    if not longest:
        return f"`{one_line}`"
    fence = "`" * (longest + 1)
    return f"{fence} {one_line} {fence}"
