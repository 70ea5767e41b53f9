"""Tournament statistics and reports against hand-computed values."""

from __future__ import annotations

import math
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from bots.tournament.report import (
    NO_MATPLOTLIB,
    choose_axes,
    format_text,
    summarise,
    write_report,
)
from bots.tournament.schedule import RunSpec, make_players
from bots.tournament.stats import (
    Result,
    elo,
    mean_interval,
    normal_interval,
    pairwise_results,
)
from bots.tournament.store import Store, StoredGame
from engine.errors import InvalidArgumentError

ELO_PER_LOGIT = 400 / math.log(10)  # 173.7178...


def test_wilson_interval_by_hand() -> None:
    # p = 30/40 = 0.75, z = 1.959964, z^2 = 3.841459:
    # centre = (0.75 + 3.841459/80) / (1 + 3.841459/40) = 0.798018 / 1.096036 = 0.728094
    # half = z sqrt(0.75*0.25/40 + 3.841459/6400) / 1.096036 = 1.959964*0.072717/1.096036
    #      = 0.130034  ->  [0.598060, 0.858129]
    mean, low, high = mean_interval(30, 40)
    assert mean == 0.75
    assert low == pytest.approx(0.598060, abs=2e-6)
    assert high == pytest.approx(0.858129, abs=2e-6)
    assert mean_interval(0, 0) == (0.0, 0.0, 1.0)
    # all wins: the upper end is 1, the lower end n / (n + z^2) = 10 / 13.841459
    assert mean_interval(10, 10)[1] == pytest.approx(10 / 13.841459, abs=2e-6)


def test_normal_interval_of_one_player_series_by_hand() -> None:
    # scores 0.5, 0.7, 0.9: mean 0.7, sample s = 0.2, half = 1.959964 * 0.2 / sqrt(3)
    # = 0.226317 -> [0.473683, 0.926317]
    mean, low, high = normal_interval(2.1, 0.25 + 0.49 + 0.81, 3)
    assert mean == pytest.approx(0.7)
    assert low == pytest.approx(0.473683, abs=2e-6)
    assert high == pytest.approx(0.926317, abs=2e-6)
    assert normal_interval(0.5, 0.25, 1) == mean_interval(0.5, 1)


def test_elo_two_players_by_hand() -> None:
    # 30 points of 40: the MLE matches the score, D = 400 log10(0.75/0.25) = 190.8485;
    # Fisher information of the difference 40 * 0.75 * 0.25 = 7.5 (logit units), so
    # its 95% half-width is 1.959964 * sqrt(1/7.5) * 173.7178 = 124.3259.
    fit = elo(["A", "B"], [Result("A", "B", 30, 40)], prior=0)
    assert fit.rating("A") == pytest.approx(95.4243, abs=1e-3)
    assert fit.rating("B") == pytest.approx(-95.4243, abs=1e-3)
    diff, half = fit.difference("A", "B")
    assert diff == pytest.approx(190.8485, abs=1e-3)
    assert half == pytest.approx(124.3259, abs=1e-3)
    assert fit.half_widths[0] == pytest.approx(124.3259 / 2, abs=1e-3)
    assert fit.prior_draws == 0 and fit.connected


def test_elo_three_players_by_hand() -> None:
    # Results consistent with Bradley-Terry: odds 3 (A-B), 3 (B-C), 9 (A-C), so the MLE
    # reproduces them exactly: A = +190.8485, B = 0, C = -190.8485.
    results = [Result("A", "B", 30, 40), Result("B", "C", 30, 40), Result("C", "A", 4, 40)]
    fit = elo(["A", "B", "C"], results, prior=0)
    assert fit.ratings == pytest.approx((190.8485, 0.0, -190.8485), abs=1e-3)
    # Var(A - C) is the effective resistance between A and C of the network whose
    # conductances are the informations n p (1 - p): 7.5 (A-B), 7.5 (B-C), 40*0.9*0.1
    # = 3.6 (A-C); A-B-C in series gives 3.75, in parallel with 3.6: 7.35.
    diff, half = fit.difference("A", "C")
    assert diff == pytest.approx(381.6970, abs=1e-3)
    assert half == pytest.approx(1.959964 * math.sqrt(1 / 7.35) * ELO_PER_LOGIT, abs=1e-3)


