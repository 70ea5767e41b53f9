"""Shared pieces of the GGP tests: a player served on loopback, requests, rules."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp

from engine.gdl.sheets import PACKAGED
from protocols.ggp.player import GgpPlayer, PlayerConfig
from protocols.ggp.server import MAX_BODY, bound_port, make_app, serve

GAMES = PACKAGED


def rules(name: str) -> str:
    return (GAMES / f"{name}.kif").read_text()


@asynccontextmanager
async def served(config: PlayerConfig, max_body: int = MAX_BODY, **kwargs: Any
                 ) -> AsyncIterator[tuple[str, GgpPlayer]]:
    """A player on 127.0.0.1 (any free port): yields (url, player)."""
    player = GgpPlayer(config, **kwargs)
    runner = await serve(make_app(player, max_body=max_body), "127.0.0.1", 0)
    try:
        yield f"http://127.0.0.1:{bound_port(runner)}/", player
    finally:
        await runner.cleanup()


async def post(session: aiohttp.ClientSession, url: str, body: str | bytes,
               timeout: float = 30.0) -> tuple[int, str, dict[str, str]]:
    async with session.post(url, data=body if isinstance(body, bytes) else body.encode(),
                            headers={"Content-Type": "text/acl"},
                            timeout=aiohttp.ClientTimeout(total=timeout)) as resp:
        return resp.status, (await resp.text()).strip(), dict(resp.headers)
