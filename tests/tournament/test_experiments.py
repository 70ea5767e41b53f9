"""Experiment files: every scripts/experiments/*.toml loads and runs at its tiny scale
(so none of them rots), and the file format's features work on a small example."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from bots.registry import BOTS, PRESETS
from bots.spec import parse_spec
from bots.tournament.experiment import load
from bots.tournament.schedule import is_external
from bots.tournament.store import Store
from engine import games
from engine.errors import InvalidArgumentError, UnknownNameError
from protocols.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "scripts" / "experiments").glob("*.toml"))

# Parameters added to an algorithm after it (Huang's pruning conditions extend plain
# UCT): a file using them names them in the failure message when a build lacks them.
PENDING_PARAMS = {"uct": {"prune", "alpha", "every"}}


def test_there_are_experiment_files() -> None:
    names = {f.stem for f in FILES}
    assert {"ucd_leftright", "ucd_hex", "auct_othello", "uctstar_connect4",
            "pruning_connect4"} <= names


def missing_parts(path: Path) -> list[str]:
    """Games, algorithms and parameters the file needs that this build does not have."""
    exp = load(path, scale="tiny")
    missing = []
    game_name = exp.spec.game.split(":")[0]
    if game_name not in games.available():
        missing.append(f"game {game_name}")
    try:
        from engine.search import algorithms
    except ImportError:
        return [*missing, "engine.search"]
    for p in exp.spec.players:
        if is_external(p.spec):
            continue  # an external GTP engine: the tiny run starts it
        spec = parse_spec(p.spec)
        if spec.name in BOTS or spec.name in PRESETS:
            continue
        if spec.name not in algorithms.known():
            missing.append(f"algorithm {spec.name}")
            continue
        for key in sorted(set(spec.params) & PENDING_PARAMS.get(spec.name, set())):
            try:
                algorithms.algorithm_from_spec(spec.name, {key: spec.params[key]})
            except UnknownNameError:
                missing.append(f"{spec.name} parameter {key}")
    return sorted(set(missing))


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_experiment_file_loads(path: Path) -> None:
    full = load(path)
    tiny = load(path, scale="tiny")
    assert full.spec.players == tiny.spec.players
    assert tiny.name == full.name + "@tiny"
    assert full.spec.games >= 100  # the papers' experiments are hundreds of games
    assert full.spec.extra["paper_ref"]
    for spec in full.spec.extra["paper"]:  # type: ignore[union-attr]
        assert spec in {p.spec for p in full.spec.players}


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_experiment_runs_at_tiny_scale(path: Path, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    # CI runs every experiment file (issue #30): a file whose game or algorithm is
    # missing fails here with what is missing, it is not skipped.
    missing = missing_parts(path)
    assert not missing, "not in this build: " + ", ".join(missing)
    db = tmp_path / "x.db"
    assert main(["experiment", str(path), "--scale", "tiny", "--db", str(db),
                 "--out", str(tmp_path / "rep"), "--quiet"]) == 0
    exp = load(path, scale="tiny")
    with Store(db) as store:
        assert store.count(exp.name) > 0
    assert (tmp_path / "rep" / "report.md").is_file()


EXAMPLE = """
title = "example"
paper_ref = "none: a test"
game = "tictactoe"
format = "gauntlet"
games = 4
seed = 5
opening = ["b2"]
baseline = "random"

[[players]]
label = "random"
spec = "random"

[[grid]]
label = "MC {playouts}"
spec = "mc:playouts={playouts}"
values = { playouts = [2, 8, 32] }
paper = { "8" = 0.75 }

[plot]
x = "playouts"

