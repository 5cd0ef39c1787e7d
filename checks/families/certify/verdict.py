"""Lean's verdict on a certificate module: compiled against the compiled library, judged from the compiled environment.

The library is checked as the lean family checks it (``checks.families.lean.family.compiled_library``:
audit, bundle, pins, environment facts, through the verdict cache) and its compiled bundle is
kept.  The certificate module (``lean_text.module_text``; it must pass the library's source audit
and hold none of ``environment.REFUSED_BYTES``) is compiled in ONE wasm Lean process that imports
that bundle (``-o``: its ``.olean`` is written), serially elaborated.  After the process ended its
parts are copied into a fresh directory and read (``checks.families.lean.olean``), and a
certificate is accepted only when ALL of these hold:

1. Lean reported no error inside the certificate's declarations or its pin (the ``example`` that
   restates the theorem with every name read from the root), and the process succeeded;
2. its theorem is a ``theorem`` of the compiled module whose transitive axioms are within
   propext, Classical.choice, Quot.sound (no sorryAx, no unknown or unsafe constant);
3. the compiled environment (library and certificate module) has none of the global problems of
   ``environment.global_problems`` (project axioms, sorry, forbidden or unknown extensions, global
   instances, imports other than Init and the library, modules and names outside the library root ``HardSoft``);
4. the toolchain did not change during the run.

The verdict of a module is cached (``CACHE_FOLDER`` in the Lean cache folder) under the sha256 of
the library's build key, the module's text and this package's code; a timeout or a crash is never cached (``no_verdict``).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from hardsoft.checks.families.certify.lean_text import MODULE, Block, Entry, module_text
from hardsoft.checks.families.lean import cache as lean_cache
from hardsoft.checks.families.lean import olean
from hardsoft.checks.families.lean.audit import audit_text
from hardsoft.checks.families.lean.build import LEAN_SLOTS, OLEAN_INDEX_CACHE, SERIAL_FLAGS, WASM_FLAGS, WASM_TIMEOUT, _run_measured
from hardsoft.checks.families.lean.environment import REFUSED_BYTES, global_problems, refuse_changed_toolchain, theorem_verdicts
from hardsoft.checks.families.lean.family import CompiledLibrary, compiled_library
from hardsoft.checks.families.lean.messages import LeanMessage, filter_noise, parse_messages
from hardsoft.checks.families.lean.toolchain import Toolchain, ToolchainError, is_wasm_visible, stage_wasm, verify_wasm_install

#: The folder (in the Lean cache folder) of the certificate modules' verdicts.
CACHE_FOLDER = "certificates"
#: Format of a cached certificate verdict.
FORMAT = "hardsoft-certificate-verdict/1"
#: Seconds the certificate module's Lean process may take.
TIMEOUT = WASM_TIMEOUT
#: What the wasm Lean process prints when it crashes rather than ends (its memory, at most 4 GB in wasm32, exhausted): no verdict.
CRASH_MARKERS = ("INTERNAL PANIC: out of memory", "worker sent an error")


@dataclass
class TheoremVerdict:
    """Lean's verdict on one certificate: its theorem, accepted or not, and why not (one line)."""

    tag: str
    theorem: str
    accepted: bool
    why: str = ""
    decided: bool = True  # False: no verdict on this certificate (another certificate of its module failed: no compiled environment)


@dataclass
class ModuleVerdict:
    """Lean's verdict on a certificate module.

    status    -- "ok" (Lean ran; see ``theorems``), "rejected" (Lean ran and the module failed outside every
                 certificate), "undecided" (no verdict: toolchain missing, timeout, crash), "library" (the library is not confirmed)
    why       -- one line when not every certificate was accepted for a reason outside them
    """

    status: str
    theorems: dict[str, TheoremVerdict] = field(default_factory=dict)
    why: str = ""
    seconds: float = 0.0
    cpu_seconds: float | None = None
    cached: str | None = None
    log: str = ""
    text: str = ""
    facts_seconds: float | None = None

    def accepted(self, tag: str) -> bool:
        """Return whether Lean accepted the certificate ``tag``."""
        v = self.theorems.get(tag)
        return self.status == "ok" and v is not None and v.accepted

    def decided(self, tag: str) -> bool:
        """Return whether Lean gave a verdict on the certificate ``tag`` (accepted, or rejected for a reason of its own)."""
        v = self.theorems.get(tag)
        return self.status in ("ok", "rejected") and v is not None and v.decided

    def reason(self, tag: str) -> str:
        """Return why the certificate ``tag`` is not accepted ("" when it is)."""
        if self.accepted(tag):
            return ""
        if self.status != "ok" or tag not in self.theorems:
            return self.why or f"no verdict ({self.status})"
        return self.theorems[tag].why


