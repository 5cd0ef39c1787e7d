"""``hardsoft check``: run the families (spec, fuzz, smt, lean), collect CheckResults, write the report.

Exit codes (EXIT_*): 0 everything passed; 1 something failed; 3 nothing failed
but something could not be decided (unknown, timeout, tool missing); 2 bad input.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hardsoft.checks.result import CheckResult, Outcome
from hardsoft.spec.claims import REGISTRY

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2
EXIT_UNDECIDED = 3

#: Families in run order, and the module that runs each (a module with ``run(preset, out_dir, progress, claims)``).
FAMILIES: dict[str, str] = {
    "spec": "hardsoft.checks.spec_family",
    "fuzz": "hardsoft.checks.fuzz_family",
    "smt": "hardsoft.checks.smt_family",
    "lean": "hardsoft.checks.lean",
}
PRESETS: tuple[str, ...] = ("tiny", "paper")


def parse_only(only: str | None) -> tuple[list[str], set[str] | None]:
    """Return (families, claims) selected by --only: comma-separated family names and/or claim ids."""
    if only is None:
        return list(FAMILIES), None
    fams: list[str] = []
    claims: set[str] = set()
    ids = {c.id for c in REGISTRY}
    for tok in (t.strip() for t in only.split(",")):
        if not tok:
            raise ValueError("--only has an empty name")
        if tok in FAMILIES:
            fams.append(tok)
        elif tok in ids:
            claims.add(tok)
        else:
            raise ValueError(f"--only: unknown family or claim {tok!r}; families: {', '.join(FAMILIES)}; "
                             f"claims: {', '.join(sorted(ids))}")
    return (fams or list(FAMILIES)), (claims or None)


def run_family(name: str, preset: str, out_dir: Path, progress: Callable[[str], None],
               claims: set[str] | None, options: dict[str, Any] | None = None) -> tuple[list[CheckResult], Any]:
    """Return one family's results and its module (None if unavailable: then one UNDECIDED result).

    ``options`` are extra keyword arguments of the family's run (the smt family's bound and timeout).
    """
    t0 = time.perf_counter()
    try:
        mod = importlib.import_module(FAMILIES[name])
    except ImportError as e:
        return [CheckResult(name, f"{name}.available", None, Outcome.UNDECIDED, "unavailable",
                            time.perf_counter() - t0, f"family {name} cannot run: {e}")], None
    return mod.run(preset, out_dir, progress, claims, **(options or {})), mod


def summarize(results: list[CheckResult]) -> dict[str, int]:
    """Return counts of ok / failed / undecided results."""
    return {o.value: sum(r.outcome is o for r in results) for o in Outcome}


def exit_code(results: list[CheckResult]) -> int:
    """Return the exit code of a run: FAILED beats UNDECIDED beats OK."""
    if any(r.outcome is Outcome.FAILED for r in results):
        return EXIT_FAILED
    if any(r.outcome is Outcome.UNDECIDED for r in results) or not results:
        return EXIT_UNDECIDED
    return EXIT_OK
