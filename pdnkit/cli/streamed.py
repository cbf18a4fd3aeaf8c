"""Results written as they are read: :mod:`pdnkit.lean.streamed` (shared with the quick forms
of :mod:`pdnkit.launch`)."""

from __future__ import annotations

from pdnkit.lean.streamed import (
    Batches,
    emit_stream,
    reader_gone,
)

__all__ = ["Batches", "emit_stream", "reader_gone"]
