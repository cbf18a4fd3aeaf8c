"""Every command's ``--help`` reads as wrapped prose at 80 columns: a docstring's line breaks
inside a paragraph are not kept (they cut lines mid-sentence: "a kill or a crash leaves /
every file ..."), while lists and examples keep theirs."""

from __future__ import annotations

import re

import click
import pytest
from typer.main import get_command
from typer.testing import CliRunner

from pdnkit.cli import app, reflow

ROOT_COMMAND = get_command(app)


def _commands(group: click.Command, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out = []
    for name, cmd in getattr(group, "commands", {}).items():
        out.append((*prefix, name))
        out += _commands(cmd, (*prefix, name))
    return out


COMMANDS = _commands(ROOT_COMMAND)


def _prose_lines(screen: str) -> list[list[str]]:
    """The paragraphs of the help text above the first panel (lists and indented lines out)."""
    head = screen.split("╭", 1)[0].splitlines()
    start = next(i for i, line in enumerate(head) if "Usage:" in line) + 1
    paragraphs: list[list[str]] = [[]]
    for line in head[start:]:
        text = line.strip()
        if not text:
            paragraphs.append([])
        elif re.match(r"[-*•]\s|\d+[.)]\s|>>>|pdnkit |\.venv", text) or line.startswith("   "):
            paragraphs.append([])  # a list item or an example: its breaks are the author's
        else:
            paragraphs[-1].append(text)
    return [p for p in paragraphs if len(p) > 1]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_help_paragraphs_fill_the_width(command: tuple[str, ...]) -> None:
    result = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    short = [line for p in _prose_lines(result.output) for line in p[:-1] if len(line) < 50]
    assert short == [], f"pdnkit {' '.join(command)} --help breaks lines mid-paragraph"


def test_reflow_keeps_lists_and_joins_prose() -> None:
    assert reflow("Head.\n\nOne\ntwo.\n\n- a\n- b") == "Head.\n\nOne two.\n\n- a\n- b"
    assert len(COMMANDS) > 30  # the walk sees the subcommands too (stats, report, lake ...)
