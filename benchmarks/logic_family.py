"""Benchmark (speed of the verification engine): the generated formula family verified exhaustively, and one long formula at length 16.

1. Every formula with up to 2 operators over {a, b} (leaves a, b, first, last; ! Y X & | S U: 2,740)
   and a fixed sample of 1,000 with 3 or 4 operators, each compiled in both regimes (bounded, unbounded)
   and verified on every string of lengths 1..10 in hard and in soft mode: every subformula's
   coordinate at every position against the vectorized evaluator, itself compared with the
   reference evaluator on every string of lengths 1..4.  Prints formulas per second and the
   seconds per phase (CPU seconds summed over the workers).
2. One formula with 8 operators on all 2^16 strings of length 16 in soft mode (the engine,
   checks.verify, in a local pool), against the vectorized evaluator; the reference evaluator
   re-checks a fixed sample of 512 of those strings.

Usage: python benchmarks/logic_family.py [--workers N] [--quick] [--json FILE]
"""

from __future__ import annotations

import os

# One BLAS thread per worker process: the pool already uses every core.
for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from hardsoft.checks.engine import columns as cl
from hardsoft.checks.engine import formulas as fm
from hardsoft.checks.engine import verify as vf
from hardsoft.constructive import logic as lg

#: The 8-operator formula of part 2 (S, &, Y, U, X, !, |, S).
LONG_FORMULA = "(a S (b & Y a)) U (X !b | first S last)"


def part_family(workers: int, quick: bool) -> dict:
    """Return part 1's figures."""
    formulas = fm.family(2) + fm.sample_formulas(1000)
    if quick:
        formulas = formulas[::10]
    t0, c0 = time.perf_counter(), time.process_time()
    rep = fm.verify_formulas(formulas, 10, workers=workers)
    wall = time.perf_counter() - t0
    doc = rep.to_json()
    doc.update(wall_seconds=wall, formulas_per_second=len(formulas) / wall,
               runs_per_second=rep.runs / wall, main_process_cpu_seconds=time.process_time() - c0)
    print(f"family: {len(formulas)} formulas ({sum(lg.size(f) <= 2 for f in formulas)} with <= 2 operators, "
          f"{sum(lg.size(f) > 2 for f in formulas)} with 3-4), lengths 1..10 (2,046 strings), regimes bounded and "
          f"unbounded, modes hard and soft, {workers} worker(s)")
    print(f"  {'ALL AGREE' if rep.ok else f'{len(rep.failures)} FAILURE(S)'}; unsupported {len(rep.unsupported)}; "
          f"{rep.stacks} stacks")
    print(f"  wall {wall:.1f} s: {len(formulas) / wall:.1f} formulas/s ({rep.runs / wall:.1f} compiled models/s)")
    total = sum(rep.phase_seconds.values())
    doc.update(cpu_seconds=total, idle_wall_estimate=total / workers)
    print(f"  CPU {total:.1f} s over {workers} worker(s) (load average now {os.getloadavg()[0]:.1f}): on an idle "
          f"machine about {total / workers:.0f} s wall, {len(formulas) * workers / total:.1f} formulas/s")
    print("  where the time goes (CPU seconds summed over workers):")
    for k, v in sorted(rep.phase_seconds.items(), key=lambda kv: -kv[1]):
        print(f"    {k:16} {v:8.1f} s  {100 * v / total:5.1f} %")
    for f in rep.failures[:5]:
        print(f"  failure: {f}")
    return doc


def part_long(workers: int) -> dict:
    """Return part 2's figures."""
    f = lg.parse(LONG_FORMULA)
    assert lg.size(f) == 8, lg.size(f)
    t0 = time.perf_counter()
    compiled = lg.compile_formula(f, regime="bounded")
    t_compile = time.perf_counter() - t0
    target = vf.target_from_compiled(compiled, evaluator="vectorized")
    rep = vf.verify(target, 16, modes=("soft",), workers=workers, only_N=True, max_seconds=None)
    t_total = time.perf_counter() - t0
    # the vectorized evaluator against the reference on a fixed sample of the same strings
    w = np.random.default_rng(16).integers(0, 2, size=(512, 16))
    same = bool((cl.evaluate_columns(f, w) == lg.evaluate_batch(f, w)).all())
    print(f"long formula {LONG_FORMULA} (8 operators; {compiled.model.depth} layers, d = {compiled.model.d}), "
          f"tau(16) = {compiled.tau(16):.4g}")
    print(f"  {rep.summary()}")
    print(f"  compile {t_compile:.2f} s, verification {rep.seconds:.1f} s wall ({rep.task_seconds:.1f} s in tasks), "
          f"total {t_total:.1f} s; vectorized evaluator = reference on 512 sampled strings: {same}")
    return {"formula": LONG_FORMULA, "ok": rep.ok and same, "strings": rep.strings, "seconds": rep.seconds,
            "total_seconds": t_total, "task_seconds": rep.task_seconds, "backend": rep.backend,
            "layers": compiled.model.depth, "d": compiled.model.d}


def main() -> int:
    """Run both parts and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--quick", action="store_true", help="every tenth formula only")
    ap.add_argument("--json", help="also write the figures to this file")
    ap.add_argument("--only", choices=["family", "long"])
    a = ap.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    doc = {}
    if a.only in (None, "family"):
        doc["family"] = part_family(a.workers, a.quick)
    if a.only in (None, "long"):
        doc["long"] = part_long(a.workers)
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(doc, fh, indent=1)
    return 0 if all(d["ok"] for d in doc.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
