"""Weights that add exactly 0, dropped from an imported model: what tracr's padding costs without changing the function.

tracr pads every layer's MLP to the widest one (shuffle_dyck at length 16: 1010 hidden units in every
layer, of which 3 to 36 are used) and every head to the widest head, and keeps all-zero heads.
Run over every input of a length, those zeros cost almost all the time.  ``drop_dead_weights``
removes, layer by layer:

- an FFN hidden unit j whose W_2 row is 0 (it adds 0), or whose W_1 column is 0 and b_1[j] <= 0
  (its ReLU is 0 at every input);
- a query/key column c of a head where W_Q[:, c] or W_K[:, c] is 0 (it adds 0 to every score), and a
  value column c where W_V[:, c] or W_O[c, :] is 0 (it adds 0 to the head's output);
- a head with no value column left (its output is 0 in every mode).

Each removal leaves every activation the same in exact arithmetic, in hard and in soft mode
(float64 sums of the remaining terms may round differently in the last place).  The norms of
Lemma 25 can only go down: a removed unit's column of W_1 or row of W_2 no longer counts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hardsoft.spec import transformer as tf


@dataclass(frozen=True)
class Dropped:
    """How much ``drop_dead_weights`` removed."""

    ffn_units: int
    ffn_units_before: int
    heads: int
    head_columns: int


def _nonzero_cols(M: np.ndarray) -> np.ndarray:
    return np.any(M != 0, axis=0)


def drop_dead_weights(model: tf.Model) -> tuple[tf.Model, Dropped]:
    """Return the model without the FFN units, head columns and heads that add exactly 0, and what was dropped."""
    units = units_before = heads_dropped = cols = 0
    layers = []
    for layer in model.layers:
        heads = []
        for hd in layer.heads:
            qk = _nonzero_cols(hd.W_Q) & _nonzero_cols(hd.W_K)
            vo = _nonzero_cols(hd.W_V) & np.any(hd.W_O != 0, axis=1)
            cols += int((~qk).sum() + (~vo).sum())
            if not vo.any():
                heads_dropped += 1
                cols -= int((~vo).sum())
                continue
            c = np.ascontiguousarray  # a column selection may come out in Fortran order: numpy's batched matmul is slow on it
            heads.append(tf.Head(c(hd.W_Q[:, qk]), c(hd.W_K[:, qk]), c(hd.W_V[:, vo]), c(hd.W_O[vo, :]), hd.mask, hd.hard_mode))
        live = np.any(layer.W2 != 0, axis=1) & (_nonzero_cols(layer.W1) | (layer.b1 > 0))
        units_before += int(layer.W1.shape[1])
        units += int((~live).sum())
        layers.append(
            tf.Layer(tuple(heads), np.ascontiguousarray(layer.W1[:, live]), layer.b1[live], np.ascontiguousarray(layer.W2[live, :]), layer.b2)
        )
    out = tf.Model(
        alphabet=model.alphabet,
        WE=model.WE,
        PE=model.PE,
        layers=tuple(layers),
        name=model.name,
        hard_mode=model.hard_mode,
        readout=model.readout,
        bos_token=model.bos_token,
        bos_embedding=model.bos_embedding,
        output=model.output,
        tie_rtol=model.tie_rtol,
        own_tau=model.own_tau,
    )
    return out, Dropped(units, units_before, heads_dropped, cols)
