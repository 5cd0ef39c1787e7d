"""The smt family of ``hardsoft check``: the Z3 checks of smt/ with a cvc5 second opinion, run in parallel.

Each check in SMT_CHECKS runs one statement (or wrong twin, or erratum) over growing sizes and
becomes one CheckResult:

* a statement (expected "proved"): OK when Z3 proved every size up to the preset's bound and
  cvc5 did not disagree; UNDECIDED on unknown/timeout (the .smt2 files are kept under
  out_dir/smt/); FAILED if refuted or if cvc5 says sat where Z3 proved.
* a wrong twin or an erratum (expected "refuted"): OK with verdict "refuted-as-expected" only when
  every countermodel replays in the spec (smt/replay.py); a refutation that does not replay, or a
  twin that comes back proved, is FAILED.

cvc5 is an opinion, not the verdict: its "unknown"/"timeout" is reported as such; only a
contradiction (sat for a proved statement, unsat for a refuted twin) fails the check.

Presets: "tiny" (CI: everything under 2 minutes of wall time on 2 cores) and "paper" (as far as
is useful, under 30 minutes).  The bounds of each preset are in PRESETS.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from hardsoft.checks.result import CheckResult, Outcome

#: Check name -> claim id (E, Z, S, P, C, ERR1 = the e^{+gamma/tau} offset, ERR3 = the dropped eps <= 1 guard).
SMT_CHECKS: dict[str, str] = {
    "smt.E.softmax_vs_hardmax": "E",
    "smt.E.wrong_Nminus1": "E",
    "smt.Z.ziggurat": "Z",
    "smt.Z.wrong_short_series": "Z",
    "smt.S.lipschitz": "S",
    "smt.S.wrong_half": "S",
    "smt.P.layer_steps": "P",
    "smt.C.closed_form": "C",
    "smt.C.monotone": "C",
    "smt.C.bootstrap": "C",
    "smt.C.wrong_no_BL_guard": "C",
    "smt.C.wrong_monotone_r_positive": "C",
    "smt.ERR1.offset_minus_ok": "ERR1",
    "smt.ERR1.offset_plus": "ERR1",
    "smt.ERR3.score_unguarded": "ERR3",
    "smt.ERR3.bootstrap_unguarded": "ERR3",
}

#: Per-preset bounds: for each check its size bound, per-query timeout (s), time budget (s),
#: optional explore sizes (tried beyond the bound, never changing the verdict), cvc5 sizes and timeout.
PRESETS: dict[str, dict[str, dict[str, Any]]] = {
    "tiny": {
        "smt.E.softmax_vs_hardmax": {"bound": 16, "timeout": 20, "budget": 100, "cvc5": [2, 3, 4], "cvc5_timeout": 10, "yices": [1, 2, 3, 4, 8, 16]},
        "smt.E.wrong_Nminus1": {"bound": 6, "timeout": 10, "budget": 100, "cvc5": [3], "cvc5_timeout": 10},
        "smt.Z.ziggurat": {"bound": 16, "timeout": 20, "budget": 100, "cvc5": [], "cvc5_timeout": 5, "yices": [1, 2, 3, 4, 8, 16]},
        "smt.Z.wrong_short_series": {"bound": 8, "timeout": 10, "budget": 100, "cvc5": [], "cvc5_timeout": 5},
        "smt.S.lipschitz": {
            "bound": 16,
            "timeout": 20,
            "budget": 100,
            "cvc5": [2],
            "cvc5_timeout": 4,
            "yices": [2, 3, 16],
            "yices_reformulate": True,
            "yices_original": [2],
            "yices_original_timeout": 2,
            "yices_timeout": 10,
        },
        "smt.S.wrong_half": {"bound": 8, "timeout": 10, "budget": 100, "cvc5": [], "cvc5_timeout": 5},
        "smt.P.layer_steps": {
            "bound": 3,
            "n_head": 3,
            "heads": 2,
            "ffn_widths": [1, 2, 3, 4],
            "n_keys_max": 16,
            "timeout": 20,
            "budget": 100,
            "cvc5": [],
            "cvc5_timeout": 10,
            "yices": [1],
            "yices_bound": False,
            "yices_timeout": 3,
        },
        "smt.C.closed_form": {"bound": 8, "timeout": 20, "budget": 100, "cvc5": [4], "cvc5_timeout": 10},
        "smt.C.monotone": {"bound": 8, "timeout": 20, "budget": 100, "cvc5": [4], "cvc5_timeout": 10},
        "smt.C.bootstrap": {"bound": 8, "timeout": 20, "budget": 100, "cvc5": [4], "cvc5_timeout": 10},
        "smt.C.wrong_no_BL_guard": {"bound": 4, "timeout": 10, "budget": 100, "cvc5": [3], "cvc5_timeout": 10},
        "smt.C.wrong_monotone_r_positive": {"bound": 4, "timeout": 10, "budget": 100, "cvc5": [3], "cvc5_timeout": 10},
        "smt.ERR1.offset_minus_ok": {
            "bound": 64,
            "every": True,
            "timeout": 10,
            "budget": 100,
            "cvc5": [4],
            "cvc5_timeout": 4,
            "yices": [1, 2, 3, 4, 8, 16, 32],
        },
        "smt.ERR1.offset_plus": {
            "bound": 64,
            "every": True,
            "timeout": 10,
            "budget": 100,
            "cvc5": [4],
            "cvc5_timeout": 4,
            "yices": [1, 2, 3, 4, 8, 16, 32],
        },
        "smt.ERR3.score_unguarded": {"bound": 3, "timeout": 10, "budget": 100, "cvc5": [2], "cvc5_timeout": 10, "yices_timeout": 3},
        "smt.ERR3.bootstrap_unguarded": {"bound": 4, "timeout": 10, "budget": 100, "cvc5": [3], "cvc5_timeout": 10},
    },
    "paper": {
        "smt.E.softmax_vs_hardmax": {
            "bound": 64,
            "timeout": 120,
            "budget": 1200,
            "cvc5": [2, 4, 8, 16],
            "cvc5_timeout": 30,
            "yices": [1, 2, 3, 4, 8, 16, 32],
            "yices_budget": 120,
        },
        "smt.E.wrong_Nminus1": {"bound": 32, "timeout": 60, "budget": 300, "cvc5": [3, 8], "cvc5_timeout": 30},
        "smt.Z.ziggurat": {
            "bound": 96,
            "timeout": 120,
            "budget": 600,
            "explore": [112, 128],
            "cvc5": [4, 8],
            "cvc5_timeout": 30,
            "yices": [1, 2, 3, 4, 8, 16, 32],
            "yices_budget": 120,
        },
        "smt.Z.wrong_short_series": {"bound": 64, "timeout": 60, "budget": 300, "cvc5": [4, 8], "cvc5_timeout": 30},
        "smt.S.lipschitz": {
            "bound": 32,
            "timeout": 120,
            "budget": 400,
            "explore": [64],
            "cvc5": [2],
            "cvc5_timeout": 30,
            "yices": [2, 3, 4, 8, 16],
            "yices_reformulate": True,
            "yices_original": [2],
            "yices_original_timeout": 5,
            "yices_timeout": 10,
            "yices_budget": 240,
        },
        "smt.S.wrong_half": {"bound": 32, "timeout": 60, "budget": 120, "cvc5": [2], "cvc5_timeout": 30},
        "smt.P.layer_steps": {
            "bound": 8,
            "n_head": 4,
            "heads": 4,
            "ffn_widths": [1, 2, 4, 8],
            "n_keys_max": 32,
            "timeout": 120,
            "budget": 600,
            "cvc5": [1],
            "cvc5_timeout": 30,
            "yices": [1, 2],
            "yices_timeout": 10,
        },
        "smt.C.closed_form": {"bound": 64, "timeout": 120, "budget": 300, "cvc5": [4, 8], "cvc5_timeout": 30},
        "smt.C.monotone": {"bound": 64, "timeout": 120, "budget": 300, "cvc5": [4, 8], "cvc5_timeout": 30},
        "smt.C.bootstrap": {"bound": 32, "timeout": 120, "budget": 600, "cvc5": [4, 8], "cvc5_timeout": 30},
        "smt.C.wrong_no_BL_guard": {"bound": 16, "timeout": 60, "budget": 120, "cvc5": [3], "cvc5_timeout": 30},
        "smt.C.wrong_monotone_r_positive": {"bound": 16, "timeout": 60, "budget": 120, "cvc5": [3], "cvc5_timeout": 30},
        "smt.ERR1.offset_minus_ok": {"bound": 4096, "timeout": 60, "budget": 120, "cvc5": [4], "cvc5_timeout": 30},
        "smt.ERR1.offset_plus": {"bound": 4096, "timeout": 60, "budget": 120, "cvc5": [4], "cvc5_timeout": 30},
        "smt.ERR3.score_unguarded": {"bound": 8, "timeout": 60, "budget": 120, "cvc5": [2], "cvc5_timeout": 30, "yices_timeout": 10},
        "smt.ERR3.bootstrap_unguarded": {"bound": 16, "timeout": 60, "budget": 120, "cvc5": [3], "cvc5_timeout": 30},
    },
}


def _validate_preset(preset: str) -> dict[str, dict[str, Any]]:
    """Return the preset's settings, or raise ValueError naming the unknown preset."""
    if preset not in PRESETS:
        raise ValueError(f"unknown SMT preset {preset!r}; known presets: {', '.join(PRESETS)}")
    return PRESETS[preset]


