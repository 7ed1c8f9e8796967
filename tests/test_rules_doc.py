"""RULES.md (the rules the analyser implements) and the engine agree on the published figures it
quotes, so the document cannot drift from the code."""

import re
from pathlib import Path

from analyzer import Shoe, analyze

RULES = (Path(__file__).resolve().parent.parent / "RULES.md").read_text(encoding="utf-8")


def _number(label: str, text: str) -> int:
    match = re.search(label + r"\s+([\d,]+)", text)
    assert match, label
    return int(match.group(1).replace(",", ""))


def test_rules_md_counts_match_the_engine():
    for decks, part in ((8, RULES.split("For 8 decks:", 1)[1]), (6, RULES.split("For 6 decks:", 1)[1])):
        counts = analyze(Shoe.standard(decks)).outcome_counts
        for label in ("Banker", "Player", "Tie"):
            assert _number(label, part) == counts[label], (decks, label)


def test_rules_md_sheets_are_in_the_repository():
    sheets = Path(__file__).resolve().parent.parent / "docs" / "rule-sheets"
    for name in re.findall(r"\b(\d{3})_[0-9a-f]+\.txt", (sheets / "README.md").read_text()):
        assert list(sheets.glob(f"{name}_*.txt")), name
