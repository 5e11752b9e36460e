"""The seats' players as the page calls them: "Ada" where they chose a name, else "Player 1" (seat 0), or
"Bot 2" for a seat a bot plays.

Plain Python over the page's texts and a game's catalog; the names and the seats' states come from the server
(public: the `seats` and `names` of its frames). A seat without a name reads the same everywhere: the page's
word (a bot's for a bot's seat) and its number from 1, in seat labels, log lines, offers, titles and results.
Everything drawn from them goes through `html.escape` in `board.py`, never as markup.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Sequence
from typing import Any

from boardweaver import Catalog, Message

from .texts import VOWELS, Texts, plays_bot, seat_names, seat_number

SEAT_ARGS = ("player", "source", "target", "claimer", "seat", "winner", "loser")  # message args that name a seat
LIST_ARGS = ("winners", "losers")  # args that list seats as text: "0, 2"
# "Player {player}", "seat {claimer}", "player(s) {winners}": the word goes when the seats have names
# (with a French article before it: "Le joueur {player}" becomes "{player}", not "Le Ada")
_SEAT_WORD = (
    r"(?:\b(?:[Ll]es?|[Ll]a|[Tt]he)\s+)?"
    r"(?:[Pp]layer|[Ss]eat|[Pp]lace|[Jj]oueur|[Jj]oueuse|[Ss]i[èe]ge)(?:\(s\)|s)?"
)
# the same words alone, for a seat without a name: "Le siège {player}" becomes "Le joueur {number}"
_WORD = r"\b(?P<word>[Pp]layer|[Ss]eat|[Pp]lace|[Jj]oueur|[Jj]oueuse|[Ss]i[èe]ge)(?P<plural>\(s\)|s)?"
_SEAT_LIST = re.compile(r"\d+(?:, \d+)*")
# French articles fused with "à"/"de" stay as the bare preposition: "au joueur {source}" becomes "à Bob", not
# "au Bob"; "du joueur {player}" becomes "de Bob", or "d'Ada" before a vowel.
_FUSED = r"\b(?P<fused>[Aa]ux?|[Dd]u|[Dd]es)\s+(?:[Jj]oueur|[Jj]oueuse|[Ss]i[èe]ge)s?"


class NamedTexts(Texts):
    """The page's texts, with seats called by their players' names where they chose one, and a bot's seat
    without one as a bot's ("Bot 2"); the seat the page holds stays "Player 1 (you)"."""

    def __init__(self, locale: str, names: dict[int, str], seats: Sequence[str] = ()) -> None:
        super().__init__(locale)
        self.names = names  # the session's own dict: a rename shows at the next drawing
        self.seats = seats  # each seat's state ("open", "claimed", "bot"): the session's own list, kept in place

    def get(self, key: str, **args: Any) -> str:
        seat = args.get("seat")
        if key in ("seat", "seat.you") and isinstance(seat, int) and seat in self.names:
            return super().get("seat.named" if key == "seat" else "seat.you-named", name=self.names[seat])
        if key == "seat" and isinstance(seat, int) and plays_bot(self.seats, seat):
            return super().get("seat.bot-played", seat=seat)
        return super().get(key, **args)


class NamedCatalog(Catalog):
    """A game's catalog whose log lines call seats as the page does: by name ("Ada takes a 7" for "Player 0 takes
    a 7"), a bot's seat as a bot's ("Bot 2 takes a 7"), else by number counted from 1 with the page's one word
    ("Seat 0 plays" reads "Player 1 plays")."""

    def __init__(self, catalog: Catalog, names: dict[int, str], seats: Sequence[str] = ()) -> None:
        super().__init__(catalog.locale, catalog.texts, catalog.plurals, catalog.plural_forms)
        self.names = names
        self.seats = seats  # as `NamedTexts.seats`: the session's own list
        self.page = Texts(catalog.locale)  # the seat's word in the log's own language, not the page's

    def label(self, seat: int) -> str | None:
        """`seat`'s player's name, else "Bot 2" for a bot's seat; None for a player's seat nobody named."""
        if seat in self.names:
            return self.names[seat]
        return self.page.get("seat.bot-played", seat=seat) if plays_bot(self.seats, seat) else None

    def render(self, message: Message) -> str:
        template = self.template(message.key, message.args.get("count"))
        if template is None:
            return super().render(message)
        args = dict(self.rendered_args(message))  # an argument that is a message: its text, seats named too
        for arg, value in message.args.items():
            seats = None if isinstance(value, Message) else _seats(arg, value)
            if seats is None:
                continue
            # a seat's label stands where the template has no word before it ("{player} wins")
            labels = [self.label(seat) for seat in seats]
            args[arg] = self.page.listed(
                [label or self.page.get("seat", seat=seat) for seat, label in zip(seats, labels, strict=True)]
            )
            if any(label is not None for label in labels):  # by name (or a bot's): the word before it goes
                template = re.sub(rf"{_FUSED}\s+\{{{arg}\}}", _preposition(arg, str(args[arg])), template)
                template = re.sub(rf"{_SEAT_WORD}\s+\{{{arg}\}}", f"{{{arg}}}", template)
            else:  # by number: the page's word for a seat, its number counted from 1
                number = f"_{arg}_number"
                args[number] = self.page.listed([str(seat_number(seat)) for seat in seats])
                template = re.sub(rf"{_WORD}\s+\{{{arg}\}}", self._word(number), template)
        try:
            return template.format_map(args)
        except (KeyError, IndexError, ValueError):
            return super().render(message)

    def _word(self, number: str) -> Any:
        """Returns a re.sub replacement turning "seat {arg}" into "player {number}", keeping its case and plural."""

        def replace(found: re.Match[str]) -> str:
            plural = found.group("plural")
            word = self.page.get("seat.words") if plural == "s" else self.page.get("seat.word")
            word += "(s)" if plural == "(s)" else ""
            if found.group("word")[0].isupper():
                word = word[:1].upper() + word[1:]
            return f"{word} {{{number}}}"

        return replace


