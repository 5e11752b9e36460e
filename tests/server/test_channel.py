"""The supervisor's channel to a worker (`channel.Channel`): requests and replies, and a close that every holder may
await at once (the supervisor's stop and a worker's watcher both close it)."""

from __future__ import annotations

import asyncio
import socket

from boardweaver_server.channel import Channel, Message


async def _echo(message: Message) -> Message:
    return {"echo": message.get("value")}


async def _pair() -> tuple[Channel, Channel]:
    left, right = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    a, b = Channel(_echo), Channel(_echo)
    await a.open(left)
    await b.open(right)
    return a, b


def test_a_request_gets_the_other_sides_answer() -> None:
    async def run() -> Message:
        a, b = await _pair()
        try:
            return await a.request({"op": "ping", "value": 7})
        finally:
            await a.close()
            await b.close()

    reply = asyncio.run(run())

    assert reply["echo"] == 7 and reply["op"] == "reply"


def test_a_close_cancelled_halfway_does_not_cancel_another_close_of_the_same_channel() -> None:
    # the supervisor's stop cancels its tasks, among them a worker's watcher that was closing the channel, then
    # closes every channel itself: that close once raised CancelledError and the server exited 1, not 0
    async def run() -> bool:
        a, b = await _pair()
        watcher = asyncio.create_task(a.close())
        await asyncio.sleep(0)  # the watcher now waits for the socket to close
        watcher.cancel()
        await a.close()
        await b.close()
        return a.closed.is_set()

    assert asyncio.run(run())
