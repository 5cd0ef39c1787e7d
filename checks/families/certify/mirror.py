"""A Python mirror of lean/HardSoft/Cert/Check.lean's ``check``: it names the FIRST part of a certificate that fails.

Lean's kernel evaluation of ``check`` is the verdict; this mirror only says WHERE a certificate
fails (which layer, head, group, coordinate), so that ``hardsoft certify`` can print it in one line.
It follows the Lean definitions function by function (same names in snake case, same order of
conjuncts), over exact Fractions.  A disagreement between the mirror and Lean is an internal
error of hardsoft, reported as such (``checks.families.certify.run``).

``check(C, M)`` returns None when Lean's ``check C M`` would return true, else the first failure
as one line.  The evaluators of Logic.lean (``symEval``, ``keval``, ``conjLits``) are mirrored
here too (``keval`` is the description's, ``constructive.logic.certificate.keval``).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from hardsoft.constructive.logic.certificate import (
    Certificate,
    CntD,
    Feat,
    GroupD,
    HeadD,
    HeadW,
    LayerD,
    LayerW,
    ModelW,
    Node,
    Role,
    Span,
    SVec,
    UnitW,
    all_assignments,
    keval,
)
from hardsoft.constructive.logic.certificate import copy_err as certificate_copy_err
from hardsoft.constructive.logic.certificate import err_lk as certificate_err_lk

#: What ``nodeAt`` gives past the end of the program (Logic.lean).
NODE_DEFAULT = Node("const", (False,))
ROLE_ZERO = Role("zero")


class Fail(Exception):
    """The first check that failed, as one line."""


# ---------------------------------------------------------------- Basic.lean / Model.lean


def sv_get(v: SVec, k: int) -> Fraction:
    """Return ``svGet v k``: the sum of v's entries at coordinate k."""
    return sum((w for c, w in v if c == k), Fraction(0))


def same_vec_at(v: SVec, t: SVec) -> int | None:
    """Return None when ``sameVec v t``, else the first listed coordinate where they differ."""
    for c in [e[0] for e in v] + [e[0] for e in t]:
        if sv_get(v, c) != sv_get(t, c):
            return c
    return None


def feat_text(f: Feat | None) -> str:
    """Return a feature as Lean writes it (``modEq 3 1``)."""
    if f is None:
        return "?"
    return " ".join([f.kind, *map(str, f.args)])


# ---------------------------------------------------------------- Logic.lean


def node_at(P: Sequence[Node], g: int) -> Node:
    """Return ``nodeAt P g`` (``const false`` past the end)."""
    return P[g] if 0 <= g < len(P) else NODE_DEFAULT


def lin_const(p: int, q: int, r: int) -> bool | None:
    """Return ``linConst``: p i + q n + r > 0 decided for every 0 <= i < n, or None."""
    if 0 < q + r and 0 <= q and 0 <= p + q:
        return True
    if q + r <= 0 and q <= 0 and p + q <= 0:
        return False
    return None


def sym_eval(P: Sequence[Node], a: int, fuel: int, g: int) -> bool | None:
    """Return ``symEval P a fuel g``: a symbol-only node's value at symbol a (None: not symbol-only); a comparison with no
    count left is the constant [r > 0]."""
    if fuel == 0:
        return None
    nd = node_at(P, g)
    k, args = nd.kind, nd.args
    if k == "atom":
        return a == args[0]
    if k == "const":
        return bool(args[0])
    if k == "lin":
        return lin_const(int(args[0]), int(args[1]), int(args[2]))
    if k == "cmp" and not nd.terms:  # no count left: 0 + r > 0 at every position
        return 0 < int(args[0])
    if k == "not":
        x = int(args[0])
        if not x < g:
            return None
        u = sym_eval(P, a, fuel - 1, x)
        return None if u is None else not u
    if k in ("and", "or"):
        x, y = int(args[0]), int(args[1])
        if not (x < g and y < g):
            return None
        u, v = sym_eval(P, a, fuel - 1, x), sym_eval(P, a, fuel - 1, y)
        if u is None or v is None:
            return None
        return (u and v) if k == "and" else (u or v)
    return None


def conj_lits(P: Sequence[Node], I: Sequence[int], fuel: int, g: int, pol: bool) -> list[tuple[int, bool]] | None:
    """Return ``conjLits P I fuel g pol``: node g (at polarity pol) as one conjunction of literals over I, or None."""
    if fuel == 0:
        return None
    if g in I:
        return [(g, pol)]
    nd = node_at(P, g)
    if nd.kind == "const":
        return [] if bool(nd.args[0]) == pol else None
    if nd.kind == "not":
        x = int(nd.args[0])
        return conj_lits(P, I, fuel - 1, x, not pol) if x < g else None
    if nd.kind in ("and", "or"):
        x, y = int(nd.args[0]), int(nd.args[1])
        if (pol if nd.kind == "and" else not pol) and x < g and y < g:
            a, b = conj_lits(P, I, fuel - 1, x, pol), conj_lits(P, I, fuel - 1, y, pol)
            return None if a is None or b is None else a + b
    return None


# ---------------------------------------------------------------- Check.lean: helpers


def covers(s: Span, l: int) -> bool:
    """Return ``Span.covers s l``: the span covers layer boundary l."""
    return s.start <= l and (s.stop is None or l < s.stop)


def role_at(C: Certificate, c: int, l: int) -> Role:
    """Return ``roleAt C c l``: the role of the first of coordinate c's spans that covers boundary l, else zero."""
    for s in C.spans[c] if 0 <= c < len(C.spans) else ():
        if covers(s, l):
            return s.role
    return ROLE_ZERO


def role_text(r: Role) -> str:
    """Return a role in a few words (``node 3``, ``feature idx``, ``nothing``)."""
    if r.kind in ("val", "single", "pre"):
        return f"{ {'val': 'V', 'single': 'W', 'pre': 'the constant part of V'}[r.kind] } of comparison {r.node}"
    if r.kind == "avg":
        return f"the average of #{r.d}[{r.node}]"
    if r.kind == "avgN":
        return f"the average of #{r.d}[{r.node}] / n"
    if r.kind == "scaled":
        return f"node {r.node}'s value / n"
    if r.kind in ("vpre", "vmix"):
        return f"{'the constant part of ' if r.kind == 'vpre' else ''}V = N/n of comparison {r.node}"
    return f"node {r.node}" if r.kind == "node" else f"feature {feat_text(r.feat)}" if r.kind == "feat" else "nothing"


def crd(C: Certificate, g: int) -> int:
    """Return ``crd C g``."""
    return C.coord[g] if 0 <= g < len(C.coord) else 0


def gamma_rule(C: Certificate) -> Fraction:
    """Return ``gammaRule``: K/c (bounded, or the mixed comparisons' rule), K (unbounded)."""
    return C.K / C.c if C.bounded or C.mixed else C.K


def err_lk(C: Certificate) -> Fraction:
    """Return ``errLk``: 1 / (1 + (1/c)/k)^k >= exp(-1/c), a lookup over positions' x at the mixed rule (the description's own)."""
    return certificate_err_lk(C.c, C.exp_k)


def copy_err(C: Certificate) -> Fraction:
    """Return ``copyErr``: 2 errLk / (1 - errLk)^2, the bound on a copied count's error (the description's own)."""
    return certificate_copy_err(C.c, C.exp_k)


def err_rule(C: Certificate) -> Fraction:
    """Return ``errRule``: 1 / (1 + gamma/k)^k."""
    return 1 / (1 + gamma_rule(C) / C.exp_k) ** C.exp_k


def feat_coord(C: Certificate, f: Feat, l: int) -> int | None:
    """Return ``featCoord C f l``: the first coordinate whose role at boundary l is the feature f."""
    for k in range(len(C.spans)):
        if role_at(C, k, l) == Role("feat", f):
            return k
    return None


def feat_is(P: Sequence[Node], g: int, f: Feat) -> bool:
    """Return ``featIs P g f``: node g is the formula the feature f computes."""
    nd = node_at(P, g)
    if nd.kind == "first":
        return f == Feat("isFirst")
    if nd.kind == "last":
        return f == Feat("isLast")
    if nd.kind in ("modEq", "lin"):
        return f == Feat(nd.kind, tuple(int(a) for a in nd.args))
    return False


