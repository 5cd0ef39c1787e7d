"""Statement C (corresponds to Theorem 26's induction, with the eps <= 1 bootstrapping fix).

B_0 = 0, B_l = r_l B_(l-1) + a_l with r_l, a_l SYMBOLIC reals (l = 1..L).  Checked for every
depth L up to a bound:

* closed form: uniform r != 1, a gives B_L (r - 1) = a (r^L - 1)  (r^L via the exact chain
  R_0 = 1, R_(k+1) = r R_k);
* monotonicity: r_l >= 1 and a_l >= 0 give 0 <= B_0 <= B_1 <= ... <= B_L;
* bootstrap: errors e_0 = 0, e_l >= 0 with only the GUARDED step of Lemma 25
  (e_(l-1) <= 1 -> e_l <= r_l e_(l-1) + a_l), r_l >= 1, a_l >= 0, and B_L <= 1 give
  e_l <= B_l for every l <= L.

No exp is involved (r_l, a_l are arbitrary reals meeting the stated signs), so these are
plain polynomial-arithmetic proofs.  Wrong twins: the bootstrap without B_L <= 1, and
monotonicity with r_l > 0 instead of r_l >= 1; both refuted with countermodels replayed by
spec.bounds.compute_recursion / is_guarded_step_sequence.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import z3

from hardsoft.smt.check import Coverage, Cvc5Query, Expect, SmtCheck
from hardsoft.smt.core import PROVED, Verdict, check_size, check_timeout, prove, reals, search, search_to_smt2, to_smt2
from hardsoft.smt.runs import CheckRun, run_sizes

#: Largest depth L accepted by the C checks.
MAX_L_C: int = 256


def encode_recursion(L: int) -> dict[str, Any]:
    """Return symbolic r_1..r_L, a_1..a_L, B_0..B_L with B_0 = 0 and B_l = r_l B_(l-1) + a_l."""
    r = [None] + [z3.Real(f"r_{l}") for l in range(1, L + 1)]
    a = [None] + [z3.Real(f"a_{l}") for l in range(1, L + 1)]
    B = reals("B", L + 1)
    hyps = [B[0] == 0] + [B[l] == r[l] * B[l - 1] + a[l] for l in range(1, L + 1)]
    return {"r": r, "a": a, "B": B, "hyps": hyps, "L": L}


def encode_bootstrap(L: int) -> dict[str, Any]:
    """Return the recursion plus errors e_0..e_L obeying only the guarded steps, r_l >= 1, a_l >= 0."""
    v = encode_recursion(L)
    r, a = v["r"], v["a"]
    e = reals("e", L + 1)
    hyps = v["hyps"] + [e[0] == 0]
    for l in range(1, L + 1):
        hyps += [r[l] >= 1, a[l] >= 0, e[l] >= 0, z3.Implies(e[l - 1] <= 1, e[l] <= r[l] * e[l - 1] + a[l])]
    v.update(e=e, hyps=hyps)
    return v


def prove_closed_form(L: int, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return the verdict of B_L (r - 1) = a (r^L - 1) for uniform r != 1, a at depth L.

    (At r = 1 this identity reads 0 = 0 and says nothing: that case is prove_closed_form_r1.)
    """
    v = encode_recursion(L)
    r0, a0 = z3.Reals("r a")
    Rp = reals("R", L + 1)
    hyps = v["hyps"] + [Rp[0] == 1] + [Rp[k + 1] == r0 * Rp[k] for k in range(L)]
    hyps += [v["r"][l] == r0 for l in range(1, L + 1)] + [v["a"][l] == a0 for l in range(1, L + 1)] + [r0 != 1]
    claim = v["B"][L] * (r0 - 1) == a0 * (Rp[L] - 1)
    return prove(hyps, claim, timeout_s=timeout_s, name=f"C_closed_L{L}", keep_dir=keep_dir)


