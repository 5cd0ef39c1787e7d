"""Turn SMT countermodels back into concrete numbers and replay them in the spec.

Every refutation found by smt/ is only a candidate until it replays: the abstraction of exp
(smt/core.py) has more models than the reals, so each replay rebuilds a real instance
(scores, tau, weights, errors) from the model's numbers, evaluates the WRONG statement with
the spec's own functions, and reports whether the spec confirms the violation.  Every replay
returns a JSON-ready dict with the concrete inputs, the spec's numbers and
``confirmed: bool``.

Conventions: tau = 1 and s_max = 0, so the score of position j is s_j = ln E_j and the gap
is read back from the scores with spec.attention.compute_gap (never taken from the model).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from hardsoft.spec import attention, bounds


def _f(v: Any) -> float:
    """Return a float for JSON output."""
    return float(v)


def replay_E_wrong(N: int, m: int, values: dict[str, float]) -> dict[str, Any]:
    """Statement E's wrong twin: rebuild scores from E_j and check mass off M > wrong bound in the spec."""
    E = [values.get(f"E_{j}", 1.0) for j in range(N)]
    scores = np.array([0.0] * m + [math.log(e) for e in E[m:]])
    tau = 1.0
    gap = attention.compute_gap(scores)
    x = math.exp(-gap / tau) if math.isfinite(gap) else 0.0
    mass = attention.compute_mass_off_max_set(scores, tau)
    mass_exact = float(attention.compute_mass_off_max_set_exact(scores, tau))
    wrong = bounds.wrong_bound_E_mass_off_Nminus(N, m, x)
    right = bounds.bound_E_mass_off(N, m, x)
    return {
        "scores": scores.tolist(),
        "tau": tau,
        "N": N,
        "m": m,
        "gap": _f(gap),
        "x": x,
        "mass_off_max_set": mass,
        "mass_off_max_set_mpmath": mass_exact,
        "wrong_bound_E_mass_off_Nminus": wrong,
        "bound_E_mass_off": right,
        "confirmed": bool(mass_exact > wrong and mass > wrong and len(attention.max_set(scores)) == m),
    }


def replay_Z_wrong(N: int, values: dict[str, float]) -> dict[str, Any]:
    """Statement Z's wrong twin: rebuild ziggurat scores from E_k and check mass off top > short-series bound."""
    E = [values.get(f"E_{k}", 1.0) for k in range(N)]
    scores = np.array([0.0] + [math.log(e) for e in E[1:]])
    tau = 1.0
    # The largest step gamma for which these scores are a ziggurat: min_k (s_1 - s_k)/(k-1).
    gamma = min((scores[0] - scores[k]) / k for k in range(1, N))
    x = math.exp(-gamma / tau)
    mass = attention.compute_mass_off_max_set(scores, tau)
    mass_exact = float(attention.compute_mass_off_max_set_exact(scores, tau))
    wrong = bounds.wrong_bound_Z_mass_off_top_short(N, x)
    right = bounds.bound_Z_mass_off_top(N, x)
    return {
        "scores": scores.tolist(),
        "tau": tau,
        "N": N,
        "gamma": gamma,
        "x": x,
        "is_ziggurat": bounds.is_ziggurat(scores, gamma * (1 - 1e-12)),
        "mass_off_top": mass,
        "mass_off_top_mpmath": mass_exact,
        "wrong_bound_Z_mass_off_top_short": wrong,
        "bound_Z_mass_off_top": right,
        "confirmed": bool(mass_exact > wrong and mass > wrong and gamma > 0),
    }


def softmax_l1(a: np.ndarray, b: np.ndarray, tau: float) -> float:
    """Return ||softmax_tau(a) - softmax_tau(b)||_1 with the spec's softmax."""
    return float(np.abs(attention.softmax(a, tau) - attention.softmax(b, tau)).sum())