[scale.tiny]
games = 2
"""


def test_example_experiment_end_to_end(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "example.toml"
    path.write_text(EXAMPLE)
    exp = load(path)
    assert [p.label for p in exp.spec.players] == ["random", "MC 2", "MC 8", "MC 32"]
    assert exp.spec.extra["paper"] == {"mc:playouts=8": 0.75}
    assert exp.spec.openings == (("b2",),)
    db = tmp_path / "e.db"
    argv = ["experiment", str(path), "--db", str(db), "--out", str(tmp_path / "rep"),
            "--quiet"]
    assert main([*argv, "--games", "2"]) == 0
    assert "6 games played" in capsys.readouterr().out
    assert main(argv) == 0  # the file's 4 games per pairing extend the run
    out = capsys.readouterr().out
    assert "6 games played" in out and "12/12" in out
    report = (tmp_path / "rep" / "report.md").read_text()
    assert "75.0%" in report and "example.png" in report
    with Store(db) as store:
        assert all(g.opening == ("b2",) for g in store.games("example"))
    assert main(["experiment", str(path), "--dry-run"]) == 0
    assert "MC 32 vs random" in capsys.readouterr().out


@pytest.mark.parametrize("text, message", [
    ('game = "tictactoe"\ngames = 2\n', "no players"),
    ('game = "tictactoe"\n[[players]]\nspec = "random"\n', "games"),
    ('gam = "x"\n', "unknown key 'gam'"),
    ('game = "tictactoe"\ngames = 2\n[[players]]\nspec = "random"\nlabel = "r"\nx = 1\n',
     "unknown key 'x'"),
    ('game = "tictactoe"\ngames = 2\nformat = "swiss"\n[[players]]\nspec = "random"\n',
     "format"),
    ('game = "tictactoe"\ngames = [\n', "experiment"),
])
def test_bad_experiment_files(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(InvalidArgumentError, match=message):
        load(path)


def test_unknown_scale_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "e.toml"
    path.write_text(EXAMPLE)
    with pytest.raises(InvalidArgumentError, match="scales: tiny"):
        load(path, scale="huge")


# ---- UCT*'s exploration in the thesis's units (uct-star.txt section 4) ----
#
# The thesis's tables use its eq. (6), U = w/n + sqrt(c ln N / n), and prune with eq. (7),
# mean -+ sqrt(p ln N / n): "all tuned and evaluated values for c and p are basically
# c^2, respectively p^2" of eq. (1)'s U = w/n + c sqrt(ln N / n).  miai's `uct` is eq. (1);
# `uctstar:form=eq7` selects by eq. (6) with its own c (csrc/search/uctstar.c eq6_value)
# and prunes by eq. (7) with p.  So a UCT* player explores as its UCT opponent when its
# c (eq. 6) is the square of the opponent's c (eq. 1), and p = c means the same number.

UCTSTAR_FILES = [f for f in FILES if f.stem.startswith("uctstar_")]


def exploration(spec_text: str) -> float:
    """The factor k of k sqrt(ln N / n) with which a `uct` or `uctstar` spec explores,
    read off the plain-Python reference value (tests/reference/uct_star.py) of the
    formula the spec selects by, at several (N, n); they must agree on one k."""
    from tests.reference import uct_star as ref

    spec = parse_spec(spec_text)
    c = float(spec.params["c"])
    if spec.name == "uct" or spec.params.get("form", "eq5") == "eq5":
        value = ref.value_eq1
    else:
        assert spec.params["form"] == "eq7", spec_text
        value = ref.value_eq6
    ks = [value(0.0, n, big_n, c) / math.sqrt(math.log(big_n) / n)
          for big_n, n in [(10, 3), (1000, 17), (25000, 4000)]]
    assert all(math.isclose(k, ks[0], rel_tol=1e-12) for k in ks)
    return ks[0]


def test_there_are_uctstar_files() -> None:
    assert {f.stem for f in UCTSTAR_FILES} == {
        "uctstar_connect4", "uctstar_othello", "uctstar_breakthrough"}


@pytest.mark.parametrize("path", UCTSTAR_FILES, ids=[f.stem for f in UCTSTAR_FILES])
def test_uctstar_files_explore_as_their_uct_opponent(path: Path) -> None:
    from tests.reference import uct_star as ref

    exp = load(path)
    specs = [p.spec for p in exp.spec.players]
    (uct,) = [s for s in specs if parse_spec(s).name == "uct"]
    (star,) = [s for s in specs if parse_spec(s).name == "uctstar"]
    assert exp.spec.extra.get("baseline", uct) == uct
    assert math.isclose(exploration(star), exploration(uct), rel_tol=1e-12), (star, uct)
    # The final UCT* prunes with p = c (Table 10): its eq. (7) half width is its
    # eq. (6) exploration term.
    params = parse_spec(star).params
    low, high = ref.interval_eq7(0.0, 7, 300, float(params["p"]))
    assert math.isclose((high - low) / 2, ref.value_eq6(0.0, 7, 300, float(params["c"])),
                        rel_tol=1e-12)
