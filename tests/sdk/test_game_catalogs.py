from __future__ import annotations

import sys
import types

from boardweaver import Game


def test_catalogs_of_a_game_in_a_top_level_module_are_empty_not_an_error() -> None:
    module = types.ModuleType("doctor_top_level_game")
    sys.modules[module.__name__] = module
    try:
        game_class = type("TopLevelGame", (Game,), {"__module__": module.__name__, "name": "top-level"})

        catalogs = game_class.catalogs()

    finally:
        del sys.modules[module.__name__]
    assert catalogs == {}
