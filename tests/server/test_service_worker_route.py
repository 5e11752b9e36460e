"""The client's service worker is served from the root, so it may control every page offline."""

from __future__ import annotations

from pathlib import Path

from boardweaver_server.app import create_app
from starlette.testclient import TestClient


def test_service_worker_is_served_from_the_root_as_javascript(tmp_path: Path) -> None:
    app = create_app(db_path=tmp_path / "rooms.db", wheel_dir=tmp_path / "wheels")

    with TestClient(app, base_url="http://127.0.0.1") as client:
        response = client.get("/sw.js")

    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/javascript")
    assert "caches" in response.text
