"""The room's panels beside the board, as HTML: the seats' clocks, the log, what happened since the seat's last
decision, the end panel (the verdict, why the game ended, the scores), and the game's rules with the room's
options."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from boardweaver import Catalog, Game, Message, Table, msg

from .faces import escape
from .outcome import say_outcome
from .texts import Texts


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


def render_log(
    lines: list[Message], catalog: Catalog | None, limit: int = 200, fresh: int = 0, me: int | None = None
) -> str:
    """The public log as list items, newest last, in the seat's language, each line as the seat `me` reads it
    (`for_reader`: "You resigned."): the last `limit` lines, numbered as in the whole log; the last `fresh` of
    them are marked `new` (the review's step)."""
    first = max(0, len(lines) - limit)
    items = []
    for number, message in enumerate(lines[first:], start=first + 1):
        text = catalog.render(for_reader(message, me, catalog)) if catalog is not None else message.key
        value = f' value="{number}"' if number == first + 1 and first else ""
        mark = ' class="new"' if number > len(lines) - fresh else ""
        items.append(f"<li{value}{mark}>{escape(text)}</li>")
    return "".join(items)


PHONE_LINES = 4  # the lines of what happened a phone shows, the last (boardweaver.css: `.happened span`)


def render_happened(
    lines: list[Message], catalog: Catalog | None, me: int | None = None, earlier: int = 0, texts: Texts | None = None
) -> str:
    """What happened since the seat `me`'s last decision (`Session.latest_messages`), one sentence a line as that
    seat reads it (`for_reader`), shown where the eye is (and read out by a screen reader): the log says it too,
    further down. "" before any. Where lines are cut (`earlier` of them left out, and a phone shows only the last
    `PHONE_LINES`), a button first says how many and takes the player to the log (`render_earlier`)."""
    head, shown = happened_parts(lines, catalog, me, earlier, texts)
    return head + " ".join(shown)


def happened_parts(
    lines: list[Message], catalog: Catalog | None, me: int | None = None, earlier: int = 0, texts: Texts | None = None
) -> tuple[str, list[str]]:
    """`render_happened`'s markup in its parts: the button saying how many lines are cut ("" where none), and a
    `<span>` per line (drawn so by `elements.draw_lines`, which adds a new line alone to the live region)."""
    said = [
        catalog.render(for_reader(message, me, catalog)) if catalog is not None else message.key for message in lines
    ]
    shown = [f"<span>{escape(sentence(text))}</span>" for text in said]
    return render_earlier(earlier, max(0, len(said) - PHONE_LINES), texts, earlier + len(said)), shown


def render_earlier(earlier: int, off_a_phone: int, texts: Texts | None, back: int = 0) -> str:
    """The button before what happened when its lines are cut: "2 earlier lines in the log", counted as each
    screen cuts (`earlier` everywhere, `off_a_phone` more on a phone); it takes the focus to the log, its first
    cut line (`back` lines from the log's end: `data-log-jump`, room_view.py) at the top of its box. "" where
    nothing is cut."""
    if texts is None or earlier + off_a_phone == 0:
        return ""
    counts = f'<span class="on-wide">{escape(texts.get("happened.earlier", count=earlier))}</span>' if earlier else ""
    counts += f'<span class="on-phone">{escape(texts.get("happened.earlier", count=earlier + off_a_phone))}</span>'
    phone_only = "" if earlier else " phone-only"  # a wider screen shows every line there is
    return f'<button type="button" class="happened-earlier{phone_only}" data-log-jump="{back}">{counts}</button>'


def sentence(text: str) -> str:
    """`text` ending as a sentence does: a game's log line ("Bea has no cards left and wins") gets its full stop."""
    return text if text.rstrip().endswith((".", "!", "?", "…")) else f"{text}."


def verdict(
    table: Table,
    texts: Texts,
    me: int | None = None,
    name: Callable[[int], str] | None = None,
    cooperative: bool = False,
) -> str:
    """The end in a few words for `me` (see `outcome.say_outcome`); "" while the game runs."""
    result = table.state.result
    if result is None:
        return ""
    return say_outcome(table.state.player_ids, result.winners, texts, me, name, cooperative)


def score_title(game: Game, catalog: Catalog | None) -> str | None:
    """The title of the end panel's score column the game's look names (`look["score"]`, a catalog key, as
    "Cards left"), in the catalog's language; None for the platform's "Score"."""
    key = game.look.get("score")
    if not isinstance(key, str) or not key:
        return None
    return catalog.render(msg(key)) if catalog is not None else key


def for_reader(message: Message, me: int | None, catalog: Catalog) -> Message:
    """`message` as the seat `me` reads it: its "-you" form (`boardweaver.resigned-you`, "You resigned.") where
    its `player` is `me` and `catalog` has that form, else itself. The server sends one message to every seat;
    the reader's own seat is the tab's to know, so "Player 1 resigned." reads "You resigned." for Player 1."""
    if me is None or type(message.args.get("player")) is not int or message.args["player"] != me:
        return message
    key = f"{message.key}-you"
    return msg(key, **message.args) if catalog.template(key, message.args.get("count")) is not None else message


def render_result(
    table: Table,
    texts: Texts,
    me: int | None = None,
    name: Callable[[int], str] | None = None,
    catalog: Catalog | None = None,
    flagged: list[int] | None = None,
    score_title: str | None = None,
    cooperative: bool = False,
) -> str:
    """The end panel: the verdict for `me` (see `verdict`), why the game ended (the reason it gave `end_game`,
    in `catalog`'s language; else, when the clock's `flagged` seats ran out of time, that) and the scores the
    game kept, in a column titled `score_title` (the game's look's `score`, in the reader's language) or
    "Score"; "" while it runs. A `cooperative` game (`Game.cooperative`) that every seat won or none did reads
    so ("You all lost"), not "Draw".

    `name` names a seat (default "Player N", counted from 1); the seat's own row says it is theirs.
    """
    result = table.state.result
    if result is None:
        return ""
    said = verdict(table, texts, me, name, cooperative)
    reason = ""
    if result.reason is not None and catalog is not None:
        reason = f'<p class="reason">{escape(sentence(catalog.render(for_reader(result.reason, me, catalog))))}</p>'
    elif flagged:  # a game that kept the default flag fall gave no reason: the clock's is the platform's to say
        named = [name(p) if name is not None else texts.get("seat", seat=p) for p in flagged]
        reason = f'<p class="reason">{escape(texts.get("result.time-out", seats=texts.listed(named)))}</p>'
    together = cooperative and (not result.winners or set(table.state.player_ids) <= set(result.winners))
    outcome = (
        "draw"
        if not (result.winners or together)
        else "watched"
        if me is None
        else "won"
        if me in result.winners
        else "lost"
    )
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
        f'<h2 id="end-title">{escape(texts.get("result.over"))}</h2>'  # the page's first section under its h1
        f'<p class="winners verdict">{escape(said)}</p>{reason}{scores}</section>'
    )


