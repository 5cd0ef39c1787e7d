"""The Lean text of a certificate module: a compiled model's weights and description as data, and the theorem about it.

One module (``MODULE``, importing the compiled library ``HardSoft``) holds one or more
certificates after its literal helper ``qr`` (the rational ``n / d``, ``mkRat``, which the
kernel evaluates); certificate ``X`` (its ``tag``) is these declarations in namespace ``HardSoft.Cert``:

    noncomputable def prog_X : Prog := [...]           -- the formula DAG (from the program)
    noncomputable def model_X : ModelW where ...       -- the weights, exactly as saved (every float64 a rational)
    noncomputable def cert_X : Cert where ...          -- the compiler's description of its model
    theorem layers_X_0 ... layers_X_k, layers_X, check_X -- the kernel's evaluation of ``check`` (``check_decls``: in
                                                       -- chunks of layers, one declaration each, joined by ``layersOK_split``)
    theorem <theorem_name X> : <statement> := <proof>  -- THEOREM_FORM (below)

then, with no namespace open, ``example : <statement read from the root> := @<theorem>``: Lean
must accept the theorem's statement as generated, with every name read from the root.  The
module passes the library's source audit (``checks.families.lean.audit``): every declaration has
a doc comment, ``autoImplicit`` is off, ``@[expose] public section`` is closed, every name lies in
``HardSoft.Cert`` and differs per certificate.

``THEOREM_FORM`` is the one place that chooses the theorem: "check" (``check cert_X model_X =
true``, by ``decide +kernel``) until the soundness theorem ``HardSoft.Cert.certified_of_check``
lands in the library, then "certified" (for every word w of every length and every position i,
the hard model and the soft model at the temperature rule read node ``root`` exactly, proved by
``certified_of_check`` from the kernel's evaluation of ``check``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from hardsoft.checks.families.lean.environment import REFUSED_BYTES
from hardsoft.constructive.logic.certificate import Certificate, Feat, GroupD, HeadD, LayerW, ModelW, Node, Role, Span, SVec

#: The certificate module's name (its .olean is read after compiling; it must lie under the library's root namespace).
MODULE = "HardSoft.Certificate"
#: Which theorem a certificate states (module docstring): "check" or "certified".
THEOREM_FORM = "certified"
#: The field context of the "certified" statement (as the library states its theorems).
FIELD = "{α : Type} [Lean.Grind.Field α] [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α]"
#: Most nonzero weights of the layers one kernel evaluation of ``layersOK`` takes (``chunks``): the wasm32 process ran
#: out of memory evaluating ``check`` on a model of 2,822 weights in one declaration and accepted 2,118.
CHUNK_WEIGHTS = 1000
#: Longest program text shown in a doc comment.
MAX_SHOWN = 300
_TAG = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Entry:
    """One certificate of a module: its tag (names ``prog_<tag>`` ...), a one-line title, the program text, the data."""

    tag: str
    title: str
    program: str
    cert: Certificate
    weights: ModelW
    #: the most nonzero weights of one chunk of layers the kernel evaluates (``chunks``; the tests force small chunks)
    chunk_weights: int = CHUNK_WEIGHTS


@dataclass(frozen=True)
class Block:
    """Where one certificate sits in the generated text (1-based lines, inclusive): its declarations, and its pin."""

    tag: str
    theorem: str
    first: int
    last: int
    pin_first: int
    pin_last: int


def make_tag(readable: tuple[str, ...], hashed: tuple[str, ...]) -> str:
    """Return a Lean-safe tag: the readable parts (at most 40 characters) and a short hash of the hashed ones (``brasp_no_bb_bounded_3f2a6c01``)."""
    words = [re.sub(r"[^A-Za-z0-9]+", "_", p).strip("_") for p in readable]
    head = "_".join(w for w in words if w)[:40].strip("_") or "f"
    if not head[0].isalpha():
        head = "f" + head
    return f"{head}_{hashlib.sha256(chr(0).join(hashed).encode('utf-8')).hexdigest()[:8]}"


def theorem_name(tag: str) -> str:
    """Return the full name of certificate ``tag``'s theorem."""
    return f"HardSoft.Cert.{'check' if THEOREM_FORM == 'check' else 'certified'}_{tag}"


# ---------------------------------------------------------------- literals


def q(x: Fraction) -> str:
    """Return a rational literal ``qr n d``."""
    return f"qr {x.numerator} {x.denominator}" if x.numerator >= 0 else f"qr ({x.numerator}) {x.denominator}"


