"""The fuzz family of ``hardsoft check``: Hypothesis searches every property for a counterexample and every wrong twin for one.

A property passes when no counterexample is found in the preset's budget; its
twin passes (Outcome.OK, verdict "twin-caught") only when a counterexample IS
found, which shows the search could have failed.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from hardsoft.checks.families.properties import PROPERTIES, Property, find_counterexample
from hardsoft.checks.result import CheckResult, Outcome
from hardsoft.checks.runner import guarded
from hardsoft.spec.presets import get_preset


def _summary(instance: object) -> str:
    """Return a short printable form of a counterexample."""
    s = repr(instance)
    return s if len(s) <= 300 else s[:297] + "..."


#: Largest accepted --seed.
MAX_SEED = 2**64 - 1


def check_seed(seed: int | None) -> int | None:
    """Return ``seed`` if it is None or an integer in [0, MAX_SEED]; otherwise raise ValueError."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED):
        raise ValueError(f"--seed must be an integer in [0, 2^64 - 1], got {seed!r}")
    return seed


def _property_row(p: Property, preset: str, n: int, seed: int) -> CheckResult:
    """Return the verdict of one property's search for a counterexample."""
    t0 = time.perf_counter()
    cex = find_counterexample(p, twin=False, max_examples=n, seed=seed)
    return CheckResult(
        "fuzz",
        f"fuzz.{p.name}",
        p.claim,
        Outcome.OK if cex is None else Outcome.FAILED,
        "passed" if cex is None else "counterexample",
        time.perf_counter() - t0,
        f"{p.description}: no counterexample in {n} examples"
        if cex is None
        else f"{p.description}: FAILS on {_summary(cex)} (replay: hardsoft check --preset {preset} --only fuzz,{p.claim} --seed {seed})",
        {"examples": n, "seed": seed} if cex is None else {"counterexample": _summary(cex), "seed": seed},
    )


def _twin_row(p: Property, n: int) -> CheckResult:
    """Return the verdict of one wrong twin's search (OK when the twin is caught)."""
    t0 = time.perf_counter()
    wcex = find_counterexample(p, twin=True, max_examples=n)
    return CheckResult(
        "fuzz",
        f"fuzz.{p.name}.twin",
        p.claim,
        Outcome.OK if wcex is not None else Outcome.FAILED,
        "twin-caught" if wcex is not None else "twin-not-caught",
        time.perf_counter() - t0,
        f"wrong twin ({p.twin_description}) caught"
        if wcex is not None
        else f"wrong twin ({p.twin_description}) NOT caught in {n} examples: the check may be unable to fail",
        {"counterexample": _summary(wcex)} if wcex is not None else {"examples": n},
    )


def run(preset: str, out_dir: Path, progress: Callable[[str], None], claims: set[str] | None = None, seed: int | None = None) -> list[CheckResult]:
    """Run every property (and its twin) with the preset's budget.

    Property searches use ``seed`` (a fresh random one when None), recorded in
    every result, so a failure found once is replayed by ``--seed``.
    """
    n = get_preset(preset).fuzz_examples
    check_seed(seed)
    used_seed = secrets.randbits(32) if seed is None else seed
    results: list[CheckResult] = []
    for p in PROPERTIES:
        if claims and p.claim not in claims:
            continue
        progress(f"fuzz: {p.name}")
        results += guarded("fuzz", f"fuzz.{p.name}", p.claim, partial(_property_row, p, preset, n, used_seed))
        results += guarded("fuzz", f"fuzz.{p.name}.twin", p.claim, partial(_twin_row, p, n))
    return results
