"""B-RASP and C-RASP (constructive/lang): grammar errors, binding and type errors, printer round trip, interpreters by hand and against TL."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from hardsoft.constructive import logic as lg
from hardsoft.constructive.lang import LANGUAGES, get_language
from hardsoft.constructive.lang import brasp as B
from hardsoft.constructive.lang import crasp as C
from hardsoft.constructive.lang.library import library
from hardsoft.constructive.logic.syntax import MAX_INTEGER
from tests.lang_strategies import brasp_programs, crasp_programs


def all_words(alphabet: tuple[str, ...], max_len: int) -> list[np.ndarray]:
    """Return, per length 1..max_len, every word as a (batch, n) array of symbol indices."""
    return [np.array(list(itertools.product(range(len(alphabet)), repeat=n))) for n in range(1, max_len + 1)]


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    "lang, text, message",
    [
        (
            "brasp",
            "x = ",
            "line 1, column 5: expected one of '!', '(', a name, a token vector Q_<symbol>, false, leftmost or rightmost, true, got end",
        ),
        ("brasp", "x = Q_a Q_b\noutput x", "line 1, column 9: expected one of '&', '|', a new line, end of input, got 'Q_b'"),
        ("brasp", "x = Q_a\ny = rightmost [x@i] x default x\noutput y", "line 2, column 15: expected past, future or all, got '['"),
        ("brasp", "y = rightmost past [x] x default x\noutput y", "line 1, column 21: expected one of"),
        ("brasp", "x = Q_a $ Q_b", "line 1, column 9: expected"),
        ("crasp", "c = #[Q_a\noutput c", "line 1, column 10: expected"),
        ("crasp", "c = 1 <\noutput c", "line 1, column 8: expected"),
    ],
)
def test_parse_errors_name_line_column_and_expected(lang: str, text: str, message: str) -> None:
    with pytest.raises(ValueError) as e:
        get_language(lang).parse(text)
    assert str(e.value).startswith(message), str(e.value)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize(
    "lang, text, message",
    [
        ("brasp", "x = y\noutput x", "line 1, column 5: 'y' is not bound"),
        ("brasp", "x = Q_a\nx = Q_b\noutput x", "line 2, column 1: 'x' is bound again (first bound on line 1)"),
        ("brasp", "x = y\ny = !x\noutput x", "line 2, column 6: the vectors form a cycle: x -> y -> x"),
        ("brasp", "x = rightmost past [x@j] true default false\noutput x", "line 1, column 21: the vectors form a cycle: x -> x"),
        ("brasp", "x = Q_a", "line 1, column 8: the program has no 'output NAME' line"),
        ("brasp", "x = Q_a\noutput y", "line 2, column 8: the output 'y' is not bound"),
        ("brasp", "x = Q_a\noutput x\noutput x", "line 3, column 8: a second 'output' line"),
        ("brasp", "past = Q_a\noutput past", "line 1, column 1: 'past' is a keyword"),
        ("crasp", "c = #[Q_a]\noutput c", "line 2, column 8: the output 'c' is a count"),
        ("crasp", "p = Q_a + 1\noutput p", "line 1, column 5: '+' needs a count, got a Boolean"),
        ("crasp", "c = #[#[Q_a]]\np = c > 0\noutput p", "line 1, column 7: the count #[...] needs a Boolean, got a count"),
        ("crasp", "c = Q_a ? Q_a : Q_b\np = c > 0\noutput p", "line 1, column 11: a branch of '? :'"),
        ("crasp", "p = Q_a & 3\noutput p", "line 1, column 11: '&' needs a Boolean, got a count"),
        ("crasp", f"p = #[Q_a] > {MAX_INTEGER + 1}\noutput p", f"line 1, column 14: the integer {MAX_INTEGER + 1} is above the bound {MAX_INTEGER}"),
        ("crasp", "p = #[Q_a] > 1" + "0" * 400 + "\noutput p", "line 1, column 14: the integer 100000000... is above the bound"),
    ],
)
def test_binding_and_type_errors_are_one_line(lang: str, text: str, message: str) -> None:
    with pytest.raises(ValueError) as e:
        get_language(lang).parse(text)
    assert message in str(e.value) and "\n" not in str(e.value), str(e.value)


def test_composed_integers_above_the_bound_are_refused_at_compile_time() -> None:
    p = C.parse("c = 1000*#[Q_a]\nd = 1000*c\nq = d > 5\noutput q")
    with pytest.raises(ValueError, match=rf"vector 'q': the comparison needs integers summing to 1000005 .* above the bound {MAX_INTEGER}"):
        C.compile_program(p)
    # the same program one step smaller compiles
    C.compile_program("c = 1000*#[Q_a]\nd = 999*c\nq = d > 5\noutput q")


def test_tl_compiler_refusal_is_one_short_line(monkeypatch: pytest.MonkeyPatch) -> None:
    # The TL compiler now compiles every formula a C-RASP translation produces (circuit gates instead of
    # truth tables, past counts only), so its refusal is planted: a long multi-line reason must come out
    # as one short line naming the regime and the output.
    from hardsoft.constructive.lang import program as prog

    def refuse(*_a: object, **_k: object) -> None:
        raise ValueError("no construction for this node\n" + "because " * 200)

    monkeypatch.setattr(prog.lg, "compile_formula", refuse)
    text = "ca = #[Q_a]\ncb = #[Q_b]\nok = ca == cb\noutput ok"
    with pytest.raises(ValueError) as e:
        C.compile_program(text, ("a", "b"))
    msg = str(e.value)
    assert msg.startswith("the temporal-logic compiler (bounded regime) refuses the output 'ok': ") and len(msg) < 400
    assert "\n" not in msg, msg


def test_a_formula_deeper_than_the_tl_bound_is_refused_before_compiling(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first vector whose formula passes the bound is named with its place (here the bound is lowered to 300: a program past the
    real one, 2^15, is 65,000 lines; tests/checks/test_lang_depth.py refuses a B-RASP program past it)."""
    from hardsoft.constructive.lang import program

    monkeypatch.setattr(program, "MAX_DEPTH", 300)
    top = 310  # each level nests a comparison over a count: b_k is k operators deep
    lines = ["b0 = Q_a"] + [f"c{k} = #[b{k - 1}]\nb{k} = c{k} > {k % 3}" for k in range(1, top)]
    with pytest.raises(ValueError, match="line 603, column 1: the vector 'b301' becomes a temporal-logic formula 301 operators deep; the compiler's bound is 300"):
        C.compile_program("\n".join(lines) + f"\noutput b{top - 1}", ("a", "b"))


