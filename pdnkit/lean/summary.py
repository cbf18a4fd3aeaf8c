"""``pdnkit validate``'s counts and summary table (:class:`Summary`), apart from the report
writer so that the verdict on a clean file (:mod:`pdnkit.lean.verdict`) prints the summary
without loading the writer's modules (dataclasses, pathlib).
"""

from __future__ import annotations

from typing import Any

from pdnkit.lean.plaintext import plain_table

#: the columns of ``validate --format csv`` (a row a finding)
CSV_FIELDS = ["file", "index", "game_line", "variant", "white", "black", "result", "status",
              "code", "severity", "ply", "line", "move", "in_variation", "message", "details"]

class Summary:
    """Counts over a validation run: games, clean, with warnings, with errors, unparsed, and
    findings by code.

    Example:
        >>> s = Summary()
        >>> s.games, s.exit_code("error")
        (0, 0)
    """

    def __init__(self) -> None:
        self.games = 0
        self.plies = 0
        self.by_status: dict[str, int] = {"ok": 0, "warning": 0, "error": 0, "unparsed": 0}
        self.by_code: dict[tuple[str, str], int] = {}
        self.worst_rank = -1
        self.variants: dict[str, int] = {}
        self.guessed: dict[str, int] = {}
        #: findings about files rather than games (an empty file, a file that is not PDN)
        self.file_findings = 0

    def add(self, report: Any) -> None:
        """Count one :class:`~pdnkit.validation.GameReport` (a file-level one: its findings
        only, no game)."""
        if report.file_level:
            for f in report.findings:
                key = (f.code, f.severity.value)
                self.by_code[key] = self.by_code.get(key, 0) + 1
                self.worst_rank = max(self.worst_rank, f.severity.rank)
            self.file_findings += len(report.findings)
            return
        self.games += 1
        self.plies += report.replayed_plies
        self.by_status[report.status] = self.by_status.get(report.status, 0) + 1
        name = report.variant or "none"
        self.variants[name] = self.variants.get(name, 0) + 1
        if any(f.code == "variant-guessed" for f in report.findings):
            self.guessed[name] = self.guessed.get(name, 0) + 1
        for f in report.findings:
            key = (f.code, f.severity.value)
            self.by_code[key] = self.by_code.get(key, 0) + 1
            self.worst_rank = max(self.worst_rank, f.severity.rank)
        if report.status == "unparsed":
            self.worst_rank = max(self.worst_rank, 2)

    def exit_code(self, fail_on: str) -> int:
        """1 when a finding at or above ``fail_on`` exists (``never``: always 0)."""
        threshold = {"warning": 1, "error": 2}.get(fail_on)
        if threshold is None:
            return 0
        return 1 if self.worst_rank >= threshold else 0

    def rows(self, seconds: float) -> list[tuple[str, str]]:
        """The summary table's rows: what and how many."""
        rows = [("games", str(self.games)), ("clean", str(self.by_status.get("ok", 0))),
                ("with warnings", str(self.by_status.get("warning", 0))),
                ("with errors", str(self.by_status.get("error", 0))),
                ("unparsed", str(self.by_status.get("unparsed", 0))),
                ("plies replayed", str(self.plies))]
        if self.file_findings:
            rows.append(("file findings", f"{self.file_findings} (about files, not games)"))
        if self.variants:
            rows.append(("variants", counts_text(self.variants)))
        if self.guessed:
            rows.append(("variant guessed", counts_text(self.guessed)))
        rate = self.games / seconds if seconds > 0 else 0.0
        rows.append(("time", f"{seconds:.2f} s ({rate:,.0f} games/s)"))
        return rows

    def codes(self) -> list[tuple[str, str, str]]:
        """The findings-by-code rows (code, severity, count): errors first, then by count."""
        order = {"error": 0, "warning": 1, "info": 2}
        return [(code, sev, str(n)) for (code, sev), n in sorted(
            self.by_code.items(), key=lambda kv: (order.get(kv[0][1], 3), -kv[1], kv[0][0]))]

    def text(self, seconds: float, width: int) -> str | None:
        """The summary as :meth:`table` prints on a console ``width`` wide that is no
        terminal, without rich (``None``: rich must print it, :func:`plain_table`)."""
        first = plain_table("pdnkit validate", self.rows(seconds), right=[1], width=width)
        if first is None or not self.by_code:
            return first
        second = plain_table("findings by code", self.codes(), right=[2], width=width,
                             header=["code", "severity", "count"])
        return None if second is None else first + second

    def table(self, seconds: float) -> Any:
        """A rich renderable: the summary table and the findings by code."""
        from rich.console import Group
        from rich.table import Table

        t = Table(title="pdnkit validate", show_header=False, title_justify="left")
        t.add_column("what")
        t.add_column("count", justify="right")
        for what, count in self.rows(seconds):
            t.add_row(what, count)
        if not self.by_code:
            return t
        c = Table(title="findings by code", title_justify="left")
        c.add_column("code")
        c.add_column("severity")
        c.add_column("count", justify="right")
        for code, sev, n in self.codes():
            style = {"error": "red", "warning": "yellow"}.get(sev, "")
            c.add_row(code, f"[{style}]{sev}[/{style}]" if style else sev, n)
        return Group(t, c)


def counts_text(counts: dict[str, int]) -> str:
    """``"international 20, russian 3"``: names by count, most first."""
    return ", ".join(f"{k} {v}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1]))


__all__ = ["CSV_FIELDS", "Summary", "counts_text"]
