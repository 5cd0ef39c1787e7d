"""Second-opinion solvers (cvc5, Yices) run in a child process with a hard timeout: the one place that starts and kills them.

A child's answer counts only when it is unambiguous (``ChildRun.answer``): the process exited 0,
wrote nothing on stderr, and printed exactly one non-empty line, which is one of sat / unsat /
unknown.  Anything else (a verdict followed by a crash, an error line, two verdicts, no output)
is "error", with the reason, and never counts as agreement.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

#: The only lines a solver child may print as its answer to one (check-sat).
VERDICTS: tuple[str, ...] = ("sat", "unsat", "unknown")


@dataclass(frozen=True)
class ChildRun:
    """What a solver child process did: its non-empty output lines, stderr, exit status, wall seconds, and whether it was killed."""

    lines: list[str]
    err: str
    returncode: int
    seconds: float
    timed_out: bool

    def timeout_result(self, limit: float) -> dict[str, object]:
        """Return the shared result record of a killed run."""
        return {"status": "timeout", "seconds": self.seconds, "detail": f"killed after {limit} s"}

    def answer(self, limit: float) -> dict[str, Any]:
        """Return {"status": "sat"|"unsat"|"unknown"|"timeout"|"error", "seconds", "detail"} of this run.

        A verdict counts only with exit status 0, an empty stderr and exactly one output line that
        is a verdict; otherwise "error" names what was wrong (exit status, stderr, the lines).
        """
        if self.timed_out:
            return self.timeout_result(limit)
        problems = []
        if self.returncode != 0:
            problems.append(f"exit status {self.returncode}")
        if err := [ln.strip() for ln in self.err.splitlines() if ln.strip()]:
            problems.append(f"stderr ({len(err)} lines, the last): {err[-1][:200]}")
        if len(self.lines) != 1 or self.lines[0] not in VERDICTS:
            shown = " | ".join(self.lines)[:200] if self.lines else "no output"
            problems.append(f"output is not exactly one of {'/'.join(VERDICTS)}: {shown}")
        if problems:
            return {"status": "error", "seconds": self.seconds, "detail": "; ".join(problems)[:300]}
        return {"status": self.lines[0], "seconds": self.seconds, "detail": ""}


def run_child(argv: Sequence[str], stdin_text: str, timeout_s: float) -> ChildRun:
    """Return the run of ``argv`` fed ``stdin_text``, killed after ``timeout_s`` seconds of wall time."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(stdin_text, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return ChildRun([], "", -9, round(time.perf_counter() - t0, 3), True)
    lines = [ln.strip() for ln in out.splitlines() if ln.strip()]
    return ChildRun(lines, err, proc.returncode, round(time.perf_counter() - t0, 3), False)