def size_limits() -> dict[str, tuple[int, int]]:
    """Return, per check, the (minimum, maximum) size bound it accepts (the modules' documented limits)."""
    from hardsoft.smt.c_composition import MAX_L_C
    from hardsoft.smt.e_softmax import MAX_N_E
    from hardsoft.smt.errata import MAX_N_ERR1
    from hardsoft.smt.p_layer import MAX_D_P
    from hardsoft.smt.s_lipschitz import MAX_N_S
    from hardsoft.smt.z_ziggurat import MAX_N_Z

    return {
        "smt.E.softmax_vs_hardmax": (1, MAX_N_E),
        "smt.E.wrong_Nminus1": (2, MAX_N_E),
        "smt.Z.ziggurat": (1, MAX_N_Z),
        "smt.Z.wrong_short_series": (3, MAX_N_Z),
        "smt.S.lipschitz": (2, MAX_N_S),
        "smt.S.wrong_half": (2, MAX_N_S),
        "smt.P.layer_steps": (1, MAX_D_P),
        "smt.ERR3.score_unguarded": (1, MAX_D_P),
        "smt.C.closed_form": (1, MAX_L_C),
        "smt.C.monotone": (1, MAX_L_C),
        "smt.C.bootstrap": (1, MAX_L_C),
        "smt.C.wrong_no_BL_guard": (2, MAX_L_C),
        "smt.C.wrong_monotone_r_positive": (2, MAX_L_C),
        "smt.ERR3.bootstrap_unguarded": (2, MAX_L_C),
        "smt.ERR1.offset_minus_ok": (1, MAX_N_ERR1),
        "smt.ERR1.offset_plus": (1, MAX_N_ERR1),
    }


def resolve_settings(
    preset: str, claims: set[str] | None = None, bound: int | None = None, timeout: float | None = None
) -> dict[str, dict[str, Any]]:
    """Return the settings of the selected checks: the preset's, with ``bound`` (size) and ``timeout`` (s per query) overriding.

    Raises ValueError naming the problem (unknown preset, a bound outside a selected check's
    documented range, a non-positive or absurd timeout) before anything runs.
    """
    from hardsoft.smt.core import check_size, check_timeout

    base = _validate_preset(preset)
    names = [n for n in SMT_CHECKS if claims is None or SMT_CHECKS[n] in claims]
    limits = size_limits()
    out = {}
    if timeout is not None:
        timeout = check_timeout(timeout)
    for n in names:
        st = dict(base[n])
        if bound is not None:
            lo, hi = limits[n]
            st["bound"] = check_size(f"--smt-bound for {n}", bound, hi, minimum=lo)
            st.pop("explore", None)
        if timeout is not None:
            st["timeout"] = timeout
        out[n] = st
    return out


