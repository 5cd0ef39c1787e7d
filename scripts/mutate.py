"""``make mutate``: mutation testing (cosmic-ray) of the trusted core, one session per module, with its fast tests.

Cosmic-ray mutates the files in place (one mutant at a time, restored afterwards),
so the editable install's mapping spec/ -> hardsoft.spec, smt/ -> hardsoft.smt,
checks/ -> hardsoft.checks sees every mutant: no copy of the package is needed.
Do not edit the tree while it runs.

Sessions, configs and the survivors' list go to .mutation/ (ignored by git):
  .mutation/<module>.sqlite   the cosmic-ray session (cr-report / cr-html read it)
  .mutation/survivors.json    every surviving mutant with its diff, for docs/mutation.md's triage
Environment: MUTATE_MODULES=spec/bounds.py,... (default: all five), MUTATE_SAMPLE=N (a seeded
random sample of N mutants per module instead of all; MUTATE_SEED picks the sample, default 8),
MUTATE_OUT (session folder, default .mutation), MUTATE_TIMEOUT (seconds per mutant, 120).
Operators that only produce type errors on this code (shifts, bitwise xor, modulo, floor
division, identity comparisons, bitwise inversion, decorator removal) are filtered out.
"""

from __future__ import annotations

import ast
import json
import os
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / os.environ.get("MUTATE_OUT", ".mutation")
PY = sys.executable
BIN = Path(PY).parent

#: The fast tests that cover each module (pytest -x: the first failure kills the mutant).
MODULES: dict[str, list[str]] = {
    "checks/runner.py": ["tests/checks/test_runner.py"],
    "spec/bounds.py": ["tests/spec/test_meaning.py", "tests/spec/test_certified.py", "tests/spec/test_statements.py", "tests/checks/test_end_to_end.py"],
    "spec/transformer.py": ["tests/spec/test_transformer.py", "tests/spec/test_meaning.py", "tests/checks/test_end_to_end.py",
                            "tests/spec/test_statements.py"],
    "smt/core.py": ["tests/smt/test_smt_core.py", "tests/smt/test_smt.py"],
    "spec/attention.py": ["tests/spec/test_attention.py", "tests/spec/test_transformer.py", "tests/spec/test_statements.py"],
}

EXCLUDED_OPERATORS = [
    r"core/ReplaceBinaryOperator_.*_(LShift|RShift|BitXor|Mod|FloorDiv)$",
    r"core/ReplaceBinaryOperator_(LShift|RShift|BitXor|Mod|FloorDiv)_.*",
    r"core/ReplaceComparisonOperator_.*_(Is|IsNot)$",
    r"core/ReplaceComparisonOperator_(Is|IsNot)_.*",
    r"core/ReplaceUnaryOperator_.*_(Invert|Not)$",
    r"core/RemoveDecorator",
]


def _config(module: str, timeout: float) -> Path:
    """Write and return the cosmic-ray config of one module."""
    tests = " ".join(t for t in MODULES[module] if (ROOT / t.split("::")[0]).exists())
    name = module.replace("/", ".")
    text = f"""[cosmic-ray]
module-path = "{module}"
timeout = {timeout}
excluded-modules = []
test-command = "{PY} -m pytest -x -q -p no:cacheprovider -o addopts= {tests}"

[cosmic-ray.distributor]
name = "local"

[cosmic-ray.filters.operators-filter]
exclude-operators = {json.dumps(EXCLUDED_OPERATORS)}
"""
    path = OUT / f"{name}.toml"
    path.write_text(text)
    return path


