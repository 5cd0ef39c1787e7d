"""Exhaustive verification: a model, run in hard and in soft mode, against a reference on EVERY string of lengths 1..N.

A ``VerificationTarget`` is anything with a model, a temperature schedule tau(n),
a reference ``reference(inputs) -> (batch, n, k) bool`` written independently of
the model, and a ``decode(activations) -> (batch, n, k) bool`` that reads the same
k Boolean coordinates off the model's last activations.  The engine runs the
model on every string of every length 1..N, once with the model's hard attention
(``model.hard_mode``; per-head modes where the model has them) and once with
softmax at tau(n), and compares every coordinate at every position, and the
accepted set (``accept``, by default the last coordinate at the last position),
with the reference.

The work is split into independent chunks: a chunk is one length n and one
prefix of length p, and stands for the |Sigma|^(n-p) strings that extend the
prefix.  Chunks are grouped into tasks of about ``chunk_strings`` strings and
run serially, in a local process pool (``concurrent.futures``, the default for
runs large enough to be worth it) or on a Dask cluster (``dask.distributed``)
when a scheduler address or a ``Client`` is given.  The target is serialized
once with cloudpickle (so closures and lambdas travel too) and deserialized once
per worker process.

Nothing here decides what is correct: the reference does.  The engine only
enumerates, runs, compares and counts; its own tests check it against models with
a reference in plain Python and against deliberately wrong targets it must catch.
"""

from __future__ import annotations

import functools
import math
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from hardsoft.checks.engine.columns import evaluate_columns
from hardsoft.constructive import logic as lg
from hardsoft.spec import transformer as tf
from hardsoft.spec.transformer import Model
from hardsoft.spec.validate import require_positive

#: Strings per task by default: large enough that per-task overhead (a pickle, a scheduler round trip) is small,
#: small enough that a length-16 run over 2 workers splits into several tasks.
CHUNK_STRINGS: int = 2**13
#: Runs with fewer strings than this stay in the calling process (a process pool costs ~0.1 s to start).
LOCAL_POOL_MIN_STRINGS: int = 2**14
#: Counterexamples kept per mode.
MAX_COUNTEREXAMPLES: int = 5
#: Refuse runs estimated to take longer than this many seconds (override with max_seconds).
MAX_SECONDS_DEFAULT: float = 3600.0
#: Refuse outright beyond this many strings, before any estimate (2^32: no run of this engine gets there).
MAX_STRINGS: int = 2**32
#: The decoder tolerance of 0/1 coordinates read against the threshold 1/2.
BOOLEAN_TOLERANCE: float = 0.5
#: Verification modes.
MODES: tuple[str, ...] = ("hard", "soft")


def accept_last(table: np.ndarray) -> np.ndarray:
    """Return the accepted flags (batch,) of a (batch, n, k) Boolean table: the last coordinate at the last position."""
    return table[:, -1, -1]


def accept_any(table: np.ndarray) -> np.ndarray:
    """Return the accepted flags (batch,) of a (batch, n, k) Boolean table: any coordinate at any position."""
    return np.asarray(table.any(axis=(1, 2)))


@dataclass(frozen=True)
class VerificationTarget:
    """What the engine verifies: a model, tau(n), a reference and a decoder of the same k Boolean coordinates.

    name        -- shown in reports
    model       -- a spec.transformer.Model (hard mode: each head's own hard mode, else model.hard_mode)
    tau         -- n -> the softmax temperature at length n
    reference   -- (batch, n) int inputs -> (batch, n, k) bool, independent of the model
    decode      -- (batch, n, d) last-layer activations (with ``layers``: the list of every stage's) -> (batch, n, k) bool
    accept      -- (batch, n, k) bool -> (batch,) bool, the accepted flag read from a table
    coordinates -- optional names of the k coordinates (for counterexamples)
    tolerance   -- n -> the largest last-layer activation error (sup norm) that cannot flip a decoded
                   bit (1/2 for 0/1 coordinates read against 1/2); Theorem 26's table uses it
    layers      -- decode reads the list of every layer's activations (embedding first), not only the
                   last: a compiled model's coordinates serve several values in turn, each read where it
                   holds its value (constructive.residual.Residual.compact)
    numeric     -- the reference and decode tables are numbers (an S-RASP program's integers), not Booleans
    wrong       -- (reference, decoded, mode) -> (batch, n, k) bool, the wrong cells (default: the cells that differ)
    """

    name: str
    model: Model
    tau: Callable[[int], float]
    reference: Callable[[np.ndarray], np.ndarray]
    decode: Callable[[Any], np.ndarray]
    accept: Callable[[np.ndarray], np.ndarray] = accept_last
    coordinates: tuple[str, ...] | None = None
    tolerance: Callable[[int], float] = lambda n: BOOLEAN_TOLERANCE
    layers: bool = False
    numeric: bool = False
    wrong: Callable[[np.ndarray, np.ndarray, str], np.ndarray] | None = None


