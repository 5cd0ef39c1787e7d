"""Lemma 8 (tie-breaking), Lemma 7 (table lookup), counting, sign, the S-RASP lookup, prefix-argmax, the Dyck partner: score facts by Z3.

The constructions (constructive.heads, constructive.srasp.compiler) rest on facts about
their attention SCORES: which key is the unique maximum, how large the gap is, and that
the sorted scores form a ziggurat (Lemma 6, statement Z) with step = the gap.  Each fact
is checked here by ``core.prove`` (non-vacuity included), each with a wrong twin that
``core.search`` refutes and whose countermodel is replayed in exact arithmetic.

Lemma 8 (tie-breaking), scores of ``tiebreak_head`` (sigma = +1 past, -1 future):
  bounded   s_j = K (select_j + sigma j/n),   gap K/n;
  unbounded s_j = K (n select_j + sigma j),   gap K.
  * rank inequality for EVERY n (integers n, i, j*, j, k unbounded): the key of rank k
    below the top j* is at least k-1 steps (of K/n) down; the three cases (selected key,
    unselected key, no key selected) are three queries.  Assumed: the rank counts
    (at most j* - j selected keys, resp. (j*+1) + (i-1-j) keys, lie above key j).
  * bounded n (every n up to a bound, every selection select_j in {0, 1} and every query
    i: Boolean variables, symbolic K > 0, both directions and regimes): the intended key
    (the nearest selected visible key, else the nearest visible key) is the unique max
    with gap >= K/n (resp. K), and the visible scores form a ziggurat with step = gap.
  Wrong twin: gap 2K/n (resp. 2K).
Lemma 7 (table lookup, parabolic scores of ``lookup_head``): s_j = K (2 t j - j^2); for
  integers t, j != t (every n, both one-sided masks and the two-sided one) the target t
  wins by K (t-j)^2 >= K max(1, |t - j|): gap K, and on one side a ziggurat with step K.
  Wrong twin: loses >= 2K.
Sign head (``sign_head``, comparison of counts): V = N / max(D, 1) with N a half-integer and
  0 <= D <= n-1, so |V| >= 1/(2(n-1)) and the parity scores K o V p_j (bounded), K o V n p_j
  (unbounded) have gap 2K|V| >= K/n (resp. K); n = 2..bound, N = h + 1/2 for ANY integer h,
  integer D.  Wrong twin: |V| >= 1/(n-1).
S-RASP lookup over positions (``compile_program``'s Psum lookup head, claim APP-DYCK):
  s_p = (2 p S - p^2)/i; for every integer p, S and i >= 1, p != S loses >= 1/i; over the
  visible keys 0 <= p <= i with |S| <= i the unique max is p* = max(0, S), again with gap
  >= 1/i.  Wrong twin: gap >= 2/i.
Gated position head (``gated_position_spec``, the S-RASP compiler's integer selects and conditionals, claim
  APP-DYCK): s_j = (2 g - 1) j over the keys j < N; for every N >= 1, gate g in {0, 1} and key p, the target
  t = g (N - 1) is at least |p - t| above key p (a ziggurat of step 1, gap 1).  Wrong twin: gap 2.
Prefix-argmax (``build_prefix_argmax`` head A, claim APP-PA): s_j = c_j/(j+1) + j/n^3; for every n, keys
  j != t < n and cross products P = c_j (t+1) <= Q = c_t (j+1) (t the last maximiser of the ratio),
  s_t - s_j >= 1/n^3 (cross-multiplied by n^3 (j+1)(t+1)).  Wrong twin: gap 2/n^3.
Flip-flop and induction heads (``build_flip_flop``'s head, claim APP-FF; ``build_k_hop``'s heads P and M_l, claim APP-IND, and
  the same queries again for the k-hop models, P in layer 0 and M_l in every hop layer, claim APP-KHOP): n s_j = n [sel_j] + j,
  the target the last selected key (P: nothing selected, target i - 1; M_l: key 0 never matches); for every n, query, keys
  j != t and selection bits, s_t - s_j >= 1/n (one linear integer query per head).  Wrong twin: gap 2/n.
Dyck partner (``compile_program``'s Aggregate of ``dyck_program``, claim APP-DYCK): s_j = 2 [open_j] -
  2 (depth_j - (depth_i - 1))^2 + j/n = 2 - E_j + j/n; for every n, query i <= n, keys j != t < i, depths
  and open flags with E_t <= E_j (E_j = E_t -> j < t), s_t - s_j >= 1/n.  Wrong twin: gap 2/n.
Counting (``count_head``, uniform attention): W_Q = W_K = 0, so for every residual stream
  every score is equal (soft = hard exactly); checked on symbolic residual vectors with the
  head's own matrices (passed in; the default is the transcription W_Q = W_K = 0).
  Wrong twin: a unique maximum with a positive gap.

The score functions below are transcriptions of the docstrings of constructive.heads and
constructive.srasp.compiler (smt/ may not import constructive); tests/smt/test_heads_smt.py
ties each one to the scores of the head the constructive code builds, and replays every
twin's countermodel through that head too.  Replays here use exact Fractions and the spec's
attention.compute_gap / bounds.is_ziggurat.

Integer statements with nonlinear scores (Lemma 7, sign, S-RASP) are proved in two queries
(``_lemma_then_claim``): a LINEAR integer lemma (distinct integers differ by >= 1, a half-integer
is >= 1/2 in size, products and deficits as atoms), then the claim over the reals from the same hypotheses and the lemma; Yices
decides both, while it times out on the nonlinear integer form.  Logics (smt.solvers.yices.smt_logic,
the logic every query is exported to Yices under): Lemma 8's bounded queries and the counting ones are linear real arithmetic with Booleans
(QF_LRA), the rank queries and the integer lemmas QF_LIA, the real steps QF_NRA, the
integer twins' searches QF_NIA / QF_NIRA.  Integer queries and the (linear, Boolean-heavy)
Lemma 8 queries use Z3's ``smt`` engine: its QF_NRA solver does not decide the integer ones
and is ~10x slower on the Boolean ones (n = 8: 17 s against 1.9 s).

The twenty-four checks are registered in ``CHECKS`` (smt/check.py).  The statements over symbolic
integers (Lemma 8's rank inequality, Lemma 7, the S-RASP lookup, the gated head, prefix-argmax, the Dyck partner, and their twins) are
``symbolic``: one query set, covering every n at once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import z3

from hardsoft.smt.check import Coverage, Expect, SmtCheck
from hardsoft.smt.core import PROVED, REFUTED, Abs, R, Sum, Verdict, check_size, check_timeout, prove, search
from hardsoft.smt.runs import CheckRun, run_sizes
from hardsoft.spec import attention, bounds

#: Largest length n accepted by the bounded head checks.
MAX_N_HEADS: int = 64
#: Largest length a refutation search may use (its countermodel is replayed position by position).
MAX_N_REPLAY: int = 64
DIRECTIONS: tuple[str, ...] = ("past", "future")
REGIMES: tuple[str, ...] = ("bounded", "unbounded")
#: The masks of Lemma 7's lookup: one-sided (offset -1 / +1) and two-sided (offset 0).
LOOKUP_MASKS: dict[str, int] = {"strict": -1, "strict_anticausal": 1, "none": 0}


# --------------------------------------------------------------------------- score functions


def tiebreak_score(select: Any, j: int, n: int, K: Any, direction: str, regime: str) -> Any:
    """Lemma 8 (tie-breaking): score of key j, K (select_j + sigma j/n) (bounded) or K (n select_j + sigma j) (unbounded).

    select: 0/1, a bool or a Z3 Boolean; K a number or a Z3 real.  Exact (Fraction) on numbers.
    """
    if direction not in DIRECTIONS or regime not in REGIMES:
        raise ValueError(f"direction/regime must be in {DIRECTIONS}/{REGIMES}, got {direction!r}/{regime!r}")
    sigma = 1 if direction == "past" else -1
    sel_K = z3.If(select, K, R(0)) if isinstance(select, z3.BoolRef) else K * int(bool(select))  # linear in K
    if regime == "bounded":
        step = R(Fraction(sigma * j, n)) if isinstance(K, z3.ExprRef) else Fraction(sigma * j, n)
        return sel_K + K * step
    return n * sel_K + K * sigma * j


def tiebreak_gap(n: int, K: Any, regime: str) -> Any:
    """Lemma 8: the claimed gap, K/n (bounded) or K (unbounded)."""
    return K / n if regime == "bounded" else K


def lookup_score(t: Any, j: Any) -> Any:
    """Lemma 7 (table lookup): score 2 t j - j^2 of key j for target t, in units of K (unbounded; K/n^2 bounded)."""
    return 2 * t * j - j * j


def sign_score(V: Any, parity: int, n: int, K: Any, orientation: Any, regime: str) -> Any:
    """Comparison head: score K o V p_j (bounded) or K o V n p_j (unbounded) of a key with parity p_j = +-1."""
    return K * orientation * V * parity * (1 if regime == "bounded" else n)


def srasp_lookup_score_times_i(p: Any, S: Any) -> Any:
    """S-RASP Psum lookup: i times the score (2 p S - p^2)/i of key p at a query with prefix sum S."""
    return 2 * p * S - p * p


def intended_key(select: Sequence[int], i: int, direction: str) -> int | None:
    """Lemma 8's hard choice: the nearest selected visible key (j < i past, j > i future), else the nearest visible one."""
    keys = list(range(i - 1, -1, -1)) if direction == "past" else list(range(i + 1, len(select)))
    chosen = [j for j in keys if select[j]]
    return chosen[0] if chosen else (keys[0] if keys else None)


def _fr(values: dict[str, float], model: dict[str, str], name: str, default: Any = 0) -> Fraction:
    """Return an exact model value (from the exact strings when rational, else the float)."""
    s = model.get(name)
    if s is not None and not s.endswith("?") and s not in ("True", "False"):
        return Fraction(s)
    return Fraction(values.get(name, default))


def _flag(values: dict[str, float], name: str) -> int:
    """Return a Boolean model value as 0/1 (absent: 0, Z3 left it free)."""
    return int(values.get(name, 0.0) > 0.5)


