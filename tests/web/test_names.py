"""Names in the client: kept in the browser, seats and log lines by name, "my games" kept with their tokens."""

from __future__ import annotations

import html
from string import Formatter

from boardweaver import Catalog, msg
from boardweaver_web import mine
from boardweaver_web.mine import open_rooms, render_my_games, render_open_rooms
from boardweaver_web.outcome import say_outcome
from boardweaver_web.players import LIST_ARGS, SEAT_ARGS, Arrivals, NamedCatalog, NamedTexts, render_private_room
from boardweaver_web.session import MemoryStore, Session
from boardweaver_web.texts import LANGUAGES, Texts


def test_a_name_is_kept_trimmed_and_without_control_characters() -> None:
    store = MemoryStore()

    kept = mine.save_name(store, "  Ada\u202e\nLovelace" + "x" * 40)

    assert kept == "AdaLovelace" + "x" * 21 and len(kept) == mine.MAX_NAME
    assert mine.load_name(store) == kept
    assert mine.save_name(store, "   ") == "" and mine.load_name(store) == ""


def test_seats_and_log_lines_speak_of_players_by_name() -> None:
    names = {0: "Ada"}
    texts = NamedTexts("en", names)
    catalog = NamedCatalog(Catalog("en", {"log.take": "Player {player} takes a card from player {source}."}), names)

    assert texts.get("seat", seat=0) == "Ada" and texts.get("seat.you", seat=0) == "Ada (you)"
    assert texts.get("seat", seat=1) == "Player 2"
    assert catalog.render(msg("log.take", player=0, source=1)) == "Ada takes a card from player 2."
    names[1] = "Bob"  # a rename shows at the next drawing: the page holds the session's dict
    assert catalog.render(msg("log.take", player=0, source=1)) == "Ada takes a card from Bob."
    assert NamedTexts("fr", names).get("seat.you", seat=1) == "Bob (vous)"
    over = NamedCatalog(Catalog("en", {"log.over": "Game over: player(s) {winners} win."}), names)
    assert over.render(msg("log.over", winners="0, 1")) == "Game over: Ada and Bob win."
    assert over.render(msg("log.over", winners="0, 2")) == "Game over: Ada and Player 3 win."  # seat 2 unnamed
    spied = NamedCatalog(Catalog("en", {"log.spied": "Player {player} looks at player {target}'s hand."}), names)
    assert spied.render(msg("log.spied", player=0, target=1)) == "Ada looks at Bob's hand."  # as the guide's example


def test_a_bot_seat_nobody_named_is_called_a_bot_with_its_number_in_english_and_french() -> None:
    seats = ["claimed", "bot", "bot", "claimed", "bot"]
    names = {4: "Cy"}
    english = NamedTexts("en", names, seats)
    french = NamedTexts("fr", names, seats)

    said = [english.get("seat", seat=s) for s in range(5)]
    dit = [french.get("seat", seat=s) for s in range(5)]

    assert said == ["Player 1", "Bot 2", "Bot 3", "Player 4", "Cy"]  # two bots differ; a name wins
    assert dit == ["Joueur 1", "Robot 2", "Robot 3", "Joueur 4", "Cy"]
    assert english.get("seat.you", seat=0) == "Player 1 (you)" and french.get("seat.you", seat=0) == "Joueur 1 (vous)"
    assert english.get("turn.waiting", seats=said[1]) == "Waiting for Bot 2"
    assert NamedTexts("en", {}).get("seat", seat=1) == "Player 2"  # seats not known yet: a player's word


def test_a_bot_added_later_is_called_a_bot_at_the_next_drawing() -> None:
    session = Session("r", "seat", 0, MemoryStore(), lambda name, options: None)  # type: ignore[arg-type,return-value]
    texts = NamedTexts("en", session.names, session.seats)  # as the room page holds them
    session.receive({"type": "seats", "seats": ["claimed", "open"], "names": [None, None]})
    before = texts.get("seat", seat=1)

    session.receive({"type": "seats", "seats": ["claimed", "bot"], "names": [None, None]})  # the host gave it a bot

    assert (before, texts.get("seat", seat=1)) == ("Player 2", "Bot 2")


def test_log_lines_and_the_outcome_call_a_bot_seat_a_bot() -> None:
    seats = ["claimed", "bot", "bot"]
    names: dict[int, str] = {}
    english = NamedCatalog(
        Catalog("en", {"log.take": "Player {player} takes a card from player {source}."}), names, seats
    )
    french = NamedCatalog(
        Catalog("fr", {"log.give": "Le joueur {player} donne une carte au joueur {target}."}), names, seats
    )
    over = NamedCatalog(Catalog("en", {"log.over": "Game over: player(s) {winners} win."}), names, seats)

    assert english.render(msg("log.take", player=1, source=0)) == "Bot 2 takes a card from player 1."
    assert english.render(msg("log.take", player=0, source=2)) == "Player 1 takes a card from Bot 3."
    assert french.render(msg("log.give", player=0, target=1)) == "Le joueur 1 donne une carte à Robot 2."
    assert over.render(msg("log.over", winners="0, 2")) == "Game over: Player 1 and Bot 3 win."
    assert say_outcome([0, 1, 2], [1], NamedTexts("en", names, seats)) == "Bot 2 won"
    assert say_outcome([0, 1, 2], [2], NamedTexts("fr", names, seats), me=2) == "Vous avez gagné"  # the seat held


