"""The compiled core under AddressSanitizer and UndefinedBehaviorSanitizer (``slow``).

The C sources are compiled with ``-fsanitize=address,undefined`` into a temporary folder and
a seeded fuzz corpus (``tests/core/fuzz_driver.py``: real and sample games, random and
spoiled games, random text, random placements, hostile states, tables with a word changed)
runs through that build in a subprocess. A Python host needs the ASan runtime loaded first:
``LD_PRELOAD`` of the compiler's ``libasan.so``, with ``PYTHONMALLOC=malloc`` so that ASan sees
the interpreter's allocations too, and leak detection off (the interpreter keeps its objects
at exit). Any sanitizer report fails the test.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "pdnkit" / "core" / "src"
DRIVER = Path(__file__).with_name("fuzz_driver.py")
NUMBERS = Path(__file__).with_name("misnumbered_driver.py")
SANITIZE = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined",
            "-fno-omit-frame-pointer", "-g", "-O1"]


def _runtime(cc: str) -> str | None:
    out = subprocess.run([cc, "-print-file-name=libasan.so"], capture_output=True, text=True)
    path = out.stdout.strip()
    return path if out.returncode == 0 and os.path.isabs(path) and os.path.exists(path) else None


def build_sanitized(folder: Path) -> tuple[Path, str]:
    """The sanitized extension built in ``folder`` and the ASan runtime to preload."""
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        pytest.skip("no C compiler")
    runtime = _runtime(cc)
    if runtime is None:
        pytest.skip("the compiler has no AddressSanitizer runtime")
    target = folder / f"_core{sysconfig.get_config_var('EXT_SUFFIX')}"
    cmd = [cc, "-shared", "-fPIC", *SANITIZE, "-Wall", "-Wextra", "-Werror",
           f"-I{sysconfig.get_paths()['include']}", *map(str, sorted(SRC.glob("*.c"))),
           "-o", str(target)]
    res = subprocess.run(cmd, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    return target, runtime


def run_fuzz(extension: Path, runtime: str, seed: int, rounds: int) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LD_PRELOAD": runtime, "PYTHONMALLOC": "malloc",
           "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1:halt_on_error=1",
           "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1", "PDNKIT_PURE": ""}
    return subprocess.run([sys.executable, str(DRIVER), str(extension), str(seed), str(rounds)],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=1500)


@pytest.mark.slow
def test_fuzz_corpus_under_sanitizers(tmp_path: Path) -> None:
    extension, runtime = build_sanitized(tmp_path)
    res = run_fuzz(extension, runtime, seed=25, rounds=300)
    report = res.stderr[-4000:]
    assert "AddressSanitizer" not in res.stderr and "runtime error" not in res.stderr, report
    assert res.returncode == 0, report
    assert res.stdout.startswith("fuzz: "), res.stdout + report
    # the driver's corpus: the samples' games, and the shared real files' when present
    shared = (ROOT.parent / "shared" / "data" / "real").is_dir()
    assert int(res.stdout.split()[1]) > (10_000 if shared else 2_000)


def build_ubsan(folder: Path) -> Path:
    """The extension built in ``folder`` with UndefinedBehaviorSanitizer only (no runtime
    to preload), every report fatal."""
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        pytest.skip("no C compiler")
    target = folder / f"_core{sysconfig.get_config_var('EXT_SUFFIX')}"
    cmd = [cc, "-shared", "-fPIC", "-fsanitize=undefined", "-fno-sanitize-recover=undefined",
           "-g", "-O1", "-Wall", "-Wextra", "-Werror", f"-I{sysconfig.get_paths()['include']}",
           *map(str, sorted(SRC.glob("*.c"))), "-o", str(target)]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0 and "sanitize" in res.stderr and "unrecognized" in res.stderr:
        pytest.skip("the compiler has no UndefinedBehaviorSanitizer")
    assert res.returncode == 0, res.stderr
    return target


@pytest.mark.slow
def test_misnumbered_has_no_overflow_at_the_edges(tmp_path: Path) -> None:
    """``misnumbered`` with huge arguments (k, offset near 2^63, base at either end): UBSan
    reported a signed overflow in ``k + i + offset`` and ``base + j / 2``; every answer is
    also held to the definition in Python's integers."""
    extension = build_ubsan(tmp_path)
    env = {**os.environ, "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1"}
    res = subprocess.run([sys.executable, str(NUMBERS), str(extension)], capture_output=True,
                         text=True, env=env, cwd=ROOT, timeout=600)
    report = res.stderr[-4000:]
    assert "runtime error" not in res.stderr, report
    assert res.returncode == 0, report
    assert res.stdout.startswith("misnumbered: ") and int(res.stdout.split()[1]) > 10_000