def test_alphabet_is_checked() -> None:
    with pytest.raises(ValueError, match="token vectors of c, not in the alphabet"):
        B.compile_program("x = Q_c\noutput x")
    with pytest.raises(ValueError, match="token vectors of c, not in the alphabet"):
        C.compile_program("x = Q_c\noutput x")


# --------------------------------------------------------------------------- printers


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(brasp_programs(max_ops=5, depth=3))
def test_brasp_printer_round_trips(p: B.Program) -> None:
    assert B.parse(B.format_program(p)) == p


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(crasp_programs(max_ops=5, depth=3))
def test_crasp_printer_round_trips(p: C.Program) -> None:
    assert C.parse(C.format_program(p)) == p


def test_printer_round_trip_catches_a_planted_printer_defect() -> None:
    # The planted defect: a printer that drops the parentheses of a right-nested '&' prints a different tree.
    p = B.Program((B.Assign("x", B.BAnd(B.Token("a"), B.BOr(B.Token("b"), B.Token("a")))),), "x")
    wrong = "x = Q_a & Q_b | Q_a\noutput x\n"
    assert B.format_program(p) == "x = Q_a & (Q_b | Q_a)\noutput x\n"
    assert B.parse(wrong) != p


# --------------------------------------------------------------------------- interpreters by hand


def _brasp_vec(line: str, word: str) -> list[bool]:
    return B.interpret_word(B.parse(line + "\noutput p"), list(word))["p"]


@pytest.mark.parametrize(
    "line, word, expected",
    [
        ("p = rightmost past [true] Q_a default false", "aab", [False, True, True]),
        ("p = leftmost future [Q_b@j] true default false", "aab", [True, True, False]),
        ("p = leftmost all [Q_b@j & Q_a@i] Q_b default Q_a", "aab", [True, True, False]),
        ("p = rightmost all [true] Q_a default true", "aab", [False, False, False]),
        ("p = leftmost past [true] Q_b default true", "bab", [True, True, True]),
        ("p = leftmost past [true] Q_b default true", "abb", [True, False, False]),
        ("p = rightmost future [Q_a@j] Q_b default Q_b", "abab", [False, False, False, True]),
        ("p = leftmost all [Q_a@j & !Q_a@i] true default false", "abba", [False, True, True, False]),
        ("p = Q_a & !Q_b | false", "ab", [True, False]),
    ],
)
def test_brasp_interpreter_by_hand(line: str, word: str, expected: list[bool]) -> None:
    assert _brasp_vec(line, word) == expected


def test_crasp_interpreter_by_hand() -> None:
    p = C.parse("ca = #[Q_a]\ncb = #[Q_b]\nd = ca - cb\ne = d > 0 ? 2*ca : -1\nq = e == 4 | d != 0\noutput q")
    v = C.interpret_word(p, list("abab"))
    assert v["ca"] == [1, 1, 2, 2] and v["cb"] == [0, 1, 1, 2]  # inclusive counts: position i itself is counted
    assert v["d"] == [1, 0, 1, 0] and v["e"] == [2, -1, 4, -1] and v["q"] == [True, False, True, False]


# --------------------------------------------------------------------------- the same language computed twice


