"""`/healthz` and `/metrics`: a store that cannot write is unhealthy; rooms, sockets, decisions and errors count."""

from __future__ import annotations

from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families
from starlette.testclient import TestClient

from tests.server.conftest import create_room, make_app

PASS = {"type": "command", "name": "pass"}


def samples(client: TestClient) -> dict[str, float]:
    response = client.get("/metrics")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/plain")
    found = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
            found[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return found


def test_healthz_is_200_while_the_store_takes_writes(client: TestClient) -> None:
    response = client.get("/healthz")

    assert response.status_code == 200 and response.json()["ok"] is True


def test_healthz_is_503_once_store_writes_fail(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path / "rooms.db")) as client:
        store = client.app.state.store  # type: ignore[attr-defined]

        store.failed_writes = 3  # what the store counts after failing writes (store.Store._failed)
        response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["ok"] is False and "writes failed" in response.json()["problems"][0]


def test_metrics_count_rooms_sockets_decisions_store_writes_and_errors(client: TestClient) -> None:
    room = create_room(client)
    client.post(f"/api/rooms/{room['room']}/invite/0", headers={"Authorization": f"Bearer {room['host_token']}"})
    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        ws.send_json({"type": "hello", "role": "seat", "seat": 0, "token": room["tokens"][0]})
        ws.receive_json()
        ws.send_json({"type": "commit", "baseSeq": 0, "steps": [PASS], "commitId": "one"})
        ws.receive_json()
        ws.send_text("not json")
        ws.receive_json()
        during = samples(client)
    after = samples(client)

    assert during["boardweaver_rooms"] == 1 and during["boardweaver_sockets"] == 1
    assert during["boardweaver_decisions_total"] == 1
    assert during["boardweaver_store_write_seconds_count"] >= 3  # the room, two claims, the decision
    assert during["boardweaver_errors_total{code=http/409}"] == 1
    assert during["boardweaver_errors_total{code=frame/malformed}"] == 1
    assert after["boardweaver_sockets"] == 0
