"""Tests of the certificates that need no Lean (``constructive.logic.certificate``, ``checks.families.certify``).

The description and the mirror of the checker on every B-RASP and C-RASP library program and the TL
examples in both regimes, and the strict comparisons' TL examples; the construct named when a program
is outside the fragment (mixed comparisons of counts); tables and gates reading a comparison of
orientation -1 in its sign head's layer, described with their flipped clamps; each planted wrong
certificate named by the mirror, and a weakened mirror that misses one (so the plant tests notice);
the Lean data parsed back and compared with exactly the weights ``--save-model`` writes; the
generated module passing the library's source audit; and ``hardsoft certify`` / ``compile --certify``
with Lean's verdict replaced by a fake one (exit codes, one line, nothing written unless accepted).
Lean itself runs in tests/checks/test_certify_lean.py.
"""

from __future__ import annotations

import dataclasses
import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hardsoft.checks import cli
from hardsoft.checks.families.certify import decide as dc
from hardsoft.checks.families.certify import family as cf
from hardsoft.checks.families.certify import mirror
from hardsoft.checks.families.certify.lean_text import CHUNK_WEIGHTS, MODULE, Entry, chunks, layer_weights, module_text
from hardsoft.checks.families.certify.subjects import Subject, check_subjects, library_subjects, mixed_subjects, prepare, strict_subjects, tl_subjects
from hardsoft.checks.families.certify.verdict import ModuleVerdict, TheoremVerdict
from hardsoft.checks.families.lean.audit import audit_text, declarations
from hardsoft.checks.families.lean.environment import REFUSED_BYTES
from hardsoft.checks.families.lean.sources import commands, tokenize
from hardsoft.checks.result import Outcome
from hardsoft.constructive.logic.certificate import NotCertifiable
from hardsoft.spec.modelio import load_model, save_model
from tests.certify_cases import PLANTS, planted
from tests.logic_strategies import formulas

CERTIFIED = library_subjects() + library_subjects(language="crasp") + tl_subjects() + strict_subjects() + mixed_subjects()


# --------------------------------------------------------------------------- the description and the mirror


@pytest.mark.parametrize("subject", CERTIFIED, ids=lambda s: s.title)
def test_description_passes_the_mirror(subject: Subject) -> None:
    """Every B-RASP and C-RASP library program and TL example, both regimes: the mirror of Lean's check finds nothing wrong."""
    p = prepare(subject)
    assert p.mirror is None
    assert p.weights.d == p.compiled.model.d and len(p.cert.layers) == p.compiled.model.depth


def test_examples_cover_the_constructions() -> None:
    """The certified programs use every head family, anchored selects, shared coordinates, tables, gates, cleared coordinates and
    the single groups of inclusive comparisons, mod, pos and comparisons of counts; V and W roles."""
    fams, kinds, anchored, shared, nodes, roles = set(), set(), False, False, set(), set()
    for s in CERTIFIED:
        p = prepare(s)
        fams |= {h.fam for L in p.cert.layers for h in L.heads}
        kinds |= {g.kind for L in p.cert.layers for g in L.groups}
        anchored |= any(h.anchored for L in p.cert.layers for h in L.heads)
        shared |= bool(p.cert.equiv)
        nodes |= {nd.kind for nd in p.cert.prog}
        roles |= {sp.role.kind for sps in p.cert.spans for sp in sps}
    from hardsoft.constructive.logic.certificate import FAMILIES

    assert fams == set(FAMILIES) and {"plk", "plkN"} <= fams
    groups = {"pair", "pairFlip", "eraser", "table", "gate", "clear", "single", "pre", "mix", "copyErase", "scale", "vpre"}
    assert kinds == groups and anchored and shared
    assert {"modEq", "lin", "first", "last", "since", "until", "prev", "next", "cmp"} <= nodes
    assert roles == {"feat", "node", "val", "single", "pre", "avg", "zero", "scaled", "avgN", "vpre", "vmix"}
    flipped = [
        s.title
        for s in CERTIFIED
        for LD in prepare(s).cert.layers
        for G in LD.groups
        if G.kind == "table" and any(mirror.flip_of(LD, x) for x in G.inputs)
    ]
    assert flipped, "no certified table reads a comparison of orientation -1 in its sign head's layer"


@pytest.mark.parametrize("regime", ["bounded", "unbounded"])
def test_constant_and_mixed_comparisons_described(regime: str) -> None:
    """A comparison with no count left is the constant [r > 0], written by the word embedding (symEval decides it: false for
    `#<[a] - #<[a] > 0`, r = 0; true with >=, r = 1); inclusive, strict and mixed comparisons (#< with #>, beside an
    inclusive one) are described in both regimes, and the mirror accepts them all."""
    from hardsoft.constructive.logic.certificate import Node

    for text, r in (("#<[a] - #<[a] > 0", 0), ("#<[a] - #<[a] >= 0", 1)):
        p = prepare(Subject("tl", text, ("a", "b"), regime))
        assert p.mirror is None and p.cert.prog[p.cert.root] == Node("cmp", (r,), ())
        assert all(mirror.sym_eval(p.cert.prog, a, p.cert.root + 1, p.cert.root) is (r > 0) for a in (0, 1))
        assert not p.weights.layers and all(mirror.sv_get(row, p.cert.coord[p.cert.root]) == r for row in p.weights.we)
    assert prepare(Subject("tl", "#<=[a] > 1 & #<[b] >= #<[a]", ("a", "b"), regime)).mirror is None
    for text in ("#<=[a] > 1 & #<[b] > #>[a]", "#<[a] - #>[b] < 0"):
        p = prepare(Subject("tl", text, ("a", "b"), regime))
        assert p.mirror is None and p.cert.mixed and p.cert.bounded == (regime == "bounded")


def test_inclusive_comparison_described_as_compiled() -> None:
    """majority's description: one count head (its terms and constant r - 1/2 into V), W's group in the same layer, the sign
    head reading V and W in the next; V and W hold their roles from the count layer to the sign layer."""
    from hardsoft.constructive.logic.certificate import CntD, Role, Span, TermD

    p = prepare(Subject("tl", "#<=[a] > #<=[b]", ("a", "b"), "bounded"))
    C = p.cert
    g = C.root
    assert C.prog[g].terms == ((1, "<=", 0), (-1, "<=", 1)) and C.prog[g].args == (0,)
    (cnt,), (sign,) = C.layers[0].heads, C.layers[1].heads
    vc, wc = sign.vc, sign.wc
    assert cnt.fam == "cnt" and cnt.cnt == (CntD(g, vc, 0, Fraction(1)), CntD(g, vc, None, Fraction(-1, 2)), CntD(g, vc, 1, Fraction(-1)))
    assert sign.fam == "sign" and sign.o and sign.terms == (TermD(g, g),) and wc is not None
    single = C.layers[0].groups[0]
    assert (single.kind, single.node, single.vc, single.wc, single.M) == ("single", g, vc, wc, Fraction(7, 2))
    assert C.spans[vc] == (Span(Role("val", node=g), 1),) and C.spans[wc] == (Span(Role("single", node=g), 1),)


