"""How `Board` draws a piece: its classes, label and face, what a click on it does on a grid (a target, a
capture, a picker), a grid's coordinates, and a seat's planned pieces."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from boardweaver import Intent, Message, Offer, Piece, Space
from boardweaver.colours import CARD_COLOUR
from boardweaver.wire import piece_to_wire

from .faces import chosen_ink, escape, face_markup, owner_shape

if TYPE_CHECKING:
    from boardweaver import Catalog, Game, Table

    from .texts import Texts


class PieceDrawing:
    """The piece-drawing half of `Board` (a mixin: it reads the board's fields and its `label`, `say`, `_where`)."""

    game: Game
    table: Table
    offers: list[Offer]
    catalog: Catalog | None
    texts: Texts
    me: int | None
    base: Table | None
    show_private: bool
    chosen: set[tuple[str, int]]
    piece_offers: dict[tuple[str, int], int]
    picked: set[int]
    last_moves: dict[str, int]
    _tab_stops: dict[str, int]
    _read_grids: set[str]  # a seat's grids: every card a roving item, to be read (`Board._tab_stop`)
    _read_hands: set[str]  # a seat's own hands it sees: every card a roving item (`Board._is_read_hand`)
    _said_not_now: dict[str, tuple[str, str]]  # those whose cards not offered cannot be played now (`Board._not_now`)
    _use_commands: dict[str, tuple[str, str]]  # those whose cards a command plays (`Board._point_to_commands`)
    _drafted_at: dict[str, set[int]]
    _planned: dict[str, list[str]] | None  # each face planned and where (`_planned_kinds`), found once a drawing

    # and the board's own `label(offer)`, `say(key, **args)` and `_where(space)`

    def _piece(self, space: Space, index: int, piece: Piece, ghost: bool = False, unread: bool = False) -> str:
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
        if not (isinstance(mark, str) and mark.isidentifier()):
            mark = None
        if mark is not None:
            classes.append(f"mark-{mark}")  # the game marks a square (e.g. a last move) for this perspective
        mover = None if ghost else self.last_moves.get(f"{space.space_id}/{index}")
        if mover is not None:
            classes.append(f"last-move last-move-{mover}")
        attributes = ""
        picked = False  # the draft's pick (never a ghost)
        not_now = False  # a card of the seat's hand it surely cannot play now (never a ghost)
        planned_for = None  # such a card already in the seat's plan: the title of the space it is planned for
        hint = ""  # the hand's first card, where commands play its cards: says so (hand-notice)
        cell = None if ghost else self._cell_name(space, index)  # a chess square's name: "e4"
        if ghost:
            classes.append("pending")
        else:
            attributes = f' data-key="{escape(space.space_id)}/{index}"'
            if self._is_drafted(space, index, piece):
                classes.append("drafted")
            picked = (space.space_id, index) in self.chosen
            if picked:
                classes.append("chosen")
            offer = self.piece_offers.get((space.space_id, index))
            if offer is not None:
                classes.append(f"offer intent-{self.offers[offer].intent.value}")
                classes += self._target(space, look, self.offers[offer])
                attributes += f' data-offer="{offer}"'
            stop = self._tab_stops.get(space.space_id)
            # a picked card stays in its roving group; a board's every cell is in it, to be read by keyboard; so is a
            # seat's grid's every card, those shown but not to be clicked too (a face up, a pair kept): the arrows
            # reach them to read them again, and a card just turned over keeps the focus rather than handing it to
            # the next card still face down (a keyboard trial of Memory match); such a card is no button; so is a
            # seat's own hand's every card, to read the whole hand (`Board._is_read_hand`)
            read = space.space_id in self._read_grids or space.space_id in self._read_hands
            if stop is not None and (offer is not None or picked or cell is not None or read):
                attributes += f' tabindex="{0 if stop == index else -1}"'
            not_now = offer is None and not picked and space.space_id in self._said_not_now
            planned_for = self._planned_for(space, piece) if not_now else None
            if planned_for is not None:  # a card of the seat's plan: said so, not "can't play now" (a trial)
                attributes += f' data-not-now="{escape(self.texts.get("notice.planned", space=planned_for))}"'
            elif not_now:  # Enter, Space or a click on it says so, and takes no step (`RoomPage.on_key`)
                attributes += f' data-not-now="{escape(self._said_not_now[space.space_id][1])}"'
            elif offer is None and not picked and space.space_id in self._use_commands:
                # a command plays it: Enter, Space or a click says so, naming the commands (hand-notice)
                attributes += f' data-use-commands="{escape(self._use_commands[space.space_id][1])}"'
                if stop == index:  # the hand's Tab stop, its first card, hints it, once
                    hint = self._use_commands[space.space_id][0]
        what = self._piece_name(look, shown_kind)
        if cell is not None:  # a chess square says its name ("e4, White pawn"), not its place among 64
            # nor its board's title: the board (a group named so) says it once, not each of its 64 squares
            spoken = self.texts.get("piece.cell", cell=cell, what=what)
        elif self.game.space_look(space.kind).get("layout") == "grid":  # a grid's cell: its board says the title
            spoken = self.texts.get("piece.in-grid", what=what, index=index + 1, count=len(space.pieces))
        else:
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
        if "secret" in classes and self._beside_known(space, piece):  # the dotted edge, said where it tells apart
            spoken += f" · {self.texts.get('piece.secret')}"
        if mark is not None:  # the mark's colour is said too (fog chess's last moves, a trial)
            spoken += f" · {self._mark_name(mark)}"
        if picked:  # the draft's pick: said, not only drawn (its neighbour, focused, looked picked to a trial)
            spoken += f" · {self.texts.get('piece.picked')}"
        elif planned_for is not None:
            spoken += f" · {self.texts.get('piece.planned-for', space=planned_for)}"
        elif not_now and self._said_not_now[space.space_id][0]:
            # a card of the seat's hand it cannot play now, reached by the arrows among those it can: said so, as
            # those say what a click does (a grid's card is no button: its label says nothing of a click)
            spoken += f" · {self._said_not_now[space.space_id][0]}"
        if mover is not None:
            spoken += f" · {self.texts.get('result.last-move')}"
        owner = piece.owner if piece.owner is not None else piece.public_state.get("by")
        if isinstance(owner, int):  # the stripe says whose piece it is (who placed a tile): the label says it too
            classes.append(f"owner-{owner}")
            seat = self.texts.get("seat.you" if owner == self.me else "seat", seat=owner)
            spoken += f" · {self.texts.get('piece.stripe', seat=seat)}"
        if hint:  # what to do comes after all the card is (its last move, its stripe), not amid it
            spoken += f" · {hint}"
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
        face = face_markup(look, self._face_text(look), fanned)
        corner = look.get("corner")
        if isinstance(corner, str) and corner.strip():  # a cue beside the colour (Hexbloom's ✿ on a rose tile)
            face += f'<span class="corner" aria-hidden="true">{escape(corner)}</span>'
        if known is not None:  # what every seat knows of a face this seat sees (a Hanabi hint), in a corner
            face += f'<span class="known" aria-hidden="true">{escape(known)}</span>'
        if picked:  # a tick says it, not a colour alone (on a grid no lift either); the label says "picked"
            face += '<span class="chosen-mark" aria-hidden="true">✓</span>'
        if isinstance(owner, int):  # the stripe's shape: whose it is without telling colours apart
            face += f'<span class="owner-shape" aria-hidden="true">{owner_shape(owner)}</span>'
        if offer_number is not None:
            return f'<button type="button" class="{" ".join(classes)}"{attributes}{style}{label}>{face}</button>'
        if unread:  # a back under the top of a deck: its space's label counts it (`Board._space`)
            label += ' aria-hidden="true"'
        return f'<div class="{" ".join(classes)}"{attributes}{style} role="img"{label}>{face}</div>'

    def _planned_for(self, space: Space, piece: Piece) -> str | None:
        """The space a piece of the seat's own is planned for (its private `target`, seen by this seat alone, as
        `_ghosts` draws it there), by its title ("Lane 3"); None for a piece not planned.

        A card of a hand whose every copy of its face is planned (Three lanes with `keep_cards`: the card stays in
        the hand, a copy of it goes into the plan) is said planned where its copy is, not "can't play now"."""
        target = piece.private_state.get("target") if self.show_private else None
        if not isinstance(target, str):
            kind = piece.private_kind or piece.public_kind
            targets = self._planned_kinds().get(kind, [])
            alike = sum((p.private_kind or p.public_kind) == kind for p in space.pieces)
            target = targets[0] if targets and len(targets) >= alike and len(set(targets)) == 1 else None
        if target is None or not self.table.state.has_space(target):
            return None
        return self._where(self.table.state.space(target))

    def _planned_kinds(self) -> dict[str, list[str]]:
        """Each face this seat sees planned (a piece with a private `target` naming a space) and where it is planned,
        by face, as this seat's own view holds them."""
        if self._planned is None:
            self._planned = {}
            for other in self.table.state.spaces.values() if self.show_private else []:
                for piece in other.pieces:
                    target = piece.private_state.get("target")
                    if isinstance(target, str):
                        self._planned.setdefault(piece.private_kind or piece.public_kind, []).append(target)
        return self._planned

    def _mark_name(self, mark: str) -> str:
        """What a square's mark (its private `mark`, drawn as `mark-<name>`) means, in words: the game's catalog's
        `look.mark-<name>` ("your last move"), else the platform's "marked"."""
        key = f"look.mark-{mark}"
        text = self.say(key)
        return self.texts.get("piece.marked") if text == key else text

    def _known(self, piece: Piece, shown_kind: str) -> str | None:
        """What every seat knows of a piece this seat sees by its hidden face: its public kind's face, where that
        kind's look says `"mark": true` (a Hanabi hint's "R?" on a card the other seats see whole), else None."""
        if shown_kind == piece.public_kind:
            return None
        public = self.game.piece_look(piece.public_kind)
        if public.get("mark") is not True:
            return None
        return self._face_text(public) or public.get("symbol") or piece.public_kind

    def _beside_known(self, space: Space, piece: Piece) -> bool:
        """Returns whether `space` holds a piece of `piece`'s owner drawn by its public face, which every seat knows.

        Only there does the dotted edge of a piece not every seat sees tell its owner something (a Stratego's units
        still hidden beside one an attack turned up), so only there its label says so; in a hand of the seat's own
        secret cards it would be said on every card and tell nothing.
        """
        if piece.owner is None:
            return False
        return any(other.owner == piece.owner and other.private_kind is None for other in space.pieces)

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

    def _cell_name(self, space: Space, index: int) -> str | None:
        """The name of a grid's cell as its look's `coordinates` name its column and row ("e4" on a chess board),
        else None (a grid without them, any other space). A grid turned for its seat keeps its cells' names."""
        look = self.game.space_look(space.kind)
        names = look.get("coordinates")
        if look.get("layout") != "grid" or not look.get("columns") or not isinstance(names, dict):
            return None
        row, column = divmod(index, int(look["columns"]))
        columns, rows = str(names.get("columns", "")), str(names.get("rows", ""))
        return columns[column] + rows[row] if column < len(columns) and row < len(rows) else None

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
        """What a piece is, in words: its look's title, else the text, symbol and corner on it, else its kind."""
        if look.get("title"):
            return self.say(look["title"])
        shown = " ".join(part for part in (self._face_text(look), look.get("symbol"), look.get("corner")) if part)
        return shown or kind

    def _face_text(self, look: dict[str, Any]) -> str | None:
        """The text on a piece: its look's `says` (a message key, or a message with arguments) in the seat's
        language, else its literal `text`; "" for a text of white space alone, which draws nothing (an empty
        square's `{"text": " "}` is a blank face, named by its title or kind, and a dot where a piece may go)."""
        says = look.get("says")
        if isinstance(says, Message):
            return self.catalog.render(says) if self.catalog is not None else says.key
        text = self.say(says) if says else look.get("text")
        return text if text is None or text.strip() else ""

    def _is_drafted(self, space: Space, index: int, piece: Piece) -> bool:
        """Whether the draft put this piece here or changed it: not one of the pieces the space held before (by
        what it shows, in order), so the cards left in a hand two were played from are not marked, though each
        moved up a place."""
        if self.base is None or not self.base.state.has_space(space.space_id):
            return False
        drafted = self._drafted_at.get(space.space_id)
        if drafted is None:
            before = Counter(repr(piece_to_wire(old)) for old in self.base.state.space(space.space_id).pieces)
            drafted = set()
            for at, now in enumerate(space.pieces):
                key = repr(piece_to_wire(now))
                if before[key]:
                    before[key] -= 1
                else:
                    drafted.add(at)
            self._drafted_at[space.space_id] = drafted
        return index in drafted

    def _ghosts(self) -> dict[str, list[str]]:
        """A seat's own planned pieces (private `target` naming a space), drawn at their target."""
        ghosts: dict[str, list[str]] = {}
        for space in self.table.state.spaces.values():
            for index, piece in enumerate(space.pieces):
                target = piece.private_state.get("target") if self.show_private else None
                if isinstance(target, str) and self.table.state.has_space(target):
                    ghosts.setdefault(target, []).append(self._piece(space, index, piece, ghost=True))
        return ghosts