def test_the_lobby_calls_bot_seats_bots_in_open_rooms_and_my_games() -> None:
    rooms = [{"room": "r1", "game": "g", "seats": ["claimed", "bot", "open"], "names": ["Ada", None, None]}]
    status = {"seats": ["claimed", "bot", "bot"], "names": [None, "Cy", None], "started": True, "active": [0]}

    listed = html.unescape(render_open_rooms(rooms, {"g": "Game"}))
    french = html.unescape(render_open_rooms(rooms, {"g": "Jeu"}, Texts("fr")))

    assert "seated: Ada, Bot 2<" in listed and "assis : Ada, Robot 2<" in french
    assert mine.opponents(status, 0) == "with Cy (bot) and Bot 3"  # a bot somebody named keeps its tag
    assert mine.seat_label(status, 0, Texts("en")) == "Player 1"


PLAYING = {
    "seats": ["claimed", "claimed", "bot"],
    "names": ["Ada", "Bob", None],
    "started": True,
    "over": False,
    "active": [1],
}


def by_room(page: str) -> dict[str, str]:
    """My games' rows by their room, in the order drawn."""
    rows = page.split("</li>")[:-1]
    return {row.split('data-room="')[1].split('"')[0]: row for row in rows}


def test_regression_the_host_told_joined_player_2_learns_the_name_that_follows() -> None:
    """Regression: a friend who opened an invite and then gave a name was "Joined: Player 2." to the host, never
    named."""
    names = {0: "Ada"}
    arrivals = Arrivals(NamedTexts("en", names), own=0)
    arrivals.heard([], 0)  # the page opens: Ada's own name is no news

    joined = arrivals.heard([1], 1_000)
    names[1] = "Bob"  # typed into the room's name form half a minute later
    named = arrivals.heard([], 31_000)
    again = arrivals.heard([], 32_000)

    assert (joined, named, again) == ("Joined: Player 2.", "Player 2 is Bob.", "")
    assert Arrivals(NamedTexts("fr", names), own=0).texts.get("seat.now-named", seat=1, name="Bob") == (
        "Joueur 2 s'appelle Bob."
    )


def test_a_name_that_follows_its_join_at_once_is_said_as_the_join() -> None:
    names: dict[int, str] = {0: "Ada"}
    arrivals = Arrivals(NamedTexts("en", names), own=0)
    arrivals.heard([], 0)

    first = arrivals.heard([1, 2], 1_000)  # both came; Cy's browser kept a name, sent right after joining
    names[2] = "Cy"
    second = arrivals.heard([], 1_200)

    assert (first, second) == ("Joined: Player 2 and Player 3.", "Joined: Cy.")


def test_names_known_on_opening_and_our_own_are_not_said_but_a_name_given_later_is() -> None:
    names: dict[int, str] = {1: "Bob"}
    arrivals = Arrivals(NamedTexts("en", names), own=0)

    opened = arrivals.heard([], 0)
    names[0] = "Ada"  # our own name, given by this page
    ours = arrivals.heard([], 500)
    names[2] = "Cy"  # seat 2 came before this page opened, and named itself now
    later = arrivals.heard([], 60_000)
    names[3] = "Di"  # named as seat 3 joined: one frame says both
    came_named = arrivals.heard([3], 61_000)

    assert (opened, ours, later, came_named) == ("", "", "Player 3 is Cy.", "Joined: Di.")


def test_a_name_changed_later_is_said_to_the_others_with_the_old_one_but_not_our_own() -> None:
    names: dict[int, str] = {0: "Ada", 1: "Bob"}
    arrivals = Arrivals(NamedTexts("en", names), own=0)
    arrivals.heard([], 0)

    names[1] = "Robert"
    renamed = arrivals.heard([], 90_000)
    names[0] = "Ada L."  # ours: this page changed it
    ours = arrivals.heard([], 91_000)
    quiet = arrivals.heard([], 92_000)

    assert (renamed, ours, quiet) == ("Bob is now Robert.", "", "")
    assert NamedTexts("fr", names).get("seat.renamed", old="Bob", name="Robert") == "Bob s'appelle maintenant Robert."


