"""Bots: spec parsing, the registry, the random / flat Monte-Carlo / search bots."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bots import make_bot, parse_spec, play_match, with_budget
from bots import registry as bot_registry
from bots.base import Bot
from bots.match import replay
from bots.report import score_interval
from bots.search_bot import SearchBot
from bots.spec import BotSpec
from engine import games
from engine.errors import (
    InvalidArgumentError,
    MiaiError,
    ParseError,
    StateError,
    UnknownNameError,
)

# Small but non-default parameters (as in test_games_generic), so matches stay short.
PARAMS: dict[str, dict[str, float]] = {
    "hex": {"size": 5},
    "havannah": {"size": 4},
    "leftright": {"steps": 12},
    "go": {"size": 5, "komi": 0.5},
}
ALL_GAMES = sorted(games.available())


def make_game(name: str) -> games.Game:
    return games.create(name, **PARAMS.get(name, {}))


# ---------------------------------------------------------------- spec parsing


@pytest.mark.parametrize(
    ("text", "name", "params"),
    [
        ("random", "random", {}),
        ("uct:c=0.5", "uct", {"c": "0.5"}),
        ("uct:c=0.5,iterations=2000", "uct", {"c": "0.5", "iterations": "2000"}),
        ("  mc : playouts = 10 , seed=3 ", "mc", {"playouts": "10", "seed": "3"}),
        ("uctstar:p=0.5,s=inf", "uctstar", {"p": "0.5", "s": "inf"}),
        ("ucd:d1=1,d2=0,d3=1", "ucd", {"d1": "1", "d2": "0", "d3": "1"}),
        ("uct:final=mean,c=-1e-3", "uct", {"final": "mean", "c": "-1e-3"}),
        ("my-bot.v2:mode=tree", "my-bot.v2", {"mode": "tree"}),
    ],
)
def test_good_specs_parse(text: str, name: str, params: dict[str, str]) -> None:
    spec = parse_spec(text)
    assert spec.name == name
    assert dict(spec.params) == params
    assert parse_spec(spec.text) == spec


@pytest.mark.parametrize(
    ("text", "bad_part"),
    [
        ("", "name"),
        (":c=1", "name"),
        ("uct:", "nothing after"),
        ("uct:c", "'c'"),
        ("uct:c=", "''"),
        ("uct:=1", "''"),
        ("uct:c=1,,d=2", "empty"),
        ("uct:c=1,c=2", "c is given twice"),
        ("1uct", "'1uct'"),
        ("uct:c=a b", "'a b'"),
        ("uct:c=1;d=2", "'1;d=2'"),
        ("u ct", "'u ct'"),
    ],
)
def test_bad_specs_name_the_spec_and_the_bad_part(text: str, bad_part: str) -> None:
    with pytest.raises(ParseError) as info:
        parse_spec(text)
    message = str(info.value)
    assert repr(text) in message
    assert bad_part in message


def test_a_spec_is_text() -> None:
    with pytest.raises(ParseError):
        parse_spec(3)  # type: ignore[arg-type]


_KEY = st.from_regex(r"[a-z_][a-z0-9_]{0,6}", fullmatch=True)
_VALUE = st.one_of(
    st.from_regex(r"[a-z][a-z0-9]{0,5}", fullmatch=True),
    st.integers(-10**9, 10**9).map(str),
    st.floats(allow_nan=False, allow_infinity=True).map(repr),
)


@given(name=_KEY, params=st.dictionaries(_KEY, _VALUE, max_size=5))
def test_spec_text_round_trips(name: str, params: dict[str, str]) -> None:
    spec = BotSpec(name, params)
    assert parse_spec(spec.text) == spec
    assert parse_spec(spec.text.replace(",", " , ")) == spec


def test_spec_number_helpers_check_their_values() -> None:
    spec = parse_spec("x:n=12,f=0.25,big=inf,word=dag,half=2.5")
    assert spec.get_int("n") == 12
    big = parse_spec(f"x:seed={2**64 - 1},k=1e3")
    assert big.get_int("seed", maximum=2**64 - 1) == 2**64 - 1  # exact, no float rounding
    assert big.get_int("k") == 1000
    assert spec.get_int("absent", 7) == 7
    assert spec.get_float("f") == 0.25
    assert spec.get_float("big", allow_inf=True) == math.inf
    assert spec.get_choice("word", ("dag", "tree"), "tree") == "dag"
    for call in (
        lambda: spec.get_int("half"),
        lambda: spec.get_int("word"),
        lambda: spec.get_int("n", maximum=5),
        lambda: spec.get_float("big"),
        lambda: spec.get_float("f", minimum=1.0),
        lambda: spec.get_choice("word", ("a", "b"), "a"),
    ):
        with pytest.raises(InvalidArgumentError) as info:
            call()
        assert "x:n=12" in str(info.value)


def test_with_params_and_without() -> None:
    spec = parse_spec("uct:c=0.5,iterations=10")
    assert spec.with_params(iterations=20, seconds=None).text == "uct:c=0.5,iterations=20"
    assert spec.with_params(seconds=math.inf).params["seconds"] == "inf"
    assert spec.without(["c"]).text == "uct:iterations=10"
    with pytest.raises(ParseError):
        spec.with_params(c="a,b")


# ---------------------------------------------------------------- registry


def test_unknown_bot_lists_the_known_ones() -> None:
    game = games.create("tictactoe")
    with pytest.raises(UnknownNameError) as info:
        make_bot("nosuchbot:x=1", game)
    message = str(info.value)
    assert "nosuchbot" in message
    assert "random" in message and "mc" in message


def test_bad_bot_parameters_are_refused_when_the_bot_is_made() -> None:
    game = games.create("tictactoe")
    with pytest.raises(InvalidArgumentError, match="'c'"):
        make_bot("random:c=1", game)
    with pytest.raises(InvalidArgumentError, match="playouts"):
        make_bot("mc:playouts=0", game)
    with pytest.raises(InvalidArgumentError, match="seed"):
        make_bot("mc:seed=-1", game)


def test_seed_argument_is_used_only_when_the_spec_has_none() -> None:
    game = games.create("tictactoe")
    assert make_bot("random", game, seed=5).spec == "random:seed=5"
    assert make_bot("random:seed=9", game, seed=5).spec == "random:seed=9"


def test_budget_override_replaces_budgets_of_bots_that_have_one() -> None:
    assert with_budget("random:seed=1", iterations=5).text == "random:seed=1"
    assert with_budget("mc:playouts=7,seed=1", iterations=50).text == "mc:seed=1,iterations=50"
    assert (with_budget("uct:c=0.5,seconds=2", iterations=9, seconds=1.5).text
            == "uct:c=0.5,iterations=9,seconds=1.5")
    assert with_budget("mc:playouts=7").text == "mc:playouts=7"


def test_presets_expand_with_given_keys_winning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(bot_registry.PRESETS, "quickmc", "mc:playouts=5,seed=1")
    bot = make_bot("quickmc:seed=2", games.create("tictactoe"))
    assert bot.spec == "mc:playouts=5,seed=2"


# ---------------------------------------------------------------- every bot, every game

BOT_SPECS = ["random", "mc:playouts=3", "mc:iterations=20", "mc:seconds=0.001,playouts=50",
             "uct:iterations=30", "uct:iterations=30,mode=tree,reuse=0"]


@pytest.mark.parametrize("spec", BOT_SPECS)
@pytest.mark.parametrize("name", ALL_GAMES)
def test_every_bot_plays_only_legal_moves_on_every_game(name: str, spec: str) -> None:
    game = make_game(name)
    bot: Bot = make_bot(spec, game, seed=1)
    assert isinstance(bot, Bot)
    result = play_match(game, [spec] + ["random"] * (game.n_roles - 1), 2, seed=3)
    for record in result.records:
        # replay() re-checks every move against the rules, independently of the match.
        final = replay(game, record.moves)
        assert final.is_terminal()
        assert final.rewards() == record.rewards
    bot.close()


def test_choose_refuses_finished_games_and_wrong_roles() -> None:
    game = games.create("tictactoe")
    bot = make_bot("random", game)
    over = replay(game, ["a1", "a2", "b1", "b2", "c1"])
    with pytest.raises(StateError):
        bot.choose(over)
    with pytest.raises(StateError):
        bot.choose(game.initial_state(), 1)


# ---------------------------------------------------------------- flat Monte-Carlo


def test_mc_takes_an_immediate_win() -> None:
    game = games.create("tictactoe")
    # X (role 0) to move with a1, b1 taken: c1 wins at once.
    win = replay(game, ["a1", "a3", "b1", "b3"])
    bot = make_bot("mc:playouts=200", game, seed=4)
    bot.reset(game)
    assert win.format_move(bot.choose(win)) == "c1"
    report = bot.last_report
    assert report is not None and report.best_text == "c1"
    c1 = next(line for line in report.moves if line.text == "c1")
    assert c1.mean == 1.0  # every playout after c1 is a win for X


def exact_random_value(state: games.State, role: int) -> float:
    """The expected reward of ``role`` when both sides play uniformly at random,
    by full enumeration (the quantity flat Monte-Carlo estimates)."""
    if state.is_terminal():
        return state.rewards()[role]
    moves = state.legal_moves()
    return sum(exact_random_value(state.copy().play(m), role) for m in moves) / len(moves)


def test_mc_means_estimate_the_exact_random_playout_values() -> None:
    game = games.create("tictactoe")
    state = replay(game, ["a1", "b2", "b1"])  # O to move, X threatens c1
    n = 2000
    bot = make_bot(f"mc:playouts={n}", game, seed=6)
    bot.reset(game)
    bot.choose(state)
    report = bot.last_report
    assert report is not None and report.role == 1
    assert len(report.moves) == len(state.legal_moves())
    for line in report.moves:
        exact = exact_random_value(state.copy().play(line.move), 1)
        # Four standard errors of a mean of n outcomes in [0, 1].
        assert abs(line.mean - exact) <= 4 * math.sqrt(0.25 / n), line.text
    best_exact = max(
        exact_random_value(state.copy().play(m), 1) for m in state.legal_moves()
    )
    assert report.best_text == "c1"
    assert exact_random_value(state.copy().play("c1"), 1) == best_exact


def test_mc_report_counts_playouts_per_move() -> None:
    game = games.create("tictactoe")
    state = game.initial_state()
    bot = make_bot("mc:playouts=30", game)
    bot.reset(game)
    move = bot.choose(state)
    report = bot.last_report
    assert report is not None
    assert sorted(line.move for line in report.moves) == state.legal_moves()
    assert all(line.visits == 30 for line in report.moves)
    assert report.iterations == 30 * 9
    assert report.best_move == move
    assert all(line.ci_low <= line.mean <= line.ci_high for line in report.moves)
    assert max(line.mean for line in report.moves) == report.root_value

    split = make_bot("mc:iterations=90", game)
    split.reset(game)
    split.choose(state)
    assert split.last_report is not None
    assert [line.visits for line in split.last_report.moves] == [10] * 9


def test_mc_with_a_time_budget_samples_every_move() -> None:
    game = games.create("tictactoe")
    bot = make_bot("mc:seconds=0.002", game)
    bot.reset(game)
    state = game.initial_state()
    assert bot.choose(state) in state.legal_moves()
    assert bot.last_report is not None
    assert all(line.visits > 0 for line in bot.last_report.moves)


def test_mc_beats_random_at_tictactoe() -> None:
    # Flat Monte-Carlo never misses a win in one or a block; random loses most games.
    result = play_match(games.create("tictactoe"), ["mc:playouts=100", "random"], 20, seed=9)
    assert result.players[0].score >= 16
    assert result.players[0].losses <= 2


def test_seeded_bots_are_deterministic() -> None:
    game = games.create("tictactoe")
    a = play_match(game, ["mc:playouts=5", "random"], 6, seed=11)
    b = play_match(game, ["mc:playouts=5", "random"], 6, seed=11)
    c = play_match(game, ["mc:playouts=5", "random"], 6, seed=12)
    assert [r.moves for r in a.records] == [r.moves for r in b.records]
    assert [r.moves for r in a.records] != [r.moves for r in c.records]


# ---------------------------------------------------------------- the Wilson interval


def test_score_interval_matches_published_values() -> None:
    # Wilson interval for 50 of 100 (e.g. Newcombe 1998, Stat. Med. 17:857, table II
    # method 3 style): [0.4038, 0.5962]; for 10 of 10 the lower end is n/(n + z^2).
    low, high = score_interval(0.5, 100)
    assert low == pytest.approx(0.4038, abs=1e-4)
    assert high == pytest.approx(0.5962, abs=1e-4)
    low, high = score_interval(1.0, 10)
    assert low == pytest.approx(10 / (10 + 1.959963984540054**2))
    assert high == pytest.approx(1.0)
    assert score_interval(0.3, 0) == (0.0, 1.0)


# ---------------------------------------------------------------- the search bot (fake search)


@dataclass
class FakeResult:
    best_move: int
    best_text: str
    iterations: int
    nodes: int = 1
    seconds: float = 0.0
    root_value: float = 0.5
    role: int = 0
    moves: list = field(default_factory=list)
    pv: list = field(default_factory=list)
    extra: dict = field(default_factory=dict)


class FakeSearch:
    """Stands in for engine.search.Search: records how the bot drives it."""

    made: list[FakeSearch] = []

    def __init__(self, state, algorithm, *, seed, max_nodes, mode, role):
        self.state = state
        self.algorithm = algorithm
        self.kwargs = {"seed": seed, "max_nodes": max_nodes, "mode": mode, "role": role}
        self.runs: list[tuple[object, object]] = []
        self.advanced: list[object] = []
        self.total = 0
        FakeSearch.made.append(self)

    def run(self, iterations=None, seconds=None, on_batch=None):
        self.runs.append((iterations, seconds))
        self.total += iterations or 1
        return self.result()

    def result(self):
        role = self.kwargs["role"]
        legal = self.state.legal_moves(role)
        move = random.Random(self.kwargs["seed"] + self.state.ply).choice(legal)
        text = self.state.format_move(move, role)
        return FakeResult(move, text, self.total)

    def advance(self, move):
        if isinstance(move, list):
            self.state.play_joint(move)
        else:
            self.state.play(move)
        if self.state.is_terminal():
            raise StateError("no search below a terminal state")
        self.advanced.append(move)


def fake_bot(text: str, game: games.Game, calls: list | None = None) -> SearchBot:
    def algorithm(name: str, params: dict[str, str]) -> tuple[str, dict[str, str]]:
        if calls is not None:
            calls.append((name, params))
        if "bad" in params:
            raise InvalidArgumentError(f"{name}: bad parameter")
        return name, params

    return SearchBot(parse_spec(text), game, search_factory=FakeSearch,
                     algorithm_factory=algorithm)


def test_search_bot_splits_budget_keys_from_algorithm_keys() -> None:
    FakeSearch.made.clear()
    game = games.create("tictactoe")
    calls: list = []
    bot = fake_bot("fake:c=0.5,final=mean,iterations=50,nodes=1000,mode=tree,seed=3",
                   game, calls)
    assert calls == [("fake", {"c": "0.5", "final": "mean"})]
    bot.reset(game)
    state = game.initial_state()
    assert bot.choose(state) in state.legal_moves()
    (search,) = FakeSearch.made
    assert search.algorithm == ("fake", {"c": "0.5", "final": "mean"})
    assert search.kwargs["max_nodes"] == 1000
    assert search.kwargs["mode"] == "tree"
    assert search.kwargs["role"] is None
    assert search.runs == [(50, None)]
    assert search.state is not state  # the bot searches a copy
    with pytest.raises(InvalidArgumentError):
        fake_bot("fake:bad=1", game)
    with pytest.raises(InvalidArgumentError):
        fake_bot("fake:mode=graph", game)


def test_search_bot_budget_defaults_and_seconds() -> None:
    game = games.create("tictactoe")
    assert fake_bot("fake", game).iterations == 1000
    timed = fake_bot("fake:seconds=0.5", game)
    assert (timed.iterations, timed.seconds) == (None, 0.5)
    unlimited = fake_bot("fake:seconds=inf,iterations=7", game)
    assert (unlimited.iterations, unlimited.seconds) == (7, None)


def test_search_bot_reuses_its_tree_through_a_game() -> None:
    FakeSearch.made.clear()
    game = games.create("tictactoe")
    bot = fake_bot("fake:iterations=10", game)
    other = make_bot("random", game, seed=1)
    from bots.match import play_game

    record = play_game(game, [bot, other])
    assert len(FakeSearch.made) == 1
    search = FakeSearch.made[0]
    # Advanced by every ply but the last (which ends the game), own moves and others'.
    assert len(search.advanced) == len(record.plies) - 1
    assert len(search.runs) == (len(record.plies) + 1) // 2
    # The tree keeps its statistics: each report counts the iterations so far.
    mover_plies = [p for p in record.plies if p.roles == (0,)]
    assert [p.iterations[0] for p in mover_plies] == [10 * (i + 1) for i in
                                                      range(len(mover_plies))]


def test_search_bot_without_reuse_starts_afresh_every_move() -> None:
    FakeSearch.made.clear()
    game = games.create("tictactoe")
    bot = fake_bot("fake:iterations=10,reuse=0", game)
    from bots.match import play_game

    record = play_game(game, [bot, make_bot("random", game)])
    assert len(FakeSearch.made) == (len(record.plies) + 1) // 2
    assert all(not s.advanced for s in FakeSearch.made)
    assert len({s.kwargs["seed"] for s in FakeSearch.made}) == len(FakeSearch.made)


def test_search_bot_drops_its_tree_when_the_position_is_unknown() -> None:
    FakeSearch.made.clear()
    game = games.create("tictactoe")
    bot = fake_bot("fake:iterations=5", game)
    bot.reset(game)
    bot.choose(game.initial_state())
    elsewhere = replay(game, ["a1", "b2"])
    bot.observe(elsewhere, elsewhere.parse_move("c3"))  # not the searched position
    assert bot.search is None
    bot.choose(replay(game, ["c1", "c2"]))
    assert len(FakeSearch.made) == 2


# ---------------------------------------------------------------- the real search


def test_uct_bot_reports_a_search() -> None:
    game = games.create("tictactoe")
    bot = make_bot("uct:iterations=500", game, seed=1)
    bot.reset(game)
    state = replay(game, ["a1", "a3", "b1", "b3"])
    move = bot.choose(state)
    assert state.format_move(move) == "c1"  # the immediate win
    report = bot.last_report
    assert report is not None
    assert report.best_move == move
    assert report.iterations >= 500
    assert report.pv and report.pv[0] == "c1"
    assert sum(m.visits for m in report.moves) <= report.iterations + 1


def test_unknown_algorithm_lists_the_bots() -> None:
    with pytest.raises(UnknownNameError) as info:
        make_bot("nosuchalgorithm", games.create("tictactoe"))
    assert "random" in str(info.value)


def test_bad_algorithm_parameter_is_an_error_when_made() -> None:
    with pytest.raises(MiaiError):
        make_bot("uct:nosuchkey=1", games.create("tictactoe"))


@pytest.mark.parametrize(("name", "games_n", "iterations", "minimum"),
                         [("tictactoe", 10, 400, 8.0), ("connect4", 4, 400, 3.0)])
def test_uct_beats_random(name: str, games_n: int, iterations: int, minimum: float) -> None:
    game = games.create(name)
    result = play_match(game, [f"uct:c=0.5,iterations={iterations}", "random"], games_n,
                        seed=5)
    assert result.players[0].score >= minimum


def test_each_game_of_a_bot_has_its_own_reproducible_stream() -> None:
    game = games.create("tictactoe")
    state = game.initial_state()

    def first_moves(bot: Bot, n_games: int) -> list[int]:
        out = []
        for _ in range(n_games):
            bot.reset(game)
            out.append(bot.choose(state))
        return out

    moves = first_moves(make_bot("random:seed=5", game), 12)
    assert moves == first_moves(make_bot("random:seed=5", game), 12)
    assert len(set(moves)) > 1  # not the same stream every game
    fresh = make_bot("random:seed=5", game)
    fresh.reset(game)
    assert fresh.choose(state) == random.Random(5).choice(state.legal_moves())


def test_search_bot_at_simultaneous_states_searches_for_its_role() -> None:
    from bots import play_game
    from tests.helpers.stub_games import PenniesGame

    FakeSearch.made.clear()
    game = PenniesGame()
    bot = fake_bot("fake:iterations=4", game)  # type: ignore[arg-type]
    other = make_bot("random", game, seed=3)  # type: ignore[arg-type]
    record = play_game(game, [other, bot])  # type: ignore[arg-type]
    (search,) = FakeSearch.made
    assert search.kwargs["role"] == 1
    # Re-rooted with the joint moves of the first two rounds (the third ends the game).
    joint = [[search.state.parse_move(t) for t in m.split("+")] for m in record.moves]
    assert search.advanced == joint[:2]


def test_seeded_search_bots_are_deterministic() -> None:
    game = games.create("tictactoe")
    specs = ["uct:iterations=100", "uct:iterations=100,c=1.2,mode=tree"]
    a = play_match(game, specs, 4, seed=21)
    b = play_match(game, specs, 4, seed=21)
    assert [r.moves for r in a.records] == [r.moves for r in b.records]
    assert [[p.iterations for p in r.plies] for r in a.records] == \
        [[p.iterations for p in r.plies] for r in b.records]