def test_strict_comparison_described_as_compiled() -> None:
    """X (#<[Y a] > #<[b]): V holds the constant r - 1/2 times 1/max(i,1) from layer 1's FFN (pre), V from layer 2's count head
    (terms only), read by the sign head of orientation -1 (r = 0) in layer 3, whose raw value the flipped pair cleans; the count
    layer's FFN is the one zero unit of an FFN with no units."""
    from hardsoft.constructive.logic.certificate import Feat, Role, Span

    p = prepare(Subject("tl", "X (#<[Y a] > #<[b])", ("a", "b"), "bounded"))
    C, M = p.cert, p.weights
    g = next(k for k, nd in enumerate(C.prog) if nd.kind == "cmp")
    assert C.prog[g].args == (0,) and [(c, d) for c, d, _ in C.prog[g].terms] == [(1, "<"), (-1, "<")]
    (cnt,), (sign,) = [h for h in C.layers[1].heads if h.fam == "cnt"], C.layers[2].heads
    vc = sign.vc
    assert cnt.d == "<" and [(t.coef, t.src is None) for t in cnt.cnt] == [(1, False), (-1, False)] and {t.vc for t in cnt.cnt} == {vc}
    assert not sign.o and sign.wc is None and C.layers[2].groups[0].kind == "pairFlip"
    pre = C.layers[0].groups[0]
    assert (pre.kind, pre.node, pre.vc) == ("pre", g, vc) and C.spans[pre.src][0].role == Role("feat", Feat("invMaxI"))
    assert C.spans[vc] == (Span(Role("pre", node=g), 1, 2), Span(Role("val", node=g), 2))
    assert C.layers[1].groups == () and len(M.layers[1].units) == 1 and not M.layers[1].units[0].win
    assert p.mirror is None


def test_mixed_comparison_described_as_compiled() -> None:
    """#<[a] + 1 > 2 #>[b] (unbounded): layer 1's count heads write the averages #<[a]/i and #>[b]/(n-1-i) (average columns,
    coefficient 1); layer 2's lookups over positions score 2 p f - p^2 / max(D, 1) (query 2 on the average, -1 on 1/max(D, 1);
    keys p and p^2) and copy p; the clamp reads the copies with 2 c_k = 2 and -4, biases 2r - 1/2 = 3/2 and 2r - 3/2 = 1/2 (r = 1),
    then each copy is erased; the rule is tau = c/max(n-1, 1) with c = 1/ln(32 * 3)."""
    import math

    from hardsoft.constructive.logic.certificate import Feat, Role

    p = prepare(Subject("tl", "#<[a] + 1 > 2 * #>[b]", ("a", "b"), "unbounded"))
    C, M = p.cert, p.weights
    g = C.root
    assert C.prog[g].terms == ((1, "<", 0), (-2, ">", 1)) and C.prog[g].args == (1,)
    assert C.mixed and not C.bounded and C.c == Fraction(1 / math.log(96))
    lt, gt = C.layers[0].heads
    (a_lt,), (a_gt,) = lt.cnt, gt.cnt
    assert (lt.fam, lt.d, a_lt.g, a_lt.src, a_lt.coef, a_lt.avg) == ("cnt", "<", 0, 0, 1, True)
    assert (gt.fam, gt.d, a_gt.g, a_gt.src, a_gt.coef, a_gt.avg) == ("cnt", ">", 1, 1, 1, True)
    assert C.spans[a_lt.vc][-1].role == Role("avg", node=0, d="<") and C.spans[a_gt.vc][-1].role == Role("avg", node=1, d=">")
    k_lt, k_gt = C.layers[1].heads
    assert (k_lt.fam, k_lt.d, k_lt.x, k_lt.ac, k_gt.fam, k_gt.d, k_gt.x, k_gt.ac) == ("plk", "<", 0, a_lt.vc, "plk", ">", 1, a_gt.vc)
    feat = {sps[0].role.feat: k for k, sps in enumerate(C.spans) if sps[0].role.kind == "feat"}
    one, two = Fraction(1), Fraction(2)
    for hd, hw, inv, mask in ((k_lt, M.layers[1].heads[0], "invMaxI", "causal"), (k_gt, M.layers[1].heads[1], "invMaxRest", "none")):
        assert hw.mask == mask
        assert hw.q == (((hd.ac, two),), ((feat[Feat(inv)], -one),)) and hw.k == (((feat[Feat("idx")], one),), ((feat[Feat("idxSq")], one),))
        assert hw.v == (((feat[Feat("idx")], one),),) and hw.o == (((hd.cc, one),),)
    mix, e1, e2 = C.layers[1].groups
    assert (mix.kind, mix.node, mix.inputs) == ("mix", g, (k_lt.cc, k_gt.cc))
    assert (e1.kind, e1.node, e2.kind, e2.node) == ("copyErase", k_lt.cc, "copyErase", k_gt.cc)
    u1, u2, u3, u4 = M.layers[1].units
    win = tuple(sorted(((k_lt.cc, two), (k_gt.cc, Fraction(-4)))))
    cg = C.coord[g]
    assert (tuple(sorted(u1.win)), u1.bias, u1.wout) == (win, Fraction(3, 2), ((cg, one),))
    assert (tuple(sorted(u2.win)), u2.bias, u2.wout) == (win, Fraction(1, 2), ((cg, -one),))
    assert (u3.win, u3.bias, u3.wout) == (((k_lt.cc, one),), 0, ((k_lt.cc, -one),))
    assert (u4.win, u4.bias, u4.wout) == (((k_gt.cc, one),), 0, ((k_gt.cc, -one),))
    assert p.mirror is None