def test_elo_prior_when_the_maximum_does_not_exist() -> None:
    results = [Result("A", "B", 10, 10)]
    with pytest.raises(InvalidArgumentError, match="does not exist"):
        elo(["A", "B"], results, prior=0)
    # One virtual draw: 10.5 of 11, D = 400 log10(10.5 / 0.5) = 400 log10(21)
    #   = 400 * 1.322219 = 528.8877
    fit = elo(["A", "B"], results, prior=1.0)
    assert fit.prior_draws == 1.0
    assert fit.difference("A", "B")[0] == pytest.approx(528.8877, abs=1e-3)


def test_elo_disconnected_groups_are_flagged() -> None:
    fit = elo(["A", "B", "C", "D"], [Result("A", "B", 3, 4), Result("C", "D", 1, 4)],
              prior=1.0)
    assert not fit.connected


def test_pairwise_results_of_one_game() -> None:
    assert pairwise_results(["a", "b"], [1.0, 0.0]) == [("a", "b", 1.0)]
    assert pairwise_results(["a", "b"], [0.5, 0.5]) == [("a", "b", 0.5)]
    assert pairwise_results(["a", "b", "c"], [0.0, 1.0, 0.0]) == [
        ("a", "b", 0.0), ("a", "c", 0.5), ("b", "c", 1.0)]
    assert pairwise_results(["a", "a"], [1.0, 0.0]) == []


def fake_game(pairing: tuple[str, ...], index: int, rewards: tuple[float, ...],
              its: tuple[int, int] = (100, 10)) -> StoredGame:
    """A 4-ply two-player game; role 0 thinks its[0] per move, role 1 its[1]."""
    seats = (0, 1) if index % 2 == 0 else (1, 0)
    return StoredGame(
        run="r", pairing=" | ".join(pairing), game_index=index, game="tictactoe",
        players=tuple(pairing[p] for p in seats), seats=seats, opening=(),
        moves=("a1", "b1", "a2", "b2"), roles=((0,), (1,), (0,), (1,)), rewards=rewards,
        iterations=((its[0],), (its[1],), (its[0],), (its[1],)),
        seconds=((0.5,), (0.25,), (0.5,), (0.25,)), seeds=(1, 2), worker="w",
        wall_seconds=1.0)


def test_summary_scores_draws_as_half_and_counts_per_player(tmp_path: Path) -> None:
    spec = RunSpec("tictactoe", make_players(["x:a=1", "x:a=2"]), "round-robin", 4)
    with Store(tmp_path / "r.db") as store:
        store.open_run("r", spec)
        pair = ("x:a=1", "x:a=2")
        # game 0: x:a=1 is role 0 and wins; game 1: x:a=1 is role 1, draw;
        # game 2: role 0, loses; game 3: role 1, wins.
        for g in [fake_game(pair, 0, (1.0, 0.0)), fake_game(pair, 1, (0.5, 0.5)),
                  fake_game(pair, 2, (0.0, 1.0)), fake_game(pair, 3, (0.0, 1.0))]:
            store.add_game(g)
        summary = summarise(store, "r")
    (row,) = summary.rows
    assert (row.games, row.wins, row.draws, row.losses) == (4, 2, 1, 1)
    assert row.points == 2.5
    # x:a=1 played role 0 in games 0 and 2 (2 x 100 iterations each) and role 1 in
    # games 1 and 3 (2 x 10 each): 440 iterations in 4 games.
    assert row.per_game(row.iterations, 0) == 110
    assert row.per_game(row.iterations, 1) == 110
    assert row.per_game(row.seconds, 0) == 0.75
    assert summary.elo is not None
    assert summary.elo.difference("x:a=1", "x:a=2")[0] == pytest.approx(
        400 * math.log10(2.5 / 1.5), abs=1e-6)
    text = format_text(summary)
    assert "2-1-1" in text and "62.5%" in text


