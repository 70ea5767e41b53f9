"""The GGP player's HTTP server: POST a KIF message, get the KIF reply.

A small HTTP/1.1 server on asyncio streams, not a web framework: game masters in the
field end the lines of the request head with ``\\r\\n`` or with a bare ``\\n`` (older
ggp-base GameServers write their headers with Java's ``println``), and both are
accepted, as ggp-base's own player accepts them (aiohttp's request parser refuses the
bare ``\\n`` with ``400 Bad status line``).  What it serves:

- ``POST`` to any path (game masters post to ``/``): the body is one KIF message,
  answered by the player with content type ``text/acl``;
- ``GET /status``: the player's status as JSON (which reasoner plays, where the moves
  came from, the grounding cache); any other ``GET`` (a browser) the info reply;
- ``OPTIONS``: a CORS preflight (browser-based game masters); CORS headers go on
  every answer.

A request the player cannot answer for lack of memory or threads gets ``503``
(a PLAY first gets an emergency legal move if one is known), never ``500``.
Bad requests get an HTTP error and the player keeps serving: an empty, non-UTF-8 or
malformed body or an unknown message 400, a body over ``max_body`` bytes 413, a head
that is not HTTP 400 (and the connection is closed).  The body is read by its
``Content-Length`` (or chunked); ``Expect: 100-continue`` is answered.  Connections
are kept alive (HTTP/1.1, or 1.0 with ``Connection: keep-alive``).  Each connection
is served by its own task, so a client that stalls holds up no other; a request not
complete ``request_seconds`` after its first line, or a kept-alive connection idle
for ``idle_seconds``, is closed.  A request's clock starts when its request line
arrives.  ``Runner.cleanup()`` closes the listener and every connection and ends any
match (and its search thread).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import dataclass, field

from protocols.ggp import kif
from protocols.ggp.player import GgpPlayer, PlayerConfig, Unavailable

log = logging.getLogger(__name__)

MAX_BODY = 8 * 1024 * 1024  # bytes; the largest GGP rule sheets are ~1 MB
MAX_LINE = 8190             # bytes in the request line or one header line
MAX_HEADERS = 128
READ_LIMIT = 64 * 1024      # the stream's buffer: a longer line is refused at once
REQUEST_SECONDS = 60.0      # from the request line to the end of the body
IDLE_SECONDS = 75.0         # a kept-alive connection with no request
CORS = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": "POST, GET, OPTIONS",
    "Access-Control-Allow-Headers": "Content-Type, Content-Length, Receiver, Sender",
    "Access-Control-Max-Age": "86400",
}
CONTENT_TYPE = "text/acl; charset=utf-8"
REASONS = {100: "Continue", 200: "OK", 204: "No Content", 400: "Bad Request",
           404: "Not Found", 405: "Method Not Allowed", 408: "Request Timeout",
           413: "Payload Too Large", 431: "Request Header Fields Too Large",
           500: "Internal Server Error", 503: "Service Unavailable",
           505: "HTTP Version Not Supported"}


class HttpError(Exception):
    """A request that cannot be served: answered with ``status`` and the connection
    closed."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status = status
        self.text = text


@dataclass
class Request:
    method: str
    path: str
    version: str                # "HTTP/1.1" or "HTTP/1.0"
    headers: dict[str, str]     # names lower-cased
    arrival: float              # loop time the request line arrived
    body: bytes = b""

    @property
    def keep_alive(self) -> bool:
        tokens = {t.strip().lower() for t in self.headers.get("connection", "").split(",")}
        if self.version == "HTTP/1.0":
            return "keep-alive" in tokens
        return "close" not in tokens


@dataclass
class Response:
    status: int
    body: bytes = b""
    content_type: str | None = CONTENT_TYPE
    headers: dict[str, str] = field(default_factory=lambda: dict(CORS))


def _text(text: str, status: int = 200) -> Response:
    return Response(status, text.encode())


@dataclass
class App:
    """The player and the server's limits (``make_app``)."""
    player: GgpPlayer
    max_body: int = MAX_BODY
    request_seconds: float = REQUEST_SECONDS
    idle_seconds: float = IDLE_SECONDS


def make_app(player: GgpPlayer | None = None, config: PlayerConfig | None = None,
             max_body: int = MAX_BODY, request_seconds: float = REQUEST_SECONDS,
             idle_seconds: float = IDLE_SECONDS) -> App:
    return App(player or GgpPlayer(config), max_body, request_seconds, idle_seconds)


# -- reading a request ---------------------------------------------------------------