def test_flipped_reading_described_as_compiled() -> None:
    """(#<[a] > 2) & Y b: the table of layer 2 reads the comparison's raw value s (near 1 - [g], orientation -1) in its sign
    head's layer. Its clamp of (1, 1) over the effective inputs (1 - s, Y b) is ReLU(2((1 - s) + y - 2 + 3/4)) - ReLU(...1/4...):
    weight -2 on s, +2 on Y b, biases -1/2 and -3/2 (worked by hand); the mirror, which derives the flip from the layer,
    accepts it."""
    from hardsoft.constructive.logic.certificate import Node

    p = prepare(Subject("tl", "(#<[a] > 2) & Y b", ("a", "b"), "bounded"))
    C, M = p.cert, p.weights
    g = next(k for k, nd in enumerate(C.prog) if nd.kind == "cmp")
    (sign,) = C.layers[1].heads
    assert sign.fam == "sign" and not sign.o and C.prog[g] == Node("cmp", (-2,), ((1, "<", 0),))
    kinds = [G.kind for G in C.layers[1].groups]
    assert kinds == ["pairFlip", "table", "eraser"]
    table = C.layers[1].groups[1]
    assert table.inputs[0] == g and table.assigns == ((True, True),) and not table.neg
    cs, cy = mirror.crd(C, g), mirror.crd(C, table.inputs[1])
    u1, u2 = M.layers[1].units[2:4]
    assert dict(u1.win) == dict(u2.win) == {cs: Fraction(-2), cy: Fraction(2)}
    assert (u1.bias, u2.bias) == (Fraction(-1, 2), Fraction(-3, 2))
    assert p.mirror is None


@pytest.mark.parametrize(
    "text",
    ["!(#<[a] > 0) | (#<[b] > 1) | a | b | Y a", "(#<[a] > 2) & mod(2,0) & a & b & Y a & Y b & X a", "Y a & (#>[a] >= 2)"],
)
def test_flipped_readings_pass_the_mirror(text: str) -> None:
    """Tables with two flipped inputs, a gate reading a flipped comparison, a future count: described, the mirror accepts."""
    p = prepare(Subject("tl", text, ("a", "b"), "bounded"))
    assert p.mirror is None
    flips = [x for LD in p.cert.layers for G in LD.groups if G.kind in ("table", "gate") for x in G.inputs if mirror.flip_of(LD, x)]
    assert flips


@pytest.mark.parametrize("name", sorted(PLANTS))
def test_plant_named_by_the_mirror(name: str) -> None:
    """Each planted wrong certificate: the mirror names the failing part (the test of its Lean verdict is in test_certify_lean)."""
    assert_named(name)


def assert_named(name: str) -> None:
    """Assert that the mirror names plant ``name``'s failing part."""
    p = planted(name)
    assert p.mirror is not None and PLANTS[name][2] in p.mirror, p.mirror


def test_weakened_mirror_is_noticed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A mirror that no longer checks the temperature rule passes the hot plant: the plant test then fails, as it must."""
    monkeypatch.setattr(mirror, "err_rule", lambda C: Fraction(0))
    assert planted("hot").mirror is None
    with pytest.raises(AssertionError):
        assert_named("hot")


def test_mirror_follows_logic_lean() -> None:
    """The mirrored evaluators agree with Logic.lean's definitions on small cases (nodeAt's default is `const false`)."""
    from hardsoft.constructive.logic.certificate import Node, keval

    P = [Node("atom", (0,)), Node("atom", (1,)), Node("and", (0, 1)), Node("not", (2,)), Node("or", (5, 0))]
    assert mirror.node_at(P, 9) == Node("const", (False,))
    assert mirror.sym_eval(P, 0, 4, 3) is True and mirror.sym_eval(P, 1, 4, 3) is True
    assert mirror.sym_eval(P, 0, 5, 4) is None  # a child after its parent: no value
    assert keval(P, [0], [False], 3, 2) is False and keval(P, [0], [True], 3, 2) is None  # Kleene: unknown leaf 1
    assert mirror.conj_lits(P, [0, 1], 4, 3, False) == [(0, True), (1, True)]  # !(a & b) false = a & b
    assert mirror.lin_const(0, 1, 1) is True and mirror.lin_const(1, 0, 0) is None


def _described(f: Any, regime: str) -> tuple[Any, Any] | None:
    """Compile f and describe it; assert the mirror accepts the description. None when the compiler refuses f (its one-line error)."""
    from hardsoft.constructive.logic import compile_formula
    from hardsoft.constructive.logic.certificate import describe, model_weights

    try:
        cf = compile_formula(f, ("a", "b"), regime)
    except ValueError:
        return None
    C = describe(cf)
    assert mirror.check(C, model_weights(cf.model)) is None
    return cf, C


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(f=formulas(max_leaves=5, compilable=True), regime=st.sampled_from(["bounded", "unbounded"]))
def test_random_formulas_described_or_refused(f: Any, regime: str) -> None:
    """Random compilable formulas (inclusive, strict, mixed and constant comparisons among the operators): the description
    passes the mirror; never a refusal, never an internal error."""
    _described(f, regime)


def test_comparison_meaning_is_read_off_the_syntax_not_the_compiler(monkeypatch: pytest.MonkeyPatch) -> None:
    """The certificate's Node.cmp comes from the formula: a compiler whose merge of the terms is wrong (a coefficient
    doubled) compiles and is described, but its columns no longer match the node, and the checker names the count head."""
    from hardsoft.constructive.logic import compiler as cc

    s = Subject("tl", "#<=[a] + #<=[a] > #<=[b]", ("a", "b"), "bounded")
    assert prepare(s).mirror is None  # the two #<=[a] terms merged into 2 #<=[a], as the compiler merges them
    right = cc._canonical_compare

    def doubled(g: Any) -> Any:
        direction, terms, const = right(g)
        return direction, [(2 * c if k == 0 else c, t) for k, (c, t) in enumerate(terms)], const

    monkeypatch.setattr(cc, "_canonical_compare", doubled)
    line = prepare(s).mirror
    assert line is not None and "count" in line, line


def test_mirror_follows_check_lean_comparisons() -> None:
    """The mirrored comparison checks agree with Check.lean's definitions on small cases: an inclusive comparison counts only
    earlier nodes, inclusively; its count columns are the first term, the constant r - 1/2, the other terms; W's bound M."""
    from hardsoft.constructive.logic.certificate import Node

    P = [Node("atom", (0,)), Node("cmp", (0,), ((1, "<=", 0),)), Node("cmp", (0,), ((1, "<=", 2),)), Node("cmp", (0,), ((1, "<", 0),))]
    P.append(Node("cmp", (1,), ()))
    assert mirror.inclusive_cmp(P, 1) and not any(mirror.inclusive_cmp(P, g) for g in (0, 2, 3, 4, 9))
    ts = ((2, "<=", 0), (-1, "<=", 1))
    assert mirror.cnt_expected(ts, -1) == [(Fraction(2), 0), (Fraction(-3, 2), None), (Fraction(-1), 1)]
    assert mirror.cnt_expected((), 3) == []
    assert mirror.cmp_bound(ts, -1) == 5 and mirror.cmp_bound(ts, 2) == 5  # 3 + |r - 1/2| + 1/2


