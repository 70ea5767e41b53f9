"""Sheets the strict checks reject, played over loopback HTTP (issue 25): each shape of
tests/helpers/tolerant_sheets.py gets a legal move at every PLAY (legal by the moves
worked out by hand for the prover's reading), with the warning in GET /status; a
sheet not even the tolerant reading evaluates gets nil and the reason."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest

from protocols.ggp import kif
from protocols.ggp.player import PlayerConfig
from tests.helpers.ggp import post, served
from tests.helpers.tolerant_sheets import BASE, SHAPES, sheet

# no net vs prover measurement: the net plays (the reasoner does not hang on timing)
FAST = PlayerConfig(bot="uct", max_think=0.1, margin=0.3, choice_seconds=0)


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_a_shape_the_checks_reject_gets_legal_moves(name: str) -> None:
    async def main() -> None:
        async with served(FAST) as (url, player), aiohttp.ClientSession() as s:
            start = kif.start_text("m1", "r", sheet(name), 5, 2)
            assert (await post(s, url, start))[1] == "ready"
            last = "nil"
            for move, legal in SHAPES[name][1]:
                status, reply, _ = await post(s, url, f"(play m1 {last})")
                assert status == 200 and kif.parse_move_reply(reply) in legal, reply
                last = f"({move})"
            async with s.get(url + "status") as resp:
                match = (await resp.json())["match"]
            assert match["reasoner"] == "propnet" and match["error"] is None
            assert match["warnings"][0].startswith("the strict checks reject")
            assert "nil" not in match["moves"]
            assert (await post(s, url, f"(stop m1 {last})"))[1] == "done"
    asyncio.run(main())


def test_a_sheet_no_reading_plays_gets_nil_and_says_why() -> None:
    text = BASE + "(<= (legal r (take ?i)) (item ?i) (p ?i))\n" \
        "(<= (p ?i) (item ?i) (not (q ?i)))\n(<= (q ?i) (item ?i) (not (p ?i)))\n"

    async def main() -> None:
        async with served(FAST) as (url, player), aiohttp.ClientSession() as s:
            assert (await post(s, url, kif.start_text("m1", "r", text, 5, 2)))[1] == "ready"
            assert (await post(s, url, "(play m1 nil)"))[1] == "nil"
            error = player.status()["match"]["error"]
            assert "unstratified negation" in error
    asyncio.run(main())
