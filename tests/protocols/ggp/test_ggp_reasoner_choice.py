"""The player picks the faster reasoner, net or prover, by measuring both during the
start clock (engine/gdl/reasoner_choice.py).  The rates are planted (monkeypatched):
which reasoner then plays, over loopback HTTP, must follow them, and every move must
be legal by the reference prover; the real measurement gives both rates."""

from __future__ import annotations

import asyncio
import threading

import aiohttp
import pytest

from engine.gdl import reasoner_choice
from engine.gdl.game import load
from engine.gdl.prover_game import ProverGame
from protocols.ggp import kif
from protocols.ggp.player import PlayerConfig
from tests.helpers.ggp import post, rules, served

TTT = rules("tictactoe")


def plant(monkeypatch: pytest.MonkeyPatch, net: float, prover: float) -> None:
    """Measurements that give these rates (plies per second)."""
    def prover_rate(game: ProverGame, seconds: float, stop: threading.Event,
                    seed: int = 0, count: list[float] | None = None) -> float:
        assert count is not None
        count[:] = [prover, 0.0, 1.0]
        return prover

    monkeypatch.setattr(reasoner_choice, "net_rate", lambda *args: net)
    monkeypatch.setattr(reasoner_choice, "prover_rate", prover_rate)


@pytest.mark.parametrize(("net", "prover", "reasoner"), [
    (100.0, 1000.0, "prover"), (1000.0, 100.0, "propnet"),
    (100.0, 150.0, "propnet"),  # faster, but not by the margin
])
def test_the_choice_follows_the_rates(monkeypatch: pytest.MonkeyPatch, net: float,
                                      prover: float, reasoner: str) -> None:
    plant(monkeypatch, net, prover)
    choice = reasoner_choice.choose(load(TTT), lambda: ProverGame(TTT), 0.2)
    assert (choice.reasoner, choice.net_rate, choice.prover_rate) == (reasoner, net, prover)
    assert isinstance(choice.prover, ProverGame)


def test_the_measurement_gives_both_rates() -> None:
    choice = reasoner_choice.choose(load(TTT), lambda: ProverGame(TTT), 0.4)
    assert choice.net_rate > 0 and choice.prover_rate > 0
    assert choice.as_dict()["reasoner"] == choice.reasoner


@pytest.mark.parametrize(("net", "prover", "reasoner"), [
    (100.0, 1000.0, "prover"), (1000.0, 100.0, "propnet")])
def test_the_player_plays_on_the_reasoner_measured_faster(
        monkeypatch: pytest.MonkeyPatch, net: float, prover: float, reasoner: str) -> None:
    plant(monkeypatch, net, prover)
    oracle = ProverGame(TTT)
    config = PlayerConfig(bot="uct", max_think=0.1, margin=0.3, prover_iterations=20)

    async def main() -> None:
        async with served(config) as (url, player), aiohttp.ClientSession() as s:
            assert (await post(s, url, kif.start_text("m1", "xplayer", TTT, 5, 3)))[1] \
                == "ready"
            state = oracle.initial_state()
            last = "nil"
            for _ in range(3):
                reply = (await post(s, url, f"(play m1 {last})"))[1]
                move = kif.parse_move_reply(reply)
                assert move in state.rule_moves(0)
                joint = [move, state.rule_moves(1)[0]]
                state.play_joint(joint)
                last = "(" + " ".join(joint) + ")"
            async with s.get(url + "status") as resp:
                match = (await resp.json())["match"]
            assert match["reasoner"] == reasoner
            assert match["reasoner_choice"]["net_plies_per_s"] == net
            assert match["reasoner_choice"]["prover_plies_per_s"] == prover
            assert set(match["moves"]) <= {f"{reasoner}-search", "only"}
            if reasoner == "prover":
                assert match["prover_reason"].startswith("faster than the net")
            assert (await post(s, url, f"(stop m1 {last})"))[1] == "done"
            assert player.match is None
    asyncio.run(main())
