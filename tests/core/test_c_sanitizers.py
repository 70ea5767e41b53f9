"""The C core under AddressSanitizer and UndefinedBehaviorSanitizer, and warning-clean.

Each ``csrc/tests/test_*.c`` is a C test program (see csrc/tests/ctest.h).  It is linked
with every core source compiled separately from the shipped extension, with
``-fsanitize=address,undefined``, and run; any sanitizer report fails the test.
The threaded search's program (``csrc/tests/test_threads.c``) also runs under
ThreadSanitizer (``-fsanitize=thread``): any data race report fails it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CSRC = ROOT / "csrc"
CC = os.environ.get("CC", "gcc")
SAN = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"]
COMMON = ["-std=c11", "-g", "-O1", "-I", str(CSRC)]

pytestmark = pytest.mark.skipif(shutil.which(CC) is None, reason="no C compiler")


def core_sources() -> list[Path]:
    return sorted(p for p in CSRC.rglob("*.c") if (CSRC / "tests") not in p.parents)


def c_test_programs() -> list[Path]:
    return sorted((CSRC / "tests").glob("test_*.c"))


def link_flags(program: Path) -> list[str]:
    """Extra link flags a test program names on a ``link:`` line of its header comment
    (test_alloc_failures.c wraps the allocator with them)."""
    for line in program.read_text().splitlines()[:20]:
        text = line.strip().lstrip("/*").strip()
        if text.startswith("link:"):
            return text[len("link:"):].replace("*/", "").split()
    return []


@pytest.fixture(scope="session")
def sanitizer_objects(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    out = tmp_path_factory.mktemp("san")

    def compile_one(src: Path) -> Path:
        obj = out / (str(src.relative_to(CSRC)).replace("/", "_") + ".o")
        subprocess.run([CC, *COMMON, *SAN, "-c", str(src), "-o", str(obj)], check=True)
        return obj

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return list(pool.map(compile_one, core_sources()))


@pytest.mark.parametrize("program", c_test_programs(), ids=lambda p: p.stem)
def test_c_program_under_sanitizers(
    program: Path, sanitizer_objects: list[Path], tmp_path: Path
) -> None:
    exe = tmp_path / program.stem
    subprocess.run(
        [CC, *COMMON, *SAN, str(program), *map(str, sanitizer_objects), "-lm", "-lpthread",
         *link_flags(program), "-o", str(exe)],
        check=True,
    )
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=1",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
    run = subprocess.run([str(exe)], capture_output=True, text=True, env=env, timeout=600)
    print(run.stdout)
    print(run.stderr[-20000:])
    assert run.returncode == 0, run.stderr[-5000:]
    assert " 0 failed" in run.stdout


TSAN = ["-fsanitize=thread", "-fno-omit-frame-pointer"]
TSAN_PROGRAMS = [CSRC / "tests" / "test_threads.c"]


def _tsan_works(tmp: Path) -> bool:
    src = tmp / "probe.c"
    src.write_text("#include <pthread.h>\nint main(void) { return 0; }\n")
    probe = subprocess.run([CC, *TSAN, str(src), "-o", str(tmp / "probe")],
                           capture_output=True)
    return probe.returncode == 0 and subprocess.run([str(tmp / "probe")]).returncode == 0


# The graph lock's waiters spin, then sleep (threads.c): built with the spins at 1,
# every contended wait goes through the sleep and the wake-up, so a lost wake-up
# hangs the program (and fails at the timeout) and a race there is reported.
SPINS = {"spin-then-sleep": [], "sleep-at-once": ["-DMIAI_SPINS_BEFORE_SLEEP=1"]}


@pytest.mark.parametrize("spins", SPINS)
@pytest.mark.parametrize("program", TSAN_PROGRAMS, ids=lambda p: p.stem)
def test_c_threads_under_tsan(program: Path, spins: str, tmp_path: Path) -> None:
    if not _tsan_works(tmp_path):
        pytest.skip("no ThreadSanitizer runtime for this compiler")

    def compile_one(src: Path) -> Path:
        obj = tmp_path / (str(src.relative_to(CSRC)).replace("/", "_") + ".o")
        subprocess.run([CC, *COMMON, *TSAN, *SPINS[spins], "-c", str(src), "-o", str(obj)],
                       check=True)
        return obj

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        objects = list(pool.map(compile_one, core_sources()))
    exe = tmp_path / program.stem
    subprocess.run([CC, *COMMON, *TSAN, str(program), *map(str, objects), "-lm", "-lpthread",
                    "-o", str(exe)], check=True)
    env = dict(os.environ, TSAN_OPTIONS="halt_on_error=1:exitcode=66:second_deadlock_stack=1")
    run = subprocess.run([str(exe)], capture_output=True, text=True, env=env, timeout=900)
    print(run.stdout)
    print(run.stderr[-20000:])
    assert run.returncode == 0, run.stderr[-5000:]
    assert "ThreadSanitizer" not in run.stderr
    assert " 0 failed" in run.stdout


def test_core_compiles_warning_free() -> None:
    """The shipped flags, -O2 -Wall -Wextra, with warnings as errors."""
    for src in core_sources():
        subprocess.run(
            [CC, "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-I", str(CSRC),
             "-c", str(src), "-o", os.devnull],
            check=True,
        )
