"""The pondering search of the GGP player: puzzle lines (in the thinker and played by
the player over HTTP), pause/advance/close."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import aiohttp
import pytest

from engine.gdl.game import load
from engine.gdl.prover_game import ProverGame, ProverState
from engine.search import UCT
from protocols.ggp import kif
from protocols.ggp.player import PlayerConfig
from protocols.ggp.thinker import BestLine, SearchThinker
from tests.helpers.ggp import post, rules, served


def wait_for(predicate, seconds: float = 20.0) -> bool:  # type: ignore[no-untyped-def]
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


def test_puzzle_line_is_complete_and_replays_to_its_goal() -> None:
    text = rules("maze")
    game = load(text, "maze")
    thinker = SearchThinker(game, game.initial_state(), 0, UCT(c=0.4), seed=1)
    try:
        assert wait_for(lambda: thinker.line.goal >= 1.0)
        assert thinker.pause(5.0)
        line = list(thinker.line.moves)
    finally:
        thinker.close()
    state = ProverGame(text).initial_state()  # the line checked by the other engine
    for move in line:
        assert move in state.rule_moves(0)
        state.play_joint([move])
    assert state.is_terminal() and state.rewards() == (1.0,)


def test_best_line_keeps_the_best_and_follows_the_root() -> None:
    line = BestLine()
    line.offer(0.5, ["a", "b"])
    line.offer(0.4, ["c"])
    assert (line.goal, line.moves) == (0.5, ["a", "b"])
    line.advance("a")
    assert line.moves == ["b"]
    line.advance("z")  # the root left the line: forget it
    assert (line.goal, line.moves) == (-1.0, [])


def test_pause_advance_resume_and_refused_moves() -> None:
    game = load(rules("tictactoe"), "ttt")
    thinker = SearchThinker(game, game.initial_state(), 0, UCT(), seed=2)
    try:
        assert wait_for(lambda: thinker.iterations() > 0)
        assert thinker.pause(5.0)
        paused = thinker.iterations()
        time.sleep(0.1)
        assert thinker.iterations() == paused
        assert thinker.advance(["(play 2 2 x)", "noop"], 5.0)
        legal = ["noop"]
        assert thinker.best(legal) is None  # oplayer moves now: nothing for xplayer
        assert not thinker.advance(["(play 2 2 x)", "noop"], 5.0)  # not legal any more
        assert thinker.failed is not None
    finally:
        thinker.close()


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
    calls: list[tuple[float, list[str], str | None]] = []  # (goal, line, move) per best()

    async def main() -> list[tuple[str, int, int]]:
        config = PlayerConfig(bot="uct:c=0.4", max_think=0.2, margin=0.3)
        async with served(config) as (url, player), aiohttp.ClientSession() as s:
            make = player._thinker

            def recording(game: object, state: object, role: int) -> SearchThinker:
                thinker = make(game, state, role)
                assert isinstance(thinker, SearchThinker)
                best: Callable[[list[str]], str | None] = thinker.best

                def best_recorded(legal: list[str]) -> str | None:
                    goal, line = thinker.kept_line()  # before: a line only gets better
                    move = best(legal)
                    calls.append((goal, line, move))
                    return move

                monkeypatch.setattr(thinker, "best", best_recorded)
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