def svec(v: SVec) -> str:
    """Return a sparse vector literal."""
    return "[" + ", ".join(f"({k}, {q(w)})" for k, w in v) + "]"


#: Count directions of ``constructive.logic.syntax`` -> Lean's ``CountDir`` constructors.
COUNT_DIRS: dict[str, str] = {"<": "lt", "<=": "le", ">": "gt"}


def lint(x: int) -> str:
    """Return an integer literal (negative ones in parentheses)."""
    return str(x) if x >= 0 else f"({x})"


def lbool(b: bool) -> str:
    """Return a Boolean literal."""
    return "true" if b else "false"


def nats(xs: Sequence[int]) -> str:
    """Return a list of naturals."""
    return "[" + ", ".join(map(str, xs)) + "]"


def bools(xs: Sequence[bool]) -> str:
    """Return a list of Booleans."""
    return "[" + ", ".join(map(lbool, xs)) + "]"


def feat(f: Feat) -> str:
    """Return a feature literal (parenthesised when it has arguments)."""
    return f"Feat.{f.kind}" if not f.args else f"(Feat.{f.kind} {' '.join(lint(a) for a in f.args)})"


def node(nd: Node) -> str:
    """Return a node literal."""
    if nd.kind == "const":
        return f"Node.const {lbool(bool(nd.args[0]))}"
    if nd.kind == "cmp":
        terms = ", ".join(f"({lint(c)}, CountDir.{COUNT_DIRS[d]}, {x})" for c, d, x in nd.terms)
        return f"Node.cmp [{terms}] {lint(int(nd.args[0]))}"
    return " ".join([f"Node.{nd.kind}", *(lint(int(a)) for a in nd.args)])


def role(r: Role) -> str:
    """Return a role literal."""
    if r.kind == "feat" and r.feat is not None:
        return f"Role.feat {feat(r.feat)}"
    if r.kind in ("node", "val", "single", "pre", "scaled", "vpre", "vmix"):
        return f"Role.{r.kind} {r.node}"
    if r.kind in ("avg", "avgN"):
        return f"Role.{r.kind} CountDir.{COUNT_DIRS[r.d]} {r.node}"
    return "Role.zero"


def span(sp: Span) -> str:
    """Return a span literal ``⟨role, start, stop⟩``."""
    stop = "none" if sp.stop is None else f"some {sp.stop}"
    return f"⟨{role(sp.role)}, {sp.start}, {stop}⟩"


def group(G: GroupD) -> str:
    """Return a unit-group literal."""
    if G.kind in ("pair", "pairFlip", "eraser", "clear", "copyErase"):
        return f"GroupD.{G.kind} {G.node}"
    if G.kind == "mix":
        return f"GroupD.mix {G.node} {nats(G.inputs)}"
    if G.kind in ("pre", "vpre"):
        return f"GroupD.{G.kind} {G.node} {G.vc} {G.src}"
    if G.kind == "scale":
        return f"GroupD.scale {G.node} {G.vc}"
    if G.kind == "single":
        return f"GroupD.single {G.node} {G.vc} {G.wc} ({q(G.M)})"
    if G.kind == "table":
        return f"GroupD.table {G.node} {nats(G.inputs)} {nats(G.extra)} [{', '.join(bools(s) for s in G.assigns)}] {lbool(G.neg)}"
    sigma = G.assigns[0] if G.assigns else ()
    return f"GroupD.gate {G.node} {nats(G.inputs)} {bools(sigma)} {lbool(G.neg)}"


def head(H: HeadD) -> str:
    """Return a head description literal."""
    sel = f"some {H.sel}" if H.sel is not None else "none"
    terms = ", ".join(f"⟨{t.node}, {t.src}⟩" for t in H.terms)
    fam = f"Family.{H.fam}"
    if H.fam == "cnt":
        cols = ", ".join(
            f"⟨{t.g}, {t.vc}, {'none' if t.src is None else f'some {t.src}'}, {q(t.coef)}, {lbool(t.avg)}, "
            f"{'none' if t.sc is None else f'some {t.sc}'}⟩"
            for t in H.cnt
        )
        fam = f"(Family.cnt CountDir.{COUNT_DIRS[H.d]} [{cols}])"
    elif H.fam == "plk":
        fam = f"(Family.plk CountDir.{COUNT_DIRS[H.d]} {H.x} {H.ac} {H.cc})"
    elif H.fam == "plkN":
        fam = f"(Family.plkN CountDir.{COUNT_DIRS[H.d]} {H.x} {H.ac} [{', '.join(f'({g}, {vc})' for g, vc in H.vs)}])"
    elif H.fam == "sign":
        fam = f"(Family.sign {lbool(H.o)} {H.vc} {'none' if H.wc is None else f'(some {H.wc})'})"
    return f"{{ fam := {fam}, sel := {sel}, anchored := {lbool(H.anchored)}, terms := [{terms}] }}"


