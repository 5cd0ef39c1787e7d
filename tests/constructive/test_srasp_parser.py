"""constructive.srasp.parser: the text syntax round-trips, and every bad program is one line naming where and what."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardsoft.constructive import srasp as sr
from hardsoft.constructive.srasp import language as L
from hardsoft.constructive.srasp import parser as P
from tests.constructive.srasp_strategies import programs

HEAD = 'program "p"\nalphabet "a" "b"\nA = token("a")\nB = token("b")\n'
TAIL = 'output "x" if A, else "y"\n'


def _round_trips(fmt, prog: L.Program) -> bool:  # type: ignore[no-untyped-def]
    return P.parse_program(fmt(prog)) == prog


@given(programs())
def test_format_then_parse_is_the_identity(prog: L.Program) -> None:
    assert _round_trips(P.format_program, prog)


@pytest.mark.parametrize("name", sr.library_names())
def test_library_programs_round_trip(name: str) -> None:
    prog = sr.load_library(name)
    assert P.parse_program(P.format_program(prog)) == prog


def test_a_wrong_printer_is_caught_by_the_round_trip() -> None:
    # planted: a printer that loses the sign of subtracted terms
    prog = P.parse_program(HEAD + "pos = index\nx = pos - 2*A - 1\n" + TAIL)
    assert _round_trips(P.format_program, prog)
    assert not _round_trips(lambda p: P.format_program(p).replace(" - ", " + "), prog)


def test_the_syntax_by_hand() -> None:
    prog = P.parse_program(
        HEAD
        + "pos = index\n"
        + "s = psum(A - 2*B + 3)   # a comment\n"
        + "c = -s + 1 <= 2*pos\n"
        + "f = false\n"
        + "p = leftmost j >= i with pos[j] == pos[i] + 1 and A[j] value B default f\n"
        + "q = rightmost j value A default f\n"
        + "k = if c then A else p\n"
        + "d = strict_psum(A, B)\n"
        + "g = rightmost j <= i with d[j] == d[i] - 1 and A[j] value B default nearest\n"
        + TAIL
    )
    ops = dict(prog.defs)
    assert ops["s"] == L.PrefixSum(L.Lin(((1, "A"), (-2, "B")), 3))
    assert ops["c"] == L.Compare("<=", L.Lin(((-1, "s"),), 1), L.Lin(((2, "pos"),)))
    assert ops["p"] == L.Select("leftmost", "anticausal", "pos", "==", "pos", 1, "A", "B", "f")
    assert ops["q"] == L.Select("rightmost", "none", None, None, None, 0, None, "A", "f")
    assert ops["k"] == L.Cond("c", "A", "p")
    assert ops["d"] == L.Psum("A", "B")
    assert ops["g"] == L.Aggregate("d", "d", -1, "A", "B", "causal")
    assert prog.outputs == (("x", "A"),) and prog.default == "y"


def test_terms_are_merged() -> None:
    prog = P.parse_program(HEAD + "pos = index\nx = pos + pos - A + A + 2 - 2\n" + TAIL)
    assert dict(prog.defs)["x"] == L.Lin(((2, "pos"),), 0)


@pytest.mark.parametrize(
    "text,message",
    [
        (HEAD + 'C = token("a"\n' + TAIL, r"^line 5, column 14: expected '\)' or ','; found the end of the line$"),
        (HEAD + "C = A &\n" + TAIL, r"^line 5, column 7: expected .*; found '&'$"),
        (HEAD + "C = = A\n" + TAIL, r"^line 5, column 5: expected .*; found '='$"),
        ('alphabet "a"\n', r"^line 1, column 1: expected 'program'"),
        (HEAD, r"^line 4, column .*: expected .*the end of the program"),
        (HEAD + "C = rightmost j != i value A default A\n" + TAIL, r"^line 5, column 5: the mask compares j with i by '!='"),
        (HEAD + "C = rightmost j < i with A[j] value A default nearest\n" + TAIL, r"^line 5, column 47: 'default nearest' needs"),
    ],
)
def test_syntax_errors_name_line_column_and_what_was_expected(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message) as e:
        P.parse_program(text)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize(
    "defs,message",
    [
        ("pos = index\nC = not pos\n", r"^line 6, column 9: .*definition 'C' needs a Boolean sequence, 'pos' is integer$"),
        ("pos = index\nC = A and pos\n", r"needs a Boolean sequence, 'pos' is integer"),
        ("pos = index\nf = false\nC = rightmost j with pos[j] value A default f\n", r"needs a Boolean sequence, 'pos' is integer"),
        ("C = not Z\n", r"^line 5, column 9: .*'C' uses 'Z', which is not defined$"),
        ('C = not D\nD = token("a")\n', r"^line 5, column 9: .*'C' uses 'D' before it is defined$"),
        ("C = not D\nD = not C\n", r"^line 5, column 9: .*'C' is on a cycle of definitions: C -> D -> C$"),
        ("C = not C\n", r"^line 5, column 9: .*cycle of definitions: C -> C$"),
        ("C = A and D\nD = B or E\nE = not C\n", r"^line 5, column 11: .*cycle of definitions: C -> D -> E -> C$"),
        ("C = D and E\nD = not A\nE = not F\nF = not C\n", r"^line 5, column 11: .*cycle of definitions: C -> E -> F -> C$"),
        ("A = not B\n", r"^line 5, column 1: .*'A' is defined twice"),
        ("x = 1000001\n", r"^line 5, column 5: the integer 1000001 is above the bound 1000000$"),
        ("x = " + "9" * 400 + "\n", r"^line 5, column 5: the integer 99999999\.\.\.\(400 digits\) is above the bound 1000000$"),
        ("p = index\nx = 1000*p\ny = 1001*x\n", r"^line 7, column 1: .*'y' can reach 1001000 \(i\+1\)\^1, above the bound 1000000$"),
        ("and = not A\n", r"^line 5, column 1: 'and' is a keyword, not a name$"),
        ('C = token("z")\n', r"names symbols \['z'\] not in the alphabet"),
    ],
)
def test_program_errors_are_one_line_with_the_definition_line(defs: str, message: str) -> None:
    with pytest.raises(ValueError, match=message) as e:
        P.parse_program(HEAD + defs + TAIL)
    assert "\n" not in str(e.value)


def test_output_errors() -> None:
    with pytest.raises(ValueError, match=r"^line 5, column 15: .*output 'x' uses 'Z', which is not defined$"):
        P.parse_program(HEAD + 'output "x" if Z, else "y"\n')
    with pytest.raises(ValueError, match=r"^line 6, column 15: .*output 'x' needs a Boolean, 'pos' is an integer$"):
        P.parse_program(HEAD + 'pos = index\noutput "x" if pos, else "y"\n')
    with pytest.raises(ValueError, match="no outputs"):
        P.parse_program(HEAD + 'output else "y"\n')


def test_the_printer_refuses_names_it_cannot_write() -> None:
    prog = L.Program("p", ("a",), (("x<=1", L.Token(("a",))),), (("o", "x<=1"),), "d")
    with pytest.raises(ValueError, match="cannot be written in the text syntax"):
        P.format_program(prog)
    prog = L.Program("p", ("a",), (("index", L.Token(("a",))),), (("o", "index"),), "d")
    with pytest.raises(ValueError, match="cannot be written"):
        P.format_program(prog)
    with pytest.raises(ValueError, match="needs a Program"):
        P.format_program("x")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="is text"):
        P.parse_program(3)  # type: ignore[arg-type]


def test_library_lookup_of_an_unknown_name() -> None:
    with pytest.raises(ValueError, match="no S-RASP library program 'nope'; known: "):
        sr.load_library("nope")


_VALID = sr.library_text("dyck2")


@given(st.text(max_size=200))
def test_any_text_parses_or_gives_a_one_line_value_error(text: str) -> None:
    try:
        P.parse_program(text)
    except ValueError as e:
        assert "\n" not in str(e)


@given(st.integers(0, len(_VALID) - 1), st.integers(0, 40), st.text(max_size=3))
def test_a_damaged_program_parses_or_gives_a_one_line_value_error(at: int, cut: int, insert: str) -> None:
    text = _VALID[:at] + insert + _VALID[at + cut :]
    try:
        prog = P.parse_program(text)
    except ValueError as e:
        assert "\n" not in str(e) and str(e).startswith("line ")
    else:
        assert P.parse_program(P.format_program(prog)) == prog


def test_line_endings_and_blank_lines() -> None:
    text = "\n\n# lead\n" + (HEAD + "\n   \n" + TAIL).replace("\n", "\r\n")
    assert P.parse_program(text) == P.parse_program(HEAD + TAIL)


@pytest.mark.parametrize("bad, where", [('"p\x1f"', "line 1, column 9"), ('"p\\q"', "line 1, column 9")])
def test_a_quoted_symbol_json_cannot_read_is_a_one_line_error(bad: str, where: str) -> None:
    # the grammar's STRING admits a control character or an unknown escape; JSON's decoder (the escapes) does not: one line, no
    # JSONDecodeError text without the line (found by the damaged-program property)
    with pytest.raises(ValueError, match=f"^{where}: the quoted symbol .* is not a valid string") as e:
        P.parse_program(f"program {bad}\n" + 'alphabet "a"\nA = token("a")\noutput "x" if A, else "y"\n')
    assert "\n" not in str(e.value)
