"""Every public docstring example in the package runs (``>>>`` lines are tests too)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import pdnkit

MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(pdnkit.__path__, prefix="pdnkit.")
    if not m.name.endswith("__main__")
)


def test_modules_were_found() -> None:
    assert "pdnkit.rules.position" in MODULES and "pdnkit.validation" in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"
