"""The SDK's incremental views: after every decision each perspective's view equals a fresh projection, and
the patch it is sent turns the view it held into the new one (every example game, every perspective)."""

from __future__ import annotations

import copy
import random
from importlib.metadata import entry_points
from typing import Any

import pytest
from boardweaver import (
    FULL,
    REFEREE,
    SPECTATOR,
    Action,
    Game,
    Perspective,
    Piece,
    PlayerId,
    RandomBot,
    Space,
    StateOf,
    Table,
    canonical_json,
    msg,
    start,
    state_to_wire,
    verify_commit,
)
from boardweaver.frozen import (
    FrozenList,
    FrozenMap,
    FrozenPiece,
    FrozenPlayer,
    FrozenSpace,
    FrozenState,
    ReadOnlyError,
)
from boardweaver.model import TableState
from boardweaver.patch import apply, diff
from boardweaver.view import project_state
from boardweaver.views import Views

from .fixtures_show import Spies

MAX_DECISIONS = 120


def load_games() -> dict[str, type[Game]]:
    """Returns every installed `boardweaver.games` entry point that imports (the example games)."""
    games: dict[str, type[Game]] = {}
    for entry in entry_points(group="boardweaver.games"):
        try:
            games[entry.name] = entry.load()
        except Exception:  # a game under construction elsewhere
            continue
    return games


def assert_read_only(view: TableState, full: TableState) -> None:
    """Checks that every part of a view handed to game code is read-only (its result a copy of its own)."""
    assert type(view) is FrozenState
    assert view.result is None or view.result is not full.result
    seen: list[Any] = [view.players, view.spaces, view.active_player_ids, view.meta_data, view.log]
    while seen:
        part = seen.pop()
        if isinstance(part, dict):
            assert type(part) is FrozenMap, part
            seen.extend(part.values())
        elif isinstance(part, list):
            assert type(part) is FrozenList, part
            seen.extend(part)
        elif isinstance(part, Space):
            assert type(part) is FrozenSpace, part
            seen += (part.pieces, part.public_state, part.private_state)
        elif isinstance(part, Piece):
            assert type(part) is FrozenPiece, part
            seen += (part.public_state, part.private_state)
        elif hasattr(part, "player_id"):
            assert type(part) is FrozenPlayer, part
            seen += (part.public_state, part.private_state)
        else:
            assert part is None or isinstance(part, (bool, int, float, str)), part


@pytest.mark.parametrize("name", sorted(load_games()))
def test_cached_views_and_patches_match_a_fresh_projection(name: str) -> None:
    _check_game(load_games()[name], name)


@pytest.mark.parametrize("seed", range(4))
def test_cached_views_and_patches_match_a_fresh_projection_in_a_game_of_looks(seed: int) -> None:
    _check_game(Spies, f"{Spies.name}-{seed}")


def _check_game(cls: type[Game], name: str) -> None:
    game = cls({})
    players = list(range(max(cls.min_players, min(cls.max_players, 3))))
    table = start(game, players, seed=f"views-{name}")
    views = Views(table)
    perspectives = [Perspective("seat", PlayerId(p)) for p in players] + [SPECTATOR, REFEREE]
    held = {p: copy.deepcopy(views.snapshot(p)) for p in perspectives}
    bots = {p: RandomBot(f"{name}/{p}") for p in players}
    turn = 0
    for _ in range(MAX_DECISIONS):
        if table.state.is_over():
            break
        active = table.state.active_player_ids
        seat = active[turn % len(active)]
        turn += 1
        steps = bots[seat].decide(game, table.view(seat), seat)
        result = verify_commit(game, table, seat, steps, views=views)
        patches = views.patches(result.changes)
        for perspective in perspectives:
            reference = project_state(table.state, perspective)
            fresh = state_to_wire(reference)
            assert canonical_json(views.build(perspective)) == canonical_json(fresh), (name, perspective)
            given = views.table_view(perspective)
            assert state_to_wire(given.state) == fresh, (name, perspective)
            assert (given.state.players, given.state.spaces) == (reference.players, reference.spaces)  # hidden marks
            assert_read_only(given.state, table.state)
            held[perspective] = apply(held[perspective], patches[perspective])
            assert held[perspective] == fresh, (name, perspective)


