"""The scripts in scripts/ run (CI-sized) so they never rot.

Only the shape of the output is checked: figures are the lead's to record, and a
timing threshold has no place in a unit test.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import games

ROOT = Path(__file__).resolve().parents[2]


def run_script(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "scripts" / args[0]), *args[1:]],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )


def table_rows(markdown: str) -> dict[str, list[str]]:
    """Game spec -> the cells of its row in a Markdown table."""
    rows = {}
    for line in markdown.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0] not in ("game", "") and not cells[0].startswith("-"):
            rows[cells[0]] = cells
    return rows


def test_bench_playouts_quick_prints_a_row_per_game() -> None:
    run = run_script("bench_playouts.py", "--quick")
    assert run.returncode == 0, run.stderr
    rows = table_rows(run.stdout)
    names = {spec.split(":")[0] for spec in rows}
    assert names == set(games.available())
    for cells in rows.values():
        assert float(cells[1].replace(",", "")) > 0  # playouts per second
        assert float(cells[2]) >= 1  # plies per game
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return
    assert float(rows["othello"][4].replace(",", "")) > 0
    assert rows["connect4"][3] == "connect_four" and rows["connect4"][5].endswith("x")


def test_bench_playouts_selects_games_and_refuses_unknown_ones() -> None:
    run = run_script("bench_playouts.py", "--quick", "--no-openspiel", "--games", "othello")
    assert run.returncode == 0, run.stderr
    assert list(table_rows(run.stdout)) == ["othello"]
    run = run_script("bench_playouts.py", "--quick", "--games", "no-such-game")
    assert run.returncode != 0 and "no-such-game" in run.stderr


def test_bench_playouts_runs_without_openspiel() -> None:
    script = ROOT / "scripts" / "bench_playouts.py"
    code = (
        "import runpy, sys\n"
        "sys.modules['pyspiel'] = None  # import pyspiel now raises ImportError\n"
        f"sys.argv = [{str(script)!r}, '--quick', '--games', 'tictactoe']\n"
        f"runpy.run_path({str(script)!r}, run_name='__main__')\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert "not installed" in run.stderr
    assert table_rows(run.stdout)["tictactoe"][1:] and "OpenSpiel" not in run.stdout


def test_match_gnugo_summary_reads_split_logs(tmp_path: Path) -> None:
    """--summary takes the union of --log files (a later line for a game wins)."""
    import json

    def row(index: int, won: bool) -> str:
        return json.dumps({"index": index, "miai_black": index % 2 == 0, "miai_won": won,
                           "gnugo_score": "B+4.0", "miai_score": "B+4.0", "plies": 90,
                           "seconds": 1.0})

    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text("\n".join([row(0, True), row(1, False), row(1, True)]) + "\n")
    second.write_text(row(50, False) + "\n\n")
    done = run_script("match_gnugo.py", "--bot", "go9", "--summary", str(first), str(second))
    assert done.returncode == 0, done.stderr
    cells = next(r for r in table_rows(done.stdout).values() if r[0] == "go9")
    assert cells[2:4] == ["3", "2"], done.stdout


def test_match_gnugo_plot_draws_the_series(tmp_path: Path) -> None:
    """--plot draws each --series (the union of its logs) into a PNG; the summary's
    interval is Wilson's (here 2 of 3: 20.8%-93.9%)."""
    import json

    pytest.importorskip("matplotlib")

    def row(index: int, won: bool) -> str:
        return json.dumps({"index": index, "miai_black": index % 2 == 0, "miai_won": won,
                           "gnugo_score": "B+4.0", "miai_score": "B+4.0", "plies": 90,
                           "seconds": 1.0})

    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text("\n".join([row(0, True), row(1, False)]) + "\n")
    b.write_text(row(2, True) + "\n")
    png = tmp_path / "go.png"
    done = run_script("match_gnugo.py", "--plot", str(png), "--series", f"2 s={a},{b}",
                      "--series", f"10 s={b}")
    assert done.returncode == 0, done.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    bad = run_script("match_gnugo.py", "--plot", str(png))
    assert bad.returncode != 0 and "--series" in bad.stderr
    summary = run_script("match_gnugo.py", "--bot", "go9", "--summary", str(a), str(b))
    assert "20.8%–93.9%" in summary.stdout, summary.stdout


def test_go_curve_table_and_plot_read_the_budget_logs(tmp_path: Path) -> None:
    """experiments/go_curve.py: one row per it<N>.jsonl in budget order (a later line
    for a game wins), Wilson's interval, wins by colour; --plot draws a PNG."""
    import json

    pytest.importorskip("matplotlib")

    def row(index: int, won: bool) -> str:
        return json.dumps({"index": index, "miai_black": index % 2 == 0, "miai_won": won,
                           "gnugo_score": "B+4.0", "miai_score": "B+4.0", "plies": 90,
                           "seconds": 2.0})

    (tmp_path / "it1000.jsonl").write_text("\n".join([row(0, True), row(1, False),
                                                      row(1, True), row(2, False)]) + "\n")
    (tmp_path / "it500.jsonl").write_text(row(0, False) + "\n")
    done = run_script("experiments/go_curve.py", "--table", str(tmp_path))
    assert done.returncode == 0, done.stderr
    rows = [line.split(" | ") for line in done.stdout.splitlines()[2:]]
    assert [r[0] for r in rows] == ["| 500", "| 1,000"], done.stdout
    assert rows[1][1:6] == ["3", "2", "66.7%", "20.8%–93.9%", "1/2"], done.stdout
    png = tmp_path / "curve.png"
    done = run_script("experiments/go_curve.py", "--plot", str(png), "--series",
                      f"before={tmp_path}")
    assert done.returncode == 0, done.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bench_go_priors_prints_a_rate_per_policy() -> None:
    done = run_script("bench_go_priors.py", "--policy", "7", "55", "--positions", "2",
                      "--iterations", "50", "--repeat", "1")
    assert done.returncode == 0, done.stderr
    assert [line.split()[1] for line in done.stdout.splitlines()] == ["policy=7", "policy=55"]


