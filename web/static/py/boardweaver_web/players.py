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
LIST_ARGS = ("winners", "losers")  # args that list seats as text: "0, 2"
# "Player {player}", "seat {claimer}", "player(s) {winners}": the word goes when the seats have names
# (with a French article before it: "Le joueur {player}" becomes "{player}", not "Le Ada")
_SEAT_WORD = (
    r"(?:\b(?:[Ll]es?|[Ll]a|[Tt]he)\s+)?"
    r"(?:[Pp]layer|[Ss]eat|[Pp]lace|[Jj]oueur|[Jj]oueuse|[Ss]i[èe]ge)(?:\(s\)|s)?"
)
_SEAT_LIST = re.compile(r"\d+(?:, \d+)*")
# French articles fused with "à"/"de" stay as the bare preposition: "au joueur {source}" becomes "à Bob", not
# "au Bob"; "du joueur {player}" becomes "de Bob", or "d'Ada" before a vowel.
_FUSED = r"\b(?P<fused>[Aa]ux?|[Dd]u|[Dd]es)\s+(?:[Jj]oueur|[Jj]oueuse|[Ss]i[èe]ge)s?"
_VOWELS = "aeiouyàâäéèêëîïôöûüAEIOUYÀÂÄÉÈÊËÎÏÔÖÛÜ"


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
        super().__init__(catalog.locale, catalog.texts, catalog.plurals, catalog.plural_forms)
        self.names = names

    def render(self, message: Message) -> str:
        template = self.template(message.key, message.args.get("count"))
        args = dict(message.args)
        named = []
        for arg, value in message.args.items():
            if arg in SEAT_ARGS and type(value) is int and value in self.names:
                args[arg] = self.names[value]
                named.append(arg)
            elif arg in LIST_ARGS and isinstance(value, str) and _SEAT_LIST.fullmatch(value):
                seats = [int(seat) for seat in value.split(", ")]
                if all(seat in self.names for seat in seats):
                    args[arg] = ", ".join(self.names[seat] for seat in seats)
                    named.append(arg)
        if template is None or not named:
            return super().render(message)
        for arg in named:
            template = re.sub(rf"{_FUSED}\s+\{{{arg}\}}", _preposition(arg, str(args[arg])), template)
            template = re.sub(rf"{_SEAT_WORD}\s+\{{{arg}\}}", f"{{{arg}}}", template)
        try:
            return template.format_map(args)
        except (KeyError, IndexError, ValueError):
            return super().render(message)


def _preposition(arg: str, name: str) -> Any:
    """Returns a re.sub replacement turning "au joueur {arg}" into "à {arg}" and "du joueur {arg}" into "de {arg}"."""

    def replace(found: re.Match[str]) -> str:
        fused = found.group("fused")
        if fused.lower() in ("au", "aux"):
            word = "À" if fused[0] == "A" else "à"
            return f"{word} {{{arg}}}"
        word = "D" if fused[0] == "D" else "d"
        return f"{word}'{{{arg}}}" if name[:1] in _VOWELS else f"{word}e {{{arg}}}"

    return replace
