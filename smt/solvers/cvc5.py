"""Second opinion: run SMT-LIB 2 queries through cvc5, in a separate process killed at a hard timeout.

cvc5 reasons about exp natively (transcendental extension), so the statements with exp are
given to it AS WRITTEN (no abstraction), with every exponent a score difference
(s_j - s_max)/tau: in this form cvc5 answers E instantly where the fraction form times out.
Statements without exp (P's steps, C) are given to it as the same polynomial queries Z3 sees.

cvc5's own time limit does not always stop its exp reasoning, so each query runs in a child
Python process (``python -m smt.solvers.cvc5``, reading the query on stdin) that is KILLED when
the hard timeout expires.  Results: "unsat" (agrees with a proof), "sat" (disagrees with a
proof: the check FAILS), "unknown" or "timeout" (no opinion; never counted either way), "error"
(a non-zero exit, anything on stderr, or output other than exactly one verdict line:
child.ChildRun.answer).  The query texts are built beside each check's encoding (the
``cvc5`` builder of its smt.check.SmtCheck), not here.
"""

from __future__ import annotations

import sys
from typing import Any

from hardsoft.smt.core import check_timeout
from hardsoft.smt.solvers.child import run_child


def cvc5_available() -> bool:
    """Return whether the cvc5 Python package can be imported."""
    try:
        import cvc5  # noqa: F401
    except ImportError:
        return False
    return True


def cvc5_command(limit_ms: int) -> list[str]:
    """Return the argv of the cvc5 child process (this module's _main, reading the query on stdin)."""
    return [sys.executable, "-m", "hardsoft.smt.solvers.cvc5", str(limit_ms)]


def run_cvc5(smt2: str, timeout_s: float) -> dict[str, Any]:
    """Return {"status": "unsat"|"sat"|"unknown"|"timeout"|"error", "seconds": float, "detail": str}.

    The query runs in a child process that is killed after timeout_s seconds; its answer counts
    only as child.ChildRun.answer says (exit 0, empty stderr, exactly one verdict line).
    """
    t = check_timeout(timeout_s)
    if not cvc5_available():
        return {"status": "error", "seconds": 0.0, "detail": "cvc5 not installed"}
    return run_child(cvc5_command(int(t * 1000)), smt2, t + 1.0).answer(t)


def _main(argv: list[str]) -> int:
    """Child process: read SMT-LIB 2 from stdin, run cvc5 with a soft per-query limit, print results."""
    import cvc5

    text = sys.stdin.read()
    solver = cvc5.Solver()
    solver.setOption("tlimit-per", argv[1] if len(argv) > 1 else "10000")
    tm = solver.getTermManager()
    sm = cvc5.SymbolManager(tm)
    parser = cvc5.InputParser(solver, sm)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "query")
    while True:
        cmd = parser.nextCommand()
        if cmd.isNull():
            break
        r = cmd.invoke(solver, sm)
        if r:
            print(verdict_line(r.strip()), flush=True)
    return 0


def verdict_line(printed: str) -> str:
    """Return cvc5's printed answer as a verdict line: its API prints "unknown (TIMEOUT)" or "unknown (INCOMPLETE)" for unknown.

    Only that one form is rewritten (to "unknown", no opinion); anything else is passed on as
    printed, so ``child.ChildRun.answer`` still refuses every other line.
    """
    return "unknown" if printed.startswith("unknown (") and printed.endswith(")") and "\n" not in printed else printed


if __name__ == "__main__":
    sys.exit(_main(sys.argv))
