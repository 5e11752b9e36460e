"""A third party's game in the tab: `boardweaver new`, installed (or named with `serve --game`), served,
listed by the lobby and played to its end by two people at two browsers."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import CHROMIUM, REPO, Api, screenshot, seat_url, wait_state
from .conftest import serve_in as _serve
from .driver import play_until_over

pytestmark = pytest.mark.browser

BIN = Path(sys.executable).parent


def _need_browser() -> None:
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (scripts/install --browser)")
    if not (REPO / "web" / "dist" / "pyodide").is_dir():
        pytest.skip("web/dist is not built (scripts/install)")


def _new_game(name: str, folder: Path, *options: str) -> Path:
    command: list[str | Path] = [BIN / "boardweaver", "new", name, *options]
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return folder / name


def _play_in_two_browsers(base: str, name: str, new_page: Any, shot: str) -> None:
    api = Api(base)
    config = api.call("/api/client-config")
    assert list(config["games"]) == [name]
    assert [game["name"] for game in api.call("/api/games")] == [name]
    lobby = new_page(base + "/")
    wait_state(lobby, "ready")
    assert lobby.locator(f'#games [data-game="{name}"]').count() == 1
    room = api.room(name, seats=2, bots=[])

    first, second = new_page(seat_url(base, room, 0)), new_page(seat_url(base, room, 1), locale="fr-FR")
    wait_state(first, "ready")
    wait_state(second, "ready")
    assert first.locator("#board .mine .offer").count() == 3  # the seat's own hand, each card offered
    screenshot(second, shot)
    play_until_over([first, second])

    for page in (first, second):
        assert page.locator("#result table.scores tr").count() == 3
        assert page.locator("#log li").count() >= 20  # every card of the deck was played
    assert "Game over" in first.inner_text("#result")
    assert "Pile" in first.inner_text("#board") and "Défausse" in second.inner_text("#board")
    assert api.call(f"/api/rooms/{room['room']}")["over"] is True


@pytest.fixture
def installed_game(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A game made by `boardweaver new`, installed into this environment (pip install -e), uninstalled after."""
    _need_browser()
    name = "author-duel"
    project = _new_game(name, tmp_path)
    pip = [sys.executable, "-m", "pip", "install", "-q", "-e", str(project)]
    subprocess.run(pip, check=True, capture_output=True, timeout=300)
    try:
        yield name, project
    finally:
        subprocess.run([sys.executable, "-m", "pip", "uninstall", "-q", "-y", name], check=True, timeout=120)


def test_a_game_made_by_boardweaver_new_and_installed_plays_to_its_end_in_the_tab(
    installed_game: tuple[str, Path], new_page: Any
) -> None:
    name, project = installed_game
    check = subprocess.run(
        [BIN / "boardweaver", "check", name, "--games", "30"], cwd=project.parent, capture_output=True, text=True
    )
    assert check.returncode == 0, check.stdout + check.stderr

    with _serve(project.parent, ["--only", name]) as base:
        _play_in_two_browsers(base, name, new_page, "author-game")


def test_a_game_named_with_serve_game_from_pythonpath_plays_to_its_end_in_the_tab(
    tmp_path: Path, new_page: Any
) -> None:
    _need_browser()
    project = _new_game("path-duel", tmp_path)
    served = tmp_path / "served"
    served.mkdir()
    env = {"PYTHONPATH": str(project)}

    with _serve(served, ["--game", "path-duel=path_duel.rules:PathDuel", "--only", "path-duel"], env) as base:
        config = json.loads(urllib.request.urlopen(base + "/api/client-config", timeout=5).read())
        assert config["games"] == {"path-duel": "path_duel.rules:PathDuel"}
        _play_in_two_browsers(base, "path-duel", new_page, "serve-game")


def _labels(page: Any, selector: str) -> list[str]:
    return [str(label) for label in page.locator(selector).evaluate_all("els => els.map(e => e.ariaLabel || '')")]


