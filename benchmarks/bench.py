"""Benchmarks of the simulator (the speed targets); prints figures, asserts nothing.

1. A 4-layer, 4-head, d = 64 model on a batch of 64 inputs of length 1024, hard
   (average) and soft mode: the vectorised ``spec.transformer.run`` against
   (a) the same model's matrix products alone (the floor, below), (b) the per-position Python
   loop ``spec.reference.run_pair_loop`` (one step per query/key pair, as the
   definitions read) and (c) the per-query loop ``spec.reference.run_loop`` (numpy
   inside each query).  The loops are timed on a slice (of the batch, and for (b)
   of the query positions) and scaled linearly; the slices are printed.
2. Exhaustive gap measurement: all 2^16 binary inputs of length 16, 2-layer model.
3. An imported wide model: a random TransformerLens state dict with d_model = 640 (8 heads of 80,
   d_mlp 2560, 2 layers, BOS, inputs up to 10 symbols over 4 letters) read by ``hardsoft import``'s
   reader, run hard and soft on 1,024 random inputs of length 10, against its floor.

The floor: every matrix product ``run`` computes for the model and batch (projections, scores
over the keys each block of queries sees, weights times values, W_O, the FFN), nothing else,
each laid out as the fastest numpy call for its shapes: the position-wise products on the
activations as one (batch * n, d) matrix, the attention products timed in two layouts (run's
blocks, and whole (batch, n, n) arrays in slices as the earlier simulator did) and the faster
taken.  A fixed weight array stands in for attention.  Times are each process's CPU seconds,
best of ``--repeat``, with BLAS on one thread (OPENBLAS_NUM_THREADS=1 and its siblings unless
set): the ratio then compares one core's work, which other jobs on a shared machine disturb
far less than wall time.

Usage: python benchmarks/bench.py [--quick] [--repeat K]   (--quick: batch 8, n 256, for a smoke run)
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):  # before numpy starts its BLAS
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from hardsoft.spec import transformer as tf  # noqa: E402
from hardsoft.spec.examples import random_model  # noqa: E402
from hardsoft.spec.reference import run_loop, run_pair_loop  # noqa: E402

#: Largest score arrays (batch slice x n x n) of the whole-array layout of the floor (the earlier simulator's slices).
WHOLE_SLICE_ELEMENTS = 2**22
#: The target: hard and soft runs within this factor of the floor.
FLOOR_TARGET = 1.3


def best_of(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Return the best CPU seconds and the best wall seconds of repeat calls."""
    cpu, wall = float("inf"), float("inf")
    for _ in range(repeat):
        c0, t0 = time.process_time(), time.perf_counter()
        fn()
        cpu, wall = min(cpu, time.process_time() - c0), min(wall, time.perf_counter() - t0)
    return cpu, wall


def _attention_products_blocks(Q: np.ndarray, K: np.ndarray, V: np.ndarray, plan: tf.MaskPlan) -> np.ndarray:
    """The attention products of one head in run's blocks: s = Q K^T over each block's keys, then a stand-in weight array times V."""
    batch, n, _ = Q.shape
    step, _ = tf.attention_schedule(batch, n)
    out = np.empty((batch, n, V.shape[2]))
    Kt = K.transpose(0, 2, 1)
    weights: dict[tuple[int, ...], np.ndarray] = {}
    for lo in range(0, batch, step):
        bs = slice(lo, lo + step)
        for blk in plan.blocks:
            s = Q[bs, blk.rows] @ Kt[bs, :, blk.keys]
            alpha = weights.get(s.shape)
            if alpha is None:
                alpha = weights[s.shape] = np.full(s.shape, 1.0 / s.shape[-1])
            np.matmul(alpha, V[bs, blk.keys], out=out[bs, blk.rows])
    return out