def replay_S_wrong(n: int, values: dict[str, float]) -> dict[str, Any]:
    """Statement S's wrong twin (||a-b||_inf/(2 tau)): rebuild tau = 1, a_j = ln p_j, b_j = ln q_j - ln(y v)."""
    p = np.array([values[f"p_{j}"] for j in range(n)])
    q = np.array([values[f"q_{j}"] for j in range(n)])
    tau = 1.0
    a = np.log(p)
    b = np.log(q) - math.log(values["y"] * values["v"])
    l1 = softmax_l1(a, b, tau)
    wrong = bounds.wrong_bound_S_l1_half(a, b, tau)
    right = bounds.bound_S_l1(a, b, tau)
    return {
        "a": a.tolist(),
        "b": b.tolist(),
        "tau": tau,
        "l1_softmax_distance": l1,
        "wrong_bound_S_l1_half": wrong,
        "bound_S_l1": right,
        "confirmed": bool(l1 > wrong and l1 <= right * (1 + 1e-12)),
    }


def replay_score_unguarded(d: int, values: dict[str, float]) -> dict[str, Any]:
    """Erratum 3 in Lemma 25's score step: rebuild x_i, x_j, x'_i, x'_j, A and compare to the unguarded bound."""
    A = np.array([[values[f"A_{k}_{l}"] for l in range(d)] for k in range(d)])
    xi = np.array([values[f"xi_{k}"] for k in range(d)])
    xj = np.array([values[f"xj_{k}"] for k in range(d)])
    xpi = np.array([values[f"xpi_{k}"] for k in range(d)])
    xpj = np.array([values[f"xpj_{k}"] for k in range(d)])
    X = max(float(np.max(np.abs(np.concatenate([xi, xj])))), 0.0)
    eps = float(max(np.max(np.abs(xpi - xi)), np.max(np.abs(xpj - xj))))
    err = abs(float(xpi @ A @ xpj) - float(xi @ A @ xj))
    A_sum = float(np.abs(A).sum())
    wrong = bounds.wrong_score_error_bound_unguarded(A_sum, X, eps)
    exact = bounds.compute_score_error_exact_bound(A_sum, X, eps)
    try:
        bounds.compute_score_error_bound(A_sum, X, eps)
        guard_refuses = False
    except ValueError:
        guard_refuses = True
    return {
        "A": A.tolist(),
        "x_i": xi.tolist(),
        "x_j": xj.tolist(),
        "x'_i": xpi.tolist(),
        "x'_j": xpj.tolist(),
        "X": X,
        "eps": eps,
        "A_sum": A_sum,
        "score_error": err,
        "wrong_score_error_bound_unguarded": wrong,
        "compute_score_error_exact_bound": exact,
        "spec_guard_refuses_eps": guard_refuses,
        "confirmed": bool(err > wrong and eps > 1.0 and guard_refuses),
    }


def replay_bootstrap_unguarded(L: int, values: dict[str, float]) -> dict[str, Any]:
    """Statement C without B_L <= 1: rebuild r_l, a_l, e_l and check guarded steps hold yet some e_l > B_l."""
    r = [values[f"r_{l}"] for l in range(1, L + 1)]
    a = [values[f"a_{l}"] for l in range(1, L + 1)]
    e = [0.0] + [values[f"e_{l}"] for l in range(1, L + 1)]
    B = bounds.compute_recursion(r, a)
    steps_ok = bounds.is_guarded_step_sequence(e, r, a)
    worst = max(range(L + 1), key=lambda l: e[l] - B[l])
    return {
        "r": r,
        "a": a,
        "e": e,
        "B": B,
        "is_guarded_step_sequence": steps_ok,
        "violated_at_layer": worst,
        "e_l": e[worst],
        "B_l": B[worst],
        "is_bootstrap_ok(B_L, 1)": bounds.is_bootstrap_ok(B[-1], 1.0),
        "confirmed": bool(steps_ok and e[worst] > B[worst] and not bounds.is_bootstrap_ok(B[-1], 1.0)),
    }


