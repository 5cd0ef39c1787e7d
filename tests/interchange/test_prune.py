"""Weights that add exactly 0 are dropped on import (interchange.prune): the same activations, fewer units; the conditions are needed."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from hardsoft.interchange import prune
from hardsoft.interchange.tracr import import_tracr
from hardsoft.spec import transformer as tf

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "tracr"


def _unpruned(monkeypatch, name: str) -> tf.Model:
    monkeypatch.setattr(prune, "drop_dead_weights", lambda m: (m, prune.Dropped(0, 0, 0, 0)))
    return import_tracr(FIXTURES / f"{name}.safetensors")


def test_a_tracr_fixture_loses_its_padding_and_keeps_its_activations(monkeypatch) -> None:
    pruned = import_tracr(FIXTURES / "dyck_6.safetensors")
    full = _unpruned(monkeypatch, "dyck_6")
    assert sum(ly.W1.shape[1] for ly in pruned.layers) < sum(ly.W1.shape[1] for ly in full.layers) // 4
    assert sum(len(ly.heads) for ly in pruned.layers) < sum(len(ly.heads) for ly in full.layers)
    w = np.concatenate(list(tf.enumerate_inputs(2, 6)))
    for mode, tau in (("hard", None), ("soft", full.own_tau)):
        a, b = tf.run(full, w, mode, tau=tau).activations, tf.run(pruned, w, mode, tau=tau).activations
        for x, y in zip(a, b):
            np.testing.assert_allclose(y, x, rtol=0, atol=1e-12)
    ma, mb = tf.measure(full, 6), tf.measure(pruned, 6)
    assert mb.x_max == ma.x_max and mb.gap >= ma.gap
    na, nb = tf.compute_model_norms(full), tf.compute_model_norms(pruned)
    assert all(b.lip_F <= a.lip_F for a, b in zip(na, nb))


def _layer(b1: float) -> tf.Model:
    d = 2
    W1 = np.array([[1.0, 0.0], [0.0, 0.0]])  # unit 1 has a zero W_1 column: its ReLU is ReLU(b1)
    W2 = np.array([[0.0, 1.0], [1.0, 0.0]])
    layer = tf.Layer((), W1, np.array([0.0, b1]), W2, np.zeros(d))
    return tf.Model(("a", "b"), np.eye(2), tf.PositionEmbedding((), np.zeros((0, d))), (layer,))


def test_a_unit_with_a_zero_column_and_a_positive_bias_is_kept() -> None:
    for b1, kept in ((-1.0, 1), (0.0, 1), (0.5, 2)):
        m, dropped = prune.drop_dead_weights(_layer(b1))
        assert m.layers[0].W1.shape[1] == kept and dropped.ffn_units == 2 - kept
        w = np.array([[0, 1]])
        np.testing.assert_array_equal(tf.run(m, w, "average").activations[-1], tf.run(_layer(b1), w, "average").activations[-1])
    # planted: dropping every unit with a zero W_1 column (the bias ignored) changes the output
    full = _layer(0.5)
    ly = full.layers[0]
    wrong = tf.Model(full.alphabet, full.WE, full.PE, (tf.Layer((), ly.W1[:, :1], ly.b1[:1], ly.W2[:1], ly.b2),))
    w = np.array([[0, 1]])
    assert np.abs(tf.run(wrong, w, "average").activations[-1] - tf.run(full, w, "average").activations[-1]).max() == 0.5