def test_my_games_keep_one_entry_per_seat_newest_first_and_forget() -> None:
    store = MemoryStore()

    mine.keep_game(store, "r1", 0, "t1", game="bluff", title="Bluff")
    mine.keep_game(store, "r2", 1, "t2", game="old-maid")
    mine.keep_game(store, "r1", 0, "t1b")
    kept = mine.load_games(store)

    assert [(e["room"], e["seat"], e["token"]) for e in kept] == [("r1", 0, "t1b"), ("r2", 1, "t2")]
    assert kept[0]["title"] == "Bluff"  # facts kept from before
    assert [e["room"] for e in mine.forget_game(store, "r1", 0)] == ["r2"]
    store.set(mine.GAMES_KEY, "{not json")
    assert mine.load_games(store) == []


def test_my_games_render_a_rejoin_link_with_the_token_in_the_fragment_and_escape_names() -> None:
    html = render_my_games(
        "http://h", [{"room": "r1", "seat": 1, "token": "tok", "title": "<b>x</b>"}], {"r1": PLAYING}
    )

    assert 'href="http://h/room/r1#seat=1&amp;token=tok"' in html
    assert "&lt;b&gt;x&lt;/b&gt;" in html and "<b>" not in html and ">Your turn<" in html


def test_my_games_name_each_kept_invite_by_its_players_number() -> None:
    kept = [{"room": "r1", "seat": 0, "token": "tok", "invites": {"1": "i1", "2": "i2"}}]

    text = html.unescape(render_my_games("http://h", kept, {}))

    assert "Invite for Player 2" in text and "Invite for Player 3" in text and "{number}" not in text


def test_my_games_offers_no_invite_link_its_player_already_opened() -> None:
    """Regression (a player's trial): the host's my games kept offering a used invite link as if it still
    worked, while an invite link opens its seat once."""
    kept = [{"room": "r1", "seat": 0, "token": "tok", "invites": {"1": "i1", "2": "i2"}}]
    status = {**PLAYING, "seats": ["claimed"] * 3, "started": False, "invited": [2]}

    text = html.unescape(render_my_games("http://h", kept, {"r1": status}))

    assert "Invite for Player 3" in text and "token=i2" in text  # seat 2 still waits for its player
    assert "Invite for Player 2" not in text and "token=i1" not in text  # seat 1's player came: its link is used


def test_a_refused_link_to_a_seat_with_its_player_says_an_invite_opens_its_seat_once() -> None:
    status = {"seats": ["claimed", "claimed", "bot"], "over": False}

    taken = mine.link_refusal(status, 1)
    bot = mine.link_refusal(status, 2)
    unknown = mine.link_refusal(status, 7)

    assert taken == "room.seat-taken" and unknown == "room.bad-link"
    assert bot == "room.seat-to-bot" and "A bot plays this seat now" in Texts("en").get(bot)  # not "ask for a link"
    assert "opens its seat once" in Texts("en").get(taken) and "new link" in Texts("en").get(taken)
    assert "qu'une fois" in Texts("fr").get(taken) and "nouveau lien" in Texts("fr").get(taken)


def test_the_lobbys_links_of_a_room_of_bots_call_each_bot_seat_bot_n_in_every_language() -> None:
    """Regression (a player's trial): the links of a room every seat of which a bot plays read "Player 2 a bot
    plays it" while the room, the review and my games call that seat "Bot 2"."""
    links = {
        locale: html.unescape(
            mine.render_new_room_links("http://h", "r1", {}, [0, 1], "host", True, False, texts=Texts(locale))
        )
        for locale in LANGUAGES
    }

    assert '<li class="bot-played"><span class="link-name">Bot 1</span></li>' in links["en"]
    assert '<li class="bot-played"><span class="link-name">Bot 2</span></li>' in links["en"]
    assert '<span class="link-name">Robot 2</span></li>' in links["fr"]
    for locale, text in links.items():  # each seat by the name the room gives it, and nothing more
        said = [Texts(locale).get("seat.bot-played", seat=seat) for seat in (0, 1)]
        assert [f'<span class="link-name">{name}</span></li>' in text for name in said] == [True, True], locale
        assert Texts(locale).get("seat", seat=1) not in text, locale
    assert 'href="http://h/room/r1#role=spectator&view=tv"' in links["en"]  # the way to watch them


def test_a_room_with_a_seat_left_open_says_so_in_its_open_panel_even_without_links_to_send() -> None:
    panel = html.unescape(mine.render_room_links([], open_seats=[1, 2]))

    assert panel.startswith('<details class="invites" open><summary>Invite players</summary>')
    assert "Open to anyone: Player 2 and Player 3." in panel and "<ul" not in panel
    hosted = mine.render_room_links([], open_seats=[1], for_bots=[1])
    assert '<button type="button" class="bot-seat" data-bot-seat="1">Let a bot play Player 2</button>' in hosted


