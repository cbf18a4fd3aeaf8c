"""Database files are written whole and checked when read: a build stopped at any moment and
run again goes on and never leaves a file that probes wrong."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pdnkit.egdb import DamagedFileError, Egdb, build
from pdnkit.egdb.files import (
    HEADER_SIZE,
    default_dir,
    file_of,
    read_file,
    rules_digest,
    variant_dir,
)
from pdnkit.egdb.index import Signature, leads_to, signatures
from pdnkit.rules import get_rules, parse_fen

KK = Signature(0, 1, 0, 1)


def _fresh(tmp_path: Path, variant: str = "russian", pieces: int = 2) -> Path:
    build(variant, pieces, directory=tmp_path)
    return variant_dir(get_rules(variant), tmp_path)


def _flip(path: Path, at: int) -> None:
    data = bytearray(path.read_bytes())
    data[at] ^= 0x01
    path.write_bytes(bytes(data))


def test_a_corrupted_file_is_refused_reported_and_built_again(tmp_path) -> None:
    folder = _fresh(tmp_path)
    path = file_of(folder, KK)
    good = path.read_bytes()
    _flip(path, HEADER_SIZE + 100)
    with pytest.raises(DamagedFileError, match="checksum"):
        read_file(path, get_rules("russian"), KK)
    db = Egdb("russian", tmp_path)
    v = db.verdict(parse_fen("W:WK1:BK32", db.rules))
    assert v.value is None and "damaged" in (v.note or "")
    assert "pdnkit egdb build russian --pieces 2" in (v.note or "")
    rep = build("russian", 2, directory=tmp_path)
    assert rep.built == (KK,) and len(rep.damaged) == 1
    assert path.read_bytes() == good


@pytest.mark.parametrize("damage", ["truncated", "header", "magic", "empty"])
def test_every_kind_of_damage_is_caught(tmp_path, damage: str) -> None:
    folder = _fresh(tmp_path)
    path = file_of(folder, KK)
    data = path.read_bytes()
    if damage == "truncated":
        path.write_bytes(data[:-7])
    elif damage == "header":  # the slots per half (bytes 56-63) no longer fit the signature
        path.write_bytes(data[:56] + (10**6).to_bytes(8, "little") + data[64:])
    elif damage == "magic":
        path.write_bytes(b"X" + data[1:])
    else:
        path.write_bytes(b"")
    with pytest.raises(DamagedFileError):
        read_file(path, get_rules("russian"), KK)
    assert build("russian", 2, directory=tmp_path).built == (KK,)
    assert read_file(path, get_rules("russian"), KK).codes == data[HEADER_SIZE:]


def test_another_variants_or_signatures_file_is_refused(tmp_path) -> None:
    folder = _fresh(tmp_path)
    english = _fresh(tmp_path, "english")
    shutil.copy(file_of(english, KK), file_of(folder, KK))  # same board, other rules
    with pytest.raises(DamagedFileError, match="other rules"):
        read_file(file_of(folder, KK), get_rules("russian"), KK)
    other = Signature(0, 2, 0, 0)
    shutil.copy(file_of(folder, other), file_of(folder, Signature(0, 0, 0, 2)))
    with pytest.raises(DamagedFileError, match="holds wm0wk2bm0bk0"):
        read_file(file_of(folder, Signature(0, 0, 0, 2)), get_rules("russian"),
                  Signature(0, 0, 0, 2))


def test_editions_with_the_same_moves_share_a_folder() -> None:
    assert rules_digest(get_rules("english")) == rules_digest(get_rules("english", "wcdf"))
    assert variant_dir(get_rules("brazilian"), "/x") == variant_dir(
        get_rules("brazilian", "lidraughts"), "/x")
    assert rules_digest(get_rules("giveaway")) != rules_digest(get_rules("russian"))


def test_the_folder_comes_from_pdnkit_egdb_else_the_cache(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("PDNKIT_EGDB", str(tmp_path / "here"))
    assert default_dir() == tmp_path / "here"
    monkeypatch.delenv("PDNKIT_EGDB")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert default_dir() == tmp_path / "cache" / "pdnkit" / "egdb"


def test_leftover_temporary_files_of_a_killed_build_are_removed(tmp_path) -> None:
    folder = _fresh(tmp_path)
    junk = folder / ".wm0wk1bm0bk1.egdb.abc123.tmp"
    junk.write_bytes(b"half a file")
    rep = build("russian", 2, directory=tmp_path)
    assert not junk.exists() and rep.built == () and len(rep.kept) == 14


CHILD = """
import sys
from pdnkit.egdb import build
from pdnkit.egdb.index import Signature
build("english", 4, directory=sys.argv[1], only=[Signature(0, 2, 0, 2), Signature(1, 1, 0, 1)])
"""


def test_a_build_killed_at_any_moment_goes_on_and_never_probes_wrong(tmp_path) -> None:
    want = tmp_path / "whole"
    build("english", 4, directory=want, only=[Signature(0, 2, 0, 2), Signature(1, 1, 0, 1)])
    rules = get_rules("english")
    order = sorted({s for x in (Signature(0, 2, 0, 2), Signature(1, 1, 0, 1))
                    for s in leads_to(x)})
    for delay in (0.6, 1.5):
        d = tmp_path / f"killed-{delay}"
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(d)],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        folder = variant_dir(rules, d)
        for path in folder.glob("*.egdb") if folder.exists() else ():
            sig = Signature.parse(path.name[:-5])
            assert read_file(path, rules, sig).codes == read_file(
                file_of(variant_dir(rules, want), sig), rules, sig).codes
        rep = build("english", 4, directory=d,
                    only=[Signature(0, 2, 0, 2), Signature(1, 1, 0, 1)])
        assert sorted(rep.built + rep.kept) == order
        for sig in order:
            assert file_of(variant_dir(rules, d), sig).read_bytes() == file_of(
                variant_dir(rules, want), sig).read_bytes()
        assert list(variant_dir(rules, d).glob(".*.tmp")) == []


def test_a_pure_install_builds_the_same_files(tmp_path) -> None:
    """Without the compiled core (PDNKIT_PURE=1) the reference builds every file, byte for
    byte as the compiled core does; beyond its size it says what is needed."""
    env = {**os.environ, "PDNKIT_PURE": "1"}
    pure, fast = tmp_path / "pure", tmp_path / "fast"
    r = subprocess.run([sys.executable, "-m", "pdnkit", "egdb", "build", "russian", "--pieces",
                        "2", "--dir", str(pure), "-q"], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    build("russian", 2, directory=fast)
    rules = get_rules("russian")
    names = sorted(p.name for p in variant_dir(rules, pure).iterdir())
    assert len(names) == 14 and names == sorted(p.name for p in variant_dir(rules, fast).iterdir())
    for name in names:
        assert (variant_dir(rules, pure) / name).read_bytes() == (
            variant_dir(rules, fast) / name).read_bytes()
    r = subprocess.run([sys.executable, "-m", "pdnkit", "egdb", "build", "russian", "--pieces",
                        "4", "--dir", str(pure), "-q"], env=env, capture_output=True, text=True)
    assert r.returncode == 2 and "compiled core" in r.stderr


def _old_index_file(folder: Path, sig: Signature, half: int) -> None:
    """A file as the index of format 1 wrote it for Turkish: its men on every square but
    their promotion row (their own back rank included), the rules' digest without the
    squares of the men, and codes that would probe wrong (every position a win in 1)."""
    import hashlib
    import struct
    import zlib

    from pdnkit.core.pack import pack_table

    rules = get_rules("turkish")
    blob = pack_table(rules)
    assert blob is not None
    digest = hashlib.sha256(b"pdnkit-egdb-1\0" + blob.tobytes() + b"normal").digest()
    codes = b"\x04" * (2 * half)
    head = struct.pack("<8sII32s4sB3xQQQQQII", b"PDNKEGDB", 1, HEADER_SIZE, digest, bytes(sig),
                       1, half, 2 * half, 2 * half, 0, 0, 1, zlib.crc32(codes))
    folder.mkdir(parents=True, exist_ok=True)
    file_of(folder, sig).write_bytes(head.ljust(HEADER_SIZE, b"\0") + codes)


def test_a_file_of_the_old_turkish_index_is_solved_again_never_probed(tmp_path) -> None:
    rules = get_rules("turkish")
    folder = variant_dir(rules, tmp_path)
    man, king = Signature(1, 0, 0, 0), Signature(0, 1, 0, 0)
    _old_index_file(folder, man, 56)  # a man on 56 squares: ranks 1 to 7
    _old_index_file(folder, king, 64)  # the same size in both indexes: the digest tells
    # a lone white man to move on b7 (square 50) wins in 1 (Black has no piece)
    assert Egdb("turkish", tmp_path).verdict(parse_fen("W:W50:B", rules)).note is not None
    rep = build("turkish", 1, directory=tmp_path)
    assert set(rep.built) == set(signatures(1)) and len(rep.damaged) == 2
    assert all("other rules" in d for d in rep.damaged)
    db = Egdb("turkish", tmp_path)
    assert db.verdict(parse_fen("W:W50:B", rules)) == ("win", 1, None)
    assert db.verdict(parse_fen("B:WK50:B", rules)) == ("loss", 0, None)


def test_a_turkish_man_on_its_own_back_rank_is_no_position_of_the_index(tmp_path) -> None:
    # Turkish men start on ranks 2-3 (7-6) and never step back (RULES.md, Turkish): the
    # index leaves out their own back rank, a probe says so instead of giving a value
    build("turkish", 2, directory=tmp_path)
    db = Egdb("turkish", tmp_path)
    rules = db.rules
    assert db.verdict(parse_fen("W:W50:BK40", rules)).value is not None
    for fen in ("W:W3:BK40", "B:WK40:B60"):  # rank 1 is squares 1-8, rank 8 57-64
        got = db.verdict(parse_fen(fen, rules))
        assert got.value is None and "no man reaches" in (got.note or "")
