"""Rules versions: a room records its game's rules; a log names them; changed rules never play an old room."""

from __future__ import annotations

import importlib
import json
import shutil
import sqlite3
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boardweaver
import pytest
from boardweaver import Game
from boardweaver_server import store as ops
from boardweaver_server.cli import main as cli_main
from boardweaver_server.rooms import RULES_CHANGED
from boardweaver_server.rules_wheel import game_rules
from boardweaver_server.store import SCHEMA_VERSION
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.server.conftest import TEST_GAMES, create_room, make_app
from tests.server.test_store_files import open_store, user_version

SECRET_DRAW = Path(__file__).with_name("secret_draw.py")


@pytest.fixture
def toy(tmp_path: Path) -> Iterator[tuple[type[Game], Path, str]]:
    """A game package of its own (a copy of secret-draw) on sys.path: (its class, its rules file, its target)."""
    name = f"toy_{uuid.uuid4().hex[:8]}"
    package = tmp_path / "packages" / name
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    rules = package / "rules.py"
    rules.write_text(SECRET_DRAW.read_text())
    sys.path.insert(0, str(package.parent))
    try:
        module = importlib.import_module(f"{name}.rules")
        yield module.SecretDraw, rules, f"{name}.rules:SecretDraw"
    finally:
        sys.path.remove(str(package.parent))
        for loaded in [m for m in sys.modules if m == name or m.startswith(f"{name}.")]:
            del sys.modules[loaded]


def change_rules(rules: Path) -> None:
    rules.write_text(rules.read_text() + "\n# a new release of the rules\n")


def finished_log(client: TestClient) -> dict[str, Any]:
    room = create_room(client, game="toy", seats=2, bots=[0, 1], options={"turns": 3})
    deadline = time.monotonic() + 20
    while not client.get(f"/api/rooms/{room['room']}").json()["over"]:
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.02)
    log: dict[str, Any] = client.get(f"/api/rooms/{room['room']}/events").json()
    return log


def test_a_games_rules_fingerprint_covers_its_own_package_not_its_neighbours(tmp_path: Path) -> None:
    from boardweaver_games.bluff.rules import Bluff
    from boardweaver_games.old_maid.rules import OldMaid

    bluff, old_maid = game_rules(Bluff), game_rules(OldMaid)

    assert bluff.fingerprint != old_maid.fingerprint and len(bluff.fingerprint) == 16
    assert bluff.version.startswith("boardweaver") and bluff.version == old_maid.version
    assert game_rules(Bluff) == bluff  # the same files give the same identity