def listed_equiv(C: Certificate, g2: int, g1: int) -> bool:
    """Return ``listedEquiv``."""
    return any(e.node == g2 and e.like == g1 for e in C.equiv)


def rep(C: Certificate, g: int, l: int) -> bool:
    """Return ``rep C g l``: coordinate crd g holds node g's value exactly at layer boundary l."""
    r = role_at(C, crd(C, g), l)
    if r.kind == "node":
        return r.node == g or listed_equiv(C, g, r.node)
    if r.kind == "feat" and r.feat is not None:
        return feat_is(C.prog, g, r.feat)
    return False


def conjuncts(P: Sequence[Node], fuel: int, r: int) -> list[int]:
    """Return ``conjuncts P fuel r``."""
    if fuel == 0:
        return [r]
    nd = node_at(P, r)
    if nd.kind == "and":
        x, y = int(nd.args[0]), int(nd.args[1])
        return [r] + (conjuncts(P, fuel - 1, x) + conjuncts(P, fuel - 1, y) if x < r and y < r else [])
    return [r]


def neg_of(C: Certificate, h: int, f: int) -> bool:
    """Return ``negOf C h f``: h is the negation of f, as far as syntax and the symbols show."""
    nf, nh = node_at(C.prog, f), node_at(C.prog, h)
    if nf.kind == "not" and nf.args[0] == h and h < f:
        return True
    if nh.kind == "not" and nh.args[0] == f and f < h:
        return True
    for a in range(C.nsym):
        u, v = sym_eval(C.prog, a, h + 1, h), sym_eval(C.prog, a, f + 1, f)
        if u is None or v is None or u == v:
            return False
    return True


def implies_f(C: Certificate, c: int, f: int) -> bool:
    """Return ``impliesF C c f``."""
    if c == f:
        return True
    for a in range(C.nsym):
        u, v = sym_eval(C.prog, a, c + 1, c), sym_eval(C.prog, a, f + 1, f)
        if u is None or v is None or (u and not v):
            return False
    return True


def select_ok(C: Certificate, past: bool, anchored: bool, b: int, x: int, r: int) -> bool:
    """Return ``selectOK``: Lemma 8's conditions on the select b of x S r (past) or x U r."""
    nb = node_at(C.prog, b)
    if nb.kind != "or":
        return False
    u, v = int(nb.args[0]), int(nb.args[1])
    if not anchored:
        ny = node_at(C.prog, v)
        return u == r and r < b and v < b and ny.kind == "not" and ny.args[0] == x and x < v
    h, p = u, v
    if not (h < b and p < b and neg_of(C, h, x)):
        return False
    npn = node_at(C.prog, p)
    if npn.kind == "prev":
        ok = past and npn.args[0] == h and h < p
    elif npn.kind == "next":
        ok = (not past) and npn.args[0] == h and h < p
    else:
        ok = False
    cj = conjuncts(C.prog, r + 1, r)
    return ok and p in cj and any(implies_f(C, c, x) for c in cj)


#: ``Family.mask``, ``Family.past``, ``Family.tiebreak``, ``Family.inRegime`` (bounded families) of the select families;
#: ``CNT_MASK`` the count head's mask by direction.
FAMILY_MASK = {"tbPastB": "strict", "tbPastU": "strict", "lkPast": "strict", "tbFutB": "strictAnti", "tbFutU": "strictAnti", "lkFut": "strictAnti"}
CNT_MASK = {"<": "strict", "<=": "causal", ">": "strictAnti"}
FAMILY_PAST = {"tbPastB", "tbPastU", "lkPast"}
FAMILY_LOOKUP = {"lkPast", "lkFut"}
FAMILY_BOUNDED = {"tbPastB", "tbFutB"}


def score_template(C: Certificate, fam: str, sel: int | None, l: int) -> list[tuple[SVec, SVec]] | None:
    """Return ``scoreTemplate C fam sel l``: the family's (query column, key column) pairs over the features' coordinates at
    boundary l, or None if a feature has no coordinate there."""
    sel_t: SVec = ((crd(C, sel), C.K),) if sel is not None else ()
    one, K = Fraction(1), C.K
    o = feat_coord(C, Feat("one"), l)
    if fam in ("tbPastB", "tbFutB"):
        p = feat_coord(C, Feat("iOverN"), l)
        if o is None or p is None:
            return None
        return [(((o, one),), ((p, K if fam == "tbPastB" else -K), *sel_t))]
    if fam in ("tbPastU", "tbFutU"):
        p, m = feat_coord(C, Feat("idx"), l), feat_coord(C, Feat("len"), l)
        if o is None or p is None or m is None:
            return None
        return [(((o, one),), ((p, K if fam == "tbPastU" else -K),)), (((m, one),), sel_t)]
    p, s = feat_coord(C, Feat("idx"), l), feat_coord(C, Feat("idxSq"), l)
    if o is None or p is None or s is None:
        return None
    off = -one if fam == "lkPast" else one
    return [(((p, one), (o, off)), ((p, 2 * K),)), (((o, one),), ((s, -K),))]


def term_kind_ok(C: Certificate, hd: HeadD, node: int, src: int) -> bool:
    """Return ``termKindOK``: the node a value term serves is the family's operator over its source (and select)."""
    nd = node_at(C.prog, node)
    past = hd.fam in FAMILY_PAST
    if hd.sel is None:
        if nd.kind == "prev":
            return past and nd.args[0] == src and int(nd.args[0]) < node
        if nd.kind == "next":
            return (not past) and nd.args[0] == src and int(nd.args[0]) < node
        return False
    if nd.kind in ("since", "until"):
        x, r = int(nd.args[0]), int(nd.args[1])
        right_way = past if nd.kind == "since" else not past
        return (
            right_way
            and hd.fam not in FAMILY_LOOKUP
            and r == src
            and x < node
            and r < node
            and select_ok(C, nd.kind == "since", hd.anchored, hd.sel, x, r)
        )
    return False


def same_cols(where: str, vs: Sequence[SVec], ts: Sequence[SVec]) -> None:
    """Fail unless ``sameCols vs ts`` (pairwise equal sparse columns, equal counts)."""
    for t, (v, tt) in enumerate(zip(vs, ts)):
        c = same_vec_at(v, tt)
        if c is not None:
            raise Fail(f"{where} {t}: coordinate {c} holds {sv_get(v, c)}, the construction {sv_get(tt, c)}")
    if len(vs) != len(ts):
        raise Fail(f"{where}s: {len(vs)}, the construction has {len(ts)}")


def all_le(ts: Sequence[tuple[int, str, int]]) -> bool:
    """Return ``allLe ts``: at least one term, every term inclusive (#<=)."""
    return bool(ts) and all(d == "<=" for _, d, _ in ts)


def inclusive_cmp(P: Sequence[Node], g: int) -> bool:
    """Return ``inclusiveCmp P g``: node g is a comparison of inclusive counts whose counted nodes come before it."""
    nd = node_at(P, g)
    return nd.kind == "cmp" and all_le(nd.terms) and all(x < g for _, _, x in nd.terms)


def strict_cmp(P: Sequence[Node], g: int) -> bool:
    """Return ``strictCmp P g``: node g is a comparison of strict counts of one direction (#< or #>), its counted nodes before it."""
    nd = node_at(P, g)
    if nd.kind != "cmp" or not nd.terms:
        return False
    ds = {d for _, d, _ in nd.terms}
    return (ds == {"<"} or ds == {">"}) and all(x < g for _, _, x in nd.terms)


def cmp_dir(P: Sequence[Node], g: int) -> str:
    """Return ``cmpDir P g``: the direction of g's first term ("<=" if none, or g is no comparison)."""
    nd = node_at(P, g)
    return nd.terms[0][1] if nd.kind == "cmp" and nd.terms else "<="


