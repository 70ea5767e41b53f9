"""The Python search API: budgets, determinism across batch splits, threads (stop,
GIL release, two searches at once), re-rooting, reports and bad input."""

from __future__ import annotations

import math
import threading

import pytest

import engine.search.search as search_module
from engine import games
from engine.errors import (
    GameOverError,
    IllegalMoveError,
    InvalidArgumentError,
    UnknownNameError,
)
from engine.search import UCT, Search, SearchResult, algorithm_from_spec, confidence_interval


def start() -> games.State:
    return games.create("tictactoe").initial_state()


def fingerprint(search: Search) -> list[tuple[int, int, int, float]]:
    return [(e.move, e.visits, e.visits_prime, e.sum) for e in search.root_edges()]


@pytest.mark.parametrize("mode", ["dag", "tree"])
def test_same_seed_same_result_and_batch_splits_do_not_matter(mode: str) -> None:
    one = Search(start(), UCT(), seed=11, mode=mode)
    r1 = one.run(iterations=3000)
    two = Search(start(), UCT(), seed=11, mode=mode)
    for n in (1, 2, 997, 1000, 1000):
        two.run(iterations=n)
    r2 = two.result()
    assert fingerprint(one) == fingerprint(two)
    assert (r1.best_move, r1.pv, r1.nodes) == (r2.best_move, r2.pv, r2.nodes)
    other = Search(start(), UCT(), seed=12, mode=mode)
    other.run(iterations=3000)
    assert fingerprint(other) != fingerprint(one)


def test_tiny_c_batches_give_the_same_statistics(monkeypatch: pytest.MonkeyPatch) -> None:
    reference = Search(start(), UCT(), seed=4)
    reference.run(iterations=2000)
    monkeypatch.setattr(search_module, "BATCH_ITERATIONS", 7)
    batches: list[SearchResult] = []
    split = Search(start(), UCT(), seed=4)
    split.run(iterations=2000, on_batch=batches.append)
    assert len(batches) >= 2000 // 7
    assert fingerprint(split) == fingerprint(reference)


def test_result_reports_consistent_statistics() -> None:
    search = Search(start(), UCT(c=0.5), iterations=4000, seed=2, mode="tree")
    result = search.run()
    assert result.iterations == 4000
    assert sum(m.visits for m in result.moves) == 4000
    assert [m.visits for m in result.moves] == sorted((m.visits for m in result.moves),
                                                       reverse=True)
    assert result.best_move == result.moves[0].move
    assert result.pv and result.pv[0] == result.best_text
    assert result.role == 0
    for m in result.moves:
        assert m.ci_low <= m.mean <= m.ci_high
        assert m.text == search.state.format_move(m.move)
    weighted = sum(m.mean * m.visits for m in result.moves) / 4000
    assert math.isclose(result.root_value, weighted)
    assert result.extra["bytes_per_edge"] <= 48
    assert math.isclose(result.extra["root_values"][0], result.root_value)
    assert result.nodes == search.info()["nodes"]
    role_means = result.extra["role_means"]
    for m in result.moves:
        means, count = role_means[m.text]
        assert count == m.visits
        if count:
            assert math.isclose(means[0], m.mean)
            assert math.isclose(means[0] + means[1], 1.0)  # tictactoe is zero-sum


def test_confidence_interval_is_the_bernoulli_wald_interval() -> None:
    low, high = confidence_interval(0.5, 100)
    assert math.isclose(high - 0.5, 1.959963984540054 * math.sqrt(0.25 / 100))
    assert math.isclose(0.5 - low, high - 0.5)
    assert confidence_interval(0.3, 0) == (0.0, 1.0)
    assert confidence_interval(1.0, 3) == (1.0, 1.0)


def test_seconds_budget_and_both_budgets() -> None:
    result = Search(start(), UCT(), seconds=0.05, seed=1).run()
    assert result.iterations > 0
    capped = Search(start(), UCT(), seed=1).run(iterations=300, seconds=30.0)
    assert capped.iterations == 300


def test_stop_from_another_thread_ends_run() -> None:
    search = Search(start(), UCT(), seed=1)
    results: list[SearchResult] = []
    started = threading.Event()
    worker = threading.Thread(
        target=lambda: results.append(search.run(seconds=120.0, on_batch=lambda r: started.set()))
    )
    worker.start()
    assert started.wait(60)
    search.stop()
    worker.join(60)
    assert not worker.is_alive()
    assert results and results[0].iterations > 0


def test_seconds_run_returns_while_another_python_thread_keeps_running() -> None:
    counter = [0]
    done = threading.Event()

    def count() -> None:
        while not done.is_set():
            counter[0] += 1

    counter_thread = threading.Thread(target=count)
    counter_thread.start()
    try:
        result = Search(start(), UCT(), seed=1).run(seconds=0.2)
        assert counter_thread.is_alive()
    finally:
        done.set()
        counter_thread.join()
    assert result.iterations > 0
    assert counter[0] > 0


