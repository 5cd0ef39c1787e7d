"""The reviewer's falsifier: the S-RASP-derived Dyck-2 transformer in float32 at n = 2^16, tau ~ 1/(n^3 log n).

Question: does the winning position still get a clear majority of the
attention, or do the scores collapse into a tie?  The default construction is
``dyck-2`` (``constructive.applications.build_dyck``: the Dyck-2 prefix-validity
program of ``constructive.srasp`` compiled to an AHAT; gap 1/n, scores up to ~2n^2);
``--construction prefix-argmax`` runs the earlier stand-in with gap exactly 1/n^3.
The whole model is run by ``constructive.lowprec.run_lowprec`` with every step in the
format, queries in blocks (memory stays in the hundreds of MiB), at:

* the reviewer's tau = 1/(n^3 ln n);
* the temperature statement T prescribes (``spec.bounds``, target error 1/4);
* the construction's own tau(n).

The true winners of the heads that can leak are computed exactly (integer
arithmetic): for dyck-2 the lookup head (the key p = depth) and the partner head
(the rightmost open one level up, or the closest key); for prefix-argmax the last
head (the last position of maximal prefix ratio).  The report gives the weight
on that key (least, median, share of queries where it keeps a majority > 1/2)
and the share of positions whose output is right.  Prints progress and timings;
asserts nothing.

Usage: python benchmarks/falsifier.py [--construction dyck-2] [--log2n 16] [--inputs 1] [--formats float32 float64]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

from hardsoft.constructive import audit as au
from hardsoft.constructive import applications as cs
from hardsoft.constructive import srasp as sr
from hardsoft.constructive.lowprec import run_lowprec


def exact_winners(w: np.ndarray) -> np.ndarray:
    """Return, per input and query i, the exact winner of prefix-argmax's last head: the last j <= i of maximal ratio #a(w_0..w_j)/(j+1).

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


