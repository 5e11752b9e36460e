"""The shared checks catch what they promise to catch (a check that never fails proves nothing)."""

from __future__ import annotations

import pytest
from boardweaver import Message, msg, start
from boardweaver.testing import hidden_kinds
from boardweaver_games.old_maid import OldMaid
from boardweaver_games.old_maid.rules import MAID, hand_id

from .secrecy import assert_catalogs_complete, assert_views_keep_secrets


def test_a_fresh_table_keeps_its_secrets() -> None:
    game = OldMaid()
    table = start(game, [0, 1, 2], seed=1)

    assert_views_keep_secrets(game, table)

    assert MAID in hidden_kinds(table, None)


def test_a_log_line_naming_a_hidden_card_is_caught() -> None:
    game = OldMaid()
    table = start(game, [0, 1, 2], seed=1)

    table.log(msg("log.leak", card=MAID))

    with pytest.raises(AssertionError, match="hidden kinds"):
        assert_views_keep_secrets(game, table)


def test_a_hidden_card_named_among_other_words_of_a_log_line_is_caught() -> None:
    """Regression: the check matched whole strings only, so a log argument listing cards, "5H 7C AC", passed."""
    game = OldMaid()
    table = start(game, [0, 1, 2], seed=1)

    table.log(msg("log.leak", cards=f"7C {MAID}, AC"))

    with pytest.raises(AssertionError, match=rf"^old-maid: .*names hidden kinds \['{MAID}'\]: .*args\.cards"):
        assert_views_keep_secrets(game, table)


def test_a_hidden_card_copied_into_public_state_is_caught() -> None:
    game = OldMaid()
    table = start(game, [0, 1, 2], seed=1)
    holder = next(p for p in (0, 1, 2) if any(c.private_kind == MAID for c in table.state.space(hand_id(p)).pieces))

    table.state.space(hand_id(holder)).public_state["first"] = MAID

    with pytest.raises(AssertionError, match="hidden kinds"):
        assert_views_keep_secrets(game, table)


def test_a_catalog_missing_a_key_or_a_placeholder_is_caught() -> None:
    game = OldMaid()

    with pytest.raises(AssertionError, match="lacks"):
        assert_catalogs_complete(game, [Message("log.no-such-key")])
    with pytest.raises(AssertionError, match="needs args"):
        assert_catalogs_complete(game, [Message("log.took", {"player": 1})])
