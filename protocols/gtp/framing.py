"""GTP version 2 framing: preprocessing of input lines and formatting of responses.

From the GTP 2 draft (section 3): control characters other than HT and LF are removed,
HT becomes a space, everything after ``#`` is a comment, empty lines are ignored.  A
command is ``[id] command_name [arguments]`` with a numeric id echoed in the response:
``=id result\\n\\n`` on success, ``?id message\\n\\n`` on failure.  Every response
starts ``=id `` or ``?id `` with a space, even when the result is empty or begins with a
newline (a board): GoGui and other clients take the result from the first space, as
GNU Go writes it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Command:
    id: str  # "" when the command carried no id
    name: str
    args: tuple[str, ...]


def preprocess(line: str) -> str:
    """The line with comments, control characters and surrounding blanks removed."""
    line = line.split("#", 1)[0]
    cleaned = "".join(
        " " if ch == "\t" else ch for ch in line if ch in "\t\n" or ord(ch) >= 32 and ord(ch) != 127
    )
    return cleaned.strip()


def parse(line: str) -> Command | None:
    """A command from one input line, or None for a blank or comment line."""
    text = preprocess(line)
    if not text:
        return None
    words = text.split()
    cid = ""
    if words[0].isdigit():
        cid = words.pop(0)
        if not words:
            return Command(cid, "", ())
    return Command(cid, words[0], tuple(words[1:]))


def success(cid: str, result: str = "") -> str:
    return f"={cid} {result.rstrip(chr(10))}\n\n"


def failure(cid: str, message: str) -> str:
    return f"?{cid} {message.strip() or 'failed'}\n\n"
