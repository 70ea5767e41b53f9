"""Clock handling for GTP: time_settings, kgs-time_settings, time_left, the engine's
own clock, and the time plan that gives one move its budget.

Systems (GTP 2 section 6.2 and KGS's extension):
- none: no limit (GTP: ``byo_yomi_time > 0`` and ``byo_yomi_stones == 0``);
- absolute: main time only (``byo_yomi_time == 0``);
- canadian: after main time, ``byo_stones`` moves in every ``byo_time`` seconds;
- byoyomi (Japanese, KGS only): after main time, ``periods`` periods of ``byo_time``
  seconds; a move made within a period does not consume it.

Own clock: the clock of each colour starts full at ``time_settings`` and the engine
charges it the wall time of every genmove it answers (:meth:`TimeControl.charge`,
from the command's arrival to its answer, as the controller counts it); ``time_left``
replaces it with the controller's figures whenever they come.  So a controller that
never sends ``time_left`` is still kept to.

Time plan (:func:`plan`): main time is spread over the own moves expected to remain
-- a game of about ``0.85 size^2 + 10`` plies, never fewer than a reserve of
``max(8, size^2 / 12)`` moves -- weighted by the stage of the game: 0.5 in the first
moves, rising to 1.6 in the middle game, 0.8 in the endgame.  Each move takes at most
a fifth of what is left (0.2 = 1.6 / 8), so main time decays geometrically and is
never overspent.  In overtime a Canadian block is spread evenly over its stones and a
byo-yomi period is used to 80%.  A safety margin of at most 0.25 s (a tenth of the
time left when that is less) is always kept back for latency.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.errors import InvalidArgumentError

SYSTEMS = ("none", "absolute", "canadian", "byoyomi")


@dataclass
class Clock:
    """What the controller last told us about one colour's clock."""

    main_left: float
    overtime_left: float  # seconds left in the current overtime period (or block)
    stones_left: int  # canadian: moves still due in the block; 0 = in main time
    periods_left: int  # byoyomi periods left


def expected_plies(size: int) -> int:
    """The plies a game on a ``size`` board is planned for."""
    return int(0.85 * size * size + 10)


def reserve_moves(size: int) -> int:
    """Own moves main time is always kept for, at the least."""
    return max(8, size * size // 12)


def stage_weight(size: int, ply: int) -> float:
    """How much of an even share of main time the move at ``ply`` gets: less in the
    opening, most in the middle game (piecewise linear in ply / expected plies)."""
    x = ply / expected_plies(size)
    points = [(0.0, 0.5), (0.05, 0.5), (0.2, 1.6), (0.5, 1.6), (0.8, 0.8)]
    if x >= points[-1][0]:
        return points[-1][1]
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        if x0 <= x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0) if x1 > x0 else y1
    return points[0][1]


def plan(main_left: float, size: int, ply: int) -> float:
    """The share of ``main_left`` for the move at ``ply``."""
    moves_left = max(reserve_moves(size), (expected_plies(size) - ply) / 2)
    return main_left * stage_weight(size, ply) / moves_left