def dir_feat(d: str) -> Feat:
    """Return ``dirFeat d``: the feature 1/D of a strict count's denominator (invMaxI for #<, invMaxRest for #>)."""
    return Feat("invMaxRest") if d == ">" else Feat("invMaxI")


def cnt_expected_of(P: Sequence[Node], g: int) -> list[tuple[Fraction, int | None]]:
    """Return ``cntExpectedOf P g``: an inclusive comparison's columns (``cnt_expected``), a strict one's terms only, in order."""
    nd = node_at(P, g)
    if nd.kind != "cmp":
        return []
    if inclusive_cmp(P, g):
        return cnt_expected(nd.terms, int(nd.args[0]))
    return [(Fraction(c), x) for c, _, x in nd.terms]


def pre_const(P: Sequence[Node], g: int) -> Fraction:
    """Return the constant (2r - 1)/2 of comparison g (0 if g is no comparison)."""
    nd = node_at(P, g)
    return Fraction(2 * int(nd.args[0]) - 1, 2) if nd.kind == "cmp" else Fraction(0)


def cnt_expected(ts: Sequence[tuple[int, str, int]], r: int) -> list[tuple[Fraction, int | None]]:
    """Return ``cntExpected ts r``: the count columns (coef, src) of a comparison, the constant r - 1/2 after the first term."""
    if not ts:
        return []
    return [(Fraction(ts[0][0]), ts[0][2]), (Fraction(2 * r - 1, 2), None), *((Fraction(c), x) for c, _, x in ts[1:])]


def cnt_v_ok(C: Certificate, l: int, where: str, vs: Sequence[SVec], ts: Sequence[CntD]) -> None:
    """Fail unless ``cntVOK C l vs ts``: each value column reads its counted node (held exactly before layer l) or is_first."""
    for k, (v, t) in enumerate(zip(vs, ts)):
        if t.sc is not None:
            want: SVec = ((t.sc, Fraction(1)),)
        elif t.src is not None:
            want = ((crd(C, t.src), Fraction(1)),)
        else:
            f = feat_coord(C, Feat("isFirst"), l - 1)
            if f is None:
                raise Fail(f"{where}: the constant's column reads is_first, which has no coordinate")
            want = ((f, Fraction(1)),)
        c = same_vec_at(v, want)
        if c is not None:
            raise Fail(f"{where}: value column {k}: coordinate {c} holds {sv_get(v, c)}, the construction {sv_get(want, c)}")
        if t.sc is not None and role_at(C, t.sc, l - 1) != Role("scaled", node=t.src if t.src is not None else -1):
            raise Fail(f"{where}: value column {k}: coordinate {t.sc} does not hold node {t.src}'s value / n before layer {l}")
        if t.sc is None and t.src is not None and not rep(C, t.src, l - 1):
            raise Fail(f"{where}: the counted node {t.src} is not held exactly at coordinate {crd(C, t.src)} before layer {l}")
    if len(vs) != len(ts):
        raise Fail(f"{where}: value columns: {len(vs)}, the construction has {len(ts)}")


def cnt_head_ok(C: Certificate, l: int, where: str, hw: HeadW, hd: HeadD) -> None:
    """Fail unless ``cntHeadOK``: the count head's weights are its construction (no score, its columns into V) at layer l."""
    if hw.mask != CNT_MASK[hd.d]:
        raise Fail(f"{where}: mask {hw.mask}, the construction's is {CNT_MASK[hd.d]}")
    if hd.sel is not None or hd.anchored or hd.terms or not hd.cnt:
        raise Fail(f"{where}: a count head has no select, no value terms, and at least one column")
    if hd.d != "<=" and any(t.src is None for t in hd.cnt):
        raise Fail(f"{where}: a strict count head has no constant column")
    if hd.d == "<=" and any(t.avg for t in hd.cnt):
        raise Fail(f"{where}: an inclusive count head has no average column")
    same_cols(f"{where}: query column", hw.q, [()])
    same_cols(f"{where}: key column", hw.k, [()])
    cnt_v_ok(C, l, where, hw.v, hd.cnt)
    same_cols(f"{where}: output row", hw.o, [((t.vc, t.coef),) for t in hd.cnt])
    for t in hd.cnt:
        kind = node_at(C.prog, t.g).kind
        if t.sc is not None and not (t.avg and C.bounded):
            raise Fail(f"{where}: a column reading a value / n is a bounded average column")
        if t.avg:
            if t.src != t.g or t.coef != 1:
                raise Fail(f"{where}: an average column reads its counted node {t.g} with coefficient 1")
            avg = Role("avg" if t.sc is None else "avgN", node=t.g, d=hd.d)
            if role_at(C, t.vc, l - 1) != ROLE_ZERO or role_at(C, t.vc, l) != avg:
                raise Fail(f"{where}: coordinate {t.vc} does not become {role_text(avg)} at layer {l}")
            continue
        if hd.d == "<=" and not inclusive_cmp(C.prog, t.g):
            raise Fail(f"{where}: node {t.g} ({kind}) is not a comparison of inclusive counts whose counted nodes come before it")
        if hd.d != "<=" and not (strict_cmp(C.prog, t.g) and cmp_dir(C.prog, t.g) == hd.d):
            raise Fail(f"{where}: node {t.g} ({kind}) is not a comparison of strict counts {hd.d} whose counted nodes come before it")
        before = ROLE_ZERO if hd.d == "<=" else Role("pre", node=t.g)
        if role_at(C, t.vc, l - 1) != before or role_at(C, t.vc, l) != Role("val", node=t.g):
            raise Fail(f"{where}: coordinate {t.vc} does not go from {role_text(before)} to V of comparison {t.g} at layer {l}")


def sign_head_ok(C: Certificate, l: int, where: str, hw: HeadW, hd: HeadD) -> None:
    """Fail unless ``signHeadOK``: the sign head's weights are its construction at layer l."""
    if hw.mask != "none":
        raise Fail(f"{where}: mask {hw.mask}, the construction's is none")
    if hd.sel is not None or hd.anchored:
        raise Fail(f"{where}: a sign head has no select")
    if len(hd.terms) != 1:
        raise Fail(f"{where}: a sign head has one value term")
    t, w, vc = hd.terms[0], hd.wc, hd.vc
    g = t.node
    if t.src != g:
        raise Fail(f"{where}: the value term of node {g} reads node {t.src}, not itself")
    if inclusive_cmp(C.prog, g):
        if not hd.o:
            raise Fail(f"{where}: orientation -1, which an inclusive comparison never has")
        if w is None:
            raise Fail(f"{where}: an inclusive comparison's sign head reads its W")
    elif strict_cmp(C.prog, g) or (C.bounded and C.mixed and mixed_cmp(C.prog, g)):
        r = int(node_at(C.prog, g).args[0])
        if hd.o != (1 <= r):
            raise Fail(f"{where}: orientation {'+1' if hd.o else '-1'}, the comparison's constant r = {r} gives {'+1' if 1 <= r else '-1'}")
        if w is not None:
            raise Fail(f"{where}: a strict comparison's sign head reads no W")
    else:
        raise Fail(f"{where}: node {g} ({node_at(C.prog, g).kind}) is not a comparison whose counted nodes come before it")
    v_role = Role("vmix" if mixed_cmp(C.prog, g) else "val", node=g)
    if role_at(C, vc, l - 1) != v_role:
        raise Fail(f"{where}: coordinate {vc} does not hold {role_text(v_role)} before layer {l}")
    if w is not None and role_at(C, w, l - 1) != Role("single", node=g):
        raise Fail(f"{where}: coordinate {w} does not hold W of comparison {g} before layer {l}")
    if role_at(C, crd(C, g), l - 1) != ROLE_ZERO or role_at(C, crd(C, g), l) != Role("node", node=g):
        raise Fail(f"{where}: the target coordinate {crd(C, g)} of node {g} does not become node {g} at layer {l}")
    one, par = feat_coord(C, Feat("one"), l - 1), feat_coord(C, Feat("parity"), l - 1)
    kp = feat_coord(C, Feat("parity" if C.bounded else "lenParity"), l - 1)
    if one is None or par is None or kp is None:
        raise Fail(f"{where}: a feature the construction reads has no coordinate")
    half = Fraction(1, 2)
    same_cols(f"{where}: query column", hw.q, [((vc, C.K if hd.o else -C.K),)])
    same_cols(f"{where}: key column", hw.k, [((kp, Fraction(1)),)])
    value: SVec = ((one, half), (par, half)) if w is None else ((one, half), (par, half), (w, Fraction(-1)))
    same_cols(f"{where}: value column", hw.v, [value])
    same_cols(f"{where}: output row", hw.o, [((crd(C, g), Fraction(1)),)])


