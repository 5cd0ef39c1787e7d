"""Statement S (used in Lemma 25): softmax is Lipschitz, ||softmax_tau(a) - softmax_tau(b)||_1 <= ||a - b||_inf / tau.

What exactly is proved here (be precise: this is an ABSTRACTION, see smt/core.py):
with p = softmax_tau(a), q = softmax_tau(b), delta = ||a - b||_inf / tau and y = exp(delta),

    rho_j = exp((b_j - a_j)/tau) in [1/y, y],   q_j = lambda rho_j p_j  (lambda = sum E / sum F > 0),
    ln y >= 2 (y - 1)/(y + 1)                    (fact F5, the logarithmic-mean inequality),

and the query asks whether sum_j |p_j - q_j| > delta is possible for ANY reals p_j > 0 with
sum 1, rho_j in [1/y, y], lambda > 0 with sum q = 1, y >= 1 and delta meeting F5.  Unsat proves
S for every real instance with n positions (every real instance is a model, core.py).  The
abstraction forgets that rho and p come from a common exp; the claim still holds in it
because the total variation between p and a reweighting with ratios in [1/y, y] is at most
(y - 1)/(y + 1) (two-block extremal case), and 2 (y-1)/(y+1) <= ln y.

Z3 decides this for small n only (n = 2 fast; the size grows the number of nonlinear
monomials); the scaling table shows where it stops.  cvc5 checks the n = 2 case with its
native exp as written (second opinion).

Wrong twin: ||a - b||_inf / (2 tau) (spec.bounds.wrong_bound_S_l1_half).  Its search adds an
UPPER bound fact ln y <= (y - 1/y)/2 (so the model's delta >= the real ln y) so that every
countermodel is a real counterexample; replayed with a_j = ln p_j, b_j = a_j + ln rho_j, tau = 1.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import z3

from smt.core import Abs, Verdict, check_size, check_timeout, prove, reals, search, Sum
from smt.runs import CheckRun, run_sizes

#: Largest number of positions n accepted by the S checks.
MAX_N_S: int = 16


def encode_S(n: int) -> dict[str, Any]:
    """Return the abstraction of statement S at n positions (variables p, q, rho, lambda, y, delta)."""
    p, q, rho, wv = reals("p", n), reals("q", n), reals("rho", n), reals("w", n)
    lam, y, delta = z3.Reals("lambda y delta")
    hyps = [y >= 1, delta >= 0, lam > 0, Sum(p) == 1, Sum(q) == 1]
    hyps.append(delta * (y + 1) >= 2 * (y - 1))  # F5: ln y >= 2(y-1)/(y+1)
    for j in range(n):
        hyps += [p[j] > 0, rho[j] * y >= 1, rho[j] <= y, wv[j] == rho[j] * p[j], q[j] == lam * wv[j]]
    return {"p": p, "q": q, "rho": rho, "y": y, "delta": delta, "hyps": hyps,
            "l1": Sum([Abs(p[j] - q[j]) for j in range(n)])}


def prove_S(n: int, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return the verdict of sum_j |p_j - q_j| <= delta in the abstraction at n positions."""
    v = encode_S(n)
    return prove(v["hyps"], v["l1"] <= v["delta"], timeout_s=timeout_s, name=f"S_n{n}", keep_dir=keep_dir)


def search_S_wrong(n: int, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return a countermodel search for the wrong twin: sum |p_j - q_j| > delta/2 (+1/1000 for the replay)."""
    v = encode_S(n)
    y, delta = v["y"], v["delta"]
    extra = [2 * delta * y >= y * y - 1, y <= 2]  # ln y <= (y - 1/y)/2 <= delta; keep y moderate
    violation = v["l1"] >= delta / 2 + z3.RealVal("1/1000")
    return search(v["hyps"] + extra, violation, timeout_s=timeout_s, name=f"S_wrong_n{n}", keep_dir=keep_dir)


def check_S(n_max: int, timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None,
            explore: list[int] | None = None) -> CheckRun:
    """Return statement S (abstraction above) proved for every 2 <= n <= n_max (n = 1 is trivial).

    explore: sizes beyond n_max to try only for the scaling table (never change the verdict).
    """
    n_max = check_size("S: length bound n", n_max, MAX_N_S, minimum=2)
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.S.lipschitz", "S", "proved", size_label="n")
    return run_sizes(run, list(range(2, n_max + 1)), lambda n: [(prove_S(n, timeout_s, keep_dir), None)], budget_s,
                     explore=[check_size("S: explore size", e, MAX_N_S) for e in (explore or [])])


def check_S_wrong(n_max: int, timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return the wrong twin of S refuted, with replayed countermodels, for every 2 <= n <= n_max."""
    from smt.replay import replay_S_wrong

    n_max = check_size("S twin: length bound n", n_max, MAX_N_S, minimum=2)
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.S.wrong_half", "S", "refuted", size_label="n")

    def one(n: int):
        v = search_S_wrong(n, timeout_s, keep_dir)
        return [(v, replay_S_wrong(n, v.values) if v.status == "refuted" else None)]

    return run_sizes(run, list(range(2, n_max + 1)), one, budget_s)
