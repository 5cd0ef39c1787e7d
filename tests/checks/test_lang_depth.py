"""Deep programs: 200-operation B-RASP / C-RASP / S-RASP / TL programs compile and verify; nesting above the TL bound is refused in one line."""

from __future__ import annotations

import pytest

from tests.cli_run import run_cli as _run
from hardsoft.checks.engine.programs import compile_text, verify_program
from hardsoft.constructive import logic as lg
from hardsoft.constructive.lang.program import formula_depth
from hardsoft.constructive.logic.syntax import MAX_DEPTH

#: The TL depth bound before it was raised: 200-operation B-RASP programs became formulas deeper than this.
OLD_BOUND = 200
#: Nesting inside one B-RASP / C-RASP line in the hostile cases: 10,000 operators or parentheses (the bound is MAX_NESTING operators).
DEEP = 10_000


def brasp_chain(ops: int) -> str:
    """Return a B-RASP program of `ops` operations, each reading the one before (attention and Boolean operations alternating)."""
    lines = ["v0 = rightmost past [Q_a@j] Q_b default false"]
    for k in range(1, ops):
        prev = f"v{k - 1}"
        if k % 2:
            lines.append(f"v{k} = {prev} | Q_a & !{prev}" if k % 4 == 1 else f"v{k} = !{prev} & Q_b | {prev} & Q_a")
        else:
            lines.append(f"v{k} = {'leftmost' if k % 3 else 'rightmost'} past [{prev}@j] Q_a default {prev}")
    return "\n".join(lines) + f"\noutput v{ops - 1}\n"


def test_a_200_operation_brasp_program_deeper_than_the_old_bound_compiles_and_verifies() -> None:
    cp = compile_text("brasp", brasp_chain(200), ("a", "b"), "bounded")
    deep = formula_depth(cp.tl.formula)
    assert OLD_BOUND < deep <= MAX_DEPTH, deep
    rep = verify_program(cp, 4)
    assert rep.ok and rep.strings == 30


def test_printing_and_parsing_a_deep_program_round_trip() -> None:
    from hardsoft.constructive.lang import brasp

    p = brasp.parse(brasp_chain(200))
    assert brasp.parse(brasp.format_program(p)) == p


#: Operations of brasp_chain whose output passes MAX_DEPTH (its formula is about 4.2 operators deep per operation: 4,157 at 1,000).
PAST_THE_BOUND = MAX_DEPTH // 4 + 100


def test_a_program_deeper_than_the_bound_is_refused_in_one_line_by_compile_and_verify(capsys) -> None:
    text = brasp_chain(PAST_THE_BOUND)
    for args in (["compile"], ["verify", "--up-to", "2", "--workers", "1"]):
        code, out, err = _run(capsys, args[0], "--lang", "brasp", text, *args[1:])
        assert code == 2 and out == "" and "Traceback" not in err
        assert err.count("\n") == 1 and f"operators deep; the compiler's bound is {MAX_DEPTH}" in err, err[:500]
        # the first vector past the bound, named with its line (statement k is on line k + 1) and column
        k = int(err.split("the vector 'v")[1].split("'")[0])
        assert f"line {k + 1}, column 1: the vector 'v{k}' becomes" in err, err[:500]


@pytest.mark.parametrize(
    "lang, text",
    [
        ("brasp", "x = " + "!" * DEEP + "Q_a\noutput x"),
        ("brasp", "x = " + "(" * DEEP + "Q_a" + ")" * DEEP + "\noutput x"),
        ("crasp", "x = " + "(" * DEEP + "#[Q_a]" + ")" * DEEP + " > 0\noutput x"),
        ("tl", "!" * (MAX_DEPTH + 1) + "a"),
        ("tl", "Y (" * (MAX_DEPTH + 1) + "a" + ")" * (MAX_DEPTH + 1)),
        ("tl", "#<[" * (MAX_DEPTH + 1) + "a" + "] > 0" * (MAX_DEPTH + 1)),
    ],
    ids=["brasp-not", "brasp-parens", "crasp-parens", "tl-not", "tl-Y", "tl-count"],
)
def test_nesting_above_the_bound_is_one_line_in_every_command(capsys, lang: str, text: str) -> None:
    # Parentheses of B-RASP and C-RASP add no depth (their parser is Lark's LALR): accepted; the rest is refused in one line.
    for args in (["compile"], ["verify", "--up-to", "2", "--workers", "1"], ["temperature", "--n", "2", "--eps", "0.1"]):
        code, out, err = _run(capsys, args[0], "--lang", lang, text, *args[1:])
        # parentheses: compiled (temperature then refuses a model without heads, in one line: its gap is infinite)
        assert code in ((0, 2) if text_id(lang, text) == "parens" else (2,)), (code, err[:500])
        assert "Traceback" not in err and "RecursionError" not in err, err[:500]
        if code == 2:
            assert out == "" and err.startswith("hardsoft: error: ") and err.count("\n") == 1, err[:500]
            if text_id(lang, text) == "nest":  # the place where the bound is passed is named
                assert "line 1, column " in err and ("more than 128 operators" in err or f"the bound is {MAX_DEPTH}" in err), err[:500]


