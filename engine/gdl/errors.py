"""The GDL errors: one subclass of the engine's ParseError for each stage."""

from __future__ import annotations

from engine.errors import LimitError, ParseError


class GdlError(ParseError):
    """Malformed GDL text: tokens, parentheses, sentence shapes."""


class GdlCheckError(GdlError):
    """Well-formed GDL that breaks a rule of the language (safety, stratification, ...)."""


class GroundingLimitError(LimitError):
    """Grounding went past its time or size bound (the caller falls back to the prover)."""
