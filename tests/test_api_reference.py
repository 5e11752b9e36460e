"""`sdk/API.md`, the API reference authors read (the compiled build keeps no docstrings), is generated from the
sources and kept current: a public name, signature or docstring changed without regenerating it fails here."""

from __future__ import annotations

from pathlib import Path

import boardweaver

from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[1]


def test_the_api_reference_is_generated_from_the_current_sources() -> None:
    script = load_script("api_reference")

    assert (ROOT / "sdk" / "API.md").read_text(encoding="utf-8") == script.generate(), (
        "sdk/API.md is out of date: run .venv/bin/python scripts/api_reference.py"
    )


def test_every_public_name_has_its_entry_and_the_docstrings_the_compiled_build_drops() -> None:
    text = (ROOT / "sdk" / "API.md").read_text(encoding="utf-8")

    for name in boardweaver.__all__:
        assert f"`{name}" in text and "### " in text, name
    assert "- `allow_undo() -> None`\n  Lets the seat take this decision back after committing it." in text
    assert "Attributes: `view`, the seat's view with the drafted Choice and Cancel steps applied" in text
    assert "## `boardweaver.testing`" in text and "assert_doctor_passes" in text


def test_regression_a_piece_looks_title_is_said_to_take_a_message_with_arguments() -> None:
    """Regression: the reference called a piece's "title" "a message key for a tooltip"; the tab also takes a message
    with arguments there and says it to a screen reader in place of the face (a trial author's card title named
    rank and suit from the guide, not from this reference)."""
    text = " ".join((ROOT / "sdk" / "API.md").read_text(encoding="utf-8").split())

    assert '"title" (a message key, or a message with arguments as for "says"' in text
    assert "which a screen reader says" in text and '"title" (a message key for a tooltip)' not in text