# --------------------------------------------------------------------------- running one check


def run_check(name: str, settings: dict[str, Any], keep_dir: Path | None):
    """Return the smt.runs.CheckRun of one named check with the given settings."""
    from hardsoft.smt import c_composition as C
    from hardsoft.smt import e_softmax as E
    from hardsoft.smt import errata as ERR
    from hardsoft.smt import p_layer as P
    from hardsoft.smt import s_lipschitz as S
    from hardsoft.smt import z_ziggurat as Z

    b, t, bud = settings["bound"], settings["timeout"], settings.get("budget")
    table: dict[str, Callable[[], Any]] = {
        "smt.E.softmax_vs_hardmax": lambda: E.check_E(b, t, keep_dir, bud),
        "smt.E.wrong_Nminus1": lambda: E.check_E_wrong(b, t, keep_dir, bud),
        "smt.Z.ziggurat": lambda: Z.check_Z(b, t, keep_dir, bud, settings.get("explore")),
        "smt.Z.wrong_short_series": lambda: Z.check_Z_wrong(b, t, keep_dir, bud),
        "smt.S.lipschitz": lambda: S.check_S(b, t, keep_dir, bud, settings.get("explore")),
        "smt.S.wrong_half": lambda: S.check_S_wrong(b, t, keep_dir, bud),
        "smt.P.layer_steps": lambda: P.check_P(
            b,
            settings.get("n_head", 2),
            settings.get("heads", 2),
            t,
            settings.get("weight_box", 2.0),
            settings.get("act_box", 4.0),
            keep_dir,
            bud,
            settings.get("n_keys_max"),
            settings.get("ffn_widths"),
        ),
        "smt.C.closed_form": lambda: C.check_C_closed_form(b, t, keep_dir, bud),
        "smt.C.monotone": lambda: C.check_C_monotone(b, t, keep_dir, bud),
        "smt.C.bootstrap": lambda: C.check_C_bootstrap(b, t, keep_dir, bud),
        "smt.C.wrong_no_BL_guard": lambda: C.check_C_wrong_no_guard(b, t, keep_dir, bud),
        "smt.C.wrong_monotone_r_positive": lambda: C.check_C_wrong_monotone(b, t, keep_dir, bud),
        "smt.ERR1.offset_minus_ok": lambda: ERR.check_ERR1_minus(b, t, keep_dir, bud, settings.get("every", False)),
        "smt.ERR1.offset_plus": lambda: ERR.check_ERR1_plus(b, t, keep_dir, bud, settings.get("every", False)),
        "smt.ERR3.score_unguarded": lambda: P.check_ERR3_score(b, t, settings.get("weight_box", 2.0), settings.get("act_box", 4.0), keep_dir, bud),
        "smt.ERR3.bootstrap_unguarded": lambda: C.check_ERR3_bootstrap(b, t, keep_dir, bud),
    }
    if name not in table:
        raise ValueError(f"unknown SMT check {name!r}; known: {', '.join(SMT_CHECKS)}")
    run = table[name]()
    run.covered = covered(name, run, settings)
    return run


#: Per check: (what varies besides the size, fixed parameters / search-only restrictions, what the proof assumes).
_COVER: dict[str, tuple[dict[str, str], dict[str, str], list[str]]] = {
    "smt.E.softmax_vs_hardmax": (
        {"max-set size m": "every 1..n"},
        {"scores, tau, gamma": "symbolic reals (any values)"},
        ["exp abstraction facts F1-F3 (smt/core.py)"],
    ),
    "smt.E.wrong_Nminus1": (
        {"max-set size m": "every 1..n-1"},
        {"search-only": "x >= 1/4"},
        ["exp abstraction F1-F3; countermodels replayed in the spec"],
    ),
    "smt.Z.ziggurat": (
        {},
        {"scores, tau, gamma": "symbolic reals"},
        ["exp abstraction F1, F2, F4", "geometric-sum lemma proved by its own Z3 query at each n"],
    ),
    "smt.Z.wrong_short_series": ({}, {"search-only": "x = 1 - 1/(n+1), violation margin x^n/(8n^2)"}, ["countermodels replayed in the spec"]),
    "smt.S.lipschitz": (
        {"sign case k": "every 1..n (positions with q >= p first)"},
        {"a, b, tau": "symbolic (through p, q, y = exp(delta))"},
        ["exp abstraction F5 (ratio bounds, log-mean inequality)"],
    ),
    "smt.S.wrong_half": (
        {"sign case k": "1..n until a countermodel"},
        {"search-only": "y <= 2, ln y <= (y - 1/y)/2, margin 1/1000"},
        ["countermodels replayed in the spec"],
    ),
    "smt.C.closed_form": ({"r": "uniform symbolic r != 1, and separately r = 1 (B_L = L a)", "a": "uniform symbolic"}, {}, []),
    "smt.C.monotone": ({"r_l, a_l": "symbolic per layer, r_l >= 1, a_l >= 0"}, {}, []),
    "smt.C.bootstrap": (
        {"r_l, a_l, e_l": "symbolic per layer, r_l >= 1, a_l >= 0"},
        {},
        ["only the guarded step of Lemma 25 (e <= 1 -> ...); chain of Z3 lemmas over l"],
    ),
    "smt.C.wrong_no_BL_guard": ({}, {"search-only": "violation margin 1/8"}, ["countermodels replayed in the spec"]),
    "smt.C.wrong_monotone_r_positive": ({}, {"search-only": "drop margin 1/8"}, ["countermodels replayed in the spec"]),
    "smt.ERR1.offset_minus_ok": ({}, {"K, X, gamma, eps, tau": "symbolic reals > 0"}, ["exp abstraction F1, F6"]),
    "smt.ERR1.offset_plus": ({}, {"search-only": "eps <= 1, K <= 4, X <= 4, margin 1/8"}, ["countermodels replayed in the spec"]),
    "smt.ERR3.score_unguarded": (
        {},
        {"weight box": "|A_kl| <= 2", "activation box": "X <= 4", "search-only": "eps = 2, x_i = x_j = 0, x'_i = x'_j = (eps, ..., eps)"},
        ["countermodels replayed in the spec"],
    ),
    "smt.ERR3.bootstrap_unguarded": ({}, {"search-only": "margin 1/8"}, ["countermodels replayed in the spec"]),
}


