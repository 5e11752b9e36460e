"""More broken games for the doctor's tests, each with the correct game it breaks (see each docstring)."""

from __future__ import annotations

from typing import Any, ClassVar

from boardweaver import Action, Catalog, IllegalStepError, Intent, Json, Offer, Piece, Space, StateOf, Table, msg

from .draft_game import MARKET, MarketDraft, Pick, hand_id

DECK = "deck"
TEXTS = {
    "offer.stage": "Stage card {card}",
    "offer.take-staged": "Take the staged card",
    "log.took": "Player {player} took a card",
    "offer.peek": "Peek at the deck",
    "offer.pass": "Pass",
    "look.market": "Market",
    "look.deck": "Deck",
    "look.back": "A card back",
    "option.bonus.label": "Bonus",
    "option.bonus.help": "A bonus line for each card taken",
}


class Texts(MarketDraft):
    """The market draft with its own catalog (the keys below), so each fixture breaks only its check."""

    name = "fixture-texts"

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        return {"en": Catalog("en", dict(TEXTS))}


class DeckInMeta(Texts):
    """Check 4: setup copies the secret deck's order into the public meta data, once, never changed after."""

    name = "fixture-deck-in-meta"

    def setup(self, table: Table, players: list[int]) -> None:
        super().setup(table, players)
        table.set(StateOf.meta(), "order", [piece.private_kind for piece in table.state.space(DECK).pieces])


class UndoablePeek(Texts):
    """Check 3: an undoable Confirm "peek" copies the deck's top card into the seat's secrets, unmarked."""

    name = "fixture-undoable-peek"

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        offers = super().offers(table, player_id)
        if table.read(StateOf.player_private(player_id), Pick).staged is None:
            offers.append(Offer(Action.command("peek"), Intent.CONFIRM).label(msg("offer.peek")))
        return offers

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        if action.name != "peek":
            super().apply_action(table, player_id, action)
            return
        top = table.state.space(DECK).pieces[-1].private_kind
        table.set(StateOf.player_private(player_id), "peeked", top or "?")
        table.allow_undo()


class SortedHands(Texts):
    """Check 4: each hand is an ordered space of face-down cards kept sorted by their hidden kind.

    `collection` False breaks it; the correct game (`SortedHands.correct()`) makes the hands collections.
    """

    name = "fixture-sorted-hands"
    collection: ClassVar[bool] = False

    def setup(self, table: Table, players: list[int]) -> None:
        super().setup(table, players)
        cards = table.rng.shuffled([f"card-{n}" for n in range(100, 130)])
        for number, player in enumerate(players):
            mine = sorted(cards[number * 6 : number * 6 + 6], key=lambda card: int(card[5:]))
            space = Space(f"secret-{player}", "secret").owned_by(player)
            space = space.collection() if self.collection else space
            table.add_space(space.with_pieces([Piece("back").hiding(card) for card in mine]))


class SuitSortedHands(SortedHands):
    """Check 4: each hand sorted by the game's own order (suit, then rank, ace high), which no natural sort of the
    kinds' names follows: reported as sorted, not as a deck never shuffled (a trial author's trick game)."""

    name = "fixture-suit-sorted-hands"

    def setup(self, table: Table, players: list[int]) -> None:
        Texts.setup(self, table, players)
        ranks, suits = "789TJQKA", "SHCD"
        cards = table.rng.shuffled([rank + suit for suit in suits for rank in ranks])
        for number, player in enumerate(players):
            mine = sorted(cards[number * 6 : number * 6 + 6], key=lambda c: (suits.index(c[1]), ranks.index(c[0])))
            space = Space(f"secret-{player}", "secret").owned_by(player)
            table.add_space(space.with_pieces([Piece("back").hiding(card) for card in mine]))


class ShuffledHands(SortedHands):
    """The correct twin of SortedHands: the same sorted hands, in collections (no order to follow)."""

    name = "fixture-shuffled-hands"
    collection = True


class SortedShuffledHands(ShuffledHands):
    """Correct: after each take the player's hidden collection is re-sorted, odd cards to its end, one move
    each (how many depends on the hidden cards); a move inside a collection is nobody's to see."""

    name = "fixture-sorted-shuffled-hands"

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        super().apply_action(table, player_id, action)
        secret = f"secret-{player_id}"
        odd = [p for p in table.state.space(secret).pieces if int(str(p.private_kind)[5:]) % 2]
        for piece in odd:
            table.move_piece(secret, table.state.space(secret).pieces.index(piece), secret)


