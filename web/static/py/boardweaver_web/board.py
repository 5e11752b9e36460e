"""Draws a table as HTML from the game's look: spaces, pieces, owned areas, players, offers.

Pure Python: it returns markup text with `data-offer` numbers on what the seat may click, and
`data-key` ("space/index") on every piece so moves can be animated.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any

from boardweaver import Catalog, Game, Message, Offer, Piece, Space, Table, msg
from boardweaver.wire import canonical_json, piece_to_wire

from .texts import Texts


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
    piece_offers: dict[tuple[str, int], int] = field(default_factory=dict)
    space_offers: dict[str, int] = field(default_factory=dict)

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
        for space in state.spaces.values():
            look = self.game.space_look(space.kind)
            if look.get("hidden"):
                continue
            if look.get("owner_only") and not self.table.perspective.sees(space.owner):
                continue  # drawn only where its owner's secrets are seen: the owner, the referee, the review
            area = look.get("area", "table")
            if area == "seat" and space.owner is not None and space.owner in seats:
                seats[space.owner].append(space)
            elif area == "side":
                side.append(space)
            else:
                middle.append(space)
        ghosts = self._ghosts()
        others = [p for p in state.player_ids if p != self.me]
        parts = ['<div class="others">']
        parts += [self._seat_area(p, seats[p], ghosts) for p in others]
        parts.append("</div>")
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
        """Spaces with axial `q`/`r` public state, laid out as a hex board (pointy tops)."""
        size = 44.0
        cells = []
        points = [_axial(space) for space in spaces]
        axial = [point for point in points if point is not None]
        xs = [size * (1.7320508 * q + 0.8660254 * r) for q, r in axial]
        ys = [size * 1.5 * r for _, r in axial]
        left, top = min(xs), min(ys)
        for space, x, y in zip(spaces, xs, ys, strict=True):
            cell = self._space(space, ghosts)
            cells.append(f'<div class="hex-cell" style="left:{x - left:.1f}px;top:{y - top:.1f}px">{cell}</div>')
        width, height = max(xs) - left + 2 * size * 0.8660254 * 2, max(ys) - top + 2 * size
        return f'<div class="hex-map" style="width:{width:.0f}px;height:{height:.0f}px">{"".join(cells)}</div>'

    def _seat_area(self, player: int, spaces: list[Space], ghosts: dict[str, list[str]]) -> str:
        state = self.table.state
        active = player in state.active_player_ids
        classes = ["seat-area"] + (["active"] if active else []) + (["me"] if player == self.me else [])
        name = self.texts.get("seat.you", seat=player) if player == self.me else self.texts.get("seat", seat=player)
        facts = self._player_facts(player)
        head = (
            f'<header><span class="seat-name">{html.escape(name)}</span>'
            + (f' <span class="turn-mark">{html.escape(self.texts.get("seat.acting"))}</span>' if active else "")
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
        return "".join(
            f'<span class="fact" data-fact="{html.escape(k)}">{html.escape(self._fact_name(k))}: '
            f"{html.escape(_plain(v))}</span>"
            for k, v in items
        )

    def _fact_name(self, key: str) -> str:
        text = self.say(f"look.{key}")
        return key if text == f"look.{key}" else text

    # -- spaces and pieces ---------------------------------------------------------------------------

    def _space(self, space: Space, ghosts: dict[str, list[str]]) -> str:
        look = self.game.space_look(space.kind)
        layout = str(look.get("layout", "row"))
        offer = self.space_offers.get(space.space_id)
        classes = ["space", f"layout-{html.escape(layout)}", f"kind-{html.escape(space.kind)}"]
        attributes = f' data-space="{html.escape(space.space_id)}"'
        title = self.say(look["title"]) if look.get("title") else space.space_id
        if offer is not None:
            classes.append(f"offer intent-{self.offers[offer].intent.value}")
            attributes += f' data-offer="{offer}" title="{html.escape(self.label(self.offers[offer]))}"'
        style = ""
        if layout == "grid" and look.get("columns"):
            style = f' style="--columns:{int(look["columns"])}"'
        elif layout == "fan":
            style = f' style="--n:{max(1, len(space.pieces))}"'
        pieces = "".join(self._piece(space, index, piece) for index, piece in enumerate(space.pieces))
        pieces += "".join(ghosts.get(space.space_id, []))
        count = f'<span class="count">{len(space.pieces)}</span>' if layout == "stack" else ""
        return (
            f'<div class="{" ".join(classes)}"{attributes}>'
            f'<div class="space-title">{html.escape(title)}{count}</div>'
            f'<div class="pieces"{style}>{pieces}</div></div>'
        )

    def _piece(self, space: Space, index: int, piece: Piece, ghost: bool = False) -> str:
        shown_kind = piece.private_kind if (piece.private_kind and self.show_private) else piece.public_kind
        look = self.game.piece_look(shown_kind)
        classes = ["piece", f"kind-{html.escape(piece.public_kind)}"]
        if piece.private_kind and self.show_private and piece.private_kind != piece.public_kind:
            classes.append("secret")
        if piece.private_kind is None and piece.public_kind in ("back", "hidden"):
            classes.append("back")
        attributes = ""
        if ghost:
            classes.append("pending")
        else:
            attributes = f' data-key="{html.escape(space.space_id)}/{index}"'
            if self._is_drafted(space, index, piece):
                classes.append("drafted")
            if (space.space_id, index) in self.chosen:
                classes.append("chosen")
            offer = self.piece_offers.get((space.space_id, index))
            if offer is not None:
                classes.append(f"offer intent-{self.offers[offer].intent.value}")
                attributes += f' data-offer="{offer}"'
        tip = self.say(look["title"]) if look.get("title") else shown_kind
        offer_number = None if ghost else self.piece_offers.get((space.space_id, index))
        if offer_number is not None:
            tip = self.label(self.offers[offer_number])
        owner = piece.owner if piece.owner is not None else piece.public_state.get("by")
        if isinstance(owner, int):
            classes.append(f"owner-{owner}")
        style = f' style="--piece-color:{html.escape(look["color"])}"' if look.get("color") else ""
        return (
            f'<div class="{" ".join(classes)}"{attributes}{style} title="{html.escape(str(tip))}">{_face(look)}</div>'
        )

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


def _axial(space: Space) -> tuple[int, int] | None:
    q, r = space.public_state.get("q"), space.public_state.get("r")
    return (q, r) if type(q) is int and type(r) is int else None


def _face(look: dict[str, str]) -> str:
    if look.get("svg"):
        return f'<span class="face svg">{look["svg"]}</span>'  # the game's own markup, from its look
    symbol, text = look.get("symbol"), look.get("text")
    if symbol and text:
        return (
            f'<span class="face both"><span class="symbol">{html.escape(symbol)}</span>'
            f'<span class="text">{html.escape(text)}</span></span>'
        )
    if symbol:
        return f'<span class="face symbol">{html.escape(symbol)}</span>'
    return f'<span class="face text">{html.escape(text or "")}</span>'


def _plain(value: Any) -> str:
    if isinstance(value, bool):
        return "✓" if value else "-"
    if isinstance(value, (dict, list)):
        return "…"
    return str(value)


def render_log(lines: list[Message], catalog: Catalog | None, limit: int = 200) -> str:
    """The public log as list items, newest last, in the seat's language."""
    lines = lines[-limit:]
    items = []
    for message in lines:
        text = catalog.render(message) if catalog is not None else message.key
        items.append(f"<li>{html.escape(text)}</li>")
    return "".join(items)


def render_result(table: Table, texts: Texts) -> str:
    """The end of the game: winners (or a draw) and the scores the game kept, or nothing while it runs."""
    result = table.state.result
    if result is None:
        return ""
    if result.winners:
        verdict = texts.get("result.winners", winners=", ".join(str(p) for p in result.winners))
    else:
        verdict = texts.get("result.draw")
    scores = ""
    if result.scores:
        rows = "".join(
            f'<tr class="{"winner" if p in result.winners else ""}">'
            f"<td>{html.escape(texts.get('seat', seat=p))}</td><td>{result.scores.get(p, '')}</td></tr>"
            for p in table.state.player_ids
        )
        scores = (
            f'<table class="scores"><tr><th>{html.escape(texts.get("result.seat"))}</th>'
            f"<th>{html.escape(texts.get('result.score'))}</th></tr>{rows}</table>"
        )
    return f'<h3>{html.escape(texts.get("result.over"))}</h3><p class="winners">{html.escape(verdict)}</p>{scores}'


def piece_keys(table: Table) -> dict[str, list[str]]:
    """Each space's pieces as comparable text, to find what a local step moved."""
    return {
        space_id: [canonical_json(piece_to_wire(piece)) for piece in space.pieces]
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