def checker_identity() -> str:
    """Return the sha256 of this package's code (its verdict's meaning)."""
    h = hashlib.sha256()
    for path in sorted(Path(__file__).resolve().parent.glob("*.py")):
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def verdict_key(library_key: str, text: str) -> str:
    """Return the cache key of a module's verdict: the library's build key, the module's text, this package's code."""
    covered = {"format": FORMAT, "library": library_key, "module": hashlib.sha256(text.encode("utf-8")).hexdigest(), "checker": checker_identity()}
    return hashlib.sha256(json.dumps(covered, sort_keys=True).encode("utf-8")).hexdigest()


def _load(key: str) -> ModuleVerdict | None:
    """Return a cached verdict, or None."""
    d = lean_cache.cache_dir()
    if d is None:
        return None
    try:
        entry = json.loads((d / CACHE_FOLDER / f"{key}.json").read_text(encoding="utf-8"))
        if entry.get("format") != FORMAT or entry.get("key") != key:
            return None
        v = entry["verdict"]
        theorems = {t: TheoremVerdict(**x) for t, x in v.pop("theorems").items()}
        out = ModuleVerdict(**v, theorems=theorems)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    out.cached = entry.get("created")
    return out


def _store(key: str, v: ModuleVerdict) -> None:
    """Store a verdict (not an undecided one)."""
    d = lean_cache.cache_dir()
    if d is None or v.status == "undecided":
        return
    folder = d / CACHE_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    data = asdict(v)
    data["cached"] = None
    entry = {"format": FORMAT, "key": key, "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "verdict": data}
    lean_cache.write_entry(folder, key, entry)


def _refuse_text(text: str) -> None:
    """Raise RuntimeError (internal) when the generated module fails the source audit or holds refused bytes."""
    findings = audit_text(text, MODULE.replace(".", "/") + ".lean")
    if findings:
        raise RuntimeError(f"internal: the generated certificate module fails the source audit: {findings[0].short()}")
    data = text.encode("utf-8")
    bad = [w.decode("ascii") for w in REFUSED_BYTES if w in data]
    if bad:
        raise RuntimeError(f"internal: the generated certificate module holds the refused bytes {bad[0]!r}")


def check_module(
    entries: Sequence[Entry], out_dir: Path, progress: Callable[[str], None], library: CompiledLibrary | None = None, note: str = ""
) -> ModuleVerdict:
    """Return Lean's verdict on the certificates ``entries``, compiled as one module against the compiled library (module docstring).

    ``out_dir`` receives the logs (``certify/``: the module's text and Lean's output); ``library``
    defaults to ``compiled_library(out_dir, progress)``; ``note`` is added as a last comment line (a
    benchmark's nonce: a different text, hence no cached verdict).
    """
    text, blocks = module_text(entries)
    if note:
        text += f"-- {' '.join(note.split())}\n"
    _refuse_text(text)
    log_dir = Path(out_dir) / "certify"
    log_dir.mkdir(parents=True, exist_ok=True)
    (log_dir / "Certificate.lean").write_text(text, encoding="utf-8")
    lib = library if library is not None else compiled_library(Path(out_dir), progress)
    if lib.failure is not None or lib.bundle_dir is None or lib.key is None or lib.tc is None:
        status = "undecided" if lib.undecided else "library"
        return ModuleVerdict(status, why=f"the Lean library is not confirmed: {lib.failure}", text=text)
    key = verdict_key(lib.key, text)
    hit = _load(key)
    if hit is not None:
        progress(f"certify: cached verdict of {hit.cached} reused (key {key[:16]})")
        hit.text = text
        return hit
    try:
        verdict = _compile(text, blocks, lib, log_dir, progress)
    except ToolchainError as e:
        return ModuleVerdict("undecided", why=f"toolchain missing: {e}", text=text)
    _store(key, verdict)
    return verdict


def precompile(entries: Sequence[Entry], out_dir: Path, progress: Callable[[str], None], bundle_dir: Path, library_key: str, tc: Toolchain) -> None:
    """Compile the module of ``entries`` against a kept bundle whose library is not confirmed yet, and cache its verdict.

    The verdict goes where ``check_module`` looks it up (``verdict_key`` of the library's build key and the module's
    text), and ``check_module`` looks only once the library of that key is confirmed: so a certificate compiled
    beside the library's pins (``family.start_early``) is never taken for certified on a library that fails.
    Nothing is cached without a cache (``lean_cache.cache_dir``), or when a verdict is cached already.
    """
    if lean_cache.cache_dir() is None:
        return
    text, blocks = module_text(entries)
    _refuse_text(text)
    key = verdict_key(library_key, text)
    if _load(key) is not None:
        return
    log_dir = Path(out_dir) / "certify"
    log_dir.mkdir(parents=True, exist_ok=True)
    lib = CompiledLibrary([], bundle_dir, library_key, tc, None)
    try:
        _store(key, _compile(text, blocks, lib, log_dir, progress))
    except ToolchainError:
        return


def _compile(text: str, blocks: list[Block], lib: CompiledLibrary, log_dir: Path, progress: Callable[[str], None]) -> ModuleVerdict:
    """Compile the module in one wasm process against the kept bundle, then judge it from its compiled environment."""
    tc = lib.tc
    assert tc is not None and lib.bundle_dir is not None and tc.lean_lib is not None
    manifest = verify_wasm_install(tc)
    rel = Path(*MODULE.split(".")).with_suffix(".lean")
    tmp = Path(tempfile.mkdtemp(prefix="hardsoft-cert-", dir="/tmp"))
    fresh = Path(tempfile.mkdtemp(prefix="hardsoft-cert-", dir="/tmp"))
    try:
        work = tmp / "src"
        build = work / "build"
        (build / rel.parent).mkdir(parents=True, exist_ok=True)
        for f in sorted(lib.bundle_dir.iterdir()):
            shutil.copyfile(f, build / f.name)
        (work / rel).parent.mkdir(parents=True, exist_ok=True)
        (work / rel).write_text(text, encoding="utf-8")
        staged = stage_wasm(tc, tmp)
        env = dict(os.environ)
        env["LEAN_PATH"] = f"{staged.lean_lib}:{build}"
        cmd = [str(staged.node), str(staged.lean_js), *WASM_FLAGS, *SERIAL_FLAGS, str(rel), "-o", str(build / rel.with_suffix(".olean"))]
        with LEAN_SLOTS:
            progress(f"certify: compiling {len(blocks)} certificate(s) against the compiled library (wasm, one process)")
            t0 = time.perf_counter()
            rc, raw, cpu = _run_measured(cmd, work, env, TIMEOUT)
            secs = time.perf_counter() - t0
        log = f"$ {' '.join(cmd)}\n# exit {rc}, {secs:.1f} s wall, {cpu:.1f} s CPU\n{filter_noise(raw)}"
        (log_dir / "Certificate.log").write_text(log, encoding="utf-8")
        progress(f"certify: Lean exited {rc} after {secs:.0f} s ({cpu:.0f} s CPU)")
        msgs = parse_messages(raw)
        why = no_verdict(rc, raw)
        if why is not None:
            return ModuleVerdict("undecided", why=why, seconds=secs, cpu_seconds=cpu, log=log, text=text)
        status = refuse_changed_toolchain(tc, manifest, "ok" if rc == 0 else "error", msgs)
        shutil.copytree(build, fresh / "build")  # the process has ended: read a copy made now
        facts, facts_error = None, None
        if status == "ok":
            index = tc.home / OLEAN_INDEX_CACHE
            try:
                facts = olean.project_facts(
                    MODULE,
                    tc.lean_lib,
                    [fresh / "build"],
                    [b.theorem for b in blocks],
                    cache=None if is_wasm_visible(index) else index,
                    manifest=manifest,
                )
            except (olean.OleanError, OSError) as e:
                facts_error = f"environment: the compiled certificate module cannot be read: {e}"
        return _judge(blocks, msgs, status, facts, facts_error, secs, cpu, log, text)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(fresh, ignore_errors=True)


def no_verdict(rc: int | None, raw: str) -> str | None:
    """Return why a Lean process that ended with ``rc`` (None: timed out) and printed ``raw`` gave no verdict, or None if it gave one.

    A timeout, a kill by a signal (the OOM killer, say) and a crash of the wasm process (``CRASH_MARKERS``:
    its memory exhausted) say nothing of the certificate: the module is undecided, never cached.
    """
    if rc is None:
        return f"Lean timed out after {TIMEOUT} s"
    if rc < 0:
        return f"the Lean process was killed by signal {-rc} (out of memory?)"
    crashed = next((m for m in CRASH_MARKERS if m in raw), None) if rc else None
    if crashed is not None:
        return f"the wasm Lean process crashed ({crashed!r}: out of memory; the kernel's evaluation is too large for wasm32)"
    return None


def _first_error(msgs: list[LeanMessage], first: int, last: int) -> LeanMessage | None:
    """Return the first error Lean reported on lines first..last of the module."""
    return next((m for m in msgs if m.severity == "error" and first <= m.line <= last), None)


def _judge(
    blocks: list[Block],
    msgs: list[LeanMessage],
    status: str,
    facts: olean.ProjectFacts | None,
    facts_error: str | None,
    secs: float,
    cpu: float,
    log: str,
    text: str,
) -> ModuleVerdict:
    """Return the module's verdict from Lean's messages and the compiled environment's facts (module docstring, 1-4)."""
    # the project is the library's root and below (``HardSoft``, ``HardSoft.Certificate``), not the certificate module alone
    problems = global_problems(replace(facts, root=MODULE.split(".")[0])) if facts is not None else []
    verdicts = theorem_verdicts(facts, [b.theorem for b in blocks], problems) if facts is not None else {}
    located = [m for m in msgs if m.severity == "error" and any(b.first <= m.line <= b.pin_last for b in blocks)]
    stray = [m for m in msgs if m.severity == "error" and m not in located]
    out = ModuleVerdict("ok", seconds=secs, cpu_seconds=cpu, log=log, text=text, facts_seconds=facts.seconds if facts is not None else None)
    if stray or (status != "ok" and not located):
        out.status = "rejected"
        out.why = "Lean: " + ("; ".join(m.short() for m in stray[:2]) or f"the certificate module failed ({status})")
    for b in blocks:
        err = _first_error(msgs, b.first, b.last) or _first_error(msgs, b.pin_first, b.pin_last)
        decided = True
        if err is not None:
            first_line = err.text.strip().splitlines()[0] if err.text.strip() else "error"
            why = f"Lean rejected it (line {err.line}: {first_line})"
        elif facts is None and located:
            why, decided = "no verdict: another certificate of the same module failed, so Lean wrote no compiled environment", False
        elif facts is None:
            why = facts_error or f"no compiled environment ({status})"
        else:
            why = verdicts[b.theorem].why if not verdicts[b.theorem].proved else ""
        out.theorems[b.tag] = TheoremVerdict(b.tag, b.theorem, not why, why, decided)
    return out


def verdict_json(v: ModuleVerdict) -> dict[str, Any]:
    """Return a verdict as JSON data (without the module text and the log)."""
    data = asdict(v)
    data.pop("text", None)
    data.pop("log", None)
    return data
