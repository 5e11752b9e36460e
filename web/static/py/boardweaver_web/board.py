"""Draws a table as HTML from the game's look: spaces, pieces, owned areas, players, offers.

Pure Python: it returns markup text with `data-offer` numbers on what the seat may click, and
`data-key` ("space/index") on every piece so moves can be animated. What the seat may click is a real
`<button>` whose label says what it is and what a click does; every other piece is an image with a label.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from boardweaver import Action, Catalog, Game, Intent, Message, Offer, Piece, Space, Table, msg
from boardweaver.colours import CARD_COLOUR, ink_reads
from boardweaver.colours import luminance as colour_luminance
from boardweaver.game import seat_area_of
from boardweaver.messages import message_in
from boardweaver.wire import piece_to_wire

from .outcome import say_outcome
from .texts import Texts

# html.escape remembered: a drawing escapes every piece's kind, place and labels (7 a piece, ~30 pieces a click),
# and nearly all of them are the strings of the drawing before.
escape = lru_cache(maxsize=4096)(html.escape)


@dataclass
class Board:
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

    def __post_init__(self) -> None:
        for number, offer in enumerate(self.offers):
            action = offer.action
            if action.type == "piece" and action.space_id is not None and action.index is not None:
                self.piece_offers[(action.space_id, action.index)] = number
            elif action.type == "space" and action.space_id is not None:
                self.space_offers[action.space_id] = number

    # -- texts ---------------------------------------------------------------------------------------

    def say(self, key: str, **args: Any) -> str:
        """Renders a game message key in the seat's language (the key itself when missing)."""
        return self.catalog.render(msg(key, **args)) if self.catalog is not None else key

    def label(self, offer: Offer) -> str:
        if offer.label_message is not None and self.catalog is not None:
            return self.catalog.render(offer.label_message)
        if offer.label_message is not None:
            return offer.label_message.key
        return offer.action.describe()

    # -- whole table ---------------------------------------------------------------------------------

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
        others = [p for p in state.player_ids if p != self.me]
        self.marked = _owner_marked(state.spaces.values())  # each seat's header then shows its stripe: the key
        parts = ['<div class="others">']
        parts += [self._seat_area(p, seats[p], ghosts) for p in others]
        parts.append("</div>")
        if middle or side:  # a game whose spaces all lie in the seats' areas has no empty table between them
            hexes = [space for space in middle if _axial(space) is not None]
            parts.append('<div class="middle"><div class="table-area">')
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
        cells = []
        for space, x, y in zip(spaces, xs, ys, strict=True):
            cell = self._space(space, ghosts)
            place = f"left:{100 * (x - left) / width:.3f}%;top:{100 * (y - top) / height:.3f}%"
            cells.append(f'<div class="hex-cell" style="{place}">{cell}</div>')
        style = (
            f"width:min(100%,{width:.0f}px);aspect-ratio:{width:.0f}/{height:.0f};"
            f"--cell-w:{100 * cell_w / width:.3f}%;--cell-h:{100 * cell_h / height:.3f}%;"
            f"--cell:{100 * cell_w / width:.3f}cqw"
        )
        return f'<div class="hex-map" style="{style}">{"".join(cells)}</div>'

    def _seat_area(self, player: int, spaces: list[Space], ghosts: dict[str, list[str]]) -> str:
        state = self.table.state
        active = player in state.active_player_ids and not self.over and not state.is_over() and not self.awaited
        classes = ["seat-area"] + (["active"] if active else []) + (["me"] if player == self.me else [])
        name = self.texts.get("seat.you", seat=player) if player == self.me else self.texts.get("seat", seat=player)
        facts = self._player_facts(player)
        tag = (
            "seat.bot"
            if player in self.bots
            else "seat.awaited"
            if player in self.awaited
            else "seat.away"
            if player in self.away
            else None
        )
        marked = " away" if tag == "seat.away" else ""
        mark = f'<span class="seat-mark owner-{player}" aria-hidden="true"></span>' if self.marked else ""
        head = (
            f'<header>{mark}<span class="seat-name">{escape(name)}</span>'
            + (f' <span class="seat-tag{marked}">{escape(self.texts.get(tag))}</span>' if tag else "")
            + (f' <span class="turn-mark">{escape(self.texts.get("seat.acting"))}</span>' if active else "")
            + f'<span class="facts">{facts}</span></header>'
        )
        body = "".join(self._space(space, ghosts) for space in spaces)
        return (
            f'<section class="{" ".join(classes)}" data-seat="{player}">'
            f'{head}<div class="spaces">{body}</div></section>'
        )

    def _player_facts(self, player: int) -> str:
        data = self.table.state.player(player)
        items = [(k, v) for k, v in sorted(data.public_state.items())]
        if self.show_private:
            items += [(k, v) for k, v in sorted(data.private_state.items()) if not isinstance(v, (dict, list))]
        named = [(self._fact_name(k), k, v) for k, v in items]
        return "".join(
            f'<span class="fact" data-fact="{escape(k)}">'
            f"{escape(self.texts.get('seat.fact', name=name, value=self._fact_value(v)))}</span>"
            for name, k, v in named
            if name is not None
        )

    def _fact_value(self, value: Any) -> str:
        """A fact's value as text: a message (its wire map, as `Table.set` keeps one) in the reader's language."""
        held = message_in(value)
        if held is None:
            return _plain(value)
        return self.catalog.render(held) if self.catalog is not None else held.key

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
        key = named if isinstance(named, str) else self.game.space_look(space.kind).get("title")
        if not key:
            return space.space_id
        # a whole number stays one, so a seat in it reads as its player's name ("won by Ada": `NamedCatalog`); a
        # message's wire map (`Table.set` of a `msg(...)`) is rendered in the seat's language
        args = {k: v if type(v) is int else _placeholder(v) for k, v in state.items() if k != "title"}
        return self.say(str(key), **args)

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
        look = self.game.space_look(space.kind)
        layout = str(look.get("layout", "row"))
        offer = self.space_offers.get(space.space_id)
        classes = ["space", f"layout-{escape(layout)}", f"kind-{escape(space.kind)}"]
        if space.space_id in self.last_moves and space.pieces:  # a move onto a hidden place of it (a collection's);
            # a space emptied since (a hand played out) holds nothing that moved: no mark
            classes.append(f"last-move-space last-move-{self.last_moves[space.space_id]}")
        title = self._space_title(space)
        where = self._where(space)
        count = len(space.pieces)
        name = self.texts.get("space.label", space=where, count=count)
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
            target = (
                f'<button type="button" class="space-button" data-offer="{offer}" '
                f'data-for="{escape(space.space_id)}" aria-label="{escape(spoken)}"></button>'
            )
        style = ""
        if layout == "grid" and look.get("columns"):
            columns = max(1, int(look["columns"]))  # and its rows: a wide screen sizes the cells to fit them
            style = f' style="--columns:{columns};--rows:{max(1, -(-len(space.pieces) // columns))}"'
        elif layout == "fan":
            style = f' style="--n:{max(1, count)}"'
        pieces = "".join(self._piece(space, index, piece) for index, piece in enumerate(space.pieces))
        pieces += "".join(ghosts.get(space.space_id, []))
        pieces += self._coordinates(look) + self._pickers(space, look)
        backs = layout == "fan" and self._backs_only(space)
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

    def _is_empty(self, space: Space, ghosts: dict[str, list[str]]) -> bool:
        """Tells whether a space shows the viewer nothing: no piece (a face-down one is a back it sees), no planned
        piece of its own and no offer to click it (an empty space to play onto stays drawn).

        It reads only the seat's own view (a piece it may not see at all, as fog chess's, is not in it): whether
        the space is drawn tells nobody anything that view does not.
        """
        return not space.pieces and space.space_id not in ghosts and space.space_id not in self.space_offers

    def _backs_only(self, space: Space) -> bool:
        """Tells whether a space holds card backs alone, none of them to click (another seat's hand): nothing on
        them to read, so they may overlap down to a sliver, and the space says how many."""
        return bool(space.pieces) and all(
            piece.private_kind is None
            and piece.public_kind in ("back", "hidden")
            and (space.space_id, index) not in self.piece_offers
            for index, piece in enumerate(space.pieces)
        )

    def _tab_stop(self, space: Space, layout: str) -> int | None:
        """The index of a hand's one Tab stop when its cards are a roving group (a fan or row with two or more
        offered cards): the staged card, else the first offered; None for any other space."""
        offered = [index for index in range(len(space.pieces)) if (space.space_id, index) in self.piece_offers]
        if layout not in ROVING_LAYOUTS or len(offered) < 2:
            return None
        staged = [index for index in offered if (space.space_id, index) in self.chosen]
        self._tab_stops[space.space_id] = (staged or offered)[0]
        return self._tab_stops[space.space_id]

    def _piece(self, space: Space, index: int, piece: Piece, ghost: bool = False) -> str:
        shown_kind = piece.private_kind if (piece.private_kind and self.show_private) else piece.public_kind
        look = self.game.piece_look(shown_kind)
        classes = ["piece", f"kind-{escape(piece.public_kind)}"]
        if piece.private_kind and self.show_private and piece.private_kind != piece.public_kind:
            classes.append("secret")
        if piece.private_kind is None and piece.public_kind in ("back", "hidden"):
            classes.append("back")
        square_classes = "" if ghost else self._square(space, index)
        if square_classes:
            classes.append(square_classes)
        mark = piece.private_state.get("mark") if self.show_private else None
        if isinstance(mark, str) and mark.isidentifier():
            classes.append(f"mark-{mark}")  # the game marks a square (e.g. a last move) for this perspective
        mover = None if ghost else self.last_moves.get(f"{space.space_id}/{index}")
        if mover is not None:
            classes.append(f"last-move last-move-{mover}")
        attributes = ""
        if ghost:
            classes.append("pending")
        else:
            attributes = f' data-key="{escape(space.space_id)}/{index}"'
            if self._is_drafted(space, index, piece):
                classes.append("drafted")
            if (space.space_id, index) in self.chosen:
                classes.append("chosen")
            offer = self.piece_offers.get((space.space_id, index))
            if offer is not None:
                classes.append(f"offer intent-{self.offers[offer].intent.value}")
                classes += self._target(space, look, self.offers[offer])
                attributes += f' data-offer="{offer}"'
                stop = self._tab_stops.get(space.space_id)
                if stop is not None:
                    attributes += f' tabindex="{0 if stop == index else -1}"'
        what = self._piece_name(look, shown_kind)
        spoken = self.texts.get(
            "piece.label", what=what, space=self._where(space), index=index + 1, count=len(space.pieces)
        )
        tip = what
        offer_number = None if ghost else self.piece_offers.get((space.space_id, index))
        if offer_number is not None:
            tip = self.label(self.offers[offer_number])
            spoken = self.texts.get("offer.on", action=tip, what=spoken)
        elif ghost:
            spoken = self.texts.get("piece.planned", what=what)
        known = self._known(piece, shown_kind)
        if known is not None:
            spoken += f" · {self.texts.get('piece.known', what=known)}"
        if mover is not None:
            spoken += f" · {self.texts.get('result.last-move')}"
        owner = piece.owner if piece.owner is not None else piece.public_state.get("by")
        if isinstance(owner, int):
            classes.append(f"owner-{owner}")
        fanned = self.game.space_look(space.kind).get("layout") == "fan" and not ghost
        styles = []
        if look.get("color") or look.get("ink"):
            colour = str(look.get("color") or CARD_COLOUR)
            ink = chosen_ink(look.get("ink"), colour)
            styles += [f"--piece-color:{escape(colour)}"] if look.get("color") else []
            styles += [f"--piece-ink:{ink}"] if ink else []
        if fanned:  # the style ends each of a wrapped hand's rows by its place (`.layout-fan`, boardweaver.css)
            styles.append(f"--i:{index}")
        style = f' style="{";".join(styles)}"' if styles else ""
        label = f' title="{escape(tip)}" aria-label="{escape(spoken)}"'
        face = _face(look, self._face_text(look), fanned)
        if known is not None:  # what every seat knows of a face this seat sees (a Hanabi hint), in a corner
            face += f'<span class="known" aria-hidden="true">{escape(known)}</span>'
        if offer_number is not None:
            return f'<button type="button" class="{" ".join(classes)}"{attributes}{style}{label}>{face}</button>'
        return f'<div class="{" ".join(classes)}"{attributes}{style} role="img"{label}>{face}</div>'

    def _known(self, piece: Piece, shown_kind: str) -> str | None:
        """What every seat knows of a piece this seat sees by its hidden face: its public kind's face, where that
        kind's look says `"mark": true` (a Hanabi hint's "R?" on a card the other seats see whole), else None."""
        if shown_kind == piece.public_kind:
            return None
        public = self.game.piece_look(piece.public_kind)
        if public.get("mark") is not True:
            return None
        return self._face_text(public) or public.get("symbol") or piece.public_kind

    def _target(self, space: Space, look: dict[str, Any], offer: Offer) -> list[str]:
        """A grid cell's classes as where the piece picked up on its grid may go: `target`, and `capture` when the
        cell holds something (drawn as a ring; an empty cell as a dot, as chess sites draw legal moves).

        Only a Confirm offer on a grid holding the draft's chosen piece is one: a memory card to turn over or a
        market card to take is no piece's destination.
        """
        if offer.intent != Intent.CONFIRM or self.game.space_look(space.kind).get("layout") != "grid":
            return []
        if not any(space_id == space.space_id for space_id, _ in self.chosen):
            return []
        blank = not (look.get("svg") or look.get("symbol") or self._face_text(look) or look.get("back") is True)
        return ["target"] if blank else ["target", "capture"]

    def _square(self, space: Space, index: int) -> str:
        """A grid cell's square colour class: `"checkered": true` in the look colours cells light and dark."""
        look = self.game.space_look(space.kind)
        if look.get("layout") != "grid" or not look.get("columns") or not look.get("checkered"):
            return ""
        row, column = divmod(index, int(look["columns"]))
        return "light" if (row + column) % 2 == 0 else "dark"

    def _coordinates(self, look: dict[str, Any]) -> str:
        """A grid's coordinates, drawn over its bottom row and first column (not inside the cells' buttons).

        `"coordinates": {"columns": "abcdefgh", "rows": "87654321"}` in the look names them, top row first.
        """
        names = look.get("coordinates")
        if look.get("layout") != "grid" or not look.get("columns") or not isinstance(names, dict):
            return ""
        columns, rows, width = str(names.get("columns", "")), str(names.get("rows", "")), int(look["columns"])
        last = len(rows) - 1
        marks = [(y, 0, "rank", name) for y, name in enumerate(rows)]
        marks += [(last, x, "file", name) for x, name in enumerate(columns)]
        return "".join(
            f'<span class="coord {kind}" aria-hidden="true" style="--row:{y};--column:{x};--columns:{width}">'
            f"{escape(name)}</span>"
            for y, x, kind, name in marks
        )

    def _pickers(self, space: Space, look: dict[str, Any]) -> str:
        """Command offers that name a cell of this grid by its coordinates, as a small picker on that cell.

        The look says which argument names the cell and which one the choice, with a face per choice:
        `"pickers": {"cell": "to_sq", "choice": "piece", "faces": {"r": "♖", ...}}` (fog chess's promotions).
        """
        pickers, names = look.get("pickers"), look.get("coordinates")
        if not isinstance(pickers, dict) or not isinstance(names, dict) or not look.get("columns"):
            return ""
        columns, rows, width = str(names.get("columns", "")), str(names.get("rows", "")), int(look["columns"])
        cells = {f"{c}{r}": (y, x) for y, r in enumerate(rows) for x, c in enumerate(columns)}
        faces = pickers.get("faces") or {}
        found: dict[tuple[int, int], list[str]] = {}
        for number, offer in enumerate(self.offers):
            if offer.action.type != "command":
                continue
            arguments = offer.action.arguments
            cell = cells.get(str(arguments.get(pickers.get("cell", ""))))
            if cell is None:
                continue
            self.picked.add(number)
            face = faces.get(str(arguments.get(pickers.get("choice", ""))), "?")
            label = escape(self.label(offer))
            found.setdefault(cell, []).append(
                f'<button type="button" class="pick intent-{offer.intent.value}" data-offer="{number}" '
                f'title="{label}" aria-label="{label}">{escape(str(face))}</button>'
            )
        return "".join(
            f'<div class="picker" style="--row:{y};--column:{x};--columns:{width}">{"".join(buttons)}</div>'
            for (y, x), buttons in sorted(found.items())
        )

    def _piece_name(self, look: dict[str, str], kind: str) -> str:
        """What a piece is, in words: its look's title, else the text and symbol on it, else its kind."""
        if look.get("title"):
            return self.say(look["title"])
        shown = " ".join(part for part in (self._face_text(look), look.get("symbol")) if part)
        return shown or kind

    def _face_text(self, look: dict[str, Any]) -> str | None:
        """The text on a piece: its look's `says` (a message key, or a message with arguments) in the seat's
        language, else its literal `text`."""
        says = look.get("says")
        if isinstance(says, Message):
            return self.catalog.render(says) if self.catalog is not None else says.key
        return self.say(says) if says else look.get("text")

    def _is_drafted(self, space: Space, index: int, piece: Piece) -> bool:
        if self.base is None or not self.base.state.has_space(space.space_id):
            return False
        before = self.base.state.space(space.space_id).pieces
        return index >= len(before) or piece_to_wire(before[index]) != piece_to_wire(piece)

    def _ghosts(self) -> dict[str, list[str]]:
        """A seat's own planned pieces (private `target` naming a space), drawn at their target."""
        ghosts: dict[str, list[str]] = {}
        for space in self.table.state.spaces.values():
            for index, piece in enumerate(space.pieces):
                target = piece.private_state.get("target") if self.show_private else None
                if isinstance(target, str) and self.table.state.has_space(target):
                    ghosts.setdefault(target, []).append(self._piece(space, index, piece, ghost=True))
        return ghosts