def replay_monotone_wrong(L: int, values: dict[str, float]) -> dict[str, Any]:
    """Statement C's monotonicity without r_l >= 1: rebuild r_l, a_l and find B_l < B_(l-1) in the spec."""
    r = [values[f"r_{l}"] for l in range(1, L + 1)]
    a = [values[f"a_{l}"] for l in range(1, L + 1)]
    B = bounds.compute_recursion(r, a)
    drops = [l for l in range(1, L + 1) if B[l] < B[l - 1]]
    return {"r": r, "a": a, "B": B, "decreasing_at": drops, "confirmed": bool(drops and all(x >= 0 for x in a) and all(x > 0 for x in r))}


def replay_offset_plus(values: dict[str, float], N: int) -> dict[str, Any]:
    """Erratum 1: rebuild K, X, gamma, tau, eps and show the printed offset exceeds eps where the corrected one does not."""
    K, X, gamma, eps, t = (values[k] for k in ("K", "X", "gamma", "eps", "t"))
    tau = gamma / t
    plus = bounds.erratum_offset_plus(K, X, N, gamma, tau)
    minus = bounds.compute_offset(K, X, N, gamma, tau)
    # The temperature choice of the proof: exp(gamma/tau) >= K X N / eps.
    chosen = math.exp(gamma / tau) >= K * X * N / eps * (1 - 1e-12)
    return {
        "K": K,
        "X": X,
        "N": N,
        "gamma": gamma,
        "tau": tau,
        "eps": eps,
        "tau_choice_exp(gamma/tau)>=KXN/eps": chosen,
        "erratum_offset_plus": plus,
        "compute_offset": minus,
        "confirmed": bool(chosen and plus > eps and minus <= eps * (1 + 1e-12)),
    }


def replay_bootstrap_eps(L: int, values: dict[str, float]) -> dict[str, Any]:
    """Erratum 3 in Theorem 26: B_L <= eps accepted for eps > 1 (spec wrong_bootstrap_unguarded), yet e_L > eps."""
    r = [values[f"r_{l}"] for l in range(1, L + 1)]
    a = [values[f"a_{l}"] for l in range(1, L + 1)]
    e = [0.0] + [values[f"e_{l}"] for l in range(1, L + 1)]
    eps = values["eps"]
    B = bounds.compute_recursion(r, a)
    steps_ok = bounds.is_guarded_step_sequence(e, r, a)
    accepted = bounds.wrong_bootstrap_unguarded(B[-1], eps)
    fixed = bounds.is_bootstrap_ok(B[-1], min(eps, 1.0))
    return {
        "r": r,
        "a": a,
        "e": e,
        "B": B,
        "eps": eps,
        "is_guarded_step_sequence": steps_ok,
        "wrong_bootstrap_unguarded(B_L, eps)": accepted,
        "is_bootstrap_ok(B_L, min(eps,1))": fixed,
        "e_L": e[-1],
        "confirmed": bool(steps_ok and accepted and not fixed and e[-1] > eps),
    }


