"""Benchmarks of the simulator (the speed targets); prints figures, asserts nothing.

1. A 4-layer, 4-head, d = 64 model on a batch of 64 inputs of length 1024, hard
   (average) and soft mode: the vectorised ``spec.transformer.run`` against
   (a) the same model's matrix products alone in numpy, (b) the per-position Python
   loop ``spec.reference.run_pair_loop`` (one step per query/key pair, as the
   definitions read) and (c) the per-query loop ``spec.reference.run_loop`` (numpy
   inside each query).  The loops are timed on a slice (of the batch, and for (b)
   of the query positions) and scaled linearly; the slices are printed.
2. Exhaustive gap measurement: all 2^16 binary inputs of length 16, 2-layer model.

Usage: python benchmarks/bench.py [--quick]   (--quick: batch 8, n 256, for a smoke run)
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from hardsoft.spec import transformer as tf
from hardsoft.spec.examples import random_model
from hardsoft.spec.reference import run_loop, run_pair_loop


def best_of(fn, repeat: int) -> float:
    """Return the best wall time of repeat calls."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def matmuls_only(model: tf.Model, x: np.ndarray, alpha: np.ndarray) -> None:
    """The model's matrix products alone (same shapes as ``run``), with a fixed weight array standing in for attention."""
    for layer in model.layers:
        y = x.copy()
        for hd in layer.heads:
            s = (x @ hd.W_Q) @ (x @ hd.W_K).transpose(0, 2, 1)
            y += (alpha @ (x @ hd.W_V)) @ hd.W_O
            del s
        x = y + (y @ layer.W1) @ layer.W2


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--loop-batch", type=int, default=1, help="inputs of the batch the loop is timed on")
    args = ap.parse_args()
    batch, n = (8, 256) if args.quick else (64, 1024)
    rng = np.random.default_rng(0)
    model = random_model(rng, d=64, depth=4, heads=4, masks=("none", "causal"))
    w = rng.integers(0, 2, size=(batch, n))
    x0 = model.embed(w)
    alpha = np.full((batch, n, n), 1.0 / n)

    print(f"[1] simulator: L=4, H=4, d=64, batch={batch}, n={n}, float64")
    t_mm = best_of(lambda: matmuls_only(model, x0, alpha), 2)
    t_hard = best_of(lambda: tf.run(model, w, "average"), 2)
    t_soft = best_of(lambda: tf.run(model, w, "soft", tau=0.01), 2)
    k = max(1, min(args.loop_batch, batch))
    q = 16
    loops = {}
    for mode, tau in (("average", None), ("soft", 0.01)):
        t0 = time.perf_counter()
        run_loop(model, w[:k], mode, tau)
        per_query = (time.perf_counter() - t0) * batch / k
        t0 = time.perf_counter()
        run_pair_loop(model, w[:1], mode, tau, queries=q)
        pair = (time.perf_counter() - t0) * batch * n / q
        loops[mode] = (per_query, pair)
    print(f"    matrix products alone        {t_mm:8.2f} s (per mode)")
    for label, mode, t in (("hard (average)", "average", t_hard), ("soft (tau=0.01)", "soft", t_soft)):
        pq, pair = loops[mode]
        print(f"    vectorised {label:16s}  {t:8.2f} s = {t / t_mm:4.2f} x products | "
              f"pair loop {pair:9.0f} s -> {pair / t:7.0f} x faster | per-query loop {pq:7.1f} s -> {pq / t:5.1f} x faster")
    print(f"    (pair loop timed on 1 input x {q} query positions per layer, scaled by {batch * n // q}; "
          f"per-query loop on {k} of {batch} inputs, scaled by {batch / k:g})")

    print("[2] exhaustive gap measurement: 2-layer model, all 2^16 binary inputs of length 16")
    m2 = random_model(np.random.default_rng(1), d=8, depth=2, heads=2)
    t0 = time.perf_counter()
    meas = tf.measure(m2, 16)
    t = time.perf_counter() - t0
    print(f"    {meas.inputs} inputs in {t:.2f} s; gamma_T(16) = {meas.gap:.4g}, x_max(16) = {meas.x_max:.4g}")


if __name__ == "__main__":
    main()