def _exact_gap(scores: list[Fraction]) -> Fraction | None:
    """Return max - second largest distinct value (None if all equal)."""
    top = max(scores)
    rest = [s for s in scores if s != top]
    return top - max(rest) if rest else None


def _real(x: Any) -> Any:
    """Return x as a real term (ToReal of an integer term)."""
    return z3.ToReal(x) if isinstance(x, z3.ArithRef) and x.is_int() else x


def _lemma_then_claim(
    encode: Callable[[Callable[[str], Any]], dict[str, Any]],
    lemma: Callable[[dict[str, Any]], z3.BoolRef],
    claim: Callable[[dict[str, Any]], z3.BoolRef],
    name: str,
    timeout_s: float,
    keep_dir: Path | None,
) -> Verdict:
    """Return the verdict of a statement over INTEGERS proved in two queries: the integer lemma, then the claim over reals.

    1. ``lemma`` is proved from the hypotheses (or the subset ``lemma_hyps`` of them) with the variables as integers (linear integer facts such as
       "j != t implies |t - j| >= 1");
    2. ``claim`` is proved from the SAME hypotheses and the lemma with the variables as reals.
    Every integer instance of the hypotheses is a real instance satisfying the lemma, so 1 and 2 give the claim for
    every integer instance.  "proved" only if both are (so Yices, weak on nonlinear integers, can decide both).
    """
    vi = encode(z3.Int)
    lem = prove(vi.get("lemma_hyps", vi["hyps"]), lemma(vi), timeout_s=timeout_s, name=f"{name}_integers", keep_dir=keep_dir, engine="smt")
    if lem.status != PROVED:
        return lem
    vr = encode(z3.Real)
    main = prove(vr["hyps"] + [lemma(vr)], claim(vr), timeout_s=timeout_s, name=name, keep_dir=keep_dir)
    main.seconds += lem.seconds
    return main


def _every_n(run: CheckRun, queries: Callable[[int], list[tuple[Verdict, dict | None]]], budget_s: float | None) -> CheckRun:
    """Return run filled in by run_sizes at ONE size (the statement is over symbolic integers: every n at once)."""
    run.size_label = "every n"
    run = run_sizes(run, [1], queries, budget_s)
    if run.verdict == run.expected:
        k = len(run.queries.get(1, []))
        run.detail = (
            f"proved for every n (symbolic integers; {k} solver queries)"
            if run.verdict == PROVED
            else f"refuted (a countermodel search over a symbolic n, replayed; {k} solver queries)"
        )
    return run


def _twins(
    cases: Sequence[Any], search_one: Callable[[int, Any], Verdict], replay_one: Callable[[int, Any, Verdict], dict]
) -> Callable[[int], list[tuple[Verdict, dict | None]]]:
    """Return the per-size queries of a twin check: for each case, search_one(size, case), and every refutation replayed.

    replay_one(size, case, verdict) rebuilds the countermodel in exact arithmetic (its "confirmed" entry decides it).
    """

    def one(size: int) -> list[tuple[Verdict, dict | None]]:
        out = []
        for case in cases:
            v = search_one(size, case)
            out.append((v, replay_one(size, case, v) if v.status == REFUTED else None))
        return out

    return one


# --------------------------------------------------------------------------- Lemma 8: rank inequality for every n

#: The three cases of the rank inequality (see encode_L8_rank).
L8_RANK_CASES: tuple[str, ...] = ("selected", "unselected", "none selected")


def encode_L8_rank(case: str) -> dict[str, Any]:
    """Return integers n, i, j*, j, k and the case's hypotheses (scores times n/K: n select_j + j, query i, top j*).

    selected:      j < j* selected, at most j* - j keys above it:        k - 1 <= j* - j, drop j* - j;
    unselected:    j != j* unselected, at most (j*+1) + (i-1-j) above:  k - 1 <= i + j* - j, drop n + j* - j;
    none selected: the top is i - 1, key j of rank k = i - j:           drop i - 1 - j.
    """
    n, i, js, j, k = z3.Ints("n i jstar j k")
    hyps: list[z3.BoolRef] = [n >= 2, i >= 1, i <= n - 1, j >= 0, k >= 1]
    if case == "selected":
        hyps += [js >= 0, js < i, j < js, k - 1 <= js - j]
        drop = js - j
    elif case == "unselected":
        hyps += [js >= 0, js < i, j < i, j != js, k - 1 <= (js + 1) + (i - 1 - j)]
        drop = n + js - j
    elif case == "none selected":
        hyps += [j < i, k - 1 == i - 1 - j]
        drop = (i - 1) - j
    else:
        raise ValueError(f"case must be one of {L8_RANK_CASES}, got {case!r}")
    return {"n": n, "i": i, "jstar": js, "j": j, "k": k, "drop": drop, "hyps": hyps, "case": case}


def claim_L8_rank(v: dict[str, Any], step: int = 1) -> z3.BoolRef:
    """Return Lemma 8's ziggurat inequality for the key of rank k: drop >= step (k - 1) (step 1 = gap K/n)."""
    return v["drop"] >= step * (v["k"] - 1)


def prove_L8_rank(timeout_s: float, keep_dir: Path | None = None) -> list[Verdict]:
    """Return the verdicts of Lemma 8's rank inequality for every n, one per case."""
    out = []
    for case in L8_RANK_CASES:
        v = encode_L8_rank(case)
        out.append(prove(v["hyps"], claim_L8_rank(v), timeout_s=timeout_s, name=f"L8_rank_{case.replace(' ', '_')}", keep_dir=keep_dir, engine="smt"))
    return out


