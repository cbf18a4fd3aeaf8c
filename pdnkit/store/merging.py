"""``merge``: one record per game from files or a database, the copies of each game folded
into the record that stands for it, with what happened to every record in a merge log.

For each group of copies (:mod:`pdnkit.store.copies`) the canonical record is written, with
the tags it lacks taken from its copies (a ``Round`` only a copy has; a date only a copy
gives at the day, where the record's own is partial and agrees); a tag whose value a copy
gives otherwise stays as the record has it, and the log says so. Every other game is written
as it is. The output is the export's (:func:`pdnkit.store.ops.export`: canonical PDN, whole
or not at all) and never written over an input, nor is the log.

The log (CSV, or JSON by its extension) has a row for each record (``written``, or
``merged`` into the record written for its game, with why that one stands for it) and for
each tag added, refined or in conflict; probable copies (counted as two games until ruled
on, :mod:`pdnkit.store.copyrulings`) are both written, with a ``probable`` row each.

Example:
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> head = '[Event "Cup"][Date "2001.05.02"][White "Ann"][Black "Bob"]'
    >>> _ = (d / "a.pdn").write_text(head + '[Result "2-0"] 1. 32-28 19-23 2. 28x19 2-0\\n')
    >>> _ = (d / "b.pdn").write_text(head + '[Round "4"][Result "*"] '
    ...                              '1. 32-28 19-23 2. 28x19 *\\n')  # no result, a round
    >>> result = merge([d / "a.pdn", d / "b.pdn"], out=d / "m.pdn", log=d / "m.csv")
    >>> result.games, result.merged, result.tags_added
    (1, 1, 1)
    >>> '[Round "4"]' in (d / "m.pdn").read_text()
    True
"""

from __future__ import annotations

import csv
import io
import json
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pdnkit.errors import ArgumentError
from pdnkit.store.copyrules import REAL_RESULTS, date_spans
from pdnkit.store.session import DbLike, reading

if TYPE_CHECKING:
    import duckdb

__all__ = ["LOG_COLUMNS", "MergeResult", "merge"]

#: the columns of the merge log
LOG_COLUMNS = ["location", "action", "into", "kind", "tag", "value", "note"]
#: tag values that say nothing (a copy's value fills them)
_UNKNOWN = frozenset({"", "?", "??", "-", "*", "????.??.??", "????-??-??", "????"})


@dataclass
class MergeResult:
    """What :func:`merge` wrote: ``games`` (records written, one per game), ``merged``
    (copies folded into them), ``tags_added`` (tags taken from copies, refined dates
    included), ``conflicts`` (tag values of copies not used), ``probable`` (pairs of
    probable copies, both written), ``out`` and ``log``. ``str(result)`` is what the CLI
    prints."""

    out: str
    log: str | None = None
    games: int = 0
    merged: int = 0
    tags_added: int = 0
    conflicts: int = 0
    probable: int = 0
    rows: list[dict[str, str | None]] = field(default_factory=list, repr=False)

    def __str__(self) -> str:
        text = (f"{self.games} game(s) -> {self.out}: {self.merged} "
                f"{'copy' if self.merged == 1 else 'copies'} folded into their game's record, "
                f"{self.tags_added} tag(s) taken from copies, {self.conflicts} conflicting "
                "tag value(s) left out")
        if self.probable:
            text += (f"; {self.probable} pair(s) of probable copies written as two games "
                     "(pdnkit duplicates; pdnkit rule-copies A B --same)")
        return text + (f"\nlog: {self.log}" if self.log else "")


@dataclass
class _Record:
    game_id: int
    location: str
    kind: str | None
    plies: int
    result: str | None
    tags: list[tuple[str, str]]
    errors: int
    path: str
    index: int