# -- random decisions on a table with every kind of space --------------------------------------------

PERSPECTIVES = [Perspective("seat", PlayerId(p)) for p in range(3)] + [SPECTATOR, REFEREE, FULL]


def _table(seed: int) -> Table:
    """A table with ordered and collection spaces, owned or not, whose pieces have every kind of part."""
    rng = random.Random(seed)
    table = Table.new([0, 1, 2], seed=seed)
    owners: list[int | None] = [None, None, 0, 1, 2]
    for number, (collection, owner) in enumerate([(c, o) for c in (False, True) for o in owners]):
        space = Space(f"s{number}", "collection" if collection else "ordered").owned_by(owner)
        if collection:
            space.collection()
        space.with_state({"n": number} if number % 3 == 0 else None, {"secret": number} if number % 2 else None)
        table.add_space(space.with_pieces([_piece(rng) for _ in range(rng.randrange(6))]))
    table.take_changes()
    return table


def _piece(rng: random.Random) -> Piece:
    piece = Piece(rng.choice(["back", "back", "token"]), rng.choice([None, "c1", "c2", "c3"]))
    piece.owned_by(rng.choice([None, None, None, 0, 1, 2]))
    return piece.with_state(rng.choice([None, {"up": True}]), rng.choice([None, {"mark": rng.randrange(9)}]))


def _decide(table: Table, rng: random.Random, shows: bool = False) -> None:
    """Makes a few random changes, as a decision would: moves, adds, removes, kinds and states set, and
    (with `shows`) pieces shown to seats and hidden again."""
    spaces = list(table.state.spaces.values())
    for _ in range(rng.randrange(1, 7)):
        full = [space for space in spaces if space.pieces]
        action = rng.randrange(12 if shows else 9)
        if action >= 9 and full:
            source = rng.choice(full)
            index = rng.randrange(len(source.pieces))
            if action <= 10:
                table.show(source.space_id, index, to=rng.randrange(3))
            else:
                table.unshow(source.space_id, index, rng.choice([None, 0, 1, 2]))
            continue
        if action == 0 and full:  # a reshuffle: one space emptied into another, the pieces made anew
            source, target = rng.choice(full), rng.choice(spaces)
            kinds = [piece.private_kind or "c0" for piece in source.pieces]
            for index in range(len(source.pieces) - 1, -1, -1):
                table.remove_piece(source.space_id, index)
            for kind in kinds:
                table.add_piece(target.space_id, Piece("back").hiding(kind))
        elif action <= 2 and full:
            source, target = rng.choice(full), rng.choice(spaces)
            index = rng.randrange(len(source.pieces))
            at = None if rng.random() < 0.5 else rng.randrange(len(target.pieces) + (source is not target))
            table.move_piece(source.space_id, index, target.space_id, at)
        elif action == 3:
            target = rng.choice(spaces)
            table.add_piece(target.space_id, _piece(rng), rng.choice([None, 0]) if target.pieces else None)
        elif action == 4 and full:
            source = rng.choice(full)
            table.remove_piece(source.space_id, rng.randrange(len(source.pieces)))
        elif action == 5 and full:
            source = rng.choice(full)
            index = rng.randrange(len(source.pieces))
            if rng.random() < 0.5:
                table.set_public_kind(source.space_id, index, rng.choice(["back", "token", "c1"]))
            else:
                table.set_private_kind(source.space_id, index, rng.choice([None, "c2", "c9"]))
        elif action == 6 and full:
            source = rng.choice(full)
            index = rng.randrange(len(source.pieces))
            make = rng.choice([StateOf.piece_public, StateOf.piece_private])
            table.set(make(source.space_id, index), "mark", rng.choice([None, 1, 2]))
        elif action == 7:
            space = rng.choice(spaces)
            make = rng.choice([StateOf.space_public, StateOf.space_private])
            table.set(make(space.space_id), "n", rng.choice([None, 5, 6]))
        else:
            player = rng.randrange(3)
            target = rng.choice([StateOf.player_public(player), StateOf.player_private(player), StateOf.meta()])
            table.set(target, "v", rng.choice([None, 1, 2]))
            table.set_active_players([rng.randrange(3)])


