"""The debug `check` of breakthrough, knightthrough and leftright catches corrupted
states even when the stored keys are made to agree with the corrupted contents.

The byte layouts below are those of the C state structs (a 24-byte miai_head, then
the game's fields; see the game files)."""

from __future__ import annotations

import struct

import pytest

from engine import games
from engine.core import ffi
from engine.errors import CorruptStateError

HEAD = struct.Struct("<QQiI")  # key, key2, to_move, ply


def write(state: games.State, data: bytes) -> None:
    ffi.memmove(state.ptr, data, len(data))


def corrupt(state: games.State, offset: int, fmt: str, value: int, fix_keys: bool = True):
    raw = bytearray(state.to_bytes())
    struct.pack_into(fmt, raw, offset, value)
    write(state, bytes(raw))
    if fix_keys:  # make the stored keys agree, so only `check` can notice
        k1, k2 = state.keys_from_scratch()
        raw = bytearray(state.to_bytes())
        struct.pack_into("<QQ", raw, 0, k1, k2)
        write(state, bytes(raw))


@pytest.mark.parametrize("name", ["breakthrough", "knightthrough"])
def test_board_game_check_catches_corruption(name: str) -> None:
    game = games.create(name)
    start = game.initial_state().play_all(game.initial_state().legal_moves()[:1])
    start.check()
    pawns0, pawns1 = struct.unpack_from("<QQ", start.to_bytes(), 24)

    state = start.copy()  # a square held by both sides
    corrupt(state, 32, "<Q", pawns1 | (pawns0 & -pawns0))
    with pytest.raises(CorruptStateError):
        state.check()

    state = start.copy()  # ply parity no longer matches the side to move
    corrupt(state, 20, "<I", start.ply + 1)
    with pytest.raises(CorruptStateError):
        state.check()

    state = start.copy()  # a winner recorded in a live game
    corrupt(state, 41, "<B", 0)
    with pytest.raises(CorruptStateError):
        state.check()

    state = start.copy()  # the game declared over with nobody on a goal row
    corrupt(state, 16, "<i", games.NOBODY)
    with pytest.raises(CorruptStateError):
        state.check()

    state = start.copy()  # stale stored key
    corrupt(state, 24, "<Q", pawns0 ^ 1 << 20, fix_keys=False)
    with pytest.raises(CorruptStateError):
        state.check()


def test_leftright_check_catches_corruption() -> None:
    game = games.create("leftright", steps=10)
    start = game.initial_state().play_all("LRL")
    start.check()

    state = start.copy()  # more Left steps than steps
    corrupt(state, 28, "<I", 4)
    with pytest.raises(CorruptStateError):
        state.check()

    state = start.copy()  # past the end of the game
    corrupt(state, 24, "<I", 11)
    with pytest.raises(CorruptStateError):
        state.check()

    state = start.copy()  # ply out of step
    corrupt(state, 20, "<I", 2)
    with pytest.raises(CorruptStateError):
        state.check()

    state = start.copy()  # a different position under the old key
    corrupt(state, 28, "<I", 1, fix_keys=False)
    with pytest.raises(CorruptStateError):
        state.check()
