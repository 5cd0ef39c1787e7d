"""Each statement check's encoded domain, compared with the domain its claim states (``spec.claims.Claim.domains``).

A proof is only as wide as its hypotheses: an encoding whose hypotheses leave out part of the
claim's domain (a variable's lower bound raised, the negative case of a prefix sum dropped) still
comes back "proved", for less than the ledger says.  So every statement check (``Expect.PROVED``)
names, in the claim registry, the domain the claim states for its variables, as Z3 constraints in
Python syntax over the encoding's variable names (``"D >= 0", "D <= n - 1"``; the size is the
check's ``size_label``; a key with ``*``, ``?`` or ``[`` is an ``fnmatch`` pattern, ``A_[0-9]*``,
whose constraints use ``var`` for each matching variable; the names ``And``, ``Or``, ``Not``, ``If``,
``Implies``, ``integer`` (an integer variable, whichever sort a query gives it) and the preset's
settings are available), and ``domain_problems`` checks, on the queries the check really asked
(``CheckRun.queries``), that no point of the stated domain is left out:

* the domain variables of a query are the stated names it mentions; its *domain hypotheses* are
  those of its hypotheses that mention no other variable (definitions and case hypotheses that
  involve anything else are the claim's own business and are not compared);
* queries with the same domain variables (same sorts) and the same name but for its numbers form a
  group, whose union covers what the group proves (a case split, such as S's sign cases ``S_n4_k1``,
  ``S_n4_k2``, is one group; queries of different statements are not pooled); a point that satisfies the
  stated constraints and the negation of every query's domain hypotheses in the group is a part
  of the claim's domain that nothing proved, and is reported with the check's name, the size,
  the point, and the encoded hypotheses that exclude it;
* a stated variable that no query mentions is reported too (the encoding does not have it).

``checks.families.smt`` runs this after every statement check and fails the check's row on any
problem ("domain narrowed"); ``tests/smt/test_smt_domains.py`` plants narrowed encodings.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Mapping
from typing import Any

import z3

from hardsoft.smt.check import Expect, SmtCheck
from hardsoft.smt.core import QueryRecord, find_model, free_constants
from hardsoft.smt.runs import CheckRun

#: Seconds per comparison query (tiny queries: a few variables, linear or polynomial).
DOMAIN_TIMEOUT_S: float = 10.0


def integer(x: z3.ExprRef) -> z3.BoolRef:
    """Return ``integer(x)`` of the stated constraints: the variable ranges over the integers.

    Only documentation for Z3: the comparison runs over the query's own sort, and over the reals
    (the real step of a lemma-then-claim proof) it compares the larger domain, which can only find
    more left out; the integer facts such a step assumes are lemmas proved by an earlier query of
    the same size (dropped from the comparison, see ``domain_problems``).
    """
    return z3.BoolVal(True)


#: The Z3 names a stated constraint may use.
_Z3_NAMES: dict[str, Any] = {"And": z3.And, "Or": z3.Or, "Not": z3.Not, "If": z3.If, "Implies": z3.Implies, "integer": integer}


def stated_domain(check: SmtCheck) -> Mapping[str, tuple[str, ...]] | None:
    """Return the domain the check's claim states for it (``Claim.domains[check.name]``), None if it states none."""
    from hardsoft.spec.claims import get_claim

    return get_claim(check.claim).domains.get(check.name)


def _is_pattern(key: str) -> bool:
    """Return whether a stated key is a pattern (``fnmatch``: ``A_[0-9]*``) rather than one variable's name."""
    return any(ch in key for ch in "*?[")


def _matches(key: str, name: str) -> bool:
    """Return whether the variable ``name`` is the stated key, or matches it when the key is a pattern."""
    return fnmatch.fnmatchcase(name, key) if _is_pattern(key) else name == key


def _stated_constraints(
    stated: Mapping[str, tuple[str, ...]], consts: Mapping[str, z3.ExprRef], env: Mapping[str, Any]
) -> tuple[list[z3.BoolRef], list[str], set[str]]:
    """Return (constraints, their texts, domain variable names) of the stated domain over a query's variables ``consts``.

    A constraint naming a variable the query does not have is skipped (it is another query's).
    """
    out: list[z3.BoolRef] = []
    texts: list[str] = []
    names: set[str] = set()
    for key, constraints in stated.items():
        for name in [n for n in consts if _matches(key, n)]:
            names.add(name)
            for text in constraints:
                ns = {**_Z3_NAMES, **env, **consts, "var": consts[name]}
                try:
                    expr = eval(text, {"__builtins__": {}}, ns)  # noqa: S307 - the claim registry's own texts
                except NameError:
                    continue
                out.append(expr)
                texts.append(re.sub(r"\bvar\b", name, text) if _is_pattern(key) else text)
    return out, texts, names


