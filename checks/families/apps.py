"""The apps family of ``hardsoft check``: a fast subset (well under 30 s) of ``hardsoft constructions`` and ``hardsoft audit precision``.

* every construction against its reference, exhaustively for n <= 5 and on
  sampled inputs at n = 32, in hard mode and in soft mode at its temperature;
* every construction's measured gap (exhaustive, n <= 5) equal to its claimed gamma(n);
* the precision prediction at one point on each side: the flip-flop decides
  every tested input in float16 at n = 512 (below the predicted breakdown 1025)
  and the float16 run differs from the float64 one at n = 2048 (above it).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from hardsoft.checks.result import CheckResult, Outcome
from hardsoft.constructive import applications as cs
from hardsoft.constructive import audit as au
from hardsoft.spec import transformer as tf

#: Claim ids of the constructions (spec.claims.REGISTRY).
CLAIM_OF = {
    "flip-flop": "APP-FF",
    "induction": "APP-IND",
    "induction-tl": "APP-IND",
    "2-hop": "APP-KHOP",
    "3-hop": "APP-KHOP",
    "prefix-argmax": "APP-PA",
    "dyck-2": "APP-DYCK",
}


def _res(name: str, claim: str, ok: bool, t0: float, detail: str, **data: object) -> CheckResult:
    """Return an apps-family CheckResult."""
    return CheckResult(
        "apps", name, claim, Outcome.OK if ok else Outcome.FAILED, "passed" if ok else "failed", time.perf_counter() - t0, detail, dict(data)
    )


def run(preset: str, out_dir: Path, progress: Callable[[str], None], claims: set[str] | None = None) -> list[CheckResult]:
    """Run the fast subset; ``claims`` filters by claim id (APP-FF, APP-IND, APP-KHOP, APP-PA, APP-DYCK, PREC)."""
    results = []
    for name in cs.CONSTRUCTIONS:
        claim = CLAIM_OF[name]
        if claims and claim not in claims:
            continue
        con = cs.get_construction(name)
        progress(f"apps: {name}")
        t0 = time.perf_counter()
        vs = [au.check_construction(con, n) for n in range(con.min_n, 6)] + [au.check_construction(con, 32, samples=8)]
        bad = [v for v in vs if not v.ok]
        results.append(
            _res(
                f"apps.{name}.verify",
                claim,
                not bad,
                t0,
                f"{name}: hard and soft (tau = {con.tau_formula}) decide every tested input, n = {con.min_n}..5 exhaustive and n = 32 sampled"
                if not bad
                else f"{name}: wrong at n = {[v.n for v in bad]}",
                checked=[(v.n, v.inputs, v.exhaustive) for v in vs],
            )
        )
        t0 = time.perf_counter()
        gaps = {n: tf.measure(con.model, n).gap for n in range(con.min_n, 6)}
        off = {n: g for n, g in gaps.items() if not math.isclose(g, con.gap(n), rel_tol=1e-9)}
        results.append(
            _res(
                f"apps.{name}.gap",
                claim,
                not off,
                t0,
                f"{name}: measured gamma_T(n) = {con.gap_formula} for n = {con.min_n}..5 (exhaustive)"
                if not off
                else f"{name}: measured gap differs from {con.gap_formula} at {off}",
                measured=gaps,
            )
        )
    if not claims or "PREC" in claims:
        progress("apps: precision prediction (flip-flop, float16)")
        t0 = time.perf_counter()
        con = cs.build_flip_flop()
        pred, _ = au.predicted_breakdown(con, "float16")
        w_lo = con.sample(np.random.default_rng(0), 512, 2)
        w_hi = con.sample(np.random.default_rng(0), 2048, 2)
        wrong_lo, _ = au.decide(con, w_lo, "soft", con.tau(512), "float16", watch=False)
        wrong_hi16, _ = au.decide(con, w_hi, "soft", con.tau(2048), "float16", watch=False)
        wrong_hi64, _ = au.decide(con, w_hi, "soft", con.tau(2048), "float64")
        ok = pred == 1025 and wrong_lo == 0 and wrong_hi16 > 0 and wrong_hi64 == 0
        results.append(
            _res(
                "apps.precision.flip-flop-float16",
                "PREC",
                ok,
                t0,
                f"flip-flop float16: predicted breakdown n = {pred}; n = 512 decided "
                f"({wrong_lo} wrong), n = 2048: float16 {wrong_hi16}/2 wrong, float64 {wrong_hi64}/2 wrong",
                predicted=pred,
            )
        )
    return results


def markdown_section(results: list[CheckResult]) -> str:
    """Return the report section of the apps family."""
    lines = ["## Applications (fast subset)", ""]
    lines += [f"- {r.outcome.value.upper()} {r.name}: {r.detail}" for r in results]
    return "\n".join(lines) + "\n"
