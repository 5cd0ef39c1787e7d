"""Tests of the SMT checks (smt/ and checks/families/smt.py): verdicts at small bounds, wrong twins
refuted, countermodels that really violate the wrong statement in the spec, and bad input."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

z3 = pytest.importorskip("z3")

from hardsoft.checks.families import smt as smt_family
from hardsoft.smt.registry import get  # noqa: E402
from hardsoft.checks.result import Outcome  # noqa: E402
from hardsoft.smt import c_composition as C  # noqa: E402
from hardsoft.smt import e_softmax as E  # noqa: E402
from hardsoft.smt import errata as ERR  # noqa: E402
from hardsoft.smt import p_layer as P  # noqa: E402
from hardsoft.smt import s_lipschitz as S  # noqa: E402
from hardsoft.smt import z_ziggurat as Z  # noqa: E402
from hardsoft.smt.core import PROVED, REFUTED, UNKNOWN, prove, search  # noqa: E402
from hardsoft.spec import attention, bounds  # noqa: E402

T = 20.0  # per-query timeout in the tests (seconds)


# --------------------------------------------------------------------------- statements proved


def test_E_proved_every_n_m_up_to_8():
    run = E.check_E(8, T)
    assert run.verdict == PROVED and run.bound_reached == 8
    assert [r[0] for r in run.rows] == list(range(1, 9))


def test_Z_proved_up_to_16():
    run = Z.check_Z(16, T)
    assert run.verdict == PROVED and run.bound_reached == 16


def test_S_proved_up_to_12():
    run = S.check_S(12, T)
    assert run.verdict == PROVED and run.bound_reached == 12


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_S_sign_cases_are_not_vacuous(k):
    """Every sign case's hypotheses are satisfiable, so its 'proved' is not the vacuous kind."""
    v = S.encode_S(4)
    pattern, l1 = S.sign_case(v, k)
    assert search(v["hyps"] + pattern, l1 >= 0, timeout_s=T, name="S_sat").status == REFUTED


def test_S_without_log_mean_fact_is_refuted():
    """Dropping fact F5 (ln y >= 2(y-1)/(y+1)) leaves delta unconstrained: the check then fails."""
    v = S.encode_S(2)
    pattern, l1 = S.sign_case(v, 1)
    hyps = [h for h in v["hyps"] if not h.eq(v["delta"] * (v["y"] + 1) >= 2 * (v["y"] - 1))]
    assert len(hyps) == len(v["hyps"]) - 1
    assert prove(hyps + pattern, l1 <= v["delta"], timeout_s=T, name="S_noF5").status == REFUTED


def test_P_steps_proved_small():
    run = P.check_P(2, 2, 2, T)
    assert run.verdict == PROVED and run.bound_reached == 2
    assert "S (softmax Lipschitz)" in run.extra["assumed"]


def test_C_checks_proved_to_depth_8():
    for f in (C.check_C_closed_form, C.check_C_monotone, C.check_C_bootstrap):
        run = f(8, T)
        assert run.verdict == PROVED and run.bound_reached == 8, run.name


def test_ERR1_corrected_offset_proved():
    assert ERR.check_ERR1_minus(16, T).verdict == PROVED


# --------------------------------------------------------------------------- wrong twins and errata refuted


@pytest.mark.parametrize("check, bound", [
    (E.check_E_wrong, 4), (Z.check_Z_wrong, 5), (S.check_S_wrong, 3), (C.check_C_wrong_no_guard, 4),
    (C.check_C_wrong_monotone, 4), (C.check_ERR3_bootstrap, 4), (P.check_ERR3_score, 2), (ERR.check_ERR1_plus, 16),
])
def test_wrong_twins_refuted_and_replayed(check, bound):
    run = check(bound, T)
    assert run.verdict == REFUTED, run.detail
    assert run.countermodels and all(c["replay"]["confirmed"] for c in run.countermodels)


def test_E_twin_countermodel_violates_spec():
    v = E.search_E_wrong(4, 1, T)
    assert v.status == REFUTED
    from hardsoft.smt.replay import replay_E_wrong

    rep = replay_E_wrong(4, 1, v.values)
    s = np.array(rep["scores"])
    mass = attention.compute_mass_off_max_set(s, 1.0)
    x = math.exp(-attention.compute_gap(s))
    assert mass > bounds.wrong_bound_E_mass_off_Nminus(4, 1, x)
    assert mass <= bounds.bound_E_mass_off(4, 1, x) * (1 + 1e-12)  # and the true statement holds on it


def test_Z_twin_countermodel_violates_spec():
    from hardsoft.smt.replay import replay_Z_wrong

    v = Z.search_Z_wrong(5, T)
    rep = replay_Z_wrong(5, v.values)
    s = np.array(rep["scores"])
    assert bounds.is_ziggurat(s, rep["gamma"] * (1 - 1e-12))
    mass = attention.compute_mass_off_max_set(s, 1.0)
    assert mass > bounds.wrong_bound_Z_mass_off_top_short(5, rep["x"])
    assert mass <= bounds.bound_Z_mass_off_top(5, rep["x"]) * (1 + 1e-12)


