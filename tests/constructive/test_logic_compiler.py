"""The compiler: every small formula agrees with the evaluator in hard and soft mode in both regimes; each construction meets its lemma's bound."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardsoft.spec import transformer as tf
from hardsoft.spec.attention import softmax
from hardsoft.spec.bounds import is_ziggurat
from hardsoft.constructive.logic import compile_formula, evaluate_batch, parse, subformulas, check_compiled
from hardsoft.constructive import heads as cs
from hardsoft.constructive.logic.selfcheck import head_masses
from hardsoft.spec.modelio import load_model, model_from_dict, model_to_dict, save_model
from tests.logic_strategies import family, formulas

REGIMES = ("bounded", "unbounded")
WORDS = {n: np.concatenate(list(tf.enumerate_inputs(2, n))) for n in range(1, 7)}


def _check_exhaustive(text: str, regimes=REGIMES, words=WORDS) -> None:
    f = parse(text)
    refs = {n: evaluate_batch(f, w) for n, w in words.items()}
    for reg in regimes:
        c = compile_formula(f, regime=reg)
        for n, w in words.items():
            for mode, tau in (("hard", None), ("soft", c.tau(n))):
                got = c.decode(tf.run(c.model, w, mode, tau))
                assert (got == refs[n]).all(), f"{text} [{reg}, {mode}, n={n}]"


FAMILY = family(2)
SLICE = [f for k, f in enumerate(FAMILY) if k < 40 or k % 12 == 0]


@pytest.mark.parametrize("text", SLICE)
def test_family_slice_exhaustive_to_length_6(text: str) -> None:
    _check_exhaustive(text)


@pytest.mark.slow
def test_whole_family_up_to_2_operators_exhaustive_to_length_6() -> None:
    for text in FAMILY:
        _check_exhaustive(text)


@pytest.mark.parametrize("text", [
    "first & X last", "Y Y Y a | X X b", "(a | first) S (X b)", "!(a S (Y b)) & #<[a] > #<[b]",
    "#<[Y a] >= 2*#<[b] - 1", "!(#>[a S b] < #>[b])", "(#<[a] > 0) U last", "#<[a] > #<[a]", "true S !false",
    "(a U b) S (b U a)", "X (a & Y b) | Y (b & X a)", "#>[#>[a] > #>[b]] <= 1",
])
def test_handpicked_exhaustive_to_length_8(text: str) -> None:
    words = {n: np.concatenate(list(tf.enumerate_inputs(2, n))) for n in range(1, 9)}
    _check_exhaustive(text, words=words)


@settings(max_examples=25, deadline=None)
@given(formulas(max_leaves=6, compilable=True), st.sampled_from(REGIMES), st.integers(7, 24), st.integers(0, 2**31 - 1))
def test_random_formulas_at_longer_lengths(f, regime, n, seed) -> None:
    c = compile_formula(f, regime=regime)
    w = np.random.default_rng(seed).integers(0, 2, size=(24, n))
    ref = evaluate_batch(f, w)
    assert (c.decode(tf.run(c.model, w, "hard")) == ref).all()
    assert (c.decode(tf.run(c.model, w, "soft", tau=c.tau(n))) == ref).all()


def test_interface_fields() -> None:
    f = parse("a S Y b")
    c = compile_formula(f, ("a", "b"), "bounded")
    assert c.formula == f and c.alphabet == ("a", "b") and c.regime == "bounded"
    assert len(c.coords) == len(subformulas(f))
    assert c.readout.coordinate == c.coords[-1] and c.readout.position == "last" and c.readout.threshold == 0.5
    assert c.model.readout == c.readout
    assert c.tau(10) == pytest.approx(c.c / 10) and c.gap(10) == pytest.approx(1 / 10)
    u = compile_formula(f, regime="unbounded")
    assert u.tau(10) == 1.0 and u.gap(10) == u.K >= math.log(16)
    assert compile_formula("a | !b").gap(5) == math.inf  # no attention at all
    out = c.decode(tf.run(c.model, np.array([[0, 1, 0]]), "hard").activations[-1])
    assert out.shape == (1, 3, len(c.coords)) and out.dtype == bool
    import pickle  # process pools ship compiled formulas to workers

    c2 = pickle.loads(pickle.dumps(c))
    assert c2.formula == f and c2.tau(7) == c.tau(7) and c2.coords == c.coords


def test_every_head_carries_its_hard_mode_so_any_hard_run_agrees() -> None:
    c = compile_formula("(a S b) & #<[a] > #<[b] | X a U b")
    w = WORDS[5]
    ref = c.decode(tf.run(c.model, w, "hard"))
    for mode in ("average", "leftmost", "rightmost"):
        assert (c.decode(tf.run(c.model, w, mode)) == ref).all()
    assert all(h.hard_mode is not None for layer in c.model.layers for h in layer.heads)


@pytest.mark.parametrize("text,match", [
    ("c S a", "not in the alphabet"),
])
def test_unsupported_and_bad_atoms(text: str, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        compile_formula(text)


def test_regime_name_checked() -> None:
    with pytest.raises(ValueError, match="regime"):
        compile_formula("a", regime="tiny")


def test_measured_gap_is_at_least_the_claimed_gap() -> None:
    for text in ("a S b", "Y a & X b", "#<[a] > #<[b]", "#>[a] >= 2", "(a U b) | Y Y a"):
        for reg in REGIMES:
            c = compile_formula(text, regime=reg)
            for n in (2, 5, 8):
                g = tf.measure(c.model, n).gap
                assert g >= c.gap(n) * (1 - 1e-9), (text, reg, n, g, c.gap(n))


@settings(max_examples=30, deadline=None)
@given(formulas(max_leaves=5, compilable=True), st.sampled_from(REGIMES), st.integers(1, 40), st.integers(0, 2**31 - 1))
def test_every_head_mass_off_within_its_lemma_bound(f, regime, n, seed) -> None:
    """Lemma 7 / Lemma 8 + Z / the sign head (E): measured softmax mass off the hard max set <= the construction's bound."""
    c = compile_formula(f, regime=regime)
    w = np.random.default_rng(seed).integers(0, 2, size=(16, n))
    for info, mass in head_masses(c, w):
        assert mass <= c.head_bound(info) * (1 + 1e-9), (str(f), info, mass)
        assert c.head_bound(info) <= c.mass_bound()