async def _line(reader: asyncio.StreamReader) -> str | None:
    """One line of the head without its ``\\r\\n`` or ``\\n``; None at the end of the
    stream before any byte of it."""
    try:
        raw = await reader.readuntil(b"\n")
    except asyncio.IncompleteReadError as exc:
        if not exc.partial:
            return None
        raise HttpError(400, "the request ended in the middle of a line") from None
    except asyncio.LimitOverrunError:
        raise HttpError(431, f"a line of the request head is over {MAX_LINE} bytes") \
            from None
    if len(raw) > MAX_LINE + 2:
        raise HttpError(431, f"a line of the request head is over {MAX_LINE} bytes")
    return raw.rstrip(b"\n").rstrip(b"\r").decode("latin-1")


async def _request_line(reader: asyncio.StreamReader) -> tuple[str, str, str] | None:
    line = ""
    while not line:  # empty lines before a request are ignored (RFC 9112, 2.2)
        got = await _line(reader)
        if got is None:
            return None
        line = got.strip()
    parts = line.split()
    if len(parts) != 3 or not parts[2].startswith("HTTP/"):
        raise HttpError(400, f"bad request line {line[:80]!r}")
    method, target, version = parts
    if version not in ("HTTP/1.0", "HTTP/1.1"):
        raise HttpError(505, f"{version} is not served (HTTP/1.0 and 1.1 are)")
    return method.upper(), target.split("?", 1)[0], version


async def _headers(reader: asyncio.StreamReader) -> dict[str, str]:
    headers: dict[str, str] = {}
    last = ""
    while True:
        line = await _line(reader)
        if line is None:
            raise HttpError(400, "the request ended in its head")
        if not line.strip():
            return headers
        if line[0] in " \t" and last:  # an obsolete folded line continues the last
            headers[last] += " " + line.strip()
            continue
        name, sep, value = line.partition(":")
        name = name.strip().lower()
        if not sep or not name or any(c in name for c in " \t"):
            raise HttpError(400, f"bad header line {line[:80]!r}")
        if len(headers) >= MAX_HEADERS:
            raise HttpError(431, f"over {MAX_HEADERS} headers")
        value = value.strip()
        if name in headers and name != "content-length":
            headers[name] += ", " + value
        elif name in headers and headers[name] != value:
            raise HttpError(400, "two different Content-Length headers")
        else:
            headers[name] = value
        last = name


async def _body(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                headers: dict[str, str], max_body: int) -> bytes:
    chunked = "chunked" in headers.get("transfer-encoding", "").lower()
    length_text = headers.get("content-length")
    length = 0
    if not chunked and length_text is not None:
        if not length_text.isdigit():
            raise HttpError(400, f"bad Content-Length {length_text[:40]!r}")
        length = int(length_text)
        if length > max_body:
            raise HttpError(413, "body too large")
    if headers.get("expect", "").lower() == "100-continue" and (chunked or length):
        writer.write(b"HTTP/1.1 100 Continue\r\n\r\n")
        await writer.drain()
    try:
        if not chunked:
            return await reader.readexactly(length)
        return await _chunks(reader, max_body)
    except asyncio.IncompleteReadError:
        raise HttpError(400, "the request ended in its body") from None


async def _chunks(reader: asyncio.StreamReader, max_body: int) -> bytes:
    body = bytearray()
    while True:
        size_line = await _line(reader)
        if size_line is None:
            raise HttpError(400, "the request ended in its body")
        try:
            size = int(size_line.split(";", 1)[0].strip(), 16)
        except ValueError:
            raise HttpError(400, f"bad chunk size {size_line[:40]!r}") from None
        if size < 0:
            raise HttpError(400, "bad chunk size")
        if size == 0:
            while await _line(reader):  # trailer lines, up to an empty one (or the end)
                pass
            return bytes(body)
        if len(body) + size > max_body:
            raise HttpError(413, "body too large")
        body += await reader.readexactly(size)
        if await _line(reader) != "":
            raise HttpError(400, "a chunk does not end with a line end")


async def _read_request(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                        app: App) -> Request | None:
    """The next request; None when the client closed or stayed idle; HttpError on a
    request that cannot be served (or that did not arrive in time: 408)."""
    loop = asyncio.get_running_loop()
    try:
        async with asyncio.timeout(app.idle_seconds):
            first = await _request_line(reader)
    except TimeoutError:
        return None
    if first is None:
        return None
    arrival = loop.time()
    method, path, version = first
    try:
        async with asyncio.timeout(app.request_seconds):
            headers = await _headers(reader)
            request = Request(method, path, version, headers, arrival)
            if method == "POST" or "content-length" in headers \
                    or "transfer-encoding" in headers:
                request.body = await _body(reader, writer, headers, app.max_body)
    except TimeoutError:
        raise HttpError(408, f"the request was not complete after "
                             f"{app.request_seconds:g} s") from None
    return request


