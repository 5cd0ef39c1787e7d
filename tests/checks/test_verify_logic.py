"""The verification engine on compiled formulas: a slice of the generated family, random formulas at longer lengths, wrong twins."""

from __future__ import annotations

import dataclasses
import functools
import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardsoft.checks.engine import columns as cl
from hardsoft.checks.engine import formulas as fm
from hardsoft.checks.engine import verify as vf
from hardsoft.constructive import logic as lg
from logic_strategies import formulas


def test_family_slice_both_regimes() -> None:
    fam = fm.family(2)[::11]
    rep = fm.verify_formulas(fam, 6, workers=1)
    assert rep.ok and not rep.unsupported, rep.failures[:3]
    assert rep.runs == 2 * len(fam) and rep.stacks < len(fam)


def test_sample_slice_three_four_operators() -> None:
    rep = fm.verify_formulas(fm.sample_formulas(1000)[::25], 6, workers=1)
    assert rep.ok and not rep.unsupported, rep.failures[:3]


@pytest.mark.parametrize("regime", ["bounded", "unbounded"])
def test_engine_on_a_compiled_formula_with_the_reference_evaluator(regime: str) -> None:
    target = vf.target_from_compiled(lg.compile_formula(lg.parse("(a S b) & !X a"), regime=regime))
    rep = vf.verify(target, 8, workers=1)
    assert rep.ok and rep.strings == 2**9 - 2
    assert rep.per_length[8]["accepted"] == sum(lg.accepts(lg.parse("(a S b) & !X a"), w) for w in
                                                (np.binary_repr(v, 8).replace("0", "a").replace("1", "b")
                                                 for v in range(256)))


def _hot(n: int) -> float:
    """A temperature far above the bounded regime's c/n."""
    return 2.0


def test_too_hot_and_wrong_formula_are_caught() -> None:
    compiled = lg.compile_formula(lg.parse("a S b"), regime="bounded")
    target = vf.target_from_compiled(compiled)
    hot = vf.verify(dataclasses.replace(target, tau=_hot), 7, workers=1)
    assert hot.per_mode["hard"].ok and not hot.per_mode["soft"].ok
    wrong = dataclasses.replace(target, reference=functools.partial(lg.evaluate_batch, lg.parse("b S a")))
    rep = vf.verify(wrong, 5, workers=1)
    assert not rep.per_mode["hard"].ok and not rep.per_mode["soft"].ok


@given(formulas(max_leaves=6, compilable=True), st.sampled_from(["bounded", "unbounded"]), st.integers(10, 13))
def test_random_formulas_at_longer_lengths(f: lg.Formula, regime: str, n: int) -> None:
    compiled = lg.compile_formula(f, regime=regime)
    rep = vf.verify(vf.target_from_compiled(compiled, evaluator="vectorized"), n, workers=1, only_N=True,
                    max_seconds=None)
    assert rep.ok, (str(f), regime, n, [t.counterexamples[:1] for t in rep.per_mode.values()])
    w = np.random.default_rng(n).integers(0, 2, size=(16, n))  # the vectorized evaluator is the reference here too
    assert (cl.evaluate_columns(f, w) == lg.evaluate_batch(f, w)).all()


def _wrong_inner_cell(text: str, leaf: str) -> tuple[vf.VerificationTarget, int]:
    """Return the compiled target of text with ONE weight of its last FFN changed, and the index of the leaf's coordinate.

    The FFN unit that writes the formula's own (accepting) coordinate also gets a negative entry
    into the leaf's coordinate: the leaf reads False exactly where the formula holds, while the
    formula's coordinate, computed from the layer's input, stays right.
    """
    compiled = lg.compile_formula(lg.parse(text), regime="bounded")
    last = compiled.model.layers[-1]
    j = int(np.argmax(last.W2[:, compiled.coords[-1]]))
    k = lg.subformulas(compiled.formula).index(lg.parse(leaf))
    W2 = last.W2.copy()
    W2[j, compiled.coords[k]] -= 1.0
    model = dataclasses.replace(compiled.model, layers=compiled.model.layers[:-1] + (dataclasses.replace(last, W2=W2),))
    return dataclasses.replace(vf.target_from_compiled(compiled), model=model), k


def test_a_wrong_inner_cell_fails_the_verdict_though_acceptance_is_right() -> None:
    target, k = _wrong_inner_cell("Y a & b", "b")
    rep = vf.verify(target, 5, workers=1)
    assert not rep.ok
    for mode, t in rep.per_mode.items():
        # acceptance is right on every string: only the inner cell b is wrong, where Y a & b holds
        assert t.wrong_accept == 0 and not t.ok, mode
        expected_wrong = sum(w[i - 1 : i + 1] == "ab" for n in range(1, 6) for w in map("".join, itertools.product("ab", repeat=n))
                             for i in range(1, n))
        assert t.wrong_cells == expected_wrong == 49, mode
        ce = t.counterexamples[0]
        assert (ce["word"], ce["position"], ce["coordinate"], ce["expected"]) == ("ab", 1, "b", True), ce
        assert ce["accept_got"] == ce["accept_expected"] is True
    assert "wrong cell(s)" in rep.summary() and "0 wrong acceptance(s)" in rep.summary()
    # the unperturbed model passes: the planted weight is what the engine caught
    assert vf.verify(dataclasses.replace(target, model=lg.compile_formula(lg.parse("Y a & b")).model), 5, workers=1).ok
