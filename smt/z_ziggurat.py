"""Statement Z (corresponds to Lemma 6, the ziggurat lemma): geometric decay of softmax weights.

If the scores sorted downwards satisfy s_(1) - s_(k) >= (k-1) gamma (k = 1..N), x = exp(-gamma/tau):

    mass off the top  <= (x - x^N)/(1 - x^N) <= x,
    weight of the top >= (1 - x)/(1 - x^N).

Encoding (exp abstraction of smt/core.py, facts F1, F2, F4): sorted scores s_1 >= ... >= s_N
with the ziggurat hypothesis; E_k stands for exp((s_k - s_1)/tau), with E_1 = 1, E_k > 0 and
E_k <= P_k where P_1 = 1, P_(k+1) = x P_k define P_k = x^(k-1) exactly; Q = x P_N = x^N.
The mass off the top delta and the top weight w are defined by delta Z = sum_{k>=2} E_k and
w Z = 1 with Z = sum E_k.  Fractions are cross-multiplied by their positive denominators.

The geometric sum sum_{k=2}^N P_k (1 - x) = x - x^N is a polynomial identity of the chain;
it is stated as an extra hypothesis only after being PROVED by its own Z3 query (lemma
``telescoping``, see prove_Z), so the main query stays linear in the E_k.

Wrong twin: the geometric series summed over N-1 positions instead of N
(spec.bounds.wrong_bound_Z_mass_off_top_short), false at the staircase s_(k) = s_(1) - (k-1) gamma.

Claim ZU (Lemma 6 as the temporal-logic compiler uses it): statement Z at the compiler's temperature rule.
With m the most approximate leaves of one Boolean node and L = ln(16 m) (16 = spec.constants.ZU_MASS_DIVISOR,
the constant constructive.logic.compiler's ``_score_scale`` reads), the rule is
  bounded:   K = 1, c = 1/L, tau = c/n, gap = K/n  (every tie-breaking head),
  unbounded: K = L, c = 1,   tau = 1,   gap = K    (tie-breaking and one-sided lookup heads),
so gap/tau = L in both and x = exp(-gap/tau) = 1/(16 m) (fact F7 of smt/core.py).  For N visible keys
whose sorted scores form a ziggurat of step gap (what smt.L8.* and smt.L7.parabola prove of these heads'
scores, and Lean for every n), the mass off the top is <= 1/(16 m): per N and regime three queries, the
rule lemma gap = L tau (from the rule's equations, for every n >= 1 and m >= 1), Z's telescoping lemma,
and the claim 16 m delta <= 1 from Z's hypotheses, the rule, F7 and both lemmas; m and n are symbolic reals
(every m >= 1 and n >= 1 at once).  Wrong twin: mass off <= 1/(32 m), refuted at the staircase (search-only
facts E_k = x^k, m = N - 1, n = N + 1) and replayed at the compiler's real constants (smt.replay.replay_ZU_wrong).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import z3

from hardsoft.smt.check import Coverage, Cvc5Query, Expect, SmtCheck
from hardsoft.smt.core import PROVED, R, Sum, Verdict, check_size, check_timeout, prove, reals, search, search_to_smt2, to_smt2
from hardsoft.smt.runs import CheckRun, run_sizes
from hardsoft.spec.constants import ZU_MASS_DIVISOR, ZU_REGIMES

#: Largest length N accepted by the Z checks.
MAX_N_Z: int = 512


def encode_Z(N: int) -> dict[str, Any]:
    """Return the variables and hypotheses (statement + exp facts) of statement Z at length N."""
    s = reals("s", N)
    E = reals("E", N)
    P = reals("P", N + 1)  # P[k] = x^k, k = 0..N  (P_(k+1) in the docstring's 1-based notation)
    gamma, tau, x, Z, S, T, delta, w = z3.Reals("gamma tau x Z S T delta w")
    hyps: list[z3.BoolRef] = [tau > 0, gamma > 0, x > 0, x < 1, P[0] == 1]
    hyps += [P[k + 1] == x * P[k] for k in range(N)]
    for k in range(N):
        if k > 0:
            hyps.append(s[k - 1] >= s[k])
        hyps.append(s[0] - s[k] >= k * gamma)  # ziggurat hypothesis
        # exp facts: F1 positivity, F2 normalisation, F4 E_k <= x^k (0-based k).
        hyps += [E[k] > 0, z3.Implies(s[k] == s[0], E[k] == 1), z3.Implies(s[0] - s[k] >= k * gamma, E[k] <= P[k])]
    hyps += [Z == Sum(E), S == (Sum(E[1:]) if N > 1 else R(0)), delta * Z == S, w * Z == 1]
    hyps += [T == (Sum(P[1:N]) if N > 1 else R(0))]
    return {"s": s, "E": E, "P": P, "x": x, "T": T, "delta": delta, "w": w, "gamma": gamma, "tau": tau, "hyps": hyps, "N": N}


def telescoping(v: dict[str, Any]) -> z3.BoolRef:
    """Return the geometric-sum identity T (1 - x) = x - x^N (T = x + ... + x^(N-1))."""
    N = v["N"]
    return v["T"] * (1 - v["x"]) == v["x"] - v["P"][N] if N > 1 else v["T"] == 0


def claim_Z(v: dict[str, Any]) -> z3.BoolRef:
    """Return statement Z's conclusion for the encoding v (cross-multiplied, denominators > 0)."""
    x, Q, delta, w = v["x"], v["P"][v["N"]], v["delta"], v["w"]
    return z3.And(delta * (1 - Q) <= x - Q, x - Q <= x * (1 - Q), w * (1 - Q) >= 1 - x)


