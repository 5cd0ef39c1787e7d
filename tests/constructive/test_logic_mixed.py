"""Comparisons mixing past (#<) and future (#>) counts: lookups over positions (Lemma 7), their gap, temperature and bounds, in both regimes.

Every formula here is checked against the reference evaluator (every subformula at every
position) in hard and soft mode; each bound the compiler claims is measured; planted defects
(the lookup's sign flipped, the future count's D off by one) are caught.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardsoft.constructive import heads as cs
from hardsoft.constructive.logic import check_compiled, compile_formula, evaluate_batch, parse
from hardsoft.constructive.logic import compiler as cp
from hardsoft.constructive.logic.selfcheck import head_masses
from hardsoft.constructive.logic.syntax import And, Compare, Count, LinExpr, Next, Not, Or, Prev, Since, Until
from hardsoft.spec import transformer as tf
from hardsoft.spec.attention import make_mask
from tests.logic_strategies import formulas

#: Mixed comparisons: coefficients, constants, every operator, nested inside S / U / Y / X and Booleans, counts of subformulas,
#: counts of mixed comparisons, and one that merges to a single direction.
MIXED = (
    "#<[a] > #>[b]",
    "#<[a] + #>[b] >= 3",
    "2*#<[a] - 3*#>[b] + 1 > 0",
    "#<[a] >= #>[a]",
    "#<[a] <= #>[b] + 1",
    "#<[a] < #>[a]",
    "#<[true] <= #>[true]",
    "(#<[a] > #>[a]) S b",
    "a U (#<[b] >= #>[a])",
    "Y (#<[a] > #>[b]) | X (#>[a] > #<[b])",
    "#>[#<[a] >= #>[b]] > #<[b]",
    "!(#<[Y a] <= #>[X b]) & a",
    "#<[a S b] + #>[a U b] > #<[b] + 1",
    "#<[a] + #>[b] - #>[b] > 0",
)


def with_mixed(max_leaves: int) -> st.SearchStrategy:
    """Random formulas that contain at least one mixed comparison (past and future counts of random subformulas, nonzero coefficients)."""
    sub = formulas(max_leaves=max_leaves, compilable=True, mixed=True)
    coef = st.integers(-3, 3).filter(bool)
    mixed = st.builds(
        lambda f, g, c1, c2, c0, op, d: Compare(op, LinExpr(((c1, Count(d, f)), (c2, Count("<>".replace(d, ""), g))), c0), LinExpr((), 0)),
        sub, sub, coef, coef, st.integers(-3, 3), st.sampled_from(["<", "<=", ">", ">="]), st.sampled_from(["<", ">"]),
    )
    return st.one_of(
        mixed, st.builds(Not, mixed), st.builds(Prev, mixed), st.builds(Next, mixed), st.builds(And, mixed, sub), st.builds(Or, sub, mixed),
        st.builds(Since, sub, mixed), st.builds(Until, mixed, sub),
    )


def _inputs(n: int) -> np.ndarray:
    return np.concatenate(list(tf.enumerate_inputs(2, n)))


REGIMES = ("bounded", "unbounded")


def _copies(c: cp.CompiledFormula, w: np.ndarray) -> list[tuple[cp.HeadInfo, np.ndarray, np.ndarray]]:
    """Return, per lookup over positions, the hard and the soft (at tau(n)) copied count (p, or n * p/n in the bounded regime)."""
    n = w.shape[1]
    acts = tf.run(c.model, w, "hard").activations
    out = []
    for info in c.heads:
        if info.construction != "position-lookup":
            continue
        hd = c.model.layers[info.layer - 1].heads[info.index]
        x = acts[info.layer - 1]
        s = (x @ hd.W_Q) @ (x @ hd.W_K).transpose(0, 2, 1)
        mask = make_mask(hd.mask, n)
        s = np.where(mask, s, -np.inf)
        col = list(np.flatnonzero(hd.W_O[:, info.target]))[0]
        v = (x @ hd.W_V)[:, :, col]  # (batch, n): the key's copied position p
        top = s.max(axis=-1, keepdims=True)
        hard = np.take_along_axis(v, s.argmax(axis=-1), axis=1)
        e = np.exp((s - top) / c.tau(n))
        soft = (e * v[:, None, :]).sum(-1) / e.sum(-1)
        scale = n if c.regime == "bounded" else 1  # bounded keys hold p/n
        out.append((info, hard * scale, soft * scale))
    return out


@pytest.mark.parametrize("regime", REGIMES)
@pytest.mark.parametrize("text", MIXED)
def test_mixed_comparisons_exhaustive_to_length_8_hard_and_soft(text: str, regime: str) -> None:
    c = compile_formula(text, regime=regime)
    report = check_compiled(c, 8)
    assert report["ok"], (text, report["first_counterexample"])
    assert all(row["hard_mismatches"] == row["soft_mismatches"] == 0 for row in report["per_length"])


def test_temperature_rule_gap_and_bounds_of_a_mixed_formula() -> None:
    c = compile_formula("2*#<[a] - 3*#>[b] + 1 > 0", regime="unbounded")
    assert c.mixed_scale == 5
    for n in (1, 2, 7, 40):
        assert c.tau(n) == pytest.approx(1 / (max(n - 1, 1) * math.log(32 * 5)))
        assert c.gap(n) == pytest.approx(1 / max(n - 1, 1))
    doc = c.describe()
    assert "the mixed comparisons' rule" in doc["temperature"] and doc["gap"] == "1/max(n-1,1)"
    kinds = sorted(h.construction for h in c.heads)
    assert kinds == ["count", "count", "position-lookup", "position-lookup"]
    # with a tie-breaking head too: the gap is the smaller of the two rules
    s = compile_formula("(#<[a] > #>[a]) S b", regime="unbounded")
    assert s.gap(2) == pytest.approx(1.0) and s.gap(9) == pytest.approx(1 / 8) and s.gap_rule().startswith("min(K")
    # without mixed comparisons nothing changes
    u = compile_formula("#<[a] > #<[b]", regime="unbounded")
    assert u.mixed_scale == 0 and u.tau(9) == 1.0 and u.gap(9) == u.K
    # bounded: keys p/n, gap 1/(n^2 (n-1)), tau = 1/(n^2 max(n-1,1) ln(32 C)); the sign head's K/n is the larger gap
    b = compile_formula("2*#<[a] - 3*#>[b] + 1 > 0", regime="bounded")
    assert b.mixed_scale == 5 and "(i/n)^2" in b.model.PE.features and "1/n" in b.model.PE.features
    for n in (1, 2, 7, 40):
        assert b.tau(n) == pytest.approx(1 / (n * n * max(n - 1, 1) * math.log(32 * 5)))
        assert b.tau(n) <= b.c / n
        assert b.gap(n) == pytest.approx(min(1 / n, 1 / (n * n * max(n - 1, 1))))
    assert sorted(h.construction for h in b.heads) == ["count", "count", "position-lookup", "position-lookup", "sign"]
    assert "mixed" not in compile_formula("#<[a] > #<[b]").describe()["temperature"]  # the regime's rule c/n without them
    assert compile_formula("#<[a] > #<[b]").tau(9) == pytest.approx(compile_formula("#<[a] > #<[b]").c / 9)


@pytest.mark.parametrize("regime", REGIMES)
def test_measured_gap_is_at_least_the_claimed_gap_and_attains_it(regime: str) -> None:
    """The lookups' gap 1/(n-1) (bounded 1/(n^2 (n-1))) is measured over every word, and attained: the bound is not vacuous."""
    for text in ("#<[a] > #>[b]", "(#<[a] > #>[a]) S b", "#>[#<[a] >= #>[b]] > #<[b]", "Y (#<[a] > #>[b]) | X (#>[a] > #<[b])"):
        c = compile_formula(text, regime=regime)
        for n in range(1, 9):
            g = tf.measure(c.model, n).gap
            assert g >= c.gap(n) * (1 - 1e-9), (text, n, g, c.gap(n))
            if text == "#<[a] > #>[b]" and n >= 2:
                assert g == pytest.approx(c.gap(n)), (n, g)


