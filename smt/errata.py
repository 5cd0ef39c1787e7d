"""Errata of the paper as SMT checks: each printed form refuted with a countermodel the spec replays.

ERR1 (proof of Theorem 26): the additive offset printed as a = K x_max n e^{+gamma/tau} and used
as if it were small.  With t = gamma/tau > 0, Ep standing for e^{+t} and Em for e^{-t} (exp facts
F1 and F6 of smt/core.py: Ep Em = 1, Ep >= 1 + t, Em > 0), and the proof's temperature choice
Ep eps >= K X N (i.e. 1/tau >= (1/gamma) ln(K X N / eps)):

* the corrected offset K X N Em <= eps is PROVED (smt.ERR1.offset_minus_ok, claim ERR1);
* the printed offset K X N Ep <= eps is REFUTED (smt.ERR1.offset_plus), and its countermodel is
  replayed with spec.bounds.erratum_offset_plus / compute_offset.  Also proved on the way:
  K X N Ep >= K X N, so the printed offset never drops below K x_max n, whatever tau.

ERR3 (Lemma 25 used without its eps <= 1 guard) lives next to the statements it breaks:
smt.p_layer.check_ERR3_score (score step) and smt.c_composition.check_ERR3_bootstrap (Theorem 26's
induction with B_L <= eps for eps > 1).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import z3

from hardsoft.smt.core import PROVED, Verdict, check_size, check_timeout, prove, search
from hardsoft.smt.runs import CheckRun, run_sizes

#: Largest N accepted by the ERR1 checks.
MAX_N_ERR1: int = 4096


def encode_offset(N: int) -> dict[str, Any]:
    """Return the variables and hypotheses of erratum 1 at sequence length N."""
    K, X, gamma, eps, t, Ep, Em = z3.Reals("K X gamma eps t Ep Em")
    hyps = [
        K > 0,
        X > 0,
        gamma > 0,
        eps > 0,
        t > 0,
        Em > 0,
        Ep * Em == 1,
        Ep >= 1 + t,  # F1, F6
        Ep * eps >= K * X * N,
    ]  # the proof's temperature choice
    return {"K": K, "X": X, "eps": eps, "Ep": Ep, "Em": Em, "hyps": hyps, "N": N}


def prove_offset_minus(N: int, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return the verdict of K X N e^{-gamma/tau} <= eps under the proof's temperature choice."""
    v = encode_offset(N)
    return prove(v["hyps"], v["K"] * v["X"] * N * v["Em"] <= v["eps"], timeout_s=timeout_s, name=f"ERR1_minus_N{N}", keep_dir=keep_dir)


def prove_offset_plus_floor(N: int, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return the verdict of K X N e^{+gamma/tau} >= K X N (the printed offset never becomes small)."""
    v = encode_offset(N)
    kxn = v["K"] * v["X"] * N
    return prove(v["hyps"][:-1], kxn * v["Ep"] >= kxn, timeout_s=timeout_s, name=f"ERR1_floor_N{N}", keep_dir=keep_dir)


def search_offset_plus(N: int, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return a countermodel search for the printed claim K X N e^{+gamma/tau} <= eps (violated by >= 1/8)."""
    v = encode_offset(N)
    # Search-only facts keep the numbers moderate.  The abstraction may pick Ep != e^t; the replay
    # recomputes e^{gamma/tau} itself in the spec, so only countermodels that hold for real count.
    # Ep <= 1 + t + t^2/2 <= e^t (search-only): the real e^t is >= the model's Ep, and both the temperature
    # choice (Ep eps >= K X N) and the violation are increasing in Ep, so every model stays a real counterexample.
    t = z3.Real("t")
    hyps = v["hyps"] + [v["eps"] <= 1, v["K"] <= 4, v["X"] <= 4, v["Ep"] <= 1 + t + t * t / 2]
    violation = v["K"] * v["X"] * N * v["Ep"] >= v["eps"] + z3.RealVal("1/8")
    return search(hyps, violation, timeout_s=timeout_s, name=f"ERR1_plus_N{N}", keep_dir=keep_dir)


def err1_sizes(n_max: int, every: bool) -> list[int]:
    """Return the lengths N the ERR1 checks run: every N <= n_max, or the ladder 1, 2, 4, 16, 64, 256, n_max."""
    return list(range(1, n_max + 1)) if every else sorted({1, 2, 4, 16, 64, 256, n_max} & set(range(1, n_max + 1)))


def check_ERR1_minus(n_max: int, timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None, every: bool = False) -> CheckRun:
    """Return the corrected offset (e^{-gamma/tau}) proved small under the temperature choice.

    For every N <= n_max if ``every``, else for the ladder of err1_sizes (the row names the sizes run).
    """
    n_max = check_size("ERR1: length bound n", n_max, MAX_N_ERR1)
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.ERR1.offset_minus_ok", "ERR1", "proved", size_label="n")
    return run_sizes(
        run,
        err1_sizes(n_max, every),
        lambda N: [(prove_offset_minus(N, timeout_s, keep_dir), None), (prove_offset_plus_floor(N, timeout_s, keep_dir), None)],
        budget_s,
    )


def check_ERR1_plus(n_max: int, timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None, every: bool = False) -> CheckRun:
    """Return the printed offset (e^{+gamma/tau}) refuted, with replayed countermodels, for N in a ladder up to n_max."""
    from hardsoft.smt.replay import replay_offset_plus

    n_max = check_size("ERR1: length bound n", n_max, MAX_N_ERR1)
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.ERR1.offset_plus", "ERR1", "refuted", size_label="n")

    def one(N: int):
        v = search_offset_plus(N, timeout_s, keep_dir)
        return [(v, replay_offset_plus(v.values, N) if v.status == "refuted" else None)]

    return run_sizes(run, err1_sizes(n_max, every), one, budget_s)


__all__ = ["PROVED", "check_ERR1_minus", "check_ERR1_plus"]
