"""Drawing a table: offers numbered where the seat acts, hidden parts never drawn, local moves found."""

from __future__ import annotations

import html
import re
from typing import Any, ClassVar

import pytest
from boardweaver import (
    Action,
    Draft,
    Game,
    Intent,
    Offer,
    Piece,
    Space,
    StateOf,
    Table,
    msg,
    play_game,
    start,
    verify_commit,
)
from boardweaver.installed import installed_games, load_game
from boardweaver.view import perspective_of
from boardweaver_games.bluff.rules import Bluff
from boardweaver_games.market_draft.rules import MarketDraft
from boardweaver_games.old_maid.rules import OldMaid
from boardweaver_games.three_lanes.rules import ThreeLanes
from boardweaver_web.board import Board
from boardweaver_web.faces import OWNER_SHAPES
from boardweaver_web.moves import guess_moves, piece_keys
from boardweaver_web.panels import render_log, render_result, score_title, sentence
from boardweaver_web.players import NamedCatalog, NamedTexts
from boardweaver_web.session import MemoryStore, Session
from boardweaver_web.texts import TEXTS, Texts

# a seat's name as the board draws it: a heading under the page's h1, for a screen reader's player to jump to
SEAT_NAME = '<span class="seat-name" role="heading" aria-level="2">'


def test_a_seat_sees_its_hand_and_only_backs_of_other_plans() -> None:
    game = ThreeLanes({"hidden_hand": True})
    table = start(game, [0, 1], seed=5)
    view = table.view(0)
    draft = Draft(game, view, 0)
    catalog = game.catalogs()["en"]

    html = Board(game, draft.view, 0, draft.offers(), catalog, Texts("en")).render()

    hidden_faces = {p.private_kind for p in table.state.space("hand-1").pieces}
    assert all(f'"{face}"' not in html and f">{face}<" not in html for face in hidden_faces)
    assert html.count('data-offer="') == len(draft.offers())
    assert "Hand" in html and '<div class="mine"><section class="seat-area active me" data-seat="0">' in html


def test_seats_say_which_is_a_bot_and_which_is_awaited_and_nobody_acts_before_the_start() -> None:
    game = OldMaid()
    table = start(game, [0, 1, 2], seed=5)

    def heads(**room: object) -> list[str]:
        page = Board(game, table.view(0), 0, [], game.catalogs()["en"], Texts("fr"), **room).render()  # type: ignore[arg-type]
        return re.findall(r"<header>(.*?)<span class=\"facts\">", page)

    waiting = heads(awaited=[1], bots={2})
    started = heads(bots={2})

    assert [h for h in waiting if "seat-tag" in h] == [
        f'{SEAT_NAME}Joueur 2</span> <span class="seat-tag">pas encore là</span>',
        f'{SEAT_NAME}Joueur 3</span> <span class="seat-tag">robot</span>',
    ]
    assert not any("turn-mark" in h for h in waiting)  # the room waits: nobody is "to act"
    assert sum("turn-mark" in h for h in started) == 1 and "pas encore" not in "".join(started)
    left = heads(away=[1, 2], bots={2})  # a bot is a bot, never away
    tagged = [h for h in left if "seat-tag" in h]
    assert tagged[0] == f'{SEAT_NAME}Joueur 2</span> <span class="seat-tag away">absent</span>'
    assert "robot" in tagged[1]


def test_a_bot_s_seat_its_name_already_calls_a_bot_has_no_bot_tag_besides_and_a_named_bot_keeps_it() -> None:
    game = OldMaid()
    table = start(game, [0, 1, 2], seed=5)

    def heads(names: dict[int, str]) -> list[str]:
        texts = NamedTexts("fr", names, ["claimed", "bot", "bot"])
        page = Board(game, table.view(0), 0, [], game.catalogs()["fr"], texts, bots={1, 2}).render()
        return re.findall(r"<header>(.*?)<span class=\"facts\">", page)

    found = heads({2: "Hal"})
    assert f"{SEAT_NAME}Robot 2</span>" in found  # not "Robot 2 robot"
    assert f'{SEAT_NAME}Hal</span> <span class="seat-tag">robot</span>' in found


def test_a_seats_frame_tells_the_session_who_is_away_and_a_later_one_without_it_clears_it() -> None:
    session = Session("room", "seat", 0, MemoryStore(), lambda name, options: OldMaid())
    session.receive({"type": "seats", "seats": ["claimed", "claimed"], "names": [None, "Bob"], "away": [1]})
    away = list(session.away)
    session.receive({"type": "seats", "seats": ["claimed", "claimed"], "names": [None, "Bob"]})

    assert away == [1] and session.away == []


def test_another_seats_hand_of_backs_overlaps_unless_its_cards_are_to_click_and_every_hand_is_counted() -> None:
    game = OldMaid()
    table = start(game, [0, 1, 2], seed=5)
    seat = table.state.active_player_ids[0]
    view = table.view(seat)
    offers = game.offers(view, seat)
    page = Board(game, view, seat, offers, game.catalogs()["en"], Texts("en")).render()
    clicked = {o.action.space_id for o in offers}

    def classes(space: str) -> str:
        return re.search(rf'<div class="space layout-fan ([^"]*)" data-space="{space}"', page).group(1)  # type: ignore[union-attr]

    (source,) = clicked
    (idle,) = {f"hand-{p}" for p in (0, 1, 2)} - clicked - {f"hand-{seat}"}
    assert "backs" in classes(idle) and "backs" not in classes(source) and "backs" not in classes(f"hand-{seat}")
    for hand in (idle, source, f"hand-{seat}"):
        count = len(table.state.space(hand).pieces)
        title = re.search(rf'data-space="{hand}".*?<div class="space-title"[^>]*>(.*?)</div>', page)
        assert title is not None and title.group(1).endswith(f'<span class="count">{count}</span>'), hand
    badge = f'<span class="badge" aria-hidden="true">{len(table.state.space(idle).pieces)}</span>'
    assert page.count('class="badge"') == 1 and badge in page  # the phone's "x N" (the CSS shows it): backs only


def test_a_local_plan_is_found_as_a_move_and_drawn_pending_at_its_target() -> None:
    game = ThreeLanes()
    table = start(game, [0, 1], seed=5)
    draft = Draft(game, table.view(0), 0)
    before = piece_keys(draft.view)

    draft.take(Action.piece_click("hand-0", 0))
    draft.take(Action.space_click("lane-2"))
    moves = guess_moves(before, piece_keys(draft.view))
    html = Board(game, draft.view, 0, draft.offers(), None, Texts("en")).render()

    assert moves == [("hand-0/0", "plan-0/0")]
    lane = html[html.index('data-space="lane-2"') :]
    assert "piece kind-back secret pending" in lane[: lane.index("</div></div>") + 200] or "pending" in lane


def test_session_perspective_is_the_seat() -> None:
    session = Session("r", "seat", 1, MemoryStore(), lambda name, options: ThreeLanes())

    assert session.perspective == perspective_of(1)


def test_an_owner_only_space_is_drawn_for_its_owner_the_referee_and_the_review_only() -> None:
    from boardweaver.view import REFEREE, SPECTATOR
    from boardweaver_games.fogchess.rules import FogChess

    game = FogChess()
    table = start(game, [0, 1], seed=1)

    def drawn(viewer: object) -> set[str]:
        html = Board(game, table.view(viewer), None, [], None, Texts("en")).render()  # type: ignore[arg-type]
        return {space for space in ("board-0", "board-1") if f'data-space="{space}"' in html}

    assert drawn(0) == {"board-0"} and drawn(1) == {"board-1"}
    assert drawn(SPECTATOR) == set()
    assert drawn(REFEREE) == {"board-0", "board-1"}
    assert {
        s
        for s in ("board-0", "board-1")
        if f'data-space="{s}"' in Board(game, table, None, [], None, Texts("en")).render()
    } == {"board-0", "board-1"}


class Tricks(Game):
    """Two hands of face-down cards and a trick area drawn only while it holds a card (`hide_empty`)."""

    name = "tricks"
    min_players = 2
    max_players = 2
    look: ClassVar[dict[str, Any]] = {
        "spaces": {
            "hand": {"area": "seat", "layout": "fan"},
            "trick": {"area": "table", "layout": "row", "hide_empty": True},
            "won": {"area": "side", "layout": "stack"},
        }
    }

    def setup(self, table: Table, players: list[int]) -> None:
        for player in players:
            cards = [Piece("back").hiding(f"card-{player}-{n}") for n in range(3)]
            table.add_space(Space(f"hand-{player}", "hand").owned_by(player).with_pieces(cards))
        table.add_space(Space("trick", "trick"))
        table.add_space(Space("won", "won"))
        table.set_active_players([players[0]])

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        return []

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        raise NotImplementedError


class TurnedHands(Game):
    """Hanabi's hands: nobody owns them, so their seats do not see them; each is shown to the other seat and names
    its seat in its public state (`seat`), which draws it in that seat's area."""

    name = "turned-hands"
    min_players = 2
    max_players = 2
    look: ClassVar[dict[str, Any]] = {
        "spaces": {"hand": {"area": "seat", "layout": "row"}},
        "pieces": {"?1": {"text": "?1", "mark": True}, "told": {"text": "told"}},
    }

    def setup(self, table: Table, players: list[int]) -> None:
        for player in players:
            cards = [Piece("back").hiding(f"card-{player}-{n}") for n in range(2)]
            table.add_space(Space(f"hand-{player}", "hand").with_state({"seat": player}).with_pieces(cards))
            for n in range(2):
                table.show(f"hand-{player}", n, to=1 - player)
        table.set_active_players([players[0]])

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        return []

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        raise NotImplementedError


def test_a_hand_nobody_owns_is_drawn_in_the_area_of_the_seat_its_public_state_names() -> None:
    """A trial author's Hanabi hands, ownerless so that their seats do not see them, were drawn on the table."""
    game = TurnedHands()
    table = start(game, [0, 1], seed=1)

    page = Board(game, table.view(0), 0, [], None, Texts("en")).render()

    others, mine = page.split('<div class="mine">')
    theirs = re.search(r'<section class="seat-area[^"]*" data-seat="1">.*?</section>', others, re.S)
    assert theirs is not None and 'data-space="hand-1"' in theirs.group(0)
    assert 'data-space="hand-0"' in mine and 'data-space="hand-1"' not in mine
    assert '<div class="middle">' not in page  # every space lies in a seat's area: no empty table
    assert "card-1-0" in theirs.group(0) and "card-0-0" not in page  # seat 0 sees the other hand, never its own


def test_a_hint_marked_on_a_card_a_seat_sees_whole_is_drawn_in_its_corner_where_its_look_says_mark() -> None:
    """A trial author's Hanabi: the other seats saw a hinted card's face but not the hint ("?1") its owner saw, so
    nobody could tell what a seat already knew of its hand."""
    game = TurnedHands()
    table = start(game, [0, 1], seed=1)
    table.set_public_kind("hand-1", 0, "?1")  # told: a 1 (its look says "mark")
    table.set_public_kind("hand-1", 1, "told")  # a public kind whose look says no "mark": nothing drawn

    theirs = Board(game, table.view(0), 0, [], None, Texts("en")).render()
    own = Board(game, table.view(1), 1, [], None, Texts("en")).render()

    first, second = re.findall(r'<div class="piece[^"]*" data-key="hand-1/\d".*?</div>', theirs)
    assert '<span class="known" aria-hidden="true">?1</span>' in first and "everyone knows: ?1" in first
    assert "card-1-0" in first and 'class="known"' not in second
    assert 'class="known"' not in own and ">?1<" in own  # its owner sees the mark as the card's face


def _drawn_spaces(game: Game, table: Table, viewer: int | None, offers: list[Offer] | None = None) -> set[str]:
    page = Board(game, table.view(viewer), viewer, offers or [], None, Texts("en")).render()
    return set(re.findall(r'data-space="([^"]*)"', page))


def test_an_empty_space_that_hides_when_empty_is_drawn_for_nobody_and_one_without_the_key_still_is() -> None:
    game = Tricks()
    table = start(game, [0, 1], seed=1)

    drawn = {viewer: _drawn_spaces(game, table, viewer) for viewer in (0, 1, None)}

    assert all("trick" not in spaces and "won" in spaces and "hand-1" in spaces for spaces in drawn.values())


