"""Statement S (used in Lemma 25): softmax is Lipschitz, ||softmax_tau(a) - softmax_tau(b)||_1 <= ||a - b||_inf / tau.

What exactly is proved here (be precise: this is an ABSTRACTION, see smt/core.py):
with p = softmax_tau(a), q = softmax_tau(b), delta = ||a - b||_inf / tau and y = exp(delta),
the ratios q_j / p_j = lambda exp((b_j - a_j)/tau) all lie in [lambda/y, lambda y] for
lambda = sum_k exp(a_k/tau) / sum_k exp(b_k/tau) > 0.  The query keeps only

    p_j > 0, q_j > 0 (j < n), sum p = sum q = 1,
    v p_j <= q_j <= u p_j with v > 0 and u = y^2 v      (u = lambda y, v = lambda / y),
    y >= 1, delta >= 0, delta (y + 1) >= 2 (y - 1)      (fact F5: ln y >= 2 (y - 1)/(y + 1)),

and asks whether sum_j |p_j - q_j| > delta is possible.  Every real instance is a model
(core.py's argument), so unsat proves S for every real instance with n positions.

Case split (what made the check scale; the single query with |.| as if-then-else was
unknown at n = 3 after 60 s): the statement is invariant under permuting positions, so
every real instance can be permuted to put the positions with q_j >= p_j first; with k of
them (1 <= k <= n: k = 0 is impossible since both sum to 1) it satisfies
q_j >= p_j for j < k, q_j <= p_j for j >= k, and then sum_j |p_j - q_j| is the linear
term sum_(j<k) (q_j - p_j) + sum_(j>=k) (p_j - q_j).  So S at n positions is proved when
each of the n queries (k = 1..n) is unsat.  The claim holds in the abstraction because
the total variation between p and a reweighting with ratios in [v, y^2 v] is at most
(y - 1)/(y + 1) (two-block extremal case), and 2 (y - 1)/(y + 1) <= ln y.

cvc5 checks the n = 2 case with its native exp as written (second opinion).

Wrong twin: ||a - b||_inf / (2 tau) (spec.bounds.wrong_bound_S_l1_half).  Its search adds an
UPPER bound fact ln y <= (y - 1/y)/2 (so the model's delta >= the real ln y) so that every
countermodel is a real counterexample; replayed with tau = 1, a_j = ln p_j and
b_j = ln q_j - ln(y v) (so |b_j - a_j| <= ln y <= delta and softmax(b) = q).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import z3

from hardsoft.smt.check import Coverage, Cvc5Query, Expect, Reformulation, SmtCheck
from hardsoft.smt.core import REFUTED, UNKNOWN, Sum, Verdict, check_size, check_timeout, declare_reals, prove, reals, search, search_to_smt2
from hardsoft.smt.runs import CheckRun, run_sizes

#: Largest number of positions n accepted by the S checks.
MAX_N_S: int = 128


def encode_S(n: int) -> dict[str, Any]:
    """Return the abstraction of statement S at n positions (variables p, q, u, v, y, delta)."""
    p, q = reals("p", n), reals("q", n)
    u, v, y, delta = z3.Reals("u v y delta")
    hyps = [y >= 1, delta >= 0, v > 0, u == y * y * v, Sum(p) == 1, Sum(q) == 1]
    hyps.append(delta * (y + 1) >= 2 * (y - 1))  # F5: ln y >= 2(y-1)/(y+1)
    for j in range(n):
        hyps += [p[j] > 0, q[j] >= v * p[j], q[j] <= u * p[j]]
    return {"p": p, "q": q, "u": u, "v": v, "y": y, "delta": delta, "hyps": hyps}


def sign_case(enc: dict[str, Any], k: int) -> tuple[list[z3.BoolRef], z3.ArithRef]:
    """Return (the sign pattern q_j >= p_j for j < k, q_j <= p_j for j >= k; sum |p_j - q_j| under it)."""
    p, q = enc["p"], enc["q"]
    n = len(p)
    pattern = [q[j] >= p[j] for j in range(k)] + [q[j] <= p[j] for j in range(k, n)]
    return pattern, Sum([q[j] - p[j] for j in range(k)] + [p[j] - q[j] for j in range(k, n)])


def prove_S(n: int, timeout_s: float, keep_dir: Path | None = None) -> list[Verdict]:
    """Return the verdicts of sum_j |p_j - q_j| <= delta in the abstraction, one per sign case k = 1..n."""
    out = []
    for k in range(1, n + 1):
        v = encode_S(n)
        pattern, l1 = sign_case(v, k)
        out.append(prove(v["hyps"] + pattern, l1 <= v["delta"], timeout_s=timeout_s, name=f"S_n{n}_k{k}", keep_dir=keep_dir))
    return out


def block_queries(n: int, k: int) -> list[tuple[str, list[z3.BoolRef], z3.BoolRef]]:
    """Return S's sign case k at n positions re-proved in two steps, as [(name, hyps, claim)]: the facts
    (one query each), then the block query.

    A reformulation for a second solver (Yices times out on the case query from n = 2): with
    the block sums P = sum_(j<k) p_j and Q = sum_(j<k) q_j,

    1. ``facts`` (one query per fact): the case's hypotheses give 0 < P <= 1, Q >= P, v P <= Q <= u P,
       v (1 - P) <= 1 - Q <= u (1 - P) and sum_j |p_j - q_j| = 2 (Q - P) (sums of the per-position
       hypotheses; sum p = sum q = 1).  Only the per-position hypotheses, the sums and the sign
       pattern are used (not u = y^2 v nor F5): fewer hypotheses, so the same facts follow a fortiori;
    2. ``block``: those facts with y >= 1, v > 0, u = y^2 v and F5 give 2 (Q - P) <= delta
       (two variables P, Q: the same for every n and k).

    Both unsat together prove the case query's claim from the case query's hypotheses, i.e.
    the same statement; each is an ordinary proving query (non-vacuity included).
    """
    v = encode_S(n)
    pattern, l1 = sign_case(v, k)
    p, q, u, vv, y, delta = v["p"], v["q"], v["u"], v["v"], v["y"], v["delta"]
    P, Q = z3.Reals("P Q")
    defs = [P == Sum(p[:k]), Q == Sum(q[:k])]
    agg = [P > 0, P <= 1, Q >= P, Q >= vv * P, Q <= u * P, 1 - Q >= vv * (1 - P), 1 - Q <= u * (1 - P), l1 == 2 * (Q - P)]
    block_hyps = [y >= 1, delta >= 0, vv > 0, u == y * y * vv, delta * (y + 1) >= 2 * (y - 1)] + agg[:-1]
    not_used = {h.sexpr() for h in (u == y * y * vv, delta * (y + 1) >= 2 * (y - 1))}
    fact_hyps = [h for h in v["hyps"] if h.sexpr() not in not_used]
    facts = [(f"S_n{n}_k{k}_fact{i}", fact_hyps + pattern + defs, f) for i, f in enumerate(agg)]
    return facts + [(f"S_block_n{n}_k{k}", block_hyps, 2 * (Q - P) <= delta)]


def prove_S_blocks(n: int, timeout_s: float, keep_dir: Path | None = None, block: bool = True) -> list[Verdict]:
    """Return the verdicts of every sign case of S at n positions, each proved through block_queries.

    The block query does not depend on n or k: it is asked once (block=False skips it, when an
    earlier call already proved it).
    """
    out = []
    for k in range(1, n + 1):
        *facts, (bname, bh, bc) = block_queries(n, k)
        out += [prove(fh, fc, timeout_s=timeout_s, name=fname, keep_dir=keep_dir) for fname, fh, fc in facts]
        if k == 1 and block:
            out.append(prove(bh, bc, timeout_s=timeout_s, name="S_block", keep_dir=keep_dir))
    return out


def search_S_wrong(n: int, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return a countermodel search for the wrong twin: sum |p_j - q_j| > delta/2 (+1/1000 for the replay).

    Tries the sign cases k = 1..n and returns the first refutation; otherwise "unknown" if
    some case was undecided, else "proved" (the twin holds at this n).
    """
    last = Verdict(UNKNOWN, 0.0, reason="no sign case tried")
    for k in range(1, n + 1):
        v = encode_S(n)
        pattern, l1 = sign_case(v, k)
        y, delta = v["y"], v["delta"]
        extra = [2 * delta * y >= y * y - 1, y <= 2]  # ln y <= (y - 1/y)/2 <= delta; keep y moderate
        r = search(
            v["hyps"] + pattern + extra, l1 >= delta / 2 + z3.RealVal("1/1000"), timeout_s=timeout_s, name=f"S_wrong_n{n}_k{k}", keep_dir=keep_dir
        )
        if r.status == REFUTED:
            return r
        if k == 1 or r.status == UNKNOWN:
            last = r
    return last


