"""A seeded fuzz corpus through a given build of the compiled core (run in a subprocess by
``tests/core/test_sanitizers.py`` under AddressSanitizer and UBSan).

``python fuzz_driver.py EXTENSION_PATH SEED ROUNDS``: loads the extension at that path as
``pdnkit.core._core`` and runs, seeded: the games of the project's ``data/`` samples (and
``../shared/data/real`` when present) as move texts and movetext, random legal games and the
same games spoiled, random text, random placements (legal moves, perft, the tactical search),
hostile states, and tables with one word changed. Each replay of the compiled core is compared with the pure
one. Prints ``fuzz: N cases`` and exits 0; a sanitizer report aborts the process.
"""

from __future__ import annotations

import contextlib
import importlib.util
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_extension(path: str) -> None:
    spec = importlib.util.spec_from_file_location("pdnkit.core._core", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules["pdnkit.core._core"] = module


def main() -> None:
    load_extension(sys.argv[1])
    seed, rounds = int(sys.argv[2]), int(sys.argv[3])
    sys.path.insert(0, str(ROOT))
    from pdnkit.core import compiled

    assert compiled.ERROR is None, compiled.ERROR
    rng = random.Random(seed)
    cases = 0
    for fn in (games, random_games, random_text, placements, states, tables):
        cases += fn(rng, rounds)
    print(f"fuzz: {cases} cases")


def _same(rules, start, moves) -> None:  # type: ignore[no-untyped-def]
    from pdnkit.core import compiled, pure

    a = compiled.replay(rules, start, moves, 0)
    b = pure.replay(rules, start, moves, 0)
    assert a == b, (rules.name, moves if isinstance(moves, str) else moves[:20])


def games(rng: random.Random, rounds: int) -> int:
    from pdnkit.core import compiled
    from pdnkit.pdn import read_games
    from pdnkit.rules import Position, get_rules
    from pdnkit.validation.resolve import resolve_rules

    files = sorted((ROOT / "data").glob("*.pdn"))
    real = ROOT.parent / "shared" / "data" / "real"
    if real.is_dir():
        files += sorted(real.rglob("*.pdn"))
    n = 0
    for path in files:
        for rec in read_games(path):
            rules = resolve_rules(rec).rules or get_rules("international")
            texts = [m.text for m in rec.moves]
            start = Position.initial(rules)
            compiled.replay(rules, start, texts, 0)
            compiled.replay(rules, start, rec.raw, 0)
            n += 2
            if rng.random() < 0.05:
                _same(rules, start, texts)
    return n


def random_games(rng: random.Random, rounds: int) -> int:
    from pdnkit.core import compiled
    from pdnkit.rules import Position, list_variants
    from pdnkit.rules.notation import canonical_notation

    n = 0
    for _ in range(rounds):
        rules = rng.choice(list_variants())
        pos = start = Position.initial(rules)
        texts = []
        for _ply in range(rng.randrange(1, 120)):
            legal = pos.legal_moves()
            if not legal:
                break
            m = rng.choice(legal)
            texts.append(canonical_notation(m, pos, legal))
            pos = pos.play(m)
        if texts and rng.random() < 0.7:
            k = rng.randrange(len(texts))
            texts[k] = rng.choice([texts[k][::-1], "99x1", texts[k] + "x", "1-1", texts[0]])
        compiled.replay(rules, start, texts, 0)
        compiled.replay(rules, start, " ".join(texts), rng.randrange(3))
        n += 2
        if rng.random() < 0.1:
            _same(rules, start, texts)
    return n


ALPHABET = "0123456789-x:X. {}()$!?*abcdefghijklmKW/\n\t%;\u2013\u2212\u00bd\x00"


def random_text(rng: random.Random, rounds: int) -> int:
    from pdnkit.core import compiled
    from pdnkit.rules import Position, list_variants

    for _ in range(rounds):
        rules = rng.choice(list_variants())
        text = "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(200)))
        start = Position.initial(rules)
        compiled.replay(rules, start, text, rng.randrange(4))
        compiled.replay(rules, start, text.split(), 0)
        if rng.random() < 0.2:
            _same(rules, start, text)
    return 2 * rounds


def placements(rng: random.Random, rounds: int) -> int:
    from pdnkit.core import compiled, state_of
    from pdnkit.rules import Position, list_variants

    for _ in range(rounds):
        rules = rng.choice(list_variants())
        n = rules.geometry.num_squares
        sets: list[list[int]] = [[], [], [], []]
        for sq in range(1, n + 1):
            if rng.random() < 0.45:
                sets[rng.randrange(4)].append(sq)
        pos = Position.from_squares(rules, rng.choice("WB"), *sets)
        moves = compiled.legal_moves(pos, rng.random() < 0.5)
        compiled.perft(pos, rng.randrange(1, 3), rng.choice([False, True, "order"]))
        compiled.has_capture(rules, state_of(pos))
        compiled.tactics(pos, rng.randrange(1, 4), rng.choice([150, 300]), rng.random() < 0.2,
                         rng.choice([1, 50, 5000]))
        if moves:
            m = rng.choice(moves)
            compiled.replay(rules, pos, ["x".join(map(str, m.path)), f"{m.origin}-{m.destination}"], 0)
    return rounds


def states(rng: random.Random, rounds: int) -> int:
    from pdnkit.core import CoreError, State, compiled
    from pdnkit.rules import list_variants

    for _ in range(rounds):
        rules = rng.choice(list_variants())
        boards = [rng.choice([0, 1, -1, 1 << rng.randrange(200), rng.getrandbits(80)])
                  for _ in range(4)]
        km = rng.choice([None, ((rng.randrange(-2, 80), rng.randrange(-2, 9)), (0, 0))])
        with contextlib.suppress(CoreError):
            compiled.replay(rules, State(rng.random() < 0.5, *boards, km), "32-28 19-23", 0)
    return rounds


def tables(rng: random.Random, rounds: int) -> int:
    from pdnkit.core import compiled, state_of
    from pdnkit.core.pack import pack_table
    from pdnkit.rules import Position, list_variants

    ext = compiled._core
    for _ in range(rounds):
        rules = rng.choice(list_variants())
        blob = pack_table(rules)
        assert blob is not None
        for _k in range(rng.randrange(1, 4)):
            blob[rng.randrange(len(blob))] = rng.choice([-5, -2, -1, 0, 1, 2, 3, 8, 31, 32, 63,
                                                         64, 127, 128, 1000, 2**31 - 1])
        try:
            table = ext.table(blob.tobytes())
        except ValueError:
            continue
        state = tuple(state_of(Position.initial(rules)))
        try:
            ext.replay(table, state, "1. 32-28 19-23 2. 28x19 14x23 c3-d4 22:13", 0)
            ext.perft(table, state, 3, rng.randrange(3))
            ext.legal_moves(table, state, rng.randrange(3))
            ext.tactics(table, state, rng.randrange(1, 4), 300, rng.randrange(2), 3000)
        except ValueError:  # a state the changed table does not hold
            pass
    return rounds


if __name__ == "__main__":
    main()
