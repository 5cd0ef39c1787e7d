"""What every program language shares: binding checks (once, no unbound name, no cycle) and the compiled program.

A program is a list of named vectors, each defined by one operation on other vectors, plus
an ``output`` vector read at the last position.  ``order_bindings`` checks that every name is
bound once, that every name used is bound and that no vector depends on itself, and returns
an evaluation order.  ``compile_via_tl`` compiles the TL formula of the output vector with
the temporal-logic compiler (``constructive.logic``, public API only) and records, for every
Boolean vector whose formula the model computes, the model coordinate that holds it, so that
verification compares every such vector at every position with the language's interpreter.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from hardsoft.constructive import logic as lg
from hardsoft.constructive.logic.syntax import MAX_DEPTH

#: Longest message of the TL compiler repeated in a refusal (its formulas can be long).
MAX_MESSAGE = 240


#: A place in a program's text: (line, column), both 1-based.
Where = tuple[int, int]
#: Most operators one line's expression may nest (B-RASP, C-RASP): deeper structure is written as vectors on several lines.
#: The interpreter, the printer and the translation walk one expression recursively; 128 levels stay far below Python's limit.
MAX_NESTING = 128


def at(where: Where) -> str:
    """Return "line L, column C" for a place in a program's text."""
    return f"line {where[0]}, column {where[1]}"


@dataclass
class Positions:
    """Where a program's parts are written: each statement's name, each AST node (by id: the nodes live in the program), each
    symbol's first token vector, each statement's first use of every name it reads, the output line's name, the text's end."""

    statements: dict[str, Where] = field(default_factory=dict)
    nodes: dict[int, Where] = field(default_factory=dict)
    tokens: dict[str, Where] = field(default_factory=dict)
    uses: dict[str, dict[str, Where]] = field(default_factory=dict)
    output: Where | None = None
    end: Where = (1, 1)

    def of(self, node: Any, default: Where) -> Where:
        """Return where an AST node is written (default when unknown)."""
        return self.nodes.get(id(node), default)


def end_of(text: str) -> Where:
    """Return the place just past the end of a text."""
    lines = text.split("\n")
    if len(lines) > 1 and lines[-1] == "":
        return len(lines) - 1, len(lines[-2]) + 1
    return len(lines), len(lines[-1]) + 1


@dataclass(frozen=True)
class Binding:
    """One statement as the binding check sees it: the name it binds, its source line (and column), the names it reads (and where)."""

    name: str
    line: int
    uses: tuple[str, ...]
    column: int = 1
    use_at: tuple[Where, ...] = ()  # parallel to uses: the first place each is read (empty: the statement's own place)


def order_bindings(
    bindings: Sequence[Binding],
    output: str | None,
    output_line: int,
    reserved: frozenset[str] = frozenset(),
    output_at: Where | None = None,
    end: Where = (1, 1),
) -> list[str]:
    """Return the names in an evaluation order (each after the names it reads), or raise ValueError naming the problem and its place."""
    where: dict[str, Binding] = {}
    for b in bindings:
        here = at((b.line, b.column))
        if b.name in reserved:
            raise ValueError(f"{here}: {b.name!r} is a keyword and cannot name a vector")
        if b.name in where:
            raise ValueError(f"{here}: {b.name!r} is bound again (first bound on line {where[b.name].line})")
        where[b.name] = b
    use_at = {b.name: dict(zip(b.uses, b.use_at)) for b in bindings}
    for b in bindings:
        for u in b.uses:
            if u not in where:
                raise ValueError(f"{at(use_at[b.name].get(u, (b.line, b.column)))}: {u!r} is not bound")
    if output is None:
        raise ValueError(f"{at(end)}: the program has no 'output NAME' line")
    if output not in where:
        raise ValueError(f"{at(output_at or (output_line, 1))}: the output {output!r} is not bound")
    uses = {b.name: b.uses for b in bindings}
    state: dict[str, int] = {}  # 1 on the stack, 2 done
    order: list[str] = []
    for root in (b.name for b in bindings):
        if state.get(root):
            continue
        stack: list[tuple[str, int]] = [(root, 0)]
        path: list[str] = []
        while stack:
            name, k = stack.pop()
            if k == 0:
                state[name] = 1
                path.append(name)
            deps = uses[name]
            if k < len(deps):
                stack.append((name, k + 1))
                d = deps[k]
                if state.get(d) == 1:
                    cycle = path[path.index(d) :] + [d]
                    closing = use_at[name].get(d, (where[name].line, where[name].column))  # the use that closes the cycle
                    raise ValueError(f"{at(closing)}: the vectors form a cycle: {' -> '.join(cycle)}")
                if not state.get(d):
                    stack.append((d, 0))
            else:
                state[name] = 2
                path.pop()
                order.append(name)
    return order