def text_id(lang: str, text: str) -> str:
    """Return "parens" for the B-RASP / C-RASP cases that nest parentheses only."""
    return "parens" if lang != "tl" and text.startswith("x = (") else "nest"


def test_a_formula_deeper_than_the_parser_accepts_prints_reprs_and_hashes_without_recursion() -> None:
    f: lg.Formula = lg.Atom("a")
    for _ in range(2 * MAX_DEPTH):
        f = lg.Not(lg.And(f, lg.Atom("b")))
    text = str(f)
    assert text.count("!") == 2 * MAX_DEPTH and repr(f).count("Not(") == 2 * MAX_DEPTH and hash(f) == hash(f)
    with pytest.raises(ValueError, match=f"the bound is {MAX_DEPTH}"):
        lg.parse(text)  # the printed text is refused by the parser, in one line


def test_repr_is_the_dataclass_one() -> None:
    # The iterative repr must print what the generated dataclass repr printed (the planted variant: a repr that drops a field).
    f = lg.parse("#<[a] + 2*#>[b & !a] >= 3 | Y (a S b) & mod(2, 1)")
    assert repr(f) == (
        "Or(left=Compare(op='>=', lhs=LinExpr(terms=((1, Count(direction='<', arg=Atom(symbol='a'))), (2, Count(direction='>', "
        "arg=And(left=Atom(symbol='b'), right=Not(arg=Atom(symbol='a')))))), const=0), rhs=LinExpr(terms=(), const=3)), "
        "right=And(left=Prev(arg=Since(left=Atom(symbol='a'), right=Atom(symbol='b'))), right=Mod(modulus=2, residue=1)))"
    )
    assert eval(repr(f), vars(lg) | vars(lg.syntax)) == f


@pytest.mark.parametrize("lang", ["tl", "crasp", "srasp"])
def test_200_operation_programs_of_the_other_languages_compile(lang: str) -> None:
    import random

    rng = random.Random(1)
    if lang == "tl":
        f = "a"
        for k in range(200):
            f = f"Y ({f})" if k % 3 == 0 else f"({f}) {rng.choice(['&', '|', 'S'])} {rng.choice('ab')}"
        text, alphabet = f, ("a", "b")
    elif lang == "crasp":
        lines = ["c0 = #[Q_a]", "b0 = c0 > 1"]
        for k in range(1, 100):
            lines += [f"c{k} = #[b{k - 1}]", f"b{k} = c{k} >= {1 + k % 3}"]
        text, alphabet = "\n".join(lines) + "\noutput b99\n", ("a", "b")
    else:
        lines = ['program "chain"', 'alphabet "a" "b"', 'A = token("a")', "f = false", "b0 = once(A)"]
        for k in range(1, 200):
            lines.append(f"b{k} = rightmost j < i with b{k - 1}[j] value A default f" if k % 2 else f"b{k} = once(b{k - 1})")
        text, alphabet = "\n".join(lines) + '\noutput "y" if b199, else "n"\n', ("a", "b")
    from hardsoft.constructive.lang import get_language

    lang_ = get_language(lang)
    compiled = lang_.to_model(lang_.parse(text), () if lang == "srasp" else alphabet, "bounded")
    assert compiled.model.depth >= 20


def test_sharing_keeps_every_formula_and_makes_equal_subformulas_one_object() -> None:
    from hardsoft.constructive.lang import brasp
    from hardsoft.constructive.lang.program import share_formulas

    forms = brasp.to_formulas(brasp.parse(brasp_chain(30)))
    forms["twin"] = lg.parse("#<[a] >= 2 & Y (a S b)")
    forms["twin2"] = lg.parse("Y (a S b) & #<[a] >= 2")
    shared = share_formulas(forms)
    assert shared.keys() == forms.keys() and all(shared[k] == forms[k] for k in forms)
    subs = [g for f in shared.values() for g in lg.subformulas(f)]
    by_value: dict[lg.Formula, int] = {}
    for g in subs:
        assert by_value.setdefault(g, id(g)) == id(g)  # equal subformulas are one object
    assert shared["twin"].right is shared["twin2"].left
    # the planted defect: a node rebuilt with a field changed would not be equal to the original
    wrong = lg.And(shared["twin"].left, lg.Prev(lg.Since(lg.Atom("b"), lg.Atom("a"))))
    assert wrong != forms["twin"]
