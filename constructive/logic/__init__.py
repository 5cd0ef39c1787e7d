"""Temporal logic compiled to transformers (docs/temporal-logic.md).

parse / str round-trip, subformulas, the reference evaluator (evaluate,
evaluate_batch), and compile_formula -> CompiledFormula (a Model in the project's
format, hard and soft, bounded or unbounded position embeddings).
"""

from __future__ import annotations

from hardsoft.constructive.logic.compiler import REGIMES, CompiledFormula, Readout, compile_formula
from hardsoft.constructive.logic.selfcheck import check_compiled
from hardsoft.constructive.logic.semantics import accepts, evaluate, evaluate_batch
from hardsoft.constructive.logic.syntax import (
    And,
    Atom,
    Compare,
    Const,
    Count,
    First,
    Formula,
    Last,
    LinExpr,
    Mod,
    Next,
    Not,
    Or,
    Pos,
    Prev,
    Since,
    Until,
    children,
    depth,
    parse,
    size,
    subformulas,
    symbols,
)

__all__ = [
    "And",
    "Atom",
    "Compare",
    "Const",
    "Count",
    "First",
    "Formula",
    "Last",
    "LinExpr",
    "Mod",
    "Next",
    "Not",
    "Or",
    "Pos",
    "Prev",
    "Since",
    "Until",
    "children",
    "parse",
    "size",
    "depth",
    "subformulas",
    "symbols",
    "accepts",
    "evaluate",
    "evaluate_batch",
    "REGIMES",
    "CompiledFormula",
    "Readout",
    "compile_formula",
    "check_compiled",
]
