"""The engine's one exception family, and the map from C status codes to it."""

from __future__ import annotations


class MiaiError(Exception):
    """Base of every error the engine raises on purpose."""


class InvalidArgumentError(MiaiError, ValueError):
    """A malformed argument: out of range, wrong type, unparseable text."""


class UnknownNameError(InvalidArgumentError, KeyError):
    """An unknown game, parameter, bot or algorithm name."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class IllegalMoveError(MiaiError, ValueError):
    """A well-formed move that the rules do not allow in this state."""


class GameOverError(MiaiError):
    """The operation needs a game in progress, and the game is over."""


class StateError(MiaiError):
    """The operation is not valid in this state (e.g. a joint move is needed)."""


class OutOfMemoryError(MiaiError, MemoryError):
    """An allocation failed or a memory budget was exhausted."""


class CorruptStateError(MiaiError):
    """A consistency check of the C core failed: a bug, please report it."""


class ParseError(InvalidArgumentError):
    """Text (GDL, SGF, a bot spec, ...) could not be parsed."""


class LimitError(MiaiError):
    """A time or size bound was reached."""


# Mirrors the MIAI_E* codes of csrc/core/game_api.h.
_BY_CODE: dict[int, type[MiaiError]] = {
    1: InvalidArgumentError,
    2: IllegalMoveError,
    3: OutOfMemoryError,
    4: UnknownNameError,
    5: GameOverError,
    6: StateError,
    7: CorruptStateError,
    8: ParseError,
    9: LimitError,
}


def error_for(code: int, message: str) -> MiaiError:
    """The exception for a nonzero C status code."""
    return _BY_CODE.get(code, MiaiError)(message)
