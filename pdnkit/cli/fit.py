"""Fitting a text table to the terminal: :mod:`pdnkit.lean.fit`."""

from __future__ import annotations

from pdnkit.lean.fit import (
    fit_table,
    header_parts,
    header_text,
    plan_widths,
)

__all__ = ["fit_table", "header_parts", "header_text", "plan_widths"]