def check_S(n_max: int, timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None, explore: list[int] | None = None) -> CheckRun:
    """Return statement S (abstraction above) proved for every 2 <= n <= n_max (n = 1 is trivial).

    explore: sizes beyond n_max to try only for the scaling table (never change the verdict).
    """
    n_max = check_size("S: length bound n", n_max, MAX_N_S, minimum=2)
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.S.lipschitz", "S", "proved", size_label="n")
    return run_sizes(
        run,
        list(range(2, n_max + 1)),
        lambda n: [(v, None) for v in prove_S(n, timeout_s, keep_dir)],
        budget_s,
        explore=[check_size("S: explore size", e, MAX_N_S) for e in (explore or [])],
    )


def check_S_wrong(n_max: int, timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return the wrong twin of S refuted, with replayed countermodels, for every 2 <= n <= n_max."""
    from hardsoft.smt.replay import replay_S_wrong

    n_max = check_size("S twin: length bound n", n_max, MAX_N_S, minimum=2)
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.S.wrong_half", "S", "refuted", size_label="n")

    def one(n: int):
        v = search_S_wrong(n, timeout_s, keep_dir)
        return [(v, replay_S_wrong(n, v.values) if v.status == "refuted" else None)]

    return run_sizes(run, list(range(2, n_max + 1)), one, budget_s)


# --------------------------------------------------------------------------- cvc5


def query_S2() -> str:
    """Return statement S at n = 2 for cvc5 with native exp, written with score differences (a_2 - a_1)/tau."""
    return "\n".join(
        [
            "(set-logic ALL)",
            declare_reals(["a1", "a2", "b1", "b2", "tau", "d"]),
            "(assert (> tau 0.0))(assert (>= d 0.0))",
            "(assert (<= (- a1 b1) d))(assert (<= (- b1 a1) d))(assert (<= (- a2 b2) d))(assert (<= (- b2 a2) d))",
            "(assert (not (<= (* 2.0 (abs (- (/ 1.0 (+ 1.0 (exp (/ (- a2 a1) tau)))) (/ 1.0 (+ 1.0 (exp (/ (- b2 b1) tau))))))) (/ d tau))))",
            "(check-sat)",
        ]
    )


def cvc5_S(n: int, st: Mapping[str, Any]) -> list[Cvc5Query]:
    """Return statement S with native exp for cvc5; only n = 2 is written (ValueError for another n)."""
    if n != 2:
        raise ValueError(f"S: the native-exp cvc5 query exists for n = 2 only, not n = {n}")
    return [("S native exp n=2", query_S2(), "unsat")]


def cvc5_S_wrong(n: int, st: Mapping[str, Any]) -> list[Cvc5Query]:
    """Return the wrong twin of S at n positions, sign case k = 1, for cvc5 (the abstraction with the search's upper fact)."""
    v = encode_S(n)
    pattern, l1 = sign_case(v, 1)
    hyps = v["hyps"] + pattern + [2 * v["delta"] * v["y"] >= v["y"] * v["y"] - 1]
    return [(f"S twin abstraction n={n} k=1", search_to_smt2(hyps, l1 > v["delta"] / 2), "sat")]


# --------------------------------------------------------------------------- the checks


def run_S(st: Mapping[str, Any], keep_dir: Path | None) -> CheckRun:
    """Return check_S with a preset's settings."""
    return check_S(st["bound"], st["timeout"], keep_dir, st.get("budget"), st.get("explore"))


def run_S_wrong(st: Mapping[str, Any], keep_dir: Path | None) -> CheckRun:
    """Return check_S_wrong with a preset's settings."""
    return check_S_wrong(st["bound"], st["timeout"], keep_dir, st.get("budget"))


CHECKS: tuple[SmtCheck, ...] = (
    SmtCheck(
        name="smt.S.lipschitz",
        claim="S",
        expect=Expect.PROVED,
        run=run_S,
        presets={
            "tiny": {
                "bound": 16,
                "timeout": 20,
                "budget": 100,
                "cvc5": [2],
                "cvc5_timeout": 4,
                "yices": [2, 3, 16],
                "yices_original": [2],
                "yices_original_timeout": 2,
                "yices_timeout": 10,
            },
            "paper": {
                "bound": 32,
                "timeout": 120,
                "budget": 400,
                "explore": [64],
                "cvc5": [2],
                "cvc5_timeout": 30,
                "yices": [2, 3, 4, 8, 16],
                "yices_original": [2],
                "yices_original_timeout": 5,
                "yices_timeout": 10,
                "yices_budget": 240,
            },
        },
        size_label="n",
        min_size=2,
        max_size=MAX_N_S,
        cover=Coverage(
            varied={"sign case k": "every 1..n (positions with q >= p first)"},
            fixed={"a, b, tau": "symbolic (through p, q, y = exp(delta))"},
            assumed=("exp abstraction F5 (ratio bounds, log-mean inequality)",),
        ),
        z3_only="the original sign-case queries (Yices times out from n = 2, k = 1); they are confirmed "
        "through an equivalent reformulation (block sums: facts + one two-variable query) that "
        "Z3 and Yices both decide",
        cvc5=cvc5_S,
        cost_rank=0,
        reformulation=Reformulation(
            what="S case k re-proved as 'facts' (block sums P, Q of the k positions with "
            "q >= p) + one 'block' query in P, Q (smt.s_lipschitz.block_queries)",
            prove=prove_S_blocks,
        ),
    ),
    SmtCheck(
        name="smt.S.wrong_half",
        claim="S",
        expect=Expect.TWIN,
        run=run_S_wrong,
        presets={
            "tiny": {"bound": 8, "timeout": 10, "budget": 100, "cvc5": [], "cvc5_timeout": 5},
            "paper": {"bound": 32, "timeout": 60, "budget": 120, "cvc5": [2], "cvc5_timeout": 30},
        },
        size_label="n",
        min_size=2,
        max_size=MAX_N_S,
        cover=Coverage(
            varied={"sign case k": "1..n until a countermodel"},
            fixed={"search-only": "y <= 2, ln y <= (y - 1/y)/2, margin 1/1000"},
            assumed=("countermodels replayed in the spec",),
        ),
        cvc5=cvc5_S_wrong,
    ),
)
