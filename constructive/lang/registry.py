"""The program languages a user can write: one ``Language`` entry each (name -> parse, format, interpret, to_model).

Every entry has the same five parts, so a command or a check that takes a program takes any
language by its name (``hardsoft compile --lang NAME``):

    parse(text) -> program            ValueError: line, column and what was expected; or the binding/type problem
    format(program) -> text           parse(format(p)) == p (property-tested)
    interpret(program, inputs, alphabet) -> {vector name: (batch, n) array}   the paper's definitions
    to_model(program, alphabet, regime) -> CompiledProgram                    one model, hard and soft

``via`` names the compiler: "tl" (the program becomes temporal-logic formulas, compiled by
``constructive.logic``; B-RASP and C-RASP) or "srasp" (S-RASP's own average-hard compiler,
``constructive.srasp``: its ``to_model`` returns a ``constructive.srasp.Compiled`` and its
verification is ``constructive.srasp.verify_program``; the program fixes its alphabet and the
regime is the compiler's own).

Adding a language is one entry in ``LANGUAGES``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from hardsoft.constructive import logic as lg
from hardsoft.constructive import srasp
from hardsoft.constructive.lang import brasp, crasp
from hardsoft.constructive.lang.program import CompiledProgram


@dataclass(frozen=True)
class Language:
    """One program language: its name, title, paper, library file suffix, and its parse / format / interpret / to_model."""

    name: str
    title: str
    paper: str
    suffix: str
    parse: Callable[[str], Any]
    format: Callable[[Any], str]
    interpret: Callable[[Any, np.ndarray, Sequence[str]], Mapping[str, np.ndarray]]
    to_model: Callable[[Any, Sequence[str], str], Any]
    #: the compiler: "tl" (through temporal-logic formulas: to_model returns a CompiledProgram) or "srasp" (its own)
    via: str = "tl"
    #: the same definitions evaluated numpy-wide, for long words (sampled verification); None: ``interpret`` serves
    interpret_columns: Callable[[Any, np.ndarray, Sequence[str]], Mapping[str, np.ndarray]] | None = None


def _tl_names(f: lg.Formula) -> tuple[str, ...]:
    """Return the name of every subformula (``lg.subformulas`` order): its text when its tree has at most LABEL_MAX_SYMBOLS
    symbols, else "#k Op (over ... symbols as text)" with k its index, as the compiler labels its coordinates.

    Naming each subformula of a chain by its full text would cost the sum of their lengths: quadratic in the formula.
    """
    from hardsoft.constructive.logic.compiler import LABEL_MAX_SYMBOLS, _tree_size

    sizes: dict[int, int] = {}
    return tuple(
        str(g) if _tree_size(g, sizes) <= LABEL_MAX_SYMBOLS else f"#{k} {type(g).__name__} (over {LABEL_MAX_SYMBOLS} symbols as text)"
        for k, g in enumerate(lg.subformulas(f))
    )


def _tl_interpret(f: lg.Formula, inputs: np.ndarray, alphabet: Sequence[str]) -> dict[str, np.ndarray]:
    """Return every subformula's truth values (the TL reference evaluator), keyed by the subformula's name (``_tl_names``)."""
    table = lg.evaluate_batch(f, np.atleast_2d(np.asarray(inputs)), tuple(alphabet))
    return {name: table[:, :, k] for k, name in enumerate(_tl_names(f))}


def _tl_to_model(f: lg.Formula, alphabet: Sequence[str], regime: str) -> CompiledProgram:
    """Return a formula compiled by the TL compiler, every subformula a compared vector (named by ``_tl_names``)."""
    c = lg.compile_formula(f, tuple(alphabet), regime)
    names = _tl_names(f)
    return CompiledProgram("tl", f, str(f), tuple(alphabet), regime, c, names, tuple(range(len(names))), _tl_interpret)


def _srasp_interpret(p: srasp.Program, inputs: np.ndarray, alphabet: Sequence[str]) -> dict[str, np.ndarray]:
    """Return every S-RASP sequence on a batch of words (symbol indices into alphabet), exact integers, word by word."""
    rows = [srasp.interpret(p, [alphabet[int(k)] for k in word]) for word in np.atleast_2d(np.asarray(inputs))]
    return {name: np.array([r[name] for r in rows]) for name in rows[0]}


def _srasp_to_model(p: srasp.Program, alphabet: Sequence[str], regime: str) -> srasp.Compiled:
    """Return the S-RASP compiler's model (its own encoding; the alphabet must be the program's, the regime is ignored)."""
    if tuple(alphabet) and tuple(alphabet) != p.alphabet:
        raise ValueError(f"the S-RASP program {p.name} declares the alphabet {','.join(p.alphabet)}; got --alphabet {','.join(alphabet)}")
    return srasp.compile_program(p)


LANGUAGES: dict[str, Language] = {
    "tl": Language(
        "tl",
        "temporal logic with since, until and counting",
        "Yang, Strobl, Chiang and Angluin, Simulating Hard Attention Using Soft Attention",
        ".tl",
        lg.parse,
        str,
        _tl_interpret,
        _tl_to_model,
    ),
    "brasp": Language(
        "brasp",
        "B-RASP: Boolean vectors and masked leftmost/rightmost hard attention",
        "Yang, Chiang and Angluin 2024, Masked hard-attention transformers recognize exactly the star-free languages",
        ".brasp",
        brasp.parse,
        brasp.format_program,
        brasp.interpret,
        brasp.compile_program,
        interpret_columns=brasp.interpret_columns,
    ),
    "crasp": Language(
        "crasp",
        "C-RASP: Boolean and count vectors, prefix counts, linear combinations and comparisons",
        "Yang and Chiang 2024, Counting like transformers: compiling temporal counting logic into softmax transformers",
        ".crasp",
        crasp.parse,
        crasp.format_program,
        crasp.interpret,
        crasp.compile_program,
        interpret_columns=crasp.interpret_columns,
    ),
    "srasp": Language(
        "srasp",
        "S-RASP: Boolean and integer vectors, prefix sums, position-wise arithmetic, aggregation with integer selectors",
        "Strobl, Angluin, Chiang, Rawski and Sabharwal 2025, Transformers as Transducers",
        ".srasp",
        srasp.parse_program,
        srasp.format_program,
        _srasp_interpret,
        _srasp_to_model,
        via="srasp",
    ),
}


def get_language(name: str) -> Language:
    """Return the language of a name, or raise ValueError listing the known ones."""
    if name not in LANGUAGES:
        raise ValueError(f"unknown language {name!r}; expected one of {', '.join(LANGUAGES)}")
    return LANGUAGES[name]
