"""The GGP player on one-player games (puzzles): the Thinker's kept line
(bots/thinker.py, ``puzzle_lines``) is played over HTTP to the best goal."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import pytest

from bots.thinker import Thinker, Thought
from engine.gdl.prover_game import ProverGame, ProverState
from protocols.ggp import kif
from protocols.ggp.player import PlayerConfig
from tests.helpers.ggp import post, rules, served


def best_goal(state: ProverState, memo: dict[tuple[str, ...], int]) -> int:
    """The highest goal (0..100) reachable from ``state`` of a one-player game, by
    exhaustive search on the reference prover (positions memoised)."""
    if state.is_terminal():
        return round(100 * state.rewards()[0])
    key = tuple(state.true_facts())
    if key not in memo:
        memo[key] = max(best_goal(state.copy().play_joint([m]), memo)
                        for m in state.rule_moves(0))
    return memo[key]


@pytest.mark.parametrize("name", ["maze", "buttons"])
def test_player_replays_the_kept_line_to_the_best_goal(name: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Our player, driven over HTTP, solves the puzzle: the goal reached is the best
    the prover's exhaustive search finds, and once the thinker keeps a line of that
    goal every move played is that line's next move, to the end of the game."""
    text = rules(name)
    oracle = ProverGame(text)
    optimum = best_goal(oracle.initial_state(), {})
    calls: list[tuple[float, list[str], str | None]] = []  # (goal, line, move) per think

    async def main() -> list[tuple[str, int, int]]:
        config = PlayerConfig(bot="uct:c=0.4", max_think=0.2, margin=0.3)
        async with served(config) as (url, player), aiohttp.ClientSession() as s:
            make = player._thinker

            def recording(game: Any, state: object, role: int) -> Thinker:
                thinker = make(game, state, role)
                assert isinstance(thinker, Thinker) and thinker.searching
                think = thinker.think

                def think_recorded(*args: Any, **kwargs: Any) -> Thought:
                    goal, line = thinker.kept_line()  # before: a line only gets better
                    thought = think(*args, **kwargs)
                    move = None if thought.fallback else game.move_to_text(thought.move, 0)
                    calls.append((goal, [game.move_to_text(m, 0) for m in line], move))
                    return thought

                monkeypatch.setattr(thinker, "think", think_recorded)
                return thinker

            monkeypatch.setattr(player, "_thinker", recording)
            assert (await post(s, url, kif.start_text("p", "robot", text, 10, 2)))[1] == "ready"
            played: list[tuple[str, int, int]] = []  # (move, calls before, after its reply)
            state = oracle.initial_state()
            last: list[str] | None = None
            while not state.is_terminal():
                before = len(calls)
                move = kif.parse_move_reply((await post(s, url, kif.play_text("p", last)))[1])
                assert move in state.rule_moves(0)
                played.append((move, before, len(calls)))
                last = [move]
                state.play_joint(last)
            assert round(100 * state.rewards()[0]) == optimum
            assert (await post(s, url, kif.stop_text("p", last)))[1] == "done"
            return played

    played = asyncio.run(main())
    assert optimum == 100
    # the plies whose move the search chose (not forced), and the line it kept then
    chosen = [(ply, calls[after - 1]) for ply, (_, before, after) in enumerate(played)
              if after > before]
    followed = [(ply, line) for ply, (goal, line, _) in chosen if goal >= optimum / 100]
    assert followed, "the thinker never kept a line of the best goal"
    for ply, (goal, line, move) in chosen:
        assert move == played[ply][0]
        if goal >= optimum / 100:
            assert move == line[0]
    ply, line = followed[0]
    assert [m for m, _, _ in played[ply:]] == line  # replayed to its end
