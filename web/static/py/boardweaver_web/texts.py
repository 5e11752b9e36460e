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
        "notice.server-error": "The server refused: {code}",
        "notice.outdated": "The rules changed on the server: reloading.",
        "role.spectator": "Watching as a spectator",
        "role.referee": "Watching as referee",
        "lobby.create": "Create a room",
        "review.step": "Step {step} of {total}",
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
        "notice.server-error": "Le serveur a refusé : {code}",
        "notice.outdated": "Les règles ont changé sur le serveur : rechargement.",
        "role.spectator": "Vous regardez en spectateur",
        "role.referee": "Vous regardez en arbitre",
        "lobby.create": "Créer une salle",
        "review.step": "Étape {step} sur {total}",
    },
}


class Texts:
    """The client's texts in one language, falling back to English, then to the key."""

    def __init__(self, locale: str) -> None:
        self.locale = pick_locale(locale, list(TEXTS))
        self._texts = {**TEXTS["en"], **TEXTS[self.locale]}

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