def test_a_finished_game_in_my_games_is_reviewed_first_and_its_seat_still_opens() -> None:
    kept = [{"room": "done", "seat": 0, "token": "a"}, {"room": "live", "seat": 1, "token": "b"}]
    over = {**PLAYING, "over": True, "active": [], "result": {"winners": [1], "scores": {}}}

    page = render_my_games("http://h", kept, {"done": over, "live": PLAYING})
    done, live = by_room(page)["done"], by_room(page)["live"]

    assert '<a class="review primary" href="/game/done" aria-describedby="about-done-0">Review the game</a>' in done
    assert (
        '<a class="rejoin" href="http://h/room/done#seat=0&amp;token=a" aria-describedby="about-done-0">Open</a>'
        in done
    )
    assert "review" not in live and '<a class="rejoin primary"' in live and ">Rejoin</a>" in live


def test_my_games_say_who_else_plays_whose_turn_it_is_the_outcome_and_when() -> None:
    kept = [
        {"room": "mine", "seat": 1, "token": "a", "at": 100.0},
        {"room": "theirs", "seat": 0, "token": "b", "at": 50.0},
        {"room": "won", "seat": 0, "token": "c"},
        {"room": "lost", "seat": 2, "token": "d"},
        {"room": "tie", "seat": 0, "token": "e"},
        {"room": "gone", "seat": 0, "token": "f"},
        {"room": "unasked", "seat": 0, "token": "g"},
    ]

    def ended(winners: list[int]) -> dict[str, object]:
        return {**PLAYING, "over": True, "active": [], "result": {"winners": winners, "scores": {}}}

    statuses = {
        "mine": {**PLAYING, "last_move_at": 100_000},
        "theirs": {**PLAYING, "last_move_at": 50_000},
        "won": ended([0]),
        "lost": ended([0]),
        "tie": ended([0, 1, 2]),
        "gone": None,
        "waiting": {**PLAYING, "started": False, "active": []},
    }
    page = html.unescape(render_my_games("http://h", kept, statuses, when=lambda at: f"at {at:g}"))
    rows = by_room(page)

    assert 'class="my-game your-turn"' in rows["mine"] and ">Your turn<" in rows["mine"]
    assert "with Ada and Bot 3<" in rows["mine"] and ">last move: <time datetime=" in rows["mine"]
    assert ">at 100</time>" in rows["mine"] and ">at 50</time>" in rows["theirs"]  # the game's last move
    assert ">Bob's turn<" in rows["theirs"] and "with Bob and Bot 3<" in rows["theirs"]
    assert ">You won<" in rows["won"] and ">You lost<" in rows["lost"] and ">Draw<" in rows["tie"]
    assert ">expired<" in rows["gone"] and "with" not in rows["gone"]
    assert 'class="kept-state" id="state-unasked-0"></span>' in rows["unasked"]
    scored = {**ended([0]), "result": {"winners": [0], "scores": {"0": 6, "1": 2, "2": 1}}}
    finished = html.unescape(render_my_games("http://h", [kept[2]], {"won": scored}, titles={"g": "Jeu"}))
    named = html.unescape(render_my_games("http://h", [{**kept[2], "game": "g", "invites": {"1": "i"}}], statuses))
    french = html.unescape(
        render_my_games("http://h", [{**kept[2], "game": "g", "title": "Game"}], {}, titles={"g": "Jeu"})
    )
    spectator = mine.describe_state(ended([1]), None, None)
    assert spectator == ("Bob won", "over")  # a seat nobody named reads "Player N"; a name is the player's
    assert mine.describe_state({**PLAYING, "started": False}, None, 0) == ("waiting for players", "waiting")
    assert ">You won · Ada: 6, Bob: 2, Bot 3: 1<" in finished  # this seat's score first, each by its name
    assert '<span class="kept-seat">Ada</span>' in named  # the name this seat's player chose
    assert "Invite" not in named  # a finished game has nobody left to invite
    assert '<span class="game-title">Jeu</span>' in french  # the game's title in the reader's language


def test_regression_my_games_say_whose_turn_it_is_by_name_not_playing() -> None:
    """A first-time player's trial: the lobby said "playing" of a game where another player was to move. My games
    name whose turn it is from the status's public `active` (several seats acting at once listed), in English and
    French; this seat's turn is "Your turn"; "playing" only from a server that does not say."""
    four = {**PLAYING, "seats": ["claimed", "claimed", "bot", "claimed"], "names": ["Ada", "Bo", None, None]}
    kept = [
        {"room": "ada", "seat": 1, "token": "a"},
        {"room": "bot", "seat": 0, "token": "b"},
        {"room": "many", "seat": 1, "token": "c"},
        {"room": "yours", "seat": 3, "token": "d"},
        {"room": "unsaid", "seat": 0, "token": "e"},
    ]
    statuses = {
        "ada": {**four, "active": [0]},
        "bot": {**four, "active": [2]},
        "many": {**four, "active": [0, 2, 3]},
        "yours": {**four, "active": [0, 3]},
        "unsaid": {**four, "active": None},
    }

    said = {}
    for language in LANGUAGES:
        rows = by_room(html.unescape(render_my_games("http://h", kept, statuses, Texts(language))))
        said[language] = {
            room: row.split('class="kept-state"')[1].split(">")[1].split("<")[0] for room, row in rows.items()
        }

    assert said["en"] == {
        "ada": "Ada's turn",
        "bot": "Bot 3's turn",
        "many": "waiting for Ada, Bot 3 and Player 4",
        "yours": "Your turn",
        "unsaid": "playing",
    }
    assert said["fr"] == {
        "ada": "Au tour d'Ada",
        "bot": "Au tour de Robot 3",
        "many": "on attend Ada, Robot 3 et Joueur 4",
        "yours": "À vous de jouer",
        "unsaid": "en cours",
    }
    assert 'class="my-game playing"' in by_room(render_my_games("http://h", kept, statuses))["ada"]


