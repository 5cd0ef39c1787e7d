"""The reviewer's falsifier (issue 11): the 1/n^3-gap S-RASP-style transformer in float32 at n = 2^16, tau ~ 1/(n^3 log n).

Question: does the winning position still get a clear majority of the
attention, or do the scores collapse into a tie?  The construction is
``prefix-argmax`` (``spec.constructions.build_prefix_argmax``, gap exactly 1/n^3;
our Dyck-k program is not built, see docs/applications.md).  The whole model is
run by ``spec.lowprec.run_lowprec`` with every step in float32, queries in
blocks (memory stays in the hundreds of MiB), at two temperatures:

* the reviewer's tau = 1/(n^3 ln n);
* the temperature statement T prescribes (``spec.bounds``, target error 1/4).

The true winner of the last head at every query is computed exactly (integer
arithmetic: the last position of maximal prefix ratio).  The report gives the
weight on that position (least, median, share of queries where it keeps a
majority > 1/2) and the share of positions whose output is right.  Prints progress and timings; asserts nothing.

Usage: python benchmarks/falsifier.py [--log2n 16] [--inputs 1] [--formats float32 float64]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

from hardsoft.spec import audit as au
from hardsoft.spec import constructions as cs
from hardsoft.spec.lowprec import run_lowprec


def exact_winners(w: np.ndarray) -> np.ndarray:
    """Return, per input and query i, the exact winner of the last head: the last j <= i of maximal ratio #a(w_0..w_j)/(j+1).

    Integer cross-multiplication, so no rounding: the tie-break j/n^3 only ever
    separates equal ratios, and the last one wins.
    """
    out = np.zeros(w.shape, dtype=np.int64)
    for b, row in enumerate(w):
        best_c, best_q, arg, c = -1, 1, 0, 0
        for j, sym in enumerate(row):
            c += int(sym == 0)
            if c * best_q >= best_c * (j + 1):
                best_c, best_q, arg = c, j + 1, j
            out[b, j] = arg
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--log2n", type=int, default=16)
    ap.add_argument("--inputs", type=int, default=2, choices=[1, 2])
    ap.add_argument("--formats", nargs="+", default=["float32"])
    ap.add_argument("--out", default="report/falsifier.json")
    ap.add_argument("--taus", nargs="+", default=["reviewer", "statement", "construction"],
                    choices=["reviewer", "statement", "construction"])
    args = ap.parse_args()
    n = 2**args.log2n
    con = cs.build_prefix_argmax()
    L = con.model.depth
    # Input 0, "baba...": the prefix ratio is exactly 1/2 at every odd position, so only the 1/n^3 tie-break
    # separates the maximal positions (the winner is the last odd j <= i).  Input 1: 'b' then a balanced random
    # string: many equal and near-equal ratios around 1/2, with both tokens among them.
    rng = np.random.default_rng(2026)
    rows = [np.resize([1, 0], n), np.concatenate([[1], rng.permutation(np.resize([0, 1], n - 1))])]
    w = np.array(rows[: args.inputs], dtype=np.int64)
    t0 = time.perf_counter()
    say = lambda s: print(f"[{time.perf_counter() - t0:7.1f}s] {s}", file=sys.stderr, flush=True)  # noqa: E731
    ref_codes = con.reference_codes(w)
    say(f"reference outputs computed (n = {n}, {len(w)} input(s))")
    win = exact_winners(w)
    say("exact winners of the last head computed (integer arithmetic)")
    taus = {"reviewer 1/(n^3 ln n)": 1.0 / (n**3 * math.log(n)),
            "statement T (eps 1/4)": au.statement_T_tau(con.model, n, con.gap(n), 1.0),
            "construction 1/(2 n^3)": con.tau(n)}
    taus = {k: v for k, v in taus.items() if k.split()[0] in args.taus}
    results = []
    for fmt in args.formats:
        for label, tau in taus.items():
            t1 = time.perf_counter()
            try:
                tr = run_lowprec(con.model, w, fmt, tau, watch=False, winners={(L - 1, 0): win},
                                 progress=lambda s: say(f"{fmt} {label}: {s}"))
            except ValueError as e:
                results.append({"format": fmt, "tau_label": label, "tau": tau, "error": str(e)})
                say(f"{fmt} {label}: ERROR {e}")
                continue
            mass = tr.mass_on_max[L - 1][0]
            got = con.readout(tr.activations[-1])
            right = float((got == ref_codes).mean())
            per_input = [{"share_positions_right": float((got[b] == ref_codes[b]).mean()),
                          "winner_weight_min": float(np.nanmin(mass[b])), "winner_weight_median": float(np.nanmedian(mass[b])),
                          "winner_weight_at_last_query": float(mass[b, -1]),
                          "share_queries_majority": float(np.nanmean(mass[b] > 0.5))} for b in range(len(w))]
            r = {"format": fmt, "tau_label": label, "tau": tau, "n": n, "inputs": len(w), "per_input": per_input,
                 "share_positions_right": right, "all_right": bool((got == ref_codes).all()),
                 "winner_weight_min": float(np.nanmin(mass)), "winner_weight_median": float(np.nanmedian(mass)),
                 "share_queries_majority": float(np.nanmean(mass > 0.5)), "seconds": time.perf_counter() - t1}
            results.append(r)
            say(f"{fmt} {label} (tau = {tau:.3g}): {100 * right:.2f}% of positions right; weight on the true winner "
                f"min {r['winner_weight_min']:.3g}, median {r['winner_weight_median']:.3g}; "
                f"{100 * r['share_queries_majority']:.1f}% of queries give the winner > 1/2; {r['seconds']:.0f}s")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"n": n, "construction": con.name, "gap": con.gap(n), "results": results,
                               "seconds": time.perf_counter() - t0}, indent=1))
    print(json.dumps(results, indent=1))
    say(f"total {time.perf_counter() - t0:.0f}s; written to {out}")


if __name__ == "__main__":
    main()