def render_rules(catalog: Catalog | None, options: dict[str, Any], texts: Texts, description: str = "") -> str:
    """The game's one-line description and rules (its catalog's `description` and `rules`, paragraphs split on blank
    lines) and this room's options; `description` is the game class's own, for a catalog that has none."""
    text = catalog.texts.get("rules", "") if catalog is not None else ""
    lead = catalog.texts.get("description", description) if catalog is not None else description
    paragraphs = [part.strip() for part in text.split("\n\n") if part.strip()] or [texts.get("rules.none")]
    parts = [f'<p class="game-description">{escape(lead)}</p>'] if lead else []
    parts += [f"<p>{escape(part)}</p>" for part in paragraphs]
    items = "".join(f"<li>{item}</li>" for item in options_said(catalog, options, texts))
    if items:
        title = escape(texts.get("rules.options"))
        parts.append(f'<h4>{title}</h4><ul class="room-options">{items}</ul>')
    return "".join(parts)


def render_chosen_options(catalog: Catalog | None, options: dict[str, Any], texts: Texts) -> str:
    """Every option the room was created with, in a line a player sees on joining (the Rules say them too), as
    `render_rules` says them ("Who sees a flip: only the flipper (hidden)"); "" for a game without options."""
    items = "".join(f"<li>{item}</li>" for item in options_said(catalog, options, texts))
    if not items:
        return ""
    return f'<ul class="chosen-options" aria-label="{escape(texts.get("rules.options"))}">{items}</ul>'


def options_said(catalog: Catalog | None, options: dict[str, Any], texts: Texts) -> list[str]:
    """Each option as HTML, by the labels of the game's catalog and in its language: "Who sees a flip: only the
    flipper (hidden)", "Hidden hands: off"; a value the catalog does not name (a FEN, a number) as it is."""
    said = catalog.texts if catalog is not None else {}
    items = []
    for name, value in sorted(options.items()):
        label = f'<span class="option-name">{escape(said.get(f"option.{name}.label", name))}</span>'
        if isinstance(value, bool):  # words, not ✓ and ✗, which a screen reader names as symbols
            shown = texts.get("option.on" if value else "option.off")
        elif f"option.{name}.{value}" in said:  # the catalog's words, which read alone in a menu: "The person..."
            shown = continued(said[f"option.{name}.{value}"])
        else:
            shown = str(value) if value != "" else "-"  # the value itself (a FEN, a number): as it is
        value_html = f'<span class="option-value">{escape(shown)}</span>'
        items.append(texts.get("rules.option", name=label, value=value_html))
    return items


def continued(text: str) -> str:
    """Returns `text` as it reads after a colon: its first letter small ("La personne" -> "la personne"), unless
    its first word is an abbreviation ("FEN")."""
    if len(text) > 1 and text[0].isupper() and not text[1].isupper():
        return text[0].lower() + text[1:]
    return text
