"""Last-good-reply playouts (csrc/games/go_policy.c, GO_POLICY_LGR) against the
plain-Python LGRF-1 rule of tests/reference/go_lgr.py: what the table learns from each
playout, that the playouts play a stored reply exactly when the reference policy finds
it acceptable, and that a search with the bit runs its playouts through the table."""

from __future__ import annotations

import random

import pytest

from engine import games, go
from engine.errors import InvalidArgumentError
from engine.go_lgr import ReplyMemory
from engine.search import RAVE, Search
from tests.reference import go_policy as ref
from tests.reference.go_lgr import lgrf1_update

FULL = go.POLICY_FULL
LGR = go.POLICY_LGR


def random_position(game, rng: random.Random, plies: int):
    st = game.initial_state()
    last = None
    for _ in range(plies):
        moves = [m for m in st.legal_moves() if m != game.num_moves - 1]
        if not moves:
            break
        last = rng.choice(moves)
        st.play(last)
    return st, last


def winner(st) -> int | None:
    if not st.is_terminal():
        return None
    margin = go.score(st).margin
    return 0 if margin > 0 else 1 if margin < 0 else None


def test_the_bit_is_a_parameter_and_needs_a_memory() -> None:
    games.create("go", size=9, policy=FULL | LGR)
    with pytest.raises(InvalidArgumentError):
        games.create("go", size=9, policy=128)
    with pytest.raises(InvalidArgumentError):
        ReplyMemory(games.create("go", size=9, policy=FULL))


@pytest.mark.parametrize("policy", [FULL | LGR, LGR])
def test_the_table_learns_as_the_reference_rule(policy: int) -> None:
    game = games.create("go", size=7, komi=7, policy=policy)
    rng = random.Random(policy)
    memory = ReplyMemory(game)
    expected: dict[tuple[int, int], int] = {}
    learnt = forgot = 0
    for k in range(40):
        st, last = random_position(game, rng, rng.randrange(1, 20))
        mover = st.to_move
        moves = memory.playout(st, seed=k)
        assert moves and len(moves) <= game.max_plies
        before = expected
        expected = lgrf1_update(before, last, mover, moves, winner(st), game.num_moves - 1)
        assert memory.table() == expected, f"playout {k}"
        learnt += len(set(expected.items()) - set(before.items()))
        forgot += len(set(before) - set(expected))
    assert learnt > 100 and forgot > 0  # both halves of the rule were exercised


def test_a_stored_reply_is_played_exactly_when_acceptable() -> None:
    """After the last move q, the mover's stored reply r is the first playout move for
    every seed when the reference finds r acceptable (empty, not ko, not suicide, not
    an own eye, not a bad self-atari); otherwise r is never played first."""
    game = games.create("go", size=9, komi=7, policy=FULL | LGR)
    rng = random.Random(11)
    played = refused = 0
    for _ in range(40):
        st, last = random_position(game, rng, rng.randrange(5, 90))
        if st.is_terminal() or last is None:
            continue
        board, ko, mover = go.colors(st), go.ko_point(st), st.to_move
        color = mover + 1
        for r in rng.sample(range(game.num_moves - 1), 6):
            ok = (ref.playout_ok(9, board, r, color, ko)
                  and not ref.bad_self_atari(9, board, r, color))
            firsts = set()
            for seed in range(4):  # a fresh table each time: a playout may forget r
                memory = ReplyMemory(game)
                memory.set_reply(mover, last, r)
                firsts.add(memory.playout(st.copy(), seed=seed)[0])
            if ok:
                assert firsts == {r}
                played += 1
            else:
                assert r not in firsts
                refused += 1
    assert played > 20 and refused > 20


def test_replies_of_the_other_colour_or_move_are_not_used() -> None:
    game = games.create("go", size=9, komi=7, policy=FULL | LGR)
    st = game.initial_state()
    st.play(go.point(game, "E5"))
    c3, e5 = go.point(game, "C3"), go.point(game, "E5")
    firsts = set()
    for seed in range(30):
        memory = ReplyMemory(game)
        memory.set_reply(0, e5, c3)  # black's reply; white is to move
        memory.set_reply(1, go.point(game, "D4"), c3)  # a reply to another move
        firsts.add(memory.playout(st.copy(), seed=seed)[0])
    assert len(firsts) > 5


def root_visits(policy: int, seed: int) -> list[tuple[int, int]]:
    game = games.create("go", size=9, komi=7, policy=policy)
    st = game.initial_state()
    st.play(go.point(game, "E5"))
    search = Search(st, RAVE(prior=20.0, knowledge=True), iterations=400, seed=seed)
    search.run()
    return [(e.move, e.visits) for e in search.root_edges()]


def test_a_search_with_the_bit_is_deterministic_and_differs() -> None:
    with_lgr = root_visits(FULL | LGR, 5)
    assert with_lgr == root_visits(FULL | LGR, 5)
    assert with_lgr != root_visits(FULL, 5)  # the search's playouts went through the table
