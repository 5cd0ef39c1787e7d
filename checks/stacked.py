"""Many models of one shape run as one: the forward pass of spec.transformer.run with a leading model axis.

Verifying a family of formulas costs mostly fixed overhead per model (Python
dispatch per layer and head, small matrix products); models of one shape (same
d, position features, layers, heads, masks, hard modes, FFN widths) are
stacked and run together.  ``run_stacked`` follows ``spec.transformer.run`` step
by step (same masks, the same hard-mode weights from ``spec.transformer._weights``,
the same softmax order of operations, with one temperature per model) and
returns the last activations of every model; tests/test_stacked.py compares it
with ``run`` model by model.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from hardsoft.spec import transformer as tf
from hardsoft.spec.attention import make_mask
from hardsoft.spec.constants import MASK_KINDS

#: Score entries computed at once (models x batch x n x n), as spec.transformer.SCORE_SLICE_ELEMENTS.
STACK_SLICE_ELEMENTS: int = tf.SCORE_SLICE_ELEMENTS


def _head_mode(model: tf.Model, head: tf.Head, mode: str) -> str:
    """Return the mode a head runs in: soft, or its own hard mode (format 2), else the model's / the run's."""
    if mode == "soft":
        return "soft"
    own = getattr(head, "hard_mode", None)
    if own is not None:
        return own
    return model.hard_mode if mode == "hard" else mode


def shape_key(model: tf.Model) -> tuple:
    """Return what models must share to be stacked: alphabet, d, position features, and every layer's shapes and modes."""
    layers = tuple((tuple((h.W_Q.shape, h.W_V.shape, h.mask, _head_mode(model, h, "hard")) for h in layer.heads),
                    layer.W1.shape) for layer in model.layers)
    return (tuple(model.alphabet), model.d, tuple(model.PE.features), layers)


@dataclass(frozen=True)
class Stack:
    """The weights of M models of one shape, each array with a leading model axis."""

    models: tuple[tf.Model, ...]
    WE: np.ndarray  # (M, s, d)
    PE: np.ndarray  # (M, F, d)
    heads: tuple[tuple[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, str, str], ...], ...]
    ffn: tuple[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray], ...]


def stack(models: Sequence[tf.Model]) -> Stack:
    """Return the stack of models of one shape (ValueError if their shapes differ)."""
    if not models:
        raise ValueError("nothing to stack")
    key = shape_key(models[0])
    for m in models[1:]:
        if shape_key(m) != key:
            raise ValueError(f"model {m.name} has a different shape from {models[0].name}")
    first = models[0]
    heads = []
    ffn = []
    for l, layer in enumerate(first.layers):
        hs = []
        for h, hd in enumerate(layer.heads):
            get = lambda attr: np.stack([getattr(m.layers[l].heads[h], attr) for m in models])  # noqa: E731
            hs.append((get("W_Q"), get("W_K"), get("W_V"), get("W_O"), hd.mask, _head_mode(first, hd, "hard")))
        heads.append(tuple(hs))
        ffn.append(tuple(np.stack([getattr(m.layers[l], a) for m in models]) for a in ("W1", "b1", "W2", "b2")))
    return Stack(tuple(models), np.stack([m.WE for m in models]), np.stack([m.PE.matrix for m in models]),
                 tuple(heads), tuple(ffn))


def _softmax(s: np.ndarray, safe: np.ndarray, tau: np.ndarray) -> np.ndarray:
    """Return softmax weights of scores (M, b, n, n) with one temperature per model, in the order of spec.transformer."""
    s = np.where(safe, s, -np.inf) if not safe.all() else s
    s -= s.max(axis=-1, keepdims=True)
    s /= tau[:, None, None, None]
    np.exp(s, out=s)
    s /= s.sum(axis=-1, keepdims=True)
    return s


def run_stacked(st: Stack, inputs: np.ndarray, mode: str, taus: Sequence[float] | None = None) -> np.ndarray:
    """Return the last activations (M, batch, n, d) of every stacked model on a batch of one length.

    mode: "hard" (each head its own hard mode, else the model's) or "soft" (needs taus, one per model).
    """
    if mode not in ("hard", "soft"):
        raise ValueError(f"stacked runs are hard or soft, got {mode!r}")
    w = tf.require_inputs(inputs, st.WE.shape[1])
    M = len(st.models)
    tau = None
    if mode == "soft":
        if taus is None or len(taus) != M:
            raise ValueError("soft mode needs one temperature per stacked model")
        tau = np.array([float(t) for t in taus])
        if not (np.isfinite(tau).all() and (tau > 0).all()):
            raise ValueError("temperatures must be finite and positive")
    B, n = w.shape
    first = st.models[0]
    i = np.arange(n)
    phi = np.stack([tf.PE_FEATURES[f](i, n) for f in first.PE.features], axis=1) if first.PE.features else np.zeros((n, 0))
    x = st.WE[:, w] + np.einsum("nf,mfd->mnd", phi, st.PE)[:, None]
    masks = {k: make_mask(k, n) for k in MASK_KINDS}
    step = max(1, STACK_SLICE_ELEMENTS // (M * n * n))
    for heads, (W1, b1, W2, b2) in zip(st.heads, st.ffn):
        y = x.copy()
        for WQ, WK, WV, WO, mask_kind, hard in heads:
            mask = masks[mask_kind]
            nonempty = mask.any(axis=-1)
            safe = mask | ~nonempty[:, None]
            Q, K, V = x @ WQ[:, None], x @ WK[:, None], x @ WV[:, None]
            for lo in range(0, B, step):
                s = Q[:, lo:lo + step] @ K[:, lo:lo + step].transpose(0, 1, 3, 2)
                if mode == "soft":
                    alpha = _softmax(s, safe, tau)
                else:
                    m_, b_ = s.shape[:2]
                    alpha = tf._weights(s.reshape(m_ * b_, n, n), safe, hard, None).reshape(m_, b_, n, n)
                if not nonempty.all():
                    alpha[:, :, ~nonempty, :] = 0.0
                y[:, lo:lo + step] += (alpha @ V[:, lo:lo + step]) @ WO[:, None]
        x = y + np.maximum(y @ W1[:, None] + b1[:, None, None], 0.0) @ W2[:, None] + b2[:, None, None]
    return x