#: What the second solver cannot confirm today, and why (measured; each run's report shows the live figures).
Z3_ONLY: dict[str, str] = {
    "smt.S.lipschitz": "the original sign-case queries (Yices times out from n = 2, k = 1); they are confirmed "
    "through an equivalent reformulation (block sums: facts + one two-variable query) that "
    "Z3 and Yices both decide",
    "smt.P.layer_steps": "at d = 1 the main head step for n >= 2 positions and the main FFN step for width >= 2 "
    "(Yices times out in 3 s; dropping the atoms' nonlinear definitions makes them false, so "
    "no cheaper equivalent was found); the scalar lemmas, every link query, the score step, "
    "the head step at n = 1, the FFN step at width 1 and the composition are confirmed at "
    "d = 1; d >= 2 is not given to Yices in the tiny preset (its score step alone takes "
    "Yices about 12 s at d = 2)",
}


def covered(name: str, run: Any, settings: dict[str, Any]) -> dict[str, Any]:
    """Return exactly what a finished check covered: the sizes run, every other varied parameter with its range,
    every fixed parameter, what the proof assumes (P: S and E as lemmas), and what was NOT reached."""
    done = [row[0] for row in run.rows if not str(row[2]).endswith("(explore)")]
    ok = [row[0] for row in run.rows if row[2] == run.expected]
    base = dict(run.covered) if run.covered else {}
    varied = {f"{run.size_label} (size)": _sizes_text(ok) + ("" if ok == done else f" (stopped at {done[-1]})")}
    varied.update(base.get("varied", {}))
    extra_v, fixed, assumed = _COVER.get(name, ({}, {}, []))
    for k, v in extra_v.items():
        varied.setdefault(k, v)
    fixed = {**fixed, **base.get("fixed", {})}
    if run.expected == "refuted":  # for a countermodel search these are notes, not assumptions of a proof
        return {"varied": varied, "fixed": fixed, "assumed": list(base.get("assumed", [])), "notes": assumed, "sizes_run": done}
    return {"varied": varied, "fixed": fixed, "assumed": list(base.get("assumed", [])) + assumed, "sizes_run": done}


def covered_text(cov: dict[str, Any]) -> str:
    """Return the one-cell readable form of a covered dict: varied; fixed; assumed."""
    if not cov:
        return ""
    parts = ["varied: " + "; ".join(f"{k} {v}" for k, v in cov.get("varied", {}).items())]
    if cov.get("fixed"):
        parts.append("fixed: " + "; ".join(f"{k} {v}" for k, v in cov["fixed"].items()))
    if cov.get("assumed"):
        parts.append("assumes: " + "; ".join(cov["assumed"]))
    if cov.get("notes"):
        parts.append("notes: " + "; ".join(cov["notes"]))
    return ". ".join(parts)