def prove_closed_form_r1(L: int, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return the verdict of B_L = L a for uniform r = 1, a at depth L (the r = 1 branch of the closed form)."""
    v = encode_recursion(L)
    a0 = z3.Real("a")
    hyps = v["hyps"] + [v["r"][l] == 1 for l in range(1, L + 1)] + [v["a"][l] == a0 for l in range(1, L + 1)]
    return prove(hyps, v["B"][L] == L * a0, timeout_s=timeout_s, name=f"C_closed_r1_L{L}", keep_dir=keep_dir)


def prove_monotone(L: int, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return the verdict of 0 <= B_0 <= ... <= B_L when r_l >= 1 and a_l >= 0."""
    v = encode_recursion(L)
    hyps = v["hyps"] + [v["r"][l] >= 1 for l in range(1, L + 1)] + [v["a"][l] >= 0 for l in range(1, L + 1)]
    B = v["B"]
    claim = z3.And([B[0] >= 0] + [B[l] >= B[l - 1] for l in range(1, L + 1)])
    return prove(hyps, claim, timeout_s=timeout_s, name=f"C_mono_L{L}", keep_dir=keep_dir)


def search_monotone_wrong(L: int, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return a countermodel search for monotonicity with r_l > 0 in place of r_l >= 1."""
    v = encode_recursion(L)
    B = v["B"]
    hyps = v["hyps"] + [v["r"][l] > 0 for l in range(1, L + 1)] + [v["a"][l] >= 0 for l in range(1, L + 1)]
    # Search-only: a strict drop by at least 1/8 so that the float replay sees it.
    violation = z3.Or([B[l] <= B[l - 1] - z3.RealVal("1/8") for l in range(1, L + 1)])
    return search(hyps, violation, timeout_s=timeout_s, name=f"C_mono_wrong_L{L}", keep_dir=keep_dir)


def prove_bootstrap(L: int, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return the verdict of: guarded steps and B_L <= 1 imply e_l <= B_l for all l <= L.

    One Z3 query in a single piece stops scaling near L = 32, so the induction is spelled
    out as a chain of Z3 lemmas over the SAME hypotheses: first monotonicity
    (0 <= B_0 <= ... <= B_L and e_0 <= B_0, proved as in prove_monotone), then for l = 1..L the lemma
    e_l <= B_l with e_0 <= B_0, ..., e_(l-1) <= B_(l-1) as extra hypotheses.  Each extra
    hypothesis is the conclusion of an earlier PROVED query, so the chain proves the claim;
    the verdict is "proved" only if every link is.
    """
    v = encode_bootstrap(L)
    e, B = v["e"], v["B"]
    hyps = v["hyps"] + [B[L] <= 1]
    mono = [B[0] >= 0, e[0] <= B[0]] + [B[l] >= B[l - 1] for l in range(1, L + 1)]
    total = 0.0
    first = prove(hyps, z3.And(mono), timeout_s=timeout_s, name=f"C_boot_L{L}_mono", keep_dir=keep_dir)
    total += first.seconds
    if first.status != PROVED:
        return first
    known = hyps + mono
    for l in range(1, L + 1):
        link = prove(known, e[l] <= B[l], timeout_s=timeout_s, name=f"C_boot_L{L}_l{l}", keep_dir=keep_dir)
        total += link.seconds
        if link.status != PROVED:
            link.seconds = total
            return link
        known.append(e[l] <= B[l])
    return Verdict(PROVED, total)


def search_bootstrap_no_guard(L: int, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return a countermodel search for the bootstrap WITHOUT B_L <= 1 (wrong twin of C).

    Search-only: the violation is by at least 1/8, so that the float replay sees it.
    """
    v = encode_bootstrap(L)
    e, B = v["e"], v["B"]
    violation = z3.Or([e[l] >= B[l] + z3.RealVal("1/8") for l in range(L + 1)])
    return search(v["hyps"], violation, timeout_s=timeout_s, name=f"C_boot_noguard_L{L}", keep_dir=keep_dir)


def search_bootstrap_eps_unguarded(L: int, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Erratum 3 as printed: B_L <= eps for a target eps (no eps <= 1) taken to give e_L <= eps.

    Search for guarded-step errors with B_L <= eps and e_L > eps (+1/8 margin for the replay).
    """
    v = encode_bootstrap(L)
    e, B = v["e"], v["B"]
    eps = z3.Real("eps")
    hyps = v["hyps"] + [eps > 0, B[L] <= eps]
    violation = e[L] >= eps + z3.RealVal("1/8")
    return search(hyps, violation, timeout_s=timeout_s, name=f"ERR3_boot_L{L}", keep_dir=keep_dir)


def _checked(L_max: int, timeout_s: float, minimum: int = 1) -> tuple[int, float]:
    """Return validated (L_max, timeout)."""
    return check_size("C: depth bound L", L_max, MAX_L_C, minimum=minimum), check_timeout(timeout_s)


def check_C_closed_form(L_max: int, timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return the closed form proved for every depth L <= L_max: B_L = a (r^L - 1)/(r - 1) for r != 1
    and, as its own query, B_L = L a for r = 1."""
    L_max, timeout_s = _checked(L_max, timeout_s)
    run = CheckRun("smt.C.closed_form", "C", "proved", size_label="L")
    return run_sizes(
        run,
        list(range(1, L_max + 1)),
        lambda L: [(prove_closed_form(L, timeout_s, keep_dir), None), (prove_closed_form_r1(L, timeout_s, keep_dir), None)],
        budget_s,
    )


def check_C_monotone(L_max: int, timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return B_l non-decreasing proved for every depth L <= L_max."""
    L_max, timeout_s = _checked(L_max, timeout_s)
    run = CheckRun("smt.C.monotone", "C", "proved", size_label="L")
    return run_sizes(run, list(range(1, L_max + 1)), lambda L: [(prove_monotone(L, timeout_s, keep_dir), None)], budget_s)


def check_C_bootstrap(L_max: int, timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return the bootstrap (B_L <= 1 => e_l <= B_l for all l) proved for every depth L <= L_max."""
    L_max, timeout_s = _checked(L_max, timeout_s)
    run = CheckRun("smt.C.bootstrap", "C", "proved", size_label="L")
    return run_sizes(run, list(range(1, L_max + 1)), lambda L: [(prove_bootstrap(L, timeout_s, keep_dir), None)], budget_s)


def check_C_wrong_no_guard(L_max: int, timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return the bootstrap without B_L <= 1 refuted, with replayed countermodels, for every 2 <= L <= L_max.

    (At L = 1 the step from e_0 = 0 <= 1 is always guarded, so the twin is true there.)
    """
    from hardsoft.smt.replay import replay_bootstrap_unguarded

    L_max, timeout_s = _checked(L_max, timeout_s, minimum=2)
    run = CheckRun("smt.C.wrong_no_BL_guard", "C", "refuted", size_label="L")

    def one(L: int):
        v = search_bootstrap_no_guard(L, timeout_s, keep_dir)
        return [(v, replay_bootstrap_unguarded(L, v.values) if v.status == "refuted" else None)]

    return run_sizes(run, list(range(2, L_max + 1)), one, budget_s)


def check_C_wrong_monotone(L_max: int, timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return monotonicity with r_l > 0 (instead of >= 1) refuted, with replayed countermodels, for 2 <= L <= L_max."""
    from hardsoft.smt.replay import replay_monotone_wrong

    L_max, timeout_s = _checked(L_max, timeout_s, minimum=2)
    run = CheckRun("smt.C.wrong_monotone_r_positive", "C", "refuted", size_label="L")

    def one(L: int):
        v = search_monotone_wrong(L, timeout_s, keep_dir)
        return [(v, replay_monotone_wrong(L, v.values) if v.status == "refuted" else None)]

    return run_sizes(run, list(range(2, L_max + 1)), one, budget_s)


def check_ERR3_bootstrap(L_max: int, timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return erratum 3 in Theorem 26 (B_L <= eps with eps > 1 allowed) refuted for every 2 <= L <= L_max."""
    from hardsoft.smt.replay import replay_bootstrap_eps

    L_max, timeout_s = _checked(L_max, timeout_s, minimum=2)
    run = CheckRun("smt.ERR3.bootstrap_unguarded", "ERR3", "refuted", size_label="L")

    def one(L: int):
        v = search_bootstrap_eps_unguarded(L, timeout_s, keep_dir)
        return [(v, replay_bootstrap_eps(L, v.values) if v.status == "refuted" else None)]

    return run_sizes(run, list(range(2, L_max + 1)), one, budget_s)


# --------------------------------------------------------------------------- cvc5 (the same polynomial queries)


def cvc5_closed_form(L: int, st: Mapping[str, Any]) -> list[Cvc5Query]:
    """Return the closed form at depth L (uniform r != 1, a) for cvc5."""
    v = encode_recursion(L)
    B, r, a = v["B"], v["r"], v["a"]
    r0, a0 = z3.Reals("r a")
    Rp = [z3.Real(f"R_{k}") for k in range(L + 1)]
    hyps = v["hyps"] + [Rp[0] == 1] + [Rp[k + 1] == r0 * Rp[k] for k in range(L)]
    hyps += [r[l] == r0 for l in range(1, L + 1)] + [a[l] == a0 for l in range(1, L + 1)]
    return [(f"C closed form L={L}", to_smt2(hyps, B[L] * (r0 - 1) == a0 * (Rp[L] - 1)), "unsat")]


def cvc5_monotone(L: int, st: Mapping[str, Any]) -> list[Cvc5Query]:
    """Return monotonicity at depth L for cvc5."""
    v = encode_recursion(L)
    B, r, a = v["B"], v["r"], v["a"]
    hyps = v["hyps"] + [r[l] >= 1 for l in range(1, L + 1)] + [a[l] >= 0 for l in range(1, L + 1)]
    claim = z3.And([B[0] >= 0] + [B[l] >= B[l - 1] for l in range(1, L + 1)])
    return [(f"C monotone L={L}", to_smt2(hyps, claim), "unsat")]


def cvc5_bootstrap(L: int, st: Mapping[str, Any]) -> list[Cvc5Query]:
    """Return the bootstrap at depth L for cvc5, as ONE query (Z3 proves it as a chain of lemmas)."""
    w = encode_bootstrap(L)
    claim = z3.And([w["e"][l] <= w["B"][l] for l in range(L + 1)])
    return [(f"C bootstrap L={L} (one query)", to_smt2(w["hyps"] + [w["B"][L] <= 1], claim), "unsat")]


def cvc5_wrong_no_guard(L: int, st: Mapping[str, Any]) -> list[Cvc5Query]:
    """Return the bootstrap without B_L <= 1 at depth L for cvc5 (sat expected)."""
    w = encode_bootstrap(L)
    return [(f"C bootstrap without B_L<=1 L={L}", search_to_smt2(w["hyps"], z3.Or([w["e"][l] > w["B"][l] for l in range(L + 1)])), "sat")]


def cvc5_wrong_monotone(L: int, st: Mapping[str, Any]) -> list[Cvc5Query]:
    """Return monotonicity with r_l > 0 at depth L for cvc5 (sat expected)."""
    v = encode_recursion(L)
    hyps = v["hyps"] + [v["r"][l] > 0 for l in range(1, L + 1)] + [v["a"][l] >= 0 for l in range(1, L + 1)]
    return [(f"C monotone with r>0 L={L}", search_to_smt2(hyps, z3.Or([v["B"][l] < v["B"][l - 1] for l in range(1, L + 1)])), "sat")]


def cvc5_ERR3_bootstrap(L: int, st: Mapping[str, Any]) -> list[Cvc5Query]:
    """Return Theorem 26's induction with B_L <= eps, eps > 1 allowed, at depth L for cvc5 (sat expected)."""
    w = encode_bootstrap(L)
    eps = z3.Real("eps")
    return [(f"Theorem 26 with B_L<=eps, eps>1 allowed, L={L}", search_to_smt2(w["hyps"] + [eps > 0, w["B"][L] <= eps], w["e"][L] > eps), "sat")]


# --------------------------------------------------------------------------- the checks


def run_closed_form(st: Mapping[str, Any], keep_dir: Path | None) -> CheckRun:
    """Return check_C_closed_form with a preset's settings."""
    return check_C_closed_form(st["bound"], st["timeout"], keep_dir, st.get("budget"))


def run_monotone(st: Mapping[str, Any], keep_dir: Path | None) -> CheckRun:
    """Return check_C_monotone with a preset's settings."""
    return check_C_monotone(st["bound"], st["timeout"], keep_dir, st.get("budget"))


def run_bootstrap(st: Mapping[str, Any], keep_dir: Path | None) -> CheckRun:
    """Return check_C_bootstrap with a preset's settings."""
    return check_C_bootstrap(st["bound"], st["timeout"], keep_dir, st.get("budget"))


def run_wrong_no_guard(st: Mapping[str, Any], keep_dir: Path | None) -> CheckRun:
    """Return check_C_wrong_no_guard with a preset's settings."""
    return check_C_wrong_no_guard(st["bound"], st["timeout"], keep_dir, st.get("budget"))


def run_wrong_monotone(st: Mapping[str, Any], keep_dir: Path | None) -> CheckRun:
    """Return check_C_wrong_monotone with a preset's settings."""
    return check_C_wrong_monotone(st["bound"], st["timeout"], keep_dir, st.get("budget"))


def _statement_presets(paper_bound: int, paper_budget: int) -> dict[str, dict[str, Any]]:
    """Return the presets of a C statement check (tiny: L <= 8; paper: the given bound and budget)."""
    return {
        "tiny": {"bound": 8, "timeout": 20, "budget": 100, "cvc5": [4], "cvc5_timeout": 10},
        "paper": {"bound": paper_bound, "timeout": 120, "budget": paper_budget, "cvc5": [4, 8], "cvc5_timeout": 30},
    }


def _twin_presets() -> dict[str, dict[str, Any]]:
    """Return the presets of a C wrong twin (tiny: L <= 4; paper: L <= 16)."""
    return {
        "tiny": {"bound": 4, "timeout": 10, "budget": 100, "cvc5": [3], "cvc5_timeout": 10},
        "paper": {"bound": 16, "timeout": 60, "budget": 120, "cvc5": [3], "cvc5_timeout": 30},
    }


CHECKS: tuple[SmtCheck, ...] = (
    SmtCheck(
        name="smt.C.closed_form",
        claim="C",
        expect=Expect.PROVED,
        run=run_closed_form,
        presets=_statement_presets(64, 300),
        size_label="L",
        min_size=1,
        max_size=MAX_L_C,
        cover=Coverage(varied={"r": "uniform symbolic r != 1, and separately r = 1 (B_L = L a)", "a": "uniform symbolic"}),
        cvc5=cvc5_closed_form,
        cost_rank=6,
    ),
    SmtCheck(
        name="smt.C.monotone",
        claim="C",
        expect=Expect.PROVED,
        run=run_monotone,
        presets=_statement_presets(64, 300),
        size_label="L",
        min_size=1,
        max_size=MAX_L_C,
        cover=Coverage(varied={"r_l, a_l": "symbolic per layer, r_l >= 1, a_l >= 0"}),
        cvc5=cvc5_monotone,
        cost_rank=7,
    ),
    SmtCheck(
        name="smt.C.bootstrap",
        claim="C",
        expect=Expect.PROVED,
        run=run_bootstrap,
        presets=_statement_presets(32, 600),
        size_label="L",
        min_size=1,
        max_size=MAX_L_C,
        cover=Coverage(
            varied={"r_l, a_l, e_l": "symbolic per layer, r_l >= 1, a_l >= 0"},
            assumed=("only the guarded step of Lemma 25 (e <= 1 -> ...); chain of Z3 lemmas over l",),
        ),
        cvc5=cvc5_bootstrap,
        cost_rank=3,
    ),
    SmtCheck(
        name="smt.C.wrong_no_BL_guard",
        claim="C",
        expect=Expect.TWIN,
        run=run_wrong_no_guard,
        presets=_twin_presets(),
        size_label="L",
        min_size=2,
        max_size=MAX_L_C,
        cover=Coverage(fixed={"search-only": "violation margin 1/8"}, assumed=("countermodels replayed in the spec",)),
        cvc5=cvc5_wrong_no_guard,
    ),
    SmtCheck(
        name="smt.C.wrong_monotone_r_positive",
        claim="C",
        expect=Expect.TWIN,
        run=run_wrong_monotone,
        presets=_twin_presets(),
        size_label="L",
        min_size=2,
        max_size=MAX_L_C,
        cover=Coverage(fixed={"search-only": "drop margin 1/8"}, assumed=("countermodels replayed in the spec",)),
        cvc5=cvc5_wrong_monotone,
    ),
)
