"""The trusted kernel of the SMT checks: one ``prove``, three verdicts, and how exp is handled.

Verdicts (style note 5, after knuckledragger's ``prove``)
==========================================================
``prove(hyps, claim)`` asserts the hypotheses and the NEGATION of the claim and asks Z3:

* ``unsat``   -> ``proved``: no assignment satisfies the hypotheses and violates the claim;
* ``sat``     -> ``refuted``: the model is returned as exact rationals (and floats) so that a
  replay (smt/replay.py) can rebuild a concrete instance and confirm it in the spec;
* ``unknown`` / timeout -> ``unknown``: the query is written to an .smt2 file and kept.
  Unknown is NEVER counted as proved.

Non-vacuity (part of every proving query): an ``unsat`` is reported ``proved`` only after the
SAME hypotheses WITHOUT the negated claim were checked satisfiable (a witness model found, its
values kept in ``Verdict.witness``).  Hypotheses that are themselves unsat give ``vacuous``;
hypotheses Z3 cannot decide give ``hypotheses undecided``; neither is ever ``proved``.
Every decided query is also appended to the query log (``query_log``), so that a second solver
(smt/solvers/yices.py) can be given the exact assertions Z3 decided.

``search(hyps, violation)`` is the same call for a refutation search: it asserts the
violation itself (already negated) and reports ``refuted`` on sat.

How the exponential is handled (the ONE place this is stated)
=============================================================
Z3 has no usable exp (its built-in answers ``unknown`` on trivial monotone queries) and
polynomial Taylor/Pade encodings time out from a handful of terms.  Every check therefore
uses *abstraction variables* that stand for values of exp, constrained only by facts that
the real exponential satisfies:

``E_j`` stands for ``exp((s_j - s_max)/tau)`` (scores written as differences to the max),
``x`` stands for ``exp(-gamma/tau)`` and ``P_k`` for ``x^(k-1)`` (defined exactly by the
polynomial chain ``P_1 = 1, P_(k+1) = x P_k``).  The facts used, each a true property of
exp on the reals:

(F1) positivity: ``E_j > 0``, ``0 < x < 1`` (gamma > 0, tau > 0);
(F2) normalisation: ``E_j = 1`` when ``s_j = s_max``;
(F3) monotonicity at the gap: ``s_max - s_j >= gamma  ->  E_j <= x``;
(F4) ziggurat form of (F3): ``s_(1) - s_(k) >= (k-1) gamma  ->  E_(k) <= x^(k-1) = P_k``
     (exp is increasing and exp(-(k-1)gamma/tau) = x^(k-1));
(F5) ratio facts for statement S: ``exp((b_j - a_j)/tau)`` lies in ``[1/y, y]`` with
     ``y = exp(delta)``, ``delta = ||a - b||_inf / tau`` (so the softmax ratios ``q_j/p_j`` lie
     in ``[lambda/y, lambda y]`` for one ``lambda > 0``), and the logarithmic mean inequality
     ``ln y >= 2 (y - 1)/(y + 1)`` for ``y >= 1`` (proof: both sides vanish at y = 1 and the
     derivative of the difference is ``(y-1)^2 / (y (y+1)^2) >= 0``);
(F6) for erratum 1: ``e^{+t} e^{-t} = 1`` and ``e^{+t} >= 1 + t`` for ``t = gamma/tau > 0``;
(F7) the logarithm, for a temperature rule (claim ZU): ``exp(-ln y) = 1/y`` for ``y > 0``.  A variable
     ``L`` stands for ``ln y`` (``y = 16 m``: the compiler's ``1/c`` and ``K``); where the rule's
     hypotheses give ``gamma = L tau``, ``x = exp(-gamma/tau) = exp(-L)`` is ``1/y``, stated as
     ``gamma = L tau -> y x = 1``.

Soundness argument.  Take any real instance of a statement (real scores, tau > 0, gap gamma,
...).  Interpret every abstraction variable by the real value it stands for
(``E_j := exp((s_j - s_max)/tau)``, ``x := exp(-gamma/tau)``, ``L := ln y``, ...).  Each fact (F1)-(F7) holds
under this interpretation because it is a true property of the real exponential, and every
other constraint of the query is a verbatim (polynomial, cross-multiplied by a positive
denominator) transcription of the statement's hypotheses and definitions.  Hence every real
instance that violated the statement would give a model of the abstract query "hypotheses and
facts and NOT claim".  So if Z3 answers ``unsat`` for that query, no real instance violates the
statement: ``proved`` on the abstraction implies the statement for all real instances covered
by the query's bounds (length n, size m of the max set, depth L, dimension d, boxes).

The converse fails: the abstraction has more models than the reals (e.g. ``E_j`` need not
equal exp of anything consistent with the other variables), so a ``sat`` answer is only a
*candidate* countermodel.  That is why every refutation is turned back into concrete numbers
(scores ``s_j = tau ln E_j``, ``gamma = -tau ln x``, ...) and replayed in the spec; a
refutation that does not replay is reported as FAILED, never as a confirmed counterexample.
Refutation searches may add facts that hold with equality in the real model they build
(e.g. ``E_j = x`` at the staircase, or an UPPER bound on ``ln y`` such as
``ln y <= (y - 1/y)/2``), which only shrinks the search space and makes replays robust.

Nothing else about exp is assumed anywhere in smt/.  cvc5 (smt/solvers/cvc5.py) is run on
the same statements with its native ``exp`` as an independent second opinion.
"""

