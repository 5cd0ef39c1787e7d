"""Tests that pin what an SMT verdict MEANS: non-vacuity, exact boxes, real unknowns never
proved, a second solver that answers and whose disagreement fails the run, cvc5 errors kept apart
from unknowns, and rows that say exactly what they covered."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

z3 = pytest.importorskip("z3")

from hardsoft.checks.families import smt as F
from hardsoft.checks.result import Outcome  # noqa: E402
from hardsoft.smt import c_composition as C  # noqa: E402
from hardsoft.smt import core  # noqa: E402
from hardsoft.smt import p_layer as P  # noqa: E402
from hardsoft.smt import s_lipschitz as S  # noqa: E402
from hardsoft.smt.solvers import yices as Y
from hardsoft.smt.core import (HYPS_UNDECIDED, PROVED, REFUTED, UNKNOWN, VACUOUS, check_box, prove,  # noqa: E402
                               query_log)
from hardsoft.smt.registry import get  # noqa: E402
from hardsoft.smt.runs import CheckRun, run_sizes  # noqa: E402

T = 20.0
SMT_DIR = Path(core.__file__).resolve().parent
needs_yices = pytest.mark.skipif(not Y.yices_available(), reason="yices-smt2 not installed")


# --------------------------------------------------------------------------- non-vacuity


def test_contradictory_hypotheses_are_vacuous_not_proved():
    x = z3.Real("x")
    v = prove([x > 0, x < 0], x == 42, timeout_s=T, name="contradiction")
    assert v.status == VACUOUS and v.status != PROVED


def test_proved_carries_a_witness_of_the_hypotheses():
    x = z3.Real("x")
    v = prove([x > 0], x * x > 0, timeout_s=T, name="ok")
    assert v.status == PROVED and v.witness["x"] > 0


def test_undecided_hypotheses_are_not_proved():
    """NOT claim is trivially unsat, but Z3 cannot decide x^x = 3 (power with a variable exponent)."""
    x, y = z3.Reals("x y")
    v = prove([x > 1, x ** x == 3], z3.Or(y > 0, y <= 0), timeout_s=2, name="hyps_undecided")
    assert v.status == HYPS_UNDECIDED


def test_a_witness_hint_cannot_fake_non_vacuity():
    """A hint is added only to the satisfiability check; a too-strong hint falls back, a contradiction stays vacuous."""
    x = z3.Real("x")
    assert prove([x > 0, x < 0], x == 1, timeout_s=T, name="h", witness_hint=[x == 0]).status == VACUOUS
    assert prove([x > 0], x >= 0, timeout_s=T, name="h", witness_hint=[x == 0]).status == PROVED


def test_vacuous_sub_query_makes_the_size_and_the_row_fail():
    x = z3.Real("x")
    run = run_sizes(CheckRun("t", "E", "proved"), [1, 2],
                    lambda n: [(prove([x > n, x < 0], x == 1, timeout_s=T, name=f"v{n}"), None)])
    assert run.verdict == VACUOUS and run.bound_reached == 0
    res = F._to_result(get("smt.E.softmax_vs_hardmax"), run, {"opinion": "not run"}, 0.0)
    assert res.outcome is Outcome.FAILED and res.verdict == VACUOUS


def test_no_module_calls_a_solver_outside_the_kernel():
    """Every Z3 query of every preset (tiny and paper use the same functions) goes through core.prove/search,
    so none can skip the non-vacuity check: no other module creates a Z3 solver or calls check()."""
    for p in SMT_DIR.glob("*.py"):
        if p.name in ("core.py", "yices_check.py", "cvc5_check.py"):
            continue
        text = p.read_text()
        assert not re.search(r"\.check\(|SolverFor\(|z3\.Solver\(|Tactic\(", text), p.name


CHEAP = {"smt.E.softmax_vs_hardmax": 3, "smt.Z.ziggurat": 3, "smt.S.lipschitz": 3, "smt.P.layer_steps": 1,
         "smt.C.closed_form": 3, "smt.C.monotone": 3, "smt.C.bootstrap": 3, "smt.ERR1.offset_minus_ok": 4}


@pytest.mark.parametrize("preset", ["tiny", "paper"])
@pytest.mark.parametrize("name", sorted(CHEAP))
def test_every_proving_check_of_both_presets_is_non_vacuous(name, preset):
    """Each statement check, with its preset's settings (small bound), proves only non-vacuous queries."""
    st = dict(get(name).presets[preset], bound=CHEAP[name], budget=None)
    st.pop("explore", None)  # sizes beyond the bound, for the scaling table only
    if name == "smt.P.layer_steps":
        st.update(n_head=2, heads=2, ffn_widths=[1, 2])
    run = F.run_check(get(name), st, None)
    assert run.verdict == PROVED, (name, run.detail)
    assert [row[0] for row in run.rows] == get(name).planned_sizes(st), name  # the ledger's sizes are the sizes run
    for size, total, non_vacuous in run.nonvacuity:
        assert total > 0 and non_vacuous == total, (name, size)
    assert run.witnesses and run.witnesses[-1]["values"]


