"""Start-up shared by the pages: the server's client config and the rules wheel, before any rule import."""

from __future__ import annotations

import importlib
import json
import sys
from typing import Any

from . import bytecode, dom, elements, language, network, storage, tab

CONFIG_KEY = "bw:client-config"
BYTECODE_KEY = "/__bw__/bytecode.zip"  # a cache key, never requested
SDK = "boardweaver"
CLIENT = "boardweaver_web"
_rules: list[str] = [SDK]  # the rule packages of the config read: the SDK and each served game's top-level package
_deferred_wheel: list[str] = []  # a wheel whose modules came with the snapshot, unpacked after drawing


async def client_config() -> dict[str, Any]:
    """The server's client config (rules wheel, fingerprint); the last one kept when offline."""
    data: Any = None
    try:
        text = await network.prefetched_client_config()  # asked for by the loader at page start
        if text is not None:
            data = json.loads(text)
        else:
            status, data = await network.fetch_json("/api/client-config")
            data = data if status == 200 else None
    except Exception:
        data = None
    if isinstance(data, dict):
        storage.storage_set(CONFIG_KEY, json.dumps(data))
        return data
    kept = storage.storage_get(CONFIG_KEY)
    if kept is None:
        raise RuntimeError("cannot reach the server and no earlier visit is cached")
    return dict(json.loads(kept))


def preloaded_wheel() -> str | None:
    """The rules wheel whose modules the restored Pyodide snapshot already imported (see the loader)."""
    preloaded = getattr(sys, "_bw_preloaded", None)
    return str(preloaded["wheel"]) if isinstance(preloaded, dict) and "wheel" in preloaded else None


def rule_packages(config: dict[str, Any]) -> list[str]:
    """The top-level packages the config's rules wheel holds: the SDK and those of the served games."""
    games = config.get("games")
    targets = [str(t) for t in games.values()] if isinstance(games, dict) else []
    return sorted({SDK, *(target.partition(":")[0].partition(".")[0] for target in targets)})


def game_class(config: dict[str, Any], name: str) -> Any:
    """The Game class the server serves as `name`, imported from the rules wheel by its `module:Class`.

    Only the game's own modules are imported: a snapshot's load has them already, before the wheel's files
    are unpacked (see `prepare`).
    """
    games = config.get("games")
    target = games.get(name) if isinstance(games, dict) else None
    if not isinstance(target, str):
        served = sorted(games) if isinstance(games, dict) else []
        raise LookupError(f"the server does not send the game {name!r} to the tab (it sends {served!r}); reload")
    module, _, attribute = target.partition(":")
    found: Any = importlib.import_module(module)
    for part in attribute.split("."):
        found = getattr(found, part)
    return found


def forget_rules() -> None:
    """Drops the snapshot's rule modules and the client modules built on them (not this start-up's own)."""
    own = ("boot", "bytecode", "dom", "elements", "focus", "network", "storage", "tab")  # the browser's, no rules
    keep = {f"{__package__}.{name}" for name in own} | {__package__}
    for name in list(sys.modules):
        if name.partition(".")[0] in (*_rules, __package__) and name not in keep:
            del sys.modules[name]
    importlib.invalidate_caches()


async def prepare() -> dict[str, Any]:
    """Registers the offline worker, reads the config and installs the rules wheel it names."""
    dom.mark("py-start")
    storage.register_service_worker()
    config = await client_config()
    dom.mark("config")
    _rules[:] = rule_packages(config)
    wheel = str(config["rules_wheel"])
    url = tab.origin() + (wheel if wheel.startswith("/") else f"/wheels/{wheel}")
    preloaded = preloaded_wheel()
    if preloaded == wheel:  # already imported: its files are unpacked after the first drawing
        _deferred_wheel.append(url)
        dom.mark("modules-from-snapshot")
        return config
    if preloaded is not None:  # the loader keys snapshots by the wheel: only a config read another way differs
        forget_rules()
    restored = network.loader_state("bytecode")
    kept = None if restored is not None else await storage.cache_read(BYTECODE_KEY)  # not started by our loader
    if not restored and kept is None:
        await network.install_wheel_with_micropip(url)  # a first visit: micropip installs the rules
    else:
        await network.install_wheel(url)  # a later visit: the same wheel, unpacked without micropip
    dom.mark("wheel")
    if kept is not None:
        bytecode.restore(kept)
    dom.mark("bytecode")
    return config


async def keep_bytecode(rules: bool = True) -> None:
    """After the page is drawn: unpacks a wheel the snapshot made wait, and compiles what this load
    compiled from source, for the next load (`rules=False`: a page without the rules wheel, the lobby).

    Work for the next load only: when it fails (the network gone just as the page was drawn), the console says
    so and the page plays on, offline if it must; the wheel is unpacked on a later load."""
    try:
        await _keep_bytecode(rules)
    except Exception as error:  # nothing of this load depends on it
        print(f"boardweaver: nothing kept for the next load: {error!r}", file=sys.stderr)


async def _keep_bytecode(rules: bool) -> None:
    while _deferred_wheel:
        await network.install_wheel(_deferred_wheel[-1])
        _deferred_wheel.pop()
    packages = [*(_rules if rules else []), CLIENT, "pyscript"]  # whose bytecode is kept: ours and PyScript's
    for name in packages:  # the packages whose folders hold our modules
        importlib.import_module(name)
    data = await bytecode.harvest(bytecode.package_roots(packages))
    if data is not None:
        await storage.cache_write(BYTECODE_KEY, data)


async def run_page(name: str, needs_rules: bool = True) -> None:
    """Runs the page module `boardweaver_web.<name>`: the rules wheel installed first where the page needs it.

    An error is shown on the page (and re-raised for the console) instead of leaving it half drawn.
    """
    texts = None
    try:
        texts = language.install_switch()
        if needs_rules:
            config = await prepare()
            page = importlib.import_module(f"boardweaver_web.{name}")
            dom.mark("import")
            await page.main(config)
        else:
            await importlib.import_module(f"boardweaver_web.{name}").main()
    except Exception:
        # A sentence for the player (PyScript's own error box is off: pyscript.json "!error"); the
        # traceback goes to the console only.
        elements.set_text("status", texts.get("error.page") if texts is not None else "This page could not start.")
        elements.set_attribute("page", "data-state", "error")
        raise