def test_saved_model_round_trips_and_verifies_without_recompiling(tmp_path) -> None:
    c = compile_formula("(Y a) S (#<[a] > #<[b])", regime="unbounded")
    p = tmp_path / "m.json"
    save_model(c.model, p)
    assert json.loads(p.read_text())["format"] == "hardsoft-model/2"
    m = load_model(p)
    assert m.readout == c.model.readout
    assert [h.hard_mode for l in m.layers for h in l.heads] == [h.hard_mode for l in c.model.layers for h in l.heads]
    for n in range(1, 9):
        w = np.concatenate(list(tf.enumerate_inputs(2, n)))
        a = tf.run(m, w, "soft", tau=c.tau(n)).activations[-1]
        b = tf.run(c.model, w, "soft", tau=c.tau(n)).activations[-1]
        assert np.array_equal(a, b)
        assert (m.readout.accept(a) == evaluate_batch(c.formula, w)[:, -1, -1]).all()


def test_model_format_versions() -> None:
    c = compile_formula("a S b")
    d = model_to_dict(c.model)
    d1 = dict(d, format="hardsoft-model/1")
    with pytest.raises(ValueError, match="needs format 'hardsoft-model/2'"):
        model_from_dict(d1)
    with pytest.raises(ValueError, match="newer than this hardsoft"):
        model_from_dict(dict(d, format="hardsoft-model/6"))
    from hardsoft.spec.examples import build_last_a

    old = model_to_dict(build_last_a())
    assert old["format"] == "hardsoft-model/1"  # models without format-2 features are still written as version 1
    assert model_from_dict(old).PE.features == build_last_a().PE.features
    bad = json.loads(json.dumps(d))
    bad["layers"][0]["heads"][0]["hard_mode"] = "middle"
    with pytest.raises(ValueError, match="hard_mode"):
        model_from_dict(bad)
    bad = dict(d, readout={"coordinate": 10**6})
    with pytest.raises(ValueError, match="readout.coordinate"):
        model_from_dict(bad)


