"""Anyone re-runs a finished game from its published seed and log: `boardweaver replay --events FILE`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from boardweaver_server.cli import main
from starlette.testclient import TestClient

from tests.server.conftest import create_room, wait_over

REPO = Path(__file__).resolve().parents[2]
GAME = ["--game", "secret-draw=tests.server.secret_draw:SecretDraw"]


def finished_log(client: TestClient) -> dict[str, object]:
    room = create_room(client, bots=[0, 1], claim=False, options={"turns": 6})
    base = f"/api/rooms/{room['room']}"
    wait_over(client, room["room"])
    log: dict[str, object] = client.get(f"{base}/events").json()
    return log


def test_replay_re_runs_a_finished_game_from_its_seed_and_log(client: TestClient, tmp_path: Path) -> None:
    events = tmp_path / "events.json"
    events.write_text(json.dumps(finished_log(client)))

    done = subprocess.run(
        [sys.executable, "-m", "boardweaver_server.cli", "replay", "--events", str(events), *GAME],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )

    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["ok"] is True and summary["decisions"] == 12


def test_replay_refuses_a_log_whose_seed_steps_or_end_were_changed(client: TestClient, tmp_path: Path) -> None:
    log = finished_log(client)
    wrong_seed = {**log, "seed": "0" * 32}
    events = log["events"]
    assert isinstance(events, list)
    bogus = [{**events[0], "steps": [{"type": "command", "name": "bogus"}]}, *events[1:]]
    wrong_end = {**log, "final_state_sha256": "f" * 64}
    files = []
    for number, bad in enumerate([wrong_seed, {**log, "events": bogus}, wrong_end]):
        path = tmp_path / f"bad-{number}.json"
        path.write_text(json.dumps(bad))
        files.append(path)

    codes = [main(["replay", "--events", str(path), *GAME]) for path in files]

    assert codes == [1, 1, 1]


def test_replay_of_a_game_it_does_not_know_says_how_to_name_it(client: TestClient, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    events = tmp_path / "events.json"
    events.write_text(json.dumps(finished_log(client)))

    code = main(["replay", "--events", str(events)])  # secret-draw is a test game: not installed

    assert code == 1
    said = capsys.readouterr().err
    assert "unknown game 'secret-draw'" in said and "--game secret-draw=module:Class" in said
