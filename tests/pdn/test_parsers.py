"""The recovery reads a broken game the same under Lark's parser and under lark-cython's
(the ``fast`` extra): lark-cython refuses Lark's own tokens and line counter calls, which
made every recovery a "cannot parse" syntax error. Skipped where lark-cython is not
installed."""

from __future__ import annotations

import pytest

from pdnkit.pdn import lalr
from pdnkit.pdn.reader import parse_game

BROKEN = [
    "1. 32-28 Whiteoverstepped. 19-23 *",  # unreadable text kept as a comment
    "1. 32-28 (19-23 *",  # an unclosed variation
    "1. 32-28 {open",  # an unclosed comment
    "1. 32-28 19-23\n2. 28x19 Foo 14x23 (18x29 *",  # both, over two lines
    '[Event "x"]\n1. 32-28 19-23 2-0 2. 33-29 *',  # text after the result
    "1. 32-28 ] 19-23 ) 2. 33-29 [Site \"x\"] *",  # stray brackets, a tag among moves
]


def _read(text: str, cython: bool) -> tuple[object, ...]:
    g = parse_game(text, _parser_obj=lalr.parser(cython))
    return (g.parsed, g.tags, [(m.text, m.line, m.column, m.comments_after) for m in g.moves],
            g.result, [(f.code, f.message, f.line, f.column) for f in g.findings])


@pytest.mark.parametrize("text", BROKEN)
def test_recovery_is_the_same_under_both_parsers(text: str) -> None:
    pytest.importorskip("lark_cython")
    plain = _read(text, False)
    assert plain[0] is True and not any("cannot parse" in f[1] for f in plain[4])  # type: ignore[attr-defined]
    assert _read(text, True) == plain


def test_lint_recovers_under_the_accelerator(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("lark_cython")
    from typer.testing import CliRunner

    from pdnkit.cli import app

    monkeypatch.delenv("PDNKIT_NO_CYTHON", raising=False)
    lalr.PARSERS.clear()
    try:
        r = CliRunner().invoke(app, ["lint", "-"], input="1. 32-28 Whiteoverstepped. 19-23 *\n")
    finally:
        lalr.PARSERS.clear()
    assert "cannot parse" not in r.output and "unreadable-text" in r.output