def test_tiny_preset_report_is_non_vacuous_everywhere(tmp_path):
    """The family's data: every proving query of the C and ERR1 rows of the tiny preset is non-vacuous."""
    res = F.run("tiny", tmp_path, lambda m: None, claims={"C", "ERR1"})
    for r in res:
        nv = r.data["nonvacuity"]
        if r.data["expected"] == "proved":
            assert nv["proving_queries"] > 0 and nv["non_vacuous"] == nv["proving_queries"], r.name
            assert nv["witnesses"], r.name
        assert r.data["second_solver"]["confirmed"], (r.name, r.data["second_solver"]["opinion"])


# --------------------------------------------------------------------------- boxes


def test_check_box_is_exact_and_never_shrinks():
    assert check_box("w", 1e-7) == Fraction(1e-7) > 0
    assert check_box("w", 2.0000004) >= Fraction(2.0000004)
    assert check_box("w", "0.1") == Fraction(1, 10)
    assert check_box("w", Fraction(1, 3)) == Fraction(1, 3)
    assert check_box("w", 2) == 2
    from decimal import Decimal

    assert check_box("w", Decimal("0.3")) == Fraction(3, 10)  # float(0.3) would be below 0.3


@pytest.mark.parametrize("bad", [0, -1, 0.0, -1e-300, float("nan"), float("inf"), "abc", None, True, "-0.5"])
def test_check_box_refuses_non_positive_and_non_numbers(bad):
    with pytest.raises(ValueError, match="w must be"):
        check_box("w", bad)


def test_tiny_box_stays_a_box():
    """The issue's case: a weight box of 1e-7 used to round to 0 and make P vacuously 'proved'."""
    run = P.check_P(1, 1, 1, T, weight_box=1e-7, act_box=1e-7, ffn_widths=[1])
    assert run.verdict == PROVED and all(t == nv for _, t, nv in run.nonvacuity)
    assert Fraction(run.extra["weight_box"]) == Fraction(1e-7)


# --------------------------------------------------------------------------- real unknowns


def test_a_real_solver_unknown_is_never_proved():
    """x^x > x for x > 1 is true, but Z3 answers unknown: the row is UNDECIDED, never proved."""
    x = z3.Real("x")
    v = prove([x > 1], x ** x > x, timeout_s=2, name="pow")
    assert v.status == UNKNOWN
    run = run_sizes(CheckRun("t", "E", "proved"), [1],
                    lambda n: [(prove([x > 1], x ** x > x, timeout_s=2, name="pow"), None)])
    assert run.verdict == UNKNOWN
    res = F._to_result(get("smt.E.softmax_vs_hardmax"), run, {"opinion": "not run"}, 0.0)
    assert res.outcome is Outcome.UNDECIDED and res.verdict == UNKNOWN


def test_a_timeout_is_never_proved():
    v = S.encode_S(12)
    pattern, l1 = S.sign_case(v, 6)
    r = prove(v["hyps"] + pattern, l1 <= v["delta"], timeout_s=0.001, name="S_timeout")
    assert r.status in (UNKNOWN, PROVED)  # a 1 ms query may still finish
    if r.status == PROVED:
        assert r.witness  # ... and then only with its non-vacuity witness


# --------------------------------------------------------------------------- second solver


