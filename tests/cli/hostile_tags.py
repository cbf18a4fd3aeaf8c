"""Hand-written games whose tags attack what reads pdnkit's outputs: spreadsheet formulas
(CSV injection), terminal control sequences (ESC, OSC, BEL, C1 CSI, bidi overrides), and
the harmless look-alikes that must stay as they are (numbers, text)."""

from __future__ import annotations

from pathlib import Path

from tests.cli.helpers import cli

#: a formula that runs a program in a spreadsheet that trusts the file (OWASP's example)
FORMULA = "=cmd|' /C calc'!A0"
#: an OSC that sets the terminal's title, a BEL, an SGR colour, a C1 CSI and a bidi override
TERMINAL = "Ann\x1b]0;PWNED\x07\x1b[31mRED\x9b31m\u202eBIDI"
#: what the terminal sequences above look like in raw output (any one of them is a leak)
LEAKS = (b"\x1b]0;PWNED", b"\x07", b"\x1b[31mRED", "\x9b".encode(), "\u202e".encode())

GAMES = (
    f'[Event "{FORMULA}"]\n[White "{TERMINAL}"]\n[Black "@SUM(1+1)"]\n[Site "-2+3"]\n'
    '[Round "+1"]\n[Date "2020.05.01"]\n[Result "2-0"]\n[GameType "20"]\n\n'
    "1. 32-28 19-23 {comment \x1b]0;PWNED\x07} 2. 28x19 14x23 2-0\n\n"
    '[Event "Plain"]\n[White "-5"]\n[Black "Bob"]\n[Site "+1.5e3"]\n[Round "-"]\n'
    '[Date "2020.05.02"]\n[Result "0-2"]\n[GameType "20"]\n\n1. 33-29 19-24 0-2\n'
)


def hostile_db(folder: Path) -> tuple[Path, Path]:
    """The PDN file of :data:`GAMES` and its database, in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    src = folder / "hostile.pdn"
    src.write_text(GAMES, encoding="utf-8")
    db = folder / "hostile.duckdb"
    code, _, err = cli("import", src, "--db", db, "--quiet")
    assert code in (0, 1), err
    return src, db
