"""The verdict of one check, shared by every family (spec, fuzz, verify, smt, lean).

Three outcomes only count (style note 5): a check is OK (proved, passed, or a
wrong twin refuted as expected), FAILED, or UNDECIDED (unknown, timeout, tool
missing).  UNDECIDED is never counted as OK.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Outcome(str, Enum):
    """Return the three outcomes a check can have."""

    OK = "ok"
    FAILED = "failed"
    UNDECIDED = "undecided"


@dataclass
class CheckResult:
    """Return value of one check: what ran, on which claim, and its verdict.

    family   -- "spec", "fuzz", "verify", "smt" or "lean"
    name     -- a stable, unique name, e.g. "smt.E.z3" or "lean.bundle"
    claim    -- the claim id in spec.claims.REGISTRY this check supports (or None)
    outcome  -- Outcome.OK / FAILED / UNDECIDED
    verdict  -- the tool's own word: "proved", "refuted", "unknown", "passed",
                "failed", "timeout", "error", "refuted-as-expected", ...
    seconds  -- wall-clock time of the check
    detail   -- one human-readable line
    data     -- anything else worth keeping (bounds reached, countermodels,
                paths of kept .smt2 files, Lean messages); must be JSON-serialisable
    """

    family: str
    name: str
    claim: str | None
    outcome: Outcome
    verdict: str
    seconds: float
    detail: str = ""
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Return this result as a JSON-ready dict."""
        d = dataclasses.asdict(self)
        d["outcome"] = self.outcome.value
        return d
