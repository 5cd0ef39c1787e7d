"""Interchange benchmark: import a 6-layer TransformerLens-layout model (target: under 2 s) and certify it.

Writes a random float32 HookedTransformer state dict of tracr-like size (6 layers, 4 heads,
d_model 64, d_head 16, d_mlp 128, 8 tokens with BOS and pad, n_ctx 9) to a temporary directory,
then prints the time of ``hardsoft import``'s reader (first call and best of 5), of writing the
model file (JSON), of measuring gap and x_max over every input of length 3, of the exact
(rational) weight norms of Lemma 25, and of certifying the tightest temperature for eps = 0.01.
With --tracr-dir DIR (models written by ``scripts/tracr_export.py --large DIR``: shuffle_dyck and
sort_freq at lengths 8, 12 and 16), it prints for each model its sizes and the time of import,
of measuring gap and x_max over every input of its length, of Lemma 25's norms, of the tightest
temperature, of the reference check, and of the whole ``hardsoft temperature`` command (target:
at most TEMPERATURE_TARGET_SECONDS).
Usage: python benchmarks/interop.py [--tracr-dir DIR]
"""

# ruff: noqa: E402
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy loads, as the hardsoft command does (hardsoft/__init__.py)

import json
import tempfile
import time
from pathlib import Path

import numpy as np
from safetensors.numpy import save_file

from hardsoft.interchange import tracr
from hardsoft.spec import bounds as bd
from hardsoft.spec import transformer as tf
from hardsoft.spec.modelio import save_model

#: The benchmark's model: tracr-like sizes.
L, H, D, K, M, N_CTX = 6, 4, 64, 16, 128, 9
VOCAB = ["BOS", "a", "b", "c", "d", "e", "f", "compiler_pad"]
#: Length at which gap and x_max are measured (6 symbols: 6^3 = 216 inputs; the full length 8 has 1.7 million).
MEASURE_LENGTH = 3
#: The import target.
IMPORT_TARGET_SECONDS = 2.0


def write_model(directory: Path) -> Path:
    """Write the benchmark model (safetensors + config with hints); return the weights' path."""
    rng = np.random.default_rng(0)
    r = lambda *s: (rng.normal(size=s) / np.sqrt(s[-1])).astype(np.float32)  # noqa: E731
    sd = {"embed.W_E": r(len(VOCAB), D), "pos_embed.W_pos": r(N_CTX, D), "unembed.W_U": r(D, 6), "unembed.b_U": r(6)}
    for l in range(L):
        a, m = f"blocks.{l}.attn.", f"blocks.{l}.mlp."
        sd |= {a + "W_Q": r(H, D, K), a + "W_K": r(H, D, K), a + "W_V": r(H, D, K), a + "W_O": r(H, K, D)}
        sd |= {a + "b_Q": r(H, K), a + "b_K": r(H, K), a + "b_V": r(H, K), a + "b_O": r(D)}
        sd |= {m + "W_in": r(D, M), m + "b_in": r(M), m + "W_out": r(M, D), m + "b_out": r(D)}
    cfg = {
        "n_layers": L, "n_heads": H, "d_model": D, "d_head": K, "d_mlp": M, "d_vocab": len(VOCAB), "d_vocab_out": 6, "n_ctx": N_CTX,
        "act_fn": "relu", "normalization_type": None, "attn_only": False, "attention_dir": "causal", "attn_scale": 4.0,
        "positional_embedding_type": "standard",
        "hardsoft": {"input_vocab": VOCAB, "bos": "BOS", "output_labels": list("uvwxyz"), "output_kind": "categorical", "source": "benchmark"},
    }  # fmt: skip
    st = directory / "bench6.safetensors"
    save_file(sd, str(st))
    (directory / "bench6.config.json").write_text(json.dumps(cfg))
    return st


def main() -> None:
    """Print the import and certification figures."""
    with tempfile.TemporaryDirectory() as tmp:
        st = write_model(Path(tmp))
        t0 = time.perf_counter()
        model = tracr.import_tracr(st)
        first = time.perf_counter() - t0
        times = []
        for _ in range(5):
            t0 = time.perf_counter()
            tracr.import_tracr(st)
            times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        save_model(model, Path(tmp) / "bench6.json")
        write = time.perf_counter() - t0
        verdict = "OK" if max(first, min(times)) < IMPORT_TARGET_SECONDS else "SLOWER THAN TARGET"
        print(f"import 6-layer model (d = {model.d}, {L * H} heads, d_mlp {M}): first {first:.3f} s, best of 5 {min(times):.3f} s "
              f"(target < {IMPORT_TARGET_SECONDS} s: {verdict}); model file written in {write:.3f} s")  # fmt: skip
        n = min(model.max_input_length or 1, MEASURE_LENGTH)
        t0 = time.perf_counter()
        meas = tf.measure(model, n)
        measured = time.perf_counter() - t0
        t0 = time.perf_counter()
        consts = tf.compute_recursion_constants(model, meas)
        norms = time.perf_counter() - t0
        line = f"measure gap and x_max over all {meas.inputs} inputs of length {n} (+BOS): {measured:.2f} s; exact norms: {norms:.1f} s"
        if consts is not None and np.isfinite(meas.gap):
            t0 = time.perf_counter()
            cert = bd.compute_tightest_inverse_temperature(consts.without_spread(), 0.01)
            line += f"; tightest tau {cert.tau:.4g} certified in {time.perf_counter() - t0:.2f} s"
        print(line)
    compare_with_native()