def test_regression_my_games_say_when_the_game_last_moved_not_the_visit_your_turn_first_then_the_latest_move() -> None:
    """A player's trial: each game showed when this browser last opened it, and the list went by that too; a
    player wants to see when the game last moved, the games waiting for them first."""
    kept = [  # as kept: the latest visit first
        {"room": "visited", "seat": 0, "token": "a", "at": 9_000.0},
        {"room": "moved", "seat": 0, "token": "b", "at": 1_000.0},
        {"room": "yours", "seat": 1, "token": "c", "at": 500.0},
        {"room": "unmoved", "seat": 0, "token": "d", "at": 2_000.0},
        {"room": "gone", "seat": 0, "token": "e", "at": 8_000.0},
    ]
    statuses = {
        "visited": {**PLAYING, "last_move_at": 3_000_000},
        "moved": {**PLAYING, "last_move_at": 7_000_000},
        "yours": {**PLAYING, "last_move_at": 1_500_000},
        "unmoved": {**PLAYING, "started": False, "active": [], "last_move_at": None},
        "gone": None,
    }

    english = html.unescape(render_my_games("http://h", kept, statuses, when=lambda at: f"{at:g} s"))
    french = html.unescape(render_my_games("http://h", kept, statuses, Texts("fr"), when=lambda at: f"{at:g} s"))
    rows = by_room(english)

    assert list(rows) == ["yours", "moved", "visited", "unmoved", "gone"]
    said = '<span class="kept-when">last move: <time datetime="1970-01-01T00:50:00+00:00">3000 s</time></span>'
    assert said in rows["visited"]
    assert ">7000 s</time>" in rows["moved"] and ">1500 s</time>" in rows["yours"]
    assert "kept-when" not in rows["unmoved"] and "kept-when" not in rows["gone"]  # no move: no time to say
    assert "9000" not in english  # never the visit's time
    assert ">dernier coup\u00a0: <time" in french


def test_a_kept_games_buttons_are_one_group_after_what_it_is_so_they_wrap_together() -> None:
    kept = [{"room": "done", "seat": 0, "token": "a"}]
    over = {**PLAYING, "over": True, "active": [], "result": {"winners": [0], "scores": {}}}

    row = render_my_games("http://h", kept, {"done": over})

    about, actions = row.split('<span class="kept-actions">')
    assert (
        '<span class="kept-about" id="about-done-0"><span class="game-title">' in about
        and 'class="kept-state"' in about
    )
    assert "<a" not in about and "<button" not in about
    assert actions.index('class="review primary"') < actions.index('class="rejoin"') < actions.index('class="forget"')


def test_my_games_show_each_score_beside_its_players_name() -> None:
    result = {"winners": [1], "scores": {"0": 3, "1": 7, "2": 5}}
    status = {**PLAYING, "over": True, "active": [], "names": [None, "Bob", "Zoé"], "result": result}

    english = mine.said_scores(status, 2)
    french = mine.said_scores(status, 0, Texts("fr"))
    row = html.unescape(render_my_games("http://h", [{"room": "r", "seat": 0, "token": "t"}], {"r": status}))

    assert english == " · Zoé: 5, Player 1: 3, Bob: 7"  # this seat first; an unnamed seat is "Player N"
    assert french == " · Joueur 1 : 3, Bob : 7, Zoé : 5"
    assert ">You lost · Player 1: 3, Bob: 7, Zoé: 5<" in row


