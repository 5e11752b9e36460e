"""`DrainingServer`: uvicorn's server, which drains this process's rooms when told to stop, before it stops listening.

SIGTERM or SIGINT (uvicorn's `handle_exit`) makes `/readyz` answer 503 and refuses new room sockets and rooms at
once; the server goes on listening for `notice` seconds (a balancer's health check sees the 503 and sends new
connections elsewhere while the open sockets play on), then `Rooms.drain` lets the commits under way finish and
closes every room socket with 1012; only then does uvicorn's own shutdown close the listener, the connections
left and the app (its rooms and stores). A second SIGINT skips what is left of the notice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Iterator
from types import FrameType

import uvicorn
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from .roomproto import ROOMS_STATE, RoomWebSocketProtocol
from .rooms import RESTARTING, SERVICE_RESTART, Rooms
from .settings import DRAIN_CLOSE_SECONDS, DRAIN_NOTICE_SECONDS, DRAIN_SECONDS

logger = logging.getLogger("boardweaver.server")


class DrainingServer(uvicorn.Server):
    """uvicorn's server, draining the app's rooms (`Rooms.drain`) between the stop signal and its shutdown."""

    def __init__(
        self,
        config: uvicorn.Config,
        notice: float = DRAIN_NOTICE_SECONDS,
        drain_seconds: float = DRAIN_SECONDS,
        close_seconds: float = DRAIN_CLOSE_SECONDS,
    ) -> None:
        super().__init__(config)
        self.notice = notice
        self.drain_seconds = drain_seconds
        self.close_seconds = close_seconds
        self._drained = False
        self.stopped_by: list[int] = []  # the signals that stopped it

    def rooms(self) -> Rooms | None:
        """Returns the rooms the app's lifespan started, or None before (and without) them."""
        lifespan = getattr(self, "lifespan", None)
        rooms = getattr(lifespan, "state", {}).get(ROOMS_STATE)
        return rooms if isinstance(rooms, Rooms) else None

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        """uvicorn's, except that a stop signal is not raised again once drained: the process exits 0."""
        with super().capture_signals():
            try:
                yield
            finally:
                self.stopped_by = list(self._captured_signals)
                self._captured_signals.clear()

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        rooms = self.rooms()
        if rooms is not None:  # a flag only: this runs in a signal handler
            rooms.start_draining()
        super().handle_exit(sig, frame)

    async def drain(self) -> None:
        """Waits out the notice, then drains the rooms (once; `shutdown` calls it before closing anything)."""
        rooms = self.rooms()
        if self._drained or rooms is None or self.force_exit:
            return
        self._drained = True
        rooms.start_draining()
        logger.info("draining: /readyz answers 503; room sockets close with 1012 in %g s", self.notice)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.notice
        while loop.time() < deadline and not self.force_exit:
            await asyncio.sleep(min(0.05, max(0.0, deadline - loop.time())))
        await rooms.drain(self.drain_seconds)
        await self.finish_closing(self.close_seconds)

    async def finish_closing(self, timeout: float) -> None:
        """Closes the WebSocket connections still open with 1012 (one relayed to another process, one still
        saying hello) and waits, at most `timeout`, for the peers to answer every close frame.

        uvicorn's shutdown closes the TCP connection of a WebSocket whose close frame was sent at once; the
        peer's answer, or a frame it sent meanwhile, then arrives unread and the kernel resets the connection.
        A balancer that reads the reset before it forwarded the close frame drops the frame: the client saw
        1006 (the connection lost) instead of 1012 (reconnect). Here the server ends the connection once the
        peer answered, as RFC 6455 has it.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        for connection in list(self.server_state.connections):
            if isinstance(connection, RoomWebSocketProtocol) and connection.handshake_complete:
                connection.close_with(SERVICE_RESTART, RESTARTING)  # nothing when its close frame went already

        def closing() -> int:
            return sum(
                1
                for connection in self.server_state.connections
                if isinstance(connection, WebSocketsSansIOProtocol) and connection.close_sent
            )

        while closing() and loop.time() < deadline and not self.force_exit:
            await asyncio.sleep(0.01)
        if closing():
            logger.warning("draining: %d sockets did not answer their close frame in %g s", closing(), timeout)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        await self.drain()
        await super().shutdown(sockets=sockets)