def prove_Z(N: int, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return the verdict of statement Z at length N: first the telescoping lemma, then the claim using it.

    Both are Z3 queries; the claim's verdict is "proved" only if the lemma was proved too.
    """
    v = encode_Z(N)
    lem = prove(v["hyps"], telescoping(v), timeout_s=timeout_s, name=f"Z_lemma_N{N}", keep_dir=keep_dir)
    if lem.status != PROVED:
        return lem
    main = prove(v["hyps"] + [telescoping(v)], claim_Z(v), timeout_s=timeout_s, name=f"Z_N{N}", keep_dir=keep_dir)
    main.seconds += lem.seconds
    return main


def search_Z_wrong(N: int, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return a countermodel search for the wrong twin: mass off top > (x - x^(N-1))/(1 - x^(N-1)).

    Search-only facts: x is FIXED to the rational 1 - 1/(N+1) (so x^N ~ e^{-1} is not lost in float64,
    the twin's error, of order x^(N-1) (1 - x), stays visible in the replay, and the query becomes
    linear in the E_k), and the violation must exceed the twin's bound by x^N / (8 N^2) (the real
    excess is about (1 - 1/e)/N^2).
    """
    v = encode_Z(N)
    x, P, delta = v["x"], v["P"], v["delta"]
    Q1 = P[N - 1]
    xv = 1 - Fraction(1, N + 1)
    margin = xv**N / (8 * N * N)
    violation = delta * (1 - Q1) > x - Q1 + R(margin)
    return search(v["hyps"] + [x == R(xv)], violation, timeout_s=timeout_s, name=f"Z_wrong_N{N}", keep_dir=keep_dir)


def check_Z(n_max: int, timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None, explore: list[int] | None = None) -> CheckRun:
    """Return statement Z proved for every N <= n_max (explore: larger sizes for the scaling table only)."""
    n_max = check_size("Z: length bound n", n_max, MAX_N_Z)
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.Z.ziggurat", "Z", "proved", size_label="n")
    return run_sizes(
        run,
        list(range(1, n_max + 1)),
        lambda N: [(prove_Z(N, timeout_s, keep_dir), None)],
        budget_s,
        explore=[check_size("Z: explore size", e, MAX_N_Z) for e in (explore or [])],
    )


def check_Z_wrong(n_max: int, timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return the wrong twin of Z refuted, with replayed countermodels, for every 3 <= N <= n_max.

    (For N = 2 the twin's bound degenerates to 0/0; the spec clamps it, so sizes start at 3.)
    """
    from hardsoft.smt.replay import replay_Z_wrong

    n_max = check_size("Z twin: length bound n", n_max, MAX_N_Z, minimum=3)
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.Z.wrong_short_series", "Z", "refuted", size_label="n")

    def one(N: int) -> list[tuple[Verdict, dict | None]]:
        v = search_Z_wrong(N, timeout_s, keep_dir)
        return [(v, replay_Z_wrong(N, v.values) if v.status == "refuted" else None)]

    return run_sizes(run, list(range(3, n_max + 1)), one, budget_s)


# --------------------------------------------------------------------------- ZU: statement Z at the compiler's temperature rule

#: Largest number of keys N accepted by the ZU checks.
MAX_N_ZU: int = 128


def zu_rule_residuals(regime: str, v: Mapping[str, Any]) -> list[Any]:
    """Return spec.bounds.compute_zu_rule as residuals (each 0 exactly when the rule holds) of v["K"], v["c"], v["tau"], v["gamma"], v["L"], v["n"].

    Cross-multiplied: bounded K - 1, c L - 1, tau n - c, gap n - K; unbounded K - L, c - 1, tau - 1, gap - K.  Z3 terms or numbers.
    """
    K, c, tau, gap, L, n = (v[k] for k in ("K", "c", "tau", "gamma", "L", "n"))
    if regime == "bounded":
        return [K - 1, c * L - 1, tau * n - c, gap * n - K]
    if regime == "unbounded":
        return [K - L, c - 1, tau - 1, gap - K]
    raise ValueError(f"regime must be one of {ZU_REGIMES}, got {regime!r}")


def encode_ZU(N: int, regime: str, divisor: int = ZU_MASS_DIVISOR) -> dict[str, Any]:
    """Return statement Z at length N (encode_Z) with the compiler's rule in one regime and fact F7 (x = 1/(divisor m) where gap = L tau).

    ``rule`` holds the rule's hypotheses alone (n >= 1, m >= 1, L > 0 and zu_rule_residuals = 0); ``hyps`` Z's, the rule's and F7.
    """
    v = encode_Z(N)
    m, L, c, K, n = z3.Reals("m L c K n")
    v.update(m=m, L=L, c=c, K=K, n=n, regime=regime)
    rule = [n >= 1, m >= 1, L > 0] + [res == 0 for res in zu_rule_residuals(regime, v)]
    fact = z3.Implies(v["gamma"] == L * v["tau"], divisor * m * v["x"] == 1)  # F7: exp(-ln(divisor m)) = 1/(divisor m)
    v.update(rule=rule, hyps=v["hyps"] + rule + [fact])
    return v


def rule_lemma(v: Mapping[str, Any]) -> z3.BoolRef:
    """Return the rule's consequence gap = L tau (gap/tau = 1/c = K = L = ln(16 m))."""
    return v["gamma"] == v["L"] * v["tau"]


def claim_ZU(v: Mapping[str, Any], divisor: int = ZU_MASS_DIVISOR) -> z3.BoolRef:
    """Return ZU's conclusion: the mass off the top is <= 1/(divisor m) (cross-multiplied)."""
    return divisor * v["m"] * v["delta"] <= 1


def prove_ZU(N: int, timeout_s: float, keep_dir: Path | None = None) -> list[Verdict]:
    """Return ZU's verdicts at N keys, one per regime: the rule lemma, Z's telescoping lemma, then the claim using both.

    A regime's verdict is "proved" only if all three queries are.
    """
    out = []
    for regime in ZU_REGIMES:
        v = encode_ZU(N, regime)
        rule = prove(v["rule"], rule_lemma(v), timeout_s=timeout_s, name=f"ZU_rule_{regime}_N{N}", keep_dir=keep_dir)
        if rule.status != PROVED:
            out.append(rule)
            continue
        zv = encode_Z(N)
        lem = prove(zv["hyps"], telescoping(zv), timeout_s=timeout_s, name=f"ZU_lemma_{regime}_N{N}", keep_dir=keep_dir)
        if lem.status != PROVED:
            out.append(lem)
            continue
        main = prove(v["hyps"] + [rule_lemma(v), telescoping(v)], claim_ZU(v), timeout_s=timeout_s, name=f"ZU_{regime}_N{N}", keep_dir=keep_dir)
        main.seconds += rule.seconds + lem.seconds
        out.append(main)
    return out


def zu_twin_m(N: int) -> int:
    """Return the size m of the twin's search at N keys (search-only: m = N - 1, so the searches cover m = 1, 2, ...)."""
    return max(1, N - 1)


def search_ZU_wrong(N: int, regime: str, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return a countermodel search for ZU's twin (mass off > 1/(32 m)) at N keys in one regime.

    Search-only facts (true in the instance the replay builds): the staircase E_k = x^k, m = zu_twin_m(N), n = N + 1.
    """
    v = encode_ZU(N, regime)
    staircase = [v["E"][k] == v["P"][k] for k in range(N)]
    violation = z3.Not(claim_ZU(v, 2 * ZU_MASS_DIVISOR))
    return search(
        v["hyps"] + [rule_lemma(v)] + staircase + [v["m"] == zu_twin_m(N), v["n"] == N + 1],
        violation,
        timeout_s=timeout_s,
        name=f"ZU_wrong_{regime}_N{N}",
        keep_dir=keep_dir,
    )


def check_ZU(n_max: int, timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return ZU proved for every N <= n_max keys, both regimes, every m >= 1 and n >= 1."""
    n_max = check_size("ZU: number of keys N", n_max, MAX_N_ZU)
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.ZU.rule_mass_off", "ZU", "proved", size_label="N")
    return run_sizes(run, list(range(1, n_max + 1)), lambda N: [(v, None) for v in prove_ZU(N, timeout_s, keep_dir)], budget_s)


def check_ZU_wrong(n_max: int, timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return ZU's twin (1/(32 m)) refuted for every 2 <= N <= n_max keys, both regimes, every countermodel replayed.

    (N = 1: one key, no mass off, so the twin holds there.)
    """
    from hardsoft.smt.replay import replay_ZU_wrong

    n_max = check_size("ZU twin: number of keys N", n_max, MAX_N_ZU, minimum=2)
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.ZU.wrong_thirty_second", "ZU", "refuted", size_label="N")

    def one(N: int) -> list[tuple[Verdict, dict | None]]:
        out = []
        for regime in ZU_REGIMES:
            v = search_ZU_wrong(N, regime, timeout_s, keep_dir)
            out.append((v, replay_ZU_wrong(N, regime, v.values) if v.status == "refuted" else None))
        return out

    return run_sizes(run, list(range(2, n_max + 1)), one, budget_s)


# --------------------------------------------------------------------------- cvc5 (the abstraction)


def cvc5_Z(N: int, st: Mapping[str, Any]) -> list[Cvc5Query]:
    """Return statement Z at length N for cvc5: the abstraction with the (proved) telescoping lemma."""
    v = encode_Z(N)
    return [(f"Z abstraction N={N}", to_smt2(v["hyps"] + [telescoping(v)], claim_Z(v)), "unsat")]


def cvc5_Z_wrong(N: int, st: Mapping[str, Any]) -> list[Cvc5Query]:
    """Return the wrong twin of Z at length N for cvc5 (the abstraction, without the search-only facts)."""
    v = encode_Z(N)
    Q1 = v["P"][N - 1]
    return [(f"Z twin abstraction N={N}", search_to_smt2(v["hyps"], v["delta"] * (1 - Q1) > v["x"] - Q1), "sat")]


# --------------------------------------------------------------------------- the checks


def run_Z(st: Mapping[str, Any], keep_dir: Path | None) -> CheckRun:
    """Return check_Z with a preset's settings."""
    return check_Z(st["bound"], st["timeout"], keep_dir, st.get("budget"), st.get("explore"))


def run_Z_wrong(st: Mapping[str, Any], keep_dir: Path | None) -> CheckRun:
    """Return check_Z_wrong with a preset's settings."""
    return check_Z_wrong(st["bound"], st["timeout"], keep_dir, st.get("budget"))


def run_ZU(st: Mapping[str, Any], keep_dir: Path | None) -> CheckRun:
    """Return check_ZU with a preset's settings."""
    return check_ZU(st["bound"], st["timeout"], keep_dir, st.get("budget"))


def run_ZU_wrong(st: Mapping[str, Any], keep_dir: Path | None) -> CheckRun:
    """Return check_ZU_wrong with a preset's settings."""
    return check_ZU_wrong(st["bound"], st["timeout"], keep_dir, st.get("budget"))


CHECKS: tuple[SmtCheck, ...] = (
    SmtCheck(
        name="smt.Z.ziggurat",
        claim="Z",
        expect=Expect.PROVED,
        run=run_Z,
        presets={
            "tiny": {"bound": 16, "timeout": 20, "budget": 100, "cvc5": [], "cvc5_timeout": 5, "yices": [1, 2, 3, 4, 8, 16]},
            "paper": {
                "bound": 96,
                "timeout": 120,
                "budget": 600,
                "explore": [112, 128],
                "cvc5": [4, 8],
                "cvc5_timeout": 30,
                "yices": [1, 2, 3, 4, 8, 16, 32],
                "yices_budget": 120,
            },
        },
        size_label="n",
        min_size=1,
        max_size=MAX_N_Z,
        cover=Coverage(
            fixed={"scores, tau, gamma": "symbolic reals"},
            assumed=("exp abstraction F1, F2, F4", "geometric-sum lemma proved by its own Z3 query at each n"),
        ),
        cvc5=cvc5_Z,
        cost_rank=4,
    ),
    SmtCheck(
        name="smt.Z.wrong_short_series",
        claim="Z",
        expect=Expect.TWIN,
        run=run_Z_wrong,
        presets={
            "tiny": {"bound": 8, "timeout": 10, "budget": 100, "cvc5": [], "cvc5_timeout": 5},
            "paper": {"bound": 64, "timeout": 60, "budget": 300, "cvc5": [4, 8], "cvc5_timeout": 30},
        },
        size_label="n",
        min_size=3,
        max_size=MAX_N_Z,
        cover=Coverage(fixed={"search-only": "x = 1 - 1/(n+1), violation margin x^n/(8n^2)"}, assumed=("countermodels replayed in the spec",)),
        cvc5=cvc5_Z_wrong,
    ),
    SmtCheck(
        name="smt.ZU.rule_mass_off",
        claim="ZU",
        expect=Expect.PROVED,
        run=run_ZU,
        presets={
            "tiny": {"bound": 16, "timeout": 20, "budget": 120, "cvc5": [], "cvc5_timeout": 5, "yices": [1, 2, 3, 4, 8]},
            "paper": {"bound": 64, "timeout": 120, "budget": 600, "cvc5": [], "cvc5_timeout": 30, "yices": [1, 2, 3, 4, 8, 16], "yices_budget": 120},
        },
        size_label="N",
        min_size=1,
        max_size=MAX_N_ZU,
        cover=Coverage(
            varied={
                "m (approximate leaves of one Boolean node)": "every real m >= 1 (symbolic)",
                "n (length)": "every real n >= 1 (symbolic)",
                "regime": "bounded (tau = c/n, gap 1/n, c = 1/ln(16 m)) and unbounded (tau = 1, gap K = ln(16 m)), one query set each",
            },
            fixed={"scores": "any N scores whose sorted order is a ziggurat of step gap (symbolic reals)", "16": "spec.constants.ZU_MASS_DIVISOR"},
            assumed=(
                "exp abstraction F1, F2, F4, F7",
                "the rule lemma gap = L tau and Z's geometric-sum lemma, each proved by its own Z3 query at each N",
                "the heads' scores form a ziggurat of step gap: proved by smt.L8.* (tie-breaking) and smt.L7.parabola (one-sided lookup), "
                "and by Lean for every n; the rule's transcription spec.bounds.compute_zu_rule tied to compiled formulas by "
                "tests/smt/test_prec_zu_smt.py",
            ),
        ),
        cost_rank=5,
    ),
    SmtCheck(
        name="smt.ZU.wrong_thirty_second",
        claim="ZU",
        expect=Expect.TWIN,
        run=run_ZU_wrong,
        presets={
            "tiny": {"bound": 8, "timeout": 10, "budget": 100, "cvc5": [], "cvc5_timeout": 5},
            "paper": {"bound": 32, "timeout": 60, "budget": 300, "cvc5": [], "cvc5_timeout": 30},
        },
        size_label="N",
        min_size=2,
        max_size=MAX_N_ZU,
        cover=Coverage(
            fixed={"search-only": "the staircase E_k = x^k, m = N - 1, n = N + 1", "regime": "both, one search each"},
            assumed=("countermodels replayed in the spec at the compiler's real constants (c = 1/ln(16 m), K = ln(16 m))",),
        ),
    ),
)