DARK_INK, LIGHT_INK = "#000000", "#ffffff"
ROVING_LAYOUTS = ("fan", "row", "grid")  # the spaces whose offered pieces are one Tab stop, moved through with arrows


def _roving(layout: str) -> str:
    """The attribute making a space's offered pieces a roving group; a grid's arrows go by where they are drawn."""
    return ' data-roving="grid"' if layout == "grid" else " data-roving"


LARGE_FACE_CHARS = 3  # the most characters of its symbol and text together a fanned card shows large


@cache  # a handful of colours per game, asked for by every piece of every drawing
def ink_for(colour: str) -> str | None:
    """The ink (black or white) that reads best on a piece of `colour`: at least 4.58:1 for any colour."""
    luminance = colour_luminance(colour)
    if luminance is None:
        return None
    return LIGHT_INK if 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 else DARK_INK


def chosen_ink(wanted: object, colour: str) -> str | None:
    """The ink of a piece of `colour`: the look's own `"ink"` (red suits) when it reads on that colour at 4.5:1
    or more (WCAG AA), else `ink_for`'s black or white."""
    return wanted if isinstance(wanted, str) and ink_reads(wanted, colour) else ink_for(colour)


def _axial(space: Space) -> tuple[int, int] | None:
    q, r = space.public_state.get("q"), space.public_state.get("r")
    return (q, r) if type(q) is int and type(r) is int else None


