"""Findings: every problem pdnkit sees in a file becomes a coded, located record.

A :class:`Finding` is data, never an exception. Codes are stable kebab-case names
registered in :data:`CODES`; each carries its default severity, a one-line summary and
an explanation of how to fix the game (what ``pdnkit explain CODE`` prints).

Example:
    >>> f = make_finding("illegal-move", "no legal move 32-27", file="a.pdn",
    ...                  game_index=0, line=12, ply=7, move="32-27")
    >>> f.severity
    <Severity.ERROR: 'error'>
    >>> f.to_dict()["code"]
    'illegal-move'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any


class Severity(str, Enum):
    """How bad a finding is. Ordered: ``info < warning < error``."""

    INFO = "info"
    WARNING = "warning"
    ERROR = "error"

    @property
    def rank(self) -> int:
        """Numeric order, for comparisons (info=0, warning=1, error=2)."""
        return _RANK[self.value]

    def __ge__(self, other: object) -> bool:
        if isinstance(other, Severity):
            return self.rank >= other.rank
        return NotImplemented

    def __gt__(self, other: object) -> bool:
        if isinstance(other, Severity):
            return self.rank > other.rank
        return NotImplemented

    def __le__(self, other: object) -> bool:
        if isinstance(other, Severity):
            return self.rank <= other.rank
        return NotImplemented

    def __lt__(self, other: object) -> bool:
        if isinstance(other, Severity):
            return self.rank < other.rank
        return NotImplemented


_RANK = {"info": 0, "warning": 1, "error": 2}


@dataclass(frozen=True)
class CodeInfo:
    """Registry entry for a finding code."""

    code: str
    severity: Severity
    summary: str
    explanation: str
    stage: str  # "read", "replay", "result", "draw", "header", "analysis", "egdb", "collection"


@dataclass
class Finding:
    """One problem (or noteworthy fact) about one game.

    ``ply`` is the 1-based half-move number in the main line as recorded (ply 1 = the
    first move of the game); ``None`` for header or file problems. ``fen`` is the
    position *before* the move the finding is about, when there is one.
    """

    code: str
    severity: Severity
    message: str
    file: str | None = None
    game_index: int | None = None
    line: int | None = None
    ply: int | None = None
    move: str | None = None
    fen: str | None = None
    column: int | None = None
    in_variation: bool = False
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (severity as its string value)."""
        d = asdict(self)
        d["severity"] = self.severity.value
        return d

    def located(self, **where: Any) -> Finding:
        """Return a copy with location fields (file, game_index, line, ...) filled in
        where they are still ``None``."""
        d = {k: getattr(self, k) for k in self.__dataclass_fields__}
        for k, v in where.items():
            if d.get(k) is None:
                d[k] = v
        return Finding(**d)

    def __str__(self) -> str:
        loc = []
        if self.file is not None:
            loc.append(str(self.file))
        if self.game_index is not None:
            loc.append(f"game {self.game_index + 1}")
        if self.line is not None:
            loc.append(f"line {self.line}" + (f":{self.column}" if self.column else ""))
        if self.ply is not None:
            loc.append(f"ply {self.ply}")
        where = ", ".join(loc)
        mv = f" [{self.move}]" if self.move else ""
        return f"{where}: {self.severity.value} {self.code}{mv}: {self.message}"


def _c(code: str, sev: str, stage: str, summary: str, explanation: str) -> CodeInfo:
    return CodeInfo(code, Severity(sev), summary, explanation, stage)


