"""Attention: softmax with temperature, average- and unique-hard attention, masks, max set, gap.

Section 2 of the paper (the model).  All functions act on the LAST axis of a score
array: ``scores[..., j]`` is the score of key position j.  A boolean ``mask`` of the
same (broadcastable) shape says which keys are visible (True) to the query; every
query must see at least one key.  Clarity first; every function is vectorised
because the transformer calls it on (batch, n, n) arrays.
"""

from __future__ import annotations

import mpmath
import numpy as np

from hardsoft.spec.constants import MASK_KINDS, MP_DPS
from hardsoft.spec.validate import require_scores, require_tau

# --------------------------------------------------------------------------- masks


def make_mask(kind: str, n: int) -> np.ndarray:
    """Section 2 (masking): return the (n, n) boolean mask, row i = query, column j = key.

    none: all j; causal: j <= i; strict: j < i; anticausal: j >= i; strict_anticausal: j > i.
    A strict mask leaves position 0 (resp. n-1) with no key; the transformer then
    requires the head to be unused there (see ``spec.transformer``), and the
    attention functions raise.

    >>> make_mask("causal", 3).astype(int).tolist()
    [[1, 0, 0], [1, 1, 0], [1, 1, 1]]
    """
    if kind not in MASK_KINDS:
        raise ValueError(f"unknown mask kind {kind!r}; expected one of {', '.join(MASK_KINDS)}")
    if not isinstance(n, (int, np.integer)) or n <= 0:
        raise ValueError(f"sequence length n must be a positive integer, got {n!r}")
    i = np.arange(n)[:, None]
    j = np.arange(n)[None, :]
    return {
        "none": np.ones((n, n), dtype=bool),
        "causal": j <= i,
        "strict": j < i,
        "anticausal": j >= i,
        "strict_anticausal": j > i,
    }[kind]