def test_check_compiled_report_and_refusals() -> None:
    c = compile_formula("a U b")
    r = check_compiled(c, 6)
    assert r["ok"] and r["words"] == 126 and [p["n"] for p in r["per_length"]] == [1, 2, 3, 4, 5, 6]
    assert r["first_counterexample"] is None
    with pytest.raises(ValueError, match=">= 1"):
        check_compiled(c, 0)
    with pytest.raises(ValueError, match="words"):
        check_compiled(c, 60)


# --------------------------------------------------------------------------- the constructions on their own


def test_tiebreak_ziggurat_for_every_selection_up_to_n_12() -> None:
    """Lemma 8's checkable inequality: for every n <= 12, every selection and every query, the visible scores
    K(select_j + j/n) (past) form a ziggurat with step 1/n (K = 1), and K(n select_j + j) one with step 1."""
    for n in range(1, 13):
        j = np.arange(n)
        sel = ((np.arange(2**n)[:, None] >> j[None, :]) & 1).astype(float)
        for i in range(1, n):
            for s, gap in ((sel[:, :i] + j[:i] / n, 1 / n), (n * sel[:, :i] + j[:i], 1.0)):
                srt = -np.sort(-s, axis=1)
                need = np.arange(i) * gap
                assert ((srt[:, :1] - srt) >= need - 1e-12).all(), (n, i)
        # the spec's own predicate (Lemma 6's hypothesis) on the scores times n, where they are exact integers
        for row in sel[: min(2**n, 64)]:
            assert is_ziggurat(n * row + j, 1.0)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 60), st.sampled_from(["past", "future"]), st.sampled_from(REGIMES), st.integers(0, 2**31 - 1))
def test_build_tiebreak_selects_the_nearest_and_mass_off_is_within_Z(n, direction, regime, seed) -> None:
    m = cs.build_tiebreak(direction, regime)
    w = np.random.default_rng(seed).integers(0, 2, size=(8, n))
    tau = 0.5 / n if regime == "bounded" else 0.5
    gap = 1 / n if regime == "bounded" else 1.0
    hard = tf.run(m, w, "hard").activations[-1][:, :, -1]
    soft = tf.run(m, w, "soft", tau=tau).activations[-1][:, :, -1]
    for b in range(w.shape[0]):
        for i in range(n):
            keys = list(range(i)) if direction == "past" else list(range(i + 1, n))
            if not keys:
                assert hard[b, i] == 0.0
                continue
            sel = [j for j in keys if w[b, j] == 0]
            pick = (sel[-1] if sel else keys[-1]) if direction == "past" else (sel[0] if sel else keys[0])
            assert hard[b, i] == float(w[b, pick] == 0)
            x = tf.run(m, w[b:b + 1], "hard").activations[0][0]
            hd = m.layers[0].heads[0]
            s = (x[i] @ hd.W_Q) @ (x[keys] @ hd.W_K).T
            mass_off = 1 - softmax(s, tau)[keys.index(pick)]
            assert mass_off <= cs.ziggurat_mass_bound(gap, tau) * (1 + 1e-9)
            assert abs(soft[b, i] - hard[b, i]) <= cs.ziggurat_mass_bound(gap, tau) * (1 + 1e-9)


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 40), st.sampled_from([-2, -1, 1, 2]), st.integers(0, 2**31 - 1))
def test_build_lookup_reads_the_target_and_mass_off_is_within_lemma_7(n, offset, seed) -> None:
    K = 3.0
    m = cs.build_lookup(offset, "unbounded", K=K, mask="none")
    w = np.random.default_rng(seed).integers(0, 2, size=(6, n))
    hard = tf.run(m, w, "hard").activations[-1][:, :, -1]
    soft = tf.run(m, w, "soft", tau=1.0).activations[-1][:, :, -1]
    bound = cs.two_sided_lookup_mass_bound(K, 1.0)
    for i in range(n):
        t = i + offset
        if 0 <= t < n:
            assert (hard[:, i] == (w[:, t] == 0)).all()
            assert (np.abs(soft[:, i] - hard[:, i]) <= bound * (1 + 1e-9)).all()


