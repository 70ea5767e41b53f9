"""``threads=`` and ``vloss=`` in bot specs, and the front-ends' thread defaults."""

from __future__ import annotations

import argparse
import os

import pytest

from bots import make_bot
from bots.registry import with_threads
from engine import games
from engine.errors import InvalidArgumentError
from protocols.cli.commands.gtp import threaded_spec


def test_search_bot_runs_its_search_with_the_threads() -> None:
    game = games.create("connect4")
    bot = make_bot("uct:c=0.7,iterations=3000,threads=2,vloss=2", game)
    move = bot.choose(game.initial_state())
    assert move in game.initial_state().legal_moves()
    search = bot.search  # type: ignore[attr-defined]
    assert (search.threads, search.virtual_loss) == (2, 2)
    assert search.info()["iterations"] == 3000
    assert search.info()["thread_seconds"] > 0  # the threaded loop ran


def test_go_bot_takes_threads() -> None:
    game = games.create("go", size=9)
    bot = make_bot("gobot:alg=rave,playout=7,prior=20,iterations=400,threads=2", game)
    move = bot.choose(game.initial_state())
    assert move in game.initial_state().legal_moves()
    assert bot.search.threads == 2  # type: ignore[attr-defined]


@pytest.mark.parametrize("spec", ["ucd:threads=2", "auct:threads=2", "duct:threads=2",
                                  "gobot:alg=auct_rave,threads=2"])
def test_bots_without_threads_refuse_them(spec: str) -> None:
    game = games.create("go", size=9) if spec.startswith("gobot") else games.create("connect4")
    with pytest.raises(InvalidArgumentError, match="threads > 1 is not available"):
        make_bot(spec, game)


@pytest.mark.parametrize("spec", ["uct:threads=0", "uct:threads=x", "uct:vloss=-1",
                                  "uct:threads=2,leaf=4"])
def test_bad_thread_keys_are_refused(spec: str) -> None:
    with pytest.raises(InvalidArgumentError):
        make_bot(spec, games.create("connect4"))


@pytest.mark.parametrize("spec", ["uctstar:threads=2", "mctsstar:threads=2",
                                  "uct:solver=1,threads=2", "uctstar:solver=1,threads=3"])
def test_uctstar_and_the_solver_take_threads(spec: str) -> None:
    game = games.create("connect4")
    bot = make_bot(f"{spec},iterations=3000", game)
    assert bot.choose(game.initial_state()) in game.initial_state().legal_moves()
    info = bot.search.info()  # type: ignore[attr-defined]
    assert info["thread_seconds"] > 0 and 0 < info["iterations"] <= 3000


def test_pruning_searches_with_threads() -> None:
    """Huang's root pruning acts between batches, when no thread runs."""
    game = games.create("connect4")
    bot = make_bot("uct:c=0.7,prune=relative,every=200,iterations=3000,threads=2", game)
    assert bot.choose(game.initial_state()) in game.initial_state().legal_moves()
    assert bot.search.info()["iterations"] == 3000  # type: ignore[attr-defined]


def test_with_threads_adds_them_only_where_the_bot_has_them() -> None:
    c4 = games.create("connect4")
    assert with_threads("uct:c=0.5", 3, c4).params["threads"] == "3"
    assert "threads" not in with_threads("ucd", 3, c4).params
    assert "threads" not in with_threads("random", 3, c4).params
    assert with_threads("uct:threads=1", 3, c4).params["threads"] == "1"  # its own wins
    assert "threads" not in with_threads("uct", 1, c4).params
    assert with_threads("ggp", 3, c4).params["threads"] == "3"  # solver and MAST too
    assert with_threads("uct:solver=1", 3, c4).params["threads"] == "3"


def test_gtp_defaults_to_all_cores() -> None:
    cores = os.cpu_count() or 1
    spec = threaded_spec("go9", None)
    if cores > 1:
        assert f"threads={cores}" in spec
    assert "threads=3" in threaded_spec("go9", 3)
    assert "threads" not in threaded_spec("gobot:alg=ucd", None)  # no threads: left alone
    with pytest.raises(SystemExit):
        threaded_spec("go9", 0)


def test_ggp_option_reaches_the_player() -> None:
    from protocols.cli.commands import ggp

    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    ggp.register(sub)
    args = parser.parse_args(["ggp", "--threads", "3"])
    assert args.threads == 3


def test_pondering_runs_the_threaded_search() -> None:
    """The Thinker (GTP's and GGP's loop) runs the bot's own search: its threads too."""
    import time

    from bots.thinker import Thinker

    game = games.create("connect4")
    bot = make_bot("uct:c=0.7,threads=2", game, seed=1)
    bot.reset(game)
    thinker = Thinker(bot, ponder=True, iterations=None)
    try:
        thinker.start(game.initial_state(), 0)
        thinker.resume()
        end = time.monotonic() + 60  # a liveness bound, not a timing assertion
        while thinker.iterations_run() < 2000 and time.monotonic() < end:
            time.sleep(0.02)
        assert thinker.pause(10.0)
        search = bot.search  # type: ignore[attr-defined]
        assert search.threads == 2 and search.info()["thread_seconds"] > 0
        move = game.initial_state().legal_moves()[3]
        assert thinker.advance(move, 10.0)  # our move, then the opponent's
        assert thinker.advance(move, 10.0)
        thought = thinker.think(0.3)
        assert thought.move in thinker.position().legal_moves()  # type: ignore[union-attr]
    finally:
        thinker.close()


def test_rave_root_pruning_with_threads() -> None:
    """RAVE's root pruning (Huang's conditions) acts between batches: it prunes, no
    pruned move is chosen, and the visits still add up to the budget."""
    game = games.create("go", size=9)
    # alpha = 0.99 (eq. 5's optimism nearly none): two threads' interleaving changes the
    # statistics, and with 0.9 some runs pruned nothing (2-5 runs in 30).
    bot = make_bot("gobot:alg=rave,playout=0,prior=20,prune=relative,alpha=0.99,every=200,"
                   "iterations=2500,threads=2", game, seed=3)
    move = bot.choose(game.initial_state())
    search = bot.search  # type: ignore[attr-defined]
    assert search.info()["iterations"] == 2500
    edges = search.root_edges()
    chosen = next(e for e in edges if e.move == move)
    assert not chosen.pruned
    assert any(e.pruned for e in edges)  # the pruning did act
    assert sum(e.visits for e in edges) == 2500