def test_a_board_game_made_by_boardweaver_new_template_board_plays_to_its_end_in_the_tab(
    tmp_path: Path, new_page: Any
) -> None:
    """`boardweaver new --template board`: each seat sees its scout on its own field and fog on the other, whose 25
    squares it may ping; a move leaves the other seat's fog as it was; played to its end at 1280 px and, in
    French, at 390 px (an author's trial: `new` wrote only a card game, nothing for a grid board)."""
    _need_browser()
    project = _new_game("scout-duel", tmp_path, "--template", "board")
    served = tmp_path / "served"
    served.mkdir()
    game = ["--game", "scout-duel=scout_duel.rules:ScoutDuel", "--only", "scout-duel"]
    with _serve(served, game, {"PYTHONPATH": str(project)}) as base:
        room = Api(base).room("scout-duel", seats=2, bots=[])
        first = new_page(seat_url(base, room, 0))
        phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "locale": "fr-FR"}
        second = new_page(seat_url(base, room, 1), **phone)
        wait_state(first, "ready")
        wait_state(second, "ready")
        mine, theirs = '#board .mine [data-key^="field-0/"]', '#board .others [data-key^="field-1/"]'
        seen_by_second = '#board .others [data-key^="field-0/"]'
        own, pings = _labels(first, mine), _labels(first, f"{theirs}.offer")
        fog = _labels(second, seen_by_second)

        first.locator(f"{mine}.offer").first.click()
        second.wait_for_selector("#board .mine .offer")

        assert len(own) == 25 and sum("Scout" in label for label in own) == 1
        assert len(pings) == 25 and all(label.startswith("Ping ") for label in pings)  # any square of the other field
        assert all("Brouillard" in label for label in fog) and len(fog) == 25
        after = _labels(second, seen_by_second)  # the move shows the other seat nothing, not even where it was
        assert len(after) == 25 and all("Brouillard" in label for label in after)
        assert second.locator(f"{seen_by_second}.last-move").count() == 0
        assert sum("Scout" in label for label in _labels(first, mine)) == 1 and _labels(first, mine) != own
        assert "Le joueur 1 déplace son éclaireur." in second.inner_text("body")
        screenshot(second, "author-board-game")
        play_until_over([first, second])
        assert "Game over" in first.inner_text("#result") and "Partie terminée" in second.inner_text("#result")


SEAT_FIELD = '                "area": "seat",  # drawn in its owner\'s seat area\n'
BOXES = """() => [...document.querySelectorAll('#board .seat-area')].map((box) => {
    const own = box.getBoundingClientRect(), head = box.querySelector('header').getBoundingClientRect();
    return {seat: box.dataset.seat, text: box.innerText, top: own.top, bottom: own.bottom, width: own.width,
            head: head.height, headTop: head.top, headBottom: head.bottom,
            table: document.querySelector('#board .middle').getBoundingClientRect().width};
})"""


def _boxes(page: Any) -> dict[str, dict[str, Any]]:
    """Each seat's box on `page` by its seat: its text, its and its header's edges, and the table's width."""
    return {box["seat"]: box for box in page.evaluate(BOXES)}


