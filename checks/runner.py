"""``hardsoft check``: run the families (spec, fuzz, verify, smt, lean), collect CheckResults, write the report.

Exit codes (EXIT_*): 0 everything passed; 1 something failed; 3 nothing failed
but something could not be decided (unknown, timeout, tool missing); 2 bad input;
4 an internal error of the ``hardsoft`` command itself (``checks.cli``; never a report's code).

Exit 2 is only for the user's bad input, found by argument validation before any
check runs.  An exception raised inside a check (a ValueError from spec code, a
crash of a tool wrapper) is that check's FAILED row with the message
(``guarded``); an exception escaping a whole family is one FAILED row for the family.
"""

from __future__ import annotations

import importlib
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hardsoft.checks.result import CheckResult, Outcome
from hardsoft.spec.claims import REGISTRY
from hardsoft.spec.presets import PRESET_NAMES

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2
EXIT_UNDECIDED = 3
EXIT_INTERNAL = 4
#: stdout closed by its reader (`hardsoft ... | head`): 128 + SIGPIPE, as a shell reports a killed writer
EXIT_BROKEN_PIPE = 141

#: Families in run order, and the module that runs each (a module with ``run(preset, out_dir, progress, claims)``).
FAMILIES: dict[str, str] = {
    "spec": "hardsoft.checks.families.spec",
    "fuzz": "hardsoft.checks.families.fuzz",
    "verify": "hardsoft.checks.families.verify",
    "apps": "hardsoft.checks.families.apps",
    "smt": "hardsoft.checks.families.smt",
    "lean": "hardsoft.checks.families.lean",
    "certify": "hardsoft.checks.families.certify",
}
PRESETS: tuple[str, ...] = PRESET_NAMES  # defined once, in spec.presets
#: The family run in a thread of its own from the start, beside the families before it in FAMILIES: its work is one wasm
#: Lean process at a time (about one core), so the second core runs the others meanwhile (``run_families``).
BESIDE = "lean"
#: The progress line with which BESIDE says its first Lean process has started (``checks.families.lean.build``).
BESIDE_STARTED = f"{BESIDE}: compiling"
#: The longest the other families wait for BESIDE's first Lean process (its Python work before it: the source audit,
#: the bundle and the toolchain's verification, about 5 s on this machine, would otherwise share the interpreter).
BESIDE_HEAD_START = 30.0


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
            raise ValueError(f"--only: unknown family or claim {tok!r}; families: {', '.join(FAMILIES)}; claims: {', '.join(sorted(ids))}")
    return (fams or list(FAMILIES)), (claims or None)


def error_result(family: str, name: str, claim: str | None, seconds: float, exc: BaseException) -> CheckResult:
    """Return the FAILED row of a check that raised ``exc`` (verdict "error", the exception named in the detail)."""
    return CheckResult(
        family,
        name,
        claim,
        Outcome.FAILED,
        "error",
        seconds,
        f"raised {type(exc).__name__}: {exc}",
        {"exception": type(exc).__name__, "message": str(exc)},
    )


def guarded(family: str, name: str, claim: str | None, check: Callable[[], CheckResult | list[CheckResult]]) -> list[CheckResult]:
    """Return the results of ``check()``, or its FAILED row if it raises (never exit 2 from inside a check)."""
    t0 = time.perf_counter()
    try:
        out = check()
    except Exception as e:  # a check that crashes has failed; its message is the evidence
        return [error_result(family, name, claim, time.perf_counter() - t0, e)]
    return out if isinstance(out, list) else [out]


def run_family(
    name: str, preset: str, out_dir: Path, progress: Callable[[str], None], claims: set[str] | None, options: dict[str, Any] | None = None
) -> tuple[list[CheckResult], Any]:
    """Return one family's results and its module (None if unavailable: then one UNDECIDED result).

    ``options`` are extra keyword arguments of the family's run (the smt family's bound and timeout).
    """
    t0 = time.perf_counter()
    try:
        mod = importlib.import_module(FAMILIES[name])
    except ImportError as e:
        return [
            CheckResult(name, f"{name}.available", None, Outcome.UNDECIDED, "unavailable", time.perf_counter() - t0, f"family {name} cannot run: {e}")
        ], None
    try:
        return mod.run(preset, out_dir, progress, claims, **(options or {})), mod
    except Exception as e:  # a family that crashes outside its per-check guards: one FAILED row, the run goes on
        return [error_result(name, f"{name}.crashed", None, time.perf_counter() - t0, e)], mod


