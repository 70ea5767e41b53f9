"""GTP under the clock, with fake bots: a bot that ignores its budget still yields a
legal move in time (watchdog), a bot that honours stop() is used, resigning and
passing follow the search's report and the score."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from bots.base import BaseBot
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