@settings(max_examples=30, deadline=None)
@given(with_mixed(4), st.sampled_from(REGIMES), st.integers(7, 24), st.integers(0, 2**31 - 1))
def test_random_formulas_with_mixed_comparisons_at_longer_lengths(f, regime, n, seed) -> None:
    c = compile_formula(f, regime=regime)
    assert c.mixed_scale > 0
    w = np.random.default_rng(seed).integers(0, 2, size=(24, n))
    ref = evaluate_batch(f, w)
    assert (c.decode(tf.run(c.model, w, "hard")) == ref).all(), str(f)
    assert (c.decode(tf.run(c.model, w, "soft", tau=c.tau(n))) == ref).all(), str(f)


@settings(max_examples=20, deadline=None)
@given(with_mixed(3), st.sampled_from(REGIMES))
def test_random_formulas_with_mixed_comparisons_exhaustive_to_length_6(f, regime) -> None:
    c = compile_formula(f, regime=regime)
    assert check_compiled(c, 6)["ok"], str(f)


@settings(max_examples=30, deadline=None)
@given(with_mixed(4), st.sampled_from(REGIMES), st.integers(1, 40), st.integers(0, 2**31 - 1))
def test_every_head_mass_off_and_every_copy_within_its_bound(f, regime, n, seed) -> None:
    """Lemma 7 over positions: mass off the key S_i <= 2x/(1-x), the copy off by <= 2x/(1-x)^2, x = 1/(32 C); the other heads as before."""
    c = compile_formula(f, regime=regime)
    w = np.random.default_rng(seed).integers(0, 2, size=(16, n))
    for info, mass in head_masses(c, w):
        assert mass <= c.head_bound(info) * (1 + 1e-9), (str(f), info, mass)
        assert c.head_bound(info) <= c.mass_bound()
    if c.mixed_scale:
        err = cs.position_lookup_copy_error(1 / (32 * c.mixed_scale))
        assert err * c.mixed_scale <= 1 / 4  # sum_k |c_k| err_k <= 1/4 for every mixed comparison
        for info, hard, soft in _copies(c, w):
            assert np.abs(hard - np.round(hard)).max() <= 1e-9, info  # an integer in hard mode (bounded: n * p/n, rounded)
            assert np.abs(soft - hard).max() <= err * (1 + 1e-9), (str(f), info, np.abs(soft - hard).max(), err)


