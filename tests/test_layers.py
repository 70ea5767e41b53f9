"""The house's layering rule, read from the code itself.

Python: imports flow one way, ``scripts → protocols → bots → engine``, counting
imports made inside functions too, and no module imports itself through others (no
import circle).  C: the search includes no header of the game side but ``core/``'s,
and no circle of calls between C files (read from each file's symbols with ``nm``).

The checks read the source (``ast``, ``#include`` lines, the symbols of each C file
compiled alone): a planted upward import or circle fails them (the tests at the end).
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

from engine.gdl.graph import strongly_connected

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("engine", "bots", "protocols", "scripts")  # bottom to top
COMPILED = {"engine._core"}  # the cffi extension: below every Python module
CC = shutil.which(os.environ.get("CC", "cc"))
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def python_files(root: Path = ROOT) -> list[Path]:
    out: list[Path] = []
    for top in LAYERS:
        out += sorted((root / top).rglob("*.py"))
    return out


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, modules: set[str], root: Path = ROOT) -> set[str]:
    """The project modules ``path`` imports (at any depth of its code), each as the
    longest known module name its import names."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    here = module_name(path, root)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            subs = [f"{base}.{alias.name}" for alias in node.names]
            names += subs
            if not all(s in modules for s in subs):  # names defined in ``base`` itself
                names.append(base)
    found: set[str] = set()
    for name in names:
        while name and name not in modules and name not in COMPILED:
            name = name.rpartition(".")[0]
        if name and name != here and name not in COMPILED:
            found.add(name)
    return found


def python_graph(files: Iterable[Path], root: Path = ROOT) -> dict[str, set[str]]:
    files = list(files)
    modules = {module_name(p, root) for p in files}
    return {module_name(p, root): imports_of(p, modules, root) for p in files}


def layer(module: str) -> int:
    return LAYERS.index(module.split(".")[0])


def upward(graph: Mapping[str, set[str]]) -> list[tuple[str, str]]:
    """Imports from a lower layer to a higher one (a module's own package and its
    ``__init__`` re-exports aside, which are the same layer)."""
    return sorted((a, b) for a, targets in graph.items() for b in targets
                  if layer(b) > layer(a))


def circles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node, each sorted."""
    parts = strongly_connected(sorted(graph), lambda v: sorted(graph.get(v, ())))
    return sorted(sorted(p) for p in parts if len(p) > 1)


def c_graph() -> dict[str, set[str]]:
    """Files of csrc/ (tests aside) and the project files each ``#include``s."""
    csrc = ROOT / "csrc"
    graph: dict[str, set[str]] = {}
    for path in sorted(csrc.rglob("*.[ch]")):
        if "tests" in path.relative_to(csrc).parts:
            continue
        name = str(path.relative_to(csrc))
        graph[name] = set()
        for inc in INCLUDE.findall(path.read_text(encoding="utf-8")):
            target = (path.parent / inc).resolve()
            if target.is_file():
                graph[name].add(str(target.relative_to(csrc)))
    return graph


def c_calls(out: Path) -> dict[str, set[str]]:
    """Files of csrc/ (tests aside) and the files whose functions or data each uses,
    read from the symbols of each file compiled on its own (``nm``: what it defines,
    what it needs)."""
    csrc = ROOT / "csrc"
    defined: dict[str, str] = {}
    needs: dict[str, set[str]] = {}
    for src in sorted(csrc.rglob("*.c")):
        rel = src.relative_to(csrc)
        if "tests" in rel.parts:
            continue
        obj = out / (str(rel).replace("/", "__") + ".o")
        subprocess.run([CC, "-std=c11", "-O0", "-I", str(csrc), "-c", str(src), "-o",
                        str(obj)], check=True)
        table = subprocess.run(["nm", "-P", str(obj)], check=True, capture_output=True,
                               text=True).stdout
        needs[str(rel)] = set()
        for line in table.splitlines():
            name, kind = line.split()[:2]
            if kind == "U":
                needs[str(rel)].add(name)
            elif kind.isupper():
                defined[name] = str(rel)
    return {a: {defined[s] for s in used if s in defined} - {a} for a, used in needs.items()}


def test_python_imports_flow_down_the_layers() -> None:
    assert upward(python_graph(python_files())) == []


def test_python_has_no_import_circle() -> None:
    assert circles(python_graph(python_files())) == []


def test_search_includes_only_the_game_vtable_of_the_game_side() -> None:
    wrong = sorted((a, b) for a, targets in c_graph().items() if a.startswith("search/")
                   for b in targets if not b.startswith(("search/", "core/")))
    assert wrong == []
    # and names no Go function: a game's knowledge comes through the vtable's hooks
    go_calls = [str(p.relative_to(ROOT)) for p in sorted((ROOT / "csrc/search").glob("*.[ch]"))
                if re.search(r"\bgo_[a-z_]+\s*\(", p.read_text(encoding="utf-8"))]
    assert go_calls == []


@pytest.mark.skipif(CC is None or shutil.which("nm") is None, reason="needs cc and nm")
def test_c_files_call_each_other_without_a_circle(tmp_path: Path) -> None:
    calls = c_calls(tmp_path)
    assert calls["gdl/propnet.c"], "the symbol graph is empty: the check reads nothing"
    assert circles(calls) == []


# -- the checks themselves fail on what they must catch ------------------------------

def test_a_planted_upward_import_and_circle_are_found(tmp_path: Path) -> None:
    for top in LAYERS:
        (tmp_path / top).mkdir()
        (tmp_path / top / "__init__.py").write_text("")
    (tmp_path / "engine" / "a.py").write_text("def f():\n    from bots import b\n")
    (tmp_path / "bots" / "b.py").write_text("from engine.a import f\n")
    (tmp_path / "bots" / "c.py").write_text("from . import b\n")
    graph = python_graph(python_files(tmp_path), tmp_path)
    assert upward(graph) == [("engine.a", "bots.b")]
    assert circles(graph) == [["bots.b", "engine.a"]]
    assert "bots.b" in graph["bots.c"]


@pytest.mark.parametrize("graph, found", [
    ({"go.c": {"go_policy.c"}, "go_policy.c": {"go.c"}}, [["go.c", "go_policy.c"]]),
    ({"go.c": {"go_policy.c"}, "go_policy.c": {"go_board.c"}}, []),
])
def test_a_planted_c_circle_is_found(graph: dict[str, set[str]], found: list) -> None:
    assert circles(graph) == found
