"""Bad data never raises: mutated real games always give reports (problems become findings)."""

from __future__ import annotations

import random
import re

from pdnkit.pdn import read_games
from pdnkit.validation import validate
from tests.shared import shared_path


def test_mutated_games_never_raise() -> None:
    rng = random.Random(7)
    sources: list[str] = []
    for parts in (("bench", "intl_2000.pdn"), ("real", "russian", "abatsiev.pdn"),
                  ("real", "english", "OCA_2.0.pdn"), ("real", "frisian",
                                                       "random_pdns.derived.pdn")):
        sources += [g.raw for g in read_games(shared_path(*parts))][:40]

    def digits(t: str) -> str:
        return re.sub(r"\d", lambda m: str(rng.randint(0, 9)) if rng.random() < 0.03
                      else m.group(), t)

    ops = [
        digits,
        lambda t: t.replace("-", "x", rng.randint(1, 3)),
        lambda t: re.sub(r"\b\d{1,3}\.", "", t),
        lambda t: t.replace('[GameType "20"]', '[GameType "{}"]'.format(rng.choice(
            ["25", "21", "22", "40", "98", "20,B,8,8,A0,0", "x"]))),
        lambda t: t + f' /FEN "W:W{rng.randint(1, 60)}:B{rng.randint(1, 60)}"/ 1. 28x19',
        lambda t: t.replace("{", "(", 1),
    ]
    n = 0
    for _ in range(300):
        text = rng.choice(sources)
        for _ in range(rng.randint(1, 3)):
            text = rng.choice(ops)(text)
        for rep in validate(text, variant=rng.choice([None, "international", "russian"])):
            assert rep.status in ("ok", "warning", "error", "unparsed")
            rep.to_dict()
            for p in rep.plies:
                p.to_dict()
            n += 1
    assert n >= 300
