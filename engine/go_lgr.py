"""Last-good-reply playouts of the Go game (csrc/games/go_lgr_api.h), one at a time.

A search over a Go game whose ``policy`` has :data:`engine.go.POLICY_LGR` keeps a reply
table of its own and its playouts learn in it (LGRF-1, Baier & Drake 2010).  This module
drives the same playouts by hand on a :class:`ReplyMemory`, so tests can check what the
table learns and that the playouts use it.
"""

from __future__ import annotations

from engine.core import check, ffi, lib
from engine.errors import InvalidArgumentError
from engine.games import Game, State


class ReplyMemory:
    """A zeroed reply table (nothing learnt) for the Go game ``game`` (with the LGR bit)."""

    def __init__(self, game: Game) -> None:
        if not isinstance(game, Game) or game.name != "go":
            raise InvalidArgumentError(f"a Go game is needed, not {game!r}")
        size = ffi.new("size_t *")
        check(lib.go_lgr_memory_bytes(game.ptr, size), "LGR memory")
        self.game = game
        self.bytes = int(size[0])
        self._buf = ffi.new("uint8_t[]", self.bytes)
        self.none = game.num_moves - 1  # the pass id: no reply

    def reply(self, role: int, prev: int) -> int | None:
        """The point ``role`` plays first after a move at ``prev``, or None."""
        out = ffi.new("miai_move *")
        check(lib.go_lgr_get(self.game.ptr, self._buf, self.bytes, role, prev, out), "LGR get")
        return None if out[0] == self.none else int(out[0])

    def set_reply(self, role: int, prev: int, reply: int | None) -> None:
        move = self.none if reply is None else reply
        check(lib.go_lgr_set(self.game.ptr, self._buf, self.bytes, role, prev, move),
              "LGR set")

    def reply2(self, role: int, before: int, prev: int) -> int | None:
        """With POLICY_LGR2: ``role``'s reply to ``before`` followed by ``prev``."""
        out = ffi.new("miai_move *")
        check(lib.go_lgr_get2(self.game.ptr, self._buf, self.bytes, role, before, prev, out),
              "LGR get2")
        return None if out[0] == self.none else int(out[0])

    def set_reply2(self, role: int, before: int, prev: int, reply: int | None) -> None:
        move = self.none if reply is None else reply
        check(lib.go_lgr_set2(self.game.ptr, self._buf, self.bytes, role, before, prev, move),
              "LGR set2")

    def table2(self) -> dict[tuple[int, int, int], int]:
        """Every stored two-move reply: (role, before, prev) -> reply."""
        out: dict[tuple[int, int, int], int] = {}
        for role in (0, 1):
            for before in range(self.none):
                for prev in range(self.none):
                    r = self.reply2(role, before, prev)
                    if r is not None:
                        out[(role, before, prev)] = r
        return out

    def table(self) -> dict[tuple[int, int], int]:
        """Every stored reply: (role, prev) -> reply."""
        out: dict[tuple[int, int], int] = {}
        for role in (0, 1):
            for prev in range(self.none):
                r = self.reply(role, prev)
                if r is not None:
                    out[(role, prev)] = r
        return out

    def playout(self, state: State, seed: int = 0) -> list[int]:
        """Play ``state`` (changed in place) out with the table, learning from the
        result; the moves played (pass = size^2)."""
        if state.game is not self.game and state.game.spec != self.game.spec:
            raise InvalidArgumentError("the state is not of this memory's game")
        if not 0 <= seed < 2**64:
            raise InvalidArgumentError("seed must be in [0, 2**64)")
        cap = self.game.max_plies
        trace, n = ffi.new("miai_move[]", cap), ffi.new("uint32_t *")
        check(lib.go_lgr_playout(self.game.ptr, state.ptr, seed, self._buf, self.bytes,
                                 trace, cap, n), "LGR playout")
        return [int(trace[i]) for i in range(n[0])]
