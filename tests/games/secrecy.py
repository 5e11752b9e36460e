"""Shared checks for game tests: views keep every secret, catalogs cover every message, bot games end.

Use from any game's test module:

    from .secrecy import assert_catalogs_complete, assert_views_keep_secrets, play_checked

    played = play_checked(game, [0, 1, 2], seed=7)        # checks every view at every decision
    assert_catalogs_complete(game, played.messages)       # every key in every catalog, same placeholders
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from boardweaver import (
    CommitResult,
    Draft,
    Game,
    Intent,
    Message,
    Perspective,
    PlayerId,
    RandomBot,
    Table,
    canonical_json,
    start,
    state_to_wire,
    true_to_view,
    verify_commit,
)
from boardweaver.doctor.catalogs import check_catalogs
from boardweaver.testing import assert_no_hidden_kinds

SPECTATOR_SEAT = None


def _perspective(viewer: int | None) -> Perspective:
    return Perspective("spectator") if viewer is None else Perspective("seat", PlayerId(viewer))


def _owner(space_owner: PlayerId | None, piece_owner: PlayerId | None) -> PlayerId | None:
    return piece_owner if piece_owner is not None else space_owner


def assert_views_keep_secrets(game: Game, table: Table, viewers: Iterable[int | None] | None = None) -> None:
    """Asserts every seat's and the spectator's view of the full `table` holds no part it may not see.

    Checks, for each viewer: every hidden piece's view position has no private kind and no private state;
    other seats' and ownerless spaces' private state and other players' private state are absent; no
    string of the serialized view or of the log, nor any word of one ("5H 7C AC" names three cards), names a
    hidden private kind that is not also public somewhere (`boardweaver.testing.assert_no_hidden_kinds`); the
    view serializes to canonical JSON. `game` names the game in failures.
    """
    if table.is_view:
        raise ValueError("assert_views_keep_secrets needs the full table")
    seats: list[int | None] = [*table.state.player_ids, None] if viewers is None else list(viewers)
    for viewer in seats:
        where = f"{game.name}: view of {'spectator' if viewer is None else f'seat {viewer}'}"
        perspective = _perspective(viewer)
        view = table.view(viewer).state
        for space_id, space in table.state.spaces.items():
            seen = view.space(space_id)
            assert len(seen.pieces) == len(space.pieces), f"{where}: {space_id} piece count differs"
            if not perspective.sees(space.owner):
                assert seen.private_state == {}, f"{where}: private state of space {space_id} leaks"
            for index, piece in enumerate(space.pieces):
                if perspective.sees(_owner(space.owner, piece.owner)):
                    continue
                at = true_to_view(table.state, perspective, space_id, index)
                shown = seen.pieces[at]
                assert shown.private_kind is None, f"{where}: private kind of {space_id}[{index}] leaks"
                assert shown.private_state == {}, f"{where}: private state of {space_id}[{index}] leaks"
        for player in view.players:
            if viewer != player.player_id:
                assert player.private_state == {}, f"{where}: private state of player {player.player_id} leaks"
        canonical_json(state_to_wire(view))
        try:  # the view and the log (views carry none), matched as the SDK's own helper does: word by word
            assert_no_hidden_kinds(table, viewer)
        except AssertionError as error:
            raise AssertionError(f"{game.name}: {error}") from None


def assert_catalogs_complete(game: Game, messages: Iterable[Message], locales: int = 2) -> None:
    """Asserts every message key is in every catalog, whose placeholders all come from the message's args.

    Also asserts the game ships at least `locales` catalogs that the doctor's `check_catalogs` finds in
    agreement: the same keys and placeholder names, plural entries with their language's number of forms.
    """
    catalogs = type(game).catalogs()
    assert len(catalogs) >= locales, f"{game.name}: expected {locales} catalogs, got {sorted(catalogs)!r}"
    disagreements = [finding.detail for finding in check_catalogs(catalogs)]
    assert not disagreements, f"{game.name}: {disagreements!r}"
    for message in set(messages):
        for catalog in catalogs.values():
            assert catalog.has(message.key), f"{game.name}: {catalog.locale} lacks {message.key!r}"
            missing = catalog.placeholders(message.key) - set(message.args)
            assert not missing, f"{game.name}: {message.key!r} in {catalog.locale} needs args {sorted(missing)!r}"


def look_kinds(game: Game) -> dict[str, Any]:
    """Returns the look of every space and piece kind named in the game's `look` (a smoke check)."""
    looks: dict[str, Any] = {}
    for kind in game.look.get("spaces", {}):
        looks[f"space:{kind}"] = game.space_look(kind)
    for kind in game.look.get("pieces", {}):
        looks[f"piece:{kind}"] = game.piece_look(kind)
    return looks


@dataclass
class CheckedGame:
    """A bot game played to the end, its decisions, and every message (labels and log lines) seen."""

    table: Table
    decisions: list[CommitResult] = field(default_factory=list)
    messages: list[Message] = field(default_factory=list)


def play_checked(
    game: Game,
    players: list[int],
    seed: int | str,
    bot_seed: int | str = 0,
    check_secrets: bool = True,
    max_decisions: int = 10_000,
) -> CheckedGame:
    """Plays a whole game with a RandomBot on every seat, as `play_game` does, checking as it goes.

    Before every decision (and at the end) it runs `assert_views_keep_secrets` when `check_secrets`;
    it collects every offer label of the acting seat and every log line for `assert_catalogs_complete`.
    """
    table = start(game, players, seed)
    bots = {PlayerId(p): RandomBot(f"{bot_seed}/{p}") for p in players}
    played = CheckedGame(table)
    turn = 0
    while not table.state.is_over():
        assert len(played.decisions) < max_decisions, f"{game.name}: no end (seed {seed!r})"
        active = table.state.active_player_ids
        assert active, f"{game.name}: nobody is active but the game is not over (seed {seed!r})"
        if check_secrets:
            assert_views_keep_secrets(game, table)
        player = active[turn % len(active)]
        turn += 1
        draft = Draft(game, table.view(player), player)
        while draft.is_open:  # RandomBot.decide, step by step, collecting every label offered
            offers = draft.offers()
            played.messages.extend(o.label_message for o in offers if o.label_message is not None)
            choices = [o for o in offers if o.intent is not Intent.CANCEL]
            assert choices, f"{game.name}: seat {player} has an open decision with no Choice or Confirm"
            draft.take(bots[player].rng.choice(choices).action)
        played.decisions.append(verify_commit(game, table, player, draft.steps))
    if check_secrets:
        assert_views_keep_secrets(game, table)
    played.messages.extend(table.state.log)
    return played