def test_a_room_shows_its_maker_the_invites_still_to_send_then_the_tv_and_referee_links() -> None:
    entry = {"room": "r1", "seat": 0, "token": "t0", "host": "h0", "invites": {"2": "i2", "1": "i1"}}
    status = {"names": ["Ada", None, None], "invited": [1], "spectators": "allow", "referee": True}

    links = mine.room_links("http://h", "r1", entry, status)
    panel = html.unescape(mine.render_room_links(links))

    assert links == [
        ("invite", "http://h/room/r1#seat=1&token=i1", "copy-invite-1", 1),  # seat 2's invite was opened
        ("tv", "http://h/room/r1#role=spectator&view=tv", "copy-invite-tv", None),
        ("referee", "http://h/room/r1#role=referee&token=h0", "copy-invite-referee", None),
    ]
    assert '<details class="invites" open>' in panel and "Invite for Player 2" in panel
    assert (
        'data-copy="copy-invite-1"' in panel
        and "whoever opens it plays that seat" in panel
        and "starts when every invited player" in panel
    )
    # regression (a player's trial, the invites read through): three buttons read "Copy", "Copy", "Copy"
    assert 'aria-label="Copy (Invite for Player 2)">Copy</button>' in panel
    assert 'aria-label="Copy (Spectator / TV)">Copy</button>' in panel
    assert 'aria-label="Share (Invite for Player 2)">Share</button>' in panel
    french = html.unescape(mine.render_room_links(links, Texts("fr")))
    assert 'aria-label="Copier (Invitation : Joueur 2)">Copier</button>' in french


def test_a_room_whose_invites_are_all_joined_keeps_its_other_links_folded_and_without_them_shows_none() -> None:
    entry = {"room": "r1", "seat": 0, "token": "t0", "host": "h0", "invites": {"1": "i1"}}
    joined = {"names": [None, None], "invited": [], "spectators": "allow", "referee": False}
    closed = {"names": [None, None], "invited": [], "spectators": "deny", "referee": False}
    older = {"names": [None, "Bo"], "spectators": "deny", "referee": False}  # a server that does not say who came

    folded = mine.render_room_links(mine.room_links("http://h", "r1", entry, joined))

    assert folded.startswith('<details class="invites"><summary>Links to this room</summary>')
    assert "Spectator / TV" in folded and "Invite" not in folded
    assert mine.room_links("http://h", "r1", entry, closed) == [] == mine.room_links("http://h", "r1", entry, older)
    assert mine.render_room_links([]) == ""


def test_the_lobby_lists_only_rooms_waiting_for_players() -> None:
    listed = [
        {"room": "a", "seats": ["claimed", "open"], "started": False, "over": False},
        {"room": "b", "seats": ["claimed", "claimed"], "started": True, "over": False},
        {"room": "c", "seats": ["open", "bot"], "started": False, "over": True},
    ]

    assert [r["room"] for r in open_rooms(listed)] == ["a"]


def test_the_lobby_lists_speak_the_players_language_with_plurals() -> None:
    from boardweaver_web.texts import Texts

    rooms = [
        {"room": "r1", "game": "bluff", "seats": ["claimed", "open", "claimed", "claimed"], "names": ["Ada", None]},
        {"room": "r2", "game": "bluff", "seats": ["open", "open", "claimed"], "names": []},
    ]
    french = html.unescape(render_open_rooms(rooms, {"bluff": "Bluff"}, Texts("fr")))
    assert "1 place libre sur 4" in french and "2 places libres sur 3" in french
    assert "assis : Ada" in french and "personne pour l'instant" in french and ">Rejoindre<" in french
    english = render_open_rooms(rooms, {"bluff": "Bluff"}, Texts("en"))
    assert "1 of 4 seats open" in english and "2 of 3 seats open" in english
    assert "Aucune partie pour l'instant" in html.unescape(render_my_games("http://h", [], {}, Texts("fr")))


def test_the_open_rooms_say_when_the_server_listed_only_part_of_them() -> None:
    from boardweaver_web.texts import Texts

    partial = render_open_rooms([], {}, Texts("en"), partial=True)
    assert "some rooms may be missing" in partial and 'role="status"' in partial
    assert "missing" not in render_open_rooms([], {}, Texts("en"))


def test_a_french_log_line_by_name_loses_the_article_with_the_word() -> None:
    catalog = Catalog("fr", {"log.placed": "Le joueur {player} pose une tuile.", "log.play": "Le siège {player} joue"})
    named = NamedCatalog(catalog, {0: "Ada", 1: "Bob"})

    assert named.render(msg("log.placed", player=0)) == "Ada pose une tuile."
    assert named.render(msg("log.play", player=1)) == "Bob joue"


def test_a_french_line_with_au_or_du_joueur_by_name_says_a_bob_and_d_ada() -> None:
    catalog = Catalog(
        "fr",
        {
            "log.took": "Le joueur {player} prend une carte au joueur {source}.",
            "offer.take": "Prendre une carte au joueur {player}",
            "log.hand": "La main du joueur {player} est vide.",
            "log.gave": "Au joueur {player} de jouer, aux joueurs {winners} la victoire.",
        },
    )
    named = NamedCatalog(catalog, {0: "Ada", 1: "Bob"})

    assert named.render(msg("log.took", player=0, source=1)) == "Ada prend une carte à Bob."
    assert named.render(msg("offer.take", player=0)) == "Prendre une carte à Ada"
    assert named.render(msg("log.hand", player=0)) == "La main d'Ada est vide."
    assert named.render(msg("log.hand", player=1)) == "La main de Bob est vide."
    assert named.render(msg("log.gave", player=1, winners="0, 1")) == "À Bob de jouer, à Ada et Bob la victoire."
    assert named.render(msg("log.took", player=2, source=1)) == "Le joueur 3 prend une carte à Bob."