class MarkedBacks(Texts):
    """Check 4: the deck's face-down cards carry a public number telling each card apart."""

    name = "fixture-marked-backs"

    def setup(self, table: Table, players: list[int]) -> None:
        super().setup(table, players)
        for index, piece in enumerate(table.state.space(DECK).pieces):
            table.set(StateOf.piece_public(DECK, index), "n", int(str(piece.private_kind).rpartition("-")[2]))


class SetDeck(Texts):
    """Check 5 (across processes): the deck is built by iterating a set of strings, so its order is per process."""

    name = "fixture-set-deck"

    def setup(self, table: Table, players: list[int]) -> None:
        super().setup(table, players)
        faces = table.rng.shuffled(list({f"face-{n}" for n in range(12)}))  # a shuffle of a per-process order
        for index, face in enumerate(faces):
            table.set_private_kind(DECK, index, face)


class FixedSeedDeck(Texts):
    """Check 4 (the same hidden order in every game): the deck is shuffled by a generator of the author's own
    from a fixed seed, so every room deals it alike (and the determinism check passes: it is the same everywhere).
    Made by hand, not by Python's random module, whose draws check 5 sees (`test_doctor_randomness.py`)."""

    name = "fixture-fixed-seed-deck"

    def setup(self, table: Table, players: list[int]) -> None:
        super().setup(table, players)
        faces = [f"face-{n}" for n in range(len(table.state.space(DECK).pieces))]
        state = 7
        for index in range(len(faces) - 1, 0, -1):  # Fisher-Yates on a linear congruential generator
            state = (state * 1103515245 + 12345) % 2**31
            other = state % (index + 1)
            faces[index], faces[other] = faces[other], faces[index]
        for index, face in enumerate(faces):
            table.set_private_kind(DECK, index, face)


class FilledCache(Texts):
    """Check 7: a dict made in __init__ remembers each seed's market on the instance."""

    name = "fixture-filled-cache"

    def __init__(self, options: dict[str, Json] | None = None) -> None:
        super().__init__(options)
        self.seen: dict[str, int] = {}

    def setup(self, table: Table, players: list[int]) -> None:
        super().setup(table, players)
        self.seen[str(table.seed)] = len(self.seen)


class ClassCache(Texts):
    """Check 7: a cache kept on the class remembers every market seen."""

    name = "fixture-class-cache"
    cache: ClassVar[dict[str, str]] = {}

    def setup(self, table: Table, players: list[int]) -> None:
        super().setup(table, players)
        ClassCache.cache[str(table.seed)] = table.state.space(MARKET).pieces[0].public_kind


class RememberedTurn(Texts):
    """Check 7: setup sets an attribute on the game, which a frozen Game refuses."""

    name = "fixture-remembered-turn"

    def setup(self, table: Table, players: list[int]) -> None:
        super().setup(table, players)
        self.first = players[0]


class ErrorNamesDeck(Texts):
    """Check 4's error texts: taking the staged card is refused, on the full state, in words that name the
    deck's hidden top card (an `IllegalStepError`: the server sends its text to the seat). Its correct twin
    is `Texts`."""

    name = "fixture-error-names-deck"

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        deck = table.state.space(DECK).pieces
        top = deck[-1].private_kind if deck else None
        if action.type != "piece" and top is not None and top.endswith(("0", "2", "4", "6", "8")):
            raise IllegalStepError(f"the market is closed while {top} lies on top of the deck")
        super().apply_action(table, player_id, action)


class NeverEnds(Texts):
    """Check 8: the seats only ever pass."""

    name = "fixture-never-ends"

    def offers(self, table: Table, player_id: int) -> list[Offer]:
        return [Offer(Action.command("pass"), Intent.CONFIRM).label(msg("offer.pass"))]

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        players = table.state.player_ids
        table.set_active_players([players[(players.index(player_id) + 1) % len(players)]])


class DeclaredEndless(NeverEnds):
    """The correct twin of NeverEnds: it declares itself endless."""

    name = "fixture-declared-endless"
    endless = True


