"""Section 2 transformer: modes with the same parameters, the loop reference, enumeration, measurement, model files."""

from __future__ import annotations


import numpy as np
import pytest

from hardsoft.spec import transformer as tf
from hardsoft.spec.constants import FLOAT64_EPS
from hardsoft.spec.examples import EXAMPLES, build_has_a, build_last_a, build_prefix_fraction, random_model
from hardsoft.spec.modelio import load_model, model_from_dict, model_to_dict, save_model
from hardsoft.spec.reference import run_loop, run_pair_loop


@pytest.mark.parametrize("mode,tau", [("average", None), ("leftmost", None), ("rightmost", None), ("soft", 0.05)])
def test_vectorised_run_equals_the_loop_reference(mode: str, tau: float | None) -> None:
    rng = np.random.default_rng(1)
    model = random_model(rng, d=5, depth=2, heads=2, masks=("none", "causal", "strict", "anticausal", "strict_anticausal"))
    w = rng.integers(0, 2, size=(3, 7))
    fast = tf.run(model, w, mode, tau).activations
    for slow in (run_loop(model, w, mode, tau), run_pair_loop(model, w, mode, tau)):
        for a, b in zip(fast, slow):
            np.testing.assert_allclose(a, b, rtol=0, atol=64 * model.d * 7 * FLOAT64_EPS * max(1.0, np.abs(b).max()))


def test_examples_compute_what_they_say() -> None:
    m = build_has_a()
    out = tf.run(m, m.encode(["abbb", "bbbb", "baba"]), "average").activations[-1][:, :, 2]
    assert out.tolist() == [[1.0] * 4, [0.0] * 4, [1.0] * 4]
    m = build_last_a()
    out = tf.run(m, m.encode(["abab", "aabb"]), "average").activations[-1][:, :, 3]
    assert out[:, 0].tolist() == [0.5, 0.25]  # position of the last 'a', as i/n
    m = build_prefix_fraction()
    out = tf.run(m, m.encode(["abab"]), "average").activations[-1][0, :, 1]
    assert out.tolist() == [1.0, 0.5, 2 / 3, 0.5]
    soft = tf.run(m, m.encode(["abab"]), "soft", tau=1e-3).activations[-1][0, :, 1]
    np.testing.assert_allclose(soft, out, atol=4 * FLOAT64_EPS)  # all scores tie: softmax = ahardmax exactly


def test_measure_exhaustive_counts() -> None:
    m = build_last_a()
    meas = tf.measure(m, 6)
    assert meas.inputs == 2**6
    assert meas.gap == pytest.approx(1 / 6, rel=16 * FLOAT64_EPS)  # consecutive candidates differ by 1/n
    assert meas.x_max == 1.0
    assert tf.measure(build_prefix_fraction(), 4).gap == float("inf")
    rows = np.concatenate(list(tf.enumerate_inputs(3, 3, chunk=5)))
    assert rows.shape == (27, 3) and len({tuple(r) for r in rows}) == 27


def test_strict_mask_first_position_gets_zero_head_output() -> None:
    d = 2
    head = tf.Head(np.eye(d), np.eye(d), np.eye(d), np.eye(d), "strict")
    layer = tf.Layer((head,), np.zeros((d, 1)), np.zeros(1), np.zeros((1, d)), np.zeros(d))
    m = tf.Model(("a", "b"), np.eye(2), tf.PositionEmbedding((), np.zeros((0, d))), (layer,))
    out = tf.run(m, m.encode(["ab"]), "soft", tau=1.0).activations[-1][0]
    assert out[0].tolist() == [1.0, 0.0]  # x_0 + nothing


def test_model_file_round_trip(tmp_path) -> None:
    for name, build in EXAMPLES.items():
        m = build()
        p = tmp_path / f"{name}.json"
        save_model(m, p)
        m2 = load_model(p)
        w = np.array([[0, 1, 1, 0]])
        np.testing.assert_array_equal(tf.run(m, w, "average").activations[-1], tf.run(m2, w, "average").activations[-1])


def _spoil(path: str, value):
    d = model_to_dict(build_last_a())
    keys = path.split(".")
    obj = d
    for k in keys[:-1]:
        obj = obj[int(k)] if k.isdigit() else obj[k]
    if value is KeyError:
        del obj[keys[-1]]
    else:
        obj[int(keys[-1]) if keys[-1].isdigit() else keys[-1]] = value
    return d


@pytest.mark.parametrize("path,value,msg", [
    ("format", "v0", "format"),
    ("alphabet", [], "alphabet is empty"),
    ("word_embedding", [[1.0, 0.0]], "word_embedding has shape"),
    ("layers.0.heads.0.W_K", [[1.0]], r"W_K has shape"),
    ("layers.0.heads.0.mask", "diagonal", "mask"),
    ("layers.0.ffn.b2", [0.0, float("nan"), 0.0, 0.0], "NaN"),
    ("layers.0.ffn", KeyError, "missing field layers\\[0\\].ffn"),
    ("position_embedding.features", ["i", "log i"], "unknown position feature"),
])
def test_malformed_model_file(path: str, value, msg: str) -> None:
    with pytest.raises(ValueError, match=msg):
        model_from_dict(_spoil(path, value))


def test_unreadable_model_files(tmp_path) -> None:
    with pytest.raises(ValueError, match="cannot read"):
        load_model(tmp_path / "nope.json")
    p = tmp_path / "bad.json"
    p.write_text("{not json")
    with pytest.raises(ValueError, match="not valid JSON"):
        load_model(p)


@pytest.mark.parametrize("bad,msg", [
    (lambda m: tf.run(m, np.zeros((1, 0), dtype=int), "average"), "empty"),
    (lambda m: tf.run(m, np.array([[0, 5]]), "average"), "out of range"),
    (lambda m: tf.run(m, np.array([[0.5, 1.0]]), "average"), "integer"),
    (lambda m: tf.run(m, np.array([[0, 1]]), "soft"), "tau"),
    (lambda m: tf.run(m, np.array([[0, 1]]), "soft", tau=-1.0), "tau must be > 0"),
    (lambda m: tf.run(m, np.array([[0, 1]]), "sharp"), "unknown attention mode"),
    (lambda m: m.encode(["ab", "aba"]), "one length"),
    (lambda m: tf.measure(m, 2, mode="soft"), "hard"),
])
def test_transformer_bad_input(bad, msg: str) -> None:
    with pytest.raises(ValueError, match=msg):
        bad(build_last_a())
