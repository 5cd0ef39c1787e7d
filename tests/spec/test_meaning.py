"""Tests that pin meaning, not plumbing: each states what a quantity IS and compares with an independent computation.

Each was written against a planted one-line defect that the rest of the suite
let through (the mutation study; docs/mutation.md lists them): the x_max
measurement, the end of an interval used to certify a range of temperatures, the
FFN Lipschitz bound under a cancelling weight product, the bootstrap's B_L <= 1,
and the 1/tau factor of r.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from hardsoft.spec import bounds as bd
from hardsoft.spec import transformer as tf
from hardsoft.spec.examples import random_model

# --------------------------------------------------------------------------- x_max is the largest activation of every layer


def _layer(W1, b1, W2, b2, heads=()) -> tf.Layer:
    return tf.Layer(tuple(heads), np.array(W1, float), np.array(b1, float), np.array(W2, float), np.array(b2, float))


def _peaked_model() -> tf.Model:
    """d = 1, no heads: layer 1 maps x to -5x (the largest |activation|, negative), layer 2 shrinks it to x/8 + 1/4."""
    shrink = _layer([[1.0, -1.0]], [0.0, 0.0], [[-0.875], [0.875]], [0.25])  # y + W2 ReLU(y W1): y - 7/8 y = y/8, + 1/4
    blow = _layer([[1.0, -1.0]], [0.0, 0.0], [[-6.0], [6.0]], [0.0])  # y - 6 y = -5 y
    return tf.Model(("a", "b"), np.array([[1.0], [0.5]]), tf.PositionEmbedding((), np.zeros((0, 1))), (blow, shrink))


def test_x_max_is_the_largest_activation_of_every_layer() -> None:
    """Measured x_max per layer equals max |x^(l)| over all inputs (negative entries count), and x_max is their maximum."""
    model = _peaked_model()
    m = tf.measure(model, 3)
    inputs = np.concatenate(list(tf.enumerate_inputs(2, 3)))
    acts = tf.run(model, inputs, "average").activations
    want = [float(np.abs(a).max()) for a in acts]
    assert want == [1.0, 5.0, 0.375]  # layer 1 is the peak, and it is negative
    assert list(m.x_max_per_layer) == want and m.x_max == 5.0 and m.inputs == 8


@pytest.mark.parametrize("seed", range(6))
def test_x_max_matches_an_independent_maximum_on_random_models(seed: int) -> None:
    rng = np.random.default_rng(seed)
    model = random_model(rng, d=3, depth=3, heads=2)
    m = tf.measure(model, 4)
    acts = tf.run(model, np.concatenate(list(tf.enumerate_inputs(2, 4))), model.hard_mode).activations
    want = [max(abs(float(v)) for v in a.ravel()) for a in acts]
    assert list(m.x_max_per_layer) == want and m.x_max == max(want)


def test_x_max_over_several_enumeration_chunks() -> None:
    """2^14 inputs come in two chunks; the peak occurs only in the FIRST chunk: the maximum is over both, not the last one's."""
    base = _peaked_model()
    # x_0 = WE[w_0] + [i == 0]: 2 only for words starting with "a", which all lie in the first chunk (index < 8192)
    model = tf.Model(("a", "b"), np.array([[1.0], [0.0]]), tf.PositionEmbedding(("is_first",), np.array([[1.0]])), base.layers)
    assert next(tf.enumerate_inputs(2, 14))[:, 0].max() == 0
    m = tf.measure(model, 14)
    acts = tf.run(model, np.concatenate(list(tf.enumerate_inputs(2, 14))), "average").activations
    want = tuple(float(np.abs(a).max()) for a in acts)
    assert want[0] == 2.0 and m.inputs == 2**14 and m.x_max_per_layer == want and m.x_max == 10.0


# --------------------------------------------------------------------------- range certification against the true supremum


def _B_ref(consts: bd.RecursionConstants, t: mpmath.mpf) -> mpmath.mpf:
    B = mpmath.mpf(0)
    for r0, r1, a1 in zip(consts.r0, consts.r1, consts.a1):
        B = (mpmath.mpf(r0) + mpmath.mpf(r1) * t) * B + mpmath.mpf(a1) * mpmath.exp(-mpmath.mpf(consts.gamma) * t)
    return B


