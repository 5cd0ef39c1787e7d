"""Building the Lean modules: natively with ``lake build``, or with the wasm toolchain module by module in import order.

The wasm build mounts only /tmp and /home, so the sources (and, when needed, the
toolchain) are staged into a fresh directory under /tmp; each module is compiled with
``lean --json -DautoImplicit=false FILE -o build/M.olean`` as soon as its imports have built,
at most ``JOBS`` at once (``LEAN_SLOTS`` is shared by every build in the process).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

from hardsoft.checks.lean.inventory import inventory_text
from hardsoft.checks.lean.messages import LeanMessage, filter_noise, parse_messages
from hardsoft.checks.lean.sources import Module, discover_modules, import_order
from hardsoft.checks.lean.toolchain import StagedWasm, Toolchain, stage_wasm, verify_lean_js

#: Lean processes run at once (the machines have two cores).
JOBS = 2
#: Seconds one wasm Lean process may take before it is stopped.
WASM_TIMEOUT = 1800
#: Extra options of every wasm compile (part of the cache key).
WASM_FLAGS = ("--json", "-DautoImplicit=false")


@dataclass
class UnitResult:
    """The outcome of compiling one build unit."""

    module: str
    path: str
    status: str  # "ok", "error", "sorry", "blocked", "timeout", "not-run", "imports-checked"
    seconds: float
    returncode: int | None = None
    messages: list[LeanMessage] = field(default_factory=list)
    log: str = ""
    cpu_seconds: float | None = None  # user + system CPU time of the Lean process (load-independent)
    reused: bool = False  # True when the compiled module was reused from the module store (not compiled now)

    @property
    def ok(self) -> bool:
        """Return whether the unit built cleanly (no error, no sorry)."""
        return self.status in ("ok", "imports-checked")

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


def _stage_sources(src_root: Path, mods: dict[str, Module], dest: Path) -> None:
    """Copy the modules' sources to ``dest`` keeping their relative paths."""
    for m in mods.values():
        target = dest / m.path.relative_to(src_root)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(m.path, target)


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


def module_keys(mods: dict[str, Module], order: list[str], source: Callable[[str], bytes], base_key: str) -> dict[str, str]:
    """Return each module's reuse key: sha256 of ``base_key``, its name, its bytes and its imports' keys."""
    keys: dict[str, str] = {}
    for n in order:
        h = hashlib.sha256(f"{base_key}\0{n}\0".encode())
        h.update(source(n))
        for d in sorted(mods[n].deps):
            h.update(f"\0{keys[d]}".encode())
        keys[n] = h.hexdigest()
    return keys


def _module_files(build_dir: Path, name: str) -> list[Path]:
    """Return the files ``lean -o`` wrote for a module (.olean and its .private/.server/.ir siblings)."""
    stem = build_dir / Path(*name.split("."))
    return sorted(p for p in stem.parent.glob(stem.name + ".*") if p.is_file())


def _store_module(store: Path, key: str, build_dir: Path, name: str, unit: UnitResult) -> None:
    """Store a cleanly built module's output files and verdict under its key (atomically)."""
    store.mkdir(parents=True, exist_ok=True)
    if (store / key).is_dir():
        return
    tmp = Path(tempfile.mkdtemp(dir=store, prefix=".mod-"))
    try:
        for f in _module_files(build_dir, name):
            shutil.copy2(f, tmp / f.name)
        log = Path(unit.log).read_text(encoding="utf-8", errors="replace") if unit.log else ""
        (tmp / "unit.json").write_text(
            json.dumps(
                {
                    "module": name,
                    "path": unit.path,
                    "status": unit.status,
                    "seconds": unit.seconds,
                    "cpu_seconds": unit.cpu_seconds,
                    "returncode": unit.returncode,
                    "messages": [m.__dict__ for m in unit.messages],
                    "log_text": log,
                }
            ),
            encoding="utf-8",
        )
        os.rename(tmp, store / key)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)


def _reuse_module(store: Path | None, key: str, build_dir: Path, name: str, log_dir: Path) -> UnitResult | None:
    """Copy a stored module's files into ``build_dir`` and return its stored verdict, or None."""
    if store is None or not (store / key / "unit.json").is_file():
        return None
    try:
        entry = json.loads((store / key / "unit.json").read_text(encoding="utf-8"))
        target = (build_dir / Path(*name.split("."))).parent
        target.mkdir(parents=True, exist_ok=True)
        files = [f for f in (store / key).iterdir() if f.name != "unit.json"]
        if not any(f.suffix == ".olean" for f in files):
            return None
        for f in files:
            shutil.copy2(f, target / f.name)
    except (OSError, ValueError):
        return None
    log_dir.mkdir(parents=True, exist_ok=True)
    log = log_dir / f"{name}.log"
    log.write_text(f"# reused compiled module (module key {key[:16]})\n{entry['log_text']}", encoding="utf-8")
    return UnitResult(
        name,
        entry["path"],
        entry["status"],
        float(entry["seconds"]),
        entry["returncode"],
        [LeanMessage(**m) for m in entry["messages"]],
        str(log),
        entry.get("cpu_seconds"),
        reused=True,
    )


#: Slots for Lean processes shared by every build in this Python process (two cores).
LEAN_SLOTS = threading.BoundedSemaphore(JOBS)


