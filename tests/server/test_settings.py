"""How a serving process is set up: its garbage collector."""

from __future__ import annotations

import gc
from pathlib import Path

from boardweaver_server.settings import GC_THRESHOLDS
from starlette.testclient import TestClient

from tests.server.conftest import make_app


def test_a_serving_process_freezes_start_up_and_collects_less_often_once_its_rooms_are_back(tmp_path: Path) -> None:
    before = gc.get_threshold()
    try:
        with TestClient(make_app(tmp_path / "rooms.db", tune_gc=True)) as client:
            assert client.get("/api/games").status_code == 200

            assert gc.get_threshold() == GC_THRESHOLDS
            assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_an_app_left_untuned_keeps_the_collector_as_it_was(tmp_path: Path) -> None:
    before = gc.get_threshold()

    with TestClient(make_app(tmp_path / "rooms.db")):
        assert gc.get_threshold() == before