def _prepare(scores: np.ndarray, mask: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Return validated scores and a boolean mask broadcast to their shape."""
    s = require_scores(scores)
    if mask is None:
        m = np.ones(s.shape, dtype=bool)
    else:
        m = np.asarray(mask, dtype=bool)
        try:
            m = np.broadcast_to(m, s.shape)
        except ValueError:
            raise ValueError(f"mask of shape {m.shape} does not match scores of shape {s.shape}") from None
    if not m.any(axis=-1).all():
        raise ValueError("a query sees no key under this mask (empty attention set J(i))")
    return s, m


def _masked_max(s: np.ndarray, m: np.ndarray) -> np.ndarray:
    """Return the maximum visible score of each row, keepdims."""
    return np.where(m, s, -np.inf).max(axis=-1, keepdims=True)


def _tie_threshold(rowmax: np.ndarray, tie_rtol: float) -> np.ndarray:
    """Return the score a key must reach to count as maximal (exact when tie_rtol = 0)."""
    if tie_rtol == 0.0:
        return rowmax
    return rowmax - tie_rtol * np.maximum(1.0, np.abs(rowmax))


# --------------------------------------------------------------------------- attention functions


def softmax(scores: np.ndarray, tau: float, mask: np.ndarray | None = None) -> np.ndarray:
    """Section 2 (tau-SMAT): return softmax_tau(s)_j = exp(s_j/tau) / sum_k exp(s_k/tau) over visible keys.

    Stable for tau in [1e-12, 1e6] and |s| up to 1e6: the row maximum is subtracted
    before dividing by tau, so every exponent is <= 0 and the maximal keys get
    exp(0) = 1; masked keys get weight exactly 0.

    >>> softmax(np.array([0.0, 0.0]), 1.0).tolist()
    [0.5, 0.5]
    """
    t = require_tau(tau)
    s, m = _prepare(scores, mask)
    z = np.where(m, (s - _masked_max(s, m)) / t, -np.inf)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def ahardmax(scores: np.ndarray, mask: np.ndarray | None = None, tie_rtol: float = 0.0) -> np.ndarray:
    """Section 2 (AHAT): return average-hard attention, weight 1/|M(s)| on each maximal visible key.

    ``tie_rtol`` > 0 is the floating-point reading used by the transformer (see
    ``spec.constants.TIE_RTOL``); 0 means exact ties.

    >>> ahardmax(np.array([1.0, 3.0, 3.0])).tolist()
    [0.0, 0.5, 0.5]
    """
    s, m = _prepare(scores, mask)
    top = m & (s >= _tie_threshold(_masked_max(s, m), tie_rtol))
    return top / top.sum(axis=-1, keepdims=True)


def uhardmax(scores: np.ndarray, mask: np.ndarray | None = None, tie: str = "leftmost", tie_rtol: float = 0.0) -> np.ndarray:
    """Section 2 (UHAT): return unique-hard attention, weight 1 on the leftmost or rightmost maximal key.

    >>> uhardmax(np.array([3.0, 1.0, 3.0]), tie="rightmost").tolist()
    [0.0, 0.0, 1.0]
    """
    if tie not in ("leftmost", "rightmost"):
        raise ValueError(f"tie must be 'leftmost' or 'rightmost', got {tie!r}")
    s, m = _prepare(scores, mask)
    top = m & (s >= _tie_threshold(_masked_max(s, m), tie_rtol))
    n = s.shape[-1]
    if tie == "leftmost":
        idx = np.argmax(top, axis=-1)
    else:
        idx = n - 1 - np.argmax(top[..., ::-1], axis=-1)
    out = np.zeros(s.shape, dtype=np.float64)
    np.put_along_axis(out, idx[..., None], 1.0, axis=-1)
    return out


def attend(scores: np.ndarray, mode: str, tau: float | None = None, mask: np.ndarray | None = None, tie_rtol: float = 0.0) -> np.ndarray:
    """Section 2: return the attention weights of one mode: average, leftmost, rightmost or soft (needs tau)."""
    if mode == "average":
        return ahardmax(scores, mask, tie_rtol)
    if mode in ("leftmost", "rightmost"):
        return uhardmax(scores, mask, mode, tie_rtol)
    if mode == "soft":
        if tau is None:
            raise ValueError("soft attention needs a temperature tau")
        return softmax(scores, tau, mask)
    raise ValueError(f"unknown attention mode {mode!r}; expected average, leftmost, rightmost or soft")


# --------------------------------------------------------------------------- max set and gap


def max_set(scores: np.ndarray) -> np.ndarray:
    """Section 2 (max set M(s)): return the indices of the maximal scores of a 1-D score vector.

    >>> max_set(np.array([2.0, 5.0, 5.0])).tolist()
    [1, 2]
    """
    s = require_scores(scores)
    if s.ndim != 1:
        raise ValueError(f"max_set expects a 1-D score vector, got shape {s.shape}")
    return np.flatnonzero(s == s.max())


def compute_gaps(scores: np.ndarray, mask: np.ndarray | None = None, tie_rtol: float = 0.0) -> np.ndarray:
    """Proposition 24 (gap): return, per query row, max s - max{s_j : j not in M(s)} over visible keys (+inf if all tied)."""
    s, m = _prepare(scores, mask)
    rowmax = _masked_max(s, m)
    off = m & (s < _tie_threshold(rowmax, tie_rtol))
    second = np.where(off, s, -np.inf).max(axis=-1, keepdims=True)
    return (rowmax - second)[..., 0]


def compute_gap(scores: np.ndarray) -> float:
    """Proposition 24 (gap of one score vector): return max s - max{s_j : j not in M(s)}, +inf if all scores are equal.

    >>> compute_gap(np.array([1.0, 3.0, 3.0, 2.5]))
    0.5
    """
    s = require_scores(scores)
    if s.ndim != 1:
        raise ValueError(f"compute_gap expects a 1-D score vector, got shape {s.shape}")
    return float(compute_gaps(s))


def compute_mass_off_max_set(scores: np.ndarray, tau: float) -> float:
    """Statement E (corresponds to Edelman et al.'s bound in Theorem 26): return the softmax mass off M(s) in float64.

    Computed as sum_{j not in M} w_j / (m + sum_{j not in M} w_j) with
    w_j = exp((s_j - max s)/tau), which is accurate even when the mass is tiny.
    """
    t = require_tau(tau)
    s = require_scores(scores)
    if s.ndim != 1:
        raise ValueError(f"expects a 1-D score vector, got shape {s.shape}")
    top = s == s.max()
    off = np.exp((s[~top] - s.max()) / t).sum()
    return float(off / (top.sum() + off))


def compute_mass_off_max_set_exact(scores: np.ndarray, tau: float, dps: int = MP_DPS) -> mpmath.mpf:
    """Statement E reference: return the softmax mass off M(s) computed in mpmath at ``dps`` digits.

    The float64 inputs are taken as the exact binary rationals they are.
    """
    t = require_tau(tau)
    s = require_scores(scores)
    if s.ndim != 1:
        raise ValueError(f"expects a 1-D score vector, got shape {s.shape}")
    with mpmath.workdps(dps):
        smax = mpmath.mpf(float(s.max()))
        top = s == s.max()
        off = mpmath.fsum(mpmath.exp((mpmath.mpf(float(v)) - smax) / mpmath.mpf(t)) for v in s[~top])
        return off / (int(top.sum()) + off)


def compute_l1_distance(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Statements E and S: return ||p - q||_1 along the last axis."""
    p = np.asarray(p, dtype=np.float64)
    q = np.asarray(q, dtype=np.float64)
    if p.shape != q.shape:
        raise ValueError(f"shapes do not match: {p.shape} vs {q.shape}")
    return np.abs(p - q).sum(axis=-1)