def replay_ZU_wrong(N: int, regime: str, values: dict[str, float]) -> dict[str, Any]:
    """Claim ZU's wrong twin (mass off <= 1/(32 m)): rebuild the N scores from E_k at the compiler's REAL constants and check in the spec.

    m and n come from the model; L = ln(16 m) (spec.constants.ZU_MASS_DIVISOR), and the rule (spec.bounds.compute_zu_rule) gives tau
    and the gap; the scores are s_k = tau ln E_k (s_0 = 0).  Confirmed when they form a ziggurat of step gap
    (spec.bounds.is_ziggurat) and their softmax mass off the top (spec.attention, float64 and mpmath) exceeds 1/(32 m) while
    staying <= 1/(16 m), the statement itself.
    """
    from hardsoft.spec.constants import ZU_MASS_DIVISOR

    m, n = values.get("m", 1.0), values.get("n", 1.0)
    rule = bounds.compute_zu_rule(regime, math.log(ZU_MASS_DIVISOR * round(m)), round(n))
    tau, gap = rule["tau"], rule["gap"]
    E = [values.get(f"E_{k}", 1.0) for k in range(N)]
    scores = np.array([0.0] + [tau * math.log(e) for e in E[1:]])
    mass = attention.compute_mass_off_max_set(scores, tau)
    mass_exact = float(attention.compute_mass_off_max_set_exact(scores, tau))
    right, wrong = 1.0 / (ZU_MASS_DIVISOR * m), 1.0 / (2 * ZU_MASS_DIVISOR * m)
    zig = bounds.is_ziggurat(scores, gap * (1 - 1e-9))
    return {
        "N": N,
        "regime": regime,
        "m": m,
        "n": n,
        "K": rule["K"],
        "c": rule["c"],
        "tau": tau,
        "gap": gap,
        "scores": scores.tolist(),
        "is_ziggurat(step gap)": zig,
        "mass_off_top": mass,
        "mass_off_top_mpmath": mass_exact,
        "bound_1/(16m)": right,
        "wrong_bound_1/(32m)": wrong,
        "confirmed": bool(m == round(m) and n == round(n) and zig and mass_exact > wrong and mass > wrong and mass_exact <= right * (1 + 1e-12)),
    }


def replay_PREC_wrong(N: int, values: dict[str, str]) -> dict[str, Any]:
    """Claim PREC's wrong twin (the rounded step gamma - u/2): rebuild s, r, gamma, u EXACTLY and check in the spec.

    Confirmed when s is a ziggurat of step gamma, every |r_k - s_k| <= u/2, r is a ziggurat of step gamma - u (the statement)
    but not of step gamma - u/2 (spec.bounds.is_ziggurat, and exactly in Fractions), and the softmax at tau = u/8 (the
    replay's choice) shows what the twin would claim: the rounded scores' mass off the top (mpmath) exceeds
    exp(-(gamma - u/2)/tau) while staying <= exp(-(gamma - u)/tau), statement Z at the rounded step.
    """
    from fractions import Fraction

    def fr(name: str) -> Fraction:
        return Fraction(values[name].rstrip("?"))

    s = [fr(f"s_{k}") for k in range(N)]
    r = [fr(f"r_{k}") for k in range(N)]
    gamma, u = fr("gamma"), fr("u")
    tau = float(u) / 8
    step_ok = all(r[0] - r[k] >= k * (gamma - u) for k in range(1, N))
    half_fails = any(r[0] - r[k] < k * (gamma - u / 2) for k in range(1, N))
    rounded_ok = all(2 * abs(r[k] - s[k]) <= u for k in range(N))
    s_zig = all(s[0] - s[k] >= k * gamma for k in range(1, N))
    rf = np.array([float(x) for x in r])
    mass_exact = float(attention.compute_mass_off_max_set_exact(rf, tau))
    wrong, right = math.exp(-float(gamma - u / 2) / tau), math.exp(-float(gamma - u) / tau)
    spec_zig = bounds.is_ziggurat(np.array([float(x) for x in s]), float(gamma) * (1 - 1e-12))
    spec_r = bounds.is_ziggurat(rf, float(gamma - u) * (1 - 1e-12)) and not bounds.is_ziggurat(rf, float(gamma - u / 2))
    return {
        "N": N,
        "s": [str(x) for x in s],
        "r": [str(x) for x in r],
        "gamma": str(gamma),
        "u": str(u),
        "tau (replay's choice u/8)": tau,
        "r is a ziggurat of step gamma - u": step_ok,
        "r is no ziggurat of step gamma - u/2": half_fails,
        "spec is_ziggurat (s at gamma; r at gamma - u, not gamma - u/2)": bool(spec_zig and spec_r),
        "mass_off_top(r)_mpmath": mass_exact,
        "exp(-(gamma - u/2)/tau)": wrong,
        "exp(-(gamma - u)/tau)": right,
        "confirmed": bool(
            u > 0 and s_zig and rounded_ok and step_ok and half_fails and spec_zig and spec_r and wrong < mass_exact <= right * (1 + 1e-12)
        ),
    }
