"""The browser client's plain-Python modules, imported from where the page fetches them."""

import sys
from pathlib import Path

CLIENT = Path(__file__).resolve().parents[2] / "web" / "static" / "py"
if str(CLIENT) not in sys.path:
    sys.path.insert(0, str(CLIENT))