class Arrivals:
    """What a seat is told as the others come: "Joined: Bob.", and the name of a player who came without one.

    A player who opens an invite joins the room before the server has their name: it follows, from the name
    they kept in their browser at once, or from the room's name form once they fill it in. Said only "Joined:
    Player 2.", the host never learnt who came, so the name is said when it arrives: within NAME_GRACE_MS of the
    join, "Joined: Bob." in place of the number; later, "Player 2 is Bob." A name changed later is said too
    ("Bob is now Robert."): the seat's header alone would change under the others' eyes unremarked.
    """

    NAME_GRACE_MS = 3000

    def __init__(self, texts: NamedTexts, own: int | None) -> None:
        self.texts = texts  # its names are the session's, updated by every seats frame
        self.own = own
        self.named: dict[int, str] | None = None  # the seats' names at the last frame (None: no frame yet)
        self.came_unnamed: dict[int, float] = {}  # seats that came without a name -> when (page ms)

    def heard(self, came: list[int], now: float) -> str:
        """What to say after a frame in which the seats `came` joined (its names already read); "" for nothing.

        The first call sets what is known: names the page found on opening are nobody's news.
        """
        names = self.texts.names
        before = dict(names) if self.named is None else self.named
        self.named = dict(names)
        waited = {seat: now - self.came_unnamed.pop(seat) for seat in sorted(self.came_unnamed) if seat in names}
        for seat in sorted(set(names) - set(before) - set(came) - {self.own}):
            waited.setdefault(seat, math.inf)  # came before this page opened, or its join was said long ago
        self.came_unnamed.update({seat: now for seat in came if seat not in names})
        joined = [*came, *(seat for seat, ms in waited.items() if ms <= self.NAME_GRACE_MS)]
        said = [
            self.texts.get("seat.joined", seats=self.texts.listed([self.texts.get("seat", seat=s) for s in joined]))
        ]
        said += [
            self.texts.get("seat.now-named", seat=seat, name=names[seat])
            for seat, ms in waited.items()
            if ms > self.NAME_GRACE_MS
        ]
        said += [
            self.texts.get("seat.renamed", old=before[seat], name=names[seat])
            for seat in sorted(set(names) & set(before) - {self.own})
            if names[seat] != before[seat]
        ]
        return " ".join(said if joined else said[1:])


def _seats(arg: str, value: Any) -> list[int] | None:
    """The seats a message argument names: one for `player=2`, several for `winners="0, 2"`; None for others."""
    if arg in SEAT_ARGS and type(value) is int:
        return [value]
    if arg in LIST_ARGS and isinstance(value, str) and _SEAT_LIST.fullmatch(value):
        return [int(seat) for seat in value.split(", ")]
    return None


def _preposition(arg: str, name: str) -> Any:
    """Returns a re.sub replacement turning "au joueur {arg}" into "à {arg}" and "du joueur {arg}" into "de {arg}"."""

    def replace(found: re.Match[str]) -> str:
        fused = found.group("fused")
        if fused.lower() in ("au", "aux"):
            word = "À" if fused[0] == "A" else "à"
            return f"{word} {{{arg}}}"
        word = "D" if fused[0] == "D" else "d"
        return f"{word}'{{{arg}}}" if name[:1] in VOWELS else f"{word}e {{{arg}}}"

    return replace


def render_private_room(status: dict[str, Any], texts: Texts, game_title: str, by_game: bool) -> str:
    """What someone without a seat reads while a room admits no spectator: why the board stays private (the game
    has no live spectator view, `by_game`, else the room keeps spectators out), then the public facts of the
    room's status: who sits where, whose turn it is, each seat called by the status's names and states."""
    seats = [str(state) for state in status.get("seats") or []]
    named = NamedTexts(texts.locale, seat_names(status.get("names")), seats)
    active = [seat for seat in status.get("active") or [] if type(seat) is int]
    why = named.get("room.private-game", game=game_title) if by_game else named.get("room.private-room")
    if not status.get("started"):
        waiting = [seat for seat, state in enumerate(seats) if state == "open"] + [
            seat for seat in status.get("invited") or [] if type(seat) is int
        ]
        awaited = named.listed([named.get("seat", seat=seat) for seat in sorted(set(waiting))])
        turn = named.get("turn.not-started", seats=awaited) if awaited else ""
    else:
        turn = named.get("turn.waiting", seats=named.listed([named.get("seat", seat=seat) for seat in active]))
    rows = []
    for seat, state in enumerate(seats):
        facts = [named.get("seat.bot")] if state == "bot" and seat in named.names else []  # else "Bot 2" says it
        if seat in active:
            facts.append(named.get("seat.acting"))
        said = f' <span class="seat-facts">({html.escape(", ".join(facts))})</span>' if facts else ""
        rows.append(f'<li data-seat="{seat}">{html.escape(named.get("seat", seat=seat))}{said}</li>')
    return (
        '<section class="room-private" aria-labelledby="private-title">'
        f'<h2 id="private-title">{html.escape(named.get("room.private-title"))}</h2>'
        f'<p class="private-why">{html.escape(why)}</p>'
        + (f'<p class="private-turn" role="status">{html.escape(turn)}</p>' if turn else "")
        + f'<h3>{html.escape(named.get("lobby.players"))}</h3><ul class="private-seats">{"".join(rows)}</ul>'
        "</section>"
    )
