"""A lake import on a full disk said "nothing was written" while the files imported before
were kept, and left the parts of the file it was writing on the disk. It now says exactly
what the lake keeps (the sources it held, the files this import added) and what it does
not (the file being written, whose parts are removed; its earlier version when it
replaced one; the files not reached), in one line, status 2. Real processes: the disk is
a small tmpfs where this process may mount one, and the file-size limit (``EFBIG``, as
the store's full-disk tests use) everywhere."""

from __future__ import annotations

import re
import resource
from collections.abc import Callable
from pathlib import Path

import duckdb
import pytest

from pdnkit.lake import LakeFullError, read_manifest
from tests.store.safety_helpers import GAME_A, GAME_B, GAME_C, cli_process, one_error_line, tmpfs


def _sources(folder: Path, pairs: int = 1500) -> tuple[Path, Path, Path, Path]:
    """Two small files, a large one (``pairs`` pairs of games: parts of tens of kilobytes)
    and one after it."""
    folder.mkdir(parents=True, exist_ok=True)
    small_a, small_b = folder / "a.pdn", folder / "b.pdn"
    small_a.write_text(GAME_A + GAME_B, encoding="utf-8")
    small_b.write_text(GAME_C, encoding="utf-8")
    big = folder / "big.pdn"
    big.write_text("".join(GAME_A.replace('"A"', f'"A{i}"') + GAME_B for i in range(pairs)),
                   encoding="utf-8")
    after = folder / "z.pdn"
    after.write_text(GAME_C.replace('"C"', '"Z"'), encoding="utf-8")
    return small_a, small_b, big, after


def _limit(size: int) -> Callable[[], None]:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return apply


def _games(lake: Path) -> int:
    con = duckdb.connect()
    try:
        return int(con.execute(f"SELECT count(*) FROM read_parquet('{lake}/games/*.parquet')")
                   .fetchall()[0][0])
    finally:
        con.close()


def _import(*args: object, preexec: Callable[[], None] | None = None):  # type: ignore[no-untyped-def]
    return cli_process("import", *args, "--engine", "local", "--quiet", "--chunk-mb", "0.1",
                       preexec=preexec)


def _check_full(line: str, lake: Path, before: int, big: Path, later: Path | None) -> None:
    assert line.startswith(f"pdnkit: error: cannot write the lake {lake}: ")
    assert f"The lake keeps the {before} source(s) it held before;" in line
    assert f"{big} was not added (the parts written for it were removed)" in line
    assert "nothing was written" not in line
    if later is not None:
        assert f"1 later file(s) were not imported ({later})" in line
    assert line.endswith("the files kept are skipped.")


@pytest.mark.slow
@pytest.mark.parametrize("how", ["rlimit", "tmpfs"])
def test_a_full_disk_says_what_the_lake_kept(tmp_path: Path, how: str) -> None:
    a, b, big, after = _sources(tmp_path / "src", 8000 if how == "tmpfs" else 1500)
    with tmpfs(tmp_path / "disk", "900k" if how == "tmpfs" else "1g") as mounted:
        if how == "tmpfs" and mounted is None:
            pytest.skip("cannot mount a tmpfs here")
        lake = tmp_path / "disk" / "lake"
        r = _import(a, b, "--lake", lake)
        assert r.returncode == 0, r.stderr
        preexec = _limit(20_000) if how == "rlimit" else None
        r = _import(big, after, "--lake", lake, preexec=preexec)
        line = one_error_line(r.stderr)
        assert r.returncode == 2
        reason = "the disk is full" if how == "tmpfs" else "a file is too large"
        assert reason in line, line
        _check_full(line, lake, 2, big, after)
        # what it says is what the lake holds: the two sources, their three games, and no
        # part of big.pdn left on the disk
        assert sorted(Path(e.path).name for e in read_manifest(lake)) == ["a.pdn", "b.pdn"]
        assert _games(lake) == 3
        leftovers = [p.name for p in lake.rglob("*part-00000003*")]
        assert leftovers == []
        r = _import(a, b, after, "--lake", lake)  # afterwards: what was kept is skipped
        assert r.returncode == 0, r.stderr
        assert "1 file(s) imported, 2 already present" in r.stdout


def test_files_added_before_the_disk_filled_are_named(tmp_path: Path) -> None:
    """Files this very import added before the disk filled are kept and named."""
    a, b, big, _ = _sources(tmp_path / "src")
    lake = tmp_path / "lake"
    r = _import(a, b, big, "--lake", lake, preexec=_limit(20_000))
    line = one_error_line(r.stderr)
    assert r.returncode == 2
    assert re.search(r"The lake keeps the 2 file\(s\) this import added \(\S*a\.pdn, "
                     r"\S*b\.pdn\);", line), line
    assert f"{big} was not added" in line and "later file" not in line
    assert _games(lake) == 3


@pytest.mark.slow
def test_a_replaced_file_that_no_longer_fits_says_its_old_version_is_gone(
        tmp_path: Path) -> None:
    a, _, big, _ = _sources(tmp_path / "src")
    lake = tmp_path / "lake"
    assert _import(a, big, "--lake", lake).returncode == 0
    r = _import(big, "--lake", lake, "--replace", preexec=_limit(20_000))
    line = one_error_line(r.stderr)
    assert r.returncode == 2
    assert "its earlier version was taken out of the lake before" in line
    assert [Path(e.path).name for e in read_manifest(lake)] == ["a.pdn"]
    assert _games(lake) == 2


def test_the_error_is_a_pdnkit_error_and_an_os_error() -> None:
    from pdnkit.errors import PdnkitError

    exc = LakeFullError("cannot write the lake x: ...")
    assert isinstance(exc, PdnkitError) and isinstance(exc, OSError)
    assert str(exc) == "cannot write the lake x: ..."


def test_a_full_disk_at_the_novelties_keeps_every_file(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk fills only as the lake's table of novelties is written: every file of the
    import is kept, and the message says that only the table was not (readers compute it)."""
    import errno

    import pdnkit.store.lakeview as lakeview
    from pdnkit.lake import import_lake

    a, b, _, _ = _sources(tmp_path / "src", pairs=1)

    def full(lake: object) -> bool:
        raise OSError(errno.ENOSPC, "No space left on device", "novelties.parquet")

    monkeypatch.setattr(lakeview, "keep_novelties", full)
    lake = tmp_path / "lake"
    with pytest.raises(LakeFullError) as got:
        import_lake([a, b], lake, engine="local")
    text = str(got.value)
    assert re.search(r"The lake keeps the 2 file\(s\) this import added \(\S*a\.pdn, "
                     r"\S*b\.pdn\); only its table of novelties could not be kept", text)
    assert "was not added" not in text
    assert sorted(Path(e.path).name for e in read_manifest(lake)) == ["a.pdn", "b.pdn"]


def test_other_os_errors_are_not_called_a_full_disk(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    import pdnkit.lake.importer as importer
    from pdnkit.lake import import_lake

    a, _, _, _ = _sources(tmp_path / "src", pairs=1)

    def denied(*args: object, **kwargs: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", "x")

    monkeypatch.setattr(importer, "write_entry", denied)
    with pytest.raises(PermissionError) as got:
        import_lake([a], tmp_path / "lake", engine="local")
    assert not isinstance(got.value, LakeFullError)