@needs_yices
def test_yices_answers_sat_unsat_and_error():
    x = z3.Real("x")
    assert Y.run_yices(Y.export_smt2([x * x < 0]), 10)["status"] == "unsat"
    assert Y.run_yices(Y.export_smt2([x * x > 2]), 10)["status"] == "sat"
    assert Y.run_yices("(set-logic QF_NRA)(assert (> y 0))(check-sat)", 10)["status"] == "error"


@needs_yices
def test_yices_confirms_the_exact_queries_z3_decided():
    st = dict(get("smt.C.monotone").presets["tiny"], bound=3)
    run = F.run_check(get("smt.C.monotone"), st, None)
    out = F.run_second_solver(get("smt.C.monotone"), run, st)
    assert out["confirmed"] and out["agree"] == out["queries"] == 3


@needs_yices
def test_planted_disagreement_fails_the_run(monkeypatch):
    """Yices is fed the query without its negated claim (sat) while Z3 decided the full query (unsat): FAILED."""
    real = Y.export_smt2
    monkeypatch.setattr(Y, "export_smt2", lambda assertions, logic="QF_NRA": real(list(assertions)[:-1], logic))
    st = dict(get("smt.C.monotone").presets["tiny"], bound=2, cvc5=[])
    res = F._task(get("smt.C.monotone"), st, None)
    assert res.outcome is Outcome.FAILED and res.verdict == "proved-but-yices-disagrees"
    assert res.data["second_solver"]["disagree"] and res.data["second_solver"]["opinion"].startswith("DISAGREE")


@needs_yices
def test_a_sat_answer_is_confirmed_by_checking_the_model_and_a_wrong_model_disagrees():
    x, y = z3.Reals("x y")
    query = [x > 0, y == x * x, y > 2]
    assert Y.run_yices(Y.export_smt2(Y.pin_model(query, {"x": "2", "y": "4"})), 10)["status"] == "sat"
    assert Y.run_yices(Y.export_smt2(Y.pin_model(query, {"x": "2", "y": "5"})), 10)["status"] == "unsat"
    assert Y.pin_model(query, {"x": "1.41421356?"}) is None  # algebraic values are not pinned


@needs_yices
def test_ERR3_score_search_confirmed_at_every_size():
    st = dict(get("smt.ERR3.score_unguarded").presets["tiny"], bound=2)
    run = F.run_check(get("smt.ERR3.score_unguarded"), st, None)
    out = F.run_second_solver(get("smt.ERR3.score_unguarded"), run, st)
    assert out["confirmed"] and out["agree"] == out["queries"] == 2


@needs_yices
def test_S_is_confirmed_through_its_reformulation():
    st = dict(get("smt.S.lipschitz").presets["tiny"], bound=3, yices=[2, 3])
    run = F.run_check(get("smt.S.lipschitz"), st, None)
    out = F.run_second_solver(get("smt.S.lipschitz"), run, st)
    assert out["confirmed"] and out["reformulation"]["z3"] == PROVED
    assert out["reformulation"]["agree"] == out["reformulation"]["queries"] > 0


def test_S_reformulation_proves_the_same_case():
    """The facts + block queries prove each sign case; a wrong block claim (delta/2) is refuted."""
    for k in (1, 2, 3):
        assert all(v.status == PROVED for v in S.prove_S_blocks(3, T))
    *_, (name, bh, bc) = S.block_queries(3, 1)
    Q, Pv, delta = z3.Reals("Q P delta")
    assert prove(bh, 4 * (Q - Pv) <= delta, timeout_s=T, name="S_block_wrong").status == REFUTED


def test_cvc5_error_is_not_unknown(monkeypatch):
    from hardsoft.smt.solvers import cvc5 as K

    if not K.cvc5_available():
        pytest.skip("cvc5 not installed")
    assert K.run_cvc5("(assert (> y 0))(check-sat)", 10)["status"] == "error"
    import dataclasses

    bad = dataclasses.replace(get("smt.C.monotone"), cvc5=lambda n, st: [("bad", "(assert (> y 0))(check-sat)", "unsat")])
    op = F.run_cvc5_opinion(bad, {"cvc5": [1], "cvc5_timeout": 10})
    assert op["opinion"].startswith("error") and "unknown" not in op["opinion"] and not op["disagree"]


# --------------------------------------------------------------------------- covered