def _attention_products_whole(Q: np.ndarray, K: np.ndarray, V: np.ndarray, plan: tf.MaskPlan) -> np.ndarray:
    """The attention products of one head over whole (slice, n, n) score arrays, every key of every query (no blocks)."""
    batch, n, _ = Q.shape
    step = max(1, WHOLE_SLICE_ELEMENTS // (n * n))
    out = np.empty((batch, n, V.shape[2]))
    alpha = np.full((min(step, batch), n, n), 1.0 / n)
    for lo in range(0, batch, step):
        s = Q[lo : lo + step] @ K[lo : lo + step].transpose(0, 2, 1)
        del s
        out[lo : lo + step] = alpha[: min(step, batch - lo)] @ V[lo : lo + step]
    return out


def floor_products(model: tf.Model, w: np.ndarray, layout: str) -> None:
    """Compute every matrix product ``run`` computes for the model on w, and nothing else (module docstring: the floor)."""
    x = model.embed(w)
    batch, n, d = x.shape
    rows = tf.attention_schedule(batch, n)[1]
    plans = {k: tf.plan_mask(k, n, rows) for k in {h.mask for layer in model.layers for h in layer.heads}}
    attend = _attention_products_blocks if layout == "blocks" else _attention_products_whole
    x2 = x.reshape(batch * n, d)
    for layer in model.layers:
        y2 = x2.copy()
        for hd in layer.heads:
            Q = (x2 @ hd.W_Q).reshape(batch, n, -1)
            K = (x2 @ hd.W_K).reshape(batch, n, -1)
            V = (x2 @ hd.W_V).reshape(batch, n, -1)
            y2 += attend(Q, K, V, plans[hd.mask]).reshape(batch * n, -1) @ hd.W_O
        x2 = y2 + (y2 @ layer.W1) @ layer.W2


def compare_with_floor(model: tf.Model, w: np.ndarray, tau: float, repeat: int) -> dict:
    """Return the floor's CPU seconds (the faster layout) and hard and soft runs' CPU and wall seconds, with their ratios."""
    layouts = {lay: best_of(lambda lay=lay: floor_products(model, w, lay), repeat) for lay in ("blocks", "whole")}
    fastest = min(layouts, key=lambda k: layouts[k][0])
    floor = layouts[fastest][0]
    hard = best_of(lambda: tf.run(model, w, "average"), repeat)
    soft = best_of(lambda: tf.run(model, w, "soft", tau=tau), repeat)
    return {
        "floor_cpu": floor,
        "floor_layout": fastest,
        "layouts_cpu": {k: v[0] for k, v in layouts.items()},
        "hard_cpu": hard[0],
        "hard_wall": hard[1],
        "soft_cpu": soft[0],
        "soft_wall": soft[1],
        "hard_ratio": hard[0] / floor,
        "soft_ratio": soft[0] / floor,
    }


def print_comparison(r: dict) -> None:
    """Print one model's floor and run times."""
    lay = ", ".join(f"{k} {v:.2f} s" for k, v in r["layouts_cpu"].items())
    print(f"    matrix products alone (floor) {r['floor_cpu']:8.2f} s CPU per mode (layout {r['floor_layout']}; {lay})")
    for label, key in (("hard (average)", "hard"), ("soft", "soft")):
        ok = "within" if r[f"{key}_ratio"] <= FLOOR_TARGET else "ABOVE"
        print(f"    vectorised {label:16s} {r[f'{key}_cpu']:8.2f} s CPU ({r[f'{key}_wall']:.2f} s wall) = {r[f'{key}_ratio']:4.2f} x floor ({ok} the {FLOOR_TARGET}x target)")


#: The imported wide model of part 3: TransformerLens layout.
WIDE_L, WIDE_H, WIDE_D, WIDE_K, WIDE_M, WIDE_CTX = 2, 8, 640, 80, 2560, 11
WIDE_VOCAB = ["BOS", "a", "b", "c", "d"]


def write_wide_model(directory: Path) -> Path:
    """Write the wide benchmark model (safetensors and config with hints, float32 like a trained model); return the weights' path."""
    from safetensors.numpy import save_file

    rng = np.random.default_rng(0)
    r = lambda *s: (rng.normal(size=s) / np.sqrt(s[-1])).astype(np.float32)  # noqa: E731
    sd = {"embed.W_E": r(len(WIDE_VOCAB), WIDE_D), "pos_embed.W_pos": r(WIDE_CTX, WIDE_D), "unembed.W_U": r(WIDE_D, 4), "unembed.b_U": r(4)}
    for l in range(WIDE_L):
        a, m = f"blocks.{l}.attn.", f"blocks.{l}.mlp."
        sd |= {a + "W_Q": r(WIDE_H, WIDE_D, WIDE_K), a + "W_K": r(WIDE_H, WIDE_D, WIDE_K), a + "W_V": r(WIDE_H, WIDE_D, WIDE_K)}
        sd |= {a + "W_O": r(WIDE_H, WIDE_K, WIDE_D), a + "b_Q": r(WIDE_H, WIDE_K), a + "b_K": r(WIDE_H, WIDE_K), a + "b_V": r(WIDE_H, WIDE_K), a + "b_O": r(WIDE_D)}
        sd |= {m + "W_in": r(WIDE_D, WIDE_M), m + "b_in": r(WIDE_M), m + "W_out": r(WIDE_M, WIDE_D), m + "b_out": r(WIDE_D)}
    cfg = {
        "n_layers": WIDE_L, "n_heads": WIDE_H, "d_model": WIDE_D, "d_head": WIDE_K, "d_mlp": WIDE_M, "d_vocab": len(WIDE_VOCAB),
        "d_vocab_out": 4, "n_ctx": WIDE_CTX, "act_fn": "relu", "normalization_type": None, "attn_only": False,
        "attention_dir": "causal", "attn_scale": float(np.sqrt(WIDE_K)), "positional_embedding_type": "standard",
        "hardsoft": {"input_vocab": WIDE_VOCAB, "bos": "BOS", "output_labels": list("wxyz"), "output_kind": "categorical", "source": "benchmark"},
    }  # fmt: skip
    path = directory / "wide.safetensors"
    save_file(sd, str(path))
    (directory / "wide.config.json").write_text(json.dumps(cfg))
    return path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=3, help="best of this many runs for the floor and the vectorised runs (default 3)")
    ap.add_argument("--loop-batch", type=int, default=1, help="inputs of the batch the loop is timed on")
    args = ap.parse_args()
    batch, n = (8, 256) if args.quick else (64, 1024)
    rng = np.random.default_rng(0)
    model = random_model(rng, d=64, depth=4, heads=4, masks=("none", "causal"))
    w = rng.integers(0, 2, size=(batch, n))

    threads = os.environ.get("OPENBLAS_NUM_THREADS")
    print(f"[1] simulator: L=4, H=4, d=64, batch={batch}, n={n}, float64, tau=0.01 (BLAS threads: {threads})")
    r = compare_with_floor(model, w, 0.01, args.repeat)
    print_comparison(r)
    k = max(1, min(args.loop_batch, batch))
    q = 16
    for label, mode, tau, key in (("hard (average)", "average", None, "hard_wall"), ("soft (tau=0.01)", "soft", 0.01, "soft_wall")):
        t0 = time.perf_counter()
        run_loop(model, w[:k], mode, tau)
        per_query = (time.perf_counter() - t0) * batch / k
        t0 = time.perf_counter()
        run_pair_loop(model, w[:1], mode, tau, queries=q)
        pair = (time.perf_counter() - t0) * batch * n / q
        t = r[key]
        print(f"    {label:16s} pair loop {pair:9.0f} s -> {pair / t:7.0f} x slower than vectorised | per-query loop {per_query:7.1f} s -> {per_query / t:5.1f} x slower (wall)")
    print(f"    (pair loop timed on 1 input x {q} query positions per layer, scaled by {batch * n // q}; per-query loop on {k} of {batch} inputs, scaled by {batch / k:g})")

    print("[2] exhaustive gap measurement: 2-layer model, all 2^16 binary inputs of length 16")
    m2 = random_model(np.random.default_rng(1), d=8, depth=2, heads=2)
    t0 = time.perf_counter()
    meas = tf.measure(m2, 16)
    t = time.perf_counter() - t0
    print(f"    {meas.inputs} inputs in {t:.2f} s; gamma_T(16) = {meas.gap:.4g}, x_max(16) = {meas.x_max:.4g}")

    from hardsoft.checks import interop

    with tempfile.TemporaryDirectory() as tmp:
        wide = interop.import_transformer_lens(write_wide_model(Path(tmp)), tracr=True)
    wide_batch = 256 if args.quick else 1024
    ww = np.random.default_rng(3).integers(0, len(wide.alphabet), size=(wide_batch, WIDE_CTX - 1))
    heads = sum(len(layer.heads) for layer in wide.layers)
    print(f"[3] imported wide model: d_model = {wide.d} (640 + the folded bias coordinate), {wide.depth} layers, {heads} heads, "
          f"FFN {wide.layers[0].W1.shape[1]}, batch={wide_batch}, n={WIDE_CTX - 1} (+BOS), tau = its own {wide.own_tau:.4g}")  # fmt: skip
    print_comparison(compare_with_floor(wide, ww, float(wide.own_tau or 1.0), args.repeat))


if __name__ == "__main__":
    main()
