"""The room protocol (`roomproto`): room sockets served by uvicorn's WebSocket protocol without ASGI per frame.

Each test runs a real uvicorn with the protocol `boardweaver serve` uses and real WebSocket clients, and
checks what the socket carries: the same frames as through ASGI, compressed or not, whole messages sent
in fragments, bad frames refused, and every close code.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from boardweaver_server import roomproto
from boardweaver_server import rooms as rooms_module
from boardweaver_server.sockets import SocketLimits
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import Frame
from websockets.protocol import State
from websockets.server import ServerProtocol
from websockets.streams import StreamReader

from tests.server.conftest import LiveServer, create_room, make_app
from tests.server.roomproto_stand_in import Reading, StandInTransport, WebsocketsReading, reading_protocol

FAST = SocketLimits(rate=10_000, burst=10_000)
PLAY = [{"type": "command", "name": "play", "args": {"index": 0}}]


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[LiveServer, list[Any]]]:
    """A live server with the room protocol, and the list of room sockets it served without ASGI."""
    fast: list[Any] = []
    init = roomproto.FastSocket.__init__

    def counting_init(self: roomproto.FastSocket, *args: Any) -> None:
        fast.append(self)
        init(self, *args)

    monkeypatch.setattr(roomproto.FastSocket, "__init__", counting_init)
    with LiveServer(make_app(tmp_path / "rooms.db", socket_limits=FAST, bot_delay=30)) as server:
        yield server, fast


def _draw_discard(server: LiveServer) -> dict[str, Any]:
    with httpx.Client(base_url=server.http) as http:
        return create_room(http, "draw-discard", 4, options={"endless": True})


def _hello(room: dict[str, Any], seat: int) -> str:
    return json.dumps({"type": "hello", "role": "seat", "seat": seat, "token": room["tokens"][seat]})


async def _recv(ws: ClientConnection) -> dict[str, Any]:
    frame: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
    return frame


async def _play_moves(server: LiveServer, room: dict[str, Any], moves: int, compression: str | None) -> list[str]:
    """Plays `moves` moves of draw-discard with one socket per seat; returns every frame seat 0 received."""
    url = server.ws(room["room"])
    got: list[str] = []
    sockets = [await connect(url, compression=compression, max_size=None) for _ in range(4)]
    try:
        for seat, ws in enumerate(sockets):
            await ws.send(_hello(room, seat))
            text = str(await asyncio.wait_for(ws.recv(), 10))
            if seat == 0:
                got.append(text)
        for seq in range(moves):
            mover = seq % 4
            commit = {"type": "commit", "baseSeq": seq, "steps": PLAY, "commitId": f"m{seq}"}
            await sockets[mover].send(json.dumps(commit))
            for seat, ws in enumerate(sockets):
                text = str(await asyncio.wait_for(ws.recv(), 10))
                assert json.loads(text)["seq"] == seq + 1
                if seat == 0:
                    got.append(text)
    finally:
        for ws in sockets:
            await ws.close()
    return got


@pytest.mark.parametrize("compression", [None, "deflate"], ids=["plain", "permessage-deflate"])
def test_a_game_through_the_room_protocol_sends_the_same_bytes_as_through_asgi(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, compression: str | None, served: tuple[LiveServer, list[Any]]
) -> None:
    server, fast = served
    monkeypatch.setattr(rooms_module.secrets, "token_hex", lambda size: "5eed" * (size // 2))  # both deal alike
    with LiveServer(make_app(tmp_path / "asgi.db", socket_limits=FAST, bot_delay=30), "websockets-sansio") as asgi:
        direct_room, asgi_room = _draw_discard(server), _draw_discard(asgi)

        direct = asyncio.run(_play_moves(server, direct_room, 40, compression))  # 40 moves: a reshuffle
        through_asgi = asyncio.run(_play_moves(asgi, asgi_room, 40, compression))

    assert len(fast) == 4, "every seat's socket was served by the room protocol"
    assert [text.replace(direct_room["room"], "ROOM") for text in direct] == [
        text.replace(asgi_room["room"], "ROOM") for text in through_asgi
    ]
    assert [json.loads(text)["type"] for text in direct] == ["snapshot"] + ["event"] * 40


def test_a_message_sent_in_fragments_is_one_commit(served: tuple[LiveServer, list[Any]]) -> None:
    server, fast = served
    room = _draw_discard(server)

    async def scenario() -> dict[str, Any]:
        async with connect(server.ws(room["room"]), compression=None) as ws:
            await ws.send(_hello(room, 0))
            await _recv(ws)
            text = json.dumps({"type": "commit", "baseSeq": 0, "steps": PLAY, "commitId": "frag"})
            await ws.send([text[:10], text[10:25], text[25:]])  # one message in three frames
            return await _recv(ws)

    frame = asyncio.run(scenario())

    assert fast and frame["type"] == "event" and frame["ack"] == "frag" and frame["seq"] == 1


def test_a_binary_frame_gets_an_error_and_changes_nothing(served: tuple[LiveServer, list[Any]]) -> None:
    server, _ = served
    room = _draw_discard(server)

    async def scenario() -> list[dict[str, Any]]:
        async with connect(server.ws(room["room"]), compression=None) as ws:
            await ws.send(_hello(room, 0))
            await _recv(ws)
            await ws.send(b'{"type":"resync"}')
            error = await _recv(ws)
            await ws.send('{"type":"resync"}')
            return [error, await _recv(ws)]

    error, snapshot = asyncio.run(scenario())

    assert error["code"] == "frame/malformed"
    assert snapshot["type"] == "snapshot" and snapshot["seq"] == 0


def test_invalid_utf8_in_a_text_frame_closes_the_socket_with_1007(served: tuple[LiveServer, list[Any]]) -> None:
    server, _ = served
    room = _draw_discard(server)

    async def scenario() -> int | None:
        async with connect(server.ws(room["room"]), compression=None) as ws:
            await ws.send(_hello(room, 0))
            await _recv(ws)
            await _send_raw_text(ws, b"\xff\xfe")
            return await _close_code(ws)

    code = asyncio.run(scenario())

    assert code == 1007


async def _send_raw_text(ws: ClientConnection, data: bytes) -> None:
    """Sends a text frame whose payload is not checked as UTF-8 (what a broken client might send)."""
    from websockets.frames import Frame, Opcode

    async with ws.send_context():
        ws.protocol.send_frame(Frame(Opcode.TEXT, data))


async def _close_code(ws: ClientConnection) -> int | None:
    """Returns the close code the server ends the socket with next (None if a frame comes instead)."""
    try:
        await asyncio.wait_for(ws.recv(), 10)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None
    return None


def test_a_ping_is_answered_and_a_socket_without_a_hello_is_closed_with_1008(
    served: tuple[LiveServer, list[Any]],
) -> None:
    server, _ = served
    room = _draw_discard(server)

    async def scenario() -> tuple[float, int | None]:
        async with connect(server.ws(room["room"]), compression=None) as ws:
            latency = await asyncio.wait_for(await ws.ping(), 10)
            await ws.send('{"type":"resync"}')  # not a hello
            return latency, await _close_code(ws)

    latency, code = asyncio.run(scenario())

    assert latency >= 0 and code == 1008


def test_a_room_this_process_does_not_hold_goes_through_the_app(served: tuple[LiveServer, list[Any]]) -> None:
    server, fast = served

    async def scenario() -> int | None:
        async with connect(server.ws("no-such-room"), compression=None) as ws:
            await ws.send('{"type":"hello","role":"spectator"}')
            return await _close_code(ws)

    code = asyncio.run(scenario())

    assert code == 1008 and not fast


def test_a_closed_socket_leaves_the_room_and_the_server_stops_with_sockets_open(tmp_path: Path) -> None:
    app = make_app(tmp_path / "rooms.db", socket_limits=FAST, bot_delay=30)
    with LiveServer(app) as server:
        room = _draw_discard(server)
        live = app.state.rooms.get(room["room"])

        async def scenario() -> int | None:
            first = await connect(server.ws(room["room"]), compression=None)
            await first.send(_hello(room, 0))
            await _recv(first)
            await first.close()
            second = await connect(server.ws(room["room"]), compression=None)
            await second.send(_hello(room, 1))
            await _recv(second)
            for _ in range(100):
                if sum(len(group) for group in live.listeners.values()) == 1:
                    break
                await asyncio.sleep(0.02)
            assert sum(len(group) for group in live.listeners.values()) == 1
            server.server.should_exit = True  # the server stops with a socket open: it is closed with 1012
            return await _close_code(second)

        code = asyncio.run(scenario())

    assert code == 1012
    assert not server.thread.is_alive()


def test_permessage_deflate_is_agreed_with_the_smaller_compressor(served: tuple[LiveServer, list[Any]]) -> None:
    server, _ = served
    room = _draw_discard(server)

    async def scenario() -> tuple[str, dict[str, Any]]:
        async with connect(server.ws(room["room"]), compression="deflate") as ws:
            await ws.send(_hello(room, 0))
            agreed = ws.response.headers.get("Sec-WebSocket-Extensions", "") if ws.response else ""
            return agreed, await _recv(ws)

    agreed, snapshot = asyncio.run(scenario())

    assert "permessage-deflate" in agreed
    assert f"server_max_window_bits={roomproto.DEFLATE_WINDOW_BITS}" in agreed
    assert snapshot["type"] == "snapshot"


class _Transport:
    def __init__(self) -> None:
        self.written: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.written.append(bytes(data))


def _deflating(local_no_context_takeover: bool = False) -> ServerProtocol:
    conn = ServerProtocol()
    conn.state = State.OPEN
    conn.extensions = [
        PerMessageDeflate(
            False,
            local_no_context_takeover,
            roomproto.DEFLATE_WINDOW_BITS,
            12,
            {"memLevel": roomproto.DEFLATE_MEM_LEVEL, "level": roomproto.DEFLATE_LEVEL},
        )
    ]
    return conn


@pytest.mark.parametrize("no_context_takeover", [False, True], ids=["context-kept", "server-no-context-takeover"])
def test_frames_compressed_here_are_websockets_own_bytes(no_context_takeover: bool) -> None:
    """With permessage-deflate the room protocol compresses and frames a message itself (websockets' path costs
    a Frame, its checks and a BytesIO a frame); the bytes must be those websockets writes, message after message
    (the compressor's context carries over), for every length's header, and decompress to the text."""
    texts = [b'{"type":"event","seq":1}', b"x" * 200, json.dumps(list(range(30_000))).encode(), "é, 7♥".encode()]
    texts += [b'{"type":"event","seq":%d,"patch":[["set",["active",0],%d]]}' % (n, n % 4) for n in range(40)]
    protocol = object.__new__(roomproto.RoomWebSocketProtocol)
    protocol.conn = _deflating(no_context_takeover)
    protocol.transport = _Transport()  # type: ignore[assignment]
    protocol._deflate = roomproto._own_deflate(protocol.conn.extensions)
    reference = _deflating(no_context_takeover)
    expected = []
    for text in texts:
        protocol.write_text(text)
        reference.send_text(text)
        expected.append(b"".join(reference.data_to_send()))

    assert (protocol._deflate is None) is no_context_takeover  # without the context kept, websockets frames it
    assert protocol.transport.written == expected  # type: ignore[attr-defined]
    reader = StreamReader()  # the client's side: websockets' own parser and decompressor
    reader.feed_data(b"".join(protocol.transport.written))  # type: ignore[attr-defined]
    decoder = PerMessageDeflate(no_context_takeover, False, 12, roomproto.DEFLATE_WINDOW_BITS)
    received = []
    for _ in texts:
        parser = Frame.parse(reader.read_exact, mask=False, extensions=[decoder])
        try:
            next(parser)
        except StopIteration as done:
            received.append(done.value.data)
    assert received == texts


def test_regression_a_frame_read_while_the_server_closes_a_socket_does_not_end_it_without_its_close_frame(
    served: tuple[LiveServer, list[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A socket the server closes (here its seat given to someone else; the drain and a room moved or expired do
    the same) is marked closed at once and closed by a task. A frame the session read in between ended the session,
    and the connection with it, before that task sent the close frame: the client saw 1006, not 4003 (a fresh-clone
    CI run under load: a balancer test's client got 1006 instead of 1012). The close task is slowed here."""
    server, _ = served
    room = _draw_discard(server)
    close = roomproto.FastSocket.close

    async def slow_close(self: roomproto.FastSocket, code: int, reason: str) -> None:
        await asyncio.sleep(0.5)
        await close(self, code, reason)

    monkeypatch.setattr(roomproto.FastSocket, "close", slow_close)

    async def scenario() -> int | None:
        async with connect(server.ws(room["room"]), compression=None) as ws:
            await ws.send(_hello(room, 0))
            await _recv(ws)
            async with httpx.AsyncClient(base_url=server.http) as http:
                replaced = await http.post(
                    f"/api/rooms/{room['room']}/seats/0/replace",
                    headers={"Authorization": f"Bearer {room['host_token']}"},
                )
            assert replaced.status_code == 200
            await ws.send('{"type":"ping"}')  # read while the socket is closed and its close frame not yet sent
            return await _close_code(ws)

    assert asyncio.run(scenario()) == rooms_module.SEAT_REPLACED


# -- frames in: the room protocol's own reading against websockets' parser ---------------------------------------


MAX_SIZE = 400


def _reading_protocol(kind: type[Reading], deflate: bool) -> tuple[Reading, StandInTransport]:
    return reading_protocol(kind, deflate, MAX_SIZE)


def _client(deflate: bool) -> Any:
    from websockets.client import ClientProtocol
    from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
    from websockets.uri import parse_uri

    extensions = [ClientPerMessageDeflateFactory(client_max_window_bits=12)] if deflate else []
    return ClientProtocol(parse_uri("ws://127.0.0.1:8000/ws/rooms/room"), extensions=extensions, max_size=None)


def _raw_frame(first: int, payload: bytes, masked: bool = True) -> bytes:
    mask = b"\x11\x22\x33\x44"
    size = len(payload)
    header = (
        bytes((first, (0x80 if masked else 0) | size))
        if size < 126
        else bytes((first, (0x80 if masked else 0) | 126)) + size.to_bytes(2, "big")
    )
    from websockets.utils import apply_mask as mask_with

    return header + (mask + mask_with(payload, mask) if masked else payload)


def _client_frames(deflate: bool, steps: list[tuple[str, Any]]) -> tuple[bytes, list[bytes]]:
    """The handshake's request and the frames a client sends for `steps`, framed by websockets' client (masks at
    random), with hand-made frames where a broken client is wanted."""
    from websockets.frames import Opcode

    client = _client(deflate)
    client.send_request(client.connect())
    request = b"".join(client.data_to_send())
    response = _handshake_response(deflate, request)
    client.receive_data(response)
    assert client.state is State.OPEN
    out: list[bytes] = []
    for kind, value in steps:
        if kind == "text":
            client.send_text(value.encode())
        elif kind == "binary":
            client.send_binary(value)
        elif kind == "fragments":
            client.send_text(value[0].encode(), fin=False)
            for part in value[1:-1]:
                client.send_continuation(part.encode(), fin=False)
            client.send_continuation(value[-1].encode(), fin=True)
        elif kind == "ping":
            client.send_ping(value)
        elif kind == "pong":
            client.send_pong(value)
        elif kind == "close":  # by hand: websockets' client sends nothing after it, a broken one might
            out.append(_raw_frame(0x80 | Opcode.CLOSE.value, b"\x03\xe8bye"))
            continue
        elif kind == "bad-utf8":
            out.append(_raw_frame(0x80 | Opcode.TEXT.value, b"ok \xff\xfe"))
            continue
        elif kind == "unmasked":
            out.append(_raw_frame(0x80 | Opcode.TEXT.value, b"{}", masked=False))
            continue
        elif kind == "unfinished":  # a first fragment whose message never ends: a data frame after it is 1002
            out.append(_raw_frame(Opcode.TEXT.value, b"{"))
            continue
        elif kind == "rsv1":  # compressed, but not deflate's: 1002 (or RSV1 without the extension: 1002)
            out.append(_raw_frame(0xC0 | Opcode.TEXT.value, b"\xff\xff\xff\xff"))
            continue
        elif kind == "len64":  # a 64-bit length for 2 bytes: read by websockets
            out.append(bytes((0x80 | Opcode.TEXT.value, 0x80 | 127)) + (2).to_bytes(8, "big") + b"\0\0\0\0{}")
            continue
        elif kind == "rsv2":
            out.append(_raw_frame(0xA0 | Opcode.TEXT.value, b"{}"))
            continue
        out.extend(client.data_to_send())
    return request, [frame for frame in out if frame]


def _handshake_response(deflate: bool, request: bytes) -> bytes:
    async def answer() -> bytes:
        protocol, transport = _reading_protocol(WebsocketsReading, deflate)
        protocol.data_received(request)
        return transport.written[0]

    return asyncio.run(answer())


def _read_all(kind: type[Reading], deflate: bool, request: bytes, chunks: list[bytes]) -> dict[str, Any]:
    async def read() -> dict[str, Any]:
        protocol, transport = _reading_protocol(kind, deflate)
        protocol.data_received(request)
        response = transport.written.pop(0)
        assert response.startswith(b"HTTP/1.1 101")
        for chunk in chunks:
            if transport.closed:
                break
            protocol.data_received(chunk)
        socket = protocol.room_socket
        assert socket is not None
        for task in list(protocol.tasks):
            task.cancel()
        return {
            "messages": list(socket.inbox),
            "written": b"".join(transport.written),
            "closed": transport.closed,
            "state": protocol.conn.state,
            "close_sent": protocol.conn.close_sent,
            "reading": transport.reading,
        }

    return asyncio.run(read())


def _split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({cut % (len(data) + 1) for cut in cuts} | {0, len(data)})
    return [data[a:b] for a, b in itertools.pairwise(points) if b > a]


_texts = st.text(max_size=60)
_steps = st.lists(
    st.one_of(
        st.tuples(st.just("text"), _texts),
        st.tuples(st.just("text"), st.text(min_size=120, max_size=200)),  # a 16-bit length
        st.tuples(st.just("text"), st.just("x" * (MAX_SIZE + 1))),  # too large: 1009
        st.tuples(st.just("binary"), st.binary(max_size=40)),
        st.tuples(st.just("fragments"), st.lists(_texts, min_size=2, max_size=3)),
        st.tuples(st.just("ping"), st.binary(max_size=8)),
        st.tuples(st.just("pong"), st.binary(max_size=8)),
        st.tuples(st.sampled_from(["close", "bad-utf8", "unmasked", "rsv1", "rsv2", "len64", "unfinished"]), st.none()),
    ),
    max_size=8,
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=_steps, cuts=st.lists(st.integers(min_value=0, max_value=4000), max_size=6), deflate=st.booleans())
def test_frames_read_by_the_room_protocol_are_what_websockets_reads(
    steps: list[tuple[str, Any]], cuts: list[int], deflate: bool
) -> None:
    """The same bytes, split anywhere, read by the room protocol's own path and by websockets' parser alone:
    the same messages reach the session, the same bytes are written back (pongs, close frames), the connection
    ends the same way (1002 for a bad frame, 1007 for bad UTF-8, 1009 for a message too large). websockets reads
    them a frame a read: with more in one read, uvicorn drops the messages before a frame that fails the
    connection, and the room protocol does not."""
    request, frames = _client_frames(deflate, steps)
    data = b"".join(frames)
    boundaries = list(itertools.accumulate(len(frame) for frame in frames))

    own = _read_all(Reading, deflate, request, _split(data, cuts))
    reference = _read_all(WebsocketsReading, deflate, request, _split(data, cuts + boundaries))

    assert own == reference


def test_whole_data_frames_are_read_without_websockets_parser_and_it_takes_over_at_other_frames(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A commit's frames, whole or split anywhere, never reach websockets' `Frame.parse`; a ping and a fragmented
    message do, and the room protocol reads again after them."""
    parsed: list[Any] = []
    parse = Frame.parse.__func__  # type: ignore[attr-defined]

    def counting(cls: type[Frame], *args: Any, **kwargs: Any) -> Any:
        frame = yield from parse(cls, *args, **kwargs)
        parsed.append(frame.opcode.name)
        return frame

    monkeypatch.setattr(Frame, "parse", classmethod(counting))
    commit = json.dumps({"type": "commit", "baseSeq": 3, "steps": PLAY, "commitId": "c1"})
    for deflate in (False, True):
        parsed.clear()
        request, data = _client_frames(deflate, [("text", commit)] * 3)
        own = _read_all(Reading, deflate, request, _split(b"".join(data), [1, 7, 70, 140]))
        assert own["messages"] == [commit] * 3 and parsed == []

        request, data = _client_frames(
            deflate, [("text", commit), ("ping", b"p"), ("text", commit), ("fragments", ["a", "b"]), ("text", commit)]
        )
        own = _read_all(Reading, deflate, request, [b"".join(data)])
        assert own["messages"] == [commit, commit, "ab", commit]
        assert parsed == ["PING", "TEXT", "CONT"]  # websockets reads the ping and the fragments alone
