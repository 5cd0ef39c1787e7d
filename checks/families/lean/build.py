"""Building the Lean modules: natively with ``lake build`` (module by module), or with the wasm toolchain as one bundle.

The wasm build mounts only /tmp and /home, so the generated files (and, when needed, the
toolchain) are staged into a fresh directory under /tmp.  Every wasm process spends 15-30 s
starting and importing before it reads a line, so the library's files are concatenated in
import order into one generated module (``checks.families.lean.bundle``), compiled in ONE process
with ``lean --json -DautoImplicit=false HardSoft.lean -o build/HardSoft.olean``; Lean's
messages are mapped back to the original file and line.  The pin module is then checked in
a second process against the compiled bundle.  ``LEAN_SLOTS`` (two, shared by every build in
the process) bounds the Lean processes running at once.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from hardsoft.checks.families.lean.bundle import Bundle, BundleError, make_bundle
from hardsoft.checks.families.lean.environment import EnvironmentFacts, read_environment, refuse_changed_toolchain, refuse_source_bytes
from hardsoft.checks.families.lean.inventory import inventory_text
from hardsoft.checks.families.lean.messages import LeanMessage, filter_noise, parse_messages
from hardsoft.checks.families.lean.sources import LIB_NAME, discover_modules, import_order
from hardsoft.checks.families.lean.toolchain import StagedWasm, Toolchain, stage_wasm, verify_wasm_install

#: Lean processes run at once (the machines have two cores).
JOBS = 2
#: Seconds one wasm Lean process may take before it is stopped.
WASM_TIMEOUT = 1800
#: The names-only index of lean-lib's modules the .olean reader keeps (in the install directory, never where Lean writes).
OLEAN_INDEX_CACHE = "lean-lib.index.json"
#: Extra options of every wasm compile (part of the cache key).
WASM_FLAGS = ("--json", "-DautoImplicit=false")
#: Added to every compile: declarations elaborated one after another.  Lean's parallel elaboration
#: (``Elab.async``, on by default) only schedules the same elaboration differently: it cannot change what is
#: accepted, but under wasm it costs memory out of proportion.  The project's bundle peaked at 15.5 GB parallel
#: against about 3.2 GB serial (2026-12-05, 2 cores; the certificate files' proofs pushed the parallel peak to
#: 20 GB and stalled the machine), and the wrong-file bundle took 109 s wall / 165 s CPU / 15 GB in parallel
#: against 33 s / 44 s / 2.1 GB serial (2026-12-02).  On two cores the time is about the same either way (the
#: bundle: 217 s of CPU parallel, 191 s serial, 2026-12-03), and ``hardsoft check`` runs the other families
#: beside Lean, so every compile is serial.
SERIAL_FLAGS = ("-DElab.async=false",)


@dataclass
class UnitResult:
    """The outcome of compiling one build unit."""

    module: str
    path: str
    status: str  # "ok", "error", "sorry", "blocked", "timeout", "not-run"
    seconds: float
    returncode: int | None = None
    messages: list[LeanMessage] = field(default_factory=list)
    log: str = ""
    cpu_seconds: float | None = None  # user + system CPU time of the Lean process (load-independent)
    bundle: str | None = None  # for a file compiled inside the wasm bundle: the bundle's module name
    environment: EnvironmentFacts | None = None  # the wasm bundle's unit: the facts of its compiled .olean

    @property
    def ok(self) -> bool:
        """Return whether the unit built cleanly (no error, no sorry)."""
        return self.status == "ok"

    @property
    def errors(self) -> list[LeanMessage]:
        """Return the unit's error messages."""
        return [m for m in self.messages if m.severity == "error"]

    @property
    def sorries(self) -> list[LeanMessage]:
        """Return the unit's ``declaration uses sorry`` warnings."""
        return [m for m in self.messages if m.is_sorry]