def test_lookup_bounds_against_direct_sums_and_a_wrong_bound_fails() -> None:
    """position_lookup_mass_bound / copy_error hold for every D <= 64 and S in 0..D at the mixed rule's tau; x/(1-x) (a wrong twin) does not."""
    worst_wrong = 0.0
    for C in (1, 2, 5):
        L = math.log(32 * C)
        for D in range(1, 65):
            tau = 1 / (D * L)  # the rule at n - 1 = D: the worst x
            x = math.exp(-1 / (D * tau))
            p = np.arange(0, 2 * D + 1)  # keys of a future count (mask none) reach past D
            for S in range(D + 1):
                sc = (2 * p * (S / D) - p**2 / D) / tau
                wgt = np.exp(sc - sc.max())
                wgt /= wgt.sum()
                off = 1 - wgt[S]
                copy_err = abs(float((wgt * p).sum()) - S)
                assert off <= cs.position_lookup_mass_bound(x) * (1 + 1e-12), (C, D, S)
                assert copy_err <= cs.position_lookup_copy_error(x) * (1 + 1e-12), (C, D, S)
                worst_wrong = max(worst_wrong, off / (x / (1 - x)))
    assert worst_wrong > 1  # the one-sided bound x/(1-x) is too small: both sides of the parabola are visible


