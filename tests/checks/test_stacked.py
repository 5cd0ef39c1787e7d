"""Stacked runs (checks.stacked) against spec.transformer.run, model by model."""

from __future__ import annotations

import numpy as np
import pytest

from hardsoft.checks.engine import stacked as sk
from hardsoft.spec import transformer as tf
from hardsoft.spec.constants import FLOAT64_EPS
from hardsoft.spec.examples import random_model

# Stacked products sum in another order than per-model ones: a few ulp per term of a d-term dot product,
# compounded over a few layers of activations of size ~1.
TOL = 2**12 * FLOAT64_EPS


@pytest.mark.parametrize("hard_mode", ["average", "leftmost", "rightmost"])
@pytest.mark.parametrize("mask", ["none", "causal", "strict", "strict_anticausal"])
def test_stacked_equals_run(hard_mode: str, mask: str) -> None:
    rng = np.random.default_rng(7)
    models = []
    for k in range(5):
        m = random_model(rng, d=5, depth=2, heads=2, masks=(mask,), name=f"r{k}")
        models.append(tf.Model(m.alphabet, m.WE, m.PE, m.layers, m.name, hard_mode))
    st = sk.stack(models)
    w = np.array([[int(c) for c in np.binary_repr(v, 6)] for v in range(64)])
    taus = [0.5, 0.1, 1.0, 2.0, 0.05]
    hard = sk.run_stacked(st, w, "hard")
    soft = sk.run_stacked(st, w, "soft", taus)
    for k, m in enumerate(models):
        assert np.abs(hard[k] - tf.run(m, w, hard_mode).activations[-1]).max() <= TOL
        assert np.abs(soft[k] - tf.run(m, w, "soft", tau=taus[k]).activations[-1]).max() <= TOL


def test_different_shapes_are_refused() -> None:
    rng = np.random.default_rng(1)
    with pytest.raises(ValueError, match="different shape"):
        sk.stack([random_model(rng, d=4, masks=("none",)), random_model(rng, d=5, masks=("none",))])


def test_padded_models_compute_the_same() -> None:
    rng = np.random.default_rng(3)
    models = [random_model(rng, d=d, depth=2, heads=1, masks=("causal",), head_dim=k, name=f"r{d}")
              for d, k in ((3, 2), (5, 4), (4, 1))]
    padded = sk.pad_models(models)
    assert len({sk.shape_key(m) for m in padded}) == 1 and padded[0].d == 5
    w = np.array([[int(c) for c in np.binary_repr(v, 5)] for v in range(32)])
    soft = sk.run_stacked(sk.stack(padded), w, "soft", [0.3] * 3)
    for k, m in enumerate(models):
        ref = tf.run(m, w, "soft", tau=0.3).activations[-1]
        assert np.abs(soft[k][..., :m.d] - ref).max() <= TOL and not soft[k][..., m.d:].any()
