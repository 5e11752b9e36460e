"""The client's own texts (buttons, status, notices) in the languages it ships; games bring theirs."""

from __future__ import annotations

from typing import Any

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "seat": "Seat {seat}",
        "seat.you": "Seat {seat} (you)",
        "seat.acting": "to act",
        "status.loading": "Loading…",
        "status.online": "Online",
        "status.offline": "Offline: keep drafting, your moves are kept and sent when you are back",
        "status.connecting": "Connecting…",
        "turn.you": "Your turn",
        "turn.waiting": "Waiting for {seats}",
        "turn.over": "The game is over",
        "turn.sending": "Sending your move…",
        "turn.queued": "Your move waits to be sent (offline)",
        "button.undo": "Undo",
        "button.take-back": "Take back my move",
        "button.review": "Review the game",
        "log": "Log",
        "result.over": "Game over",
        "result.winners": "Winner(s): seat {winners}",
        "result.draw": "A draw: nobody wins",
        "result.seat": "Seat",
        "result.score": "Score",
        "notice.dropped": "Other seats moved meanwhile: {count} drafted step(s) were dropped ({steps}).",
        "notice.queued": "Offline: your move will be sent when the connection is back.",
        "notice.step-refused": "That step is not possible now: {reason}",
        "notice.server-error": "The server could not accept that action.",
        "notice.outdated": "The rules changed on the server: reloading.",
        "role.spectator": "Watching as a spectator",
        "role.referee": "Watching as referee",
        "lobby.create": "Create a room",
        "review.step": "Step {step} of {total}",
        "review.closed": "The review opens when the game has ended.",
        "review.empty": "This game has no recorded steps.",
        "review.error": "The server could not give this game's review: please try again later.",
        "space.of": "{seat}: {space}",
        "space.at": "{space}, row {row}, column {column}",
        "space.label": "{space}, {count} piece(s)",
        "piece.label": "{what} ({space}, {index} of {count})",
        "piece.planned": "{what}, planned here (not played yet)",
        "offer.on": "{action}: {what}",
        "room.missing": "This room does not exist or has expired.",
        "room.bad-link": "This link does not open a seat in this room: ask the host for a new link.",
        "room.to-lobby": "Go to the lobby to start a new game",
        "error.undo/not-allowed": "That move can no longer be taken back.",
        "error.clock/flag-fallen": "Your time ran out: the game no longer takes your moves.",
        "error.commit/stale": "Another player moved first: your move was checked again against the new position.",
        "error.step/not-offered": "That move is not possible now.",
        "error.step/not-active": "It is not your turn.",
        "error.step/order": "That move was not complete, so it was not played.",
        "error.step/game-over": "The game is over.",
        "error.room/not-started": "The game has not started yet: it starts when every seat has joined.",
        "error.role/not-a-seat": "Spectators and referees watch; they cannot play.",
        "error.server/store": "The server could not save your move: please try again.",
        "error.game/bug": "The game could not play that move (a bug in the game); it was not played.",
        "error.frame/rate-limited": "Too many actions at once: please slow down.",
        "error.other": "The server could not accept that action.",
        "rules": "Rules",
        "rules.none": "This game ships no rules text.",
        "rules.options": "This room's options",
        "result.you-won": "You won",
        "result.you-lost": "You lost",
        "result.draw-short": "Draw",
        "result.won": "{seats} won",
        "result.won-many": "{seats} won",
        "result.and": " and ",
        "result.last-move": "last move",
        "title.room": "{game} — Boardweaver",
        "title.your-turn": "● Your turn — Boardweaver",
        "signal.sound": "Sound on my turn",
        "signal.notify": "Notify me on my turn",
        "signal.notify-denied": "The browser does not allow notifications for this page.",
        "signal.notification": "It is your turn in {game}.",
        "status.reconnecting": "Connection lost: trying again…",
        "notice.connection-lost": (
            "The connection to the server was lost; your moves are kept and sent once it is back."
        ),
    },
    "fr": {
        "seat": "Place {seat}",
        "seat.you": "Place {seat} (vous)",
        "seat.acting": "doit jouer",
        "status.loading": "Chargement…",
        "status.online": "En ligne",
        "status.offline": "Hors ligne : continuez, vos coups sont gardés et envoyés au retour",
        "status.connecting": "Connexion…",
        "turn.you": "À vous de jouer",
        "turn.waiting": "En attente de {seats}",
        "turn.over": "La partie est finie",
        "turn.sending": "Envoi de votre coup…",
        "turn.queued": "Votre coup attend d'être envoyé (hors ligne)",
        "button.undo": "Annuler",
        "button.take-back": "Reprendre mon coup",
        "button.review": "Revoir la partie",
        "log": "Journal",
        "result.over": "Partie terminée",
        "result.winners": "Gagnant(s) : place {winners}",
        "result.draw": "Match nul : personne ne gagne",
        "result.seat": "Place",
        "result.score": "Score",
        "notice.dropped": "D'autres ont joué entre-temps : {count} étape(s) abandonnée(s) ({steps}).",
        "notice.queued": "Hors ligne : votre coup partira au retour de la connexion.",
        "notice.step-refused": "Ce n'est pas possible maintenant : {reason}",
        "notice.server-error": "Le serveur n'a pas pu accepter cette action.",
        "notice.outdated": "Les règles ont changé sur le serveur : rechargement.",
        "role.spectator": "Vous regardez en spectateur",
        "role.referee": "Vous regardez en arbitre",
        "lobby.create": "Créer une salle",
        "review.step": "Étape {step} sur {total}",
        "review.closed": "Le replay s'ouvre quand la partie est finie.",
        "review.empty": "Cette partie n'a aucune étape enregistrée.",
        "review.error": "Le serveur n'a pas pu donner le replay de cette partie : réessayez plus tard.",
        "space.of": "{seat} : {space}",
        "space.at": "{space}, rangée {row}, colonne {column}",
        "space.label": "{space}, {count} pièce(s)",
        "piece.label": "{what} ({space}, {index} sur {count})",
        "piece.planned": "{what}, prévu ici (pas encore joué)",
        "offer.on": "{action} : {what}",
        "room.missing": "Cette salle n'existe pas ou a expiré.",
        "room.bad-link": "Ce lien n'ouvre aucune place de cette salle : demandez un nouveau lien à l'hôte.",
        "room.to-lobby": "Aller à l'accueil pour lancer une nouvelle partie",
        "error.undo/not-allowed": "Ce coup ne peut plus être repris.",
        "error.clock/flag-fallen": "Votre temps est écoulé : la partie n'accepte plus vos coups.",
        "error.commit/stale": "Un autre joueur a joué avant vous : votre coup a été revérifié.",
        "error.step/not-offered": "Ce coup n'est pas possible maintenant.",
        "error.step/not-active": "Ce n'est pas votre tour.",
        "error.step/order": "Ce coup n'était pas complet : il n'a pas été joué.",
        "error.step/game-over": "La partie est finie.",
        "error.room/not-started": "La partie n'a pas commencé : elle commence quand toutes les places sont prises.",
        "error.role/not-a-seat": "Spectateurs et arbitres regardent ; ils ne jouent pas.",
        "error.server/store": "Le serveur n'a pas pu enregistrer votre coup : réessayez.",
        "error.game/bug": "Le jeu n'a pas pu jouer ce coup (une erreur du jeu) ; il n'a pas été joué.",
        "error.frame/rate-limited": "Trop d'actions à la fois : ralentissez un peu.",
        "error.other": "Le serveur n'a pas pu accepter cette action.",
        "rules": "Règles",
        "rules.none": "Ce jeu ne fournit pas de règles.",
        "rules.options": "Les options de cette salle",
        "result.you-won": "Vous avez gagné",
        "result.you-lost": "Vous avez perdu",
        "result.draw-short": "Match nul",
        "result.won": "{seats} gagne",
        "result.won-many": "{seats} gagnent",
        "result.and": " et ",
        "result.last-move": "dernier coup",
        "title.room": "{game} — Boardweaver",
        "title.your-turn": "● À vous — Boardweaver",
        "signal.sound": "Son à mon tour",
        "signal.notify": "Me prévenir à mon tour",
        "signal.notify-denied": "Le navigateur n'autorise pas les notifications pour cette page.",
        "signal.notification": "C'est à vous de jouer dans {game}.",
        "status.reconnecting": "Connexion perdue : nouvel essai…",
        "notice.connection-lost": "La connexion au serveur est perdue ; vos coups sont gardés et envoyés à son retour.",
    },
}

