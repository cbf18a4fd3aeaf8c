"""CLI commands (placeholder module; commands register on `pdnkit.cli.app.app`)."""

from __future__ import annotations

from pdnkit.cli.app import app  # noqa: F401