def _values(op: list[Any]) -> list[Any]:
    """Returns the values an op carries: that of a `set` or `fill`, the items of an `append` or `splice`."""
    name = op[0]
    if name in ("append", "splice"):
        return list(op[-1])
    return op[-1:] if name in ("set", "fill") else []


@pytest.mark.parametrize("seed", range(12))
def test_random_decisions_on_hidden_collections_patch_every_perspective_exactly(seed: int) -> None:
    _check_random_decisions(seed, shows=False)


@pytest.mark.parametrize("seed", range(12))
def test_random_decisions_with_shown_pieces_patch_every_perspective_exactly(seed: int) -> None:
    _check_random_decisions(seed, shows=True)


def _check_random_decisions(seed: int, shows: bool) -> None:
    rng = random.Random(seed)
    table = _table(seed)
    views = Views(table)
    held = {p: copy.deepcopy(views.snapshot(p)) for p in PERSPECTIVES[:4]}

    for decision in range(60):
        if decision == 20:  # the referee and the full state join, seat 2 leaves
            held.update({p: copy.deepcopy(views.snapshot(p)) for p in (REFEREE, FULL)})
            views.forget(PERSPECTIVES[2])
            del held[PERSPECTIVES[2]]
        if decision == 40:
            table.add_space(Space("late", "collection").collection().owned_by(1).with_pieces([_piece(rng)]))
        _decide(table, rng, shows)
        patches = views.patches(table.take_changes())

        assert set(patches) == set(held)
        for perspective, patch in patches.items():
            fresh = state_to_wire(table.view(perspective).state)
            held[perspective] = apply(held[perspective], patch)
            assert held[perspective] == fresh, (seed, decision, perspective)
            assert views.build(perspective) == fresh
            given = views.table_view(perspective)
            assert state_to_wire(given.state) == fresh
            reference = project_state(table.state, perspective)
            assert (given.state.players, given.state.spaces) == (reference.players, reference.spaces)
            assert_read_only(given.state, table.state)
            again = state_to_wire(project_state(project_state(table.state, perspective), perspective))
            assert again == fresh, "a view projected again is the view: its hidden pieces stay hidden"
            text = canonical_json(fresh)
            for op in patch:  # every value sent is part of the new view: no hidden part, no hidden order
                assert all(canonical_json(value) in text for value in _values(op)), (seed, decision, op)
            if perspective.kind in ("seat", "spectator"):  # a view names no other seat's look
                mine = [] if perspective.seat is None else [perspective.seat]
                assert all(
                    piece.get("shown_to", mine) == mine for space in fresh["spaces"] for piece in space["pieces"]
                ), (seed, decision, perspective)


def test_perspectives_that_see_a_decision_alike_share_one_patch_and_the_deck_is_not_projected_again() -> None:
    game = load_games()["draw-discard"]({})
    table = start(game, [0, 1, 2, 3], seed="shared")
    views = Views(table)
    perspectives = [Perspective("seat", PlayerId(p)) for p in range(4)] + [SPECTATOR, REFEREE]
    before = {p: views.snapshot(p) for p in perspectives}
    deck = before[SPECTATOR]["spaces"][0]["pieces"]

    result = verify_commit(game, table, 0, [Action.command("play", index=0)])
    patches = views.patches(result.changes)

    waiting = [patches[p] for p in perspectives[1:5]]
    assert all(patch is waiting[0] for patch in waiting[1:])  # seats 1-3, spectator: one list
    assert patches[REFEREE] == patches[perspectives[0]] != waiting[0]  # the referee sees hand 0 as seat 0 does
    assert ["trunc", ["spaces", 0, "pieces"], len(deck) - 1] in waiting[0]
    after = views.build(SPECTATOR)["spaces"][0]["pieces"]
    assert all(new is old for new, old in zip(after, deck, strict=False))  # the deck's pieces kept, not projected