def search_L8_rank_wrong(case: str, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return a countermodel search for the twin (drop >= 2 (k-1), i.e. step 2K/n) in one case.

    Search-only facts (true in the instance the replay builds): the rank is EXACT for the
    selection the replay uses (selected: keys j..j* selected, k - 1 = j* - j; unselected: only
    j* selected, k - 1 = 1 + (i-1-j) - [j* > j]; none selected: k - 1 = i-1-j), and n <= MAX_N_REPLAY.
    """
    v = encode_L8_rank(case)
    n, i, js, j, k = v["n"], v["i"], v["jstar"], v["j"], v["k"]
    exact = {"selected": k - 1 == js - j, "unselected": k - 1 == 1 + (i - 1 - j) - z3.If(js > j, 1, 0), "none selected": k - 1 == i - 1 - j}[case]
    return search(
        v["hyps"] + [exact, n <= MAX_N_REPLAY],
        z3.Not(claim_L8_rank(v, 2)),
        timeout_s=timeout_s,
        name=f"L8_rank_wrong_{case.replace(' ', '_')}",
        keep_dir=keep_dir,
    )


def replay_L8_rank_wrong(case: str, values: dict[str, float]) -> dict[str, Any]:
    """Rebuild the selection of a rank-twin countermodel and show its visible scores are no ziggurat with step 2K/n.

    Past direction, bounded regime, K = 1 (the unbounded scores are n times these).
    """
    n, i, js, j = (int(values.get(x, 0)) for x in ("n", "i", "jstar", "j"))  # jstar is absent when none is selected
    if case == "selected":
        sel = [int(j <= l <= js) for l in range(n)]
    elif case == "unselected":
        sel = [int(l == js) for l in range(n)]
    else:
        sel = [0] * n
    K = Fraction(1)
    scores = [tiebreak_score(sel[l], l, n, K, "past", "bounded") for l in range(i)]
    gap = tiebreak_gap(n, K, "bounded")
    rank = 1 + sum(1 for l in range(i) if l != j and scores[l] >= scores[j])
    drop = max(scores) - scores[j]
    arr = np.array([float(s) for s in scores])
    return {
        "case": case,
        "n": n,
        "i": i,
        "select": sel,
        "scores": [str(s) for s in scores],
        "key": j,
        "rank": rank,
        "drop": str(drop),
        "is_ziggurat(step K/n)": bounds.is_ziggurat(arr, float(gap) * (1 - 1e-12)),
        "is_ziggurat(step 2K/n)": bounds.is_ziggurat(arr, float(2 * gap)),
        "confirmed": bool(
            drop < 2 * (rank - 1) * gap and not bounds.is_ziggurat(arr, float(2 * gap)) and bounds.is_ziggurat(arr, float(gap) * (1 - 1e-12))
        ),
    }


def check_L8_rank(timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return Lemma 8's rank inequality proved for every n (one size: n is a symbolic integer)."""
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.L8.rank_every_n", "L8", "proved", size_label="every n")
    return _every_n(run, lambda _: [(v, None) for v in prove_L8_rank(timeout_s, keep_dir)], budget_s)


def check_L8_rank_wrong(timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return the rank twin (step 2K/n) refuted in each case, every countermodel replayed."""
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.L8.wrong_rank_step_2K_over_n", "L8", "refuted", size_label="every n")
    one = _twins(
        L8_RANK_CASES, lambda _, case: search_L8_rank_wrong(case, timeout_s, keep_dir), lambda _, case, v: replay_L8_rank_wrong(case, v.values)
    )
    return _every_n(run, one, budget_s)


# --------------------------------------------------------------------------- Lemma 8: every selection, bounded n


def encode_L8(n: int, direction: str, regime: str) -> dict[str, Any]:
    """Return Lemma 8's scores at length n over symbolic selections sel_j, a symbolic query and a symbolic K > 0.

    The query i is encoded by the visible set vis_j = [j < i] (past: a prefix, vis_0 and not vis_(n-1))
    or [j > i] (future: a suffix), so 1 <= i <= n-1 (resp. 0 <= i <= n-2) and some key is visible.
    star_j = [j is the intended key]: the nearest visible selected key, else the nearest visible key.
    """
    sel = [z3.Bool(f"sel_{j}") for j in range(n)]
    vis = [z3.Bool(f"vis_{j}") for j in range(n)]
    K = z3.Real("K")
    past = direction == "past"
    hyps: list[z3.BoolRef] = [K > 0]
    if past:
        hyps += [vis[0], z3.Not(vis[n - 1])] + [z3.Implies(vis[j + 1], vis[j]) for j in range(n - 1)]
    else:
        hyps += [vis[n - 1], z3.Not(vis[0])] + [z3.Implies(vis[j], vis[j + 1]) for j in range(n - 1)]

    def nearer(j: int) -> range:
        return range(j + 1, n) if past else range(0, j)

    any_sel = z3.Or([z3.And(vis[j], sel[j]) for j in range(n)])
    star = []
    for j in range(n):
        nxt = j + 1 if past else j - 1
        nearest_visible = z3.Not(vis[nxt]) if 0 <= nxt < n else z3.BoolVal(True)
        no_nearer_sel = z3.And([z3.Not(z3.And(vis[l], sel[l])) for l in nearer(j)]) if list(nearer(j)) else z3.BoolVal(True)
        star.append(z3.And(vis[j], z3.Or(z3.And(sel[j], no_nearer_sel), z3.And(z3.Not(any_sel), nearest_visible))))
    s = [tiebreak_score(sel[j], j, n, K, direction, regime) for j in range(n)]
    s_star = Sum([z3.If(star[j], s[j], R(0)) for j in range(n)])
    return {"n": n, "sel": sel, "vis": vis, "star": star, "s": s, "s_star": s_star, "K": K, "gap": tiebreak_gap(n, K, regime), "hyps": hyps}


def claim_L8(v: dict[str, Any]) -> z3.BoolRef:
    """Return Lemma 8's conclusion: one intended key, unique max with gap >= K/n (resp. K), ziggurat with step = gap.

    Ziggurat (Lemma 6's hypothesis s_(1) - s_(k) >= (k-1) gap over the visible sorted scores), stated per key:
    s_top - s_j >= gap * #{visible l != j : s_l >= s_j} (with ties the last of equal scores is the binding one).
    """
    n, vis, star, s, top, gap = v["n"], v["vis"], v["star"], v["s"], v["s_star"], v["gap"]
    one = Sum([z3.If(star[j], R(1), R(0)) for j in range(n)]) == 1
    unique = z3.And([z3.Implies(z3.And(vis[j], z3.Not(star[j])), top - s[j] >= gap) for j in range(n)])
    zig = z3.And(
        [z3.Implies(vis[j], top - s[j] >= Sum([z3.If(z3.And(vis[l], s[l] >= s[j]), gap, R(0)) for l in range(n) if l != j])) for j in range(n)]
    )
    return z3.And(one, unique, zig)


def prove_L8(n: int, timeout_s: float, keep_dir: Path | None = None) -> list[Verdict]:
    """Return the verdicts of Lemma 8 at length n, one per (direction, regime)."""
    out = []
    for direction in DIRECTIONS:
        for regime in REGIMES:
            v = encode_L8(n, direction, regime)
            out.append(prove(v["hyps"], claim_L8(v), timeout_s=timeout_s, name=f"L8_{direction}_{regime}_n{n}", keep_dir=keep_dir, engine="smt"))
    return out


def search_L8_wrong(n: int, direction: str, regime: str, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return a countermodel search for the twin: some visible key other than the intended one within 2 gap of it.

    Search-only fact: K >= 1/8 (keeps the replayed numbers away from 0).
    """
    v = encode_L8(n, direction, regime)
    vis, star, s, top, gap = v["vis"], v["star"], v["s"], v["s_star"], v["gap"]
    violation = z3.Or([z3.And(vis[j], z3.Not(star[j]), top - s[j] < 2 * gap) for j in range(n)])
    return search(
        v["hyps"] + [v["K"] >= R(Fraction(1, 8))], violation, timeout_s=timeout_s, name=f"L8_wrong_{direction}_{regime}_n{n}", keep_dir=keep_dir
    )


def replay_L8_wrong(n: int, direction: str, regime: str, values: dict[str, float], model: dict[str, str]) -> dict[str, Any]:
    """Rebuild selection, query and K of a twin countermodel; exact scores: the gap is < 2 gap_claimed (and >= gap_claimed)."""
    sel = [_flag(values, f"sel_{j}") for j in range(n)]
    vis = [_flag(values, f"vis_{j}") for j in range(n)]
    i = sum(vis) if direction == "past" else n - 1 - sum(vis)
    K = _fr(values, model, "K", 1)
    keys = [j for j in range(n) if (j < i if direction == "past" else j > i)]
    scores = {j: tiebreak_score(sel[j], j, n, K, direction, regime) for j in keys}
    star = intended_key(sel, i, direction)
    gap = _exact_gap(list(scores.values()))
    claimed = tiebreak_gap(n, K, regime)
    top = [j for j in keys if scores[j] == max(scores.values())]
    spec_gap = attention.compute_gap(np.array([float(scores[j]) for j in keys]))
    return {
        "n": n,
        "direction": direction,
        "regime": regime,
        "select": sel,
        "query": i,
        "K": str(K),
        "intended_key": star,
        "scores": {j: str(x) for j, x in scores.items()},
        "gap": str(gap),
        "spec_compute_gap": float(spec_gap),
        "claimed_gap": str(claimed),
        "wrong_gap": str(2 * claimed),
        "confirmed": bool(top == [star] and gap is not None and claimed <= gap < 2 * claimed and spec_gap < float(2 * claimed)),
    }


def check_L8(n_max: int, timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return Lemma 8 (unique max, gap, ziggurat) proved for every 2 <= n <= n_max, every selection and query."""
    n_max = check_size("L8: length bound n", n_max, MAX_N_HEADS, minimum=2)
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.L8.tiebreak_ziggurat", "L8", "proved", size_label="n")
    return run_sizes(run, list(range(2, n_max + 1)), lambda n: [(v, None) for v in prove_L8(n, timeout_s, keep_dir)], budget_s)


def check_L8_wrong(n_max: int, timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return the twin (gap 2K/n, resp. 2K) refuted for every 3 <= n <= n_max, both directions and regimes, replayed.

    (n = 2 has one visible key per query, no competitor: the twin holds there.)
    """
    n_max = check_size("L8 twin: length bound n", n_max, MAX_N_HEADS, minimum=3)
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.L8.wrong_gap_2K_over_n", "L8", "refuted", size_label="n")
    one = _twins(
        [(d, r) for d in DIRECTIONS for r in REGIMES],
        lambda n, dr: search_L8_wrong(n, dr[0], dr[1], timeout_s, keep_dir),
        lambda n, dr, v: replay_L8_wrong(n, dr[0], dr[1], v.values, v.model),
    )
    return run_sizes(run, list(range(3, n_max + 1)), one, budget_s)


# --------------------------------------------------------------------------- Lemma 7: the parabola


def encode_L7(mask: str, sort: Callable[[str], Any] = z3.Int) -> dict[str, Any]:
    """Return n, t, j (integers; sort=z3.Real for the real step of the proof) with the key j != t visible for Lemma 7's mask
    (query i = t - offset a position, target t a key).

    strict (offset -1): keys j < i = t + 1, so j < t; strict_anticausal (offset +1): j > t; none: any j != t.
    """
    if mask not in LOOKUP_MASKS:
        raise ValueError(f"mask must be one of {tuple(LOOKUP_MASKS)}, got {mask!r}")
    n, t, j = (sort(x) for x in ("n", "t", "j"))
    i = t - LOOKUP_MASKS[mask]
    hyps: list[z3.BoolRef] = [n >= 1, t >= 0, t <= n - 1, i >= 0, i <= n - 1, j >= 0, j <= n - 1, j != t]
    hyps += {"strict": [j < t], "strict_anticausal": [j > t], "none": []}[mask]
    return {"n": n, "t": t, "j": j, "loss": lookup_score(t, t) - lookup_score(t, j), "hyps": hyps}


def lemma_L7(v: dict[str, Any]) -> z3.BoolRef:
    """Return the integer fact of Lemma 7: distinct integers differ by >= 1."""
    return Abs(v["t"] - v["j"]) >= 1


def claim_L7(v: dict[str, Any], least: int = 1) -> z3.BoolRef:
    """Return Lemma 7's conclusion in units of K: the key j loses >= least and >= |t - j| (one side: a ziggurat with step K)."""
    return z3.And(v["loss"] >= least, v["loss"] >= Abs(v["t"] - v["j"]))


def prove_L7(timeout_s: float, keep_dir: Path | None = None) -> list[Verdict]:
    """Return the verdicts of Lemma 7 for every n, one per mask (each: integer lemma, then the claim over reals)."""
    return [_lemma_then_claim(partial(encode_L7, mask), lemma_L7, claim_L7, f"L7_{mask}", timeout_s, keep_dir) for mask in LOOKUP_MASKS]


def search_L7_wrong(mask: str, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return a countermodel search for the twin (loses >= 2K).  Search-only fact: n <= MAX_N_REPLAY."""
    v = encode_L7(mask)
    return search(v["hyps"] + [v["n"] <= MAX_N_REPLAY], v["loss"] < 2, timeout_s=timeout_s, name=f"L7_wrong_{mask}", keep_dir=keep_dir)


def replay_L7_wrong(mask: str, values: dict[str, float]) -> dict[str, Any]:
    """Rebuild n, target t and key j; every visible key's exact score at query i = t - offset: j is visible, t the unique max, j loses < 2."""
    n, t, j = (int(values[x]) for x in ("n", "t", "j"))
    i = t - LOOKUP_MASKS[mask]
    visible = [l for l in range(n) if mask == "none" or (l < i if mask == "strict" else l > i)]
    scores = {l: lookup_score(t, l) for l in visible}
    top = [l for l in visible if scores[l] == max(scores.values())]
    return {
        "mask": mask,
        "n": n,
        "query": i,
        "target": t,
        "key": j,
        "scores_over_K": scores,
        "loss_over_K": scores[t] - scores[j] if j in scores and t in scores else None,
        "confirmed": bool(0 <= i < n and j in scores and top == [t] and scores[t] - scores[j] < 2),
    }


def check_L7(timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return Lemma 7's parabola (loss >= K max(1, |t - j|)) proved for every n, t, j, each mask (one size)."""
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.L7.parabola", "L7", "proved", size_label="every n")
    return _every_n(run, lambda _: [(v, None) for v in prove_L7(timeout_s, keep_dir)], budget_s)


def check_L7_wrong(timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return the twin (every other key loses >= 2K) refuted for each mask, every countermodel replayed."""
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.L7.wrong_loss_2K", "L7", "refuted", size_label="every n")
    one = _twins(list(LOOKUP_MASKS), lambda _, mask: search_L7_wrong(mask, timeout_s, keep_dir), lambda _, mask, v: replay_L7_wrong(mask, v.values))

    return _every_n(run, one, budget_s)


# --------------------------------------------------------------------------- the sign head


def encode_sign(n: int, sort: Callable[[str], Any] = z3.Int) -> dict[str, Any]:
    """Return V = N / max(D, 1) with N = h + 1/2 (h any integer), 0 <= D <= n-1 (integer), K > 0, o = +-1, at length n.

    sort=z3.Real: h, D as reals (the real step of the proof).
    """
    h, D = sort("h"), sort("D")
    V, K, o = z3.Reals("V K o")
    N = _real(h) + R(Fraction(1, 2))
    base: list[z3.BoolRef] = [D >= 0, D <= n - 1]
    hyps = base + [V * _real(z3.If(D >= 1, D, 1)) == N, K > 0, z3.Or(o == 1, o == -1)]
    return {"n": n, "h": h, "D": D, "V": V, "K": K, "o": o, "hyps": hyps, "lemma_hyps": base}


def lemma_sign(v: dict[str, Any]) -> z3.BoolRef:
    """Return the integer fact of the sign head: a half-integer N = h + 1/2 has |2N| = |2h + 1| >= 1."""
    return Abs(2 * v["h"] + 1) >= 1


def claim_sign(v: dict[str, Any], denominator: Callable[[int], int] = lambda n: 2 * (n - 1)) -> z3.BoolRef:
    """Return |V| >= 1/(2(n-1)) and the parity heads' gaps 2K|V| >= K/n (bounded), >= K (unbounded)."""
    n, V, K, o = v["n"], v["V"], v["K"], v["o"]
    gb = Abs(sign_score(V, 1, n, K, o, "bounded") - sign_score(V, -1, n, K, o, "bounded"))
    gu = Abs(sign_score(V, 1, n, K, o, "unbounded") - sign_score(V, -1, n, K, o, "unbounded"))
    return z3.And(Abs(V) * denominator(n) >= 1, gb * n >= K, gu >= K)


def prove_sign(n: int, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return the verdict of the sign head's margin and gap at length n."""
    return _lemma_then_claim(lambda sort: encode_sign(n, sort), lemma_sign, claim_sign, f"sign_n{n}", timeout_s, keep_dir)


def search_sign_wrong(n: int, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return a countermodel search for the twin |V| >= 1/(n-1).  Search-only facts: K = 1, o = 1."""
    v = encode_sign(n)
    return search(v["hyps"] + [v["K"] == 1, v["o"] == 1], Abs(v["V"]) * (n - 1) < 1, timeout_s=timeout_s, name=f"sign_wrong_n{n}", keep_dir=keep_dir)


def replay_sign_wrong(n: int, values: dict[str, float], model: dict[str, str]) -> dict[str, Any]:
    """Rebuild V = (h + 1/2)/max(D, 1) exactly; the bounded parity scores over all n keys: gap 2|V| < 2/(n-1), yet >= 1/n.

    (V is what the count heads write for the comparison #<[f] - ... with constant h + 1/2 at a query i = D with no counted key.)
    """
    h, D = int(values["h"]), int(values["D"])
    V = (Fraction(h) + Fraction(1, 2)) / max(D, 1)
    scores = [sign_score(V, 1 if j % 2 == 0 else -1, n, Fraction(1), 1, "bounded") for j in range(n)]
    gap = _exact_gap(scores)
    return {
        "n": n,
        "N": str(Fraction(h) + Fraction(1, 2)),
        "D": D,
        "V": str(V),
        "scores": [str(s) for s in scores],
        "gap": str(gap),
        "spec_compute_gap": float(attention.compute_gap(np.array([float(s) for s in scores]))),
        "confirmed": bool(0 <= D <= n - 1 and gap is not None and abs(V) < Fraction(1, n - 1) and Fraction(1, n) <= gap < Fraction(2, n - 1)),
    }


def check_sign(n_max: int, timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return the sign head's margin |V| >= 1/(2(n-1)) and gaps proved for every 2 <= n <= n_max."""
    n_max = check_size("sign: length bound n", n_max, MAX_N_HEADS, minimum=2)
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.CNT.sign_margin", "CNT", "proved", size_label="n")
    return run_sizes(run, list(range(2, n_max + 1)), lambda n: [(prove_sign(n, timeout_s, keep_dir), None)], budget_s)


def check_sign_wrong(n_max: int, timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return the twin |V| >= 1/(n-1) refuted for every 2 <= n <= n_max, replayed."""
    n_max = check_size("sign twin: length bound n", n_max, MAX_N_HEADS, minimum=2)
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.CNT.wrong_sign_margin_1_over_n_minus_1", "CNT", "refuted", size_label="n")
    one = _twins([None], lambda n, _: search_sign_wrong(n, timeout_s, keep_dir), lambda n, _, v: replay_sign_wrong(n, v.values, v.model))

    return run_sizes(run, list(range(2, n_max + 1)), one, budget_s)


# --------------------------------------------------------------------------- S-RASP lookup over positions


def encode_srasp(visible_only: bool, sort: Callable[[str], Any] = z3.Int) -> dict[str, Any]:
    """Return integers p, S, i >= 1 and the scores times i (c_p = 2 p S - p^2) of key p and of the target.

    visible_only False: target S, any integer p != S; True: |S| <= i (a prefix sum), keys 0 <= p <= i
    (causal), target p* = max(0, S), p != p*.  Scores s = c / i are reals defined by s i = c.
    sort=z3.Real: p, S, i as reals (the real step of the proof).
    """
    p, S, i = (sort(x) for x in ("p", "S", "i"))
    sp, st = z3.Reals("s_p s_target")
    target = z3.If(S >= 0, S, 0) if visible_only else S
    hyps: list[z3.BoolRef] = [i >= 1, p != target]
    if visible_only:
        hyps += [S >= -i, S <= i, p >= 0, p <= i]
    base = list(hyps)
    hyps += [sp * _real(i) == _real(srasp_lookup_score_times_i(p, S)), st * _real(i) == _real(srasp_lookup_score_times_i(target, S))]
    return {"p": p, "S": S, "i": i, "target": target, "s_p": sp, "s_target": st, "hyps": hyps, "lemma_hyps": base}


def lemma_srasp(v: dict[str, Any]) -> z3.BoolRef:
    """Return the integer facts of the S-RASP lookup: p differs from the target by >= 1, and S >= 0 or S <= -1."""
    return z3.And(Abs(v["p"] - v["target"]) >= 1, z3.Or(v["S"] >= 0, v["S"] <= -1))


def claim_srasp(v: dict[str, Any], least: int = 1) -> z3.BoolRef:
    """Return the lookup's gap: s_target - s_p >= least / i (cross-multiplied by i > 0)."""
    return (v["s_target"] - v["s_p"]) * _real(v["i"]) >= least


def prove_srasp(timeout_s: float, keep_dir: Path | None = None) -> list[Verdict]:
    """Return the verdicts of the S-RASP lookup's gap: every integer p, S; the visible keys with p* = max(0, S)."""
    return [
        _lemma_then_claim(
            partial(encode_srasp, vo),
            lemma_srasp,
            claim_srasp,
            f"srasp_lookup_{'visible' if vo else 'every_p'}",
            timeout_s,
            keep_dir,
        )
        for vo in (False, True)
    ]


def search_srasp_wrong(timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return a countermodel search for the twin (gap >= 2/i) over the visible keys.  Search-only fact: i <= MAX_N_REPLAY."""
    v = encode_srasp(True)
    return search(v["hyps"] + [v["i"] <= MAX_N_REPLAY], z3.Not(claim_srasp(v, 2)), timeout_s=timeout_s, name="srasp_lookup_wrong", keep_dir=keep_dir)


def replay_srasp_wrong(values: dict[str, float]) -> dict[str, Any]:
    """Rebuild i and S; exact scores (2 p S - p^2)/i of every key p <= i: the max is max(0, S), the gap < 2/i (and >= 1/i)."""
    i, S = int(values["i"]), int(values["S"])
    scores = [Fraction(srasp_lookup_score_times_i(p, S), i) for p in range(i + 1)]
    top = [p for p in range(i + 1) if scores[p] == max(scores)]
    gap = _exact_gap(scores)
    return {
        "query": i,
        "prefix_sum": S,
        "scores": [str(s) for s in scores],
        "argmax": top,
        "gap": str(gap),
        "confirmed": bool(abs(S) <= i and top == [max(0, S)] and gap is not None and Fraction(1, i) <= gap < Fraction(2, i)),
    }


def check_srasp(timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return the S-RASP lookup's unique max and gap >= 1/i proved for every integer p, S, i >= 1 (one size)."""
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.APP-DYCK.srasp_lookup_gap", "APP-DYCK", "proved", size_label="every n")
    return _every_n(run, lambda _: [(v, None) for v in prove_srasp(timeout_s, keep_dir)], budget_s)


def check_srasp_wrong(timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return the twin (gap >= 2/i) refuted, the countermodel replayed."""
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.APP-DYCK.wrong_srasp_gap_2_over_i", "APP-DYCK", "refuted", size_label="every n")
    one = _twins([None], lambda _, __: search_srasp_wrong(timeout_s, keep_dir), lambda _, __, v: replay_srasp_wrong(v.values))

    return _every_n(run, one, budget_s)


# --------------------------------------------------------------------------- the gated position head (S-RASP's integer selects)


def gated_score(g: Any, j: Any) -> Any:
    """The gated position head (``gated_position_spec``): the score (2 g - 1) j of key j under the gate g in {0, 1} (j if g, else -j)."""
    return z3.If(g == 1, j, -j) if isinstance(g, z3.ExprRef) else (2 * g - 1) * j


def encode_gated() -> dict[str, Any]:
    """Return integers N >= 1 (the visible keys j < N), a gate g in {0, 1}, a key 0 <= p < N and the target t = g (N - 1)."""
    N, g, p = z3.Ints("N g p")
    t = z3.If(g == 1, N - 1, 0)
    hyps: list[z3.BoolRef] = [N >= 1, z3.Or(g == 0, g == 1), p >= 0, p <= N - 1]
    return {"N": N, "g": g, "p": p, "t": t, "s_p": gated_score(g, p), "s_t": gated_score(g, t), "hyps": hyps}


def claim_gated(v: dict[str, Any], step: int = 1) -> z3.BoolRef:
    """Return the ziggurat of HardSoft.gated_position_gap: every key at least step |p - t| below the target (so the gap is step)."""
    return v["s_t"] - v["s_p"] >= step * Abs(v["p"] - v["t"])


def prove_gated(timeout_s: float, keep_dir: Path | None = None) -> list[Verdict]:
    """Return the verdict of the gated head's ziggurat of step 1 for every N, gate and key (one linear integer query)."""
    v = encode_gated()
    return [prove(v["hyps"], claim_gated(v), timeout_s=timeout_s, name="gated_position_ziggurat", keep_dir=keep_dir, engine="smt")]


def search_gated_wrong(timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return a countermodel search for the twin (step 2: gap 2) at a key p != t.  Search-only fact: N <= MAX_N_REPLAY."""
    v = encode_gated()
    hyps = v["hyps"] + [v["p"] != v["t"], v["N"] <= MAX_N_REPLAY]
    return search(hyps, z3.Not(claim_gated(v, 2)), timeout_s=timeout_s, name="gated_position_wrong", keep_dir=keep_dir)


def replay_gated_wrong(values: dict[str, float]) -> dict[str, Any]:
    """Rebuild N, the gate and the key; exact scores (2 g - 1) j of every key j < N: the max is g (N - 1), the gap 1 (< 2)."""
    N, g, p = (int(values.get(x, 0)) for x in ("N", "g", "p"))
    scores = [Fraction(gated_score(g, j)) for j in range(N)]
    t = N - 1 if g == 1 else 0
    top = [j for j in range(N) if scores[j] == max(scores)]
    gap = _exact_gap(scores)
    return {
        "keys": N,
        "gate": g,
        "key": p,
        "target": t,
        "scores": [str(x) for x in scores],
        "argmax": top,
        "gap": str(gap),
        "confirmed": bool(N >= 2 and g in (0, 1) and 0 <= p < N and p != t and top == [t] and gap == 1 and scores[t] - scores[p] < 2 * abs(p - t)),
    }


def check_gated(timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return the gated position head's ziggurat of step 1 (unique max g (N - 1), gap 1) proved for every N, gate and key."""
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.APP-DYCK.gated_position_ziggurat", "APP-DYCK", "proved", size_label="every n")
    return _every_n(run, lambda _: [(v, None) for v in prove_gated(timeout_s, keep_dir)], budget_s)


def check_gated_wrong(timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return the twin (gap 2) refuted, the countermodel replayed."""
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.APP-DYCK.wrong_gated_gap_2", "APP-DYCK", "refuted", size_label="every n")
    one = _twins([None], lambda _, __: search_gated_wrong(timeout_s, keep_dir), lambda _, __, v: replay_gated_wrong(v.values))
    return _every_n(run, one, budget_s)


# --------------------------------------------------------------------------- prefix-argmax: ratios of prefix counts


def prefix_argmax_score(c: int, j: int, n: int) -> Fraction:
    """Prefix-argmax (``build_prefix_argmax``, head A): score c_j/(j+1) + j/n^3 of key j with c_j the count of 'a' in w_0..w_j."""
    return Fraction(c, j + 1) + Fraction(j, n**3)


def prefix_argmax_margin(P: Any, Q: Any, j: Any, t: Any, n: Any) -> Any:
    """Prefix-argmax: n^3 (j+1)(t+1) (s_t - s_j) written with the cross products P = c_j (t+1), Q = c_t (j+1)."""
    return n * n * n * (Q - P) + (t - j) * (j + 1) * (t + 1)


def encode_pa(sort: Callable[[str], Any] = z3.Int) -> dict[str, Any]:
    """Return integers n, keys j != t < n and the cross products P = c_j (t+1), Q = c_t (j+1) with t the last maximiser of the ratio.

    Hypotheses (linear in the atoms P, Q): P <= Q (t maximises c/(key+1)), P = Q -> j < t (t is the last maximiser).
    sort=z3.Real: the real step of the proof.
    """
    n, j, t, P, Q = (sort(x) for x in ("n", "j", "t", "P", "Q"))
    hyps: list[z3.BoolRef] = [n >= 1, j >= 0, j <= n - 1, t >= 0, t <= n - 1, j != t, P <= Q, z3.Implies(P == Q, j < t)]
    return {"n": n, "j": j, "t": t, "P": P, "Q": Q, "margin": prefix_argmax_margin(P, Q, j, t, n), "hyps": hyps}


def lemma_pa(v: dict[str, Any]) -> z3.BoolRef:
    """Return the integer facts: distinct ratios differ by >= 1 in the cross products (the keys by <= n-1), else t >= j + 1."""
    return z3.Or(z3.And(v["Q"] - v["P"] >= 1, v["t"] - v["j"] >= 1 - v["n"]), z3.And(v["Q"] == v["P"], v["t"] - v["j"] >= 1))


def claim_pa(v: dict[str, Any], least: int = 1) -> z3.BoolRef:
    """Return prefix-argmax's gap s_t - s_j >= least/n^3, multiplied by n^3 (j+1)(t+1) > 0."""
    return v["margin"] >= least * (v["j"] + 1) * (v["t"] + 1)


def prove_pa(timeout_s: float, keep_dir: Path | None = None) -> list[Verdict]:
    """Return the verdict of prefix-argmax's gap 1/n^3 for every n, key j and counts (integer lemma, then the claim over reals)."""
    return [_lemma_then_claim(encode_pa, lemma_pa, claim_pa, "prefix_argmax_gap", timeout_s, keep_dir)]


def search_pa_wrong(timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return a countermodel search for the twin (gap 2/n^3) with the counts c_j, c_t themselves.  Search-only: n <= MAX_N_REPLAY."""
    v = encode_pa()
    cj, ct = z3.Ints("cj ct")
    real = [cj >= 0, cj <= v["j"] + 1, ct >= 0, ct <= v["t"] + 1, v["P"] == cj * (v["t"] + 1), v["Q"] == ct * (v["j"] + 1)]
    return search(
        v["hyps"] + real + [v["n"] <= MAX_N_REPLAY], z3.Not(claim_pa(v, 2)), timeout_s=timeout_s, name="prefix_argmax_wrong", keep_dir=keep_dir
    )


def replay_pa_wrong(values: dict[str, float]) -> dict[str, Any]:
    """Rebuild n, keys j, t and counts; exact scores: t maximises the ratio (the last one), s_t - s_j >= 1/n^3 but < 2/n^3."""
    n, j, t, cj, ct = (int(values.get(x, 0)) for x in ("n", "j", "t", "cj", "ct"))
    sj, st = prefix_argmax_score(cj, j, n), prefix_argmax_score(ct, t, n)
    rj, rt = Fraction(cj, j + 1), Fraction(ct, t + 1)
    return {
        "n": n,
        "keys": {"j": j, "t": t},
        "counts": {"c_j": cj, "c_t": ct},
        "scores": {"s_j": str(sj), "s_t": str(st)},
        "gap": str(st - sj),
        "confirmed": bool(
            0 <= j < n and 0 <= t < n and j != t and rj <= rt and (rj < rt or j < t) and Fraction(1, n**3) <= st - sj < Fraction(2, n**3)
        ),
    }


def check_pa(timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return prefix-argmax's unique maximum with gap >= 1/n^3 proved for every n, key and counts (one size)."""
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.APP-PA.ratio_gap", "APP-PA", "proved", size_label="every n")
    return _every_n(run, lambda _: [(v, None) for v in prove_pa(timeout_s, keep_dir)], budget_s)


def check_pa_wrong(timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return the twin (gap 2/n^3) refuted, the countermodel replayed."""
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.APP-PA.wrong_gap_2_over_n_cubed", "APP-PA", "refuted", size_label="every n")
    one = _twins([None], lambda _, __: search_pa_wrong(timeout_s, keep_dir), lambda _, __, v: replay_pa_wrong(v.values))
    return _every_n(run, one, budget_s)


# --------------------------------------------------------------------------- Dyck: the partner Aggregate


def dyck_partner_score_times_n(op: Any, dj: Any, di: Any, j: Any, n: Any) -> Any:
    """Dyck's partner Aggregate (``compile_program``, key = query = depth, offset -1, where = open): n times the score
    2 [open_j] - 2 (depth_j - (depth_i - 1))^2 + j/n of key j at query i."""
    return (2 * op - 2 * (dj - (di - 1)) * (dj - (di - 1))) * n + j


def dyck_partner_deficit(op: Any, dj: Any, di: Any) -> Any:
    """Dyck's partner: key j's deficit below the best score 2, 2 (depth_j + 1 - depth_i)^2 + 2 (1 - [open_j])."""
    return 2 * (dj + 1 - di) * (dj + 1 - di) + 2 * (1 - op)


def encode_dyck(sort: Callable[[str], Any] = z3.Int) -> dict[str, Any]:
    """Return integers n, query i <= n, keys j != t < i with depths, open flags, deficits E_j, E_t and scores (times n).

    t has the least deficit (E_t <= E_j), rightmost among equal ones (E_j = E_t -> j < t).  The integer lemma sees E as
    atoms (linear); the real step adds their definitions and the scores s_j n = (2 - E_j) n + j.
    """
    n, i, j, t, dj, dt, di, oj, ot, Ej, Et = (sort(x) for x in ("n", "i", "j", "t", "dj", "dt", "di", "oj", "ot", "Ej", "Et"))
    sj, st = z3.Reals("s_j s_t")
    base: list[z3.BoolRef] = [n >= 1, i <= n, j >= 0, j < i, t >= 0, t < i, j != t, Et <= Ej, z3.Implies(Ej == Et, j < t)]
    base += [dj >= 0, dt >= 0, di >= 0, z3.Or(oj == 0, oj == 1), z3.Or(ot == 0, ot == 1)]
    hyps = base + [
        Ej == dyck_partner_deficit(oj, dj, di),
        Et == dyck_partner_deficit(ot, dt, di),
        sj * _real(n) == _real(dyck_partner_score_times_n(oj, dj, di, j, n)),
        st * _real(n) == _real(dyck_partner_score_times_n(ot, dt, di, t, n)),
    ]
    return {"n": n, "i": i, "j": j, "t": t, "Ej": Ej, "Et": Et, "s_j": sj, "s_t": st, "hyps": hyps, "lemma_hyps": base}


def lemma_dyck(v: dict[str, Any]) -> z3.BoolRef:
    """Return the integer facts: a larger deficit is >= 1 larger (the keys differ by <= n-1), an equal one has t >= j + 1."""
    return z3.Or(z3.And(v["Ej"] - v["Et"] >= 1, v["t"] - v["j"] >= 1 - v["n"]), z3.And(v["Ej"] == v["Et"], v["t"] - v["j"] >= 1))


def claim_dyck(v: dict[str, Any], least: int = 1) -> z3.BoolRef:
    """Return the partner head's gap s_t - s_j >= least/n (multiplied by n > 0)."""
    return (v["s_t"] - v["s_j"]) * _real(v["n"]) >= least


def prove_dyck(timeout_s: float, keep_dir: Path | None = None) -> list[Verdict]:
    """Return the verdict of the partner head's gap 1/n for every n, query, keys, depths and open flags."""
    return [_lemma_then_claim(encode_dyck, lemma_dyck, claim_dyck, "dyck_partner_gap", timeout_s, keep_dir)]


def search_dyck_wrong(timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return a countermodel search for the twin (gap 2/n).  Search-only: n <= MAX_N_REPLAY."""
    v = encode_dyck()
    return search(v["hyps"] + [v["n"] <= MAX_N_REPLAY], z3.Not(claim_dyck(v, 2)), timeout_s=timeout_s, name="dyck_partner_wrong", keep_dir=keep_dir)


def replay_dyck_wrong(values: dict[str, float]) -> dict[str, Any]:
    """Rebuild n, the keys, depths and open flags; exact scores: t has the least deficit (the rightmost), s_t - s_j in [1/n, 2/n)."""
    n, i, j, t, dj, dt, di, oj, ot = (int(values.get(x, 0)) for x in ("n", "i", "j", "t", "dj", "dt", "di", "oj", "ot"))
    sj, st = Fraction(dyck_partner_score_times_n(oj, dj, di, j, n), n), Fraction(dyck_partner_score_times_n(ot, dt, di, t, n), n)
    ej, et = dyck_partner_deficit(oj, dj, di), dyck_partner_deficit(ot, dt, di)
    return {
        "n": n,
        "query": i,
        "keys": {"j": j, "t": t},
        "depths": {"j": dj, "t": dt, "query": di},
        "open": {"j": oj, "t": ot},
        "deficits": {"j": ej, "t": et},
        "gap": str(st - sj),
        "confirmed": bool(
            0 <= j < i <= n and 0 <= t < i and j != t and et <= ej and (et < ej or j < t) and Fraction(1, n) <= st - sj < Fraction(2, n)
        ),
    }


def check_dyck(timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return the partner head's unique maximum with gap >= 1/n proved for every n (one size)."""
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.APP-DYCK.partner_gap", "APP-DYCK", "proved", size_label="every n")
    return _every_n(run, lambda _: [(v, None) for v in prove_dyck(timeout_s, keep_dir)], budget_s)


def check_dyck_wrong(timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return the twin (gap 2/n) refuted, the countermodel replayed."""
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.APP-DYCK.wrong_partner_gap_2_over_n", "APP-DYCK", "refuted", size_label="every n")
    one = _twins([None], lambda _, __: search_dyck_wrong(timeout_s, keep_dir), lambda _, __, v: replay_dyck_wrong(v.values))
    return _every_n(run, one, budget_s)


# --------------------------------------------------------------------------- flip-flop and induction heads: last selected key

#: The application heads of the last-selected-key form (n times the score: n [sel_j] + j): their keys, target and selection.
#: flip-flop: build_flip_flop's head, [write_j] + j/n over j <= i, target the last write (else i);
#: P: build_k_hop's head P, j/n over j < i (nothing selected), target i - 1;
#: M: build_k_hop's head M_l (every hop layer), [j >= 1 and w_(j-1) = w_i] + j/n over j <= i (key 0 never matches), target the last match (else i).
#: Each head's claims: P and M are the heads of the induction head (APP-IND) and of every k-hop model (APP-KHOP: P in layer 0, M in
#: every hop layer 1..k), so each of those claims has the two queries.
APP_HEADS: dict[str, tuple[str, ...]] = {"flip-flop": ("APP-FF",), "P": ("APP-IND", "APP-KHOP"), "M": ("APP-IND", "APP-KHOP")}


def app_head_score_times_n(sel: Any, j: Any, n: Any) -> Any:
    """Flip-flop (``build_flip_flop``) and induction heads P, M_l (``build_k_hop``): n times the score [sel_j] + j/n of key j.

    sel is 0/1; on a Z3 term n [sel_j] is written If(sel = 1, n, 0), which keeps the query linear (QF_LIA, for Yices).
    """
    if isinstance(sel, z3.ArithRef):
        return z3.If(sel == 1, n, 0) + j
    return n * sel + j


def encode_app_head(head: str) -> dict[str, Any]:
    """Return integers n, query i, keys j != t and selection bits a_j, a_t with t the head's target (necessary conditions only).

    Every instance of a real input satisfies these pair hypotheses, so a claim proved from them holds for every input:
    flip-flop and M: keys 0 <= j, t <= i; either a_t = 1 and no key after t is selected (t the last selected), or nothing is
    selected and t = i (M: key 0 is never selected); P: keys j < i, t = i - 1, nothing selected.
    """
    if head not in APP_HEADS:
        raise ValueError(f"head must be one of {tuple(APP_HEADS)}, got {head!r}")
    n, i, j, t, aj, at = z3.Ints("n i j t a_j a_t")
    hyps: list[z3.BoolRef] = [n >= 1, i >= 0, i <= n - 1, j >= 0, t >= 0, j != t, aj >= 0, aj <= 1, at >= 0, at <= 1]
    if head == "P":
        hyps += [i >= 1, j < i, t == i - 1, aj == 0, at == 0]
    else:
        hyps += [j <= i, t <= i, z3.Or(z3.And(at == 1, z3.Implies(j > t, aj == 0)), z3.And(at == 0, aj == 0, t == i))]
        if head == "M":
            hyps += [z3.Implies(j == 0, aj == 0), z3.Implies(t == 0, at == 0)]
    margin = app_head_score_times_n(at, t, n) - app_head_score_times_n(aj, j, n)
    return {"n": n, "i": i, "j": j, "t": t, "a_j": aj, "a_t": at, "margin": margin, "hyps": hyps, "head": head}


def claim_app_head(v: dict[str, Any], least: int = 1) -> z3.BoolRef:
    """Return the head's gap: the target is >= least/n above key j (n times: margin >= least)."""
    return v["margin"] >= least


def prove_app_head(head: str, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return the verdict of one application head's gap 1/n for every n, query, key and selection (linear integers)."""
    v = encode_app_head(head)
    return prove(v["hyps"], claim_app_head(v), timeout_s=timeout_s, name=f"app_head_{head.replace('-', '_')}", keep_dir=keep_dir, engine="smt")


def search_app_head_wrong(head: str, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return a countermodel search for the twin (gap 2/n) of one head.  Search-only: n <= MAX_N_REPLAY."""
    v = encode_app_head(head)
    return search(
        v["hyps"] + [v["n"] <= MAX_N_REPLAY],
        z3.Not(claim_app_head(v, 2)),
        timeout_s=timeout_s,
        name=f"app_head_wrong_{head.replace('-', '_')}",
        keep_dir=keep_dir,
    )


def app_head_selection(head: str, n: int, j: int, t: int, aj: int, at: int) -> list[int]:
    """Return a whole selection (one bit per key of length n) realising a countermodel's pair: keys j and t as given, the rest 0."""
    sel = [0] * n
    if head != "P":
        sel[j], sel[t] = aj, at
    return sel


def app_head_target(head: str, sel: Sequence[int], i: int) -> int:
    """Return the head's hard choice at query i: P the key i - 1; flip-flop and M the last selected key <= i, else i."""
    if head == "P":
        return i - 1
    chosen = [m for m in range(i + 1) if sel[m]]
    return chosen[-1] if chosen else i


def replay_app_head_wrong(head: str, values: dict[str, float]) -> dict[str, Any]:
    """Rebuild a twin countermodel as a whole selection; exact scores: its target is the unique max, gap >= 1/n but < 2/n."""
    n, i, j, t, aj, at = (int(values.get(x, 0)) for x in ("n", "i", "j", "t", "a_j", "a_t"))
    sel = app_head_selection(head, n, j, t, aj, at)
    keys = list(range(i)) if head == "P" else list(range(i + 1))
    scores = {m: Fraction(app_head_score_times_n(sel[m], m, n), n) for m in keys}
    target = app_head_target(head, sel, i)
    gap = _exact_gap(list(scores.values()))
    top = [m for m in keys if scores[m] == max(scores.values())]
    consistent = head != "M" or sel[0] == 0
    return {
        "head": head,
        "n": n,
        "query": i,
        "select": sel,
        "target": target,
        "scores": {m: str(s) for m, s in scores.items()},
        "gap": str(gap),
        "confirmed": bool(consistent and top == [target] and gap is not None and Fraction(1, n) <= gap < Fraction(2, n)),
    }


def check_app_heads(claim: str, timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return the gap 1/n of the claim's last-selected-key heads (APP_HEADS) proved for every n, one query per head."""
    timeout_s = check_timeout(timeout_s)
    heads = [h for h, cs in APP_HEADS.items() if claim in cs]
    run = CheckRun(f"smt.{claim}.head_gap", claim, "proved", size_label="every n")
    return _every_n(run, lambda _: [(prove_app_head(h, timeout_s, keep_dir), None) for h in heads], budget_s)


def check_app_heads_wrong(claim: str, timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return the twin (gap 2/n) of the claim's heads refuted, each countermodel replayed as a whole selection."""
    timeout_s = check_timeout(timeout_s)
    heads = [h for h, cs in APP_HEADS.items() if claim in cs]
    run = CheckRun(f"smt.{claim}.wrong_head_gap_2_over_n", claim, "refuted", size_label="every n")
    one = _twins(heads, lambda _, h: search_app_head_wrong(h, timeout_s, keep_dir), lambda _, h, v: replay_app_head_wrong(h, v.values))
    return _every_n(run, one, budget_s)


# --------------------------------------------------------------------------- counting: uniform attention

#: Residual width of the counting check's symbolic streams (count_head's W_Q, W_K are d x 1).
COUNT_D: int = 2


def count_weights(d: int = COUNT_D) -> tuple[np.ndarray, np.ndarray]:
    """Return count_head's W_Q, W_K as its docstring states them: both zero (d x 1)."""
    return np.zeros((d, 1)), np.zeros((d, 1))


def encode_count(n: int, W_Q: np.ndarray | None = None, W_K: np.ndarray | None = None) -> dict[str, Any]:
    """Return scores s_j = (x_q W_Q) . (x_j W_K) of n keys (defining equations) for SYMBOLIC residual vectors x_q, x_j in R^d.

    W_Q, W_K: the head's matrices, taken exactly (Fraction of each float); default count_weights().
    """
    if W_Q is None or W_K is None:
        W_Q, W_K = count_weights()
    WQ, WK = np.asarray(W_Q, dtype=float), np.asarray(W_K, dtype=float)
    d, k = WQ.shape
    xq = [z3.Real(f"xq_{a}") for a in range(d)]
    xs = [[z3.Real(f"x_{j}_{a}") for a in range(d)] for j in range(n)]

    def proj(x: list[z3.ArithRef], W: np.ndarray, c: int) -> z3.ArithRef:
        return Sum([R(Fraction(float(W[a, c]))) * x[a] for a in range(d)])  # zero weights kept: the query shows every x

    s = [z3.Real(f"s_{j}") for j in range(n)]
    hyps = [s[j] == Sum([proj(xq, WQ, c) * proj(xs[j], WK, c) for c in range(k)]) for j in range(n)]
    return {"n": n, "s": s, "xq": xq, "x": xs, "d": d, "hyps": hyps}


def claim_count(v: dict[str, Any]) -> z3.BoolRef:
    """Return 'every score equals the first' (all keys tie: gap +inf, soft = hard at every tau)."""
    s = v["s"]
    return z3.And([s[j] == s[0] for j in range(v["n"])])


def prove_count(n: int, timeout_s: float, keep_dir: Path | None = None, W_Q: np.ndarray | None = None, W_K: np.ndarray | None = None) -> Verdict:
    """Return the verdict of 'all scores tie' at length n for the given (default: count_head's) matrices."""
    v = encode_count(n, W_Q, W_K)
    return prove(v["hyps"], claim_count(v), timeout_s=timeout_s, name=f"count_n{n}", keep_dir=keep_dir)


def search_count_wrong(n: int, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return a countermodel search for the twin 'key 0 is the unique max with a gap g > 0' (any key may be named: symmetric)."""
    v = encode_count(n)
    s, g = v["s"], z3.Real("g")
    violation = z3.Or([s[0] - s[j] < g for j in range(1, n)])
    return search(v["hyps"] + [g > 0], violation, timeout_s=timeout_s, name=f"count_wrong_n{n}", keep_dir=keep_dir)


def replay_count_wrong(n: int, values: dict[str, float], W_Q: np.ndarray | None = None, W_K: np.ndarray | None = None) -> dict[str, Any]:
    """Rebuild the residual vectors; the head's scores all tie, so the max set is all n keys (no unique max, no positive gap)."""
    if W_Q is None or W_K is None:
        W_Q, W_K = count_weights()
    d = W_Q.shape[0]
    xq = np.array([values.get(f"xq_{a}", 0.0) for a in range(d)])
    X = np.array([[values.get(f"x_{j}_{a}", 0.0) for a in range(d)] for j in range(n)])
    scores = (X @ W_K) @ (xq @ W_Q)
    ms = attention.max_set(scores)
    return {"n": n, "scores": scores.tolist(), "max_set": ms.tolist(), "confirmed": bool(len(ms) == n >= 2)}


def check_count(n_max: int, timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return 'every score of the count head ties' proved for every n <= n_max (symbolic residual streams)."""
    n_max = check_size("count: length bound n", n_max, MAX_N_HEADS)
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.CNT.uniform_scores", "CNT", "proved", size_label="n")
    return run_sizes(run, list(range(1, n_max + 1)), lambda n: [(prove_count(n, timeout_s, keep_dir), None)], budget_s)


def check_count_wrong(n_max: int, timeout_s: float, keep_dir: Path | None = None, budget_s: float | None = None) -> CheckRun:
    """Return the twin (a unique max with positive gap) refuted for every 2 <= n <= n_max, replayed."""
    n_max = check_size("count twin: length bound n", n_max, MAX_N_HEADS, minimum=2)
    timeout_s = check_timeout(timeout_s)
    run = CheckRun("smt.CNT.wrong_count_positive_gap", "CNT", "refuted", size_label="n")
    one = _twins([None], lambda n, _: search_count_wrong(n, timeout_s, keep_dir), lambda n, _, v: replay_count_wrong(n, v.values))

    return run_sizes(run, list(range(2, n_max + 1)), one, budget_s)


# --------------------------------------------------------------------------- the checks


def run_bounded(check: Callable[..., CheckRun], st: Mapping[str, Any], keep_dir: Path | None) -> CheckRun:
    """Return a bounded check (``check(n_max, timeout, keep_dir, budget)``) with a preset's settings."""
    return check(st["bound"], st["timeout"], keep_dir, st.get("budget"))


def run_every_n(check: Callable[..., CheckRun], st: Mapping[str, Any], keep_dir: Path | None) -> CheckRun:
    """Return a symbolic-size check (``check(timeout, keep_dir, budget)``: every n in one query set) with a preset's settings."""
    return check(st["timeout"], keep_dir, st.get("budget"))


def _settings(bound: int, timeout: float, budget: float, **more: Any) -> dict[str, Any]:
    """Return one preset's settings of a head check (no cvc5 encoding: cvc5 is not run; Yices gets every size unless given)."""
    return {"bound": bound, "timeout": timeout, "budget": budget, "cvc5": [], "cvc5_timeout": 5, **more}


#: The symbolic-size checks: one query set (size 1 in the rows) over unbounded integers, the same in both presets.
_EVERY_N = {"tiny": _settings(1, 10, 60), "paper": _settings(1, 60, 300)}
_REPLAYED = "each countermodel replayed on exact scores (and through the built head by tests/smt/test_heads_smt.py)"


def _symbolic(name: str, claim: str, expect: Expect, check: Callable[..., CheckRun], cover: Coverage) -> SmtCheck:
    """Return a symbolic-size check (one query set over unbounded integers, every n at once) with the _EVERY_N presets."""
    return SmtCheck(
        name=name,
        claim=claim,
        expect=expect,
        run=partial(run_every_n, check),
        presets=_EVERY_N,
        size_label="every n",
        min_size=1,
        max_size=1,
        symbolic=True,
        cover=cover,
    )


CHECKS: tuple[SmtCheck, ...] = (
    _symbolic(
        "smt.L8.rank_every_n",
        "L8",
        Expect.PROVED,
        check_L8_rank,
        Coverage(
            varied={
                "n, query i, top j*, key j, rank k": "unbounded integers (n >= 2, 1 <= i <= n-1)",
                "case": "selected / unselected / none selected",
            },
            fixed={"direction, regime": "past, scores n select_j + j (n/K times the bounded ones, 1/K times the unbounded ones)"},
            assumed=("the rank counts: at most j* - j (selected key), (j*+1) + (i-1-j) (unselected key) keys lie above key j",),
        ),
    ),
    _symbolic(
        "smt.L8.wrong_rank_step_2K_over_n",
        "L8",
        Expect.TWIN,
        check_L8_rank_wrong,
        Coverage(
            varied={"n <= 64, i, j*, j": "integers, in each of the three cases"},
            fixed={"search-only": "the exact rank of the selection the replay builds"},
            assumed=("each countermodel's selection rebuilt and its visible scores shown no ziggurat with step 2K/n (spec.bounds.is_ziggurat)",),
        ),
    ),
    SmtCheck(
        name="smt.L8.tiebreak_ziggurat",
        claim="L8",
        expect=Expect.PROVED,
        run=partial(run_bounded, check_L8),
        presets={"tiny": _settings(6, 20, 100), "paper": _settings(10, 120, 600, yices=[2, 4, 8])},
        size_label="n",
        min_size=2,
        max_size=MAX_N_HEADS,
        cover=Coverage(
            varied={"selection sel_j": "every one (Booleans)", "query i": "every i with a visible key", "K": "every real K > 0"},
            fixed={"direction, regime": "both directions (past j < i, future j > i) and both regimes, one query each"},
            assumed=("the score formula of constructive.heads.tiebreak_head (tied to the built head by tests/smt/test_heads_smt.py)",),
        ),
        cost_rank=6,
    ),
    SmtCheck(
        name="smt.L8.wrong_gap_2K_over_n",
        claim="L8",
        expect=Expect.TWIN,
        run=partial(run_bounded, check_L8_wrong),
        presets={"tiny": _settings(6, 20, 100), "paper": _settings(10, 120, 600, yices=[3, 4, 8])},
        size_label="n",
        min_size=3,
        max_size=MAX_N_HEADS,
        cover=Coverage(
            varied={"selection, query": "searched", "K": "K >= 1/8 (search-only)"},
            fixed={"direction, regime": "both directions and regimes, one search each"},
            assumed=(_REPLAYED, "n = 2 is not searched: every query sees one key there, so the twin holds (no competitor)"),
        ),
        cost_rank=7,
    ),
    _symbolic(
        "smt.L7.parabola",
        "L7",
        Expect.PROVED,
        check_L7,
        Coverage(
            varied={"n, target t, key j != t": "unbounded integers (0 <= t <= n-1, query i = t - offset in 0..n-1)"},
            fixed={
                "mask": "strict / strict_anticausal / none, one integer lemma + one real query each",
                "units": "K (the bounded regime: K/n^2)",
            },
            assumed=("the score formula K (2 t j - j^2) of constructive.heads.lookup_head (tied to the built head by tests)",),
        ),
    ),
    _symbolic(
        "smt.L7.wrong_loss_2K",
        "L7",
        Expect.TWIN,
        check_L7_wrong,
        Coverage(varied={"n <= 64, t, j": "integers, for each mask"}, assumed=(_REPLAYED,)),
    ),
    SmtCheck(
        name="smt.CNT.sign_margin",
        claim="CNT",
        expect=Expect.PROVED,
        run=partial(run_bounded, check_sign),
        presets={"tiny": _settings(8, 10, 60), "paper": _settings(MAX_N_HEADS, 60, 300, yices_budget=120)},
        size_label="n",
        min_size=2,
        max_size=MAX_N_HEADS,
        cover=Coverage(
            varied={"N": "every half-integer h + 1/2 (h any integer)", "D": "every integer 0..n-1", "K": "every real K > 0", "o": "+-1"},
            fixed={"scores": "both regimes' parity scores (one key of each parity)"},
            assumed=(
                "V = N / max(D, 1) as the count heads write it (constructive.logic.compiler)",
                "sign_head's score formula (tied to the built head by tests)",
            ),
        ),
    ),
    SmtCheck(
        name="smt.CNT.wrong_sign_margin_1_over_n_minus_1",
        claim="CNT",
        expect=Expect.TWIN,
        run=partial(run_bounded, check_sign_wrong),
        presets={"tiny": _settings(8, 10, 60), "paper": _settings(MAX_N_HEADS, 60, 300, yices_budget=120)},
        size_label="n",
        min_size=2,
        max_size=MAX_N_HEADS,
        cover=Coverage(varied={"h, D": "integers"}, fixed={"search-only": "K = 1, o = 1"}, assumed=(_REPLAYED,)),
    ),
    SmtCheck(
        name="smt.CNT.uniform_scores",
        claim="CNT",
        expect=Expect.PROVED,
        run=partial(run_bounded, check_count),
        presets={"tiny": _settings(8, 10, 60), "paper": _settings(MAX_N_HEADS, 60, 300, yices_budget=120)},
        size_label="n",
        min_size=1,
        max_size=MAX_N_HEADS,
        cover=Coverage(
            varied={"query and key residual vectors": f"every vector in R^{COUNT_D} (real, unbounded)"},
            fixed={"W_Q, W_K": "count_head's W_Q = W_K = 0 (the tests pass the built head's own matrices)"},
            assumed=("nothing beyond the matrices",),
        ),
    ),
    SmtCheck(
        name="smt.CNT.wrong_count_positive_gap",
        claim="CNT",
        expect=Expect.TWIN,
        run=partial(run_bounded, check_count_wrong),
        presets={"tiny": _settings(8, 10, 60), "paper": _settings(MAX_N_HEADS, 60, 300, yices_budget=120)},
        size_label="n",
        min_size=2,
        max_size=MAX_N_HEADS,
        cover=Coverage(
            varied={"residual vectors, gap g > 0": "searched"},
            fixed={"named maximum": "key 0 (the scores are symmetric in the keys)"},
            assumed=("the replay shows the max set is every key",),
        ),
    ),
    _symbolic(
        "smt.APP-DYCK.srasp_lookup_gap",
        "APP-DYCK",
        Expect.PROVED,
        check_srasp,
        Coverage(
            varied={"query i >= 1, prefix sum S, key p": "unbounded integers"},
            fixed={
                "statements": "two (every p != S; the visible keys 0 <= p <= i with |S| <= i and target max(0, S)), "
                "each one integer lemma + one real query"
            },
            assumed=("the score 2 p f_i - p^2/max(i,1), f_i = S/i, of compile_program's Psum lookup (tied to the head by tests)",),
        ),
    ),
    _symbolic(
        "smt.APP-DYCK.wrong_srasp_gap_2_over_i",
        "APP-DYCK",
        Expect.TWIN,
        check_srasp_wrong,
        Coverage(varied={"query i <= 64, S, p": "integers, visible keys"}, assumed=(_REPLAYED,)),
    ),
    _symbolic(
        "smt.APP-DYCK.gated_position_ziggurat",
        "APP-DYCK",
        Expect.PROVED,
        check_gated,
        Coverage(
            varied={"keys N >= 1, gate g in {0, 1}, key 0 <= p < N": "unbounded integers"},
            fixed={"statement": "one linear integer query: s_t - s_p >= |p - t|, t = g (N - 1)"},
            assumed=("the score (2 g - 1) j of gated_position_spec (tied to the built head and a compiled program by tests)",),
        ),
    ),
    _symbolic(
        "smt.APP-DYCK.wrong_gated_gap_2",
        "APP-DYCK",
        Expect.TWIN,
        check_gated_wrong,
        Coverage(varied={"keys N <= 64, gate, key p != t": "integers"}, assumed=(_REPLAYED,)),
    ),
    _symbolic(
        "smt.APP-PA.ratio_gap",
        "APP-PA",
        Expect.PROVED,
        check_pa,
        Coverage(
            varied={
                "n, keys j != t < n, cross products P = c_j (t+1), Q = c_t (j+1)": "unbounded integers (t the last maximiser: P <= Q, P = Q -> j < t)"
            },
            fixed={"statement": "one integer lemma + one real query, cross-multiplied by n^3 (j+1)(t+1)"},
            assumed=(
                "the score c_j/(j+1) + j/n^3 of build_prefix_argmax's head A (tied to the built head by tests)",
                "n^3 (j+1)(t+1)(s_t - s_j) = n^3 (Q - P) + (t - j)(j+1)(t+1) (algebra; tested on the built head's scores)",
            ),
        ),
    ),
    _symbolic(
        "smt.APP-PA.wrong_gap_2_over_n_cubed",
        "APP-PA",
        Expect.TWIN,
        check_pa_wrong,
        Coverage(varied={"n <= 64, j, t, counts c_j <= j+1, c_t <= t+1": "integers"}, assumed=(_REPLAYED,)),
    ),
    _symbolic(
        "smt.APP-DYCK.partner_gap",
        "APP-DYCK",
        Expect.PROVED,
        check_dyck,
        Coverage(
            varied={"n, query i <= n, keys j != t < i, depths, open flags": "unbounded integers (t of least deficit, the rightmost such)"},
            fixed={"statement": "one integer lemma (deficits as atoms) + one real query with the scores"},
            assumed=(
                "the score 2 [open_j] - 2 (depth_j - (depth_i - 1))^2 + j/n of compile_program's partner Aggregate (tied to the head by tests)",
            ),
        ),
    ),
    _symbolic(
        "smt.APP-DYCK.wrong_partner_gap_2_over_n",
        "APP-DYCK",
        Expect.TWIN,
        check_dyck_wrong,
        Coverage(varied={"n <= 64, i, j, t, depths, open flags": "integers"}, assumed=(_REPLAYED,)),
    ),
    _symbolic(
        "smt.APP-FF.head_gap",
        "APP-FF",
        Expect.PROVED,
        partial(check_app_heads, "APP-FF"),
        Coverage(
            varied={"n, query i < n, keys j != t <= i, write bits": "unbounded integers (t the last write <= i, else i)"},
            fixed={"statement": "one linear integer query, n times the scores"},
            assumed=("the score [write_j] + j/n of build_flip_flop's head (tied to the built head by tests/smt/test_heads_smt.py)",),
        ),
    ),
    _symbolic(
        "smt.APP-FF.wrong_head_gap_2_over_n",
        "APP-FF",
        Expect.TWIN,
        partial(check_app_heads_wrong, "APP-FF"),
        Coverage(varied={"n <= 64, i, j, t, write bits": "integers"}, assumed=(_REPLAYED,)),
    ),
    _symbolic(
        "smt.APP-IND.head_gap",
        "APP-IND",
        Expect.PROVED,
        partial(check_app_heads, "APP-IND"),
        Coverage(
            varied={"n, query i < n, keys j != t, match bits": "unbounded integers (P: t = i - 1 over j < i; M: t the last match <= i, else i)"},
            fixed={"statement": "one linear integer query per head (P, M; every hop layer of the k-hop heads is M)"},
            assumed=("the scores j/n (head P) and [j >= 1 and w_(j-1) = w_i] + j/n (head M_l) of build_k_hop (tied to the built heads by tests)",),
        ),
    ),
    _symbolic(
        "smt.APP-IND.wrong_head_gap_2_over_n",
        "APP-IND",
        Expect.TWIN,
        partial(check_app_heads_wrong, "APP-IND"),
        Coverage(varied={"n <= 64, i, j, t, match bits": "integers, heads P and M"}, assumed=(_REPLAYED,)),
    ),
    _symbolic(
        "smt.APP-KHOP.head_gap",
        "APP-KHOP",
        Expect.PROVED,
        partial(check_app_heads, "APP-KHOP"),
        Coverage(
            varied={"n, query i < n, keys j != t, match bits": "unbounded integers (P: t = i - 1 over j < i; M: t the last match <= i, else i)"},
            fixed={"statement": "one linear integer query per head: P (layer 0) and M, the score of every hop layer 1..k of build_k_hop(k)"},
            assumed=(
                "the scores j/n (head P) and [j >= 1 and w_(j-1) = w_i] + j/n (every hop head M_l) of build_k_hop(k), k = 2, 3 (tied to the built "
                "heads by tests/smt/test_heads_smt.py); the same queries as smt.APP-IND.head_gap, the k-hop heads having the induction head's scores",
            ),
        ),
    ),
    _symbolic(
        "smt.APP-KHOP.wrong_head_gap_2_over_n",
        "APP-KHOP",
        Expect.TWIN,
        partial(check_app_heads_wrong, "APP-KHOP"),
        Coverage(varied={"n <= 64, i, j, t, match bits": "integers, heads P and M (every hop layer)"}, assumed=(_REPLAYED,)),
    ),
)
