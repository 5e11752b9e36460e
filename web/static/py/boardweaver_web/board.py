"""Draws a table as HTML from the game's look: spaces, pieces, owned areas, players, offers.

Pure Python: it returns markup text with `data-offer` numbers on what the seat may click, and
`data-key` ("space/index") on every piece so moves can be animated. What the seat may click is a real
`<button>` whose label says what it is and what a click does; every other piece is an image with a label.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from boardweaver import Catalog, Game, Intent, Message, Offer, Space, Table, msg
from boardweaver.game import seat_area_of
from boardweaver.messages import message_in

from .faces import escape, name_is_long, owner_shape
from .number_choice import number_rows
from .panels import for_reader
from .pieces import PieceDrawing
from .texts import Texts


@dataclass
class Board(PieceDrawing):
    """What one drawing needs: the game, the table shown, the seat, its offers and the texts."""

    game: Game
    table: Table
    me: int | None
    offers: list[Offer]
    catalog: Catalog | None
    texts: Texts
    base: Table | None = None  # the last server view: pieces that differ from it are drafted
    show_private: bool = True
    chosen: set[tuple[str, int]] = field(default_factory=set)  # pieces the open draft clicked last
    over: bool = False  # the room is over (the host may end it before the game's own end): nobody is to act
    awaited: list[int] = field(default_factory=list)  # seats the room waits for before it starts: nobody acts yet
    away: list[int] = field(default_factory=list)  # seats whose player left the room (no socket for a while)
    bots: set[int] = field(default_factory=set)  # seats the server's bots play
    piece_offers: dict[tuple[str, int], int] = field(default_factory=dict)
    space_offers: dict[str, int] = field(default_factory=dict)
    places: dict[str, str] = field(default_factory=dict)  # a hex's name with its row and column, for labels
    picked: set[int] = field(default_factory=set)  # command offers drawn as pickers on a cell (not as commands)
    last_moves: dict[str, int] = field(default_factory=dict)  # "space/index" (or a space id) -> who moved there last
    marked: bool = False  # a piece carries a seat's stripe: each seat's header shows its own (set by `render`)
    _named: dict[str, str] = field(default_factory=dict)  # space id -> its name for labels, this drawing's
    _tab_stops: dict[str, int] = field(default_factory=dict)  # a roving hand's space id -> its Tab stop's index
    _map_cells: list[str] = field(default_factory=list)  # a roving hex map's offered cells; the first is its Tab stop
    _lanes: list[str] = field(default_factory=list)  # the table's other offered spaces, when a roving group
    _read_grids: set[str] = field(default_factory=set)  # a seat's grids: every card a roving item, to be read
    _read_hands: set[str] = field(default_factory=set)  # a seat's own hands it sees: every card a roving item too
    # those whose cards not offered say "can't play now" (or "4 cards chosen already"): the label's end, the notice
    _said_not_now: dict[str, tuple[str, str]] = field(default_factory=dict)
    _planned: dict[str, list[str]] | None = None  # each face this seat sees planned, and where (`_planned_kinds`)
    # those whose cards a command plays (hand-notice): the Tab stop's label's end, the notice naming the commands
    _use_commands: dict[str, tuple[str, str]] = field(default_factory=dict)
    _drafted_at: dict[str, set[int]] = field(default_factory=dict)  # a space's pieces the draft put there
    _grids: tuple[int, int] = (1, 0)  # the grids drawn and all their rows: a wide screen fits them all, not each

    def __post_init__(self) -> None:
        for number, offer in enumerate(self.offers):
            action = offer.action
            if action.type == "piece" and action.space_id is not None and action.index is not None:
                self.piece_offers[(action.space_id, action.index)] = number
            elif action.type == "space" and action.space_id is not None:
                self.space_offers[action.space_id] = number

    # -- texts ---------------------------------------------------------------------------------------

    def say(self, key: str | Message, **args: Any) -> str:
        """Renders a game message in the seat's language: a key with `args`, or a `msg(...)` as a look's `title`
        or `says` may be (the key itself when the game has no catalogue)."""
        message = key if isinstance(key, Message) else msg(key, **args)
        return self.catalog.render(message) if self.catalog is not None else message.key

    def label(self, offer: Offer) -> str:
        if offer.label_message is not None and self.catalog is not None:
            return self.catalog.render(offer.label_message)
        if offer.label_message is not None:
            return offer.label_message.key
        return offer.action.describe()

    # -- whole table ---------------------------------------------------------------------------------

    def _grid_column(self, spaces: list[Space]) -> tuple[int, int]:
        """The grid rows of `spaces` drawn one above another, and how many grids they are."""
        rows = [count for space in spaces if (count := _grid_rows(space, self.game.space_look(space.kind)))]
        return sum(rows), len(rows)

    def render(self) -> str:
        state = self.table.state
        seats: dict[int, list[Space]] = {player: [] for player in state.player_ids}
        middle: list[Space] = []
        side: list[Space] = []
        ghosts = self._ghosts()
        for space in state.spaces.values():
            look = self.game.space_look(space.kind)
            if look.get("hidden"):
                continue
            if look.get("owner_only") and not self.table.perspective.sees(space.owner):
                continue  # drawn only where its owner's secrets are seen: the owner, the referee, the review
            if look.get("hide_empty") and self._is_empty(space, ghosts):
                continue
            area = look.get("area", "table")
            holder = seat_area_of(space) if area == "seat" else None  # its owner, or a hand its seat may not see
            if holder is not None and holder in seats:
                seats[holder].append(space)
            elif area == "side":
                side.append(space)
            else:
                middle.append(space)
        # the grids one above another: the other seats' areas stand side by side (the tallest counts), the seat's
        # own below them, then the table's (a review's two seats' boards and the true board: two grids high)
        others_spaces = [spaces for player, spaces in seats.items() if player != self.me]
        bands = [others_spaces, [seats.get(self.me, []) if self.me is not None else []], [middle + side]]
        stacked = [max((self._grid_column(column) for column in band), default=(0, 0)) for band in bands]
        self._grids = (sum(grids for _, grids in stacked), sum(rows for rows, _ in stacked))
        others = [p for p in state.player_ids if p != self.me]
        # each seat's header then shows its stripe: the key; a game whose stripes come and go (Memory match's flips)
        # says `"stripes": true` in its look, and the key stays all game long
        self.marked = self.game.look.get("stripes") is True or _owner_marked(state.spaces.values())
        parts = ['<div class="others">']
        parts += [self._seat_area(p, seats[p], ghosts) for p in others]
        parts.append("</div>")
        if middle or side:  # a game whose spaces all lie in the seats' areas has no empty table between them
            hexes = [space for space in middle if _axial(space) is not None]
            # two or more spaces to click side by side (Three lanes' lanes) are one Tab stop, the arrows between them
            lanes = [s.space_id for s in middle if _axial(s) is None and s.space_id in self.space_offers]
            self._lanes = lanes if len(lanes) >= 2 else []
            parts.append(f'<div class="middle"><div class="table-area"{_roving("grid") if self._lanes else ""}>')
            if hexes:
                parts.append(self._hex_map(hexes, ghosts))
            parts += [self._space(space, ghosts) for space in middle if _axial(space) is None]
            parts.append("</div>")
            if side:
                parts.append('<div class="side-area">')
                parts += [self._space(space, ghosts) for space in side]
                parts.append("</div>")
            parts.append("</div>")
        if self.me is not None and self.me in seats:
            parts.append('<div class="mine">' + self._seat_area(self.me, seats[self.me], ghosts) + "</div>")
        return "".join(parts)

    def _hex_map(self, spaces: list[Space], ghosts: dict[str, list[str]]) -> str:
        """Spaces with axial `q`/`r` public state, laid out as a hex board (pointy tops).

        Positions are fractions of the map, so the map shrinks to fit a narrow screen and keeps its shape.
        """
        size, cell_w, cell_h = 44.0, 76.0, 88.0
        points = [_axial(space) for space in spaces]
        axial = [point for point in points if point is not None]
        xs = [size * (1.7320508 * q + 0.8660254 * r) for q, r in axial]
        ys = [size * 1.5 * r for _, r in axial]
        left, top = min(xs), min(ys)
        width, height = max(xs) - left + cell_w, max(ys) - top + cell_h
        rows = sorted({round(y) for y in ys})
        for space, x, y in zip(spaces, xs, ys, strict=True):
            row = [other_x for other_x, other_y in zip(xs, ys, strict=True) if round(other_y) == round(y)]
            self.places[space.space_id] = self.texts.get(
                "space.at",
                space=self._space_title(space),
                row=rows.index(round(y)) + 1,
                column=sorted(row).index(x) + 1,
            )
        # in reading order, row by row (the cells are placed absolutely): a screen reader goes along a row, then
        # down the map, as the eye does, not column by column (a keyboard player's trial of Hexbloom)
        ordered = sorted(zip(spaces, xs, ys, strict=True), key=lambda cell: (round(cell[2]), cell[1]))
        offered = [space.space_id for space, _, _ in ordered if space.space_id in self.space_offers]
        # two or more cells to click are one Tab stop, the arrows move between them (`roving.roving_step`)
        self._map_cells = offered if len(offered) >= 2 else []
        cells = []
        for space, x, y in ordered:
            cell = self._space(space, ghosts)
            place = f"left:{100 * (x - left) / width:.3f}%;top:{100 * (y - top) / height:.3f}%"
            cells.append(f'<div class="hex-cell" style="{place}">{cell}</div>')
        # its natural width, and its shape, by which a wide screen sizes it to the table's room (boardweaver.css)
        style = (
            f"--map-w:{width:.0f}px;--map-ratio:{width / height:.4f};aspect-ratio:{width:.0f}/{height:.0f};"
            f"--cell-w:{100 * cell_w / width:.3f}%;--cell-h:{100 * cell_h / height:.3f}%;"
            f"--cell:{100 * cell_w / width:.3f}cqw"
        )
        roving = ' data-roving="hex"' if self._map_cells else ""
        # a group of its own, named, so a screen reader says where its cells lie (it heard a bare list of hexes)
        name = escape(self.texts.get("space.hex-map", count=len(spaces)))
        return f'<div class="hex-map" role="group" aria-label="{name}" style="{style}"{roving}>{"".join(cells)}</div>'

    def _seat_area(self, player: int, spaces: list[Space], ghosts: dict[str, list[str]]) -> str:
        state = self.table.state
        active = player in state.active_player_ids and not self.over and not state.is_over() and not self.awaited
        classes = ["seat-area"] + (["active"] if active else []) + (["me"] if player == self.me else [])
        name = self.texts.get("seat.you", seat=player) if player == self.me else self.texts.get("seat", seat=player)
        classes += ["long-name"] if name_is_long(name) else []  # a phone's line of another seat puts it on top
        facts = self._player_facts(player)
        bot = player in self.bots and name != self.texts.get("seat.bot-played", seat=player)  # "Bot 2" says it
        tag = (
            "seat.bot"
            if bot
            else None
            if player in self.bots
            else "seat.awaited"
            if player in self.awaited
            else "seat.away"
            if player in self.away
            else None
        )
        marked = " away" if tag == "seat.away" else ""
        shape = owner_shape(player)  # the key to the pieces' stripes: its colour and its shape
        mark = f'<span class="seat-mark owner-{player}" aria-hidden="true">{shape}</span>' if self.marked else ""
        # each seat's name a heading under the page's h1 (and over the log's h3): a screen reader's player jumps from
        # seat to seat, to its own hand, by headings (a trial: the board had none, and axe's heading-order failed)
        head = (
            f'<header>{mark}<span class="seat-name" role="heading" aria-level="2">{escape(name)}</span>'
            + (f' <span class="seat-tag{marked}">{escape(self.texts.get(tag))}</span>' if tag else "")
            + (f' <span class="turn-mark">{escape(self.texts.get("seat.acting"))}</span>' if active else "")
            + f'<span class="facts">{facts}</span></header>'
        )
        if not spaces:
            # header-only: a seat the game gives no space of its own (a board on the table) is its header alone, a
            # small box sized to what it says, not a strip as wide as the table with nothing under the name
            classes.append("header-only")
            return f'<section class="{" ".join(classes)}" data-seat="{player}">{head}</section>'
        body = "".join(self._space(space, ghosts) for space in spaces)
        return (
            f'<section class="{" ".join(classes)}" data-seat="{player}">'
            f'{head}<div class="spaces">{body}</div></section>'
        )

    def _player_facts(self, player: int) -> str:
        data = self.table.state.player(player)
        items = [(k, v) for k, v in sorted(data.public_state.items())]
        if self.show_private:
            # a message too (fog chess's "Knight g1-f3": a fact spoken as a message), not other data
            private = sorted(data.private_state.items())
            items += [(k, v) for k, v in private if not isinstance(v, (dict, list)) or message_in(v) is not None]
        named = [(self._fact_name(k), k, v) for k, v in items]
        facts = [
            (k, self.texts.get("seat.fact", name=name, value=self._fact_value(v)), v)
            for name, k, v in named
            if name is not None
        ]
        # a fact said as a message ("Last card: Bot 3 took your 10.") is `said`: on a phone the seat's own header
        # gives it a line of its own, one line, cut short if need be (a screen reader still reads it whole)
        return "".join(
            f'<span class="fact{" said" if message_in(v) is not None else ""}" data-fact="{escape(k)}">'
            f"{escape(text)}</span>"
            for k, text, v in facts
        )

    def own_said_facts(self) -> dict[str, str]:
        """The seat's own facts said as messages in its private state, by key, as its header says them ("Last card:
        You took Bob's 7"): what the room tells its player when one changes (`RoomView.say_own_news`)."""
        if self.me is None or not self.show_private or self.me not in self.table.state.player_ids:
            return {}
        said = {}
        for key, value in sorted(self.table.state.player(self.me).private_state.items()):
            name = self._fact_name(key) if message_in(value) is not None else None
            if name is not None:
                said[key] = self.texts.get("seat.fact", name=name, value=self._fact_value(value))
        return said

    def own_hands(self) -> tuple[Counter[str], Counter[str]]:
        """The pieces of the seat's own hands it sees, counted by name ("Gold tile"), in the hands' order: all of
        them, and those only it sees the face of (a tile drawn from a bag, a card from a deck). What a server frame
        brought there that only it sees is told to the seat (`RoomView.note_arrivals`), as nothing public says it."""
        shown: Counter[str] = Counter()
        secret: Counter[str] = Counter()
        if self.me is None or not self.show_private:
            return shown, secret
        for space in self.table.state.spaces.values():
            if not self._is_read_hand(space, str(self.game.space_look(space.kind).get("layout", "row"))):
                continue
            for piece in space.pieces:
                kind = piece.private_kind or piece.public_kind
                name = self._piece_name(self.game.piece_look(kind), kind)
                shown[name] += 1
                secret[name] += bool(piece.private_kind and piece.private_kind != piece.public_kind)
        return shown, +secret

    def _fact_value(self, value: Any) -> str:
        """A fact's value as text: a message (its wire map, as `Table.set` keeps one) in the reader's language, as
        the seat reads it (`for_reader`: Old maid's "You took Bob's 7" to the taker, "Ada took Bob's 7" in a review)."""
        held = message_in(value)
        if held is None:
            return _plain(value)
        return self.catalog.render(for_reader(held, self.me, self.catalog)) if self.catalog is not None else held.key

    def _fact_name(self, key: str) -> str | None:
        """The fact's name in the game's catalog (`look.<key>`); None for state the game does not name."""
        text = self.say(f"look.{key}")
        return None if text == f"look.{key}" else text

    # -- spaces and pieces ---------------------------------------------------------------------------

    def _space_title(self, space: Space) -> str:
        """The space's title: its look's `title` key (or the key its public state's `title` names), rendered
        with the space's public state as its placeholders ("Lane {number}")."""
        state = space.public_state
        named = state.get("title")
        key = named if isinstance(named, str) else self.game.space_look(space.kind).get("title")  # a key or a msg()
        if not key:
            return space.space_id
        # a whole number stays one, so a seat in it reads as its player's name ("won by Ada": `NamedCatalog`); a
        # message's wire map (`Table.set` of a `msg(...)`) is rendered in the seat's language
        args = {k: v if type(v) is int else _placeholder(v) for k, v in state.items() if k != "title"}
        return self.say(key if isinstance(key, Message) else str(key), **args)  # a msg() keeps its own arguments

    def _where(self, space: Space) -> str:
        """Names a space for a label: its title, with its owner's seat when it is someone's.

        Kept for the drawing: every piece's label names its space (a Choice click draws them all again).
        """
        known = self._named.get(space.space_id)
        if known is not None:
            return known
        title = self.places.get(space.space_id) or self._space_title(space)
        holder = seat_area_of(space)
        if holder is None or self.game.space_look(space.kind).get("area") != "seat":
            where = title
        else:
            seat = self.texts.get("seat.you" if holder == self.me else "seat", seat=holder)
            where = self.texts.get("space.of", seat=seat, space=title)
        if _axial(space) is None or space.space_id in self.places:  # a hex is named once the map is laid out
            self._named[space.space_id] = where
        return where

    def _space(self, space: Space, ghosts: dict[str, list[str]]) -> str:
        look = self._turned(self.game.space_look(space.kind))
        layout = str(look.get("layout", "row"))
        offer = self.space_offers.get(space.space_id)
        classes = ["space", f"layout-{escape(layout)}", f"kind-{escape(space.kind)}"]
        if space.space_id in self.last_moves and space.pieces:  # a move onto a hidden place of it (a collection's);
            # a space emptied since (a hand played out) holds nothing that moved: no mark
            classes.append(f"last-move-space last-move-{self.last_moves[space.space_id]}")
        title = self._space_title(space)
        where = self._where(space)
        count = len(space.pieces)
        # "Hex, row 1, column 1, empty", not "0 pieces": no plural form stands for zero alone (French's is "0 pièce")
        name = (
            self.texts.get("space.label", space=where, count=count)
            if count
            else self.texts.get("space.empty", space=where)
        )
        if self._says_state_only(space, ghosts, layout):  # words alone ("Player 1 to act"): read, drawn as words
            classes.append("only-title")
            name = where
        if layout == "grid" and look.get("columns"):  # a grid's cells are squares, not pieces (space.grid)
            width = max(1, int(look["columns"]))  # "White's sight, 8 by 8", not "64 pieces" (fog, mostly)
            name = self.texts.get("space.grid", space=where, columns=width, rows=max(1, -(-count // width)))
        stop = self._tab_stop(space, layout)
        role = "group" if stop is None else "toolbar"  # a hand of cards to choose: one Tab stop, arrows inside
        attributes = f' data-space="{escape(space.space_id)}" role="{role}" aria-label="{escape(name)}"'
        target = ""
        if offer is not None:
            classes.append(f"offer intent-{self.offers[offer].intent.value}")
            label = self.label(self.offers[offer])
            attributes += f' title="{escape(label)}"'
            spoken = self.texts.get("offer.on", action=label, what=where)
            # The whole space is the button (drawn over it), so a click anywhere on the space takes the offer.
            tabindex = self._map_tabindex(space.space_id)
            target = (
                f'<button type="button" class="space-button" data-offer="{offer}" '
                f'data-for="{escape(space.space_id)}" aria-label="{escape(spoken)}"{tabindex}></button>'
            )
        style = ""
        if layout == "grid" and look.get("columns"):
            columns = max(1, int(look["columns"]))  # and its rows: a wide screen sizes the cells to fit them
            rows = max(1, -(-len(space.pieces) // columns))
            grids, all_rows = self._grids
            # two grids or more (a field of one's own above the other's): the window's height is shared among them
            shared = f";--grids:{grids};--all-rows:{all_rows}" if grids > 1 else ""
            style = f' style="--columns:{columns};--rows:{rows}{shared}"'
        elif layout == "fan":
            up = self._faces_among_backs(space, ghosts)  # Bluff's cards a call turned up, in another seat's hand
            style = f' style="--n:{max(1, count)}' + (f';--up:{up}"' if up else '"')
            if up:
                classes.append("mixed")
        order = range(len(space.pieces) - 1, -1, -1) if look.get("turned") else range(len(space.pieces))
        # a deck (a pile of backs alike, Hexbloom's bag of face-down tiles): a screen reader reads its label ("Deck, 20
        # pieces") and its top card, not twenty lines "A face-down card" alike (the eye sees one pile); so does another
        # seat's hand of backs none may click (Bluff's "Bob: Hand, 17 pieces"), but for a back that just moved there
        backs = layout == "fan" and self._backs_only(space)
        deck = (layout == "stack" or backs) and self._alike_backs(space, owned=backs)
        last = len(space.pieces) - 1
        pieces = "".join(
            self._piece(
                space,
                index,
                space.pieces[index],
                unread=deck and index != last and f"{space.space_id}/{index}" not in self.last_moves,
            )
            for index in order
        )
        pieces += "".join(ghosts.get(space.space_id, []))
        pieces += self._coordinates(look) + self._pickers(space, look)
        if layout == "fan" and not space.pieces and space.space_id not in ghosts and offer is None:
            classes.append("emptied")  # a hand played out: on a phone, another seat's is drawn as small as backs
        if backs:  # on a phone, one back and its count: the seat's own hand and its commands keep the screen
            classes.append("backs")
            pieces += f'<span class="badge" aria-hidden="true">{count}</span>'  # the space's label says it
        # a pile and every hand say how many they hold (a hand to click spreads its cards, but a reader still
        # wants the number, and every hand then reads alike)
        shown_count = f'<span class="count">{count}</span>' if layout in ("stack", "fan") else ""
        return (
            f'<div class="{" ".join(classes)}"{attributes}>{target}'
            f'<div class="space-title" aria-hidden="true">{escape(title)}{shown_count}</div>'
            f'<div class="pieces"{style}{_roving(layout) if stop is not None else ""}>{pieces}</div></div>'
        )

    def _turned(self, look: dict[str, Any]) -> dict[str, Any]:
        """The look of a grid this seat sees turned half round (`"turned_for"` names it): its side at the bottom.

        Its cells are drawn last first and its coordinates reversed, so a cell keeps its name and its index.
        """
        if look.get("layout") != "grid" or self.me is None or self.me not in (look.get("turned_for") or ()):
            return look
        names = look.get("coordinates")
        if isinstance(names, dict):
            names = {"columns": str(names.get("columns", ""))[::-1], "rows": str(names.get("rows", ""))[::-1]}
        return {**look, "coordinates": names, "turned": True}

    def _is_empty(self, space: Space, ghosts: dict[str, list[str]]) -> bool:
        """Tells whether a space shows the viewer nothing: no piece (a face-down one is a back it sees), no planned
        piece of its own and no offer to click it (an empty space to play onto stays drawn).

        It reads only the seat's own view (a piece it may not see at all, as fog chess's, is not in it): whether
        the space is drawn tells nobody anything that view does not.
        """
        return not space.pieces and space.space_id not in ghosts and space.space_id not in self.space_offers

    def _says_state_only(self, space: Space, ghosts: dict[str, list[str]], layout: str) -> bool:
        """Tells whether a space is words alone: a row holding no piece, none planned onto it and no offer, whose
        title says its public state (a trial author's Coup's status, `{now}`: "Player 1 to act"; a Hanabi's "Hints
        {hints}"). It is drawn as tall as its title, not as an empty place one card tall, and read as its title,
        not "..., empty"; a space titled by a name alone ("Plan", "Discard") stays a place for pieces."""
        if layout != "row" or not self._is_empty(space, ghosts) or _axial(space) is not None:
            return False
        state = space.public_state
        named = state.get("title")
        key = named if isinstance(named, str) else self.game.space_look(space.kind).get("title")
        if not isinstance(key, str) or not key or all(name == "title" for name in state):
            return False
        return self._space_title(space) != self.say(key)  # its placeholders filled from its state

    def _backs_only(self, space: Space) -> bool:
        """Tells whether a space holds card backs alone, none of them to click (another seat's hand): nothing on
        them to read, so they may overlap down to a sliver, and the space says how many."""
        return bool(space.pieces) and all(
            piece.private_kind is None
            and piece.public_kind in ("back", "hidden")
            and (space.space_id, index) not in self.piece_offers
            for index, piece in enumerate(space.pieces)
        )

    def _faces_among_backs(self, space: Space, ghosts: dict[str, list[str]]) -> int:
        """How many faces this seat sees in a space of backs none may click (another seat's hand holding cards every
        seat saw, as Bluff's after a call), else 0: its backs overlap to keep one row, as a hand of backs alone does."""
        if space.space_id in ghosts or space.space_id in self.space_offers:
            return 0
        backs = 0
        for index, piece in enumerate(space.pieces):
            if (space.space_id, index) in self.piece_offers:
                return 0
            backs += piece.private_kind is None and piece.public_kind in ("back", "hidden")
        return len(space.pieces) - backs if 0 < backs < len(space.pieces) else 0

    def _alike_backs(self, space: Space, owned: bool = False) -> bool:
        """Tells whether a space holds pieces whose faces this seat does not see, all of one kind, nobody's and none
        to click (a deck of backs, a bag of face-down tiles): read alike, one line each would say the same.

        `owned`: a seat's space (its hand), whose pieces may be that seat's too: each piece's line says so alike.
        """
        owners = {piece.owner for piece in space.pieces}
        return (
            bool(space.pieces)
            and len({piece.public_kind for piece in space.pieces}) == 1
            and (owners == {None} or (owned and len(owners) == 1))
            and all(
                piece.private_kind is None and "by" not in piece.public_state and "mark" not in piece.private_state
                for piece in space.pieces
            )
            and not any((space.space_id, index) in self.piece_offers for index in range(len(space.pieces)))
        )

    def next_choice(self) -> str | None:
        """Where a keyboard player goes on after the draft picked a piece whose space offers nothing more to choose,
        only to switch or put it back (Hexbloom's tile beside the other): the Tab stop of the first Choice offered
        elsewhere on the board (the hex map's), as a selector. None while nothing is picked, or a picked piece's
        space still offers a Choice or a Confirm (Bluff's other cards, fog chess's squares to move to).

        Read after `render` (the map's and the hands' Tab stops). A trial: Tab from the tile picked went on to "Undo
        my last pick", the map lying before the hand."""
        spaces = {space_id for space_id, _ in self.chosen}
        if not spaces or any(o.action.space_id in spaces and o.intent is not Intent.CANCEL for o in self.offers):
            return None
        for number, offer in enumerate(self.offers):
            action, space_id = offer.action, offer.action.space_id
            if offer.intent is not Intent.CHOICE or space_id is None or space_id in spaces or number in self.picked:
                continue
            if action.type == "space":
                cell = next((group[0] for group in (self._map_cells, self._lanes) if space_id in group), space_id)
                found = f'[data-for="{cell}"]'
            elif action.type == "piece" and action.index is not None:
                found = f'[data-key="{space_id}/{self._tab_stops.get(space_id, action.index)}"]'
            else:
                continue
            return f"#board {found}" if found.isprintable() and found.count('"') == 2 else None
        return None

    def _map_tabindex(self, space_id: str) -> str:
        """The `tabindex` of an offered space's button in a roving hex map or a roving row of the table's spaces (the
        group's first is its Tab stop until the focus moves), else nothing."""
        for group in (self._map_cells, self._lanes):
            if space_id in group:
                return f' tabindex="{0 if space_id == group[0] else -1}"'
        return ""

    def _tab_stop(self, space: Space, layout: str) -> int | None:
        """The index of a hand's one Tab stop when its cards are a roving group (a fan, row or grid with two or more
        offered cards, or one beside the card the draft picked; on a seat's page, a grid, always, every card in it:
        a screen reader's player reads it while the other side thinks; so is the seat's own hand, `_is_read_hand`):
        the staged card, else the first offered, else the first cell; None for any other space.

        A picked card offered no more (Market draft's staged card) stays in the group, focusable: the focus stays on
        it after Enter picked it, rather than falling to a neighbour that then looks picked (a keyboard trial)."""
        offered = [index for index in range(len(space.pieces)) if (space.space_id, index) in self.piece_offers]
        staged = [index for index in range(len(space.pieces)) if (space.space_id, index) in self.chosen]
        # a seat's grid (a board, Memory match's cards), read card by card (not the review's: its arrows step
        # through the game)
        read = self.me is not None and len(space.pieces) > 1 and layout == "grid"
        # a seat's own hand, every card read; not while its card picked sends the player on elsewhere (Three lanes'
        # lanes, Hexbloom's hexes: none of the hand's offered), where the focus goes on as it did
        held = self._is_read_hand(space, layout) and not (staged and not offered)
        if not (read or held) and (layout not in ROVING_LAYOUTS or not offered or len(set(offered) | set(staged)) < 2):
            return None
        self._tab_stops[space.space_id] = (staged or offered or [0])[0]
        if self.over or self.table.state.is_over():
            # nobody plays any more (the host ended it, a resignation, a flag, its rules): a card says so, not "can't
            # play now" as if a turn would come, nor where commands would play it
            (self._read_grids if read else self._read_hands).add(space.space_id)
            self._said_not_now[space.space_id] = ("", self.texts.get("error.step/game-over"))
            return self._tab_stops[space.space_id]
        if read:
            self._read_grids.add(space.space_id)
            # no card of the board to click, the moves all buttons (Memory match's "Turn both cards back" after a
            # miss): Enter, Space or a click on a card says where they are, not nothing (hand-notice)
            if not self.piece_offers:
                self._point_to_commands(space)
            # a card none of the offers clicks (Memory match's pair kept, a card face up; any on another seat's turn):
            # Enter, Space or a click says so, as a hand's card does; a board of named squares (chess) says nothing
            if space.space_id not in self._use_commands and not self.game.space_look(space.kind).get("coordinates"):
                self._said_not_now[space.space_id] = ("", self._grid_not_now(len(offered)))
        if held:
            self._read_hands.add(space.space_id)
            # a card not offered surely cannot be played now where the seat has no offer at all, or the hand's cards
            # or other pieces are clicked (Market draft's market while its taken cards wait); not where only commands
            # are offered (Draw-discard's "Play 10♥"): those cards point to the buttons
            if offered or not self.offers or self.piece_offers:
                self._said_not_now[space.space_id] = self._not_now(space, offered)
            else:
                self._point_to_commands(space)
        return self._tab_stops[space.space_id]

    def _not_now(self, space: Space, offered: list[int]) -> tuple[str, str]:
        """What a card of the hand not offered says after its label, and the notice Enter, Space or a click on it
        gives: "can't play now", or, where every card offered is one to take back (Bluff's four picked, the most a
        claim takes), "4 cards chosen already" (hand-notice)."""
        intents = {self.offers[self.piece_offers[(space.space_id, index)]].intent.value for index in offered}
        if offered and intents == {"cancel"}:
            said = self.texts.get("piece.chosen-full", count=len(offered))
            return said, self.texts.get("notice.chosen-full", count=len(offered))
        return self.texts.get("piece.not-now"), self.texts.get("notice.not-now")

    def _grid_not_now(self, offered: int) -> str:
        """What Enter, Space or a click on a card of a seat's grid that no offer clicks says: that it cannot be played
        now, and how many of the grid's cards can ("You can't play that card now: 12 other cards can be played.")."""
        if not offered:
            return self.texts.get("notice.not-now")
        return self.texts.get("notice.grid-not-now", count=offered)

    def _point_to_commands(self, space: Space) -> None:
        """A hand whose cards none of the offers clicks while the seat has commands to choose from (Draw-discard's
        "Play 6♠", Bluff's "Believe" and "Call"), or a seat's grid while only commands are offered (Memory match's
        "Turn both cards back"): Enter, Space or a click on a card says where its moves are, and the first card's
        label hints it once, not every card's (hand-notice)."""
        labels = [self.label(offer) for offer in self.offers]
        rows = {min(row.offers): row for row in number_rows(self.offers, labels, self.picked)}
        in_rows = {number for row in rows.values() for number in row.offers}
        commands = [  # a row of numbers as one ("Bid … dice (1-20)"), not twenty labels read out one by one
            rows[number].summary() if number in rows else labels[number]
            for number, offer in enumerate(self.offers)
            if offer.action.type == "command" and (number in rows or number not in in_rows)
        ]
        if commands:
            notice = self.texts.get("notice.use-commands", moves=", ".join(commands))
            self._use_commands[space.space_id] = (self.texts.get("piece.use-commands"), notice)

    def _is_read_hand(self, space: Space, layout: str) -> bool:
        """Tells whether a space is a hand of the seat's own whose faces it sees (a fan or row in its area, not all
        backs): a roving group holding every card, those it cannot play now too, always, so a keyboard or screen
        reader's player reads the whole hand (a trial: the arrows skipped every card not offered, Bluff's once four
        were picked, the whole hand on another seat's turn)."""
        if self.me is None or layout not in ("fan", "row") or not space.pieces or _axial(space) is not None:
            return False
        if self.game.space_look(space.kind).get("area") != "seat" or seat_area_of(space) != self.me:
            return False
        return any(
            piece.private_kind is not None or piece.public_kind not in ("back", "hidden") for piece in space.pieces
        )


ROVING_LAYOUTS = ("fan", "row", "grid")  # the spaces whose offered pieces are one Tab stop, moved through with arrows


def _roving(layout: str) -> str:
    """The attribute making a space's offered pieces a roving group; a grid's arrows go by where they are drawn."""
    return ' data-roving="grid"' if layout == "grid" else " data-roving"


def _axial(space: Space) -> tuple[int, int] | None:
    q, r = space.public_state.get("q"), space.public_state.get("r")
    return (q, r) if type(q) is int and type(r) is int else None


def _placeholder(value: Any) -> Any:
    """A space title's placeholder from its public state: a message (its wire map) as a message, else as text."""
    held = message_in(value)
    return _plain(value) if held is None else held


def _plain(value: Any) -> str:
    if isinstance(value, bool):
        return "✓" if value else "-"
    if isinstance(value, (dict, list)):
        return "…"
    return str(value)


def _owner_marked(spaces: Iterable[Space]) -> bool:
    """Tells whether a piece on the board carries a seat's stripe (`owner-N`: its owner, or the seat in its public
    `by`), as `Board._piece` draws it: the seats' headers then show their stripes, which say whose is whose."""
    for space in spaces:
        for piece in space.pieces:
            owner = piece.owner if piece.owner is not None else piece.public_state.get("by")
            if isinstance(owner, int):
                return True
    return False


def _grid_rows(space: Space, look: dict[str, Any]) -> int:
    """How many rows `space` takes when its look lays it out as a grid of `columns`; 0 for any other layout."""
    if look.get("layout") != "grid" or not look.get("columns"):
        return 0
    columns = max(1, int(look["columns"]))
    return max(1, -(-len(space.pieces) // columns))
