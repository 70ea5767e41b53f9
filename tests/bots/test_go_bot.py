"""The Go bot (bots/go_bot.py) and the presets go9 / go: the search runs on the
position of the caller's game in the Go game with the heavy playout policy, keeps its
tree between moves, and the presets resolve to it."""

from __future__ import annotations

import pytest

from bots.registry import PRESETS, make_bot, resolve, with_budget
from bots.thinker import Thinker
from engine import games, go
from engine.errors import InvalidArgumentError


def test_presets_name_the_go_bot_with_a_seconds_budget() -> None:
    for name in ("go9", "go"):
        spec = resolve(name)
        assert spec.name == "gobot"
        assert "seconds" in spec.params
        lowered = with_budget(name, seconds=0.25)
        assert lowered.params["seconds"] == "0.25"
    assert "gobot" in PRESETS["go9"]


def test_it_searches_with_the_heavy_policy_and_reuses_its_tree() -> None:
    game = games.create("go", size=7, komi=7)
    bot = make_bot("go9:seconds=inf,iterations=300", game, seed=1)
    st = game.initial_state()
    before = st.to_bytes()
    move = bot.choose(st)
    assert st.to_bytes() == before  # the caller's state is not touched
    assert move in st.legal_moves()
    search = bot.search
    assert search is not None
    assert search.state.game.params["policy"] == go.POLICY_FULL
    assert search.info()["iterations"] == 300
    bot.observe(st, move)
    st.play(move)
    reply = bot.choose(st)
    assert reply in st.legal_moves()
    assert bot.search is search  # the same search, advanced: the tree was kept
    assert search.info()["iterations"] == 600


def test_a_thinker_runs_the_heavy_policy_search_and_plays_choose_s_move() -> None:
    """Through a Thinker (GTP's genmove) the Go bot searches the same policy game, and
    a budget think plays what ``choose`` plays with that budget."""
    game = games.create("go", size=7, komi=7)
    spec = "go9:seconds=inf,iterations=200"
    bot, twin = make_bot(spec, game, seed=3), make_bot(spec, game, seed=3)
    bot.reset(game)
    twin.reset(game)
    thinker = Thinker(bot)
    try:
        st = game.initial_state()
        thinker.start(st, 0)
        thought = thinker.think(None)
        assert bot.search is not None  # type: ignore[attr-defined]
        assert bot.search.state.game.params["policy"] == go.POLICY_FULL  # type: ignore[attr-defined]
        assert not thought.fallback and thought.move == twin.choose(st)
    finally:
        thinker.close()


def test_playout_key_and_algorithm_key() -> None:
    game = games.create("go", size=5, komi=3)
    bot = make_bot("gobot:alg=uct,playout=0,c=0.5,iterations=50", game, seed=2)
    move = bot.choose(game.initial_state())
    assert bot.search is not None and bot.search.state.game.params["policy"] == 0
    assert move in game.initial_state().legal_moves()
    with pytest.raises(InvalidArgumentError):
        make_bot("gobot:playout=16,iterations=5", game)
    with pytest.raises(InvalidArgumentError):
        make_bot("gobot:iterations=5", games.create("tictactoe"))


def test_priors_key_sets_the_prior_bits_of_the_search_game() -> None:
    game = games.create("go", size=7, komi=7)
    bot = make_bot("gobot:priors=3,knowledge=1,prior=20,iterations=1", game, seed=2)
    bot.choose(game.initial_state())
    assert bot.search is not None
    assert bot.search.state.game.params["policy"] == (
        go.POLICY_FULL | go.PRIOR_LINES | go.PRIOR_LADDER)
    # The empty board's first and second lines start at a virtual win rate of 0 (the
    # edges the one playout did not touch still hold the prior alone).
    untouched = [e for e in bot.search.root_edges() if e.alg_b == 20 and e.move < 49]
    assert len(untouched) > 20
    for e in untouched:
        r, c = divmod(e.move, 7)
        assert e.alg_a == (0 if min(r, c, 6 - r, 6 - c) <= 1 else 10)
    with pytest.raises(InvalidArgumentError):
        make_bot("gobot:priors=8,iterations=5", game)


def test_in_game_keeps_the_position() -> None:
    game = games.create("go", size=9, komi=7)
    st = game.initial_state()
    for m in ("E5", "C3", "G7"):
        st.play(st.parse_move(m))
    heavy = go.with_policy(st, go.POLICY_FULL)
    assert heavy.game.params["policy"] == go.POLICY_FULL
    assert heavy.keys() == st.keys() and go.board_text(heavy) == go.board_text(st)
    assert heavy.legal_moves() == st.legal_moves()
    with pytest.raises(InvalidArgumentError):
        go.in_game(st, games.create("go", size=7))
