"""S-RASP, verification by exhaustion: the compiled transformer against the interpreter on every word up to a length, every cell.

A cell is one definition (or the square of an integer the model holds, or the output
symbol) at one position of one word in one mode.  Hard mode (average-hard attention)
must reproduce every cell exactly; soft mode, at the program's temperature
``Compiled.tau(n)``, must hold every value within ``SOFT_TOLERANCE`` of the
interpreter's (the margin every compiled comparison and clean-up decodes with),
and the output symbol exactly.  Any wrong cell fails the verdict.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from hardsoft.constructive.srasp.compiler import Compiled, compile_program
from hardsoft.constructive.srasp.interpreter import interpret, outputs_of
from hardsoft.constructive.srasp.language import Program
from hardsoft.spec import transformer as tf

#: How far a soft-mode value may lie from the interpreter's: the compiled FFNs decode integers and Booleans within 1/4.
SOFT_TOLERANCE = 0.25
#: Words per batch of the transformer runs (bounds the memory of one run).
BATCH = 2048
#: Mismatches kept in a result (all are counted).
KEEP = 50


@dataclass(frozen=True)
class Mismatch:
    """One wrong cell: the word, the mode, the definition (name, name^2 or 'output'), the position, the interpreter's and the model's value."""

    word: str
    mode: str
    name: str
    position: int
    want: float
    got: float


@dataclass(frozen=True)
class VerifyResult:
    """The verdict of one exhaustive run: words and cells checked, every wrong cell counted (the first KEEP kept), the time taken."""

    program: str
    max_len: int
    words: int
    cells: int
    mismatch_count: int
    mismatches: tuple[Mismatch, ...]
    seconds: float

    @property
    def ok(self) -> bool:
        """Return whether every cell agreed."""
        return self.mismatch_count == 0

    def summary(self) -> str:
        """Return a one-line summary."""
        head = f"{self.program}: {self.words} words of length 1..{self.max_len}, {self.cells} cells, hard and soft"
        if self.ok:
            return f"{head}: all agree ({self.seconds:.2f} s)"
        m = self.mismatches[0]
        first = f"{m.mode} {m.name} at position {m.position} of {m.word!r}: want {m.want}, got {m.got:.6g}"
        return f"{head}: {self.mismatch_count} wrong cells; first: {first}"


def _alphabet(prog: Program, alphabet: Sequence[str] | None) -> tuple[str, ...]:
    """Return the symbols to enumerate (the program's by default); ValueError for a symbol outside it."""
    if alphabet is None:
        return prog.alphabet
    al = tuple(alphabet)
    bad = [a for a in al if a not in prog.alphabet]
    if not al or bad or len(set(al)) != len(al):
        raise ValueError(f"the alphabet to verify over must be distinct symbols of the program's {prog.alphabet}, got {al}")
    return al


@dataclass
class _Tally:
    """Running counts of one verification: words, cells, wrong cells, the first KEEP mismatches."""

    words: int = 0
    cells: int = 0
    count: int = 0
    kept: list[Mismatch] = field(default_factory=list)


def _check_modes(modes: Sequence[str]) -> None:
    """Refuse a mode other than hard and soft."""
    for m in modes:
        if m not in ("hard", "soft"):
            raise ValueError(f"modes are hard and soft, got {m!r}")


def _check_batch(comp: Compiled, batch: list[str], modes: Sequence[str], temperature: Callable[[int], float], tally: _Tally) -> None:
    """Compare every cell of a batch of words of one length, in each mode, and add to the tally."""
    prog = comp.program
    n = len(batch[0])
    index = {a: k for k, a in enumerate(prog.alphabet)}
    want = [interpret(prog, w) for w in batch]
    outs = [outputs_of(prog, v) for v in want]
    table = {name: np.array([v[name] for v in want], dtype=float) for name in want[0]}
    table.update({f"{name}^2": table[name] ** 2 for name in comp.squares})
    table["output"] = np.array([[prog.symbols.index(s) for s in o] for o in outs], dtype=float)
    codes = np.array([[index[c] for c in w] for w in batch], dtype=np.int64)
    for mode in modes:
        acts = tf.run(comp.model, codes, "average" if mode == "hard" else "soft", None if mode == "hard" else temperature(n)).activations
        got = comp.values(acts)
        got.update(comp.square_values(acts))
        got["output"] = comp.readout(acts[-1]).astype(float)
        for name, wv in table.items():
            tol = SOFT_TOLERANCE if mode == "soft" and name != "output" else 0.0
            bad = np.abs(wv - got[name]) > tol
            tally.cells += wv.size
            tally.count += int(bad.sum())
            for b, i in np.argwhere(bad)[: max(0, KEEP - len(tally.kept))]:
                tally.kept.append(Mismatch(batch[b], mode, name, int(i), float(wv[b, i]), float(got[name][b, i])))
    tally.words += len(batch)


def verify_compiled(
    comp: Compiled,
    max_len: int,
    alphabet: Sequence[str] | None = None,
    modes: Sequence[str] = ("hard", "soft"),
    tau: Callable[[int], float] | None = None,
) -> VerifyResult:
    """Return the verdict of a compiled program against its interpreter on every word of length 1..max_len, every cell, in each mode.

    Soft mode runs at tau(n), by default the program's own temperature ``Compiled.tau``.
    """
    if not isinstance(max_len, int) or isinstance(max_len, bool) or not 1 <= max_len <= 12:
        raise ValueError(f"max_len must be an integer in 1..12, got {max_len!r}")
    _check_modes(modes)
    al = _alphabet(comp.program, alphabet)
    start, tally = time.perf_counter(), _Tally()
    for n in range(1, max_len + 1):
        every = ["".join(w) for w in itertools.product(al, repeat=n)]
        for lo in range(0, len(every), BATCH):
            _check_batch(comp, every[lo : lo + BATCH], modes, comp.tau if tau is None else tau, tally)
    return VerifyResult(comp.program.name, max_len, tally.words, tally.cells, tally.count, tuple(tally.kept), time.perf_counter() - start)


def verify_sampled(comp: Compiled, n: int, count: int, seed: int = 0, modes: Sequence[str] = ("hard", "soft")) -> VerifyResult:
    """Return the verdict on `count` words of length n drawn uniformly (numpy seed), every cell, in each mode, at ``Compiled.tau(n)``.

    Evidence beyond the exhaustive lengths (the temperature's derivation is a sketch for every n), not a proof.
    """
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 4096 or not isinstance(count, int) or count < 1:
        raise ValueError(f"verify_sampled needs 1 <= n <= 4096 and count >= 1, got n = {n!r}, count = {count!r}")
    _check_modes(modes)
    rng = np.random.default_rng(seed)
    al = comp.program.alphabet
    words = ["".join(al[k] for k in row) for row in rng.integers(0, len(al), size=(count, n))]
    start, tally = time.perf_counter(), _Tally()
    step = max(1, BATCH // n)
    for lo in range(0, count, step):
        _check_batch(comp, words[lo : lo + step], modes, comp.tau, tally)
    return VerifyResult(comp.program.name, n, tally.words, tally.cells, tally.count, tuple(tally.kept), time.perf_counter() - start)


def verify_program(program: Program, alphabet: Sequence[str] | None, max_len: int) -> VerifyResult:
    """Return the verdict of compile_program(program) against the interpreter on every word over alphabet (None: the program's) up to max_len."""
    if not isinstance(program, Program):
        raise ValueError(f"verify_program needs a Program, got {type(program).__name__}")
    return verify_compiled(compile_program(program), max_len, alphabet)