def _group_problems(
    check: SmtCheck, size: int, group: list[tuple[QueryRecord, list[z3.BoolRef]]], stated_exprs: list[z3.BoolRef], texts: list[str]
) -> list[str]:
    """Return the problem of one group of queries (same domain variables): a stated point no query's domain hypotheses admit."""
    negations = [z3.Not(z3.And(hyps)) if hyps else z3.BoolVal(False) for _rec, hyps in group]
    answer, model = find_model([*stated_exprs, *negations], DOMAIN_TIMEOUT_S)
    where = f"{check.size_label} = {size}" if not check.symbolic else "every n"
    if answer == "unsat":
        return []
    names = ", ".join(r.name for r, _ in group[:3]) + (" ..." if len(group) > 3 else "")
    if model is None:
        return [f"{check.name}: the encoded domain could not be compared with the claim's at {where} (queries {names}): Z3 unknown"]
    point = ", ".join(f"{d.name()} = {model[d]}" for d in sorted(model.decls(), key=lambda d: d.name()))
    rec, hyps = group[0]
    excluded = [str(h) for h in hyps if z3.is_false(model.eval(h, model_completion=True))]
    return [
        f"{check.name}: the encoding leaves out part of the claim's domain at {where}: {point} is in the claim's domain "
        f"({'; '.join(texts)}) but the encoded hypotheses {'; '.join(excluded) or '(of every case)'} exclude it (query {rec.name})"
    ]


def _text(e: z3.BoolRef, printed: dict[int, str]) -> str:
    """Return str(e), printed once per expression (printing a large claim is slow)."""
    return printed.setdefault(e.get_id(), str(e))


def domain_problems(check: SmtCheck, run: CheckRun, settings: Mapping[str, Any] | None = None) -> list[str]:
    """Return how the check's queries (``run.queries``) leave out part of the domain its claim states (empty: none).

    Only statement checks are compared (a refutation may search a narrower region on purpose), and
    only when their claim states a domain for them (that every statement check's claim does is
    ``checks.registry.validate_registry``'s, which fails every run otherwise).
    """
    stated = stated_domain(check)
    asked = any(r.kind == "prove" for recs in run.queries.values() for r in recs)
    if check.expect is not Expect.PROVED or stated is None or not asked:
        # nothing to compare: a refutation, a check whose claim states no domain (checks.registry.validate_registry
        # refuses that in every run), or a run that asked no query
        return []
    env = dict(settings or {})
    seen: set[str] = set()
    problems: list[str] = []
    reported: set[tuple[Any, ...]] = set()  # one problem per group (its first size), not one per size
    for size, recs in sorted(run.queries.items()):
        if not check.symbolic:
            env[check.size_label] = size
        groups: dict[tuple[Any, ...], tuple[list[z3.BoolRef], list[str], list[tuple[QueryRecord, list[z3.BoolRef]]]]] = {}
        # the claims of this size's earlier queries (lemmas, not assumptions: dropped from the comparison), kept with
        # their variables' names; printed (str) only when they could match a domain hypothesis
        proved: list[tuple[frozenset[str], z3.BoolRef]] = []
        printed: dict[int, str] = {}

        for rec in recs:
            if rec.kind != "prove":
                continue
            hyps = rec.assertions[:-1]
            per_hyp = [free_constants([h]) for h in hyps]
            consts = {c.decl().name(): c for cs in per_hyp for c in cs}
            exprs, texts, names = _stated_constraints(stated, consts, env)
            negated = rec.assertions[-1]
            if names:
                seen |= names
                lemmas = [claim for vs, claim in proved if vs <= names]
                domain_hyps = [
                    h
                    for h, cs in zip(hyps, per_hyp)
                    if all(c.decl().name() in names for c in cs) and not any(_text(h, printed) == _text(claim, printed) for claim in lemmas)
                ]
                key = (re.sub(r"\d+", "#", rec.name), *sorted((n, str(consts[n].sort())) for n in names))
                groups.setdefault(key, (exprs, texts, []))[2].append((rec, domain_hyps))
            if z3.is_not(negated):
                claim = negated.arg(0)
                proved.append((frozenset(c.decl().name() for c in free_constants([claim])), claim))
        for key, (exprs, texts, group) in groups.items():
            if key not in reported and (found := _group_problems(check, size, group, exprs, texts)):
                reported.add(key)
                problems += found
    missing = [k for k in stated if not any(_matches(k, n) for n in seen)]
    problems += [f"{check.name}: the claim's domain names {k}, which no query of the encoding has" for k in missing]
    return problems


__all__ = ["DOMAIN_TIMEOUT_S", "domain_problems", "stated_domain"]
