"""Checks, gap/temperature table and precision audit of the constructions (``constructive.applications``).

* ``check_construction``: a construction against its reference, exhaustively (every input of
  length n, when |Sigma|^n <= EXHAUSTIVE_LIMIT) or on sampled inputs, in hard mode
  and in soft mode at the construction's temperature.
* ``gap_row``: measured gap against the claimed one, x_max, the temperature of
  statement T (``spec.bounds``, target error EPS_DECISION), the construction's
  temperature, and the largest temperature that still decides every tested input.
* ``precision_audit``: per format, the largest n (doubling, then bisection) at
  which the soft model at its temperature, run by ``constructive.lowprec`` with every step
  in that format, still decides every tested input; the mass on the winning
  position(s) at the first failing n; and the breakdown n predicted from the gap
  and the format's resolution (``predicted_breakdown``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass

import numpy as np

from hardsoft.constructive.applications import Construction
from hardsoft.constructive.lowprec import FORMATS, LowPrecisionOverflow, finfo_max, require_format, run_lowprec
from hardsoft.spec import bounds as bd
from hardsoft.spec import transformer as tf
from hardsoft.spec.transformer import Model

#: Largest number of inputs enumerated for an exhaustive check.
EXHAUSTIVE_LIMIT = 2**16
#: Target output error given to statement T: every read-out thresholds values in {0, 1} at 1/2
#: (or takes an argmax of a one-hot), so an output error below 1/4 cannot change a decision.
EPS_DECISION = 0.25


def test_inputs(con: Construction, n: int, samples: int = 64, seed: int = 0) -> tuple[np.ndarray, bool]:
    """Return (inputs, exhaustive): every input of length n if there are <= EXHAUSTIVE_LIMIT, else ``samples`` sampled ones."""
    con.require_n(n)
    S = len(con.model.alphabet)
    if S**n <= EXHAUSTIVE_LIMIT:
        return np.concatenate(list(tf.enumerate_inputs(S, n))), True
    return con.sample(np.random.default_rng(seed + n), n, samples), False


def decide(
    con: Construction,
    inputs: np.ndarray,
    mode: str,
    tau: float | None = None,
    fmt: str = "float64",
    watch: bool = False,
    ref: np.ndarray | None = None,
    **opts,
) -> tuple[int, float]:
    """Return (number of inputs decided WRONGLY, least mass on the max set over watched heads and queries).

    float64 runs use ``spec.transformer.run`` (mass NaN: not watched); other formats ``constructive.lowprec.run_lowprec``.
    ``ref``: the reference codes of ``inputs`` when the caller has them already (``con.reference_codes(inputs)``).
    """
    if ref is None:
        ref = con.reference_codes(inputs)
    if fmt == "float64" and not opts and not watch:
        x = tf.run(con.model, inputs, mode, tau).activations[-1]
        mass = math.nan
    else:
        tr = run_lowprec(con.model, inputs, fmt, tau, mode="soft" if mode == "soft" else "average", **opts)
        x = tr.activations[-1]
        ms = [m for layer in tr.mass_on_max for m in layer]
        mass = float(np.nanmin([np.nanmin(m) for m in ms])) if ms else math.nan
    got = con.readout(x)
    return int((got != ref).any(axis=1).sum()), mass


@dataclass(frozen=True)
class ConstructionCheck:
    """Result of ``check_construction``: inputs tested, exhaustive or not, wrong counts in hard and soft mode."""

    construction: str
    n: int
    inputs: int
    exhaustive: bool
    tau: float
    wrong_hard: int
    wrong_soft: int

    @property
    def ok(self) -> bool:
        """Return whether every tested input was decided correctly in both modes."""
        return self.wrong_hard == 0 and self.wrong_soft == 0


def check_construction(con: Construction, n: int, samples: int = 64, seed: int = 0) -> ConstructionCheck:
    """Applications (the paper's constructions, run): check a construction against its reference at length n, hard (average) and soft at tau(n).

    Every input of length n when there are at most EXHAUSTIVE_LIMIT, else ``samples`` sampled ones
    (``test_inputs``).  Not the exhaustive verification engine (``checks.engine.verify``).
    """
    w, ex = test_inputs(con, n, samples, seed)
    tau = con.tau(n)
    ref = con.reference_codes(w)
    wh, _ = decide(con, w, "average", ref=ref)
    ws, _ = decide(con, w, "soft", tau, ref=ref)
    return ConstructionCheck(con.name, n, len(w), ex, tau, wh, ws)


def statement_T_tau(model: Model, n: int, gap: float, x_max: float, eps: float = EPS_DECISION) -> float:
    """Statement T (Theorem 26): the tightest certified temperature for output error <= eps, from the model's norms."""
    consts = bd.RecursionConstants.from_norms(tf.compute_model_norms(model), max(x_max, 1e-300), n, gap)
    return bd.compute_tightest_inverse_temperature(consts, eps).tau


def largest_deciding_tau(
    con: Construction, inputs: np.ndarray, tau_ok: float, steps: int = 24, decider: Callable[[float], bool] | None = None
) -> float:
    """Return (to a factor 2^(1/4) or so) the largest tau >= tau_ok at which every input is still decided (bisection in log tau).

    Assumes tau_ok decides every input; the search runs up to tau = 1e3 * tau_ok * n.
    """
    ref = con.reference_codes(inputs) if decider is None else None  # once: the same inputs at every tau of the search

    def ok(t: float) -> bool:
        return decider(t) if decider is not None else decide(con, inputs, "soft", t, ref=ref)[0] == 0

    lo, hi = math.log(tau_ok), math.log(tau_ok * 1e3 * inputs.shape[1])
    if ok(math.exp(hi)):
        return math.exp(hi)
    for _ in range(steps):
        if hi - lo < 0.05:
            break
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if ok(math.exp(mid)) else (lo, mid)
    return math.exp(lo)


@dataclass(frozen=True)
class GapRow:
    """One row of the per-construction table."""

    construction: str
    n: int
    inputs: int
    exhaustive: bool
    gap_measured: float
    gap_claimed: float
    x_max: float
    tau_T: float
    tau_construction: float
    tau_largest: float
    wrong_hard: int
    wrong_soft: int

    def to_json(self) -> dict:
        """Return the row as a JSON-ready dict (with the ratios)."""
        d = asdict(self)
        d["gap_ratio"] = self.gap_measured / self.gap_claimed
        d["tau_construction_over_T"] = self.tau_construction / self.tau_T
        d["tau_largest_over_construction"] = self.tau_largest / self.tau_construction
        return d


def gap_row(con: Construction, n: int, samples: int = 64, seed: int = 0) -> GapRow:
    """Return the table row of one construction at length n (exhaustive where the alphabet allows)."""
    w, ex = test_inputs(con, n, samples, seed)
    m = tf.measure(con.model, n, w)
    tau_c = con.tau(n)
    ref = con.reference_codes(w)
    wh, _ = decide(con, w, "average", ref=ref)
    ws, _ = decide(con, w, "soft", tau_c, ref=ref)
    tau_T = statement_T_tau(con.model, n, m.gap if math.isfinite(m.gap) else con.gap(n), m.x_max)
    tau_max = largest_deciding_tau(con, w, tau_c) if ws == 0 else math.nan
    return GapRow(con.name, n, len(w), ex, m.gap, con.gap(n), m.x_max, tau_T, tau_c, tau_max, wh, ws)


# --------------------------------------------------------------------------- precision


def spacing(x: float, p: int) -> float:
    """Return the spacing of binary floats with p significand bits at magnitude x (ulp(x) = 2^(floor(log2 x) - p + 1))."""
    return 2.0 ** (math.floor(math.log2(x)) - p + 1)


def predicted_breakdown(
    con: Construction, fmt: str, n_max: int = 2**20, order: str = "scale-first", softmax_format: str | None = None
) -> tuple[int | None, str]:
    """Return (n, reason): the smallest n >= min_n at which the format can no longer be trusted to decide, predicted from the gap.

    Resolution: the gap gamma(n) drops below the spacing of the storage format
    at the score magnitude (score_bound(n)): two scores one gap apart may then
    round to the same float.  The same bound applies to the mixed formats: their
    scores are float32, but the keys entering them are stored in the low format,
    and in every construction here the queries are 0/1 indicators, so the keys
    carry the scores' magnitude (measured: flip-flop mixed-float16 breaks where
    float16 does).  Range: 1/tau(n) exceeds the softmax format's largest
    finite value (the run raises an overflow error).  None if neither happens up to n_max.
    """
    f = require_format(fmt)
    sfmt = f.softmax if softmax_format is None else require_format(softmax_format).storage
    big = finfo_max(sfmt)

    def broken(n: int) -> str | None:
        if 1.0 / con.tau(n) > big:
            return f"1/tau = {1.0 / con.tau(n):.3g} overflows {sfmt.name}"
        mag, what = con.score_bound(n), "score"
        sp = spacing(mag, f.precision)
        if con.gap(n) < sp:
            return f"gap {con.gap(n):.3g} < {f.storage.name} spacing {sp:.3g} at |{what}| <= {mag:.3g}"
        return None

    lo = con.min_n
    reason = broken(lo)
    if reason:
        return lo, reason
    hi = lo
    while not broken(hi):  # both conditions are monotone in n: gamma and tau fall, the score bound does not shrink
        if hi >= n_max:
            return None, f"none up to n = {n_max}"
        lo, hi = hi, min(2 * hi, n_max)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if broken(mid) else (mid, hi)
    reason = broken(hi)
    if reason is None:  # the loops above leave broken(hi) true
        raise RuntimeError(f"internal: no breakdown reason at n = {hi}")
    return hi, reason


def predicted_safe(con: Construction, fmt: str, n_max: int = 2**20, softmax_format: str | None = None) -> int | None:
    """Return the largest n (from min_n, None if even min_n is not safe) up to which rounding provably keeps every decision.

    Rounding each score to the storage format moves it by at most half a spacing,
    so a gap gamma shrinks to no less than gamma - ulp(S) and the rounded scores
    still form a ziggurat with that step (rounding is monotone).  By statement Z
    the mass off the top stays <= exp(-(gamma - ulp)/tau), below the
    construction's margin while (gamma - ulp)/tau >= ln(1/margin).  This is the
    guaranteed side; ``predicted_breakdown`` (gap below one spacing) the side
    where a gap can vanish.  Only the scores' rounding is modelled (activations
    and the softmax's own rounding are not), so it is a prediction, not a proof.
    """
    f = require_format(fmt)
    sfmt = f.softmax if softmax_format is None else require_format(softmax_format).storage
    need = math.log(1.0 / con.margin)

    def safe(n: int) -> bool:
        if 1.0 / con.tau(n) > finfo_max(sfmt):
            return False
        return (con.gap(n) - spacing(con.score_bound(n), f.precision)) / con.tau(n) >= need

    if not safe(con.min_n):
        return None
    lo = hi = con.min_n
    while safe(hi):
        if hi >= n_max:
            return n_max
        lo, hi = hi, min(2 * hi, n_max)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if safe(mid) else (lo, mid)
    return lo


@dataclass(frozen=True)
class AuditRow:
    """Precision audit of one construction in one format (with options)."""

    construction: str
    fmt: str
    options: str
    largest_ok: int | None
    first_fail: int | None
    fail_reason: str
    mass_at_fail: float
    predicted: int | None
    predicted_reason: str
    inputs_per_n: int
    seconds: float
    predicted_safe: int | None = None

    def to_json(self) -> dict:
        """Return the row as a JSON-ready dict."""
        return asdict(self)


def _try(con: Construction, n: int, fmt: str, samples: int, seed: int, tau_fn: Callable[[int], float], opts: dict) -> tuple[bool, str, float]:
    """Return (decided all, reason, least mass on the max set) at length n."""
    w, _ = test_inputs(con, n, samples, seed)
    try:
        wrong, mass = decide(con, w, "soft", tau_fn(n), fmt, watch=True, **opts)
    except LowPrecisionOverflow as e:
        return False, f"overflow: {e}", math.nan
    return wrong == 0, (f"{wrong}/{len(w)} inputs decided wrongly" if wrong else "all decided"), mass


def precision_audit(
    con: Construction,
    fmt: str,
    n_max: int = 4096,
    samples: int = 8,
    seed: int = 0,
    tau_fn: Callable[[int], float] | None = None,
    progress: Callable[[str], None] | None = None,
    **opts,
) -> AuditRow:
    """Return the largest n <= n_max (doubling from min_n, then bisection) at which the soft model decides every tested input in fmt.

    opts go to ``constructive.lowprec.run_lowprec`` (order, softmax_format).  A run that
    overflows counts as a failure, with the overflow's message as the reason.
    """
    import time

    require_format(fmt)
    t0 = time.perf_counter()
    tau_fn = tau_fn or con.tau
    say = progress or (lambda s: None)
    n, good, bad, why, mass = max(con.min_n, 2), None, None, "", math.nan
    while n <= n_max:
        ok, why_n, m = _try(con, n, fmt, samples, seed, tau_fn, opts)
        say(f"{con.name} {fmt} {opts or ''} n={n}: {why_n}")
        if ok:
            good = n
            n *= 2
        else:
            bad, why, mass = n, why_n, m
            break
    if bad is not None and good is not None:
        lo, hi = good, bad
        while hi - lo > max(1, lo // 32):
            mid = (lo + hi) // 2
            ok, why_n, m = _try(con, mid, fmt, samples, seed, tau_fn, opts)
            say(f"{con.name} {fmt} {opts or ''} n={mid}: {why_n}")
            if ok:
                lo = mid
            else:
                hi, why, mass = mid, why_n, m
        good, bad = lo, hi
    pred, pred_why = predicted_breakdown(con, fmt, order=opts.get("order", "scale-first"), softmax_format=opts.get("softmax_format"))
    label = ",".join(f"{k}={v}" for k, v in sorted(opts.items())) or "baseline"
    return AuditRow(
        con.name,
        fmt,
        label,
        good,
        bad,
        why if bad is not None else f"none up to n = {n_max}",
        mass,
        pred,
        pred_why,
        samples,
        time.perf_counter() - t0,
        predicted_safe(con, fmt, softmax_format=opts.get("softmax_format")),
    )


def rescale_position_feature(model: Model, feature: str, c: float) -> Model:
    """Return the same model with position feature ``feature`` scaled by c and every weight reading it divided by c.

    Exact in real arithmetic (the same scores, values and outputs); in floating
    point it moves where the feature's values fall on the float grid (a power of
    two c changes nothing at all).  The feature's coordinates must be written by
    that feature only.
    """
    if feature not in model.PE.features:
        raise ValueError(f"model {model.name} has no position feature {feature!r}")
    f = model.PE.features.index(feature)
    K = np.nonzero(model.PE.matrix[f])[0]
    others = np.delete(model.PE.matrix, f, axis=0)
    if np.any(model.WE[:, K]) or np.any(others[:, K]):
        raise ValueError(f"coordinates of {feature!r} are also written by the word embedding or another feature")
    for layer in model.layers:
        if any(np.any(h.W_O[:, K]) for h in layer.heads) or np.any(layer.W2[:, K]) or np.any(layer.b2[K]):
            raise ValueError(f"coordinates of {feature!r} are written by a layer")
    PE = model.PE.matrix.copy()
    PE[f, K] *= c

    def rows(M: np.ndarray) -> np.ndarray:
        M = M.copy()
        M[K, :] /= c
        return M

    layers = tuple(
        tf.Layer(
            tuple(tf.Head(rows(h.W_Q), rows(h.W_K), rows(h.W_V), h.W_O, h.mask) for h in layer.heads), rows(layer.W1), layer.b1, layer.W2, layer.b2
        )
        for layer in model.layers
    )
    return Model(model.alphabet, model.WE, tf.PositionEmbedding(model.PE.features, PE), layers, f"{model.name} ({feature} x {c:g})", model.hard_mode)


__all__ = [
    "FORMATS",
    "EPS_DECISION",
    "check_construction",
    "gap_row",
    "precision_audit",
    "predicted_breakdown",
    "rescale_position_feature",
    "statement_T_tau",
    "largest_deciding_tau",
    "decide",
    "test_inputs",
]