def _face(look: dict[str, str], text: str | None, fanned: bool = False) -> str:
    """A piece's face: the look's SVG, a card back (`"back": true`), else its symbol and `text` (the look's, already
    in the seat's language).

    A fanned card's face also carries what its middle shows large (`_large_face`), drawn by the style.
    """
    if look.get("svg"):
        return f'<span class="face svg">{look["svg"]}</span>'  # the game's own markup, from its look
    if look.get("back") is True and not text:
        return '<span class="face back"></span>'  # a card's back: a lattice in the piece's colour, drawn by the style
    large = _large_face(look, text) if fanned else ""
    large = f' data-large="{escape(large)}" style="--ems:{_ems(large):.2f}"' if large else ""
    symbol = look.get("symbol")
    if symbol and text:
        return (
            f'<span class="face both"{large}><span class="symbol">{escape(symbol)}</span>'
            f'<span class="text">{escape(text)}</span></span>'
        )
    if symbol:
        return f'<span class="face symbol">{escape(symbol)}</span>'
    return f'<span class="face text"{large}>{escape(text or "")}</span>'


def _large_face(look: dict[str, str], text: str | None) -> str:
    """What a fanned card's middle shows large, readable at a glance (its corner keeps the small face): its symbol
    and text when they are short, else its symbol, else its text; "" for a face without text (a back)."""
    if not text:
        return ""
    symbol = look.get("symbol") or ""
    return symbol + text if len(symbol + text) <= LARGE_FACE_CHARS or not symbol else symbol


