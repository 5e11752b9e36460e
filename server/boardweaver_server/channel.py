"""The supervisor's channel to a worker: JSON lines both ways over a Unix socketpair (standard library only,
so the supervisor process stays small)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
from collections.abc import Awaitable, Callable
from typing import Any

logger = logging.getLogger("boardweaver.server")
LINE_LIMIT = 64 << 20  # a lobby list of every room is one line
Message = dict[str, Any]
Handler = Callable[[Message], Awaitable[Message | None]]


class Channel:
    """JSON lines both ways over one end of a Unix socketpair: requests carry an id and await a reply.

    A message whose `op` is `reply` answers this side's request with the same id; any other message is a
    request of the other side, answered by `handle` (its result, plus the id, goes back as the reply).
    """

    def __init__(self, handle: Handler) -> None:
        self._handle = handle
        self._next = 0
        self._waiting: dict[int, asyncio.Future[Message]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._writer: asyncio.StreamWriter | None = None
        self._reading: asyncio.Task[None] | None = None
        self.closed = asyncio.Event()
        self._closing: asyncio.Future[None] | None = None

    async def open(self, sock: socket.socket) -> None:
        reader, self._writer = await asyncio.open_unix_connection(sock=sock, limit=LINE_LIMIT)
        self._reading = asyncio.create_task(self._read(reader), name="boardweaver-channel")

    async def _read(self, reader: asyncio.StreamReader) -> None:
        try:
            while line := await reader.readline():
                message = json.loads(line)
                if message.get("op") == "reply":
                    future = self._waiting.pop(message.get("id"), None)
                    if future is not None and not future.done():
                        future.set_result(message)
                else:
                    task = asyncio.create_task(self._answer(message))
                    self._tasks.add(task)
                    task.add_done_callback(self._tasks.discard)
        except (OSError, ValueError) as error:
            logger.error("the channel broke: %s: %s", type(error).__name__, error)
        finally:
            self.closed.set()
            for future in self._waiting.values():
                if not future.done():
                    future.set_exception(ConnectionError("the channel closed"))
            self._waiting.clear()

    async def _answer(self, message: Message) -> None:
        try:
            reply = await self._handle(message) or {}
        except Exception as error:
            logger.exception("a %r request failed", message.get("op"))
            reply = {"error": f"{type(error).__name__}: {error}"}
        if "id" in message:
            self.send({**reply, "op": "reply", "id": message["id"]})

    def send(self, message: Message) -> None:
        if self._writer is None or self.closed.is_set():
            return
        self._writer.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")

    async def request(self, message: Message, timeout: float = 10.0) -> Message:
        """Sends a request and returns the other side's reply."""
        if self.closed.is_set():
            raise ConnectionError("the channel closed")
        self._next += 1
        number = self._next
        future: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self._waiting[number] = future
        self.send({**message, "id": number})
        try:
            return await asyncio.wait_for(future, timeout)
        finally:
            self._waiting.pop(number, None)

    async def close(self) -> None:
        """Closes the channel; every caller awaits the same close, and cancelling one caller cancels only its wait.

        (Two callers awaiting `wait_closed` share the stream's close future: a caller's task cancelled there would
        cancel that future, and the other caller's close would raise CancelledError.)
        """
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close())
        await asyncio.shield(self._closing)

    async def _close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            with contextlib.suppress(OSError):
                await self._writer.wait_closed()
        if self._reading is not None:
            await asyncio.gather(self._reading, return_exceptions=True)
