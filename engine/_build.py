"""The one cffi build module: csrc/ compiled into ``engine._core`` (API mode).

Public C headers are the files named ``*_api.h`` under ``csrc/``; they are read into
``ffi.cdef`` with preprocessor lines stripped (``#define NAME <integer>`` constants are
kept).  Every ``.c`` file under ``csrc/`` except ``csrc/tests/`` is compiled.

``python3 engine/_build.py`` rebuilds the extension in place (developer loop; run it as a
script: ``python -m engine._build`` would import the package, which needs the extension); builds
are serialised with a lock file so parallel developers never clobber each other.
"""

from __future__ import annotations

import fcntl
import os
import re
import sys
from pathlib import Path

from cffi import FFI

ROOT = Path(__file__).resolve().parent.parent
CSRC = ROOT / "csrc"
CFLAGS = ["-O2", "-std=c11", "-Wall", "-Wextra", "-fno-strict-aliasing"]
_DEFINE = re.compile(r"^#define\s+[A-Z_][A-Z0-9_]*\s+-?(0x)?[0-9a-fA-F]+[uUlL]*\s*(/\*.*)?$")


def api_headers() -> list[Path]:
    """Public headers, game_api.h first (others refer to its types)."""
    heads = sorted(CSRC.rglob("*_api.h"))
    heads.sort(key=lambda p: (p.name != "game_api.h", str(p)))
    return heads


def sources(absolute: bool = False) -> list[str]:
    tests = CSRC / "tests"
    found = sorted(p for p in CSRC.rglob("*.c") if tests not in p.parents)
    return [str(p if absolute else p.relative_to(ROOT)) for p in found]


def cdef_text(path: Path) -> str:
    """A header with everything cffi's cdef cannot read removed."""
    keep_lines = lambda m: "\n" * m.group(0).count("\n")  # noqa: E731
    text = re.sub(r"/\*.*?\*/", keep_lines, path.read_text(), flags=re.S)
    out = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            if _DEFINE.match(stripped):
                name, value = stripped.split()[1:3]
                out.append(f"#define {name} {value.rstrip('uUlL')}")
            continue
        out.append(re.sub(r"//.*$", "", line))
    return "\n".join(out)


def make_ffi(absolute: bool = False) -> FFI:
    """The FFI of engine._core; setuptools wants relative source paths, an in-place
    build (which compiles inside build/) absolute ones."""
    ffi = FFI()
    for header in api_headers():
        ffi.cdef(cdef_text(header))
    ffi.set_source(
        "engine._core",
        "\n".join(f'#include "{h.relative_to(CSRC)}"' for h in api_headers()),
        sources=sources(absolute),
        include_dirs=[str(CSRC)],
        extra_compile_args=CFLAGS,
        libraries=["m", "pthread"],
    )
    return ffi


ffibuilder = make_ffi()


def build_inplace() -> None:
    """Compile engine/_core*.so next to this file, one builder at a time."""
    build_dir = ROOT / "build" / "cffi"
    build_dir.mkdir(parents=True, exist_ok=True)
    with open(ROOT / "build" / ".build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        cwd = os.getcwd()
        os.chdir(ROOT)
        try:
            make_ffi(absolute=True).compile(tmpdir=str(build_dir), verbose=False)
            built = max(build_dir.glob("**/_core*.so"), key=lambda p: p.stat().st_mtime)
            target = ROOT / "engine" / built.name
            tmp = target.with_suffix(".so.tmp")
            tmp.write_bytes(built.read_bytes())
            os.replace(tmp, target)
            # An older build under another ABI tag (pip's abi3 one) would shadow or be
            # shadowed by this one: keep exactly one.
            for stale in (ROOT / "engine").glob("_core*.so"):
                if stale != target:
                    stale.unlink()
        finally:
            os.chdir(cwd)


if __name__ == "__main__":
    build_inplace()
    print("built engine._core", file=sys.stderr)
