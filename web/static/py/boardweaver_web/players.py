"""The seats' players by name: seat labels, log lines and results say "Ada" where they said "Seat 0".

Plain Python over the page's texts and a game's catalog; the names come from the server (public, like
the seats). Everything drawn from them goes through `html.escape` in `board.py`, never as markup.
"""

from __future__ import annotations

import re
from typing import Any

from boardweaver import Catalog, Message

from .texts import Texts

SEAT_ARGS = ("player", "source", "claimer", "seat", "winner", "loser")  # message args that name a seat
# "Player {player}", "seat {claimer}", "Place {player}": the word goes when the seat has a name
_SEAT_WORD = r"(?:[Pp]layer|[Ss]eat|[Pp]lace|[Jj]oueur|[Jj]oueuse)"


class NamedTexts(Texts):
    """The page's texts, with seats called by their players' names where they chose one."""

    def __init__(self, locale: str, names: dict[int, str]) -> None:
        super().__init__(locale)
        self.names = names  # the session's own dict: a rename shows at the next drawing

    def get(self, key: str, **args: Any) -> str:
        seat = args.get("seat")
        if key in ("seat", "seat.you") and isinstance(seat, int) and seat in self.names:
            return super().get("seat.named" if key == "seat" else "seat.you-named", name=self.names[seat])
        return super().get(key, **args)


class NamedCatalog(Catalog):
    """A game's catalog whose log lines call seats by name ("Ada takes a 7" for "Player 0 takes a 7")."""

    def __init__(self, catalog: Catalog, names: dict[int, str]) -> None:
        super().__init__(catalog.locale, catalog.texts)
        self.names = names

    def render(self, message: Message) -> str:
        template = self.texts.get(message.key)
        named = [a for a in SEAT_ARGS if type(message.args.get(a)) is int and message.args[a] in self.names]
        if template is None or not named:
            return super().render(message)
        args = dict(message.args)
        for arg in named:
            template = re.sub(rf"{_SEAT_WORD}\s+\{{{arg}\}}", f"{{{arg}}}", template)
            args[arg] = self.names[message.args[arg]]
        try:
            return template.format_map(args)
        except (KeyError, IndexError, ValueError):
            return super().render(message)
