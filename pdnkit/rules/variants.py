"""Variants as data: one frozen :class:`Rules` record per variant (and per edition).

Each field that the move generator or the draw tracker reads carries a comment citing the
article it implements (article numbers as in RULES.md; ``[S]``/``[I]``/``[U]`` mark secondary
sources, implementations and assumptions). The generator never looks at a variant's name.

Example:
    >>> r = get_rules("shashki")
    >>> r.name, r.gametype, r.flying_kings, r.promotion_during_capture
    ('russian', 25, True, 'king')
    >>> get_rules("20,W,10,10,N1,0").name      # PlayOK writes the wrong corner; resolve by number
    'international'
    >>> [d.name for d in get_rules("english", edition="wcdf").draw_rules]
    ['wcdf-1.32.1', 'wcdf-1.32.2']
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import IntEnum
from typing import Any

from pdnkit.errors import ArgumentError, PdnkitError
from pdnkit.rules.geometry import Geometry

__all__ = [
    "Color",
    "DrawRule",
    "Rules",
    "UnknownVariantError",
    "get_rules",
    "list_variants",
    "CAPTURE_KEYS",
    "SOURCE_TAGS",
]


class Color(IntEnum):
    """Side colour. ``str(Color.WHITE) == "W"``.

    >>> Color.WHITE.opponent, str(Color.BLACK)
    (<Color.BLACK: 1>, 'B')
    """

    WHITE = 0
    BLACK = 1

    @property
    def opponent(self) -> Color:
        """The other colour."""
        return Color.BLACK if self is Color.WHITE else Color.WHITE

    def __str__(self) -> str:
        return "W" if self is Color.WHITE else "B"


class UnknownVariantError(PdnkitError, ValueError):
    """Raised by :func:`get_rules` for a name, alias or GameType it does not know."""


@dataclass(frozen=True)
class DrawRule:
    """One draw rule (repetition or ply counter) of a variant; see docs/architecture.md 6.

    >>> DrawRule("fmjd-6.2", "FMJD 6.2", True, "counter", 50, "any",
    ...          frozenset({"capture", "man_move"})).limit
    50
    """

    name: str  # stable id, e.g. "fmjd-6.2"
    article: str  # human citation, e.g. "FMJD 6.2"
    automatic: bool  # True: drawn when reached; False: a claim
    kind: str  # "repetition" or "counter"
    limit: int  # occurrences (repetition) or plies (counter)
    material: str = "any"  # material condition that must hold after the move
    resets: frozenset[str] = frozenset()  # capture, man_move, promotion, material_change
    #: how well the rule is sourced, the reliability tags of RULES.md section 0: "P" read in a
    #: primary text (or defined by the implementation that defines the variant), "S" a
    #: secondary summary, "I" only a named implementation's behaviour, "U" unconfirmed. A rule
    #: that is not "P" never makes an error of its own (``draw-rule-ignored`` is then a warning)
    source: str = "P"

    def __post_init__(self) -> None:
        if self.source not in SOURCE_TAGS:
            raise ArgumentError(f"draw rule {self.name!r}: source {self.source!r} is not one of "
                             f"{', '.join(SOURCE_TAGS)}")


#: the reliability tags of RULES.md section 0, as :attr:`DrawRule.source` uses them
SOURCE_TAGS: dict[str, str] = {
    "P": "read in a primary text",
    "S": "known from a secondary summary only",
    "I": "known only from a named implementation's behaviour",
    "U": "not confirmed in any source consulted",
}


#: Capture-precedence keys understood by the move generator, applied in the order listed by
#: ``Rules.capture_precedence`` (RULES.md 4.4 "filter").
CAPTURE_KEYS: dict[str, str] = {
    "max_count": "take the greatest number of pieces (a king counts as one)",
    "max_value": "take the greatest value, 100 per man and 199 per king (Frisian art. 11)",
    "king_capturer": "capture with a king when a king can make a capture kept so far",
    "max_kings": "take the greatest number of kings",
    "first_king_earliest": ("take the sequence that meets the kings first: the positions of all "
                            "captured kings compared in order, earlier wins"),
}


@dataclass(frozen=True)
class Rules:
    """The complete rule set of one variant edition. Obtain records with :func:`get_rules`.

    >>> r = get_rules("italian")
    >>> r.men_capture_kings, r.capture_precedence
    (False, ('max_count', 'king_capturer', 'max_kings', 'first_king_earliest'))
    """

    name: str
    title: str
    gametype: int
    gametype_full: str
    aliases: tuple[str, ...] = ()
    edition: str = "default"
    editions: tuple[str, ...] = ()  # every edition of this variant (default first)
    # --- board (PDN 3.0 section 11; RULES.md 1.8) ---
    width: int = 10
    height: int = 10
    a1_dark: bool = True  # False: the bottom-right corner is dark (Italian 2.3, Portuguese 6)
    numbering: str = "top-left"  # "top-left", "bottom-right" (Spanish/Portuguese art. 3) or
    # "bottom-left" (Turkish, 1 = a1: RULES.md 1.8)
    all_squares: bool = False  # True: every square plays, not only the dark ones (Turkish 2.13)
    initial_rows: int = 4  # rows of men per side at the start (FMJD 2.8)
    initial_offset: int = 0  # empty rows behind each side's men at the start (Turkish: 1)
    first_mover: Color = Color.WHITE  # FMJD 3.3
    notation: str = "numeric"  # "numeric" or "alphanumeric" (GameType notation letter)
    capture_separator: str = "x"  # PDN 3.0 GameType table
    result_type: str = "default"  # "default" or "international" (2-0 / 1-1 / 0-2)
    losing_game: bool = False  # True: a side with no legal move on its turn wins
    # --- move generation (RULES.md 2.0 and 4.4) ---
    men_capture_backward: bool = True  # FMJD 4.1
    men_capture_kings: bool = True  # Italian 5.3b forbids it
    orthogonal_captures: bool = False  # Frisian art. 7 and 9: capture in 8 directions
    orthogonal_moves: bool = False  # Turkish (RULES.md 2.13): every move and capture runs
    # along ranks and files, none diagonally
    men_move_sideways: bool = False  # Turkish: men step and capture sideways, not only forward
    no_reversal: bool = False  # Turkish: no 180-degree turn between two jumps of one capture
    flying_kings: bool = True  # FMJD 3.9 / 4.3
    king_lands_behind: bool = False  # Thai: a king lands on the square right behind its victim
    removal: str = "end"  # "end" (FMJD 4.11) or "immediate" (Thai, Turkish)
    promotion_during_capture: str = "pass"  # "pass" (FMJD 4.15), "king" (Russian), "stop"
    capture_precedence: tuple[str, ...] = ("max_count",)  # FMJD 4.13
    king_move_limit: int | None = None  # Frisian art. 17: max consecutive quiet moves, same king
    # --- game end ---
    wins_on_promotion: bool = False  # Breakthrough (RULES.md 2.5): the first king wins at once
    draw_rules: tuple[DrawRule, ...] = ()  # RULES.md 4.2
    # --- irregularities (RULES.md 2.0 "Irregularities") ---
    # what the rulebook does with an illegal move that was played (a capture omitted, too few
    # pieces taken, a capture stopped early): "stands-when-opponent-plays-on" (the opponent
    # may have it corrected, and accepts it by making his next move: FMJD 5.4, 5.7) or
    # "recalled" (the move is taken back and replayed, a second offence forfeits: EDA rule 19)
    irregularity: str = "stands-when-opponent-plays-on"
    irregularity_article: str = "FMJD 5.4, 5.7"
    notes: str = ""
    sources: tuple[str, ...] = field(default=(), compare=False)

    def __reduce__(self) -> Any:
        # a registered record pickles as its name and edition, and unpickles as the same
        # registered object (cheap to send between processes; caches keyed on it still
        # hit); a record built by hand pickles field by field
        try:
            registered = _BY_NAME.get((self.name, self.edition))
        except NameError:  # pragma: no cover - while the module is being built
            registered = None
        if registered is self:
            return _registered_rules, (self.name, self.edition)
        import copyreg

        return copyreg.__newobj__, (type(self),), dict(self.__dict__)  # type: ignore[attr-defined]

    @property
    def geometry(self) -> Geometry:
        """The board layout (numbering, coordinates, internal bits) of this variant."""
        if self.all_squares:
            return Geometry.get(self.width, self.height, self.a1_dark, self.numbering, True)
        return Geometry.get(self.width, self.height, self.a1_dark, self.numbering)

    @property
    def board(self) -> str:
        """Board size as ``"10x10"``."""
        return f"{self.width}x{self.height}"

    def describe(self) -> dict[str, Any]:
        """Settings as a flat dict (one row of the ``pdnkit variants`` table).

        >>> d = get_rules("frisian").describe()
        >>> d["captures"], d["king_move_limit"]
        ('max value (100/man, 199/king), king priority at equal value; 8 directions', 3)
        """
        prec = {
            (): "free choice",
            ("max_count",): "maximum number",
            ("max_value", "king_capturer"): "max value (100/man, 199/king), king priority at "
            "equal value",
            ("king_capturer",): "king priority, otherwise free",
            ("max_count", "max_kings"): "maximum number, then most kings",
            (
                "max_count",
                "king_capturer",
                "max_kings",
                "first_king_earliest",
            ): "max number, king captures, most kings, first king earliest",
        }.get(self.capture_precedence, ", ".join(self.capture_precedence))
        if self.orthogonal_captures:
            prec += "; 8 directions"
        if self.no_reversal:
            prec += "; no 180-degree turn"
        kings = "flying" if self.flying_kings else "short"
        if self.orthogonal_moves:
            kings += " orthogonal"
        if self.king_lands_behind:
            kings += " (lands right behind the captured piece)"
        return {
            "name": self.name,
            "title": self.title,
            "gametype": self.gametype,
            "gametype_full": self.gametype_full,
            "edition": self.edition,
            "board": self.board,
            "squares": self.geometry.num_squares,
            "first_mover": str(self.first_mover),
            "notation": self.notation,
            "men_per_side": self.initial_rows * self.geometry.per_row,
            "men_capture_backward": self.men_capture_backward,
            "men_capture_kings": self.men_capture_kings,
            "kings": kings,
            "captures": prec,
            "removal": self.removal,
            "promotion_during_capture": self.promotion_during_capture,
            "king_move_limit": self.king_move_limit,
            "losing_game": self.losing_game,
            "wins_on_promotion": self.wins_on_promotion,
            "irregularity": self.irregularity,
            "irregularity_article": self.irregularity_article,
            "draw_rules": ", ".join(
                f"{d.name} ({d.limit}{'x' if d.kind == 'repetition' else ' plies'}"
                f"{'' if d.automatic else ', claim'})"
                for d in self.draw_rules
            ),
            "aliases": ", ".join(self.aliases),
        }


def _rep(name: str, article: str, limit: int = 3, automatic: bool = True,
         promotion: bool = False, source: str = "P") -> DrawRule:
    resets = {"capture", "man_move"} | ({"promotion"} if promotion else set())
    return DrawRule(name, article, automatic, "repetition", limit, "any", frozenset(resets),
                    source)


def _ctr(name: str, article: str, limit: int, material: str = "any", automatic: bool = True,
         resets: tuple[str, ...] = ("capture", "man_move", "promotion"),
         source: str = "P") -> DrawRule:
    return DrawRule(name, article, automatic, "counter", limit, material, frozenset(resets),
                    source)


# FMJD article 6 (RULES.md 2.1, 4.2): 6.1 repetition, 6.2 25 king moves each, 6.3 16 moves each
# with three pieces (>= 1 king) v a lone king, 6.4 five moves each with 1-2 pieces v a lone king.
_FMJD_DRAWS = (
    _rep("fmjd-6.1", "FMJD 6.1"),
    _ctr("fmjd-6.2", "FMJD 6.2", 50),
    _ctr("fmjd-6.3", "FMJD 6.3", 32, "lone-king-vs-3-with-king", resets=("material_change",)),
    _ctr("fmjd-6.4", "FMJD 6.4", 10, "lone-king-vs-2-with-king", resets=("material_change",)),
)

# FMJD-64 / IDF section 7.2 as quoted by lidraughts (RULES.md 2.6, 4.2), counts per player
# (lidraughts), i.e. plies = 2 x moves.
# Source "P": RULES.md 2.6 tags the text [I, quoting a primary text]: the articles are the
# federation's own words, quoted verbatim.
_RUSSIAN_DRAWS = (
    _rep("russian-7.2.3", "Russian 7.2.3"),
    _ctr("russian-7.2.4", "Russian 7.2.4", 30, "lone-king-vs-3plus-kings",
         resets=("capture", "promotion", "material_change")),
    _ctr("russian-7.2.5", "Russian 7.2.5", 30, "both-have-kings"),
    _ctr("russian-7.2.6-4-5", "Russian 7.2.6", 60, "both-kings-4-5-pieces",
         resets=("capture", "promotion", "material_change")),
    _ctr("russian-7.2.6-6-7", "Russian 7.2.6", 120, "both-kings-6-7-pieces",
         resets=("capture", "promotion", "material_change")),
    _ctr("russian-7.2.7", "Russian 7.2.7", 10, "lone-king-on-main-road-vs-3",
         resets=("material_change",)),
    _ctr("russian-7.2.8", "Russian 7.2.8", 10, "lone-king-vs-2-with-king",
         resets=("material_change",)),
)

_FMJD_MOVES: dict[str, Any] = dict(
    men_capture_backward=True,  # FMJD 4.1
    men_capture_kings=True,  # FMJD 4.1
    flying_kings=True,  # FMJD 3.9, 4.3
    removal="end",  # FMJD 4.11
    promotion_during_capture="pass",  # FMJD 4.15
    capture_precedence=("max_count",),  # FMJD 4.13-4.14
)

_RUSSIAN_MOVES: dict[str, Any] = dict(
    men_capture_backward=True,  # Russian rules: men capture backwards (RULES.md 2.6)
    men_capture_kings=True,
    flying_kings=True,  # flying kings; must land on a square that continues (RULES.md 2.6)
    removal="end",  # "Turkish strike": jumped pieces stay until the move ends
    promotion_during_capture="king",  # a man crowned mid-capture goes on as a king
    capture_precedence=(),  # free choice among captures
)

_8x8: dict[str, Any] = dict(width=8, height=8, initial_rows=3)

_RECORDS: list[Rules] = [
    Rules(
        name="international",
        title="International draughts (FMJD)",
        gametype=20,
        gametype_full="20,W,10,10,N2,0",
        aliases=("draughts", "10x10", "fmjd", "polish", "dammen", "international-draughts",
                 "polish-draughts"),
        edition="fmjd-2015",
        result_type="international",
        draw_rules=_FMJD_DRAWS,
        sources=("FMJD rules 2015, RULES.md 2.1",),
        **_FMJD_MOVES,
    ),
    Rules(
        name="frisian",
        title="Frisian draughts",
        gametype=40,
        gametype_full="40,W,10,10,N2,0",
        aliases=("fries", "friese", "frisian-draughts"),
        edition="2011",
        men_capture_backward=True,  # art. 7: men capture in 8 directions
        men_capture_kings=True,
        orthogonal_captures=True,  # art. 7 (men) and art. 9 (kings): also orthogonal captures
        flying_kings=True,  # art. 9 (quiet moves diagonal only)
        removal="end",  # art. 14
        promotion_during_capture="pass",  # art. 8: crowned only when the move ends there
        capture_precedence=("max_value", "king_capturer"),  # art. 11-12 (lidraughts values)
        king_move_limit=3,  # art. 17
        draw_rules=(
            _ctr("frisian-18", "Frisian art. 18", 14, "kings-only-2-vs-1",
                 resets=("material_change",)),
            _ctr("frisian-21.1", "Frisian art. 21.1", 4, "kings-only-1-vs-1",
                 resets=("material_change",)),
        ),
        notes="No repetition rule (2011 rules). Art. 18 as 14 plies and art. 21.1 as 4 plies "
        "follow lidraughts (RULES.md 6.9).",
        irregularity_article="Frisian art. 27",
        sources=("Official Rules for Frisian Draughts 2011, RULES.md 2.4",),
    ),
    Rules(
        name="frysk",
        title="Frysk! (Frisian rules, 5 men each)",
        gametype=97,
        gametype_full="97,W,10,10,N2,0",
        aliases=("frysk!",),
        edition="lidraughts",
        initial_rows=1,  # lidraughts Frysk!: W46-50, B1-5
        men_capture_backward=True,
        orthogonal_captures=True,
        flying_kings=True,
        removal="end",
        promotion_during_capture="pass",
        capture_precedence=("max_value", "king_capturer"),
        king_move_limit=3,
        draw_rules=(
            _ctr("frisian-18", "Frisian art. 18", 14, "kings-only-2-vs-1",
                 resets=("material_change",)),
            _ctr("frisian-21.1", "Frisian art. 21.1", 4, "kings-only-1-vs-1",
                 resets=("material_change",)),
        ),
        notes="lidraughts GameType 97 (pydraughts writes 40).",
        irregularity_article="Frisian art. 27 (Frisian rules)",
        sources=("lidraughts [I], RULES.md 2.4",),
    ),
    Rules(
        name="antidraughts",
        title="Antidraughts (international giveaway)",
        gametype=98,  # lidraughts' private number
        gametype_full="98,W,10,10,N2,0",
        aliases=("anti-draughts", "giveaway-international", "losing-draughts", "antidama"),
        edition="lidraughts",
        result_type="international",
        losing_game=True,  # no legal move on one's turn = win
        # source "P": lidraughts defines the variant, so its rule is the primary one (RULES.md 2.5)
        draw_rules=(_rep("antidraughts-repetition", "lidraughts antidraughts", promotion=True),),
        irregularity_article="FMJD 5.4, 5.7 (FMJD rules assumed) [U]",
        sources=("lidraughts Antidraughts.scala [I], RULES.md 2.5",),
        **_FMJD_MOVES,
    ),
    Rules(
        name="breakthrough",
        title="Breakthrough (international rules, the first king wins)",
        gametype=96,  # lidraughts' private number (RULES.md 1.3)
        gametype_full="96,W,10,10,N2,0",
        aliases=("breakthrough-draughts", "international-breakthrough"),
        edition="lidraughts",
        result_type="international",
        wins_on_promotion=True,  # RULES.md 2.5: the first player to get a king wins
        draw_rules=(),  # RULES.md 2.5: no draw rules
        irregularity_article="FMJD 5.4, 5.7 (FMJD rules assumed) [U]",
        sources=("lidraughts [I], RULES.md 2.5",),
        **_FMJD_MOVES,
    ),
    Rules(
        name="canadian",
        title="Canadian draughts",
        gametype=27,
        gametype_full="27,W,12,12,N2,0",
        aliases=("12x12", "canadian-draughts", "sri-lankan"),
        edition="default",
        width=12,
        height=12,
        initial_rows=5,
        result_type="international",
        draw_rules=(
            _rep("canadian-repetition", "Canadian threefold [S]", source="S"),
            _ctr("canadian-16", "Canadian 3 kings v king [S]", 32, "kings-only-3-vs-1", source="S",
                 resets=("capture", "promotion", "material_change")),
        ),
        notes="Draw rules from windames [S]; the FMJD 6.2-6.4 set is not documented (RULES.md 6.14).",
        irregularity_article="FMJD 5.4, 5.7 (FMJD rules assumed) [U]",
        sources=("Wikipedia, windames [S], RULES.md 2.3",),
        **_FMJD_MOVES,
    ),
    Rules(
        name="brazilian",
        title="Brazilian draughts",
        gametype=26,
        gametype_full="26,W,8,8,A0,0",
        aliases=("brazilian-draughts", "damas-brasileiras"),
        # Default edition "cbd": the Brazilian confederation is the game's governing body and
        # its rule summary is the only federation source (RULES.md 2.2, 6.7); the lidraughts
        # edition reuses the Russian set and matches games exported from lidraughts.
        edition="cbd",
        editions=("cbd", "lidraughts"),
        notation="alphanumeric",
        draw_rules=(
            _rep("cbd-repetition", "CBD repetition (claim) [S]", automatic=False, source="S"),
            # "20 successive king moves": counted as 20 moves each = 40 plies [U]
            _ctr("cbd-20", "CBD 20 king moves [S]", 40, resets=("capture", "man_move"),
                 source="S"),
        ),
        irregularity_article="FMJD 5.4, 5.7 (FMJD rules assumed) [U]",
        sources=("CBD rule summaries [S], lidraughts [I], RULES.md 2.2",),
        **{**_8x8, **_FMJD_MOVES},
    ),
    Rules(
        name="russian",
        title="Russian draughts (shashki)",
        gametype=25,
        gametype_full="25,W,8,8,A0,0",
        aliases=("shashki", "russian-draughts", "shashky"),
        edition="fmjd-64",
        notation="alphanumeric",
        capture_separator=":",
        draw_rules=_RUSSIAN_DRAWS,
        irregularity_article="FMJD 5.4, 5.7 (FMJD-64 assumed like FMJD) [U]",
        sources=("FMJD-64 7.2 via lidraughts, RULES.md 2.6",),
        **{**_8x8, **_RUSSIAN_MOVES},
    ),
    Rules(
        name="giveaway",
        title="Russian giveaway (poddavki)",
        gametype=25,  # no GameType of its own: a Russian board with the objective reversed
        gametype_full="25,W,8,8,A0,0",
        aliases=("poddavki", "russian-giveaway", "reverse-russian"),
        edition="default",
        notation="alphanumeric",
        capture_separator=":",
        losing_game=True,  # shashki.ru: a player wins when he has no move (RULES.md 2.7)
        draw_rules=(_rep("giveaway-repetition", "threefold [U]", source="U"),),
        irregularity_article="FMJD 5.4, 5.7 (as Russian) [U]",
        sources=("shashki.ru [S], RULES.md 2.7",),
        **{**_8x8, **_RUSSIAN_MOVES},
    ),
    Rules(
        name="english",
        title="English draughts / checkers",
        gametype=21,
        gametype_full="21,B,8,8,N1,0",
        aliases=("checkers", "american-checkers", "english-draughts", "straight-checkers",
                 "8x8"),
        edition="eda-1991",
        editions=("eda-1991", "wcdf"),
        first_mover=Color.BLACK,  # WCDF basic rules 3.3: dark pieces (1-12) move first
        men_capture_backward=False,  # men jump forward only (RULES.md 2.8)
        men_capture_kings=True,
        flying_kings=False,  # kings move and jump one square
        removal="end",  # [U] removal timing not stated; end-of-move by default (RULES.md 6.12)
        promotion_during_capture="stop",  # a crowned man ends its move
        capture_precedence=(),  # free choice
        draw_rules=(
            _rep("eda-repetition", "EDA 1991 repetition (4th occurrence, claim)", limit=4, source="S",
                 automatic=False),
            _ctr("eda-50", "EDA 1991 50-move rule (claim)", 100, automatic=False, source="S",
                 resets=("capture", "man_move")),
        ),
        irregularity="recalled",
        irregularity_article="EDA rule 19.1-19.3 (WCDF assumed the same) [S]",
        sources=("WCDF rules [S], EDA handbook 1991 [S], RULES.md 2.8",),
        **_8x8,
    ),
    Rules(
        name="pool",
        title="American pool checkers",
        gametype=23,
        gametype_full="23,B,8,8,N1,0",
        aliases=("american-pool", "pool-checkers", "american-pool-checkers", "spanish-pool"),
        edition="apca",
        first_mover=Color.BLACK,  # APCA tournament rule 7
        men_capture_backward=True,
        flying_kings=True,
        removal="end",
        # a man that reaches the far row by a jump and can jump on goes on as a man and is not
        # crowned (APCA): identical to the FMJD "pass" rule
        promotion_during_capture="pass",
        capture_precedence=(),  # free choice (APCA)
        draw_rules=(
            _ctr("pool-3k-v-k", "APCA 3 kings v king, 13 moves [S]", 26, "kings-only-3-vs-1", source="S",
                 resets=("material_change",)),
        ),
        irregularity_article="as most rulebooks, FMJD 5.7 [U]",
        sources=("APCA rules [S], RULES.md 2.9",),
        **_8x8,
    ),
    Rules(
        name="italian",
        title="Italian draughts (dama italiana)",
        gametype=22,
        gametype_full="22,W,8,8,N2,1",
        aliases=("dama", "dama-italiana", "italian-draughts"),
        edition="fid",
        editions=("fid", "fid-40"),
        a1_dark=False,  # FID art. 2.3: dark corner at each player's bottom right
        men_capture_backward=False,  # FID 5.3a
        men_capture_kings=False,  # FID 5.3b
        flying_kings=False,  # FID 5.3c: kings move and capture one square
        removal="end",  # FID 5.7
        promotion_during_capture="stop",  # FID brief rules
        capture_precedence=("max_count", "king_capturer", "max_kings", "first_king_earliest"),
        draw_rules=(_rep("fid-repetition", "FID repetition [S]", source="S"),),
        irregularity_article="FID: the opponent may require the capture or accept the move [S]",
        sources=("FID regolamento Capo I [P, excerpts], RULES.md 2.10",),
        **_8x8,
    ),
    Rules(
        name="spanish",
        title="Spanish draughts",
        gametype=24,
        gametype_full="24,W,8,8,N1,1",
        aliases=("spanish-draughts", "damas"),
        edition="default",
        a1_dark=False,  # bottom-right corner dark
        numbering="bottom-right",  # 1 = h1, White on 1-12
        men_capture_backward=False,  # [S]
        flying_kings=True,  # [S]
        removal="end",  # [U]
        promotion_during_capture="stop",
        capture_precedence=("max_count", "max_kings"),  # quantity, then quality
        draw_rules=(_rep("spanish-repetition", "threefold, claim [U]", automatic=False, source="U"),),
        irregularity_article="as most rulebooks, FMJD 5.7 [U]",
        sources=("Spanish rule pages [S], BrainKing [S], RULES.md 2.11",),
        **_8x8,
    ),
    Rules(
        name="portuguese",
        title="Portuguese draughts",
        gametype=28,
        gametype_full="28,W,8,8,N1,1",
        aliases=("portuguese-draughts", "damas-classicas"),
        edition="fpd",
        a1_dark=False,  # FPD art. 6
        numbering="bottom-right",  # FPD art. 3
        men_capture_backward=False,  # assumed as Spanish [U]
        flying_kings=True,  # assumed as Spanish [U]
        removal="end",
        promotion_during_capture="stop",
        capture_precedence=("max_count", "max_kings"),  # FPD 3.1 quantity, quality
        draw_rules=(_rep("fpd-repetition", "FPD threefold, claim [S]", automatic=False, source="S"),),
        irregularity_article="as most rulebooks, FMJD 5.7 [U]",
        sources=("FPD Regras do Jogo de Damas Classicas [S], RULES.md 2.11",),
        **_8x8,
    ),
    Rules(
        name="czech",
        title="Czech draughts",
        gametype=29,
        gametype_full="29,W,8,8,A0,0",
        aliases=("czech-draughts", "dama-czech"),
        edition="default",
        notation="alphanumeric",
        men_capture_backward=False,  # FMJD brief rules of Czech draughts [S]
        flying_kings=True,
        removal="end",
        promotion_during_capture="stop",
        capture_precedence=("king_capturer",),  # king priority, otherwise free
        draw_rules=(
            _rep("czech-repetition", "Czech threefold (claim) [S]", automatic=False, source="S"),
            _ctr("czech-15", "Czech 15 moves (30 plies assumed) [S]", 30, source="S",
                 resets=("capture", "man_move")),
        ),
        irregularity_article="Czech rules: an omitted jump is accepted by the opponent's next move [S]",
        sources=("FMJD brief rules of Czech draughts [S], RULES.md 2.12",),
        **_8x8,
    ),
    Rules(
        name="turkish",
        title="Turkish draughts (dama)",
        gametype=30,
        gametype_full="30,W,8,8,A0,0",
        aliases=("dama-turkish", "turkish-draughts", "turk-damasi", "dama-turca"),
        editions=("default", "kish"),
        width=8,
        height=8,
        numbering="bottom-left",  # pydraughts numbers the 64 squares from a1 = 1 (RULES.md 1.8)
        all_squares=True,  # RULES.md 2.13: all 64 squares are used
        initial_rows=2,  # 16 men each: White on ranks 2-3, Black on ranks 6-7
        initial_offset=1,  # ranks 1 and 8 start empty
        notation="alphanumeric",  # GameType 30,W,8,8,A0,0
        orthogonal_moves=True,  # men forward and sideways, kings along ranks and files
        men_move_sideways=True,  # men step and capture forward or sideways
        men_capture_backward=False,  # never backward
        men_capture_kings=True,
        flying_kings=True,  # kings move and capture at any distance, like a rook
        removal="immediate",  # each jumped piece is removed at once
        no_reversal=True,  # no 180-degree turn between two consecutive jumps
        # disputed (RULES.md 6.10): the Wikipedia reading, RULES.md's recommended default, goes
        # on capturing as a king; the "kish" edition goes on as a man and crowns at the end
        promotion_during_capture="king",
        capture_precedence=("max_count",),  # the most pieces, men and kings alike
        draw_rules=(_rep("turkish-repetition", "threefold repetition (claim) [S]", source="S",
                         automatic=False),),
        notes="Draw and endgame rules are disputed (RULES.md 6.10): only threefold repetition, "
        "as a claim, is applied.",
        irregularity_article="as most rulebooks, FMJD 5.7 [U]",
        sources=("Wikipedia-derived summaries [S], kish [I], RULES.md 2.13",),
    ),
    Rules(
        name="thai",
        title="Thai draughts (mak-hot)",
        gametype=31,
        gametype_full="31,B,8,8,N2,0",
        aliases=("mak-hot", "makhos"),
        edition="default",
        width=8,
        height=8,
        initial_rows=2,  # 8 men each on the two nearest rows
        first_mover=Color.BLACK,  # PDN 3.0 GameType table (sources disagree, RULES.md 6.11)
        capture_separator="-",
        men_capture_backward=False,
        flying_kings=True,
        king_lands_behind=True,  # the king lands right behind the captured piece
        removal="immediate",  # [S] (fandom, eightygames)
        promotion_during_capture="stop",  # mindsports
        capture_precedence=(),
        draw_rules=(),
        notes="Numbered like English checkers (1 = b8) [U].",
        irregularity_article="as most rulebooks, FMJD 5.7 [U]",
        sources=("mindsports, fandom, eightygames [S], RULES.md 2.14",),
    ),
]

_EDITIONS: list[Rules] = [
    replace(
        next(r for r in _RECORDS if r.name == "english"),
        edition="wcdf",
        draw_rules=(
            _rep("wcdf-1.32.1", "WCDF 1.32.1 (claim)", automatic=False, source="S"),
            _ctr("wcdf-1.32.2", "WCDF 1.32.2 (claim)", 80, automatic=False, source="S",
                 resets=("capture", "man_move")),
        ),
    ),
    replace(
        next(r for r in _RECORDS if r.name == "brazilian"),
        edition="lidraughts",
        draw_rules=_RUSSIAN_DRAWS,
    ),
    replace(
        next(r for r in _RECORDS if r.name == "turkish"),
        edition="kish",
        # kish (RULES.md 6.10): a man reaching the far row mid-capture goes on as a man and is
        # crowned at the end of the move; the published Turkish perft and rule tests use it
        promotion_during_capture="pass",
    ),
    replace(
        next(r for r in _RECORDS if r.name == "italian"),
        edition="fid-40",
        draw_rules=(
            _rep("fid-repetition", "FID repetition [S]", source="S"),
            _ctr("fid-40", "40-move rule (implementations) [I/U]", 80, automatic=False, source="U",
                 resets=("capture", "man_move")),
        ),
    ),
]

_BY_NAME: dict[tuple[str, str], Rules] = {}
_DEFAULT: dict[str, Rules] = {}
_ALIAS: dict[str, str] = {}
_BY_GAMETYPE: dict[int, str] = {}


def _norm(text: str) -> str:
    return "-".join(text.strip().lower().replace("_", " ").replace("-", " ").split())


for _r in _RECORDS:
    _DEFAULT[_r.name] = _r
    _ALIAS[_r.name] = _r.name
    for _a in _r.aliases:
        _ALIAS[_norm(_a)] = _r.name
    _BY_GAMETYPE.setdefault(_r.gametype, _r.name)  # giveaway shares 25 with russian: first wins
for _r in (*_RECORDS, *_EDITIONS):
    _BY_NAME[(_r.name, _r.edition)] = _r


def get_rules(name: str | int, edition: str | None = None) -> Rules:
    """The :class:`Rules` of a variant by name, alias, GameType number or full GameType string.

    A full GameType (``"20,W,10,10,N2,0"``) resolves by its number even when the other fields
    differ from the standard form. ``edition`` picks a rule edition (e.g. ``"wcdf"`` for English).

    >>> get_rules(21).first_mover, get_rules("checkers").name
    (<Color.BLACK: 1>, 'english')
    >>> get_rules("draughts").gametype
    20
    >>> get_rules("brazilian", edition="lidraughts").draw_rules[0].name
    'russian-7.2.3'
    """
    if isinstance(name, Rules):
        r = name
        key = r.name
    elif isinstance(name, bool) or not isinstance(name, (int, str)):
        raise UnknownVariantError(f"not a variant name or GameType: {name!r}")
    elif isinstance(name, int):
        if name not in _BY_GAMETYPE:
            raise UnknownVariantError(f"unknown GameType {name}")
        key = _BY_GAMETYPE[name]
    else:
        text = name.strip()
        head = text.split(",", 1)[0].strip()
        if head.isdigit():
            gt = int(head)
            if gt not in _BY_GAMETYPE:
                raise UnknownVariantError(f"unknown GameType {text!r}")
            key = _BY_GAMETYPE[gt]
        else:
            n = _norm(text)
            if n not in _ALIAS:
                known = ", ".join(sorted(_DEFAULT))
                raise UnknownVariantError(f"unknown variant {name!r} (known: {known})")
            key = _ALIAS[n]
    if edition is None:
        return _DEFAULT[key]
    ed = edition.strip().lower()
    if (key, ed) not in _BY_NAME:
        eds = sorted(e for (k, e) in _BY_NAME if k == key)
        raise UnknownVariantError(f"variant {key!r} has no edition {edition!r} (editions: {eds})")
    return _BY_NAME[(key, ed)]


def _registered_rules(name: str, edition: str) -> Rules:
    """The registered record of ``name`` and ``edition`` (what a pickled one comes back as)."""
    return _BY_NAME[(name, edition)]


def list_variants(editions: bool = True) -> list[Rules]:
    """Every registered variant: default editions first, then the other editions.

    >>> [r.name for r in list_variants(editions=False)][:3]
    ['international', 'frisian', 'frysk']
    """
    out = list(_RECORDS)
    if editions:
        out += _EDITIONS
    return out
