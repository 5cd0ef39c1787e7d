"""The one line and exit status of a certificate: Lean's verdict, named by the mirror.

Lean decides (``verdict.check_module``); the mirror (``mirror.check``) only names the failing
check.  For each certificate:

* Lean accepted and the mirror finds nothing: exit 0, "certified for every n: ..." (with
  ``lean_text.THEOREM_FORM`` "check", before the soundness theorem is in the library: "accepted by
  the Lean checker: ...", never "certified for every n");
* Lean rejected and the mirror names a check: exit 1, "not certified: <that check>";
* Lean and the mirror disagree (either way): exit 4, an internal discrepancy, never "certified";
* the library is not confirmed: exit 1 ("not certified: the Lean library is not confirmed: ...");
  no verdict (toolchain missing, timeout, Lean out of memory, another certificate of the same module failed): exit 3.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from hardsoft.checks.families.certify.lean_text import THEOREM_FORM, theorem_name
from hardsoft.checks.families.certify.mirror import crd
from hardsoft.checks.families.certify.subjects import Prepared
from hardsoft.checks.families.certify.verdict import ModuleVerdict, check_module
from hardsoft.checks.families.lean.family import CompiledLibrary
from hardsoft.checks.runner import EXIT_FAILED, EXIT_INTERNAL, EXIT_OK, EXIT_UNDECIDED

#: What an accepted certificate is called (only "certified for every n" once the soundness theorem is what Lean proved).
ACCEPTED = "certified for every n" if THEOREM_FORM == "certified" else "accepted by the Lean checker"


@dataclass(frozen=True)
class Decision:
    """A certificate's outcome: exit status, the one line, what it rests on."""

    code: int
    line: str
    prepared: Prepared
    verdict: ModuleVerdict

    @property
    def certified(self) -> bool:
        """Return whether Lean accepted the certificate and the mirror agrees."""
        return self.code == EXIT_OK


def rule_text(p: Prepared) -> str:
    """Return the temperature rule of the certificate (exact constants shown rounded)."""
    c = p.cert
    if c.mixed:
        return f"tau(n) = {float(c.c):.6g}/" + ("(n^2 max(n-1,1))" if c.bounded else "max(n-1,1)")
    return f"tau(n) = {float(c.c):.6g}/n" if c.bounded else "tau(n) = 1"


def decide(p: Prepared, v: ModuleVerdict) -> Decision:
    """Return the decision on one prepared certificate from the module's verdict (module docstring)."""
    tag = p.subject.tag
    title = p.subject.title
    if v.status == "undecided":
        return Decision(EXIT_UNDECIDED, f"not decided: {title}: {v.why}", p, v)
    if v.status == "library":
        return Decision(EXIT_FAILED, f"not certified: {title}: {v.why}", p, v)
    if not v.accepted(tag) and not v.decided(tag):
        return Decision(EXIT_UNDECIDED, f"not decided: {title}: {v.reason(tag)}", p, v)
    if v.accepted(tag):
        if p.mirror is not None:
            line = f"internal discrepancy: {title}: Lean accepted the certificate, but the mirror of the checker says: {p.mirror}"
            return Decision(EXIT_INTERNAL, line, p, v)
        where = f"coordinate {crd(p.cert, p.cert.root)}"
        if THEOREM_FORM == "certified":
            line = (
                f"{ACCEPTED}: {title}: at every position of every word of every length n >= 1 the hard model and the soft model "
                f"at {rule_text(p)} hold the program's value exactly in {where} (Lean: {theorem_name(tag)}; {p.weights.parameters} weights)"
            )
        else:
            line = (
                f"{ACCEPTED}: {title}: the kernel evaluates check to true on the {p.weights.parameters} weights and the description "
                f"(Lean: {theorem_name(tag)}); 'certified for every n' awaits the soundness theorem HardSoft.Cert.certified_of_check"
            )
        return Decision(EXIT_OK, line, p, v)
    if p.mirror is not None:
        return Decision(EXIT_FAILED, f"not certified: {title}: {p.mirror}", p, v)
    line = f"internal discrepancy: {title}: Lean rejects the certificate ({v.reason(tag)}), but the mirror of the checker finds no failing check"
    return Decision(EXIT_INTERNAL, line, p, v)


def certify(prepared: Sequence[Prepared], out_dir: Path, progress: Callable[[str], None], library: CompiledLibrary | None = None) -> list[Decision]:
    """Return the decision on each prepared certificate, all checked by Lean in ONE module (one process)."""
    v = check_module([p.entry() for p in prepared], out_dir, progress, library)
    return [decide(p, v) for p in prepared]
