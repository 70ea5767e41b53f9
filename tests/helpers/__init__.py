"""Helpers shared by several tests (never a test module: tests import these, not each other)."""
