"""The result of one SMT check over growing sizes, shared by every statement module.

A check runs one query family at sizes 1, 2, ... up to a bound and records a scaling row
``[size, seconds, verdict]`` per size.  It stops at the first size whose verdict is not the
expected one (or when its time budget is spent), so ``bound_reached`` is the largest size up
to which every query gave the expected verdict.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hardsoft.smt.core import PROVED, REFUTED, UNKNOWN, Verdict


@dataclass
class CheckRun:
    """Return value of one SMT check: verdict over all sizes, scaling rows, countermodels, kept files.

    expected     -- "proved" for a statement, "refuted" for a wrong twin or an erratum
    verdict      -- "proved", "refuted" or "unknown" (the worst verdict met, see run_sizes)
    rows         -- [[size, seconds, verdict], ...] one per size tried
    bound        -- the requested bound (largest size)
    bound_reached-- largest size s such that every size <= s gave the expected verdict
    countermodels-- for refutations: [{"size":..., "model": {...}, "replay": {...}}, ...]
    smt2         -- paths of kept .smt2 files (unknowns)
    detail       -- one human-readable line
    """

    name: str
    claim: str
    expected: str
    verdict: str = UNKNOWN
    rows: list[list[Any]] = field(default_factory=list)
    bound: int = 0
    bound_reached: int = 0
    size_label: str = "n"
    countermodels: list[dict[str, Any]] = field(default_factory=list)
    smt2: list[str] = field(default_factory=list)
    detail: str = ""
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)


def run_sizes(
    run: CheckRun,
    sizes: list[int],
    one_size: Callable[[int], list[tuple[Verdict, dict[str, Any] | None]]],
    budget_s: float | None = None,
    max_countermodels: int = 3,
    explore: list[int] | None = None,
) -> CheckRun:
    """Return run filled in: call one_size(size) for each size until a verdict differs from run.expected.

    one_size returns a list of (verdict, replay-or-None) for all queries at that size (e.g. every
    size m of the max set).  A replay dict must contain "confirmed": bool.  For an expected
    refutation, a size counts as expected only when every refutation at it replays.
    ``explore`` sizes beyond the bound are tried after a fully successful run, only to show in
    the scaling table where the solver stops: their rows are marked "(explore)" and never
    change the verdict.
    """
    t_start = time.perf_counter()
    run.bound = max(sizes) if sizes else 0
    run.verdict = run.expected
    for size in sizes:
        t0 = time.perf_counter()
        results = one_size(size)
        dt = time.perf_counter() - t0
        statuses = [v.status for v, _ in results]
        if all(s == run.expected for s in statuses):
            status = run.expected
        elif any(s == UNKNOWN for s in statuses) and not any(
            s not in (run.expected, UNKNOWN) for s in statuses
        ):
            status = UNKNOWN
        else:
            status = next(s for s in statuses if s != run.expected)
        not_replayed = False
        for v, rep in results:
            if v.smt2:
                run.smt2.append(v.smt2)
            if v.status == REFUTED:
                if rep is not None and not rep.get("confirmed", False):
                    not_replayed = True
                if len(run.countermodels) < max_countermodels:
                    run.countermodels.append({"size": size, "model": v.model, "replay": rep})
        if status == REFUTED and not_replayed:
            status = "refuted-not-replayed"
        run.rows.append([size, round(dt, 4), status])
        if status != run.expected:
            run.verdict = status
            break
        run.bound_reached = size
        if budget_s is not None and time.perf_counter() - t_start > budget_s and size != sizes[-1]:
            run.verdict = UNKNOWN
            run.detail = f"time budget {budget_s:.0f} s spent after {run.size_label} = {size}"
            break
    if explore and run.verdict == run.expected:
        for size in explore:
            t0 = time.perf_counter()
            results = one_size(size)
            dt = time.perf_counter() - t0
            sts = {v.status for v, _ in results}
            st = run.expected if sts == {run.expected} else ("unknown" if UNKNOWN in sts else "/".join(sorted(sts)))
            for v, _ in results:
                if v.smt2:
                    run.smt2.append(v.smt2)
            run.rows.append([size, round(dt, 4), f"{st} (explore)"])
            if st != run.expected:
                break
    run.seconds = time.perf_counter() - t_start
    if not run.detail:
        if run.verdict == run.expected:
            run.detail = f"{run.verdict} for every {run.size_label} <= {run.bound_reached}"
        else:
            run.detail = (
                f"{run.verdict} at {run.size_label} = {run.rows[-1][0] if run.rows else '?'}"
                f" (expected {run.expected}; reached {run.bound_reached})"
            )
    return run


__all__ = ["CheckRun", "run_sizes", "PROVED", "REFUTED", "UNKNOWN"]
