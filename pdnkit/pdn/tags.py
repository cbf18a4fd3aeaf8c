"""Tag names -> game fields: the one mapping from the tag names real files use.

Real PDN files name their tags in English (``White``, ``Black``, ``Result`` ...), in Italian
(``Bianco``, ``Nero``, ``Risultato``, ``Dati``, ``Anno``, ``Apertura``), in Dutch (``Wit``,
``Zwart``, ``Uitslag``, ``Datum``, ``Plaats``, ``Toernooi``), in French (``Blanc``, ``Noir``,
``Résultat``, ``Événement``, ``Lieu``, ``Ronde``/``Manche``, ``Type de jeu`` for the
GameType), German (``Weiss``/``Weiß``, ``Schwarz``, ``Ergebnis``, ``Runde``, ``Ort``),
Portuguese and Brazilian (``Brancas``, ``Pretas``, ``Resultado``, ``Evento``, ``Rodada``,
``Local``), Polish (``Biale``/``Białe``, ``Czarne``, ``Wynik``), in Russian and Ukrainian
(transliterated or in Cyrillic) and, in PlayStrategy exports, as ``P1``/``P2`` (the first
and the second player). A name is compared with its HTML character references decoded
(``R&#x00e9;sultat`` is ``Résultat``) and case-insensitively.
:data:`TAG_NAMES` lists, for each game field, the names that fill it, the standard one
first; :func:`game_tags` applies it. The validator (players of a report), the importer
(``games`` columns), ``convert`` and ``export`` (standard tags written) all read tags through
this module, so they agree.

Rules applied here, once:

* a name is matched case-insensitively and with surrounding spaces ignored;
* the standard name wins over an alias, an alias over a later alias (order of
  :data:`TAG_NAMES`); an empty value counts as missing;
* a tag repeated in one game: the **first** occurrence wins (and :func:`check_tags` reports a
  ``duplicate-tag`` warning);
* ``Dati`` (Italian files: ``"69° ASSOLUTO 1° TURNO"``) is the event; a round written in it
  (``1° TURNO``) fills ``round`` when no round tag exists; ``Anno`` gives the year;
* ``P1``/``P2`` are the first and the second player: White and Black where White moves first,
  Black and White where Black does (English, pool, Thai).

Example:
    >>> from pdnkit.pdn.record import GameRecord
    >>> t = game_tags(GameRecord(tags=[("Bianco", "Rossi"), ("Nero", "Verdi"),
    ...     ("Dati", "69° ASSOLUTO 1° TURNO"), ("Anno", "1990"), ("Risultato", "1-0")]))
    >>> t.white, t.black, t.event, t.round, t.year, t.result
    ('Rossi', 'Verdi', '69° ASSOLUTO 1° TURNO', '1', 1990, '1-0')
"""

from __future__ import annotations

import bisect
import datetime as _dt
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pdnkit._lazy import lazy_pattern
from pdnkit.findings import Finding, make_finding
from pdnkit.pdn.dates import DateSpan, date_span, date_text, parse_date, year_span
from pdnkit.pdn.record import GameRecord

if TYPE_CHECKING:
    from pdnkit.rules.variants import Rules

