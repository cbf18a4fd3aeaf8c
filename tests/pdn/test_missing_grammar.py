"""A missing grammar is a fault of the install, not of the games: reading raises
:class:`pdnkit.errors.MissingFileError` instead of reporting every game the parser reads as
a reading failure (a tree without ``grammars/pdn.lark`` once read whole files of set-up games
as one unread record each)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

#: the games: one the compiled lane and the fast lane read, one only Lark's parser reads
GAMES = {
    "plain": '[GameType "20"]\n\n1. 32-28 19-23 *\n',
    "variation": '[GameType "20"]\n\n1. 32-28 (1. 33-28 18-22) 19-23 *\n',
    "set-up": '[GameType "21"]\n[FEN "W:W21,22:B9,10"] *\n',
}

SCRIPT = textwrap.dedent("""
    import sys, tempfile
    from pathlib import Path
    from pdnkit.pdn import grammar, lalr
    from pdnkit.pdn.reader import parse_game
    from pdnkit.errors import MissingFileError
    text = sys.argv[1]
    grammar._PKG_DIR = Path(tempfile.mkdtemp()) / "pdnkit"   # no grammars/ beside it
    grammar.grammar_text.cache_clear()
    lalr.PARSERS.clear()
    try:
        rec = parse_game(text)
    except MissingFileError as exc:
        print("raised", exc)
    else:
        print("read", rec.parsed, [f.code for f in rec.findings])
""")


def _read_without_grammar(text: str) -> str:
    res = subprocess.run([sys.executable, "-c", SCRIPT, text], capture_output=True, text=True,
                         env={"PATH": "", "PDNKIT_PURE": "1", "PDNKIT_CACHE_DIR": ""})
    assert res.returncode == 0, res.stderr
    return res.stdout.strip()


def test_games_the_parser_reads_raise_when_the_grammar_is_missing() -> None:
    for name in ("variation", "set-up"):
        out = _read_without_grammar(GAMES[name])
        assert out.startswith("raised") and "pdn.lark" in out, (name, out)
        assert "internal-error" not in out


def test_the_grammar_is_found_when_installed() -> None:
    from pdnkit.pdn.reader import parse_game

    for name, text in GAMES.items():
        rec = parse_game(text)
        assert rec.parsed, name
        assert "internal-error" not in [f.code for f in rec.findings], name