def head_ok(C: Certificate, l: int, h: int, hw: HeadW, hd: HeadD) -> None:
    """Fail unless ``headOK C l hw hd``: the head's weights are its family's construction at layer l."""
    where = f"layer {l} head {h} ({hd.fam})"
    if hd.fam == "cnt":
        cnt_head_ok(C, l, where, hw, hd)
        return
    if hd.fam == "sign":
        sign_head_ok(C, l, where, hw, hd)
        return
    if hd.fam == "plk":
        plk_head_ok(C, l, where, hw, hd)
        return
    if hd.fam == "plkN":
        plkn_head_ok(C, l, where, hw, hd)
        return
    head_ok_sel(C, l, where, hw, hd)


def head_ok_sel(C: Certificate, l: int, where: str, hw: HeadW, hd: HeadD) -> None:
    """Fail unless ``headOKSel C l hw hd``: a select family's head (tie-breaking, lookup) is its construction at layer l."""
    if (hd.fam in FAMILY_BOUNDED) != C.bounded:
        raise Fail(f"{where}: a construction of the other regime")
    if hw.mask != FAMILY_MASK[hd.fam]:
        raise Fail(f"{where}: mask {hw.mask}, the construction's is {FAMILY_MASK[hd.fam]}")
    if hd.sel is not None and not rep(C, hd.sel, l - 1):
        raise Fail(f"{where}: the select node {hd.sel} is not held exactly at coordinate {crd(C, hd.sel)} before layer {l}")
    tm = score_template(C, hd.fam, hd.sel, l - 1)
    if tm is None:
        raise Fail(f"{where}: a feature the construction reads has no coordinate")
    same_cols(f"{where}: query column", hw.q, [a for a, _ in tm])
    same_cols(f"{where}: key column", hw.k, [b for _, b in tm])
    same_cols(f"{where}: value column", hw.v, [((crd(C, t.src), Fraction(1)),) for t in hd.terms])
    same_cols(f"{where}: output row", hw.o, [((crd(C, t.node), Fraction(1)),) for t in hd.terms])
    for t in hd.terms:
        if not rep(C, t.src, l - 1):
            raise Fail(f"{where}: the value read, node {t.src}, is not held exactly at coordinate {crd(C, t.src)} before layer {l}")
        if role_at(C, crd(C, t.node), l) != Role("node", node=t.node) or role_at(C, crd(C, t.node), l - 1) != ROLE_ZERO:
            raise Fail(f"{where}: the target coordinate {crd(C, t.node)} of node {t.node} does not become node {t.node} at layer {l}")
        if not term_kind_ok(C, hd, t.node, t.src):
            sel = "" if hd.sel is None else f" with select {hd.sel}"
            raise Fail(f"{where}: node {t.node} ({node_at(C.prog, t.node).kind}) is not this construction over node {t.src}{sel}")


def attended(LD: LayerD) -> list[int]:
    """Return ``attended LD``: every value term's node."""
    return [t.node for hd in LD.heads for t in hd.terms]


def sign_attended(LD: LayerD) -> list[int]:
    """Return ``signAttended LD``: the nodes a sign head attends (error 2 errRule)."""
    return [t.node for hd in LD.heads if hd.fam == "sign" for t in hd.terms]


def flipped(LD: LayerD, g: int) -> bool:
    """Return whether g is in ``flippedAtt LD``: a sign head of orientation -1 attends node g (its raw value is near 1 - [g])."""
    return any(hd.fam == "sign" and not hd.o and any(t.node == g for t in hd.terms) for hd in LD.heads)


def plain_att(LD: LayerD) -> list[int]:
    """Return ``plainAtt LD``: the nodes attended by the layer's heads other than the sign heads of orientation -1."""
    return [t.node for hd in LD.heads if not (hd.fam == "sign" and not hd.o) for t in hd.terms]


def cnt_cols(LD: LayerD) -> list[CntD]:
    """Return ``cntCols LD``: the layer's count columns, in head order."""
    return [t for hd in LD.heads if hd.fam == "cnt" for t in hd.cnt]


def plk_heads(LD: LayerD) -> list[HeadD]:
    """Return the layer's lookups over positions (``plk``), in head order."""
    return [hd for hd in LD.heads if hd.fam == "plk"]


def plk_copies(LD: LayerD) -> list[int]:
    """Return ``plkCopies LD``: the copy coordinates of the layer's lookups over positions."""
    return [hd.cc for hd in plk_heads(LD)]


PLK_MASK = {"<": "causal", ">": "none"}


def _lookup_shape_ok(C: Certificate, where: str, hw: HeadW, hd: HeadD) -> None:
    """Fail unless a lookup over positions (``plkHeadOK``, ``plkNHeadOK``) has errLk < 1, the mask of its count's direction
    (causal for #<, none for #>), no select and no value terms."""
    if not err_lk(C) < 1:
        raise Fail(f"{where}: the rule's bound on exp(-1/c) is not below 1")
    if hd.d not in PLK_MASK:
        raise Fail(f"{where}: a lookup over positions of an inclusive count")
    if hw.mask != PLK_MASK[hd.d]:
        raise Fail(f"{where}: mask {hw.mask}, the construction's is {PLK_MASK[hd.d]}")
    if hd.sel is not None or hd.anchored or hd.terms:
        raise Fail(f"{where}: a lookup over positions has no select and no value terms")


def plk_head_ok(C: Certificate, l: int, where: str, hw: HeadW, hd: HeadD) -> None:
    """Fail unless ``plkHeadOK``: a lookup over positions of the count #_d[x] (Lemma 7 with the positions as the table) at layer l:
    scores 2 p f_i - p^2 / max(D_i, 1) from the average at ``ac``, the key's position p copied into ``cc``."""
    if not C.mixed or C.bounded:
        raise Fail(f"{where}: a lookup over positions needs the mixed comparisons' rule in the unbounded regime")
    _lookup_shape_ok(C, where, hw, hd)
    if role_at(C, hd.ac, l - 1) != Role("avg", node=hd.x, d=hd.d):
        raise Fail(f"{where}: coordinate {hd.ac} does not hold the average of #{hd.d}[{hd.x}] before layer {l}")
    if role_at(C, hd.cc, l - 1) != ROLE_ZERO or role_at(C, hd.cc, l) != ROLE_ZERO:
        raise Fail(f"{where}: the copy's coordinate {hd.cc} holds something at a layer boundary")
    if not hd.cc < len(C.spans):
        raise Fail(f"{where}: the copy's coordinate {hd.cc} lies outside the description's {len(C.spans)} coordinates")
    inv, p, p2 = (feat_coord(C, f, l - 1) for f in (dir_feat(hd.d), Feat("idx"), Feat("idxSq")))
    if inv is None or p is None or p2 is None:
        raise Fail(f"{where}: a feature the construction reads has no coordinate")
    one = Fraction(1)
    same_cols(f"{where}: query column", hw.q, [((hd.ac, Fraction(2)),), ((inv, -one),)])
    same_cols(f"{where}: key column", hw.k, [((p, one),), ((p2, one),)])
    same_cols(f"{where}: value column", hw.v, [((p, one),)])
    same_cols(f"{where}: output row", hw.o, [((hd.cc, one),)])


def mixed_cmp(P: Sequence[Node], g: int) -> bool:
    """Return ``mixedCmp P g``: node g is a comparison of strict counts of both directions (#< and #>), its counted nodes before it."""
    nd = node_at(P, g)
    if nd.kind != "cmp" or not nd.terms:
        return False
    ds = {d for _, d, _ in nd.terms}
    return ds == {"<", ">"} and all(x < g for _, _, x in nd.terms)