def _ems(text: str) -> float:
    """About how wide `text` is in ems in a bold sans-serif face, a little more rather than less."""
    return sum(0.4 if c in "iljI.,:;'!|" else 1.05 if c in "MWmw" else 0.75 if c.isascii() else 0.95 for c in text)


ARROWS = {"ArrowLeft": (-1, 0), "ArrowRight": (1, 0), "ArrowUp": (0, -1), "ArrowDown": (0, 1)}
GRID_ENDS = ("Home", "End", "Control+Home", "Control+End")


def roving_step(
    key: str, at: int, count: int, places: list[tuple[float, float, float, float]] | None = None
) -> int | None:
    """The item of a roving group that `key` moves the focus to from item `at`, or None for a key the group does
    not take. In a hand, Left and Right go to the neighbour (wrapping around), Home and End (with Control too)
    to the ends.

    In a grid (`places`: each item's centre and size as drawn, `(x, y, width, height)`), every arrow goes by the
    screen: to the nearest item in that direction on the same row or column, else to the nearest row (Up, Down)
    or column (Left, Right) that has one, the nearest in it; None when there is none that way. Home and End go to
    the first and last item of the row as drawn, Control+Home and Control+End to the grid's first and last (the
    top row's leftmost, the bottom row's rightmost), as in WAI-ARIA's grid. A board drawn for the other side
    (black's) moves as it is seen.
    """
    if count <= 0:
        return None
    if places is not None and len(places) == count and key in GRID_ENDS:
        return _grid_end(key, at, places)
    if places is None or key not in ARROWS or len(places) != count:
        last = count - 1
        moves = {"ArrowLeft": (at - 1) % count, "ArrowRight": (at + 1) % count, "Home": 0, "End": last}
        return moves.get(key.removeprefix("Control+"))
    dx, dy = ARROWS[key]
    x, y, width, height = places[at]
    size = max(width if dx else height, 1.0)  # one step along the way: a cell's width or height
    best: tuple[int, float, float, int] | None = None
    for number, (other_x, other_y, _, _) in enumerate(places):
        along = ((other_x - x) * dx + (other_y - y) * dy) / size  # in cells, in the key's direction
        across = abs((other_y - y) if dx else (other_x - x)) / max(height if dx else width, 1.0)
        if number == at or along < 0.5:
            continue
        # in line first, the nearest along it; else the nearest row (or column), the nearest in it
        rank = (0, along, 0.0, number) if across < 0.5 else (1, float(round(along)), across, number)
        if best is None or rank < best:
            best = rank
    return None if best is None else best[3]


