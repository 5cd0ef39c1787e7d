"""The claim registry: every named function, check, theorem and test exists; docs/claims.md's table is the generated one."""

from __future__ import annotations

from pathlib import Path

from hardsoft.checks.report import traceability_table
from hardsoft.spec import claims
from hardsoft.checks.registry import validate_registry
from hardsoft.spec.claims import REGISTRY

README = Path(__file__).resolve().parents[2] / "docs" / "claims.md"  # the claims table, linked from README.md


def test_registry_is_valid() -> None:
    assert validate_registry() == []


def test_registry_catches_a_missing_name(monkeypatch) -> None:
    bad = claims.Claim("X", "nowhere", "a claim", spec=("spec.bounds.no_such_function",),
                       lean=("HardSoft.no_such_theorem",), tests=("tests/checks/test_registry.py::no_such_test",))
    monkeypatch.setattr(claims, "REGISTRY", REGISTRY + (bad,))
    problems = validate_registry()
    assert any("no_such_function" in p for p in problems)
    assert any("no_such_theorem" in p for p in problems)
    assert any("no_such_test" in p for p in problems)


def test_readme_table_is_generated_from_the_registry() -> None:
    text = README.read_text()
    start, end = "<!-- traceability:start -->", "<!-- traceability:end -->"
    assert start in text and end in text
    body = text.split(start)[1].split(end)[0].strip()
    assert body == traceability_table().strip(), "docs/claims.md table is stale: run `hardsoft table` and paste it (make readme-table)"


def test_every_spec_docstring_names_its_paper_result() -> None:
    import inspect
    from hardsoft.spec import attention, bounds, transformer

    for mod in (attention, bounds, transformer):
        for name, fn in inspect.getmembers(mod, inspect.isfunction):
            if fn.__module__ != mod.__name__ or name.startswith("_"):
                continue
            doc = (fn.__doc__ or "").strip()
            assert doc, f"{mod.__name__}.{name} has no docstring"


def test_registry_requires_what_is_not_covered(monkeypatch) -> None:
    vague = claims.Claim("Y", "Lemma 99", "a claim", spec=("spec.bounds.bound_E_l1",), not_covered="see above.")
    silent = claims.Claim("W", "Lemma 98", "a claim", spec=("spec.bounds.bound_E_l1",))
    monkeypatch.setattr(claims, "REGISTRY", REGISTRY + (vague, silent))
    problems = validate_registry()
    assert "Y: says nothing of what is not covered (not_covered)" in problems
    assert "W: says nothing of what is not covered (not_covered)" in problems
