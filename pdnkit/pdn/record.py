"""The data the PDN reader produces: one :class:`GameRecord` per game.

A record keeps everything the text says, as written: tags in file order, the movetext as a
tree of :class:`MoveNode` (with comments, NAGs, move-strength marks, setups and nested
variations hung on the moves), the result token, and where the game came from (file, index,
first line, raw text). Squares stay strings as written (``"32"``, ``"06"``, ``"c3"``); the
replay stage resolves them against the rules of the variant.

Attachment rules (the same for the main line and for every variation):

* a comment, NAG or setup that follows a move (before the next move) belongs to that move
  (``comments_after``, ``nags``; a ``/FEN/`` setup goes to the *next* move's ``setup_before``);
* comments that come before the first move of a line go to that move's ``comments_before``;
* a variation ``( ... )`` hangs on the move it replaces (the move just before it);
* anything with no move to attach to (a comment in a game without moves, a setup after the
  last move) stays a free :class:`CommentNode` / :class:`SetupNode` / :class:`NagNode` in the
  line's element list.

Example:
    >>> m = MoveNode(text="32x23", squares=("32", "23"), separators=("x",), number=12)
    >>> m.is_capture, m.origin, m.destination
    (True, '32', '23')
    >>> g = GameRecord(tags=[("White", "Sijbrands"), ("Result", "2-0")], body=[m], moves=[m])
    >>> g.tag("white"), g.tag("Black"), g.tag("Black", "?")
    ('Sijbrands', None, '?')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from pdnkit._lazy import lazy_pattern
from pdnkit.findings import Finding

#: ``[%name value]`` commands embedded in comments (clock, eval ...).
_COMMAND_RE = lazy_pattern(r"\[%\s*([A-Za-z_][\w-]*)\s*([^\]]*)\]")


def comment_commands(text: str) -> list[tuple[str, str]]:
    """The ``[%command value]`` pairs embedded in a comment, in order.

    Example:
        >>> comment_commands("good [%clk 1:55:21] [%eval -0.05]")
        [('clk', '1:55:21'), ('eval', '-0.05')]
    """
    return [(m.group(1), m.group(2).strip()) for m in _COMMAND_RE.finditer(text)]


@dataclass(slots=True)
class CommentNode:
    """A free-standing comment (one with no move to attach to).

    ``text`` is the comment without its braces (or without the leading ``;`` for a line
    comment), exactly as written. ``kind`` is ``"brace"`` or ``"line"``.
    """

    text: str
    kind: str = "brace"
    line: int | None = None
    column: int | None = None


@dataclass(slots=True)
class SetupNode:
    """A free-standing ``/FEN "..."/`` setup (one with no following move)."""

    fen: str
    line: int | None = None
    column: int | None = None


@dataclass(slots=True)
class NagNode:
    """A free-standing ``$n`` annotation glyph (one with no preceding move)."""

    value: int
    line: int | None = None
    column: int | None = None


@dataclass(slots=True)
class MoveNode:
    """One move as written, with everything attached to it.

    * ``text`` -- the move token as written (``"32-28"``, ``"06x17"``, ``"c3:e5"``, ``"- -"``).
    * ``squares`` -- the square tokens as written, origin first (full paths keep every
      listed square): ``("28", "19", "10")``. Empty for a placeholder.
    * ``separators`` -- the separator between consecutive squares as written (``"-"``,
      ``"x"``, ``"X"``, ``":"``, or ``""`` for ``a3b4``/``3228``); ``len(squares) - 1`` items.
    * ``number`` -- the move number written before it (``12`` for ``12.`` / ``12...``) or
      ``None``; ``black_dots`` is True for the ``N...`` form.
    * ``strength`` -- the move-strength mark as written (``"!"``, ``"?!"``, ``"(?)"``) or None.
    * ``nags`` -- ``$n`` values that follow the move, in order.
    * ``comments_before`` / ``comments_after`` -- comment texts (without braces).
    * ``variations`` -- alternative lines replacing this move; each is a list of elements
      (:class:`MoveNode` mostly) in the same shape as :attr:`GameRecord.body`.
    * ``setup_before`` -- the FEN of a ``/FEN "..."/`` setup written just before this move.
    * ``line`` / ``column`` -- 1-based position of the move token in the file.
    * ``placeholder`` -- True for ``- -`` or ``...`` standing where a move should be.
    """

    text: str
    squares: tuple[str, ...] = ()
    separators: tuple[str, ...] = ()
    number: int | None = None
    black_dots: bool = False
    strength: str | None = None
    nags: list[int] = field(default_factory=list)
    comments_before: list[str] = field(default_factory=list)
    comments_after: list[str] = field(default_factory=list)
    variations: list[list[BodyElement]] = field(default_factory=list)
    setup_before: str | None = None
    line: int | None = None
    column: int | None = None
    placeholder: bool = False

    @property
    def origin(self) -> str | None:
        """The first square as written (None for a placeholder)."""
        return self.squares[0] if self.squares else None

    @property
    def destination(self) -> str | None:
        """The last square as written (None for a placeholder)."""
        return self.squares[-1] if self.squares else None

    @property
    def is_capture(self) -> bool:
        """True when written with a capture separator (``x``, ``X`` or ``:``)."""
        return any(s in ("x", "X", ":") for s in self.separators)

    @property
    def commands(self) -> list[tuple[str, str]]:
        """``[%cmd value]`` pairs from the comments after the move (clock, eval ...)."""
        out: list[tuple[str, str]] = []
        for c in self.comments_after:
            out.extend(comment_commands(c))
        return out


#: An element of a line of movetext.
BodyElement = MoveNode | CommentNode | SetupNode | NagNode


class UnreadLine(Protocol):
    """A main line whose moves are not read yet: a game the compiled lane read
    (:class:`pdnkit.pdn.fast.LaneRecord`), whose movetext the replay core reads as written
    (``raw[lane_body:]``), each move's line in ``move_lines`` (int32s), ``move_count`` moves;
    ``moves`` reads them."""

    @property
    def raw(self) -> str: ...

    @property
    def lane_body(self) -> int: ...

    @property
    def move_lines(self) -> bytes: ...

    @property
    def move_count(self) -> int: ...

    @property
    def moves(self) -> list[MoveNode]: ...


@dataclass(slots=True)
class GameRecord:
    """One game as read from a PDN file.

    * ``tags`` -- ``(name, value)`` pairs in file order, names and values as written
      (unknown tags kept); :meth:`tag` looks one up case-insensitively.
    * ``body`` -- the main line: a list of elements (see the module doc for attachment).
    * ``moves`` -- the main line's :class:`MoveNode` objects in order (a view of ``body``).
    * ``result`` -- the terminator token as written (``"2-0"``, ``"*"``, ``"1/2-1/2"``) or
      None when the movetext has none.
    * ``file`` -- the path (str) or None; ``index`` -- 0-based game index in the file;
      ``line`` -- 1-based first line of the game; ``end_line`` -- its last line.
    * ``raw`` -- the game's text as read (decoded; line ends normalised to ``\\n``).
    * ``findings`` -- reading findings (syntax errors, strict-mode violations, encoding).
    * ``encoding`` -- how the file was decoded (``"utf-8"``, ``"cp1251"``, ...).
    * ``parsed`` -- False when the game could not be read: its movetext yields no readable
      move, a tag pair is broken, or it is over the reader's size limit (then ``body`` and
      ``moves`` are empty and ``raw`` is complete). Text the reader could not use inside a
      game that did read is kept as comments, with findings saying where.
    * ``file_level`` -- True for a record that is no game but holds findings about the file
      (empty, not PDN, binary data or bytes after its last game): it comes last, takes no
      game number, and its findings carry none (``game_index`` None).
    """

    tags: list[tuple[str, str]] = field(default_factory=list)
    body: list[BodyElement] = field(default_factory=list)
    moves: list[MoveNode] = field(default_factory=list)
    result: str | None = None
    file: str | None = None
    index: int = 0
    line: int = 1
    end_line: int | None = None
    raw: str = ""
    findings: list[Finding] = field(default_factory=list)
    encoding: str | None = None
    parsed: bool = True
    file_level: bool = False

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of the first tag called ``name`` (case-insensitive), else ``default``.

        Example:
            >>> GameRecord(tags=[("GameType", "20")]).tag("gametype")
            '20'
        """
        low = name.lower()
        for k, v in self.tags:
            if k.lower() == low:
                return v
        return default

    @property
    def headers(self) -> dict[str, str]:
        """Tags as a dict (first occurrence of each name wins).

        Example:
            >>> GameRecord(tags=[("Event", "A"), ("Event", "B")]).headers
            {'Event': 'A'}
        """
        out: dict[str, str] = {}
        for k, v in self.tags:
            out.setdefault(k, v)
        return out

    @property
    def setup(self) -> str | None:
        """The starting FEN: the ``FEN`` tag, else a setup written before the first move.

        Example:
            >>> GameRecord(tags=[("FEN", "W:W31-50:B1-20")]).setup
            'W:W31-50:B1-20'
        """
        fen = self.tag("FEN")
        if fen is not None and fen.strip():
            return fen
        if self.moves and self.moves[0].setup_before:
            return self.moves[0].setup_before
        return None

    @property
    def move_count(self) -> int:
        """The main line's moves (``len(moves)``, known without reading them for a game the
        compiled lane read).

        Example:
            >>> GameRecord().move_count
            0
        """
        return len(self.moves)

    def unread_line(self) -> UnreadLine | None:
        """The main line while its moves are not read (a game the compiled lane read: the
        replay core reads its movetext as written), else ``None``: a record the Python
        reader made holds its moves.

        Example:
            >>> GameRecord().unread_line() is None
            True
        """
        return None

    @property
    def has_error(self) -> bool:
        """True when a reading finding is an error."""
        return any(f.severity.value == "error" for f in self.findings)


__all__ = [
    "BodyElement",
    "CommentNode",
    "GameRecord",
    "MoveNode",
    "NagNode",
    "SetupNode",
    "UnreadLine",
    "comment_commands",
]