# -- answering -----------------------------------------------------------------------

async def _answer(app: App, request: Request) -> Response:
    player = app.player
    if request.method == "POST":
        return await _post(player, request)
    if request.method in ("GET", "HEAD"):
        if request.path == "/status":
            return Response(200, json.dumps(player.status()).encode(),
                            "application/json; charset=utf-8")
        return _text(await player.handle(kif.Info(), 0.0))  # a browser: the info reply
    if request.method == "OPTIONS":
        return Response(204, content_type=None)
    response = _text(f"{request.method} is not served", 405)
    response.headers["Allow"] = "POST, GET, HEAD, OPTIONS"
    return response


async def _post(player: GgpPlayer, request: Request) -> Response:
    try:
        body = request.body.decode("utf-8")
    except UnicodeDecodeError:
        return _text("body is not UTF-8", 400)
    if not body.strip():
        return _text("empty request", 400)
    try:
        message = kif.parse_message(body)
    except kif.KifError as exc:
        log.info("bad request: %s", exc)
        return _text(f"bad request: {exc}", 400)
    log.debug("request %s", type(message).__name__)
    return _text(await player.handle(message, request.arrival))


def _encode(response: Response, version: str, keep_alive: bool, head_only: bool) -> bytes:
    lines = [f"{version} {response.status} {REASONS.get(response.status, 'Unknown')}"]
    headers = dict(response.headers)
    if response.content_type is not None:
        headers["Content-Type"] = response.content_type
    if response.status != 204:
        headers["Content-Length"] = str(len(response.body))
    headers["Connection"] = "keep-alive" if keep_alive else "close"
    lines += [f"{k}: {v}" for k, v in headers.items()]
    head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
    return head if head_only or response.status == 204 else head + response.body


class Runner:
    """A listening server (``serve``): ``addresses``, ``await cleanup()``."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.server: asyncio.Server | None = None
        self._connections: set[asyncio.Task] = set()

    @property
    def addresses(self) -> list[tuple]:
        return [s.getsockname() for s in self.server.sockets] if self.server else []

    async def connection(self, reader: asyncio.StreamReader,
                         writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._connections.add(task)
        try:
            await self._serve(reader, writer)
        except (ConnectionError, asyncio.CancelledError):
            pass
        except Exception:  # one connection's failure never stops the server
            log.exception("serving a connection")
        finally:
            if task is not None:
                self._connections.discard(task)
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader,
                     writer: asyncio.StreamWriter) -> None:
        while True:
            try:
                request = await _read_request(reader, writer, self.app)
            except HttpError as exc:
                log.info("bad HTTP request: %s", exc.text)
                writer.write(_encode(_text(exc.text, exc.status), "HTTP/1.1", False, False))
                await writer.drain()
                return
            if request is None:
                return
            try:
                response = await _answer(self.app, request)
            except Unavailable as exc:  # out of memory or threads: try again later
                log.error("answering %s %s: %s", request.method, request.path, exc)
                response = _text(str(exc), 503)
            except Exception:  # a clean refusal, never a 500: the player keeps serving
                log.exception("answering %s %s", request.method, request.path)
                response = _text("the player cannot answer now", 503)
            keep = request.keep_alive
            writer.write(_encode(response, request.version, keep, request.method == "HEAD"))
            await writer.drain()
            if not keep:
                return

    async def cleanup(self) -> None:
        """Stop listening, close every connection, end the player's match."""
        if self.server is not None:
            self.server.close()
        for task in list(self._connections):
            task.cancel()
        if self._connections:
            await asyncio.wait(list(self._connections), timeout=5)
        if self.server is not None:
            await self.server.wait_closed()
            self.server = None
        self.app.player.close()


async def serve(app: App, host: str, port: int) -> Runner:
    """Start ``app`` on host:port (port 0: any free port); returns the runner
    (``bound_port(runner)`` gives the port; ``await runner.cleanup()`` ends it)."""
    runner = Runner(app)
    runner.server = await asyncio.start_server(runner.connection, host, port,
                                               limit=READ_LIMIT)
    return runner


def bound_port(runner: Runner) -> int:
    return int(runner.addresses[0][1])