def _grid_end(key: str, at: int, places: list[tuple[float, float, float, float]]) -> int:
    """Home, End, Control+Home or Control+End in a grid (see `roving_step`)."""
    _, y, _, height = places[at]
    row = [n for n, place in enumerate(places) if abs(place[1] - y) < max(height, 1.0) / 2]
    among = list(range(len(places))) if key.startswith("Control+") else row
    # by row as drawn (in cells, rounded: a row's cells share it), then from the left
    order = sorted(among, key=lambda n: (round(places[n][1] / max(places[n][3], 1.0)), places[n][0], n))
    return order[-1] if key.endswith("End") else order[0]


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


def clock_text(milliseconds: float) -> str:
    """Shows a remaining time: "m:ss", with tenths under 10 seconds ("0:07.3"); never below zero."""
    left = max(0, int(milliseconds))
    minutes, rest = divmod(left, 60_000)
    seconds, millis = divmod(rest, 1000)
    if left < 10_000:
        return f"{minutes}:{seconds:02d}.{millis // 100}"
    return f"{minutes}:{seconds:02d}"


def clock_left(clock: dict[str, Any], seat: int, elapsed: float) -> float:
    """Returns `seat`'s milliseconds left, `elapsed` milliseconds after the frame that carried `clock`."""
    remaining = clock.get("remaining") or []
    left = float(remaining[seat]) if 0 <= seat < len(remaining) else 0.0
    return left - elapsed if seat in (clock.get("running") or []) else left