def test_build_lookup_bounded_needs_tau_c_over_n_squared() -> None:
    """Lemma 7 bounded: gap K/n^2 (parabola in j/n), so tau = c/n^2 keeps the one-sided mass off the target <= e^{-K/c}."""
    for n in (3, 10, 30):
        m = cs.build_lookup(-1, "bounded", K=1.0)
        g = tf.measure(m, n, inputs=np.random.default_rng(n).integers(0, 2, size=(4, n))).gap
        assert g == pytest.approx(1 / n**2, rel=1e-9)
        w = np.random.default_rng(0).integers(0, 2, size=(4, n))
        hard = tf.run(m, w, "hard").activations[-1][:, 1:, -1]
        soft = tf.run(m, w, "soft", tau=0.25 / n**2).activations[-1][:, 1:, -1]
        assert (hard == (w[:, :-1] == 0)).all()
        assert np.abs(soft - hard).max() <= math.exp(-4) * (1 + 1e-9)


def test_counting_heads_are_exact_in_soft_mode_and_comparison_values_keep_their_margin() -> None:
    """Counting: uniform scores, so soft = hard exactly; V_i = N_i / max(D_i, 1) with |V_i| >= 1/(2(n-1))."""
    c = compile_formula("#<[a] > #<[b]")
    v = next(h for h in c.heads if h.construction == "count").target
    for n in range(2, 9):
        w = np.concatenate(list(tf.enumerate_inputs(2, n)))
        hard = tf.run(c.model, w, "hard").activations
        soft = tf.run(c.model, w, "soft", tau=c.tau(n)).activations
        assert np.abs(hard[1][:, :, v] - soft[1][:, :, v]).max() <= 1e-15
        assert np.abs(hard[1][:, :, v]).min() >= 1 / (2 * (n - 1)) - 1e-12


@pytest.mark.parametrize("regime", REGIMES)
def test_soft_activations_equal_hard_ones_after_every_layer(regime: str) -> None:
    """The FFNs clean every subformula coordinate and erase every raw head output, so no error survives a layer."""
    c = compile_formula("((Y a) S (b & !X a)) | (#<[a] > #<[b] & (a U last))", regime=regime)
    for n in (1, 4, 9):
        w = np.concatenate(list(tf.enumerate_inputs(2, n)))
        errs = tf.compute_layer_errors(tf.run(c.model, w, "hard"), tf.run(c.model, w, "soft", tau=c.tau(n)))
        assert max(errs) <= 1e-12, errs


def test_tiebreak_ziggurat_inequality_for_every_n_by_z3() -> None:
    """Lemma 8's inequality for EVERY n (z3, integers): the key of rank k (1-based) below the top j* is at least (k-1) steps down.

    Bounded scores times n/K: n sel_j + j.  Selected keys j < j* have rank k with k - 1 <= j* - j and lose j* - j.
    An unselected key j has rank k with k - 1 <= (j* + 1) + (i - 1 - j) (all selected keys are <= j*, the other
    unselected keys it trails are in (j, i)) and loses n + j* - j.  If no key is selected, the top is i - 1 and the key j
    of rank k has k - 1 = i - 1 - j.  (Unbounded scores n sel_j + j are the same numbers.)
    """
    import z3

    n, i, js, j, k = z3.Ints("n i jstar j k")
    base = z3.And(n >= 1, i >= 1, i <= n - 1, j >= 0, k >= 1)
    claims = [
        z3.Implies(z3.And(base, js < i, js >= 0, j < js, k - 1 <= js - j), js - j >= k - 1),
        z3.Implies(z3.And(base, js < i, js >= 0, j < i, j != js, k - 1 <= (js + 1) + (i - 1 - j)), n + js - j >= k - 1),
        z3.Implies(z3.And(base, j < i, k - 1 == i - 1 - j), (i - 1) - j >= k - 1),
    ]
    for claim in claims:
        s = z3.Solver()
        s.add(z3.Not(claim))
        assert s.check() == z3.unsat
