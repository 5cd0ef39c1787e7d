"""Theorem 26 against concrete constructions: the temperature the general statement certifies versus what a model needs.

For a verification target (checks.engine.verify.VerificationTarget) and a length n:

- gap gamma_T(n) and x_max(n), measured exhaustively in the model's hard mode (spec.transformer.measure);
- the temperature statement T certifies for error eps (spec.bounds, constants from the model's weight
  norms, Lemma 25): the closed form (``compute_sufficient_inverse_temperature``) and the tightest
  certified one (``compute_tightest_inverse_temperature``);
- the construction's own temperature tau(n) (the target's schedule);
- the largest temperature at which the soft model still decides every string of length n correctly,
  found by bisection on log tau (a search, not a certificate: it assumes that correctness is
  monotone in tau between the bracketing points, and it says which criterion it used).

eps is half the decoder's tolerance (``VerificationTarget.tolerance``: 1/2 for 0/1 coordinates read
against the threshold 1/2): an activation error below the tolerance cannot flip a decoded bit, and
statement T certifies a bound <= eps < tolerance.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hardsoft.checks.engine import verify as vf
from hardsoft.spec import bounds as bd
from hardsoft.spec import transformer as tf
from hardsoft.spec.constants import TAU_MAX_STABLE, TAU_MIN_STABLE

#: Exhaustive measurement refuses lengths with more inputs than this (2^22 strings).
MEASURE_MAX_INPUTS: int = 2**22
#: Relative resolution of the largest-working-temperature search (on tau).
SEARCH_REL_TOL: float = 0.01


def estimate_measure_seconds(model: tf.Model, n: int, sample: int = 256) -> float:
    """Return an estimate of the seconds spec.transformer.measure needs for every input of length n (timed on a sample)."""
    s = len(model.alphabet)
    k = min(sample, s**n)
    w = np.random.default_rng(0).integers(0, s, size=(k, n))
    t0 = time.perf_counter()
    tf.run(model, w, model.hard_mode, record=True)
    return (time.perf_counter() - t0) / k * s**n


def measure_exhaustively(model: tf.Model, n: int, max_inputs: int = MEASURE_MAX_INPUTS) -> tf.Measurement:
    """Return gamma_T(n) and x_max(n) over every input of length n, or raise ValueError naming the estimate when too many."""
    s = len(model.alphabet)
    if s**n > max_inputs:
        est = estimate_measure_seconds(model, min(n, 64))
        est *= s ** (n - min(n, 64)) if n > 64 else 1
        raise ValueError(
            f"measuring gap and x_max exhaustively at n = {n} runs {s}^{n} = {s**n:.4g} inputs "
            f"(limit {max_inputs}), estimated {est:.3g} s; give --gap and --xmax, or a smaller --n"
        )
    return tf.measure(model, n)


def certified_temperatures(model: tf.Model, meas: tf.Measurement, eps: float) -> tuple[bd.TemperatureCertificate, bd.TemperatureCertificate] | None:
    """Return statement T's (tightest, sufficient) certificates for the measured gap and x_max; None if the gap is infinite.

    An infinite gap (every head ties everywhere) makes soft equal hard at every tau: nothing to certify.
    """
    if not math.isfinite(meas.gap):
        return None
    consts = bd.RecursionConstants.from_norms(tf.compute_model_norms(model), max(meas.x_max, 1e-300), meas.n, meas.gap)
    return bd.compute_tightest_inverse_temperature(consts, eps), bd.compute_sufficient_inverse_temperature(consts, eps)


def decides_all(target: vf.VerificationTarget, inputs: np.ndarray, ref: np.ndarray, tau: float, criterion: str) -> bool:
    """Return whether soft mode at tau decides every input like the reference (criterion accept) or agrees on every coordinate (all)."""
    got = vf.run_decoded(target, inputs, "soft", tau)
    if criterion == "all":
        return bool((got == ref).all())
    return bool((target.accept(got) == target.accept(ref)).all())


def largest_working_tau(
    target: vf.VerificationTarget, n: int, start: float, criterion: str = "accept", rel_tol: float = SEARCH_REL_TOL
) -> tuple[float, bool]:
    """Return (tau, capped): about the largest tau at which soft mode decides every string of length n; capped if even TAU_MAX_STABLE works.

    Brackets from ``start`` by doubling (or halving, if start fails), then bisects on log tau
    to a relative width rel_tol; returns the working end of the bracket (nan if nothing down to TAU_MIN_STABLE works).
    """
    s = len(target.model.alphabet)
    w = vf.Chunk(n, ()).inputs(s)
    ref = np.asarray(target.reference(w), dtype=bool)
    ok = lambda t: decides_all(target, w, ref, t, criterion)  # noqa: E731
    lo = start
    if not ok(lo):
        while True:
            lo /= 2
            if lo < TAU_MIN_STABLE:
                return math.nan, False
            if ok(lo):
                break
        hi = 2 * lo
    else:
        hi = 2 * lo
        while ok(hi):
            lo, hi = hi, 2 * hi
            if hi > TAU_MAX_STABLE:
                return lo, True
    while hi / lo > 1 + rel_tol:
        mid = math.sqrt(lo * hi)
        lo, hi = (mid, hi) if ok(mid) else (lo, mid)
    return lo, False


@dataclass(frozen=True)
class Row:
    """One line of the Theorem 26 table: a target at a length n."""

    name: str
    n: int
    depth: int
    gap: float
    x_max: float
    eps: float
    tau_T_tightest: float
    tau_T_sufficient: float
    tau_construction: float
    tau_largest_working: float
    largest_capped: bool
    criterion: str

    @property
    def ratio_construction(self) -> float:
        """Return tau_construction / tau_T_tightest (how much hotter the construction runs than T certifies)."""
        return self.tau_construction / self.tau_T_tightest

    @property
    def ratio_working(self) -> float:
        """Return tau_largest_working / tau_T_tightest (how conservative T is for this model)."""
        return self.tau_largest_working / self.tau_T_tightest


def study(target: vf.VerificationTarget, ns: Sequence[int], criterion: str = "accept") -> list[Row]:
    """Return the Theorem 26 rows of a target at each length in ns."""
    rows = []
    for n in ns:
        meas = measure_exhaustively(target.model, n)
        eps = min(target.tolerance(n) / 2, 1.0)
        certs = certified_temperatures(target.model, meas, eps)
        tau_c = float(target.tau(n))
        tau_w, capped = largest_working_tau(target, n, tau_c, criterion)
        tight, suff = (certs[0].tau, certs[1].tau) if certs else (math.inf, math.inf)
        rows.append(Row(target.name, n, target.model.depth, meas.gap, meas.x_max, eps, tight, suff, tau_c, tau_w, capped, criterion))
    return rows


def markdown_table(rows: Sequence[Row]) -> str:
    """Return the rows as a markdown table."""
    out = [
        "| target | L | n | gap gamma(n) | x_max(n) | eps | tau, T sufficient | tau, T tightest | tau, construction | "
        "largest working tau | construction / T | largest / T |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        big = f"{'>= ' if r.largest_capped else ''}{r.tau_largest_working:.3g}"
        out.append(
            f"| `{r.name}` | {r.depth} | {r.n} | {r.gap:.4g} | {r.x_max:.4g} | {r.eps:.3g} | {r.tau_T_sufficient:.3g} | "
            f"{r.tau_T_tightest:.3g} | {r.tau_construction:.3g} | {big} | {r.ratio_construction:.3g} | "
            f"{'>= ' if r.largest_capped else ''}{r.ratio_working:.3g} |"
        )
    return "\n".join(out)


def plot(rows: Sequence[Row], path: Path) -> Path:
    """Write a log-scale plot of the four temperatures against n, one panel per target; return the path."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(dict.fromkeys(r.name for r in rows))
    fig, axes = plt.subplots(1, len(names), figsize=(4.2 * len(names), 3.6), squeeze=False)
    for ax, name in zip(axes[0], names):
        rs = [r for r in rows if r.name == name]
        ns = [r.n for r in rs]
        for attr, label, style in (
            ("tau_largest_working", "largest working (searched)", "o-"),
            ("tau_construction", "construction", "s-"),
            ("tau_T_tightest", "statement T, tightest", "^-"),
            ("tau_T_sufficient", "statement T, closed form", "v--"),
        ):
            ax.plot(ns, [getattr(r, attr) for r in rs], style, label=label, markersize=4)
        ax.set_yscale("log")
        ax.set_xlabel("n")
        ax.set_title(name if len(name) < 40 else name[:37] + "...", fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].set_ylabel("temperature tau")
    axes[0][-1].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def rows_json(rows: Sequence[Row]) -> list[dict[str, Any]]:
    """Return the rows as JSON-ready dicts (with the ratios)."""
    return [{**asdict(r), "ratio_construction": r.ratio_construction, "ratio_working": r.ratio_working} for r in rows]
