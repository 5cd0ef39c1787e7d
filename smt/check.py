"""One SMT check, defined in one place: ``SmtCheck`` holds everything the family, the trust ledger and the second solvers need.

How to add an SMT check
-----------------------
Edit one file: the encoding module of the statement (smt/e_softmax.py, z_ziggurat.py,
s_lipschitz.py, p_layer.py, c_composition.py, errata.py, heads.py or prec_rounding.py).  Next to the Z3 encoding, write
the runner (a module-level function ``settings, keep_dir -> CheckRun``, usually a call of the
module's ``check_*`` function) and, if cvc5 should give an opinion, a module-level builder
``size, settings -> [(label, SMT-LIB 2 text, expected "sat"/"unsat")]``; then append one
``SmtCheck`` to the module's ``CHECKS`` tuple with these fields:

* ``name`` ("smt.<claim>.<what>", unique), ``claim`` (an id of spec.claims.REGISTRY),
  ``expect`` (``Expect.PROVED`` for a statement, ``Expect.TWIN`` for a wrong twin,
  ``Expect.ERRATUM`` for a printed form of the paper that is false; twins and errata must come
  back refuted with every countermodel replayed in the spec);
* ``run`` (the runner) and ``presets`` (per preset name of spec.presets.PRESET_NAMES, the
  settings handed to the runner and the second solvers; the keys are listed in SETTINGS);
* ``size_label``, ``min_size``, ``max_size`` (the sizes the runner accepts) and, when it does
  not run every size ``min_size..bound``, ``sizes`` (settings -> the sizes it runs); a statement
  over a SYMBOLIC size (n an unbounded integer of the queries) is ``symbolic``: one query set,
  recorded as size 1 (min_size = max_size = bound = 1), that covers every size at once;
* ``cover`` (what varies besides the size, what is fixed, what the proof assumes or, for a
  refutation, notes), ``z3_only`` (what the second solver cannot confirm, and why),
  ``cvc5`` (the builder above), ``cost_rank`` (scheduling: lower runs first);
* ``assumes`` (the lemmas the proof takes from other checks: the check is at most UNDECIDED
  unless each lemma is proved in the same run up to the size it needs), ``reformulation``
  (an equivalent re-proof for Yices when it cannot decide the original queries) and
  ``ledger_coverage`` (the ledger's text of the coverage when it depends on the presets).

smt/registry.py validates the definitions on import.  A new encoding module is added once to
its ``MODULES``.  checks/families/smt.py runs every check of smt.registry.CHECKS and
checks/trust.py lists them; neither names a check.  The one index outside smt/ is the claim's
``smt`` tuple in spec/claims.py (spec/ cannot import smt/), read by the traceability table of
the README and the report: add the name there as well; checks/registry.py
(tests/checks/test_registry.py) fails when the two disagree either way.  A statement check
(``Expect.PROVED``) also needs the domain its claim states for the check's variables, in the
claim's ``domains`` (``smt/domains.py`` says how it is written): after every run the family
compares the queries the check really asked with it and fails the check ("domain narrowed") when
the encoding leaves part of it out (tests/smt/test_smt_domains.py).  Then run
``make trust-doc`` (docs/trust.md is generated from these definitions).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from hardsoft.smt.core import Verdict
from hardsoft.smt.runs import CheckRun

#: Settings a preset may give a check (anything else is a typo, refused by smt.registry).
SETTINGS: frozenset[str] = frozenset(
    {
        "bound",  # largest size
        "timeout",  # s per Z3 query
        "budget",  # s per check, then "unknown"
        "explore",  # sizes beyond the bound, for the scaling table only
        "every",  # ERR1: every size up to the bound instead of the ladder
        "n_head",  # P: head-step positions
        "heads",  # P: heads H of the composition
        "ffn_widths",  # P: FFN widths
        "n_keys_max",  # P: key positions N of the composition (None = every N)
        "weight_box",  # P, ERR3: |weights| <= box
        "act_box",  # P, ERR3: activations X <= box
        "cvc5",  # sizes given to cvc5
        "cvc5_timeout",  # s per cvc5 query
        "yices",  # sizes ("all" or a list) whose decided queries go to Yices
        "yices_bound",  # add the largest size run to the Yices sizes (default True)
        "yices_timeout",  # s per Yices query
        "yices_budget",  # s per check for Yices
        "yices_original",  # with a reformulation: sizes whose ORIGINAL queries go to Yices too
        "yices_original_timeout",  # with a reformulation: s per original query
    }
)

#: Every check's settings must give these.
REQUIRED_SETTINGS: frozenset[str] = frozenset({"bound", "timeout", "budget", "cvc5", "cvc5_timeout"})

#: A cvc5 query: (label, SMT-LIB 2 text, the answer that agrees with the check: "unsat" or "sat").
Cvc5Query = tuple[str, str, str]

#: cost_rank of a check with no measured cost (scheduled after the ranked ones, in registry order).
UNRANKED: int = 1000


class Expect(str, Enum):
    """Return what a check is expected to show: a statement proved, or a wrong twin or an erratum refuted."""

    PROVED = "proved"
    TWIN = "wrong twin"
    ERRATUM = "erratum"

    @property
    def verdict(self) -> str:
        """Return the CheckRun verdict this expectation asks for: "proved" or "refuted"."""
        return "proved" if self is Expect.PROVED else "refuted"


@dataclass(frozen=True)
class Coverage:
    """What a check covers besides its size: varied parameters (name -> range), fixed ones, and
    what the proof assumes (for a refutation: notes on the search)."""

    varied: Mapping[str, str] = field(default_factory=dict)
    fixed: Mapping[str, str] = field(default_factory=dict)
    assumed: tuple[str, ...] = ()


@dataclass(frozen=True)
class Lemma:
    """A statement a check's proof assumes, taken from another check of the same run.

    check -- the name of the check that proves the lemma
    label -- the lemma's short name in texts ("S")
    needs -- the settings key (of the assuming check) giving the largest size the lemma is
             needed at; a value of None there means every size, which no bounded run covers
    """

    check: str
    label: str
    needs: str


@dataclass(frozen=True)
class Reformulation:
    """An equivalent re-proof of a check's queries for the second solver, when it cannot decide the originals.

    what  -- one sentence: what the reformulated queries are
    prove -- (size, timeout s, keep_dir, first) -> the Z3 verdicts of the reformulated queries at that
             size (every query is logged, so the same texts go to Yices); first is True at the first size
    """

    what: str
    prove: Callable[[int, float, Path | None, bool], list[Verdict]]


@dataclass(frozen=True)
class SmtCheck:
    """Everything about one SMT check (see the module docstring for each field)."""

    name: str
    claim: str
    expect: Expect
    run: Callable[[Mapping[str, Any], Path | None], CheckRun]
    presets: Mapping[str, Mapping[str, Any]]
    size_label: str
    min_size: int
    max_size: int
    cover: Coverage = Coverage()
    z3_only: str = ""
    cvc5: Callable[[int, Mapping[str, Any]], list[Cvc5Query]] | None = None
    cost_rank: int = UNRANKED
    assumes: tuple[Lemma, ...] = ()
    reformulation: Reformulation | None = None
    sizes: Callable[[Mapping[str, Any]], list[int]] | None = None
    symbolic: bool = False
    ledger_coverage: Callable[[Mapping[str, Mapping[str, Any]]], str] | None = None

    @property
    def expected(self) -> str:
        """Return the CheckRun verdict this check must reach: "proved" or "refuted"."""
        return self.expect.verdict

    def planned_sizes(self, settings: Mapping[str, Any]) -> list[int]:
        """Return the sizes the runner runs with these settings (if nothing stops it early)."""
        if self.sizes is not None:
            return self.sizes(settings)
        return list(range(self.min_size, int(settings["bound"]) + 1))

    def cvc5_queries(self, settings: Mapping[str, Any]) -> list[Cvc5Query]:
        """Return the cvc5 queries of this check at the sizes settings["cvc5"] (none without a builder)."""
        return [q for n in settings.get("cvc5", []) for q in self.cvc5(n, settings)] if self.cvc5 is not None else []


__all__ = ["Coverage", "Cvc5Query", "Expect", "Lemma", "Reformulation", "SETTINGS", "SmtCheck", "UNRANKED"]
