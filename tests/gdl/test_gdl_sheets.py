"""The rulesheets shipped as package data: where ``sheet_path`` finds them, that the
package-data globs of pyproject.toml and MANIFEST.in take every one of them with the
licence, and that nothing in the project reads the folder beside the checkout."""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from pathlib import Path

from engine.gdl.sheets import PACKAGED, sheet_names, sheet_path, sheet_paths

ROOT = Path(__file__).resolve().parents[2]
PACKAGE_DIR = ROOT / "engine" / "gdl"


def package_data_globs() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return config["tool"]["setuptools"]["package-data"]["engine.gdl"]


def test_the_sheets_are_found_through_the_package_resources() -> None:
    found = resources.files("engine.gdl").joinpath("rulesheets")
    assert Path(str(found)) == PACKAGED
    assert PACKAGED == PACKAGE_DIR / "rulesheets"
    assert found.joinpath("tictactoe.kif").read_text() == sheet_path("tictactoe").read_text()


def test_every_sheet_the_readme_lists_is_packaged_and_no_other() -> None:
    readme = (PACKAGED / "README.md").read_text()
    listed = re.findall(r"^\| (\S+)\.kif \|", readme, flags=re.MULTILINE)
    assert len(listed) == 57
    assert sorted(listed) == sheet_names()


def test_the_package_data_globs_take_every_sheet_and_the_licence() -> None:
    shipped = {p for pattern in package_data_globs() for p in PACKAGE_DIR.glob(pattern)}
    in_folder = set(PACKAGED.iterdir())
    assert in_folder == shipped
    assert {p.name for p in shipped} >= {"LICENSE-ggp-base.txt", "README.md",
                                         "tictactoe.kif", "connectFour.kif"}
    licence = (PACKAGED / "LICENSE-ggp-base.txt").read_text()
    assert "Sam Schreiber" in licence and "Redistribution" in licence


def test_the_source_distribution_takes_the_sheets_too() -> None:
    manifest = (ROOT / "MANIFEST.in").read_text().split("\n")
    line = next(x.split() for x in manifest if "engine/gdl/rulesheets" in x)
    assert line[:2] == ["recursive-include", "engine/gdl/rulesheets"]
    assert {"*.kif", "*.txt", "*.md"} <= set(line[2:])


def test_sheet_path_takes_a_name_with_or_without_kif_or_a_path() -> None:
    assert sheet_path("tictactoe") == PACKAGED / "tictactoe.kif"
    assert sheet_path("tictactoe.kif") == PACKAGED / "tictactoe.kif"
    own = ROOT / "tests" / "gdl" / "tictactoe.kif"
    assert sheet_path(str(own)) == own
    assert not sheet_path("no-such-game").exists()
    assert sheet_paths(["connectFour", str(own)]) == [PACKAGED / "connectFour.kif", own]
    assert [p.stem for p in sheet_paths([])] == sheet_names()


def test_nothing_in_the_project_reads_the_folder_beside_the_checkout() -> None:
    beside = "sha" + "red"  # spelt so that this test does not find itself
    outside = re.compile(rf"\.\./{beside}/|/work/{beside}/|\"{beside}\" */")
    files = [ROOT / "conftest.py", *(p for d in ("engine", "protocols", "bots", "scripts",
                                                  "tests") for p in (ROOT / d).rglob("*.py"))]
    readers = [str(p.relative_to(ROOT)) for p in files if outside.search(p.read_text())]
    assert readers == []