#: For each game field, the tag names that fill it, best first (the first is the standard
#: name written by ``convert``/``export``). Compared case-insensitively.
TAG_NAMES: dict[str, tuple[str, ...]] = {
    "white": ("White", "Bianco", "Wit", "Blanc", "Weiss", "Weiß", "Brancas", "Branco",
              "Biale", "Białe", "Belye", "Belyje", "Belie", "Белые", "Білі"),
    "black": ("Black", "Nero", "Zwart", "Noir", "Schwarz", "Pretas", "Preto", "Czarne",
              "Chernye", "Chernyje", "Chernie", "Черные", "Чёрные", "Чорні"),
    "event": ("Event", "Evento", "Dati", "Toernooi", "Événement", "Evenement", "Évènement",
              "Tournoi", "Ereignis", "Turnier", "Turniej", "Turnir", "Турнир", "Турнір",
              "Sorevnovanie", "Соревнование", "Событие"),
    "site": ("Site", "Luogo", "Plaats", "Lieu", "Ort", "Local", "Miejsce", "Mesto", "Место",
             "Місце"),
    "date": ("Date", "Data", "Datum", "Дата"),
    "round": ("Round", "Turno", "Ronde", "Manche", "Runde", "Rodada", "Runda", "Tur", "Тур"),
    "result": ("Result", "Risultato", "Uitslag", "Resultaat", "Résultat", "Resultat",
               "Ergebnis", "Resultado", "Wynik", "Rezultat", "Результат"),
    "year": ("Year", "Anno", "Jaar", "Année", "Jahr", "Ano", "Rok", "God", "Год", "Рік"),
    "opening": ("Opening", "Apertura", "Ouverture", "Eröffnung", "Abertura", "Otwarcie",
                "Debut", "Debyut", "Дебют"),
    "gametype": ("GameType", "Type de jeu", "Spieltyp", "Tipo de jogo", "Typ gry"),
    "variant": ("Variant",),
    "fen": ("FEN",),
    "plycount": ("PlyCount",),
    "white_rating": ("WhiteElo", "WhiteRating"),
    "black_rating": ("BlackElo", "BlackRating"),
}

#: The standard PDN tags ``convert`` and ``export`` write, in this order, and the field each
#: one comes from (``GameType`` is added by the writer from the variant).
STANDARD_FIELDS: tuple[tuple[str, str], ...] = (
    ("Event", "event"), ("Site", "site"), ("Date", "date"), ("Round", "round"),
    ("White", "white"), ("Black", "black"), ("Result", "result"))

_FIELD_OF: dict[str, tuple[str, int]] = {
    name.lower(): (fld, rank) for fld, names in TAG_NAMES.items()
    for rank, name in enumerate(names)}
_ROUND_IN_EVENT = lazy_pattern(r"(\d+)\s*[°º]?\s*(?:turno|round|ronde|tur)\b", re.IGNORECASE)
_INT = lazy_pattern(r"^\s*(\d{1,5})")


@dataclass(frozen=True, slots=True)
class GameTags:
    """The game fields read from a game's tags (``None`` where no tag gives one).

    ``date_raw`` is the date tag as written; ``date`` the calendar date when it is one (the
    first day of a range); ``year`` from the date, else from a year tag (``Anno``);
    ``date_ok`` is False when a date tag was written but is not a date (a ``bad-date``);
    ``span`` what is known of the date (:class:`pdnkit.pdn.dates.DateSpan`: the date's, else
    the year's), ``date_text`` the date as every table shows it.
    """

    white: str | None = None
    black: str | None = None
    event: str | None = None
    site: str | None = None
    date_raw: str | None = None
    date: _dt.date | None = None
    year: int | None = None
    date_ok: bool = True
    round: str | None = None
    result: str | None = None
    opening: str | None = None
    gametype: str | None = None
    variant: str | None = None
    fen: str | None = None
    plycount: str | None = None
    white_rating: int | None = None
    black_rating: int | None = None
    span: DateSpan | None = None

    @property
    def date_text(self) -> str | None:
        """The date as every table shows it (:func:`pdnkit.pdn.dates.date_text`)."""
        return date_text(self.span, self.date_raw)


def _norm(name: str) -> str:
    return name.strip().lower()


def field_of(name: str) -> str:
    """The game field a tag name fills (through :data:`TAG_NAMES`), else the name itself,
    lower-cased: two tags with the same answer say the same thing.

    Example:
        >>> field_of("Blanc"), field_of("WHITE"), field_of("Type de jeu"), field_of("Setup")
        ('white', 'white', 'gametype', 'setup')
    """
    n = _norm(name)
    hit = _FIELD_OF.get(n)
    return hit[0] if hit is not None else n


def first_values(tags: Iterable[tuple[str, str]]) -> dict[str, str]:
    """``{lower-case name: value}`` keeping the first occurrence of each name (the rule for a
    repeated tag everywhere in pdnkit).

    Example:
        >>> first_values([("Event", "A"), ("event", "B"), ("White", "X")])
        {'event': 'A', 'white': 'X'}
    """
    out: dict[str, str] = {}
    for k, v in tags:
        out.setdefault(_norm(k), v)
    return out