#: The real tracr fixture certified against a native model of its size.
TRACR_FIXTURE = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "tracr" / "dyck_6.safetensors"
#: Imported certification within this factor of the native model's (the interchange's speed target).
CERTIFY_RATIO_TARGET = 2.0


def certify_seconds(model: tf.Model, n: int) -> tuple[float, float]:
    """Return (seconds, tightest tau) of the temperature certification: measure over all inputs of length n, norms, bisection."""
    t0 = time.perf_counter()
    meas = tf.measure(model, n)
    consts = tf.compute_recursion_constants(model, meas)
    tau = float("nan")
    if consts is not None and np.isfinite(meas.gap):
        tau = bd.compute_tightest_inverse_temperature(consts.without_spread(), 0.01).tau
    return time.perf_counter() - t0, tau


def compare_with_native() -> None:
    """Print the certification time of the imported tracr fixture and of a native model of the same size."""
    from hardsoft.spec.examples import random_model

    if not TRACR_FIXTURE.is_file():
        print(f"(no {TRACR_FIXTURE}: run from a source tree for the imported-vs-native comparison)")
        return
    imported = tracr.import_tracr(TRACR_FIXTURE)
    n = imported.max_input_length or 1
    heads = max(len(layer.heads) for layer in imported.layers)
    native = random_model(np.random.default_rng(6), d=imported.d, depth=len(imported.layers), heads=heads,
                          alphabet_size=len(imported.alphabet), name="native-same-size")  # fmt: skip
    t_imp, tau_imp = certify_seconds(imported, n)
    t_nat, tau_nat = certify_seconds(native, n)
    ratio = t_imp / t_nat if t_nat > 0 else float("inf")
    verdict = "OK" if ratio <= CERTIFY_RATIO_TARGET else "SLOWER THAN TARGET"
    print(f"certify at n = {n} (every input, eps = 0.01): imported tracr dyck_6 (d = {imported.d}, {len(imported.layers)} layers) "
          f"{t_imp:.2f} s (tau {tau_imp:.4g}); native same-size model {t_nat:.2f} s (tau {tau_nat:.4g}); "
          f"ratio {ratio:.2f} (target <= {CERTIFY_RATIO_TARGET}: {verdict})")  # fmt: skip


#: hardsoft temperature on a tracr model up to length 16: the interchange's speed target (seconds, on the 2-core machine).
TEMPERATURE_TARGET_SECONDS = 30.0


def tracr_table(directory: Path) -> None:
    """Print, per tracr model of a directory, import / measure / norms / certify / verify times against its sizes."""
    import subprocess
    import sys

    from hardsoft.interchange import reference

    print(
        "| model | n | d_model | d_mlp | layers | heads | inputs | import s | measure s | norms s | certify s | verify s | hardsoft temperature s |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    names = sorted(directory.glob("*.safetensors"), key=lambda p: (p.name.rsplit("_", 1)[0], int(p.name.rsplit("_", 1)[1].split(".")[0])))
    for st in names:
        t0 = time.perf_counter()
        m = tracr.import_tracr(st)
        t_imp = time.perf_counter() - t0
        n = m.max_input_length or 1
        t0 = time.perf_counter()
        meas = tf.measure(m, n)
        t_meas = time.perf_counter() - t0
        t0 = time.perf_counter()
        norms = tf.compute_model_norms(m)
        t_norms = time.perf_counter() - t0
        t0 = time.perf_counter()
        consts = bd.RecursionConstants.from_norms(norms, meas.x_max, m.positions(n), meas.gap) if np.isfinite(meas.gap) else None
        if consts is not None:
            bd.compute_tightest_inverse_temperature(consts, 0.01)
        t_cert = time.perf_counter() - t0
        ref_path = st.with_name(st.name.removesuffix(".safetensors") + ".reference.json")
        t0 = time.perf_counter()
        rep = reference.compare_with_reference(m, reference.load_reference(ref_path, m), tau=m.own_tau or 1.0)
        t_ver = time.perf_counter() - t0
        with tempfile.TemporaryDirectory() as tmp:
            f = Path(tmp) / "m.json"
            save_model(m, f)
            t0 = time.perf_counter()
            proc = subprocess.run(
                [sys.executable, "-m", "hardsoft", "temperature", "--model", str(f), "--n", str(n), "--eps", "0.01"], capture_output=True, text=True
            )
            t_cmd = time.perf_counter() - t0
        ok = "" if proc.returncode == 0 else f" (exit {proc.returncode}: {proc.stderr.strip()[:80]})"
        verdict = "" if t_cmd <= TEMPERATURE_TARGET_SECONDS else " SLOWER THAN TARGET"
        heads = max(len(layer.heads) for layer in m.layers)
        sizes = f"| {st.name.removesuffix('.safetensors')} | {n} | {m.d} | {max(layer.W1.shape[1] for layer in m.layers)} | {m.depth} | {heads} "
        agree = f"({rep.soft_hard.agree}/{rep.soft_hard.total})"
        times = f"| {meas.inputs:,} | {t_imp:.2f} | {t_meas:.2f} | {t_norms:.2f} | {t_cert:.2f} | {t_ver:.2f} {agree} | {t_cmd:.1f}{ok}{verdict} |"
        print(sizes + times, flush=True)
    print(f"(target: hardsoft temperature <= {TEMPERATURE_TARGET_SECONDS:g} s, the command's own start-up included)")


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description="interchange benchmark")
    ap.add_argument("--tracr-dir", type=Path, help="tracr models written by scripts/tracr_export.py --large DIR")
    a = ap.parse_args()
    if a.tracr_dir is not None:
        tracr_table(a.tracr_dir)
    else:
        main()
