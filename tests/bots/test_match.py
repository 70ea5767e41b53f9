"""The match runner: one game between bots, and matches with rotating seats."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bots import play_game, play_match
from bots.base import BaseBot
from bots.match import replay, seats_for
from engine import games
from engine.errors import IllegalMoveError, InvalidArgumentError
from engine.games import Game, Move, State
from tests.helpers.stub_games import PenniesGame


class ScriptedBot(BaseBot):
    """Plays the first legal move; records what it is told."""

    def __init__(self, game: Game, label: str = "scripted") -> None:
        super().__init__(label, label, game)
        self.resets = 0
        self.observed: list[tuple[bytes, object]] = []
        self.closed = False

    def reset(self, game: Game) -> None:
        super().reset(game)
        self.resets += 1

    def choose(self, state: State, role: int | None = None) -> Move:
        return state.legal_moves(role)[0]

    def observe(self, state_before: State, move: Move | Sequence[Move]) -> None:
        self.observed.append((state_before.to_bytes(), move))


class IllegalBot(BaseBot):
    def choose(self, state: State, role: int | None = None) -> Move:
        taken = set(range(state.game.num_moves)) - set(state.legal_moves())
        return min(taken) if taken else state.legal_moves()[0]


def test_a_game_record_replays_to_its_result() -> None:
    game = games.create("tictactoe")
    a, b = ScriptedBot(game, "a"), ScriptedBot(game, "b")
    record = play_game(game, [a, b])
    # The lowest move id each ply (ids run a3 b3 c3 a2 b2 c2 a1 b1 c1): X's a3 c3 b2
    # a1 complete the a1-b2-c3 diagonal on ply 7.
    assert record.moves == ["a3", "b3", "c3", "a2", "b2", "c2", "a1"]
    assert record.rewards == (1.0, 0.0)
    assert record.players == ("a", "b")
    assert replay(game, record.moves).rewards() == record.rewards
    assert [p.roles for p in record.plies] == [(i % 2,) for i in range(7)]
    assert [p.ply for p in record.plies] == list(range(7))
    assert all(p.iterations == (0,) for p in record.plies)
    # Every bot observes every ply, with the position before it.
    state = game.initial_state()
    expected = []
    for text in record.moves:
        move = state.parse_move(text)
        expected.append((state.to_bytes(), move))
        state.play(move)
    assert a.observed == expected and b.observed == expected
    assert a.resets == b.resets == 1
    d = record.to_dict()
    assert d["moves"] == record.moves and d["rewards"] == [1.0, 0.0]


def test_play_game_from_a_given_position_and_with_a_callback() -> None:
    game = games.create("tictactoe")
    start = replay(game, ["b2", "a1"])
    seen: list[int] = []
    record = play_game(game, [ScriptedBot(game), ScriptedBot(game)], start=start,
                       on_ply=lambda state, ply: seen.append(state.ply))
    assert start.ply == 2  # not modified
    assert record.plies[0].ply == 2
    assert seen == list(range(3, 3 + len(record.plies)))


def test_the_same_bot_object_may_play_every_role() -> None:
    game = games.create("tictactoe")
    bot = ScriptedBot(game)
    record = play_game(game, [bot, bot])
    assert bot.resets == 1
    assert len(bot.observed) == len(record.plies)


def test_an_illegal_move_names_the_bot() -> None:
    game = games.create("tictactoe")
    cheat = IllegalBot("cheat", "cheat:x=1", game)
    with pytest.raises(IllegalMoveError, match="cheat:x=1"):
        play_game(game, [ScriptedBot(game), cheat])


def test_the_number_of_bots_must_match_the_roles() -> None:
    game = games.create("tictactoe")
    with pytest.raises(InvalidArgumentError):
        play_game(game, [ScriptedBot(game)])
    with pytest.raises(InvalidArgumentError):
        play_match(game, ["random"], 2)
    with pytest.raises(InvalidArgumentError):
        play_match(game, ["random", "random"], 0)


def test_seats_rotate() -> None:
    assert [seats_for(g, 2) for g in range(3)] == [(0, 1), (1, 0), (0, 1)]
    assert [seats_for(g, 3) for g in range(3)] == [(0, 1, 2), (2, 0, 1), (1, 2, 0)]


def test_match_scores_count_rewards_per_player() -> None:
    game = games.create("tictactoe")
    result = play_match(game, ["mc:playouts=20", "random"], 8, seed=2)
    assert len(result.records) == 8
    assert result.seats == [seats_for(g, 2) for g in range(8)]
    first, second = result.players
    for i, stats in enumerate(result.players):
        assert stats.games == 8
        assert stats.wins + stats.draws + stats.losses == 8
        # The score recomputed from the records and seats, independently.
        total = sum(rec.rewards[seats.index(i)]
                    for rec, seats in zip(result.records, result.seats, strict=True))
        assert stats.score == pytest.approx(total)
        assert stats.score == pytest.approx(stats.wins + 0.5 * stats.draws)
    assert first.score + second.score == pytest.approx(8)
    assert first.wins == second.losses and first.draws == second.draws
    # Player 1 (mc) plays X in even games, so its spec sits at role 0 there.
    assert result.records[0].players[0].startswith("mc:")
    assert result.records[1].players[1].startswith("mc:")
    # Per-move thinking is recorded for the mover only.
    moves_by_mc = sum(
        1 for rec, seats in zip(result.records, result.seats, strict=True)
        for ply in rec.plies if seats[ply.roles[0]] == 0
    )
    assert first.moves == moves_by_mc
    assert first.iterations > 0 and second.iterations == 0
    low, high = first.interval()
    assert 0.0 <= low <= first.mean <= high <= 1.0


def test_budget_overrides_reach_the_bots() -> None:
    game = games.create("tictactoe")
    result = play_match(game, ["mc:playouts=500", "random"], 1, iterations=18)
    assert result.players[0].spec.startswith("mc:iterations=18")
    first_ply = result.records[0].plies[0]
    assert first_ply.iterations == (18,)  # 9 legal moves x 2 playouts


def test_simultaneous_plies_ask_every_role_and_play_joint_moves() -> None:
    game = PenniesGame()
    a, b = ScriptedBot(game, "a"), ScriptedBot(game, "b")  # type: ignore[arg-type]
    record = play_game(game, [a, b])  # type: ignore[arg-type]
    assert [p.roles for p in record.plies] == [(0, 1)] * 3
    assert record.moves == ["heads+heads"] * 3
    assert record.rewards == (1.0, 0.0)
    assert a.observed == [(bytes([0, 0] * i), [0, 0]) for i in range(3)]
    assert replay(game, record.moves).rewards() == record.rewards  # type: ignore[arg-type]


def test_random_bots_play_a_simultaneous_match() -> None:
    from bots import make_bot

    game = PenniesGame()
    bots = [make_bot("random", game, seed=s) for s in (1, 2)]  # type: ignore[arg-type]
    result = play_match(game, bots, 6)  # type: ignore[arg-type]
    assert sum(p.score for p in result.players) == pytest.approx(6)
    moves = {m for rec in result.records for m in rec.moves}
    assert moves <= {"heads+heads", "heads+tails", "tails+heads", "tails+tails"}
    assert len(moves) > 1


def test_outcomes_against_the_best_rival_or_the_reward_range() -> None:
    from bots.match import _outcome

    assert _outcome(1.0, [0.0]) == 1 and _outcome(0.0, [1.0]) == -1
    assert _outcome(0.5, [0.5]) == 0
    assert _outcome(0.5, [0.2, 0.7]) == -1 and _outcome(0.8, [0.2, 0.7]) == 1
    assert _outcome(1.0, []) == 1 and _outcome(0.0, []) == -1 and _outcome(0.6, []) == 0
