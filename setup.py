"""cffi's setuptools hook: builds csrc/ into engine._core (see engine/_build.py)."""

from setuptools import setup

setup(cffi_modules=["engine/_build.py:ffibuilder"])
