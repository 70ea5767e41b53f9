"""What GTP users hit in the field (issue 28's small items), held against GNU Go 3.8
where it applies and against GoGui's own response parsing: the response framing, the
analyze boards, quarter-point komi, SGF's PL, passes kept in the record,
final_status_list one string per line, cputime."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from sgfmill import sgf

from bots.gtp_bot import resolve_command
from tests.helpers.gtp_pipe import RawGtp, gogui_double_board, gogui_result

ROOT = Path(__file__).resolve().parents[3]
GNUGO = resolve_command("gnugo")[0]
needs_gnugo = pytest.mark.skipif(not os.access(GNUGO, os.X_OK), reason="GNU Go not installed")


def miai(*args: str) -> RawGtp:
    return RawGtp([sys.executable, "-m", "protocols.cli", "gtp", *args], cwd=ROOT)


@pytest.fixture
def engines():
    pair = (miai("--bot", "random:seed=3", "--no-gfx"),
            RawGtp([GNUGO, "--mode", "gtp", "--chinese-rules", "--level", "1"]))
    yield pair
    for engine in pair:
        engine.close()


@needs_gnugo
def test_answers_start_with_a_space_as_gnu_gos_do(engines) -> None:
    ours, gnugo = engines
    for command in ["boardsize 9", "7 komi 6.5", "play b C3", "showboard", "12 showboard",
                    "clear_board", "13 play w pass"]:
        a, b = ours.raw(command), gnugo.raw(command)
        assert a.split("\n")[0] == b.split("\n")[0], command  # "= ", "=12 ": same framing
        assert a.endswith("\n\n") and "\n\n" not in a[:-2], command
    board = ours.raw("showboard")
    assert gogui_result(board).startswith("\n")  # GoGui keeps the whole board


def test_analyze_answers_parse_as_gogui_parses_them() -> None:
    # RAVE with priors leaves most root moves unvisited: their labels must not show.
    engine = miai("--bot", "gobot:alg=rave,prior=20,knowledge=1,iterations=2000", "--no-gfx")
    try:
        engine.ok("boardsize 9")
        analyze = [line.split("/", 2) for line in engine.ok("gogui-analyze_commands").split("\n")]
        move = engine.ok("genmove b")
        results = {cmd: gogui_result(engine.raw(cmd)) for kind, _, cmd in analyze
                   if kind != "none"}
        for kind, _, cmd in analyze:
            if kind == "dboard":
                rows = gogui_double_board(results[cmd], 9)
                assert all(-1 <= v <= 1 for row in rows for v in row), cmd
        visits = gogui_double_board(results["miai-visits"], 9)
        assert max(max(row) for row in visits) == 1  # scaled by the most visited move
        report = results["miai-report"]
        assert report.startswith("iterations 2000")  # the last search, kept after genmove
        # The PV after genmove is the line after our move, from White's turn.
        full = report.split("\n")[-1].split()[1:]
        assert full[0] == move
        shown = results["miai-pv"].split()
        assert shown[1::2] == [m.upper() for m in full[1:]]
        assert shown[0::2] == ["w", "b"] * (len(shown) // 4) + ["w"] * (len(shown) // 2 % 2)
        # Interval labels only on visited points, each once.
        pairs = results["miai-intervals"].split()
        labelled = pairs[0::2]
        assert labelled and len(set(labelled)) == len(labelled)
        for vertex in labelled:
            col, row = "ABCDEFGHJ".index(vertex[0]), 9 - int(vertex[1:])
            assert visits[row][col] > 0, vertex
        # Once the position changes otherwise, the search is no longer shown.
        engine.ok("play w A1" if move != "A1" else "play w J9")
        assert engine.ok("miai-report") == "no search yet"
        assert engine.ok("miai-pv") == ""
        rows = gogui_double_board(gogui_result(engine.raw("miai-visits")), 9)
        assert all(v == 0 for row in rows for v in row)
    finally:
        engine.close()


@needs_gnugo
@pytest.mark.parametrize("komi", ["6.25", "-3.75", "0.1"])
def test_any_komi_scores_as_gnu_go_scores(komi: str) -> None:
    ours, gnugo = miai("--bot", "random", "--no-gfx"), RawGtp([GNUGO, "--mode", "gtp",
                                                               "--chinese-rules"])
    try:
        scores = []
        for engine in (ours, gnugo):
            for command in ["boardsize 5", f"komi {komi}", "play b C3"]:
                engine.ok(command)
            scores.append(engine.ok("final_score"))
    finally:
        ours.close()
        gnugo.close()

    def margin(text: str) -> float:
        return float(text[2:]) * (1 if text[0] == "B" else -1)

    assert abs(margin(scores[0]) - margin(scores[1])) <= 0.05 + 1e-9  # GNU Go: 1 decimal
    assert margin(scores[0]) == 25 - float(komi)  # exact in ours


@needs_gnugo
@pytest.mark.parametrize("pl", ["PL[W]", "PL[B]", ""])
def test_loadsgf_takes_the_player_to_move_as_gnu_go_does(pl: str, tmp_path: Path) -> None:
    path = tmp_path / "setup.sgf"
    path.write_text(f"(;GM[1]FF[4]SZ[9]KM[6.5]AB[cc][gg]AW[ee]{pl})")
    ours, gnugo = miai("--bot", "random", "--no-gfx"), RawGtp([GNUGO, "--mode", "gtp"])
    try:
        colour = gnugo.ok(f"loadsgf {path}")  # GNU Go answers the colour to move
        ours.ok(f"loadsgf {path}")
        assert ours.ok("showboard").split("\n")[-1].startswith(f"{colour} ")
        printed = tmp_path / "printed.sgf"
        ours.ok(f"printsgf {printed}")
        root = sgf.Sgf_game.from_bytes(printed.read_bytes()).get_root()
        assert (root.get("PL") if root.has_property("PL") else "b") == colour[0]
        ours.ok(f"loadsgf {printed}")  # and it round-trips
        assert ours.ok("showboard").split("\n")[-1].startswith(f"{colour} ")
    finally:
        ours.close()
        gnugo.close()


def test_both_passes_stay_in_the_record_when_play_goes_on(tmp_path: Path) -> None:
    engine = miai("--bot", "random", "--no-gfx")

    def record() -> list[tuple[str, object]]:
        path = tmp_path / "game.sgf"
        engine.ok(f"printsgf {path}")
        game = sgf.Sgf_game.from_bytes(path.read_bytes())
        return [node.get_move() for node in game.get_main_sequence()[1:]]

    try:
        for command in ["boardsize 9", "play b pass", "play w pass", "play b C3"]:
            engine.ok(command)
        assert record() == [("b", None), ("w", None), ("b", (2, 2))]
        engine.ok("play w D4")
        assert record()[-1] == ("w", (3, 3))
        engine.ok("undo")
        engine.ok("undo")
        assert record() == [("b", None), ("w", None)]
    finally:
        engine.close()


@needs_gnugo
def test_final_status_list_answers_one_string_per_line_as_gnu_go_does(engines) -> None:
    black = [f"D{row}" for row in range(1, 10)] + ["E5", "F5", "G5", "H5", "J5", "A6",
                                                   "B6", "C6"]
    white = ["B2", "B8", "C8", "G8", "F2", "G2"]
    answers = []
    for engine in engines:
        engine.ok("boardsize 9")
        engine.ok("komi 0")
        for colour, stones in (("b", black), ("w", white)):
            for vertex in stones:
                engine.ok(f"play {colour} {vertex}")
        answers.append([engine.ok(f"final_status_list {s}") for s in ("dead", "alive")])
    ours, theirs = answers
    for a, b in zip(ours, theirs, strict=True):
        assert {frozenset(line.split()) for line in a.split("\n")} == \
            {frozenset(line.split()) for line in b.split("\n")}
    assert len(ours[0].split("\n")) == 4  # four dead white strings, one a line


def test_cputime_is_the_processes_cpu_time() -> None:
    engine = miai("--bot", "uct:iterations=3000", "--no-gfx")
    tick = os.sysconf("SC_CLK_TCK")

    def proc_cpu() -> float:  # utime + stime of the engine, from the kernel
        fields = Path(f"/proc/{engine.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / tick

    try:
        engine.ok("boardsize 9")
        engine.ok("genmove b")
        before = proc_cpu()
        reported = float(engine.ok("cputime"))
        after = proc_cpu()
        # The kernel's tick accounting of /proc samples the same clock coarsely (and
        # may lag the scheduler's): equal within a few ticks and a tenth.
        slack = 5 / tick + 0.1 * after
        assert before - slack <= reported <= after + slack
        assert before > 0 and reported > 0
    finally:
        engine.close()


@needs_gnugo
def test_out_of_turn_play_inserts_no_pass_and_undo_takes_back_one_move(engines) -> None:
    """GNU Go's behaviour, which docs/gtp.md describes: ``play b`` twice is two black
    stones, and one ``undo`` removes only the last of them."""
    ours, gnugo = engines
    script = ["boardsize 9", "play b C3", "play b D4", "play b E5", "undo", "play w pass",
              "play b F6", "undo", "undo"]
    for command in script:
        ours.ok(command)
        gnugo.ok(command)
    theirs = set(gnugo.ok("list_stones black").split())
    mine = set((ours.ok("final_status_list alive") + " "
                + ours.ok("final_status_list dead")).split())
    assert mine == theirs == {"C3", "D4"}
    ours.ok("undo")
    gnugo.ok("undo")
    assert set(gnugo.ok("list_stones black").split()) == {"C3"}
    assert set(ours.ok("final_status_list alive").split()) == {"C3"}
