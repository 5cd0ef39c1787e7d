"""Statement E (Edelman et al. form, used in Theorem 26): softmax versus average-hard attention.

Scores s over N positions, max set of size m, gap >= gamma, x = exp(-gamma/tau):

    delta = mass off M <= (N-m) x / (m + (N-m) x) <= (N-m) x / m,
    ||softmax_tau(s) - ahardmax(s)||_1 = m |p_M - 1/m| + delta <= 2 (N-1) x.

Encoding (exp abstraction of smt/core.py, facts F1-F3): positions 0..m-1 form the max set
(softmax is invariant under permuting positions, so this is no loss), positions m..N-1 have
s_max - s_j >= gamma.  E_j stands for exp((s_j - s_max)/tau); Z = sum E_j; the weight of a
max position p_M and the mass off M delta are defined by p_M Z = 1 and delta Z = sum_{j>=m} E_j
(Z > 0).  The fraction bound is stated cross-multiplied by its positive denominator
m + (N-m) x, which is equivalent.  One query per (N, m); ``check_E`` runs every m = 1..N for
every N = 1..n_max.

Wrong twin: (N-m-1) instead of (N-m) (spec.bounds.wrong_bound_E_mass_off_Nminus); refuted for
every N >= 2 and m < N, and each countermodel is replayed in the spec (smt/replay.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import z3

from hardsoft.smt.check import Coverage, Cvc5Query, Expect, SmtCheck
from hardsoft.smt.core import Abs, R, Sum, Verdict, check_size, check_timeout, declare_reals, prove, reals, search
from hardsoft.smt.runs import CheckRun, run_sizes

#: Largest length N accepted by the E checks (each query has 2N + 6 variables).
MAX_N_E: int = 512


def encode_E(N: int, m: int) -> dict[str, Any]:
    """Return the variables and hypotheses (statement + exp facts F1-F3) of statement E for (N, m)."""
    s = reals("s", N)
    E = reals("E", N)
    smax, gamma, tau, x = z3.Reals("s_max gamma tau x")
    Z, S, delta, pM = z3.Reals("Z S delta p_M")
    hyps: list[z3.BoolRef] = [tau > 0, gamma > 0, x > 0, x < 1]
    for j in range(N):
        if j < m:
            hyps.append(s[j] == smax)
        else:
            hyps.append(smax - s[j] >= gamma)
        # exp facts (core.py): F1 positivity, F2 normalisation, F3 monotonicity at the gap.
        hyps += [E[j] > 0, z3.Implies(s[j] == smax, E[j] == 1), z3.Implies(smax - s[j] >= gamma, E[j] <= x)]
    hyps += [Z == Sum(E), S == Sum(E[m:]) if m < N else S == 0, delta * Z == S, pM * Z == 1]
    return {"s": s, "E": E, "x": x, "tau": tau, "gamma": gamma, "delta": delta, "pM": pM, "hyps": hyps}


def claim_E(N: int, m: int, v: dict[str, Any]) -> z3.BoolRef:
    """Return statement E's conclusion (three inequalities) for the encoding v."""
    x, delta, pM = v["x"], v["delta"], v["pM"]
    k = N - m
    mass = delta * (m + k * x) <= k * x  # delta <= (N-m)x/(m+(N-m)x)
    loose = delta * m <= k * x  # delta <= (N-m)x/m
    l1 = m * Abs(pM - R(1) / m) + delta <= 2 * (N - 1) * x
    return z3.And(mass, loose, l1)