def term_coef(P: Sequence[Node], g: int, d: str, x: int) -> int:
    """Return ``termCoef P g d x``: comparison g's coefficient of its first term counting #_d[x] (0 if none)."""
    nd = node_at(P, g)
    return next((c for c, d2, x2 in nd.terms if d2 == d and x2 == x), 0) if nd.kind == "cmp" else 0


def plkn_heads(LD: LayerD) -> list[HeadD]:
    """Return the layer's bounded lookups over positions (``plkN``), in head order."""
    return [hd for hd in LD.heads if hd.fam == "plkN"]


def plkn_head_ok(C: Certificate, l: int, where: str, hw: HeadW, hd: HeadD) -> None:
    """Fail unless ``plkNHeadOK``: a bounded lookup over positions p/n of the count #_d[x] at layer l: scores
    2 (p/n) f_i - (p/n)^2 / max(D_i, 1) from the average / n at ``ac``; per served comparison g, c_k p/n into its V."""
    if not (C.mixed and C.bounded):
        raise Fail(f"{where}: a lookup over positions p/n needs the mixed comparisons' rule in the bounded regime")
    _lookup_shape_ok(C, where, hw, hd)
    if not hd.vs:
        raise Fail(f"{where}: a lookup over positions p/n serves at least one comparison")
    if role_at(C, hd.ac, l - 1) != Role("avgN", node=hd.x, d=hd.d):
        raise Fail(f"{where}: coordinate {hd.ac} does not hold the average of #{hd.d}[{hd.x}] / n before layer {l}")
    inv, p, p2 = (feat_coord(C, f, l - 1) for f in (dir_feat(hd.d), Feat("iOverN"), Feat("iOverNSq")))
    if inv is None or p is None or p2 is None:
        raise Fail(f"{where}: a feature the construction reads has no coordinate")
    one = Fraction(1)
    same_cols(f"{where}: query column", hw.q, [((hd.ac, Fraction(2)),), ((inv, -one),)])
    same_cols(f"{where}: key column", hw.k, [((p, one),), ((p2, one),)])
    same_cols(f"{where}: value column", hw.v, [((p, one),) for _ in hd.vs])
    same_cols(f"{where}: output row", hw.o, [((vc, Fraction(term_coef(C.prog, g, hd.d, hd.x))),) for g, vc in hd.vs])
    for g, vc in hd.vs:
        if role_at(C, vc, l - 1) != Role("vpre", node=g) or role_at(C, vc, l) != Role("vmix", node=g):
            raise Fail(f"{where}: coordinate {vc} does not go from the constant part of V to V = N/n of comparison {g} at layer {l}")


def plkn_ok(C: Certificate, LD: LayerD, l: int) -> None:
    """Fail unless ``plkNOK C LD``: for every (d, x, g, vc) a bounded lookup serves, g is a mixed comparison and the terms served
    into vc (``servedAt``: each entry's (termCoef, d, x)) are g's terms as a multiset (``termPerm``), with
    sum |c_k| copyErr <= 1/4 (V within 1/(4n) of N/n)."""
    ents = [(hd.d, hd.x, g, vc) for hd in plkn_heads(LD) for g, vc in hd.vs]
    for _, _, g, vc in ents:
        nd = node_at(C.prog, g)
        if not mixed_cmp(C.prog, g):
            raise Fail(f"layer {l}: node {g} ({nd.kind}) is not a comparison of counts of both directions whose counted nodes come before it")
        served = [(term_coef(C.prog, g2, d2, x2), d2, x2) for d2, x2, g2, vc2 in ents if vc2 == vc]
        if sorted(served) != sorted(nd.terms):
            raise Fail(f"layer {l}: the lookups into coordinate {vc} add {sorted(served)}, comparison {g}'s terms are {sorted(nd.terms)}")
        budget = sum((Fraction(abs(cf)) for cf, _, _ in served), Fraction(0)) * copy_err(C)
        if not budget <= Fraction(1, 4):
            raise Fail(f"layer {l}: comparison {g}'s copies' error bound {float(budget):.4g} exceeds the sign's tolerance 1/4")


def counts_ok(C: Certificate, LD: LayerD, l: int) -> None:
    """Fail unless ``countsOK C LD``: each comparison counted in the layer has exactly its columns, in order, into one coordinate."""
    every = cnt_cols(LD)
    cols = [t for t in every if not t.avg]
    for t in every:
        if t.avg and [u.vc for u in every].count(t.vc) != 1:
            raise Fail(f"layer {l}: the average column of #{t.g} shares its coordinate {t.vc} with another column")
    for t in cols:
        nd = node_at(C.prog, t.g)
        if nd.kind != "cmp":
            raise Fail(f"layer {l}: a count column serves node {t.g} ({nd.kind}), not a comparison")
        mine = [u for u in cols if u.g == t.g]
        got, want = [(u.coef, u.src) for u in mine], cnt_expected_of(C.prog, t.g)
        if got != want:
            show = lambda xs: ", ".join(f"{c} x {'const' if x is None else x}" for c, x in xs)  # noqa: E731
            raise Fail(f"layer {l}: the count columns of comparison {t.g} are [{show(got)}], its terms and constant [{show(want)}]")
        if any(u.vc != t.vc for u in mine):
            raise Fail(f"layer {l}: the count columns of comparison {t.g} write different coordinates")


def cmp_bound(ts: Sequence[tuple[int, str, int]], r: int) -> Fraction:
    """Return ``cmpBound ts r``: sum_k |c_k| + |r - 1/2| + 1/2."""
    return sum((Fraction(abs(c)) for c, _, _ in ts), Fraction(0)) + abs(Fraction(r) - Fraction(1, 2)) + Fraction(1, 2)


def target(C: Certificate, G: GroupD) -> int:
    """Return ``GroupD.target``: the coordinate of the group's node, the cleared coordinate, or a single group's W."""
    if G.kind in ("clear", "copyErase"):
        return G.node
    return G.wc if G.kind == "single" else G.vc if G.kind in ("pre", "vpre", "scale") else crd(C, G.node)


def ones(s: Sequence[bool]) -> int:
    """Return ``ones``: the number of trues."""
    return sum(1 for b in s if b)


def clamp_col(cs: Sequence[int], fl: Sequence[bool], s: Sequence[bool]) -> SVec:
    """Return ``clampCol cs fl s``: +-2 on each input's coordinate (bit 1: +2, bit 0: -2), negated for a flipped input."""
    return tuple((c, Fraction(2) if b != f else Fraction(-2)) for (c, f), b in zip(zip(cs, fl), s))


def flip_shift(fl: Sequence[bool], s: Sequence[bool]) -> int:
    """Return ``flipShift fl s``: the sum over the flipped inputs of +1 (bit 1) or -1 (bit 0)."""
    return sum((1 if b else -1) for f, b in zip(fl, s) if f)


def flip_of(LD: LayerD, x: int) -> bool:
    """Return ``flipOf LD x``: input x is read flipped (attended in the layer by a sign head of orientation -1, raw value near 1 - [x])."""
    return flipped(LD, x)