class Catalogued(Texts):
    """Check 6: catalogs in two languages; French lacks a key only the "bonus" option reaches, and a look title.

    `look` also names a space kind "discard" that never appears.
    """

    name = "fixture-catalogued"
    option_defaults: ClassVar[dict[str, Json]] = {"bonus": False}
    look: ClassVar[dict[str, Any]] = {
        "spaces": {"market": {"title": "look.market"}, "deck": {"title": "look.deck"}, "discard": {}},
        "pieces": {"back": {"title": "look.back"}},
    }
    french: ClassVar[dict[str, str]] = {
        key: text for key, text in TEXTS.items() if key not in ("log.bonus", "look.deck")
    }

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        texts = {**TEXTS, "log.bonus": "Player {player} scores a bonus"}
        return {"en": Catalog("en", texts), "fr": Catalog("fr", dict(cls.french))}

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        super().apply_action(table, player_id, action)
        if self.options["bonus"] and action.name == "take":
            table.log(msg("log.bonus", player=player_id))


class CataloguedWell(Catalogued):
    """The correct twin of Catalogued: both catalogs complete, and no dead look entry."""

    name = "fixture-catalogued-well"
    look: ClassVar[dict[str, Any]] = {
        "spaces": {"market": {"title": "look.market"}, "deck": {"title": "look.deck"}},
        "pieces": {"back": {"title": "look.back"}},
    }
    french: ClassVar[dict[str, str]] = {**TEXTS, "log.bonus": "Le joueur {player} marque un bonus"}


class Faced(CataloguedWell):
    """Check 6: a piece look's face text is a message key (`says`) the French catalog lacks."""

    name = "fixture-faced"
    look: ClassVar[dict[str, Any]] = {
        "spaces": {"market": {"title": "look.market"}, "deck": {"title": "look.deck"}},
        "pieces": {"back": {"title": "look.back", "says": "look.back-face"}},
    }

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        base = super().catalogs()
        return {"en": Catalog("en", {**base["en"].texts, "look.back-face": "Back"}), "fr": base["fr"]}


class FaintInk(CataloguedWell):
    """No violation, a note: the cards' look asks for a green ink that reads at 4.4:1 on the cream card, so the tab
    writes them black (a trial author's Hanabi greens looked black, and nothing said why)."""

    name = "fixture-faint-ink"
    look: ClassVar[dict[str, Any]] = {
        "spaces": CataloguedWell.look["spaces"],
        "pieces": {"back": {"title": "look.back", "ink": "#2e7d32"}},
    }


class SeatedHands(CataloguedWell):
    """Check 6 passes: the hands, each owned by its seat, are drawn in the seats' areas."""

    name = "fixture-seated-hands"
    look: ClassVar[dict[str, Any]] = {
        "spaces": {**CataloguedWell.look["spaces"], "hand": {"area": "seat", "layout": "fan"}},
        "pieces": CataloguedWell.look["pieces"],
    }


class SeatedDeck(SeatedHands):
    """Check 6: the look puts the deck in a seat's area too, but the deck is nobody's (the tab draws it on the
    table, with no seat's name)."""

    name = "fixture-seated-deck"
    look: ClassVar[dict[str, Any]] = {
        "spaces": {**SeatedHands.look["spaces"], "deck": {"title": "look.deck", "area": "seat"}},
        "pieces": CataloguedWell.look["pieces"],
    }


class Scored(CataloguedWell):
    """Check 6: the look titles the end panel's score column (`score`) by a key the French catalog lacks."""

    name = "fixture-scored"
    look: ClassVar[dict[str, Any]] = {**CataloguedWell.look, "score": "look.cards-kept"}

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        base = super().catalogs()
        return {"en": Catalog("en", {**base["en"].texts, "look.cards-kept": "Cards kept"}), "fr": base["fr"]}


class Numbered(CataloguedWell):
    """Check 6: the market's title names `{number}`, which the market's public state lacks until a card is taken;
    the deck is retitled through its public `title` by a key no catalog holds."""

    name = "fixture-numbered"
    titles: ClassVar[dict[str, str]] = {"look.market": "Market {number}", "look.deck-empty": "Empty deck"}

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        base = super().catalogs()
        return {"en": Catalog("en", {**base["en"].texts, **cls.titles}), "fr": base["fr"]}

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        super().apply_action(table, player_id, action)
        table.set(StateOf.space_public(MARKET), "number", 1)
        table.set(StateOf.space_public(DECK), "title", "look.deck-empty")


