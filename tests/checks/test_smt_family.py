"""Integration test of checks/families/smt.py: a tiny run restricted to claims C and ERR3, and its markdown."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("z3")

from hardsoft.checks.families import smt as smt_family
from hardsoft.checks.result import Outcome  # noqa: E402
from hardsoft.smt import registry  # noqa: E402


def test_family_tiny_C_and_ERR3(tmp_path: Path):
    msgs: list[str] = []
    res = smt_family.run("tiny", tmp_path, msgs.append, claims={"C", "ERR3"})
    names = {r.name for r in res}
    assert names == {c.name for c in registry.CHECKS if c.claim in {"C", "ERR3"}}
    assert len(msgs) == len(res)
    for r in res:
        assert r.outcome is Outcome.OK, (r.name, r.verdict, r.detail)
        assert r.data["rows"] and r.data["bound_reached"] == r.data["bound"]
        assert r.data["cvc5"]["opinion"] != "disagree"
        if r.data["expected"] == "refuted":
            assert r.verdict == "refuted-as-expected"
            assert all(c["replay"]["confirmed"] for c in r.data["countermodels"])
        r.to_json()  # JSON-ready
    md = smt_family.markdown_section(res)
    assert "| check | claim |" in md and "smt.C.bootstrap" in md and "Countermodels replayed" in md
