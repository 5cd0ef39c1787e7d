"""The verify family of ``hardsoft check``: the exhaustive verification engine on built-in examples and compiled formulas, and Theorem 26's table.

- verify.examples: has-a and last-a (spec.examples) against references in plain Python, every
  string of lengths 1..10, hard and soft (checks.engine.verify).
- verify.family_slice: a fixed slice of the generated family (every formula up to 2 operators over
  {a, b}, checks.engine.formulas.verify_formulas) compiled in both regimes, every subformula at every position on every
  string of lengths 1..N, hard and soft (tiny preset: every 7th formula, N = 7; paper: all 2,740, N = 10).
- verify.theorem26: for a few compiled formulas, the measured gap and x_max, the temperature statement
  T certifies, the construction's and the largest working one, at several n; the check is that the
  soft model at T's certified temperature decides every string of length n like the reference (every
  coordinate), which Theorem 26 promises when eps is below the decoder's tolerance.  Table and plot
  (theorem26.png) go into report.md.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from hardsoft.checks.engine import formulas as fm
from hardsoft.checks.engine import theorem26 as t26
from hardsoft.checks.engine import verify as vf
from hardsoft.checks.result import CheckResult, Outcome
from hardsoft.spec.presets import get_preset

#: Formulas of the Theorem 26 table (regime, text).
#: Past-only formulas, so that acceptance at the last position is not constant (X or U on top would make it so).
THEOREM26_FORMULAS: tuple[tuple[str, str], ...] = (
    ("bounded", "a S b"),
    ("bounded", "Y a & b"),
    ("bounded", "Y (a S b)"),
    ("bounded", "Y Y (a S b) S b"),
    ("unbounded", "a S b"),
)


def _result(name: str, claim: str | None, ok: bool, t0: float, detail: str, **data: object) -> CheckResult:
    """Return a verify-family CheckResult."""
    return CheckResult(
        "verify", name, claim, Outcome.OK if ok else Outcome.FAILED, "passed" if ok else "failed", time.perf_counter() - t0, detail, dict(data)
    )


def check_examples(N: int = 10) -> CheckResult:
    """Return the verdict of the engine on the built-in examples (plain-Python references)."""
    t0 = time.perf_counter()
    reps = [vf.verify(t, N, workers=1) for t in vf.example_targets().values()]
    ok = all(r.ok for r in reps)
    return _result("verify.examples", None, ok, t0, "; ".join(r.summary() for r in reps), reports=[r.to_json() for r in reps])


def check_family_slice(stride: int, N: int) -> CheckResult:
    """Return the verdict of the generated family's slice, both regimes, hard and soft (the whole family: every core)."""
    t0 = time.perf_counter()
    formulas = fm.family(2)[::stride]
    rep = fm.verify_formulas(formulas, N, workers=1 if stride > 1 else (os.cpu_count() or 1))
    detail = (
        f"{len(formulas)} formulas (every {stride}th with <= 2 operators) x {len(rep.regimes)} regimes, "
        f"every subformula at every position of every string of lengths 1..{N}, hard and soft: "
        + ("all agree" if rep.ok else f"{len(rep.failures)} disagreement(s)")
        + (f"; {len(rep.unsupported)} unsupported" if rep.unsupported else "")
    )
    return _result("verify.family_slice", None, rep.ok and not rep.unsupported, t0, detail, report=rep.to_json())


def check_theorem26(ns: tuple[int, ...], out_dir: Path) -> tuple[CheckResult, list[t26.Row]]:
    """Return the verdict of Theorem 26 against compiled formulas (soft at T's tau decides all), and the table rows."""
    from hardsoft.constructive import logic as lg

    t0 = time.perf_counter()
    rows: list[t26.Row] = []
    bad = []
    for regime, text in THEOREM26_FORMULAS:
        target = vf.target_from_compiled(lg.compile_formula(lg.parse(text), regime=regime))
        target = vf.VerificationTarget(
            f"{text} [{regime}]", target.model, target.tau, target.reference, target.decode, target.accept, target.coordinates, target.tolerance
        )
        for r in t26.study(target, ns):
            rows.append(r)
            if math.isfinite(r.tau_T_tightest):
                w = vf.Chunk(r.n, ()).inputs(len(target.model.alphabet))
                ref = np.asarray(target.reference(w), dtype=bool)
                if not t26.decides_all(target, w, ref, r.tau_T_tightest, "all"):
                    bad.append(f"{r.name} n={r.n}: soft at T's tau {r.tau_T_tightest:.3g} disagrees")
    t26.plot(rows, out_dir / "theorem26.png")
    return _result(
        "verify.theorem26",
        "T",
        not bad,
        t0,
        f"{len(rows)} (formula, n) rows: soft at the temperature statement T certifies decides every string like the reference"
        if not bad
        else f"{len(bad)} row(s) where T's temperature fails",
        rows=t26.rows_json(rows),
        problems=bad,
        figure="theorem26.png",
    ), rows


def run(preset: str, out_dir: Path, progress: Callable[[str], None], claims: set[str] | None = None) -> list[CheckResult]:
    """Run the verify family."""
    sizes = get_preset(preset)
    stride, N, ns = sizes.verify_stride, sizes.verify_max_len, sizes.theorem26_lengths
    results = []
    progress("verify: built-in examples, every string up to length 10")
    results.append(check_examples())
    progress(f"verify: generated family slice to length {N}")
    results.append(check_family_slice(stride, N))
    progress("verify: Theorem 26 against compiled formulas")
    res, _ = check_theorem26(ns, out_dir)
    results.append(res)
    if claims:
        results = [r for r in results if r.claim is None or r.claim in claims]
    return results


def markdown_section(results: list[CheckResult]) -> str:
    """Return the verify section of report.md: verdicts, where the family's time went, Theorem 26's table and plot."""
    ours = [r for r in results if r.family == "verify"]
    lines = [
        "## Exhaustive verification (hard and soft against the reference)",
        "",
        "| check | outcome | seconds | detail |",
        "| --- | --- | ---: | --- |",
    ]
    for r in ours:
        lines.append(f"| `{r.name}` | {r.outcome.value} | {r.seconds:.1f} | {r.detail} |")
    fam = next((r for r in ours if r.name == "verify.family_slice"), None)
    if fam is not None:
        ph = fam.data["report"]["phase_seconds"]
        lines += ["", "Where the family slice's CPU time went: " + ", ".join(f"{k} {v:.1f} s" for k, v in ph.items()) + "."]
    th = next((r for r in ours if r.name == "verify.theorem26"), None)
    if th is not None and th.data.get("rows"):
        rows = [t26.Row(**{k: v for k, v in d.items() if not k.startswith("ratio_")}) for d in th.data["rows"]]
        lines += [
            "",
            "### Theorem 26 against compiled formulas",
            "",
            "eps = half the decoder's tolerance (0/1 coordinates read against 1/2: eps = 1/4). "
            "Largest working tau: searched (bisection on log tau), every string of length n decided like the "
            "reference.",
            "",
            t26.markdown_table(rows),
            "",
            "![Theorem 26 temperatures](theorem26.png)",
        ]
    return "\n".join(lines) + "\n"
