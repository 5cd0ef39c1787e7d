"""Claim PREC (precision, a question the paper leaves open): rounded scores keep a ziggurat of step gamma - u.

``constructive.audit.predicted_safe`` declares a length n safe in a format while (gamma - u)/tau >= ln(1/margin),
u the spacing of the storage format at the score bound.  Its argument, checked here for N scores (and by Lean for
every N: ``HardSoft.rounded_ziggurat``, ``HardSoft.rounded_mass_off_top_le``):

  scores s_0, ..., s_(N-1) with s_0 - s_k >= k gamma (a ziggurat of step gamma, k = 1..N-1), each rounded to r_k
  with |r_k - s_k| <= u/2 (rounding to nearest in a format of spacing u at the scores' magnitude), 0 <= u <= gamma:
  (a) r_0 - r_k >= k (gamma - u)  (r_0 - r_k >= s_0 - s_k - u >= k gamma - u >= k (gamma - u), as k u >= u);
  (b) the softmax mass off r_0 is <= x' = exp(-(gamma - u)/tau)  (statement Z at the rounded step).

Encoding: (a) is linear (one query); (b) uses the exp abstraction of smt/core.py on the ROUNDED scores: E_k stands
for exp((r_k - r_0)/tau) (E_0 = 1, F2; E_k > 0, F1), x for exp(-(gamma - u)/tau) (0 < x <= 1, F1: the exponent is
<= 0), P_k = x^k by the chain P_0 = 1, P_(k+1) = x P_k, and F4: r_0 - r_k >= k (gamma - u) -> E_k <= P_k.  As in
statement Z (smt/z_ziggurat.py) the geometric sum T (1 - x) = x - x^N is a lemma proved by its own query; the claim
delta <= x (delta Z = sum_(k>=1) E_k, Z = sum_k E_k) is then proved from the hypotheses, (a) and the lemma.  Three
queries per N; "proved" only if all three are.

Wrong twin (``smt.PREC.wrong_half_spacing``): the rounded step claimed as gamma - u/2.  Search-only facts (they hold
in the instance the replay builds): gamma = 1, u = 1/2, and the first step at its extreme, s_0 - s_1 = gamma,
r_0 = s_0 - u/2, r_1 = s_1 + u/2.  The countermodel is replayed exactly (smt.replay.replay_PREC_wrong), with the
softmax at tau = u/8: the rounded scores' mass off the top exceeds exp(-(gamma - u/2)/tau).

Not modelled (the claim's "not covered"): the rounding model itself (every score moved by at most u/2 of the storage
format's spacing at the score bound); activations, products and the softmax's own rounding.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import z3

from hardsoft.smt.check import Coverage, Expect, SmtCheck
from hardsoft.smt.core import PROVED, R, Sum, Verdict, check_size, check_timeout, prove, reals, search
from hardsoft.smt.runs import CheckRun, run_sizes
from hardsoft.smt.z_ziggurat import telescoping

#: Largest number of scores N accepted by the PREC checks.
MAX_N_PREC: int = 128


def encode_PREC(N: int) -> dict[str, Any]:
    """Return the variables and hypotheses of PREC at N scores: ``score_hyps`` (ziggurat, rounding, 0 <= u <= gamma) and ``hyps``
    (those and the exp abstraction on the rounded scores)."""
    s, r, E = reals("s", N), reals("r", N), reals("E", N)
    P = reals("P", N + 1)  # P[k] = x^k
    gamma, u, tau, x, Z, S, T, delta = z3.Reals("gamma u tau x Z S T delta")
    score_hyps: list[z3.BoolRef] = [gamma > 0, u >= 0, u <= gamma]
    for k in range(N):
        if k > 0:
            score_hyps.append(s[0] - s[k] >= k * gamma)  # ziggurat of step gamma
        score_hyps += [2 * (r[k] - s[k]) <= u, 2 * (s[k] - r[k]) <= u]  # |r_k - s_k| * 2 <= u
    hyps = score_hyps + [tau > 0, x > 0, x <= 1, P[0] == 1] + [P[k + 1] == x * P[k] for k in range(N)]
    for k in range(N):
        # exp facts on the rounded scores: F1 positivity, F2 E_0 = exp(0) = 1, F4 at the rounded step gamma - u.
        hyps += [E[k] > 0, z3.Implies(r[0] - r[k] >= k * (gamma - u), E[k] <= P[k])]
    hyps += [E[0] == 1, Z == Sum(E), S == (Sum(E[1:]) if N > 1 else R(0)), delta * Z == S, T == (Sum(P[1:N]) if N > 1 else R(0))]
    return {"s": s, "r": r, "E": E, "P": P, "x": x, "T": T, "delta": delta, "gamma": gamma, "u": u, "score_hyps": score_hyps, "hyps": hyps, "N": N}


def step_claim(v: Mapping[str, Any], loss: Any = None) -> z3.BoolRef:
    """Return (a): r_0 - r_k >= k (gamma - loss) for every 0 < k < N (loss u: the statement; u/2: the twin)."""
    r, gamma, N = v["r"], v["gamma"], v["N"]
    loss = v["u"] if loss is None else loss
    return z3.And([r[0] - r[k] >= k * (gamma - loss) for k in range(1, N)]) if N > 1 else z3.BoolVal(True)


def claim_PREC(v: Mapping[str, Any]) -> z3.BoolRef:
    """Return (b): the mass off the top of the rounded scores is <= x = exp(-(gamma - u)/tau)."""
    return v["delta"] <= v["x"]


def prove_PREC(N: int, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return PREC's verdict at N scores: the rounded step (a), the geometric-sum lemma, then the mass bound (b) using both."""
    v = encode_PREC(N)
    step = prove(v["score_hyps"], step_claim(v), timeout_s=timeout_s, name=f"PREC_step_N{N}", keep_dir=keep_dir, engine="smt")
    if step.status != PROVED:
        return step
    lem = prove(v["hyps"], telescoping(v), timeout_s=timeout_s, name=f"PREC_lemma_N{N}", keep_dir=keep_dir)
    if lem.status != PROVED:
        return lem
    main = prove(v["hyps"] + [step_claim(v), telescoping(v)], claim_PREC(v), timeout_s=timeout_s, name=f"PREC_N{N}", keep_dir=keep_dir)
    main.seconds += step.seconds + lem.seconds
    return main