def _classify(rc: int | None, msgs: list[LeanMessage]) -> str:
    """Return a unit's status from its exit code and messages."""
    if any(m.severity == "error" for m in msgs) or (rc not in (0, None)):
        return "error"
    if any(m.is_sorry for m in msgs):
        return "sorry"
    return "ok"


def _run_measured(cmd: list[str], cwd: Path, env: dict[str, str], timeout: float) -> tuple[int | None, str, float]:
    """Run ``cmd``; return (exit status or None on timeout, stdout + stderr, CPU seconds of the process)."""
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
        expired = threading.Event()

        def stop() -> None:
            expired.set()
            proc.kill()

        timer = threading.Timer(timeout, stop)
        timer.start()
        try:
            _pid, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        timed_out = expired.is_set()
        out.seek(0)
        raw = out.read().decode("utf-8", errors="replace")
    return (None if timed_out else proc.returncode), raw, usage.ru_utime + usage.ru_stime


#: Slots for Lean processes shared by every build in this Python process (two cores).
LEAN_SLOTS = threading.BoundedSemaphore(JOBS)
#: The key of the bundle's own unit among a wasm build's units (not a Lean module name).
BUNDLE_UNIT = "bundle"


def _file_units(bundle: Bundle, whole: UnitResult, mapped: dict[str, list[LeanMessage]]) -> dict[str, UnitResult]:
    """Return one UnitResult per file of the bundle, derived from the bundle's messages mapped back to the files.

    Lean elaborates the bundle command by command, so a file's declarations are checked in
    an environment of earlier files only: a file before the first failing one (error or
    sorry) is "ok" when it has no error and no sorry of its own; the failing file is
    "error"/"sorry"; a later file with no error of its own is "blocked" (what it uses may
    rest on the failed declarations).  When the bundle failed with no message in any file
    (a crash, a header error), every file is "blocked"; when it timed out, "timeout".
    """
    units: dict[str, UnitResult] = {}
    failed: str | None = None
    if whole.status in ("timeout", "not-run"):
        failed = whole.status
    elif not whole.ok and not any(_classify(0, mapped[s.module]) != "ok" for s in bundle.segments):
        failed = f"the bundle failed ({whole.status}): " + "; ".join(m.short() for m in whole.errors[:2])
    for s in bundle.segments:
        own = mapped[s.module]
        status = _classify(0, own)
        msgs = list(own)
        if status == "ok" and failed is not None:
            if whole.status in ("timeout", "not-run"):
                status = whole.status
            else:
                status = "blocked"
                msgs.append(LeanMessage("", 0, 0, "error", f"not confirmed: {failed}"))
        elif status != "ok" and failed is None:
            failed = f"an earlier file of the bundle failed: {s.path} ({status})"
        units[s.module] = UnitResult(
            s.module, s.path, status, whole.seconds, whole.returncode, msgs, whole.log, whole.cpu_seconds, bundle=bundle.name
        )
    return units


