"""games/README.md's index ("Where to find it") names the doctor's checks as the doctor numbers them.

Regression: the index said "the six checks" of a doctor that runs checks 0 to 8.
"""

from __future__ import annotations

import re
from pathlib import Path

from boardweaver.doctor.report import CHECKS

GUIDE = Path(__file__).resolve().parents[1] / "games" / "README.md"


def test_the_guides_index_counts_the_doctors_checks_as_its_report_numbers_them() -> None:
    index = GUIDE.read_text(encoding="utf-8").split("## 1. ", 1)[0]
    entry = index.split("\n8. `boardweaver check`", 1)[1].split("\n9. ", 1)[0]

    assert f"(0 to {max(CHECKS)})" in entry and min(CHECKS) == 0, entry
    assert not re.search(r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten) checks\b", entry), entry
