"""Second opinion: run SMT-LIB 2 queries through cvc5, in a separate process killed at a hard timeout.

cvc5 reasons about exp natively (transcendental extension), so the statements with exp are
given to it AS WRITTEN (no abstraction), with every exponent a score difference
(s_j - s_max)/tau: in this form cvc5 answers E instantly where the fraction form times out.
Statements without exp (P's steps, C) are given to it as the same polynomial queries Z3 sees.

cvc5's own time limit does not always stop its exp reasoning, so each query runs in a child
Python process (``python -m smt.solvers.cvc5``, reading the query on stdin) that is KILLED when
the hard timeout expires.  Results: "unsat" (agrees with a proof), "sat" (disagrees with a
proof: the check FAILS), "unknown" or "timeout" (no opinion; never counted either way).
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


def run_cvc5(smt2: str, timeout_s: float) -> dict[str, Any]:
    """Return {"status": "unsat"|"sat"|"unknown"|"timeout"|"error", "seconds": float, "detail": str}.

    The query runs in a child process that is killed after timeout_s seconds.
    """
    t = check_timeout(timeout_s)
    if not cvc5_available():
        return {"status": "error", "seconds": 0.0, "detail": "cvc5 not installed"}
    run = run_child([sys.executable, "-m", "hardsoft.smt.solvers.cvc5", str(int(t * 1000))], smt2, t + 1.0)
    if run.timed_out:
        return run.timeout_result(t)
    dt, lines, err = run.seconds, run.lines, run.err
    answer = lines[-1] if lines else ""
    if answer.startswith("unsat"):
        return {"status": "unsat", "seconds": dt, "detail": ""}
    if answer.startswith("sat"):
        return {"status": "sat", "seconds": dt, "detail": ""}
    if answer.startswith("unknown"):
        return {"status": "unknown", "seconds": dt, "detail": answer}
    return {"status": "error", "seconds": dt, "detail": (err.strip().splitlines() or ["no output"])[-1][:300]}


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
            print(r.strip(), flush=True)
    return 0


# --------------------------------------------------------------------------- query texts


def _decl(names: list[str]) -> str:
    """Return declare-fun lines for real constants."""
    return "".join(f"(declare-fun {n} () Real)" for n in names)


def query_E(N: int, m: int) -> str:
    """Return statement E at (N, m) with native exp, cross-multiplied, exponents as score differences."""
    off = [f"s{j}" for j in range(m, N)]
    lines = ["(set-logic ALL)", _decl(["smax", "g", "tau"] + off), "(assert (> g 0.0))(assert (> tau 0.0))"]
    lines += [f"(assert (<= (- {s} smax) (- g)))" for s in off]
    S = "(+ 0.0 " + " ".join(f"(exp (/ (- {s} smax) tau))" for s in off) + ")"
    x = "(exp (/ (- g) tau))"
    k = N - m
    lines.append(f"(assert (not (<= (* {S} (+ {m}.0 (* {k}.0 {x}))) (* {k}.0 {x} (+ {m}.0 {S})))))")
    lines.append("(check-sat)")
    return "\n".join(lines)


def query_E_wrong(N: int, m: int) -> str:
    """Return the wrong twin of E (N-m-1) with native exp: sat expected."""
    return query_E(N, m).replace(f"(* {N - m}.0 ", f"(* {N - m - 1}.0 ")


def query_S2() -> str:
    """Return statement S at n = 2 with native exp, written with score differences (a_2 - a_1)/tau."""
    return "\n".join(
        [
            "(set-logic ALL)",
            _decl(["a1", "a2", "b1", "b2", "tau", "d"]),
            "(assert (> tau 0.0))(assert (>= d 0.0))",
            "(assert (<= (- a1 b1) d))(assert (<= (- b1 a1) d))(assert (<= (- a2 b2) d))(assert (<= (- b2 a2) d))",
            "(assert (not (<= (* 2.0 (abs (- (/ 1.0 (+ 1.0 (exp (/ (- a2 a1) tau)))) (/ 1.0 (+ 1.0 (exp (/ (- b2 b1) tau))))))) (/ d tau))))",
            "(check-sat)",
        ]
    )


def query_ERR1(N: int, plus: bool) -> str:
    """Return erratum 1 with native exp, t = gamma/tau: corrected offset (unsat expected) or printed one (sat expected)."""
    expo = "(exp t)" if plus else "(exp (- t))"
    return "\n".join(
        [
            "(set-logic ALL)",
            _decl(["K", "X", "t", "eps"]),
            "(assert (> K 0.0))(assert (> X 0.0))(assert (> t 0.0))(assert (> eps 0.0))",
            f"(assert (>= (* (exp t) eps) (* K X {N}.0)))",
            f"(assert (not (<= (* K X {N}.0 {expo}) eps)))",
            "(check-sat)",
        ]
    )


if __name__ == "__main__":
    sys.exit(_main(sys.argv))