def _true_sup(consts: bd.RecursionConstants, t0: float) -> tuple[float, mpmath.mpf]:
    """Return (argmax, max) of B_L over [t0, inf) at 60 digits: dense grid, then golden-section refinement."""
    with mpmath.workdps(60):
        hi = max(4 * t0, 4 * consts.depth / consts.gamma)
        grid = [t0 + (hi - t0) * k / 1000 for k in range(1001)]
        vals = [_B_ref(consts, mpmath.mpf(t)) for t in grid]
        k = max(range(len(vals)), key=lambda i: vals[i])
        a, b = grid[max(k - 1, 0)], grid[min(k + 1, len(grid) - 1)]
        f = lambda t: -_B_ref(consts, mpmath.mpf(t))  # noqa: E731
        for _ in range(60):
            m1, m2 = a + (b - a) * 0.382, a + (b - a) * 0.618
            a, b = (a, m2) if f(m1) < f(m2) else (m1, b)
        best = max(vals[k], _B_ref(consts, mpmath.mpf((a + b) / 2)))
        return (a + b) / 2, best


#: B_L = a L r^(L-1) rises then falls in t = 1/tau: its peak lies inside the range, not at an end.
HUMP = bd.RecursionConstants((1.0, 1.0, 1.0), (4.0, 4.0, 4.0), (0.01, 0.01, 0.01), 0.5, 0.0)


def test_range_certificate_against_the_true_supremum() -> None:
    """_sup_certified(t, target) proves B_L(s) <= target for all s >= t: true just above the supremum, false just below."""
    t0 = 0.5  # B_L still rising here; the supremum over [t0, inf) is at the hump, well inside
    t_peak, sup = _true_sup(HUMP, t0)
    assert t_peak > 2 * t0 and sup > 2 * _B_ref(HUMP, mpmath.mpf(t0))  # the left end is far below the supremum
    assert bd._sup_certified(HUMP, t0, float(sup) * (1 + 1e-3))
    assert not bd._sup_certified(HUMP, t0, float(sup) * (1 - 1e-6))
    assert not bd._sup_on_piece(HUMP, t0, 2 * t_peak, float(sup) * (1 - 1e-6), 0)


@pytest.mark.parametrize("frac", [0.3, 0.7, 0.95, 0.999])
def test_tightest_tau_certifies_the_supremum_over_every_smaller_tau(frac: float) -> None:
    """With eps below the hump's peak, the tightest 1/tau lies past the hump: sup over s >= 1/tau of B_L is <= eps."""
    _, sup = _true_sup(HUMP, 1.0)
    eps = float(sup) * frac
    cert = bd.compute_tightest_inverse_temperature(HUMP, eps)
    _, sup_beyond = _true_sup(HUMP, cert.inverse_tau)
    assert sup_beyond <= eps and cert.bound <= eps
    # nearly tight: 0.1% hotter, some smaller-or-equal tau exceeds eps
    _, sup_hotter = _true_sup(HUMP, cert.inverse_tau * 0.999)
    assert sup_hotter > eps


# --------------------------------------------------------------------------- FFN Lipschitz constant under cancellation


def _ffn(layer: tf.Layer, y: np.ndarray) -> np.ndarray:
    return np.maximum(y @ layer.W1 + layer.b1, 0.0) @ layer.W2 + layer.b2


def _lipschitz_lower_bound(layer: tf.Layer, rng: np.random.Generator, pairs: int = 4000) -> float:
    """Return max ||F(y) - F(y')||_inf / ||y - y'||_inf over random pairs (a lower bound on Lip F in the inf-norm)."""
    d = layer.W1.shape[0]
    y = rng.uniform(-2, 2, size=(pairs, d))
    y2 = y + rng.uniform(-1, 1, size=(pairs, d)) * rng.choice([1e-3, 1.0], size=(pairs, 1))
    num = np.abs(_ffn(layer, y) - _ffn(layer, y2)).max(axis=1)
    return float((num / np.abs(y - y2).max(axis=1)).max())


def _col(M: np.ndarray) -> float:
    return float(np.abs(M).sum(axis=0).max())


def test_ffn_lipschitz_bound_survives_a_cancelling_weight_product() -> None:
    """W1 W2 = 0, yet F(y) = ReLU(y) + ReLU(-y) = |y| has Lipschitz constant 1: |W1|_col |W2|_col = 2 >= 1, |W1 W2|_col = 0 is wrong."""
    layer = _layer([[1.0, -1.0]], [0.0, 0.0], [[1.0], [1.0]], [0.0])
    assert not (layer.W1 @ layer.W2).any()
    true_lip = _lipschitz_lower_bound(layer, np.random.default_rng(0))
    assert true_lip == pytest.approx(1.0)
    nm = tf.compute_layer_norms(layer)
    assert nm.lip_F >= true_lip and nm.lip_F == 2.0
    wrong = _col(layer.W1 @ layer.W2)  # the tempting variant: the norm of the product
    assert wrong < true_lip  # ... which the same comparison catches


