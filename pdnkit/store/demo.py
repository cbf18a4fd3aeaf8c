"""``pdnkit.store.demo`` as a module path: re-exports :mod:`pdnkit.store.demodata`.

The module is also callable (``pdnkit.store.demo(out)`` runs :func:`demodata.demo`), so the
package attribute ``pdnkit.store.demo`` works as the public function even after this module
has been imported (Python sets a package's attribute to its submodule on import).

Example:
    >>> from pdnkit.store.demo import demo, sample_dir
    >>> callable(demo), sample_dir().name
    (True, 'data')
"""

from __future__ import annotations

import sys
import types
from typing import Any

from pdnkit.store.demodata import DEMO_DB, DemoResult, demo, sample_dir, sample_files

__all__ = ["DEMO_DB", "DemoResult", "demo", "sample_dir", "sample_files"]


class _CallableModule(types.ModuleType):
    """A module that runs :func:`demo` when called."""

    def __call__(self, *args: Any, **kwargs: Any) -> DemoResult:
        return demo(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