from __future__ import annotations

import math
import os
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import z3

from hardsoft.spec.validate import require_positive

#: Largest per-query timeout accepted, in seconds (an hour: anything larger is a typo).
MAX_TIMEOUT_S: float = 3600.0

PROVED = "proved"
REFUTED = "refuted"
UNKNOWN = "unknown"
#: A proving query whose hypotheses are unsatisfiable (the "proof" would hold for nothing).
VACUOUS = "vacuous"
#: A proving query whose negated claim is unsat but whose hypotheses Z3 could not show satisfiable.
HYPS_UNDECIDED = "hypotheses undecided"
#: Statuses that mean "no decision" (never proved, never refuted).
UNDECIDED_STATUSES = (UNKNOWN, HYPS_UNDECIDED)


@dataclass
class QueryRecord:
    """One decided solver query, as asserted: for a second solver and for non-vacuity statistics.

    kind       -- "prove" (hyps AND NOT claim) or "search" (hyps AND violation)
    assertions -- the exact Z3 assertions of the decided query
    status     -- the Verdict status reported for it
    expect     -- the check-sat answer Z3 gave: "unsat", "sat" or "unknown"
    witness    -- for a proving query: floats of a model of the hypotheses alone ({} if none)
    """

    name: str
    kind: str
    assertions: list[Any]
    status: str
    expect: str
    witness: dict[str, float] = field(default_factory=dict)
    non_vacuous: bool = False
    seconds: float = 0.0
    witness_seconds: float = 0.0
    model: dict[str, str] = field(default_factory=dict)


_QUERY_LOG: list[QueryRecord] | None = None


class query_log:
    """Context manager collecting the QueryRecord of every prove/search call made inside it.

    ``with query_log() as log: ...`` -- log is a list, filled in call order.  Nested logs are
    not supported (the inner one replaces the outer one until it exits).
    """

    def __enter__(self) -> list[QueryRecord]:
        global _QUERY_LOG
        self._saved = _QUERY_LOG
        self.records: list[QueryRecord] = []
        _QUERY_LOG = self.records
        return self.records

    def __exit__(self, *exc: Any) -> None:
        global _QUERY_LOG
        _QUERY_LOG = self._saved


_DRY_RUN: bool = False


class dry_run:
    """Context manager in which ``prove`` and ``search`` only record their queries (nothing is solved).

    Inside it every ``prove`` returns "proved" and every ``search`` "unknown" at once, after logging
    the QueryRecord it would have decided; the records of a check's run (``CheckRun.queries``) then
    show exactly what the check asks, for ``smt.domains``, which compares the encoded hypotheses with
    the claim's stated domain without paying for the proofs.  Never used for a verdict.
    """

    def __enter__(self) -> None:
        global _DRY_RUN
        self._saved = _DRY_RUN
        _DRY_RUN = True

    def __exit__(self, *exc: Any) -> None:
        global _DRY_RUN
        _DRY_RUN = self._saved


def _log(rec: QueryRecord) -> None:
    """Append rec to the active query log, if any."""
    if _QUERY_LOG is not None:
        _QUERY_LOG.append(rec)


