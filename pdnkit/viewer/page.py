"""``pdnkit view``: one self-contained HTML game viewer (no network: script and style inline).

Where an engine analysed the games (the database's ``evals``, or ``[%eval]`` comments of a
file), a graph under the board shows the score of every position (White above the line),
marks the blunders, mistakes and missed shots, and steps to the ply clicked.

The page holds a game list (players, event, result, status, findings; filterable by status,
finding code and text; only the visible rows are in the DOM, so ten thousand games stay
usable) and a viewer: an SVG board in the variant's size and numbering, buttons and arrow
keys to step through the plies, the move list with comments, NAGs and the variations (a click
on a variation's move steps into it; Esc goes back), capture routes as arrows, the findings (a
click jumps to their ply, marks the squares of the move as written and lists the legal moves
there), what the board shows (never "final" for a position before a move) and the result with
who won and pdnkit's verdict. Text from the files is shown as text, without bidi controls
(:mod:`pdnkit.viewer.text`).

Every position is computed in Python (:mod:`pdnkit.viewer.model`) and embedded as JSON, one
``<script type="application/json">`` block per game that the page parses only when the game
is opened; the script only draws. Games are numbered from 1 in the page, as ``pdnkit show
--game`` and ``validate`` count them (for a page of one file, the game's number in the file):
``page.html#g=N&ply=K`` opens game N at ply K, which is how the reports link into a page.

Example:
    >>> html = view_html([game_model_of('[GameType "20"] 1. 32-28 19-23 *')])
    >>> html.startswith("<!DOCTYPE html>") and 'id="pdnkit-g-1"' in html
    True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from pdnkit.errors import ArgumentError
from pdnkit.viewer.model import GameModel, game_model, players, winner_text
from pdnkit.viewer.text import plain

__all__ = ["GENERATOR", "ViewSummary", "db_models", "game_model_of", "is_viewer_page", "layout", "view",
           "view_html"]


@dataclass
class ViewSummary:
    """What :func:`view` wrote: the page, the number of games, the games with errors and
    ``anchors`` (``source label -> the game's number in the page``, from 1: ``#g=N``) for
    linking into the page."""

    path: Path
    games: int
    errors: int
    anchors: dict[str, int] = field(default_factory=dict)


def game_model_of(text: str) -> GameModel:
    """The model of the first game of a PDN text (for examples and tests)."""
    from pdnkit.viewer.fetch import file_game

    return game_model(file_game(text, 1))


def layout(rules: Any) -> dict[str, Any]:
    """How the page draws a variant's board: size, the (file, rank) of every square (White's
    bottom left is 0, 0), the square names and whether numbers are the notation.

    >>> lay = layout(__import__("pdnkit").get_rules("italian"))
    >>> lay["w"], lay["coords"][0], lay["names"][0]
    (8, [0, 7], '1')
    """
    from pdnkit.rules import square_name

    g = rules.geometry
    n = g.num_squares
    return {"w": rules.width, "h": rules.height, "title": rules.title,
            "coords": [list(g.square_to_coords(s)) for s in range(1, n + 1)],
            "names": [square_name(rules, s) for s in range(1, n + 1)],
            "numeric": rules.notation == "numeric", "first": str(rules.first_mover)}


def _compact(model: GameModel) -> dict[str, Any]:
    """The game's JSON with plies (of the main line and of each variation in ``vars``) as
    short arrays (the page is large for big collections): ``[written, canonical or null when
    equal, path, captured, nags, comment, placement, number, side, replayed]``."""
    d = model.to_json()
    d["plies"] = [_compact_ply(p) for p in d["plies"]]
    for v in d["vars"]:
        v["plies"] = [_compact_ply(p) for p in v["plies"]]
    return d


def _compact_ply(p: dict[str, Any]) -> list[Any]:
    return [p["w"], None if p["c"] == p["w"] else p["c"], p["path"], p["cap"], p["nags"],
            p["cm"], p["pl"], p["num"], p["side"], p["ok"]]


def _entry(i: int, model: GameModel) -> dict[str, Any]:
    r = model.report
    tags = model.game_tags()
    return {"i": i, "white": r.white or "", "black": r.black or "",
            "players": players(r.white, r.black),
            "event": tags.event or "", "date": tags.date_text or "",
            "result": r.result_raw or r.result or "*", "status": r.status,
            "won": winner_text(r.outcome, r.white, r.black).split(":")[0],
            "resultText": model.result_text(),
            "variant": model.rules.name if model.rules else "",
            "findings": len(model.findings),
            "codes": sorted({f.code for f in model.findings}),
            "plies": model.last_ply, "source": model.source}


def _json_block(data: Any) -> str:
    """JSON safe inside a script element (no ``<`` at all, so no ``</script>`` or ``<!--``),
    without bidi controls (:func:`pdnkit.viewer.text.plain`: no text of a file may reorder
    the page's text; they can only stand inside JSON strings, so the JSON stays valid).

    >>> _json_block({"w": "</script>\u202e"})
    '{"w":"\\\\u003c/script>"}'
    """
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return plain(text).replace("<", "\\u003c")


def _asset(name: str) -> str:
    return resources.files("pdnkit.viewer").joinpath(name).read_text(encoding="utf-8")


def view_html(models: Iterable[GameModel], *, title: str = "pdnkit games") -> str:
    """The viewer page for ``models`` as one HTML string (see the module docstring)."""
    return _build(models, title)[0]


def _build(models: Iterable[GameModel], title: str) -> tuple[str, list[dict[str, Any]]]:
    """The page and its game index; ``models`` is consumed once (a stream is fine)."""
    import html as _html

    index: list[dict[str, Any]] = []
    layouts: dict[str, Any] = {}
    blocks: list[str] = []
    for i, m in enumerate(models, 1):  # numbered from 1, as the CLI counts games
        index.append(_entry(i, m))
        if m.rules is not None and m.rules.name not in layouts:
            layouts[m.rules.name] = layout(m.rules)
        blocks.append(f'<script type="application/json" id="pdnkit-g-{i}">'
                      f"{_json_block(_compact(m))}</script>")
    from pdnkit._version import __version__

    meta = {"title": title, "version": __version__, "layouts": layouts, "games": index}
    page = _asset("viewer.html")
    page = (page.replace("/*CSS*/", _asset("viewer.css"), 1)
            .replace("/*JS*/", _asset("viewer.js"), 1)
            .replace("<!--TITLE-->", _html.escape(plain(title))))
    text = (page.replace("<!--INDEX-->", f'<script type="application/json" id="pdnkit-index">'
                                         f"{_json_block(meta)}</script>", 1)
            .replace("<!--GAMES-->", "\n".join(blocks), 1))
    return text, index


def db_models(db: Any, *, where: str | None = None, game_id: int | None = None,
              limit: int | None = None, engine: str | None = None,
              all_copies: bool = False) -> Iterator[GameModel]:
    """The view models of the games of a database (``where``: an SQL condition on
    ``games``, each game once unless ``all_copies``; or the one ``game_id``), each with its engine analysis where the database has
    one (``engine``: which, of several, :func:`pdnkit.store.evals.choose_key`): what
    ``pdnkit view --db`` and the explorer's game pane show.

    >>> from pdnkit.store import connect
    >>> list(db_models(connect(":memory:"), game_id=1))
    []
    """
    from pdnkit.store.evals import choose_key
    from pdnkit.store.session import reading
    from pdnkit.viewer.fetch import db_analysis, db_games
    from pdnkit.viewer.model import add_analysis

    with reading(db) as con:
        key = choose_key(con, engine)  # default: the one with the most positions
        for gid, label, report in db_games(con, where=where, game_id=game_id, limit=limit,
                                           all_copies=all_copies):
            model = game_model(report, source=label)
            if key is not None:
                evals, found = db_analysis(con, gid, key)
                add_analysis(model, evals, key.label, found)
            yield model


def _models(source: Any, db: Any, where: str | None, variant: str | None,
            limit: int | None, engine: str | None = None,
            all_copies: bool = False) -> Iterable[GameModel]:
    if db is not None:
        yield from db_models(db, where=where, limit=limit, engine=engine,
                             all_copies=all_copies)
        return
    from pdnkit.viewer.fetch import file_games

    for n, report in enumerate(file_games(source, variant=variant)):
        if limit is not None and n >= limit:
            return
        yield game_model(report)


def _name(source: Any, db: Any, where: str | None) -> str:
    if db is not None:
        return Path(str(db)).name + (f" where {where}" if where else "")
    items = source if isinstance(source, (list, tuple)) else [source]
    names = [Path(str(s)).name for s in items if isinstance(s, (str, Path))
             and "\n" not in str(s)]
    return ", ".join(names[:3]) + (" ..." if len(names) > 3 else "") if names else "PDN games"


def view(source: Any = None, *, out: str | Path = "games.html", db: Any = None,
         where: str | None = None, variant: str | None = None, limit: int | None = None,
         title: str | None = None, engine: str | None = None,
         all_copies: bool = False) -> ViewSummary:
    """Write the viewer page of a PDN file or folder, or of the database games matching
    ``where`` (an SQL condition on ``games``; each game once, by the record that stands for
    its copies, or every record with ``all_copies``), to ``out``; return a
    :class:`ViewSummary`.
    Where the database holds an engine analysis (``pdnkit analyse``; ``engine`` chooses one
    of several, :func:`pdnkit.store.evals.choose_key`), each game shows its evaluation graph
    and the analysis findings; a PDN file's ``[%eval]`` comments give the graph too.

    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "g.html"
    >>> view('[GameType "20"] 1. 32-28 19-23 *', out=out).games
    1
    """
    if source is None and db is None:
        raise ArgumentError("give a PDN file or a database")
    models = _models(source, db, where, variant, limit, engine, all_copies)
    name = title or _name(source, db, where)
    text, index = _build(models, f"pdnkit view: {name}")
    path = Path(out)
    from pdnkit._atomic import atomic_output, local_paths

    # whole or not at all (a full disk keeps the old page), never over an input
    with atomic_output(path, inputs=local_paths(source, db)) as fh:
        fh.write(text)
    return ViewSummary(path, len(index), sum(e["status"] == "error" for e in index),
                       {e["source"]: e["i"] for e in index})


#: the mark every viewer page carries in its head (pages of earlier versions: their index)
GENERATOR = '<meta name="generator" content="pdnkit view">'
_OLD_MARK = b'<script type="application/json" id="pdnkit-index">'


def is_viewer_page(path: str | Path) -> bool:
    """Whether ``path`` is a regular file (not a symbolic link) that :func:`view` wrote: its
    head carries :data:`GENERATOR` (a page of an earlier version: its game index).

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = view('[GameType "20"] 1. 32-28 *', out=d / "v.html")
    >>> _ = (d / "notes.html").write_text("<p>my notes</p>")
    >>> is_viewer_page(d / "v.html"), is_viewer_page(d / "notes.html"), is_viewer_page(d / "x")
    (True, False, False)
    """
    import os
    import stat

    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode):
            return False
        with open(path, "rb") as fh:
            head = fh.read(4096)
            if GENERATOR.encode() in head:
                return True
            if not head.startswith(b"<!DOCTYPE html>"):
                return False
            tail = head
            while chunk := fh.read(1 << 20):  # an earlier page: its index, after the style
                tail = tail[-len(_OLD_MARK):] + chunk
                if _OLD_MARK in tail:
                    return True
            return _OLD_MARK in head
    except OSError:
        return False
