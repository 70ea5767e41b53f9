"""The commands: ``miai ggp`` serves (in a subprocess), ``miai gamemaster`` records."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request

from engine.cli import main


def test_ggp_command_serves_info_and_stops() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "engine.cli", "ggp", "--port", "0", "--name", "probe"],
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
