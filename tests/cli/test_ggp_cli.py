"""The commands: ``miai ggp`` serves (in a subprocess), ``miai gamemaster`` records."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request

from protocols.cli.main import main


def test_ggp_command_serves_info_and_stops() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "protocols.cli", "ggp", "--port", "0", "--name", "probe"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        assert line.startswith("miai ggp: probe"), line
        url = line.split(" on ", 1)[1].strip()
        assert url.startswith("http://127.0.0.1:")
        req = urllib.request.Request(url, data=b"(info)", method="POST")
        with urllib.request.urlopen(req, timeout=10) as resp:
            assert resp.read().decode() == "((name probe) (status available))"
    finally:
        proc.terminate()
        proc.wait(10)


def test_gamemaster_command_records_a_match(tmp_path, capsys) -> None:
    code = main(["gamemaster", "tictactoe", "--bot", "random", "--play-clock", "1",
                 "--start-clock", "2", "--out", str(tmp_path), "--seed", "5"])
    assert code == 0
    (path,) = tmp_path.glob("*.json")
    record = json.loads(path.read_text())
    assert record["roles"] == ["xplayer", "oplayer"]
    assert sorted(record["goals"]) in ([0, 100], [50, 50])
    out = capsys.readouterr().out
    assert f"goals {record['goals']}" in out


def test_gamemaster_command_rejects_an_unknown_game() -> None:
    assert main(["gamemaster", "no-such-game"]) == 1


def test_a_series_resumes_from_its_records_and_summarises(tmp_path, capsys) -> None:
    args = ["gamemaster", "tictactoe", "--bot", "random", "--opponent", "random",
            "--matches", "3", "--play-clock", "1", "--start-clock", "2",
            "--out", str(tmp_path), "--seed", "7"]
    assert main(args) == 0
    paths = sorted(tmp_path.glob("*.json"))
    assert [p.name for p in paths] == [f"tictactoe.7.{i}.json" for i in range(3)]
    kept = paths[0].read_text()
    paths[1].unlink()  # as if the series had stopped during its second match
    capsys.readouterr()
    assert main([*args, "--resume"]) == 0
    out = capsys.readouterr().out
    assert out.count("already played") == 2 and "tictactoe.7.1:" in out
    assert paths[0].read_text() == kept and paths[1].is_file()
    records = [json.loads(p.read_text()) for p in paths]
    assert all(sorted(r["labels"]) == ["random", "random#1"] for r in records)
    summary = subprocess.run([sys.executable, "scripts/ggp_summary.py", str(tmp_path)],
                             capture_output=True, text=True, check=True).stdout
    rows = {tuple(line.split()[:2]): line.split()[2:] for line in summary.splitlines()[1:]}
    assert rows[("random", "all")][0] == rows[("random#1", "all")][0] == "3"
    points = float(rows[("random", "all")][1]) + float(rows[("random#1", "all")][1])
    assert points == sum(sum(r["goals"]) for r in records) / 100
