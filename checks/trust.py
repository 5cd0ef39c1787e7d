"""The trust ledger (docs/trust.md), generated from the claim registry and the SMT check definitions (smt.registry.CHECKS).

For each claim: what Lean proves for every size (the registry's Lean names), what the SMT checks
prove up to which bound with which parameters fixed and which facts or lemmas assumed, which
second solver confirms them, what is only fuzzed or tested, and -- just as plainly -- what is
NOT covered.  ``python -m hardsoft.checks.trust`` rewrites docs/trust.md; a test fails when the
file is stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

from hardsoft.smt import registry
from hardsoft.smt.check import Expect, SmtCheck
from hardsoft.smt.runs import sizes_text
from hardsoft.spec.claims import REGISTRY, Claim
from hardsoft.spec.presets import PRESET_NAMES

#: The exp abstraction facts each SMT statement check relies on (smt/core.py states and justifies them).
_EXP_FACTS = {"E": "F1-F3", "Z": "F1, F2, F4", "S": "F5", "ERR1": "F1, F6", "ZU": "F1, F2, F4, F7", "PREC": "F1, F2, F4"}

#: The claims whose SMT checks are plain polynomial arithmetic (no exp abstraction).
_NO_EXP = ("C", "L7", "L8", "CNT", "APP-DYCK")


def _set_text(sizes: list[int]) -> str:
    """Return a size list as "2..16" when it is a run of consecutive sizes, else as a set "{1, 2, 4, 16}"."""
    if len(sizes) > 1 and sizes == list(range(sizes[0], sizes[-1] + 1)):
        return f"{sizes[0]}..{sizes[-1]}"
    return sizes_text(sizes) if len(sizes) == 1 else "{" + sizes_text(sizes) + "}"


def _smt_line(check: SmtCheck) -> str:
    """Return the ledger's bullet line of one SMT check: what it proves or refutes, at which sizes per preset, covering what."""
    kind = "proves" if check.expect is Expect.PROVED else "refutes (countermodel replayed in the spec)"
    if check.symbolic:  # one query set over a symbolic size, the same in every preset
        sizes = (
            f"{check.size_label} at once (n is a symbolic integer of the queries; every preset)"
            if check.expect is Expect.PROVED
            else "one search over a symbolic n (every preset)"
        )
    else:
        sizes = "; ".join(f"{check.size_label} in {_set_text(check.planned_sizes(check.presets[p]))} ({p})" for p in PRESET_NAMES)
    line = f"- `{check.name}` {kind}: {sizes}"
    if check.ledger_coverage is not None:
        line += "; " + check.ledger_coverage(check.presets)
    else:
        cov = check.cover
        if cov.varied:
            line += "; varied: " + "; ".join(f"{k} {v}" for k, v in cov.varied.items())
        if cov.fixed:
            line += "; fixed: " + "; ".join(f"{k} {v}" for k, v in cov.fixed.items())
        if cov.assumed:
            line += ("; assumes: " if check.expect is Expect.PROVED else "; notes: ") + "; ".join(cov.assumed)
    for lem in check.assumes:
        line += f"; lemma {lem.label} from `{lem.check}` (must be proved in the same run up to its setting {lem.needs}, else the row is undecided)"
    ys = check.presets[PRESET_NAMES[0]].get("yices", "all")
    line += f". Second solver (Yices, same queries): sizes {ys} ({PRESET_NAMES[0]})"
    if check.z3_only:
        line += f"; Z3-only: {check.z3_only}"
    return line + "."


def _smt_lines(c: Claim) -> list[str]:
    """Return the ledger's SMT bullet lines for one claim: every check of smt.registry.CHECKS on it, in registry order."""
    return [_smt_line(check) for check in registry.CHECKS if check.claim == c.id]


