"""Tokens and labels as other tools write them: strings, or numbers and booleans (tracr), compared as their JSON text."""

from __future__ import annotations

import json
from typing import Any


def as_token(x: Any) -> str:
    """Return a token or label as a string (tracr's vocabularies and outputs may be numbers or booleans)."""
    return x if isinstance(x, str) else json.dumps(x)


def is_scalar(x: Any) -> bool:
    """Return whether x is a JSON scalar a token or label may be (a string, number or boolean)."""
    return isinstance(x, (str, int, float, bool))