def prove_E(N: int, m: int, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return the verdict of statement E at (N, m) (proved = holds for all real instances)."""
    v = encode_E(N, m)
    return prove(v["hyps"], claim_E(N, m, v), timeout_s=timeout_s, name=f"E_N{N}_m{m}", keep_dir=keep_dir)


def search_E_wrong(N: int, m: int, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return a countermodel search for the wrong twin (N-m-1 instead of N-m) at (N, m).

    Search-only facts: x >= 1/4 keeps the countermodel away from underflow (sound for a search).
    """
    v = encode_E(N, m)
    x, delta = v["x"], v["delta"]
    k = N - m - 1
    violation = delta * (m + k * x) > k * x
    return search(v["hyps"] + [x >= R(Fraction(1, 4))], violation, timeout_s=timeout_s, name=f"E_wrong_N{N}_m{m}", keep_dir=keep_dir)


def check_E(n_max: int, timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return statement E proved for every N <= n_max and every m <= N (one row per N: all m)."""
    n_max = check_size("E: length bound n", n_max, MAX_N_E)
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.E.softmax_vs_hardmax", "E", "proved", size_label="n")
    return run_sizes(run, list(range(1, n_max + 1)), lambda N: [(prove_E(N, m, timeout_s, keep_dir), None) for m in range(1, N + 1)], budget_s)


def check_E_wrong(n_max: int, timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return the wrong twin of E refuted (with replayed countermodels) for every 2 <= N <= n_max, m < N."""
    from hardsoft.smt.replay import replay_E_wrong

    n_max = check_size("E twin: length bound n", n_max, MAX_N_E, minimum=2)
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.E.wrong_Nminus1", "E", "refuted", size_label="n")

    def one(N: int) -> list[tuple[Verdict, dict | None]]:
        out = []
        for m in range(1, N):
            v = search_E_wrong(N, m, timeout_s, keep_dir)
            out.append((v, replay_E_wrong(N, m, v.values) if v.status == "refuted" else None))
        return out

    return run_sizes(run, list(range(2, n_max + 1)), one, budget_s)


# --------------------------------------------------------------------------- cvc5 (native exp)


def query_E(N: int, m: int) -> str:
    """Return statement E at (N, m) for cvc5 with native exp, cross-multiplied, exponents as score differences."""
    off = [f"s{j}" for j in range(m, N)]
    lines = ["(set-logic ALL)", declare_reals(["smax", "g", "tau"] + off), "(assert (> g 0.0))(assert (> tau 0.0))"]
    lines += [f"(assert (<= (- {s} smax) (- g)))" for s in off]
    S = "(+ 0.0 " + " ".join(f"(exp (/ (- {s} smax) tau))" for s in off) + ")"
    x = "(exp (/ (- g) tau))"
    k = N - m
    lines.append(f"(assert (not (<= (* {S} (+ {m}.0 (* {k}.0 {x}))) (* {k}.0 {x} (+ {m}.0 {S})))))")
    lines.append("(check-sat)")
    return "\n".join(lines)


def query_E_wrong(N: int, m: int) -> str:
    """Return the wrong twin of E (N-m-1) for cvc5 with native exp: sat expected."""
    return query_E(N, m).replace(f"(* {N - m}.0 ", f"(* {N - m - 1}.0 ")


def cvc5_E(N: int, st: Mapping[str, Any]) -> list[Cvc5Query]:
    """Return statement E at length N for cvc5 (native exp), one query per max-set size m < N."""
    return [(f"E native exp N={N} m={m}", query_E(N, m), "unsat") for m in range(1, N)]


def cvc5_E_wrong(N: int, st: Mapping[str, Any]) -> list[Cvc5Query]:
    """Return the wrong twin of E at length N, m = 1, for cvc5 (native exp)."""
    return [(f"E twin native exp N={N} m=1", query_E_wrong(N, 1), "sat")]


# --------------------------------------------------------------------------- the checks


def run_E(st: Mapping[str, Any], keep_dir: Path | None) -> CheckRun:
    """Return check_E with a preset's settings."""
    return check_E(st["bound"], st["timeout"], keep_dir, st.get("budget"))


def run_E_wrong(st: Mapping[str, Any], keep_dir: Path | None) -> CheckRun:
    """Return check_E_wrong with a preset's settings."""
    return check_E_wrong(st["bound"], st["timeout"], keep_dir, st.get("budget"))


CHECKS: tuple[SmtCheck, ...] = (
    SmtCheck(
        name="smt.E.softmax_vs_hardmax",
        claim="E",
        expect=Expect.PROVED,
        run=run_E,
        presets={
            "tiny": {"bound": 16, "timeout": 20, "budget": 100, "cvc5": [2, 3, 4], "cvc5_timeout": 10, "yices": [1, 2, 3, 4, 8, 16]},
            "paper": {
                "bound": 64,
                "timeout": 120,
                "budget": 1200,
                "cvc5": [2, 4, 8, 16],
                "cvc5_timeout": 30,
                "yices": [1, 2, 3, 4, 8, 16, 32],
                "yices_budget": 120,
            },
        },
        size_label="n",
        min_size=1,
        max_size=MAX_N_E,
        cover=Coverage(
            varied={"max-set size m": "every 1..n"},
            fixed={"scores, tau, gamma": "symbolic reals (any values)"},
            assumed=("exp abstraction facts F1-F3 (smt/core.py)",),
        ),
        cvc5=cvc5_E,
        cost_rank=1,
    ),
    SmtCheck(
        name="smt.E.wrong_Nminus1",
        claim="E",
        expect=Expect.TWIN,
        run=run_E_wrong,
        presets={
            "tiny": {"bound": 6, "timeout": 10, "budget": 100, "cvc5": [3], "cvc5_timeout": 10},
            "paper": {"bound": 32, "timeout": 60, "budget": 300, "cvc5": [3, 8], "cvc5_timeout": 30},
        },
        size_label="n",
        min_size=2,
        max_size=MAX_N_E,
        cover=Coverage(
            varied={"max-set size m": "every 1..n-1"},
            fixed={"search-only": "x >= 1/4"},
            assumed=("exp abstraction F1-F3; countermodels replayed in the spec",),
        ),
        cvc5=cvc5_E_wrong,
        cost_rank=5,
    ),
)
