"""``miai gdl FILE`` on files that are not good rulesheets, run as a user runs it (a
subprocess): it ends with exit code 1 and one line on stderr that names the file and,
where the fault has a place in the text, its line and column (found here from the
text itself), never a traceback or a hang."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.gdl import cube_sheet

ROOT = Path(__file__).resolve().parents[2]
WAIT = 120  # seconds before the command counts as hung (not a measure)


def miai_gdl(path: Path | str, *options: str) -> tuple[int, str, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "protocols.cli", "gdl", str(path),
                           *options],
                          capture_output=True, text=True, env=env, timeout=WAIT, cwd=ROOT)
    return proc.returncode, proc.stdout, proc.stderr


def position(data: bytes, offset: int) -> str:
    """``line L, column C`` of the byte at ``offset`` (columns count characters)."""
    line = data.count(b"\n", 0, offset) + 1
    line_start = data.rfind(b"\n", 0, offset) + 1
    column = len(data[line_start:offset].decode("utf-8", "replace")) + 1
    return f"line {line}, column {column}"


def one_error_line(stderr: str) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    assert lines[0].startswith("miai: ")
    return lines[0]


# (file content, the fault's byte offset in it, a word of the message)
HEAD = b"(role r)\n; a comment (with a paren\n(init (step 1))\n"
CASES = {
    "unclosed": (HEAD + b"(<= (legal r m)\n    (true (step 1))\n", len(HEAD), "never closed"),
    "extra-close": (HEAD + b"(next (step 2)))\n", len(HEAD) + 15, "unbalanced"),
    "not-utf8": (HEAD + "(init (caf\u00e9 ".encode() + b"\xff))\n",
                 len(HEAD) + len("(init (caf\u00e9 ".encode()), "UTF-8"),
    "no-head": (HEAD + b"  (<= )\n", len(HEAD) + 2, "without a head"),
    "list-head": (HEAD + b"((a) b)\n", len(HEAD) + 1, "cannot start with a list"),
    "distinct-fact": (HEAD + b"\t(distinct a b)\n", len(HEAD) + 1, "must be an atom"),
    "unsafe": (HEAD + b"(<= (legal r (m ?x)) (true (step ?y)))\n", len(HEAD), "unsafe"),
    # recursion through a function term: once, the checks passed and the prover's
    # static facts never ended
    "recursive": (HEAD + b"(q 0)\n (<= (q (f ?x)) (q ?x))\n(<= (legal r m) (q 0))\n"
                  b"(<= terminal (true (step 2)))\n(<= (goal r 0) (true (step 1)))\n",
                  len(HEAD) + 7, "recursion through a function term"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_bad_sheet_ends_with_one_line_naming_line_and_column(case: str,
                                                                tmp_path: Path) -> None:
    data, offset, word = CASES[case]
    path = tmp_path / f"{case}.kif"
    path.write_bytes(data)
    code, _, stderr = miai_gdl(path)
    line = one_error_line(stderr)
    assert code == 1
    assert str(path) in line and word in line
    assert position(data, offset) + ":" in line, (line, position(data, offset))


def test_a_missing_file_and_a_directory_end_with_one_line(tmp_path: Path) -> None:
    code, _, stderr = miai_gdl(tmp_path / "nothing.kif")
    assert code == 1 and one_error_line(stderr).endswith("nothing.kif: no such file")
    code, _, stderr = miai_gdl(tmp_path)
    assert code == 1 and "is a directory" in one_error_line(stderr)


def test_a_byte_order_mark_is_read_as_nothing(tmp_path: Path) -> None:
    path = tmp_path / "bom.kif"
    path.write_bytes(b"\xef\xbb\xbf" + (ROOT / "tests/gdl/tictactoe.kif").read_bytes())
    code, stdout, stderr = miai_gdl(path)
    assert code == 0, stderr
    assert "checks passed" in stdout and "propnet" in stdout


@pytest.mark.parametrize(("content", "word"), [
    (b"", "no roles"), (b"  ; only a comment\n\n", "no roles"),
    (b"(init (a)) (<= terminal (true (a))) (<= (goal r 0) (true (a)))\n", "no roles")])
def test_an_empty_sheet_or_one_without_roles_ends_with_one_line(
        content: bytes, word: str, tmp_path: Path) -> None:
    path = tmp_path / "sheet.kif"
    path.write_bytes(content)
    code, _, stderr = miai_gdl(path)
    assert code == 1 and word in one_error_line(stderr)


def test_an_enormous_file_is_refused_before_it_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "enormous.kif"
    with open(path, "wb") as f:  # sparse: 100 MB of zero bytes, no disk written
        f.truncate(100_000_000)
    code, _, stderr = miai_gdl(path)
    assert code == 1 and "over 8388608 bytes (--max-bytes)" in one_error_line(stderr)


def test_a_sheet_of_millions_of_sentences_is_refused_not_checked_for_minutes(
        tmp_path: Path) -> None:
    """9 MB of real sentences (over the default --max-bytes, under MAX_TEXT): a
    one-line error at once, where checking it would take minutes."""
    path = tmp_path / "many.kif"
    path.write_text("(role r)" * (9 * 1024 * 1024 // 8 + 1))
    code, _, stderr = miai_gdl(path)
    assert code == 1 and "over 8388608 bytes" in one_error_line(stderr)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_is_refused_not_waited_on(tmp_path: Path) -> None:
    path = tmp_path / "pipe.kif"
    os.mkfifo(path)  # opening it would block until a writer came
    code, _, stderr = miai_gdl(path)
    assert code == 1 and "not a regular file" in one_error_line(stderr)


def test_a_sheet_whose_grounding_has_no_end_ends_with_one_line(tmp_path: Path) -> None:
    """27 million atoms from a 2 KB file: the grounding child is stopped by the memory
    budget, the prover too, and the one line names the rule it was deriving (its line
    and column found here from the text)."""
    text = cube_sheet()
    path = tmp_path / "huge.kif"
    path.write_text(text)
    code, stdout, stderr = miai_gdl(path, "--max-memory", str(300 << 20),
                                    "--ground-seconds", "60", "--prover-seconds", "60")
    line = one_error_line(stderr)
    assert code == 1 and "not grounded" in stdout and "memory budget" in stdout
    rule = text.index("(<= (big")
    assert "cannot play it either" in line and "memory budget" in line
    assert position(text.encode(), rule) in line


def test_a_sheet_that_does_not_ground_in_time_is_tried_on_the_prover(
        tmp_path: Path) -> None:
    """A grounding budget too short for anything: the prover plays the sheet, and its
    first position has the legal moves the rules give (9 marks and a noop)."""
    code, stdout, stderr = miai_gdl(ROOT / "engine" / "gdl" / "rulesheets" / "tictactoe.kif",
                                    "--ground-seconds", "0.001")
    assert code == 0, stderr
    assert "not grounded" in stdout and "time budget" in stdout
    assert "the reference prover plays it: [9, 1] legal moves" in stdout