def check_nesting(tree: Any, operators: frozenset[str], limit: int = MAX_NESTING) -> None:
    """Refuse a line whose expression nests more than ``limit`` operators (the rules named in operators), naming its place.

    Walks the parse tree with an explicit stack (no recursion however deep it is); the place named
    is the operator that first passes the bound, counted from the innermost one.
    """
    depth: dict[int, int] = {}
    stack: list[tuple[Any, bool]] = [(tree, False)]
    while stack:
        node, ready = stack.pop()
        kids = [c for c in getattr(node, "children", ()) if hasattr(c, "children")]
        if not ready:
            stack.append((node, True))
            stack.extend((c, False) for c in kids)
            continue
        d = max((depth[id(c)] for c in kids), default=0) + (1 if node.data in operators else 0)
        if d > limit:
            meta = node.meta
            raise ValueError(
                f"line {meta.line}, column {meta.column}: this expression nests more than {limit} operators "
                "(the bound for one line); write the inner part as a vector of its own on another line"
            )
        depth[id(node)] = d


def check_symbols(symbols: set[str], alphabet: Sequence[str], positions: Positions | None) -> None:
    """Refuse token vectors of symbols outside the alphabet, naming the place of the first one written (ValueError)."""
    missing = sorted(symbols - set(alphabet))
    if not missing:
        return
    known = positions.tokens if positions is not None else {}
    first = min(missing, key=lambda sym: known.get(sym, (1 << 30, 0)))
    place = f"{at(known[first])}: " if first in known else ""
    raise ValueError(f"{place}the program reads token vectors of {', '.join(missing)}, not in the alphabet {{{', '.join(alphabet)}}}")


def formula_depth(f: lg.Formula, memo: dict[int, int] | None = None) -> int:
    """Return the operator depth of a formula, each shared node visited once (no recursion); ``memo`` may be shared across calls."""
    memo = {} if memo is None else memo
    stack: list[tuple[lg.Formula, bool]] = [(f, False)]
    while stack:
        g, ready = stack.pop()
        if id(g) in memo:
            continue
        kids = lg.children(g)
        if ready or not kids:
            leaf = isinstance(g, (lg.Atom, lg.Const, lg.First, lg.Last))
            memo[id(g)] = (0 if leaf else 1) + max((memo[id(c)] for c in kids), default=0)
        else:
            stack.append((g, True))
            stack.extend((c, False) for c in kids if id(c) not in memo)
    return memo[id(f)]


def share_formulas(formulas: Mapping[str, lg.Formula]) -> dict[str, lg.Formula]:
    """Return the formulas with every subformula built once: equal subtrees become one object (hash-consing, no recursion).

    A translation builds equal subformulas in several places (``true S K`` for every use of K);
    the TL stages look formulas up in dicts, and every lookup of an equal but distinct object
    compares the two trees node by node.  Rebuilding the DAG bottom-up, keyed by each node's type,
    plain fields and its children's canonical identities, makes equal subformulas identical, so
    those lookups stop at ``is``.  Linear in the number of distinct objects.
    """
    canon: dict[int, Any] = {}  # id(original value) -> its canonical value
    table: dict[Any, Any] = {}  # structural key -> canonical node
    keep: list[Any] = []  # the originals stay alive while their ids are keys

    def key_of(v: Any) -> Any:
        if hasattr(v, "_fields"):
            return ("node", id(v))
        if isinstance(v, tuple):
            return ("tuple", tuple(key_of(x) for x in v))  # tuples of a node are shallow (terms of a LinExpr)
        return ("value", type(v).__name__, v)

    for root in formulas.values():
        stack: list[tuple[Any, bool]] = [(root, False)]
        while stack:
            x, ready = stack.pop()
            if id(x) in canon:
                continue
            is_node = hasattr(x, "_fields")
            kids = [getattr(x, n) for n in x._fields] if is_node else list(x) if isinstance(x, tuple) else None
            if kids is None:
                canon[id(x)] = x
                keep.append(x)
                continue
            if not ready:
                stack.append((x, True))
                stack.extend((k, False) for k in kids if id(k) not in canon)
                continue
            vals = [canon[id(k)] for k in kids]
            keep.append(x)
            if not is_node:
                canon[id(x)] = tuple(vals)
                continue
            key = (type(x), tuple(key_of(v) for v in vals))
            if key not in table:
                table[key] = x if all(v is k for v, k in zip(vals, kids)) else type(x)(*vals)
            canon[id(x)] = table[key]
    return {name: canon[id(f)] for name, f in formulas.items()}


