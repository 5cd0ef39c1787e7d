"""spec.lowprec: runs in real low-precision arithmetic, checked step by step."""

from __future__ import annotations

import numpy as np
import pytest

from hardsoft.constructive import applications as cs
from hardsoft.constructive import lowprec as lp
from hardsoft.spec import transformer as tf
from hardsoft.spec.examples import build_last_a, random_model
from hardsoft.spec.transformer import Head, Layer, Model, PositionEmbedding


def _tie_model(delta: float) -> Model:
    """One head: score s_ij = x_i[0] x_j[0] with x[0] = 1 for 'a' and 1 + delta for 'b'; output = mean of [w_j = b] weighted."""
    WE = np.array([[1.0, 0.0, 0.0], [1.0 + delta, 1.0, 0.0]])
    head = Head(np.array([[1.0], [0], [0]]), np.array([[1.0], [0], [0]]), np.array([[0.0], [1.0], [0]]),
                np.array([[0.0, 0.0, 1.0]]), "none")
    z = (np.zeros((3, 1)), np.zeros(1), np.zeros((1, 3)), np.zeros(3))
    return Model(("a", "b"), WE, PositionEmbedding((), np.zeros((0, 3))), (Layer((head,), *z),), "tie")


def test_float64_agrees_with_spec() -> None:
    rng = np.random.default_rng(5)
    models = [cs.get_construction(k).model for k in cs.CONSTRUCTIONS] + [build_last_a(), random_model(rng, d=5, depth=2, heads=2)]
    for m in models:
        w = rng.integers(0, len(m.alphabet), size=(3, 9))
        for mode, tau in (("soft", 0.05), ("average", None)):
            got = lp.run_lowprec(m, w, "float64", tau, mode=mode, order="max-first").activations[-1]
            want = tf.run(m, w, mode, tau).activations[-1]
            assert np.allclose(got, want, rtol=0, atol=1e-9 * max(1.0, np.abs(want).max())), m.name


def test_float16_differs_where_rounding_predicts() -> None:
    # 1 + 2^-12 is a float64 number that float16 (11 bits) rounds to 1: the two scores tie in float16 only.
    m = _tie_model(2.0**-12)
    w = m.encode(["ab"])
    tau = 2.0**-14  # (2^-12 + 2^-24)/tau ~ 4: in exact arithmetic 'b' gets e^4/(1+e^4) ~ 0.982
    x64 = lp.run_lowprec(m, w, "float64", tau).activations[-1][0, :, 2]
    x16 = lp.run_lowprec(m, w, "float16", tau).activations[-1][0, :, 2]
    assert np.all(x64 > 0.95)
    assert np.all(x16 == 0.5)  # the tie: uniform weights, exactly
    # bfloat16 (8 bits) loses even 2^-8 ...
    m8 = _tie_model(2.0**-9)
    assert np.all(lp.run_lowprec(m8, w, "bfloat16", 2.0**-11).activations[-1][0, :, 2] == 0.5)
    # ... which float16 keeps
    assert np.all(lp.run_lowprec(m8, w, "float16", 2.0**-11).activations[-1][0, :, 2] > 0.95)


def test_pairwise_sum_rounds_every_partial_sum() -> None:
    steps = lp._Steps(lp.FORMATS["float16"])
    e = np.array([[1.0, 2.0**-11]], dtype=np.float16)
    assert lp._pairwise_sum(steps, "sum", e, np.dtype(np.float16))[0, 0] == 1.0  # 1 + 2^-11 ties to even: 1
    assert float(e.astype(np.float32).sum()) == 1.0 + 2.0**-11


def test_bfloat16_matmul_is_rounded_back() -> None:
    steps = lp._Steps(lp.FORMATS["bfloat16"])
    a = np.ones((2, 3), dtype=lp.BF16)
    r = steps.matmul("m", a, a.T)
    assert r.dtype == lp.BF16  # numpy's own bfloat16 @ bfloat16 returns float32
    assert (a @ a.T).dtype == np.float32


@pytest.mark.parametrize("fmt", ["float16", "bfloat16", "mixed-float16"])
def test_overflow_names_the_step(fmt: str) -> None:
    m = build_last_a()
    w = m.encode(["abab"])
    if fmt == "float16":
        with pytest.raises(ValueError, match="1/tau"):
            lp.run_lowprec(m, w, fmt, 1e-6)
    # scores of about 256 scaled by 1/tau = 2^8 overflow float16 (max 65504) unless the row maximum is subtracted first
    t = _tie_model(2.0**-6)
    big = Model(t.alphabet, t.WE * 16, t.PE, t.layers, "big")
    wb = big.encode(["abab"])
    if fmt == "float16":
        with pytest.raises(lp.LowPrecisionOverflow, match="scaled scores s/tau"):
            lp.run_lowprec(big, wb, fmt, 2.0**-8, order="scale-first")
        lp.run_lowprec(big, wb, fmt, 2.0**-8, order="max-first")  # the mitigation runs
    else:
        lp.run_lowprec(big, wb, fmt, 2.0**-8)  # bfloat16 has float32's range; mixed computes the softmax in float32


def test_overflow_in_activations_is_reported() -> None:
    m = build_last_a()
    huge = Model(m.alphabet, m.WE * 1e6, m.PE, m.layers, "huge")
    with pytest.raises(ValueError, match="float16 overflow at step 'embedding'"):
        lp.run_lowprec(huge, huge.encode(["ab"]), "float16", 0.5)


def test_blocks_do_not_change_the_result(monkeypatch: pytest.MonkeyPatch) -> None:
    con = cs.get_construction("2-hop")
    w = con.sample(np.random.default_rng(1), 50, 3)
    a = lp.run_lowprec(con.model, w, "float16", con.tau(50)).activations[-1]
    monkeypatch.setattr(lp, "SCORE_BLOCK_ELEMENTS", 7 * 50 * 3)
    b = lp.run_lowprec(con.model, w, "float16", con.tau(50)).activations[-1]
    assert np.array_equal(a, b)


def test_unknown_format() -> None:
    with pytest.raises(ValueError, match="unknown format 'float8'"):
        lp.run_lowprec(build_last_a(), np.zeros((1, 3), dtype=int), "float8", 0.1)