# Players' names, "my games", invites and rematches (kept as one block: issue 16's names part).
TEXTS["en"] |= {
    "seat.named": "{name}",
    "seat.you-named": "{name} (you)",
    "rematch.offer": "Play again with the same players",
    "rematch.move": "The rematch is ready: go to it",
    "rematch.failed": "The rematch could not be made: {reason}",
    "name.failed": "Your name was not kept: {reason}",
    "name.ask": "Your name, shown to the other players",
    "name.save": "Save my name",
}
TEXTS["fr"] |= {
    "seat.named": "{name}",
    "seat.you-named": "{name} (vous)",
    "rematch.offer": "Rejouer avec les mêmes joueurs",
    "rematch.move": "La revanche est prête : y aller",
    "rematch.failed": "La revanche n'a pas pu être créée : {reason}",
    "name.failed": "Votre nom n'a pas été gardé : {reason}",
    "name.ask": "Votre nom, montré aux autres joueurs",
    "name.save": "Garder mon nom",
}


class Texts:
    """The client's texts in one language, falling back to English, then to the key."""

    def __init__(self, locale: str) -> None:
        self.locale = pick_locale(locale, list(TEXTS))
        self._texts = {**TEXTS["en"], **TEXTS[self.locale]}

    def has(self, key: str) -> bool:
        return key in self._texts

    def error(self, code: str) -> str:
        """A server error code (`undo/not-allowed`) as a sentence for the player; never the code itself."""
        key = f"error.{code}"
        return self.get(key if key in self._texts else "error.other")

    def get(self, key: str, **args: Any) -> str:
        template = self._texts.get(key, key)
        try:
            return template.format(**args)
        except (KeyError, IndexError, ValueError):
            return template


def pick_locale(wanted: str, available: list[str]) -> str:
    """Returns the best of `available` for a browser language like "fr-CA" (English as last resort)."""
    wanted = wanted.lower()
    if wanted in available:
        return wanted
    base = wanted.split("-")[0]
    if base in available:
        return base
    return "en" if "en" in available or not available else available[0]
