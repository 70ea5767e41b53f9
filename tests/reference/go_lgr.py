"""Plain-Python reference of last-good-reply with forgetting (LGRF-1, LGRF-2; Baier and Drake,
"The Power of Forgetting: Improving the Last-Good-Reply Policy in Monte Carlo Go",
IEEE TCIAIG 2(4), 2010), as csrc/games/go_policy.c's go_lgr_update applies it.

The table maps (role, previous point) to the reply point.  ``moves`` are the playout's
moves (``passed`` = the pass id), ``prev`` the point of the move before them (None: none
or a pass), ``mover`` who plays moves[0]; ``winner`` 0, 1, or None (a draw or the ply
cap: nothing learnt).  LGRF-2's table maps (role, the move before the previous one,
the previous one) to the reply, learnt by the same rule where both are points.
"""

from __future__ import annotations


def lgrf1_update(table: dict[tuple[int, int], int], prev: int | None, mover: int,
                 moves: list[int], winner: int | None, passed: int) -> dict[tuple[int, int], int]:
    out = dict(table)
    if winner is None:
        return out
    for i, m in enumerate(moves):
        role = (mover + i) % 2
        move = None if m == passed else m
        if prev is not None and move is not None:
            if role == winner:
                out[(role, prev)] = move  # the winner's reply is kept
            elif out.get((role, prev)) == move:
                del out[(role, prev)]  # the loser's is forgotten
        prev = move
    return out


def lgrf2_update(table: dict[tuple[int, int, int], int], prev: int | None, mover: int,
                 moves: list[int], winner: int | None,
                 passed: int) -> dict[tuple[int, int, int], int]:
    """The two-move table after a playout (the move before ``prev`` is not known: the
    first reply learnt is to moves[0] followed by moves[1])."""
    out = dict(table)
    if winner is None:
        return out
    before: int | None = None
    for i, m in enumerate(moves):
        role = (mover + i) % 2
        move = None if m == passed else m
        if before is not None and prev is not None and move is not None:
            key = (role, before, prev)
            if role == winner:
                out[key] = move
            elif out.get(key) == move:
                del out[key]
        before, prev = prev, move
    return out
