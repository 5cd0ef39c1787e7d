"""Run a ``spec.transformer.Model`` in soft (or hard) mode with the arithmetic really done in a low-precision format.

A precision question the paper leaves open (``docs/precision.md``): the
simulation theorems need temperatures that shrink with the gap gamma_T(n); in a
floating-point format with p significand bits, score differences below the
spacing of the floats near the scores are lost.  ``run_lowprec`` runs the SAME
model as ``spec.transformer.run`` (embedding, heads, masks, residuals, ReLU FFN,
no layer norm) with every step done in a chosen format, and checks the dtype and
finiteness of every step.

Formats (``FORMATS``) and which operation runs in which format
----------------------------------------------------------------
Let F be the format's storage type.  ``round_F(v)`` means "computed in a wider
type and rounded once, to nearest-even, to F" (numpy / ml_dtypes casts).

``float64``, ``float32``
    Everything native: weights, activations, every matrix product (numpy/BLAS in
    that type, so the accumulation is in that type), scaling, max, subtraction,
    exp, the row sum (numpy's pairwise summation in that type), division,
    residual additions, ReLU.

``float16``, ``bfloat16`` ("pure" formats)
    * storage: weights, biases, embeddings, activations, queries, keys, values,
      scores, scaled scores, exponentials, weights, head outputs: F.
    * matrix products (x W, Q K^T, alpha V, o W_O, FFN): the F inputs are widened
      exactly to float32, multiplied and summed by BLAS in float32, and the
      result rounded once to F (``round_F(A @ B)``).  This is the accumulation of
      fp16/bf16 GEMMs on current accelerators (float32 accumulators, F output);
      products of two F numbers are exact in float32, so the only difference from
      an exact-F accumulation is that partial sums are not rounded to F.  (numpy's
      own ``float16 @ float16`` is ~100x slower, and ``bfloat16 @ bfloat16``
      silently returns float32: neither is used.)
    * element-wise steps (bias and residual additions, scaling by 1/tau, row-max
      subtraction, exp, division, ReLU): ``round_F`` of the float32 result, i.e.
      one correctly rounded F operation (for + - * / float32 has enough bits that
      the double rounding is innocuous; exp is float32's exp rounded to F).
    * the softmax denominator (the row sum of the exponentials): a pairwise tree
      of F additions, every partial sum rounded to F (``_pairwise_sum``).
    * the row maximum: exact in any format.

``mixed-float16``, ``mixed-bfloat16`` (the common mixed-precision scheme)
    * storage of weights, activations, queries, keys, values and head outputs: F.
    * matrix products: F inputs, float32 accumulation; the scores Q K^T are KEPT
      in float32; every other product is rounded once to F.
    * the whole softmax (scaling, max, subtraction, exp, sum, division) in
      float32; the weights are rounded to F as the input of alpha V.
    * residual additions, biases and ReLU: round_F of the float32 result.

The order of the two softmax preliminaries is an option (``order``):
``"scale-first"`` (the frameworks' convention: z = s/tau, then z - max z) or
``"max-first"`` (the spec's: (s - max s)/tau, a mitigation).  1/tau is rounded
to the softmax's format once; if it overflows that format, the run raises.
``softmax_format`` overrides the format of the scores and the softmax
(e.g. float32 scores and softmax with everything else in float16).

Errors: any inf or NaN in any step (for instance 1/tau or a scaled score
overflowing float16, max 65504) raises ``LowPrecisionOverflow`` (a ValueError)
naming the step, layer and head; a result is never returned with inf/NaN in it.

Memory: queries are processed in blocks of ``block`` rows so that a score block
(batch x block x n) stays below ``SCORE_BLOCK_ELEMENTS`` entries; n = 2^16 runs
in a few hundred MiB.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import ml_dtypes
import numpy as np

from hardsoft.spec.constants import TIE_RTOL
from hardsoft.spec.transformer import Model, require_inputs
from hardsoft.spec.validate import require_tau

BF16 = np.dtype(ml_dtypes.bfloat16)
F16 = np.dtype(np.float16)
F32 = np.dtype(np.float32)
F64 = np.dtype(np.float64)

#: Score-block size: batch x query-block x n entries processed at once (2^22 float32 = 16 MiB per array).
SCORE_BLOCK_ELEMENTS = 2**22


@dataclass(frozen=True)
class Format:
    """How one format computes: storage type, matmul accumulation type, softmax type and whether scores stay in the accumulator."""

    name: str
    storage: np.dtype
    accumulate: np.dtype
    softmax: np.dtype
    scores_in_accumulator: bool  # mixed: Q K^T kept in float32
    precision: int  # significand bits p of the storage type (hidden bit included)

    @property
    def unit_roundoff(self) -> float:
        """Return u = 2^-p (half the spacing of the floats in [1, 2))."""
        return 2.0**-self.precision


FORMATS: dict[str, Format] = {
    "float64": Format("float64", F64, F64, F64, False, 53),
    "float32": Format("float32", F32, F32, F32, False, 24),
    "float16": Format("float16", F16, F32, F16, False, 11),
    "bfloat16": Format("bfloat16", BF16, F32, BF16, False, 8),
    "mixed-float16": Format("mixed-float16", F16, F32, F32, True, 11),
    "mixed-bfloat16": Format("mixed-bfloat16", BF16, F32, F32, True, 8),
}

#: Largest finite value and precision of every dtype used.
_PRECISION = {F64: 53, F32: 24, F16: 11, BF16: 8}


def require_format(name: str) -> Format:
    """Return the Format called name; ValueError naming the known ones otherwise."""
    if name not in FORMATS:
        raise ValueError(f"unknown format {name!r}; known: {', '.join(FORMATS)}")
    return FORMATS[name]


def finfo_max(dtype: np.dtype) -> float:
    """Return the largest finite value of a float dtype (numpy or ml_dtypes)."""
    return float(ml_dtypes.finfo(dtype).max)


class LowPrecisionOverflow(ValueError):
    """An inf or NaN appeared in a low-precision run: the step that produced it is named."""


class _Steps:
    """Set and check the dtype and finiteness of every step of one run."""

    def __init__(self, fmt: Format) -> None:
        self.fmt = fmt
        self.where = ""

    def check(self, step: str, a: np.ndarray, dtype: np.dtype, finite: bool = True) -> np.ndarray:
        """Return a after checking that its dtype is dtype and (optionally) that it has no inf/NaN."""
        if a.dtype != dtype:
            raise AssertionError(f"internal: step {step} {self.where} produced {a.dtype}, expected {dtype}")
        if finite and not np.isfinite(a.astype(F32) if a.dtype == BF16 else a).all():
            raise LowPrecisionOverflow(
                f"{self.fmt.name} overflow at step '{step}' {self.where}: inf or NaN (largest finite {dtype.name} is {finfo_max(dtype):.6g})"
            )
        return a

    def round(self, step: str, a: np.ndarray, dtype: np.dtype) -> np.ndarray:
        """Return a rounded once to dtype, checked."""
        with np.errstate(over="ignore", invalid="ignore"):
            r = a.astype(dtype, copy=False)
        return self.check(step, r, dtype)

    def matmul(self, step: str, a: np.ndarray, b: np.ndarray, out: np.dtype | None = None) -> np.ndarray:
        """Return a @ b: inputs widened exactly to the accumulation type, summed there, rounded once to out (default storage)."""
        acc = self.fmt.accumulate
        with np.errstate(over="ignore", invalid="ignore"):
            r = a.astype(acc, copy=False) @ b.astype(acc, copy=False)
        self.check(step + " (accumulated)", r, acc)
        return self.round(step, r, out or self.fmt.storage)

    def elementwise(self, step: str, f: Callable[..., np.ndarray], *args: np.ndarray, dtype: np.dtype) -> np.ndarray:
        """Return f(*args) computed in float32 (float64 for float64) and rounded once to dtype."""
        wide = F64 if dtype == F64 else F32
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            r = f(*(x.astype(wide, copy=False) for x in args))
        return self.round(step, np.asarray(r), dtype)


def _pairwise_sum(steps: _Steps, step: str, e: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Return the sums of e along the last axis (keepdims) by a pairwise tree, every partial sum rounded to dtype.

    For float32/float64 numpy's own (pairwise, in-type) summation is used.
    """
    if dtype in (F32, F64):
        r = e.sum(axis=-1, keepdims=True, dtype=dtype)
        return steps.check(step, r, dtype)
    x = e
    while x.shape[-1] > 1:
        if x.shape[-1] % 2:
            x = np.concatenate([x, np.zeros(x.shape[:-1] + (1,), dtype=dtype)], axis=-1)
        with np.errstate(over="ignore", invalid="ignore"):
            x = (x[..., 0::2].astype(F32) + x[..., 1::2].astype(F32)).astype(dtype)
    return steps.check(step, x, dtype)