def _somewhere(f: str) -> str:
    return f"(({f}) | true S ({f}) | true U ({f}))"


#: Library programs and hand-written TL formulas holding at the same positions (docs/languages.md).
TL_EQUIVALENTS = {
    "first_a": ("first_is_a", "first & a | true S (first & a)"),
    "last_b_after_a": ("ends", "b & (true S a)"),
    "no_bb": ("ok", "!" + _somewhere("b & Y b")),
    "astar_bstar": ("ok", "!" + _somewhere("a & (true S b)")),
    "majority": ("more", "a & (#<[a] + 1 > #<[b]) | b & (#<[a] > #<[b] + 1)"),
}


@pytest.mark.parametrize("name", sorted(TL_EQUIVALENTS))
def test_library_program_equals_its_hand_written_tl_formula_to_length_8(name: str) -> None:
    ex = library()[name]
    lang = LANGUAGES[ex.language]
    vector, text = TL_EQUIVALENTS[name]
    f = lg.parse(text)
    for w in all_words(ex.alphabet, 8):
        got = lang.interpret(lang.parse(ex.text), w, ex.alphabet)[vector]
        assert np.array_equal(got, lg.evaluate_batch(f, w, ex.alphabet)[:, :, -1]), name


def test_the_tl_comparison_catches_a_planted_interpreter_defect() -> None:
    # The planted defect: a strict (j < i) count where C-RASP's is inclusive; the TL formula of majority tells them apart.
    f = lg.parse(TL_EQUIVALENTS["majority"][1])
    strict = C.parse("ca = #[Q_a] - (Q_a ? 1 : 0)\ncb = #[Q_b] - (Q_b ? 1 : 0)\nmore = ca > cb\noutput more")
    w = all_words(("a", "b"), 4)[-1]
    assert not np.array_equal(C.interpret(strict, w, ("a", "b"))["more"], lg.evaluate_batch(f, w, ("a", "b"))[:, :, -1])


def _dyck(word: str, max_depth: int | None = None) -> bool:
    depth = 0
    for ch in word:
        depth += 1 if ch == "a" else -1
        if depth < 0 or (max_depth is not None and depth > max_depth):
            return False
    return depth == 0


#: Plain-Python references of the other library programs (acceptance: the output at the last position).
PYTHON_REFERENCES = {
    "dyck1_depth2": lambda w: _dyck(w, 2),
    "dyck1": lambda w: _dyck(w),
    "anbn": lambda w: re.fullmatch(r"(a+)(b+)", w) is not None and w.count("a") == w.count("b"),
    "plurality": lambda w: w.count("a") > w.count("b") and w.count("a") > w.count("c"),
}


@pytest.mark.parametrize("name", sorted(PYTHON_REFERENCES))
def test_library_program_accepts_what_a_plain_reference_accepts(name: str) -> None:
    ex = library()[name]
    lang = LANGUAGES[ex.language]
    p = lang.parse(ex.text)
    out = p.output
    for w in all_words(ex.alphabet, 8):
        got = lang.interpret(p, w, ex.alphabet)[out][:, -1]
        want = [PYTHON_REFERENCES[name]("".join(ex.alphabet[k] for k in row)) for row in w]
        assert got.tolist() == want, name


def test_every_library_program_has_a_reference() -> None:
    assert set(library()) == set(TL_EQUIVALENTS) | set(PYTHON_REFERENCES)
    for ex in library().values():
        assert ex.language in ("brasp", "crasp") and ex.source.startswith("Yang") and ex.description


# --------------------------------------------------------------------------- TL formulas shared as DAGs


def test_cached_formula_hash_is_not_pickled_and_lookups_work_in_another_process(tmp_path) -> None:
    import os
    import pickle
    import subprocess
    import sys

    f = lg.parse("(a S b) & Y (a S b)")
    table = {f: 1}
    assert hash(f) == hash(lg.parse("(a S b) & Y (a S b)")) and "_hash" in f.__dict__
    # a pickled node must not carry its cached hash: the lookup in a process with another hash seed below fails if it does
    blob = tmp_path / "t.pkl"
    blob.write_bytes(pickle.dumps(table))
    code = (
        "import pickle, sys; from hardsoft.constructive.logic import parse\n"
        f"t = pickle.loads(open({str(blob)!r}, 'rb').read()); print(t[parse('(a S b) & Y (a S b)')])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "12345"}, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "1", out.stderr


def test_a_deep_shared_brasp_chain_translates_to_a_dag() -> None:
    # 30 attention operations, each reading the previous one as its key three times over: the tree is 3^30 nodes, the DAG small.
    lines = ["v0 = Q_a"] + [f"v{k} = rightmost past [v{k - 1}@j] v{k - 1} default false" for k in range(1, 31)]
    p = B.parse("\n".join(lines) + "\noutput v30")
    f = B.to_formulas(p)["v30"]
    assert len(lg.subformulas(f)) < 200 and hash(f) == hash(f)