def test_a_space_that_hides_when_empty_is_drawn_for_everyone_while_it_holds_a_card_nobody_may_see() -> None:
    game = Tricks()
    table = start(game, [0, 1], seed=1)

    table.move_piece("hand-1", 0, "trick")  # face down: its private kind is nobody's now, a back to every viewer

    assert table.view(0).state.space("trick").pieces[0].private_kind is None
    assert all("trick" in _drawn_spaces(game, table, viewer) for viewer in (0, 1, None))


def test_an_empty_space_that_hides_when_empty_is_drawn_where_its_seat_may_click_it_or_plans_a_piece_onto_it() -> None:
    game = Tricks()
    table = start(game, [0, 1], seed=1)
    lead = [Offer(Action.space_click("trick"), Intent.CHOICE)]

    table.set(StateOf.piece_private("hand-0", 0), "target", "trick")  # seat 0's own plan, drawn at its target

    assert "trick" in _drawn_spaces(game, table, 1, lead)  # the seat must reach the offer: no click on nothing
    assert "trick" in _drawn_spaces(game, table, 0)
    assert "trick" not in _drawn_spaces(game, table, 1)  # seat 0's plan is its own: the trick is empty to seat 1
    assert "trick" not in _drawn_spaces(game, table, None)


def test_every_piece_colour_of_every_game_gets_ink_that_reads_at_wcag_aa() -> None:
    from boardweaver.colours import contrast
    from boardweaver_server.games import load_games
    from boardweaver_web.faces import ink_for

    colours = {
        str(look["color"])
        for game in load_games().values()
        for look in game.look.get("pieces", {}).values()
        if isinstance(look, dict) and look.get("color")
    }
    every_rgb = {f"#{r:x}{g:x}{b:x}" for r in range(16) for g in range(16) for b in range(16)}

    for colour in colours | every_rgb | {"#f4ecd8", "#1d1d1d", "#b3261e"}:
        ink = ink_for(colour)
        assert ink is not None and contrast(colour if len(colour) == 7 else _long(colour), ink) >= 4.5, colour


def _long(colour: str) -> str:
    return "#" + "".join(c * 2 for c in colour[1:])


def test_a_seats_own_hidden_cards_get_dark_ink_on_their_cream_face() -> None:
    game = ThreeLanes({"hidden_hand": True})
    table = start(game, [0, 1], seed=5)

    html = Board(game, table.view(0), 0, [], game.catalogs()["en"], Texts("en")).render()

    mine = html[html.index('data-space="hand-0"') :]
    assert "--piece-color:#f4ecd8;--piece-ink:#000000" in mine[: mine.index("</div></div>")]


def test_what_the_seat_may_click_is_a_labelled_button_and_raw_state_is_not_shown() -> None:
    game = ThreeLanes()
    table = start(game, [0, 1], seed=5)
    draft = Draft(game, table.view(0), 0)
    draft.take(Action.piece_click("hand-0", 0))  # staged: the game keeps `staged` in the seat's private state

    html = Board(game, draft.view, 0, draft.offers(), game.catalogs()["en"], Texts("en")).render()

    assert html.count("<button") == html.count("data-offer=") == len(draft.offers()) == 3  # the three lanes
    assert 'class="space-button" data-offer="0" data-for="lane-0" aria-label="Plan it on lane 1: Lane 1"' in html
    assert 'data-fact="staged"' not in html and "staged:" not in html
    assert 'data-fact="score"' in html  # a fact the game names (look.score) is shown


def test_a_players_fact_is_written_as_its_language_writes_it() -> None:
    game = ThreeLanes()
    table = start(game, [0, 1], seed=5)

    unnamed: dict[int, str] = {}  # no seat chose a name: the page counts them from 1
    english = Board(game, table.view(0), 0, [], NamedCatalog(game.catalogs()["en"], unnamed), Texts("en")).render()
    french = Board(game, table.view(0), 0, [], NamedCatalog(game.catalogs()["fr"], unnamed), Texts("fr")).render()

    assert '<span class="fact" data-fact="score">Score: 0</span>' in english
    assert '<span class="fact" data-fact="score">Score : 0</span>' in french


def test_bluffs_cards_and_its_piles_title_read_in_french_where_the_game_gives_them_as_messages() -> None:
    """A look's `says` may be a message with arguments, and a space title's placeholder a message (`Table.set`
    keeps its wire map): both are drawn in the seat's language."""
    from boardweaver import StateOf, msg
    from boardweaver_games.bluff import Bluff

    game = Bluff({})
    table = start(game, [0, 1, 2], seed=3)
    table.set(StateOf.space_public("pile"), "rank", msg("rank.queen"))  # as the rules do when a queen is next
    stored = table.state.space("pile").public_state["rank"]
    faces = [piece.private_kind for piece in table.view(0).state.space("hand-0").pieces]
    french = Board(game, table.view(0), 0, [], NamedCatalog(game.catalogs()["fr"], {}), Texts("fr")).render()
    english = Board(game, table.view(0), 0, [], NamedCatalog(game.catalogs()["en"], {}), Texts("en")).render()
    lettered = {"K": "R", "Q": "D", "J": "V", "A": "A"}
    suits = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

    assert stored == {"key": "rank.queen"}
    assert "Pile · prochaine annonce : D" in html.unescape(french) and "Pile · next claim: Q" in html.unescape(english)
    for face in faces:
        assert face is not None
        shown = lettered.get(face[:-1], face[:-1]) + suits[face[-1]]
        assert f">{shown}<" in html.unescape(french), shown


def test_french_waits_for_a_seat_without_a_capital_mid_sentence() -> None:
    """Regression (a player's trial): "En attente de Joueur 3", a capitalised seat after "de" (French says "du
    joueur 3"); the status now names the seats after a colon, as it does a player's chosen name."""
    french = Texts("fr")
    shown = french.get("turn.waiting", seats=french.get("seat", seat=2))

    assert shown == "En attente : Joueur 3"
    assert french.get("name.save") == "Enregistrer mon nom"


def test_a_server_error_code_reads_as_a_sentence() -> None:
    english, french = Texts("en"), Texts("fr")

    assert english.error("undo/not-allowed") == "That move can no longer be taken back."
    assert "/" not in english.error("no/such-code") and "/" not in french.error("undo/not-allowed")
    assert {k for k in TEXTS["en"]} == {k for k in TEXTS["fr"]}


def test_each_hex_is_named_by_its_row_and_column() -> None:
    from boardweaver_games.hexbloom.rules import Hexbloom

    game = Hexbloom()
    table = start(game, [0, 1], seed=3)

    html = Board(game, table.view(0), 0, [], game.catalogs()["en"], Texts("en")).render()

    assert 'aria-label="Hex, row 1, column 1, empty"' in html
    assert html.count("row 1, column 1,") == 1
    # the cells in reading order, row by row: a screen reader goes along a row, then down (it went column by column)
    places = re.findall(r'aria-label="Hex, row (\d+), column (\d+),', html)
    assert places == sorted(places, key=lambda place: (int(place[0]), int(place[1]))) and len(places) == 19


def test_regression_an_empty_hex_reads_empty_not_0_pieces_in_english_and_french() -> None:
    """Regression: a screen reader read each empty hex of Hexbloom's map as "Hex, row 1, column 1, 0 pieces" (French
    "Case, rangée 1, colonne 1, 0 pièce", its plural rule singular at zero)."""
    from boardweaver_games.hexbloom.rules import Hexbloom

    game = Hexbloom()
    table = start(game, [0, 1], seed=3)

    said = {
        locale: Board(game, table.view(0), 0, [], game.catalogs()[locale], Texts(locale)).render()
        for locale in ("en", "fr")
    }

    assert 'aria-label="Hex, row 1, column 1, empty"' in said["en"]
    assert 'aria-label="Case, rangée 1, colonne 1, vide"' in said["fr"]
    assert said["en"].count(', empty"') == said["fr"].count(', vide"') == 19  # every hex of the map
    assert 'aria-label="Bag, 20 pieces"' in said["en"] and 'aria-label="Sac, 20 pièces"' in said["fr"]
    assert not re.search(r"\b0 (?:pieces|pièces?)\b", said["en"] + said["fr"])


_SPACE_LABEL = re.compile(r'data-space="([^"]+)" role="[^"]+" aria-label="([^"]*)"')


@pytest.mark.parametrize("name", sorted(installed_games()))
def test_every_games_empty_spaces_read_empty_and_the_others_their_count(name: str) -> None:
    """An empty space reads "Discard, empty" ("Défausse, vide"), never "0 pieces", in every game from start to end,
    for a seat and a spectator; a space holding pieces keeps its count."""
    game = load_game(name)({})
    labels: dict[str, list[tuple[int, str]]] = {"en": [], "fr": []}

    def draw(table: Table) -> None:
        for locale in labels:
            catalog, texts = NamedCatalog(game.catalogs()[locale], {}), NamedTexts(locale, {})
            for seat in (0, None):
                view = table.view(seat)
                board = Board(game, view, seat, [], catalog, texts).render()
                labels[locale] += [
                    (len(view.state.space(space).pieces), label) for space, label in _SPACE_LABEL.findall(board)
                ]

    play_game(game, list(range(max(2, game.min_players))), seed=3, each_state=draw)

    for locale, empty, counted, grid in (("en", ", empty", "piece", " grid"), ("fr", ", vide", "pièce", " grille ")):
        read = [(count, html.unescape(label)) for count, label in labels[locale]]
        assert not [label for _, label in read if re.search(rf"\b0 {counted}", label)]
        assert all(label.endswith(empty) for count, label in read if count == 0 and grid not in label)  # a grid: size
        assert not [label for count, label in read if count and label.endswith(empty)]


def test_the_offered_cells_of_a_hex_map_are_one_tab_stop_moved_through_with_the_arrows() -> None:
    """Regression: each empty hex of Hexbloom's map was a Tab stop of its own, 19 presses to
    cross the map."""
    from boardweaver_games.hexbloom.rules import Hexbloom

    game = Hexbloom()
    table = start(game, [0, 1], seed=3)
    draft = Draft(game, table.view(0), 0)
    draft.take(Action.piece_click("hand-0", 0))  # a tile staged: every empty hex is offered
    one = [Offer(Action.space_click("hex-0-0"), Intent.CHOICE)]

    staged = Board(game, draft.view, 0, draft.offers(), game.catalogs()["en"], Texts("en")).render()
    alone = Board(game, draft.view, 0, one, game.catalogs()["en"], Texts("en")).render()

    cells = re.findall(
        r'class="space-button" data-offer="\d+" data-for="([^"]+)" aria-label="([^"]+)" tabindex="(-?\d)"', staged
    )
    assert 'class="hex-map"' in staged and 'data-roving="hex"' in staged
    assert len(cells) == 19 and [stop for _, _, stop in cells] == ["0"] + ["-1"] * 18  # the first in reading order
    assert cells[0][:2] == ("hex-0--2", "Place it here: Hex, row 1, column 1")  # each cell still says its name
    hex_map = alone[alone.index('class="hex-map"') : alone.index('<div class="mine">')]
    assert 'data-roving="hex"' not in alone and "tabindex" not in hex_map  # one cell to click: a Tab stop as it was


def test_regression_a_tile_picked_beside_another_sends_the_keyboard_on_to_the_maps_tab_stop() -> None:
    """Regression (a keyboard trial of Hexbloom): after Enter picked a tile, its other tile offered only as a switch,
    the focus stayed on the tile and Tab went on to "Undo my last pick", the map lying before the hand. The board
    names the map's Tab stop as where the focus goes on; not where the picked card's space still offers a choice
    (Bluff's other cards) or nothing is picked."""
    from boardweaver_games.hexbloom.rules import Hexbloom

    game = Hexbloom()
    table = start(game, [0, 1], seed=3)
    draft = Draft(game, table.view(0), 0)
    draft.take(Action.piece_click("hand-0", 0))
    bluff = Bluff()
    played = start(bluff, [0, 1, 2], seed=5)
    cards = Draft(bluff, played.view(0), 0)
    cards.take(next(o.action for o in cards.offers() if o.action.type == "piece"))
    picked = next(o.action for o in cards.taken_offers)

    def next_choice(board: Board) -> str | None:
        board.render()
        return board.next_choice()

    hexes = Board(game, draft.view, 0, draft.offers(), None, Texts("en"), chosen={("hand-0", 0)})
    unpicked = Board(game, table.view(0), 0, Draft(game, table.view(0), 0).offers(), None, Texts("en"))
    chosen = {(str(picked.space_id), int(picked.index or 0))}
    hand = Board(bluff, cards.view, 0, cards.offers(), None, Texts("en"), chosen=chosen)

    assert {o.intent for o in draft.offers() if o.action.type == "piece"} == {Intent.CANCEL}  # the other: a switch
    assert next_choice(hexes) == '#board [data-for="hex-0--2"]'  # the map's Tab stop, its first cell
    assert next_choice(unpicked) is None and next_choice(hand) is None