@dataclass
class LowPrecTrace:
    """The result of ``run_lowprec``: final activations (float64 copies of the stored values) and per-head watch data.

    ``mass_on_max`` [layer][head] is a (batch, n) array: the soft weight each query
    puts on the max set of its own scores recomputed in float64 from the stored
    activations (the positions hard attention would choose from these inputs);
    NaN for queries without keys.  ``weights`` holds the full (n, n) weight matrix
    of the first input for every layer and head when ``keep_weights`` was set.
    """

    fmt: str
    tau: float | None
    activations: list[np.ndarray]
    mass_on_max: list[list[np.ndarray]] = field(default_factory=list)
    weights: list[list[np.ndarray]] = field(default_factory=list)


def _mask_block(kind: str, qi: np.ndarray, kj: np.ndarray) -> np.ndarray:
    """Return the (len(qi), len(kj)) block of the mask kind (``spec.attention.make_mask``) for query rows qi, key columns kj."""
    i, j = qi[:, None], kj[None, :]
    if kind == "none":
        return np.ones((len(qi), len(kj)), dtype=bool)
    return {"causal": j <= i, "strict": j < i, "anticausal": j >= i, "strict_anticausal": j > i}[kind]


def _softmax_block(steps: _Steps, s: np.ndarray, visible: np.ndarray, beta: np.ndarray, order: str) -> np.ndarray:
    """Return softmax weights of a score block in the softmax format (masked keys get exactly 0).

    Masked keys are replaced by 0 before any arithmetic (as adding a -inf mask
    after the fact would), so they can neither overflow nor win the maximum.
    """
    dt = s.dtype
    zero = np.zeros((), dtype=dt)
    s = np.where(visible, s, zero)
    if order == "scale-first":
        z = steps.elementwise("scaled scores s/tau", np.multiply, s, beta, dtype=dt)
        m = np.where(visible, z, -np.inf if dt != BF16 else np.array(-np.inf, dtype=F32).astype(dt)).max(axis=-1, keepdims=True)
        steps.check("row max", m, dt)
        z = steps.elementwise("z - max z", np.subtract, np.where(visible, z, m), m, dtype=dt)
    else:
        m = np.where(visible, s, -np.inf if dt != BF16 else np.array(-np.inf, dtype=F32).astype(dt)).max(axis=-1, keepdims=True)
        steps.check("row max", m, dt)
        d = steps.elementwise("s - max s", np.subtract, np.where(visible, s, m), m, dtype=dt)
        z = steps.elementwise("scaled scores (s - max s)/tau", np.multiply, d, beta, dtype=dt)
    e = steps.elementwise("exp", np.exp, z, dtype=dt)
    e = np.where(visible, e, zero)
    tot = _pairwise_sum(steps, "softmax denominator", e, dt)
    return steps.elementwise("softmax division", np.divide, e, tot, dtype=dt)


