"""Many models of one shape run as one: the forward pass of spec.transformer.run with a leading model axis.

Verifying a family of formulas costs mostly fixed overhead per model (Python
dispatch per layer and head, small matrix products); models of one shape (same
d, position features, layers, heads, masks, hard modes, FFN widths) are
stacked and run together.  ``run_stacked`` follows ``spec.transformer.run`` step
by step (same masks, the same hard-mode weights from ``spec.transformer._weights``,
the same softmax order of operations, with one temperature per model) and
returns the last activations of every model; tests/checks/test_stacked.py compares it
with ``run`` model by model.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from hardsoft.spec import transformer as tf
from hardsoft.spec.attention import make_mask
from hardsoft.spec.constants import MASK_KINDS

#: Score entries computed at once (models x batch x n x n): 2^22 float64 = 32 MiB (the stacks' lengths are short, so a slice spans many inputs).
STACK_SLICE_ELEMENTS: int = 2**22


def shape_key(model: tf.Model) -> tuple:
    """Return what models must share to be stacked: alphabet, d, position features, and every layer's shapes and modes."""
    layers = tuple(
        (tuple((h.W_Q.shape, h.W_V.shape, h.mask, tf.head_mode(model, h, "hard")) for h in layer.heads), layer.W1.shape) for layer in model.layers
    )
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

            def get(attr: str, l: int = l, h: int = h) -> np.ndarray:
                return np.stack([getattr(m.layers[l].heads[h], attr) for m in models])

            hs.append((get("W_Q"), get("W_K"), get("W_V"), get("W_O"), hd.mask, tf.head_mode(first, hd, "hard")))
        heads.append(tuple(hs))
        W1, b1, W2, b2 = (np.stack([getattr(m.layers[l], a) for m in models]) for a in ("W1", "b1", "W2", "b2"))
        ffn.append((W1, b1, W2, b2))
    return Stack(tuple(models), np.stack([m.WE for m in models]), np.stack([m.PE.matrix for m in models]), tuple(heads), tuple(ffn))


def _softmax(s: np.ndarray, safe: np.ndarray, tau: np.ndarray) -> np.ndarray:
    """Return softmax weights of scores (M, b, n, n) with one temperature per model, in the order of spec.transformer."""
    s = np.where(safe, s, -np.inf) if not safe.all() else s
    s -= s.max(axis=-1, keepdims=True)
    s /= tau[:, None, None, None]
    np.exp(s, out=s)
    s /= s.sum(axis=-1, keepdims=True)
    return s