def test_a_plural_log_line_calls_seats_by_name_in_the_form_its_count_asks() -> None:
    catalog = Catalog(
        "fr",
        {"log.planned": "Le joueur {player} valide {count} carte."},
        {"log.planned": ("Le joueur {player} valide {count} carte.", "Le joueur {player} valide {count} cartes.")},
        "nplurals=2; plural=(n > 1);",
    )

    named = NamedCatalog(catalog, {0: "Ada"})

    assert named.render(msg("log.planned", player=0, count=1)) == "Ada valide 1 carte."
    assert named.render(msg("log.planned", player=0, count=3)) == "Ada valide 3 cartes."
    assert named.render(msg("log.planned", player=1, count=3)) == "Le joueur 2 valide 3 cartes."


def test_unnamed_seats_read_player_1_alike_in_seat_labels_log_lines_and_results() -> None:
    """Regression: seats read "Seat 0 (you)" while the log said "Player 0", both counted from 0."""
    english = NamedCatalog(
        Catalog(
            "en",
            {
                "log.take": "Player {player} takes a card from player {source}.",
                "log.believe": "Seat {player} believes seat {claimer}",
                "offer.call": "Call bluff on seat {player}'s claim",
                "log.over": "Game over: players {winners} win.",
                "log.won": "{winner} wins",
            },
        ),
        {},
    )
    texts = NamedTexts("en", {})

    assert texts.get("seat", seat=0) == "Player 1" and texts.get("seat.you", seat=1) == "Player 2 (you)"
    assert english.render(msg("log.take", player=0, source=1)) == "Player 1 takes a card from player 2."
    assert english.render(msg("log.believe", player=1, claimer=0)) == "Player 2 believes player 1"
    assert english.render(msg("offer.call", player=0)) == "Call bluff on player 1's claim"
    assert english.render(msg("log.over", winners="0, 2")) == "Game over: players 1 and 3 win."
    assert english.render(msg("log.won", winner=2)) == "Player 3 wins"  # no word before it: the seat's label


def test_unnamed_seats_read_joueur_1_in_french_with_the_article_kept() -> None:
    french = NamedCatalog(
        Catalog(
            "fr",
            {
                "log.took": "Le joueur {player} prend une carte au joueur {source}.",
                "log.believe": "Le siège {player} croit le siège {claimer}",
                "log.over": "Fin de partie : les joueurs {winners} gagnent.",
            },
        ),
        {},
    )

    assert NamedTexts("fr", {}).get("seat.you", seat=0) == "Joueur 1 (vous)"
    assert french.render(msg("log.took", player=0, source=1)) == "Le joueur 1 prend une carte au joueur 2."
    assert french.render(msg("log.believe", player=1, claimer=0)) == "Le joueur 2 croit le joueur 1"
    assert french.render(msg("log.over", winners="0, 1")) == "Fin de partie : les joueurs 1 et 2 gagnent."


def test_every_example_games_log_lines_call_an_unnamed_seat_as_its_label_does() -> None:
    """Every game's lines naming a seat say the page's word and the seat's number from 1, never "Seat 0"."""
    from importlib.metadata import entry_points

    for entry in entry_points(group="boardweaver.games"):
        game = entry.load()({})
        for locale, catalog in game.catalogs().items():
            named, label = NamedCatalog(catalog, {}), NamedTexts(locale, {}).get("seat", seat=1)
            for key in catalog.texts:
                fields = {f for _, f, _, _ in Formatter().parse(catalog.template(key, 2) or "") if f}
                if not fields & {"player", "source", "claimer", "winner", "winners"}:
                    continue
                args = {
                    f: 1 if f in SEAT_ARGS else "1" if f in LIST_ARGS else 2 if f == "count" else "x" for f in fields
                }
                said = named.render(msg(key, **args))
                wrong = ("Seat 2", "seat 2", "Siège 2", "siège 2", "Place 2", "place 2", " 1 ", " 1.", " 1'")
                assert "{" not in said and not any(w in said for w in wrong), (entry.name, locale, key, said)
                assert label.split()[0].lower() in said.lower(), (entry.name, locale, key, said)


