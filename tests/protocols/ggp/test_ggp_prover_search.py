"""Games over the grounding bound: the player searches the reference prover.

The grounding bound is forced tiny (``PlayerConfig.ground_atoms=1``), so the player
gets the prover (``engine.gdl.prover_game``) instead of a propnet and must search it
(``engine.gdl.prover_search``, run by the bot ``bots/prover_bot.py`` through the
Thinker of ``bots/thinker.py``; the Thinker's own tests are in test_thinker.py).  The
game master itself plays on the C propnet, and each finished match is replayed on a
fresh prover: every move legal and on time, goals as the rules say.  The search uses
an iteration budget per position, so its moves depend on the seeds, not on the
machine's load (no timing threshold).
"""

from __future__ import annotations

import asyncio

import aiohttp
import pytest

from engine.errors import InvalidArgumentError
from engine.gdl.prover_game import ProverGame
from engine.gdl.prover_search import ProverSearch, search_move
from protocols.ggp import kif
from protocols.ggp.gamemaster import MatchRecord, MatchSpec, run_match
from protocols.ggp.player import GgpPlayer, PlayerConfig
from tests.helpers.ggp import post, rules, served

PLAY_CLOCK = 10  # generous: the budget, not the clock, ends each search
BUDGET = 120


def play_tictactoe(seats_ours_first: bool, seed: int) -> tuple[MatchRecord, GgpPlayer, int]:
    """One match of our prover-searching player against a random player; returns the
    record, our player and our seat."""
    text = rules("tictactoe")
    ours = PlayerConfig(bot="uct:c=0.4", ground_atoms=1, prover_iterations=BUDGET,
                        ponder=False, seed=seed)
    other = PlayerConfig(bot="random", seed=seed + 100)

    async def main() -> tuple[MatchRecord, GgpPlayer]:
        async with served(ours) as (url_a, player), served(other) as (url_b, _), \
                aiohttp.ClientSession() as session:
            seats = [url_a, url_b] if seats_ours_first else [url_b, url_a]
            spec = MatchSpec("tictactoe", text, seats, 10, PLAY_CLOCK, f"prover{seed}",
                             grace=0.0, seed=seed)
            record = await run_match(spec, session=session)
            return record, player

    record, player = asyncio.run(main())
    return record, player, 0 if seats_ours_first else 1


def replay_on_prover(record: MatchRecord) -> None:
    state = ProverGame(rules("tictactoe")).initial_state()
    for joint in record.moves:
        for r, m in enumerate(joint):
            assert not m.replaced and m.seconds <= PLAY_CLOCK
            assert m.move in state.rule_moves(r)
        state.play_joint([m.move for m in joint])
    assert state.is_terminal()
    assert record.goals == [round(100 * v) for v in state.rewards()]
    assert record.errors == []


def test_prover_search_plays_legal_full_matches_and_beats_random() -> None:
    ours_total = theirs_total = 0
    for first, seed in ((True, 1), (False, 2)):
        record, player, seat = play_tictactoe(first, seed)
        replay_on_prover(record)
        counters = player.counters
        # every move that needed a choice came from the prover search, none at random
        assert counters["move.prover-search"] >= 2, counters
        assert counters["move.random"] == 0 and counters["move.nil"] == 0, counters
        assert counters["move.propnet-search"] == 0
        ours_total += record.goals[seat]
        theirs_total += record.goals[1 - seat]
        assert record.goals[seat] >= 50, record.goals  # never loses to random here
    assert ours_total > theirs_total


def test_status_names_the_prover_while_a_match_runs() -> None:
    text = rules("tictactoe")
    config = PlayerConfig(ground_atoms=1, prover_iterations=20, ponder=False)

    async def main() -> None:
        async with served(config) as (url, player), aiohttp.ClientSession() as s:
            assert (await post(s, url, kif.start_text("p", "xplayer", text, 5, 5)))[1] \
                == "ready"
            # on a loaded machine the start clock may end before the rules are
            # loaded: the PLAY is then searched on the prover too, but the status
            # names the reasoner only once the match's game is loaded
            for _ in range(600):
                if player.match is not None and player.match.reasoner != "grounding":
                    break
                await asyncio.sleep(0.05)
            reply = (await post(s, url, "(play p nil)"))[1]
            assert reply in ProverGame(text).initial_state().rule_moves(0)
            status = player.status()
            assert status["match"]["reasoner"] == "prover"  # type: ignore[index]
            assert status["match"]["moves"] == {"prover-search": 1}  # type: ignore[index]
            async with s.get(url + "status") as resp:
                assert (await resp.json())["match"]["reasoner"] == "prover"
            assert (await post(s, url, "(abort p)"))[1] == "aborted"

    asyncio.run(main())


def test_search_finds_the_winning_move_and_the_block() -> None:
    """Positions with one right answer, judged by the prover's goals: X to move wins
    at once; O to move must block the only threat."""
    game = ProverGame(rules("tictactoe"))

    def position(plies: list[str]) -> object:
        state = game.initial_state()
        for k, move in enumerate(plies):
            state.play_joint([move, "noop"] if k % 2 == 0 else ["noop", move])
        return state

    s = position(["(play 1 1 x)", "(play 2 1 o)", "(play 1 2 x)", "(play 3 3 o)"])
    win = search_move(game, s, 0, 200, seed=3)
    s.play_joint([win, "noop"])
    assert s.is_terminal() and s.rewards() == (1.0, 0.0)
    s = position(["(play 1 1 x)", "(play 2 2 o)", "(play 1 2 x)"])
    block = search_move(game, s, 1, 200, seed=4)
    assert block == "(play 1 3 o)"
    s.play_joint(["noop", block])
    for reply in s.rule_moves(0):  # the check of the answer: X cannot win at once now
        after = s.copy()
        after.play_joint([reply, "noop"])
        assert not (after.is_terminal() and after.rewards()[0] == 1.0)


def test_simultaneous_and_three_role_games_are_searched() -> None:
    for name in ("roshambo2", "tictactoe_3player", "smallest_4player"):
        game = ProverGame(rules(name))
        search = ProverSearch(game, game.initial_state(), seed=5)
        for _ in range(6):
            search.iterate()
        for role in range(game.n_roles):
            visits = search.root_visits(role)
            assert sum(n for n, _ in visits.values()) == 6
            assert search.best_move(role) in game.initial_state().rule_moves(role)


def test_node_bound_and_subtree_kept_on_advance() -> None:
    game = ProverGame(rules("tictactoe"))
    small = ProverSearch(game, game.initial_state(), seed=9, max_nodes=4)
    for _ in range(30):
        assert small.iterate()  # past the bound it samples without expanding
    assert small.nodes == 4 and small.iterations == 30
    search = ProverSearch(game, game.initial_state(), seed=9)
    for _ in range(60):
        search.iterate()
    visits = search.root_visits(0)["(play 2 2 x)"][0]
    search.advance(["(play 2 2 x)", "noop"])
    # the kept subtree: one node per iteration through that move, plus its root
    assert search.nodes == visits and search.iterations == 0
    assert sum(n for n, _ in search.root_visits(1).values()) == visits - 1


def test_bad_knobs_are_refused() -> None:
    for bad in ({"ground_atoms": 0}, {"prover_iterations": -1}, {"ground_seconds": 0.0},
                {"prover_iterations": True}):
        with pytest.raises(InvalidArgumentError):
            GgpPlayer(PlayerConfig(**bad))  # type: ignore[arg-type]
    game = ProverGame(rules("tictactoe"))
    with pytest.raises(InvalidArgumentError):
        ProverSearch(game, game.initial_state(), c=-1.0)