# ---------------------------------------------------------------- declarations


def _commentable(text: str) -> bool:
    """Return whether text may stand in a doc comment: no comment delimiter, none of the bytes the environment check refuses."""
    return "-/" not in text and "/-" not in text and not any(w.decode("ascii") in text for w in REFUSED_BYTES)


def shown(text: str) -> str:
    """Return a program text fit for a doc comment: one line, at most MAX_SHOWN characters, nothing the audit refuses."""
    one = " ".join(text.split())
    if len(one) > MAX_SHOWN:
        one = one[: MAX_SHOWN - 3] + "..."
    if "`" in one or not _commentable(one):
        return "(text not shown: see the title)"
    return f"`{one}`"


def safe_title(title: str, tag: str) -> str:
    """Return a certificate's title fit for a doc comment (one line; else the tag)."""
    one = " ".join(title.split())
    return one if _commentable(one) else f"certificate {tag}"


def model_decl(tag: str, M: ModelW) -> list[str]:
    """Return the lines of ``model_<tag>``."""
    out = [f"noncomputable def model_{tag} : ModelW where", f"  d := {M.d}", "  we := [" + ", ".join(svec(r) for r in M.we) + "]"]
    out.append("  pe := [" + ", ".join(f"({feat(f)}, {svec(r)})" for f, r in M.pe) + "]")
    layers = []
    for L in M.layers:
        hs = []
        for h in L.heads:
            cols = ", ".join(f"{name} := [{', '.join(svec(c) for c in getattr(h, name))}]" for name in ("q", "k", "v", "o"))
            hs.append(f"{{ {cols}, mask := Mask.{h.mask} }}")
        us = [f"{{ win := {svec(u.win)}, bias := {q(u.bias)}, wout := {svec(u.wout)} }}" for u in L.units]
        layers.append(
            "    { heads := [" + ",\n        ".join(hs) + "],\n      units := [" + ",\n        ".join(us) + f"],\n      b2 := {svec(L.b2)} }}"
        )
    out.append("  layers := [\n" + ",\n".join(layers) + "]")
    return out


def cert_decl(tag: str, C: Certificate) -> list[str]:
    """Return the lines of ``cert_<tag>`` (its program is ``prog_<tag>``)."""
    layers = []
    for LD in C.layers:
        layers.append(
            "    { heads := [" + ", ".join(head(H) for H in LD.heads) + "],\n      groups := [" + ", ".join(group(G) for G in LD.groups) + "] }"
        )
    return [
        f"noncomputable def cert_{tag} : Cert where",
        f"  prog := prog_{tag}",
        f"  nsym := {C.nsym}",
        "  spans := [" + ", ".join("[" + ", ".join(span(sp) for sp in sps) + "]" for sps in C.spans) + "]",
        f"  coord := {nats(C.coord)}",
        "  equiv := [" + ", ".join(f"({e.node}, {e.like}, {nats(e.leaves)})" for e in C.equiv) + "]",
        f"  root := {C.root}",
        f"  bounded := {lbool(C.bounded)}",
        f"  mixed := {lbool(C.mixed)}",
        f"  c := {q(C.c)}",
        f"  K := {q(C.K)}",
        f"  expK := {C.exp_k}",
        "  layers := [\n" + ",\n".join(layers) + "]",
    ]