#: Every finding code pdnkit can emit. Codes never change meaning; new ones are added.
CODES: dict[str, CodeInfo] = {
    c.code: c
    for c in [
        # --- reading -------------------------------------------------------------------
        _c("syntax-error", "error", "read",
           "the game text does not parse",
           "The PDN text of this game breaks the grammar at the given line and column "
           "(an unclosed comment or variation, a stray character, a malformed tag). The game "
           "is kept with its raw text but cannot be replayed. Fix the text at the position "
           "shown; `pdnkit lint` lists every such place."),
        _c("encoding-fallback", "warning", "read",
           "the file was not UTF-8 and was decoded another way",
           "PDN 3.0 requires UTF-8. The file was decoded as the named legacy encoding "
           "(cp1252/latin-1, cp1251 or cp866, chosen by which reads as the most plausible "
           "text; the finding sits on the game with the first non-UTF-8 byte, with its line, "
           "and `--encoding NAME` overrides the choice). In a UTF-8 file, one game written "
           "in a legacy encoding is decoded in it on its own (the message says 'this game'): "
           "the other games stay UTF-8. Check names with accents or Cyrillic letters, "
           "then re-save the file as UTF-8 (`pdnkit convert` does this)."),
        _c("invalid-bytes", "warning", "read",
           "bytes on this line are not valid in the file's encoding and were replaced",
           "The file is read as UTF-8 (it holds valid UTF-8 text) but this line has bytes "
           "that are not UTF-8 (a character cut short, a stray byte beside UTF-8 text; or "
           "not valid in the encoding given with --encoding). They were replaced by U+FFFD; "
           "the other lines are unchanged. NUL bytes (fewer than a run of binary data) are "
           "no text either: they are removed, so a tag line holding one stays a tag line. "
           "Fix the bytes, or read the file with `--encoding NAME` if it is really in "
           "another encoding."),
        _c("binary-data", "error", "read",
           "the input holds binary data (NUL bytes): a run is skipped and reading goes on; "
           "binary data on end stops it",
           "The input holds a run of NUL bytes: it is not PDN text (padding, a damaged "
           "copy, a device such as /dev/zero, a disk image). A run inside the file is "
           "skipped and the games after it are read (the finding gives its line and length); "
           "binary data on end (a megabyte of NUL bytes, or a block mostly NUL) stops "
           "reading there. If the file is UTF-16 or UTF-32 without a byte order mark, name "
           "it with `--encoding utf-16-le` (or -be, utf-32-...)."),
        _c("empty-file", "warning", "read",
           "the file holds no PDN text",
           "The input is empty or holds only blank lines. Check that the right file was "
           "named (an export that failed, a file truncated by a full disk)."),
        _c("not-pdn", "warning", "read",
           "the file holds text, but no PDN game",
           "The file holds no tag pair, and less of its text reads as moves than as text "
           "that is neither tags nor moves: it is not PDN (a README, a note, a listing saved "
           "with the wrong name). It gives no game, only this finding, which says how the "
           "text begins (the moves and the pieces of other text counted are in its "
           "details). Check that the right file was named; a game collection without tags "
           "reads as games, one per result."),
        _c("strict-violation", "warning", "read",
           "PDN 3.0 forbids this construct, but a liberal reader accepts it",
           "The text uses something the PDN 3.0 standard does not allow (a nested comment, "
           "a `;` line comment, a non-standard result token, a forum wrapper ...). pdnkit "
           "reads it in its default liberal mode; `--strict` reports it as an error. "
           "`pdnkit convert` writes the canonical form."),
        _c("empty-game", "warning", "read",
           "the game has neither tags nor moves",
           "Text between games that holds no tags and no moves. Remove it or make it a "
           "`%` escape line."),
        _c("ignored-text", "warning", "read",
           "text between games that is neither tags nor moves was kept as a comment",
           "A note, a page footer (`--- page 3 ---`), a bracketed word that is no tag pair "
           "(`[Empty]`, a lone `[`) or other text stands between two games or among a "
           "game's tags. It is not a game and holds no move, so it is never replayed; the "
           "reader keeps it as a comment before the first move of the neighbouring game "
           "(the next one; the last one at the end of the file), where `convert` writes it, "
           "and the finding says where it was. Make it a `%` escape line or a comment."),
        _c("escaped-line-ends", "info", "read",
           "the file writes line ends as literal escape text (backslash and r)",
           "Some exporters write the two characters `\\r` (or `\\n`, `\\t`) where a "
           "line end belongs: `[White \"Schaad\"]\\r`. Outside comments and tag values "
           "such text is layout: the reader reads it as white space, and says so once per "
           "file. Nothing is lost; `convert` writes real line ends."),
        _c("c-style-escapes", "info", "read",
           "tag values escape quotes C-style (\\')",
           "PDN escapes only `\\\"` and `\\\\` in tag values; this file also writes "
           "`\\'` (`D\\'Almeida`), which the reader reads as `'`. Said once per file."),
        _c("html-entities", "info", "read",
           "tags are written with HTML character references, which were decoded",
           "Tag names or values hold HTML/XML character references (`R&#x00e9;sultat`, "
           "`Caf&eacute;`, `&amp;`). The reader decodes them (`Résultat`, `Café`, `&`), so "
           "the tags reach their columns. Said once per file; write UTF-8 text instead."),
        _c("lone-dash-result", "warning", "read",
           "a lone '-' stands where the result belongs; read as '*'",
           "The movetext ends with a single `-` instead of a result token. The game stays "
           "one game with its moves and is read as unfinished (`*`); a Result tag on the "
           "2-point or 1-point scale still gives the result. Write `*` for an unfinished "
           "game. `--strict` makes it an error."),
        _c("unknown-tag-syntax", "warning", "read",
           "a tag pair is malformed but was recovered",
           "A tag pair missing its `[` or its `]` (`Event \"Open\"]`), or whose quote is "
           "never closed (`[Event \"Open]`), was read as the tag it stands for; the "
           "finding says what was missing. Write tags as `[Name \"value\"]`. `--strict` "
           "makes it an error."),
        _c("unreadable-text", "warning", "read",
           "text inside the movetext that is not PDN was kept as a comment",
           "Something inside the moves is neither a move, a move number, a comment, a "
           "variation nor a result: a word glued to a move (`8-11Whiteoverstepped.`), a lone "
           "`.`, a stray `]` or `)`, a tag among the moves, a tag line that does not read "
           "(`[Site \"x\" junk]`). The reader kept the text as a comment (`convert` writes "
           "it in braces) and went on with the next move; the finding gives its line, "
           "column and text. Put comments in braces, fix the tag. `--strict` makes it an "
           "error."),
        _c("unclosed-comment", "warning", "read",
           "a `{` comment is never closed; it was closed at the end of the game",
           "The comment opened at the given line and column has no `}`. The reader ended it "
           "at the end of the game (before its result, when one ends the text), so the moves "
           "before it are kept. Add the missing `}`."),
        _c("unclosed-variation", "warning", "read",
           "a `(` variation is never closed; it was closed at the end of the game",
           "The variation opened at the given line and column has no `)`. The reader closed "
           "it (and any variation inside it) at the end of the game, so the main line after "
           "the opening parenthesis is read as part of the variation. Add the missing `)`."),
        _c("missing-terminator", "warning", "read",
           "the movetext stops without a result before the next game's tags",
           "PDN 3.0 separates games with a result token or `*`. This game's moves end and the "
           "next game's tags begin without one; the reader ended the game there. Add the "
           "result (or `*`). `--strict` makes it an error."),
        _c("too-large", "error", "read",
           "the game is over the reader's size limit and was not read",
           "A game (with its comments and tag values) longer than the reader's limit "
           "(`pdnkit.pdn.reader.MAX_GAME_CHARS`, 10 million characters) is kept as raw text "
           "with its tag lines, without parsing its moves, so that one huge or corrupt game "
           "cannot exhaust memory. Split the game or remove the huge comment."),
        # --- header / setup --------------------------------------------------------------
        _c("unknown-variant", "error", "header",
           "GameType / variant cannot be resolved",
           "Neither the GameType tag, a Variant tag, `--variant`, nor the notation told "
           "pdnkit which rules apply. Add a `[GameType \"20\"]` (or the right number) tag, "
           "or pass `--variant`."),
        _c("variant-guessed", "info", "header",
           "the variant was guessed from the notation",
           "There was no GameType tag; pdnkit inferred the variant from square numbers, "
           "notation or tag language. Add a GameType tag to make it explicit."),
        _c("variant-conflict", "warning", "header",
           "the file's tags disagree with --variant",
           "The GameType/Variant tag names another variant than `--variant`; the tag "
           "wins. Remove `--variant` or fix the tag."),
        _c("bad-fen", "error", "header",
           "the FEN tag or setup is malformed or impossible",
           "The FEN tag (or a `/FEN \"...\"/` setup) could not be read, or describes an "
           "impossible position (a square off the board, two pieces on one square, a man "
           "on its own promotion row). Fix the FEN string."),
        _c("bad-date", "info", "header",
           "the Date tag is not a date",
           "PDN dates are `YYYY.MM.DD` with `?` for unknown digits. pdnkit also reads "
           "`25.11.2000`, `17 april 2009`, `April 17, 2009`, `april 2009`, `1950.`, seasons "
           "(`1999/00`, `2007/08`, `1999-2000`) and ranges (`2004.10.27 - 2004.11.01`), each "
           "at the precision it is written (`date_first`, `date_last`, `date_precision`); "
           "anything else (a month's name it does not know, a year outside 1000-2999, or a "
           "two-digit year such as `03.07.20`, which is ambiguous) is reported. The raw text "
           "is kept in `date_raw` (and shown as written), and a year found in it still fills "
           "`year`."),
        _c("duplicate-tag", "warning", "header",
           "a tag is given twice in one game; the first one is used",
           "A game's header names the same tag more than once (often two games' headers "
           "merged). pdnkit uses the first occurrence everywhere (validate, the database, "
           "convert and export); the later values are in the finding's details. Remove "
           "the duplicate, or split the merged games."),
        _c("plycount-mismatch", "warning", "header",
           "the PlyCount tag disagrees with the moves of the main line",
           "The `PlyCount` tag gives the number of half-moves of the main line. When it "
           "differs from the moves actually written, moves were lost or added after the "
           "tag was written (a truncated game, a merged game). Check the moves against "
           "the source, then correct the tag."),
        _c("opening-tag-mismatch", "info", "header",
           "the game's opening tag names another opening than its moves reach",
           "An `Opening`, `Apertura`, `ECO`, `Ballot`, `Debut` or `Дебют` tag names an "
           "entry of pdnkit's opening tables (a ballot, a code, a name, a line) that the "
           "game was long enough to reach but did not: its positions never reach the "
           "named entry's defining position (transpositions count). The message gives the "
           "named entry's line and what the moves give (`games.opening_code`, "
           "`opening_name`). Often a tag copied from the neighbouring game, or a name used "
           "loosely for a family of openings. Check the first moves against the line; `pdnkit "
           "openings list --variant V --entries` shows the tables. The tag is kept as "
           "written (`games.opening`)."),
        # --- replay ----------------------------------------------------------------------
        _c("illegal-move", "error", "replay",
           "no legal move matches the recorded move",
           "The move as written cannot be played in the position reached. Often a typo "
           "(a swapped digit) or a move from another variant's numbering. The remaining "
           "moves are kept but not replayed. Look at the position in the finding's FEN."),
        _c("missed-capture", "error", "replay",
           "a non-capturing move was played while a capture was compulsory",
           "Capturing is compulsory in every variant pdnkit knows. The recorded quiet "
           "move would be legal if no capture existed. In over-the-board play the "
           "irregularity may have stood (FMJD 5.7); otherwise the record is wrong."),
        _c("not-max-capture", "error", "replay",
           "a capture took fewer pieces than the variant requires",
           "The variant requires the capture of the largest number (or value) of pieces. "
           "The recorded capture takes fewer; details list the taken and required counts "
           "and the required captures."),
        _c("capture-priority", "error", "replay",
           "a capture broke the variant's priority order",
           "Italian, Spanish/Portuguese, Czech and Frisian rules rank captures (king "
           "before man, most kings, first king met ...). The recorded capture is of lower "
           "priority than another legal one; the message names the rule broken."),
        _c("ambiguous-move", "error", "replay",
           "the recorded move matches several legal moves with different results",
           "Origin and destination do not decide the move. Write the full capture path "
           "(e.g. `47x38x24x13x36`). When only one candidate lets the rest of the game "
           "continue, pdnkit resolves it that way and the finding is a warning."),
        _c("move-after-end", "error", "replay",
           "moves are recorded after the game was over",
           "The side to move had no legal move (the game was decided) or an automatic "
           "draw had been reached, yet more moves follow. Remove them or check the "
           "earlier moves."),
        _c("notation-mismatch", "warning", "replay",
           "the move's separator or form does not fit the move played",
           "A quiet move written with `x`, or a capture written with `-`. The move was "
           "matched by its squares; write `-` for quiet moves and `x` for captures."),
        _c("move-number-mismatch", "warning", "replay",
           "a move number or the side to move disagrees with the position",
           "The move number (or its `...` black-move form) does not match the ply it "
           "stands at. The move itself was replayed; check for missing or doubled moves."),
        _c("board-turned", "info", "replay",
           "the moves are written with the first mover at the bottom; read turned round",
           "Alphanumeric squares are named from White's side (a1 bottom left), so in a "
           "variant where Black moves first (English checkers) the first move comes from the "
           "top: f6-e5. This game writes every square from the first mover's side instead "
           "(PlayStrategy's English exports: 1. c3-d4): read as written, its first move would "
           "be the other side's and the colours reversed against the players. Its first move "
           "is legal only read turned round, so the whole game is read that way; the "
           "canonical notation and every position are the usual ones. Nothing to fix: "
           "`pdnkit convert` writes the game in the variant's usual notation."),
        _c("unknown-move", "warning", "replay",
           "the record holds a placeholder instead of a move",
           "`- -` or `...` stands where a move should be. Replay stops there."),
        _c("irregular-accepted", "warning", "replay",
           "the opponent played on after an irregular move, which so stands",
           "An earlier move broke a capture rule (its own finding says which: "
           "missed-capture, not-max-capture, capture-priority, or a capture stopped early) "
           "and was replayed as played, because the variant's rulebook lets such a move "
           "stand once the opponent plays on (FMJD 5.4/5.7, Frisian art. 27, Czech, "
           "Italian); this move of the opponent accepted it. The message names the "
           "article. The rest of the game, its result and its draw rules are checked from "
           "the position the irregular move produced (draw counts restart there). "
           "`--irregular stop` stops the replay at the irregular move instead."),
        _c("internal-error", "error", "replay",
           "pdnkit itself failed on this game",
           "A fault in pdnkit's own code, not in the game, stopped the work on this game "
           "(the message names the exception and where it happened). The game is kept "
           "with everything read so far and the other games go on. Please report it, "
           "with the game's text, so it can be fixed."),
        # --- results ---------------------------------------------------------------------
        _c("result-mismatch", "error", "result",
           "the result contradicts the final position",
           "The side to move has no legal move but is not scored as the loser (or as "
           "the winner in losing variants), or the scored loser could still move in a "
           "position that decides the game. Check the Result tag and the last moves."),
        _c("result-tag-mismatch", "warning", "result",
           "the Result tag and the movetext terminator disagree",
           "The `[Result]` tag and the result written after the moves differ. Make them "
           "the same."),
        _c("result-convention", "info", "result",
           "the result was read under a stated convention",
           "English/pool files disagree on whether `1-0` means the first mover (Black) "
           "or White won. The finding says which reading made the result fit; "
           "`--result-convention` settles it."),
        _c("unknown-result", "info", "result",
           "the game has no result or an unrecognised result",
           "`*`, a missing result or a non-standard score such as a match result."),
        # --- draws -----------------------------------------------------------------------
        _c("draw-rule-ignored", "error", "draw",
           "an automatic draw rule was reached and the game went on or was scored decisively",
           "The position history reached a draw rule of the variant (repetition, "
           "no-progress count or endgame count) at the given ply, but the game continued "
           "or was scored as a win. Where the rule is a claim, not automatic, this is a "
           "warning: the player may simply not have claimed. It is also a warning where "
           "the rule itself is known only from a secondary summary [S], an implementation "
           "[I] or no source at all [U] (the rules reference's reliability tags, named in "
           "the message and in details.source): a game that breaks a rule nobody could "
           "confirm from the rulebook is worth a look, not an error."),
        _c("draw-by-rule", "info", "draw",
           "a drawn result is backed by a rule",
           "The draw is justified by the named rule (details: rule, article, ply)."),
        _c("draw-unsupported", "info", "draw",
           "a drawn result with no rule basis in the record (agreement)",
           "No draw rule was reached; the draw was presumably agreed. Not an error."),
        # --- engine analysis (pdnkit analyse) ------------------------------------------------
        _c("blunder", "warning", "analysis",
           "a move that loses at least a man (the engine's score drops by the blunder threshold)",
           "The engine's score of the position after the move is worse for the side that "
           "played it than the score before it by at least the blunder threshold: 1.00 man by "
           "default on both scales (`--blunder`). On the material scale of the built-in search "
           "(`--engine builtin`) this is material the move drops: its best line reaches that "
           "much less material; on the positional scale of a Hub engine it is the engine's "
           "judgement, in men. Scores are held within +-5 men first, so a move that keeps a "
           "decided position decided is no blunder, and a move that is the engine's own best "
           "move never is one. The message gives both scores, the loss and the engine's move "
           "with its line; the finding names the engine and its settings."),
        _c("mistake", "info", "analysis",
           "a move that loses at least half a man (the mistake threshold), less than a blunder",
           "As `blunder`, for a loss from the mistake threshold (0.50 man by default on both "
           "scales, `--mistake`) up to the blunder threshold. On the material scale only a "
           "king's worth makes such a fraction (a king for two men where a king is worth 1.5); "
           "on the positional scale it is a clear step down in the engine's judgement."),
        _c("missed-shot", "warning", "analysis",
           "a win of material was there and the move let it go",
           "Before the move the engine's line won at least the shot threshold in material (1.00 "
           "man by default, `--shot`): the material at the end of its line, with any captures "
           "still pending played out, exceeds the material on the board by that much; and the "
           "move played gave up at least as much of the score. The message says `a shot` when "
           "the line begins by giving material away (a sacrifice that wins more back) and `a "
           "win of material` otherwise, and gives the line. It replaces `blunder` or `mistake` "
           "for that move. Material, not positional judgement: a king counts 3 men where kings "
           "fly, 1.5 where they do not."),
        _c("engine-failed", "warning", "analysis",
           "the engine gave no evaluation of a position: it crashed, hung or answered garbage",
           "The engine process ended (crashed), did not answer within the time limit (hung: "
           "`--timeout`, it was killed) or answered what pdnkit cannot read (a move that is "
           "not legal in the position, no score, an `error` line) while evaluating the "
           "position after the finding's ply (a finding without a ply: the start position; "
           "`details.position_ply` says which). The position has no row in `evals`; "
           "a new engine process took over for the next position, and running `pdnkit "
           "analyse` again tries the position again. The message says what happened and the "
           "last line the engine wrote on its standard error."),
        # --- endgame databases (pdnkit egdb build; docs/endgame-databases.md) -----------
        _c("result-vs-egdb", "warning", "egdb",
           "the recorded result contradicts the endgame databases at the final position",
           "The game's final position is one the endgame databases hold (built with "
           "`pdnkit egdb build`), and its value there (with best play, no move-count rule) "
           "is not the recorded result: a win scored in a drawn position, a draw scored in a "
           "won one, or the other side's win. A game can end that way (a resignation in a "
           "drawn position, a loss on time, an agreed draw): check the result and the "
           "last moves; details: value, plies, best_moves."),
        _c("win-thrown-away", "info", "egdb",
           "a won position became a draw or a loss with this move",
           "Before this move its side had a win by the endgame databases, after it no "
           "longer. Not an error in the record: a mistake in the game, located (details: "
           "value and plies before and after, best_moves: the winning moves)."),
        _c("draw-thrown-away", "info", "egdb",
           "a drawn position became a loss with this move",
           "Before this move its side could draw by the endgame databases, after it the "
           "other side wins (details: values before and after, best_moves: the drawing "
           "moves)."),
        _c("egdb-win-drawn-by-rule", "info", "egdb",
           "drawn by a move-count rule in a position the endgame databases say is won",
           "The game was drawn by a move-count rule (FMJD 16 or 25 moves, the English 40 "
           "moves, the Russian 15 moves ...) while one side had a win by the endgame "
           "databases. The details say whether the fastest win fitted within the plies the "
           "rule left (then a warning: the win was there to take) or not (a capture or a "
           "promotion on the way would have restarted the count)."),
        # --- collection (the games of a database together) -------------------------------
        _c("probable-copy", "warning", "collection",
           "probably a copy of another record, yet counted as a game of its own",
           "Another record of the database has the same players, event, date and round "
           "but other moves (one of the two has moves missing or mistyped), or this "
           "record's moves could be a copy of several games whose tags it all fits. pdnkit "
           "groups copies only on moves and tags it can trust (docs/duplicates.md), so both "
           "records count until you say: `pdnkit rule-copies A B --same` makes them one "
           "game (the better record stands for both), `--different` two games; the "
           "details give both commands with the two records' places. Found when the "
           "records are imported (`pdnkit duplicates` lists them)."),
    ]
}