def unique_tags(tags: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """The tags in file order without the later occurrences of a repeated name.

    Example:
        >>> unique_tags([("Event", "A"), ("White", "X"), ("EVENT", "B")])
        [('Event', 'A'), ('White', 'X')]
    """
    seen: set[str] = set()
    out: list[tuple[str, str]] = []
    for k, v in tags:
        n = _norm(k)
        if n not in seen:
            seen.add(n)
            out.append((k, v))
    return out


def first_mover_black(values: dict[str, str], variant: str | None = None) -> bool:
    """Whether Black moves first in the game's variant (``variant``, else its ``GameType``
    or ``Variant`` tag); False when unknown.

    Example:
        >>> first_mover_black({"variant": "American/English"}), first_mover_black({}, "russian")
        (True, False)
    """
    names: list[str] = []
    if variant:
        names.append(variant)
    gt = values.get("gametype")
    if gt:
        names.append(gt.split(",")[0].strip())
    vt = values.get("variant")
    if vt:
        names.extend(w for w in re.split(r"[\s/,;()-]+", vt.lower()) if w)
    rules = _rules_named(names)
    return rules is not None and str(rules.first_mover) == "B"


#: tag names only Italian files use (the names Italian draughts software writes; not
#: ``Evento``, which Portuguese and Brazilian files write too)
ITALIAN_NAMES = frozenset({"bianco", "nero", "risultato", "dati", "anno", "apertura",
                           "luogo", "turno"})


def _rules_named(names: Iterable[str]) -> Rules | None:
    from pdnkit.rules import get_rules

    for n in names:
        try:
            rules: Rules = get_rules(n)
            return rules
        except (KeyError, ValueError):
            continue
    return None


def gametype_hint(record: GameRecord) -> int | None:
    """The GameType number a game's own tags imply when it has no ``GameType`` tag: its
    ``Variant`` tag (``"American/English"`` -> 21), or Italian tag names (``Bianco``,
    ``Nero``, ``Risultato`` ...) -> 22. ``None`` when the game has a GameType tag (it is kept)
    or nothing says.

    Example:
        >>> gametype_hint(GameRecord(tags=[("Bianco", "Rossi")]))
        22
        >>> gametype_hint(GameRecord(tags=[("Variant", "American/English")]))
        21
        >>> gametype_hint(GameRecord(tags=[("GameType", "20"), ("Bianco", "x")])) is None
        True
    """
    values = first_values(record.tags)
    if "gametype" in values:
        return None
    vt = values.get("variant")
    if vt:
        rules = _rules_named(w for w in re.split(r"[\s/,;()-]+", vt.lower()) if w)
        if rules is not None:
            return int(rules.gametype)
    if ITALIAN_NAMES & set(values) and not any(
            field_of(n) in ("white", "black") and n not in ITALIAN_NAMES for n in values):
        return 22
    return None


def _rating(text: str | None) -> int | None:
    if not text:
        return None
    m = _INT.match(text)
    return int(m.group(1)) if m else None


#: ``(a copy of the last list of tags scanned, its scan)``: the reader, the validator's
#: judge, header checks and report each read one game's tags in turn, so they share one pass
#: (one slot, replaced whole: a thread reading it sees a key with its own scan)
_LAST_SCAN: list[tuple[list[tuple[str, str]], tuple[dict[str, str], dict[str, str]]]] = []


def _scan(tags: Iterable[tuple[str, str]]) -> tuple[dict[str, str], dict[str, str]]:
    """One pass over a game's tags: ``{lower name: first value}`` and ``{field: value}`` (the
    best-ranked name with a non-empty value for each field of :data:`TAG_NAMES`). The dicts
    are shared with the next scan of equal tags: read them, never change them."""
    if type(tags) is not list:
        return _scan_once(tags)
    last = _LAST_SCAN[0] if _LAST_SCAN else None
    if last is not None and tags == last[0]:  # equal pairs, by value: the same scan
        values, got = last[1]
    else:
        values, got = _scan_once(tags)
        entry = (list(tags), (values, got))
        if _LAST_SCAN:
            _LAST_SCAN[0] = entry
        else:
            _LAST_SCAN.append(entry)
    return values, got


#: a tag name as written -> (its lower-case name, its field and rank or None): a
#: collection writes few distinct names
_NAMES_READ: dict[str, tuple[str, tuple[str, int] | None]] = {}


def _read_name(name: str) -> tuple[str, tuple[str, int] | None]:
    n = name.strip().lower()
    known = (n, _FIELD_OF.get(n))
    if len(_NAMES_READ) >= 4096:  # a file of odd names does not grow it without bound
        _NAMES_READ.clear()
    _NAMES_READ[name] = known
    return known


def _scan_once(tags: Iterable[tuple[str, str]]) -> tuple[dict[str, str], dict[str, str]]:
    """:func:`_scan` itself."""
    values: dict[str, str] = {}
    best: dict[str, tuple[int, str]] = {}
    names = _NAMES_READ
    for k, v in tags:
        known = names.get(k)
        if known is None:
            known = _read_name(k)
        n, hit = known
        if n in values:  # a repeated tag: the first one wins
            continue
        values[n] = v
        if hit is not None:
            sv = v.strip()
            if sv:
                fld, rank = hit
                cur = best.get(fld)
                if cur is None or rank < cur[0]:
                    best[fld] = (rank, sv)
    return values, {f: v for f, (_, v) in best.items()}


def _with_players(values: dict[str, str], got: dict[str, str], variant: str | None
                  ) -> dict[str, str]:
    """``got`` with ``white``/``black`` (and ratings) from PlayStrategy's ``P1``/``P2`` when
    the game has no player under another name (a new dict then: ``got`` is a shared scan)."""
    if got.get("white") or got.get("black"):
        return got
    p1, p2 = (values.get("p1") or "").strip(), (values.get("p2") or "").strip()
    if not (p1 or p2):
        return got
    got = dict(got)
    r1, r2 = values.get("p1elo"), values.get("p2elo")
    first, second = ("black", "white") if first_mover_black(values, variant) else (
        "white", "black")
    for fld, val in ((first, p1), (second, p2), (f"{first}_rating", r1),
                     (f"{second}_rating", r2)):
        if val and not got.get(fld):
            got[fld] = val
    return got


def game_tags(record: GameRecord | Iterable[tuple[str, str]], variant: str | None = None
              ) -> GameTags:
    """The game fields of a record (or of a list of ``(name, value)`` tags) through
    :data:`TAG_NAMES`. ``variant`` (when known) says who the first player (``P1``) is.

    Example:
        >>> t = game_tags([("Wit", "Sijbrands"), ("Zwart", "Baljakin"), ("Datum", "17 april 2009"),
        ...                ("White", ""), ("Toernooi", "NK")])
        >>> t.white, t.black, t.event, t.date, t.year
        ('Sijbrands', 'Baljakin', 'NK', datetime.date(2009, 4, 17), 2009)
        >>> game_tags([("P1", "a"), ("P2", "b"), ("Variant", "American/English")]).black
        'a'
    """
    values, got = _scan(record.tags if isinstance(record, GameRecord) else record)
    got = _with_players(values, got, variant)
    event = got.get("event")
    round_ = got.get("round")
    if round_ is None and event:
        m = _ROUND_IN_EVENT.search(event)
        if m:
            round_ = m.group(1)
    date_raw = got.get("date")
    d, y, ok = parse_date(date_raw)
    year_text = got.get("year")
    if y is None and year_text:
        _, y, _ = parse_date(year_text)
    span = date_span(date_raw)
    if span is None and y is not None:  # a partial or bad date's year, or a year tag's
        span = year_span(y)
    return GameTags(
        white=got.get("white"), black=got.get("black"), event=event, site=got.get("site"),
        date_raw=date_raw, date=d, year=y, date_ok=ok, round=round_, result=got.get("result"),
        opening=got.get("opening"), gametype=got.get("gametype"), variant=got.get("variant"),
        fen=got.get("fen"), plycount=got.get("plycount"),
        white_rating=_rating(got.get("white_rating")),
        black_rating=_rating(got.get("black_rating")), span=span)


def result_tag(record: GameRecord) -> str | None:
    """The game's result tag under any name (``Result``, ``Risultato``, ``Uitslag`` ...), as
    written; ``None`` when there is none (or it is empty).

    Example:
        >>> result_tag(GameRecord(tags=[("Uitslag", "2-0")])), result_tag(GameRecord())
        ('2-0', None)
    """
    return _scan(record.tags)[1].get("result")


# ----------------------------------------------------------------------------------------------
# header checks
# ----------------------------------------------------------------------------------------------


class _TagLines:
    """File lines of a game's tag pairs, found in its raw text: each name is searched once
    and line numbers come from one list of line starts, so a header repeating one tag line
    N times costs time linear in N."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.raw = record.raw or ""
        self.hits: dict[str, list[int]] = {}
        self.starts: list[int] | None = None
        self.line0 = 0  # read with the line starts, when a finding first needs a line

    def line(self, name: str, nth: int = 0) -> int | None:
        """The file line of the ``nth`` occurrence of tag ``name`` (else the game's line)."""
        key = name.strip().lower()
        hits = self.hits.get(key)
        if hits is None:
            pat = re.compile(r"\[\s*" + re.escape(name.strip()) + r"\s", re.IGNORECASE)
            hits = self.hits[key] = [m.start() for m in pat.finditer(self.raw)]
        if len(hits) <= nth:
            return self.record.line
        if self.starts is None:
            self.starts = [m.end() for m in re.finditer("\n", self.raw)]
            # the raw text starts at the game's chunk (junk or a comment may come before
            # the first tag, ``record.line``): its first line, from the last one
            record = self.record
            end = record.end_line if record.end_line is not None else record.line
            self.line0 = end - self.raw.count("\n", 0, len(self.raw.rstrip("\n")))
        return self.line0 + bisect.bisect_right(self.starts, hits[nth])


def check_tags(record: GameRecord) -> list[Finding]:
    """The header findings of one game: ``duplicate-tag`` (a tag repeated, the first wins),
    ``bad-date`` (a date tag that is not a date) and ``plycount-mismatch`` (a ``PlyCount``
    tag that disagrees with the main line's moves).

    Example:
        >>> from pdnkit.pdn.reader import parse_game
        >>> g = parse_game('[Date "25.11.2000"][Date "x"][PlyCount "3"] 1. 32-28 19-23 2-0')
        >>> [f.code for f in check_tags(g)]
        ['duplicate-tag', 'plycount-mismatch']
        >>> [f.code for f in check_tags(parse_game('[Date "once upon a time"] 2-0'))]
        ['bad-date']
    """
    file, index = record.file, record.index
    out: list[Finding] = []
    lines = _TagLines(record)
    values, got = _scan(record.tags)
    if len(values) < len(record.tags):  # some tag is repeated
        seen: dict[str, tuple[str, str]] = {}
        counts: dict[str, int] = {}
        for k, v in record.tags:
            n = _norm(k)
            counts[n] = counts.get(n, 0) + 1
            if n not in seen:
                seen[n] = (k, v)
                continue
            first_name, first_value = seen[n]
            out.append(make_finding(
                "duplicate-tag",
                f"tag {k!r} given again ({v!r}); the first one ({first_value!r}) is used",
                line=lines.line(k, counts[n] - 1),
                details={"tag": first_name, "kept": first_value, "ignored": v}, file=file,
                game_index=index))
    raw_date = got.get("date")
    if raw_date is not None:
        _, year, ok = parse_date(raw_date)
        if not ok:
            date_name = next(k.strip() for k, v in record.tags
                             if _FIELD_OF.get(_norm(k), ("",))[0] == "date"
                             and v.strip() == raw_date)
            kept = f" (year {year} kept)" if year is not None else ""
            out.append(make_finding(
                "bad-date", f"{date_name} {raw_date!r} is not a date{kept}",
                line=lines.line(date_name),
                details={"tag": date_name, "value": raw_date, "year": year}, file=file,
                game_index=index))
    plycount = values.get("plycount")
    if plycount is not None and plycount.strip().isdigit() and record.parsed:
        n_moves = record.move_count
        if int(plycount) != n_moves:
            out.append(make_finding(
                "plycount-mismatch",
                f"PlyCount says {int(plycount)}, the main line has {n_moves} moves",
                line=lines.line("PlyCount"),
                details={"plycount": int(plycount), "moves": n_moves}, file=file,
                game_index=index))
    return out


def tag_values(record: GameRecord) -> Mapping[str, str]:
    """``{name in lower case, blanks stripped: its first value}`` of the record's tags
    (the one scan the reader, the validator and the report share: read it, never change
    it).

    Example:
        >>> dict(tag_values(GameRecord(tags=[("FEN", "W:W28:B19"), ("fen", "x")])))
        {'fen': 'W:W28:B19'}
    """
    return _scan(record.tags)[0]


def players(record: GameRecord, variant: str | None = None) -> tuple[str | None, str | None]:
    """``(white, black)`` of a record through :data:`TAG_NAMES` (and ``P1``/``P2``).

    Example:
        >>> players(GameRecord(tags=[("Bianco", "Rossi"), ("Nero", "Verdi")]))
        ('Rossi', 'Verdi')
    """
    values, got = _scan(record.tags)
    got = _with_players(values, got, variant)
    return got.get("white"), got.get("black")


# ----------------------------------------------------------------------------------------------
# standard tags on output
# ----------------------------------------------------------------------------------------------


def standard_tags(record: GameRecord, gametype: int | str | None = None,
                  variant: str | None = None) -> list[tuple[str, str]]:
    """The tags ``convert`` and ``export`` write: the standard tags (``Event``, ``Site``,
    ``Date``, ``Round``, ``White``, ``Black``, ``Result``) that the mapping gives a value,
    ``GameType`` in its short form (the number) when ``gametype`` is given and the game has
    none, then every original tag (the first of a repeated one) that is not already written.
    ``Date`` falls back to the year (``1990.??.??``); a game without a result tag keeps its
    terminator only (so a standard file reads back with the same tags).

    Example:
        >>> g = GameRecord(tags=[("Bianco", "Rossi"), ("Nero", "Verdi"), ("Anno", "1990"),
        ...                      ("Risultato", "1-0")])
        >>> standard_tags(g, gametype="22,W,8,8,N2,1")  # doctest: +NORMALIZE_WHITESPACE
        [('Date', '1990.??.??'), ('White', 'Rossi'), ('Black', 'Verdi'), ('Result', '1-0'),
         ('GameType', '22'), ('Bianco', 'Rossi'), ('Nero', 'Verdi'), ('Anno', '1990'),
         ('Risultato', '1-0')]
    """
    original = unique_tags(record.tags)
    values = first_values(original)
    t = game_tags(original, variant)
    fields = {"event": t.event, "site": t.site, "round": t.round, "white": t.white,
              "black": t.black, "result": t.result, "date": t.date_raw}
    if fields["date"] is None and t.year is not None:
        fields["date"] = f"{t.year:04d}.??.??"
    out: list[tuple[str, str]] = []
    written: set[str] = set()
    for name, fld in STANDARD_FIELDS:
        if name.lower() in values:
            out.append(next((k, v) for k, v in original if _norm(k) == name.lower()))
        elif fields[fld] is not None:
            out.append((name, str(fields[fld])))
        else:
            continue
        written.add(name.lower())
    if "gametype" not in values and gametype is not None:
        out.append(("GameType", str(gametype).split(",")[0].strip()))
        written.add("gametype")
    out.extend((k, v) for k, v in original if _norm(k) not in written)
    return out


__all__ = ["ITALIAN_NAMES", "STANDARD_FIELDS", "TAG_NAMES", "GameTags", "check_tags",
           "field_of", "first_mover_black", "first_values", "game_tags", "gametype_hint", "parse_date",
           "players", "result_tag", "standard_tags", "tag_values", "unique_tags"]
