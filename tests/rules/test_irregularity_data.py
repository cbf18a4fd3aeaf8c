"""The per-variant irregularity rule (RULES.md 2.0 "Irregularities"): rules data the
validator reads to decide whether an illegal move that was played stands or is recalled."""

from __future__ import annotations

import pytest

from pdnkit.rules import get_rules, list_variants

VALUES = {"stands-when-opponent-plays-on", "recalled"}


@pytest.mark.parametrize("rules", list_variants(), ids=lambda r: f"{r.name}-{r.edition}")
def test_every_variant_says_what_happens_and_why(rules: object) -> None:
    assert rules.irregularity in VALUES  # type: ignore[attr-defined]
    assert rules.irregularity_article.strip()  # type: ignore[attr-defined]
    row = rules.describe()  # type: ignore[attr-defined]
    assert row["irregularity"] == rules.irregularity  # type: ignore[attr-defined]


@pytest.mark.parametrize(("name", "article"), [
    ("international", "FMJD 5.4, 5.7"),
    ("frisian", "Frisian art. 27"),
    ("czech", "Czech"),
    ("italian", "FID"),
])
def test_the_rulebooks_that_let_it_stand(name: str, article: str) -> None:
    r = get_rules(name)
    assert r.irregularity == "stands-when-opponent-plays-on"
    assert r.irregularity_article.startswith(article)


@pytest.mark.parametrize("edition", ["eda-1991", "wcdf"])
def test_english_recalls_the_move(edition: str) -> None:
    r = get_rules("english", edition=edition)
    assert r.irregularity == "recalled" and "EDA rule 19" in r.irregularity_article


def test_silent_rulebooks_are_marked_as_assumptions() -> None:
    # where RULES.md says nothing the majority treatment is assumed, and the article says so
    for name in ("russian", "brazilian", "pool", "spanish", "thai", "turkish", "breakthrough"):
        assert "[U]" in get_rules(name).irregularity_article, name
