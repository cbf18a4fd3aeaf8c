"""The upgrade registry other modules extend: a fill step computes its columns when an
upgrade adds them (and only then), a version step rewrites the old rows, and a fill step for
columns the schema does not have never runs."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from pdnkit.store import db as dbmod
from pdnkit.store import schema as schemamod
from pdnkit.store import upgrades as upmod
from pdnkit.store.db import SCHEMA_VERSION, schema_sql
from pdnkit.store.upgrades import Sources, register_fill, upgrade, version_step
from tests.store.safety_helpers import imported


def _later_schema(monkeypatch: pytest.MonkeyPatch, bump: bool) -> None:
    """schema.sql with a column ``games.later_len`` added (and the version bumped)."""
    line = "    opening         VARCHAR,            -- Opening tag"
    text = schema_sql().replace(line, "    later_len       INTEGER,\n" + line)
    for mod in (dbmod, schemamod, upmod):
        monkeypatch.setattr(mod, "schema_sql", lambda: text)
    monkeypatch.setattr(schemamod, "_REFERENCE", None)
    monkeypatch.setattr(upmod, "FILL_STEPS", list(upmod.FILL_STEPS))
    monkeypatch.setattr(upmod, "VERSION_STEPS", dict(upmod.VERSION_STEPS))
    if bump:
        for mod in (schemamod, upmod):
            monkeypatch.setattr(mod, "SCHEMA_VERSION", SCHEMA_VERSION + 1)


def test_a_fill_step_computes_the_new_column_on_the_copy(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    db = imported(tmp_path)
    _later_schema(monkeypatch, bump=False)
    calls: list[str] = []

    def fill(con: duckdb.DuckDBPyConnection) -> None:
        calls.append(con.execute("SELECT current_database()").fetchall()[0][0])
        con.execute("UPDATE games SET later_len = length(raw_pdn)")

    register_fill("games", ["later_len"], fill)
    register_fill("games", ["not_in_the_schema"], lambda con: calls.append("never"))
    result = upgrade(db, notice=None)
    assert result.upgraded and result.fills == ["games.later_len"] and len(calls) == 1
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT count(*) FROM games WHERE later_len = length(raw_pdn)"
                       ).fetchall()[0][0] == 3
    con.close()
    assert not upgrade(db, notice=None).upgraded and len(calls) == 1  # only once


def test_a_version_step_rewrites_the_old_rows(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    db = imported(tmp_path)
    _later_schema(monkeypatch, bump=True)

    @version_step(SCHEMA_VERSION + 1, "events in lower case")
    def lower(src: Sources) -> None:
        assert "later_len" not in src.columns("games")
        src.set("games", f"SELECT * REPLACE (lower(event) AS event) FROM ({src.sql('games')})")

    result = upgrade(db, notice=None)
    assert result.from_version == SCHEMA_VERSION
    assert result.steps == [f"{SCHEMA_VERSION + 1}: events in lower case"]
    con = duckdb.connect(str(db), read_only=True)
    assert sorted(r[0] for r in con.execute("SELECT event FROM games").fetchall()) == [
        "a", "b", "c"]
    assert con.execute("SELECT value FROM pdnkit_meta WHERE key = 'schema_version'"
                       ).fetchall() == [(str(SCHEMA_VERSION + 1),)]
    con.close()
    assert db.with_name(f"{db.name}.schema{SCHEMA_VERSION}.bak").exists()


def test_a_string_fill_is_imported_only_when_it_runs() -> None:
    step = register_fill("games", ["x_col"], "no.such.module:fill")
    try:
        with pytest.raises(ModuleNotFoundError):
            step.function()
    finally:
        upmod.FILL_STEPS.remove(step)
