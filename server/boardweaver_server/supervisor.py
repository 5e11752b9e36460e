"""The supervisor of `boardweaver serve --workers N`: one port, N worker processes, each room in exactly one.

The supervisor binds the port and accepts every TCP connection; it peeks at the request line (MSG_PEEK: the
bytes stay for the worker) and passes the connection's file descriptor to a worker (`workers.py`), which
serves it with uvicorn's own protocol classes, so no frame goes through the supervisor:
- `/ws/rooms/{id}` and `/api/rooms/{id}...` go to the worker that owns the room (rooms each worker
  recovered at start-up, and rooms each worker creates, reported before the creation is answered);
- `POST /api/rooms` and everything else (pages, the lobby, an unknown room) go to the workers in turn.
A worker that exits is logged and started again; connections for it wait (up to 30 s) until it is back.

A connection is passed on only once its whole request head is here: one that sends no complete head within
`HEADER_TIMEOUT` gets `408`, one whose head passes `MAX_HEADER_BYTES` gets `431` (JSON errors, answered here).
The supervisor also holds what must be counted for the whole server rather than per worker: room sockets per
client and room creations per client per minute (the workers ask before admitting), the lobby of every
worker's rooms (saying which workers did not answer) and the sum of every worker's metrics.
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
from .settings import HEADER_TIMEOUT, MAX_HEADER_BYTES

logger = logging.getLogger("boardweaver.server")
PEEK_LIMIT = MAX_HEADER_BYTES  # a head longer than this without its end is refused here (431)
REPEEK_FIRST = 0.005  # seconds before looking again at a head that came in part (doubled while it does not grow)
REPEEK_MAX = 0.25
PENDING_TIMEOUT = 30.0  # how long a connection waits for its worker to (re)start
STOP_TIMEOUT = 20.0  # how long workers have to drain and finish after SIGTERM (and their notice) before SIGKILL


def head_end(head: bytes) -> int:
    """Returns where the request head ends in `head` (after its blank line), or -1 while it is incomplete."""
    ends = [(i, len(mark)) for mark in (b"\r\n\r\n", b"\n\n") if (i := head.find(mark)) >= 0]
    return min(ends)[0] + min(ends)[1] if ends else -1


def refusal(status: int, reason: str, message: str) -> bytes:
    """Returns a whole HTTP/1.1 response carrying the JSON error `{"error": message}`, closing the connection."""
    body = json.dumps({"error": message}, separators=(",", ":")).encode()
    head = f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
    return head.encode() + b"connection: close\r\n\r\n" + body


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


REQUESTS = ("ready", "created", "owner", "lobby", "metrics", "socket", "socket-closed", "room")


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


@dataclass
class Peeking:
    """A connection whose request head is not all here yet."""

    conn: socket.socket
    deadline: float
    seen: int = 0  # bytes of head at the last look
    delay: float = REPEEK_FIRST


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
        self.header_timeout = float(config.get("header_timeout", HEADER_TIMEOUT))
        self._peeking: dict[int, Peeking] = {}
        self.sockets: dict[str, collections.Counter[int]] = {}  # client -> open room sockets per worker
        self.created: dict[str, collections.deque[float]] = {}  # client -> its room creations of the last minute
        self.errors: collections.Counter[str] = collections.Counter()  # refusals answered here, by code
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
            if self.serving:  # the workers drain (their /readyz says 503) while connections still reach them
                await self._stop_workers()
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
        for fd, peeking in list(self._peeking.items()):
            loop.remove_reader(fd)
            peeking.conn.close()
        self._peeking.clear()
        for worker in self.workers:
            while worker.pending:
                worker.pending.popleft()[1].close()
        await self._stop_workers()
        for worker in self.workers:
            with contextlib.suppress(OSError):
                worker.fds.close()
            await worker.channel.close()
        self._waiter.shutdown(wait=False)

    async def _stop_workers(self) -> None:
        """Sends every worker SIGTERM and waits for it (SIGKILL after `STOP_TIMEOUT`)."""
        loop = asyncio.get_running_loop()
        for worker in self.workers:
            if worker.proc.poll() is None:
                worker.proc.terminate()
        deadline = time.monotonic() + STOP_TIMEOUT + float(self.config.get("drain_notice", 0.0))
        for worker in self.workers:
            try:
                await loop.run_in_executor(self._waiter, worker.proc.wait, max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                logger.error("worker %d (pid %d) did not stop in time; killing it", worker.index, worker.proc.pid)
                worker.proc.kill()
                await loop.run_in_executor(self._waiter, worker.proc.wait)

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
        self._forget_sockets(worker.index)
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
            rooms, missing = await self._gather(worker, "statuses", "rooms")
            return {"rooms": [room for part in rooms for room in part], "missing": missing}
        if op == "metrics":
            samples, missing = await self._gather(worker, "samples", "families")
            return {"workers": samples, "missing": missing, "errors": dict(self.errors)}
        if op == "socket":
            return {"ok": self._admit_socket(worker, str(message.get("client")), int(message.get("limit", 0)))}
        if op == "socket-closed":
            self._release_socket(worker, str(message.get("client")))
            return None
        if op == "room":
            return {"ok": self._admit_room(str(message.get("client")), int(message.get("limit", 0)))}
        raise ValueError(f"expected a request among {list(REQUESTS)!r}, got {op!r}")

    async def _gather(self, asker: Worker, op: str, key: str) -> tuple[list[Any], list[int]]:
        """Asks every other worker for `op`; returns their answers' `key` and the workers that did not answer."""
        others = [w for w in self.workers if w is not asker and w.ready]
        missing = [w.index for w in self.workers if w is not asker and not w.ready]
        replies = await asyncio.gather(
            *(w.channel.request({"op": op}, timeout=5) for w in others), return_exceptions=True
        )
        answers: list[Any] = []
        for worker, reply in zip(others, replies, strict=True):
            if isinstance(reply, dict) and key in reply:
                answers.append(reply[key])
            else:
                logger.warning("worker %d did not answer %r: %r", worker.index, op, reply)
                missing.append(worker.index)
        return answers, sorted(missing)

    # -- limits of the whole server ----------------------------------------------------------------------

    def _admit_socket(self, worker: Worker, client: str, limit: int) -> bool:
        """Counts a room socket of `client` in `worker` unless the client holds `limit` in all workers already."""
        held = self.sockets.setdefault(client, collections.Counter())
        if held.total() >= limit:
            return False
        held[worker.index] += 1
        return True

    def _release_socket(self, worker: Worker, client: str) -> None:
        held = self.sockets.get(client)
        if held is None or held[worker.index] <= 0:
            return
        held[worker.index] -= 1
        if held.total() <= 0:
            del self.sockets[client]

    def _forget_sockets(self, index: int) -> None:
        """Drops the sockets of a worker that exited: they closed with it."""
        for client, held in list(self.sockets.items()):
            held.pop(index, None)
            if held.total() <= 0:
                del self.sockets[client]

    def _admit_room(self, client: str, limit: int) -> bool:
        """Counts a room creation by `client` unless it made `limit` in the last 60 s, in any worker."""
        now = time.monotonic()
        if len(self.created) > 10_000:  # forget clients that made nothing lately
            self.created = {c: times for c, times in self.created.items() if times and times[-1] > now - 60}
        recent = self.created.setdefault(client, collections.deque())
        while recent and recent[0] <= now - 60:
            recent.popleft()
        if len(recent) >= limit:
            return False
        recent.append(now)
        return True

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
            self._peeking[conn.fileno()] = Peeking(conn, time.monotonic() + self.header_timeout)
            self._peek(conn)

    def _peek(self, conn: socket.socket) -> None:
        """Waits for the whole request head without consuming it, then passes the connection on."""
        loop = asyncio.get_running_loop()
        fd = conn.fileno()
        try:
            head = conn.recv(PEEK_LIMIT + 1, socket.MSG_PEEK)
        except BlockingIOError:
            loop.add_reader(fd, self._peeked, conn)
            return
        except OSError:
            head = b""
        peeking = self._peeking.get(fd)
        if peeking is None:
            return
        end = head_end(head)
        if 0 <= end <= PEEK_LIMIT:
            del self._peeking[fd]
            self._dispatch(conn, head.split(b"\n", 1)[0])
        elif len(head) > PEEK_LIMIT:
            del self._peeking[fd]
            self._refuse(
                conn, 431, "Request Header Fields Too Large", f"expected a request head of at most {PEEK_LIMIT} bytes"
            )
        elif not head:  # closed before a request
            del self._peeking[fd]
            conn.close()
        else:  # part of a head: look again soon (it stays readable, so no reader meanwhile); later while it stalls
            peeking.delay = REPEEK_FIRST if len(head) > peeking.seen else min(REPEEK_MAX, peeking.delay * 2)
            peeking.seen = len(head)
            loop.call_later(peeking.delay, self._repeek, conn)

    def _peeked(self, conn: socket.socket) -> None:
        asyncio.get_running_loop().remove_reader(conn.fileno())
        self._peek(conn)

    def _repeek(self, conn: socket.socket) -> None:
        peeking = self._peeking.get(conn.fileno())
        if peeking is not None and peeking.conn is conn:
            self._peek(conn)

    def _refuse(self, conn: socket.socket, status: int, reason: str, message: str) -> None:
        """Answers a connection with a JSON error here, and closes it."""
        self.errors[f"http/{status}"] += 1
        with contextlib.suppress(OSError):
            conn.send(refusal(status, reason, message))
            conn.shutdown(socket.SHUT_WR)
        conn.close()

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
        """Answers 408 to connections whose request head did not come in time; closes those that waited too
        long for their worker."""
        loop = asyncio.get_running_loop()
        tick = min(1.0, self.header_timeout / 4)
        while True:
            await asyncio.sleep(tick)
            now = time.monotonic()
            for fd, peeking in list(self._peeking.items()):
                if now > peeking.deadline:
                    del self._peeking[fd]
                    loop.remove_reader(fd)
                    timeout = f"expected the whole request head within {self.header_timeout:g} s"
                    self._refuse(peeking.conn, 408, "Request Timeout", timeout)
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
