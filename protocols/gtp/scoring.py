"""Scoring for GTP: dead stones from ownership, final_score, final_status_list,
whether passing wins, and the clean-up move of kgs-genmove_cleanup.

Dead stones are estimated as in most MCTS engines: a stone whose point ends owned by the
opponent in most random playouts from the position is dead.  Area (Chinese) scoring
with komi is computed in C with those stones removed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.games import State

if TYPE_CHECKING:
    from protocols.gtp.session import GoSession

OWNERSHIP_PLAYOUTS = 400


def dead_stones(state: State) -> set[int]:
    """Stones whose groups the playouts give to the opponent (seeded by the position,
    so the same position always gets the same answer)."""
    from engine import go

    return set(go.dead_stones(state, OWNERSHIP_PLAYOUTS, seed=state.key & 0xFFFFFFFF))


def final_margin(session: GoSession) -> float:
    """Black's area minus White's area minus komi, dead stones removed."""
    from engine import go

    state = session.state
    return go.score(state, dead_stones(state)).margin


def status_list(session: GoSession, status: str) -> set[int]:
    from engine import go

    board = go.colors(session.state)
    stones = {p for p, c in enumerate(board) if c != go.EMPTY}
    dead = dead_stones(session.state)
    if status == "dead":
        return dead
    if status == "alive":
        return stones - dead
    return set()  # seki is not told apart: such stones are listed as alive


def status_groups(session: GoSession, status: str) -> list[list[int]]:
    """The stones of ``status`` as strings (connected stones of one colour), each
    sorted, the strings in board order: ``final_status_list`` answers one string per
    line (GTP 2, as GNU Go does)."""
    from engine import go

    points = status_list(session, status)
    board = go.colors(session.state)
    size = session.size
    seen: set[int] = set()
    groups = []
    for p in sorted(points):
        if p in seen:
            continue
        group, todo = [], [p]
        seen.add(p)
        while todo:
            q = todo.pop()
            group.append(q)
            r, c = divmod(q, size)
            for n, ok in ((q - size, r > 0), (q + size, r < size - 1),
                          (q - 1, c > 0), (q + 1, c < size - 1)):
                if ok and n in points and n not in seen and board[n] == board[p]:
                    seen.add(n)
                    todo.append(n)
        groups.append(sorted(group))
    return groups


def passing_wins(session: GoSession, state: State, role: int) -> bool:
    """The opponent just passed and the game, scored now, is won by ``role``."""
    if not session.moves or session.moves[-1][1] != session.pass_move:
        return False
    if session.moves[-1][0] == role:
        return False
    from engine import go

    margin = go.score(state, dead_stones(state)).margin
    return margin > 0 if role == 0 else margin < 0


def cleanup_move(session: GoSession, state: State, move: int, report: Any) -> int:
    """Under kgs-genmove_cleanup, do not pass while dead opponent stones remain:
    take the most visited non-pass move, or any legal move next to them."""
    if move != session.pass_move:
        return move
    from engine import go

    opponent = go.WHITE if state.to_move == 0 else go.BLACK
    board = go.colors(state)
    dead = {p for p in dead_stones(state) if board[p] == opponent}
    if not dead:
        return move
    legal = set(state.legal_moves()) - {session.pass_move}
    if report is not None:
        for stats in report.moves:
            if stats.move in legal:
                return int(stats.move)
    size = session.size
    for p in sorted(dead):
        r, c = divmod(p, size)
        for q in (p - size if r else -1, p + size if r < size - 1 else -1,
                  p - 1 if c else -1, p + 1 if c < size - 1 else -1):
            if q in legal:
                return q
    return move
