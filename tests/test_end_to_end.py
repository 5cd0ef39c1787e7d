"""Theorem 26 end to end: random AHATs, gamma and x_max measured exhaustively, tau from the spec, tau-SMAT error <= eps at every layer.

The ci profile draws 200 models.  The slack allowed beyond the certified bound
covers float64 rounding and the tie tolerance of the hard modes (scores within
TIE_RTOL of the maximum count as tied; the softmax sees them differ by at most
that much, which statement S turns into an l1 difference of TIE_RTOL*|s|/tau).
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import event, given, settings
from hypothesis import strategies as st

from hardsoft.checks.properties import find_counterexample, Property
from hardsoft.spec import bounds as bd
from hardsoft.spec import transformer as tf
from hardsoft.spec.constants import FLOAT64_EPS, TIE_RTOL
from hardsoft.spec.examples import random_model


@st.composite
def ahat_instances(draw):
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    model = random_model(rng, d=draw(st.integers(2, 4)), depth=draw(st.integers(1, 3)), heads=draw(st.integers(1, 2)),
                         masks=("none", "causal", "strict", "anticausal"))
    return {"model": model, "n": draw(st.integers(1, 5)), "eps": draw(st.sampled_from([0.5, 0.1, 1e-3, 1e-6])), "seed": seed}


def _soft_vs_hard(inst, inverse_tau_of=None):
    """Return (per-layer measured errors, per-layer allowance) at the spec's temperature (or a given rule)."""
    model, n, eps = inst["model"], inst["n"], inst["eps"]
    meas = tf.measure(model, n)
    inputs = np.concatenate(list(tf.enumerate_inputs(len(model.alphabet), n)))
    hard = tf.run(model, inputs, model.hard_mode)
    norms = tf.compute_model_norms(model)
    X = max(meas.x_max, FLOAT64_EPS)
    if math.isinf(meas.gap):
        tau, B = 1.0, [0.0] * (model.depth + 1)  # every score ties: softmax = ahardmax
    else:
        consts = bd.RecursionConstants.from_norms(norms, X, n, meas.gap)
        tau = 1.0 / inverse_tau_of(meas, X) if inverse_tau_of else bd.compute_tightest_inverse_temperature(consts, eps).tau
        B = [min(eps, b) for b in bd.compute_bound_at(consts, tau)] if not inverse_tau_of else [eps] * (model.depth + 1)
    soft = tf.run(model, inputs, "soft", tau=tau)
    errs = tf.compute_layer_errors(hard, soft)
    # slack: rounding (d-term products, n-term sums) and tie tolerance, amplified through the layers
    r = max((1 + nm.lip_F) * (1 + sum(nm.B_cols) * (1 + X * (2 * X + 1) * sum(nm.A_sums) / tau)) for nm in norms)
    s_max = max(sum(nm.A_sums) for nm in norms) * X * X
    per_layer = 64 * model.d * n * FLOAT64_EPS * X + TIE_RTOL * max(1.0, s_max) / tau * X * max(sum(nm.B_cols) for nm in norms)
    slack = [per_layer * l * max(1.0, r) ** l for l in range(model.depth + 1)]
    return errs, [b + s for b, s in zip(B, slack)]


@given(ahat_instances())
def test_soft_tracks_hard_within_eps(inst) -> None:
    errs, allowed = _soft_vs_hard(inst)
    event("soft differs from hard" if errs[-1] > 0 else "soft equals hard")
    event(f"eps = {inst['eps']}")
    assert all(e <= a for e, a in zip(errs, allowed)), (errs, allowed)


def test_wrong_twin_too_hot_temperature_is_caught() -> None:
    """Twin: 1/tau = ln(n x_max / gamma)/gamma (the O-form with constant 1, no log(1/eps) term, erratum 2) misses eps = 1e-6."""
    twin = Property("C", "e2e.o_form", "", ahat_instances().filter(lambda i: i["eps"] == 1e-6), lambda i: True,
                    lambda i: all(e <= a for e, a in zip(*_soft_vs_hard(
                        i, lambda meas, X: bd.erratum_o_form_inverse_temperature(meas.gap, i["n"], X, 1.0)))), "")
    assert find_counterexample(twin, twin=True, max_examples=settings.default.max_examples) is not None
