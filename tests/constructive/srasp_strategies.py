"""Hypothesis strategies for S-RASP programs: any program of the language, or one the compiler covers."""

from __future__ import annotations

from hypothesis import strategies as st

from hardsoft.constructive.srasp import language as L

_MASKS = tuple(L.SELECT_MASKS)


def _lin(draw: st.DrawFn, pool: list[str], k: int = 2, coef: int = 3, const: int = 3) -> L.Lin:
    """Return a linear expression over distinct names of pool (possibly none)."""
    names = draw(st.lists(st.sampled_from(pool), max_size=k, unique=True)) if pool else []
    terms = tuple((draw(st.integers(-coef, coef).filter(lambda c: c != 0)), x) for x in names)
    return L.Lin(terms, draw(st.integers(-const, const)))


@st.composite
def programs(draw: st.DrawFn, compiled_only: bool = False, max_defs: int = 8, int_select: bool = False) -> L.Program:
    """Return a valid program over {a, b}; compiled_only keeps to what compile_program covers (docs/srasp.md).

    int_select: end with a select whose value is an integer (keys j <= i, value and default of growth at most
    64 (i+1)) and a comparison reading it, so every drawn program has one.
    """
    alphabet = ("a", "b")
    defs: list[tuple[str, L.Op]] = [("A", L.Token(("a",))), ("B", L.Token(("a", "b") if draw(st.booleans()) else ("b",)))]
    bools, ints = ["A", "B"], []
    squarable: list[str] = []  # integers whose square the model holds (== selector keys)
    expandable: list[str] = []  # integers that are combinations of Booleans, the index and 1 (psum arguments, beside bounded ones)
    indices: list[str] = []  # definitions of the index itself
    kinds = ["not", "and", "or", "bconst", "cond", "index", "lin", "cmp", "psum", "spsum", "once", "select", "agg"]
    for t in range(draw(st.integers(1, max_defs))):
        name = f"d{t}"
        kind = draw(st.sampled_from(kinds))
        b1, b2, b3 = (draw(st.sampled_from(bools)) for _ in range(3))
        is_int, sq, ex = False, False, False
        op: L.Op
        if kind == "not":
            op = L.BoolNot(b1)
        elif kind == "and":
            op = L.BoolAnd(b1, b2)
        elif kind == "or":
            op = L.BoolOr(b1, b2)
        elif kind == "bconst":
            op = L.BoolConst(draw(st.booleans()))
        elif kind == "cond":
            arms = ints
            if compiled_only:  # integer arms compile with growth at most 64 (i+1)^2
                growth = L.Program("partial", alphabet, tuple(defs), (("o", "A"),), "none").growths()
                arms = [x for x in ints if growth[x][0] <= 64 and growth[x][1] <= 2]
            if arms and draw(st.booleans()):
                op, is_int = L.Cond(b1, draw(st.sampled_from(arms)), draw(st.sampled_from(arms + bools))), True
            else:
                op = L.Cond(b1, b2, b3)
        elif kind == "index":
            op, is_int, sq, ex = L.Index(), True, True, True
            indices.append(name)
        elif kind == "lin":
            pool = ints + bools
            e = _lin(draw, pool, 2)
            op, is_int = e, True
            ex = all(x in expandable or x in bools for _, x in e.terms)
            sq = len(e.terms) == 0 or (len(e.terms) == 1 and (e.terms[0][1] in squarable or e.terms[0][1] in bools) and abs(e.terms[0][0]) <= 2)
        elif kind == "cmp":
            op = L.Compare(draw(st.sampled_from(L.COMPARISONS)), _lin(draw, ints + bools), _lin(draw, ints + bools))
        elif kind == "psum":
            pool = ints + bools
            if compiled_only:  # psum arguments: combinations of Booleans, the index and 1, and integers bounded by 16
                growth = L.Program("partial", alphabet, tuple(defs), (("o", "A"),), "none").growths()
                pool = expandable + bools + [x for x in ints if x not in expandable and growth[x][1] == 0 and growth[x][0] <= 16]
            op, is_int = L.PrefixSum(_lin(draw, pool, 2, 2, 1)), True
        elif kind == "spsum":
            op, is_int, sq = L.Psum(b1, draw(st.sampled_from([None, b2]))), True, True
        elif kind == "once":
            op = L.Once(b1)
        elif kind == "select":
            growth = L.Program("partial", alphabet, tuple(defs), (("o", "A"),), "none").growths()
            if compiled_only:  # keys and queries the compiler takes: growth at most 64 (i+1) (compiler.MAX_KEY_SCALE)
                small = [x for x in ints if growth[x][0] <= 64 and growth[x][1] <= 1]
                keys, queries = [x for x in squarable if x in small] + bools, small + bools
            else:
                keys, queries = ints + bools, ints + bools
            use_cmp = draw(st.booleans()) and bool(keys)
            key = draw(st.sampled_from(keys)) if use_cmp else None
            query = draw(st.sampled_from(queries)) if use_cmp else None
            cmp = draw(st.sampled_from(("==", "<", "<=", ">", ">=", "!=") if compiled_only else L.COMPARISONS)) if use_cmp else None
            where = draw(st.sampled_from([None, b1]))
            if compiled_only and cmp is not None and cmp != "==":
                # < <= > >= != compile with the index as key and no where filter, or with a key or a query (plus the offset)
                # bounded by a constant C <= 16 (one-hot; any where filter, any other side): Booleans, constants, conditionals
                # and selects of them
                bounded = [x for x in ints if growth[x][1] == 0 and growth[x][0] <= 14] + bools
                route = draw(st.sampled_from(("index", "bounded key", "bounded query")))
                if route == "index" and indices:
                    key, where = draw(st.sampled_from(indices)), None
                elif route == "bounded key":
                    key, query = draw(st.sampled_from(bounded)), draw(st.sampled_from(ints + bools))
                elif route == "bounded query":
                    key, query = draw(st.sampled_from(ints + bools)), draw(st.sampled_from(bounded))
                else:
                    cmp = "=="
            if compiled_only and cmp == "==" and draw(st.booleans()):
                # == also compiles with a key the model holds no square of when it is bounded by a constant (one-hot)
                unsquared = [x for x in ints if growth[x][1] == 0 and growth[x][0] <= 14 and x not in squarable]
                if unsquared:
                    key, query = draw(st.sampled_from(unsquared)), draw(st.sampled_from(ints + bools))
            offset = draw(st.integers(-2, 2)) if use_cmp else 0
            mask = draw(st.sampled_from(_MASKS))
            if compiled_only:  # integer values compile with value and default of growth at most 64 (i+1), under every mask
                # (keys after i: the big M grows like n)
                growth = L.Program("partial", alphabet, tuple(defs), (("o", "A"),), "none").growths()
                values = [x for x in ints if growth[x][0] <= 64 and growth[x][1] <= 1]
            else:
                values = ints
            if values and draw(st.booleans()):
                value, default, is_int = draw(st.sampled_from(values)), draw(st.sampled_from(values)), True
            else:
                value, default = b2, b3
            op = L.Select(draw(st.sampled_from(L.DIRECTIONS)), mask, key, cmp, query, offset, where, value, default)
        else:
            pool = ints
            if compiled_only:
                growth = L.Program("partial", alphabet, tuple(defs), (("o", "A"),), "none").growths()
                pool = [x for x in squarable if growth[x][0] <= 64 and growth[x][1] <= 1]
            if not pool:
                op = L.Once(b1)
            else:
                key, query = draw(st.sampled_from(pool)), draw(st.sampled_from(pool))
                op = L.Aggregate(key, query, draw(st.integers(-2, 2)), b1, b2, draw(st.sampled_from(L.MASKS)))
        defs.append((name, op))
        if is_int:
            ints.append(name)
            if sq:
                squarable.append(name)
            if ex:
                expandable.append(name)
        elif not isinstance(op, (L.Index, L.Lin, L.PrefixSum, L.Psum)):
            bools.append(name)
    if int_select:
        growth = L.Program("partial", alphabet, tuple(defs), (("o", "A"),), "none").growths()
        small = [x for x in ints if growth[x][0] <= 64 and growth[x][1] <= 1] + ["pi"]
        keyed = draw(st.booleans())
        key, cmp, query = ("pi", draw(st.sampled_from(("==", "<", "<=", ">", ">=", "!="))), draw(st.sampled_from(small))) if keyed else (None, None, None)
        where = None if keyed and cmp != "==" else draw(st.sampled_from([None] + bools))
        value, default = draw(st.sampled_from(small)), draw(st.sampled_from(small))
        offset = draw(st.integers(-2, 2)) if keyed else 0
        sel = L.Select(draw(st.sampled_from(L.DIRECTIONS)), draw(st.sampled_from(("causal", "strict"))), key, cmp, query, offset, where, value, default)
        cmp_out = L.Compare(draw(st.sampled_from(L.COMPARISONS)), L.Lin(((1, "vs"),), 0), _lin(draw, small))
        defs += [("pi", L.Index()), ("vs", sel), ("vc", cmp_out)]
        bools.append("vc")
    outs = tuple((f"o{k}", b) for k, b in enumerate(draw(st.lists(st.sampled_from(bools), min_size=1, max_size=3, unique=True))))
    return L.Program("random", alphabet, tuple(defs), outs, "none")