def search_PREC_wrong(N: int, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return a countermodel search for the twin: some r_0 - r_k < k (gamma - u/2).

    Search-only facts (see the module docstring): gamma = 1, u = 1/2, s_0 - s_1 = gamma, r_0 = s_0 - u/2, r_1 = s_1 + u/2.
    """
    v = encode_PREC(N)
    s, r, gamma, u = v["s"], v["r"], v["gamma"], v["u"]
    pinned = [gamma == 1, u == R(Fraction(1, 2)), s[0] - s[1] == gamma, 2 * r[0] == 2 * s[0] - u, 2 * r[1] == 2 * s[1] + u]
    return search(v["score_hyps"] + pinned, z3.Not(step_claim(v, v["u"] / 2)), timeout_s=timeout_s, name=f"PREC_wrong_N{N}", keep_dir=keep_dir)


def check_PREC(n_max: int, timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return PREC (the rounded step and the mass bound) proved for every N <= n_max scores."""
    n_max = check_size("PREC: number of scores N", n_max, MAX_N_PREC)
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.PREC.rounded_ziggurat", "PREC", "proved", size_label="N")
    return run_sizes(run, list(range(1, n_max + 1)), lambda N: [(prove_PREC(N, timeout_s, keep_dir), None)], budget_s)


def check_PREC_wrong(n_max: int, timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return PREC's twin (step gamma - u/2) refuted for every 2 <= N <= n_max scores, every countermodel replayed exactly.

    (N = 1: no step, the twin holds.)
    """
    from hardsoft.smt.replay import replay_PREC_wrong

    n_max = check_size("PREC twin: number of scores N", n_max, MAX_N_PREC, minimum=2)
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.PREC.wrong_half_spacing", "PREC", "refuted", size_label="N")

    def one(N: int) -> list[tuple[Verdict, dict | None]]:
        v = search_PREC_wrong(N, timeout_s, keep_dir)
        return [(v, replay_PREC_wrong(N, v.model) if v.status == "refuted" else None)]

    return run_sizes(run, list(range(2, n_max + 1)), one, budget_s)


def run_PREC(st: Mapping[str, Any], keep_dir: Path | None) -> CheckRun:
    """Return check_PREC with a preset's settings."""
    return check_PREC(st["bound"], st["timeout"], keep_dir, st.get("budget"))


def run_PREC_wrong(st: Mapping[str, Any], keep_dir: Path | None) -> CheckRun:
    """Return check_PREC_wrong with a preset's settings."""
    return check_PREC_wrong(st["bound"], st["timeout"], keep_dir, st.get("budget"))


CHECKS: tuple[SmtCheck, ...] = (
    SmtCheck(
        name="smt.PREC.rounded_ziggurat",
        claim="PREC",
        expect=Expect.PROVED,
        run=run_PREC,
        presets={
            "tiny": {"bound": 16, "timeout": 20, "budget": 120, "cvc5": [], "cvc5_timeout": 5, "yices": [1, 2, 3, 4, 8]},
            "paper": {"bound": 96, "timeout": 120, "budget": 600, "cvc5": [], "cvc5_timeout": 30, "yices": [1, 2, 3, 4, 8, 16], "yices_budget": 120},
        },
        size_label="N",
        min_size=1,
        max_size=MAX_N_PREC,
        cover=Coverage(
            varied={"scores s_k, rounded scores r_k, step gamma > 0, spacing 0 <= u <= gamma, tau > 0": "symbolic reals"},
            fixed={"rounding model": "|r_k - s_k| * 2 <= u for every k (half a spacing)"},
            assumed=(
                "exp abstraction F1, F2, F4 on the rounded scores",
                "geometric-sum lemma proved by its own Z3 query at each N",
                "the rounding model itself (activations, products and the softmax's own rounding not modelled)",
            ),
        ),
        cost_rank=5,
    ),
    SmtCheck(
        name="smt.PREC.wrong_half_spacing",
        claim="PREC",
        expect=Expect.TWIN,
        run=run_PREC_wrong,
        presets={
            "tiny": {"bound": 8, "timeout": 10, "budget": 60, "cvc5": [], "cvc5_timeout": 5},
            "paper": {"bound": 32, "timeout": 60, "budget": 300, "cvc5": [], "cvc5_timeout": 30},
        },
        size_label="N",
        min_size=2,
        max_size=MAX_N_PREC,
        cover=Coverage(
            fixed={"search-only": "gamma = 1, u = 1/2, the first step at its extreme (s_0 - s_1 = gamma, r_0 = s_0 - u/2, r_1 = s_1 + u/2)"},
            assumed=("countermodels replayed exactly in the spec, with the softmax at tau = u/8: mass off the top > exp(-(gamma - u/2)/tau)",),
        ),
    ),
)