def _owner_marked(spaces: Iterable[Space]) -> bool:
    """Tells whether a piece on the board carries a seat's stripe (`owner-N`: its owner, or the seat in its public
    `by`), as `Board._piece` draws it: the seats' headers then show their stripes, which say whose is whose."""
    for space in spaces:
        for piece in space.pieces:
            owner = piece.owner if piece.owner is not None else piece.public_state.get("by")
            if isinstance(owner, int):
                return True
    return False


def render_clocks(clock: dict[str, Any] | None, elapsed: float, me: int | None, texts: Texts) -> str:
    """Every seat's clock (`role="timer"`), counted down `elapsed` ms since the frame; "" without clocks.

    Each time sits in `#clock-<seat>` so a ticker can update the text without drawing the board again.
    """
    if not clock:
        return ""
    running, flagged = clock.get("running") or [], clock.get("flagged") or []
    items = []
    for seat in range(len(clock.get("remaining") or [])):
        name = texts.get("seat.you" if seat == me else "seat", seat=seat)
        classes = "clock" + (" running" if seat in running else "") + (" flagged" if seat in flagged else "")
        flag = ' <span class="flag" aria-hidden="true">⚑</span>' if seat in flagged else ""
        items.append(
            f'<div class="{classes}" data-seat="{seat}"><span class="clock-seat">{escape(name)}</span> '
            f'<span class="clock-time" id="clock-{seat}" role="timer">'
            f"{clock_text(clock_left(clock, seat, elapsed))}</span>{flag}</div>"
        )
    return f'<div class="clocks">{"".join(items)}</div>'


