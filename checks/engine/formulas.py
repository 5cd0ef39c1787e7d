"""The generated family of formulas, and the verification of many compiled formulas at once (``verify_formulas``).

The family (its speed target is in benchmarks/logic_family.py): every formula with up to ``k`` operators over the
leaves {a, b, first, last} and the operators ! Y X (unary) and & | S U (binary):
4 + 76 + 2,660 = 2,740 formulas with up to 2 operators.  ``sample_formulas``
draws a fixed sample with exactly 3 or 4 operators (fixed seed: the same formulas
every run).

``verify_formulas`` compiles every formula in each regime, runs the models that pad to one
shape as one stack (``checks.engine.stacked``) and compares every subformula at every
position with the vectorized evaluator (``checks.engine.columns.evaluate_columns``),
itself compared with ``constructive.logic.evaluate_batch`` on the short lengths.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from hardsoft.checks.engine import stacked as sk
from hardsoft.checks.engine.columns import evaluate_columns
from hardsoft.checks.engine.verify import Chunk, require_length_bound
from hardsoft.constructive import logic as lg

#: Leaves and operators of the generated family.
FAMILY_LEAVES: tuple[str, ...] = ("a", "b", "first", "last")
FAMILY_UNARY: tuple[str, ...] = ("!", "Y", "X")
FAMILY_BINARY: tuple[str, ...] = ("&", "|", "S", "U")
#: Seed of the fixed 3-4 operator sample.
SAMPLE_SEED: int = 20241209


def _leaf(name: str) -> lg.Formula:
    """Return the leaf formula of a name (a symbol, first or last)."""
    special: dict[str, lg.Formula] = {"first": lg.First(), "last": lg.Last()}
    return special.get(name) or lg.Atom(name)


def _unary(op: str, f: lg.Formula) -> lg.Formula:
    """Return the unary formula op f."""
    ops: dict[str, Callable[[lg.Formula], lg.Formula]] = {"!": lg.Not, "Y": lg.Prev, "X": lg.Next}
    return ops[op](f)


def _binary(op: str, f: lg.Formula, g: lg.Formula) -> lg.Formula:
    """Return the binary formula f op g."""
    ops: dict[str, Callable[[lg.Formula, lg.Formula], lg.Formula]] = {"&": lg.And, "|": lg.Or, "S": lg.Since, "U": lg.Until}
    return ops[op](f, g)


def formulas_with_ops(k: int, leaves: Sequence[str] = FAMILY_LEAVES) -> list[lg.Formula]:
    """Return every formula with exactly k operators (syntax trees; distinct trees give distinct formulas)."""
    table: list[list[lg.Formula]] = [[_leaf(x) for x in leaves]]
    for m in range(1, k + 1):
        row = [_unary(op, f) for op in FAMILY_UNARY for f in table[m - 1]]
        for left in range(m):
            right = m - 1 - left
            row += [_binary(op, f, g) for op in FAMILY_BINARY for f in table[left] for g in table[right]]
        table.append(row)
    return table[k]


def family(max_ops: int = 2, leaves: Sequence[str] = FAMILY_LEAVES) -> list[lg.Formula]:
    """Return every formula with up to max_ops operators, fewest operators first."""
    return [f for k in range(max_ops + 1) for f in formulas_with_ops(k, leaves)]


def _random_formula(rng: random.Random, ops: int, leaves: Sequence[str]) -> lg.Formula:
    """Return a uniformly shaped random formula with exactly ops operators."""
    if ops == 0:
        return _leaf(rng.choice(leaves))
    if rng.random() < len(FAMILY_UNARY) / (len(FAMILY_UNARY) + len(FAMILY_BINARY)):
        return _unary(rng.choice(FAMILY_UNARY), _random_formula(rng, ops - 1, leaves))
    left = rng.randrange(ops)
    return _binary(rng.choice(FAMILY_BINARY), _random_formula(rng, left, leaves), _random_formula(rng, ops - 1 - left, leaves))


def sample_formulas(
    count: int = 1000, ops: Sequence[int] = (3, 4), seed: int = SAMPLE_SEED, leaves: Sequence[str] = FAMILY_LEAVES
) -> list[lg.Formula]:
    """Return a fixed sample of count distinct formulas whose operator counts alternate over ops."""
    rng = random.Random(seed)
    out: list[lg.Formula] = []
    seen: set[lg.Formula] = set()
    for k in itertools.cycle(ops):
        if len(out) == count:
            break
        f = _random_formula(rng, k, leaves)
        if f not in seen:
            seen.add(f)
            out.append(f)
    return out


# --------------------------------------------------------------------------- verifying many formulas at once


#: Models per stack in the family verification.
STACK_MODELS: int = 64
#: Phases whose seconds the family verification reports.
PHASES: tuple[str, ...] = ("compile", "pad+stack", "evaluator", "hard", "soft", "decode+compare", "reference slice")


@dataclass
class FamilyReport:
    """The outcome of verifying many formulas: counts, the formulas that disagree, and where the time went.

    phase_seconds are CPU seconds summed over the processes; seconds is wall-clock time.
    """

    formulas: int
    N: int
    regimes: tuple[str, ...]
    modes: tuple[str, ...]
    runs: int  # formulas x regimes
    failures: list[dict[str, Any]]
    unsupported: list[dict[str, str]]
    stacks: int
    reference_slice: int
    phase_seconds: dict[str, float]
    seconds: float
    workers: int

    @property
    def ok(self) -> bool:
        """Return whether every compiled formula agreed with the evaluators in every regime and mode."""
        return not self.failures

    def to_json(self) -> dict[str, Any]:
        """Return the report as a JSON-ready dict."""
        return {
            **{k: getattr(self, k) for k in ("formulas", "N", "runs", "stacks", "reference_slice", "seconds", "workers")},
            "regimes": list(self.regimes),
            "modes": list(self.modes),
            "ok": self.ok,
            "failures": self.failures[:20],
            "failure_count": len(self.failures),
            "unsupported": self.unsupported[:20],
            "unsupported_count": len(self.unsupported),
            "phase_seconds": self.phase_seconds,
            "formulas_per_second": self.runs / self.seconds if self.seconds else None,
        }


def _verify_group(
    compiled: Sequence[Any], sliced: Sequence[bool], N: int, modes: Sequence[str], reference_slice: int, alphabet: tuple[str, ...]
) -> tuple[list[dict[str, Any]], dict[str, float], int]:
    """Return (failures, phase seconds, stacks) for compiled formulas of one padding key in one regime (a worker's job).

    sliced[k]: whether this job compares formula k's vectorized evaluation with the reference (once per formula).
    """
    clock = dict.fromkeys(PHASES, 0.0)
    t = time.process_time()  # CPU seconds of this process: comparable across loads of a shared machine

    def tick(phase: str) -> None:
        nonlocal t
        now = time.process_time()
        clock[phase] += now - t
        t = now

    st = sk.stack(sk.pad_models([c.model for c in compiled]))
    tick("pad+stack")
    # acceptance is read from the formula's own coordinate at the last position: the model's read-out must be that one
    failures: list[dict[str, Any]] = [
        {"formula": str(c.formula), "regime": c.regime, "mode": "readout", "detail": f"read-out {c.readout}"}
        for c in compiled
        if c.readout.position != "last" or c.readout.coordinate != c.coords[-1]
    ]
    seen: set[tuple[int, str]] = set()
    for n in range(1, N + 1):
        w = Chunk(n, ()).inputs(len(alphabet))
        cache: dict = {}
        refs = [evaluate_columns(c.formula, w, alphabet, cache) for c in compiled]
        tick("evaluator")
        if n <= reference_slice:
            for c, ref, yes in zip(compiled, refs, sliced):
                if yes and not (lg.evaluate_batch(c.formula, w, alphabet) == ref).all():
                    failures.append(
                        {
                            "formula": str(c.formula),
                            "regime": c.regime,
                            "mode": "evaluator",
                            "n": n,
                            "detail": "the vectorized evaluator disagrees with constructive.logic.evaluate_batch",
                        }
                    )
            tick("reference slice")
        for mode in modes:
            acts = sk.run_stacked(st, w, mode, [c.tau(n) for c in compiled] if mode == "soft" else None, every_layer=True)
            tick(mode)
            for k, (c, ref) in enumerate(zip(compiled, refs)):
                got = c.decode([a[k] for a in acts])
                bad = got != ref
                if bad.any() and (k, mode) not in seen:
                    seen.add((k, mode))
                    b, i, j = (int(v) for v in np.argwhere(bad)[0])
                    failures.append(
                        {
                            "formula": str(c.formula),
                            "regime": c.regime,
                            "mode": mode,
                            "n": n,
                            "word": "".join(alphabet[int(v)] for v in w[b]),
                            "position": i,
                            "subformula": str(lg.subformulas(c.formula)[j]),
                            "expected": bool(ref[b, i, j]),
                            "wrong_strings": int(bad.any(axis=(1, 2)).sum()),
                        }
                    )
            tick("decode+compare")
    return failures, clock, 1


def verify_formulas(
    formulas: Sequence[lg.Formula],
    N: int,
    regimes: Sequence[str] = ("bounded", "unbounded"),
    modes: Sequence[str] = ("hard", "soft"),
    workers: int = 1,
    reference_slice: int = 4,
    alphabet: Sequence[str] = ("a", "b"),
) -> FamilyReport:
    """Return the report of verifying every formula on every string of lengths 1..N, in each regime and mode.

    Each formula is compiled (constructive.logic.compile_formula) in each regime; formulas
    whose models pad to one shape run as one stack (checks.stacked); the decoded
    coordinates of every subformula at every position are compared with the
    vectorized evaluator, itself compared with constructive.logic.evaluate_batch on every
    string of lengths 1..reference_slice.  Groups run in a local process pool of
    ``workers`` processes (1 = in this process).  Formulas a regime does not
    support are listed, not counted as verified.
    """
    from concurrent.futures import ProcessPoolExecutor

    N = require_length_bound(N)
    alphabet = tuple(alphabet)
    t0 = time.perf_counter()
    jobs: list[tuple[list[Any], list[bool]]] = []
    unsupported: list[dict[str, str]] = []
    clock = dict.fromkeys(PHASES, 0.0)
    sliced: set[lg.Formula] = set()  # formulas whose evaluator slice is already assigned to a job
    for regime in regimes:
        groups: dict[tuple, list[tuple[tuple, int, Any]]] = {}
        tc = time.process_time()
        for i, f in enumerate(formulas):
            try:
                c = lg.compile_formula(f, alphabet=alphabet, regime=regime)
            except ValueError as e:
                unsupported.append({"formula": str(f), "regime": regime, "reason": str(e)})
                continue
            size = (c.model.d, tuple(layer.W1.shape[1] for layer in c.model.layers))
            groups.setdefault(sk.padding_key(c.model), []).append((size, i, c))
        clock["compile"] += time.process_time() - tc
        for members in groups.values():
            # split big groups so the pool has work to balance, models of similar width together (less padding);
            # STACK_MODELS models per stack keep the arrays within a few cache-friendly slices
            members.sort(key=lambda m: m[:2])
            for lo in range(0, len(members), STACK_MODELS):
                part = [c for _, _, c in members[lo : lo + STACK_MODELS]]
                flags = [c.formula not in sliced for c in part]
                sliced.update(c.formula for c in part)
                jobs.append((part, flags))
    jobs.sort(key=lambda j: -len(j[0]))
    args = [(part, flags, N, tuple(modes), reference_slice, alphabet) for part, flags in jobs]
    if workers == 1:
        results = [_verify_group(*a) for a in args]
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(_verify_group, *zip(*args)))
    failures: list[dict[str, Any]] = []
    for fs, ph, _ in results:
        failures += fs
        for k, v in ph.items():
            clock[k] += v
    return FamilyReport(
        len(formulas),
        N,
        tuple(regimes),
        tuple(modes),
        len(formulas) * len(regimes) - len(unsupported),
        failures,
        unsupported,
        len(jobs),
        reference_slice,
        clock,
        time.perf_counter() - t0,
        workers,
    )