def build_wasm(
    tc: Toolchain,
    src_root: Path,
    log_dir: Path,
    progress: Callable[[str], None],
    names: Iterable[str] | None = None,
    timeout: float = WASM_TIMEOUT,
    pins: tuple[str, str] | None = None,
    bundle_name: str = LIB_NAME,
    parallel: bool = False,
    keep: Callable[[Path], None] | None = None,
) -> dict[str, UnitResult]:
    """Compile the modules under ``src_root`` with the wasm toolchain as ONE bundle, then the pin module; return the units.

    The files are concatenated in import order into one generated module ``bundle_name``
    (``checks.families.lean.bundle``: each file in a section of its own, its ``module`` keyword and
    imports blanked, a line-offset table), staged into a fresh directory under /tmp and
    compiled in one process with ``lean --json -DautoImplicit=false B.lean -o build/B.olean``
    (LEAN_PATH = the library and ``build/``).  Lean's messages are mapped back to the
    original file and line.  ``pins`` = (module name, text): a generated module that imports
    ``bundle_name``, checked afterwards in a second process that sees only the compiled
    bundle ("blocked" when the bundle did not build cleanly).  ``parallel`` = True leaves ``SERIAL_FLAGS``
    out of the bundle's compile (Lean's parallel elaboration: only for measuring; the pin module always has them).

    Returns one unit per source file (in import order; derived from the bundle, see
    ``_file_units``), the bundle itself under ``BUNDLE_UNIT``, and the pin module.  Logs
    (noise filtered) and the generated bundle go to ``log_dir``.  The lean.js about to run
    must be the verified patched one, lean.wasm and every library file the pinned ones
    (ToolchainError otherwise); after each process they are checked again, and a change makes
    that unit "error" (``checks.families.lean.environment``).  Sources whose raw bytes hold
    ``environment.REFUSED_BYTES`` are refused before any process runs.  The bundle's unit
    carries the facts of its compiled environment (``UnitResult.environment``), read from a copy
    of its .olean parts in a fresh directory made after its process ended, where the pin module
    is then checked.  ``keep`` (when the bundle built cleanly) is called with that directory, the
    compiled bundle's parts in it, before anything else runs there (``cache.store_bundle``: certificates
    import the compiled library, ``checks.families.certify``).
    """
    mods = discover_modules(src_root, names)
    order = import_order(mods)
    log_dir.mkdir(parents=True, exist_ok=True)
    try:
        bundle = make_bundle(mods, order, src_root, bundle_name)
        refuse_source_bytes([mods[n].path for n in order], src_root)  # no Lean process for such bytes
    except BundleError as e:  # a file that cannot be bundled fails (nothing is compiled)
        bad = LeanMessage(e.path, e.line, 0, "error", f"cannot be bundled: {e.why}")
        results: dict[str, UnitResult] = {}
        for n in order:
            rel = str(mods[n].path.relative_to(src_root))
            mine = rel == e.path
            msg = bad if mine else LeanMessage("", 0, 0, "error", f"not compiled: {e.path} cannot be bundled")
            results[n] = UnitResult(n, rel, "error" if mine else "blocked", 0.0, messages=[msg], bundle=bundle_name)
        results[BUNDLE_UNIT] = UnitResult(BUNDLE_UNIT, f"{bundle_name}.lean (bundle)", "error", 0.0, messages=[bad])
        if pins is not None:
            results[pins[0]] = UnitResult(
                pins[0], pins[0] + ".lean", "blocked", 0.0, messages=[LeanMessage("", 0, 0, "error", f"import failed: {bundle_name}")]
            )
        return results
    manifest = verify_wasm_install(tc)  # lean.js, lean.wasm and every lean-lib file against their pins
    (log_dir / f"{bundle_name}.bundle.lean").write_text(bundle.text, encoding="utf-8")
    results = {}
    tmp = Path(tempfile.mkdtemp(prefix="hardsoft-lean-", dir="/tmp"))
    try:
        staged: StagedWasm = stage_wasm(tc, tmp)
        work = tmp / "src"
        (work / "build").mkdir(parents=True, exist_ok=True)
        env = dict(os.environ)
        env["LEAN_PATH"] = f"{staged.lean_lib}:{work / 'build'}"

        def compile_unit(key: str, name: str, text: str, output: bool, label: str, serial: bool) -> UnitResult:
            rel = Path(*name.split(".")).with_suffix(".lean")
            (work / rel).parent.mkdir(parents=True, exist_ok=True)
            (work / rel).write_text(text, encoding="utf-8")
            cmd = [str(staged.node), str(staged.lean_js), *WASM_FLAGS, *(SERIAL_FLAGS if serial else ()), str(rel)]
            if output:
                olean = work / "build" / rel.with_suffix(".olean")
                olean.parent.mkdir(parents=True, exist_ok=True)
                cmd += ["-o", str(olean)]
            with LEAN_SLOTS:
                progress(f"lean: compiling {label} (wasm, one process)")
                t0 = time.perf_counter()
                rc, raw, cpu = _run_measured(cmd, work, env, timeout)
                secs = time.perf_counter() - t0
            log = log_dir / f"{key}.log"
            log.write_text(f"$ {' '.join(cmd)}\n# exit {rc}, {secs:.1f} s wall, {cpu:.1f} s CPU\n{filter_noise(raw)}", encoding="utf-8")
            msgs = parse_messages(raw)
            status = "timeout" if rc is None else _classify(rc, msgs)
            if rc is not None and rc < 0:  # killed by a signal (the OOM killer, say): no verdict, never cached as one
                status = "not-run"
                msgs.append(LeanMessage("", 0, 0, "error", f"the Lean process was killed by signal {-rc} (out of memory?): no verdict"))
            status = refuse_changed_toolchain(tc, manifest, status, msgs)  # a compile-time write voids the run
            progress(f"lean: {label} {status} in {secs:.0f} s ({cpu:.0f} s CPU)")
            return UnitResult(key, str(rel), status, secs, rc, msgs, str(log), round(cpu, 1))

        n_files = len(bundle.segments)
        whole = compile_unit(BUNDLE_UNIT, bundle_name, bundle.text, True, f"the bundle {bundle_name} ({n_files} files)", not parallel)
        # the bundle's process has ended: copy its .olean parts into a fresh directory, read the environment's
        # facts from that copy, and check the pins there (checks.families.lean.environment)
        fresh = Path(tempfile.mkdtemp(prefix="hardsoft-lean-", dir="/tmp"))
        whole.environment = read_environment(
            tc, manifest, whole.status, bundle_name, work / "build", fresh / "src" / "build", tc.home / OLEAN_INDEX_CACHE
        )
        shutil.rmtree(tmp, ignore_errors=True)
        if keep is not None and whole.ok and whole.environment.facts is not None:
            keep(fresh / "src" / "build")
        tmp, work = fresh, fresh / "src"
        staged = stage_wasm(tc, tmp)
        env["LEAN_PATH"] = f"{staged.lean_lib}:{work / 'build'}"
        mapped: dict[str, list[LeanMessage]] = {s.module: [] for s in bundle.segments}
        own: list[LeanMessage] = []
        for m in whole.messages:
            seg, mm = bundle.map_message(m)
            if seg is None:
                own.append(mm)
            else:
                mapped[seg.module].append(mm)
        whole.messages = own + [m for s in bundle.segments for m in mapped[s.module]]
        results.update(_file_units(bundle, whole, mapped))
        whole.path = f"{bundle.file} (bundle of {n_files} files)"
        results[BUNDLE_UNIT] = whole
        if pins is not None:
            pin_name, pin_text = pins
            if whole.ok:
                results[pin_name] = compile_unit(pin_name, pin_name, pin_text, False, f"the pins {pin_name}", True)
                results[pin_name].path = pin_name + ".lean"
            else:
                results[pin_name] = UnitResult(
                    pin_name,
                    pin_name + ".lean",
                    "blocked",
                    0.0,
                    messages=[LeanMessage("", 0, 0, "error", f"import failed: {bundle_name} (bundle {whole.status})")],
                )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return results