def clamp_units_ok(
    where: str, cs: Sequence[int], fl: Sequence[bool], tgt: int, sgn: Fraction, assigns: Sequence[Sequence[bool]], us: Sequence[UnitW]
) -> None:
    """Fail unless ``clampUnitsOK cs fl tgt sgn assigns us``: the clamp unit pairs of the assignments, in order (a flipped input
    read as 1 - y: its weight negated, the bias shifted by ``2 flipShift``)."""
    for k, s in enumerate(assigns):
        if len(us) < 2 * k + 2:
            raise Fail(f"{where}: {len(us)} unit(s), {2 * len(assigns)} expected")
        if len(s) != len(cs):
            raise Fail(f"{where}: assignment {k} has {len(s)} bits for {len(cs)} inputs")
        shift = 2 * flip_shift(fl, s)
        for j, (u, b, o) in enumerate(
            ((us[2 * k], Fraction(3, 2) - 2 * ones(s) + shift, sgn), (us[2 * k + 1], Fraction(1, 2) - 2 * ones(s) + shift, -sgn))
        ):
            col = clamp_col(cs, fl, s)
            c = same_vec_at(u.win, col)
            if c is not None:
                got, want = sv_get(u.win, c), sv_get(col, c)
                raise Fail(f"{where}: unit {2 * k + j} reads coordinate {c} with weight {got}, the clamp of assignment {k} with {want}")
            if u.bias != b:
                raise Fail(f"{where}: unit {2 * k + j} has bias {u.bias}, the clamp {b}")
            c = same_vec_at(u.wout, ((tgt, o),))
            if c is not None:
                raise Fail(f"{where}: unit {2 * k + j} writes {sv_get(u.wout, c)} into coordinate {c}, the clamp {o if c == tgt else 0}")
    if len(us) != 2 * len(assigns):
        raise Fail(f"{where}: {len(us)} unit(s), {2 * len(assigns)} expected")


def input_ok(C: Certificate, LD: LayerD, l: int, x: int) -> bool:
    """Return ``inputOK``: an input is read exactly (rep at l - 1) or is attended in layer l (flipped or not)."""
    return rep(C, x, l - 1) or x in attended(LD)


def approx_count(LD: LayerD, ins: Sequence[int]) -> int:
    """Return ``approxCount``: how many inputs are attended in the layer (approximate in soft mode), a sign-attended one twice."""
    att, sg = attended(LD), sign_attended(LD)
    return sum(1 for x in ins if x in att) + sum(1 for x in ins if x in sg)


def err_of(C: Certificate, LD: LayerD, g: int) -> Fraction:
    """Return ``errOf C LD g``: 2 errRule for a sign-attended node, else errRule."""
    return 2 * err_rule(C) if g in sign_attended(LD) else err_rule(C)


def lits_match(lits: Sequence[tuple[int, bool]], ins: Sequence[int], s: Sequence[bool]) -> bool:
    """Return ``litsMatch``: the literals of a gate are those of the assignment."""
    z = list(zip(ins, s))
    return all(e in z for e in lits) and all(e in lits for e in z)


def _clean_units_ok(where: str, us: Sequence[UnitW], specs: Sequence[tuple[SVec, Fraction, SVec]], what: str) -> None:
    """Fail unless the units are (input column, bias, output row) as listed."""
    if len(us) < len(specs):
        raise Fail(f"{where}: the FFN has too few units")
    for j, (u, (win, b, wout)) in enumerate(zip(us, specs)):
        if same_vec_at(u.win, win) is not None or u.bias != b or same_vec_at(u.wout, wout) is not None:
            raise Fail(f"{where}: unit {j} is not {what}")


