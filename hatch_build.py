"""The build hook that compiles pdnkit's replay core, ``pdnkit.core._core`` (hatchling runs it
for wheels and editable installs; everything else about the package is in pyproject.toml).

The C sources of ``pdnkit/core/src`` are compiled with setuptools' compiler driver (the one that
knows gcc, clang and MSVC and the interpreter's flags). The extension is optional: where it
cannot be built (no C compiler, no Python headers) the hook says why on stderr and the install
goes on without it, and pdnkit runs its pure-Python core (``pdnkit.core.core_in_use()``).
A wheel gets the extension as ``pdnkit/core/_core.<suffix>`` and a platform tag; an editable
install gets it next to the sources, where the package is imported from.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SOURCES = ("draw.c", "egdb.c", "egdbmod.c", "egdbsym.c", "module.c", "movegen.c", "replay.c",
           "rows.c", "scan.c", "table.c", "tactics.c")
#: ``PDNKIT_BUILD_PURE=1`` skips the compile (to try the pure install)
SKIP = "PDNKIT_BUILD_PURE"


def compile_core(root: Path, out: Path) -> Path:
    """Compile the extension into ``out``; raises on any failure."""
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    src = Path("pdnkit") / "core" / "src"
    flags = ["-O2", "-Wall", "-Wextra"] if os.name != "nt" else []  # gcc, clang
    ext = Extension("pdnkit.core._core", sources=[str(src / n) for n in SOURCES],
                    depends=[str(src / n) for n in ("core.h", "draw.h", "egdb.h", "replay.h",
                                                    "scan.h", "tactics.h")],
                    extra_compile_args=flags)
    dist = Distribution({"name": "pdnkit-core", "ext_modules": [ext]})
    cmd: Any = build_ext(dist)
    cmd.build_lib = str(out / "lib")
    cmd.build_temp = str(out / "tmp")
    cwd = os.getcwd()
    os.chdir(root)  # the sources are named relative to the project
    try:
        cmd.ensure_finalized()
        cmd.run()
    finally:
        os.chdir(cwd)
    built = Path(cmd.get_ext_fullpath(ext.name))
    return built if built.is_absolute() else root / built


class CoreBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    """Compile the core and put it into the wheel (or next to the sources, editable)."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        if os.environ.get(SKIP, "").strip() == "1":
            print(f"pdnkit: {SKIP}=1: the replay core stays pure Python", file=sys.stderr)
            return
        self._tmp = Path(tempfile.mkdtemp(prefix="pdnkit-core-"))
        try:
            built = compile_core(root, self._tmp)
        except Exception as exc:  # no compiler, no headers, a failed compile: stay pure
            print(f"pdnkit: the compiled replay core was not built ({exc}); pdnkit will use "
                  "its pure-Python core", file=sys.stderr)
            return
        name = built.name
        if version == "editable":
            target = root / "pdnkit" / "core" / name
            shutil.copy2(built, target)
        else:
            build_data["force_include"][str(built)] = f"pdnkit/core/{name}"
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        tmp = getattr(self, "_tmp", None)
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