def statement(tag: str, C: Certificate, M: ModelW, root: bool) -> str:
    """Return the theorem's statement (``root``: every project name written from the root, for the pin outside the namespace)."""
    ns = "HardSoft.Cert." if root else ""
    if THEOREM_FORM == "check":
        return f"{ns}check {ns}cert_{tag} {ns}model_{tag} = true"
    out = len(M.layers)
    coord = C.coord[C.root]
    run = f"{ns}run R"
    rhs = f"{ns}ind ({ns}holds {ns}prog_{tag} w w.length {C.root} i)"
    cast = "HardSoft.natCast" if root else "natCast"
    if C.mixed and C.bounded:
        tau = f"(R.cast ({ns}{q(C.c)}) / {cast} (w.length * w.length * max (w.length - 1) 1))"
    elif C.mixed:
        tau = f"(R.cast ({ns}{q(C.c)}) / {cast} (max (w.length - 1) 1))"
    else:
        tau = f"(R.cast ({ns}{q(C.c)}) / {cast} w.length)" if C.bounded else "1"
    exp = "HardSoft.ExpLike" if root else "ExpLike"
    return (
        f"∀ {FIELD} (R : {ns}RatEmb α) (E : {exp} α), E.Tangent → ∀ (w : List Nat), (∀ a, a ∈ w → a < {C.nsym}) →\n"
        f"    ∀ (i : Nat), i < w.length →\n"
        f"    {run} .hard {ns}model_{tag} w w.length {out} i {coord} = {rhs} ∧\n"
        f"    {run} (.soft E {tau}) {ns}model_{tag} w w.length {out} i {coord} = {rhs}"
    )


def theorem_decl(tag: str, title: str, C: Certificate, M: ModelW, chunk_weights: int = CHUNK_WEIGHTS) -> list[str]:
    """Return the lines of the certificate's theorem (THEOREM_FORM), with its doc comment."""
    short = theorem_name(tag).removeprefix("HardSoft.Cert.")
    if THEOREM_FORM == "check":
        return [
            f"/-- Certificate of {title}: the checker accepts the model and its description (kernel evaluation). -/",
            f"theorem {short} : {statement(tag, C, M, False)} := by decide +kernel",
        ]
    return [
        *check_decls(tag, title, M, chunk_weights),
        f"/-- Certified for every n: {title}. For every word `w` of every length and every position `i`, the hard model and",
        "the soft model at the temperature rule (`c/n` bounded, `1` unbounded; with a mixed comparison `c/max(n-1,1)`, bounded",
        "`c/(n^2 max(n-1,1))`) hold",
        "exactly the formula's value at `i` in the read-out coordinate. -/",
        f"theorem {short} : {statement(tag, C, M, False)} :=",
        f"  fun R E hE w hsym i hi => certified_of_check cert_{tag} model_{tag} check_{tag} R E hE w hsym i hi",
    ]


def chunks(M: ModelW, budget: int = CHUNK_WEIGHTS) -> list[int]:
    """Return how many layers each chunk of ``M``'s layers holds: consecutive layers, each chunk at most ``budget``
    nonzero weights (a layer heavier than that alone), every layer in exactly one chunk (no chunk for no layer)."""
    sizes: list[int] = []
    weight = budget + 1
    for L in M.layers:
        w = layer_weights(L)
        if sizes and weight + w <= budget:
            sizes[-1] += 1
            weight += w
        else:
            sizes.append(1)
            weight = w
    return sizes


def layer_weights(L: LayerW) -> int:
    """Return the nonzero weights of one layer (as ``ModelW.parameters`` counts them)."""
    heads = sum(len(c) for h in L.heads for c in (*h.q, *h.k, *h.v, *h.o))
    return len(L.b2) + sum(len(u.win) + len(u.wout) + 1 for u in L.units) + heads