def test_the_seats_own_hands_count_its_pieces_by_name_and_those_only_it_sees() -> None:
    """What a frame brought into the seat's hand that only it sees is said by these names (`RoomView.note_arrivals`):
    Hexbloom's own tiles by colour; not another seat's, not a spectator's, not a market card every seat saw taken."""
    from boardweaver_games.hexbloom.rules import Hexbloom

    game = Hexbloom()
    table = start(game, [0, 1], seed=3)
    english = game.catalogs()["en"]
    market = MarketDraft({})
    drafted = start(market, [0, 1], seed=4)
    draft = Draft(market, drafted.view(0), 0)
    while draft.is_open and (choice := next((o for o in draft.offers() if o.intent is not Intent.CANCEL), None)):
        draft.take(choice.action)
    verify_commit(market, drafted, 0, draft.steps)  # a market card picked and taken: public, every seat saw it

    shown, tiles = Board(game, table.view(0), 0, [], english, Texts("en")).own_hands()
    hand = [p.private_kind for p in table.view(0).state.space("hand-0").pieces]
    taken, unseen = Board(market, drafted.view(0), 0, [], None, Texts("en")).own_hands()

    assert sum(tiles.values()) == 2 and all(name.endswith(" tile") for name in tiles) and shown == tiles, tiles
    assert sorted(tiles.elements()) == sorted(f"{str(kind).capitalize()} tile" for kind in hand)
    assert Board(game, table.view(None), None, [], english, Texts("en")).own_hands() == ({}, {})
    assert sum(taken.values()) == 1 and unseen == {}, taken  # the card taken, which every seat saw


def test_once_a_piece_wears_a_seats_stripe_each_seats_header_shows_its_own_as_the_key() -> None:
    """Regression (a player's trial): Hexbloom's placed tiles wear their placer's stripe, and nothing said whose
    stripe was which colour."""
    from boardweaver import RandomBot
    from boardweaver_games.hexbloom.rules import Hexbloom

    game = Hexbloom()
    table = start(game, [0, 1], seed=3)

    def heads() -> list[str]:
        page = Board(game, table.view(0), 0, [], game.catalogs()["en"], Texts("en")).render()
        return re.findall(r"<header>(.*?)<span class=\"seat-name\" role=\"heading\" aria-level=\"2\">", page)

    before = heads()
    bot = RandomBot("stripes")
    while not any("by" in piece.public_state for space in table.state.spaces.values() for piece in space.pieces):
        seat = table.state.active_player_ids[0]
        verify_commit(game, table, seat, bot.decide(game, table.view(seat), seat))
    after = heads()

    assert before == ["", ""]  # no stripe on the board yet: no key either
    assert sorted(after) == [
        f'<span class="seat-mark owner-{seat}" aria-hidden="true">{shape}</span>'
        for seat, shape in ((0, "●"), (1, "▲"))
    ]


def test_regression_memory_matchs_seat_marks_stay_after_the_flips_are_turned_back() -> None:
    """Regression (a player's trial): Memory match's seat marks showed only while a flipped card (its flipper's
    stripe) lay on the table and vanished at "turn back", though in hidden mode they tell whose flip is whose."""
    from boardweaver_games.memory_match.rules import MemoryMatch

    game = MemoryMatch({"mode": "hidden"})
    table = start(game, [0, 1], seed=3)
    key = [
        f'<span class="seat-mark owner-{seat}" aria-hidden="true">{shape}</span>'
        for seat, shape in ((1, "▲"), (0, "●"))
    ]

    def heads() -> list[str]:
        page = Board(game, table.view(0), 0, [], game.catalogs()["en"], Texts("en")).render()
        return re.findall(r"<header>(.*?)<span class=\"seat-name\" role=\"heading\" aria-level=\"2\">", page)

    at_start = heads()
    faces = [piece.private_kind for piece in table.state.space("grid").pieces]
    second = next(i for i, face in enumerate(faces) if face != faces[0])
    verify_commit(game, table, 0, [Action.piece_click("grid", 0)])
    verify_commit(game, table, 0, [Action.piece_click("grid", second)])
    flipped = heads()
    verify_commit(game, table, 0, [Action.command("turn-back")])
    turned_back = heads()

    assert at_start == flipped == turned_back == key  # the other seat's header, then the seat's own


def test_a_piece_wearing_a_seats_stripe_says_whose_stripe_in_its_label() -> None:
    """Regression (a player's trial): a Hexbloom tile placed on the map read "Violet tile (Hex, row 1, column 1,
    1 of 1)"; only its stripe's colour said who placed it, which a screen reader (or a colour-blind eye) misses. Then
    it ended " · stripe of Ada", a drawing's name, not what it means: the seat who played the piece."""
    from boardweaver import RandomBot
    from boardweaver_games.hexbloom.rules import Hexbloom

    game = Hexbloom()
    table = start(game, [0, 1], seed=3)
    bot = RandomBot("stripes")
    while sum("by" in piece.public_state for space in table.state.spaces.values() for piece in space.pieces) < 2:
        seat = table.state.active_player_ids[0]
        verify_commit(game, table, seat, bot.decide(game, table.view(seat), seat))

    english = Board(game, table.view(0), 0, [], game.catalogs()["en"], NamedTexts("en", {1: "Bea"})).render()
    french = Board(game, table.view(None), None, [], game.catalogs()["fr"], Texts("fr")).render()

    striped = re.findall(r'class="piece [^"]*owner-(\d)"[^>]*aria-label="([^"]*)"', english)
    assert sorted(owner for owner, _ in striped) == ["0", "1"]
    for owner, label in striped:
        assert label.endswith(" · played by Player 1 (you)" if owner == "0" else " · played by Bea")
    assert re.search(r'aria-label="[^"]* · joué par Joueur 1"', french)
    assert english.count(" · played by ") == len(striped)  # a piece without a stripe (a hand's tile) says none
    assert "stripe" not in english and "bande" not in french  # what the stripe means, not what it is drawn as


def test_regression_a_seats_stripe_has_a_shape_of_its_own_on_its_pieces_and_beside_its_name() -> None:
    """From a colour-blind player's trial of Hexbloom: the placed tiles told their placers apart by the stripe's
    colour alone, so each seat's stripe wears a shape, the same on its tiles and beside its name."""
    from boardweaver import RandomBot
    from boardweaver_games.hexbloom.rules import Hexbloom

    game = Hexbloom()
    table = start(game, [0, 1, 2, 3], seed=3)
    bot = RandomBot("shapes")
    while len({piece.public_state.get("by") for space in table.state.spaces.values() for piece in space.pieces}) < 5:
        seat = table.state.active_player_ids[0]
        verify_commit(game, table, seat, bot.decide(game, table.view(seat), seat))

    page = Board(game, table.view(None), None, [], game.catalogs()["en"], Texts("en")).render()

    tiles = re.findall(r'class="piece [^"]*owner-(\d)".*?<span class="owner-shape" aria-hidden="true">(.)</span>', page)
    keys = dict(re.findall(r'<span class="seat-mark owner-(\d)" aria-hidden="true">(.)</span>', page))
    assert sorted(keys) == ["0", "1", "2", "3"] and len(set(keys.values())) == 4  # four seats, four shapes
    assert {owner for owner, _ in tiles} == {"0", "1", "2", "3"}
    assert all(shape == keys[owner] for owner, shape in tiles)  # each tile wears its placer's shape
    assert page.count('class="owner-shape"') == len(tiles)  # none on a piece without a stripe (the bag's tiles)


def test_regression_each_hexbloom_colour_wears_a_sign_of_its_own_on_the_map_and_in_a_hand() -> None:
    """From a colour-blind player's trial of Hexbloom: a rose tile looked like a violet one (a gold like a teal, to
    some), and a tile's colour is what scores its bloom; each colour now wears a sign (a look's "corner") besides
    its hue, never a seat's shape, and a face-down tile wears none, the same for every colour."""
    from boardweaver import RandomBot
    from boardweaver_games.hexbloom.rules import COLOURS, Hexbloom

    game = Hexbloom()
    table = start(game, [0, 1, 2, 3], seed=3)
    bot = RandomBot("signs")
    while not set(COLOURS) <= {piece.public_kind for space in table.state.spaces.values() for piece in space.pieces}:
        seat = table.state.active_player_ids[0]
        verify_commit(game, table, seat, bot.decide(game, table.view(seat), seat))

    def tiles(seat: int | None) -> list[tuple[str, str, str]]:
        """Each piece drawn for `seat`: what its label calls it, where it lies, and the signs on its face."""
        page = Board(game, table.view(seat), seat, [], game.catalogs()["en"], Texts("en")).render()
        pieces = re.findall(r'<div class="piece [^"]*"[^>]*aria-label="([^"(]*) \(([^"]*)">(.*?)</div>', page)
        return [
            (name, place, "".join(re.findall(r'<span class="corner"[^>]*>([^<]*)</span>', face)))
            for name, place, face in pieces
        ]

    placed, mine = tiles(None), tiles(0)

    signs = {name: {sign for shown, _, sign in placed if shown == name} for name, _, _ in placed}
    assert signs.pop("A face-down tile") == {""}  # the bag's and the hands' backs: no sign, whatever they hide
    assert sorted(signs) == ["Gold tile", "Rose tile", "Teal tile", "Violet tile"]
    assert all(len(found) == 1 for found in signs.values())  # each colour wears one sign, on every tile of it
    marks = {name: found.pop() for name, found in signs.items()}
    assert len(set(marks.values())) == 4 and not set(marks.values()) & set(OWNER_SHAPES)  # four, none a seat's
    hand = [(name, sign) for name, place, sign in mine if place.startswith("Player 1 (you): Hand")]
    assert len(hand) == 2 and all(sign == marks[name] for name, sign in hand)  # the seat's own tiles wear theirs


def test_regression_a_hex_map_is_a_group_named_for_a_screen_reader() -> None:
    """A keyboard player's trial: the hex map had no role or name of its own, its cells read as a bare list."""
    from boardweaver_games.hexbloom.rules import Hexbloom

    game = Hexbloom()
    table = start(game, [0, 1], seed=3)

    english = Board(game, table.view(0), 0, [], game.catalogs()["en"], Texts("en")).render()
    french = Board(game, table.view(None), None, [], game.catalogs()["fr"], Texts("fr")).render()

    assert re.findall(r'<div class="hex-map" role="group" aria-label="([^"]+)"', english) == ["Hex map of 19 spaces"]
    assert re.findall(r'<div class="hex-map" role="group" aria-label="([^"]+)"', french) == [
        "Carte hexagonale de 19 cases"
    ]


def test_a_lane_is_titled_by_its_number_and_after_a_flip_by_its_winner_in_the_seats_language() -> None:
    game = ThreeLanes()
    table = start(game, [0, 1], seed=5)
    for seat, lane in ((0, "lane-0"), (1, "lane-1")):
        draft = Draft(game, table.view(seat), seat)
        for action in (Action.piece_click(f"hand-{seat}", 0), Action.space_click(lane), Action.command("confirm")):
            draft.take(action)
        verify_commit(game, table, seat, draft.steps)

    unnamed: dict[int, str] = {}  # no seat chose a name: the page counts them from 1
    english = Board(game, table.view(0), 0, [], NamedCatalog(game.catalogs()["en"], unnamed), Texts("en")).render()
    french = Board(game, table.view(0), 0, [], NamedCatalog(game.catalogs()["fr"], unnamed), Texts("fr")).render()

    def titles(html: str) -> list[str]:
        return re.findall(r'data-space="lane-\d".*?<div class="space-title" aria-hidden="true">([^<]*)<', html)

    # the last round's winner, said so (at the game's end "won by" read as the lane's overall winner)
    assert titles(english) == ["Lane 1 · last round: Player 1", "Lane 2 · last round: Player 2", "Lane 3"]
    assert titles(french) == ["Voie 1 · dernière manche : joueur 1", "Voie 2 · dernière manche : joueur 2", "Voie 3"]

    names = {0: "Ada", 1: "Bob"}
    named = Board(game, table.view(0), 0, [], NamedCatalog(game.catalogs()["en"], names), NamedTexts("en", names))
    assert titles(named.render()) == ["Lane 1 · last round: Ada", "Lane 2 · last round: Bob", "Lane 3"]
    named_fr = Board(game, table.view(0), 0, [], NamedCatalog(game.catalogs()["fr"], names), NamedTexts("fr", names))
    assert titles(named_fr.render()) == ["Voie 1 · dernière manche : Ada", "Voie 2 · dernière manche : Bob", "Voie 3"]


