"""The Chromium the browser tests start: no browser UI of its own beside each page, Playwright's switches kept."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from .conftest import CHROMIUM, QUIET_UI_FEATURES, playwright_disabled_features

pytestmark = pytest.mark.browser


def _chromiums_started_here() -> list[list[str]]:
    """The command lines of the Chromium browser processes under this pytest process (not their renderers)."""
    parents: dict[int, int] = {}
    lines: dict[int, list[str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            lines[int(entry.name)] = (entry / "cmdline").read_text().replace("\0", " ").split()
        except (OSError, IndexError, ValueError):
            continue

    def started_here(pid: int) -> bool:
        while pid > 1:
            pid = parents.get(pid, 1)
            if pid == os.getpid():
                return True
        return False

    return [
        line
        for pid, line in lines.items()
        if line and Path(line[0]).name == Path(CHROMIUM).name and "--remote-debugging-pipe" in line
        if not any(arg.startswith("--type=") for arg in line) and started_here(pid)
    ]


def test_a_context_opens_its_page_without_chromiums_omnibox_popup(browser: Any, new_page: Any) -> None:
    """Chromium made its omnibox popup (two WebUI pages) in every context's window: a renderer and ~0.5 s of CPU a
    page, for a menu no headless test shows."""
    cdp = browser.new_browser_cdp_session()

    new_page()
    new_page()
    targets = cdp.send("Target.getTargets")["targetInfos"]

    assert [t["url"] for t in targets if t["type"] == "browser_ui"] == []
    assert len([t for t in targets if t["type"] == "page"]) >= 2


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the processes' command lines from /proc")
def test_the_browser_keeps_every_feature_playwright_turns_off(browser: Any) -> None:
    """Chromium reads only the last --disable-features: the tests' own must repeat Playwright's."""
    playwrights = playwright_disabled_features()
    chromiums = _chromiums_started_here()

    assert "DestroyProfileOnBrowserClose" in playwrights  # the driver's list was found and read
    assert chromiums, "no Chromium found under this process"
    for line in chromiums:
        last = [arg for arg in line if arg.startswith("--disable-features=")][-1]
        features = set(last.split("=", 1)[1].split(","))
        assert set(playwrights) <= features and set(QUIET_UI_FEATURES) <= features
