"""Sending one GGP request to a player (aiohttp client), with a time limit."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

import aiohttp

CONTENT_TYPE = "text/acl"


@dataclass(frozen=True)
class Answer:
    text: str | None     # the reply body, None on a timeout or error
    seconds: float       # from sending to the end of the reply (or the failure)
    error: str | None = None


async def send(session: aiohttp.ClientSession, url: str, body: str, timeout: float) -> Answer:
    """POST ``body`` to ``url``; never raises for network errors or timeouts."""
    start = time.monotonic()
    try:
        async with asyncio.timeout(timeout):
            async with session.post(url, data=body.encode(),
                                    headers={"Content-Type": CONTENT_TYPE}) as resp:
                text = await resp.text()
                if resp.status != 200:
                    return Answer(None, time.monotonic() - start, f"HTTP {resp.status}: {text}")
                return Answer(text.strip(), time.monotonic() - start)
    except TimeoutError:
        return Answer(None, time.monotonic() - start, f"no reply within {timeout:.1f} s")
    except aiohttp.ClientError as exc:
        return Answer(None, time.monotonic() - start, f"{type(exc).__name__}: {exc}")
