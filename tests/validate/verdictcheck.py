"""The check every verdict test makes: each game the verdict takes in a file is held to the
validator's report of it."""

from __future__ import annotations

import os
from pathlib import Path

from pdnkit.lean.verdict import game_verdicts
from pdnkit.validation import validate


def check_taken(path: Path) -> int:
    """Hold each game the verdict takes in ``path`` to the validator's report; the number
    taken."""
    verdicts = game_verdicts(str(path))
    if verdicts is None:
        return 0
    # (the validator's general path: its batch of clean games shares the verdict's judging)
    before = os.environ.get("PDNKIT_BATCH")
    os.environ["PDNKIT_BATCH"] = "0"
    try:
        reports = [r for r in validate(str(path), light=True) if not r.file_level]
    finally:
        if before is None:
            del os.environ["PDNKIT_BATCH"]
        else:
            os.environ["PDNKIT_BATCH"] = before
    assert len(reports) == len(verdicts), path
    for rep, got in zip(reports, verdicts, strict=True):
        if got is None:
            continue
        plies, name, codes = got
        assert (rep.status, rep.replayed_plies, rep.variant) == ("ok", plies, name), (
            path, rep.index, rep.findings)
        assert [f.code for f in rep.findings] == codes, (path, rep.index)
    return sum(v is not None for v in verdicts)
