"""Build of pdnkit's compiled replay core, ``pdnkit.core._core`` (everything else about the
package is in pyproject.toml).

The extension is optional: where it cannot be compiled (no C compiler, no Python headers) the
install goes on without it and pdnkit runs its pure-Python core (``pdnkit.core.core_in_use()``
says which one runs). Wheels also carry ``grammars/pdn.lark`` as ``pdnkit/grammars/pdn.lark``
and ``data/`` as ``pdnkit/data`` (an editable install reads them from the repository).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
SRC = Path("pdnkit") / "core" / "src"
#: files outside the package that wheels carry inside it: (source, path in the package)
PACKAGE_FILES = (("grammars/pdn.lark", "grammars/pdn.lark"), ("data", "data"))


class BuildPy(build_py):
    """build_py that also copies :data:`PACKAGE_FILES` into the built package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads them where they are
        for source, target in PACKAGE_FILES:
            src, dst = ROOT / source, Path(self.build_lib) / "pdnkit" / target
            if src.is_dir():
                shutil.copytree(src, dst, dirs_exist_ok=True)
            elif src.exists():
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dst)


class BuildExt(build_ext):
    """build_ext with warnings on for gcc and clang (the core compiles without any)."""

    def build_extensions(self) -> None:
        if self.compiler.compiler_type == "unix":
            for ext in self.extensions:
                ext.extra_compile_args += ["-O2", "-Wall", "-Wextra"]
        super().build_extensions()


CORE = Extension(
    "pdnkit.core._core",
    sources=[str(SRC / name) for name in ("module.c", "movegen.c", "replay.c", "table.c")],
    depends=[str(SRC / name) for name in ("core.h", "replay.h")],
    optional=True,  # a failed compile leaves the pure-Python core
)

setup(ext_modules=[CORE], cmdclass={"build_py": BuildPy, "build_ext": BuildExt})