def groups_ok(C: Certificate, LD: LayerD, l: int, groups: Sequence[GroupD], units: Sequence[UnitW]) -> None:
    """Fail unless ``groupsOK C LD l groups units``: each group is what it says, consuming the units in order."""
    pos = 0
    att = attended(LD)
    er = err_rule(C)
    for gi, G in enumerate(groups):
        g, cg = G.node, crd(C, G.node)
        where = f"layer {l} FFN group {gi} ({G.kind} of node {g})"
        if G.kind in ("pair", "pairFlip"):
            if g not in att:
                raise Fail(f"{where}: node {g} is not attended in this layer")
            if flipped(LD, g) != (G.kind == "pairFlip"):
                raise Fail(f"{where}: node {g} is {'' if flipped(LD, g) else 'not '}attended by a sign head of orientation -1")
            if G.kind == "pairFlip" and g in plain_att(LD):
                raise Fail(f"{where}: node {g} is attended by a sign head of orientation -1 and by another head")
            two, half = Fraction(2), Fraction(1, 2)
            specs: list[tuple[SVec, Fraction, SVec]] = [(((cg, two),), -half, ((cg, Fraction(1)),)), (((cg, two),), -3 * half, ((cg, Fraction(-1)),))]
            if G.kind == "pairFlip":
                specs = [(((cg, -two),), 3 * half, ((cg, Fraction(1)),)), (((cg, -two),), half, ((cg, Fraction(-1)),))]
            _clean_units_ok(where, units[pos : pos + 2], specs, f"the {'flipped ' if G.kind == 'pairFlip' else ''}clamp of coordinate {cg}")
            if not err_of(C, LD, g) <= Fraction(1, 4):
                raise Fail(f"{where}: the temperature rule's error bound {float(err_of(C, LD, g)):.4g} exceeds the clamp's tolerance 1/4")
            pos += 2
        elif G.kind == "eraser":
            if g not in att:
                raise Fail(f"{where}: node {g} is not attended in this layer")
            _clean_units_ok(
                where, units[pos : pos + 1], [(((cg, Fraction(1)),), Fraction(0), ((cg, Fraction(-1)),))], f"x - ReLU(x) on coordinate {cg}"
            )
            pos += 1
        elif G.kind == "single":
            nd = node_at(C.prog, g)
            if not inclusive_cmp(C.prog, g):
                raise Fail(f"{where}: node {g} ({nd.kind}) is not a comparison of inclusive counts whose counted nodes come before it")
            if not cmp_bound(nd.terms, int(nd.args[0])) <= G.M:
                raise Fail(f"{where}: M = {G.M} is below sum |c_k| + |r - 1/2| + 1/2 = {cmp_bound(nd.terms, int(nd.args[0]))}")
            if role_at(C, G.vc, l) != Role("val", node=g):
                raise Fail(f"{where}: coordinate {G.vc} does not hold V of comparison {g} in this layer")
            if role_at(C, G.wc, l - 1) != ROLE_ZERO or role_at(C, G.wc, l) != Role("single", node=g):
                raise Fail(f"{where}: coordinate {G.wc} does not become W of comparison {g} at layer {l}")
            f, e = feat_coord(C, Feat("isFirst"), l - 1), feat_coord(C, Feat("isLast"), l - 1)
            if f is None or e is None:
                raise Fail(f"{where}: is_first or is_last has no coordinate")
            win: SVec = ((G.vc, Fraction(-1)), (f, G.M), (e, G.M))
            one, half = Fraction(1), Fraction(1, 2)
            specs = [(win, half - 2 * G.M, ((G.wc, one),)), (win, -half - 2 * G.M, ((G.wc, -one),))]
            _clean_units_ok(where, units[pos : pos + 2], specs, f"W's unit from coordinate {G.vc} with M = {G.M}")
            pos += 2
        elif G.kind in ("pre", "vpre"):  # a strict comparison's (r - 1/2) f_dir, a bounded mixed one's (r - 1/2)/n, into V
            if G.kind == "pre" and not strict_cmp(C.prog, g):
                raise Fail(f"{where}: node {g} ({node_at(C.prog, g).kind}) is not a comparison of strict counts")
            if G.kind == "vpre" and not (C.bounded and mixed_cmp(C.prog, g)):
                raise Fail(f"{where}: node {g} ({node_at(C.prog, g).kind}) is not a comparison of counts of both directions (bounded)")
            feat = dir_feat(cmp_dir(C.prog, g)) if G.kind == "pre" else Feat("invN")
            if feat_coord(C, feat, l - 1) != G.src:
                raise Fail(f"{where}: coordinate {G.src} does not hold the feature {feat_text(feat)} before layer {l}")
            if role_at(C, G.vc, l - 1) != ROLE_ZERO or role_at(C, G.vc, l) != Role(G.kind, node=g):
                raise Fail(f"{where}: coordinate {G.vc} does not become {role_text(Role(G.kind, node=g))} at layer {l}")
            q, one = pre_const(C.prog, g), Fraction(1)
            specs = [(((G.src, q),), Fraction(0), ((G.vc, one),)), (((G.src, -q),), Fraction(0), ((G.vc, -one),))]
            _clean_units_ok(where, units[pos : pos + 2], specs, f"the constant {q} times coordinate {G.src} into coordinate {G.vc}")
            pos += 2
        elif G.kind == "scale":
            f = feat_coord(C, Feat("invN"), l - 1)
            if f is None:
                raise Fail(f"{where}: the feature 1/n has no coordinate before layer {l}")
            if not rep(C, g, l - 1):
                raise Fail(f"{where}: node {g} is not held exactly at coordinate {cg} before layer {l}")
            if role_at(C, G.vc, l - 1) != ROLE_ZERO or role_at(C, G.vc, l) != Role("scaled", node=g):
                raise Fail(f"{where}: coordinate {G.vc} does not become node {g}'s value / n at layer {l}")
            one, zero = Fraction(1), Fraction(0)
            specs = [(((f, one),), zero, ((G.vc, one),)), (((f, one), (cg, -one)), zero, ((G.vc, -one),))]
            _clean_units_ok(where, units[pos : pos + 2], specs, f"ReLU(1/n) - ReLU(1/n - y) from coordinate {cg} into coordinate {G.vc}")
            pos += 2
        elif G.kind == "mix":
            nd = node_at(C.prog, g)
            if not mixed_cmp(C.prog, g):
                raise Fail(f"{where}: node {g} ({nd.kind}) is not a comparison of counts of both directions whose counted nodes come before it")
            if role_at(C, cg, l) != Role("node", node=g) or role_at(C, cg, l - 1) != ROLE_ZERO:
                raise Fail(f"{where}: coordinate {cg} does not become node {g} at layer {l}")
            if g in att:
                raise Fail(f"{where}: node {g} is also attended")
            cs = list(G.inputs)
            if len(cs) != len(nd.terms) or len(set(cs)) != len(cs):
                raise Fail(f"{where}: {len(cs)} copies for {len(nd.terms)} terms, or a copy listed twice")
            for k, ((_, d, x), c) in enumerate(zip(nd.terms, cs)):
                if not any(hd.cc == c and hd.d == d and hd.x == x for hd in plk_heads(LD)):
                    raise Fail(f"{where}: coordinate {c} is not the copy of #{d}[{x}] (term {k}) by a lookup of this layer")
            budget = sum((Fraction(abs(cf)) for cf, _, _ in nd.terms), Fraction(0)) * copy_err(C)
            if not budget <= Fraction(1, 4):
                raise Fail(f"{where}: the copies' error bound {float(budget):.4g} exceeds the clamp's tolerance 1/4")
            r = int(nd.args[0])
            mix_in: SVec = tuple((c, Fraction(2 * cf)) for (cf, _, _), c in zip(nd.terms, cs))
            specs = [(mix_in, Fraction(4 * r - 1, 2), ((cg, Fraction(1)),)), (mix_in, Fraction(4 * r - 3, 2), ((cg, Fraction(-1)),))]
            _clean_units_ok(where, units[pos : pos + 2], specs, f"the clamp of 2 N + 1/2 from the copies {cs}")
            pos += 2
        elif G.kind == "copyErase":
            where = f"layer {l} FFN group {gi} (copyErase of coordinate {g})"
            if g not in plk_copies(LD):
                raise Fail(f"{where}: the coordinate is no lookup's copy in this layer")
            one = Fraction(1)
            _clean_units_ok(where, units[pos : pos + 1], [(((g, one),), Fraction(0), ((g, -one),))], f"x - ReLU(x) on coordinate {g}")
            pos += 1
        elif G.kind == "clear":
            where = f"layer {l} FFN group {gi} (clear of coordinate {g})"
            if role_at(C, g, l) != ROLE_ZERO:
                raise Fail(f"{where}: the coordinate is cleared but holds {role_text(role_at(C, g, l))} after the layer")
            if g in [crd(C, x) for x in att]:
                raise Fail(f"{where}: the coordinate is cleared and written by a head")
            one = Fraction(1)
            specs = [(((g, one),), Fraction(0), ((g, -one),)), (((g, -one),), Fraction(0), ((g, one),))]
            _clean_units_ok(where, units[pos : pos + 2], specs, f"-ReLU(x) + ReLU(-x) on coordinate {g}")
            pos += 2
        elif G.kind in ("table", "gate"):
            ins = list(G.inputs)
            if role_at(C, cg, l) != Role("node", node=g) or role_at(C, cg, l - 1) != ROLE_ZERO:
                raise Fail(f"{where}: coordinate {cg} does not become node {g} at layer {l}")
            if g in att:
                raise Fail(f"{where}: node {g} is also attended")
            for x in ins:
                if not input_ok(C, LD, l, x):
                    raise Fail(f"{where}: input node {x} is neither held exactly before layer {l} nor attended in it")
            if G.kind == "table":
                leaves = ins + list(G.extra)
                for rho in all_assignments(len(leaves)):
                    v = keval(C.prog, leaves, rho, g + 1, g)
                    if v != ((tuple(rho[: len(ins)]) in G.assigns) != G.neg):
                        raise Fail(
                            f"{where}: the clamped assignments{' (complemented)' if G.neg else ''} are not node {g}'s truth table at {list(rho)}"
                        )
                assigns = list(G.assigns)
            else:
                lits = conj_lits(C.prog, ins, g + 1, g, not G.neg)
                sigma = G.assigns[0] if len(G.assigns) == 1 else None
                if lits is None or sigma is None or not lits_match(lits, ins, sigma):
                    raise Fail(f"{where}: node {g} is not the gate of these literals")
                assigns = [sigma]
            if not approx_count(LD, ins) * er <= Fraction(1, 4):
                raise Fail(f"{where}: {approx_count(LD, ins)} approximate input(s) times the error bound {float(er):.4g} exceed the tolerance 1/4")
            if G.kind == "table" and len(set(G.assigns)) != len(G.assigns):
                raise Fail(f"{where}: an assignment is listed twice")
            k = 2 * len(assigns)
            fl = [flip_of(LD, x) for x in ins]
            clamp_units_ok(where, [crd(C, x) for x in ins], fl, cg, Fraction(-1) if G.neg else Fraction(1), assigns, units[pos : pos + k])
            pos += k
        else:
            raise Fail(f"{where}: unknown group kind")
    if pos == len(units) - 1 and not units[pos].win and units[pos].bias == 0 and not units[pos].wout:
        return  # one zero unit left: an FFN with no units is written so (constructive.residual.ffn_matrices)
    if pos != len(units):
        raise Fail(f"layer {l} FFN: {len(units)} units, the groups account for {pos}")


def groups_at(C: Certificate, gs: Sequence[GroupD], c: int) -> list[GroupD]:
    """Return ``groupsAt``: the groups writing coordinate c."""
    return [G for G in gs if target(C, G) == c]


def targets_ok(C: Certificate, LD: LayerD, l: int, d: int) -> None:
    """Fail unless ``targetsOK C LD l d``: every coordinate is written by the expected groups."""
    tg = [crd(C, g) for g in attended(LD)]
    if len(set(tg)) != len(tg):
        raise Fail(f"layer {l}: two value terms write the same coordinate")
    for g in attended(LD):
        at = groups_at(C, LD.groups, crd(C, g))
        pk = "pairFlip" if flipped(LD, g) else "pair"
        if not (len(at) == 2 and at[0].kind == pk and at[0].node == g and at[1].kind == "eraser" and at[1].node == g):
            raise Fail(f"layer {l}: coordinate {crd(C, g)} of attended node {g} is not cleaned by its {pk} and eraser alone")
    for G in LD.groups:
        if G.kind in ("table", "gate", "clear", "single", "pre", "mix", "scale", "vpre") and len(groups_at(C, LD.groups, target(C, G))) != 1:
            raise Fail(f"layer {l}: coordinate {target(C, G)} is written by more than one group")
    copies = plk_copies(LD)
    if len(set(copies)) != len(copies):
        raise Fail(f"layer {l}: two heads write the same copy coordinate")
    for c in copies:
        at = groups_at(C, LD.groups, c)
        if not (len(at) == 1 and at[0].kind == "copyErase"):
            raise Fail(f"layer {l}: the copy coordinate {c} is not erased by its copyErase alone")
    counted = [t.vc for t in cnt_cols(LD)] + [vc for hd in plkn_heads(LD) for _, vc in hd.vs]
    for c in range(d):
        if c in copies:
            continue
        before, after = role_at(C, c, l - 1), role_at(C, c, l)
        at = groups_at(C, LD.groups, c)
        if before == after and at:
            raise Fail(f"layer {l}: coordinate {c} keeps {role_text(after)} but a unit writes it")
        if before != after and c in counted:
            if at:
                raise Fail(f"layer {l}: coordinate {c} is a count head's target but a unit writes it")
            continue
        if before != after and not at:
            raise Fail(f"layer {l}: coordinate {c} changes from {role_text(before)} to {role_text(after)} but no unit writes it")