def test_readout_and_alphabet_of_a_saved_model(tmp_path: Path) -> None:
    """A saved model read out elsewhere, or over another alphabet, is not certified (one line)."""
    s = Subject("tl", "a S b")
    m = prepare(s).compiled.model
    other = dataclasses.replace(m, readout=dataclasses.replace(m.readout, coordinate=0))
    with pytest.raises(NotCertifiable, match="^read-out: the model reads coordinate 0"):
        prepare(s, other)
    with pytest.raises(NotCertifiable, match="alphabet"):
        prepare(Subject("tl", "a S b", ("a", "b", "c")), m)


# --------------------------------------------------------------------------- the Lean data = the saved weights

_TOKEN = re.compile(r"\s*(qr \(?-?\d+\)? \d+|:=|[\[\](){},]|[A-Za-z_][\w.]*|-?\d+)")


def parse_lean_model(text: str, tag: str) -> dict[str, Any]:
    """Return the literal ``model_<tag>`` of a generated module as Python data: lists, tuples, records, Fractions, names."""
    body = text.split(f"noncomputable def model_{tag} : ModelW where", 1)[1].split("\n\n", 1)[0]
    toks = [m.group(1) for m in _TOKEN.finditer(body)]
    pos = 0

    def value() -> Any:
        nonlocal pos
        t = toks[pos]
        pos += 1
        if t.startswith("qr"):
            n, d = re.fullmatch(r"qr \(?(-?\d+)\)? (\d+)", t).groups()  # type: ignore[union-attr]
            return Fraction(int(n), int(d))
        if t in ("[", "("):
            close = "]" if t == "[" else ")"
            items = []
            while toks[pos] != close:
                items.append(value())
                if toks[pos] == ",":
                    pos += 1
            pos += 1
            return items if t == "[" else tuple(items)
        if t == "{":
            rec = {}
            while toks[pos] != "}":
                key = toks[pos]
                assert toks[pos + 1] == ":="
                pos += 2
                rec[key] = value()
                if toks[pos] == ",":
                    pos += 1
            pos += 1
            return rec
        return int(t) if re.fullmatch(r"-?\d+", t) else t

    rec: dict[str, Any] = {}
    while pos < len(toks):
        key = toks[pos]
        assert toks[pos + 1] == ":=", toks[pos : pos + 3]
        pos += 2
        rec[key] = value()
    return rec


def lean_feature(f: Any) -> str:
    """Return the model-format name of a parsed Lean feature (``Feat.iOverN`` -> "i/n", (``Feat.modEq``, 3, 1) -> "mod(3,1)" ...)."""
    from hardsoft.constructive.logic.certificate import FEATURES
    from hardsoft.spec.transformer import linear_feature, mod_feature

    if isinstance(f, tuple):  # a negative argument is parenthesised: (-2) parses as a 1-tuple
        args = [a[0] if isinstance(a, tuple) else a for a in f[1:]]
        return mod_feature(*args) if f[0] == "Feat.modEq" else linear_feature(*args)
    return {"Feat." + v: k for k, v in FEATURES.items()}[f]


def dense(entries: list[tuple[int, Fraction]], d: int) -> list[Fraction]:
    """Return a sparse vector as d exact entries."""
    out = [Fraction(0)] * d
    for k, w in entries:
        out[k] += w
    return out


def exact_rows(matrix: Any) -> list[list[Fraction]]:
    """Return a JSON matrix (list of rows of floats) as exact rows."""
    return [[Fraction(x) for x in row] for row in matrix]


SAVED = [
    s
    for s in CERTIFIED
    if s.name in ("dyck1_depth2", "first_a") or s.language == "tl" and ("mod(" in s.text or "pos(" in s.text or s.text == "a S b")
]


@pytest.mark.parametrize("subject", SAVED, ids=lambda s: s.title)
def test_lean_data_is_the_saved_model(subject: Subject, tmp_path: Path) -> None:
    """The weights in the Lean module are exactly those ``--save-model`` writes: parsed back from the Lean text, compared with the JSON file."""
    p = prepare(subject)
    path = tmp_path / "m.json"
    save_model(p.compiled.model, path)
    saved = json.loads(path.read_text())
    loaded = prepare(subject, load_model(path))
    assert loaded.weights == p.weights and loaded.mirror is None  # the saved file read back: the same exact weights
    text, _ = module_text([loaded.entry()])
    lean = parse_lean_model(text, subject.tag)
    d = lean["d"]
    assert d == len(saved["word_embedding"][0])
    assert [dense(r, d) for r in lean["we"]] == exact_rows(saved["word_embedding"])
    assert [lean_feature(e[0]) for e in lean["pe"]] == saved["position_embedding"]["features"]
    assert [dense(e[-1], d) for e in lean["pe"]] == exact_rows(saved["position_embedding"]["matrix"])
    assert len(lean["layers"]) == len(saved["layers"])
    for L, S in zip(lean["layers"], saved["layers"]):
        assert len(L["heads"]) == len(S["heads"])
        for h, sh in zip(L["heads"], S["heads"]):
            for name, key in (("q", "W_Q"), ("k", "W_K"), ("v", "W_V")):
                cols = np.array(exact_rows(sh[key]), dtype=object).T.tolist() if sh[key] and sh[key][0] else []
                assert [dense(c, d) for c in h[name]] == cols, (name, key)
            assert [dense(r, d) for r in h["o"]] == exact_rows(sh["W_O"])
            assert h["mask"] == "Mask." + {"strict_anticausal": "strictAnti"}.get(sh["mask"], sh["mask"])
        ffn = S["ffn"]
        w1 = np.array(exact_rows(ffn["W1"]), dtype=object).T.tolist() if ffn["W1"] and ffn["W1"][0] else []
        assert [dense(u["win"], d) for u in L["units"]] == w1
        assert [u["bias"] for u in L["units"]] == [Fraction(x) for x in ffn["b1"]]
        assert [dense(u["wout"], d) for u in L["units"]] == exact_rows(ffn["W2"])
        assert dense(L["b2"], d) == [Fraction(x) for x in ffn["b2"]]


# --------------------------------------------------------------------------- the generated module


