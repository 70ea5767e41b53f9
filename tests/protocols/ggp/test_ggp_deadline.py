"""Deadline: with a 2-second play clock on a game with slow playouts, every move is
answered inside the clock, measured by the client from sending to the end of the
reply, and every move is legal (checked on a propnet game of the test's own).

CI plays 10 moves that need thinking on Pentago (~500 playouts/s here);
``MIAI_FULL=1`` plays 100 on Breakthrough (~80 playouts/s, 40k-node propnet).
"""

from __future__ import annotations

import asyncio
import os
import random
import time

import aiohttp

from engine.gdl.game import load
from protocols.ggp import kif
from protocols.ggp.player import PlayerConfig
from protocols.ggp.rules import apply_joint, legal_texts
from tests.helpers.ggp import post, rules, served

FULL = os.environ.get("MIAI_FULL") == "1"
GAME, MOVES, START_CLOCK = ("breakthrough", 100, 60) if FULL else ("pentago", 10, 10)
PLAY_CLOCK = 2
MAX_REQUESTS = 20 * MOVES  # bound of the loop (noop replies do not count as moves)


def test_every_move_inside_a_two_second_clock() -> None:
    text = rules(GAME)
    game = load(text, GAME)
    rng = random.Random(7)
    times: list[float] = []

    async def main() -> None:
        config = PlayerConfig(bot="uct:c=0.4")  # the whole clock, default margin
        async with served(config) as (url, _), aiohttp.ClientSession() as s:
            match = 0
            requests = 0
            while len(times) < MOVES and requests < MAX_REQUESTS:
                match += 1
                mid = f"deadline{match}"
                role = match % len(game.roles)
                reply = await post(s, url, kif.start_text(mid, game.roles[role], text,
                                                          START_CLOCK, PLAY_CLOCK))
                assert reply[1] == "ready"
                state = game.initial_state()
                last: list[str] | None = None
                while not state.is_terminal() and len(times) < MOVES:
                    requests += 1
                    choices = legal_texts(game, state, role)
                    sent = time.monotonic()
                    status, body, _ = await post(s, url, kif.play_text(mid, last))
                    took = time.monotonic() - sent
                    assert status == 200
                    move = kif.parse_move_reply(body)
                    assert move in choices
                    if len(choices) > 1:
                        times.append(took)
                    joint = [move if r == role else rng.choice(legal_texts(game, state, r))
                             for r in range(len(game.roles))]
                    apply_joint(game, state, joint)
                    last = joint
                assert (await post(s, url, kif.stop_text(mid, last)))[1] == "done"

    asyncio.run(main())
    # the figures docs/ggp.md records (shown with pytest -s)
    print(f"\n{GAME}: {len(times)} moves at a {PLAY_CLOCK} s play clock, longest answer "
          f"{max(times, default=0.0):.3f} s, mean {sum(times) / max(1, len(times)):.3f} s")
    assert len(times) == MOVES
    assert max(times) < PLAY_CLOCK, times