def build_wasm(
    tc: Toolchain,
    src_root: Path,
    log_dir: Path,
    progress: Callable[[str], None],
    names: Iterable[str] | None = None,
    compile_import_only: bool = True,
    jobs: int = JOBS,
    timeout: float = WASM_TIMEOUT,
    extra: dict[str, tuple[str, list[str]]] | None = None,
    module_store: Path | None = None,
    base_key: str = "",
) -> dict[str, UnitResult]:
    """Compile the modules under ``src_root`` with the wasm toolchain in import order; return one UnitResult each.

    The sources are staged into a fresh directory under /tmp; each module is compiled with
    ``lean --json FILE -o build/M.olean`` (LEAN_PATH = the library and ``build/``), at most
    ``jobs`` at once, as soon as its imports have built.  A module whose import failed is
    "blocked".  An import-only module is checked in Python when ``compile_import_only`` is
    false (its imports must all have built).  Logs (noise filtered) go to ``log_dir``.
    ``extra`` adds generated modules (name -> (source text, imports)), such as the pin module.
    The lean.js about to run must be the verified patched one (ToolchainError otherwise).

    ``module_store``: a folder of compiled modules reused across runs.  A module's key is the
    sha256 of ``base_key`` (toolchain, flags, checker), its name, its source bytes and the keys
    of its imports, so an entry is reused only when the module and everything it imports are
    byte for byte what was compiled; only modules that built cleanly are stored.
    """
    if tc.lean_js is not None:
        verify_lean_js(tc.lean_js)
    mods = discover_modules(src_root, names)
    texts: dict[str, str] = {}
    for name, (text, deps) in (extra or {}).items():
        mods[name] = Module(name, src_root / Path(*name.split(".")).with_suffix(".lean"), list(deps), False)
        texts[name] = text
    order = import_order(mods)
    log_dir.mkdir(parents=True, exist_ok=True)
    results: dict[str, UnitResult] = {}
    tmp = Path(tempfile.mkdtemp(prefix="hardsoft-lean-", dir="/tmp"))
    try:
        staged: StagedWasm = stage_wasm(tc, tmp)
        work = tmp / "src"
        _stage_sources(src_root, {n: m for n, m in mods.items() if n not in texts}, work)
        for name, text in texts.items():
            target = work / Path(*name.split(".")).with_suffix(".lean")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        (work / "build").mkdir(parents=True, exist_ok=True)
        env = dict(os.environ)
        env["LEAN_PATH"] = f"{staged.lean_lib}:{work / 'build'}"
        mkeys = module_keys(mods, order, lambda n: (work / Path(*n.split(".")).with_suffix(".lean")).read_bytes(), base_key)

        def compile_one(name: str) -> UnitResult:
            reused = _reuse_module(module_store, mkeys[name], work / "build", name, log_dir)
            if reused is not None:
                progress(f"lean: {name} reused (module key {mkeys[name][:16]})")
                return reused
            unit = _compile_one(name)
            if module_store is not None and unit.status == "ok":
                _store_module(module_store, mkeys[name], work / "build", name, unit)
            return unit

        def _compile_one(name: str) -> UnitResult:
            rel = Path(*name.split(".")).with_suffix(".lean")
            olean = work / "build" / Path(*name.split(".")).with_suffix(".olean")
            olean.parent.mkdir(parents=True, exist_ok=True)
            cmd = [str(staged.node), str(staged.lean_js), *WASM_FLAGS, str(rel), "-o", str(olean)]
            with LEAN_SLOTS:
                progress(f"lean: compiling {name} (wasm)")
                t0 = time.perf_counter()
                rc, raw, cpu = _run_measured(cmd, work, env, timeout)
                status = "timeout" if rc is None else None
                secs = time.perf_counter() - t0
            text = filter_noise(raw)
            log = log_dir / f"{name}.log"
            log.write_text(f"$ {' '.join(cmd)}\n# exit {rc}, {secs:.1f} s wall, {cpu:.1f} s CPU\n{text}", encoding="utf-8")
            msgs = parse_messages(raw)
            return UnitResult(name, str(rel), status or _classify(rc, msgs), secs, rc, msgs, str(log), round(cpu, 1))

        # critical path first: among ready modules, start the one with the longest chain of dependents
        height: dict[str, int] = {}
        for n in reversed(order):
            height[n] = 1 + max((height[m] for m in order if n in mods[m].deps), default=0)
        pending = sorted(order, key=lambda n: (-height[n], order.index(n)))
        running: dict[Future, str] = {}
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            while pending or running:
                progressed = False
                for name in list(pending):
                    deps = mods[name].deps
                    if any(d in results and not results[d].ok for d in deps):
                        bad = [d for d in deps if not results[d].ok]
                        results[name] = UnitResult(
                            name,
                            str(mods[name].path.relative_to(src_root)),
                            "blocked",
                            0.0,
                            messages=[LeanMessage("", 0, 0, "error", f"import failed: {', '.join(bad)}")],
                        )
                        pending.remove(name)
                        progressed = True
                    elif all(d in results for d in deps):
                        if mods[name].import_only and not compile_import_only:
                            results[name] = UnitResult(name, str(mods[name].path.relative_to(src_root)), "imports-checked", 0.0)
                            pending.remove(name)
                            progressed = True
                        elif len(running) < max(1, jobs):
                            running[pool.submit(compile_one, name)] = name
                            pending.remove(name)
                            progressed = True
                if running and not progressed:
                    done, _ = wait(list(running), return_when=FIRST_COMPLETED)
                    for fut in done:
                        name = running.pop(fut)
                        results[name] = fut.result()
                        u = results[name]
                        if not u.reused:
                            progress(
                                f"lean: {name} {u.status} in {u.seconds:.0f} s"
                                + (f" ({u.cpu_seconds:.0f} s CPU)" if u.cpu_seconds is not None else "")
                            )
                elif not running and not progressed:
                    break
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return {n: results[n] for n in order if n in results}


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
