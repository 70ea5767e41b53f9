"""The player's HTTP server read by a raw socket client over loopback, as game masters
in the field write: ggp-base's GameServer (its HttpWriter) writes the request with
Java's ``println``, so every line ends in a bare ``\\n`` on Unix, the body is followed
by one more line end, HTTP/1.0, and the connection is closed after the reply.  Lines
ending in ``\\r\\n`` (every HTTP library) must be read the same.  Move legality is
judged by the reference prover.
"""

from __future__ import annotations

import asyncio

import pytest

from engine.gdl.prover_game import ProverGame
from protocols.ggp import kif
from protocols.ggp.player import PlayerConfig
from protocols.ggp.server import bound_port, make_app, serve
from tests.helpers.ggp import rules

TTT = rules("tictactoe")
FAST = PlayerConfig(bot="uct", max_think=0.1, margin=0.3)
WAIT = 30.0  # seconds a test waits for a reply before failing (not a measure)


def ggp_base_request(body: str, eol: str) -> bytes:
    """A request as ggp-base's HttpWriter.writeAsClient writes it (println)."""
    lines = ["POST / HTTP/1.0", "Accept: text/delim", "Host: 127.0.0.1",
             "Sender: GAMESERVER", "Receiver: miai", "Content-Type: text/acl",
             f"Content-Length: {len(body)}", "", body]
    return "".join(line + eol for line in lines).encode()


def parse_reply(raw: bytes) -> tuple[int, dict[str, str], str]:
    head, _, body = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    assert status_line.split()[0] in ("HTTP/1.0", "HTTP/1.1"), status_line
    return int(status_line.split()[1]), headers, body.decode()


async def exchange(port: int, data: bytes) -> tuple[int, dict[str, str], str]:
    """Send ``data`` on a new connection; the reply read to the end of the stream."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(data)
        await writer.drain()
        return parse_reply(await asyncio.wait_for(reader.read(), WAIT))
    finally:
        writer.close()


async def ask(port: int, body: str, eol: str) -> str:
    status, headers, text = await exchange(port, ggp_base_request(body, eol))
    assert status == 200, text
    assert headers["content-type"].startswith("text/acl")
    assert headers["access-control-allow-origin"] == "*"
    assert int(headers["content-length"]) == len(text.encode())
    return text.strip()


async def play_a_match(port: int, eol: str, match_id: str) -> None:
    """INFO, START, PLAYs to the end (moves checked by the prover), STOP."""
    oracle = ProverGame(TTT)
    assert await ask(port, "(info)", eol) == "((name miai) (status available))"
    assert await ask(port, kif.start_text(match_id, "xplayer", TTT, 10, 2), eol) == "ready"
    state = oracle.initial_state()
    last = "nil"
    while not state.is_terminal():
        move = kif.parse_move_reply(await ask(port, f"(play {match_id} {last})", eol))
        assert move in state.rule_moves(0)
        joint = [move, sorted(state.rule_moves(1))[0]]
        state.play_joint(joint)
        last = "(" + " ".join(joint) + ")"
    assert await ask(port, f"(stop {match_id} {last})", eol) == "done"


@pytest.mark.parametrize("eol", ["\n", "\r\n"], ids=["lf", "crlf"])
def test_requests_with_either_line_end_are_answered(eol: str) -> None:
    async def main() -> None:
        runner = await serve(make_app(config=FAST), "127.0.0.1", 0)
        try:
            await play_a_match(bound_port(runner), eol, "m" + str(len(eol)))
        finally:
            await runner.cleanup()
    asyncio.run(main())


def test_a_kept_alive_connection_with_bare_line_ends_and_other_bodies() -> None:
    """HTTP/1.1 with bare ``\\n``: two pipelined requests on one connection; a chunked
    body; ``Expect: 100-continue``; a request head that is not HTTP gets 400."""
    async def main() -> None:
        runner = await serve(make_app(config=FAST), "127.0.0.1", 0)
        port = bound_port(runner)
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            one = b"POST /ggp HTTP/1.1\nHost: x\nContent-Length: 6\n\n(info)"
            writer.write(one + one)
            await writer.drain()
            for _ in range(2):
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), WAIT)
                status, headers, _ = parse_reply(head)
                assert status == 200 and headers["connection"] == "keep-alive"
                body = await reader.readexactly(int(headers["content-length"]))
                assert body == b"((name miai) (status available))"
            writer.close()

            chunked = (b"POST / HTTP/1.1\nTransfer-Encoding: chunked\nConnection: close\n\n"
                       b"3\n(in\n3\r\nfo)\r\n0\n\n")
            assert (await exchange(port, chunked))[2] == "((name miai) (status available))"

            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 6\r\n"
                         b"Connection: close\r\n\r\n")
            await writer.drain()
            assert await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), WAIT) \
                == b"HTTP/1.1 100 Continue\r\n\r\n"
            writer.write(b"(info)")
            status, _, text = parse_reply(await asyncio.wait_for(reader.read(), WAIT))
            assert status == 200 and text == "((name miai) (status available))"
            writer.close()

            status, _, _ = await exchange(port, b"hello there\n\n")
            assert status == 400
            status, _, _ = await exchange(port, b"POST / HTTP/1.0\nContent-Length: x\n\n")
            assert status == 400
        finally:
            await runner.cleanup()
    asyncio.run(main())


STALLED = [(b"POST / HTTP/1.0\nContent-Le", b"ngth: 6\n\n(info)\n"),
           (b"POST / HTTP/1.0\nContent-Length: 6\n\n(in", b"fo)\n")]


def test_a_half_sent_request_holds_up_no_other_client() -> None:
    """Two clients stall, one in the head and one in the body; a whole match is
    played meanwhile with bare-``\\n`` requests; then the stalled requests end and
    are answered too."""
    async def main() -> None:
        runner = await serve(make_app(config=FAST), "127.0.0.1", 0)
        port = bound_port(runner)
        try:
            stalled = []
            for first, _ in STALLED:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(first)
                await writer.drain()
                stalled.append((reader, writer))
            await play_a_match(port, "\n", "h")
            for (reader, writer), (_, rest) in zip(stalled, STALLED, strict=True):
                assert not reader.at_eof()
                writer.write(rest)
                status, _, text = parse_reply(await asyncio.wait_for(reader.read(), WAIT))
                assert status == 200 and text == "((name miai) (status available))"
                writer.close()
        finally:
            await runner.cleanup()
    asyncio.run(main())


def test_a_request_not_complete_in_its_time_gets_408_and_is_closed() -> None:
    async def main() -> None:
        runner = await serve(make_app(config=FAST, request_seconds=0.5), "127.0.0.1", 0)
        port = bound_port(runner)
        try:
            for first, _ in STALLED:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(first)
                await writer.drain()
                status, headers, _ = parse_reply(await asyncio.wait_for(reader.read(), WAIT))
                assert status == 408 and headers["connection"] == "close"
                writer.close()
            assert await ask(port, "(info)", "\n") == "((name miai) (status available))"
        finally:
            await runner.cleanup()
    asyncio.run(main())
