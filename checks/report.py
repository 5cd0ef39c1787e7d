"""The report of ``hardsoft check``: report.json (format in docs/report-format.md) and report.md.

Both are written to temporary files and renamed into place only when the run
has finished; a run that stops early (bad input, interruption) leaves no report.
Stale reports in the output folder are removed when a run starts.
"""

from __future__ import annotations

import json
import os
import platform
import tempfile
from pathlib import Path
from typing import Any

from hardsoft.checks.result import CheckResult, Outcome
from hardsoft.spec.claims import REGISTRY, Claim
from hardsoft.spec.lean_statements import LEAN_STATEMENTS

FORMAT = "hardsoft-report/1"
REPORT_FILES = ("report.json", "report.md")


def clear_stale(out_dir: Path) -> None:
    """Remove an earlier report from out_dir so nothing left there looks complete."""
    for f in REPORT_FILES:
        (out_dir / f).unlink(missing_ok=True)


def _atomic_write(path: Path, text: str) -> None:
    """Write text to path through a temporary file and a rename."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def claim_status(claim: Claim, results: list[CheckResult]) -> str:
    """Return a claim's status in this run: failed, undecided, ok, or not run."""
    rs = [r for r in results if r.claim == claim.id]
    if not rs:
        return "not run"
    if any(r.outcome is Outcome.FAILED for r in rs):
        return "FAILED"
    if any(r.outcome is Outcome.UNDECIDED for r in rs):
        return "undecided"
    return "ok"


def _text(s: str) -> str:
    """Return prose safe inside a markdown table cell (pipes escaped)."""
    return s.replace("|", "\\|")


def _cell(items: tuple[str, ...]) -> str:
    """Return a markdown table cell listing names."""
    return "<br>".join(f"`{i}`" for i in items) if items else "—"


def _lean_cell(names: tuple[str, ...]) -> str:
    """Return the Lean cell of a claim: each theorem with what it proves (``LEAN_STATEMENTS[name].says``)."""
    if not names:
        return "—"
    out = []
    for n in names:
        st = LEAN_STATEMENTS.get(n)
        out.append(f"`{n}`: {_text(st.says)}" if st is not None else f"`{n}`")
    return "<br>".join(out)


def traceability_table(results: list[CheckResult] | None = None) -> str:
    """Return the markdown traceability table generated from the claim registry (with statuses if results are given)."""
    head = "| claim | paper result | statement | spec | SMT | Lean | tests |" + (" status |" if results is not None else "")
    sep = "|---" * (7 + (results is not None)) + "|"
    rows = [head, sep]
    for c in REGISTRY:
        row = (
            f"| **{c.id}** | {_text(c.paper)} | {_text(c.statement)} | {_cell(tuple(s.removeprefix('spec.') for s in c.spec))} | "
            f"{_cell(c.smt)} | {_lean_cell(c.lean)} | {_cell(tuple(t.removeprefix('tests/') for t in c.tests))} |"
        )
        if results is not None:
            row += f" {claim_status(c, results)} |"
        rows.append(row)
    return "\n".join(rows)


def build_json(meta: dict[str, Any], results: list[CheckResult], code: int) -> dict[str, Any]:
    """Return the report.json document."""
    return {
        "format": FORMAT,
        "complete": True,
        **meta,
        "python": platform.python_version(),
        "exit_code": code,
        "summary": {o.value: sum(r.outcome is o for r in results) for o in Outcome},
        "claims": [
            {
                "id": c.id,
                "paper": c.paper,
                "kind": c.kind,
                "status": claim_status(c, results),
                "spec": list(c.spec),
                "smt": list(c.smt),
                "lean": list(c.lean),
                "tests": list(c.tests),
                "lean_statements": {
                    n: {"statement": LEAN_STATEMENTS[n].statement, "says": LEAN_STATEMENTS[n].says} for n in c.lean if n in LEAN_STATEMENTS
                },
            }
            for c in REGISTRY
        ],
        "results": [r.to_json() for r in results],
    }


def build_markdown(meta: dict[str, Any], results: list[CheckResult], code: int, sections: list[str]) -> str:
    """Return report.md: summary, traceability table, every result, family sections, the figure."""
    s = {o.value: sum(r.outcome is o for r in results) for o in Outcome}
    lines = [
        "# hardsoft check report",
        "",
        f"Preset `{meta['preset']}`, families {', '.join(meta['families'])}, started {meta['started']}, "
        f"{meta['seconds']:.1f} s. Exit code {code}."
        + (f" Fuzz seed {meta['fuzz_seed']} (replay with `--seed {meta['fuzz_seed']}`)." if meta.get("fuzz_seed") is not None else ""),
        "",
        f"**{s['ok']} ok, {s['failed']} failed, {s['undecided']} undecided.**",
        "",
        "## Traceability (generated from spec/claims.py)",
        "",
        traceability_table(results),
        "",
        "## Results",
        "",
        "| family | check | claim | outcome | verdict | seconds | detail |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in results:
        detail = r.detail.replace("|", "\\|")
        lines.append(f"| {r.family} | `{r.name}` | {r.claim or ''} | {r.outcome.value} | {r.verdict} | {r.seconds:.2f} | {detail} |")
    problems = [(r.name, p) for r in results for p in r.data.get("problems", [])]
    if problems:
        lines += ["", "### Problems", ""] + [f"- `{n}`: {p}" for n, p in problems]
    sweep = next((r for r in results if r.name == "spec.sweep"), None)
    if sweep is not None and "sweep" in sweep.data:  # a sweep that raised has an error row and no data
        sw = sweep.data["sweep"]
        lines += [
            "",
            "## Soft vs hard: measured error against the bound",
            "",
            f"Model `{sw['model']}` on all {2 ** sw['n']} inputs of length n = {sw['n']}: measured gap "
            f"{sw['gap']:.4g}, x_max {sw['x_max']:.4g}; tightest certified 1/tau for eps = {sw['eps']}: "
            f"{sw['tight_inverse_tau']:.6g}.",
            "",
            "![soft vs hard](sweep.png)",
            "",
            "| 1/tau | measured max error | certified B_L |",
            "|---|---|---|",
        ]
        lines += [f"| {t:.4g} | {e:.3e} | {b:.3e} |" for t, e, b in sw["rows"][::3]]
    errata = [r for r in results if r.name.startswith("spec.erratum")]
    if errata:
        lines += ["", "## Errata, shown going wrong", ""]
        for r in errata:
            lines.append(f"- **{r.claim}** ({r.outcome.value}): {r.detail}")
            for k, v in r.data.items():
                if k.startswith("rows"):
                    lines.append(f"  - `{k}`: " + "; ".join("(" + ", ".join(f"{x:.4g}" for x in row) + ")" for row in v))
    for sec in sections:
        if sec:
            lines += ["", sec]
    return "\n".join(lines) + "\n"


def write_report(out_dir: Path, meta: dict[str, Any], results: list[CheckResult], code: int, sections: list[str]) -> None:
    """Write report.md, then report.json (the last file written marks the report complete)."""
    _atomic_write(out_dir / "report.md", build_markdown(meta, results, code, sections))
    _atomic_write(out_dir / "report.json", json.dumps(build_json(meta, results, code), indent=1, default=str) + "\n")
