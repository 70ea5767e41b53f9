"""Plain-Python reference of last-good-reply with forgetting (LGRF-1; Baier and Drake,
"The Power of Forgetting: Improving the Last-Good-Reply Policy in Monte Carlo Go",
IEEE TCIAIG 2(4), 2010), as csrc/games/go_policy.c's go_lgr_update applies it.

The table maps (role, previous point) to the reply point.  ``moves`` are the playout's
moves (``passed`` = the pass id), ``prev`` the point of the move before them (None: none
or a pass), ``mover`` who plays moves[0]; ``winner`` 0, 1, or None (a draw or the ply
cap: nothing learnt).
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
