"""Validation of the claim registry (``spec.claims``): every named spec function, SMT check, Lean theorem and test must exist."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

from hardsoft import locations
from hardsoft.checks.families.lean.sources import LEAN_DIR, declared_names, lean_sources
from hardsoft.spec import claims
from hardsoft.spec.claims import PACKAGE, tests_shipped
from hardsoft.spec.lean_statements import LEAN_STATEMENTS


def _resolve(dotted: str) -> bool:
    """Return whether module.attr resolves."""
    mod, _, attr = dotted.rpartition(".")
    try:
        return hasattr(importlib.import_module(f"{PACKAGE}.{mod}"), attr)
    except ImportError:
        return False


def _test_exists(ref: str, root: Path) -> bool:
    """Return whether 'tests/file.py::name' names a test function in that file of the source tree ``root``."""
    path, _, name = ref.partition("::")
    p = root / path
    if not p.is_file():
        return False
    tree = ast.parse(p.read_text(encoding="utf-8"))
    return any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name for n in ast.walk(tree))


def _lean_declarations() -> set[str]:
    """Return the fully qualified names of the theorems and lemmas declared in lean/ (by the Lean package's comment-aware command splitter)."""
    return {name for path in lean_sources(LEAN_DIR) for kind, name, _line in declared_names(path) if kind in ("theorem", "lemma")}


def validate_registry() -> list[str]:
    """Return the problems of the registry: every named spec function, SMT check, Lean theorem and test must exist.

    Tests are looked up only in a source tree (``tests_shipped``); an installed wheel has none.
    """
    problems: list[str] = []
    tree = locations.source_tree() if tests_shipped() else None
    ids = [c.id for c in claims.REGISTRY]
    if len(set(ids)) != len(ids):
        problems.append("duplicate claim ids")
    smt_checks: set[str] | None = None
    if any(c.smt for c in claims.REGISTRY):
        try:
            defined = importlib.import_module("hardsoft.smt.registry").CHECKS
        except ImportError as e:
            problems.append(f"cannot import smt.registry: {e}")
            defined = ()
        smt_checks = {d.name for d in defined}
        listed = {c.id: c.smt for c in claims.REGISTRY}
        domains = {c.id: c.domains for c in claims.REGISTRY}
        for d in defined:  # the other direction: every defined check is listed by its claim (the traceability table)
            if d.name not in listed.get(d.claim, ()):
                problems.append(f"SMT check {d.name} (smt/) is not listed in the smt of claim {d.claim!r} (spec/claims.py)")
            # a statement check's encoded domain is compared with its claim's (smt.domains): the claim must state it
            if d.expected == "proved" and d.name not in domains.get(d.claim, {}):
                problems.append(f"SMT check {d.name}: claim {d.claim!r} states no domain for it (Claim.domains in spec/claims.py)")
    lean_decls = _lean_declarations() if any(c.lean for c in claims.REGISTRY) else set()
    for c in claims.REGISTRY:
        if not c.paper.strip() or not c.statement.strip():
            problems.append(f"{c.id}: missing paper result or statement")
        if not c.not_covered.strip() or "see above" in c.not_covered:
            problems.append(f"{c.id}: says nothing of what is not covered (not_covered)")
        for f in c.spec + c.twins:
            if not _resolve(f):
                problems.append(f"{c.id}: spec function {f} does not exist")
            else:
                mod, _, attr = f.rpartition(".")
                doc = (getattr(importlib.import_module(f"{PACKAGE}.{mod}"), attr).__doc__ or "").strip()
                if not doc:
                    problems.append(f"{c.id}: {f} has no docstring naming its paper result")
        for s in c.smt:
            if smt_checks is not None and s not in smt_checks:
                problems.append(f"{c.id}: SMT check {s} does not exist")
        for t in c.lean:
            if t not in lean_decls:
                problems.append(f"{c.id}: Lean theorem {t} does not exist in lean/")
            st = LEAN_STATEMENTS.get(t)
            if st is None:
                problems.append(f"{c.id}: Lean theorem {t} has no pinned statement in LEAN_STATEMENTS")
            elif not st.statement.strip() or not st.says.strip():
                problems.append(f"{c.id}: Lean theorem {t} ({st.origin}) has an empty statement or description")
    cited = {t for c in claims.REGISTRY for t in c.lean}
    for t in sorted(set(LEAN_STATEMENTS) - cited):
        problems.append(f"LEAN_STATEMENTS: {t} ({LEAN_STATEMENTS[t].origin}) is cited by no claim")
    for c in claims.REGISTRY:
        for t in c.tests:
            if tree is not None and not _test_exists(t, tree):
                problems.append(f"{c.id}: test {t} does not exist")
    return problems