def check_decls(tag: str, title: str, M: ModelW, budget: int = CHUNK_WEIGHTS) -> list[str]:
    """Return the declarations proving ``check cert_<tag> model_<tag> = true``: the kernel evaluates ``layersOK`` chunk
    by chunk (``chunks``; one declaration each, so its memory is released between them), ``HardSoft.Cert.layersOK_split``
    joins them, and the kernel evaluates the rest of ``check`` with ``layersOK`` rewritten to ``true``."""
    cert, model, d = f"cert_{tag}", f"model_{tag}", f"model_{tag}.d"
    sizes = chunks(M, budget) or [0]  # a model with no layer: one empty chunk
    out: list[str] = []
    lws, lds, start = f"{model}.layers", f"{cert}.layers", 0
    parts: list[tuple[int, int, str, str]] = []  # (first layer, layers, the model's rest, the description's rest)
    for size in sizes:
        parts.append((start, size, lws, lds))
        lws, lds, start = f"(List.drop {size} {lws})", f"(List.drop {size} {lds})", start + size
    for j, (first, size, ws, ds) in enumerate(parts):
        last = j == len(parts) - 1
        span = f"the layers from {first + 1} on" if last else f"layers {first + 1} to {first + size}"
        w, dd = (ws, ds) if last else (f"(List.take {size} {ws})", f"(List.take {size} {ds})")
        out += [
            f"/-- {title}: the checker accepts {span} (the kernel's evaluation, chunk {j + 1} of {len(parts)}). -/",
            f"theorem layers_{tag}_{j} : layersOK {cert} {d} {first} {w} {dd} = true := by decide +kernel",
        ]
    proof = f"layers_{tag}_{len(parts) - 1}"
    for j in range(len(parts) - 2, -1, -1):
        first, size, ws, ds = parts[j]
        proof = f"layersOK_split {cert} {d} {size} {first} {ws} {ds} layers_{tag}_{j}\n    ({proof})"
    out += [
        f"/-- {title}: the checker accepts every layer (the chunks joined by `layersOK_split`). -/",
        f"theorem layers_{tag} : layersOK {cert} {d} 0 {model}.layers {cert}.layers = true :=",
        f"  {proof}",
        f"/-- {title}: the checker accepts the model and its description (the rest of `check` by the kernel's evaluation). -/",
        f"theorem check_{tag} : check {cert} {model} = true := by",
        f"  unfold check; rw [layers_{tag}]; decide +kernel",
    ]
    return out


def module_text(entries: Sequence[Entry]) -> tuple[str, list[Block]]:
    """Return the certificate module holding ``entries`` and where each certificate's lines are."""
    tags = [e.tag for e in entries]
    if len(set(tags)) != len(tags) or not all(_TAG.fullmatch(t) for t in tags):
        raise RuntimeError(f"internal: certificate tags must be distinct Lean names, got {tags}")
    entries = [dataclasses.replace(e, title=safe_title(e.title, e.tag)) for e in entries]
    lines = [
        "module",
        "",
        "public import HardSoft",
        "",
        "/-!",
        f"# Certificates: {len(entries)} compiled model(s) and their descriptions",
        "",
        "Generated by `hardsoft certify` (`checks/families/certify/lean_text.py`); do not edit. Each certificate is",
        "the formula DAG, the model's weights exactly as saved, the compiler's description of its model, and a theorem",
        "proved from the kernel's evaluation of the checker `HardSoft.Cert.check`"
        + (" by the soundness theorem `HardSoft.Cert.certified_of_check`." if THEOREM_FORM == "certified" else "."),
        "",
        "## Main results",
        "",
        *(f"* `{theorem_name(e.tag)}`: {e.title}." for e in entries),
        "-/",
        "",
        "@[expose] public section",
        "",
        "set_option autoImplicit false",
        "",
        "namespace HardSoft.Cert",
        "",
        "/-- Certificate data: the rational `n / d` (`mkRat`; every weight is a float64, so `d` is a power of two). -/",
        "noncomputable def qr (n : Int) (d : Nat) : Rat := mkRat n d",
        "",
    ]
    spans: dict[str, tuple[int, int]] = {}

    def add(chunk: list[str]) -> None:
        """Append lines (a chunk may hold line breaks: every line is counted)."""
        lines.extend("\n".join(chunk).split("\n"))

    for e in entries:
        first = len(lines) + 1
        add([f"/-- The formula DAG of {e.title}: {shown(e.program)}. -/", f"noncomputable def prog_{e.tag} : Prog :="])
        add(["  [" + ", ".join(node(nd) for nd in e.cert.prog) + "]", ""])
        add([f"/-- The weights of {e.title}: {e.weights.parameters} nonzero entries, each a float64 as the rational it is. -/"])
        add(model_decl(e.tag, e.weights) + [""])
        add([f"/-- The compiler's description of the model of {e.title}. -/"] + cert_decl(e.tag, e.cert) + [""])
        add(theorem_decl(e.tag, e.title, e.cert, e.weights, e.chunk_weights))
        spans[e.tag] = (first, len(lines))
        add([""])
    add(["end HardSoft.Cert", ""])
    blocks = []
    for e in entries:
        pin_first = len(lines) + 1
        add([f"example : {statement(e.tag, e.cert, e.weights, True)} :=", f"  @{theorem_name(e.tag)}", ""])
        blocks.append(Block(e.tag, theorem_name(e.tag), *spans[e.tag], pin_first, len(lines) - 1))
    add(["end", ""])
    return "\n".join(lines), blocks