def _records(con: duckdb.DuckDBPyConnection) -> dict[int, list[_Record]]:
    """The records of every group of copies, by the record that stands for it (first)."""
    rows = con.execute("""
        SELECT g.game_id, coalesce(g.duplicate_of, g.game_id), g.duplicate_kind,
               f.path || '#' || CAST(g.game_index + 1 AS VARCHAR), coalesce(g.plies, 0),
               g.result, map_entries(coalesce(g.tags, MAP {})),
               (SELECT count(*) FROM findings x WHERE x.game_id = g.game_id
                AND x.severity = 'error'), coalesce(f.path, ''), g.game_index
        FROM games g LEFT JOIN files f USING (file_id)
        WHERE g.duplicate_of IS NOT NULL
           OR g.game_id IN (SELECT duplicate_of FROM games WHERE duplicate_of IS NOT NULL)
        ORDER BY 2, g.duplicate_of IS NOT NULL, coalesce(g.plies, 0) DESC, f.path,
                 g.game_index""").fetchall()
    out: dict[int, list[_Record]] = {}
    for gid, grp, kind, loc, plies, result, tags, errors, path, index in rows:
        pairs = [(str(e["key"]), str(e["value"])) for e in tags]
        out.setdefault(int(grp), []).append(
            _Record(int(gid), str(loc), kind, int(plies), result, pairs, int(errors),
                    str(path), int(index)))
    return out


def _why(keep: _Record, copy: _Record) -> str:
    """Why ``keep`` stands for the game rather than ``copy`` (the first rule of the order
    that tells them apart)."""
    if keep.plies != copy.plies:
        return f"the longer main line ({keep.plies} plies against {copy.plies})"
    if (keep.result in REAL_RESULTS) != (copy.result in REAL_RESULTS):
        return f"a result ({keep.result}) over {copy.result or 'none'}"
    if len(keep.tags) != len(copy.tags):
        return f"more tags ({len(keep.tags)} against {len(copy.tags)})"
    if keep.errors != copy.errors:
        return f"fewer error findings ({keep.errors} against {copy.errors})"
    return "the smaller path and game number"


def _refines(have: str, value: str, name: str) -> bool:
    """Whether ``value`` says the same as ``have`` more precisely (a date known to the
    day where ``have`` gives the month or year)."""
    from pdnkit.pdn.tags import field_of

    if field_of(name) != "date" or "?" not in have:
        return False
    a, b = date_spans(have), date_spans(value)
    if not a or not b or len(a) != 1 or len(b) != 1:
        return False
    return a[0][0] <= b[0][0] and b[0][1] <= a[0][1] and b[0] != a[0]


def _fold(group: list[_Record], log: list[dict[str, str | None]]
          ) -> list[tuple[str, str]]:
    """The tags to set on the group's record (the first) from its copies, the log rows of
    every record and tag appended to ``log``."""
    from pdnkit.pdn.tags import field_of

    keep = group[0]
    log.append(_row(keep.location, "written", keep.location, "canonical",
                    note=f"stands for {len(group)} record(s)"))
    own = {field_of(n): (n, v) for n, v in reversed(keep.tags)}  # the first of a name
    chosen: dict[str, tuple[str, str, str]] = {}  # field -> (name, value, from)
    for copy in group[1:]:
        log.append(_row(copy.location, "merged", keep.location, copy.kind,
                        note=f"the record written stands for it: {_why(keep, copy)}"))
        for name, value in copy.tags:
            f = field_of(name)
            v = value.strip()
            if f in own and own[f][1].strip() not in _UNKNOWN:
                have = own[f][1].strip()
                if v in _UNKNOWN or v == have:
                    continue
                if f not in chosen and _refines(have, v, name):
                    chosen[f] = (own[f][0], v, copy.location)
                    continue
                log.append(_row(copy.location, "tag-conflict", keep.location, copy.kind,
                                name, value, f"kept {own[f][0]} {have!r}"))
            elif v not in _UNKNOWN:
                if f not in chosen:
                    chosen[f] = (own[f][0] if f in own else name, v, copy.location)
                elif chosen[f][1] != v:
                    log.append(_row(copy.location, "tag-conflict", keep.location, copy.kind,
                                    name, value, f"took {chosen[f][1]!r} from {chosen[f][2]}"))
    out = []
    for f, (name, value, source) in chosen.items():
        refined = f in own and own[f][1].strip() not in _UNKNOWN
        log.append(_row(source, "tag-refined" if refined else "tag-added", keep.location,
                        None, name, value,
                        f"in place of {own[f][1]!r}" if f in own else "the record lacked it"))
        out.append((name, value))
    return out


def _row(location: str, action: str, into: str | None, kind: str | None,
         tag: str | None = None, value: str | None = None,
         note: str | None = None) -> dict[str, str | None]:
    return dict(zip(LOG_COLUMNS, (location, action, into, kind, tag, value, note),
                    strict=True))