def test_module_passes_the_source_audit() -> None:
    """A module of several certificates passes the library's audit: docs, autoImplicit off, names in HardSoft.Cert, no refused bytes."""
    hostile = Subject("tl", "a S b", name="IO.x #eval -/ debug.y `z`")  # a title with what a comment must not hold
    entries = [prepare(s).entry() for s in check_subjects()] + [
        planted("sign").entry(),
        dataclasses.replace(prepare(hostile).entry(), program="-/ IO."),
    ]
    text, blocks = module_text(entries)
    assert audit_text(text, MODULE.replace(".", "/") + ".lean") == []
    assert not any(w in text.encode() for w in REFUSED_BYTES)
    names = [n for n, _, _ in declarations(commands(tokenize(text)))]
    assert names and all(re.fullmatch(r"HardSoft\.Cert\.[A-Za-z]\w*", n) for n in names) and len(set(names)) == len(names)
    lines = text.split("\n")
    for b in blocks:
        assert lines[b.first - 1].startswith("/-- The formula DAG") and "theorem " + b.theorem.rsplit(".", 1)[1] in "\n".join(
            lines[b.first - 1 : b.last]
        )
        assert lines[b.pin_first - 1].startswith("example :")


@pytest.mark.parametrize("budget", [1, 40, 150, CHUNK_WEIGHTS])
def test_chunks_partition_the_layers(budget: int) -> None:
    """The kernel's chunks of layers: consecutive, every layer in exactly one, each within the budget unless a layer alone exceeds it."""
    for s in check_subjects() + library_subjects()[:2]:
        M = prepare(s).weights
        sizes = chunks(M, budget)
        assert sum(sizes) == len(M.layers) and all(k >= 1 for k in sizes)
        start = 0
        for k in sizes:
            w = [layer_weights(L) for L in M.layers[start : start + k]]
            assert k == 1 or sum(w) <= budget, (budget, w)
            start += k
        if budget == 1:
            assert sizes == [1] * len(M.layers)


def test_chunked_module_joins_every_chunk() -> None:
    """A certificate in chunks: one ``decide +kernel`` per chunk, the chunks joined by ``layersOK_split`` in order, check by rewriting."""
    e = dataclasses.replace(prepare(check_subjects()[0]).entry(), chunk_weights=1)
    text, _ = module_text([e])
    n = len(e.weights.layers)
    assert n >= 2
    decls = [f"theorem layers_{e.tag}_{j} : layersOK cert_{e.tag} model_{e.tag}.d {j} " for j in range(n)]
    assert all(d in text for d in decls) and f"theorem layers_{e.tag}_{n} " not in text
    assert text.count(f"layersOK_split cert_{e.tag} ") == n - 1 and text.count("= true := by decide +kernel") == n
    assert f"unfold check; rw [layers_{e.tag}]; decide +kernel" in text
    assert audit_text(text, MODULE.replace(".", "/") + ".lean") == []


def test_tags_are_distinct() -> None:
    """Every certified program, plant and regime has its own Lean names."""
    tags = [s.tag for s in CERTIFIED] + [planted(n).subject.tag for n in PLANTS]
    assert len(set(tags)) == len(tags)


# --------------------------------------------------------------------------- the command, with Lean's verdict faked


def _fake(monkeypatch: pytest.MonkeyPatch, status: str = "ok", accepted: bool | None = True, why: str = "") -> list[Any]:
    """Replace Lean's verdict by a fake one; return the list of entry lists it was asked about."""
    asked: list[Any] = []

    def check_module(entries: list[Entry], out_dir: Path, progress: Any, library: Any = None) -> ModuleVerdict:
        asked.append(entries)
        v = ModuleVerdict(status, why=why, text="-- the module")
        for e in entries:
            if accepted is not None:
                v.theorems[e.tag] = TheoremVerdict(e.tag, "HardSoft.Cert.x", accepted, "" if accepted else "Lean rejected it (line 9: decide failed)")
        return v

    monkeypatch.setattr(dc, "check_module", check_module)
    return asked


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Return (exit status, stdout, stderr) of ``hardsoft ARGS``."""
    try:
        code = cli.main(list(args))
    except SystemExit as e:
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_accepted_writes_out(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Lean accepts and the mirror agrees: exit 0, one line, the module and its summary in --out."""
    asked = _fake(monkeypatch)
    code, out, _ = _run(capsys, "certify", "a S b", "--out", str(tmp_path / "o"))
    assert code == 0 and out.count("\n") == 1 and out.startswith(dc.ACCEPTED + ": tl `a S b` over a,b (bounded)")
    assert len(asked) == 1 and len(asked[0]) == 1
    summary = json.loads((tmp_path / "o" / "certificate.json").read_text())
    assert summary["program"]["text"] == "a S b" and (tmp_path / "o" / "Certificate.lean").read_text() == "-- the module"


def test_cli_model_of_another_program(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """--model with the saved model of another program: exit 1, the mirror's line, nothing written."""
    _fake(monkeypatch, accepted=False)
    save_model(prepare(Subject("tl", "a U b")).compiled.model, tmp_path / "aub.json")
    code, out, _ = _run(capsys, "certify", "a S b", "--model", str(tmp_path / "aub.json"), "--out", str(tmp_path / "o"))
    assert (
        code == 1
        and out.strip() == "not certified: tl `a S b` over a,b (bounded): layer 1 head 0 (tbPastB): mask strictAnti, the construction's is strict"
    )
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    "status, accepted, model, code, start",
    [
        ("ok", False, None, 4, "internal discrepancy: tl `a S b` over a,b (bounded): Lean rejects the certificate"),
        ("ok", True, "aub", 4, "internal discrepancy: tl `a S b` over a,b (bounded): Lean accepted the certificate, but the mirror"),
        ("undecided", None, None, 3, "not decided: tl `a S b` over a,b (bounded): toolchain gone"),
        ("library", None, None, 1, "not certified: tl `a S b` over a,b (bounded): toolchain gone"),
    ],
)
def test_cli_lean_and_mirror_disagree_or_no_verdict(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    status: str,
    accepted: bool | None,
    model: str | None,
    code: int,
    start: str,
) -> None:
    """Disagreement between Lean and the mirror is internal (4), never certified; no verdict is 3; an unconfirmed library 1."""
    _fake(monkeypatch, status, accepted, "toolchain gone")
    args = ["certify", "a S b", "--out", str(tmp_path / "o")]
    if model:
        save_model(prepare(Subject("tl", "a U b")).compiled.model, tmp_path / "aub.json")
        args += ["--model", str(tmp_path / "aub.json")]
    got, out, _ = _run(capsys, *args)
    assert got == code and out.startswith(start) and out.count("\n") == 1
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    "args, code, text",
    [
        (["certify", "a S"], 2, "hardsoft: error: cannot parse the formula"),
        (["certify", "--lang", "srasp", "x"], 1, "not certified: srasp `x` over a,b (bounded): not certifiable yet: srasp programs"),
        (["certify", "a S b", "--model", "/nonexistent/m.json"], 2, "hardsoft: error: "),
        (["compile", "a S b", "--certify", "--json"], 2, "hardsoft: error: --certify prints one line"),
    ],
)
def test_cli_bad_input_and_outside_the_fragment(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str], code: int, text: str
) -> None:
    """Bad input is one line and exit 2; a program outside the checker's fragment is 'not certified', exit 1; Lean never runs."""
    asked = _fake(monkeypatch)
    got, out, err = _run(capsys, *args)
    assert got == code and (out + err).startswith(text) and (out + err).count("\n") == 1 and asked == []


