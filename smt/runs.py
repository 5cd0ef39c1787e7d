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

from hardsoft.smt.core import HYPS_UNDECIDED, PROVED, REFUTED, UNDECIDED_STATUSES, UNKNOWN, VACUOUS, QueryRecord, Verdict, query_log

#: Largest number of witness values kept per witness in the report (the rest are counted).
MAX_WITNESS_VALUES: int = 24


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
    nonvacuity   -- [[size, proving queries, of which non-vacuous (hypotheses have a model)], ...]
    witnesses    -- for the first and the last size: one witness (hypotheses' model) per size
    queries      -- size -> the QueryRecords of every solver query made at that size (in memory
                    only, for the second solver; not serialised)
    covered      -- what exactly was checked: varied parameters with ranges, fixed ones, assumptions
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
    nonvacuity: list[list[int]] = field(default_factory=list)
    nonvacuity_seconds: float = 0.0
    witnesses: list[dict[str, Any]] = field(default_factory=list)
    queries: dict[int, list[QueryRecord]] = field(default_factory=dict, repr=False)
    covered: dict[str, Any] = field(default_factory=dict)


def sizes_text(sizes: list[int]) -> str:
    """Return a compact text of a size list: "1..16" for a run of more than two consecutive sizes, else "1, 2, 16"."""
    if not sizes:
        return "none"
    if sizes == list(range(sizes[0], sizes[-1] + 1)) and len(sizes) > 2:
        return f"{sizes[0]}..{sizes[-1]}"
    return ", ".join(map(str, sizes))


def sizes_phrase(label: str, sizes: list[int]) -> str:
    """Return exactly which sizes a text speaks of: "n = 3", "every n in 2..16" or "n in {1, 2, 4, 16} (only these sizes)"."""
    if not sizes:
        return f"no {label}"
    if len(sizes) == 1:
        return f"{label} = {sizes[0]}"
    if sizes == list(range(sizes[0], sizes[-1] + 1)):
        return f"every {label} in {sizes[0]}..{sizes[-1]}"
    return f"{label} in {{{', '.join(map(str, sizes))}}} (only these sizes)"


def _ok_sizes(run: CheckRun) -> list[int]:
    """Return the sizes of run's rows (explore rows excluded) that gave the expected verdict."""
    return [row[0] for row in run.rows if row[2] == run.expected]


def _detail(run: CheckRun) -> str:
    """Return the one-line detail of a finished run, naming exactly the sizes it ran."""
    ok = _ok_sizes(run)
    if run.verdict == run.expected:
        return f"{run.verdict} for {sizes_phrase(run.size_label, ok)}"
    last = run.rows[-1][0] if run.rows else "?"
    before = f"{run.expected} for {sizes_phrase(run.size_label, ok)}" if ok else f"no {run.size_label} {run.expected}"
    return f"{run.verdict} at {run.size_label} = {last} (expected {run.expected}; {before})"


def _witness(size: int, recs: list[QueryRecord]) -> dict[str, Any] | None:
    """Return one non-vacuity witness of a size (the first proving query's hypotheses model), trimmed."""
    for r in recs:
        if r.kind == "prove" and r.non_vacuous:
            items = sorted(r.witness.items())
            shown = dict(items[:MAX_WITNESS_VALUES])
            return {"size": size, "query": r.name, "values": shown, "more_values": max(0, len(items) - MAX_WITNESS_VALUES)}
    return None


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
        with query_log() as recs:
            results = one_size(size)
        dt = time.perf_counter() - t0
        run.queries[size] = recs
        proving = [r for r in recs if r.kind == "prove"]
        run.nonvacuity.append([size, len(proving), sum(1 for r in proving if r.non_vacuous)])
        run.nonvacuity_seconds += sum(r.witness_seconds for r in proving)
        statuses = [v.status for v, _ in results]
        # a vacuous sub-query anywhere at this size (e.g. a lemma) makes the size vacuous
        if any(r.status == VACUOUS for r in proving):
            statuses.append(VACUOUS)
        if all(s == run.expected for s in statuses):
            status = run.expected
        elif any(s in UNDECIDED_STATUSES for s in statuses) and not any(s not in (run.expected, *UNDECIDED_STATUSES) for s in statuses):
            status = HYPS_UNDECIDED if HYPS_UNDECIDED in statuses and UNKNOWN not in statuses else UNKNOWN
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
            done = sizes_phrase(run.size_label, _ok_sizes(run))
            run.detail = f"time budget {budget_s:.0f} s spent after {run.size_label} = {size} ({run.expected} for {done})"
            break
    if run.rows:
        sizes_done = [row[0] for row in run.rows]
        for sz in dict.fromkeys([sizes_done[0], sizes_done[-1]]):
            w = _witness(sz, run.queries.get(sz, []))
            if w:
                run.witnesses.append(w)
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
        run.detail = _detail(run)
    return run


__all__ = ["CheckRun", "run_sizes", "sizes_phrase", "sizes_text", "PROVED", "REFUTED", "UNKNOWN", "VACUOUS", "HYPS_UNDECIDED"]
