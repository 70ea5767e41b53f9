"""The selfplay, play and analyse commands, and scripts/bench_search.py --ci."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bots.match import replay
from engine import games
from protocols.cli.commands.selfplay import elo_difference
from protocols.cli.main import main

ROOT = Path(__file__).resolve().parents[2]


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------- selfplay


def test_selfplay_prints_the_score(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "selfplay", "tictactoe", "--player1", "mc:playouts=30",
                           "--player2", "random", "--games", "6", "--seed", "1")
    assert code == 0
    assert "tictactoe: 6 games" in out
    rows = [line.split() for line in out.splitlines() if line.startswith("player")]
    by_name = {row[0]: row for row in reversed(rows) if row[0] in ("player1", "player2")}
    score1, score2 = float(by_name["player1"][1]), float(by_name["player2"][1])
    assert score1 + score2 == pytest.approx(6.0)
    assert score1 > score2
    assert by_name["player1"][-1].startswith("mc:playouts=30")
    assert "Elo" in out


def test_selfplay_show_prints_moves_and_boards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "selfplay", "tictactoe", "--player1", "random",
                           "--player2", "mc", "--games", "1", "--iterations", "90",
                           "--show")
    assert code == 0
    assert "ply 1: role 0" in out
    assert "(90 iterations" in out  # mc's budget came from --iterations
    assert out.count("  abc") >= 6  # the start and a board after each ply
    assert "game 1 over: rewards" in out


def test_selfplay_record_file_replays(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.jsonl"
    code, _, _ = run_cli(capsys, "selfplay", "tictactoe", "--players", "random", "random",
                         "--games", "3", "--record", str(path), "--quiet")
    assert code == 0
    lines = path.read_text().splitlines()
    assert len(lines) == 3
    game = games.create("tictactoe")
    for line in lines:
        record = json.loads(line)
        final = replay(game, record["moves"])
        assert list(final.rewards()) == record["rewards"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--player1", "random"], "--player2"),
        (["--player1", "random", "--player2", "nosuchbot"], "random"),
        (["--player1", "random", "--player2", "random", "--games", "0"], "--games"),
        (["--players", "random", "random", "--player1", "random"], "either"),
        (["--player1", "random", "--player2", "mc:playouts=x"], "playouts=x"),
        (["--player1", "random", "--player2", "uct:"], "uct:"),
        (["--players", "random", "random", "--record", "/nonexistent/dir/g.jsonl"],
         "--record"),
    ],
)
def test_selfplay_errors_are_messages(capsys: pytest.CaptureFixture[str], argv: list[str],
                                      message: str) -> None:
    code, _, err = run_cli(capsys, "selfplay", "tictactoe", *argv)
    assert code == 1
    assert err.startswith("miai: ")
    assert message in err


def test_elo_difference() -> None:
    assert elo_difference(0.5) == 0.0
    assert elo_difference(0.75) == pytest.approx(190.85, abs=0.01)  # 400 log10(3)
    assert elo_difference(0.25) == pytest.approx(-190.85, abs=0.01)
    assert elo_difference(1.0) == float("inf")


# ---------------------------------------------------------------- play


def play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stdin: str,
         *argv: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code, out, err = run_cli(capsys, "play", "tictactoe", *argv)
    assert err == "" or code != 0
    return code, out


def test_play_handles_bad_input_and_plays_to_the_end(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The bot (random, seeded) answers; we try every square in order, so some are
    # taken; garbage and 'help' are answered and the prompt comes back.
    script = "zz\n\nhelp\nb2\nb2\n" + "\n".join(
        ["a1", "a2", "a3", "b1", "b3", "c1", "c2", "c3"]) + "\n"
    code, out = play(monkeypatch, capsys, script, "--bot", "random")
    assert code == 0
    assert "'zz' is not a move of tictactoe" in out
    assert "legal moves: a3 b3 c3 a2 b2 c2 a1 b1 c1" in out
    assert "b2 is not legal here" in out
    assert "game over:" in out
    assert "role 1 (random) plays" in out


def test_play_quit_and_end_of_input(monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    code, out = play(monkeypatch, capsys, "b2\nquit\n", "--bot", "mc:playouts=5")
    assert code == 0 and "game abandoned" in out
    code, out = play(monkeypatch, capsys, "", "--bot", "random")
    assert code == 0 and "game abandoned" in out


def test_play_as_second_player(monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
    code, out = play(monkeypatch, capsys, "quit\n", "--bot", "random", "--human-role", "1")
    assert code == 0
    assert out.index("role 0 (random) plays") < out.index("your move (role 1)>")
    # After --moves a1 it is role 1's turn at once: the bot has not moved.
    code, out = play(monkeypatch, capsys, "quit\n", "--bot", "random", "--human-role", "1",
                     "--moves", "a1")
    assert code == 0
    assert "plays" not in out and "your move (role 1)>" in out


def test_play_refuses_a_bad_role(monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, _, err = run_cli(capsys, "play", "tictactoe", "--bot", "random",
                           "--human-role", "2")
    assert code == 1 and "--human-role" in err


# ---------------------------------------------------------------- analyse


def test_analyse_prints_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "analyse", "tictactoe", "--moves", "a1", "a3", "b1", "b3",
                           "--bot", "mc:playouts=100")
    assert code == 0
    assert "after 4 moves" in out
    table = [line.split() for line in out.splitlines()
             if line.strip() and line.split()[0] in {"c1", "c2", "c3", "a2", "b2"}]
    assert sorted(row[0] for row in table) == ["a2", "b2", "c1", "c2", "c3"]
    assert all(row[1] == "100" for row in table)
    assert "best: c1" in out
    assert "pv: c1" in out
    assert "iterations: 500" in out


def test_analyse_errors_and_reportless_bots(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "analyse", "tictactoe", "--moves", "a1", "a2", "b1", "b2",
                           "c1", "--bot", "mc")
    assert code == 1 and "over" in err
    code, _, err = run_cli(capsys, "analyse", "tictactoe", "--moves", "a1", "a1")
    assert code == 1 and "move 2" in err
    code, out, _ = run_cli(capsys, "analyse", "tictactoe", "--bot", "random")
    assert code == 0 and "no search report" in out


def test_analyse_with_uct(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "analyse", "tictactoe", "--moves", "a1", "a3", "b1", "b3",
                           "--bot", "uct:iterations=300")
    assert code == 0
    assert "best: c1" in out and "pv: c1" in out and "nodes:" in out


# ---------------------------------------------------------------- real processes


def test_cli_in_a_subprocess() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "protocols.cli", "selfplay", "tictactoe", "--player1",
         "mc:playouts=10", "--player2", "random", "--games", "2"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "tictactoe: 2 games" in proc.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "protocols.cli", "selfplay", "tictactoe", "--player1", "x:"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert bad.returncode == 1 and "miai:" in bad.stderr and "Traceback" not in bad.stderr


def test_bench_search_ci_runs() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bench_search.py"), "--ci", "--games",
         "tictactoe"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    assert "miai sim/s" in proc.stdout and "tictactoe" in proc.stdout


def test_bots_lists_the_bots(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "bots")
    assert code == 0
    listed = {line.split()[0] for line in out.splitlines() if line and not line[0].isspace()}
    assert {"random", "mc"} <= listed