def run_lowprec(
    model: Model,
    inputs: np.ndarray,
    fmt: str,
    tau: float | None,
    mode: str = "soft",
    order: str = "scale-first",
    softmax_format: str | None = None,
    watch: bool | set[tuple[int, int]] = True,
    keep_weights: bool = False,
    progress: Callable[[str], None] | None = None,
    reference: list[np.ndarray] | None = None,
    layers: int | None = None,
    winners: dict[tuple[int, int], np.ndarray] | None = None,
) -> LowPrecTrace:
    """Run the model on a (batch, n) batch with every step in format ``fmt`` (see the module docstring).

    mode: "soft" (tau-SMAT, needs tau) or "average" (AHAT with float ties read
    exactly in the format: a key is maximal iff its stored score equals the row max).
    order: "scale-first" or "max-first".  softmax_format: optional dtype name
    (float64/float32/float16/bfloat16) for the scores and softmax.
    watch: record ``mass_on_max`` for every head (True), none (False) or the given
    (layer, head) pairs (one extra float64 score product per block).  reference:
    the activations x^(0..L) of an exact hard run on the same inputs (e.g.
    ``run_lowprec(..., "float64", None, mode="average").activations``); the
    watched max sets are then those of the exact hard model (the true winners),
    not those of this run's own rounded activations.
    layers: run only the first ``layers`` layers (e.g. for a reference run).
    winners: {(layer, head): (batch, n) key indices, -1 for none}: for those heads record, in
    ``mass_on_max``, the weight on exactly that key (the exact winner, known from
    exact arithmetic), instead of the mass on a float64-recomputed max set (whose
    tie tolerance TIE_RTOL cannot resolve gaps below ~2^-42 |s|).
    Keys that a causal (anticausal) mask hides from every query of a block are
    not computed at all.
    """
    f = require_format(fmt)
    if mode not in ("soft", "average"):
        raise ValueError(f"run_lowprec mode must be soft or average, got {mode!r}")
    if order not in ("scale-first", "max-first"):
        raise ValueError(f"order must be scale-first or max-first, got {order!r}")
    sdt = f.softmax if softmax_format is None else require_format(softmax_format).storage
    steps = _Steps(f)
    w = require_inputs(inputs, len(model.alphabet))
    batch, n = w.shape
    beta = None
    if mode == "soft":
        t = require_tau(tau)
        steps.where = "(inverse temperature 1/tau)"
        beta = steps.round("1/tau", np.array(1.0 / t), sdt)
    st = f.storage
    rnd = lambda name, a: steps.round(name, np.asarray(a, dtype=F64), st)  # noqa: E731  weights: rounded once from the exact float64 values
    steps.where = "(embedding)"
    x = steps.round("embedding", model.WE[w] + model.PE.apply(n)[None], st)
    trace = LowPrecTrace(fmt, tau, [x.astype(F64)])
    block = max(1, min(n, SCORE_BLOCK_ELEMENTS // max(1, batch * n)))
    for l, layer in enumerate(model.layers[:layers]):
        y = x
        lw_mass, lw_weights = [], []
        for h, hd in enumerate(layer.heads):
            steps.where = f"(layer {l}, head {h})"
            Q = steps.matmul("queries x W_Q", x, rnd("W_Q", hd.W_Q))
            K = steps.matmul("keys x W_K", x, rnd("W_K", hd.W_K))
            V = steps.matmul("values x W_V", x, rnd("W_V", hd.W_V))
            WO = rnd("W_O", hd.W_O)
            Kt = K.transpose(0, 2, 1)
            win = None if winners is None else winners.get((l, h))
            watched = (watch is True or (watch and (l, h) in watch)) and win is None
            nonempty = (
                np.asarray(_mask_block(hd.mask, np.arange(n), np.arange(n)).any(axis=-1))
                if n <= 2
                else np.arange(n) != (0 if hd.mask == "strict" else n - 1 if hd.mask == "strict_anticausal" else -1)
            )
            head_out = np.zeros((batch, n, V.shape[-1]), dtype=st)
            mass = np.full((batch, n), np.nan)
            if watched:
                src = reference[l] if reference is not None else x.astype(F64)
                Q64, K64t = src @ hd.W_Q, (src @ hd.W_K).transpose(0, 2, 1)
            weights_full = np.zeros((n, n)) if keep_weights else None
            for lo in range(0, n, block):
                hi = min(n, lo + block)
                if progress is not None and (lo // block) % 64 == 0:
                    progress(f"layer {l} head {h}: queries {lo}..{hi - 1} of {n}")
                # keys [k0, k1) can be visible to some query of the block; the rest are masked for all of them
                k0, k1 = (0, hi) if hd.mask in ("causal", "strict") else (lo, n) if hd.mask.endswith("anticausal") else (0, n)
                if hd.mask == "strict" and hi - 1 < 1:
                    k1 = 1
                vis = _mask_block(hd.mask, np.arange(lo, hi), np.arange(k0, k1))[None]
                rows_ok = nonempty[lo:hi]
                vis = vis | ~rows_ok[None, :, None]
                s_out = F32 if f.scores_in_accumulator else st
                s = steps.matmul("scores Q K^T", Q[:, lo:hi], Kt[:, :, k0:k1], out=s_out)
                if s.dtype != sdt:
                    s = steps.round("scores in softmax format", s, sdt)
                if beta is not None:  # soft mode (beta is set exactly then)
                    a = _softmax_block(steps, s, vis, beta, order)
                else:
                    sm = np.where(vis, s.astype(F64), -np.inf)
                    rmax = sm.max(axis=-1, keepdims=True)
                    top = sm >= rmax - TIE_RTOL * np.maximum(1.0, np.abs(rmax))
                    a = (top / top.sum(axis=-1, keepdims=True)).astype(sdt)
                a = np.where(rows_ok[None, :, None], a, np.zeros((), dtype=a.dtype))
                if watched:
                    s64 = np.where(vis, Q64[:, lo:hi] @ K64t[:, :, k0:k1], -np.inf)
                    rmax = s64.max(axis=-1, keepdims=True)
                    top = s64 >= rmax - TIE_RTOL * np.maximum(1.0, np.abs(rmax))
                    mm = (a.astype(F64) * top).sum(axis=-1)
                    mm[:, ~rows_ok] = np.nan
                    mass[:, lo:hi] = mm
                if win is not None:
                    idx = np.clip(win[:, lo:hi] - k0, 0, k1 - k0 - 1)
                    got = np.take_along_axis(a, idx[..., None], axis=-1)[..., 0].astype(F64)
                    mass[:, lo:hi] = np.where(win[:, lo:hi] < 0, np.nan, got)  # -1: the query has no winner (sees no key)
                if weights_full is not None:  # keep_weights
                    weights_full[lo:hi, k0:k1] = a[0].astype(F64)
                a = steps.round("weights as matmul input", a, st)
                head_out[:, lo:hi] = steps.matmul("alpha V", a, V[:, k0:k1])
            o = steps.matmul("head output o W_O", head_out, WO)
            y = steps.elementwise("residual x + head", np.add, y, o, dtype=st)
            lw_mass.append(mass)
            if weights_full is not None:  # keep_weights
                lw_weights.append(weights_full)
        steps.where = f"(layer {l}, FFN)"
        hpre = steps.matmul("FFN y W1", y, rnd("W1", layer.W1))
        hpre = steps.elementwise("FFN + b1", np.add, hpre, rnd("b1", layer.b1), dtype=st)
        hid = steps.elementwise("FFN ReLU", lambda v: np.maximum(v, 0), hpre, dtype=st)
        out = steps.matmul("FFN h W2", hid, rnd("W2", layer.W2))
        out = steps.elementwise("FFN + b2", np.add, out, rnd("b2", layer.b2), dtype=st)
        x = steps.elementwise("residual y + FFN", np.add, y, out, dtype=st)
        trace.activations.append(x.astype(F64))
        trace.mass_on_max.append(lw_mass)
        if keep_weights:
            trace.weights.append(lw_weights)
    return trace


def float64_weights(model: Model, word: np.ndarray, mode: str, tau: float | None = None) -> list[list[np.ndarray]]:
    """Return every head's (n, n) attention weights of one input, run in float64 by the spec (for pictures)."""
    tr = run_lowprec(
        model, np.asarray(word)[None], "float64", tau if mode == "soft" else None, mode=mode, order="max-first", watch=False, keep_weights=True
    )
    return tr.weights
