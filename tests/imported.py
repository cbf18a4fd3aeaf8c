"""What a ``pdnkit`` command imports: the command run in a fresh interpreter as the console
script runs it, and the modules asked about that were imported by the time it ended."""

from __future__ import annotations

import subprocess
import sys


def modules_after(args: list[str], names: tuple[str, ...]) -> list[str]:
    """Which of ``names`` are imported by the time ``pdnkit ARGS`` ends."""
    code = ("import sys; sys.argv = ['/x/pdnkit/__main__.py', *sys.argv[1:]]\n"
            "import pdnkit.launch\n"
            "try:\n    pdnkit.launch.main()\n"
            "except SystemExit:\n    pass\n"
            f"print(sorted(m for m in {names!r} if m in sys.modules))\n")
    res = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                         timeout=120)
    assert res.stdout.strip(), res.stderr
    return eval(res.stdout.splitlines()[-1])  # type: ignore[no-any-return]
