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


def dead_opponent_stones(state: State, role: int) -> set[int]:
    """The opponent's stones (of ``role``) that the estimate gives up."""
    from engine import go

    opponent = go.WHITE if role == 0 else go.BLACK
    board = go.colors(state)
    return {p for p in dead_stones(state) if board[p] == opponent}


def cleanup_move(session: GoSession, state: State, move: int, report: Any) -> int:
    """Under clean-up, do not pass while dead opponent stones remain: instead of a
    pass, or of any move when the opponent just passed (no threat to answer), a legal
    move on a liberty of theirs (the most visited such move when the search saw one),
    else the most visited non-pass move."""
    opponent_passed = bool(session.moves) and session.moves[-1][1] == session.pass_move
    if move != session.pass_move and not opponent_passed:
        return move
    dead = dead_opponent_stones(state, state.to_move)
    if not dead:
        return move
    legal = set(state.legal_moves()) - {session.pass_move}
    size = session.size
    near: list[int] = []  # legal points next to dead stones
    for p in sorted(dead):
        r, c = divmod(p, size)
        for q in (p - size if r else -1, p + size if r < size - 1 else -1,
                  p - 1 if c else -1, p + 1 if c < size - 1 else -1):
            if q in legal and q not in near:
                near.append(q)
    ranked = [int(s.move) for s in report.moves] if report is not None else []
    for q in ranked:
        if q in near:
            return q
    if near:
        return near[0]
    if move != session.pass_move:
        return move
    for q in ranked:
        if q in legal:
            return q
    return move