def test_a_piece_face_given_as_a_message_key_reads_in_the_seats_language() -> None:
    game = OldMaid()
    table = start(game, [0, 1], seed=2)
    holder = next(p for p in (0, 1) if any(c.private_kind == "maid" for c in table.state.space(f"hand-{p}").pieces))

    english = Board(game, table.view(holder), holder, [], game.catalogs()["en"], Texts("en")).render()
    french = Board(game, table.view(holder), holder, [], game.catalogs()["fr"], Texts("fr")).render()

    assert '<span class="symbol">♛</span><span class="text">Maid</span>' in english
    assert '<span class="symbol">♛</span><span class="text">Fille</span>' in french
    assert ">Maid<" not in french and 'aria-label="La vieille fille' in french


# words a game's French catalog may share with English, because French says them so too
SAME_IN_FRENCH = {"Pile", "Plan", "Score"}
_SHOWN = (
    r'aria-label="([^"]*)"',
    r'class="space-title"[^>]*>([^<]*)<',
    r'<span class="text">([^<]*)<',
    r'class="seat-name"[^>]*>([^<]*)<',
    r'class="fact"[^>]*>([^<]*)<',
    r'class="winners verdict">([^<]*)<',
    r"<td>([^<]*)</td>",
    r"<li>([^<]*)</li>",
)


def _shown_texts(drawn: str) -> list[str]:
    """The texts a player reads or hears in a drawing: labels, titles, faces, seat names, facts, log lines."""
    return [html.unescape(text) for pattern in _SHOWN for text in re.findall(pattern, drawn)]


@pytest.mark.parametrize("name", sorted(installed_games()))
def test_every_text_of_a_french_game_is_french_from_start_to_end(name: str) -> None:
    """Regression: lanes and titles read in English in a French room; seats read "Place 0", the log "joueur 0"."""
    game = load_game(name)({})
    drawn: dict[str, list[str]] = {"en": [], "fr": []}
    states = [0]

    def draw(table: Table) -> None:
        states[0] += 1
        if states[0] % 5 and not table.state.is_over():
            return
        for locale in drawn:
            catalog, texts = NamedCatalog(game.catalogs()[locale], {}), NamedTexts(locale, {})
            for seat in (0, None):
                view = table.view(seat)
                offers = Draft(game, view, seat).offers() if seat in view.state.active_player_ids else []
                board = Board(game, view, seat, offers, catalog, texts).render()
                log = render_log(table.state.log, catalog)  # public: the frames carry it beside the view
                drawn[locale] += _shown_texts(board + log + render_result(view, texts, seat, catalog=catalog))

    play_game(game, list(range(max(2, game.min_players))), seed=3, each_state=draw)

    english, french = drawn["en"], drawn["fr"]
    assert len(english) == len(french) > 50
    wrong = re.compile(r"\b(?:look|log|offer|option|space|seat)\.[a-z]|\b(?:Seat|Place|[Ss]iège|[Jj]oueur) 0\b")
    assert not [text for text in french if wrong.search(text)]
    space_ids = set(play_game(game, list(range(max(2, game.min_players))), seed=3).table.state.spaces)
    assert not [text for text in french if text in space_ids]  # a space is never titled by its id
    untranslated = {e for e, f in zip(english, french, strict=True) if e == f and re.search(r"[A-Za-z]{2}", e)}
    assert untranslated <= SAME_IN_FRENCH, untranslated


def test_the_verdict_says_draw_when_every_seat_won_and_a_shared_win_when_some_did() -> None:
    """Three-lanes ended four all: "Zoé, Player 2 win" must not read "You won" as if alone."""
    from boardweaver import GameResult, Perspective, Player, PlayerId, Table, TableState
    from boardweaver_web.panels import verdict

    def table(winners: list[int], seats: int = 3) -> Table:
        state = TableState(players=[Player(PlayerId(seat)) for seat in range(seats)])
        state.result = GameResult(winners=[PlayerId(seat) for seat in winners])
        return Table(state, Perspective("seat", PlayerId(0)))

    for locale, draw, shared, won, lost in (
        ("en", "Draw", "You share the win", "You won", "You lost"),
        ("fr", "Match nul", "Victoire partagée", "Vous avez gagné", "Vous avez perdu"),
    ):
        texts = Texts(locale)
        assert verdict(table([0, 1, 2]), texts, 0) == draw
        assert verdict(table([]), texts, 0) == draw
        assert verdict(table([0, 2]), texts, 0) == shared
        assert verdict(table([0]), texts, 0) == won
        assert verdict(table([1, 2]), texts, 0) == lost
    assert verdict(table([0, 1, 2]), Texts("en"), None) == "Draw"
    assert verdict(table([0], seats=1), Texts("en"), 0) == "You won"  # a solo game won is no tie


def test_a_space_emptied_since_its_last_move_is_not_outlined() -> None:
    """Regression: at an old-maid game's end the emptied hand kept the last-move outline of the take into it."""
    game = OldMaid()
    table = play_game(game, [0, 1], seed=2).table
    empty, held = sorted(("hand-0", "hand-1"), key=lambda space: len(table.state.space(space).pieces))
    board = Board(game, table.view(0), 0, [], None, Texts("en"), over=True, last_moves={empty: 0, held: 1})

    html = board.render()

    classes = {space: names for names, space in re.findall(r'<div class="([^"]*)" data-space="([^"]*)"', html)}
    assert not table.state.space(empty).pieces and table.state.space(held).pieces
    assert "last-move" not in classes[empty]  # nothing there any more
    assert "last-move-space last-move-1" in classes[held]  # the taken card is there: the mark stays


def test_a_fanned_face_up_card_shows_its_face_large_in_the_middle_and_a_back_or_a_stack_does_not() -> None:
    from boardweaver_games.draw_discard.rules import DrawDiscard

    game = DrawDiscard({"endless": False})
    table = start(game, [0, 1, 2, 3], seed=4)

    html = Board(game, table.view(0), 0, [], None, Texts("en")).render()

    def pieces(space: str) -> str:
        part = html[html.index(f'data-space="{space}"') :]
        return part[: part.index("</div></div>")]

    faces = re.findall(r'<span class="face text" data-large="([^"]*)" style="--ems:[\d.]+">([^<]*)<', pieces("hand-0"))
    assert len(faces) == 5 and all(large == corner for large, corner in faces)  # "10♥" in the corner and large
    assert "data-large" not in pieces("hand-1")  # a back: nothing to read
    assert "data-large" not in pieces("deck")  # a stack draws its top card's face in the middle already


def test_a_hand_of_offered_cards_is_one_tab_stop_on_the_staged_card_else_the_first() -> None:
    game = ThreeLanes()
    table = start(game, [0, 1], seed=5)
    draft = Draft(game, table.view(0), 0)

    first = Board(game, draft.view, 0, draft.offers(), None, Texts("en")).render()
    staged = Board(game, draft.view, 0, draft.offers(), None, Texts("en"), chosen={("hand-0", 3)}).render()

    def stops(html: str) -> list[str]:
        hand = html[html.index('data-space="hand-0"') :]
        return re.findall(r'tabindex="(-?\d)"', hand[: hand.index("</div></div>")])

    assert 'data-space="hand-0" role="toolbar"' in first and "data-roving>" in first
    assert stops(first) == ["0", "-1", "-1", "-1", "-1"]
    assert stops(staged) == ["-1", "-1", "-1", "0", "-1"]
    assert 'data-space="lane-0" role="group"' in first  # any other space stays a group, its buttons Tab stops


def test_arrows_home_and_end_move_through_a_hand_wrapping_at_its_ends() -> None:
    from boardweaver_web.roving import roving_step

    assert [roving_step(key, 0, 5) for key in ("ArrowRight", "ArrowLeft", "Home", "End")] == [1, 4, 0, 4]
    assert roving_step("Control+End", 1, 5) == 4 and roving_step("Control+Home", 3, 5) == 0
    assert roving_step("ArrowRight", 4, 5) == 0
    assert roving_step("Enter", 2, 5) is None and roving_step("Tab", 2, 5) is None  # Enter chooses, Tab leaves


def test_in_a_grid_the_arrows_go_by_the_screen_to_the_nearest_offered_square_that_way() -> None:
    from boardweaver_web.roving import roving_step

    def cells(*spots: tuple[int, int]) -> list[tuple[float, float, float, float]]:  # (column, row) -> a 40 px box
        return [(column * 42 + 20.0, row * 42 + 20.0, 40.0, 40.0) for column, row in spots]

    full = cells(*[(column, row) for row in range(3) for column in range(3)])  # every square offered, rows first
    assert [roving_step(key, 4, 9, full) for key in ("ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight")] == [1, 7, 3, 5]
    assert roving_step("ArrowUp", 1, 9, full) is None and roving_step("ArrowRight", 5, 9, full) is None  # the edge
    assert roving_step("Home", 4, 9, full) == 3 and roving_step("End", 4, 9, full) == 5  # the ends of its row
    assert roving_step("Control+Home", 4, 9, full) == 0 and roving_step("Control+End", 4, 9, full) == 8

    sparse = cells((0, 0), (3, 1), (1, 3), (4, 3), (2, 5))  # a few pieces to move on a larger board
    assert roving_step("ArrowDown", 1, 5, sparse) == 3  # two rows down: (1,3) and (4,3); (4,3) is the nearer column
    assert roving_step("ArrowUp", 4, 5, sparse) == 2  # a column aside, as (3,1) is: the nearer row, (1,3)
    assert roving_step("ArrowLeft", 3, 5, sparse) == 2  # on its own row first
    assert roving_step("ArrowRight", 0, 5, sparse) == 1  # none on row 0: the nearest row that has one, (3,1)
    assert roving_step("End", 2, 5, sparse) == 3 and roving_step("Home", 3, 5, sparse) == 2  # row 3's two pieces
    assert roving_step("Home", 1, 5, sparse) == 1  # alone on its row: it stays
    assert roving_step("Control+End", 0, 5, sparse) == 4 and roving_step("Control+Home", 4, 5, sparse) == 0

    flipped = [(200.0 - x, 200.0 - y, w, h) for x, y, w, h in full]  # black's board, drawn the other way round
    assert roving_step("ArrowUp", 4, 9, flipped) == 7 and roving_step("ArrowLeft", 4, 9, flipped) == 5
    assert roving_step("Control+Home", 4, 9, flipped) == 8 and roving_step("Home", 4, 9, flipped) == 5  # as seen
    assert roving_step("ArrowLeft", 0, 3) == 2  # a hand (no places) still wraps


