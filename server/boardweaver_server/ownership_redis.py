"""The Redis back end of room ownership and fan-out (`ownership.Backend`, redis-py's asyncio client).

Leases are keys set with `SET NX PX` to the holding process's id; renewal and release are Lua scripts that
compare the value first (a process never extends or deletes a lease another process took). Channels are Redis
pub/sub channels, read by one subscriber connection per process.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from redis import asyncio as aioredis

from .ownership import Handler, logger

RENEW = """
local done = {}
for i, key in ipairs(KEYS) do
    if redis.call('GET', key) == ARGV[1] then
        redis.call('PEXPIRE', key, ARGV[2])
        done[i] = 1
    else
        done[i] = 0
    end
end
return done
"""
RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('DEL', KEYS[1])
end
return 0
"""


REDIS_CONNECTIONS = 64  # a process's connections to Redis at most (commands wait for a free one)


class RedisBackend:
    """Leases and channels on a Redis server, named by its URL (`redis://host:port/db`)."""

    shared = True

    def __init__(self, url: str) -> None:
        self.url = url
        self.redis: Any = None
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._handlers: dict[str, Handler] = {}
        self._subscribing: dict[str, asyncio.Future[None]] = {}

    async def start(self) -> None:
        # A burst (a thousand rooms created, every lease taken at once) waits for one of the pool's connections
        # instead of failing with "Too many connections", as redis-py's default pool does past its bound.
        pool = aioredis.BlockingConnectionPool.from_url(
            self.url, max_connections=REDIS_CONNECTIONS, timeout=20, decode_responses=True, health_check_interval=0
        )
        self.redis = aioredis.Redis.from_pool(pool)  # closed with the client
        await self.redis.ping()
        self._renew = self.redis.register_script(RENEW)
        self._release = self.redis.register_script(RELEASE)
        self._pubsub = self.redis.pubsub()

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader
            self._reader = None
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        if self.redis is not None:
            await self.redis.aclose()

    async def take(self, key: str, owner: str, ttl_ms: int) -> bool:
        return bool(await self.redis.set(key, owner, nx=True, px=ttl_ms))

    async def renew(self, keys: list[str], owner: str, ttl_ms: int) -> list[bool]:
        done = await self._renew(keys=keys, args=[owner, ttl_ms])
        return [bool(flag) for flag in done]

    async def give_up(self, key: str, owner: str) -> bool:
        return bool(await self._release(keys=[key], args=[owner]))

    async def holder(self, key: str) -> str | None:
        value = await self.redis.get(key)
        return None if value is None else str(value)

    async def publish(self, messages: list[tuple[str, str]]) -> list[int]:
        if len(messages) == 1:
            return [int(await self.redis.publish(*messages[0]))]
        async with self.redis.pipeline(transaction=False) as pipe:
            for channel, data in messages:
                pipe.publish(channel, data)
            return [int(count) for count in await pipe.execute()]

    async def subscribe(self, channel: str, handler: Handler) -> None:
        self._handlers[channel] = handler
        subscribed = asyncio.get_running_loop().create_future()
        self._subscribing[channel] = subscribed
        await self._pubsub.subscribe(channel)
        if self._reader is None:
            self._reader = asyncio.create_task(self._read_forever(), name="boardweaver-redis-subscriber")
        try:
            await asyncio.wait_for(subscribed, 10)  # only then may anyone publish to it
        finally:
            self._subscribing.pop(channel, None)

    async def unsubscribe(self, channel: str) -> None:
        if self._handlers.pop(channel, None) is not None:
            await self._pubsub.unsubscribe(channel)

    async def _read_forever(self) -> None:
        while True:
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except Exception as error:  # the connection dropped: redis-py reconnects and subscribes again
                logger.error("the Redis subscriber failed (%s: %s); reading again", type(error).__name__, error)
                await asyncio.sleep(0.5)
                continue
            if message is None:
                continue
            channel = message.get("channel")
            if message["type"] == "subscribe":
                waiting = self._subscribing.get(channel)
                if waiting is not None and not waiting.done():
                    waiting.set_result(None)
            elif message["type"] == "message":
                handler = self._handlers.get(channel)
                if handler is not None:
                    handler(message["data"])
