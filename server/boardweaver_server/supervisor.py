"""The supervisor of `boardweaver serve --workers N`: one port, N worker processes, each room in exactly one.

The supervisor binds the port and accepts every TCP connection; it peeks at the request line (MSG_PEEK: the
bytes stay for the worker) and passes the connection's file descriptor to a worker (`workers.py`), which
serves it with uvicorn's own protocol classes, so no frame goes through the supervisor:
- `/ws/rooms/{id}` and `/api/rooms/{id}...` go to the worker that owns the room (rooms each worker
  recovered at start-up, and rooms each worker creates, reported before the creation is answered);
- `POST /api/rooms` and everything else (pages, the lobby, an unknown room) go to the workers in turn.
A worker that exits is logged and started again; connections for it wait (up to 30 s) until it is back.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from .channel import Channel, Message

logger = logging.getLogger("boardweaver.server")
PEEK_LIMIT = 8192  # a request line longer than this goes to any worker, which refuses it
PEEK_TIMEOUT = 60.0  # a connection that sends no request line within this is closed (uvicorn alone keeps it)
PENDING_TIMEOUT = 30.0  # how long a connection waits for its worker to (re)start
STOP_TIMEOUT = 20.0  # how long workers have to finish after SIGTERM before SIGKILL


def route(head: bytes) -> tuple[str, str | None]:
    """Returns where a request line goes: ("room", id), ("new", None) for `POST /api/rooms`, or ("any", None).

    The id is percent-decoded as the app decodes the path, so the worker and the supervisor agree on it.
    """
    parts = head.split(b" ", 2)
    if len(parts) < 2:
        return "any", None
    method, path = parts[0], parts[1].split(b"?", 1)[0]
    for prefix in (b"/ws/rooms/", b"/api/rooms/"):
        if path.startswith(prefix):
            room = path[len(prefix) :].split(b"/", 1)[0]
            if room:
                return "room", urllib.parse.unquote(room.decode("latin-1"))
    if method == b"POST" and path in (b"/api/rooms", b"/api/rooms/"):
        return "new", None
    return "any", None


@dataclass
class Worker:
    """One worker process and the supervisor's ends of its two socketpairs."""

    index: int
    proc: subprocess.Popen[bytes]
    fds: socket.socket
    channel: Channel
    started: float
    pending: collections.deque[tuple[float, socket.socket]] = field(default_factory=collections.deque)
    ready: bool = False
    writing: bool = False


