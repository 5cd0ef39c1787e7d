"""A straightforward per-position Python loop of the transformer of Section 2: the reference the vectorised ``run`` is tested and benchmarked against.

Same computation as ``spec.transformer.run`` (same tie tolerance, same empty-row
convention), one query position at a time; slow on purpose.
"""

from __future__ import annotations

import numpy as np

from hardsoft.spec.attention import make_mask
from hardsoft.spec.constants import TIE_RTOL
from hardsoft.spec.transformer import Model, head_mode, require_inputs
from hardsoft.spec.validate import require_tau


def _row_weights(s: np.ndarray, mode: str, tau: float | None, tie_rtol: float = TIE_RTOL) -> np.ndarray:
    """Return one query's attention weights over its visible keys (same tie tolerance as ``run``: the model's)."""
    smax = s.max()
    if mode == "soft":
        e = np.exp((s - smax) / tau)
        return e / e.sum()
    top = s >= smax - tie_rtol * max(1.0, abs(smax))
    alpha = np.zeros(s.size)
    if mode == "average":
        alpha[top] = 1.0 / top.sum()
    else:
        k = np.flatnonzero(top)
        alpha[k[0] if mode == "leftmost" else k[-1]] = 1.0
    return alpha


def run_loop(model: Model, inputs: np.ndarray, mode: str, tau: float | None = None) -> list[np.ndarray]:
    """Section 2: return every layer's activations, computed position by position in plain loops."""
    t = require_tau(tau) if mode == "soft" else None
    w = require_inputs(inputs, len(model.alphabet))
    x_all = model.embed(w)
    n = x_all.shape[1]  # positions: the input, after BOS when the model has one
    acts = [x_all]
    for layer in model.layers:
        out = np.empty_like(x_all)
        for b in range(w.shape[0]):
            x = x_all[b]
            keys = [(x @ hd.W_K, x @ hd.W_V, make_mask(hd.mask, n)) for hd in layer.heads]
            for i in range(n):
                y = x[i].copy()
                for hd, (K, V, mask) in zip(layer.heads, keys):
                    visible = mask[i]
                    if not visible.any():
                        continue
                    s = K[visible] @ (x[i] @ hd.W_Q)
                    alpha = _row_weights(s, head_mode(model, hd, mode), t, model.tie_rtol)
                    y += (alpha @ V[visible]) @ hd.W_O
                out[b, i] = y + np.maximum(y @ layer.W1 + layer.b1, 0.0) @ layer.W2 + layer.b2
        x_all = out
        acts.append(out)
    return acts


def run_pair_loop(model: Model, inputs: np.ndarray, mode: str, tau: float | None = None, queries: int | None = None) -> list[np.ndarray]:
    """Section 2, literally: return every layer's activations with one Python step per (query i, key j) pair.

    s_ij = x_i A x_j^T and o_i = sum_j alpha_ij x_j B are computed pair by pair, as
    the definitions read.  ``queries`` limits each layer to the first positions
    (for timing a slice; the remaining rows are then copied from the input and the
    result is not the model's output).
    """
    t = require_tau(tau) if mode == "soft" else None
    w = require_inputs(inputs, len(model.alphabet))
    x_all = model.embed(w)
    n = x_all.shape[1]  # positions: the input, after BOS when the model has one
    q_count = n if queries is None else min(n, queries)
    acts = [x_all]
    for layer in model.layers:
        heads = [(hd.A, hd.B, make_mask(hd.mask, n), head_mode(model, hd, mode)) for hd in layer.heads]
        out = x_all.copy()
        for b in range(w.shape[0]):
            x = x_all[b]
            for i in range(q_count):
                y = x[i].copy()
                for A, B, mask, hmode in heads:
                    keys = [j for j in range(n) if mask[i, j]]
                    if not keys:
                        continue
                    qi = x[i] @ A
                    s = np.array([qi @ x[j] for j in keys])
                    alpha = _row_weights(s, hmode, t, model.tie_rtol)
                    o = np.zeros_like(y)
                    for a_j, j in zip(alpha, keys):
                        o += a_j * (x[j] @ B)
                    y += o
                out[b, i] = y + np.maximum(y @ layer.W1 + layer.b1, 0.0) @ layer.W2 + layer.b2
        x_all = out
        acts.append(out)
    return acts