def make_finding(code: str, message: str | None = None, *, severity: Severity | str | None = None,
                 **fields: Any) -> Finding:
    """Create a finding for a registered ``code``, with its default severity unless
    ``severity`` overrides it.

    Raises ``KeyError`` for an unregistered code (that is API misuse, not bad data).

    Example:
        >>> make_finding("bad-fen", "square 51 is off the board").severity.value
        'error'
    """
    info = CODES[code]
    sev = Severity(severity) if severity is not None else info.severity
    return Finding(code=code, severity=sev, message=message or info.summary, **fields)


def worst(findings: Iterable[Finding]) -> Severity | None:
    """The highest severity among ``findings`` (``None`` when there are none).

    Example:
        >>> worst([make_finding("draw-unsupported"), make_finding("illegal-move")]).value
        'error'
    """
    best: Severity | None = None
    for f in findings:
        if best is None or f.severity > best:
            best = f.severity
    return best


def explain(code: str) -> str:
    """What a finding code means and how to fix it (text for ``pdnkit explain``).

    Example:
        >>> explain("missed-capture").splitlines()[0]
        'missed-capture (error): a non-capturing move was played while a capture was compulsory'
    """
    info = CODES[code]
    return f"{info.code} ({info.severity.value}): {info.summary}\n\n{info.explanation}"
