"""The compiled ``misnumbered`` on the arguments at the edges of its range, checked against
the definition in Python's own integers (run in a subprocess by
``tests/core/test_sanitizers.py``, on a build with UndefinedBehaviorSanitizer).

``python misnumbered_driver.py EXTENSION_PATH``: prints ``misnumbered: N cases`` and exits 0;
a sanitizer report (a signed overflow) aborts the process, a wrong answer fails an assert.
"""

from __future__ import annotations

import importlib.util
import itertools
import struct
import sys

NUMBERED, BLACK_DOTS = 16, 32
BIG = (1 << 63) - 1  # the largest Py_ssize_t on a 64-bit host


def expected(flags: bytes, numbers: list[int], n: int, k: int, base: int, offset: int) -> int:
    """pdnkit.core.misnumbered's definition, in Python's integers (no overflow)."""
    for i in range(n):
        if flags[i] & NUMBERED:
            j = k + i + offset
            if numbers[i] != base + j // 2 or (flags[i] & BLACK_DOTS and not j % 2):
                return i
    return -1


def main() -> None:
    spec = importlib.util.spec_from_file_location("pdnkit.core._core", sys.argv[1])
    assert spec is not None and spec.loader is not None
    core = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(core)
    edges = [0, 1, 2, 3, BIG // 2, BIG // 2 + 1, BIG - 2, BIG - 1, BIG]
    bases = [0, 1, -1, 2**31 - 1, -(2**31), BIG, -BIG - 1, BIG - 5, -(2**62)]
    nums = [0, 1, 2**31 - 1, -(2**31), 7]
    cases = 0
    for k, offset, base in itertools.product(edges, edges, bases):
        for written in itertools.product(nums, repeat=2):
            for fl in ((NUMBERED, NUMBERED), (NUMBERED | BLACK_DOTS, NUMBERED), (0, NUMBERED)):
                flags = bytes(fl)
                packed = struct.pack("=2i", *written)
                got = core.misnumbered(flags, packed, 2, k, base, offset)
                assert got == expected(flags, list(written), 2, k, base, offset), \
                    (k, offset, base, written, fl, got)
                cases += 1
    print(f"misnumbered: {cases} cases")


if __name__ == "__main__":
    main()