def run_stacked(st: Stack, inputs: np.ndarray, mode: str, taus: Sequence[float] | None = None, every_layer: bool = False) -> Any:
    """Return the last activations (M, batch, n, d) of every stacked model on a batch of one length.

    mode: "hard" (each head its own hard mode, else the model's) or "soft" (needs taus, one per model).
    every_layer: return the list of every stage's activations instead (the embedding first, then after each layer),
    as a compiled formula's decode reads them (its coordinates serve several subformulas in turn).
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
    phi = np.stack([tf.feature_function(f)(i, n) for f in first.PE.features], axis=1) if first.PE.features else np.zeros((n, 0))
    x = st.WE[:, w] + np.einsum("nf,mfd->mnd", phi, st.PE)[:, None]
    stages = [x]
    masks = {k: make_mask(k, n) for k in MASK_KINDS}
    step = max(1, STACK_SLICE_ELEMENTS // (M * n * n))
    mm = lambda a, W: (a.reshape(M, -1, a.shape[-1]) @ W).reshape(*a.shape[:-1], W.shape[-1])  # noqa: E731
    for heads, (W1, b1, W2, b2) in zip(st.heads, st.ffn):
        y = x.copy()
        for WQ, WK, WV, WO, mask_kind, hard in heads:
            mask = masks[mask_kind]
            nonempty = np.asarray(mask.any(axis=-1))
            safe = mask | ~nonempty[:, None]
            # one BLAS product per model over all (batch x n) rows; the (n x n) products of tiny head
            # dimensions as broadcast sums (numpy's batched matmul of tiny matrices is slow)
            Q, K, V = mm(x, WQ), mm(x, WK), mm(x, WV)
            for lo in range(0, B, step):
                q, k_ = Q[:, lo : lo + step], K[:, lo : lo + step]
                s = q[..., :, None, 0] * k_[..., None, :, 0]
                for c in range(1, q.shape[-1]):
                    s += q[..., :, None, c] * k_[..., None, :, c]
                if tau is not None:  # soft mode (tau is set exactly then)
                    alpha = _softmax(s, safe, tau)
                else:
                    m_, b_ = s.shape[:2]
                    alpha = tf._weights(s.reshape(m_ * b_, n, n), safe, hard, None).reshape(m_, b_, n, n)
                if not nonempty.all():
                    alpha[:, :, ~nonempty, :] = 0.0
                v = V[:, lo : lo + step]
                o = np.stack([(alpha * v[..., None, :, c]).sum(axis=-1) for c in range(v.shape[-1])], axis=-1)
                y[:, lo : lo + step] += mm(o, WO)
        h = mm(y, W1)  # the FFN in place: its (models x batch x n x width) arrays are the largest of the pass
        h += b1[:, None, None]
        np.maximum(h, 0.0, out=h)
        x = mm(h, W2)
        x += b2[:, None, None]
        x += y
        if every_layer:
            stages.append(x)
    return stages if every_layer else x


# --------------------------------------------------------------------------- padding to a common shape
# A model padded with zero coordinates (WE, PE, every W row/column and FFN unit touching them zero), zero
# key/value dimensions and zero FFN units computes the same function: the extra coordinates stay exactly 0
# (nothing writes them), the extra products are x * 0 = 0, and an extra FFN unit is ReLU(0) = 0 feeding a zero
# row of W_2.  Heads are put in a fixed order (by mask and hard mode) inside each layer, which changes only the
# order in which their outputs are added.  So models that share the alphabet, the position features and each
# layer's multiset of (mask, hard mode) run as one stack at the widest d, head dimension and FFN width.


def padding_key(model: tf.Model) -> tuple:
    """Return what models must share to be padded into one stack: alphabet, position features, each layer's heads' (mask, hard mode)."""
    return (
        tuple(model.alphabet),
        tuple(model.PE.features),
        tuple(tuple(sorted((h.mask, tf.head_mode(model, h, "hard")) for h in layer.heads)) for layer in model.layers),
    )


def _pad(a: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Return a zero-padded copy of a with the given (larger or equal) shape."""
    out = np.zeros(shape)
    out[tuple(slice(0, s) for s in a.shape)] = a
    return out


def pad_models(models: Sequence[tf.Model]) -> list[tf.Model]:
    """Return the models padded to one shape (ValueError if their padding keys differ); coordinates keep their indices."""
    if not models:
        return []
    key = padding_key(models[0])
    if any(padding_key(m) != key for m in models):
        raise ValueError("models with different alphabets, position features or head kinds cannot be padded together")
    d = max(m.d for m in models)
    L = len(models[0].layers)
    order = lambda m, l: sorted(
        range(len(m.layers[l].heads)),  # noqa: E731
        key=lambda h: (m.layers[l].heads[h].mask, tf.head_mode(m, m.layers[l].heads[h], "hard")),
    )
    kq = max((h.W_Q.shape[1] for m in models for layer in m.layers for h in layer.heads), default=1)
    kv = max((h.W_V.shape[1] for m in models for layer in m.layers for h in layer.heads), default=1)
    width = [max(m.layers[l].W1.shape[1] for m in models) for l in range(L)]
    out = []
    for m in models:
        layers = []
        for l, layer in enumerate(m.layers):
            heads = tuple(
                tf.Head(_pad(h.W_Q, (d, kq)), _pad(h.W_K, (d, kq)), _pad(h.W_V, (d, kv)), _pad(h.W_O, (kv, d)), h.mask, tf.head_mode(m, h, "hard"))
                for h in (layer.heads[i] for i in order(m, l))
            )
            layers.append(
                tf.Layer(heads, _pad(layer.W1, (d, width[l])), _pad(layer.b1, (width[l],)), _pad(layer.W2, (width[l], d)), _pad(layer.b2, (d,)))
            )
        pe = tf.PositionEmbedding(m.PE.features, _pad(m.PE.matrix, (len(m.PE.features), d)))
        out.append(tf.Model(m.alphabet, _pad(m.WE, (len(m.alphabet), d)), pe, tuple(layers), m.name, m.hard_mode))
    return out
