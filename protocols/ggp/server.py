"""The GGP player's HTTP server (aiohttp): POST a KIF message, get the KIF reply.

``make_app(player)`` builds the application: one handler for every path (game
masters post to ``/``), CORS headers on every answer and a preflight ``OPTIONS``
handler (browser-based game masters), ``text/acl`` replies.  Bad requests get an
HTTP error and the player keeps serving: an empty or malformed body 400, an unknown
message 400, an oversized body 413 (``MAX_BODY`` bytes).  ``GET /status`` gives the
player's status as JSON (which reasoner plays, where the moves came from, the
grounding cache); any other GET gives the info reply.  The player lives in the
app under a typed key; the cleanup context ends any match (and its search thread)
when the server shuts down.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

from aiohttp import web

from protocols.ggp import kif
from protocols.ggp.player import GgpPlayer, PlayerConfig

log = logging.getLogger(__name__)

MAX_BODY = 8 * 1024 * 1024  # bytes; the largest GGP rule sheets are ~1 MB
PLAYER_KEY = web.AppKey("player", GgpPlayer)
CORS = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": "POST, GET, OPTIONS",
    "Access-Control-Allow-Headers": "Content-Type, Content-Length, Receiver, Sender",
    "Access-Control-Max-Age": "86400",
}
CONTENT_TYPE = "text/acl"


def _reply(text: str, status: int = 200) -> web.Response:
    return web.Response(text=text, status=status, content_type=CONTENT_TYPE, headers=CORS)


async def handle_post(request: web.Request) -> web.Response:
    arrival = asyncio.get_running_loop().time()
    player = request.app[PLAYER_KEY]
    try:
        raw = await request.read()
    except web.HTTPRequestEntityTooLarge:
        return _reply("body too large", 413)
    try:
        body = raw.decode("utf-8")
    except UnicodeDecodeError:
        return _reply("body is not UTF-8", 400)
    if not body.strip():
        return _reply("empty request", 400)
    try:
        message = kif.parse_message(body)
    except kif.KifError as exc:
        log.info("bad request: %s", exc)
        return _reply(f"bad request: {exc}", 400)
    log.debug("request %s", type(message).__name__)
    reply = await player.handle(message, arrival)
    return _reply(reply)


async def handle_get(request: web.Request) -> web.Response:
    """A browser opening the address sees the info reply."""
    return _reply(await request.app[PLAYER_KEY].handle(kif.Info(), 0.0))


async def handle_status(request: web.Request) -> web.Response:
    """``GET /status``: what the player is doing (reasoner, move sources, grounding
    cache), as JSON, for the operator."""
    return web.json_response(request.app[PLAYER_KEY].status(), headers=CORS)


async def handle_options(_request: web.Request) -> web.Response:
    return web.Response(status=204, headers=CORS)


def make_app(player: GgpPlayer | None = None, config: PlayerConfig | None = None,
             max_body: int = MAX_BODY) -> web.Application:
    app = web.Application(client_max_size=max_body)
    app[PLAYER_KEY] = player or GgpPlayer(config)

    async def lifetime(app: web.Application) -> AsyncIterator[None]:
        yield
        app[PLAYER_KEY].close()

    app.cleanup_ctx.append(lifetime)
    app.router.add_route("POST", "/{tail:.*}", handle_post)
    app.router.add_route("GET", "/status", handle_status)
    app.router.add_route("GET", "/{tail:.*}", handle_get)
    app.router.add_route("OPTIONS", "/{tail:.*}", handle_options)
    return app


async def serve(app: web.Application, host: str, port: int) -> web.AppRunner:
    """Start ``app`` on host:port (port 0: any free port); returns the runner
    (``runner.addresses`` gives the bound port; ``await runner.cleanup()`` ends it)."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    return runner


def bound_port(runner: web.AppRunner) -> int:
    return int(runner.addresses[0][1])
