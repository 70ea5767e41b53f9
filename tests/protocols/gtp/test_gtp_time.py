"""GTP under the clock, with fake bots: a bot that ignores its budget still yields a
legal move in time (watchdog), a bot that honours stop() is used, resigning and
passing follow the search's report and the score."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import pytest

from bots.base import BaseBot
from engine import games
from engine.games import Game, State
from protocols.gtp.engine import GtpEngine, GtpOptions


@dataclass
class FakeReport:
    root_value: float
    iterations: int
    moves: list = field(default_factory=list)
    pv: list = field(default_factory=list)
    role: int = 0


class HangingBot(BaseBot):
    """Never answers on its own; ignores stop() (the default: no way to stop)."""

    def __init__(self, game: Game) -> None:
        super().__init__("hanging", "hanging", game)
        self.release = threading.Event()

    def choose(self, state: State, role: int | None = None) -> int:
        self.release.wait(60)
        return state.legal_moves()[0]

    def close(self) -> None:
        self.release.set()


class StoppableBot(HangingBot):
    """Thinks until it is stopped, then answers its favourite move."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.stopped = threading.Event()

    def stop(self) -> None:
        self.stopped.set()

    def choose(self, state: State, role: int | None = None) -> int:
        self.stopped.wait(60)
        return state.parse_move("E5")


class ReportingBot(HangingBot):
    def __init__(self, game: Game, value: float) -> None:
        super().__init__(game)
        self.value = value

    def choose(self, state: State, role: int | None = None) -> int:
        self._report = FakeReport(self.value, 10_000)  # type: ignore[assignment]
        return state.parse_move("E5")


def engine_with(factory, **options) -> GtpEngine:
    engine = GtpEngine(GtpOptions(bot_spec="fake", gfx=False, **options),
                       bot_factory=lambda spec, game: factory(game))
    assert engine.handle("boardsize 9") == "= \n\n"
    return engine


def test_a_bot_that_never_answers_still_gives_a_legal_move() -> None:
    made: list[HangingBot] = []

    def factory(game: Game) -> HangingBot:
        made.append(HangingBot(game))
        return made[-1]

    engine = engine_with(factory)
    engine.handle("time_settings 2 0 0")
    engine.handle("time_left b 1 0")
    response = engine.handle("genmove b")
    assert response.startswith("= ") and response.strip() != "= pass"
    vertex = response[2:].strip()
    assert engine.session.moves[-1][1] == engine.session.parse_vertex(vertex)
    # The late bot is abandoned: the next genmove gets a fresh one.
    engine.handle("time_left w 1 0")
    assert engine.handle("genmove w").startswith("= ")
    assert len(made) == 2
    for bot in made:
        bot.close()


def test_a_bot_that_honours_stop_is_used() -> None:
    engine = engine_with(StoppableBot)
    engine.handle("time_settings 2 0 0")
    engine.handle("time_left b 1 0")
    assert engine.handle("genmove b") == "= E5\n\n"


def test_resigns_when_lost_unless_told_not_to() -> None:
    engine = engine_with(lambda game: ReportingBot(game, 0.02))
    assert engine.handle("genmove b") == "= resign\n\n"
    assert engine.session.moves == []  # resigning plays nothing
    engine = engine_with(lambda game: ReportingBot(game, 0.02), resign_threshold=0.0)
    assert engine.handle("genmove b") == "= E5\n\n"
    engine = engine_with(lambda game: ReportingBot(game, 0.6))
    assert engine.handle("genmove b") == "= E5\n\n"


def test_passes_when_passing_wins() -> None:
    engine = engine_with(lambda game: ReportingBot(game, 0.9))
    engine.handle("komi 0.5")
    for move in ["b C3", "w pass"]:
        assert engine.handle(f"play {move}") == "= \n\n"
    # Black owns the whole board by area: passing now wins.
    assert engine.handle("genmove b") == "= pass\n\n"
    engine = engine_with(lambda game: ReportingBot(game, 0.9))
    engine.handle("komi 0.5")
    assert engine.handle("play b pass") == "= \n\n"
    # Black passed on the empty board: scored now, komi makes White the winner.
    assert engine.handle("genmove w") == "= pass\n\n"


class FakeClock:
    """Wall time that moves only when a fake bot thinks (no timing in the test)."""

    def __init__(self) -> None:
        self.t = 1000.0

    def now(self) -> float:
        return self.t


class ClockBot(HangingBot):
    """Thinks exactly the seconds it is given, plus a fixed overhead per move, on a
    fake clock, and plays the first legal point."""

    def __init__(self, game: Game, clock: FakeClock, overhead: float) -> None:
        super().__init__(game)
        self.clock, self.overhead = clock, overhead
        self.given: list[float] = []

    def choose_within(self, state: State, role: int | None, seconds: float | None) -> int:
        assert seconds is not None
        self.given.append(seconds)
        self.clock.t += seconds + self.overhead
        return state.legal_moves()[0]