def render_log(lines: list[Message], catalog: Catalog | None, limit: int = 200, fresh: int = 0) -> str:
    """The public log as list items, newest last, in the seat's language: the last `limit` lines, numbered as in
    the whole log; the last `fresh` of them are marked `new` (the review's step)."""
    first = max(0, len(lines) - limit)
    items = []
    for number, message in enumerate(lines[first:], start=first + 1):
        text = catalog.render(message) if catalog is not None else message.key
        value = f' value="{number}"' if number == first + 1 and first else ""
        mark = ' class="new"' if number > len(lines) - fresh else ""
        items.append(f"<li{value}{mark}>{escape(text)}</li>")
    return "".join(items)


def render_happened(lines: list[Message], catalog: Catalog | None) -> str:
    """What happened since the seat's last decision (`Session.latest_messages`), one sentence a line, shown where
    the eye is (and read out by a screen reader): the log says it too, further down. "" before any."""
    said = [catalog.render(message) if catalog is not None else message.key for message in lines]
    return " ".join(
        f"<span>{escape(text if text.rstrip().endswith(('.', '!', '?', '…')) else f'{text}.')}</span>" for text in said
    )


def verdict(table: Table, texts: Texts, me: int | None = None, name: Callable[[int], str] | None = None) -> str:
    """The end in a few words for `me` (see `outcome.say_outcome`); "" while the game runs."""
    result = table.state.result
    if result is None:
        return ""
    return say_outcome(table.state.player_ids, result.winners, texts, me, name)


def score_title(game: Game, catalog: Catalog | None) -> str | None:
    """The title of the end panel's score column the game's look names (`look["score"]`, a catalog key, as
    "Cards left"), in the catalog's language; None for the platform's "Score"."""
    key = game.look.get("score")
    if not isinstance(key, str) or not key:
        return None
    return catalog.render(msg(key)) if catalog is not None else key


