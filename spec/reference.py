"""A straightforward per-position Python loop of the transformer of Section 2: the reference the vectorised ``run`` is tested and benchmarked against.

Same computation as ``spec.transformer.run`` (same tie tolerance, same empty-row
convention), one query position at a time; slow on purpose.
"""

from __future__ import annotations

import numpy as np

from spec.attention import make_mask
from spec.constants import TIE_RTOL
from spec.transformer import Model, require_inputs
from spec.validate import require_tau


def run_loop(model: Model, inputs: np.ndarray, mode: str, tau: float | None = None) -> list[np.ndarray]:
    """Section 2: return every layer's activations, computed position by position in plain loops."""
    t = require_tau(tau) if mode == "soft" else None
    w = require_inputs(inputs, len(model.alphabet))
    x_all = model.embed(w)
    n = w.shape[1]
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
                    smax = s.max()
                    if mode == "soft":
                        e = np.exp((s - smax) / t)
                        alpha = e / e.sum()
                    else:
                        top = s >= smax - TIE_RTOL * max(1.0, abs(smax))
                        alpha = np.zeros(s.size)
                        if mode == "average":
                            alpha[top] = 1.0 / top.sum()
                        else:
                            k = np.flatnonzero(top)
                            alpha[k[0] if mode == "leftmost" else k[-1]] = 1.0
                    y += (alpha @ V[visible]) @ hd.W_O
                out[b, i] = y + np.maximum(y @ layer.W1 + layer.b1, 0.0) @ layer.W2 + layer.b2
        x_all = out
        acts.append(out)
    return acts