def test_series_report_and_plot(tmp_path: Path) -> None:
    players = make_players(["u:c=1,mode=tree", "u:c=1,d=0", "u:c=1,d=1", "u:c=1,d=inf"])
    spec = RunSpec("leftright:steps=4", players, "series", 2,
                   extra={"paper": {"u:c=1,d=inf": 0.9}, "title": "LR"})
    with Store(tmp_path / "s.db") as store:
        store.open_run("r", spec)
        for k, p in enumerate(players):
            for g in range(2):
                store.add_game(StoredGame(
                    run="r", pairing=p.spec, game_index=g, game=spec.game,
                    players=(p.spec,), seats=(0,), opening=(), moves=("L",) * 4,
                    roles=((0,),) * 4, rewards=(0.25 * k,), iterations=((7,),) * 4,
                    seconds=((0.1,),) * 4, seeds=(g,), worker="w", wall_seconds=0.4))
        summary = summarise(store, "r")
        assert [r.score[0] for r in summary.rows] == [0.0, 0.25, 0.5, 0.75]
        assert summary.rows[3].paper == 0.9
        assert summary.elo is None
        path = write_report(store, tmp_path / "out")
    text = path.read_text()
    assert "| paper |" in text.splitlines()[8] or "paper" in text
    assert "90.0%" in text and "![LR](r.png)" in text
    assert (tmp_path / "out" / "r.png").stat().st_size > 1000


def test_plot_axes_choice() -> None:
    from bots.tournament.report import Point

    pts = [Point("a", "ucd", {"d1": a, "d2": "0", "d3": b, "iterations": "5"}, 0.5, 0.4, 0.6)
           for a in ("0", "1", "inf") for b in ("0", "1")]
    assert choose_axes(pts) == ("d1", ["d3"])
    assert choose_axes(pts, x="d3") == ("d3", ["d1"])
    assert choose_axes(pts, x="d1", series="d2") == ("d1", ["d2"])
    assert choose_axes([Point("a", "uct", {}, 0.5, 0.4, 0.6)]) == (None, [])


def two_runs_to_plot(db: Path) -> None:
    """Runs r and s, each a pairing whose parameter a varies: both want a plot."""
    spec = RunSpec("tictactoe", make_players(["x:a=1", "x:a=2"]), "round-robin", 2)
    with Store(db) as store:
        for run in ("r", "s"):
            store.open_run(run, spec)
            store.add_game(replace(fake_game(("x:a=1", "x:a=2"), 0, (1.0, 0.0)), run=run))


def test_report_without_matplotlib(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    two_runs_to_plot(tmp_path / "r.db")
    warnings: list[str] = []
    with Store(tmp_path / "r.db") as store:
        path = write_report(store, tmp_path / "out", warn=warnings.append)
    text = path.read_text()
    assert text.count("matplotlib is not installed; `pip install matplotlib`") == 2
    assert "| x:a=1 |" in text
    assert not list((tmp_path / "out").glob("*.png"))
    assert warnings == [NO_MATPLOTLIB]  # once, not once per run


@pytest.mark.parametrize("importable", [True, False])
def test_report_command_says_how_to_get_the_plots(
        importable: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from protocols.cli.main import main

    if not importable:
        monkeypatch.setitem(sys.modules, "matplotlib", None)
    two_runs_to_plot(tmp_path / "r.db")
    assert main(["report", str(tmp_path / "r.db"), "--out", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    pngs = sorted(p.name for p in (tmp_path / "out").glob("*.png"))
    if importable:
        assert err == "" and pngs == ["r.png", "s.png"]
    else:
        assert err == "miai: no plots: matplotlib is not installed (pip install matplotlib)\n"
        assert pngs == []