def test_in_a_wrapped_hand_up_and_down_go_to_the_card_drawn_above_and_below() -> None:
    from boardweaver_web.roving import roving_step

    # 14 cards in rows of 5, 5 and 4, each 48 px wide and showing a 40 px strip (they overlap), rows 75 px apart
    hand = [((n % 5) * 40 + 24.0, (n // 5) * 75 + 33.0, 48.0, 67.0) for n in range(14)]

    def step(key: str, at: int) -> int | None:
        return roving_step(key, at, 14, hand, grid=False)

    assert step("ArrowDown", 1) == 6 and step("ArrowUp", 6) == 1
    assert step("ArrowDown", 9) == 13  # the last row is shorter: its card nearest below
    assert step("ArrowDown", 12) is None and step("ArrowUp", 2) is None  # the last and first rows go no further
    assert step("ArrowRight", 4) == 5 and step("ArrowLeft", 0) == 13  # along the hand, wrapping, as without places
    assert step("Home", 7) == 0 and step("End", 6) == 13  # the hand's ends, not its row's


def test_a_piece_picked_up_and_put_back_is_no_longer_marked_chosen() -> None:
    """Regression: fog chess kept a piece lifted (chosen) after its second click put it back."""
    from boardweaver_web.moves import last_click

    def clicks(*indexes: int) -> list[Action]:
        return [Action.piece_click("board-0", index) for index in indexes]

    assert last_click(clicks(12)) == {("board-0", 12)}
    assert last_click(clicks(12, 12)) == set()  # put back
    assert last_click(clicks(12, 12, 12)) == {("board-0", 12)}  # picked up again
    assert last_click(clicks(2, 5, 2)) == {("board-0", 2)}  # a switch back to the first
    assert last_click([*clicks(12), Action.space_click("board-0")]) == set()
    assert last_click([*clicks(12), Action.command("confirm")]) == {("board-0", 12)}


def test_the_focus_goes_to_the_nearest_offered_piece_when_its_own_is_offered_no_more() -> None:
    """Regression: turning a memory card over (or moving a chess piece) sent a keyboard player's focus back to the
    first card of the grid."""
    from boardweaver_web.roving import nearest_offer

    offered = [("grid", 3), ("grid", 9), ("grid", 11), ("hand-0", 10)]
    assert nearest_offer("grid/10", offered) == "grid/11"  # a tie: the later one
    assert nearest_offer("grid/4", offered) == "grid/3"
    assert nearest_offer("market/2", offered) is None and nearest_offer(None, offered) is None
    assert nearest_offer("grid/x", offered) is None and nearest_offer("board", offered) is None


def test_the_offered_cards_of_a_grid_are_one_tab_stop_moved_through_by_the_screen() -> None:
    game = load_game("market-draft")({})
    table = start(game, [0, 1], seed=5)
    draft = Draft(game, table.view(0), 0)

    html = Board(game, draft.view, 0, draft.offers(), None, Texts("en")).render()

    market = html[html.index('data-space="market"') :]
    market = market[: market.index("</div></div>")]
    assert 'role="toolbar"' in market and 'data-roving="grid"' in market
    assert re.findall(r'tabindex="(-?\d)"', market) == ["0"] + ["-1"] * 11  # twelve cards, one Tab stop


def test_regression_a_card_picked_by_keyboard_keeps_the_tab_stop_is_marked_and_says_it_is_picked() -> None:
    """Regression (a keyboard trial): Market draft's card picked with Enter was offered no more, so the focus fell to
    its neighbour, which looked picked; the picked card wore a thin ring alone and its label never said it."""
    game = MarketDraft({})
    table = start(game, [0, 1], seed=5)
    draft = Draft(game, table.view(0), 0)
    draft.take(Action.piece_click("market", 7))

    english = game.catalogs()["en"]
    html = Board(game, draft.view, 0, draft.offers(), english, Texts("en"), chosen={("market", 7)}).render()

    market = html[html.index('data-space="market"') :]
    market = market[: market.index("</div></div>")]
    cards = re.findall(r'<(button|div) [^>]*data-key="market/(\d+)"([^>]*)>', market)
    picked = next(attributes for _, index, attributes in cards if index == "7")
    assert [tag for tag, index, _ in cards if index == "7"] == ["div"]  # not offered: no second pick to click
    assert re.findall(r'tabindex="(-?\d)"', market) == ["-1"] * 7 + ["0"] + ["-1"] * 4  # it keeps the Tab stop
    assert re.search(r'aria-label="[^"]* · picked"', picked)
    assert market.count('class="chosen-mark"') == 1  # a tick on it, not its colour alone


def test_regression_cards_taken_while_the_board_offers_picks_say_they_cannot_be_played_not_the_buttons() -> None:
    """Regression (a player's trial of Market draft): once the seat had picked a market card, its own taken cards said
    "· moves in the buttons" (now "choose your move from the buttons after the board") and, clicked, "Choose your move
    from the buttons: Take ☀7", though the market still offered picks. A hand points to the commands only where no
    piece anywhere is offered; else its cards are cards it cannot play now."""
    game = MarketDraft({})
    table = start(game, [0, 1], seed=5)
    for seat, index in ((0, 7), (1, 2)):  # each takes a card: seat 0's hand holds one
        verify_commit(game, table, seat, [Action.piece_click("market", index), Action.command("take")])
    draft = Draft(game, table.view(0), 0)
    draft.take(Action.piece_click("market", 3))  # picked: the market's other cards and "Take" are offered

    english = game.catalogs()["en"]
    html = Board(game, draft.view, 0, draft.offers(), english, Texts("en"), chosen={("market", 3)}).render()
    cards = re.findall(r'<(?:div|button) [^>]*data-key="hand-0/\d+"[^>]*>', html)

    assert len(cards) == 1
    assert "data-use-commands" not in cards[0] and "data-not-now" in cards[0], cards
    assert "buttons after the board" not in html


def test_a_picked_card_alone_in_its_space_takes_no_tab_stop_and_the_focus_moves_on() -> None:
    game = ThreeLanes()
    table = start(game, [0, 1], seed=5)
    draft = Draft(game, table.view(0), 0)
    draft.take(Action.piece_click("hand-0", 3))  # staged: the lanes are offered, no card of the hand

    html = Board(game, draft.view, 0, draft.offers(), None, Texts("en"), chosen={("hand-0", 3)}).render()

    hand = html[html.index('data-space="hand-0"') :]
    hand = hand[: hand.index("</div></div>")]
    assert "tabindex" not in hand and 'role="group"' in hand  # the focus goes on to a lane, as before
    assert " · picked" in hand


def test_hexbloom_logs_each_tile_at_the_row_and_column_the_board_names_its_hex() -> None:
    """Regression: the log said "at (1, -1)" (axial coordinates) where the board names "row 2, column 4"."""
    from boardweaver_games.hexbloom.rules import row_column

    game = load_game("hexbloom")({})
    table = start(game, [0, 1], seed=5)
    board = Board(game, table.view(0), 0, [], None, Texts("en"))
    board.render()
    hexes = [space for space in table.state.spaces.values() if space.kind == "hex"]

    assert len(hexes) == 19
    for space in hexes:
        row, column = row_column(space.public_state["q"], space.public_state["r"])
        assert board.places[space.space_id].endswith(f", row {row}, column {column}"), space.space_id
    english, french = game.catalogs()["en"], game.catalogs()["fr"]
    placed = [m for m in play_game(game, [0, 1], seed=3).table.state.log if m.key.startswith("log.placed-")]
    assert placed and all(" at row " in english.render(m) and " en rangée " in french.render(m) for m in placed)


@pytest.mark.parametrize("name", sorted(installed_games()))
def test_the_end_panel_says_why_the_game_ended_in_the_readers_language(name: str) -> None:
    game = load_game(name)({})
    table = play_game(game, list(range(max(2, game.min_players))), seed=5).table
    result = table.state.result
    assert result is not None and result.reason is not None, "every example game gives end_game a reason"
    for locale in ("en", "fr"):
        catalog = NamedCatalog(game.catalogs()[locale], {})
        said = html.escape(sentence(catalog.render(result.reason)))  # with its full stop
        for seat in (0, None):
            panel = render_result(table.view(seat), NamedTexts(locale, {}), seat, catalog=catalog)

            assert f'<p class="reason">{said}</p>' in panel
            assert not re.search(r"\blog\.[a-z]", panel)  # a text, never its key


def test_bluffs_end_panel_counts_each_seats_cards_left_under_the_games_own_column_title() -> None:
    game = Bluff({})
    table = play_game(game, [0, 1, 2], seed=5).table
    result = table.state.result
    assert result is not None and len(result.winners) == 1
    left = {seat: len(table.state.space(f"hand-{seat}").pieces) for seat in (0, 1, 2)}

    english = render_result(
        table.view(0),
        Texts("en"),
        0,
        catalog=game.catalogs()["en"],
        score_title=score_title(game, game.catalogs()["en"]),
    )
    french = render_result(table.view(None), Texts("fr"), None, score_title=score_title(game, game.catalogs()["fr"]))

    assert result.scores == left and left[result.winners[0]] == 0
    assert "<th>Cards left</th>" in english and "<th>Cartes en main</th>" in french
    assert all(f"<td>{count}</td>" in english for count in left.values())
    assert score_title(OldMaid({}), None) is None  # a game without its own column: the platform's "Score"


def test_a_fact_holding_a_message_is_said_in_the_readers_language() -> None:
    game = MarketDraft({})
    table = start(game, [0, 1], seed=1)
    table.set(StateOf.player_public(0), "score", msg("title"))  # kept as its wire map, as a space title's word

    english = Board(game, table.view(0), 0, [], game.catalogs()["en"], Texts("en")).render()

    assert "Score: Market draft" in html.unescape(english) and "…" not in english


def test_a_game_with_every_space_in_the_seats_areas_draws_no_empty_table() -> None:
    from tests.sdk.fixtures_gem import Gem

    game = Gem({})
    table = start(game, [0, 1], seed=1)

    drawn = Board(game, table.view(0), 0, game.offers(table.view(0), 0), None, Texts("en")).render()
    market = Board(MarketDraft({}), start(MarketDraft({}), [0, 1], seed=1).view(0), 0, [], None, Texts("en"))

    assert 'class="middle"' not in drawn and 'data-space="pits-0"' in drawn and 'data-space="pits-1"' in drawn
    assert 'class="middle"' in market.render()  # a game with a table keeps it


def test_an_end_without_a_reason_shows_no_reason_line() -> None:
    game = OldMaid({})
    table = start(game, [0, 1, 2], seed=1)
    table.end_game(winners=[1])

    panel = render_result(table.view(0), Texts("en"), 0, catalog=game.catalogs()["en"])

    assert "reason" not in panel and "You lost" in panel


def test_an_end_reason_written_as_a_log_line_reads_as_a_sentence_in_the_end_panel() -> None:
    """Bluff's reason is its log line "Bea has no cards left and wins", without a full stop: the end panel
    showed it so, while the lines of what just happened above it ended with one (a player's trial)."""
    game = Bluff({})
    table = start(game, [0, 1, 2], seed=1)
    table.end_game([1], {0: 18, 1: 0, 2: 33}, reason=msg("log.won", player=1))

    english = render_result(table.view(0), Texts("en"), 0, catalog=game.catalogs()["en"])
    french = render_result(table.view(0), Texts("fr"), 0, catalog=game.catalogs()["fr"])

    assert re.search(r'<p class="reason">Player \d has no cards left and wins\.</p>', english)
    assert re.search(r'<p class="reason">[^<]*\.</p>', french)


def test_regression_the_seat_that_resigned_reads_you_resigned_the_others_its_name() -> None:
    """A first-time player's trial: the end panel of the player who resigned said "Player 2 resigned."; the
    server sends every seat one reason (`boardweaver.resigned`, player=1) and the tab reads it as "You resigned."
    for that seat (the catalog's "-you" form), by name for the others, in English and French."""
    game = OldMaid({})
    table = start(game, [0, 1, 2], seed=1)
    game.resign(table, 1)

    def reason(seat: int | None, locale: str, names: dict[int, str]) -> str:
        catalog = NamedCatalog(game.catalogs()[locale], names)
        panel = render_result(table.view(seat), NamedTexts(locale, names), seat, catalog=catalog)
        return html.unescape(panel.split('<p class="reason">')[1].split("</p>")[0])

    assert reason(1, "en", {1: "Ada"}) == "You resigned."
    assert reason(1, "fr", {1: "Ada"}) == "Vous avez abandonné la partie."
    assert reason(0, "en", {1: "Ada"}) == "Ada resigned."
    assert reason(None, "fr", {}) == "Le joueur 2 a abandonné la partie."
    fog = load_game("fog-chess")({})
    chess = start(fog, [0, 1], seed=1)
    fog.resign(chess, 1)
    english = render_result(chess.view(1), Texts("en"), 1, catalog=fog.catalogs()["en"])
    assert '<p class="reason">You (Black) resigned: White wins.</p>' in english


def test_an_end_by_the_clock_without_a_reason_says_whose_time_ran_out() -> None:
    game = OldMaid({})
    table = start(game, [0, 1, 2], seed=1)
    game.flag_fall(table, 1)  # the default flag fall: the others win, no reason given

    english = render_result(table.view(0), Texts("en"), 0, catalog=game.catalogs()["en"], flagged=[1])
    french = render_result(table.view(None), Texts("fr"), None, catalog=game.catalogs()["fr"], flagged=[1])

    assert '<p class="reason">Player 2 ran out of time.</p>' in english
    assert '<p class="reason">Temps écoulé pour Joueur 2.</p>' in french


def test_the_tab_renders_a_message_given_as_an_argument_with_the_seats_named() -> None:
    from boardweaver import Catalog, msg

    catalog = Catalog("fr", {"log.claimed": "Le joueur {player} annonce {rank}", "rank.jack": "Valet"})
    claim = msg("log.claimed", player=1, rank=msg("rank.jack"))

    assert NamedCatalog(catalog, {1: "Ada"}).render(claim) == "Ada annonce Valet"
    assert NamedCatalog(catalog, {}).render(claim) == "Le joueur 2 annonce Valet"


def test_a_look_back_draws_a_card_back_without_a_glyph_and_keeps_its_title_as_the_name() -> None:
    game = OldMaid()
    table = start(game, [0, 1], seed=2)

    page = Board(game, table.view(0), 0, [], game.catalogs()["en"], Texts("en")).render()

    other = re.search(r'data-space="hand-1".*?<div class="pieces"[^>]*>(.*?)</div></div>', page, re.S)
    assert other is not None
    backs = other.group(1)
    assert backs.count('<span class="face back"></span>') == len(table.state.space("hand-1").pieces)
    assert 'class="symbol"' not in backs and 'aria-label="A face-down card (Player 2' in backs


def test_regression_a_screen_reader_reads_another_seats_hand_of_backs_as_one_not_card_by_card() -> None:
    """Regression (a player's trial, Bluff's board read through): after "Player 2: Hand, 17 pieces" came seventeen
    lines "A face-down card (Player 2: Hand, n of 17)", and as many for the next seat, each time the reader crossed
    the board. Such a hand now reads as its label and its last card, every back still drawn; a back that just moved
    there (a card taken into it) is still read, with its mark."""
    game = Bluff()
    table = start(game, [0, 1, 2], seed=3)
    count = len(table.state.space("hand-1").pieces)

    def backs_of(space: str, **room: Any) -> list[str]:
        page = Board(game, table.view(0), 0, [], game.catalogs()["en"], Texts("en"), **room).render()
        drawn = re.search(rf'data-space="{space}".*?<div class="pieces"[^>]*>(.*?)</div></div>', page, re.S)
        assert drawn is not None
        return re.findall(r'<div class="piece [^>]*role="img"[^>]*>', drawn.group(1))

    quiet = backs_of("hand-1")
    moved = backs_of("hand-1", last_moves={"hand-1/4": 2})

    read = [back for back in quiet if 'aria-hidden="true"' not in back]
    assert len(quiet) == count and read == [quiet[-1]], read
    assert f'aria-label="A face-down card (Player 2: Hand, {count} of {count})"' in read[0]
    assert [i for i, back in enumerate(moved) if 'aria-hidden="true"' not in back] == [4, count - 1]
    assert 'aria-label="A face-down card (Player 2: Hand, 5 of' in moved[4]


def test_regression_another_seats_hand_with_cards_every_seat_saw_among_its_backs_is_drawn_as_one_row() -> None:
    """Regression (a player's trial of Bluff at 1280 and 390 px): a hand holding cards a call turned up among its
    backs wrapped as a hand to click does (three rows for 39 cards). It is marked `mixed`, with the count of its
    faces (`--up`), for the style to keep it one row; a hand of backs alone and the seat's own hand are not."""
    game = Bluff()
    table = start(game, [0, 1, 2], seed=3)
    card = table.state.space("hand-1").pieces[0].private_kind
    assert card is not None
    table.set_public_kind("hand-1", 0, card)  # as a call leaves it: the card every seat saw, in the taker's hand

    page = Board(game, table.view(0), 0, [], game.catalogs()["en"], Texts("en")).render()
    heads = dict(re.findall(r'<div class="([^"]*)" data-space="(hand-\d)"', page)[i][::-1] for i in range(3))
    styles = dict(re.findall(r'data-space="(hand-\d)".*?<div class="pieces" style="([^"]*)"', page, re.S))

    assert "mixed" in heads["hand-1"].split() and styles["hand-1"].endswith(";--up:1"), (heads, styles)
    assert "mixed" not in heads["hand-2"] and "backs" in heads["hand-2"].split() and "--up" not in styles["hand-2"]
    assert "mixed" not in heads["hand-0"] and "--up" not in styles["hand-0"]


def test_a_long_log_keeps_its_line_numbers_and_the_review_marks_the_lines_its_step_added() -> None:
    lines = [msg("log.line", n=n) for n in range(1, 251)]

    drawn = render_log(lines, None, fresh=2)
    short = render_log(lines[:3], None)

    items = re.findall(r"<li([^>]*)>", drawn)
    assert len(items) == 200 and items[0] == ' value="51"'  # the last 200 lines, numbered 51..250 as in the log
    assert all(attributes == "" for attributes in items[1:-2])
    assert items[-2:] == [' class="new"', ' class="new"']
    assert re.findall(r"<li([^>]*)>", short) == ["", "", ""]  # a whole log numbers itself from 1


def test_every_seat_of_an_installed_game_has_an_underline_colour_in_the_stylesheet() -> None:
    """A piece's owner or `by` seat is drawn as class `owner-N`; six-seat games once had no colour past seat 3."""
    from pathlib import Path

    css = (Path(__file__).resolve().parents[2] / "web" / "static" / "boardweaver.css").read_text()
    coloured = {int(n) for n in re.findall(r"\.owner-(\d+) \{ --owner: #[0-9a-f]{6}; \}", css)}
    striped = re.search(r":is\(([^)]*)\) \{\s*border-bottom: 4px solid var\(--owner\); \}", css)
    most = max(load_game(name).max_players for name in installed_games())

    assert most >= 6 and set(range(most)) <= coloured
    assert striped is not None and {f".owner-{seat}" for seat in range(most)} <= set(striped[1].split(", "))
    assert len(set(OWNER_SHAPES[:most])) == most  # and a shape of its own, for who does not tell the colours apart


def test_regression_the_sdks_seat_colours_are_the_stylesheets_and_memory_match_colours_by_them() -> None:
    """`boardweaver.colours.SEAT_COLOURS` is each `.owner-N` colour, and Memory match's kept pairs and flipped cards
    wear their seat's (a trial: seat 3's cards were green beside a gold stripe and mark, seat 4's gold by violet)."""
    from pathlib import Path

    from boardweaver.colours import SEAT_COLOURS
    from boardweaver_games.memory_match.rules import MemoryMatch

    css = (Path(__file__).resolve().parents[2] / "web" / "static" / "boardweaver.css").read_text()
    stylesheet = dict(re.findall(r"\.owner-(\d+) \{ --owner: (#[0-9a-f]{6}); \}", css))
    assert {int(seat): colour for seat, colour in stylesheet.items()} == dict(enumerate(SEAT_COLOURS))
    game = MemoryMatch()
    for seat in range(game.max_players):
        assert game.piece_look(f"flipped-{seat}")["color"] == SEAT_COLOURS[seat]
        assert game.piece_look(f"kept-{seat}-cat")["color"] == SEAT_COLOURS[seat]


def test_a_look_ink_colours_a_pieces_text_only_where_it_reads_and_the_card_colour_is_the_styles() -> None:
    from pathlib import Path

    from boardweaver.colours import CARD_COLOUR

    class Red(ThreeLanes):
        def piece_look(self, kind: str) -> dict[str, Any]:
            return {"text": kind, "ink": "#c62828"}  # no colour: the card's own

    class RedOnDark(ThreeLanes):
        def piece_look(self, kind: str) -> dict[str, Any]:
            return {**super().piece_look(kind), "color": "#202020", "ink": "#c62828"}

    def styles(game: ThreeLanes) -> set[str]:
        table = start(game, [0, 1], seed=5)
        html = Board(game, table.view(0), 0, [], game.catalogs()["en"], Texts("en")).render()
        return set(re.findall(r'style="(--piece-[^";]*(?:;--piece-[^";]*)*)', html))  # without a fanned card's --i

    css = (Path(__file__).resolve().parents[2] / "web" / "static" / "boardweaver.css").read_text()

    assert "--piece-ink:#c62828" in styles(Red())  # 4.78:1 on the cream card; its colour left to the style
    assert "--piece-color:#202020;--piece-ink:#ffffff" in styles(RedOnDark())  # 2.5:1: white instead
    assert not any("#c62828" in style for style in styles(RedOnDark()))
    assert f"--card: {CARD_COLOUR};" in css


def test_a_picked_up_chess_piece_marks_its_empty_targets_as_dots_and_its_captures_as_rings() -> None:
    """Regression (a player's trial): after picking up a piece in fog chess, its targets had only a thin yellow
    border, nearly invisible on dark squares, and the piece picked up looked like every other movable one."""
    from boardweaver_games.fogchess.rules import FogChess

    game = FogChess({"fen": "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"})
    draft = Draft(game, start(game, [0, 1], seed=1).view(0), 0)
    e4, e5, d5, g2 = 36, 28, 27, 54  # white's board runs a8..h8 down to a1..h1
    draft.take(Action.piece_click("board-0", e4))
    picked = Board(game, draft.view, 0, draft.offers(), None, Texts("en"), chosen={("board-0", e4)}).render()
    before = Board(game, draft.view, 0, draft.offers(), None, Texts("en")).render()

    def classes(drawn: str, index: int) -> set[str]:
        return set(re.findall(rf'class="([^"]*)" data-key="board-0/{index}"', drawn)[0].split())

    assert {"target", "offer", "intent-confirm"} <= classes(picked, e5) and "capture" not in classes(picked, e5)
    assert {"target", "capture"} <= classes(picked, d5)
    assert {"chosen", "offer", "intent-cancel"} <= classes(picked, e4)
    assert "target" not in classes(picked, g2)  # another piece to switch to, no destination
    assert "target" not in before  # no piece picked up on the grid: nothing is a destination


def test_a_fanned_card_carries_its_place_for_the_style_to_end_a_wrapped_hands_rows() -> None:
    """Regression (a tester's trial): only a hand's last card showed its face large, not each row's last card."""
    game = ThreeLanes()
    table = start(game, [0, 1], seed=5)

    html = Board(game, table.view(0), 0, [], None, Texts("en")).render()

    hand = html[html.index('data-space="hand-0"') :]
    places = re.findall(r'data-key="hand-0/(\d+)"[^>]*style="[^"]*--i:(\d+)"', hand[: hand.index("</div></div>")])
    assert places and all(key == place for key, place in places), places


def test_every_card_an_open_draft_picked_and_may_put_back_is_marked_chosen() -> None:
    """Regression (a player's trial of Bluff): of the cards picked for a claim only the last was raised; the
    others had the thin ring of a Cancel, easy to take for the ring of a card to click."""
    from boardweaver_games.bluff.rules import Bluff
    from boardweaver_web.moves import last_click, picked

    game = Bluff()
    table = start(game, [0, 1, 2], seed=5)
    seat = table.state.active_player_ids[0]
    draft = Draft(game, table.view(seat), seat)
    hand = next(space for space in draft.view.state.spaces.values() if space.owner == seat)
    for index in (0, 3):
        draft.take(Action.piece_click(hand.space_id, index))
    offers = draft.offers()

    assert picked(draft.steps, draft.taken_offers, offers) == {(hand.space_id, 0), (hand.space_id, 3)}
    assert last_click(draft.steps) == {(hand.space_id, 3)}
    draft.take(Action.piece_click(hand.space_id, 0))  # put back
    assert picked(draft.steps, draft.taken_offers, draft.offers()) == {(hand.space_id, 3)}
    steps, taken = [*draft.steps, Action.space_click(hand.space_id)], [*draft.taken_offers, offers[0]]
    assert picked(steps, taken, draft.offers()) == set()


def test_regression_a_card_put_back_after_another_was_picked_is_not_marked_chosen() -> None:
    """Regression (a player's trial of Bluff): cards 0, 1 and 2 picked, then 1 put back: 1 stayed raised and
    "picked" (the last click), its offer "Select", while Play said 2 cards. A Cancel click that puts back a piece
    picked earlier marks nothing; one that switches to a piece not held marks that piece (fog chess, above)."""
    from boardweaver_games.bluff.rules import Bluff
    from boardweaver_web.moves import last_click, picked

    game = Bluff()
    table = start(game, [0, 1, 2], seed=5)
    seat = table.state.active_player_ids[0]
    draft = Draft(game, table.view(seat), seat)
    hand = next(space for space in draft.view.state.spaces.values() if space.owner == seat)
    for index in (0, 1, 2, 1):
        draft.take(Action.piece_click(hand.space_id, index))

    assert draft.taken_offers[-1].intent is Intent.CANCEL
    assert last_click(draft.steps, draft.taken_offers) == set()
    assert picked(draft.steps, draft.taken_offers, draft.offers()) == {(hand.space_id, 0), (hand.space_id, 2)}


@pytest.mark.parametrize("game_name", ["fog-chess", "market-draft"])
def test_regression_a_switch_to_another_piece_marks_that_piece_alone_as_chosen(game_name: str) -> None:
    """Regression (a player's trial of fog chess): after "Pick up the piece on f1 instead" both e1 and f1 stayed
    green and ticked, e1's label "... · picked": a switch is a Cancel, and every piece clicked once that a Cancel
    was offered on counted as picked."""
    from boardweaver_web.moves import last_click, picked

    game = load_game(game_name)({})
    table = start(game, [0, 1], seed=5)
    draft = Draft(game, table.view(0), 0)
    first, second = [offer.action for offer in draft.offers() if offer.action.type == "piece"][:2]
    draft.take(first)
    draft.take(second)  # a switch: offered as a Cancel

    def chosen() -> set[tuple[str, int]]:
        return last_click(draft.steps) | picked(draft.steps, draft.taken_offers, draft.offers())

    assert draft.taken_offers[-1].intent is Intent.CANCEL
    assert chosen() == {(second.space_id, second.index)}
    draft.take(first)  # and back to the first
    assert chosen() == {(first.space_id, first.index)}
    draft.undo()  # Escape, or "Undo my last pick": the second again, alone
    assert chosen() == {(second.space_id, second.index)}
    draft.undo()
    assert chosen() == {(first.space_id, first.index)}


def test_only_the_pieces_a_draft_put_in_a_space_are_marked_drafted_not_those_that_moved_up_a_place() -> None:
    """Regression (a player's trial of Bluff): two cards played from the front of a hand marked every card left
    in it as drafted (each had moved up a place), the whole hand ringed."""
    from boardweaver_games.bluff.rules import PILE, Bluff, hand_id

    game = Bluff()
    table = start(game, [0, 1, 2], seed=5)
    seat = table.state.active_player_ids[0]
    base = table.view(seat)
    draft = Draft(game, table.view(seat), seat)
    for index in (0, 1):
        draft.take(Action.piece_click(hand_id(seat), index))
    draft.take(Action.command("play"))
    shown = draft.view.view(draft.view.perspective)

    html = Board(game, shown, seat, [], None, Texts("en"), base).render()
    drafted = re.findall(r'class="piece [^"]*\bdrafted\b[^"]*" data-key="([^"/]*)/', html)

    assert drafted == [PILE, PILE]  # the two cards played; none of the hand's


class TwoFields(Game):
    """A Battleship's shape: each seat's own 5 x 5 field in its area, both drawn as grids."""

    name = "two-fields"
    min_players = 2
    max_players = 2
    look: ClassVar[dict[str, Any]] = {"spaces": {"field": {"area": "seat", "layout": "grid", "columns": 5}}}

    def setup(self, table: Table, players: list[int]) -> None:
        for player in players:
            cells = [Piece("fog").hiding("empty") for _ in range(25)]
            table.add_space(Space(f"field-{player}", "field").owned_by(player).with_pieces(cells))
        table.set_active_players([players[0]])

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        return []

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        raise NotImplementedError


def test_two_grids_on_the_board_share_the_windows_height_and_one_grid_keeps_it_whole() -> None:
    """A board-template author's trial: each of two 5 x 5 fields was sized to fill a laptop's height, so the player
    scrolled between the field they ping and their own."""
    game = TwoFields()
    table = start(game, [0, 1], seed=1)

    page = Board(game, table.view(0), 0, [], None, Texts("en")).render()
    chess = load_game("fog-chess")()
    one = Board(chess, start(chess, [0, 1], seed=1).view(0), 0, [], None, Texts("en")).render()

    assert page.count('style="--columns:5;--rows:5;--grids:2;--all-rows:10"') == 2
    assert "--grids" not in one and 'style="--columns:8;--rows:8"' in one


def test_grids_side_by_side_share_the_windows_height_as_one_the_review_of_fog_chess_is_two_boards_high() -> None:
    """The review of fog chess draws both seats' boards side by side above the true board: counted as three grids
    of 24 rows, its 1280 x 800 boards shrank to 24 px while half the screen stayed empty; they are two boards high."""
    chess = load_game("fog-chess")()
    table = start(chess, [0, 1], seed=1)

    review = Board(chess, table, None, [], None, Texts("en")).render()

    assert review.count('style="--columns:8;--rows:8;--grids:2;--all-rows:16"') == 3


def test_regression_a_memory_card_turned_over_stays_in_the_grids_roving_group_and_is_no_button() -> None:
    """Regression (a keyboard trial): a card face up was out of the grid's roving group, so the focus left it when
    it was turned over and the arrows never reached it again; it is still no button (Enter takes nothing)."""
    from boardweaver_games.memory_match.rules import MemoryMatch

    game = MemoryMatch()
    table = start(game, [0, 1], seed=3)
    verify_commit(game, table, 0, [Action.piece_click("grid", 11)])

    def card(seat: int, index: int) -> str:
        draft = Draft(game, table.view(seat), seat)
        page = Board(game, draft.view, seat, draft.offers(), game.catalogs()["en"], Texts("en")).render()
        return re.findall(rf'<(?:div|button) [^>]*data-key="grid/{index}"[^>]*>', page)[0]

    turned, waiting = card(0, 11), card(1, 0)

    assert turned.startswith("<div ") and 'tabindex="-1"' in turned and "data-offer" not in turned
    assert 'role="img"' in turned and "face-down" not in turned  # read as what it shows
    assert 'tabindex="0"' in waiting and "data-offer" not in waiting  # another's turn: the grid is still read


@pytest.mark.parametrize(
    ("locale", "taker", "loser", "review"),
    [
        (
            "en",
            "Last card: You took Bob's Queen.",
            "Last card: Ada took your Queen.",
            "Last card: Ada took Bob's Queen.",
        ),
        (
            "fr",
            "Dernière carte : Vous avez pris une Dame à Bob.",
            "Dernière carte : Ada vous a pris une Dame.",
            "Dernière carte : Ada a pris une Dame à Bob.",
        ),
    ],
)
def test_regression_old_maid_tells_the_taker_and_the_seat_that_lost_it_which_card_and_a_review_in_the_third_person(
    locale: str, taker: str, loser: str, review: str
) -> None:
    """A first-time player's trial: nobody was told which card was taken. Each of the two seats reads it in its own
    words; the third seat is told nothing; a review (no reader: every seat's state shown) says who took it from
    whom, never "you"."""
    game = OldMaid()
    table = start(game, [0, 1, 2], seed=6)
    for player, cards in {0: ["rank-1"], 1: ["rank-12", "rank-3"], 2: ["rank-5", "maid"]}.items():
        table.state.space(f"hand-{player}").pieces = [Piece("back").hiding(card) for card in cards]
    table.state.active_player_ids, table.state.result = [0], None
    verify_commit(game, table, 0, [Action.piece_click("hand-1", 0)], picks=[0])
    names = {0: "Ada", 1: "Bob"}

    def chips(seat: int | None) -> list[str]:
        catalog = NamedCatalog(game.catalogs()[locale], names)
        view = table if seat is None else table.view(seat)
        drawn = Board(game, view, seat, [], catalog, NamedTexts(locale, names)).render()
        return [html.unescape(fact) for fact in re.findall(r'data-fact="last_card">([^<]*)<', drawn)]

    # the third seat reads its own line, "none yet" (there from the start, so a phone's hand never moves down)
    nothing = {"en": "Last card: none yet", "fr": "Dernière carte : pas encore"}[locale]
    assert (chips(0), chips(1), chips(2)) == ([taker], [loser], [nothing])
    assert chips(None) == [review, review, nothing]


@pytest.mark.parametrize(
    ("locale", "knight", "pawn"),
    [
        ("en", "Last move: Knight g1\u2013f3", "Last move: e7\u2013e5"),
        ("fr", "Dernier coup : Cavalier g1\u2013f3", "Dernier coup : e7\u2013e5"),
    ],
)
def test_regression_fog_chess_says_the_seats_last_move_as_players_write_it_and_only_to_that_seat(
    locale: str, knight: str, pawn: str
) -> None:
    """A first-time player's trial: fog chess's chip read "Last move: e2e4" (UCI). It reads "Knight g1-f3", a
    pawn's "e7-e5" (en dashes), in the seat's language; the other seat, who did not see it, is never told it."""
    from boardweaver_games.fogchess.chessrules import Move

    game = load_game("fog-chess")({})
    table = start(game, [0, 1], seed=1)
    game.move(table, 0, Move("g1", "f3"))
    game.move(table, 1, Move("e7", "e5"))

    def chip(seat: int, player: int) -> str | None:
        drawn = Board(game, table.view(seat), seat, [], game.catalogs()[locale], NamedTexts(locale, {})).render()
        area = re.search(rf'<section class="seat-area[^"]*" data-seat="{player}">(.*?)</section>', drawn, re.S)
        assert area is not None
        fact = re.search(r'data-fact="last_move">([^<]*)<', area.group(1))
        return html.unescape(fact.group(1)) if fact else None

    assert chip(0, 0) == knight and chip(1, 1) == pawn
    assert chip(1, 0) is None and chip(0, 1) is None  # the other side's move: not in its view


@pytest.mark.parametrize(("locale", "not_now"), [("en", " · can't play now"), ("fr", " · pas jouable maintenant")])
def test_regression_every_card_of_a_seats_own_hand_is_in_its_roving_group_and_one_not_playable_now_says_so(
    locale: str, not_now: str
) -> None:
    """Regression (keyboard and screen reader): a hand was a roving group of its offered cards alone, so on another
    seat's turn (and beside offered cards) the arrows never reached the others; now every card of a hand its seat
    sees is in it, the ones it surely cannot play now saying so; another seat's backs are not."""
    from boardweaver_games.draw_discard.rules import DrawDiscard

    game = DrawDiscard({"endless": False})
    table = start(game, [0, 1, 2, 3], seed=4)  # seat 0 plays first

    def hand(seat: int, viewer: int) -> list[str]:
        draft = Draft(game, table.view(viewer), viewer)
        catalog = game.catalogs()[locale]
        page = Board(game, draft.view, viewer, draft.offers(), catalog, Texts(locale)).render()
        return re.findall(rf'<(?:div|button) [^>]*data-key="hand-{seat}/\d+"[^>]*>', page)

    waiting, playing, backs = hand(1, 1), hand(0, 0), hand(0, 1)

    assert len(waiting) == 5 and all("data-not-now" in card and "data-offer" not in card for card in waiting)
    assert [card.count('tabindex="0"') for card in waiting] == [1, 0, 0, 0, 0]
    assert all('tabindex="-1"' in card for card in waiting[1:])
    assert all(html.unescape(re.findall(r'aria-label="([^"]*)"', card)[0]).endswith(not_now) for card in waiting)
    # its turn: a command plays a card ("Play 10♥"), not a click on it; every card is read, none said unplayable
    assert all("tabindex" in card and "data-not-now" not in card for card in playing)
    assert not any(not_now.strip(" ·") in html.unescape(card) for card in playing)
    assert all("tabindex" not in card for card in backs)  # another seat's hand of backs: nothing to read


@pytest.mark.parametrize(
    ("locale", "said", "notice"),
    [
        ("en", " · planned for Lane 3", "Already planned for Lane 3."),
        ("fr", " · prévu pour Voie 3", "Déjà prévu pour Voie 3."),
    ],
)
def test_regression_a_card_in_the_seats_own_plan_says_it_is_planned_not_that_it_cannot_be_played(
    locale: str, said: str, notice: str
) -> None:
    """Regression (a screen reader's trial of Three lanes): a card the seat had planned read "1 (Player 1 (you): Plan,
    1 of 1) · can't play now", and Enter on it said "You can't play that now.", as if it were a card of the hand left
    out. The seat's own view holds where it is planned (the piece's private `target`): said instead; the other seat,
    whose view has no target, hears nothing of the lane."""
    game = ThreeLanes()
    table = start(game, [0, 1], seed=5)
    catalog = game.catalogs()[locale]

    def plan(draft: Draft, viewer: int) -> list[str]:
        page = html.unescape(Board(game, draft.view, viewer, draft.offers(), catalog, Texts(locale)).render())
        return re.findall(r'<(?:div|button) [^>]*data-key="plan-0/\d+"[^>]*>', page)

    drafting = Draft(game, table.view(0), 0)
    drafting.take(Action.piece_click("hand-0", 0))
    drafting.take(Action.space_click("lane-2"))
    drafted = plan(drafting, 0)  # planned in the open draft
    verify_commit(game, table, 0, [*drafting.steps, Action.command("confirm")])
    locked, theirs = plan(Draft(game, table.view(0), 0), 0), plan(Draft(game, table.view(1), 1), 1)

    for mine in (drafted, locked):
        assert len(mine) == 1 and re.findall(r'aria-label="([^"]*)"', mine[0])[0].endswith(said), mine
        assert f'data-not-now="{notice}"' in mine[0]
        assert "can't play" not in mine[0] and "pas jouable" not in mine[0]
    lane = " ".join(said.split()[-2:])  # "Lane 3": where it is planned is the planning seat's alone
    assert len(theirs) == 1 and lane not in theirs[0] and said.strip(" ·") not in theirs[0]
    assert "data-not-now" not in theirs[0]


@pytest.mark.parametrize(
    ("locale", "notice", "hint"),
    [
        ("en", "Choose your move from the buttons: Play ", " · choose your move from the buttons after the board"),
        (
            "fr",
            "Choisissez votre coup parmi les boutons : ",
            " · choisissez votre coup parmi les boutons après le plateau",
        ),
    ],
)
def test_regression_a_hand_whose_cards_commands_play_points_to_the_commands(
    locale: str, notice: str, hint: str
) -> None:
    """Regression (a player's trial of Draw-discard): at the seat's turn its cards are played by the commands ("Play
    6♠"), and Enter, Space or a click on a card did nothing and said nothing. Each card now carries the notice that
    names the commands (`data-use-commands`, said by RoomPage), and the hand's first card alone hints it in its
    label, not every card's."""
    from boardweaver_games.draw_discard.rules import DrawDiscard

    game = DrawDiscard({"endless": False})
    table = start(game, [0, 1, 2, 3], seed=4)  # seat 0 plays first
    draft = Draft(game, table.view(0), 0)
    page = Board(game, draft.view, 0, draft.offers(), game.catalogs()[locale], Texts(locale)).render()
    cards = re.findall(r'<(?:div|button) [^>]*data-key="hand-0/\d+"[^>]*>', page)
    said = [html.unescape(re.findall(r'data-use-commands="([^"]*)"', card)[0]) for card in cards]
    labels = [html.unescape(re.findall(r'aria-label="([^"]*)"', card)[0]) for card in cards]

    assert len(cards) == 5 and all(s.startswith(notice) and s.count(",") == 4 for s in said), said  # five commands
    assert labels[0].endswith(hint) and labels[0].count(hint) == 1, labels[0]
    assert not any(hint in label for label in labels[1:]), labels  # the hand's first card alone, once
    assert html.unescape(page).count(hint) == 1
    assert all("data-not-now" not in card for card in cards)


def test_regression_the_hint_to_the_buttons_is_said_in_a_players_words_after_all_the_card_is() -> None:
    """Regression (a screen reader's trial of Bluff and Memory match): after a card's label came " · moves in the
    buttons", words no player says; and on Memory match's grid after a miss the hint came amid what the card is
    ("Bird (1 of 16) · moves in the buttons · stripe of Cy (you)"). The hint says what to do, in words, once, last."""
    from boardweaver_games.memory_match.rules import MemoryMatch

    game = MemoryMatch({})
    table = start(game, [0, 1], seed=3)
    faces = [piece.private_kind for piece in table.state.space("grid").pieces]
    miss = next(i for i in range(1, len(faces)) if faces[i] != faces[0])
    verify_commit(game, table, 0, [Action.piece_click("grid", 0)])
    verify_commit(game, table, 0, [Action.piece_click("grid", miss)])  # a miss: "Turn both cards back" alone
    draft = Draft(game, table.view(0), 0)
    page = Board(game, draft.view, 0, draft.offers(), game.catalogs()["en"], NamedTexts("en", {0: "Cy"})).render()
    labels = [html.unescape(label) for label in re.findall(r'data-key="grid/\d+"[^>]*aria-label="([^"]*)"', page)]
    hinted = [label for label in labels if "buttons" in label]

    assert [offer.action.name for offer in draft.offers()] == ["turn-back"]
    assert len(hinted) == 1, hinted
    assert hinted[0].endswith(" · played by Cy (you) · choose your move from the buttons after the board"), hinted
    assert "moves in the buttons" not in page


def _first_pair_kept(game: Game) -> tuple[Table, list[str | None], int]:
    """A Memory match (seed 3) whose seat 0 flipped its first card's twin and kept the pair: the table, the grid's
    faces as dealt, and where the twin lay."""
    table = start(game, [0, 1], seed=3)
    faces = [piece.private_kind for piece in table.state.space("grid").pieces]
    partner = faces.index(faces[0], 1)
    verify_commit(game, table, 0, [Action.piece_click("grid", 0)])
    verify_commit(game, table, 0, [Action.piece_click("grid", partner)])
    return table, faces, partner


@pytest.mark.parametrize(
    ("locale", "said"),
    [
        ("en", "You can't play that card now: 14 other cards can be played."),
        ("fr", "Vous ne pouvez pas jouer cette carte maintenant : 14 autres cartes peuvent être jouées."),
    ],
)
def test_regression_a_memory_card_of_a_kept_pair_says_it_cannot_be_played_and_a_chess_square_nothing(
    locale: str, said: str
) -> None:
    """Regression (a keyboard player's trial): Enter or Space on a card of a pair kept, face up, said nothing. A
    card of a seat's grid that no offer clicks now carries the notice Enter, Space or a click gives (`data-not-now`,
    `RoomPage.on_key`): how many of the grid's cards can be played, else "You can't play that now." on another
    seat's turn. Its label is unchanged (it is no button), and a board of named squares (fog chess) gets none."""
    from boardweaver_games.memory_match.rules import MemoryMatch

    game = MemoryMatch()
    table, _, partner = _first_pair_kept(game)

    def card(seat: int, index: int) -> str:
        draft = Draft(game, table.view(seat), seat)
        page = Board(game, draft.view, seat, draft.offers(), game.catalogs()[locale], Texts(locale)).render()
        return html.unescape(re.findall(rf'<(?:div|button) [^>]*data-key="grid/{index}"[^>]*>', page)[0])

    kept, waiting = card(0, 0), card(1, 0)
    offered = card(0, 1 if partner != 1 else 2)
    chess = load_game("fog-chess")({})
    chess_table = start(chess, [0, 1], seed=1)
    draft = Draft(chess, chess_table.view(0), 0)
    squares = Board(chess, draft.view, 0, draft.offers(), chess.catalogs()["en"], Texts("en")).render()

    assert f'data-not-now="{said}"' in kept and "data-offer" not in kept
    assert 'aria-label="' in kept and "·" not in kept.split('aria-label="')[1]  # its label says nothing more
    not_now = "You can't play that now." if locale == "en" else "Vous ne pouvez pas jouer cela maintenant."
    assert f'data-not-now="{not_now}"' in waiting  # another seat's turn
    assert "data-offer" in offered and "data-not-now" not in offered
    assert "data-not-now" not in squares and "data-key=" in squares


def test_the_seats_own_said_facts_are_its_private_messages_as_its_header_says_them_and_nobody_elses() -> None:
    """What `RoomView.say_own_news` says when a frame changes one: Old maid's "Last card: ..." of the seat itself,
    in its own words; not another seat's, not a spectator's, not a fact the catalog does not name."""
    game = OldMaid()
    table = start(game, [0, 1, 2], seed=6)
    for player, cards in {0: ["rank-1"], 1: ["rank-12", "rank-3"], 2: ["rank-5", "maid"]}.items():
        table.state.space(f"hand-{player}").pieces = [Piece("back").hiding(card) for card in cards]
    table.state.active_player_ids, table.state.result = [0], None
    verify_commit(game, table, 0, [Action.piece_click("hand-1", 0)], picks=[0])

    def said(seat: int | None) -> dict[str, str]:
        catalog = NamedCatalog(game.catalogs()["en"], {})
        return Board(game, table.view(seat), seat, [], catalog, NamedTexts("en", {})).own_said_facts()

    assert said(0) == {"last_card": "Last card: You took Player 2's Queen."}
    assert said(1) == {"last_card": "Last card: Player 1 took your Queen."}
    assert said(2) == {"last_card": "Last card: none yet"}  # its own, untouched by the take
    assert said(None) == {}


@pytest.mark.parametrize(
    ("locale", "kept", "flipped"),
    [
        ("en", "Fish, a pair kept by Ada (1 of 16)", "A card flipped by Bob; only they see its face"),
        ("fr", "Poisson, une paire gardée par Ada (1 sur 16)", "Une carte retournée par Bob ; seule cette personne"),
    ],
)
def test_regression_a_memory_card_says_whose_pair_it_is_and_who_flipped_it_not_by_colour_alone(
    locale: str, kept: str, flipped: str
) -> None:
    """Regression (a screen-reader player's trial): a kept pair's card said only "Fish (1 of 16)"; whose pair it
    was showed by its colour alone, and a card flipped in hidden mode said "a player" flipped it. Both name
    the seat, by the name its player chose."""
    from boardweaver_games.memory_match.rules import MemoryMatch

    game = MemoryMatch({"mode": "hidden"})
    table, faces, _ = _first_pair_kept(game)
    other = next(i for i, face in enumerate(faces) if face != faces[0])
    verify_commit(game, table, 0, [Action.piece_click("grid", other)])

    names = {0: "Ada", 1: "Bob"}
    catalog = NamedCatalog(game.catalogs()[locale], names)
    draft = Draft(game, table.view(1), 1)
    page = html.unescape(Board(game, draft.view, 1, [], catalog, NamedTexts(locale, names)).render())

    def label(index: int) -> str:
        tag = re.findall(rf'<(?:div|button) [^>]*data-key="grid/{index}"[^>]*>', page)[0]
        return re.findall(r'aria-label="([^"]*)"', tag)[0]

    assert faces[0] == "fish" and label(0) == kept
    assert label(other).startswith(flipped.replace("Bob", "Ada"))  # seat 0 flipped it; seat 1 sees who, not what


@pytest.mark.parametrize(("locale", "said"), [("en", "The game is over."), ("fr", "La partie est finie.")])
def test_regression_a_card_of_a_game_over_says_the_game_is_over_not_that_it_cannot_be_played_now(
    locale: str, said: str
) -> None:
    """Regression (every way a game stops): once the host ended it (`over`, the table's state not over) or it
    ended by its rules, Enter on a card of the seat's hand said "You can't play that now.", as if a turn would come."""
    game = ThreeLanes()
    table = start(game, [0, 1], seed=4)
    ended = start(game, [0, 1], seed=4)
    ended.end_game(winners=[1])  # a resignation, a flag, its rules: the state says it is over

    host_ended = Board(game, table.view(0), 0, [], game.catalogs().get(locale), Texts(locale), over=True).render()
    by_rules = Board(game, ended.view(0), 0, [], game.catalogs().get(locale), Texts(locale)).render()

    for page in (host_ended, by_rules):
        cards = re.findall(r'<(?:div|button) [^>]*data-key="hand-0/\d+"[^>]*>', page)
        assert cards and all(f'data-not-now="{said}"' in card for card in cards), cards
        assert "data-offer" not in page and "can't play now" not in html.unescape(page)