def cvc5_queries(name: str, sizes: list[int]) -> list[tuple[str, str, str]]:
    """Return [(label, SMT-LIB text, expected cvc5 answer)] for the second opinion on one check."""
    import z3

    from hardsoft.smt import c_composition as C
    from hardsoft.smt import p_layer as P
    from hardsoft.smt import s_lipschitz as S
    from hardsoft.smt import z_ziggurat as Z
    from hardsoft.smt.core import search_to_smt2, to_smt2
    from hardsoft.smt.solvers import cvc5 as K

    out: list[tuple[str, str, str]] = []
    for n in sizes:
        if name == "smt.E.softmax_vs_hardmax":
            out += [(f"E native exp N={n} m={m}", K.query_E(n, m), "unsat") for m in range(1, n)]
        elif name == "smt.E.wrong_Nminus1":
            out.append((f"E twin native exp N={n} m=1", K.query_E_wrong(n, 1), "sat"))
        elif name == "smt.Z.ziggurat":
            v = Z.encode_Z(n)
            out.append((f"Z abstraction N={n}", to_smt2(v["hyps"] + [Z.telescoping(v)], Z.claim_Z(v)), "unsat"))
        elif name == "smt.Z.wrong_short_series":
            v = Z.encode_Z(n)
            Q1 = v["P"][n - 1]
            out.append((f"Z twin abstraction N={n}", search_to_smt2(v["hyps"], v["delta"] * (1 - Q1) > v["x"] - Q1), "sat"))
        elif name == "smt.S.lipschitz":
            out.append(("S native exp n=2", K.query_S2(), "unsat"))
        elif name == "smt.S.wrong_half":
            v = S.encode_S(n)
            pattern, l1 = S.sign_case(v, 1)
            out.append(
                (
                    f"S twin abstraction n={n} k=1",
                    search_to_smt2(v["hyps"] + pattern + [2 * v["delta"] * v["y"] >= v["y"] * v["y"] - 1], l1 > v["delta"] / 2),
                    "sat",
                )
            )
        elif name == "smt.P.layer_steps":
            from fractions import Fraction

            sc = P.encode_score(n, Fraction(2), Fraction(4))
            out.append((f"P score step direct d={n}", to_smt2(sc["hyps"], z3.Abs(sc["err"]) <= sc["A_sum"] * (2 * sc["X"] + 1) * sc["eps"]), "unsat"))
        elif name == "smt.ERR3.score_unguarded":
            from fractions import Fraction

            sc = P.encode_score(n, Fraction(2), Fraction(4), guard=False)
            shape = [sc["eps"] == 2] + [z3.Real(f"{v}_{k}") == 0 for v in ("xi", "xj") for k in range(n)]
            shape += [z3.Real(f"{v}_{k}") == sc["eps"] for v in ("xpi", "xpj") for k in range(n)]
            out.append(
                (
                    f"score step without eps<=1 d={n} (search shape of smt.p_layer)",
                    search_to_smt2(sc["hyps"] + shape, z3.Abs(sc["err"]) > sc["A_sum"] * (2 * sc["X"] + 1) * sc["eps"]),
                    "sat",
                )
            )
        elif name in ("smt.C.closed_form", "smt.C.monotone", "smt.C.bootstrap"):
            v = C.encode_recursion(n)
            B, r, a = v["B"], v["r"], v["a"]
            if name == "smt.C.closed_form":
                r0, a0 = z3.Reals("r a")
                Rp = [z3.Real(f"R_{k}") for k in range(n + 1)]
                hyps = v["hyps"] + [Rp[0] == 1] + [Rp[k + 1] == r0 * Rp[k] for k in range(n)]
                hyps += [r[l] == r0 for l in range(1, n + 1)] + [a[l] == a0 for l in range(1, n + 1)]
                out.append((f"C closed form L={n}", to_smt2(hyps, B[n] * (r0 - 1) == a0 * (Rp[n] - 1)), "unsat"))
            elif name == "smt.C.monotone":
                hyps = v["hyps"] + [r[l] >= 1 for l in range(1, n + 1)] + [a[l] >= 0 for l in range(1, n + 1)]
                claim = z3.And([B[0] >= 0] + [B[l] >= B[l - 1] for l in range(1, n + 1)])
                out.append((f"C monotone L={n}", to_smt2(hyps, claim), "unsat"))
            else:
                w = C.encode_bootstrap(n)
                claim = z3.And([w["e"][l] <= w["B"][l] for l in range(n + 1)])
                out.append((f"C bootstrap L={n} (one query)", to_smt2(w["hyps"] + [w["B"][n] <= 1], claim), "unsat"))
        elif name == "smt.C.wrong_no_BL_guard":
            w = C.encode_bootstrap(n)
            out.append((f"C bootstrap without B_L<=1 L={n}", search_to_smt2(w["hyps"], z3.Or([w["e"][l] > w["B"][l] for l in range(n + 1)])), "sat"))
        elif name == "smt.C.wrong_monotone_r_positive":
            v = C.encode_recursion(n)
            hyps = v["hyps"] + [v["r"][l] > 0 for l in range(1, n + 1)] + [v["a"][l] >= 0 for l in range(1, n + 1)]
            out.append((f"C monotone with r>0 L={n}", search_to_smt2(hyps, z3.Or([v["B"][l] < v["B"][l - 1] for l in range(1, n + 1)])), "sat"))
        elif name == "smt.ERR1.offset_minus_ok":
            out.append((f"ERR1 corrected offset native exp N={n}", K.query_ERR1(n, plus=False), "unsat"))
        elif name == "smt.ERR1.offset_plus":
            out.append((f"ERR1 printed offset native exp N={n}", K.query_ERR1(n, plus=True), "sat"))
        elif name == "smt.ERR3.bootstrap_unguarded":
            w = C.encode_bootstrap(n)
            eps = z3.Real("eps")
            out.append(
                (f"Theorem 26 with B_L<=eps, eps>1 allowed, L={n}", search_to_smt2(w["hyps"] + [eps > 0, w["B"][n] <= eps], w["e"][n] > eps), "sat")
            )
    return out


def run_cvc5_opinion(name: str, settings: dict[str, Any]) -> dict[str, Any]:
    """Return cvc5's opinion on one check: per query its answer, and agree / disagree / error / no-opinion overall.

    An "error" (parse error, crash) is reported as such, distinct from "unknown"/"timeout".
    """
    from hardsoft.smt.solvers.cvc5 import cvc5_available, run_cvc5

    if not cvc5_available():
        return {"opinion": "unavailable", "queries": []}
    rows = []
    for label, text, expected in cvc5_queries(name, settings.get("cvc5", [])):
        r = run_cvc5(text, settings.get("cvc5_timeout", 10))
        r.update(label=label, expected=expected)
        rows.append(r)
    statuses = [(r["status"], r["expected"]) for r in rows]
    contradicts = {"unsat": "sat", "sat": "unsat"}
    errors = [r for r in rows if r["status"] == "error"]
    err_txt = f"error ({len(errors)} of {len(rows)}: {errors[0]['detail'][:120]})" if errors else ""
    if any(s == contradicts[e] for s, e in statuses):
        opinion = "disagree"
    elif statuses and all(s == e for s, e in statuses):
        opinion = "agree"
    elif any(s == e for s, e in statuses):
        opinion = "agree (partly; " + (err_txt if errors else "others unknown/timeout") + ")"
    elif errors:
        opinion = err_txt
    else:
        opinion = "no opinion (unknown/timeout)" if statuses else "not run"
    return {"opinion": opinion, "queries": rows}


# --------------------------------------------------------------------------- second solver (Yices)