@dataclass
class Verdict:
    """Return value of one solver query: status, time, and the countermodel or kept .smt2 file.

    status  -- "proved" (negation unsat), "refuted" (sat) or "unknown" (incl. timeout)
    seconds -- wall-clock time of the check-sat call
    model   -- on "refuted": variable name -> exact value as a string ("3/4", or a decimal
               approximation for algebraic numbers, marked with a trailing "?")
    values  -- the same model as floats
    smt2    -- on "unknown": path of the kept .smt2 file
    reason  -- Z3's reason for unknown, if any
    witness -- on "proved": a model of the hypotheses alone (floats), the non-vacuity witness
    """

    status: str
    seconds: float
    model: dict[str, str] = field(default_factory=dict)
    values: dict[str, float] = field(default_factory=dict)
    smt2: str | None = None
    reason: str = ""
    witness: dict[str, float] = field(default_factory=dict)


def check_size(name: str, value: Any, maximum: int, minimum: int = 1) -> int:
    """Return value as an int after checking minimum <= value <= maximum (ValueError naming the bound)."""
    if isinstance(value, bool) or not isinstance(value, (int,)) and not (isinstance(value, float) and value.is_integer()):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    v = int(value)
    if v < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {v}")
    if v > maximum:
        raise ValueError(f"{name} = {v} exceeds the documented maximum {maximum} for this check")
    return v


def check_timeout(timeout_s: Any) -> float:
    """Return the per-query timeout in seconds after checking 0 < timeout <= MAX_TIMEOUT_S."""
    t = require_positive("timeout", timeout_s, allow_inf=True)
    if t > MAX_TIMEOUT_S:
        raise ValueError(f"timeout {t} s exceeds the maximum {MAX_TIMEOUT_S} s")
    return t


def check_box(name: str, value: Any, maximum: float = 1e6) -> Fraction:
    """Return a positive box half-width as an EXACT Fraction after checking 0 < value <= maximum.

    The conversion never shrinks the box: an int, Fraction, Decimal or decimal string is taken exactly, a
    float by its exact binary value (Fraction(float) is exact), so the box proved over is the one
    asked for, to the last bit.  A value that is not a finite number > 0 is refused (ValueError).
    """
    if isinstance(value, bool):
        raise ValueError(f"{name} must be a number, got {value!r}")
    try:
        if isinstance(value, (int, Fraction, Decimal)):
            if isinstance(value, Decimal) and not value.is_finite():
                raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
            fr = Fraction(value)
        elif isinstance(value, str):
            fr = Fraction(value.strip())
        else:
            v = float(value)
            if math.isnan(v) or math.isinf(v):
                raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
            fr = Fraction(v)
    except (TypeError, ValueError, ZeroDivisionError, OverflowError) as e:
        if "finite number" in str(e):
            raise
        raise ValueError(f"{name} must be a number, got {value!r}") from None
    if fr <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    if fr > maximum:
        raise ValueError(f"{name} = {float(fr)} exceeds the documented maximum {maximum}")
    return fr


def _value_to_str_and_float(v: z3.ExprRef) -> tuple[str, float]:
    """Return an exact string and a float for a Z3 model value (rational or algebraic)."""
    if z3.is_rational_value(v):
        fr = Fraction(v.numerator_as_long(), v.denominator_as_long())
        return (f"{fr.numerator}/{fr.denominator}" if fr.denominator != 1 else str(fr.numerator)), float(fr)
    if z3.is_algebraic_value(v):
        d = v.approx(30).as_decimal(30).rstrip("?")
        return d + "?", float(Fraction(d))
    if z3.is_int_value(v):
        return str(v.as_long()), float(v.as_long())
    if z3.is_true(v) or z3.is_false(v):
        return str(z3.is_true(v)), float(z3.is_true(v))
    s = str(v)
    try:
        return s, float(Fraction(s))
    except ValueError:
        return s, float("nan")


def model_values(model: z3.ModelRef) -> tuple[dict[str, str], dict[str, float]]:
    """Return (exact strings, floats) for every constant of a Z3 model."""
    exact: dict[str, str] = {}
    floats: dict[str, float] = {}
    for d in model.decls():
        if d.arity() != 0:
            continue
        s, f = _value_to_str_and_float(model[d])
        exact[d.name()] = s
        floats[d.name()] = f
    return exact, floats


def _safe(name: str) -> str:
    """Return a file-system-safe version of a query name."""
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", name)


