"""The certify family of ``hardsoft check``: four compiled programs certified in ONE Lean module (``subjects.check_subjects``).

One row per certificate, ``certify.<tag>``: OK only when Lean accepted it and the mirror agrees
(``decide``); its verdict says "certified for every n" only when the theorem Lean proved is the
soundness statement (``lean_text.THEOREM_FORM`` "certified"), "accepted by the Lean checker" before.
A library that is not confirmed fails every row (UNDECIDED when the toolchain is missing); a program
outside the checker's fragment fails its row.  The family runs after the lean family: the compiled
library is the one that family kept (``checks.families.lean.family.compiled_library``), and the
module's verdict is cached (``verdict``), so ``make check`` reuses what ``make test`` proved.  When the
lean family builds the library in the same run, ``start_early`` compiles the certificates as soon as
the bundle is kept, beside the library's pins (``verdict.precompile``: the verdict is cached and read by
``run`` only once the library is confirmed).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

from hardsoft.checks.families.certify.decide import ACCEPTED, Decision, certify
from hardsoft.checks.families.certify.subjects import Prepared, check_subjects, prepare
from hardsoft.checks.result import CheckResult, Outcome
from hardsoft.checks.runner import EXIT_OK, EXIT_UNDECIDED
from hardsoft.constructive.logic.certificate import NotCertifiable
from hardsoft.spec.presets import get_preset


def _row(d: Decision, seconds: float) -> CheckResult:
    """Return the row of one certificate's decision."""
    p, v = d.prepared, d.verdict
    outcome = Outcome.OK if d.code == EXIT_OK else Outcome.UNDECIDED if d.code == EXIT_UNDECIDED else Outcome.FAILED
    verdict = ACCEPTED if d.code == EXIT_OK else "not decided" if d.code == EXIT_UNDECIDED else "not certified"
    data = {
        "program": {"language": p.subject.language, "text": p.subject.text, "alphabet": list(p.subject.alphabet), "regime": p.subject.regime},
        "tag": p.subject.tag,
        "parameters": p.weights.parameters,
        "nodes": len(p.cert.prog),
        "layers": len(p.cert.layers),
        "lean_seconds": round(v.seconds, 1),
        "lean_cpu_seconds": v.cpu_seconds,
        "cached": v.cached,
        "mirror": p.mirror,
        "lean": v.reason(p.subject.tag) or "accepted",
    }
    return CheckResult("certify", f"certify.{p.subject.tag}", None, outcome, verdict, seconds, d.line, data)


#: The early compile of this run (``start_early``): its listener on the lean family's kept bundle, and its thread once started.
_EARLY: dict[str, object] = {}


def start_early(preset: str, out_dir: Path, progress: Callable[[str], None], claims: set[str] | None = None) -> None:
    """Before the lean family runs (``checks.runner.run_families``): compile this family's module as soon as the lean
    family has kept the library's compiled bundle, beside the library's pins (``verdict.precompile``); ``run`` waits
    for it and reads its verdict from the cache only once the library is confirmed."""
    from hardsoft.checks.families.certify.verdict import precompile
    from hardsoft.checks.families.lean.family import add_bundle_listener

    get_preset(preset)
    if claims:
        return

    def compile_beside(bundle_dir: Path, key: str, tc: object) -> None:
        def work() -> None:
            try:
                entries = [prepare(s).entry() for s in check_subjects()]
                precompile(entries, out_dir, progress, bundle_dir, key, tc)  # type: ignore[arg-type]
            except Exception as e:  # the early compile only saves time: run() decides as if it had not happened
                progress(f"certify: the early compile beside the pins gave nothing ({type(e).__name__}: {e}); run decides alone")

        t = threading.Thread(target=work, name="hardsoft-certify-early", daemon=True)
        _EARLY["thread"] = t
        t.start()

    _EARLY["remove"] = add_bundle_listener(compile_beside)


def _join_early() -> None:
    """Stop listening for kept bundles and wait for an early compile started by ``start_early``."""
    remove = _EARLY.pop("remove", None)
    if callable(remove):
        remove()
    t = _EARLY.pop("thread", None)
    if isinstance(t, threading.Thread):
        t.join()


def run(preset: str, out_dir: Path, progress: Callable[[str], None], claims: set[str] | None = None) -> list[CheckResult]:
    """The family entry point: certify ``check_subjects()`` in one Lean module; one row each (none when claims are selected)."""
    _join_early()
    get_preset(preset)  # the certificates are the same for every preset
    if claims:
        progress("certify: claims selected; the certificates support none of them yet, skipped")
        return []
    t0 = time.perf_counter()
    rows: list[CheckResult] = []
    prepared: list[Prepared] = []
    for s in check_subjects():
        try:
            prepared.append(prepare(s))
        except NotCertifiable as e:
            rows.append(CheckResult("certify", f"certify.{s.tag}", None, Outcome.FAILED, "not certified", 0.0, f"not certified: {s.title}: {e}"))
    if prepared:
        decisions = certify(prepared, out_dir, progress)
        secs = (time.perf_counter() - t0) / len(decisions)
        rows += [_row(d, 0.0 if d.verdict.cached else secs) for d in decisions]
    return rows


def markdown_section(results: list[CheckResult]) -> str:
    """Return the report's section on the certificates: one line per program, Lean's time and the certificate's size."""
    rows = [r for r in results if r.family == "certify"]
    if not rows:
        return ""
    lines = ["## Certificates (Lean, for every n)", "", "| program | verdict | weights | Lean seconds |", "| --- | --- | ---: | ---: |"]
    for r in rows:
        prog = r.data.get("program", {})
        name = f"{prog.get('language', '?')} ({prog.get('regime', '?')}): `{' '.join(str(prog.get('text', '')).split())[:60]}`"
        secs = r.data.get("lean_seconds")
        cached = " (cached verdict)" if r.data.get("cached") else ""
        lines.append(f"| {name} | {r.verdict} | {r.data.get('parameters', '')} | {secs if secs is not None else ''}{cached} |")
    lines += ["", *(f"* {r.detail}" for r in rows), ""]
    return "\n".join(lines)
