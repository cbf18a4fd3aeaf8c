"""The command line's output layer: :mod:`pdnkit.lean.tables` (it needs no argument parser,
so the quick forms of :mod:`pdnkit.launch` write tables through it too)."""

from __future__ import annotations

from pdnkit.lean.tables import (
    FORMAT_ALIASES,
    FORMULA_START,
    SUFFIXES,
    TABLE_FORMATS,
    Output,
    Rows,
    Safe,
    ScreenStream,
    aligned_line,
    cell_text,
    check,
    emit,
    format_name,
    is_terminal,
    markup_safe,
    output,
    print_notes,
    print_safe,
    print_table,
    resolve_format,
    screen,
    screen_text,
    screen_width,
    show_table,
    spreadsheet_safe,
    terminal_safe,
)

__all__ = ["FORMAT_ALIASES", "FORMULA_START", "Output", "Rows", "SUFFIXES", "Safe", "ScreenStream", "TABLE_FORMATS", "aligned_line", "cell_text", "check", "emit", "format_name", "is_terminal", "markup_safe", "output", "print_notes", "print_safe", "print_table", "resolve_format", "screen", "screen_text", "screen_width", "show_table", "spreadsheet_safe", "terminal_safe"]