def start_early(name: str, preset: str, out_dir: Path, progress: Callable[[str], None], claims: set[str] | None) -> None:
    """Call family ``name``'s ``start_early`` (a family after BESIDE that starts its work on BESIDE's output early:
    certify compiles its certificates as soon as lean has kept the library's bundle), if it has one; a family that cannot
    be imported is left to ``run_family``'s row."""
    try:
        early = getattr(importlib.import_module(FAMILIES[name]), "start_early", None)
    except ImportError:
        return
    if early is not None:
        early(preset, out_dir, progress, claims)


def run_families(
    families: list[str], preset: str, out_dir: Path, progress: Callable[[str], None], claims: set[str] | None, options: dict[str, dict]
) -> list[tuple[list[CheckResult], Any]]:
    """Return ``run_family``'s (results, module) of each family, in the order of ``families``.

    When BESIDE is selected with a family before it, BESIDE starts first in a thread and the families before it run
    meanwhile, once BESIDE's first Lean process has started (or it has ended, or after BESIDE_HEAD_START seconds:
    its Python work before that point is on the critical path, and would otherwise share the interpreter with
    theirs); the smt family, whose solvers would otherwise take both cores, then runs with one worker fewer; every
    family after BESIDE (certify, which reuses its library verdict) waits for it, but one with a ``start_early`` is
    given the chance to start before BESIDE does (certify compiles beside BESIDE's pins).  Each family's rows keep
    their place.
    """
    out: dict[str, tuple[list[CheckResult], Any]] = {}
    beside: threading.Thread | None = None
    if BESIDE in families and families.index(BESIDE) > 0:
        started = threading.Event()

        def beside_progress(msg: str) -> None:
            if msg.startswith(BESIDE_STARTED):
                started.set()
            progress(msg)

        def run_beside() -> None:
            t0 = time.perf_counter()
            try:
                out[BESIDE] = run_family(BESIDE, preset, out_dir, beside_progress, claims, options.get(BESIDE))
            except BaseException as e:  # run_family keeps Exception inside; anything else is still one FAILED row
                out[BESIDE] = [error_result(BESIDE, f"{BESIDE}.crashed", None, time.perf_counter() - t0, e)], None
            finally:
                started.set()

        for fam in families[families.index(BESIDE) + 1 :]:
            start_early(fam, preset, out_dir, progress, claims)
        beside = threading.Thread(target=run_beside, name=f"hardsoft-{BESIDE}", daemon=True)
        beside.start()
        started.wait(BESIDE_HEAD_START)
    for k, fam in enumerate(families):
        if beside is not None and fam == BESIDE:
            continue
        if beside is not None and k > families.index(BESIDE):
            beside.join()
        opts = options.get(fam)
        if fam == "smt" and beside is not None and beside.is_alive():
            opts = {**(opts or {}), "workers": max(1, (os.cpu_count() or 1) - 1)}
        out[fam] = run_family(fam, preset, out_dir, progress, claims, opts)
    if beside is not None:
        beside.join()
    return [out[f] for f in families]


def summarize(results: list[CheckResult]) -> dict[str, int]:
    """Return counts of ok / failed / undecided results."""
    return {o.value: sum(r.outcome is o for r in results) for o in Outcome}


def exit_code(results: list[CheckResult]) -> int:
    """Return the exit code of a run: FAILED beats UNDECIDED beats OK; a run with no result is UNDECIDED (nothing was shown)."""
    if any(r.outcome is Outcome.FAILED for r in results):
        return EXIT_FAILED
    if any(r.outcome is Outcome.UNDECIDED for r in results) or not results:
        return EXIT_UNDECIDED
    return EXIT_OK