def test_run_releases_the_gil_inside_c(monkeypatch: pytest.MonkeyPatch) -> None:
    """One C call of up to 300 s: Python code in this thread can only run (and stop
    it) while that call is in progress if the call released the GIL."""
    monkeypatch.setattr(search_module, "BATCH_SECONDS", 300.0)
    search = Search(start(), UCT(), seed=1)
    results: list[SearchResult] = []
    entering = threading.Event()

    def work() -> None:
        entering.set()
        results.append(search.run(seconds=300.0))

    worker = threading.Thread(target=work)
    worker.start()
    assert entering.wait(60)
    seen_running = False
    while worker.is_alive():
        # Pure Python (needs the GIL) while the worker is inside its one C call; the
        # counter read is a plain load of a number the C loop increments.
        if search.info()["iterations"] > 0:
            seen_running = True
            search.stop()
        worker.join(0.01)
    assert seen_running
    assert results[0].iterations > 0
    assert results[0].seconds < 150.0  # stopped, not run out: the GIL was free


def test_result_during_a_run_does_not_block() -> None:
    search = Search(start(), UCT(), seed=1)
    seen: list[SearchResult] = []
    worker = threading.Thread(target=lambda: search.run(seconds=120.0))
    worker.start()
    try:
        while not seen or seen[-1].iterations == 0:
            seen.append(search.result())
    finally:
        search.stop()
        worker.join(60)
    assert seen[-1].iterations > 0


def test_two_searches_in_two_threads_match_sequential_runs() -> None:
    def run(seed: int, mode: str) -> list[tuple[int, int, int, float]]:
        s = Search(start(), UCT(), seed=seed, mode=mode)
        s.run(iterations=20_000)
        return fingerprint(s)

    expected = [run(1, "dag"), run(2, "tree")]
    got: list[list[tuple[int, int, int, float]]] = [[], []]
    threads = [
        threading.Thread(target=lambda: got.__setitem__(0, run(1, "dag"))),
        threading.Thread(target=lambda: got.__setitem__(1, run(2, "tree"))),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == expected


def test_advance_keeps_state_in_sync() -> None:
    search = Search(start(), UCT(), seed=1)
    search.run(iterations=2000)
    search.advance("b2")
    search.advance(0)
    assert search.state.to_bytes() == start().play_all(["b2", "a3"]).to_bytes()
    result = search.run(iterations=500)
    assert result.role == 0
    assert {m.move for m in result.moves} == set(search.state.legal_moves())
    with pytest.raises(IllegalMoveError):
        search.advance("b2")
    for move in ("c3", "b3", "a2", "c1", "a1"):
        search.advance(move)  # x: b2 c3 a2 a1 ... ends the game
        if search.state.is_terminal():
            break
    assert search.state.is_terminal()
    with pytest.raises(GameOverError):
        search.run(iterations=10)
    assert search.result().best_move == -1
    with pytest.raises(GameOverError):
        search.advance(0)


def test_algorithm_from_spec() -> None:
    assert algorithm_from_spec("uct", {"c": "0.5", "final": "mean"}) == UCT(0.5, "mean")
    assert algorithm_from_spec("UCT", {}) == UCT()
    with pytest.raises(UnknownNameError):
        algorithm_from_spec("nope", {})
    with pytest.raises(UnknownNameError):
        algorithm_from_spec("uct", {"k": "1"})
    with pytest.raises(InvalidArgumentError):
        algorithm_from_spec("uct", {"c": "abc"})
    with pytest.raises(InvalidArgumentError):
        algorithm_from_spec("uct", {"c": "nan"})
    with pytest.raises(InvalidArgumentError):
        algorithm_from_spec("uct", {"final": "best"})


@pytest.mark.parametrize(
    "kwargs",
    [
        {"iterations": -1},
        {"iterations": 1.5},
        {"iterations": True},
        {"seconds": -0.1},
        {"seconds": math.nan},
        {"seconds": math.inf},
        {"seed": -1},
        {"seed": 2**64},
        {"max_nodes": 0},
        {"max_nodes": 2**40},
        {"max_bytes": 1000},
        {"max_bytes": 2.5e6},
        {"mode": "graph"},
        {"role": 2},
        {"role": -1},
    ],
)
def test_bad_search_arguments(kwargs: dict[str, object]) -> None:
    with pytest.raises(InvalidArgumentError):
        Search(start(), UCT(), **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [{"c": -1.0}, {"c": math.nan}, {"c": math.inf},
                                 {"final": "best"}, {"c": "1"}])
def test_bad_uct_parameters(bad: dict[str, object]) -> None:
    with pytest.raises(InvalidArgumentError):
        UCT(**bad)  # type: ignore[arg-type]


def test_bad_calls() -> None:
    with pytest.raises(InvalidArgumentError):
        Search("not a state", UCT())  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError):
        Search(start(), object())
    with pytest.raises(GameOverError):
        Search(start().play_all(["a3", "a2", "b3", "b2", "c3"]), UCT())
    search = Search(start(), UCT())
    with pytest.raises(InvalidArgumentError):
        search.run()  # no budget anywhere
    with pytest.raises(InvalidArgumentError):
        search.run(iterations=-5)
    with pytest.raises(InvalidArgumentError):
        search.set_pruned(99)
    with pytest.raises(InvalidArgumentError):
        search.set_pruned(-1)
    with pytest.raises(InvalidArgumentError):
        search.advance([0, 1, 2])
    with pytest.raises(InvalidArgumentError):
        search.advance("z9")
    with pytest.raises(InvalidArgumentError):
        search.node(10**6)
