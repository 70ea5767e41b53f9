"""Tournaments: schedules, the results store, resuming, and the same games whatever
runs them (one process, a process pool, a Dask LocalCluster)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bots.match import replay
from bots.tournament import runner, schedule
from bots.tournament.driver import execute
from bots.tournament.schedule import RunSpec, make_players
from bots.tournament.store import Store, StoredGame
from engine import games
from engine.errors import InvalidArgumentError

ROOT = Path(__file__).resolve().parents[2]
SPECS = ("mc:playouts=8", "random", "mc:playouts=30")


def ttt_run(games_per_pairing: int = 4, specs: tuple[str, ...] = SPECS,
            fmt: str = "round-robin", **kw: object) -> RunSpec:
    return RunSpec(game="tictactoe", players=make_players(specs), format=fmt,
                   games=games_per_pairing, seed=7, **kw)  # type: ignore[arg-type]


def contents(store: Store, run: str) -> list[tuple[object, ...]]:
    return [g.content() for g in store.games(run)]


# Schedules ---------------------------------------------------------------------------
def test_round_robin_gauntlet_and_series_pairings() -> None:
    rr = schedule.pairings(ttt_run(specs=("a", "b", "c", "d")), 2)
    assert rr == [("a", "b"), ("a", "c"), ("a", "d"), ("b", "c"), ("b", "d"), ("c", "d")]
    g = schedule.pairings(ttt_run(specs=("a", "b", "c"), fmt="gauntlet"), 2)
    assert g == [("b", "a"), ("c", "a")]
    g = schedule.pairings(ttt_run(specs=("a", "b", "c"), fmt="gauntlet", baseline="b"), 3)
    assert g == [("a", "b", "b"), ("c", "b", "b")]
    s = schedule.pairings(RunSpec("leftright", make_players(["a", "b"]), "series", 2), 1)
    assert s == [("a",), ("b",)]


@pytest.mark.parametrize("bad, message", [
    (dict(format="series"), "use format 'round-robin' or 'gauntlet'"),
    (dict(format="knockout"), "unknown format"),
    (dict(games=0), "games per pairing"),
    (dict(format="gauntlet", baseline="mc"), "not a player"),
])
def test_bad_runs_are_refused(bad: dict[str, object], message: str) -> None:
    fields = dict(game="tictactoe", players=make_players(SPECS), format="round-robin",
                  games=2)
    fields.update(bad)
    with pytest.raises(InvalidArgumentError, match=message):
        schedule.pairings(RunSpec(**fields), 2)  # type: ignore[arg-type]


def test_the_same_spec_twice_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="twice"):
        make_players(["random", " random "])


def test_colours_alternate_and_seeds_depend_on_the_game_only() -> None:
    spec = ttt_run(games_per_pairing=6, openings=(("b2",), ("a1",)))
    tasks = schedule.tasks(spec, "r", 2)
    assert len(tasks) == 3 * 6
    by_pair: dict[str, list[schedule.GameTask]] = {}
    for t in tasks:
        by_pair.setdefault(t.pairing, []).append(t)
    for pair_tasks in by_pair.values():
        first = [t.players[0] for t in pair_tasks]
        a, b = pair_tasks[0].pairing.split(schedule.PAIR_SEP)
        assert first == [a, b, a, b, a, b]  # colours alternate
        # each opening is played once from each side before the next one
        assert [t.opening for t in pair_tasks] == [("b2",), ("b2",), ("a1",), ("a1",),
                                                   ("b2",), ("b2",)]
    seeds = [s for t in tasks for s in t.seeds]
    assert len(set(seeds)) == len(seeds)
    # A task is the same whatever else is scheduled: more games or more players.
    bigger = ttt_run(games_per_pairing=9, specs=SPECS + ("mc:playouts=2",),
                     openings=(("b2",), ("a1",)))
    again = {(t.pairing, t.game_index): t for t in schedule.tasks(bigger, "r", 2)}
    for t in tasks:
        assert again[(t.pairing, t.game_index)] == t


# Store ---------------------------------------------------------------------------------
def test_store_refuses_other_settings_and_extends_players_and_games(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    with Store(db) as store:
        store.open_run("r", ttt_run(2))
        with pytest.raises(InvalidArgumentError, match="seed"):
            store.open_run("r", RunSpec("tictactoe", make_players(SPECS), "round-robin", 2,
                                        seed=8))
        with pytest.raises(InvalidArgumentError, match="iterations"):
            store.open_run("r", ttt_run(2, iterations=5))
        store.open_run("r", ttt_run(5, specs=("random", "mc:playouts=99")))
        spec = store.run_spec("r")
    assert spec.games == 5
    assert [p.spec for p in spec.players] == [*SPECS, "mc:playouts=99"]
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_game_is_stored_once(tmp_path: Path) -> None:
    spec = ttt_run(1)
    t = schedule.tasks(spec, "r", 2)[0]
    game = runner.play_task(t)
    with Store(tmp_path / "r.db") as store:
        store.open_run("r", spec)
        assert store.add_game(game)
        assert not store.add_game(game)
        assert store.count("r") == 1
        (back,) = store.games("r")
    assert back.content() == game.content()


# Runners: the same games however they are played ----------------------------------------
def check_games_are_legal(stored: list[StoredGame]) -> None:
    """Every stored game replays under the rules to the stored result, with the move
    count matching the per-move iterations and times."""
    game = games.create("tictactoe")
    for g in stored:
        state = replay(game, g.moves)
        assert state.is_terminal()
        assert state.rewards() == g.rewards
        assert len(g.iterations) == len(g.seconds) == len(g.roles) == len(g.moves)
        assert [r[0] for r in g.roles] == [k % 2 for k in range(len(g.moves))]
        state = game.initial_state()
        for move, movers, its in zip(g.moves, g.roles, g.iterations, strict=True):
            thinks = g.players[movers[0]].startswith("mc") and len(state.legal_moves()) > 1
            assert (its[0] > 0) == thinks
            state.play(move)


def test_two_workers_store_the_same_games_as_one(tmp_path: Path) -> None:
    spec = ttt_run(4)
    results = []
    for workers in (1, 2):
        with Store(tmp_path / f"w{workers}.db") as store:
            out = execute(store, "r", spec, workers=workers, quiet=True)
            assert (out.stored, out.total, out.done) == (12, 12, 12)
            results.append(contents(store, "r"))
            stored = list(store.games("r"))
    assert results[0] == results[1]
    assert len({g.worker for g in stored}) >= 1
    check_games_are_legal(stored)


def test_a_stopped_run_resumes_without_losing_or_repeating_games(tmp_path: Path) -> None:
    spec = ttt_run(4)
    with Store(tmp_path / "full.db") as store:
        execute(store, "r", spec, quiet=True)
        full = contents(store, "r")

    class Stop(Exception):
        pass

    def stop_after_five(game: StoredGame, seen: list[int] = [0]) -> None:  # noqa: B006
        seen[0] += 1
        if seen[0] == 5:
            raise Stop

    with Store(tmp_path / "part.db") as store:
        store.open_run("r", spec)
        todo = schedule.tasks(spec, "r", 2)
        with pytest.raises(Stop):
            runner.run(store, todo, on_game=stop_after_five)
        before = contents(store, "r")
        assert len(before) == 5
        out = execute(store, "r", spec, quiet=True)
        assert out.stored == 7
        after = contents(store, "r")
    assert set(before) <= set(after)
    assert after == full


def test_a_killed_process_resumes(tmp_path: Path) -> None:
    """SIGKILL the CLI mid-run, run the same command again: the stored games are kept,
    none is played twice, and the result equals an uninterrupted run."""
    db = tmp_path / "k.db"
    argv = [sys.executable, "-m", "protocols.cli", "tournament", "tictactoe", "--players",
            "mc:playouts=1500", "mc:playouts=1000", "--games", "24", "--seed", "3",
            "--db", str(db), "--quiet"]
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        stored_before = 0
        while time.monotonic() < deadline and proc.poll() is None:
            if db.exists():
                try:
                    with sqlite3.connect(db, timeout=5) as raw:
                        stored_before = raw.execute("SELECT COUNT(*) FROM games").fetchone()[0]
                except sqlite3.OperationalError:
                    stored_before = 0
            if stored_before >= 2:
                break
            time.sleep(0.01)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    with Store(db) as store:
        kept = contents(store, "tictactoe")
    if len(kept) == 24:
        pytest.skip("the run finished before it could be killed (machine too fast)")
    assert len(kept) >= 2
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"{24 - len(kept)} games played and stored" in done.stdout
    with Store(db) as store:
        resumed = contents(store, "tictactoe")
        spec = store.run_spec("tictactoe")
    assert set(kept) <= set(resumed)
    assert len(resumed) == len(set(resumed)) == 24
    with Store(tmp_path / "ref.db") as store:
        execute(store, "tictactoe", spec, quiet=True)
        assert contents(store, "tictactoe") == resumed


@pytest.fixture(scope="module")
def dask_cluster():  # type: ignore[no-untyped-def]
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                       dashboard_address=None)
    try:
        yield cluster
    finally:
        cluster.close()


def test_a_dask_cluster_stores_the_same_games(tmp_path: Path, dask_cluster) -> None:  # type: ignore[no-untyped-def]
    spec = ttt_run(3)
    with Store(tmp_path / "local.db") as store:
        execute(store, "r", spec, quiet=True)
        local = contents(store, "r")
    with Store(tmp_path / "dask.db") as store:
        out = execute(store, "r", spec, cluster=dask_cluster.scheduler_address, quiet=True)
        assert out.stored == 9
        assert contents(store, "r") == local


def test_openings_are_played_before_the_game(tmp_path: Path) -> None:
    spec = ttt_run(2, specs=("random", "mc:playouts=5"), openings=(("b2", "a1"),))
    with Store(tmp_path / "o.db") as store:
        execute(store, "r", spec, quiet=True)
        stored = list(store.games("r"))
    game = games.create("tictactoe")
    for g in stored:
        assert g.opening == ("b2", "a1")
        assert "b2" not in g.moves and "a1" not in g.moves
        start = replay(game, g.opening)
        assert replay(game, g.moves, start).rewards() == g.rewards
        assert [r[0] for r in g.roles][0] == 0  # two opening plies: role 0 moves next


def test_cli_tournament_and_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from protocols.cli.main import main

    db = tmp_path / "t.db"
    argv = ["tournament", "tictactoe", "--gauntlet", "--players", "random", "mc:playouts=5",
            "mc:playouts=20", "--games", "4", "--db", str(db), "--quiet"]
    assert main(argv) == 0
    assert "8 games played and stored" in capsys.readouterr().out
    assert main(argv) == 0  # nothing left to play
    assert "0 games played and stored" in capsys.readouterr().out
    assert main(["report", str(db), "--out", str(tmp_path / "rep")]) == 0
    out = capsys.readouterr().out
    assert "mc:playouts=5" in out and "Elo" in out
    assert (tmp_path / "rep" / "report.md").is_file()
    assert main(["tournament", "tictactoe", "--players", "random", "--games", "2",
                 "--db", str(db)]) == 1
    assert "at least 2 players" in capsys.readouterr().err


def test_report_reads_a_compressed_results_file(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """`miai report X.db.xz` prints what `miai report X.db` prints, from a snapshot made
    by scripts/experiments/snapshot.sh, and leaves the snapshot as it was."""
    import shutil

    from protocols.cli.main import main

    if not (shutil.which("sqlite3") and shutil.which("xz")):
        pytest.skip("snapshot.sh needs the sqlite3 and xz programs")
    db = tmp_path / "t.db"
    assert main(["tournament", "tictactoe", "--gauntlet", "--players", "random",
                 "mc:playouts=5", "mc:playouts=20", "--games", "4", "--db", str(db),
                 "--quiet"]) == 0
    subprocess.run(["sh", str(ROOT / "scripts" / "experiments" / "snapshot.sh"), str(db)],
                   check=True, capture_output=True)
    xz = tmp_path / "t.db.xz"
    packed = xz.read_bytes()
    capsys.readouterr()
    assert main(["report", str(db), "--no-files"]) == 0
    plain = capsys.readouterr().out
    db.unlink()
    assert main(["report", str(xz), "--no-files"]) == 0
    assert capsys.readouterr().out == plain
    assert "8 games stored" in plain
    assert main(["report", str(xz)]) == 0  # default report directory: t-report/
    assert (tmp_path / "t-report" / "report.md").is_file()
    assert xz.read_bytes() == packed and not db.exists()
    (tmp_path / "bad.db.xz").write_bytes(b"not xz")
    assert main(["report", str(tmp_path / "bad.db.xz"), "--no-files"]) == 1
    assert "bad.db.xz" in capsys.readouterr().err
    assert main(["report", str(tmp_path / "none.db.xz"), "--no-files"]) == 1
    assert "no results file" in capsys.readouterr().err


def test_an_external_gtp_engine_plays_in_a_tournament(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`gtp:COMMAND` players (GNU Go, for Huang et al.'s protocol) are tournament
    players: the command line is kept as given (whitespace collapsed), the engine gets
    no budget or seed parameters, and every stored game replays to its rewards under
    miai's rules (GNU Go's moves were legal ones)."""
    import shutil

    from protocols.cli.main import main

    if not (shutil.which("gnugo") or Path("/usr/games/gnugo").exists()):
        pytest.skip("GNU Go is not installed")
    gnugo = "gtp:gnugo  --mode gtp --level 0 --chinese-rules"
    db = tmp_path / "g.db"
    assert main(["tournament", "go:size=7,komi=7.5", "--gauntlet", "--players", gnugo,
                 "uct:c=0.7", "--games", "2", "--iterations", "50", "--db", str(db),
                 "--quiet"]) == 0
    with Store(db) as store:
        (run,) = store.runs()
        stored = list(store.games(run))
        assert [p.spec for p in store.run_spec(run).players] == [
            "gtp:gnugo --mode gtp --level 0 --chinese-rules", "uct:c=0.7"]
    assert len(stored) == 2
    game = games.create_from_spec("go:size=7,komi=7.5")
    for g in stored:
        assert "gtp:gnugo --mode gtp --level 0 --chinese-rules" in g.players
        assert replay(game, g.moves).rewards() == g.rewards
    capsys.readouterr()
    assert main(["report", str(db), "--out", str(tmp_path / "rep")]) == 0
    assert "gtp:gnugo --mode gtp --level 0 --chinese-rules" in capsys.readouterr().out