class Supervisor:
    """Binds `host:port`, runs `count` workers with `config` (see `workers.main`), routes each connection."""

    def __init__(self, host: str, port: int, count: int, config: dict[str, Any]) -> None:
        self.host = host
        self.port = port
        self.count = count
        self.config = config
        self.owners: dict[str, int] = {}
        self.workers: list[Worker] = []
        self.stopping = False
        self.serving = False
        self.changed = asyncio.Event()
        self.failed: str | None = None
        self._turn = 0
        self._peeking: dict[int, tuple[socket.socket, float]] = {}
        self._waiter = ThreadPoolExecutor(max_workers=count + 1, thread_name_prefix="boardweaver-wait")
        self._tasks: set[asyncio.Task[Any]] = set()

    # -- running ---------------------------------------------------------------------------------------

    async def serve(self) -> int:
        """Runs until SIGTERM or SIGINT; returns the exit status."""
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        try:
            listener = self._bind()
        except OSError as error:
            logger.error("boardweaver: cannot listen on %s:%d: %s", self.host, self.port, error)
            return 1
        try:
            self.workers = [await self._spawn(index) for index in range(self.count)]
            while not (stop.is_set() or self.failed or all(w.ready for w in self.workers)):
                self.changed.clear()
                await _first(self.changed.wait(), stop.wait())
            if self.failed or stop.is_set():
                if self.failed:
                    logger.error("boardweaver: %s; stopping", self.failed)
                return 1 if self.failed else 0
            listener.listen(2048)
            self.serving = True
            self._start(self._accept(listener))
            self._start(self._sweep())
            pids = ", ".join(str(w.proc.pid) for w in self.workers)
            logger.info(
                "boardweaver: serving http://%s:%d with %d workers (pids %s)", self.host, self.port, self.count, pids
            )
            await stop.wait()
            logger.info("boardweaver: stopping")
            return 0
        finally:
            self.stopping = True
            tasks = list(self._tasks)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)  # the accept loop lets go of the listener
            listener.close()
            await self._stop()

    def _bind(self) -> socket.socket:
        family, kind, proto, _, address = socket.getaddrinfo(
            self.host, self.port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        listener = socket.socket(family, kind, proto)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(address)
        listener.setblocking(False)
        return listener

    def _start(self, coroutine: Any) -> None:
        task = asyncio.create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _stop(self) -> None:
        loop = asyncio.get_running_loop()
        for fd, (conn, _) in list(self._peeking.items()):
            loop.remove_reader(fd)
            conn.close()
        self._peeking.clear()
        for worker in self.workers:
            while worker.pending:
                worker.pending.popleft()[1].close()
            if worker.proc.poll() is None:
                worker.proc.terminate()
        deadline = time.monotonic() + STOP_TIMEOUT
        for worker in self.workers:
            try:
                await loop.run_in_executor(self._waiter, worker.proc.wait, max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                logger.error("worker %d (pid %d) did not stop in time; killing it", worker.index, worker.proc.pid)
                worker.proc.kill()
                await loop.run_in_executor(self._waiter, worker.proc.wait)
            with contextlib.suppress(OSError):
                worker.fds.close()
            await worker.channel.close()
        self._waiter.shutdown(wait=False)

    # -- workers ---------------------------------------------------------------------------------------

    async def _spawn(self, index: int, pending: collections.deque[tuple[float, socket.socket]] | None = None) -> Worker:
        fds, fds_child = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        ctl, ctl_child = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        config = {
            **self.config,
            "index": index,
            "count": self.count,
            "fds": fds_child.fileno(),
            "ctl": ctl_child.fileno(),
        }
        command = [sys.executable, "-m", "boardweaver_server.workers", json.dumps(config)]
        proc = subprocess.Popen(command, pass_fds=(fds_child.fileno(), ctl_child.fileno()))
        fds_child.close()
        ctl_child.close()
        fds.setblocking(False)
        worker = Worker(index, proc, fds, Channel(lambda message: self._handle(worker, message)), time.monotonic())
        if pending is not None:  # connections that came for the worker this one replaces
            worker.pending = pending
        await worker.channel.open(ctl)
        self._start(self._watch(worker))
        return worker

    async def _watch(self, worker: Worker) -> None:
        code = await asyncio.get_running_loop().run_in_executor(self._waiter, worker.proc.wait)
        worker.ready = False
        self._stop_writing(worker)
        with contextlib.suppress(OSError):
            worker.fds.close()
        await worker.channel.close()
        if self.stopping:
            return
        if not self.serving:
            self.failed = f"worker {worker.index} (pid {worker.proc.pid}) exited with {code} while starting"
            self.changed.set()
            return
        logger.error("worker %d (pid %d) exited with %s; starting it again", worker.index, worker.proc.pid, code)
        if time.monotonic() - worker.started < 5:
            await asyncio.sleep(1)  # a worker that dies at once is not restarted in a tight loop
        if self.stopping:
            return
        self.workers[worker.index] = await self._spawn(worker.index, worker.pending)

    async def _handle(self, worker: Worker, message: Message) -> Message | None:
        op = message.get("op")
        if op == "ready":
            for room in message.get("rooms", []):
                self.owners[room] = worker.index
            worker.ready = True
            logger.info("worker %d (pid %d) ready with %d rooms", worker.index, worker.proc.pid, len(message["rooms"]))
            self._flush(worker)
            self.changed.set()
            return {}
        if op == "created":
            self.owners[str(message.get("room"))] = worker.index
            return {}
        if op == "owner":
            return {"owner": self.owners.get(str(message.get("room")))}
        if op == "lobby":
            return {"rooms": await self._lobby(worker)}
        raise ValueError(f"expected a request among ['ready', 'created', 'owner', 'lobby'], got {op!r}")

    async def _lobby(self, asker: Worker) -> list[Any]:
        others = [w for w in self.workers if w is not asker and w.ready]
        replies = await asyncio.gather(
            *(w.channel.request({"op": "statuses"}, timeout=5) for w in others), return_exceptions=True
        )
        rooms: list[Any] = []
        for worker, reply in zip(others, replies, strict=True):
            if isinstance(reply, dict):
                rooms.extend(reply.get("rooms", []))
            else:
                logger.warning("worker %d did not list its rooms: %r", worker.index, reply)
        return rooms

    # -- connections -----------------------------------------------------------------------------------

    async def _accept(self, listener: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                conn, _ = await loop.sock_accept(listener)
            except OSError as error:  # out of file descriptors, for one: wait, then accept again
                logger.error("accept failed: %s", error)
                await asyncio.sleep(0.1)
                continue
            conn.setblocking(False)
            if conn.family in (socket.AF_INET, socket.AF_INET6):
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self._peeking[conn.fileno()] = (conn, time.monotonic() + PEEK_TIMEOUT)
            self._peek(conn)

    def _peek(self, conn: socket.socket) -> None:
        """Waits for the request line without consuming it, then passes the connection on."""
        loop = asyncio.get_running_loop()
        fd = conn.fileno()
        try:
            head = conn.recv(PEEK_LIMIT, socket.MSG_PEEK)
        except BlockingIOError:
            loop.add_reader(fd, self._peeked, conn)
            return
        except OSError:
            head = b""
        if b"\n" in head or len(head) >= PEEK_LIMIT:
            self._peeking.pop(fd, None)
            self._dispatch(conn, head.split(b"\n", 1)[0])
        elif not head:  # closed before a request
            self._peeking.pop(fd, None)
            conn.close()
        else:  # part of a line: look again shortly (the socket stays readable, so no reader meanwhile)
            loop.call_later(0.005, self._repeek, conn)

    def _peeked(self, conn: socket.socket) -> None:
        asyncio.get_running_loop().remove_reader(conn.fileno())
        self._peek(conn)

    def _repeek(self, conn: socket.socket) -> None:
        if conn.fileno() in self._peeking:
            self._peek(conn)

    def _dispatch(self, conn: socket.socket, line: bytes) -> None:
        _, room = route(line)
        owner = self.owners.get(room) if room is not None else None
        worker = self.workers[owner] if owner is not None else self._next_worker()
        worker.pending.append((time.monotonic(), conn))
        self._flush(worker)

    def _next_worker(self) -> Worker:
        for _ in range(self.count):
            self._turn = (self._turn + 1) % self.count
            if self.workers[self._turn].ready:
                break
        return self.workers[self._turn]

    def _flush(self, worker: Worker) -> None:
        """Passes the worker's waiting connections to it, in order, as far as its socketpair takes them."""
        while worker.ready and worker.pending:
            conn = worker.pending[0][1]
            try:
                socket.send_fds(worker.fds, [b"c"], [conn.fileno()])
            except BlockingIOError:
                if not worker.writing:
                    asyncio.get_running_loop().add_writer(worker.fds.fileno(), self._flush, worker)
                    worker.writing = True
                return
            except OSError:  # the worker is gone: its successor gets them
                return
            worker.pending.popleft()
            conn.close()
        self._stop_writing(worker)

    def _stop_writing(self, worker: Worker) -> None:
        if worker.writing:
            with contextlib.suppress(OSError, ValueError):
                asyncio.get_running_loop().remove_writer(worker.fds.fileno())
            worker.writing = False

    async def _sweep(self) -> None:
        """Closes connections that sent no request line in time, or waited too long for their worker."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(1)
            now = time.monotonic()
            for fd, (conn, deadline) in list(self._peeking.items()):
                if now > deadline:
                    del self._peeking[fd]
                    loop.remove_reader(fd)
                    conn.close()
            for worker in self.workers:
                while worker.pending and now - worker.pending[0][0] > PENDING_TIMEOUT and not worker.ready:
                    worker.pending.popleft()[1].close()


async def _first(*aws: Any) -> None:
    tasks = [asyncio.ensure_future(aw) for aw in aws]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()


def run(host: str, port: int, count: int, config: dict[str, Any]) -> int:
    """Runs the supervisor and its workers until SIGTERM or SIGINT; returns the exit status."""
    return asyncio.run(Supervisor(host, port, count, config).serve())