def _yices_rows(records: list[tuple[int, Any]], timeout_s: float, budget_s: float, t_start: float) -> list[dict]:
    """Return one row per decided query: Z3's answer, Yices's answer on the exact exported query, agreement."""
    from hardsoft.smt.solvers import yices as Y

    rows = []
    for size, rec in records:
        row = {"size": size, "query": rec.name, "z3": rec.expect}
        if time.perf_counter() - t_start > budget_s:
            row.update(yices="not run (budget)", seconds=0.0, agreement="no opinion")
        else:
            r = Y.run_yices(Y.export_smt2(rec.assertions), timeout_s)
            row.update(yices=r["status"], seconds=r["seconds"], agreement=Y.compare(rec.expect, r["status"]))
            if r["detail"]:
                row["detail"] = r["detail"]
            pinned = Y.pin_model(rec.assertions, rec.model) if (rec.expect == "sat" and r["status"] in ("timeout", "unknown")) else None
            if pinned is not None:  # Yices checks Z3's exact model against the same query instead
                m = Y.run_yices(Y.export_smt2(pinned), timeout_s)
                row.update(yices=f"{m['status']} (model checked; search: {r['status']})", seconds=round(r["seconds"] + m["seconds"], 3))
                row["agreement"] = "agree" if m["status"] == "sat" else ("disagree" if m["status"] == "unsat" else "no opinion")
        rows.append(row)
    return rows


def _tally(rows: list[dict]) -> dict[str, Any]:
    """Return counts of agree / disagree / no-opinion answers (by Yices status) over rows."""
    no: dict[str, int] = {}
    for r in rows:
        if r["agreement"] == "no opinion":
            no[r["yices"]] = no.get(r["yices"], 0) + 1
    return {
        "queries": len(rows),
        "agree": sum(r["agreement"] == "agree" for r in rows),
        "disagree": sum(r["agreement"] == "disagree" for r in rows),
        "no_opinion": no,
    }


def _pick_sizes(spec: Any, done: list[int], with_bound: bool = True) -> list[int]:
    """Return the sizes (of those run) whose queries go to the second solver: "all", or a list (with_bound:
    the largest size run is added, so the bound itself is confirmed)."""
    if not done:
        return []
    if spec in (None, "all"):
        return list(done)
    return sorted({s for s in spec if s in done} | ({max(done)} if with_bound else set()))


def run_second_solver(name: str, run: Any, settings: dict[str, Any], keep_dir: Path | None = None) -> dict[str, Any]:
    """Return Yices's answers on the exact queries Z3 decided (at the chosen sizes) and the overall agreement.

    settings: "yices" ("all" or a list of sizes; the largest size reached is always included),
    "yices_timeout" (s per query, hard kill), "yices_budget" (s per check, then "not run (budget)"),
    "yices_original_timeout" (with a reformulation: the timeout for the original queries).
    For S, whose case queries Yices does not decide, "yices_reformulate": the cases are re-proved
    through smt.s_lipschitz.block_queries (Z3 AND Yices on the reformulated queries), and the
    original queries are given to Yices only at the sizes in "yices_original" (to measure, not to
    wait).  A disagreement anywhere makes "opinion" start with "DISAGREE" (the check fails).
    """
    from hardsoft.smt.core import query_log
    from hardsoft.smt.solvers import yices as Y

    if not Y.yices_available():
        return {"solver": "yices", "opinion": "unavailable", "confirmed": False, "rows": []}
    t0 = time.perf_counter()
    timeout_s = settings.get("yices_timeout", 10)
    budget_s = settings.get("yices_budget", 60)
    done = [s for s in run.queries]
    reform = settings.get("yices_reformulate", False)
    sizes = _pick_sizes(settings.get("yices", "all"), done, settings.get("yices_bound", True))
    orig_sizes = [s for s in settings.get("yices_original", sizes) if s in done] if reform else sizes
    decided = [(s, rec) for s in orig_sizes for rec in run.queries[s] if rec.expect in ("sat", "unsat")]
    rows = _yices_rows(decided, settings.get("yices_original_timeout", timeout_s) if reform else timeout_s, budget_s, t0)
    out: dict[str, Any] = {"solver": "yices-smt2 (Yices 2, MCSAT for QF_NRA)", "sizes": orig_sizes, "rows": rows, **_tally(rows)}
    ref_rows: list[dict] = []
    if reform and name == "smt.S.lipschitz":
        from hardsoft.smt import s_lipschitz as S

        z3_status = []
        for i, n in enumerate(sizes):
            with query_log() as recs:
                vs = S.prove_S_blocks(n, settings["timeout"], keep_dir, block=i == 0)
            z3_status += [v.status for v in vs]
            ref_rows += _yices_rows([(n, r) for r in recs if r.expect in ("sat", "unsat")], timeout_s, budget_s + 60, t0)
        out["reformulation"] = {
            "what": "S case k re-proved as 'facts' (block sums P, Q of the k positions with "
            "q >= p) + one 'block' query in P, Q (smt.s_lipschitz.block_queries)",
            "sizes": sizes,
            "z3": "proved" if all(s == "proved" for s in z3_status) else "/".join(sorted(set(z3_status))),
            "rows": ref_rows,
            **_tally(ref_rows),
        }
    t = out
    all_rows = rows + ref_rows
    if any(r["agreement"] == "disagree" for r in all_rows):
        bad = next(r for r in all_rows if r["agreement"] == "disagree")
        out["opinion"] = f"DISAGREE ({bad['query']}: Z3 {bad['z3']}, Yices {bad['yices']})"
        out["confirmed"] = False
    elif rows and t["agree"] == len(rows):
        mc = sum(str(r["yices"]).startswith("sat (model checked") for r in rows)
        out["opinion"] = (
            f"confirmed ({len(rows)} queries, sizes {_sizes_text(orig_sizes)}"
            + (f"; {mc} of them by Yices checking Z3's exact model on the same query" if mc else "")
            + ")"
        )
        out["confirmed"] = True
    elif reform and ref_rows and out["reformulation"]["agree"] == len(ref_rows) and out["reformulation"]["z3"] == "proved":
        no = ", ".join(f"{v} {k}" for k, v in t["no_opinion"].items())
        out["opinion"] = (
            f"confirmed through a reformulation ({len(ref_rows)} queries, sizes {_sizes_text(sizes)}); "
            f"the original case queries are Z3-only (Yices: {no or 'not run'})"
        )
        out["confirmed"] = True
    elif reform and ref_rows and out["reformulation"]["agree"]:
        f = out["reformulation"]
        no = ", ".join(f"{v} {k}" for k, v in f["no_opinion"].items())
        out["opinion"] = (
            f"partly confirmed through a reformulation ({f['agree']} of {len(ref_rows)} queries, "
            f"sizes {_sizes_text(sizes)}; {no}); Z3-only: {Z3_ONLY.get(name, '')}"
        )
        out["confirmed"] = False
    elif t["agree"]:
        no = ", ".join(f"{v} {k}" for k, v in t["no_opinion"].items())
        out["opinion"] = f"partly confirmed ({t['agree']} of {len(rows)} queries, sizes {_sizes_text(orig_sizes)}; {no})"
        if name in Z3_ONLY:
            out["opinion"] += f"; Z3-only: {Z3_ONLY[name]}"
        out["confirmed"] = False
    else:
        no = ", ".join(f"{v} {k}" for k, v in t["no_opinion"].items())
        out["opinion"] = f"Z3-only (Yices: {no or 'nothing decided to confirm'})"
        out["confirmed"] = False
    out["seconds"] = round(time.perf_counter() - t0, 3)
    return out


