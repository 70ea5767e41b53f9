"""Every figure of ours in docs/results.md is printed again by `miai report` from the
results file its table names, so a number that disagrees with its games fails here.

The convention (docs/results.md, "How the figures are checked"): a line

    Games: `docs/data/papers/FILE.db.xz`

names the results file of the next Markdown table.  In that table every cell holding
one of our figures, ``52.5% [47.6, 57.3]`` (score and 95% interval, the % optional),
belongs to the player whose label (as `miai report` prints it) begins the nearest cell
to its left that begins with a label (spaces, ``**``, backticks ignored; ∞ is inf);
a table whose rows are a parameter names the label with a template after the path,
``label `{column} k={row}```: {column} is the word after "ours" in the cell's column
header, {row} the row's first cell.  Optional parts of a figure's cell are checked too:
``(W-D-L)`` and ``N iterations`` (the player's) and ``against X's N`` (its opponents'
iterations per game).  Any figure cell no label can be found for is a failure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from protocols.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "docs" / "results.md"

GAMES_LINE = re.compile(r"^Games: `(?P<path>docs/data/[^`]+)`(?: label `(?P<tpl>[^`]+)`)?")
FIGURE = re.compile(r"(?P<score>\d+\.\d)%? \[(?P<lo>\d+\.\d), (?P<hi>\d+\.\d)\]")
WDL = re.compile(r"\((?P<wdl>\d+-\d+-\d+)\)")
ITERATIONS = re.compile(r"(?<!')\b(?P<n>\d[\d,]*) iterations")
OPP_ITERATIONS = re.compile(r"against [^;]*?'s (?P<n>\d[\d,]*)")
# A report line: the label, then (gauntlets) the opponents, games, [W-D-L], the score
# and its interval, then it/game [opp it/game] s/game [opp s/game], [paper].
REPORT_ROW = re.compile(
    r"^(?P<label>\S.*?)\s{2,}(?:.*?\s{2,})?(?P<games>\d+)\s+(?:(?P<wdl>\d+-\d+-\d+)\s+)?"
    r"(?P<score>\d+\.\d)%\s+\[\s*(?P<lo>\d+\.\d)%,\s*(?P<hi>\d+\.\d)%\]\s+"
    r"(?P<it>[\d,]+)\s+(?:(?P<oit>[\d,]+)\s+)?\d+\.\d+")


@dataclass(frozen=True)
class Reported:
    score: str
    lo: str
    hi: str
    wdl: str | None
    iterations: str
    opp_iterations: str | None


@dataclass(frozen=True)
class Table:
    path: str
    template: str | None
    header: list[str]
    rows: list[list[str]]
    line: int


def tables() -> list[Table]:
    """Each table introduced by a Games line, in the page's order."""
    lines = RESULTS.read_text().splitlines()
    found = []
    for i, line in enumerate(lines):
        m = GAMES_LINE.match(line)
        if not m:
            continue
        j = i + 1
        while j < len(lines) and not lines[j].startswith("|"):
            assert not GAMES_LINE.match(lines[j]) and not lines[j].startswith("#"), (
                f"docs/results.md:{i + 1}: a Games line with no table after it")
            j += 1
        body = []
        while j < len(lines) and lines[j].startswith("|"):
            body.append([c.strip() for c in lines[j].strip().strip("|").split("|")])
            j += 1
        assert len(body) > 2, f"docs/results.md:{i + 1}: no table rows"
        found.append(Table(m["path"], m["tpl"], body[0], body[2:], i + 1))
    return found


def report(path: str, capsys: pytest.CaptureFixture[str]) -> dict[str, Reported]:
    """What `miai report FILE --no-files` prints, by player label."""
    capsys.readouterr()
    assert main(["report", str(ROOT / path), "--no-files"]) == 0
    out = capsys.readouterr().out
    rows = {}
    for line in out.splitlines():
        m = REPORT_ROW.match(line)
        if m:
            rows[m["label"]] = Reported(m["score"], m["lo"], m["hi"], m["wdl"], m["it"],
                                        m["oit"])
    assert rows, f"no rows in the report of {path}:\n{out}"
    return rows


def key(text: str) -> str:
    return re.sub(r"[\s*`]", "", text).replace("∞", "inf")


def label_of(row: list[str], k: int, table: Table, labels: list[str]) -> str | None:
    """The label of the figure in row[k]: the nearest cell to its left (or the cell
    itself) that begins with a label, the longest one that fits; else the template."""
    by_length = sorted(labels, key=len, reverse=True)
    for cell in reversed(row[: k + 1]):
        for label in by_length:
            if key(cell).startswith(key(label)):
                return label
    if table.template:
        m = re.search(r"ours (\w+)", table.header[k])
        if m:
            return table.template.format(column=m[1], row=key(row[0]))
    return None


def test_the_papers_results_files_are_quoted() -> None:
    """Every results file kept under docs/data/papers/ has a checked table."""
    named = {t.path for t in tables()}
    kept = {f"docs/data/papers/{f.name}" for f in (ROOT / "docs/data/papers").glob("*.db.xz")}
    assert kept <= named, f"no Games line for {sorted(kept - named)}"


@pytest.mark.parametrize("table", tables(), ids=lambda t: f"line{t.line}")
def test_every_figure_is_what_report_prints(table: Table,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert (ROOT / table.path).is_file(), table.path
    reported = report(table.path, capsys)
    checked = 0
    for row in table.rows:
        for k, cell in enumerate(row):
            m = FIGURE.search(cell)
            if not m:
                continue
            label = label_of(row, k, table, list(reported))
            where = f"docs/results.md:{table.line} row {row[0]!r}: {cell!r}"
            assert label in reported, f"{where}: no player of {table.path} for it"
            want = reported[label]
            assert (m["score"], m["lo"], m["hi"]) == (want.score, want.lo, want.hi), (
                f"{where}: report prints {want} for {label}")
            if w := WDL.search(cell):
                assert w["wdl"] == want.wdl, f"{where}: report prints {want.wdl}"
            if it := ITERATIONS.search(cell):
                assert it["n"] == want.iterations, f"{where}: report: {want.iterations}"
            if opp := OPP_ITERATIONS.search(cell):
                assert opp["n"] == want.opp_iterations, (
                    f"{where}: report: {want.opp_iterations}")
            checked += 1
    assert checked, f"docs/results.md:{table.line}: no figure in the table"


def test_hex_b2_side_wins_what_the_page_says() -> None:
    """Section 2's count of games won by the side holding b2, from the games."""
    from bots.tournament.store import open_results

    text = " ".join(RESULTS.read_text().split())
    m = re.search(r"the side holding b2 \(role 0\) won (?P<won>[\d,]+) of the "
                  r"(?P<games>[\d,]+) games \((?P<pct>\d+\.\d)%\)", text)
    assert m, "section 2 no longer quotes the b2 side's wins"
    with open_results(ROOT / "docs/data/papers/ucd_hex.db.xz") as store:
        rewards = [g.rewards[0] for g in store.games("ucd_hex")]
    assert int(m["games"].replace(",", "")) == len(rewards)
    assert float(m["won"].replace(",", "")) == sum(rewards)
    assert m["pct"] == f"{100 * sum(rewards) / len(rewards):.1f}"
