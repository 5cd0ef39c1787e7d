"""Second-opinion solvers (cvc5, Yices) run in a child process with a hard timeout: the one place that starts and kills them."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass


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