def in_range(d: int, v: SVec) -> bool:
    """Return ``inRange d v``."""
    return all(c < d for c, _ in v)


def layer_in_range_at(d: int, L: LayerW) -> str | None:
    """Return None when ``layerInRange d L``, else which weights lie outside the d coordinates."""
    for h, hw in enumerate(L.heads):
        if not all(in_range(d, col) for col in (*hw.q, *hw.k, *hw.v, *hw.o)):
            return f"head {h}"
    for u, uw in enumerate(L.units):
        if not (in_range(d, uw.win) and in_range(d, uw.wout)):
            return f"unit {u}"
    return None if in_range(d, L.b2) else "the output bias"


def b2_expected(C: Certificate, gs: Sequence[GroupD], c: int) -> Fraction:
    """Return ``b2Expected``: 1 on a negated table's or gate's target, else 0."""
    return Fraction(1) if any(G.kind in ("table", "gate") and G.neg for G in groups_at(C, gs, c)) else Fraction(0)


def layer_ok(C: Certificate, d: int, l: int, LW: LayerW, LD: LayerD) -> None:
    """Fail unless ``layerOK C d l LW LD``: layer l of the model is what its description says."""
    out = layer_in_range_at(d, LW)
    if out is not None:
        raise Fail(f"layer {l}: {out} has a weight outside the {d} coordinates")
    if len(LW.heads) != len(LD.heads):
        raise Fail(f"layer {l}: {len(LW.heads)} head(s), the description lists {len(LD.heads)}")
    for h, (hw, hd) in enumerate(zip(LW.heads, LD.heads)):
        head_ok(C, l, h, hw, hd)
    counts_ok(C, LD, l)
    targets_ok(C, LD, l, d)
    groups_ok(C, LD, l, LD.groups, LW.units)
    for c in [e[0] for e in LW.b2] + [target(C, G) for G in LD.groups]:
        want = b2_expected(C, LD.groups, c)
        if sv_get(LW.b2, c) != want:
            raise Fail(f"layer {l}: output bias {sv_get(LW.b2, c)} at coordinate {c}, expected {want}")
    plkn_ok(C, LD, l)


def we_expected(C: Certificate, c: int, a: int) -> Fraction:
    """Return ``weExpected C c a``."""
    r = role_at(C, c, 0)
    if r.kind == "node":
        return Fraction(1) if sym_eval(C.prog, a, r.node + 1, r.node) is True else Fraction(0)
    return Fraction(0)


def pe_expected(C: Certificate, c: int, f: Feat) -> Fraction:
    """Return ``peExpected C c f``."""
    r = role_at(C, c, 0)
    if r.kind == "feat":
        return Fraction(1) if f == r.feat else Fraction(0)
    if r.kind == "pre":
        return pre_const(C.prog, r.node) if f == dir_feat(cmp_dir(C.prog, r.node)) else Fraction(0)
    if r.kind == "node":
        nd = node_at(C.prog, r.node)
        if nd.kind == "modEq":
            m, res = int(nd.args[0]), int(nd.args[1])
            if m == 1 and res == 0 and f == Feat("one"):
                return Fraction(1)
            if m == 2 and f == Feat("one"):
                return Fraction(1, 2)
            if m == 2 and f == Feat("parity"):
                return Fraction(1, 2) if res == 0 else Fraction(-1, 2) if res == 1 else Fraction(0)
    return Fraction(0)


def role_embed_ok(C: Certificate, M: ModelW, c: int) -> bool:
    """Return ``roleEmbedOK C M c``: the embedding can set the role of coordinate c."""
    feats = [f for f, _ in M.pe]
    r = role_at(C, c, 0)
    if r.kind == "feat":
        return r.feat in feats
    if r.kind == "node":
        g = r.node
        if all(sym_eval(C.prog, a, g + 1, g) is not None for a in range(C.nsym)):
            return True
        nd = node_at(C.prog, g)
        if nd.kind == "modEq" and nd.args[0] == 1 and nd.args[1] == 0:
            return Feat("one") in feats
        if nd.kind == "modEq" and nd.args[0] == 2:
            return int(nd.args[1]) < 2 and Feat("one") in feats and Feat("parity") in feats
        return False
    if r.kind == "pre":
        return strict_cmp(C.prog, r.node) and dir_feat(cmp_dir(C.prog, r.node)) in feats
    return r.kind == "zero"


def embed_ok(C: Certificate, M: ModelW) -> None:
    """Fail unless ``embedOK C M``: the embedding sets every coordinate to its role's value at layer boundary 0."""
    if len(M.we) != C.nsym:
        raise Fail(f"embedding: {len(M.we)} word-embedding rows for {C.nsym} symbols")
    if not all(in_range(M.d, r) for r in M.we) or not all(in_range(M.d, r) for _, r in M.pe):
        raise Fail(f"embedding: an entry lies outside the {M.d} coordinates")
    feats = [f for f, _ in M.pe]
    if len(set(feats)) != len(feats):
        raise Fail("embedding: a position feature is listed twice")
    for c in range(M.d):
        if not role_embed_ok(C, M, c):
            r = role_at(C, c, 0)
            if r.kind == "feat":
                raise Fail(f"embedding: coordinate {c} holds the feature {feat_text(r.feat)}, which the model does not embed")
            raise Fail(f"embedding: coordinate {c} holds {role_text(r)} from the start, which the embedding cannot set")
        for a in range(C.nsym):
            if sv_get(M.we[a], c) != we_expected(C, c, a):
                raise Fail(f"embedding: symbol {a} writes {sv_get(M.we[a], c)} into coordinate {c}, expected {we_expected(C, c, a)}")
        for f, row in M.pe:
            if sv_get(row, c) != pe_expected(C, c, f):
                raise Fail(f"embedding: feature {feat_text(f)} writes {sv_get(row, c)} into coordinate {c}, expected {pe_expected(C, c, f)}")


def equiv_ok(C: Certificate) -> None:
    """Fail unless ``equivOK C``: every listed equivalence holds on every assignment of its leaves."""
    for e in C.equiv:
        for rho in all_assignments(len(e.leaves)):
            a, b = keval(C.prog, e.leaves, rho, e.node + 1, e.node), keval(C.prog, e.leaves, rho, e.like + 1, e.like)
            if a is None or b is None or a != b:
                raise Fail(f"node {e.node} shares node {e.like}'s coordinate but differs from it at {list(rho)}")


def check(C: Certificate, M: ModelW) -> str | None:
    """Return None when Lean's ``check C M`` would return true, else the first failure as one line."""
    try:
        if len(C.spans) != M.d or len(C.coord) != len(C.prog) or any(c >= M.d for c in C.coord):
            raise Fail(f"the description's coordinates do not fit the model's width {M.d}")
        if not (C.K > 0 and C.c > 0 and C.exp_k > 0):
            raise Fail("the score scale, the temperature constant or the exponent is not positive")
        equiv_ok(C)
        embed_ok(C, M)
        if len(M.layers) != len(C.layers):
            raise Fail(f"the model has {len(M.layers)} layer(s), the description {len(C.layers)}")
        for l, (LW, LD) in enumerate(zip(M.layers, C.layers), start=1):
            layer_ok(C, M.d, l, LW, LD)
        if not (C.root < len(C.prog) and rep(C, C.root, len(M.layers))):
            raise Fail(f"read-out: coordinate {crd(C, C.root)} does not hold the formula after the last layer")
    except Fail as e:
        return str(e)
    return None