def test_callgrind_search_runs_its_searches_without_valgrind() -> None:
    run = run_script("callgrind_search.py", "--no-valgrind", "tictactoe:50", "hex:size=5:20")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["tictactoe", "hex:size=5"]
    assert "iterations=50" in lines[0] and "iterations=20" in lines[1]
    for spec in ("auct:k=3", "duct:lambda=0.9"):
        run = run_script("callgrind_search.py", "--no-valgrind", "--algorithm", spec,
                         "--mode", "tree", "hex:size=5:20")
        assert run.returncode == 0, run.stderr
        assert run.stdout.split()[:3] == ["hex:size=5", spec, "tree"], run.stdout


def test_callgrind_gdl_plays_its_playouts_without_valgrind() -> None:
    run = run_script("callgrind_gdl.py", "--no-valgrind", "--playouts", "20", "tictactoe",
                     "roshambo2")
    assert run.returncode == 0, run.stderr
    rows = [line.split() for line in run.stdout.splitlines()[1:]]
    assert [r[0] for r in rows] == ["tictactoe", "roshambo2"]
    assert 5 <= float(rows[0][4]) <= 9  # Tic-tac-toe: 5 to 9 plies a game
    assert float(rows[1][4]) > 1


def test_bench_gdl_lanes_prints_the_least_batch_and_both_ways() -> None:
    run = run_script("bench_gdl_lanes.py", "--seconds", "0.05", "roshambo2",
                     "twisty-passages")
    assert run.returncode == 0, run.stderr
    rows = {line.split()[0]: line.split() for line in run.stdout.splitlines()[1:]}
    assert set(rows) == {"roshambo2.kif", "twisty-passages.kif"}
    lanes = rows["roshambo2.kif"]  # least batch, then rates and ratio at it and at 64
    assert len(lanes) == 8 and 2 <= int(lanes[1]) <= 64
    assert all(float(x) > 0 for x in lanes[2:])
    keeps = rows["twisty-passages.kif"]  # no lanes: one by one both ways
    assert keeps[1:5] == ["0", "-", "-", "-"] and float(keeps[7]) > 0


def test_bench_gdl_prints_a_row_per_sheet_with_the_mcts_column() -> None:
    run = run_script("bench_gdl.py", "--seconds", "0.05", "--prover-seconds", "0.05",
                     "--mcts", "0.05", "tictactoe", "tests/gdl/connect4.kif")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].split()[-2:] == ["mcts/s", "engine"]
    rows = {line.split()[0]: line.split() for line in lines[1:]}
    assert set(rows) == {"tictactoe.kif", "connect4.kif"}
    for cells in rows.values():  # batches (the lanes), one by one, their speed-ups
        assert len(cells) == 11 and cells[7].endswith("x") and cells[8].endswith("x")
        assert float(cells[4]) > 0 and float(cells[5]) > 0 and float(cells[9]) > 0
    assert rows["tictactoe.kif"][10] == "diff+lanes"
    assert rows["connect4.kif"][10] == "diff-clear+lanes"


def test_ggp_reasoners_records_a_row_per_sheet_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    args = ("ggp_reasoners.py", "tictactoe", "--seconds", "0.2", "--out", str(out))
    run = run_script(*args, "--json")
    assert run.returncode == 0, run.stderr
    (row,) = json.loads(run.stdout)
    assert row["sheet"] == "tictactoe.kif" and row["grounds"] == "yes"
    assert row["choice"] in ("propnet", "prover") and row["nodes"] > 0
    assert len(out.read_text().splitlines()) == 1
    again = run_script(*args)  # resumed: nothing measured again, the table printed
    assert again.returncode == 0 and again.stderr == ""
    assert "| tictactoe.kif | yes |" in again.stdout
    assert len(out.read_text().splitlines()) == 1


def test_ggp_duel_alternates_seats_and_sums_the_first_specs_points() -> None:
    """experiments/ggp_duel.py: one line per game, the first spec in the first seat in
    even games and in the second in odd ones, its points the sum of its rewards."""
    done = run_script("experiments/ggp_duel.py", "tictactoe", "ggp", "uct:c=0.4",
                      "--games", "2", "--iterations", "50")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("game 0: ggp vs uct:c=0.4: ")
    assert lines[1].startswith("game 1: uct:c=0.4 vs ggp: ")
    first = [float(x) for x in lines[0].split(": ")[2].strip("[]").split(", ")]
    second = [float(x) for x in lines[1].split(": ")[2].strip("[]").split(", ")]
    assert sum(first) == 1.0 and sum(second) == 1.0  # tic-tac-toe is zero-sum
    points = first[0] + second[1]
    assert lines[2] == (f"ggp against uct:c=0.4 on tictactoe: {points:g} of 2 points "
                        "(50 iterations a move)")