def target_from_compiled(compiled: Any, evaluator: str = "reference") -> VerificationTarget:
    """Return the target of a compiled formula (constructive.logic.CompiledFormula).

    evaluator "reference": constructive.logic.evaluate_batch (the semantics written out, slow);
    "vectorized": checks.engine.columns.evaluate_columns (numpy; tested against the reference
    operator by operator), for long runs.  Acceptance is the formula at the last
    position (the semantics' definition); the model's own read-out must read that
    same coordinate there (checked here).
    """
    if evaluator == "reference":
        evaluate_batch = lg.evaluate_batch
    elif evaluator == "vectorized":
        evaluate_batch = evaluate_columns
    else:
        raise ValueError(f"evaluator must be reference or vectorized, got {evaluator!r}")

    ro = compiled.readout
    if ro.position != "last" or ro.coordinate != compiled.coords[-1]:
        raise ValueError(f"{compiled.formula}: the read-out {ro} does not read the formula's coordinate at the last position")
    return VerificationTarget(
        name=str(compiled.formula),
        model=compiled.model,
        tau=compiled.tau,
        reference=functools.partial(_evaluate, evaluate_batch, compiled.formula, tuple(compiled.alphabet)),
        decode=compiled.decode,
        accept=accept_last,
        coordinates=tuple(str(g) for g in lg.subformulas(compiled.formula)),
        layers=True,
    )


def _evaluate(evaluate_batch: Callable, formula: Any, alphabet: tuple[str, ...], inputs: np.ndarray) -> np.ndarray:
    """Return the evaluator's table of every subformula (a module-level function: the target pickles with plain pickle too)."""
    return evaluate_batch(formula, inputs, alphabet)


# --------------------------------------------------------------------------- chunks