def _sizes_text(sizes: list[int]) -> str:
    """Return a compact text of a size list: "1..16" for a run of consecutive sizes, else "1, 2, 16"."""
    if not sizes:
        return "none"
    if sizes == list(range(sizes[0], sizes[-1] + 1)) and len(sizes) > 2:
        return f"{sizes[0]}..{sizes[-1]}"
    return ", ".join(map(str, sizes))


def _to_result(name: str, run: Any, cvc5: dict[str, Any], seconds: float, second: dict[str, Any] | None = None) -> CheckResult:
    """Return the CheckResult of a finished check (see the module docstring for the mapping)."""
    from hardsoft.smt.core import HYPS_UNDECIDED, VACUOUS

    claim = SMT_CHECKS[name]
    second = second or {"opinion": "not run", "confirmed": False, "rows": []}
    disagree = cvc5.get("opinion") == "disagree"
    y_disagree = str(second.get("opinion", "")).startswith("DISAGREE")
    # A statement must come back "proved", a twin or erratum "refuted" (replayed); a second solver's
    # disagreement fails either; unknown or undecided hypotheses are UNDECIDED; anything else FAILS
    # (refuted or vacuous statement, proved twin, refutation that did not replay).
    wanted = "proved" if run.expected == "proved" else "refuted"
    if run.verdict == wanted:
        if disagree:
            outcome, verdict = Outcome.FAILED, f"{wanted}-but-cvc5-disagrees"
        elif y_disagree:
            outcome, verdict = Outcome.FAILED, f"{wanted}-but-yices-disagrees"
        else:
            outcome, verdict = Outcome.OK, "proved" if wanted == "proved" else "refuted-as-expected"
    elif run.verdict in ("unknown", HYPS_UNDECIDED):
        outcome, verdict = Outcome.UNDECIDED, run.verdict
    else:
        outcome, verdict = Outcome.FAILED, run.verdict
    assert verdict != "proved" or run.verdict == "proved"
    assert run.verdict != VACUOUS or outcome is Outcome.FAILED
    detail = f"{run.detail}; yices: {second.get('opinion')}; cvc5: {cvc5.get('opinion')}"
    nv = run.nonvacuity
    data = {
        "expected": run.expected,
        "verdict": run.verdict,
        "size_label": run.size_label,
        "bound": run.bound,
        "bound_reached": run.bound_reached,
        "rows": run.rows,
        "cvc5": cvc5,
        "second_solver": second,
        "countermodels": run.countermodels,
        "smt2": run.smt2,
        "extra": run.extra,
        "covered": run.covered,
        "nonvacuity": {
            "per_size": nv,
            "proving_queries": sum(r[1] for r in nv),
            "non_vacuous": sum(r[2] for r in nv),
            "witnesses": run.witnesses,
            "seconds": round(run.nonvacuity_seconds, 3),
        },
    }
    data = json.loads(json.dumps(data, default=str))
    return CheckResult("smt", name, claim, outcome, verdict, seconds, detail, data)


def _task(name: str, settings: dict[str, Any], keep_dir: str | None) -> CheckResult:
    """Run one check, its second solver (Yices) and its cvc5 opinion (in a pool worker); return its CheckResult."""
    t0 = time.perf_counter()
    kd = Path(keep_dir) if keep_dir else None
    try:
        run = run_check(name, settings, kd)
    except Exception as e:  # a crash is a failed check, reported with its message
        return CheckResult("smt", name, SMT_CHECKS.get(name), Outcome.FAILED, "error", time.perf_counter() - t0, f"{type(e).__name__}: {e}")
    t1 = time.perf_counter()
    try:
        second = run_second_solver(name, run, settings, kd)
    except Exception as e:
        second = {"opinion": f"error: {type(e).__name__}: {e}", "confirmed": False, "rows": []}
    second["seconds"] = round(time.perf_counter() - t1, 3)
    t2 = time.perf_counter()
    try:
        cvc5 = run_cvc5_opinion(name, settings)
    except Exception as e:
        cvc5 = {"opinion": f"error: {type(e).__name__}: {e}", "queries": []}
    cvc5["seconds"] = round(time.perf_counter() - t2, 3)
    res = _to_result(name, run, cvc5, time.perf_counter() - t0, second)
    res.data["z3_seconds"] = round(t1 - t0, 3)
    return res


#: Rough cost order (most expensive first) for scheduling on the pool.
_COST_ORDER = [
    "smt.S.lipschitz",
    "smt.E.softmax_vs_hardmax",
    "smt.P.layer_steps",
    "smt.C.bootstrap",
    "smt.Z.ziggurat",
    "smt.E.wrong_Nminus1",
    "smt.C.closed_form",
    "smt.C.monotone",
]