def clocked_game(settings: str, size: int, own_moves: int, overhead: float = 0.02,
                 time_left_every: int = 0) -> tuple[GtpEngine, ClockBot, FakeClock]:
    """Black's genmoves against White's passes-free replies, on a fake clock; with
    ``time_left_every`` the controller reports Black's clock that often."""
    clock = FakeClock()
    bots: list[ClockBot] = []

    def factory(game: Game) -> ClockBot:
        bots.append(ClockBot(game, clock, overhead))
        return bots[-1]

    engine = GtpEngine(GtpOptions(bot_spec="fake", gfx=False, resign_threshold=0.0),
                       bot_factory=lambda spec, game: factory(game))
    engine.clock.now = clock.now
    assert engine.handle(f"boardsize {size}") == "= \n\n"
    assert engine.handle(settings) == "= \n\n"
    spent = 0.0
    for i in range(own_moves):
        if time_left_every and i % time_left_every == 0:
            main = engine.clock.main
            engine.handle(f"time_left b {max(0.0, main - spent):.3f} 0")
        before = clock.t
        assert engine.handle("genmove b").startswith("= ")
        spent += clock.t - before
        legal = [m for m in engine.session.state.legal_moves()
                 if m != engine.session.pass_move]
        engine.handle(f"play w {engine.session.vertex(legal[-1])}")
    return engine, bots[-1], clock


def test_own_clock_never_overspends_absolute_time_without_time_left() -> None:
    # 60 s absolute and 50 moves: the per-move budget alone would spend about 92 s.
    for size in (9, 13, 19):
        engine, bot, clock = clocked_game("time_settings 60 0 0", size, 50, overhead=0.05)
        total = sum(bot.given) + 0.05 * len(bot.given)
        assert total < 60.0, (size, total)
        assert engine.clock.start_clock("B").main_left > 0
        assert engine.clock.start_clock("B").main_left == pytest.approx(60.0 - total)


def test_short_absolute_time_is_used_not_hoarded() -> None:
    # 4 s absolute on 9x9 for a 40-move game: not 0.012 s a move.
    engine, bot, clock = clocked_game("time_settings 4 0 0", 9, 40, overhead=0.01)
    total = sum(bot.given) + 0.01 * len(bot.given)
    assert 0.6 * 4.0 < total < 4.0
    assert min(bot.given[:30]) > 0.04  # 4 s over a planned 40 moves, not 0.012 s


def test_the_middle_game_gets_more_time_than_the_opening_and_the_end() -> None:
    engine, bot, clock = clocked_game("time_settings 600 0 0", 19, 150)
    opening, middle = bot.given[:5], bot.given[40:60]
    assert max(opening) < min(middle)
    assert max(bot.given[130:]) < min(middle)


def test_time_left_corrects_the_own_clock() -> None:
    clock = FakeClock()
    engine = GtpEngine(GtpOptions(bot_spec="fake", gfx=False, resign_threshold=0.0),
                       bot_factory=lambda spec, game: ClockBot(game, clock, 0.0))
    engine.clock.now = clock.now
    engine.handle("boardsize 9")
    engine.handle("time_settings 30 0 0")
    engine.handle("genmove b")
    own = engine.clock.start_clock("B").main_left
    assert own < 30.0
    engine.handle("time_left b 10 0")  # the controller's clock says otherwise
    assert engine.clock.start_clock("B").main_left == 10.0
    assert engine.clock.budget("B", 9, 2) == engine.clock.budget("B", 9, 2) < 10.0 / 8
    engine.handle("genmove b")
    assert engine.clock.start_clock("B").main_left < 10.0  # charged from the new figure


def test_canadian_and_byo_yomi_keep_their_blocks_and_periods() -> None:
    engine, bot, clock = clocked_game("time_settings 0 10 5", 9, 23, overhead=0.0)
    # Canadian overtime only: 5 moves in every 10 s block.
    blocks = [sum(bot.given[i:i + 5]) for i in range(0, 20, 5)]
    assert all(b <= 10.0 for b in blocks), blocks
    assert all(b > 5.0 for b in blocks), blocks  # the block is used, not hoarded
    engine, bot, clock = clocked_game("kgs-time_settings byoyomi 2 5 3", 19, 30, overhead=0.0)
    assert all(g < 5.0 for g in bot.given[5:])  # in a 5 s period each move stays in it
    assert engine.clock.start_clock("B").periods_left == 3


def test_the_clock_overrides_the_bots_own_seconds() -> None:
    # Canadian 5 s per move: a bot whose own budget is 2 s gets the clock's share.
    from bots.base import MoveBudget

    clock = FakeClock()

    class TwoSecondBot(ClockBot):
        def move_budget(self) -> MoveBudget:
            return MoveBudget(seconds=2.0)

    bot = TwoSecondBot(games.create("go", size=19), clock, 0.0)
    engine = GtpEngine(GtpOptions(bot_spec="fake", gfx=False, resign_threshold=0.0),
                       bot_factory=lambda spec, game: bot)
    engine.clock.now = clock.now
    engine.handle("boardsize 19")
    engine.handle("time_settings 0 5 1")
    engine.handle("genmove b")
    assert 4.0 < bot.given[-1] < 5.0
    engine.handle("time_settings 0 1 0")  # no time limit: the bot's own 2 s again
    engine.handle("genmove w")
    assert bot.given[-1] == 2.0
