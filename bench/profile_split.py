"""Splits a py-spy raw profile of a server worker (`py-spy record -f raw`) into where a move's time goes.

Run: .venv/bin/python bench/profile_split.py PROFILE.txt

Each sample's stack is put in the first category whose function it contains (the order below: innermost
parts first); the store's thread is shown apart (reads and checkpoints; the WAL's sync where Linux AIO is missing).
Never fails on timing.
"""

from __future__ import annotations

import sys
from collections import Counter

STORE_THREAD = "store thread (reads, checkpoints; the WAL's fdatasync without AIO)"
CATEGORIES = [  # (name, a substring of a frame), the first match wins
    (STORE_THREAD, "_StoreThread._run"),
    ("socket writes (transport.write)", "write_text"),
    ("frame encoding (JSON)", "JSONEncoder"),
    ("frame encoding (JSON)", "encoding.py"),
    ("projection and patches (Views.patches)", "Views.patches"),
    ("verify and apply (verify_commit)", "verify_commit"),
    ("frame assembly (_event_frames, rest)", "Room._event_frames"),
    ("frame assembly (_event_frames, rest)", "Room._broadcast"),  # before the frames were made while committing
    ("store writes on the loop (SQLite statements)", "Store._flush"),
    ("commit path, rest (_commit_locked)", "Room._commit_locked"),
    ("receiving and parsing a commit (websockets, JSON)", "data_received"),
    ("session (sockets.py, rest)", "sockets.py"),
    ("connection set-up (handshake, hello, snapshot)", "handle_websocket_upgrade"),
]


def main() -> None:
    counts: Counter[str] = Counter()
    total = 0
    for line in open(sys.argv[1], encoding="utf-8"):
        stack, _, n = line.rstrip().rpartition(" ")
        total += int(n)
        name = next((name for name, part in CATEGORIES if part in stack), "event loop and asyncio, rest")
        counts[name] += int(n)
    loop = total - counts[STORE_THREAD]
    print(f"{total} samples; the event loop's thread: {loop}")
    for name, n in counts.most_common():
        share = "" if name.startswith("store thread") else f"{100 * n / loop:5.1f} % of the loop"
        print(f"{n:6d}  {share:>18}  {name}")


if __name__ == "__main__":
    main()