@pytest.mark.parametrize("seed", range(8))
def test_ffn_lipschitz_bound_on_random_layers(seed: int) -> None:
    rng = np.random.default_rng(seed)
    d, k = 3, 5
    W1 = rng.normal(size=(d, k))
    W2 = np.vstack([rng.normal(size=(k // 2 + 1, d)), -rng.normal(size=(k - k // 2 - 1, d))])
    layer = _layer(W1, rng.normal(size=k), W2, rng.normal(size=d))
    assert tf.compute_layer_norms(layer).lip_F >= _lipschitz_lower_bound(layer, rng)


def test_layer_norms_are_exact_upper_bounds() -> None:
    """|A|_sum of W_Q W_K^T and |B|_col of W_V W_O are >= the exact (rational) norms, within an ulp."""
    rng = np.random.default_rng(1)
    d = 3
    W = [rng.normal(size=(d, d)) for _ in range(4)]
    head = tf.Head(W[0], W[1], W[2], W[3])
    nm = tf.compute_layer_norms(_layer(np.eye(d), np.zeros(d), np.eye(d), np.zeros(d), [head]))
    F = lambda M: [[Fraction(float(v)) for v in row] for row in M]  # noqa: E731
    Q, K, V, O = (F(M) for M in W)
    A = [[sum(Q[i][k] * K[j][k] for k in range(d)) for j in range(d)] for i in range(d)]
    B = [[sum(V[i][k] * O[k][j] for k in range(d)) for j in range(d)] for i in range(d)]
    A_sum = sum(abs(v) for row in A for v in row)
    B_col = max(sum(abs(B[i][j]) for i in range(d)) for j in range(d))
    assert A_sum <= Fraction(nm.A_sums[0]) <= A_sum * (1 + Fraction(1, 2**51))
    assert B_col <= Fraction(nm.B_cols[0]) <= B_col * (1 + Fraction(1, 2**51))


# --------------------------------------------------------------------------- the bootstrap's B_L <= 1, for what it means


def _worst_guarded_error(r: list[float], a: list[float]) -> float:
    """The largest final error any sequence obeying Lemma 25's guarded steps can reach (inf once a step starts above 1)."""
    e = 0.0
    for rl, al in zip(r, a):
        e = rl * e + al if e <= 1.0 else math.inf
    return e


@pytest.mark.parametrize("seed", range(4))
def test_bootstrap_ok_means_every_guarded_error_sequence_ends_within_eps(seed: int) -> None:
    """is_bootstrap_ok(B_L, eps) holds exactly when no guarded error sequence can end above eps (Theorem 26's conclusion)."""
    rng = np.random.default_rng(seed)
    for _ in range(500):
        L = int(rng.integers(1, 6))
        r = list(rng.uniform(1.0, 3.0, size=L))
        a = list(rng.choice([0.0, 1e-3, 0.05, 0.3, 0.9], size=L))
        eps = float(rng.choice([1e-3, 0.1, 0.5, 1.0]))
        B = bd.compute_recursion(r, a)
        assert bd.is_bootstrap_ok(B[-1], eps) == (_worst_guarded_error(r, a) <= eps)


def test_bootstrap_at_the_boundary_of_one() -> None:
    """B_L = 1 at eps = 1 is accepted (every B_l <= 1); one ulp above is refused, because an error above 1 escapes Lemma 25."""
    assert bd.is_bootstrap_ok(1.0, 1.0)
    above = math.nextafter(1.0, 2.0)
    assert not bd.is_bootstrap_ok(above, 1.0)
    r, a = [1.0, 1.0], [above / 2, above / 2]  # B = 0, ~0.5, just above 1
    assert _worst_guarded_error(r, a) > 1.0 and not bd.is_bootstrap_ok(bd.compute_recursion(r, a)[-1], 1.0)


# --------------------------------------------------------------------------- r's 1/tau factor, pinned at tau << 1


@pytest.mark.parametrize("tau,r_want", [(1e-3, 3002.0), (1e-6, 3_000_002.0), (0.5, 8.0)])
def test_r_has_the_one_over_tau_factor(tau: float, r_want: float) -> None:
    """X = |A|_sum = |B|_col = 1, Lip F = 0: r = 1 + 1 (1 + 1 * 3 * 1 / tau) = 2 + 3/tau (at tau = 1 a wrong power of tau is invisible)."""
    r, a = bd.compute_layer_constants(1.0, 1.0, 5, tau, [1.0], [1.0], 0.0)
    assert r == r_want
    assert a == pytest.approx(2 * 1.0 * 4 * math.exp(-1.0 / tau) * 1.0, rel=1e-15, abs=0.0)
    c = bd.RecursionConstants.from_norms([bd.LayerNorms((1.0,), (1.0,), 0.0)], 1.0, 5, 1.0)
    assert (c.r0, c.r1, c.a1) == ((2.0,), (3.0,), (8.0,))
    assert bd.compute_bound_at(c, tau)[-1] == pytest.approx(8.0 * math.exp(-1.0 / tau), rel=1e-15, abs=0.0)


def test_r_scales_like_one_over_tau_with_the_lipschitz_factor() -> None:
    """Lip F = 1 doubles r; halving tau roughly doubles it (the 1/tau term dominates at tau << 1)."""
    r1, _ = bd.compute_layer_constants(2.0, 1.0, 3, 1e-4, [0.5, 0.25], [1.0, 2.0], 1.0)
    # (1 + 1)(1 + 1 (1 + 2*5*0.5/1e-4) + 2 (1 + 2*5*0.25/1e-4)) = 2 (1 + 50001 + 2 * 25001)
    assert r1 == 2 * (1 + 50001 + 2 * 25001)
    r2, _ = bd.compute_layer_constants(2.0, 1.0, 3, 5e-5, [0.5, 0.25], [1.0, 2.0], 1.0)
    assert r2 == 2 * (1 + 100001 + 2 * 50001)


# --------------------------------------------------------------------------- pinned by the mutation run (docs/mutation.md)


@pytest.mark.parametrize("N,step,tau", [(2, 1.0, 1.0), (5, 0.5, 0.25), (64, 1 / 64, 1 / 64)])
def test_Z_weight_top_is_exact_at_the_staircase(N: int, step: float, tau: float) -> None:
    """Lemma 6's lower bound on the top weight, (1 - x)/(1 - x^N), is attained by the staircase s_k = -(k-1) step."""
    x = math.exp(-step / tau)
    with mpmath.workdps(50):
        w = [mpmath.exp(-k * mpmath.mpf(step) / mpmath.mpf(tau)) for k in range(N)]
        top = w[0] / mpmath.fsum(w)
    assert bd.bound_Z_weight_top(N, x) == pytest.approx(float(top), rel=1e-13)
    assert bd.bound_Z_weight_top(N, x) + bd.bound_Z_mass_off_top(N, x) == pytest.approx(1.0, rel=1e-13)


def test_erratum_offset_plus_value() -> None:
    """The printed offset K X N e^{+gamma/tau}, pinned at gamma/tau = 5: 8 e^5 (not only its growth)."""
    assert bd.erratum_offset_plus(1.0, 1.0, 8, 0.5, 0.1) == pytest.approx(8 * math.exp(5.0), rel=1e-15)
    assert bd.erratum_offset_plus(2.0, 0.5, 3, 1.0, 0.5) == pytest.approx(3 * math.exp(2.0), rel=1e-15)


def test_guarded_step_sequence_accepts_slack_and_rejects_excess() -> None:
    """e_l <= r_l e_(l-1) + a_l is an inequality: strictly smaller errors obey it, larger ones do not; above 1 anything goes."""
    r, a = [2.0, 2.0, 2.0], [0.1, 0.1, 0.1]
    assert bd.is_guarded_step_sequence([0.0, 0.05, 0.1, 0.2], r, a)  # below the bound at every step
    assert not bd.is_guarded_step_sequence([0.0, 0.11, 0.2, 0.3], r, a)  # first step above r*0 + a
    assert bd.is_guarded_step_sequence([0.0, 0.1, 5.0, 1e9], [1.0, 1.0, 1.0], [0.1, 4.9, 0.0])  # from 5 > 1: unconstrained
    assert not bd.is_guarded_step_sequence([0.1, 0.1], [1.0], [0.1])  # e_0 must be 0


def test_sufficient_temperature_floor_is_one() -> None:
    """Statement T's closed form is floored at 1/tau = 1 (where r_l <= R t starts to hold), not higher: tiny constants give exactly 1."""
    c = bd.RecursionConstants.from_norms([bd.LayerNorms((0.0,), (1e-3,), 0.0)], 1e-3, 2, 1.0)
    cert = bd.compute_sufficient_inverse_temperature(c, 1.0)
    assert cert.inverse_tau == 1.0 and cert.tau == 1.0 and cert.bound <= 1.0
    # between 1 and 2 the formula itself is returned: L = 1, t = (2/gamma) ln(AN / eps) = 2 ln(e^0.75) = 1.5
    a1 = math.exp(0.75)
    c1 = bd.RecursionConstants((1.0,), (0.0,), (a1,), 1.0, 0.0)
    assert bd.compute_sufficient_inverse_temperature(c1, 1.0).inverse_tau == pytest.approx(1.5, rel=1e-12)


def test_every_position_feature_pinned_at_n_4() -> None:
    """PE(i, n) features at n = 4, written out by hand (Section 2's position embeddings)."""
    i = np.arange(4)
    want = {
        "one": [1, 1, 1, 1], "i": [0, 1, 2, 3], "n": [4, 4, 4, 4], "i/n": [0, 0.25, 0.5, 0.75],
        "(i+1)/n": [0.25, 0.5, 0.75, 1.0], "1/(i+1)": [1.0, 0.5, 1 / 3, 0.25], "(i/n)^2": [0, 0.0625, 0.25, 0.5625],
        "is_first": [1, 0, 0, 0], "is_last": [0, 0, 0, 1], "parity": [1, -1, 1, -1],
        # format 2 (the temporal-logic compiler's features)
        "i^2": [0, 1, 4, 9], "1/(i+1)^2": [1.0, 0.25, 1 / 9, 1 / 16], "1/max(i,1)": [1.0, 1.0, 0.5, 1 / 3],
        "1/max(n-1-i,1)": [1 / 3, 0.5, 1.0, 1.0], "n*parity": [4, -4, 4, -4], "1/n": [0.25, 0.25, 0.25, 0.25],
        "i/n^3": [0, 1 / 64, 2 / 64, 3 / 64],
    }
    assert set(want) == set(tf.PE_FEATURES)
    for name, values in want.items():
        got = tf.PE_FEATURES[name](i, 4)
        assert got.dtype == np.float64 and got.tolist() == pytest.approx(values, rel=1e-15), name


def test_enumerate_inputs_of_a_one_symbol_alphabet() -> None:
    """A one-symbol alphabet has exactly one input of each length (not an error)."""
    (chunk,) = list(tf.enumerate_inputs(1, 3))
    assert chunk.tolist() == [[0, 0, 0]]
    assert [c.tolist() for c in tf.enumerate_inputs(2, 2)] == [[[0, 0], [0, 1], [1, 0], [1, 1]]]
    with pytest.raises(ValueError, match="non-empty alphabet"):
        next(tf.enumerate_inputs(0, 3))


def test_model_parameters_are_immutable() -> None:
    """A model is a value: its position embedding, heads, layers and the model itself refuse assignment (frozen dataclasses)."""
    import dataclasses

    m = random_model(np.random.default_rng(0), d=2, depth=1)
    for obj, field in ((m.PE, "features"), (m.layers[0].heads[0], "mask"), (m.layers[0], "W1"), (m, "name")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, field, getattr(obj, field))


@pytest.mark.parametrize("N", [2, 5, 64])
def test_E_l1_bound_is_tight_as_x_goes_to_zero(N: int) -> None:
    """2 (N-1) x is the l1 distance of the one-maximum staircase up to a factor 1 + O(N x): a looser bound is caught."""
    for x in (1e-3, 1e-6):
        gap_over_tau = -math.log(x)
        with mpmath.workdps(50):
            X = mpmath.mpf(x)
            l1 = 2 * (N - 1) * X / (1 + (N - 1) * X)  # exact: twice the mass off the single maximum
        b = bd.bound_E_l1(N, x)
        assert b == 2.0 * (N - 1) * x
        assert float(l1) <= b <= float(l1) * (1 + 2 * N * x)
        assert bd.bound_E_l1(N, bd.compute_x(1.0, 1.0 / gap_over_tau)) == pytest.approx(b, rel=1e-12)


@pytest.mark.parametrize("N", [2, 3, 7, 64])
def test_Z_wrong_twin_is_exactly_N_minus_one(N: int) -> None:
    """The wrong twin of Z is the right formula with N - 1 positions (so the twin search tests that one mistake)."""
    for x in (0.1, 0.5, 0.9):
        assert bd.wrong_bound_Z_mass_off_top_short(N, x) == bd.bound_Z_mass_off_top(N - 1, x)


def test_layer_norms_of_a_zero_width_ffn() -> None:
    """An FFN of width 0 (W1 is d x 0) contributes nothing: Lip F = 0, |W_2|_col = 0."""
    d = 2
    layer = _layer(np.zeros((d, 0)), np.zeros(0), np.zeros((0, d)), np.zeros(d))
    nm = tf.compute_layer_norms(layer)
    assert nm.lip_F == 0.0 and nm.W2_col == 0.0 and nm.A_sums == () and nm.B_cols == ()