def dyck_winners(w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return (lookup winners, partner winners) of the compiled Dyck-k program, per input and query, by integer arithmetic.

    depth_i = max(0, sum_{j<i} (+1 open, -1 close)); the lookup head's unique
    maximum is the key p = depth_i.  The partner head's score is
    2 [open_j] - 2 (depth_j - t_i)^2 + j/n with t_i = depth_i - 1 over j < i: the
    largest (E_j, j).  The key i - 1 lies within 2 of t_i (depth moves by <= 1),
    so E >= -8 is reached and keys with |depth_j - t_i| >= 3 (E <= -16) never win:
    scanning the last open and last close of each depth t_i - 2 .. t_i + 2 is exact.
    Query 0 sees no key (-1).
    """
    look = np.zeros(w.shape, dtype=np.int64)
    part = np.full(w.shape, -1, dtype=np.int64)
    for b, row in enumerate(w):
        last_open: dict[int, int] = {}
        last_close: dict[int, int] = {}
        s = 0
        for i, sym in enumerate(row):
            d = max(0, s)
            look[b, i] = d
            t = d - 1
            best: tuple[int, int] | None = None
            for dep in range(t - 2, t + 3):
                for table, bonus in ((last_open, 2), (last_close, 0)):
                    j = table.get(dep)
                    if j is not None:
                        cand = (bonus - 2 * (dep - t) ** 2, j)
                        best = cand if best is None or cand > best else best
            if best is not None:
                part[b, i] = best[1]
            (last_open if sym % 2 == 0 else last_close)[d] = i
            s += 1 if sym % 2 == 0 else -1
    return look, part


def _inputs(name: str, n: int, count: int) -> np.ndarray:
    """Return the falsifier's inputs: the hardest cases known for each construction."""
    rng = np.random.default_rng(2026)
    if name == "prefix-argmax":
        # "baba...": the prefix ratio is exactly 1/2 at every odd position, so only the 1/n^3 tie-break separates
        # the maximal positions; then 'b' + a balanced random string (equal and near-equal ratios, both tokens)
        rows = [np.resize([1, 0], n), np.concatenate([[1], rng.permutation(np.resize([0, 1], n - 1))])]
        return np.array(rows[:count], dtype=np.int64)
    # dyck: a nest of depth n/3 around a run of sibling pairs of random types (many partner candidates at a large
    # depth: only the j/n tie-break separates them, next to depth^2 ~ n^2/9 in the scores); then a random Dyck word
    return np.stack([cs.dyck_samples(rng, n, 7)[6], cs.dyck_samples(rng, n, 1)[0]])[:count]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--construction", default="dyck-2", choices=["dyck-2", "prefix-argmax"])
    ap.add_argument("--log2n", type=int, default=16)
    ap.add_argument("--inputs", type=int, default=1, choices=[1, 2])
    ap.add_argument("--formats", nargs="+", default=["float32"])
    ap.add_argument("--out", default="report/falsifier.json")
    ap.add_argument("--taus", nargs="+", default=["reviewer", "statement", "construction"],
                    choices=["reviewer", "statement", "construction"])
    args = ap.parse_args()
    n = 2**args.log2n
    con = cs.get_construction(args.construction)
    L = con.model.depth
    w = _inputs(con.name, n, args.inputs)
    t0 = time.perf_counter()
    say = lambda s: print(f"[{time.perf_counter() - t0:7.1f}s] {s}", file=sys.stderr, flush=True)  # noqa: E731
    ref_codes = con.reference_codes(w)
    say(f"{con.name}: reference outputs computed (n = {n}, {len(w)} input(s))")
    if con.name == "prefix-argmax":
        watched = {"last head": ((L - 1, 0), exact_winners(w))}
        x_max = 1.0
    else:
        heads = sr.compile_program(sr.dyck_program(2)).heads or {}
        look, part = dyck_winners(w)
        watched = {"lookup head (depth)": (heads["depth"], look), "partner head": (heads["partner0"], part)}
        x_max = float((n - 1) ** 2)
    say("exact winners computed (integer arithmetic): " + ", ".join(watched))
    taus = {"reviewer 1/(n^3 ln n)": 1.0 / (n**3 * math.log(n)),
            "statement T (eps 1/4)": au.statement_T_tau(con.model, n, con.gap(n), x_max),
            f"construction {con.tau_formula}": con.tau(n)}
    taus = {k: v for k, v in taus.items() if k.split()[0] in args.taus}
    results = []
    for fmt in args.formats:
        for label, tau in taus.items():
            t1 = time.perf_counter()
            try:
                tr = run_lowprec(con.model, w, fmt, tau, watch=False, winners={lh: win for lh, win in watched.values()},
                                 progress=lambda s: say(f"{fmt} {label}: {s}"))
            except ValueError as e:
                results.append({"format": fmt, "tau_label": label, "tau": tau, "error": str(e)})
                say(f"{fmt} {label}: ERROR {e}")
                continue
            got = con.readout(tr.activations[-1])
            right = float((got == ref_codes).mean())
            r = {"format": fmt, "tau_label": label, "tau": tau, "n": n, "inputs": len(w),
                 "share_positions_right": right, "all_right": bool((got == ref_codes).all()),
                 "per_input_share_right": [float((got[b] == ref_codes[b]).mean()) for b in range(len(w))], "heads": {}}
            for hname, ((hl, hh), _) in watched.items():
                mass = tr.mass_on_max[hl][hh]
                r["heads"][hname] = {"layer": hl, "head": hh, "winner_weight_min": float(np.nanmin(mass)),
                                     "winner_weight_median": float(np.nanmedian(mass)),
                                     "share_queries_majority": float(np.mean(mass[~np.isnan(mass)] > 0.5)),
                                     "queries_without_key": int(np.isnan(mass).sum())}
            r["seconds"] = time.perf_counter() - t1
            results.append(r)
            say(f"{fmt} {label} (tau = {tau:.3g}): {100 * right:.2f}% of positions right; {r['seconds']:.0f}s")
            for hname, hr in r["heads"].items():
                say(f"  {hname}: weight on the true winner min {hr['winner_weight_min']:.3g}, median "
                    f"{hr['winner_weight_median']:.3g}; {100 * hr['share_queries_majority']:.1f}% of queries give it > 1/2")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"n": n, "construction": con.name, "gap": con.gap(n), "results": results,
                               "seconds": time.perf_counter() - t0}, indent=1))
    print(json.dumps(results, indent=1))
    say(f"total {time.perf_counter() - t0:.0f}s; written to {out}")


if __name__ == "__main__":
    main()
