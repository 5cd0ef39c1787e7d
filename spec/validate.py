"""Input validation shared by the whole spec: every bad input is a ValueError naming the problem."""

from __future__ import annotations

import math
from typing import Any, Literal, overload

import numpy as np


def require_tau(tau: Any) -> float:
    """Return tau as a float after checking it is a finite positive temperature."""
    try:
        t = float(tau)
    except (TypeError, ValueError):
        raise ValueError(f"temperature tau must be a number, got {tau!r}") from None
    if math.isnan(t) or math.isinf(t):
        raise ValueError(f"temperature tau must be finite, got {t}")
    if t <= 0.0:
        raise ValueError(f"temperature tau must be > 0, got {t}")
    return t


def require_scores(scores: Any, *, min_ndim: int = 1) -> np.ndarray:
    """Return scores as a float64 array after checking it is non-empty and finite."""
    try:
        s = np.asarray(scores, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("scores must be an array of numbers") from None
    if s.ndim < min_ndim:
        raise ValueError(f"scores must have at least {min_ndim} dimension(s), got shape {s.shape}")
    if s.size == 0 or s.shape[-1] == 0:
        raise ValueError("scores must be non-empty (an empty sequence has no attention)")
    if np.isnan(s).any():
        raise ValueError("scores contain NaN")
    if np.isinf(s).any():
        raise ValueError("scores contain an infinite value")
    return s


def require_eps(eps: Any) -> float:
    """Return eps after checking the target error lies in (0, 1] (statement C's range)."""
    try:
        e = float(eps)
    except (TypeError, ValueError):
        raise ValueError(f"target error eps must be a number, got {eps!r}") from None
    if not (0.0 < e <= 1.0):
        raise ValueError(f"target error eps must lie in (0, 1], got {eps!r}")
    return e


@overload
def require_positive(name: str, value: Any, *, integer: Literal[True], allow_inf: bool = False) -> int: ...
@overload
def require_positive(name: str, value: Any, *, integer: Literal[False] = False, allow_inf: bool = False) -> float: ...
def require_positive(name: str, value: Any, *, integer: bool = False, allow_inf: bool = False) -> float:
    """Return value after checking it is a positive number (an integer if asked)."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number, got {value!r}") from None
    if math.isnan(v) or (math.isinf(v) and not allow_inf):
        raise ValueError(f"{name} must be finite, got {value!r}")
    if v <= 0:
        raise ValueError(f"{name} must be > 0, got {value!r}")
    if integer:
        if v != int(v):
            raise ValueError(f"{name} must be an integer, got {value!r}")
        return int(v)
    return v


def require_nonnegative(name: str, value: Any) -> float:
    """Return value after checking it is a finite number >= 0."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number, got {value!r}") from None
    if math.isnan(v) or math.isinf(v) or v < 0:
        raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
    return v


def require_unit_interval_open(name: str, value: Any) -> float:
    """Return value after checking it lies in [0, 1)."""
    v = require_nonnegative(name, value)
    if v >= 1:
        raise ValueError(f"{name} must lie in [0, 1), got {value!r}")
    return v
