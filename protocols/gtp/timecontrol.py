"""Clock handling for GTP: time_settings, kgs-time_settings, time_left, and the time
budget of one move.

Systems (GTP 2 section 6.2 and KGS's extension):
- none: no limit (GTP: ``byo_yomi_time > 0`` and ``byo_yomi_stones == 0``);
- absolute: main time only (``byo_yomi_time == 0``);
- canadian: after main time, ``byo_stones`` moves in every ``byo_time`` seconds;
- byoyomi (Japanese, KGS only): after main time, ``periods`` periods of ``byo_time``
  seconds; a move made within a period does not consume it.

The budget of a move spends main time evenly over the moves expected to remain, and in
overtime a safe share of the period, always keeping a safety margin for the protocol
and process overhead, so that a move is sent before the clock runs out.
"""

from __future__ import annotations

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


@dataclass
class TimeControl:
    system: str = "none"
    main: float = 0.0
    byo_time: float = 0.0
    byo_stones: int = 0
    periods: int = 0
    margin: float = 0.25  # seconds always kept back for overhead and latency
    clocks: dict[str, Clock] = field(default_factory=dict)

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
        return self.clocks.get(colour) or Clock(self.main, self.byo_time, 0, self.periods)

    # -- the budget of one move ------------------------------------------------
    def budget(self, colour: str, moves_left: int) -> float | None:
        """Seconds to think for the next move of ``colour``; None when unlimited."""
        if self.system == "none":
            return None
        clock = self.start_clock(colour)
        moves_left = max(1, moves_left)
        in_overtime = clock.main_left <= 0
        if self.system == "absolute":
            share = clock.main_left / (moves_left + 5)
        elif self.system == "canadian":
            if in_overtime or clock.stones_left > 0:
                stones = clock.stones_left or self.byo_stones
                share = clock.overtime_left / max(1, stones) * 0.9
            else:
                share = clock.main_left / moves_left + 0.5 * self.byo_time / max(1, self.byo_stones)
        else:  # byoyomi
            if in_overtime:
                share = clock.overtime_left * 0.8
            else:
                share = clock.main_left / moves_left + 0.8 * self.byo_time
        available = (
            clock.main_left if self.system == "absolute" else clock.main_left + clock.overtime_left
        )
        hard_cap = available - self.margin
        return max(0.0, min(share - self.margin * 0.5, hard_cap))


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