@dataclass
class TimeControl:
    system: str = "none"
    main: float = 0.0
    byo_time: float = 0.0
    byo_stones: int = 0
    periods: int = 0
    margin: float = 0.25  # seconds at most kept back for overhead and latency
    clocks: dict[str, Clock] = field(default_factory=dict)
    now: Callable[[], float] = time.monotonic  # the wall clock (a fake one in tests)

    # -- settings --------------------------------------------------------------
    def set_gtp(self, main: float, byo_time: float, byo_stones: int) -> None:
        """GTP ``time_settings main_time byo_yomi_time byo_yomi_stones``."""
        _check_nonneg(main=main, byo_time=byo_time, byo_stones=byo_stones)
        if byo_time > 0 and byo_stones == 0:
            self._set("none", 0.0, 0.0, 0, 0)
        elif byo_time == 0:
            self._set("absolute", main, 0.0, 0, 0)
        else:
            self._set("canadian", main, byo_time, byo_stones, 0)

    def set_kgs(self, system: str, args: list[str]) -> None:
        """``kgs-time_settings none | absolute M | byoyomi M T P | canadian M T S``."""
        system = system.lower()
        want = {"none": 0, "absolute": 1, "byoyomi": 3, "canadian": 3}
        if system not in want:
            raise InvalidArgumentError(f"unknown time system {system!r}")
        if len(args) != want[system]:
            raise InvalidArgumentError(f"{system} takes {want[system]} arguments")
        values = [_number(a) for a in args]
        if system == "none":
            self._set("none", 0.0, 0.0, 0, 0)
        elif system == "absolute":
            _check_nonneg(main=values[0])
            self._set("absolute", values[0], 0.0, 0, 0)
        else:
            main, byo, count = values
            if count != int(count):
                raise InvalidArgumentError("the stone / period count must be whole")
            _check_nonneg(main=main, byo_time=byo, count=count)
            if system == "byoyomi":
                self._set("byoyomi", main, byo, 0, int(count))
            else:
                self._set("canadian", main, byo, int(count), 0)

    def _set(self, system: str, main: float, byo: float, stones: int, periods: int) -> None:
        self.system, self.main, self.byo_time = system, main, byo
        self.byo_stones, self.periods = stones, periods
        self.clocks.clear()

    def time_left(self, colour: str, seconds: float, stones: int) -> None:
        """GTP ``time_left colour time stones`` (stones 0: still in main time)."""
        _check_nonneg(time=seconds, stones=stones)
        if stones == 0:
            clock = Clock(seconds, self.byo_time, 0, self.periods)
        elif self.system == "byoyomi":
            # KGS sends the time of the current period and the periods left as "stones".
            clock = Clock(0.0, seconds, 0, stones)
        else:
            clock = Clock(0.0, seconds, stones, 0)
        self.clocks[colour] = clock

    def start_clock(self, colour: str) -> Clock:
        """The clock of ``colour`` as we keep it (full after time_settings)."""
        return self.clocks.get(colour) or Clock(self.main, self.byo_time, 0, self.periods)

    # -- the own clock -----------------------------------------------------------
    def charge(self, colour: str, seconds: float) -> None:
        """``colour`` took ``seconds`` for a move: run its clock down as the
        controller's does (main time, then overtime periods or blocks)."""
        if self.system == "none":
            return
        c = self.start_clock(colour)
        c = Clock(c.main_left, c.overtime_left, c.stones_left, c.periods_left)
        left = max(0.0, seconds)
        if c.main_left > 0:
            used = min(c.main_left, left)
            c.main_left -= used
            left -= used
            if left <= 0 or self.system == "absolute":
                self.clocks[colour] = c
                return
            c.main_left = 0.0  # main time ran out during this move: overtime begins
            c.overtime_left, c.stones_left = self.byo_time, self.byo_stones
        if self.system == "canadian":
            if c.stones_left <= 0:
                c.stones_left = self.byo_stones
            c.overtime_left -= left
            c.stones_left -= 1
            if c.stones_left <= 0:  # the block is done: a new one
                c.overtime_left, c.stones_left = self.byo_time, self.byo_stones
        elif self.system == "byoyomi":
            while left > c.overtime_left and c.periods_left > 0:
                left -= c.overtime_left
                c.periods_left -= 1
                c.overtime_left = self.byo_time
            c.overtime_left = self.byo_time  # a move within a period does not use it
        self.clocks[colour] = c

    # -- the budget of one move ------------------------------------------------
    def budget(self, colour: str, size: int = 9, ply: int = 0) -> float | None:
        """Seconds to think for the move of ``colour`` at ``ply`` on a ``size``
        board; None when unlimited."""
        if self.system == "none":
            return None
        clock = self.start_clock(colour)
        in_overtime = clock.main_left <= 0
        main_share = plan(clock.main_left, size, ply)
        if self.system == "absolute":
            share = main_share
        elif self.system == "canadian":
            if in_overtime or clock.stones_left > 0:
                stones = clock.stones_left or self.byo_stones
                share = clock.overtime_left / max(1, stones) * 0.9
            else:
                share = main_share + 0.5 * self.byo_time / max(1, self.byo_stones)
        else:  # byoyomi
            if in_overtime:
                share = clock.overtime_left * 0.8 if clock.periods_left > 0 else 0.0
            else:
                share = main_share + 0.8 * self.byo_time
        if self.system == "absolute":
            available = clock.main_left
        elif self.system == "canadian" and not in_overtime and clock.stones_left == 0:
            available = clock.main_left + self.byo_time / max(1, self.byo_stones)
        else:
            available = clock.main_left + clock.overtime_left
        margin = min(self.margin, 0.1 * available)
        return max(0.0, min(share, available - margin))


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise InvalidArgumentError(f"not a number: {text!r}") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise InvalidArgumentError(f"not a finite number: {text!r}")
    return value


def _check_nonneg(**values: float) -> None:
    for name, value in values.items():
        if value < 0:
            raise InvalidArgumentError(f"{name} must not be negative")