def trust_ledger() -> str:
    """Return docs/trust.md: per claim, what is proved (Lean, SMT), only tested, assumed, and not covered."""
    lines = [
        "# Trust ledger: what is proved, up to where, under which assumptions, and what is not",
        "",
        "Generated from `spec/claims.py` (REGISTRY) and the SMT check definitions (`smt/registry.py`, each check "
        "defined beside its encoding: `smt/check.py`) by "
        "`python -m hardsoft.checks.trust`; `tests/smt/test_smt_trust.py` fails when this file is stale.",
        "",
        "Reading guide:",
        "",
        "- **Lean** theorems are proved for every size (every N, every depth L), over an ordered field; softmax "
        "enters either in the same abstract form as in the SMT checks (w_j = 1 on the max set, 0 <= w_j <= x "
        "off it) or from the scores through an abstract exponential `ExpLike` (positive, exp(s + t) = exp s exp t, "
        "exp 0 = 1, monotone) and, where a statement needs more, a named exp fact among its hypotheses: F5 "
        "(`ExpLike.LogMean`, 2(e^d - 1) <= d(e^d + 1) for d >= 0: statement S), F1 (`ExpLike.Tangent`, 1 + x <= e^x: "
        "statement T, erratum 2) and a logarithm (`ExpLike.IsLog`, e^(log x) = x: statement T). Each fact, and each "
        "`ExpLike` property, is checked to hold of the real exp by `tests/spec/test_exp_facts.py` (mpmath at many "
        "points, F1 and F5 also through their derivatives); that is assumed, not proved. Exact statements: "
        "`spec/lean_statements.py`, each confirmed by Lean in a generated module that opens no "
        'namespace, together with the definitions it uses and a non-vacuity theorem at Rat (`lean/README.md`, "The checker"). '
        "Under the wasm toolchain each is also confirmed from the compiled .olean (a kernel theorem resting on propext, "
        "Classical.choice, Quot.sound at most; no project axiom, no sorryAx, imports Init only, no global instance but SizeOf, "
        "no unknown attribute, every constant in the project's namespace); the core library's own proofs are trusted.",
        "- **SMT (Z3)** checks prove a statement for every real instance of the listed sizes only (bounded), "
        "through the exp abstraction of `smt/core.py` (facts F1-F7). A query counts as proved only when its "
        "hypotheses were shown satisfiable too (non-vacuous); unknown or timeout is never proved. After every run "
        "the queries of each statement check are compared with the domain its claim states for them "
        "(`spec/claims.py` `domains`, `smt/domains.py`): an encoding that leaves part of it out fails the check.",
        "- **Second solver**: Yices 2 is given the exact SMT-LIB 2 text of the queries Z3 decided, at the listed "
        "sizes; a disagreement fails the run. cvc5 gives an opinion on the native-exp form at a few sizes.",
        "- **Tested / fuzzed**: spec functions exercised by property tests and the fuzz family; evidence, not "
        "proof. A claim with neither Lean nor SMT lines rests on these alone.",
        "",
    ]
    for c in REGISTRY:
        lines += [f"## {c.id}: {c.paper}", "", c.statement, ""]
        lines.append("- **Lean (every size):** " + (", ".join(f"`{n}`" for n in c.lean) if c.lean else "none."))
        if _smt_lines(c):
            facts = _EXP_FACTS.get(c.id)
            lines.append(
                "- **SMT (bounded):**"
                + (
                    f" exp abstraction facts {facts} of smt/core.py."
                    if facts
                    else " plain polynomial arithmetic (no exp)."
                    if c.id in _NO_EXP
                    else ""
                )
            )
            lines += ["  " + ln for ln in _smt_lines(c)]
        else:
            lines.append("- **SMT (bounded):** none.")
        spec = ", ".join(f"`{s.removeprefix('spec.')}`" for s in c.spec)
        lines.append(
            "- **Tested / fuzzed (evidence, not proof):** spec "
            + spec
            + "; tests "
            + ", ".join(f"`{t.removeprefix('tests/')}`" for t in c.tests)
            + "."
        )
        lines.append(f"- **Not covered:** {c.not_covered}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


TRUST_MD = Path(__file__).resolve().parent.parent / "docs" / "trust.md"


def main(argv: list[str] | None = None) -> int:
    """Rewrite docs/trust.md (in a source tree) or print the ledger (--print)."""
    argv = sys.argv[1:] if argv is None else argv
    text = trust_ledger()
    if "--print" in argv:
        sys.stdout.write(text)
        return 0
    TRUST_MD.write_text(text)
    print(f"wrote {TRUST_MD}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
