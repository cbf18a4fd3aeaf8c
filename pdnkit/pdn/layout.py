"""The layout model of a PDN file: what a piece of text is, decided by what it holds.

Exporters lay PDN out in many ways: tag pairs indented, broken over two lines, missing their
``[`` or ``]``, followed by the two characters ``\\r`` instead of a line end; blank lines and
stray lines inside a header; junk (a page footer, ``[Empty]``, a lone ``[``) between games.
None of that changes what the file says. This module is the one place that decides, by
content, whether a piece of text is

* a **tag pair** -- ``[Name "value"]``, tolerated without its ``[`` or its ``]``, with an
  unclosed quote, with a bare value (``[Event Open]``), with white space (line breaks
  included) anywhere between its parts, and with a name as people write it (``Résultat``,
  ``Type de jeu``, ``R&#x00e9;sultat``);
* **movetext** -- it starts with a move number, a move, a variation, a NAG, a setup or a
  result (a comment is movetext unless a tag follows it);
* **layout** -- white space, ``%`` escape lines, and literal escape text (``\\r``, ``\\n``,
  ``\\t`` written as two characters outside comments and tag values);
* **junk** -- anything else (``--- page 3 ---``, ``[Empty]``): never read as moves, kept as
  a comment with a finding.

:func:`read_header` applies the model to one game's text: it reads the tags, lifts out the
junk and the comments written among the tags, and hands back a text of the same length in
which all of that is blanked (so the grammar, the one definition of movetext, sees only
movetext, and every line and column stays the file's own). :mod:`pdnkit.pdn.split` uses the
same patterns to decide where games begin.

Example:
    >>> h = read_header('[Event "a"]\\\\r\\n[\\nWhite "Sijbrands"]\\n--- page 3 ---\\n1. 32-28 *')
    >>> [(t.name, t.value) for t in h.tags], [(n.kind, n.text) for n in h.lifted]
    ([('Event', 'a'), ('White', 'Sijbrands')], [('junk', '--- page 3 ---')])
    >>> h.work.split("\\n")[-1], h.escapes
    ('1. 32-28 *', 1)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pdnkit._lazy import lazy_pattern

#: a tag name as people write it: a letter first, then letters, digits, ``_ - . '``, HTML
#: character references and single spaces between words (``Type de jeu``); at most 64
#: characters, so a failed match costs a bounded scan
NAME = (r"(?:[^\W\d]|&[#]?\w{1,8};)"
        r"(?:[\w\-.']|&[#]?\w{1,8};|[ \t](?=[^\s\"\[\]])){0,63}")
#: a tag name of one word: what a tag pair without its ``[`` may have (a name with spaces
#: there could be words of movetext)
NAME1 = r"(?:[^\W\d]|&[#]?\w{1,8};)(?:[\w\-.']|&[#]?\w{1,8};){0,63}"
#: a PDN 3.0 tag name (an identifier)
IDENTIFIER = lazy_pattern(r"[A-Z][A-Za-z0-9_]*")
#: the opening of a tag pair inside a line (``[Name "``, the name a word); the white space
#: before it is looked at from its first character only (a lookahead at every space of a
#: long run would take quadratic time)
_NEXT_TAG = r'(?<![ \t])[ \t]*\[[ \t]*[^\W\d][\w\-]*[ \t]*"'
#: what no quoted value runs over: the next tag pair, after the value's ``]`` or not
#: (``[Result "*] [FEN "..."]``, ``[FEN "W:W31 [Black "R"]``: the first quote is never closed)
NOT_NEXT_TAG = rf"(?!\]?{_NEXT_TAG})"
#: a quoted tag value: ``\\"`` and ``\\\\`` (and any backslash pair) are escapes
_VALUE = rf'"(?P<value>(?:{NOT_NEXT_TAG}[^"\\\n]|\\.)*)"'

#: the ``[`` of a tag pair, doubled by some exporters (``[[Event "x"]``), and its ``]`` (at
#: most three of each: an unbounded run would be rescanned from each of its brackets)
_LB = r"(?P<lb>\[(?:[ \t]*\[){0,2}\s*)"
_RB = r"(?P<rb>[ \t]*\n?[ \t]*\](?:[ \t]*\]){0,2})"
#: a tag pair, anchored where it starts: white space (line breaks too, or none before a
#: quoted value: ``[Event"Club"]``) between its parts, ``[`` or ``]`` may be missing (not both)
TAG = lazy_pattern(rf"{_LB}(?P<name>{NAME})\s*{_VALUE}{_RB}?")
#: a tag pair without its ``[`` (then its ``]`` is there); a name of several words only at
#: the start of a line
_TAG_NOLB = lazy_pattern(rf"(?P<lb>)(?P<name>{NAME1})\s+{_VALUE}(?P<rb>[ \t]*\n?[ \t]*\])")
_TAG_NOLB_START = lazy_pattern(rf"(?P<lb>)(?P<name>{NAME})\s+{_VALUE}(?P<rb>[ \t]*\n?[ \t]*\])")
#: a quoted value holding unescaped quotes, closed by the quote right before ``]``
_TAG_QUOTES = lazy_pattern(rf'{_LB}(?P<name>{NAME})\s*"(?P<value>(?:[^"\n]|"(?![ \t]*\[))*?)"'
                         r"(?P<rb>[ \t]*\](?:[ \t]*\]){0,2})")
#: text between the value and the ``]``: ``[Site "x" junk]``
_TAG_JUNK = lazy_pattern(rf'{_LB}(?P<name>{NAME})\s*{_VALUE}(?P<junk>[^\]\["\n]{{1,200}}?)'
                       r"(?P<rb>\])")
#: where the value of a quote never closed stops short of its line's end: before movetext
#: written on the same line (a move number and a move, or a result ending the line), so the
#: game's moves and result stay its own (``[FEN "W:W31:B1 1. 31-26 *``), or before the next
#: tag pair of the line
OPEN_VALUE_STOP = (r"(?<![ \t])[ \t]+(?:\d{1,9}\.+[ \t]*(?:\d{1,2}[ \t]*[-xX:][ \t]*\d|[a-lA-L]\d)"
                   r"|(?:2-0|0-2|1-1|0-0|1-0|0-1|1/2-1/2|\*)[ \t]*(?:\n|\Z))|" + _NEXT_TAG)
#: a quote never closed: the value runs to the first ``]`` of its line, else to the
#: movetext of :data:`OPEN_VALUE_STOP`, else to the line end
_TAG_OPEN = lazy_pattern(rf'(?P<lb>\[(?:[ \t]*\[){{0,2}}[ \t]*)(?P<name>{NAME})[ \t]*"'
                       rf'(?P<value>(?:(?!{OPEN_VALUE_STOP})[^"\n\]])*)(?P<rb>\])?')
#: a value without quotes: ``[Event Open 2003]``
_TAG_BARE = lazy_pattern(r'(?P<lb>\[[ \t]*)(?P<name>[A-Za-z_][\w\-]{0,63})[ \t]+'
                       r'(?P<value>[^\]"\s][^\]"\n]{0,1000}?)[ \t]*(?P<rb>\])')
#: forum wrappers, left to the grammar (which ignores them and says so)
_WRAPPER = lazy_pattern(r"\[/?pdn\]", re.IGNORECASE)

#: the dashes a result may be written with: ``-`` and the typographic ones (hyphen,
#: non-breaking hyphen, figure dash, en dash, em dash, minus sign)
RESULT_DASH = "[-\u2010-\u2014\u2212]"
#: the result tokens but ``*`` (a regular expression): ``2-0``, ``1/2-1/2``, ``\u00bd-\u00bd``, ``0.5-0.5``
#: ..., each dash also typographic (``2\u20130``)
RESULTS = "|".join(r.replace("-", RESULT_DASH) for r in (
    "2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "1/2-1/2", "\u00bd-\u00bd", r"0\.5-0\.5"))

#: what movetext starts with (a comment is decided apart: see :func:`read_header`)
MOVETEXT_START = lazy_pattern(
    r"""\d{1,9}[.)] | \d{10}
      | \d{1,2}[ \t]*[-xX:\u2010-\u2014\u2212][ \t]*\d{1,2}(?![\d./])
      | [a-l](?:1[0-2]|[1-9])?[-xX:\u2013]?[a-l](?:1[0-2]|[1-9])(?![0-9])
      | \d{1,2}[^\s\w"\[\]{}()]{1,2}\d{1,2}(?![\d.])
      | \( | \$\d | /[ \t]*FEN
      | (?:1/2-1/2|\u00bd-\u00bd|0\.5-0\.5|\*)(?![\w/\-.:*])""",
    re.VERBOSE | re.IGNORECASE)
#: a line holds movetext when one of these is in it (else, outside comments, it is junk)
MOVETEXT_ANY = lazy_pattern(
    r"""(?<![\w.])\d{1,9}[.)]
      | (?<![\w/])\d{1,2}[ \t]*[-xX:\u2010-\u2014\u2212][ \t]*\d{1,2}(?![\d./])
      | (?<![\w/])\d{1,2}[^\s\w"\[\]{}()]{1,2}\d{1,2}(?![\d.])
      | (?<![\w])[a-l](?:1[0-2]|[1-9])?[-xX:\u2013]?[a-l](?:1[0-2]|[1-9])(?![0-9])
      | [(){};"\\] | \$\d | /[ \t]*FEN
      | (?:1/2-1/2|\u00bd-\u00bd|0\.5-0\.5|\*)(?![\w/\-.:*])""",
    re.VERBOSE | re.IGNORECASE)

#: literal escape text, two characters: backslash and r, n or t
ESCAPE_TEXT = lazy_pattern(r"\\[rnt]")
#: what the escape scanner stops at outside comments and strings
_LEX = lazy_pattern(r'[{}"\n;]|\\[rnt]')
_ENTITY = lazy_pattern(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_UNESCAPE = lazy_pattern(r"\\(.)")
_WS = lazy_pattern(r"\s+")
_NOT_BLANK = lazy_pattern(r"[^\n]")
_WORD_END = lazy_pattern(r"\s")
#: the dashes (with spaces between) that end a movetext, after white space
_DASH_RUN = lazy_pattern(r"(?<!\S)-(?:[ \t]*-)*\Z")


def decode_entities(text: str) -> str:
    """``text`` with HTML/XML character references decoded (``&#x00e9;``, ``&eacute;``,
    ``&amp;``); a ``&`` that starts none stays.

    Example:
        >>> decode_entities("R&#x00e9;sultat &amp; Caf&eacute; AT&T")
        'Résultat & Café AT&T'
    """
    if "&" not in text:
        return text
    import html  # (its entity table: only for text with an entity)

    return _ENTITY.sub(lambda m: html.unescape(m.group()), text)


def has_entities(text: str) -> bool:
    """True when ``text`` holds a character reference :func:`decode_entities` decodes.

    Example:
        >>> has_entities("Caf&eacute;"), has_entities("AT&T")
        (True, False)
    """
    return "&" in text and _ENTITY.search(text) is not None


def tag_value(inner: str) -> tuple[str, bool]:
    r"""A quoted tag value as meant: backslash escapes read (``\"`` is ``"``, ``\\`` is
    ``\``, the C-style ``\'`` is ``'``) and character references decoded; and whether it
    used the C-style ``\'``.

    Example:
        >>> tag_value(r'D\'Almeida &amp; \"Co\"')
        ('D\'Almeida & "Co"', True)
    """
    c_style = False
    if "\\" in inner:
        c_style = "\\'" in inner
        inner = _UNESCAPE.sub(r"\1", inner)
    return decode_entities(inner), c_style


def blank(text: str) -> str:
    """``text`` with every character but line ends turned into a space (positions kept).

    Example:
        >>> blank("ab\\ncd")
        '  \\n  '
    """
    return _NOT_BLANK.sub(" ", text)


def blank_escapes(text: str) -> tuple[str, int, int]:
    r"""``text`` with literal escape text (``\r``, ``\n``, ``\t`` as two characters)
    outside comments, ``;`` comments and quoted values turned into spaces; also how many
    there were and the offset of the first (-1: none). Linear in the text.

    Example:
        >>> blank_escapes('[Event "a\\tb"]\\r\n1. 32-28 {x\\r} *\\r\\n')
        ('[Event "a\\tb"]  \n1. 32-28 {x\\r} *    ', 3, 14)
    """
    if "\\" not in text:
        return text, 0, -1
    out: list[str] = []
    last = 0
    count = 0
    first = -1
    depth = 0  # brace comments (one level of nesting, as the grammar reads them)
    quoted = False
    pos = 0
    n = len(text)
    while pos < n:
        m = _LEX.search(text, pos)
        if m is None:
            break
        ch = m.group()
        pos = m.end()
        if ch == "\n":
            quoted = False
        elif depth:
            depth += 1 if ch == "{" else -1 if ch == "}" else 0
        elif quoted:
            if ch == '"' and not _escaped(text, m.start()):
                quoted = False
        elif ch == "{":
            depth = 1
        elif ch == '"':
            quoted = True
        elif ch == ";":
            end = text.find("\n", pos)
            pos = n if end < 0 else end
        elif ch[0] == "\\":
            out.append(text[last:m.start()])
            out.append("  ")
            last = pos
            count += 1
            if first < 0:
                first = m.start()
    if not count:
        return text, 0, -1
    out.append(text[last:])
    return "".join(out), count, first


def _escaped(text: str, i: int) -> bool:
    """Whether the character at ``i`` is escaped by an odd run of backslashes."""
    j = i
    while j > 0 and text[j - 1] == "\\":
        j -= 1
    return (i - j) % 2 == 1


@dataclass(slots=True)
class HeadTag:
    """A tag pair read by :func:`read_header`: ``name`` and ``value`` as meant (character
    references decoded, escapes read), where it starts (offset, line and column in the
    game text, 1-based) and what was odd about it (``issues``: messages for findings;
    ``strict`` ones matter to a strict reader only)."""

    name: str
    value: str
    offset: int
    line: int
    column: int
    malformed: list[str] = field(default_factory=list)
    strict: list[str] = field(default_factory=list)
    c_style: bool = False
    entities: bool = False


@dataclass(slots=True)
class Lifted:
    """Text lifted out of the header: ``kind`` ``"junk"`` or ``"comment"`` (a comment
    written among the tags), its ``text`` as written (a comment without its braces) and
    where it starts in the game text."""

    kind: str
    text: str
    offset: int
    line: int
    column: int


@dataclass(slots=True)
class Header:
    """What :func:`read_header` found: the tags, the lifted text, ``work`` (the game text
    with all of it blanked, same length), ``start`` (the offset where the game's own
    content starts: its first tag or its movetext; -1 when it has neither), ``escapes``
    (literal escape texts blanked) and ``dash`` (the offset of a lone ``-`` written as the
    terminator, blanked; -1: none)."""

    tags: list[HeadTag]
    lifted: list[Lifted]
    work: str
    start: int
    escapes: int = 0
    dash: int = -1
    junk_lines: list[Lifted] = field(default_factory=list)


class _Pos:
    """Offsets to (line, column), for a text read front to back (linear overall)."""

    __slots__ = ("text", "line", "upto", "line_start")

    def __init__(self, text: str) -> None:
        self.text = text
        self.line = 1
        self.upto = 0
        self.line_start = 0

    def at(self, offset: int) -> tuple[int, int]:
        text = self.text
        nl = text.count("\n", self.upto, offset)
        if nl:
            self.line += nl
            self.line_start = text.rfind("\n", self.upto, offset) + 1
        self.upto = offset
        return self.line, offset - self.line_start + 1


def _match_tag(work: str, pos: int) -> tuple[re.Match[str], str] | None:
    """The tag pair starting at ``pos`` and which form it has (``"tag"``, ``"quotes"``,
    ``"open"``, ``"bare"``), or None."""
    if not work.startswith("[", pos):
        line_start = work.rfind("\n", 0, pos) + 1
        at_start = not work[line_start:pos].strip()
        m = (_TAG_NOLB_START if at_start else _TAG_NOLB).match(work, pos)
        return (m, "tag") if m is not None else None
    m = TAG.match(work, pos)
    if m is not None:
        rest = _after(work, m.end())
        if m.group("rb") is not None or rest in ("\n", ""):
            return m, "tag"
        q = _TAG_QUOTES.match(work, pos)
        if q is not None:
            return q, "quotes"
        q = _TAG_JUNK.match(work, pos)
        if q is not None:
            return q, "junk"
        return m, "tag"
    m = _TAG_OPEN.match(work, pos)
    if m is not None and '"' in work[pos:m.end()]:
        return m, "open"
    m = _TAG_BARE.match(work, pos)
    if m is not None:
        return m, "bare"
    return None


def _after(work: str, end: int) -> str:
    """The first character after ``end`` that is not a space or tab ('' at the end)."""
    n = len(work)
    while end < n and work[end] in " \t":
        end += 1
    return work[end] if end < n else ""


def _read_tag(m: re.Match[str], form: str, pos: _Pos) -> HeadTag:
    raw_name = m.group("name").strip()
    name = decode_entities(raw_name)
    line, col = pos.at(m.start())
    inner = m.group("value")
    tag = HeadTag(name, inner, m.start(), line, col)
    if form == "bare":
        tag.value = decode_entities(inner.strip())
        tag.strict.append(f"tag value without quotes: {inner.strip()!r}")
    else:
        tag.value, tag.c_style = tag_value(inner)
        if form == "quotes":
            tag.strict.append("unescaped quote inside a tag value")
        elif form == "junk":
            tag.malformed.append(f"tag {name!r} has text after its value "
                                 f"({m.group('junk').strip()!r})")
        elif form == "open":
            tag.value = tag.value.rstrip()
            tag.malformed.append(f"tag {name!r} has a quote that is never closed")
    tag.entities = name != raw_name or has_entities(inner)
    lb, rb = m.group("lb"), m.group("rb")
    if lb.count("[") > 1:
        tag.malformed.append(f"tag {name!r} has its '[' written {lb.count('[')} times")
    if rb is not None and rb.count("]") > 1:
        tag.malformed.append(f"tag {name!r} has its ']' written {rb.count(']')} times")
    if not lb:
        tag.malformed.append(f"tag {name!r} is missing its '['")
    elif rb is None and form != "open":
        tag.malformed.append(f"tag {name!r} is missing its ']'")
    if not name[:1].isupper():
        tag.strict.append(f"tag name {name!r} does not start with a capital letter")
    elif not IDENTIFIER.fullmatch(raw_name):
        tag.strict.append(f"tag name {raw_name!r} is not a PDN identifier (letters, digits "
                          "and '_' only)")
    return tag


def _comment_end(work: str, pos: int) -> int:
    """The end of the brace comment opening at ``pos`` (one level of nesting), -1 when it
    is never closed."""
    depth = 0
    for m in re.finditer(r"[{}]", work[pos:pos + (1 << 20)]):
        depth += 1 if m.group() == "{" else -1
        if depth == 0:
            return pos + m.end()
        if depth > 2:
            return -1
    return -1


def _junk_end(work: str, pos: int) -> int:
    """Where the junk that starts at ``pos`` ends: its word, and the next words on the
    same line while none starts a tag, a comment or movetext."""
    n = len(work)
    m = _WORD_END.search(work, pos)
    end = m.start() if m is not None else n
    while end < n and work[end] != "\n":
        ws = _WS.match(work, end)
        nxt = ws.end() if ws is not None else end
        if nxt >= n or "\n" in work[end:nxt]:
            break
        ch = work[nxt]
        if ch in "{;%" or MOVETEXT_START.match(work, nxt) or _match_tag(work, nxt):
            break
        m = _WORD_END.search(work, nxt)
        end = m.start() if m is not None else n
    return end


def read_header(text: str) -> Header:
    """Read the header of one game's text (tags, and the junk and comments among them)
    up to its movetext, then find the junk lines of the movetext (lines, outside comments,
    that hold nothing movetext holds) and a lone ``-`` written as its terminator.

    Example:
        >>> h = read_header('[Empty] 1. 32-28 19-23 -')
        >>> h.tags, [(n.kind, n.text, n.column) for n in h.lifted], h.dash, h.work
        ([], [('junk', '[Empty]', 1)], 23, '        1. 32-28 19-23  ')
    """
    work, escapes, _ = blank_escapes(text)
    pos_of = _Pos(work)
    tags: list[HeadTag] = []
    lifted: list[Lifted] = []
    spans: list[tuple[int, int]] = []
    n = len(work)
    pos = 0
    start = -1
    while True:
        ws = _WS.match(work, pos)
        if ws is not None:
            pos = ws.end()
        if pos >= n:
            break
        ch = work[pos]
        if ch == "%" and (pos == 0 or work[pos - 1] == "\n"):
            end = work.find("\n", pos)
            pos = n if end < 0 else end
            continue
        hit = _match_tag(work, pos)
        if hit is not None:
            tags.append(_read_tag(hit[0], hit[1], pos_of))
            spans.append((pos, hit[0].end()))
            start = pos if start < 0 else start
            pos = hit[0].end()
            continue
        if _WRAPPER.match(work, pos):
            pos += len(_WRAPPER.match(work, pos).group())  # type: ignore[union-attr]
            continue
        if ch == "{" or ch == ";":
            end = _comment_end(work, pos) if ch == "{" else work.find("\n", pos) % (n + 1)
            if end < 0 or not _tag_follows(work, end):
                break  # a comment before the moves: movetext (the grammar reads it)
            body = work[pos + 1:end - 1] if ch == "{" else work[pos + 1:end]
            line, col = pos_of.at(pos)
            lifted.append(Lifted("comment", body, pos, line, col))
            spans.append((pos, end))
            pos = end
            continue
        if MOVETEXT_START.match(work, pos) or _DASH_RUN.match(work.rstrip(), pos):
            break  # movetext (or a lone '-' where the result belongs)
        end = _junk_end(work, pos)
        line, col = pos_of.at(pos)
        lifted.append(Lifted("junk", text[pos:end].strip(), pos, line, col))
        spans.append((pos, end))
        pos = end
    moves_at = pos if pos < n else -1
    if start < 0 or (0 <= moves_at < start):
        start = moves_at
    header = Header(tags, lifted, _blanked(work, spans), start, escapes)
    if moves_at >= 0:
        _movetext_junk(header, text, moves_at, pos_of)
        _lone_dash(header)
    return header


def _tag_follows(work: str, pos: int) -> bool:
    """True when, after white space and further comments, a tag pair starts at ``pos``."""
    n = len(work)
    for _ in range(100):
        ws = _WS.match(work, pos)
        if ws is not None:
            pos = ws.end()
        if pos >= n:
            return False
        if work[pos] == "{":
            pos = _comment_end(work, pos)
            if pos < 0:
                return False
            continue
        return _match_tag(work, pos) is not None
    return False


def _blanked(work: str, spans: list[tuple[int, int]]) -> str:
    if not spans:
        return work
    out: list[str] = []
    last = 0
    for a, b in spans:
        out.append(work[last:a])
        out.append(blank(work[a:b]))
        last = b
    out.append(work[last:])
    return "".join(out)


def _movetext_junk(header: Header, text: str, pos: int, pos_of: _Pos) -> None:
    """Blank the junk lines of the movetext from ``pos`` on: lines outside comments that
    hold nothing movetext holds (``--- page 3 ---``); each is kept in ``junk_lines``."""
    work = header.work
    n = len(work)
    spans: list[tuple[int, int]] = []
    depth = 0
    line_start = work.rfind("\n", 0, pos) + 1
    while line_start < n:
        end = work.find("\n", line_start)
        end = n if end < 0 else end
        row = work[line_start:end]
        if depth == 0 and row.strip() and not row.startswith("%") \
                and MOVETEXT_ANY.search(row) is None and row.strip() != "-" \
                and not _match_tag(row, len(row) - len(row.lstrip())):
            lead = len(row) - len(row.lstrip())
            piece = text[line_start:end].strip()
            if spans and not work[spans[-1][1]:line_start].strip():
                last = header.junk_lines[-1]  # junk lines in a row (blank lines between): one
                last.text += "\n" + piece
            else:
                line, col = pos_of.at(line_start + lead)
                header.junk_lines.append(Lifted("junk", piece, line_start + lead, line, col))
            spans.append((line_start, end))
        elif "{" in row or "}" in row:
            depth = _brace_depth(row, depth)
        line_start = end + 1
    if spans:
        header.work = _blanked(work, spans)


def _brace_depth(row: str, depth: int) -> int:
    """The comment depth after ``row`` (``;`` ends the line's movetext)."""
    for ch in re.findall(r"[{};]", row):
        if ch == ";" and depth == 0:
            break
        if ch == "{":
            depth = min(depth + 1, 2)
        elif ch == "}":
            depth = max(depth - 1, 0)
    return depth


def _lone_dash(header: Header) -> None:
    """A lone ``-`` where the terminator belongs: blank it and note where it was. The
    dashes that end the movetext are placeholders (``- -``, ``--``) two by two: an odd
    one is the terminator."""
    work = header.work
    tail = work.rstrip()
    if not tail.endswith("-"):
        return
    m = _DASH_RUN.search(tail)
    if m is None or m.group().count("-") % 2 == 0:
        return
    header.dash = len(tail) - 1
    header.work = work[:header.dash] + " " + work[header.dash + 1:]


__all__ = ["ESCAPE_TEXT", "IDENTIFIER", "MOVETEXT_ANY", "MOVETEXT_START", "NAME", "NAME1",
           "NOT_NEXT_TAG", "OPEN_VALUE_STOP", "RESULTS", "RESULT_DASH", "TAG",
           "HeadTag", "Header", "Lifted", "blank", "blank_escapes", "decode_entities",
           "has_entities", "read_header", "tag_value"]