def test_a_room_kept_private_says_why_who_sits_where_and_whose_turn_by_name_and_escaped() -> None:
    status = {"seats": ["claimed", "bot"], "names": ["<b>Ada</b>", None], "started": True, "active": [0], "over": False}
    names = {0: "<b>Ada</b>"}

    game = render_private_room(status, NamedTexts("en", names), "Fog-of-war chess", by_game=True)
    room = render_private_room(status, NamedTexts("fr", names), "Bluff", by_game=False)
    waiting = render_private_room({**status, "started": False, "seats": ["claimed", "open"]}, Texts("en"), "X", True)

    assert "The board stays private while the game is played" in game
    assert "Fog-of-war chess has no live spectator view" in game
    assert "Waiting for &lt;b&gt;Ada&lt;/b&gt;" in game and "<b>Ada" not in game  # a name is text, never markup
    assert '<li data-seat="1">Bot 2</li>' in game  # "Bot 2" says it: no "(bot)" beside it
    assert '<li data-seat="1">Robot 2</li>' in room
    assert "Cette salle n&#x27;admet pas de spectateurs" in room and "Bluff" not in room
    assert "Waiting for Player 2 to join" in waiting


def test_regression_the_seats_awaited_or_to_act_read_as_a_list_with_and_before_the_last() -> None:
    """Regression (a player's trial, Bluff with two friends invited): the top bar read "Waiting for Player 2, Player 3
    to join", and while both decided on a claim "Waiting for Bob, Cy"; a sentence says "Player 2 and Player 3"."""
    status = {"seats": ["claimed", "open", "open"], "names": ["Ada", None, None], "started": False, "over": False}
    playing = {**status, "seats": ["claimed"] * 3, "names": ["Ada", "Bob", "Cy"], "started": True, "active": [1, 2]}

    invited = render_private_room(status, Texts("en"), "Bluff", by_game=False)
    deciding = render_private_room(playing, NamedTexts("en", {1: "Bob", 2: "Cy"}), "Bluff", by_game=False)
    french = render_private_room(playing, NamedTexts("fr", {1: "Bob", 2: "Cy"}), "Bluff", by_game=False)

    assert "Waiting for Player 2 and Player 3 to join" in invited
    assert "Waiting for Bob and Cy" in deciding
    assert "En attente : Bob et Cy" in french


def test_seats_listed_in_a_log_line_or_a_verdict_read_as_a_list_with_and_before_the_last() -> None:
    """Regression (a player's trial): Hexbloom's tied end read "Le plateau est plein : Ada, Robot 2 gagnent ex
    æquo", and three winners "Ada and Bea and Cy won"."""
    english = NamedCatalog(Catalog("en", {"log.tied": "Players {winners} win with {count} points each."}), {0: "Ada"})
    french = NamedCatalog(Catalog("fr", {"log.tied": "Les joueurs {winners} gagnent ex æquo."}), {0: "Ada"}, ["bot"])

    assert (
        english.render(msg("log.tied", winners="0, 1, 2", count=9))
        == "Ada, Player 2 and Player 3 win with 9 points each."
    )
    assert (
        NamedCatalog(english, {}).render(msg("log.tied", winners="1, 2", count=9))
        == "Players 2 and 3 win with 9 points each."
    )
    assert french.render(msg("log.tied", winners="0, 1")) == "Ada et Joueur 2 gagnent ex æquo."
    assert say_outcome([0, 1, 2, 3], [0, 1, 2], Texts("en")) == "Player 1, Player 2 and Player 3 won"
    assert say_outcome([0, 1, 2], [0, 2], Texts("fr")) == "Joueur 1 et Joueur 3 gagnent"


def test_regression_a_player_given_a_numbered_name_is_told_why_in_english_and_french() -> None:
    """Regression: a second "Ada" in a room was "Ada" too (Bluff's log read "Ada believes Ada"); the server now
    numbers her "Ada 2", and her tab says so, since her seat's header alone would change unremarked."""
    english, french = Texts("en"), Texts("fr")

    told = mine.name_given("Ada", {"seat": 1, "name": "Ada 2"}, english)
    dit = mine.name_given("Ada", {"seat": 1, "name": "Ada 2"}, french)

    assert told == "Another player here is called Ada: the others see you as Ada 2."
    assert dit == "Quelqu'un d'autre s'appelle déjà Ada ici : les autres vous voient sous le nom d'Ada 2."
    assert mine.name_given("Ada", {"seat": 1, "name": "Ada"}, english) == ""  # kept as sent: nothing to say
    assert mine.name_given("Ada", {"seat": 1}, english) == "" and mine.name_given("Ada", None, english) == ""


def test_regression_my_games_word_a_cooperative_games_end_for_the_team_not_draw() -> None:
    # Before: a cooperative game lost by all ("winners": []) read "Draw" in My games, though its end panel said
    # "You all lost"
    lost = {**PLAYING, "over": True, "active": [], "result": {"winners": [], "scores": {}}, "cooperative": True}
    won = {**lost, "result": {"winners": [0, 1, 2], "scores": {}}}

    assert mine.describe_state(lost, None, 0) == ("You all lost", "over")
    assert mine.describe_state(won, None, 1) == ("You all won", "over")
    assert mine.describe_state(lost, None, None) == ("The players lost", "over")
    assert mine.describe_state({**lost, "cooperative": None}, None, 0) == ("Draw", "over")  # a game of rivals