def test_a_perspective_whose_parts_were_invalidated_gets_no_patch_so_the_room_sends_a_snapshot() -> None:
    game = load_games()["draw-discard"]({})
    table = start(game, [0, 1, 2, 3], seed="invalidated")
    views = Views(table)
    for p in range(4):
        views.snapshot(Perspective("seat", PlayerId(p)))
    first = verify_commit(game, table, 0, [Action.command("play", index=0)])
    views.invalidate(first.changes)  # e.g. the room undid a decision and could not store the undo

    second = verify_commit(game, table, 1, [Action.command("play", index=0)])
    patches = views.patches(second.changes)

    assert patches == {}  # every seat held the hands and the pile the invalidation dropped
    for p in range(4):
        perspective = Perspective("seat", PlayerId(p))
        assert views.snapshot(perspective) == state_to_wire(table.view(perspective).state)


# -- game code reads the views it is given, and cannot change them ---------------------------------------

SEATS = [Perspective("seat", PlayerId(p)) for p in range(3)]


def _hand_card(table: Table, player: int) -> str:
    return str(table.state.space(f"hand-{player}").pieces[0].private_kind)


WRITES = {  # a write onto the view an offers() is given, and what the error names
    "onto a player's map": (
        lambda table, seat, other: table.state.player(other).public_state.__setitem__("note", _hand_card(table, seat)),
        "public state of player 1",
    ),
    "through the table": (
        lambda table, seat, other: table.set(StateOf.player_public(other), "note", _hand_card(table, seat)),
        "public state of player 1",
    ),
    "onto a piece": (
        lambda table, seat, other: setattr(table.state.space("hand-1").pieces[0], "public_kind", "card-1"),
        "piece 'back'",
    ),
    "onto a space's pieces": (
        lambda table, seat, other: table.state.space("lane-0").pieces.append(Piece(_hand_card(table, seat))),
        "pieces of space 'lane-0'",
    ),
    "by a move": (lambda table, seat, other: table.move_piece("hand-0", 0, "lane-0"), "pieces of space 'hand-0'"),
    # the table's own list writes: compiled with mypyc, a list's C calls would skip FrozenList's refusals
    "by adding a piece": (lambda table, seat, other: table.add_piece("lane-0", Piece("x")), "pieces of space 'lane-0'"),
    "by removing a piece": (lambda table, seat, other: table.remove_piece("hand-0", 0), "pieces of space 'hand-0'"),
    "by a log line": (lambda table, seat, other: table.log(msg("x")), "the view's log"),
    "by clearing a state key": (
        lambda table, seat, other: table.set(StateOf.player_public(other), "score", None),
        "public state of player 1",
    ),
    "onto the active players": (lambda table, seat, other: table.set_active_players([other]), "table state"),
}


def leaky_lanes(write: Any) -> Game:
    """Three lanes with a bug: its offers() writes onto the seat's view (a hidden card, where it can)."""
    base: Any = load_games()["three-lanes"]

    class LeakyLanes(base):  # type: ignore[misc]
        name = "leaky-lanes"

        def offers(self, table: Table, player_id: int) -> Any:
            write(table, player_id, 1)
            return super().offers(table, player_id)

    game: Game = LeakyLanes({"hidden_hand": True})
    return game


@pytest.mark.parametrize("how", sorted(WRITES))
def test_an_offers_that_writes_onto_its_view_raises_and_every_perspective_keeps_the_reference_view(how: str) -> None:
    write, names = WRITES[how]
    game = leaky_lanes(write)
    table = start(game, [0, 1, 2], seed="leaky")
    views = Views(table)
    perspectives = [*SEATS, SPECTATOR, REFEREE]
    for perspective in perspectives:
        views.snapshot(perspective)

    with pytest.raises(ReadOnlyError, match=names):
        views.offers(game, 0)

    for perspective in perspectives:
        reference = canonical_json(state_to_wire(project_state(table.state, perspective)))
        assert canonical_json(views.snapshot(perspective)) == reference, perspective
        assert canonical_json(state_to_wire(views.table_view(perspective).state)) == reference, perspective
    assert table.view(None).state.player(1).public_state == {"score": 0}