@dataclass(frozen=True)
class CompiledProgram:
    """A program compiled to one model: the model, tau(n), gap(n), and the model coordinates of the program's vectors.

    vectors  -- the names of the Boolean vectors the model computes, the output last
    columns  -- for each, its column in ``tl.decode``'s table (one column per subformula)
    omitted  -- vectors the model does not compute (dead code, count vectors, or folded away)
    """

    language: str
    program: Any
    text: str
    alphabet: tuple[str, ...]
    regime: str
    tl: Any  # constructive.logic.CompiledFormula
    vectors: tuple[str, ...]
    columns: tuple[int, ...]
    interpret: Callable[[Any, np.ndarray, Sequence[str]], Mapping[str, np.ndarray]]
    omitted: tuple[str, ...] = field(default=())

    @property
    def model(self) -> Any:
        """Return the compiled Model."""
        return self.tl.model

    def tau(self, n: int) -> float:
        """Return the regime's temperature at length n (the TL compiler's rule)."""
        return float(self.tl.tau(n))

    def gap(self, n: int) -> float:
        """Return the claimed hard-attention gap at length n (the TL compiler's rule)."""
        return float(self.tl.gap(n))

    def decode(self, activations: Any) -> np.ndarray:
        """Return (batch, n, len(vectors)) bool: every compiled vector read off the activations (a Trace or every layer's; ``tl.decode``)."""
        return np.asarray(self.tl.decode(activations))[:, :, list(self.columns)]

    def output(self, final: np.ndarray) -> np.ndarray:
        """Return (batch, n) bool: the output vector at every position, read off the final activations (the read-out coordinate)."""
        return np.asarray(self.tl.accept_final(final))

    def reference(self, inputs: np.ndarray) -> np.ndarray:
        """Return (batch, n, len(vectors)) bool: the same vectors computed by the language's own interpreter."""
        vals = self.interpret(self.program, np.asarray(inputs), self.alphabet)
        return np.stack([np.asarray(vals[v], dtype=bool) for v in self.vectors], axis=-1)

    def describe(self) -> dict[str, Any]:
        """Return the model's shape, temperature rule and gap (as the TL compiler describes them) plus the program's vectors.

        The TL formula itself is not printed: its text is a tree, exponentially longer than the
        program when vectors are shared; its number of distinct subformulas is given instead.
        """
        tl, m = self.tl, self.model
        return {
            "language": self.language,
            "program": self.text,
            "regime": self.regime,
            "alphabet": list(self.alphabet),
            "vectors": list(self.vectors),
            "omitted": list(self.omitted),
            "tl_subformulas": len(tl.coords),
            "layers": m.depth,
            "heads": sum(len(l.heads) for l in m.layers),
            "heads_per_layer": [len(l.heads) for l in m.layers],
            "d": m.d,
            "ffn_width": max((l.W1.shape[1] for l in m.layers), default=0),
            "position_features": list(m.PE.features),
            "temperature": tl.temperature_rule(),
            "c": tl.c if self.regime == "bounded" else None,
            "K": tl.K,
            "gap": tl.gap_rule(),
            "mass_off_bound": tl.mass_bound(),
            "constructions": [f"layer {h.layer} head {h.index}: {h.construction}" for h in tl.heads],
            "readout": {"coordinate": tl.readout.coordinate, "position": tl.readout.position, "threshold": tl.readout.threshold},
        }


def compile_via_tl(
    language: str,
    program: Any,
    text: str,
    formulas: Mapping[str, lg.Formula],
    output: str,
    alphabet: Sequence[str],
    regime: str,
    interpret: Callable[[Any, np.ndarray, Sequence[str]], Mapping[str, np.ndarray]],
    extra_omitted: Sequence[str] = (),
    positions: Positions | None = None,
) -> CompiledProgram:
    """Return the program compiled through the TL formula of its output (ValueError when the TL compiler refuses it).

    A vector whose formula is deeper than the TL's bound MAX_DEPTH is refused first, the first
    such vector in evaluation order named with its place (``positions``).
    """
    alphabet = tuple(alphabet)
    formulas = share_formulas(formulas)
    top = formulas[output]
    memo: dict[int, int] = {}
    if formula_depth(top, memo) > MAX_DEPTH:
        inside = {id(g) for g in lg.subformulas(top)}
        for name, f in formulas.items():  # evaluation order: the first vector of the output's formula past the bound
            deep = formula_depth(f, memo)
            if deep > MAX_DEPTH and id(f) in inside:
                place = f"{at(positions.statements[name])}: " if positions is not None and name in positions.statements else ""
                raise ValueError(
                    f"{place}the vector {name!r} becomes a temporal-logic formula {deep} operators deep; the compiler's bound is {MAX_DEPTH}"
                )
    try:
        tl = lg.compile_formula(top, alphabet, regime)
    except ValueError as e:
        why = " ".join(str(e).split())  # one line, whatever the reason's layout
        why = why if len(why) <= MAX_MESSAGE else why[: MAX_MESSAGE - 3] + "..."
        raise ValueError(f"the temporal-logic compiler ({regime} regime) refuses the output {output!r}: {why}") from None
    index = {id(g): k for k, g in enumerate(lg.subformulas(top))}
    by_value = {g: k for k, g in enumerate(lg.subformulas(top))}
    names, cols, omitted = [], [], list(extra_omitted)
    for name, f in formulas.items():
        if name == output:
            continue
        k = index.get(id(f), by_value.get(f))
        if k is None:
            omitted.append(name)
        else:
            names.append(name)
            cols.append(k)
    names.append(output)
    cols.append(len(by_value) - 1)
    return CompiledProgram(language, program, text, alphabet, regime, tl, tuple(names), tuple(cols), interpret, tuple(omitted))