def test_cli_out_is_a_file(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """--out naming a file is bad input, refused before anything runs."""
    asked = _fake(monkeypatch)
    (tmp_path / "f").write_text("x")
    got, _, err = _run(capsys, "certify", "a S b", "--out", str(tmp_path / "f"))
    assert got == 2 and "is not a folder" in err and asked == []


def test_compile_certify(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """compile --certify prints the compile output, then the certificate's line; the worse exit status wins."""
    _fake(monkeypatch)
    code, out, _ = _run(capsys, "compile", "--lang", "brasp", "--file", str(_library_file("first_a")), "--certify")
    assert code == 0 and out.splitlines()[0].startswith("program   brasp") and out.splitlines()[-1].startswith(dc.ACCEPTED + ": brasp")
    _fake(monkeypatch, accepted=False)
    code, out, _ = _run(capsys, "compile", "a S b", "--certify")
    assert code == 4 and out.splitlines()[-1].startswith("internal discrepancy")


def _library_file(name: str) -> Path:
    """Return the path of a library program's file."""
    from importlib import resources

    return Path(str(resources.files("hardsoft.constructive.lang.library") / f"{name}.brasp"))


def test_family_rows(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The certify family: one row per certificate of make check, OK only when accepted; skipped when claims are selected."""
    _fake(monkeypatch)
    monkeypatch.setattr(cf, "certify", dc.certify)
    rows = cf.run("tiny", tmp_path, lambda m: None)
    assert [r.outcome for r in rows] == [Outcome.OK] * len(check_subjects()) and all(r.verdict == dc.ACCEPTED for r in rows)
    assert "Certificates" in cf.markdown_section(rows)
    _fake(monkeypatch, accepted=False)
    rows = cf.run("tiny", tmp_path, lambda m: None)
    assert [r.outcome for r in rows] == [Outcome.FAILED] * len(check_subjects()) and all(r.verdict == "not certified" for r in rows)
    assert cf.run("tiny", tmp_path, lambda m: None, claims={"E"}) == []


def test_killed_lean_process_is_undecided(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A certificate module whose Lean process is killed (the OOM killer, say) has no verdict: undecided, never cached, never a rejection."""
    from hardsoft.checks.families.certify import verdict as vd
    from hardsoft.checks.families.lean.family import CompiledLibrary
    from hardsoft.checks.families.lean.toolchain import StagedWasm, Toolchain

    monkeypatch.setattr(vd, "verify_wasm_install", lambda tc: {})
    monkeypatch.setattr(vd, "stage_wasm", lambda tc, tmp: StagedWasm(tmp_path / "node", tmp_path / "lean.js", tmp_path / "lib"))
    monkeypatch.setattr(vd, "_run_measured", lambda cmd, cwd, env, timeout: (-9, "", 0.5))
    monkeypatch.setenv("HARDSOFT_LEAN_CACHE", str(tmp_path / "cache"))
    (tmp_path / "bundle").mkdir()
    tc = Toolchain("wasm", "fake", tmp_path, node=tmp_path / "node", lean_js=tmp_path / "lean.js", lean_lib=tmp_path / "lib")
    p = prepare(Subject("tl", "a S b"))
    v = vd.check_module([p.entry()], tmp_path / "out", lambda m: None, CompiledLibrary([], tmp_path / "bundle", "key", tc, None))
    assert v.status == "undecided" and "killed by signal 9" in v.why
    assert dc.decide(p, v).code == 3 and not (tmp_path / "cache" / vd.CACHE_FOLDER).exists()


def test_early_verdict_is_read_only_once_the_library_is_confirmed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``precompile`` (the certificates compiled beside the library's pins) caches Lean's verdict under the key
    ``check_module`` looks up; ``check_module`` reads it only for a confirmed library: a library whose pins failed gives
    "library not confirmed" whatever the cache holds, and a confirmed one reuses the verdict without compiling again."""
    from hardsoft.checks.families.certify import verdict as vd
    from hardsoft.checks.families.lean.family import CompiledLibrary
    from hardsoft.checks.families.lean.toolchain import Toolchain

    monkeypatch.setenv("HARDSOFT_LEAN_CACHE", str(tmp_path / "cache"))
    (tmp_path / "bundle").mkdir()
    tc = Toolchain("wasm", "fake", tmp_path, node=tmp_path / "node", lean_js=tmp_path / "lean.js", lean_lib=tmp_path / "lib")
    p = prepare(Subject("tl", "a S b"))
    compiled: list[str] = []

    def fake_compile(text: str, blocks: Any, lib: Any, log_dir: Path, progress: Any) -> ModuleVerdict:
        compiled.append(lib.key)
        return ModuleVerdict("ok", theorems={b.tag: TheoremVerdict(b.tag, b.theorem, True, "") for b in blocks}, text=text)

    monkeypatch.setattr(vd, "_compile", fake_compile)
    vd.precompile([p.entry()], tmp_path / "out", lambda m: None, tmp_path / "bundle", "key", tc)
    assert compiled == ["key"]
    failed = CompiledLibrary([], tmp_path / "bundle", "key", tc, "lean.pins: FAILED: a pin was rejected")
    v = vd.check_module([p.entry()], tmp_path / "out", lambda m: None, failed)
    assert v.status == "library" and not v.accepted(p.subject.tag) and dc.decide(p, v).code == 1
    monkeypatch.setattr(vd, "_compile", lambda *a: pytest.fail("compiled again"))
    ok = vd.check_module([p.entry()], tmp_path / "out", lambda m: None, CompiledLibrary([], tmp_path / "bundle", "key", tc, None))
    assert ok.accepted(p.subject.tag) and ok.cached
    vd.precompile([p.entry()], tmp_path / "out", lambda m: None, tmp_path / "bundle", "key", tc)  # cached already: nothing compiled
    monkeypatch.setenv("HARDSOFT_LEAN_CACHE", "off")
    vd.precompile([p.entry()], tmp_path / "out", lambda m: None, tmp_path / "bundle", "other", tc)  # no cache: nothing compiled


def test_lean_family_tells_listeners_the_kept_bundle(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The lean family calls each bundle listener with the kept bundle's cache folder and build key as soon as the bundle is
    kept, before its pins are compiled; a removed listener is not called."""
    from hardsoft.checks.families.lean import family as lf
    from hardsoft.checks.families.lean.build import BUNDLE_UNIT, UnitResult
    from hardsoft.checks.families.lean.toolchain import Toolchain

    monkeypatch.setenv("HARDSOFT_LEAN_CACHE", str(tmp_path / "cache"))
    tc = Toolchain("wasm", "fake", tmp_path, node=tmp_path / "node", lean_js=tmp_path / "lean.js", lean_lib=tmp_path / "lib")
    monkeypatch.setattr(lf, "ensure_wasm_toolchain", lambda: tc)
    monkeypatch.setattr(lf.cache, "build_key", lambda *a: ("k" * 64, {}))
    events: list[tuple[str, Any]] = []

    def fake_build_wasm(tc: Any, lean_dir: Path, log_dir: Path, progress: Any, pins: Any, keep: Any) -> dict[str, UnitResult]:
        built = tmp_path / "built"
        built.mkdir()
        (built / "HardSoft.olean").write_bytes(b"olean")
        keep(built)
        events.append(("pins", None))
        return {BUNDLE_UNIT: UnitResult(BUNDLE_UNIT, "HardSoft.lean", "ok", 1.0)}

    monkeypatch.setattr(lf, "build_wasm", fake_build_wasm)
    remove = lf.add_bundle_listener(lambda d, key, t: events.append(("bundle", (d.is_dir(), (d / "HardSoft.olean").read_bytes(), key, t))))
    gone = lf.add_bundle_listener(lambda d, key, t: events.append(("removed listener called", None)))
    gone()
    try:
        out = lf._build(lf.LEAN_DIR, tmp_path / "logs", lambda m: None, None, [], lf._Pins("", [], [], []), need_bundle=True)
    finally:
        remove()
    assert events == [("bundle", (True, b"olean", "k" * 64, tc)), ("pins", None)], events
    assert out.bundle_dir is not None and out.bundle_dir.is_dir() and not lf._BUNDLE_LISTENERS


def test_lean_crash_is_no_verdict() -> None:
    """A Lean process that timed out, was killed, or crashed out of memory (wasm32) gives no verdict: undecided, never "not certified"."""
    from hardsoft.checks.families.certify.verdict import no_verdict

    assert no_verdict(0, "") is None and no_verdict(1, "HardSoft/Certificate.lean:3:0: error: x") is None
    assert no_verdict(None, "") is not None and "signal 9" in (no_verdict(-9, "") or "")
    assert "out of memory" in (no_verdict(1, "[DEBUG] ...\nINTERNAL PANIC: out of memory\n") or "")
    assert "crashed" in (no_verdict(1, "worker sent an error! undefined:undefined: undefined") or "")


# --------------------------------------------------------------------------- the logic's comparisons of counts (Logic.lean's Node.cmp)

CMP_FORMULAS = [
    "#<[a] > #<[b]",
    "#>[a] <= 2 * #>[b] - 1",
    "#<=[a] >= #<=[b] + 1",
    "#<[a] - #>[b] < 0",
    "#<[a & Y b] + #<[b] > 3 & !(#>[a] < 1)",
]


def _cmp_subjects() -> list[tuple[str, Any, tuple[str, ...]]]:
    """The TL formulas above and every C-RASP library program (through its translation to the logic)."""
    from hardsoft.checks.engine.programs import compile_text
    from hardsoft.constructive.lang.library import library
    from hardsoft.constructive.logic import parse

    out: list[tuple[str, Any, tuple[str, ...]]] = [(t, parse(t), ("a", "b")) for t in CMP_FORMULAS]
    for name, x in sorted(library().items()):
        if x.language == "crasp":
            out.append((name, compile_text("crasp", x.text, x.alphabet, "bounded").tl.formula, tuple(x.alphabet)))
    return out


def test_cmp_nodes_mean_the_logic_semantics() -> None:
    """The DAG written for a formula with comparisons of counts (``Node.cmp``: sum_k c_k #_k + r > 0) holds, as Logic.lean's
    ``holds`` reads it (``holds_values``), exactly where the logic's evaluator says, at every position of every word up to length 6."""
    import itertools

    from hardsoft.constructive.logic.certificate import formula_dag, holds_values
    from hardsoft.constructive.logic.semantics import evaluate

    subjects = _cmp_subjects()
    assert sum(1 for name, _, _ in subjects if name not in CMP_FORMULAS) >= 3
    for name, f, alphabet in subjects:
        prog, root = formula_dag(f, alphabet)
        assert any(nd.kind == "cmp" for nd in prog), name
        for n in range(1, 7 if len(alphabet) <= 2 else 5):
            for w in itertools.product(range(len(alphabet)), repeat=n):
                want = evaluate(f, list(w), alphabet)[:, -1]  # subformulas(f) ends with f itself
                assert holds_values(prog, list(w))[root] == list(want), (name, w)


def test_cmp_node_text() -> None:
    """A comparison is written as one ``Node.cmp`` literal: its terms with their directions and signs, and the integer r."""
    from hardsoft.checks.families.certify.lean_text import node
    from hardsoft.constructive.logic.certificate import formula_dag

    prog, root = formula_dag("#<[a] + 2 * #>[b] <= #<[b] - 1")
    a = next(k for k, nd in enumerate(prog) if nd.kind == "atom" and nd.args == (0,))
    b = next(k for k, nd in enumerate(prog) if nd.kind == "atom" and nd.args == (1,))
    # rhs - lhs + 1 > 0: #<[b] - 1 - #<[a] - 2 #>[b] + 1 > 0
    assert node(prog[root]) == f"Node.cmp [((-1), CountDir.lt, {a}), ((-2), CountDir.gt, {b}), (1, CountDir.lt, {b})] 0"
    prog, root = formula_dag("#<=[a] >= 3")
    assert node(prog[root]) == f"Node.cmp [(1, CountDir.le, {root - 1})] (-2)"
    # the compiler's merged nonzero terms: #<=[a] cancels, r = const + 1/2 with const = -1 - 1/2
    prog, root = formula_dag("#<=[a] + #<=[b] > #<=[a] + 1")
    b = next(k for k, nd in enumerate(prog) if nd.kind == "atom" and nd.args == (1,))
    assert node(prog[root]) == f"Node.cmp [(1, CountDir.le, {b})] (-1)"


@pytest.mark.parametrize("subject", CERTIFIED, ids=lambda s: s.title)
def test_certificate_rule_is_the_models_rule(subject: Subject) -> None:
    """The temperature the theorem is about (Check.lean's tauRule: c/n bounded, 1 unbounded; with a mixed comparison
    c/max(n-1, 1), bounded c/(n^2 max(n-1, 1)); c the certificate's exact rational) is the compiled model's tau(n), float for
    float, at every n tried."""
    p = prepare(subject)
    C = p.cert
    for n in (1, 2, 3, 7, 64, 1000):
        if C.mixed:
            rule = C.c / (n * n * max(n - 1, 1)) if C.bounded else C.c / max(n - 1, 1)
        else:
            rule = C.c / n if C.bounded else Fraction(1)
        assert float(rule) == p.compiled.tau(n), (n, float(rule), p.compiled.tau(n))
    assert C.mixed == bool(p.compiled.mixed_scale)


_MIXED_ARGS = ("a", "b", "Y a", "X b", "a S b", "!a", "first")


@st.composite
def mixed_comparisons(draw: st.DrawFn) -> str:
    """A random comparison mixing past and future counts (both directions present, integer coefficients and constants),
    alone or inside a random Boolean / temporal context."""
    k = draw(st.integers(2, 4))
    terms = [
        (draw(st.integers(-3, 3).filter(bool)), d, draw(st.sampled_from(_MIXED_ARGS)))
        for d in ["<", ">", *draw(st.lists(st.sampled_from(["<", ">"]), min_size=k - 2, max_size=k - 2))]
    ]
    side = draw(st.lists(st.booleans(), min_size=len(terms), max_size=len(terms)))
    const = draw(st.integers(-3, 3))

    def expr(ts: list[tuple[int, str, str]], c: int) -> str:
        out = "0"
        for cf, d, x in ts:
            out += f" {'+' if cf > 0 else '-'} {abs(cf)} * #{d}[{x}]"
        return out + (f" {'+' if c >= 0 else '-'} {abs(c)}" if c else "")

    lhs = expr([t for t, s in zip(terms, side) if s], const)
    rhs = expr([t for t, s in zip(terms, side) if not s], 0)
    cmp = f"{lhs} {draw(st.sampled_from(['>', '>=', '<', '<=']))} {rhs}"
    wrap = draw(st.sampled_from(["({})", "!({})", "({}) & Y b", "a S ({})", "X ({})", "({}) | (#<[a] > #<[b])"]))
    return wrap.format(cmp)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=mixed_comparisons(), regime=st.sampled_from(["bounded", "unbounded"]))
def test_random_mixed_comparisons_described_in_both_regimes(text: str, regime: str) -> None:
    """Random mixed comparisons (the general random formulas rarely draw one): in both regimes the description passes the
    mirror, with the mixed rule of the regime (or, no count left, the constant the embedding writes)."""
    got = _described(text, regime)
    if got is None:
        return  # outside the compiler (its one-line error)
    cf, C = got
    if cf.mixed_scale:
        assert C.mixed and C.bounded == (regime == "bounded")
        assert any(hd.fam == ("plkN" if regime == "bounded" else "plk") for LD in C.layers for hd in LD.heads)


def test_copy_error_out_of_reach_is_refused_in_one_line() -> None:
    """mixed_exp_k raises k until the copies' error fits the clamp (k = 32 at C = 301, a real compile) and refuses, in one
    line, a comparison whose coefficients no k <= MAX_EXP_K can serve."""
    from hardsoft.constructive.logic.certificate import EXP_K, MAX_EXP_K, copy_err, mixed_exp_k

    C = prepare(Subject("tl", "#<[a] > 300 * #>[b]", ("a", "b"), "unbounded")).cert
    assert C.exp_k == 32 and mixed_exp_k(C.c, 301, EXP_K) == 32
    assert 301 * copy_err(C.c, 32) <= Fraction(1, 4) < 301 * copy_err(C.c, 16)
    with pytest.raises(NotCertifiable, match=rf"^not certifiable: no bound \(1 \+ g/k\)\^\(-k\) with k <= {MAX_EXP_K} shows a copy error"):
        mixed_exp_k(Fraction(1, 5), 10**6, EXP_K)  # c too large for C: exp(-1/c) alone is over 1/(8 C)


def test_printed_rule_is_the_certificates_rule() -> None:
    """The one line's temperature rule is the theorem's: c/n, 1, and with a mixed comparison c/max(n-1,1) unbounded,
    c/(n^2 max(n-1,1)) bounded (the constant shown rounded)."""
    from hardsoft.checks.families.certify.decide import rule_text

    got = {(f, r): rule_text(prepare(Subject("tl", f, ("a", "b"), r))) for f in ("a S b", "#<[a] > #>[a]") for r in ("bounded", "unbounded")}
    assert got[("a S b", "bounded")] == "tau(n) = 0.360674/n" and got[("a S b", "unbounded")] == "tau(n) = 1"
    assert got[("#<[a] > #>[a]", "unbounded")] == "tau(n) = 0.240449/max(n-1,1)"
    assert got[("#<[a] > #>[a]", "bounded")] == "tau(n) = 0.240449/(n^2 max(n-1,1))"


def test_reused_zeroed_coordinate_is_described() -> None:
    """A lookup's copy coordinate (unbounded), zeroed by its own copyErase in layer t, that the compactor gives to a later
    node: the compactor erases it no second time (Residual.compact's zeroed: two units on a 0 would be a unit on a coordinate
    whose role stays `nothing`, which the checker's targetsOK refuses), so the description passes the mirror. Found by hand;
    none of 800 random mixed comparisons reuse such a coordinate."""
    text = "((#<[a] > #>[b]) S a) & ((#<[b] > #>[a]) U b) & (#<[Y a] + 1 > #>[X b])"
    for regime in ("unbounded", "bounded"):
        p = prepare(Subject("tl", text, ("a", "b"), regime))
        assert p.mirror is None
    u = prepare(Subject("tl", text, ("a", "b"), "unbounded"))
    LD = u.cert.layers
    assert any(G.kind == "copyErase" and G.node == 1 for G in LD[1].groups) and not any(G.kind == "clear" and G.node == 1 for G in LD[2].groups)
    assert u.compiled.reused > 0