def _solve(assertions: list[z3.BoolRef], timeout_s: float, name: str, keep_dir: Path | None, engine: str = "nra") -> Verdict:
    """Return the verdict of check-sat on the assertions, read as 'sat = refuted'.

    engine "nra": Z3's QF_NRA solver (nlsat, with equation-solving preprocessing);
    engine "smt": Z3's plain smt tactic WITHOUT preprocessing, so that named sub-terms
    (atoms with definitions) are kept and linear reasoning over lemma instances stays linear.
    """
    t = check_timeout(timeout_s)
    if engine not in ("nra", "smt"):
        raise ValueError(f"unknown engine {engine!r}")
    s = z3.SolverFor("QF_NRA") if engine == "nra" else z3.Tactic("smt").solver()
    s.set("timeout", max(1, int(t * 1000)))
    s.add(*assertions)
    t0 = time.perf_counter()
    r = s.check()
    dt = time.perf_counter() - t0
    if r == z3.unsat:
        return Verdict(PROVED, dt)
    if r == z3.sat:
        exact, floats = model_values(s.model())
        return Verdict(REFUTED, dt, model=exact, values=floats)
    path = None
    if keep_dir is not None:
        keep_dir = Path(keep_dir)
        keep_dir.mkdir(parents=True, exist_ok=True)
        p = keep_dir / f"{_safe(name)}.smt2"
        p.write_text(f"; {name}: unknown after {dt:.2f} s ({s.reason_unknown()})\n" + s.to_smt2())
        path = str(p)
    return Verdict(UNKNOWN, dt, smt2=path, reason=s.reason_unknown())


def find_model(assertions: list[z3.BoolRef], timeout_s: float) -> tuple[str, z3.ModelRef | None]:
    """Return ("sat", a model), ("unsat", None) or ("unknown", None) for the assertions (Z3's general engine).

    Not a proof and never one: for comparisons ABOUT encodings (``smt.domains``: a point of a claim's
    domain that an encoding's hypotheses exclude); solved even inside ``dry_run``, and not logged.
    """
    s = z3.Tactic("smt").solver()  # mixed integer/real with If: the default QF_NRA choice gives up here
    s.set("timeout", max(1, int(check_timeout(timeout_s) * 1000)))
    s.add(*assertions)
    r = s.check()
    if r == z3.sat:
        return "sat", s.model()
    return ("unsat", None) if r == z3.unsat else ("unknown", None)


#: Non-vacuity witnesses by the hypotheses' exact SMT-LIB text (the same hypotheses, e.g. of S's
#: facts queries, are shown satisfiable once per process).
_WITNESS_CACHE: dict[tuple[str, ...], Verdict] = {}


def prove(
    hyps: Iterable[z3.BoolRef],
    claim: z3.BoolRef,
    *,
    timeout_s: float,
    name: str,
    keep_dir: Path | None = None,
    engine: str = "nra",
    witness_hint: Iterable[z3.BoolRef] = (),
) -> Verdict:
    """Return "proved" iff hyps AND NOT claim is unsat AND hyps alone are satisfiable (witness kept).

    ``witness_hint``: extra constraints (e.g. "these variables are 0") added ONLY to the
    satisfiability check of the hypotheses, to help Z3 find a model; a model of hyps AND hint
    is a model of hyps, so a hint can never make a vacuous query look non-vacuous.

    "refuted" with the model if hyps AND NOT claim is sat; "unknown" (.smt2 kept) if undecided;
    "vacuous" if the negation is unsat because the hypotheses are unsat; "hypotheses undecided"
    if the negation is unsat but Z3 cannot decide the hypotheses alone.  Only "proved" is a proof.
    """
    hyps = list(hyps)
    query = hyps + [z3.Not(claim)]
    if _DRY_RUN:
        _log(QueryRecord(name, "prove", query, PROVED, "unsat"))
        return Verdict(PROVED, 0.0)
    v = _solve(query, timeout_s, name, keep_dir, engine)
    t_query, t_w = v.seconds, 0.0
    if v.status == PROVED:
        t0 = time.perf_counter()
        hint = list(witness_hint)
        key = tuple(h.sexpr() for h in hyps)
        w = _WITNESS_CACHE.get(key)  # the very same hypotheses already shown satisfiable in this process
        if w is None:
            w = _solve(hyps + hint, timeout_s, f"{name}_hyps", keep_dir, engine)
            if w.status != REFUTED and hint:  # the hint may be too strong: try the hypotheses alone
                w = _solve(hyps, timeout_s, f"{name}_hyps", keep_dir, engine)
            if w.status == REFUTED:
                if len(_WITNESS_CACHE) > 512:
                    _WITNESS_CACHE.clear()
                _WITNESS_CACHE[key] = w
        if w.status == REFUTED:  # sat: the hypotheses have a model, the proof is not vacuous
            v.witness = w.values
        elif w.status == PROVED:  # unsat hypotheses
            v = Verdict(VACUOUS, v.seconds + w.seconds, reason="the hypotheses are unsatisfiable")
        else:
            v = Verdict(HYPS_UNDECIDED, v.seconds + w.seconds, smt2=w.smt2, reason=f"satisfiability of the hypotheses undecided ({w.reason})")
        t_w = time.perf_counter() - t0
    expect = {PROVED: "unsat", VACUOUS: "unsat", HYPS_UNDECIDED: "unsat", REFUTED: "sat"}.get(v.status, "unknown")
    _log(QueryRecord(name, "prove", query, v.status, expect, dict(v.witness), non_vacuous=v.status == PROVED, seconds=t_query, witness_seconds=t_w))
    return v