def _annotation_spans(module: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Return the (start, end) positions of every type annotation of a module (line 1-based, column 0-based)."""
    tree = ast.parse((ROOT / module).read_text())
    spans = []
    for node in ast.walk(tree):
        anns = []
        if isinstance(node, ast.arg) and node.annotation is not None:
            anns.append(node.annotation)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None:
            anns.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            anns.append(node.annotation)
        spans += [((a.lineno, a.col_offset), (a.end_lineno or a.lineno, a.end_col_offset or 0)) for a in anns]
    return spans


def _skip_annotations(session: Path, module: str) -> int:
    """Mark mutants inside type annotations as skipped: with ``from __future__ import annotations`` they are never
    evaluated, so every such mutant is equivalent (``str | None`` -> ``str + None``).  Return how many."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    if "from __future__ import annotations" not in (ROOT / module).read_text():
        return 0
    spans = _annotation_spans(module)
    n = 0
    with use_db(str(session), WorkDB.Mode.open) as db:
        for w in list(db.pending_work_items):
            m = w.mutations[0]
            if any(lo <= tuple(m.start_pos) and tuple(m.end_pos) <= hi for lo, hi in spans):
                db.set_result(w.job_id, WorkResult(worker_outcome=WorkerOutcome.SKIPPED, output="in a type annotation"))
                n += 1
    return n


def _sample(session: Path, n: int, seed: int = 8) -> None:
    """Mark all but a seeded random sample of n pending mutants as skipped (cosmic-ray's filter mechanism)."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    with use_db(str(session), WorkDB.Mode.open) as db:
        pending = sorted(w.job_id for w in db.pending_work_items)
        keep = set(random.Random(seed).sample(pending, min(n, len(pending))))
        for job in pending:
            if job not in keep:
                db.set_result(job, WorkResult(worker_outcome=WorkerOutcome.SKIPPED, output="not in the sample"))


def _summary(session: Path, module: str) -> tuple[dict[str, int], list[dict]]:
    """Return outcome counts and the surviving mutants of one session."""
    from cosmic_ray.work_db import WorkDB, use_db

    counts = {"killed": 0, "survived": 0, "incompetent": 0, "skipped": 0}
    survivors = []
    with use_db(str(session), WorkDB.Mode.open) as db:
        for item, result in db.completed_work_items:
            wo, to = result.worker_outcome.value, (result.test_outcome.value if result.test_outcome else None)
            if wo == "skipped":
                counts["skipped"] += 1
            elif to == "survived":
                counts["survived"] += 1
                m = item.mutations[0]
                survivors.append({"module": module, "job": item.job_id, "operator": m.operator_name,
                                  "occurrence": m.occurrence, "line": m.start_pos[0], "diff": result.diff})
            elif to == "incompetent":
                counts["incompetent"] += 1
            else:
                counts["killed"] += 1  # killed by a failing test, or by the timeout
    return counts, survivors


def main() -> int:
    """Run every selected module's session and print the score."""
    OUT.mkdir(exist_ok=True)
    modules = [m for m in os.environ.get("MUTATE_MODULES", ",".join(MODULES)).split(",") if m]
    sample = int(os.environ.get("MUTATE_SAMPLE", "0"))
    timeout = float(os.environ.get("MUTATE_TIMEOUT", "120"))
    env = dict(os.environ, HYPOTHESIS_PROFILE="dev", HARDSOFT_CERTIFIED_INPUTS="1000")
    all_survivors, total = [], {"killed": 0, "survived": 0, "incompetent": 0, "skipped": 0}
    for module in modules:
        cfg = _config(module, timeout)
        session = OUT / f"{module.replace('/', '.')}.sqlite"
        if not session.exists():
            subprocess.run([str(BIN / "cosmic-ray"), "init", str(cfg), str(session)], check=True, env=env)
            subprocess.run([str(BIN / "cr-filter-operators"), str(session), str(cfg)], check=True, env=env)
            subprocess.run([str(BIN / "cr-filter-pragma"), str(session)], check=True, env=env)
            print(f"{module}: {_skip_annotations(session, module)} mutants in type annotations skipped (equivalent)", flush=True)
            if sample:
                _sample(session, sample, int(os.environ.get("MUTATE_SEED", "8")))
        subprocess.run([str(BIN / "cosmic-ray"), "exec", str(cfg), str(session)], check=True, env=env, cwd=ROOT)
        counts, survivors = _summary(session, module)
        all_survivors += survivors
        for k, v in counts.items():
            total[k] += v
        run = counts["killed"] + counts["survived"]
        print(f"{module}: killed {counts['killed']} of {run} ({100 * counts['killed'] / max(run, 1):.1f}%), "
              f"survived {counts['survived']}, incompetent {counts['incompetent']}, skipped {counts['skipped']}", flush=True)
    (OUT / "survivors.json").write_text(json.dumps(all_survivors, indent=1))
    run = total["killed"] + total["survived"]
    print(f"total: killed {total['killed']} of {run} ({100 * total['killed'] / max(run, 1):.1f}%); "
          f"survivors in {OUT / 'survivors.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