class NumberedWell(Numbered):
    """The correct twin of Numbered: the market is numbered from setup on, both catalogs hold both titles."""

    name = "fixture-numbered-well"

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        base = super().catalogs()
        french = {**base["fr"].texts, "look.market": "Marché {number}", "look.deck-empty": "Pioche vide"}
        return {"en": base["en"], "fr": Catalog("fr", french)}

    def setup(self, table: Table, players: list[int]) -> None:
        super().setup(table, players)
        table.set(StateOf.space_public(MARKET), "number", 1)


PLURAL_PO = """msgid ""
msgstr ""
"Plural-Forms: {rule}\\n"

msgid "log.hand"
msgid_plural "log.hand"
{forms}
"""


class CountedHands(CataloguedWell):
    """Check 6 passes: a plural log line (`count`), its forms right in English and French."""

    name = "fixture-counted-hands"
    forms: ClassVar[dict[str, tuple[str, ...]]] = {
        "en": ("Player {player} holds {count} card", "Player {player} holds {count} cards"),
        "fr": ("Le joueur {player} a {count} carte", "Le joueur {player} a {count} cartes"),
    }
    rules: ClassVar[dict[str, str]] = {"en": "nplurals=2; plural=(n != 1);", "fr": "nplurals=2; plural=(n > 1);"}

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        base = super().catalogs()
        found = {}
        for locale, catalog in base.items():
            forms = "\n".join(f'msgstr[{n}] "{text}"' for n, text in enumerate(cls.forms[locale]))
            counted = Catalog.from_po(locale, PLURAL_PO.format(rule=cls.rules[locale], forms=forms))
            found[locale] = Catalog(locale, {**catalog.texts, **counted.texts}, counted.plurals, counted.plural_forms)
        return found

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        super().apply_action(table, player_id, action)
        if action.name == "take":
            table.log(msg("log.hand", player=player_id, count=len(table.state.space(hand_id(player_id)).pieces)))


class MiscountedHands(CountedHands):
    """Check 6: French says nplurals=2 but its plural entry has three forms."""

    name = "fixture-miscounted-hands"
    forms: ClassVar[dict[str, tuple[str, ...]]] = {
        **CountedHands.forms,
        "fr": ("Le joueur {player} a {count} carte", "Le joueur {player} a {count} cartes", "(trop)"),
    }


assert hand_id(0) == "hand-0"


class NestedWord(CataloguedWell):
    """Check 6: a log line names its kind with a message as an argument, whose key French lacks."""

    name = "fixture-nested-word"

    @classmethod
    def catalogs(cls) -> dict[str, Catalog]:
        base = super().catalogs()
        english = {**base["en"].texts, "log.gold": "Player {player} scores a {kind} bonus", "bonus.gold": "gold"}
        french = {**base["fr"].texts, "log.gold": "Le joueur {player} marque un bonus {kind}"}
        return {"en": Catalog("en", english), "fr": Catalog("fr", french)}

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        Texts.apply_action(self, table, player_id, action)
        if action.name == "take":
            table.log(msg("log.gold", player=player_id, kind=msg("bonus.gold")))


GILDED = "gilded"  # a card's public kind the rules make, but only in a hand of more cards than a game deals


class RareFace(CataloguedWell):
    """Correct: the look draws a "gilded" card, which the rules make only for a fourth card in a hand, and no game
    deals one: a kind the bots never see but the source names, so a note (a rare kind), not a dead look entry."""

    name = "fixture-rare-face"
    look: ClassVar[dict[str, Any]] = {
        "spaces": CataloguedWell.look["spaces"],
        "pieces": {**CataloguedWell.look["pieces"], GILDED: {"color": "#d4af37"}},
    }

    def apply_action(self, table: Table, player_id: int, action: Action) -> None:
        super().apply_action(table, player_id, action)
        hand = table.state.space(hand_id(player_id)).pieces
        if len(hand) > 3:
            table.set_public_kind(hand_id(player_id), len(hand) - 1, GILDED)


class MisspeltFace(CataloguedWell):
    """Check 6: the look draws a "gliided" card that nothing in the rules makes (a typo)."""

    name = "fixture-misspelt-face"
    look: ClassVar[dict[str, Any]] = {
        "spaces": CataloguedWell.look["spaces"],
        "pieces": {**CataloguedWell.look["pieces"], "gliided": {"color": "#d4af37"}},
    }