_LAKE_BUILT = re.compile(r"(?:✔|✖|⚠|info:|error:)?\s*\[\d+/\d+\]\s+(Built|Building|Checked|Compiled)\s+([\w.]+)(?:.*?\(([\d.]+)\s*(ms|s)\))?")


def build_native(
    tc: Toolchain, lean_dir: Path, log_dir: Path, progress: Callable[[str], None], timeout: float = WASM_TIMEOUT
) -> tuple[dict[str, UnitResult], subprocess.CompletedProcess | None]:
    """Run ``lake build`` in ``lean_dir``; return per-module results parsed from its output."""
    mods = discover_modules(lean_dir)
    log_dir.mkdir(parents=True, exist_ok=True)
    progress("lean: lake build (native)")
    t0 = time.perf_counter()
    try:
        proc = subprocess.run([str(tc.lake), "build"], cwd=lean_dir, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return ({n: UnitResult(n, str(m.path.relative_to(lean_dir)), "timeout", time.perf_counter() - t0) for n, m in mods.items()}, None)
    secs = time.perf_counter() - t0
    raw = proc.stdout + "\n" + proc.stderr
    (log_dir / "lake-build.log").write_text(f"$ lake build\n# exit {proc.returncode}, {secs:.1f} s\n{raw}", encoding="utf-8")
    msgs = parse_messages(raw)
    times: dict[str, float] = {}
    for mm in _LAKE_BUILT.finditer(raw):
        if mm.group(3):
            t = float(mm.group(3)) / (1000.0 if mm.group(4) == "ms" else 1.0)
            times[mm.group(2)] = t
    results = {}
    for n, m in mods.items():
        rel = str(m.path.relative_to(lean_dir))
        mine = [x for x in msgs if x.file and (x.file.endswith(rel) or x.file == rel)]
        status = _classify(0, mine)
        if proc.returncode != 0 and status == "ok" and not any(x.file for x in msgs if x.severity == "error"):
            status = "error"  # lake failed without attributing the error to a file
        results[n] = UnitResult(n, rel, status, times.get(n, 0.0), proc.returncode, mine, str(log_dir / "lake-build.log"))
    return results, proc


def check_axioms_native(tc: Toolchain, lean_dir: Path, log_dir: Path, theorems: Iterable[str]) -> dict[str, list[str] | None]:
    """Run the generated ``#print axioms`` file natively; return each theorem's axioms (None if not reported)."""
    names = sorted(set(theorems))
    inv = lean_dir / ".lake" / "HardSoftAxioms.lean"
    inv.parent.mkdir(parents=True, exist_ok=True)
    inv.write_text(inventory_text(names), encoding="utf-8")
    proc = subprocess.run([str(tc.lake), "env", "lean", str(inv)], cwd=lean_dir, capture_output=True, text=True, timeout=WASM_TIMEOUT)
    out = proc.stdout + "\n" + proc.stderr
    (log_dir / "axioms.log").write_text(out, encoding="utf-8")
    return parse_axioms(out, names)


def parse_axioms(out: str, names: Iterable[str]) -> dict[str, list[str] | None]:
    """Return the axioms ``#print axioms`` reported for each name (None when it reported nothing)."""
    res: dict[str, list[str] | None] = {n: None for n in names}
    for m in re.finditer(r"'([^']+)' depends on axioms: \[([^\]]*)\]", out):
        res[m.group(1)] = [a.strip() for a in m.group(2).replace("\n", " ").split(",") if a.strip()]
    for m in re.finditer(r"'([^']+)' does not depend on any axioms", out):
        res[m.group(1)] = []
    return res


def check_pins_native(tc: Toolchain, lean_dir: Path, log_dir: Path, module: str, text: str) -> UnitResult:
    """Check the generated pin module natively (``lake env lean``) after ``lake build``; return its UnitResult."""
    path = lean_dir / ".lake" / (module + ".lean")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    t0 = time.perf_counter()
    try:
        proc = subprocess.run([str(tc.lake), "env", "lean", str(path)], cwd=lean_dir, capture_output=True, text=True, timeout=WASM_TIMEOUT)
    except subprocess.TimeoutExpired:
        return UnitResult(module, module + ".lean", "timeout", time.perf_counter() - t0)
    secs = time.perf_counter() - t0
    raw = proc.stdout + "\n" + proc.stderr
    log = log_dir / f"{module}.log"
    log.write_text(f"$ lake env lean {path}\n# exit {proc.returncode}, {secs:.1f} s\n{raw}", encoding="utf-8")
    msgs = [LeanMessage(module + ".lean", m.line, m.col, m.severity, m.text) for m in parse_messages(raw)]
    return UnitResult(module, module + ".lean", _classify(proc.returncode, msgs), secs, proc.returncode, msgs, str(log))