def test_a_new_doctor_changes_no_games_rules_while_a_change_to_the_sdks_rule_code_does(tmp_path: Path) -> None:
    """Regression: a doctor-only change made every finished room refuse `boardweaver replay` ('rules changed'),
    and every rematch with it (two trial authors, 2026-12-07): the SDK was fingerprinted whole."""
    from boardweaver_games.bluff.rules import Bluff

    sdk = tmp_path / "boardweaver"
    shutil.copytree(Path(boardweaver.__file__).parent, sdk, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    before = game_rules(Bluff, sdk)
    assert before == game_rules(Bluff)  # the copy is the SDK this interpreter runs

    (sdk / "doctor" / "runner.py").write_text((sdk / "doctor" / "runner.py").read_text() + "\n# a new check\n")
    (sdk / "doctor" / "newcheck.py").write_text('"""A check added."""\n')
    assert game_rules(Bluff, sdk) == before

    (sdk / "table.py").write_text((sdk / "table.py").read_text() + "\n# a rule changed\n")
    assert game_rules(Bluff, sdk).fingerprint != before.fingerprint


def test_a_rules_change_changes_only_that_games_fingerprint(toy: tuple[type[Game], Path, str]) -> None:
    cls, rules, _ = toy
    before, secret_draw = game_rules(cls), game_rules(TEST_GAMES["secret-draw"])

    change_rules(rules)

    assert game_rules(cls).fingerprint != before.fingerprint
    assert game_rules(TEST_GAMES["secret-draw"]) == secret_draw


def test_replay_of_a_finished_games_log_under_changed_rules_fails_naming_the_version(
    tmp_path: Path, toy: tuple[type[Game], Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    cls, rules, target = toy
    with TestClient(make_app(tmp_path / "rooms.db", games={"toy": cls})) as client:
        log = finished_log(client)
    events = tmp_path / "events.json"
    events.write_text(json.dumps(log))
    assert log["rules"] == {"version": "", "fingerprint": game_rules(cls).fingerprint}
    assert cli_main(["replay", "--events", str(events), "--game", f"toy={target}"]) == 0
    capsys.readouterr()

    change_rules(rules)
    code = cli_main(["replay", "--events", str(events), "--game", f"toy={target}"])

    err = capsys.readouterr().err
    needed, installed = log["rules"]["fingerprint"], game_rules(cls).fingerprint
    assert code == 1
    assert f"replay FAILED: rules changed: this log needs toy (unversioned, rules {needed})" in err
    assert f"installed is toy (unversioned, rules {installed})" in err
    assert "install the versions of both that the game was played with" in err  # the SDK counts too
    assert "final state differs" not in err


def test_a_restarted_server_with_changed_rules_refuses_a_live_room_with_a_clear_status(
    tmp_path: Path, toy: tuple[type[Game], Path, str]
) -> None:
    cls, rules, _ = toy
    db = tmp_path / "rooms.db"
    games = {"toy": cls, "secret-draw": TEST_GAMES["secret-draw"]}
    with TestClient(make_app(db, games=games)) as client:
        live = create_room(client, game="toy", seats=2)
        other = create_room(client, game="secret-draw", seats=2)
        started_with = game_rules(cls)
        with client.websocket_connect(f"/ws/rooms/{live['room']}") as ws:
            ws.send_json({"type": "hello", "role": "seat", "seat": 0, "token": live["tokens"][0]})
            assert ws.receive_json()["type"] == "snapshot"

    released = rules.read_text()
    change_rules(rules)
    with TestClient(make_app(db, games=games)) as client:
        status = client.get(f"/api/rooms/{live['room']}")
        claim = client.post(f"/api/rooms/{live['room']}/seats/1/claim")
        with client.websocket_connect(f"/ws/rooms/{live['room']}") as ws:
            ws.send_json({"type": "hello", "role": "seat", "seat": 0, "token": live["tokens"][0]})
            frame = ws.receive_json()
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
        unchanged = client.get(f"/api/rooms/{other['room']}")
        listed = [room["room"] for room in client.get("/api/rooms").json()]

    sentence = (
        f"rules changed: this room needs toy (unversioned, rules {started_with.fingerprint}); "
        f"this server has toy (unversioned, rules {game_rules(cls).fingerprint})"
    )
    assert status.status_code == 409 and status.json() == {"error": sentence, "code": "room/rules-changed"}
    assert claim.status_code == 409
    assert frame == {"type": "error", "code": "room/rules-changed", "message": sentence}
    assert closed.value.code == RULES_CHANGED
    assert unchanged.status_code == 200 and unchanged.json()["seq"] == 0  # another game's room plays on
    assert listed == [other["room"]]
    rules.write_text(released)  # the old rules installed again resume the room
    with TestClient(make_app(db, games=games)) as client:
        resumed = client.get(f"/api/rooms/{live['room']}")
    assert resumed.status_code == 200 and resumed.json()["started"]


def toy_client(db: Path, cls: type[Game]) -> TestClient:
    """A client of a new app on the store `db`, serving the toy game as it is installed now."""
    return TestClient(make_app(db, games={"toy": cls}))


def spectator_snapshot(client: TestClient, room: str) -> str:
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        ws.send_json({"type": "hello", "role": "spectator"})
        return ws.receive_text()


def test_a_finished_room_reads_back_from_its_final_snapshot_after_its_rules_changed_but_its_review_does_not(
    tmp_path: Path, toy: tuple[type[Game], Path, str]
) -> None:
    cls, rules, _ = toy
    db = tmp_path / "rooms.db"
    with toy_client(db, cls) as client:
        log = finished_log(client)
        room = log["room"]
        status = client.get(f"/api/rooms/{room}").json()
        seen = spectator_snapshot(client, room)
    played_with = game_rules(cls)

    change_rules(rules)
    with toy_client(db, cls) as client:
        status_after = client.get(f"/api/rooms/{room}")
        log_after = client.get(f"/api/rooms/{room}/events")
        seen_after = spectator_snapshot(client, room)
        review = client.get(f"/api/rooms/{room}/review")

    assert status_after.status_code == 200 and status_after.json() == status
    assert status["over"] and status["seq"] == len(log["events"]) > 0
    assert log_after.status_code == 200 and log_after.json() == log  # the final state's digest too
    before, after = json.loads(seen), json.loads(seen_after)
    assert after["type"] == "snapshot" and after.pop("fingerprint") != before.pop("fingerprint")  # the new wheel's
    assert after == before  # the same board, marks and end
    assert review.status_code == 409 and review.json()["code"] == "room/rules-changed"
    said = review.json()["error"]
    assert said.startswith(f"rules changed: this room needs toy (unversioned, rules {played_with.fingerprint})")
    assert "the review replays the game with its own rules" in said and "the log (/events) are still here" in said


def test_a_finished_room_without_a_final_snapshot_is_refused_after_its_rules_changed(
    tmp_path: Path, toy: tuple[type[Game], Path, str]
) -> None:
    cls, rules, _ = toy
    db = tmp_path / "rooms.db"
    with toy_client(db, cls) as client:
        room = finished_log(client)["room"]
    with sqlite3.connect(db) as conn:  # as a room that ended before final snapshots were stored
        assert conn.execute("DELETE FROM snapshots WHERE room = ?", (room,)).rowcount == 1
    conn.close()

    change_rules(rules)
    with toy_client(db, cls) as client:
        status = client.get(f"/api/rooms/{room}")

    assert status.status_code == 409 and status.json()["code"] == "room/rules-changed"


def test_a_version_2_store_opens_and_its_live_rooms_adopt_the_rules_they_run_with(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    with TestClient(make_app(db)) as client:
        room = create_room(client, game="secret-draw", seats=2)
    with sqlite3.connect(db) as conn:  # back to what a version-2 store holds
        conn.execute("UPDATE rooms SET rules_version = '', rules_fingerprint = ''")
        conn.execute("PRAGMA user_version=2")
    open_store(db)

    with TestClient(make_app(db)) as client:
        status = client.get(f"/api/rooms/{room['room']}")

    with sqlite3.connect(db) as conn:
        [record] = ops.load_rooms(conn)
    assert user_version(db) == SCHEMA_VERSION == 6
    assert status.status_code == 200
    assert record.rules_fingerprint == game_rules(TEST_GAMES["secret-draw"]).fingerprint