def test_the_spectators_frame_stays_the_reference_when_a_seats_offers_wrote_its_hidden_card() -> None:
    game = leaky_lanes(WRITES["onto a player's map"][0])
    honest = load_games()["three-lanes"]({"hidden_hand": True})
    table = start(game, [0, 1, 2], seed="leaky")
    views = Views(table)
    held = {p: copy.deepcopy(views.snapshot(p)) for p in (*SEATS, SPECTATOR)}

    with pytest.raises(ReadOnlyError):
        views.offers(game, 0)
    steps = RandomBot("leaky").decide(honest, table.view(0), 0)
    result = verify_commit(honest, table, 0, steps, views=views)
    patches = views.patches(result.changes)

    for perspective, view in held.items():
        text = canonical_json(apply(view, patches[perspective]))
        assert text == canonical_json(state_to_wire(project_state(table.state, perspective))), perspective
        assert _hand_card(table, 0) not in text or perspective == SEATS[0]


def test_offers_are_computed_once_on_the_seats_view_until_the_table_changes() -> None:
    calls: list[int] = []
    base: Any = load_games()["draw-discard"]

    class Counted(base):  # type: ignore[misc]
        def offers(self, table: Table, player_id: int) -> Any:
            calls.append(player_id)
            assert table.is_view and table.viewer == player_id
            return super().offers(table, player_id)

    game = Counted({})
    table = start(game, [0, 1, 2, 3], seed="counted")
    views = Views(table)
    views.snapshot(SPECTATOR)

    first = views.offers(game, 0)
    again = views.offers(game, 0)
    first.clear()  # a caller's list is its own
    result = verify_commit(game, table, 0, [Action.command("play", index=0)], views=views)
    views.patches(result.changes)
    after = views.offers(game, 1)

    assert again and calls == [0, 1]
    assert views.offers(game, 1) == after and calls == [0, 1]
    views.invalidate([])
    views.offers(game, 1)
    assert calls == [0, 1, 1]


def test_a_view_given_to_game_code_shares_no_writable_part_with_the_cache_or_the_table() -> None:
    table = _table(7)
    views = Views(table)
    for perspective in PERSPECTIVES:
        views.snapshot(perspective)

    for perspective in PERSPECTIVES:
        given = views.table_view(perspective)
        assert_read_only(given.state, table.state)
        copied = given.state.space("s5").copy()
        copied.public_state["n"] = 99  # a copy is the caller's own

        assert views.build(perspective) == state_to_wire(project_state(table.state, perspective))


class DiffChecked(Views):
    """Views that check every part's ops against `patch.diff` of the part's wire before and after."""

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self.known = 0  # how many ops came from the steps, not from a diff

    def _ops(self, old: Any, new: Any, path: tuple[str, int]) -> list[Any]:
        self.known += id(new) in self._known
        ops = super()._ops(old, new, path)
        assert ops == diff(old, new, path), (path, ops)
        return ops


@pytest.mark.parametrize("name", ["draw-discard", "bluff", "random"])
def test_the_ops_of_a_part_derived_from_its_steps_are_the_diffs_ops(name: str) -> None:
    if name == "random":
        table = _table(3)
        views = DiffChecked(table)
        for perspective in PERSPECTIVES[:4]:
            views.snapshot(perspective)
        rng = random.Random(3)
        for _ in range(200):
            _decide(table, rng)
            views.patches(table.take_changes())
    else:
        game = load_games()[name]({})
        known, decisions = 0, 0
        for number in range(10):  # games until 300 decisions: a game of Bluff may end after 30
            table = start(game, [0, 1, 2, 3], seed=f"ops-{name}-{number}" if number else f"ops-{name}")
            views = DiffChecked(table)
            for perspective in [*(Perspective("seat", PlayerId(p)) for p in range(4)), SPECTATOR]:
                views.snapshot(perspective)
            bots = {p: RandomBot(f"ops/{number}/{p}" if number else f"ops/{p}") for p in range(4)}
            while decisions < 300 and not table.state.is_over():
                seat = table.state.active_player_ids[0]
                steps = bots[seat].decide(game, table.view(seat), seat)
                views.patches(verify_commit(game, table, seat, steps, views=views).changes)
                decisions += 1
            known += views.known
            if decisions >= 300:
                break
        views.known = known

    # Bluff's takes put each card at its place in the hand (not on top) and its plays retitle the pile, so fewer of
    # its parts are derived from the steps alone than draw-discard's draws and discards
    assert views.known > (5 if name == "bluff" else 20)
