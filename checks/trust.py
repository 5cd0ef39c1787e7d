"""The trust ledger (docs/trust.md), generated from the claim registry and the SMT presets.

For each claim: what Lean proves for every size (the registry's Lean names), what the SMT checks
prove up to which bound with which parameters fixed and which facts or lemmas assumed, which
second solver confirms them, what is only fuzzed or tested, and -- just as plainly -- what is
NOT covered.  ``python -m hardsoft.checks.trust`` rewrites docs/trust.md; a test fails when the
file is stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

from hardsoft.checks.families.smt import _COVER, PRESETS
from hardsoft.checks.families.smt import Z3_ONLY as _Z3_ONLY
from hardsoft.spec.claims import REGISTRY, Claim

#: The exp abstraction facts each SMT statement check relies on (smt/core.py states and justifies them).
_EXP_FACTS = {"E": "F1-F3", "Z": "F1, F2, F4", "S": "F5", "ERR1": "F1, F6"}

#: What is NOT covered, per claim, in plain words.
_NOT_COVERED = {
    "E": "SMT: N beyond the preset bound (Lean covers every N in the abstract-weight form).",
    "Z": "SMT: N beyond the preset bound (Lean covers every N in the abstract-weight form).",
    "S": "No Lean proof. SMT: n beyond the preset bound (16 tiny, 32 paper); beyond it S is only tested "
    "(random instances in tests/spec/test_statements.py). The native-exp form is checked by cvc5 at n = 2 only.",
    "P": "No Lean proof. SMT: only the boxes, dimensions, positions, FFN widths and head counts listed; "
    "the composition uses S and E as lemmas, which are proved only up to their own bounds. Layer norms "
    "and real transformer weights: only tested (spec + fuzz).",
    "C": "SMT: depth L beyond the bound (Lean covers every L).",
    "T": "No SMT check. Lean proves the bound-to-eps step; the temperature formula and the certified "
    "bisection are checked by tests and the fuzz family only.",
    "G": "Only tested (spec functions, property tests); no SMT or Lean proof.",
    "Q": "Only measured exhaustively on small models (tests); no SMT or Lean proof.",
    "ERR1": "The corrected offset is proved only for the listed N (symbolic K, X, gamma, eps, tau).",
    "ERR2": "Only tested (spec function and a test with eps = e^{-n}).",
    "ERR3": "Countermodels exist at the listed sizes (replayed in the spec); the general statement is an argument in the notes.",
}


def _smt_lines(c: Claim) -> list[str]:
    """Return the ledger's SMT bullet lines for one claim."""
    out = []
    for name in c.smt:
        t, p = PRESETS["tiny"][name], PRESETS["paper"][name]
        varied, fixed, assumed = _COVER.get(name, ({}, {}, []))
        kind = (
            "refutes (countermodel replayed in the spec)"
            if ("wrong" in name or name in ("smt.ERR1.offset_plus", "smt.ERR3.score_unguarded", "smt.ERR3.bootstrap_unguarded"))
            else "proves"
        )
        sizes = f"size bound {t['bound']} (tiny), {p['bound']} (paper)"
        if name.startswith("smt.ERR1"):
            sizes = f"every n <= {t['bound']} (tiny); n in {{1, 2, 4, 16, 64, 256, {p['bound']}}} (paper)" if t.get("every") else sizes
        line = f"- `{name}` {kind}: {sizes}"
        if name == "smt.P.layer_steps":
            line += (
                f"; varied: dimension d, head-step positions n <= {t['n_head']} / {p['n_head']}, FFN widths "
                f"{t['ffn_widths']} / {p['ffn_widths']} (independent of d), heads H <= {t['heads']} / "
                f"{p['heads']}, key positions N <= {t['n_keys_max']} / {p['n_keys_max']} (symbolic); fixed: "
                f"weight box |w| <= {t.get('weight_box', 2.0)}, activation box X <= {t.get('act_box', 4.0)}, "
                f"eps <= 1; assumes S and E as lemmas (proved only up to their own bounds)"
            )
        else:
            if varied:
                line += "; varied: " + "; ".join(f"{k} {v}" for k, v in varied.items())
            if fixed:
                line += "; fixed: " + "; ".join(f"{k} {v}" for k, v in fixed.items())
            if assumed:
                line += ("; notes: " if kind != "proves" else "; assumes: ") + "; ".join(assumed)
        ys = t.get("yices", "all")
        line += f". Second solver (Yices, same queries): sizes {ys if ys != 'all' else 'all'} (tiny)"
        if name in _Z3_ONLY:
            line += f"; Z3-only: {_Z3_ONLY[name]}"
        out.append(line + ".")
    return out


def trust_ledger() -> str:
    """Return docs/trust.md: per claim, what is proved (Lean, SMT), only tested, assumed, and not covered."""
    lines = [
        "# Trust ledger: what is proved, up to where, under which assumptions, and what is not",
        "",
        "Generated from `spec/claims.py` (REGISTRY) and `checks/families/smt.py` (PRESETS) by "
        "`python -m hardsoft.checks.trust`; `tests/smt/test_smt_trust.py` fails when this file is stale.",
        "",
        "Reading guide:",
        "",
        "- **Lean** theorems are proved for every size (every N, every depth L), over an ordered field; softmax "
        "weights enter in the same abstract form as in the SMT checks (w_j = 1 on the max set, 0 <= w_j <= x "
        "off it). Exact statements: `spec/lean_statements.py`, each confirmed by Lean in a generated module that opens no "
        'namespace, together with the definitions it uses and a non-vacuity theorem at Rat (`lean/README.md`, "The checker").',
        "- **SMT (Z3)** checks prove a statement for every real instance of the listed sizes only (bounded), "
        "through the exp abstraction of `smt/core.py` (facts F1-F6). A query counts as proved only when its "
        "hypotheses were shown satisfiable too (non-vacuous); unknown or timeout is never proved.",
        "- **Second solver**: Yices 2 is given the exact SMT-LIB 2 text of the queries Z3 decided, at the listed "
        "sizes; a disagreement fails the run. cvc5 gives an opinion on the native-exp form at a few sizes.",
        "- **Tested / fuzzed**: spec functions exercised by property tests and the fuzz family; evidence, not "
        "proof. A claim with neither Lean nor SMT lines rests on these alone.",
        "",
    ]
    for c in REGISTRY:
        lines += [f"## {c.id}: {c.paper}", "", c.statement, ""]
        lines.append("- **Lean (every size):** " + (", ".join(f"`{n}`" for n in c.lean) if c.lean else "none."))
        if c.smt:
            facts = _EXP_FACTS.get(c.id)
            lines.append(
                "- **SMT (bounded):**"
                + (f" exp abstraction facts {facts} of smt/core.py." if facts else " plain polynomial arithmetic (no exp)." if c.id in ("C",) else "")
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
        lines.append(f"- **Not covered:** {_NOT_COVERED.get(c.id, 'see above.')}")
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
