"""The only importer of the compiled module ``engine._core``.

Everything else in the project uses ``ffi``, ``lib`` and ``check`` from here, so a C
status code always becomes an ``engine.errors`` exception the same way.
"""

from __future__ import annotations

from engine.errors import error_for

try:
    from engine._core import ffi, lib
except ImportError as exc:  # pragma: no cover - depends on the install
    raise ImportError(
        "engine._core is not built: run `pip install -e .` (or `python3 engine/_build.py`)"
    ) from exc

__all__ = ["ffi", "lib", "check", "status_text"]


def status_text(code: int) -> str:
    return ffi.string(lib.miai_status_text(code)).decode()


def check(code: int, what: str) -> None:
    """Raise the engine's exception for a nonzero status ``code``."""
    if code != lib.MIAI_OK:
        raise error_for(code, f"{what}: {status_text(code)}")