def _plan(con: duckdb.DuckDBPyConnection) -> tuple[dict[int, list[tuple[str, str]]],
                                                  list[dict[str, str | None]], int, int]:
    """The tags to set on each record written, the log, the copies folded, the probable
    pairs."""
    from pdnkit.store.copylist import duplicate_groups

    tags: dict[int, list[tuple[str, str]]] = {}
    log: list[dict[str, str | None]] = []
    merged = 0
    for group in _records(con).values():
        new = _fold(group, log)
        merged += len(group) - 1
        if new:
            tags[group[0].game_id] = new
    done = {r["location"] for r in log}
    for loc, in con.execute("""
            SELECT f.path || '#' || CAST(g.game_index + 1 AS VARCHAR) FROM games g
            LEFT JOIN files f USING (file_id) WHERE g.duplicate_of IS NULL
            ORDER BY g.file_id, g.game_index""").fetchall():
        if loc not in done:
            log.append(_row(str(loc), "written", str(loc), None))
    groups = duplicate_groups(con)
    probable = groups[groups["relation"] == "probable"]
    for locs, kinds in zip(probable["locations"], probable["kinds"], strict=True):
        a, b = list(locs)
        log.append(_row(a, "probable", a, kinds[0], note=f"may be a copy of {b}: both written"))
        log.append(_row(b, "probable", b, kinds[1], note=f"may be a copy of {a}: both written"))
    return tags, log, merged, len(probable)


def _write_log(path: Path, rows: list[dict[str, str | None]], inputs: Sequence[Path]) -> None:
    """The merge log as CSV, or JSON (a list of objects) for a ``.json`` name."""
    from pdnkit._atomic import atomic_output

    with atomic_output(path, inputs=list(inputs)) as fh:
        if path.suffix.lower() == ".json":
            json.dump(rows, fh, ensure_ascii=False, indent=1)
            fh.write("\n")
            return
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=LOG_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        fh.write(buf.getvalue())


def merge(paths: Iterable[str | Path] = (), *, db: DbLike = None, out: str | Path,
          log: str | Path | None = None, variant: str | None = None,
          edition: str | None = None, encoding: str | None = None,
          jobs: int = 1, progress: bool = False) -> MergeResult:
    """Write one record per game to ``out`` (PDN): from the PDN files and folders ``paths``
    (imported into a temporary database first, with ``variant``, ``edition``, ``encoding``,
    ``jobs`` and ``progress`` as :func:`pdnkit.store.import_files` takes them) or from the
    database ``db`` (a DuckDB file, a lake or a connection). Each group of copies is written
    as the record that stands for it, with the tags it lacks taken from its copies; ``log``
    (``.csv`` or ``.json``) gets a row for every record and every tag taken or left out.
    Neither ``out`` nor ``log`` may be an input (:class:`pdnkit._atomic.OutputIsInputError`).
    Returns a :class:`MergeResult`.
    """
    from pdnkit._atomic import check_output
    from pdnkit.store.db import db_path
    from pdnkit.store.ops import export

    sources = [Path(p) for p in paths]
    if bool(sources) == (db is not None):
        raise ArgumentError("give PDN files to merge or a database (db=), not both")
    if log is not None and Path(log).suffix.lower() not in (".csv", ".json"):
        raise ArgumentError(f"the merge log must be .csv or .json, not {Path(log).name}")
    inputs = list(sources) if sources else (
        [db_path(db)] if db is None or isinstance(db, (str, Path)) else [])
    check_output(Path(out), inputs)
    if log is not None:
        check_output(Path(log), [*inputs, Path(out)])
    with tempfile.TemporaryDirectory(prefix="pdnkit-merge-") as tmp:
        source: DbLike = db
        if sources:
            from pdnkit.store.ingest import import_files

            source = Path(tmp) / "merge.duckdb"
            import_files(sources, db=source, variant=variant, edition=edition,
                         encoding=encoding, jobs=jobs, progress=progress)
        with reading(source) as con:
            tags, rows, merged, probable = _plan(con)
            n = export(out, db=con, tags=tags)
    if log is not None:
        _write_log(Path(log), rows, [*inputs, Path(out)])
    added = sum(r["action"] in ("tag-added", "tag-refined") for r in rows)
    conflicts = sum(r["action"] == "tag-conflict" for r in rows)
    return MergeResult(str(out), None if log is None else str(log), n, merged, added,
                       conflicts, probable, rows)
