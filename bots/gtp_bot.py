"""``gtp:COMMAND LINE``: an external GTP engine as a bot (GNU Go, Pachi, another miai).

``gtp:gnugo --mode gtp --level 10`` starts the engine once and keeps it; every game
starts with ``boardsize``/``komi``/``clear_board``; moves the engine did not choose are
sent with ``play``.  ``gnugo`` is also looked up in /usr/games (Debian installs it there).
A ``resign`` answer is played as a pass and noted in ``resigned``.  A move that
miai's rules forbid raises IllegalMoveError: GNU Go forbids only the simple ko unless
it is given ``--positional-superko``, so every GNU Go command in scripts/ and docs/
gives it.
"""

from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Sequence

from bots.base import BaseBot, acting_role
from bots.gtp_client import GtpClient
from engine.errors import IllegalMoveError, InvalidArgumentError, StateError
from engine.games import Game, Move, State

PREFIX = "gtp:"


def resolve_command(command: str) -> list[str]:
    argv = shlex.split(command)
    if not argv:
        raise InvalidArgumentError("gtp: needs a command line, e.g. gtp:gnugo --mode gtp")
    exe = argv[0]
    found = shutil.which(exe) if os.sep not in exe else None
    if found is not None:
        argv[0] = found  # the full path: callers test it with os.access
    elif os.sep not in exe:
        for folder in ("/usr/games", "/usr/local/games"):
            candidate = os.path.join(folder, exe)
            if os.access(candidate, os.X_OK):
                argv[0] = candidate
                break
    return argv


class GtpBot(BaseBot):
    """A bot that asks an external GTP engine for its moves (Go only)."""

    def __init__(self, command: str, game: Game, timeout: float = 120.0) -> None:
        if game.name != "go":
            raise InvalidArgumentError(f"gtp bots play Go, not {game.name}")
        super().__init__("gtp", PREFIX + command, game)
        self.argv = resolve_command(command)
        self.timeout = timeout
        self.client: GtpClient | None = None
        self.resigned = False
        self._shadow: State | None = None

    def _engine(self) -> GtpClient:
        if self.client is None:
            self.client = GtpClient(self.argv, timeout=self.timeout)
        return self.client

    def reset(self, game: Game) -> None:
        super().reset(game)
        if game.name != "go":
            raise InvalidArgumentError(f"gtp bots play Go, not {game.name}")
        client = self._engine()
        client.send(f"boardsize {int(game.params['size'])}")
        client.send(f"komi {game.params['komi']:g}")
        client.send("clear_board")
        self._shadow = game.initial_state()
        self.resigned = False

    def _synced(self, state: State) -> State:
        if self._shadow is None:
            self.reset(state.game)
        assert self._shadow is not None
        if self._shadow.to_bytes() != state.to_bytes():
            raise StateError("the gtp engine's board is out of sync with the game")
        return self._shadow

    def choose(self, state: State, role: int | None = None) -> Move:
        me = acting_role(state, role)
        self._synced(state)
        answer = self._engine().send(f"genmove {'bw'[me]}").strip().lower()
        if answer == "resign":
            self.resigned = True
            answer = "pass"
        move = state.parse_move(answer)
        assert self._shadow is not None
        try:
            self._shadow.play(move)  # the engine has played it on its own board
        except IllegalMoveError:
            raise IllegalMoveError(
                f"the gtp engine ({self.spec[len(PREFIX):]}) played {answer}, illegal "
                f"under miai's rules (no suicide, positional superko); GNU Go plays "
                f"those rules with --positional-superko") from None
        self._pending = move
        return move

    def observe(self, state_before: State, move: Move | Sequence[Move]) -> None:
        if isinstance(move, Sequence):
            raise StateError("gtp bots play alternating games")
        shadow = self._shadow
        if shadow is None:
            return
        after = state_before.copy().play(move)
        if shadow.to_bytes() == after.to_bytes():
            return  # our own genmove, already on the engine's board
        if shadow.to_bytes() != state_before.to_bytes():
            raise StateError("the gtp engine's board is out of sync with the game")
        colour = "bw"[state_before.to_move]
        self._engine().send(f"play {colour} {state_before.format_move(move)}")
        shadow.play(move)

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
            self.client = None


def make_gtp_bot(command: str, game: Game) -> GtpBot:
    return GtpBot(command, game)
