"""The certified programs and the planted wrong certificates of the certify tests (issue 34's list of wrong certificates,
a span of a compacted model's description that outlives its coordinate's clearing, and the comparisons of counts' heads
and units made wrong one at a time).

Each plant takes a correct prepared certificate and makes it wrong in one way; ``PLANTS`` maps a
name to (the subject it starts from, the plant, a part of the line the mirror must print).  The
tests check that the mirror names that part (tests/checks/test_certify.py) and that Lean rejects
every plant (tests/checks/test_certify_lean.py).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from fractions import Fraction

from hardsoft.checks.families.certify.mirror import check, crd
from hardsoft.checks.families.certify.subjects import Prepared, Subject, prepare
from hardsoft.constructive.logic.certificate import Certificate, GroupD, LayerW, ModelW, UnitW

#: The subjects the plants start from (small models: their certificates cost the kernel little).
BASE: dict[str, Subject] = {
    "a_S_b": Subject("tl", "a S b", ("a", "b"), "bounded"),
    "a_S_b_unbounded": Subject("tl", "a S b", ("a", "b"), "unbounded"),
    "a_U_b": Subject("tl", "a U b", ("a", "b"), "bounded"),
    "gates": Subject("tl", "mod(3, 1) & a | mod(2, 0) & Y b", ("a", "b"), "bounded"),
    "compacted": Subject("tl", "!a S (b & Y a)", ("a", "b"), "bounded"),
    "majority": Subject("tl", "#<=[a] > #<=[b]", ("a", "b"), "bounded"),
    "majority_unbounded": Subject("tl", "#<=[a] > #<=[b]", ("a", "b"), "unbounded"),
    "strict": Subject("tl", "#<[a] > #<[b]", ("a", "b"), "bounded"),
    "strict_ffn": Subject("tl", "X (#<[Y a] > #<[b])", ("a", "b"), "bounded"),
    "flipped_reading": Subject("tl", "(#<[a] > 2) & Y b", ("a", "b"), "bounded"),
    "mixed": Subject("tl", "#<[a] + 1 > 2 * #>[b]", ("a", "b"), "unbounded"),
    "mixed_bounded": Subject("tl", "#<[a] + 1 > 2 * #>[b]", ("a", "b"), "bounded"),
    "constant": Subject("tl", "Y a & (#>[b] - #>[b] + 1 > 0)", ("a", "b"), "bounded"),
}


def _with_layer(M: ModelW, l: int, layer: LayerW) -> ModelW:
    """Return M with layer l (0-based) replaced."""
    return dataclasses.replace(M, layers=(*M.layers[:l], layer, *M.layers[l + 1 :]))


def plant_sign(p: Prepared) -> tuple[Certificate, ModelW]:
    """One weight of one head with its sign flipped: layer 1, head 0, key column 0, its first entry."""
    L = p.weights.layers[0]
    h = L.heads[0]
    col = ((h.k[0][0][0], -h.k[0][0][1]), *h.k[0][1:])
    h2 = dataclasses.replace(h, k=(col, *h.k[1:]))
    return p.cert, _with_layer(p.weights, 0, dataclasses.replace(L, heads=(h2, *L.heads[1:])))


def plant_late_layer(p: Prepared) -> tuple[Certificate, ModelW]:
    """One weight of the LAST layer's head 0 with its sign flipped: in a certificate evaluated chunk by chunk (``CHUNKED``),
    the chunk of that layer must fail while the earlier chunks pass."""
    last = len(p.weights.layers) - 1
    L = p.weights.layers[last]
    h = L.heads[0]
    col = ((h.k[0][0][0], -h.k[0][0][1]), *h.k[0][1:])
    h2 = dataclasses.replace(h, k=(col, *h.k[1:]))
    return p.cert, _with_layer(p.weights, last, dataclasses.replace(L, heads=(h2, *L.heads[1:])))


def plant_half_k(p: Prepared) -> tuple[Certificate, ModelW]:
    """A head's scale K halved: every key entry of layer 1's head 0 that is +-K (the unbounded regime's K = ln 16)."""
    L = p.weights.layers[0]
    h = L.heads[0]
    K = p.cert.K
    cols = tuple(tuple((c, w / 2 if abs(w) == K else w) for c, w in col) for col in h.k)
    h2 = dataclasses.replace(h, k=cols)
    return p.cert, _with_layer(p.weights, 0, dataclasses.replace(L, heads=(h2, *L.heads[1:])))


def plant_hot(p: Prepared) -> tuple[Certificate, ModelW]:
    """A temperature rule twice too hot: tau(n) = 2c/n, the certificate's c doubled (the weights unchanged)."""
    return dataclasses.replace(p.cert, c=p.cert.c * 2), p.weights


def _group_units(C: Certificate, l: int, gi: int) -> int:
    """Return the index of the first unit of group gi of layer l (0-based), the groups consuming units in order."""
    pos = 0
    for G in C.layers[l].groups[:gi]:
        pos += {"pair": 2, "pairFlip": 2, "eraser": 1, "clear": 2, "single": 2, "pre": 2, "mix": 2, "copyErase": 1, "scale": 2, "vpre": 2}.get(
            G.kind, 2 * len(G.assigns)
        )
    return pos


def plant_gate(p: Prepared) -> tuple[Certificate, ModelW]:
    """An FFN gate computing the wrong assignment: the first circuit gate's assignment has its first bit flipped, in the
    description and in the weights alike (a consistent clamp of the wrong assignment: only the logic can tell)."""
    C, M = p.cert, p.weights
    l, gi, G = next((l, gi, G) for l, LD in enumerate(C.layers) for gi, G in enumerate(LD.groups) if G.kind == "gate")
    sigma = (not G.assigns[0][0], *G.assigns[0][1:])
    ones = sum(sigma)
    groups = list(C.layers[l].groups)
    groups[gi] = dataclasses.replace(G, assigns=(sigma,))
    layers = list(C.layers)
    layers[l] = dataclasses.replace(C.layers[l], groups=tuple(groups))
    C2 = dataclasses.replace(C, layers=tuple(layers))
    first = _group_units(C, l, gi)
    units = list(M.layers[l].units)
    cs = [crd(C, x) for x in G.inputs]
    win = tuple((c, Fraction(2) if b else Fraction(-2)) for c, b in zip(cs, sigma))
    for j, bias in enumerate((Fraction(3, 2) - 2 * ones, Fraction(1, 2) - 2 * ones)):
        u = units[first + j]
        units[first + j] = UnitW(win, bias, u.wout)
    return C2, _with_layer(M, l, dataclasses.replace(M.layers[l], units=tuple(units)))


def plant_other_program(p: Prepared) -> tuple[Certificate, ModelW]:
    """A model certified against a different program: the description of ``a S b`` with the weights of ``a U b``."""
    return p.cert, prepare(BASE["a_U_b"]).weights


def plant_coordinate(p: Prepared) -> tuple[Certificate, ModelW]:
    """A description that names the wrong coordinate: the read node's coordinate (node 1, b) given as node 0's (a)."""
    coord = list(p.cert.coord)
    coord[1] = coord[0]
    return dataclasses.replace(p.cert, coord=tuple(coord)), p.weights


def plant_span(p: Prepared) -> tuple[Certificate, ModelW]:
    """A compacted model's description whose first cleared coordinate keeps its old role one layer too long (its span's stop
    one layer late): the clearing units then write a coordinate whose role does not change."""
    C = p.cert
    l, G = next((l, G) for l, LD in enumerate(C.layers, start=1) for G in LD.groups if G.kind == "clear")
    late = tuple(dataclasses.replace(s, stop=l + 1) if s.stop == l else s for s in C.spans[G.node])
    return dataclasses.replace(C, spans=tuple(late if k == G.node else v for k, v in enumerate(C.spans))), p.weights


def _with_head(M: ModelW, l: int, h: int, **cols: object) -> ModelW:
    """Return M with head h of layer l (0-based) given the columns ``cols`` (q, k, v, o)."""
    L = M.layers[l]
    heads = list(L.heads)
    heads[h] = dataclasses.replace(heads[h], **cols)  # type: ignore[arg-type]
    return _with_layer(M, l, dataclasses.replace(L, heads=tuple(heads)))


def _first(C: Certificate, fam: str) -> tuple[int, int]:
    """Return (layer, head), 0-based, of the first head of family ``fam``."""
    return next((l, h) for l, LD in enumerate(C.layers) for h, hd in enumerate(LD.heads) if hd.fam == fam)


def plant_count_coef(p: Prepared) -> tuple[Certificate, ModelW]:
    """A count column's coefficient negated in the weights: the first count head's W_O row 0 (the first term's c_0)."""
    l, h = _first(p.cert, "cnt")
    o = p.weights.layers[l].heads[h].o
    return p.cert, _with_head(p.weights, l, h, o=(tuple((c, -w) for c, w in o[0]), *o[1:]))


def plant_count_const(p: Prepared) -> tuple[Certificate, ModelW]:
    """The constant column's coefficient changed by 1 in the description and the weights alike (a consistent count head
    adding the wrong constant: only the comparison's r can tell)."""
    l, h = _first(p.cert, "cnt")
    C, M = p.cert, p.weights
    hd = C.layers[l].heads[h]
    k = next(k for k, t in enumerate(hd.cnt) if t.src is None)
    cnt = list(hd.cnt)
    cnt[k] = dataclasses.replace(cnt[k], coef=cnt[k].coef + 1)
    heads = list(C.layers[l].heads)
    heads[h] = dataclasses.replace(hd, cnt=tuple(cnt))
    layers = list(C.layers)
    layers[l] = dataclasses.replace(C.layers[l], heads=tuple(heads))
    o = list(M.layers[l].heads[h].o)
    o[k] = ((cnt[k].vc, cnt[k].coef),)
    return dataclasses.replace(C, layers=tuple(layers)), _with_head(M, l, h, o=tuple(o))


def plant_sign_w(p: Prepared) -> tuple[Certificate, ModelW]:
    """The sign head's value no longer subtracts W: its W_V entry on W's coordinate dropped (wrong at n = 1 when N < 0)."""
    l, h = _first(p.cert, "sign")
    wc = p.cert.layers[l].heads[h].wc
    v = p.weights.layers[l].heads[h].v
    return p.cert, _with_head(p.weights, l, h, v=(tuple(e for e in v[0] if e[0] != wc), *v[1:]))


def plant_sign_half_k(p: Prepared) -> tuple[Certificate, ModelW]:
    """The sign head's scale K halved: its W_Q entry on V (the unbounded regime's K = ln 16)."""
    l, h = _first(p.cert, "sign")
    q = p.weights.layers[l].heads[h].q
    return p.cert, _with_head(p.weights, l, h, q=(tuple((c, w / 2) for c, w in q[0]), *q[1:]))


def plant_single_m(p: Prepared) -> tuple[Certificate, ModelW]:
    """The single group's M too small: M = 0 in the description and the weights alike (W then fires at every n where
    N < 1/2, not only at n = 1)."""
    C, M = p.cert, p.weights
    l, gi, G = next((l, gi, G) for l, LD in enumerate(C.layers) for gi, G in enumerate(LD.groups) if G.kind == "single")
    groups = list(C.layers[l].groups)
    groups[gi] = dataclasses.replace(G, M=Fraction(0))
    layers = list(C.layers)
    layers[l] = dataclasses.replace(C.layers[l], groups=tuple(groups))
    first = _group_units(C, l, gi)
    units = list(M.layers[l].units)
    for j, bias in enumerate((Fraction(1, 2), Fraction(-1, 2))):
        units[first + j] = UnitW(((G.vc, Fraction(-1)),), bias, units[first + j].wout)
    return dataclasses.replace(C, layers=tuple(layers)), _with_layer(M, l, dataclasses.replace(M.layers[l], units=tuple(units)))


def _with_group(C: Certificate, l: int, gi: int, G: GroupD) -> Certificate:
    """Return C with group gi of layer l (0-based) replaced by G."""
    groups = list(C.layers[l].groups)
    groups[gi] = G
    layers = list(C.layers)
    layers[l] = dataclasses.replace(C.layers[l], groups=tuple(groups))
    return dataclasses.replace(C, layers=tuple(layers))


def _with_units(M: ModelW, l: int, first: int, new: list[UnitW]) -> ModelW:
    """Return M with the units of layer l (0-based) from ``first`` on replaced by ``new``."""
    units = list(M.layers[l].units)
    units[first : first + len(new)] = new
    return _with_layer(M, l, dataclasses.replace(M.layers[l], units=tuple(units)))


def plant_pre_const(p: Prepared) -> tuple[Certificate, ModelW]:
    """A strict comparison's pre group writing the wrong constant: both units' input weight on 1/max(i,1) increased by 1 in
    the weights (V then holds N/D + 1/D: the comparison's r is off by one)."""
    C, M = p.cert, p.weights
    l, gi, G = next((l, gi, G) for l, LD in enumerate(C.layers) for gi, G in enumerate(LD.groups) if G.kind == "pre")
    first = _group_units(C, l, gi)
    us = M.layers[l].units[first : first + 2]
    new = [UnitW(tuple((c, w + (1 if w > 0 else -1)) for c, w in u.win), u.bias, u.wout) for u in us]
    return C, _with_units(M, l, first, new)


def plant_orientation(p: Prepared) -> tuple[Certificate, ModelW]:
    """A strict comparison's sign head of the wrong orientation: o flipped in the description and W_Q's entry negated in the
    weights alike (a consistent head comparing the wrong way: only the comparison's r can tell)."""
    C, M = p.cert, p.weights
    l, h = _first(C, "sign")
    hd = C.layers[l].heads[h]
    heads = list(C.layers[l].heads)
    heads[h] = dataclasses.replace(hd, o=not hd.o)
    layers = list(C.layers)
    layers[l] = dataclasses.replace(C.layers[l], heads=tuple(heads))
    q = M.layers[l].heads[h].q
    return dataclasses.replace(C, layers=tuple(layers)), _with_head(M, l, h, q=(tuple((c, -w) for c, w in q[0]), *q[1:]))


def plant_plain_pair(p: Prepared) -> tuple[Certificate, ModelW]:
    """A node attended by a sign head of orientation -1 cleaned by the plain pair (in the description and the weights
    alike) instead of the flipped one: the clamp then keeps 1 - [g]."""
    C, M = p.cert, p.weights
    l, gi, G = next((l, gi, G) for l, LD in enumerate(C.layers) for gi, G in enumerate(LD.groups) if G.kind == "pairFlip")
    first = _group_units(C, l, gi)
    cg = crd(C, G.node)
    two, half = Fraction(2), Fraction(1, 2)
    new = [UnitW(((cg, two),), -half, ((cg, Fraction(1)),)), UnitW(((cg, two),), -3 * half, ((cg, Fraction(-1)),))]
    return _with_group(C, l, gi, dataclasses.replace(G, kind="pair")), _with_units(M, l, first, new)


def plant_plain_reading(p: Prepared) -> tuple[Certificate, ModelW]:
    """A table reading a comparison of orientation -1 in its sign head's layer as if it were plain: its clamp units weigh the
    raw value s (near 1 - [g]) as the comparison's value, +2 for bit 1 with the unshifted bias, so the node reads [g] flipped."""
    C, M = p.cert, p.weights
    l, gi, G = next((l, gi, G) for l, LD in enumerate(C.layers) for gi, G in enumerate(LD.groups) if G.kind == "table")
    first = _group_units(C, l, gi)
    cs, sgn = [crd(C, x) for x in G.inputs], Fraction(-1) if G.neg else Fraction(1)
    new: list[UnitW] = []
    for s in G.assigns:
        col = tuple((c, Fraction(2) if b else Fraction(-2)) for c, b in zip(cs, s))
        ones = sum(s)
        new += [UnitW(col, Fraction(3, 2) - 2 * ones, ((crd(C, G.node), sgn),)), UnitW(col, Fraction(1, 2) - 2 * ones, ((crd(C, G.node), -sgn),))]
    return C, _with_units(M, l, first, new)


def plant_unshifted(p: Prepared) -> tuple[Certificate, ModelW]:
    """A table reading a comparison of orientation -1 in its sign head's layer with the flipped column (weight -2 on the
    raw value for bit 1) but the unflipped biases (no 2 flipShift): the clamp then never fires on (1, 1)."""
    C, M = p.cert, p.weights
    l, gi, G = next((l, gi, G) for l, LD in enumerate(C.layers) for gi, G in enumerate(LD.groups) if G.kind == "table")
    first = _group_units(C, l, gi)
    ones = sum(G.assigns[0])
    u1, u2 = M.layers[l].units[first : first + 2]
    new = [dataclasses.replace(u1, bias=Fraction(3, 2) - 2 * ones), dataclasses.replace(u2, bias=Fraction(1, 2) - 2 * ones)]
    return C, _with_units(M, l, first, new)


def plant_plk_query(p: Prepared) -> tuple[Certificate, ModelW]:
    """A lookup over positions whose query reads the average with 1 instead of 2: scores p f - p^2/D peak at S/2, not at S."""
    l, h = _first(p.cert, "plk")
    q = p.weights.layers[l].heads[h].q
    col = tuple((c, w / 2 if w == 2 else w) for c, w in q[0])
    return p.cert, _with_head(p.weights, l, h, q=(col, *q[1:]))


def plant_mix_bias(p: Prepared) -> tuple[Certificate, ModelW]:
    """A mixed comparison's clamp with the bias 2r + 1/2 for 2r - 1/2 (and 2r - 1/2 for 2r - 3/2): it fires at N = -1/2 too."""
    C, M = p.cert, p.weights
    l, gi = next((l, gi) for l, LD in enumerate(C.layers) for gi, G in enumerate(LD.groups) if G.kind == "mix")
    first = _group_units(C, l, gi)
    u1, u2 = M.layers[l].units[first : first + 2]
    return C, _with_units(M, l, first, [dataclasses.replace(u1, bias=u1.bias + 1), dataclasses.replace(u2, bias=u2.bias + 1)])


def plant_mix_swap(p: Prepared) -> tuple[Certificate, ModelW]:
    """A description whose mixed clamp names the copies in the wrong order: each coefficient paired with the other count's copy."""
    C = p.cert
    l, gi, G = next((l, gi, G) for l, LD in enumerate(C.layers) for gi, G in enumerate(LD.groups) if G.kind == "mix")
    return _with_group(C, l, gi, dataclasses.replace(G, inputs=tuple(reversed(G.inputs)))), p.weights


def plant_avg_role(p: Prepared) -> tuple[Certificate, ModelW]:
    """A description whose average coordinate of #<[a] claims to hold the average of #>[a] (the other direction's count)."""
    C = p.cert
    hd = next(hd for LD in C.layers for hd in LD.heads if hd.fam == "plk" and hd.d == "<")
    spans = list(C.spans)
    spans[hd.ac] = tuple(dataclasses.replace(sp, role=dataclasses.replace(sp.role, d=">")) if sp.role.kind == "avg" else sp for sp in spans[hd.ac])
    return dataclasses.replace(C, spans=tuple(spans)), p.weights


def plant_copy_kept(p: Prepared) -> tuple[Certificate, ModelW]:
    """A model (and description) without the eraser of the first copy: the copied count stays in its coordinate after the layer."""
    C, M = p.cert, p.weights
    l, gi = next((l, gi) for l, LD in enumerate(C.layers) for gi, G in enumerate(LD.groups) if G.kind == "copyErase")
    first = _group_units(C, l, gi)
    units = list(M.layers[l].units)
    del units[first]
    groups = list(C.layers[l].groups)
    del groups[gi]
    layers = list(C.layers)
    layers[l] = dataclasses.replace(C.layers[l], groups=tuple(groups))
    return dataclasses.replace(C, layers=tuple(layers)), _with_layer(M, l, dataclasses.replace(M.layers[l], units=tuple(units)))


def plant_mixed_off(p: Prepared) -> tuple[Certificate, ModelW]:
    """A mixed model certified at the plain unbounded rule tau = 1 (the certificate's mixed flag off): far too hot for its lookups."""
    return dataclasses.replace(p.cert, mixed=False), p.weights


def plant_plkn_coef(p: Prepared) -> tuple[Certificate, ModelW]:
    """A bounded lookup over positions adding its count into V with the coefficient negated (W_O row 0): V is then N'/n for
    the comparison with that term's sign flipped."""
    l, h = _first(p.cert, "plkN")
    o = p.weights.layers[l].heads[h].o
    return p.cert, _with_head(p.weights, l, h, o=(tuple((c, -w) for c, w in o[0]), *o[1:]))


def plant_scale_sign(p: Prepared) -> tuple[Certificate, ModelW]:
    """A scale group whose second unit adds the node's value instead of subtracting it: ReLU(1/n) - ReLU(1/n + y) = 0 for
    y = 1 and 1/n - 1/n = 0 for y = 0, no longer y/n (every count then 0)."""
    C, M = p.cert, p.weights
    l, gi = next((l, gi) for l, LD in enumerate(C.layers) for gi, G in enumerate(LD.groups) if G.kind == "scale")
    first = _group_units(C, l, gi)
    u = M.layers[l].units[first + 1]
    return C, _with_units(M, l, first + 1, [dataclasses.replace(u, win=tuple((c, abs(w)) for c, w in u.win))])


def plant_vmix_early(p: Prepared) -> tuple[Certificate, ModelW]:
    """A description claiming V = N/n one layer before the lookups write it (its vmix span starting with the constant's):
    the lookups' layer then finds V's coordinate holding V already."""
    C = p.cert
    l, h = _first(C, "plkN")
    vc = C.layers[l].heads[h].vs[0][1]
    spans = list(C.spans)
    spans[vc] = tuple(
        dataclasses.replace(sp, start=sp.start - 1) if sp.role.kind == "vmix" else dataclasses.replace(sp, role=dataclasses.replace(sp.role, kind="vmix"))
        if sp.role.kind == "vpre" else sp
        for sp in spans[vc]
    )
    return dataclasses.replace(C, spans=tuple(spans)), p.weights


def plant_extra_term(p: Prepared) -> tuple[Certificate, ModelW]:
    """A model certified against a different program: the comparison's node given one more term, + #<[x] for the node x the
    #> term counts (the weights unchanged): its lookups no longer serve all of its terms."""
    C = p.cert
    g = next(k for k, nd in enumerate(C.prog) if nd.kind == "cmp")
    nd = C.prog[g]
    x = next(x for _, d, x in nd.terms if d == ">")
    prog = list(C.prog)
    prog[g] = dataclasses.replace(nd, terms=(*nd.terms, (1, "<", x)))
    return dataclasses.replace(C, prog=tuple(prog)), p.weights


def plant_constant_r(p: Prepared) -> tuple[Certificate, ModelW]:
    """A model certified against a different program: the comparison with no count left given r = 0 for r = 1 (false for
    true), the weights unchanged: the word embedding writes 1 where the description's node is false."""
    C = p.cert
    g = next(k for k, nd in enumerate(C.prog) if nd.kind == "cmp")
    prog = list(C.prog)
    prog[g] = dataclasses.replace(C.prog[g], args=(0,))
    return dataclasses.replace(C, prog=tuple(prog)), p.weights


#: name -> (base subject, plant, part of the mirror's line)
PLANTS: dict[str, tuple[str, Callable[[Prepared], tuple[Certificate, ModelW]], str]] = {
    "sign": ("a_S_b", plant_sign, "layer 1 head 0 (tbPastB): key column 0: coordinate 3 holds -1, the construction 1"),
    "half_k": ("a_S_b_unbounded", plant_half_k, "layer 1 head 0 (tbPastU): key column 0: coordinate 3 holds 6243314768165359/4503599627370496"),
    "hot": ("a_S_b", plant_hot, "the temperature rule's error bound 0.2646 exceeds the clamp's tolerance 1/4"),
    "gate": ("gates", plant_gate, "layer 2 FFN group 0 (gate of node 7): node 7 is not the gate of these literals"),
    "other_program": ("a_S_b", plant_other_program, "layer 1 head 0 (tbPastB): mask strictAnti, the construction's is strict"),
    "coordinate": ("a_S_b", plant_coordinate, "layer 1 head 0 (tbPastB): value column 0: coordinate 8 holds 1, the construction 0"),
    "span": ("compacted", plant_span, "layer 1: coordinate 1 keeps feature isFirst but a unit writes it"),
    "late_layer": ("compacted", plant_late_layer, "layer 2 head 0 (tbPastB): key column 0"),
    "count_coef": ("majority", plant_count_coef, "layer 1 head 0 (cnt): output row 0: coordinate 9 holds -1, the construction 1"),
    "count_const": ("majority", plant_count_const, "layer 1: the count columns of comparison 2 are [1 x 0, 1/2 x const, -1 x 1]"),
    "sign_w": ("majority", plant_sign_w, "layer 2 head 0 (sign): value column 0: coordinate 10 holds 0, the construction -1"),
    "sign_half_k": ("majority_unbounded", plant_sign_half_k, "layer 2 head 0 (sign): query column 0: coordinate 12 holds 6243314768165359/4503"),
    "single_m": ("majority", plant_single_m, "layer 1 FFN group 0 (single of node 2): M = 0 is below"),
    "pre_const": ("strict_ffn", plant_pre_const, "layer 1 FFN group 0 (pre of node 3): unit 0 is not the constant -1/2 times coordinate 5"),
    "orientation": ("strict", plant_orientation, "layer 2 head 0 (sign): orientation +1, the comparison's constant r = 0 gives -1"),
    "plain_pair": ("strict", plant_plain_pair, "layer 2: coordinate 1 of attended node 2 is not cleaned by its pairFlip and eraser alone"),
    "plk_query": ("mixed", plant_plk_query, "layer 2 head 0 (plk): query column 0: coordinate 12 holds 1, the construction 2"),
    "mix_bias": ("mixed", plant_mix_bias, "layer 2 FFN group 0 (mix of node 2): unit 0 is not the clamp of 2 N + 1/2"),
    "mix_swap": ("mixed", plant_mix_swap, "layer 2 FFN group 0 (mix of node 2): coordinate 1 is not the copy of #<[0] (term 0)"),
    "avg_role": ("mixed", plant_avg_role, "layer 1 head 0 (cnt): coordinate 12 does not become the average of #<[0] at layer 1"),
    "copy_kept": ("mixed", plant_copy_kept, "layer 2: the copy coordinate 0 is not erased by its copyErase alone"),
    "mixed_off": ("mixed", plant_mixed_off, "layer 2 head 0 (plk): a lookup over positions needs the mixed comparisons' rule"),
    "mixed_hot": ("mixed", plant_hot, "layer 2 FFN group 0 (mix of node 2): the copies' error bound 0.9144 exceeds"),
    "plkn_coef": ("mixed_bounded", plant_plkn_coef, "layer 3 head 0 (plkN): output row 0: coordinate 9 holds -1, the construction 1"),
    "scale_sign": ("mixed_bounded", plant_scale_sign, "layer 1 FFN group 0 (scale of node 0): unit 1 is not ReLU(1/n) - ReLU(1/n - y)"),
    "vmix_early": ("mixed_bounded", plant_vmix_early, "layer 2 FFN group 0 (vpre of node 2): coordinate 9 does not become the constant part of V = N/n of comparison 2"),
    "extra_term": ("mixed_bounded", plant_extra_term, "layer 3: the lookups into coordinate 9 add [(-2, '>', 1), (1, '<', 0)], comparison 2's terms are"),
    "constant_r": ("constant", plant_constant_r, "embedding: symbol 0 writes 1 into coordinate 9, expected 0"),
    "vmix_hot": ("mixed_bounded", plant_hot, "layer 3: comparison 2's copies' error bound 0.9144 exceeds the sign's tolerance 1/4"),
    "unshifted": ("flipped_reading", plant_unshifted, "layer 2 FFN group 1 (table of node 4): unit 0 has bias -5/2, the clamp -1/2"),
    "plain_reading": (
        "flipped_reading",
        plant_plain_reading,
        "layer 2 FFN group 1 (table of node 4): unit 0 reads coordinate 1 with weight 2, the clamp of assignment 0 with -2",
    ),
}

#: The plants whose Lean verdict is tested too (tests/checks/test_certify_lean.py); the others are named by the mirror only,
#: to keep the Lean module of the plants small (each comparison plant costs the kernel about 5 s).
MIRROR_ONLY = frozenset({"count_coef", "sign_w", "sign_half_k", "pre_const", "plain_pair", "avg_role", "copy_kept"})
LEAN_PLANTS = tuple(n for n in PLANTS if n not in MIRROR_ONLY)

#: plant -> the chunk budget its certificate is written with (``lean_text.chunks``: 1 puts every layer in a chunk of its own)
CHUNKED: dict[str, int] = {"late_layer": 1}


def planted(name: str) -> Prepared:
    """Return the prepared certificate with plant ``name`` (its mirror line recomputed), tagged apart from its base."""
    base, plant, _ = PLANTS[name]
    p = prepare(BASE[base])
    C, M = plant(p)
    s = dataclasses.replace(p.subject, name=f"plant_{name}")
    return Prepared(s, p.compiled, C, M, check(C, M))
