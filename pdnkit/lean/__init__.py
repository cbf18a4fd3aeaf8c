"""The command line's parts that need no argument parser: the errors every command turns
into one ``pdnkit: error:`` line, text made safe for a terminal, and ``validate``'s report
writer. :mod:`pdnkit.cli` (Typer) and the quick forms of :mod:`pdnkit.launch` share them, so
a quick form prints what its Typer command prints, byte for byte, without loading Typer,
click or rich (rich is loaded only where a terminal, or text it would change, needs it).
"""
