"""The games this server offers: the installed `boardweaver.games` entry points, chosen and added to by name."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from importlib.metadata import entry_points

from boardweaver import Action, Draft, Game, Intent, Json, RandomBot, RuleError, Table, start, verify_commit
from boardweaver.installed import GROUP, UnknownGameError, load_target, target_of

logger = logging.getLogger("boardweaver.server")
DECISION_STEPS = 1000  # a bot decision longer than this never ends (`boardweaver.bots`, the same bound)

__all__ = ["GROUP", "best_locale", "describe", "load_games", "look_problems", "parse_game_option", "served_targets"]


def load_games(only: Iterable[str] | None = None, extra: Mapping[str, str] | None = None) -> dict[str, type[Game]]:
    """Returns name -> Game class: the installed entry points (only those named in `only`, when given)
    plus `extra` (name -> `module:Class`).

    An installed game that fails to import is skipped with a warning (a game under construction must not
    take the server down) unless `only` names it; a name in `only` that is not installed, or an `extra`
    that does not import, raises with what to do.
    """
    chosen = None if only is None else set(only)
    added = dict(extra or {})
    games: dict[str, type[Game]] = {}
    installed: list[str] = []
    for entry in sorted(entry_points(group=GROUP), key=lambda e: e.name):
        installed.append(entry.name)
        if (chosen is not None and entry.name not in chosen) or entry.name in added:
            continue
        try:
            cls = entry.load()
        except Exception as error:
            if chosen is not None:
                raise
            logger.warning("skipping game %r: %s: %s", entry.name, type(error).__name__, error)
            continue
        if not (isinstance(cls, type) and issubclass(cls, Game)):
            if chosen is not None:
                raise TypeError(f"game {entry.name!r}: {cls!r} is not a Game class")
            logger.warning("skipping game %r: %r is not a Game class", entry.name, cls)
            continue
        games[entry.name] = cls
    for name in sorted((chosen or set()) - set(games) - set(added)):
        raise UnknownGameError(name, installed)
    for name, target in added.items():
        games[name] = load_target(target)
    return dict(sorted(games.items()))


def parse_game_option(text: str) -> tuple[str, str]:
    """Reads `NAME=module:Class` (the `--game` option of `serve`, `check` and `replay`)."""
    name, sep, target = text.partition("=")
    if not sep or not name or ":" not in target:
        raise ValueError(f"expected --game NAME=module:Class (e.g. goofspiel=goofspiel.rules:Goofspiel), got {text!r}")
    return name, target


def served_targets(games: Mapping[str, type[Game]]) -> dict[str, str]:
    """Returns name -> `module:Class` for the games the tab can import: not those defined in `__main__` or
    inside a function."""
    targets = {}
    for name, cls in sorted(games.items()):
        where = "in __main__" if cls.__module__ == "__main__" else "in a function" if "<" in cls.__qualname__ else ""
        if where:
            logger.warning(
                "game %r is defined %s, so the browser tab cannot import it: put it at the top of a module "
                "and serve it as --game %s=module:%s",
                name,
                where,
                name,
                cls.__name__,
            )
            continue
        targets[name] = target_of(cls)
    return targets


def look_problems(name: str, cls: type[Game], decisions: int = 200) -> list[str]:
    """Returns a line per `look` key naming a space or piece kind that no space or piece had in one bot game.

    The game (seed 0, fewest players, default options) is played by bots for up to `decisions` decisions,
    a fraction of a second for our games; the doctor checks much more.
    """
    spaces: set[str] = set()
    pieces: set[str] = set()
    try:
        game = cls()
        table = start(game, list(range(game.min_players)), 0)
        bot = RandomBot("look")
        for turn in range(decisions + 1):
            _note_kinds(table, spaces, pieces)
            active = table.state.active_player_ids
            if table.state.is_over() or not active or turn == decisions:
                break
            seat = active[turn % len(active)]
            verify_commit(game, table, seat, _drafted(game, table.view(seat), seat, bot, spaces, pieces))
    except Exception as error:  # the doctor reports a broken game; this check only reads a working one
        return [f"game {name!r}: a bot game failed ({type(error).__name__}: {error}); run boardweaver check {name}"]
    problems = []
    for key, known, what in (("spaces", spaces, "space"), ("pieces", pieces, "piece")):
        looks = cls.look.get(key, {})
        for kind in sorted(set(looks) - known if isinstance(looks, dict) else ()):
            problems.append(
                f"game {name!r}: look[{key!r}] names {what} kind {kind!r}, which no {what} had in a bot game "
                f"(there were: {', '.join(sorted(known))}); a typo?"
            )
    return problems


def _drafted(game: Game, view: Table, seat: int, bot: RandomBot, spaces: set[str], pieces: set[str]) -> list[Action]:
    """Drafts a decision as `bot.decide` does, noting the kinds on the seat's view after each step: a kind that lives
    only inside a decision (a ship's bow, marked between the click on it and the click on its stern) is drawn too."""
    draft = Draft(game, view, seat)
    for _ in range(DECISION_STEPS):
        _note_kinds(draft.view, spaces, pieces)
        if not draft.is_open:
            return draft.steps
        choices = [offer for offer in draft.offers() if offer.intent is not Intent.CANCEL]
        if not choices:
            raise RuleError(f"{game.name}: seat {seat} has an open decision with no Choice or Confirm")
        picked = game.bot_pick(draft.view, seat, list(choices), bot.rng) or bot.rng.choice(choices)
        draft.take(picked.action)
    raise RuleError(f"{game.name}: seat {seat} took {DECISION_STEPS} steps without ending a decision")


def _note_kinds(table: Table, spaces: set[str], pieces: set[str]) -> None:
    for space in table.state.spaces.values():
        spaces.add(space.kind)
        for piece in space.pieces:
            pieces.add(piece.public_kind)
            if piece.private_kind is not None:
                pieces.add(piece.private_kind)


def describe(name: str, cls: type[Game], language: str = "en") -> dict[str, object]:
    """Returns the public description of a game for the lobby: its description, rules and option texts in `language`.

    `options` keeps the defaults by name; `option_info` adds each option's type, bounds, choices and the
    catalog's texts (`option.<name>.label`, `.help`, `.<choice>`), the name itself where the catalog has none.
    """
    catalogs = cls.catalogs()
    catalog = catalogs.get(best_locale(language, list(catalogs)))
    texts = catalog.texts if catalog is not None else {}
    info = []
    for option in cls.option_info():
        key = f"option.{option['name']}"
        described: dict[str, Json] = {**option, "label": texts.get(f"{key}.label", str(option["name"]))}
        if f"{key}.help" in texts:
            described["help"] = texts[f"{key}.help"]
        choices = option.get("choices")
        if isinstance(choices, list):
            described["choices"] = [{"value": c, "label": texts.get(f"{key}.{c}", str(c))} for c in choices]
        info.append(described)
    return {
        "name": name,
        "title": texts.get("title") or cls.title or name,
        "description": texts.get("description", cls.description),
        "rules": texts.get("rules", ""),
        "locale": catalog.locale if catalog is not None else "",
        "min_players": cls.min_players,
        "max_players": cls.max_players,
        "options": dict(cls.option_defaults),
        "option_info": info,
        "live_spectator_view": cls.has_live_spectator_view,
    }


def best_locale(wanted: str, available: list[str]) -> str:
    """Returns the best of `available` for a language like "fr-CA" or an Accept-Language header (else English)."""
    for tag in wanted.replace(" ", "").split(","):
        tag = tag.split(";")[0].lower()
        if tag in available:
            return tag
        if tag.split("-")[0] in available:
            return tag.split("-")[0]
    return "en" if "en" in available or not available else available[0]
