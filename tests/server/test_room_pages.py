"""The room's and the review's pages come in the player's language, with their loading panel's sizes."""

from __future__ import annotations

import html
import json
import os
import re
from pathlib import Path

from boardweaver_server.lobby_page import PageTexts, keyed_texts, locales_dir
from boardweaver_server.room_pages import boot_sizes
from boardweaver_server.static import PYODIDE_VERSION
from starlette.testclient import TestClient

WEB = Path(__file__).resolve().parents[2] / "web"


def sizes_of(page: str) -> dict[str, int]:
    found = re.search(r'<progress id="boot-progress"[^>]*data-sizes="([^"]+)"', page)
    assert found is not None, "no loading bar"
    sizes: dict[str, int] = json.loads(html.unescape(found.group(1)))
    return sizes


def test_the_room_page_is_drawn_in_the_browsers_language_before_any_python_runs(client: TestClient) -> None:
    french = client.get("/room/abc", headers={"Accept-Language": "fr-FR,fr;q=0.9"})
    english = client.get("/room/abc", headers={"Accept-Language": "en-GB"})

    assert '<html lang="fr">' in french.text and '<html lang="en">' in english.text
    for text in ("Chargement…", "Préparation du jeu…", "Règles", "Journal", "Son à mon tour", "Aller au plateau"):
        assert f">{text}<" in french.text, text
    assert 'aria-label="Son, notifications et langue"' in french.text
    assert "Votre première visite télécharge une fois le moteur du jeu" in french.text and ">Mo<" in french.text
    for text in ("Loading…", "Getting the game ready…", "Rules", "Log", "Sound on my turn", "Skip to the board"):
        assert f">{text}<" in english.text, text
    assert french.headers["etag"] != english.headers["etag"]
    assert french.headers["cache-control"] == "no-cache"


def test_the_language_switchs_cookie_wins_and_an_unchanged_page_is_not_sent_again(client: TestClient) -> None:
    chosen = client.get("/game/abc", headers={"Accept-Language": "en", "Cookie": "bw-lang=fr"})
    again = client.get(
        "/game/abc", headers={"Accept-Language": "en", "Cookie": "bw-lang=fr", "If-None-Match": chosen.headers["etag"]}
    )

    assert '<html lang="fr">' in chosen.text and ">Préparation du jeu…<" in chosen.text
    assert 'aria-label="Étape précédente"' in chosen.text
    assert again.status_code == 304 and again.content == b""


def test_the_loading_bar_carries_the_runtimes_decoded_sizes_and_the_page_no_mark(client: TestClient) -> None:
    page = client.get("/room/abc").text
    dist = WEB / "dist" / "pyodide" / PYODIDE_VERSION

    sizes = sizes_of(page)

    assert sizes["wasm"] == (dist / "pyodide.asm.wasm").stat().st_size
    assert sizes["stdlib"] == (dist / "python_stdlib.zip").stat().st_size
    assert "@BOOT" not in page and "@MAIN@" not in page
    assert re.search(r"\((\d+) <span data-text=\"boot.megabytes\">MB</span>\)", page)


def test_boot_sizes_counts_the_newest_snapshot_and_the_compressed_total(tmp_path: Path) -> None:
    dist = tmp_path / "dist" / "pyodide" / PYODIDE_VERSION
    (dist / "snapshots" / "old").mkdir(parents=True)
    (dist / "snapshots" / "new").mkdir()
    for name, size in (("pyodide.asm.wasm", 900), ("pyodide.asm.wasm.br", 300), ("python_stdlib.zip", 700)):
        (dist / name).write_bytes(b"x" * size)
    (dist / "python_stdlib.zip.br").write_bytes(b"x" * 200)
    old, new = dist / "snapshots" / "old" / "a.snap", dist / "snapshots" / "new" / "b.snap"
    old.write_bytes(b"x" * 5000)
    new.write_bytes(b"x" * 1600)
    (dist / "snapshots" / "new" / "b.snap.br").write_bytes(b"x" * 400)
    os.utime(old, (1_000_000, 1_000_000))  # the older build's

    assert boot_sizes(tmp_path) == {"wasm": 900, "stdlib": 700, "snapshot": 1600, "brotli": 900}
    assert boot_sizes(tmp_path / "unbuilt") == {"wasm": 0, "stdlib": 0, "snapshot": 0, "brotli": 0}


def test_keyed_texts_translate_a_label_wherever_its_key_stands_and_leave_other_tags_be() -> None:
    texts = PageTexts(locales_dir(WEB), "fr")
    page = (
        '<b data-aria="review.next" aria-label="Next step"></b><i aria-label="Next step"></i><p data-text="log">Log</p>'
    )

    assert keyed_texts(page, texts) == (
        '<b data-aria="review.next" aria-label="Étape suivante"></b><i aria-label="Next step"></i>'
        '<p data-text="log">Journal</p>'
    )
