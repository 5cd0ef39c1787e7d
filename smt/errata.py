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

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import z3

from hardsoft.smt import c_composition, p_layer
from hardsoft.smt.check import Coverage, Cvc5Query, Expect, SmtCheck
from hardsoft.smt.core import PROVED, Verdict, check_size, check_timeout, declare_reals, prove, search
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


# --------------------------------------------------------------------------- cvc5 (native exp)


def query_ERR1(N: int, plus: bool) -> str:
    """Return erratum 1 for cvc5 with native exp, t = gamma/tau: corrected offset (unsat expected) or printed one (sat expected)."""
    expo = "(exp t)" if plus else "(exp (- t))"
    return "\n".join(
        [
            "(set-logic ALL)",
            declare_reals(["K", "X", "t", "eps"]),
            "(assert (> K 0.0))(assert (> X 0.0))(assert (> t 0.0))(assert (> eps 0.0))",
            f"(assert (>= (* (exp t) eps) (* K X {N}.0)))",
            f"(assert (not (<= (* K X {N}.0 {expo}) eps)))",
            "(check-sat)",
        ]
    )


def cvc5_ERR1_minus(N: int, st: Mapping[str, Any]) -> list[Cvc5Query]:
    """Return the corrected offset at length N for cvc5 (native exp)."""
    return [(f"ERR1 corrected offset native exp N={N}", query_ERR1(N, plus=False), "unsat")]


def cvc5_ERR1_plus(N: int, st: Mapping[str, Any]) -> list[Cvc5Query]:
    """Return the printed offset at length N for cvc5 (native exp)."""
    return [(f"ERR1 printed offset native exp N={N}", query_ERR1(N, plus=True), "sat")]


# --------------------------------------------------------------------------- the checks


def run_ERR1_minus(st: Mapping[str, Any], keep_dir: Path | None) -> CheckRun:
    """Return check_ERR1_minus with a preset's settings."""
    return check_ERR1_minus(st["bound"], st["timeout"], keep_dir, st.get("budget"), st.get("every", False))


def run_ERR1_plus(st: Mapping[str, Any], keep_dir: Path | None) -> CheckRun:
    """Return check_ERR1_plus with a preset's settings."""
    return check_ERR1_plus(st["bound"], st["timeout"], keep_dir, st.get("budget"), st.get("every", False))


def ERR1_sizes(st: Mapping[str, Any]) -> list[int]:
    """Return the lengths an ERR1 check runs with a preset's settings (err1_sizes)."""
    return err1_sizes(st["bound"], st.get("every", False))


def run_ERR3_score(st: Mapping[str, Any], keep_dir: Path | None) -> CheckRun:
    """Return smt.p_layer.check_ERR3_score with a preset's settings."""
    return p_layer.check_ERR3_score(st["bound"], st["timeout"], st["weight_box"], st["act_box"], keep_dir, st.get("budget"))


def run_ERR3_bootstrap(st: Mapping[str, Any], keep_dir: Path | None) -> CheckRun:
    """Return smt.c_composition.check_ERR3_bootstrap with a preset's settings."""
    return c_composition.check_ERR3_bootstrap(st["bound"], st["timeout"], keep_dir, st.get("budget"))


def _err1_presets() -> dict[str, dict[str, Any]]:
    """Return the presets of both ERR1 checks (tiny: every N <= 64; paper: the ladder up to 4096)."""
    return {
        "tiny": {
            "bound": 64,
            "every": True,
            "timeout": 10,
            "budget": 100,
            "cvc5": [4],
            "cvc5_timeout": 4,
            "yices": [1, 2, 3, 4, 8, 16, 32],
        },
        "paper": {"bound": 4096, "timeout": 60, "budget": 120, "cvc5": [4], "cvc5_timeout": 30},
    }


CHECKS: tuple[SmtCheck, ...] = (
    SmtCheck(
        name="smt.ERR1.offset_minus_ok",
        claim="ERR1",
        expect=Expect.PROVED,
        run=run_ERR1_minus,
        presets=_err1_presets(),
        size_label="n",
        min_size=1,
        max_size=MAX_N_ERR1,
        cover=Coverage(fixed={"K, X, gamma, eps, tau": "symbolic reals > 0"}, assumed=("exp abstraction F1, F6",)),
        cvc5=cvc5_ERR1_minus,
        sizes=ERR1_sizes,
    ),
    SmtCheck(
        name="smt.ERR1.offset_plus",
        claim="ERR1",
        expect=Expect.ERRATUM,
        run=run_ERR1_plus,
        presets=_err1_presets(),
        size_label="n",
        min_size=1,
        max_size=MAX_N_ERR1,
        cover=Coverage(fixed={"search-only": "eps <= 1, K <= 4, X <= 4, margin 1/8"}, assumed=("countermodels replayed in the spec",)),
        cvc5=cvc5_ERR1_plus,
        sizes=ERR1_sizes,
    ),
    SmtCheck(
        name="smt.ERR3.score_unguarded",
        claim="ERR3",
        expect=Expect.ERRATUM,
        run=run_ERR3_score,
        presets={
            "tiny": {
                "bound": 3,
                "weight_box": 2.0,
                "act_box": 4.0,
                "timeout": 10,
                "budget": 100,
                "cvc5": [2],
                "cvc5_timeout": 10,
                "yices_timeout": 3,
            },
            "paper": {
                "bound": 8,
                "weight_box": 2.0,
                "act_box": 4.0,
                "timeout": 60,
                "budget": 120,
                "cvc5": [2],
                "cvc5_timeout": 30,
                "yices_timeout": 10,
            },
        },
        size_label="d",
        min_size=1,
        max_size=p_layer.MAX_D_P,
        cover=Coverage(
            fixed={"weight box": "|A_kl| <= 2", "activation box": "X <= 4", "search-only": "eps = 2, x_i = x_j = 0, x'_i = x'_j = (eps, ..., eps)"},
            assumed=("countermodels replayed in the spec",),
        ),
        cvc5=p_layer.cvc5_ERR3_score,
    ),
    SmtCheck(
        name="smt.ERR3.bootstrap_unguarded",
        claim="ERR3",
        expect=Expect.ERRATUM,
        run=run_ERR3_bootstrap,
        presets={
            "tiny": {"bound": 4, "timeout": 10, "budget": 100, "cvc5": [3], "cvc5_timeout": 10},
            "paper": {"bound": 16, "timeout": 60, "budget": 120, "cvc5": [3], "cvc5_timeout": 30},
        },
        size_label="L",
        min_size=2,
        max_size=c_composition.MAX_L_C,
        cover=Coverage(fixed={"search-only": "margin 1/8"}, assumed=("countermodels replayed in the spec",)),
        cvc5=c_composition.cvc5_ERR3_bootstrap,
    ),
)

__all__ = ["CHECKS", "PROVED", "check_ERR1_minus", "check_ERR1_plus"]
