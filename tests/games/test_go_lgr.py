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
from tests.reference.go_lgr import lgrf1_update, lgrf2_update

FULL = go.POLICY_FULL
LGR = go.POLICY_LGR
LGR2 = go.POLICY_LGR2


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
    games.create("go", size=9, policy=FULL | LGR | LGR2)
    with pytest.raises(InvalidArgumentError):
        games.create("go", size=9, policy=512)
    with pytest.raises(InvalidArgumentError):  # the two-move table needs its bit
        ReplyMemory(games.create("go", size=9, policy=FULL | LGR)).reply2(0, 1, 2)
    with pytest.raises(InvalidArgumentError):
        ReplyMemory(games.create("go", size=9, policy=FULL))


@pytest.mark.parametrize("policy", [FULL | LGR, LGR, FULL | LGR | LGR2])
def test_the_table_learns_as_the_reference_rule(policy: int) -> None:
    game = games.create("go", size=7, komi=7, policy=policy)
    two = bool(policy & LGR2)
    rng = random.Random(policy)
    memory = ReplyMemory(game)
    expected: dict[tuple[int, int], int] = {}
    expected2: dict[tuple[int, int, int], int] = {}
    learnt = forgot = learnt2 = forgot2 = 0
    for k in range(25 if two else 40):
        st, last = random_position(game, rng, rng.randrange(1, 20))
        mover = st.to_move
        moves = memory.playout(st, seed=k)
        assert moves and len(moves) <= game.max_plies
        before, won = expected, winner(st)
        expected = lgrf1_update(before, last, mover, moves, won, game.num_moves - 1)
        assert memory.table() == expected, f"playout {k}"
        learnt += len(set(expected.items()) - set(before.items()))
        forgot += len(set(before) - set(expected))
        if two:
            before2 = expected2
            expected2 = lgrf2_update(before2, last, mover, moves, won, game.num_moves - 1)
            assert memory.table2() == expected2, f"playout {k}"
            learnt2 += len(set(expected2.items()) - set(before2.items()))
            forgot2 += len(set(before2) - set(expected2))
    assert learnt > 100 and forgot > 0  # both halves of the rule were exercised
    if two:
        assert learnt2 > 100 and forgot2 > 0


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


def test_a_two_move_reply_comes_before_the_one_move_reply() -> None:
    """From the second playout move on: after q' then q, reply2[q'][q] is played when
    acceptable, else reply[q]."""
    game = games.create("go", size=9, komi=7, policy=FULL | LGR | LGR2)
    st = game.initial_state()
    for v in ("E5", "C3"):
        st.play(go.point(game, v))
    p = {v: go.point(game, v) for v in ("E5", "C3", "G7", "G3", "C7", "D4")}
    seen = set()
    for seed in range(12):
        memory = ReplyMemory(game)
        memory.set_reply(0, p["C3"], p["G7"])  # black answers C3 at G7
        memory.set_reply2(1, p["C3"], p["G7"], p["G3"])  # white: C3 then G7 -> G3
        memory.set_reply(1, p["G7"], p["C7"])  # white's one-move reply to G7
        moves = memory.playout(st.copy(), seed=seed)
        seen.add(tuple(moves[:2]))
    assert seen == {(p["G7"], p["G3"])}
    for seed in range(12):  # the two-move reply occupied: the one-move reply plays
        memory = ReplyMemory(game)
        memory.set_reply(0, p["C3"], p["G7"])
        memory.set_reply2(1, p["C3"], p["G7"], p["E5"])
        memory.set_reply(1, p["G7"], p["C7"])
        assert memory.playout(st.copy(), seed=seed)[:2] == [p["G7"], p["C7"]]