def test_a_seat_with_no_space_of_its_own_is_a_box_of_its_header_not_an_empty_strip(
    tmp_path: Path, new_page: Any
) -> None:
    """A board template's game whose fields both lie on the table gives no seat a space of its own: each seat's box
    says who sits there, whose turn it is and its public fact, as tall as that line and, at 1280 px, as wide as it (an
    author's trial: a 928 x 44 px strip above the board around a 19 px line, at 390 px a strip too)."""
    _need_browser()
    project = _new_game("table-scouts", tmp_path, "--template", "board")
    rules = project / "table_scouts" / "rules.py"
    source = rules.read_text()
    assert source.count(SEAT_FIELD) == 1, "the board template's field look changed: update SEAT_FIELD"
    rules.write_text(source.replace(SEAT_FIELD, '                "area": "table",\n'))
    served = tmp_path / "served"
    served.mkdir()
    game = ["--game", "table-scouts=table_scouts.rules:TableScouts", "--only", "table-scouts"]
    with _serve(served, game, {"PYTHONPATH": str(project)}) as base:
        room = Api(base).room("table-scouts", seats=2, bots=[])
        first = new_page(seat_url(base, room, 0), viewport={"width": 1280, "height": 800})
        phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
        second = new_page(seat_url(base, room, 1), **phone)
        watcher = new_page(f"{base}/room/{room['room']}#role=spectator", viewport={"width": 1280, "height": 800})
        for page in (first, second, watcher):
            wait_state(page, "ready")

        wide, narrow, watched = _boxes(first), _boxes(second), _boxes(watcher)

        assert first.locator("#board .seat-area .space").count() == 0  # the fields are the table's
        assert narrow["0"]["text"].split() == ["Player", "1", "to", "act", "Turns", "left:", "10"]
        assert narrow["1"]["text"].split() == ["Player", "2", "(you)", "Turns", "left:", "10"]
        assert wide["1"]["text"].split() == ["Player", "2", "Turns", "left:", "10"]
        assert wide["0"]["text"].split() == ["Player", "1", "(you)", "to", "act", "Turns", "left:", "10"]
        for box in [*wide.values(), *watched.values()]:  # the other seat's, the seat's own, the spectator's two
            assert box["bottom"] - box["top"] <= box["head"] + 14, box  # was 44 px around a 19 px header
            assert box["width"] < box["table"] / 2, box  # was as wide as the table (928 px)
        assert watched["0"]["top"] == watched["1"]["top"]  # side by side above the table
        for box in narrow.values():
            assert box["headTop"] - box["top"] <= 8 and box["bottom"] - box["headBottom"] <= 8, box
        screenshot(first, "author-board-on-table")
        screenshot(second, "author-board-on-table-phone")


LOOK = '        return {"text": str(value), "color": "#f4ecd8"} if value else super().piece_look(kind)\n'


@contextlib.contextmanager
def _seat_of_game_with_look(folder: Path, name: str, look: str, new_page: Any, texts: str = "") -> Iterator[Any]:
    """Seat 0's page in a two-seat room of a game made by `boardweaver new` whose cards' look is `look` (the body
    of `piece_look` once `value` is known), with `texts` added to its English catalogue; served with `--game`."""
    _need_browser()
    project = _new_game(name, folder)
    module = name.replace("-", "_")
    rules = project / module / "rules.py"
    source = rules.read_text()
    assert source.count(LOOK) == 1, "the template's piece_look changed: update LOOK"
    rules.write_text(source.replace(LOOK, look))
    if texts:
        catalogue = project / module / "locales" / "en.po"
        catalogue.write_text(catalogue.read_text() + texts)
    served = folder / "served"
    served.mkdir()
    game = f"{name}={module}.rules:{''.join(part.title() for part in name.split('-'))}"
    with _serve(served, ["--game", game, "--only", name], {"PYTHONPATH": str(project)}) as base:
        room = Api(base).room(name, seats=2, bots=[])
        yield new_page(seat_url(base, room, 0))


def test_a_fault_in_the_games_look_is_said_on_the_page_not_left_loading(tmp_path: Path, new_page: Any) -> None:
    """A game whose piece look raises: the room says the board could not be drawn, naming the error, with the
    page's state "error" (it stayed on "Getting the game ready…" for ever: an author's trial)."""
    look = '        raise RuntimeError(f"no look for {kind}")\n'
    with _seat_of_game_with_look(tmp_path, "broken-look", look, new_page) as page:
        assert wait_state(page, "error") == "error"
        said = page.inner_text("#status")
        assert "The board could not be drawn" in said
        assert "RuntimeError: no look for " in said


def test_a_look_titled_with_a_message_draws_its_text(tmp_path: Path, new_page: Any) -> None:
    """A piece look's `title` may be `msg(key, **args)`, as `says` may: the tab renders it in the seat's language
    (it raised AttributeError in `escape`, and the board was never drawn)."""
    titled = '{"text": str(value), "title": msg("look.card", value=value)}'
    look = f"        return {titled} if value else super().piece_look(kind)\n"
    texts = '\nmsgid "look.card"\nmsgstr "Card of value {value}"\n'
    with _seat_of_game_with_look(tmp_path, "titled-look", look, new_page, texts) as page:
        wait_state(page, "ready")
        spoken = page.locator("#board .mine .offer").evaluate_all("(ps) => ps.map(p => p.getAttribute('aria-label'))")
        assert len(spoken) == 3
        assert all("Card of value " in label for label in spoken), spoken