def test_S_twin_countermodel_violates_spec():
    from hardsoft.smt.replay import replay_S_wrong

    v = S.search_S_wrong(2, T)
    rep = replay_S_wrong(2, v.values)
    a, b = np.array(rep["a"]), np.array(rep["b"])
    l1 = float(np.abs(attention.softmax(a, 1.0) - attention.softmax(b, 1.0)).sum())
    assert l1 > bounds.wrong_bound_S_l1_half(a, b, 1.0)
    assert l1 <= bounds.bound_S_l1(a, b, 1.0)


def test_score_unguarded_countermodel_violates_spec():
    from hardsoft.smt.replay import replay_score_unguarded

    v = P.search_score_unguarded(1, P.check_box("w", 2), P.check_box("x", 4), T)
    rep = replay_score_unguarded(1, v.values)
    assert rep["eps"] > 1 and rep["score_error"] > rep["wrong_score_error_bound_unguarded"]
    with pytest.raises(ValueError):
        bounds.compute_score_error_bound(rep["A_sum"], rep["X"], rep["eps"])


def test_bootstrap_no_guard_countermodel_violates_spec():
    from hardsoft.smt.replay import replay_bootstrap_unguarded

    v = C.search_bootstrap_no_guard(3, T)
    rep = replay_bootstrap_unguarded(3, v.values)
    B = bounds.compute_recursion(rep["r"], rep["a"])
    assert bounds.is_guarded_step_sequence(rep["e"], rep["r"], rep["a"])
    assert any(e > b for e, b in zip(rep["e"], B))


def test_unreplayable_refutation_is_failed():
    """A refutation whose replay does not confirm it is reported as not replayed (FAILED in the family)."""
    from hardsoft.smt.runs import CheckRun, run_sizes
    from hardsoft.smt.core import Verdict

    run = run_sizes(CheckRun("x", "E", "refuted"), [1], lambda n: [(Verdict(REFUTED, 0.0), {"confirmed": False})])
    assert run.verdict == "refuted-not-replayed"
    res = smt_family._to_result(get("smt.E.wrong_Nminus1"), run, {"opinion": "agree"}, 0.0)
    assert res.outcome is Outcome.FAILED


def test_unknown_is_never_proved(tmp_path: Path):
    x = z3.Real("x")
    # x^5 - x - 1 = 0 has a root; ask a hard-ish question with a tiny timeout: unknown or a verdict, never a fake proof
    v = prove([x * x * x * x * x - x - 1 == 0], x > 1, timeout_s=5, name="root", keep_dir=tmp_path)
    assert v.status in (PROVED, UNKNOWN)  # x > 1.16 is true: proved is correct here
    v = prove([x > 0], x > 1, timeout_s=5, name="false", keep_dir=tmp_path)
    assert v.status == REFUTED
    from hardsoft.smt.runs import CheckRun, run_sizes
    from hardsoft.smt.core import Verdict

    run = run_sizes(CheckRun("u", "E", "proved"), [1, 2], lambda n: [(Verdict(UNKNOWN, 0.0, smt2="k.smt2"), None)])
    assert run.verdict == UNKNOWN and run.smt2 == ["k.smt2"]
    assert smt_family._to_result(get("smt.E.softmax_vs_hardmax"), run, {"opinion": "agree"}, 0.0).outcome is Outcome.UNDECIDED


def test_cvc5_disagreement_fails():
    from hardsoft.smt.runs import CheckRun

    run = CheckRun("smt.E.softmax_vs_hardmax", "E", "proved", verdict=PROVED, rows=[[1, 0.0, PROVED]])
    res = smt_family._to_result(get("smt.E.softmax_vs_hardmax"), run, {"opinion": "disagree", "disagree": True}, 0.0)
    assert res.outcome is Outcome.FAILED and res.verdict == "proved-but-cvc5-disagrees"


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("call", [
    lambda: E.check_E(0, T), lambda: E.check_E(-3, T), lambda: E.check_E(10**6, T), lambda: E.check_E(4, 0),
    lambda: E.check_E(4, -1), lambda: Z.check_Z(0, T), lambda: Z.check_Z(10**5, T), lambda: S.check_S(1, T),
    lambda: S.check_S(1000, T), lambda: P.check_P(0, 2, 2, T), lambda: P.check_P(2, 2, 2, T, weight_box=0),
    lambda: P.check_P(99, 2, 2, T), lambda: C.check_C_bootstrap(0, T), lambda: C.check_C_bootstrap(10**4, T),
    lambda: C.check_C_closed_form(4, float("nan")), lambda: ERR.check_ERR1_plus(0, T), lambda: E.check_E(2.5, T),
])
def test_bad_input_raises(call):
    with pytest.raises(ValueError):
        call()


def test_unknown_preset_raises(tmp_path: Path):
    with pytest.raises(ValueError, match="preset"):
        smt_family.run("huge", tmp_path, lambda s: None)


def test_smt_checks_registry_complete():
    from hardsoft.smt import registry
    from hardsoft.spec.presets import PRESET_NAMES

    assert registry.validate(registry.CHECKS) == []
    assert all(tuple(c.presets) == PRESET_NAMES for c in registry.CHECKS)
    assert {c.claim for c in registry.CHECKS} == {"E", "Z", "S", "P", "C", "ERR1", "ERR3", "L7", "L8", "CNT", "APP-PA", "APP-DYCK", "APP-FF", "APP-IND", "APP-KHOP", "ZU", "PREC"}