def test_planted_sign_flip_of_the_lookup_is_caught(monkeypatch) -> None:
    real = cs.position_lookup_spec

    def flipped(average, pos, pos2, inv, values, mask, hard_mode=None):
        spec = real(average, pos, pos2, inv, values, mask, hard_mode)
        first = spec.scores[0]
        spec.scores[0] = type(first)({k: -v for k, v in first.query.items()}, first.key)  # -2 p f_i: the maximum moves to p = 0
        return spec

    monkeypatch.setattr(cs, "position_lookup_spec", flipped)
    for regime in REGIMES:
        report = check_compiled(compile_formula("#<[a] > #>[b]", regime=regime), 6)
        assert not report["ok"] and report["first_counterexample"] is not None, regime


def test_planted_future_count_with_D_off_by_one_is_caught(monkeypatch) -> None:
    """The future average over j >= i (D = n - i, the query's own position counted) instead of j > i: verification finds it."""
    real = cs.count_spec

    def off_by_one(direction, value, target, coefficient):
        h = real(direction, value, target, coefficient)
        return type(h)(h.scores, h.values, "anticausal" if direction == "future" else h.mask, h.hard_mode)

    monkeypatch.setattr(cs, "count_spec", off_by_one)
    for regime in REGIMES:
        assert not check_compiled(compile_formula("#<[a] > #>[b]", regime=regime), 6)["ok"], regime


@pytest.mark.parametrize("regime,regime_tau", [("unbounded", lambda n: 1.0), ("bounded", lambda n: math.log(16) ** -1 / n)])
def test_planted_wrong_temperature_is_caught(regime, regime_tau) -> None:
    """At the regime's own tau (1; c/n) the lookups blur (x -> 1 as n grows): soft mode goes wrong, which is why the rule differs."""
    c = compile_formula("#<[a] > #>[b]", regime=regime)
    w = _inputs(8)
    ref = evaluate_batch(parse("#<[a] > #>[b]"), w)
    assert (c.decode(tf.run(c.model, w, "soft", tau=c.tau(8))) == ref).all()
    assert not (c.decode(tf.run(c.model, w, "soft", tau=regime_tau(8))) == ref).all()


def test_srasp_compiler_builds_its_lookups_through_the_shared_construction(monkeypatch) -> None:
    from hardsoft.constructive.srasp import compiler as sc
    from hardsoft.constructive.srasp.dyck import dyck_program

    calls = []
    real = sc.position_lookup_spec

    def spy(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(sc, "position_lookup_spec", spy)
    sc.compile_program(dyck_program(1))
    assert calls and all(a[5] == "causal" for a in calls)


@pytest.mark.parametrize("regime", REGIMES)
def test_soft_activations_equal_hard_ones_after_every_layer_with_mixed_comparisons(regime: str) -> None:
    """Unbounded: the copies are erased by their own layer's FFN, so no error survives a layer.  Bounded: V = N/n stays
    approximate for one layer (the lookup's to the sign head's), off by < 1/(15 n); every other coordinate is exact."""
    c = compile_formula("((#<[a] > #>[b]) S b) | (#>[a] + 1 >= #<[b] & Y a)", regime=regime)
    vs = sorted({h.target for h in c.heads if h.construction == "position-lookup"}) if regime == "bounded" else []
    for n in (1, 4, 9):
        w = _inputs(n)
        hard, soft = tf.run(c.model, w, "hard").activations, tf.run(c.model, w, "soft", tau=c.tau(n)).activations
        for xh, xs in zip(hard, soft):
            diff = np.abs(xh - xs)
            assert np.delete(diff, vs, axis=-1).max() <= 1e-9
            assert diff[..., vs].max(initial=0.0) < 1 / (15 * n)
        if regime == "unbounded":
            assert max(tf.compute_layer_errors(tf.run(c.model, w, "hard"), tf.run(c.model, w, "soft", tau=c.tau(n)))) <= 1e-9