@dataclass(frozen=True)
class Chunk:
    """All strings of length n that start with prefix (symbol indices)."""

    n: int
    prefix: tuple[int, ...]

    def size(self, alphabet_size: int) -> int:
        """Return the number of strings of this chunk."""
        return alphabet_size ** (self.n - len(self.prefix))

    def inputs(self, alphabet_size: int) -> np.ndarray:
        """Return the chunk's strings as a (batch, n) int array, in lexicographic order."""
        free = self.n - len(self.prefix)
        count = alphabet_size**free
        idx = np.arange(count, dtype=np.int64)
        powers = alphabet_size ** np.arange(free - 1, -1, -1, dtype=np.int64)
        suffix = (idx[:, None] // powers[None, :]) % alphabet_size
        head = np.broadcast_to(np.asarray(self.prefix, dtype=np.int64), (count, len(self.prefix)))
        return np.concatenate([head, suffix], axis=1)


def require_length_bound(N: Any) -> int:
    """Return N as an int >= 1, or raise ValueError naming it."""
    if isinstance(N, bool):
        raise ValueError(f"the length bound N must be an integer >= 1, got {N!r}")
    return int(require_positive("the length bound N", N, integer=True))


def count_strings(alphabet_size: int, N: int) -> int:
    """Return the number of strings of lengths 1..N over an alphabet of the given size."""
    return sum(alphabet_size**n for n in range(1, N + 1))


def plan_chunks(alphabet_size: int, lengths: Iterable[int], chunk_strings: int = CHUNK_STRINGS) -> list[list[Chunk]]:
    """Return tasks (lists of chunks) covering every string of the given lengths exactly once, each about chunk_strings strings.

    A length with at most chunk_strings strings is one chunk (prefix ()); a longer
    one is split by its shortest prefix length p with |Sigma|^(n-p) <= chunk_strings.
    Consecutive small chunks share a task until it holds chunk_strings strings.
    """
    if alphabet_size < 1:
        raise ValueError("the alphabet is empty")
    s = alphabet_size
    tasks: list[list[Chunk]] = []
    current: list[Chunk] = []
    held = 0
    for n in sorted(set(lengths)):
        p = 0
        while s ** (n - p) > chunk_strings and p < n:
            p += 1
        for k in range(s**p):
            c = Chunk(n, tuple((k // s ** (p - 1 - t)) % s for t in range(p)))
            size = c.size(s)
            if current and held + size > chunk_strings:
                tasks.append(current)
                current, held = [], 0
            current.append(c)
            held += size
    if current:
        tasks.append(current)
    return tasks


# --------------------------------------------------------------------------- running one task


@dataclass
class ModeTally:
    """What one mode found over some strings: strings checked, strings with a wrong cell, wrong acceptances, wrong cells.

    A cell is one coordinate at one position of one string; a wrong string has at least one wrong cell.
    """

    strings: int = 0
    wrong_strings: int = 0
    wrong_accept: int = 0
    wrong_cells: int = 0
    counterexamples: list[dict[str, Any]] = field(default_factory=list)

    def add(self, other: ModeTally) -> None:
        """Add another tally into this one (counterexamples up to MAX_COUNTEREXAMPLES)."""
        self.strings += other.strings
        self.wrong_strings += other.wrong_strings
        self.wrong_accept += other.wrong_accept
        self.wrong_cells += other.wrong_cells
        room = MAX_COUNTEREXAMPLES - len(self.counterexamples)
        self.counterexamples += other.counterexamples[: max(room, 0)]

    @property
    def ok(self) -> bool:
        """Return whether every string agreed with the reference in every cell (every coordinate at every position) and in acceptance.

        A wrong inner cell fails the verdict even when acceptance is right: the engine verifies
        the whole table, not only the accepted set.
        """
        return self.wrong_cells == 0 and self.wrong_strings == 0 and self.wrong_accept == 0


@dataclass
class TaskResult:
    """The tallies of one task: per mode, per length; the accepted count per length; seconds spent."""

    tallies: dict[str, dict[int, ModeTally]]
    accepted: dict[int, int]
    seconds: float


def run_hard(model: Model, inputs: np.ndarray) -> np.ndarray:
    """Return the last activations of the model in its hard mode (each head its own hard mode, else the model's)."""
    return tf.run(model, inputs, "hard").activations[-1]


def run_soft(model: Model, inputs: np.ndarray, tau: float) -> np.ndarray:
    """Return the last activations of the model in soft mode at temperature tau."""
    return tf.run(model, inputs, "soft", tau=tau).activations[-1]


def run_decoded(target: VerificationTarget, inputs: np.ndarray, mode: str, tau: float | None = None) -> np.ndarray:
    """Return the target's decoded (batch, n, k) table of one run: hard (each head's own hard mode), or soft at tau."""
    trace = tf.run(target.model, inputs, "hard") if mode == "hard" else tf.run(target.model, inputs, "soft", tau=tau)
    table = np.asarray(target.decode(trace.activations if target.layers else trace.activations[-1]))
    return table if target.numeric else table.astype(bool)


def reference_table(target: VerificationTarget, inputs: np.ndarray) -> np.ndarray:
    """Return the target's reference table of a batch (Booleans, or numbers for a numeric target)."""
    table = np.asarray(target.reference(inputs))
    return table if target.numeric else table.astype(bool)


#: Words longer than this are shown by their ends in counterexamples (a sampled word can be 10,000 symbols long).
SHOWN_SYMBOLS = 64


def _word(inputs_row: np.ndarray, alphabet: Sequence[str]) -> str:
    """Return a word as text (symbols joined; with a space between symbols longer than one character); a long one by its ends."""
    sep = "" if all(len(a) == 1 for a in alphabet) else " "
    row = [int(v) for v in inputs_row]
    if len(row) <= SHOWN_SYMBOLS:
        return sep.join(alphabet[v] for v in row)
    half = SHOWN_SYMBOLS // 2
    head, tail = sep.join(alphabet[v] for v in row[:half]), sep.join(alphabet[v] for v in row[-half:])
    return f"{head}...{tail} ({len(row):,} symbols)"


def compare(target: VerificationTarget, inputs: np.ndarray, ref: np.ndarray, got: np.ndarray, mode: str) -> ModeTally:
    """Return the tally of a decoded table against the reference table on a batch of one length."""
    if got.shape != ref.shape:
        raise ValueError(f"{target.name}: decode gives shape {got.shape}, the reference {ref.shape}")
    bad = np.asarray(target.wrong(ref, got, mode) if target.wrong is not None else got != ref, dtype=bool)
    wrong_row = bad.any(axis=(1, 2))
    acc_bad = target.accept(got) != target.accept(ref)
    t = ModeTally(strings=int(inputs.shape[0]), wrong_strings=int(wrong_row.sum()), wrong_accept=int(acc_bad.sum()), wrong_cells=int(bad.sum()))
    for b in np.flatnonzero(wrong_row | acc_bad)[:MAX_COUNTEREXAMPLES]:
        cells = np.argwhere(bad[b])
        i, k = (int(cells[0][0]), int(cells[0][1])) if len(cells) else (-1, -1)
        name = target.coordinates[k] if target.coordinates and k >= 0 else k
        t.counterexamples.append(
            {
                "mode": mode,
                "word": _word(inputs[b], target.model.alphabet),
                "n": int(inputs.shape[1]),
                "position": i,
                "coordinate": name,
                "expected": (ref[b, i, k].item() if target.numeric else bool(ref[b, i, k])) if k >= 0 else None,
                "accept_expected": target.accept(ref[b : b + 1])[0].item(),
                "accept_got": target.accept(got[b : b + 1])[0].item(),
            }
        )
    return t


def run_task(target: VerificationTarget, chunks: Sequence[Chunk], modes: Sequence[str] = MODES) -> TaskResult:
    """Return the tallies of one task: every chunk's strings through the reference and each mode."""
    t0 = time.perf_counter()
    s = len(target.model.alphabet)
    by_len: dict[int, list[Chunk]] = {}
    for c in chunks:
        by_len.setdefault(c.n, []).append(c)
    tallies: dict[str, dict[int, ModeTally]] = {m: {} for m in modes}
    accepted: dict[int, int] = {}
    for n, cs in by_len.items():
        w = np.concatenate([c.inputs(s) for c in cs])
        ref = reference_table(target, w)
        accepted[n] = int(np.asarray(target.accept(ref)).sum())
        for m in modes:
            got = run_decoded(target, w, m, float(target.tau(n)) if m == "soft" else None)
            tallies[m].setdefault(n, ModeTally()).add(compare(target, w, ref, got, m))
    return TaskResult(tallies, accepted, time.perf_counter() - t0)


# Worker side: the target arrives as cloudpickle bytes and is unpickled once per process.


@functools.lru_cache(maxsize=4)
def _load(blob: bytes) -> VerificationTarget:
    """Return the target serialized in blob (cached per worker process)."""
    import cloudpickle

    return cloudpickle.loads(blob)


def run_task_blob(blob: bytes, chunks: Sequence[Chunk], modes: Sequence[str]) -> TaskResult:
    """Return run_task on the target serialized in blob (the function a worker runs)."""
    return run_task(_load(blob), chunks, modes)


# --------------------------------------------------------------------------- the report


@dataclass
class VerificationReport:
    """The outcome of verifying one target on every string of lengths 1..N."""

    name: str
    N: int
    alphabet: tuple[str, ...]
    modes: tuple[str, ...]
    strings: int
    per_mode: dict[str, ModeTally]
    per_length: dict[int, dict[str, Any]]
    backend: str
    workers: int
    tasks: int
    seconds: float
    task_seconds: float
    #: a sampled run's lengths, words per length (adversarial families, uniform sample) and seed; None: every string up to N
    sampled: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        """Return whether every mode agreed with the reference on every string."""
        return all(t.ok and t.strings == self.strings for t in self.per_mode.values())

    def summary(self) -> str:
        """Return one line: what was verified and the verdict."""
        parts = []
        for m, t in self.per_mode.items():
            wrong = f"{t.wrong_strings} wrong string(s) ({t.wrong_cells} wrong cell(s)), {t.wrong_accept} wrong acceptance(s)"
            parts.append(f"{m}: {'all agree' if t.ok else wrong}")
        if self.sampled is not None:
            ls = self.sampled["lengths"]
            adv = "/".join(str(k) for k in sorted(set(self.sampled["adversarial"].values())))
            words = f"{adv} adversarial and {self.sampled['sample']} uniform words per length, seed {self.sampled['seed']}"
            span = f"length{'s' if len(ls) > 1 else ''} {', '.join(f'{n:,}' for n in ls)} ({words})"
            return (
                f"{self.name}: {self.strings} sampled strings of {span} over {{{', '.join(self.alphabet)}}}; "
                f"{'; '.join(parts)} ({self.seconds:.2f} s, {self.backend}, {self.tasks} task(s))\n  {SAMPLED_MEANING}"
            )
        span = f"lengths 1..{self.N}" if len(self.per_length) > 1 or self.N == 1 else f"length {self.N}"
        return (
            f"{self.name}: {self.strings} strings of {span} over {{{', '.join(self.alphabet)}}}; "
            f"{'; '.join(parts)} ({self.seconds:.2f} s, {self.backend}, {self.tasks} task(s))"
        )

    def to_json(self) -> dict[str, Any]:
        """Return the report as a JSON-ready dict."""
        return {
            "name": self.name,
            "N": self.N,
            "alphabet": list(self.alphabet),
            "modes": list(self.modes),
            "strings": self.strings,
            "ok": self.ok,
            "backend": self.backend,
            "workers": self.workers,
            "tasks": self.tasks,
            "seconds": self.seconds,
            "task_seconds": self.task_seconds,
            "per_mode": {
                m: {
                    "strings": t.strings,
                    "wrong_strings": t.wrong_strings,
                    "wrong_accept": t.wrong_accept,
                    "wrong_cells": t.wrong_cells,
                    "counterexamples": t.counterexamples,
                }
                for m, t in self.per_mode.items()
            },
            "per_length": {str(n): v for n, v in sorted(self.per_length.items())},
            "sampled": None if self.sampled is None else {**self.sampled, "meaning": SAMPLED_MEANING},
        }


def _merge(
    target: VerificationTarget, N: int, modes: Sequence[str], results: Sequence[TaskResult], backend: str, workers: int, seconds: float, total: int
) -> VerificationReport:
    """Return the report of a run from its task results."""
    per_mode = {m: ModeTally() for m in modes}
    per_length: dict[int, dict[str, Any]] = {}
    for r in results:
        for n, a in r.accepted.items():
            row = per_length.setdefault(n, {"strings": 0, "accepted": 0, **{m: ModeTally() for m in modes}})
            row["accepted"] += a
        for m, by_n in r.tallies.items():
            for n, t in by_n.items():
                per_mode[m].add(t)
                per_length[n][m].add(t)
    for n, row in per_length.items():
        row["strings"] = row[modes[0]].strings if modes else 0
        for m in modes:
            t = row[m]
            row[m] = {"wrong_strings": t.wrong_strings, "wrong_accept": t.wrong_accept, **({"tau": float(target.tau(n))} if m == "soft" else {})}
    return VerificationReport(
        target.name,
        N,
        tuple(target.model.alphabet),
        tuple(modes),
        total,
        per_mode,
        per_length,
        backend,
        workers,
        len(results),
        seconds,
        sum(r.seconds for r in results),
    )


# --------------------------------------------------------------------------- estimates


def estimate_seconds(target: VerificationTarget, N: int, modes: Sequence[str] = MODES, workers: int = 1, sample: int = 256) -> float:
    """Return an estimate of the wall-clock seconds of verifying every string of lengths 1..N.

    Times the reference and every mode on a sample of strings of length N (cost per
    string grows with n, so the length-N rate bounds the shorter lengths) and scales
    by the number of strings, divided over the workers.
    """
    s = len(target.model.alphabet)
    rng = np.random.default_rng(0)
    k = min(sample, s**N)
    w = rng.integers(0, s, size=(k, N))
    t0 = time.perf_counter()
    ref = reference_table(target, w)
    for m in modes:
        compare(target, w, ref, run_decoded(target, w, m, float(target.tau(N)) if m == "soft" else None), m)
    per_string = (time.perf_counter() - t0) / k
    return per_string * count_strings(s, N) / max(1, workers)


def _format_seconds(t: float) -> str:
    """Return seconds in a readable unit."""
    if t < 120:
        return f"{t:.3g} s"
    if t < 7200:
        return f"{t / 60:.3g} min"
    if t < 172800:
        return f"{t / 3600:.3g} h"
    return f"{t / 86400:.3g} days"


def check_feasible(
    target: VerificationTarget, N: int, modes: Sequence[str] = MODES, workers: int = 1, max_seconds: float = MAX_SECONDS_DEFAULT
) -> float:
    """Return the estimated seconds of a run, or raise ValueError naming the estimate when it exceeds max_seconds."""
    N = require_length_bound(N)
    s = len(target.model.alphabet)
    total = count_strings(s, N)
    if total > MAX_STRINGS:
        raise ValueError(f"N = {N}: {total:.4g} strings of lengths 1..{N} over {s} symbols (more than 2^32); this would not finish: lower N")
    est = estimate_seconds(target, N, modes, workers)
    if est > max_seconds:
        raise ValueError(
            f"N = {N}: {total} strings of lengths 1..{N}, estimated {_format_seconds(est)} on {workers} "
            f"worker(s), more than the limit {_format_seconds(max_seconds)}; lower N, add workers "
            f"(--workers, --scheduler) or raise the limit (--max-seconds)"
        )
    return est


# --------------------------------------------------------------------------- backends


def _dask_client(scheduler: Any, timeout: float) -> tuple[Any, bool]:
    """Return (client, owned): a given Client as is, or a new one connected to an address (ValueError if unreachable)."""
    try:
        from dask.distributed import Client
    except ImportError as e:  # pragma: no cover - the test extra installs it
        raise ValueError(f"--scheduler needs dask.distributed (pip install 'hardsoft[distributed]'): {e}") from None
    if isinstance(scheduler, Client):
        return scheduler, False
    try:
        return Client(str(scheduler), timeout=timeout, set_as_default=False), True
    except (OSError, TimeoutError, ValueError) as e:
        raise ValueError(f"cannot reach the Dask scheduler at {scheduler!r}: {e}".replace("\n", " ")) from None


def verify(
    target: VerificationTarget,
    N: int,
    *,
    modes: Sequence[str] = MODES,
    workers: int | None = None,
    scheduler: Any = None,
    chunk_strings: int = CHUNK_STRINGS,
    max_seconds: float | None = MAX_SECONDS_DEFAULT,
    connect_timeout: float = 5.0,
    only_N: bool = False,
) -> VerificationReport:
    """Return the report of running the target on every string of lengths 1..N in each mode, against its reference.

    only_N    -- every string of length N only (not the shorter lengths).

    workers   -- local processes (default: os.cpu_count(); 1 = in this process).  Small runs
                 (< LOCAL_POOL_MIN_STRINGS strings) stay in this process.
    scheduler -- a dask.distributed scheduler address ("tcp://host:8786") or Client: run the
                 tasks there instead (ValueError if it cannot be reached).
    max_seconds -- refuse (ValueError naming the estimate) runs estimated to take longer; None = no limit.
    """
    N = require_length_bound(N)
    for m in modes:
        if m not in MODES:
            raise ValueError(f"unknown verification mode {m!r}; expected hard and/or soft")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    s = len(target.model.alphabet)
    lengths = [N] if only_N else list(range(1, N + 1))
    total = sum(s**n for n in lengths)
    client = owned = None
    if scheduler is not None:
        client, owned = _dask_client(scheduler, connect_timeout)
    try:
        n_workers = (len(client.scheduler_info().get("workers", {})) or 1) if client is not None else (workers or os.cpu_count() or 1)
        if max_seconds is not None:
            check_feasible(target, N, modes, n_workers, max_seconds)
        elif total > MAX_STRINGS:
            check_feasible(target, N, modes, n_workers, math.inf)
        tasks = plan_chunks(s, lengths, chunk_strings)
        t0 = time.perf_counter()
        if client is not None:
            results, backend = _run_dask(client, target, tasks, modes), f"dask ({client.scheduler.address})"
        elif n_workers == 1 or total < LOCAL_POOL_MIN_STRINGS or len(tasks) == 1:
            results, backend, n_workers = [run_task(target, t, modes) for t in tasks], "serial", 1
        else:
            results, backend = _run_local(target, tasks, modes, n_workers), f"local pool ({n_workers} processes)"
        return _merge(target, N, modes, results, backend, n_workers, time.perf_counter() - t0, total)
    finally:
        if owned and client is not None:
            client.close()


def _blob(target: VerificationTarget) -> bytes:
    """Return the target serialized with cloudpickle."""
    import cloudpickle

    return cloudpickle.dumps(target)


def _run_local(target: VerificationTarget, tasks: list[list[Chunk]], modes: Sequence[str], workers: int) -> list[TaskResult]:
    """Return the task results of a local process pool."""
    from concurrent.futures import ProcessPoolExecutor

    blob = _blob(target)
    with ProcessPoolExecutor(max_workers=min(workers, len(tasks))) as pool:
        return list(pool.map(run_task_blob, [blob] * len(tasks), tasks, [tuple(modes)] * len(tasks)))


#: Largest serialized target sent inside each Dask task rather than scattered (bytes).
DASK_INLINE_BYTES = 1 << 20


def _run_dask(client: Any, target: VerificationTarget, tasks: list[list[Chunk]], modes: Sequence[str]) -> list[TaskResult]:
    """Return the task results computed on a Dask cluster.

    A target of at most ``DASK_INLINE_BYTES`` (every compiled formula seen so far: a few KiB)
    travels inside each task; a larger one is scattered once to every worker.  Inline is the
    default because a scattered key can be lost under load ("lost dependencies": seen once in
    the test suite on a busy 2-core machine), which cancels every task that needs it.
    """
    data = _blob(target)
    blob: Any = data if len(data) <= DASK_INLINE_BYTES else client.scatter(data, broadcast=True)
    futures = [client.submit(run_task_blob, blob, t, tuple(modes), pure=False) for t in tasks]
    return client.gather(futures)


# --------------------------------------------------------------------------- sampled long inputs
# Every string up to a length proves the model right up to that length; beyond, the engine can only sample.  A sampled
# run checks, at each length asked for, the adversarial families below and K words drawn uniformly (a seeded numpy
# generator per length), in hard and soft mode, every coordinate at every position: evidence, not proof.

#: Positions of the words of one sampled task (words x length): the run keeps every layer's activations of a task.
SAMPLE_CHUNK_POSITIONS: int = 2**15
#: What a sampled run is evidence for, and what is proved for every n (printed with every sampled report).
SAMPLED_MEANING = (
    "sampled lengths are evidence, not proof. Proved for every n (docs/trust.md): for a compiled formula or program, each "
    "head's gap and softmax mass bound at the compiler's temperature (Lean); not proved for any n: that the whole model equals "
    "its reference, which is checked on every word only up to the lengths run with --up-to; for a model file, nothing beyond "
    "the words run"
)


def adversarial_words(alphabet_size: int, n: int) -> np.ndarray:
    """Return the adversarial families of length n over symbols 0..s-1 (docs/verification.md, "Long inputs"), duplicates removed.

    - every position one symbol: s^n for each symbol (counts at their extremes, every key tied);
    - alternating: the symbols in turn, from each symbol (counts near balance: the sign heads' smallest |V|);
    - the selection at the far end: one symbol t at position 0 and s everywhere else, and t at position n - 1 (a
      tie-breaking head's only selected key as far from the other end's queries as it can be).
    """
    rows: list[list[int]] = [[a] * n for a in range(alphabet_size)]
    rows += [[(start + i) % alphabet_size for i in range(n)] for start in range(alphabet_size)]
    for a in range(alphabet_size):
        for t in range(alphabet_size):
            if a != t:
                rows.append([t] + [a] * (n - 1))
                rows.append([a] * (n - 1) + [t])
    unique = list(dict.fromkeys(tuple(r) for r in rows))
    return np.array(unique, dtype=np.int64).reshape(len(unique), n)


def sampled_words(alphabet_size: int, n: int, sample: int, seed: int) -> np.ndarray:
    """Return the words a sampled run checks at length n: the adversarial families, then ``sample`` uniform words (seeded per length)."""
    rng = np.random.default_rng([seed, n])
    return np.concatenate([adversarial_words(alphabet_size, n), rng.integers(0, alphabet_size, size=(sample, n))])


@dataclass(frozen=True)
class SampleChunk:
    """Words [start, stop) of the sampled list at length n (``sampled_words``): what one task checks."""

    n: int
    start: int
    stop: int
    sample: int
    seed: int

    def inputs(self, alphabet_size: int) -> np.ndarray:
        """Return the chunk's words as a (batch, n) int array."""
        return sampled_words(alphabet_size, self.n, self.sample, self.seed)[self.start : self.stop]


def plan_samples(
    alphabet_size: int, lengths: Sequence[int], sample: int, seed: int, chunk_positions: int = SAMPLE_CHUNK_POSITIONS
) -> list[SampleChunk]:
    """Return the tasks of a sampled run: at each length, its words in chunks of about chunk_positions positions."""
    tasks = []
    for n in lengths:
        total = len(adversarial_words(alphabet_size, n)) + sample
        step = max(1, chunk_positions // n)
        tasks += [SampleChunk(n, lo, min(total, lo + step), sample, seed) for lo in range(0, total, step)]
    return tasks


def run_sample_task(target: VerificationTarget, chunk: SampleChunk, modes: Sequence[str] = MODES) -> TaskResult:
    """Return the tallies of one sampled chunk: its words through the reference and each mode."""
    t0 = time.perf_counter()
    w = chunk.inputs(len(target.model.alphabet))
    ref = reference_table(target, w)
    tallies: dict[str, dict[int, ModeTally]] = {m: {} for m in modes}
    for m in modes:
        got = run_decoded(target, w, m, float(target.tau(chunk.n)) if m == "soft" else None)
        tallies[m][chunk.n] = compare(target, w, ref, got, m)
    return TaskResult(tallies, {chunk.n: int(np.asarray(target.accept(ref)).sum())}, time.perf_counter() - t0)


def run_sample_blob(blob: bytes, chunk: SampleChunk, modes: Sequence[str]) -> TaskResult:
    """Return run_sample_task on the target serialized in blob (the function a worker runs)."""
    return run_sample_task(_load(blob), chunk, modes)


#: The lengths a sampled run's time estimate measures one word at (the reference and each mode), before it extrapolates.
ESTIMATE_LENGTHS: tuple[int, int] = (128, 512)


def estimate_word_seconds(target: VerificationTarget, n: int, modes: Sequence[str] = MODES) -> float:
    """Return an estimate of the seconds one word of length n takes (the reference and each mode).

    Measured at ESTIMATE_LENGTHS (or at n itself when n is no longer) and extrapolated as a n + b n^2 through the two
    points (attention is quadratic in n, the rest linear); the fit errs high, since small runs carry fixed costs.
    """
    n1, n2 = (min(n, k) for k in ESTIMATE_LENGTHS)
    times = []
    for m in sorted({n1, n2}):
        t0 = time.perf_counter()
        run_sample_task(target, SampleChunk(m, 0, 1, 0, 0), modes)
        times.append((m, time.perf_counter() - t0))
    if len(times) == 1:
        return times[0][1] * (n / times[0][0]) ** 2
    (x1, t1), (x2, t2) = times
    b = max(0.0, (t2 / x2 - t1 / x1) / (x2 - x1))  # t = a x + b x^2: t/x = a + b x
    a = max(0.0, t1 / x1 - b * x1)
    return a * n + b * n * n


def require_lengths(lengths: Sequence[Any]) -> list[int]:
    """Return the lengths of a sampled run as distinct ints >= 1, in order (ValueError naming a bad one)."""
    out = []
    for n in lengths:
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ValueError(f"a sampled length must be an integer >= 1, got {n!r}")
        out.append(int(n))
    if not out:
        raise ValueError("give at least one length to sample")
    return list(dict.fromkeys(out))


def verify_sampled(
    target: VerificationTarget,
    lengths: Sequence[int],
    sample: int,
    *,
    seed: int = 0,
    modes: Sequence[str] = MODES,
    workers: int | None = None,
    scheduler: Any = None,
    chunk_positions: int = SAMPLE_CHUNK_POSITIONS,
    max_seconds: float | None = MAX_SECONDS_DEFAULT,
    connect_timeout: float = 5.0,
) -> VerificationReport:
    """Return the report of the adversarial families and ``sample`` uniform words at each length, in each mode, against the reference.

    Chunks of about ``chunk_positions`` positions run serially, on a local process pool (default:
    every core) or on a Dask cluster, as ``verify``'s tasks do.  Before running: the memory of the
    largest chunk is estimated and refused above the machine's (``spec.transformer.require_run_memory``),
    and the time is estimated from one word at each length and refused above ``max_seconds``.
    Sampled lengths are evidence, not proof (``SAMPLED_MEANING``).
    """
    lengths = require_lengths(lengths)
    if isinstance(sample, bool) or not isinstance(sample, (int, np.integer)) or sample < 0:
        raise ValueError(f"the number of sampled words must be an integer >= 0, got {sample!r}")
    for m in modes:
        if m not in MODES:
            raise ValueError(f"unknown verification mode {m!r}; expected hard and/or soft")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    s = len(target.model.alphabet)
    for n in lengths:
        target.model.require_length(n)
        tf.require_run_memory(target.model, max(1, min(chunk_positions // n, len(adversarial_words(s, n)) + sample)), n)
    tasks = plan_samples(s, lengths, int(sample), int(seed), chunk_positions)
    total = sum(t.stop - t.start for t in tasks)
    client = owned = None
    if scheduler is not None:
        client, owned = _dask_client(scheduler, connect_timeout)
    try:
        n_workers = (len(client.scheduler_info().get("workers", {})) or 1) if client is not None else (workers or os.cpu_count() or 1)
        if max_seconds is not None:
            est = sum(estimate_word_seconds(target, n, modes) * (len(adversarial_words(s, n)) + int(sample)) for n in lengths)
            est /= max(1, min(n_workers, len(tasks)))
            if est > max_seconds:
                raise ValueError(
                    f"{total} words of length{'s' if len(lengths) > 1 else ''} {', '.join(map(str, lengths))}: estimated "
                    f"{_format_seconds(est)} on {n_workers} worker(s), more than the limit {_format_seconds(max_seconds)}; "
                    "sample fewer words or shorter lengths, add workers (--workers, --scheduler) or raise the limit (--max-seconds)"
                )
        t0 = time.perf_counter()
        if client is not None:
            data = _blob(target)
            blob: Any = data if len(data) <= DASK_INLINE_BYTES else client.scatter(data, broadcast=True)
            futures = [client.submit(run_sample_blob, blob, t, tuple(modes), pure=False) for t in tasks]
            results, backend = client.gather(futures), f"dask ({client.scheduler.address})"
        elif n_workers == 1 or len(tasks) == 1:
            results, backend, n_workers = [run_sample_task(target, t, modes) for t in tasks], "serial", 1
        else:
            from concurrent.futures import ProcessPoolExecutor

            data = _blob(target)
            with ProcessPoolExecutor(max_workers=min(n_workers, len(tasks))) as pool:
                results = list(pool.map(run_sample_blob, [data] * len(tasks), tasks, [tuple(modes)] * len(tasks)))
            backend = f"local pool ({min(n_workers, len(tasks))} processes)"
        report = _merge(target, max(lengths), modes, results, backend, n_workers, time.perf_counter() - t0, total)
        adversarial = {n: len(adversarial_words(s, n)) for n in lengths}
        report.sampled = {"lengths": lengths, "sample": int(sample), "seed": int(seed), "adversarial": adversarial}
        return report
    finally:
        if owned and client is not None:
            client.close()


# --------------------------------------------------------------------------- the built-in examples as targets
# References in plain Python, one word at a time, written from the examples' docstrings (not from their weights).


def reference_has_a(inputs: np.ndarray) -> np.ndarray:
    """Return (batch, n, 1): at every position, whether the word contains an 'a' (symbol 0)."""
    rows = [[[any(v == 0 for v in w)] for _ in w] for w in np.asarray(inputs).tolist()]
    return np.array(rows, dtype=bool)


def decode_has_a(x: np.ndarray) -> np.ndarray:
    """Return has-a's output coordinate 2 read as a Boolean (> 1/2)."""
    return x[..., 2:3] > 0.5


def tau_has_a(n: int) -> float:
    """Return a temperature at which has-a decides every word of length n: one 'a' among n keeps weight > 1/2.

    Weight on one 'a' is e^(1/tau) / (e^(1/tau) + n - 1) > 1/2 iff 1/tau > ln(n - 1); 1/tau = ln(n) + 1 leaves room.
    """
    return 1.0 / (math.log(n) + 1.0)


def reference_last_a(inputs: np.ndarray) -> np.ndarray:
    """Return (batch, n, 1): whether position i holds the last 'a' of the word."""
    out = []
    for w in np.asarray(inputs).tolist():
        last = max((i for i, v in enumerate(w) if v == 0), default=None)
        out.append([[i == last] for i in range(len(w))])
    return np.array(out, dtype=bool)


def decode_last_a(x: np.ndarray) -> np.ndarray:
    """Return last-a read at each position i: it holds an 'a' and the copied position j/n is its own i/n (within 1/(2n))."""
    n = x.shape[1]
    return ((x[..., 0] > 0.5) & (np.abs(x[..., 3] - x[..., 2]) < 0.5 / n))[..., None]


def tau_last_a(n: int) -> float:
    """Return a temperature at which last-a copies j/n within 1/(2n): gap 1/n, mass off <= (n-1) e^(-1/(n tau)) < 1/(2n).

    That holds for 1/tau > n ln(2 n (n-1)); 1/tau = n (ln(2 n^2) + 1) leaves room.
    """
    return 1.0 / (n * (math.log(2.0 * n * n) + 1.0))


def example_targets() -> dict[str, VerificationTarget]:
    """Return the built-in examples (spec.examples) with plain-Python references, by name."""
    from hardsoft.spec.examples import build_has_a, build_last_a

    return {
        "has-a": VerificationTarget("has-a", build_has_a(), tau_has_a, reference_has_a, decode_has_a, coordinates=("has_a",)),
        "last-a": VerificationTarget(
            "last-a",
            build_last_a(),
            tau_last_a,
            reference_last_a,
            decode_last_a,
            accept=accept_any,
            coordinates=("is_last_a",),
            tolerance=lambda n: 0.5 / n,
        ),
    }