def test_rows_say_what_they_covered():
    st = dict(get("smt.P.layer_steps").presets["tiny"], bound=1, n_head=2, heads=2, ffn_widths=[1, 2])
    run = F.run_check(get("smt.P.layer_steps"), st, None)
    cov = run.covered
    assert cov["varied"]["d (size)"] == "1" and "1..2" in cov["varied"]["head-step positions n"]
    assert "independent of d" in cov["varied"]["FFN width h"] and "N <= 16" in cov["varied"][
        "key positions N (composition)"]
    assert "weight box" in cov["fixed"] and "activation box" in cov["fixed"]
    assert any("S (softmax Lipschitz) and E" in a for a in cov["assumed"])
    text = F.covered_text(cov)
    assert "varied:" in text and "fixed:" in text and "assumes:" in text


def test_P_row_names_where_S_and_E_were_proved():
    """P's covered data says where each lemma was proved in this run; a lemma not run makes P undecided, naming it."""
    p = F.CheckResult("smt", "smt.P.layer_steps", "P", Outcome.OK, "proved", 0.0, "proved for every d in 1..3",
                      {"covered": {"assumed": []}, "extra": {"n_keys_max": 16}})
    s = F.CheckResult("smt", "smt.S.lipschitz", "S", Outcome.OK, "proved", 0.0, "",
                      {"bound_reached": 16, "rows": [[n, 0.1, PROVED] for n in range(2, 17)]})
    F.apply_assumptions({"smt.P.layer_steps": p, "smt.S.lipschitz": s}, {"smt.P.layer_steps": {"n_keys_max": 16}})
    note = p.data["covered"]["assumed"][-1]
    assert "S proved in this run for every n in 2..16" in note and "E not run in this run" in note and "n <= 16" in note
    assert p.outcome is Outcome.UNDECIDED and p.verdict == F.LEMMA_NOT_PROVED
    assert "E not run in this run" in p.detail and "S proved" not in p.detail.split("own queries")[0]


def test_ERR1_label_names_the_sizes_run():
    from hardsoft.smt import errata as ERR

    ladder = ERR.check_ERR1_minus(64, T)
    assert "only these sizes" in ladder.detail and "{1, 2, 4, 16, 64}" in ladder.detail
    every = ERR.check_ERR1_minus(8, T, every=True)
    assert every.detail == "proved for every n in 1..8"


def test_C_closed_form_r1_branch():
    assert C.prove_closed_form_r1(5, T).status == PROVED
    v = C.encode_recursion(5)
    a0 = z3.Real("a")
    hyps = v["hyps"] + [v["r"][l] == 1 for l in range(1, 6)] + [v["a"][l] == a0 for l in range(1, 6)]
    assert prove(hyps, v["B"][5] == 4 * a0, timeout_s=T, name="C_r1_wrong").status == REFUTED


# --------------------------------------------------------------------------- trust ledger


def test_trust_ledger_is_up_to_date():
    from hardsoft.checks import trust

    path = Path(__file__).resolve().parents[2] / "docs" / "trust.md"
    assert path.read_text() == trust.trust_ledger(), "docs/trust.md is stale: run python -m hardsoft.checks.trust"


def test_trust_ledger_covers_every_claim_and_check():
    from hardsoft.checks import trust
    from hardsoft.spec.claims import REGISTRY

    text = trust.trust_ledger()
    for c in REGISTRY:
        assert f"## {c.id}:" in text
        for n in c.smt + c.lean:
            assert f"`{n}`" in text
    assert text.count("**Not covered:**") == len(REGISTRY)
    assert "assumes S and E as lemmas" in text


def test_solver_child_is_killed_at_its_timeout_and_reports_its_answer() -> None:
    """smt.child: a child that outlives its limit is killed and reported timed out; one that answers is read line by line."""
    import sys

    from hardsoft.smt.solvers.child import run_child

    slow = run_child([sys.executable, "-c", "import time; time.sleep(30)"], "", 0.5)
    assert slow.timed_out and slow.seconds < 10 and slow.timeout_result(0.5)["status"] == "timeout"
    fast = run_child([sys.executable, "-c", "import sys; print(); print(sys.stdin.read().upper())"], "sat\n", 30)
    assert not fast.timed_out and fast.returncode == 0 and fast.lines == ["SAT"]