def run(
    preset: str,
    out_dir: Path,
    progress: Callable[[str], None],
    claims: set[str] | None = None,
    workers: int | None = None,
    bound: int | None = None,
    timeout: float | None = None,
) -> list[CheckResult]:
    """Return one CheckResult per SMT check of the preset (filtered by claim ids), run in parallel processes.

    ``bound`` and ``timeout`` override the preset's size bound and per-query timeout of every selected check.
    """
    settings = resolve_settings(preset, claims, bound, timeout)
    from hardsoft.smt.core import cpu_count

    names = list(settings)
    names.sort(key=lambda n: _COST_ORDER.index(n) if n in _COST_ORDER else len(_COST_ORDER))
    keep_dir = Path(out_dir) / "smt"
    workers = workers or max(1, cpu_count())
    results: dict[str, CheckResult] = {}
    if not names:
        return []
    with ProcessPoolExecutor(max_workers=min(workers, len(names))) as pool:
        futs = {pool.submit(_task, n, settings[n], str(keep_dir)): n for n in names}
        for f in as_completed(futs):
            n = futs[f]
            try:
                r = f.result()
            except Exception as e:  # worker died
                r = CheckResult("smt", n, SMT_CHECKS[n], Outcome.FAILED, "error", 0.0, f"worker failed: {e}")
            results[n] = r
            progress(f"{n}: {r.verdict} ({r.seconds:.1f} s) {r.detail}")
    annotate_assumptions(results)
    return [results[n] for n in SMT_CHECKS if n in results]


def annotate_assumptions(results: dict[str, CheckResult]) -> None:
    """Add to P's covered data up to which size the lemmas it assumes (S and E) were proved IN THIS RUN."""
    p = results.get("smt.P.layer_steps")
    if p is None or not p.data.get("covered"):
        return
    notes = []
    for lemma, check, label in (("S", "smt.S.lipschitz", "n"), ("E", "smt.E.softmax_vs_hardmax", "N")):
        r = results.get(check)
        if r is None:
            notes.append(f"{lemma} not run in this run (assumed, not checked)")
        elif r.outcome is Outcome.OK:
            notes.append(f"{lemma} proved in this run for {label} <= {r.data.get('bound_reached')}")
        else:
            notes.append(f"{lemma} NOT proved in this run ({r.verdict}, reached {r.data.get('bound_reached')})")
    nk = (p.data.get("extra") or {}).get("n_keys_max")
    notes.append(
        f"composition restricted to N <= {nk}" if nk else "composition for every N (beyond the proved bound of S and E it rests on the assumption)"
    )
    p.data["covered"]["assumed"].append("; ".join(notes))


# --------------------------------------------------------------------------- markdown


def _rows_text(rows: list[list[Any]], label: str) -> str:
    """Return a compact 'size: seconds' list of the scaling rows (at most 12, always the last)."""
    if not rows:
        return ""
    pick = rows if len(rows) <= 12 else rows[:: max(1, len(rows) // 10)] + [rows[-1]]
    seen, out = set(), []
    for size, secs, verdict in pick:
        if size in seen:
            continue
        seen.add(size)
        mark = "" if verdict in ("proved", "refuted") else f" {verdict}"
        out.append(f"{label}={size}: {secs:.2f}s{mark}")
    return ", ".join(out)


def markdown_section(results: list[CheckResult]) -> str:
    """Return the SMT section of report.md: verdicts, the scaling table and the replayed countermodels."""
    smt = [r for r in results if r.family == "smt"]
    lines = [
        "## SMT checks (Z3, second solver Yices 2 on the same queries, cvc5 on native exp)",
        "",
        "How exp is handled and why it is sound: `smt/core.py` (module docstring).  A proving query counts as "
        "proved only when its hypotheses were also shown satisfiable (non-vacuous).",
        "",
        "| check | claim | outcome | verdict | covered | non-vacuous | seconds | Yices (same queries) | cvc5 |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in smt:
        d = r.data
        nv = d.get("nonvacuity") or {}
        nvt = (f"{nv.get('non_vacuous')}/{nv.get('proving_queries')}" if nv.get("proving_queries") else "search (model)") if d else ""
        cov = covered_text(d.get("covered") or {}) if d else ""
        esc = lambda t: str(t).replace("|", "\\|")  # noqa: E731
        lines.append(
            f"| `{r.name}` | {r.claim} | {r.outcome.value} | {r.verdict} | {esc(cov)} | {nvt} | "
            f"{r.seconds:.1f} | {esc((d.get('second_solver') or {}).get('opinion', '')) if d else ''} | "
            f"{esc((d.get('cvc5') or {}).get('opinion', '')) if d else ''} |"
        )
    lines += ["", "### Scaling (size reached against seconds per size)", "", "| check | rows |", "| --- | --- |"]
    for r in smt:
        if r.data.get("rows"):
            lines.append(f"| `{r.name}` | {_rows_text(r.data['rows'], r.data.get('size_label', 'n'))} |")
    cms = [(r, c) for r in smt for c in r.data.get("countermodels", [])[:1]]
    if cms:
        lines += ["", "### Countermodels replayed in the spec", ""]
        for r, c in cms:
            rep = c.get("replay") or {}
            shown = {k: v for k, v in rep.items() if k != "confirmed"}
            lines.append(
                f"- `{r.name}` ({r.claim}, {r.data.get('size_label', 'n')} = {c.get('size')}): confirmed by the spec: **{rep.get('confirmed')}**"
            )
            lines.append(f"  `{json.dumps(shown, default=str)[:600]}`")
    unknown = [p for r in smt for p in r.data.get("smt2", [])]
    if unknown:
        lines += ["", "### Kept .smt2 files (unknown)", ""] + [f"- `{p}`" for p in unknown[:20]]
    return "\n".join(lines) + "\n"