def search(
    hyps: Iterable[z3.BoolRef],
    violation: z3.BoolRef,
    *,
    timeout_s: float,
    name: str,
    keep_dir: Path | None = None,
) -> Verdict:
    """Return "refuted" with the model iff hyps AND violation is sat (a countermodel search), "proved" if unsat.

    (A search's "refuted" carries its own model of the hypotheses, so it is never vacuous.)
    """
    query = list(hyps) + [violation]
    if _DRY_RUN:
        _log(QueryRecord(name, "search", query, UNKNOWN, "unknown"))
        return Verdict(UNKNOWN, 0.0, reason="dry run")
    v = _solve(query, timeout_s, name, keep_dir)
    expect = {PROVED: "unsat", REFUTED: "sat"}.get(v.status, "unknown")
    _log(QueryRecord(name, "search", query, v.status, expect, seconds=v.seconds, model=dict(v.model)))
    return v


def to_smt2(hyps: Iterable[z3.BoolRef], claim: z3.BoolRef) -> str:
    """Return the SMT-LIB2 text of 'hyps AND NOT claim' (for cvc5 on polynomial queries), under (set-logic ALL)."""
    s = z3.Solver()
    s.add(*list(hyps), z3.Not(claim))
    return "(set-logic ALL)\n" + s.to_smt2()


def declare_reals(names: Iterable[str]) -> str:
    """Return SMT-LIB 2 declare-fun lines for real constants (for the native-exp texts given to cvc5)."""
    return "".join(f"(declare-fun {n} () Real)" for n in names)


def R(v: Any) -> z3.ArithRef:
    """Return an exact Z3 real constant from an int, Fraction or float."""
    fr = Fraction(v) if not isinstance(v, Fraction) else v
    return z3.RealVal(f"{fr.numerator}/{fr.denominator}")


def Abs(e: z3.ArithRef) -> z3.ArithRef:
    """Return |e| as an if-then-else term."""
    return z3.If(e >= 0, e, -e)


def reals(prefix: str, n: int) -> list[z3.ArithRef]:
    """Return n fresh real constants prefix_0 .. prefix_(n-1)."""
    return [z3.Real(f"{prefix}_{i}") for i in range(n)]


def cpu_count() -> int:
    """Return the number of cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover
        return os.cpu_count() or 1


def search_to_smt2(hyps: Iterable[z3.BoolRef], violation: z3.BoolRef) -> str:
    """Return the SMT-LIB2 text of 'hyps AND violation' (a countermodel search, for cvc5), under (set-logic ALL)."""
    s = z3.Solver()
    s.add(*list(hyps), violation)
    return "(set-logic ALL)\n" + s.to_smt2()


def free_constants(exprs: Iterable[z3.ExprRef]) -> list[z3.ArithRef]:
    """Return the uninterpreted constants (of any sort: Real, Int, Bool) occurring in exprs, in first-seen order."""
    seen: dict[str, z3.ArithRef] = {}
    todo = list(exprs)
    visited: set[int] = set()
    while todo:
        e = todo.pop()
        if e.get_id() in visited:
            continue
        visited.add(e.get_id())
        if z3.is_const(e) and e.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            seen.setdefault(e.decl().name(), e)
        else:
            todo.extend(e.children())
    return list(seen.values())


def Sum(terms: Iterable[z3.ArithRef]) -> z3.ArithRef:
    """Return the sum of terms (0 if empty, the term itself if one: cvc5 rejects a one-argument '+')."""
    ts = list(terms)
    if not ts:
        return z3.RealVal(0)
    return ts[0] if len(ts) == 1 else z3.Sum(ts)