def render_result(
    table: Table,
    texts: Texts,
    me: int | None = None,
    name: Callable[[int], str] | None = None,
    catalog: Catalog | None = None,
    flagged: list[int] | None = None,
    score_title: str | None = None,
) -> str:
    """The end panel: the verdict for `me` (see `verdict`), why the game ended (the reason it gave `end_game`,
    in `catalog`'s language; else, when the clock's `flagged` seats ran out of time, that) and the scores the
    game kept, in a column titled `score_title` (the game's look's `score`, in the reader's language) or
    "Score"; "" while it runs.

    `name` names a seat (default "Player N", counted from 1); the seat's own row says it is theirs.
    """
    result = table.state.result
    if result is None:
        return ""
    said = verdict(table, texts, me, name)
    reason = ""
    if result.reason is not None and catalog is not None:
        reason = f'<p class="reason">{escape(catalog.render(result.reason))}</p>'
    elif flagged:  # a game that kept the default flag fall gave no reason: the clock's is the platform's to say
        named = [name(p) if name is not None else texts.get("seat", seat=p) for p in flagged]
        reason = (
            f'<p class="reason">{escape(texts.get("result.time-out", seats=texts.get("result.and").join(named)))}</p>'
        )
    outcome = "draw" if not result.winners else "watched" if me is None else "won" if me in result.winners else "lost"
    scores = ""
    if result.scores:

        def seat_name(p: int) -> str:
            shown = name(p) if name is not None else texts.get("seat", seat=p)
            return texts.get("seat.you", seat=p) if p == me and name is None else shown

        rows = "".join(
            f'<tr class="{"winner" if p in result.winners else ""}{" me" if p == me else ""}">'
            f"<td>{escape(seat_name(p))}</td><td>{result.scores.get(p, '')}</td></tr>"
            for p in table.state.player_ids
        )
        scores = (
            f'<table class="scores"><tr><th>{escape(texts.get("result.seat"))}</th>'
            f"<th>{escape(score_title or texts.get('result.score'))}</th></tr>{rows}</table>"
        )
    return (
        f'<section class="end-panel outcome-{outcome}" aria-labelledby="end-title" tabindex="-1">'
        f'<h3 id="end-title">{escape(texts.get("result.over"))}</h3>'
        f'<p class="winners verdict">{escape(said)}</p>{reason}{scores}</section>'
    )


def piece_keys(table: Table) -> dict[str, list[str]]:
    """Each space's pieces as comparable text, to find what a local step moved (a snapshot: a step may change
    the pieces in place). `repr`, not JSON: two of these per click, and a key only needs to tell pieces apart."""
    return {
        space_id: [
            repr((piece.public_kind, piece.private_kind, piece.owner, piece.public_state, piece.private_state))
            for piece in space.pieces
        ]
        for space_id, space in table.state.spaces.items()
    }


def guess_moves(before: dict[str, list[str]], after: dict[str, list[str]]) -> list[tuple[str, str]]:
    """Pairs pieces that left one space with equal pieces that arrived in another: (from key, to key)."""
    left: list[tuple[str, str]] = []  # (piece text, "space/index" it left)
    arrived: list[tuple[str, str]] = []
    for space_id in before.keys() | after.keys():
        old, new = before.get(space_id, []), after.get(space_id, [])
        if old == new:
            continue
        for index, text in enumerate(old):
            if old.count(text) > new.count(text) and text not in [t for t, _ in left]:
                left.append((text, f"{space_id}/{index}"))
        for index, text in enumerate(new):
            if new.count(text) > old.count(text) and text not in [t for t, _ in arrived]:
                arrived.append((text, f"{space_id}/{index}"))
    moves = []
    for text, origin in left:
        target = next((key for t, key in arrived if t == text), None)
        if target is not None and target.split("/")[0] != origin.split("/")[0]:
            moves.append((origin, target))
    if not moves and len(left) == 1 and len(arrived) == 1:  # one piece went, changed (turned face down)
        moves.append((left[0][1], arrived[0][1]))
    return moves


def last_click(steps: list[Action]) -> set[tuple[str, int]]:
    """The piece an open draft's `steps` clicked last (a staged card), to mark it as chosen; none when its last
    clicks were an even number on that same piece (picked up, then put back)."""
    clicked: tuple[str, int] | None = None
    times = 0
    for action in reversed(steps):
        if action.type == "space":
            break
        if action.type != "piece" or action.space_id is None or action.index is None:
            continue
        if clicked is not None and (action.space_id, action.index) != clicked:
            break
        clicked, times = (action.space_id, action.index), times + 1
    return {clicked} if clicked is not None and times % 2 == 1 else set()


def nearest_offer(key: str | None, offered: list[tuple[str, int]]) -> str | None:
    """The offered piece to focus when the one last focused (`key`, "space/index") is offered no more (a card turned
    over, a piece moved): the nearest by index in the same space, the later one on a tie; None when none is there."""
    if not key or "/" not in key:
        return None
    space_id, _, index_text = key.rpartition("/")
    if not index_text.lstrip("-").isdigit():
        return None
    index = int(index_text)
    near = sorted((abs(i - index), -i) for s, i in offered if s == space_id)
    return f"{space_id}/{-near[0][1]}" if near else None
