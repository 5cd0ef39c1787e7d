"""The pinned Lean statements: for each Lean theorem a claim of ``spec.claims`` cites, its exact statement and what it proves in words.

The Lean check makes Lean confirm every text here (``checks.families.lean.pins``):

* ``LEAN_STATEMENTS``: each claimed theorem's full statement (the traceability table's
  Lean column is each entry's ``says``);
* ``LEAN_DEFINITIONS``: each definition and structure of the project that those statements
  use (transitively): facts that determine it (its defining equations, proved by ``rfl``; a
  structure's constructor type and projections), so a changed body or an added field (say
  ``vac : False`` in ``ExpLike``, which would make every statement about it vacuous) fails;
* ``LEAN_EXAMPLES``: the non-vacuity theorems of ``lean/HardSoft/Examples.lean`` (each
  main theorem applied at ``Rat`` to concrete values, every hypothesis proved), so deleting
  or changing one fails.

Every text is read in a module that opens no namespace: the project's constants are
written fully qualified (``HardSoft.sumTo``), everything else is core's (``Nat``, ``Rat``,
``Lean.Grind.Field``, ...), so no project declaration can redirect what a name means.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

from hardsoft import locations

#: The ordered-field context of the generic Lean theorems (the section variables of lean/HardSoft/*.lean);
#: core names only (read with no namespace open, a project declaration cannot change what they mean).
FIELD = "{α : Type} [Lean.Grind.Field α] [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α]"


def over_field(rest: str) -> str:
    """Return the Lean statement ``∀ FIELD rest``: ``rest`` is ``binders, conclusion`` of a theorem generic over α."""
    return f"∀ {FIELD} {rest}"


def _caller_origin() -> str:
    """Return ``file:line`` of the code that constructs a LeanStatement (the registry entry)."""
    frame = sys._getframe(2)
    return f"{_shown_path(Path(frame.f_code.co_filename))}:{frame.f_lineno}"


def _shown_path(path: Path) -> str:
    """Return a source file's path as the source tree names it ("spec/lean_statements.py"), installed or not.

    An installed wheel has no source tree: a file of the package is named relative to the
    package (``hardsoft/spec/x.py`` -> ``spec/x.py``, the tree's name), so the generated pin
    module, whose comments cite these origins, is byte-identical in a tree and in a wheel (the
    Lean verdict's cache key covers its text).
    """
    tree = locations.source_tree()
    for root in (tree, Path(locations.__file__).resolve().parent):
        if root is None:
            continue
        try:
            return str(path.resolve().relative_to(root)).replace("\\", "/")
        except ValueError:
            continue
    return path.name


@dataclass(frozen=True)
class LeanStatement:
    """What a Lean theorem cited by a claim proves: its exact statement (pinned) and the same in words.

    statement -- the theorem's full type in Lean syntax, binders written with ``∀``, project
                 constants fully qualified (read with no namespace open); the generated pin module makes Lean confirm
                 ``example : statement := @name`` (``checks.families.lean.pins``)
    says      -- what the theorem proves, in words, no more than the statement: the Lean column of
                 the traceability table
    origin    -- ``file:line`` of this entry (filled in automatically; failures name it)
    """

    statement: str
    says: str
    origin: str = field(default_factory=_caller_origin, compare=False)


#: The field context of the definitions that need no order (``Defs.lean``'s first section).
RING = "{α : Type} [Lean.Grind.Field α]"


def over_ring(rest: str) -> str:
    """Return the Lean statement ``∀ RING rest``: ``rest`` is ``binders, conclusion`` over a field α with no order."""
    return f"∀ {RING} {rest}"


BASE = "{α : Type} [Lean.Grind.Field α] [LE α] [LT α]"


def cert_names(text: str) -> str:
    """Return ``text`` with ``§`` spelled out as ``HardSoft.Cert.`` (the certificate checker's namespace; pins name constants in full)."""
    return text.replace("§", "HardSoft.Cert.")


def structure_pin(name: str, params: str, fields: tuple[tuple[str, str], ...], says: str) -> LeanDefinition:
    """Return the pin of a structure: its constructor type and each projection applied to the constructor.

    ``params`` are the binders of its type parameters (``""`` for none), ``fields`` its ``(name, type)``
    in order; the members are the fields and ``mk``.  (A swap of two fields of one type keeps the
    constructor type but fails a projection equation.)
    """
    args = " ".join(f"({f} : {t})" for f, t in fields)
    applied = f"({name}.mk {' '.join(f for f, _ in fields)})"
    ty = name + (" α" if params else "")
    lead = f"∀ {params} " if params else "∀ "
    return LeanDefinition(
        tuple(f"{lead}{args}, {name}.{f} {applied} = {f}" for f, _ in fields),
        says,
        constructor=f"{lead}{args}, {ty}",
        members=(*(f for f, _ in fields), "mk"),
    )


#: For each Lean theorem a claim cites: its pinned statement and what it says (keys = the names in Claim.lean).
LEAN_STATEMENTS: dict[str, LeanStatement] = {
    "HardSoft.bound_closed_form": LeanStatement(
        over_field(
            "(r a : α) (L : Nat), (r - 1) * HardSoft.bound (fun _ => r) (fun _ => a) L = a * (r ^ L - 1) ∧ (r ≠ 1 → HardSoft.bound (fun _ => r) (fun _ => a) L = a * (r ^ L - 1) / (r - 1)) ∧ (r = 1 → HardSoft.bound (fun _ => r) (fun _ => a) L = HardSoft.natCast L * a)"
        ),
        "uniform r, a: (r - 1) B_L = a (r^L - 1); B_L = a (r^L - 1)/(r - 1) if r ≠ 1; B_L = L a if r = 1",
    ),
    "HardSoft.bound_monotone": LeanStatement(
        over_field(
            "{r a : Nat → α} {L : Nat} (hr : ∀ l, l < L → 1 ≤ r l) (ha : ∀ l, l < L → 0 ≤ a l) {l : Nat} (hlL : l ≤ L), 0 ≤ HardSoft.bound r a l ∧ HardSoft.bound r a l ≤ HardSoft.bound r a L"
        ),
        "r_l ≥ 1 and a_l ≥ 0 for l < L give 0 ≤ B_l ≤ B_L for every l ≤ L",
    ),
    "HardSoft.err_le_bound_of_bound_le_one": LeanStatement(
        over_field(
            "{r a e : Nat → α} {L : Nat} (he0 : e 0 = 0) (hstep : ∀ l, l < L → e l ≤ 1 → e (l + 1) ≤ r l * e l + a l) (hr : ∀ l, l < L → 1 ≤ r l) (ha : ∀ l, l < L → 0 ≤ a l) (hBL : HardSoft.bound r a L ≤ 1), ∀ l, l ≤ L → e l ≤ HardSoft.bound r a l ∧ HardSoft.bound r a l ≤ 1"
        ),
        "e_0 = 0, the guarded step e_l ≤ 1 → e_(l+1) ≤ r_l e_l + a_l, r_l ≥ 1, a_l ≥ 0 (each for l < L) and B_L ≤ 1 give e_l ≤ B_l ≤ 1 for every l ≤ L",
    ),
    "HardSoft.err_le_eps_of_bound_le": LeanStatement(
        over_field(
            "{r a e : Nat → α} {L : Nat} {eps : α} (he0 : e 0 = 0) (hstep : ∀ l, l < L → e l ≤ 1 → e (l + 1) ≤ r l * e l + a l) (hr : ∀ l, l < L → 1 ≤ r l) (ha : ∀ l, l < L → 0 ≤ a l) (hBeps : HardSoft.bound r a L ≤ eps) (hB1 : HardSoft.bound r a L ≤ 1), e L ≤ eps"
        ),
        "the same hypotheses with B_L ≤ eps and B_L ≤ 1 give e_L ≤ eps",
    ),
    "HardSoft.forall_err_le_bound_iff": LeanStatement(
        over_field(
            "{r a : Nat → α} {L : Nat} (hr : ∀ l, l < L → 0 ≤ r l) (ha : ∀ l, l < L → 0 ≤ a l), (∀ e : Nat → α, e 0 = 0 → (∀ l, l < L → e l ≤ 1 → e (l + 1) ≤ r l * e l + a l) → (∀ l, l ≤ L → 0 ≤ e l) → e L ≤ HardSoft.bound r a L) ↔ ∀ l, l < L → HardSoft.bound r a l ≤ 1"
        ),
        "the guard, sharp: for r_l, a_l ≥ 0 (l < L), every guarded sequence with e_0 = 0 and e ≥ 0 has e_L ≤ B_L if and only if B_l ≤ 1 for every l < L",
    ),
    "HardSoft.exists_err_gt_of_one_lt_bound": LeanStatement(
        over_field(
            "{r a : Nat → α} {L l : Nat} (hr : ∀ k, k < L → 0 ≤ r k) (ha : ∀ k, k < L → 0 ≤ a k) (hl : l < L) (hBl : 1 < HardSoft.bound r a l) (M : α), ∃ e : Nat → α, e 0 = 0 ∧ (∀ k, k < L → e k ≤ 1 → e (k + 1) ≤ r k * e k + a k) ∧ (∀ k, k ≤ L → 0 ≤ e k) ∧ M < e L"
        ),
        "r_k, a_k ≥ 0 (k < L) and B_l > 1 for some l < L: for every M a guarded sequence (e_0 = 0, e ≥ 0) has e_L > M",
    ),
    "HardSoft.composition_guard_necessary": LeanStatement(
        over_field(
            "(M : α), (∃ e : Nat → α, e 0 = 0 ∧ (∀ l, l < 2 → e l ≤ 1 → e (l + 1) ≤ (fun _ => (1 : α)) l * e l + (fun _ => (2 : α)) l) ∧ M < e 2) ∧ ¬ ∀ e : Nat → α, e 0 = 0 → (∀ l, l < 2 → e l ≤ 1 → e (l + 1) ≤ (fun _ => (1 : α)) l * e l + (fun _ => (2 : α)) l) → e 2 ≤ HardSoft.bound (fun _ => (1 : α)) (fun _ => (2 : α)) 2"
        ),
        "one instance, r = 1, a = 2, L = 2 (B_2 = 4): for every M a guarded sequence has e_2 > M, so e_2 ≤ B_2 fails",
    ),
    "HardSoft.composition_err_le_eps_rat": LeanStatement(
        "∀ {r a e : Nat → Rat} {L : Nat} {eps : Rat} (he0 : e 0 = 0) (hstep : ∀ l, l < L → e l ≤ 1 → e (l + 1) ≤ r l * e l + a l) (hr : ∀ l, l < L → 1 ≤ r l) (ha : ∀ l, l < L → 0 ≤ a l) (hBeps : HardSoft.bound r a L ≤ eps) (hB1 : HardSoft.bound r a L ≤ 1), e L ≤ eps",
        "err_le_eps_of_bound_le at α = Rat",
    ),
    "HardSoft.err_le_eps_of_layers": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) (hE : HardSoft.ExpLike.LogMean E) {L : Nat} {H N : Nat → Nat} {A B headErr smax : Nat → Nat → α} {sSoft sHard : Nat → Nat → Nat → α} {isMax : Nat → Nat → Nat → Bool} {X tau gamma LipF yErr e : Nat → α} {eps : α} (hA : ∀ l, l < L → ∀ h, h < H l → 0 ≤ A l h) (hB : ∀ l, l < L → ∀ h, h < H l → 0 ≤ B l h) (hX : ∀ l, l < L → 0 ≤ X l) (htau : ∀ l, l < L → 0 < tau l) (hLip : ∀ l, l < L → 0 ≤ LipF l) (he0 : e 0 = 0) (he : ∀ l, l ≤ L → 0 ≤ e l) (hscore : ∀ l, l < L → ∀ h, h < H l → ∀ j, j < N l → HardSoft.absv (sSoft l h j - sHard l h j) ≤ A l h * (2 * X l * e l + e l * e l)) (hmax : ∀ l, l < L → ∀ h, h < H l → ∀ j, j < N l → isMax l h j = true → sHard l h j = smax l h) (hgap : ∀ l, l < L → ∀ h, h < H l → ∀ j, j < N l → isMax l h j = false → sHard l h j ≤ smax l h - gamma l) (hm : ∀ l, l < L → ∀ h, h < H l → 0 < HardSoft.countMax (isMax l h) (N l)) (hhead : ∀ l, l < L → ∀ h, h < H l → headErr l h ≤ B l h * e l + B l h * X l * HardSoft.sumTo (fun j => HardSoft.absv (HardSoft.softmax E (tau l) (sSoft l h) (N l) j - HardSoft.ahardmax (isMax l h) (N l) j)) (N l)) (hres : ∀ l, l < L → yErr l ≤ e l + HardSoft.sumTo (headErr l) (H l)) (hffn : ∀ l, l < L → e (l + 1) ≤ (1 + LipF l) * yErr l) (hBeps : HardSoft.bound (fun l => (1 + LipF l) * (1 + HardSoft.sumTo (fun h => B l h * (1 + X l * (2 * X l + 1) * A l h / tau l)) (H l))) (fun l => 2 * (1 + LipF l) * X l * HardSoft.natCast (N l - 1) * E.exp (-gamma l / tau l) * HardSoft.sumTo (B l) (H l)) L ≤ eps) (hB1 : HardSoft.bound (fun l => (1 + LipF l) * (1 + HardSoft.sumTo (fun h => B l h * (1 + X l * (2 * X l + 1) * A l h / tau l)) (H l))) (fun l => 2 * (1 + LipF l) * X l * HardSoft.natCast (N l - 1) * E.exp (-gamma l / tau l) * HardSoft.sumTo (B l) (H l)) L ≤ 1), e L ≤ eps ∧ ∀ l, l ≤ L → e l ≤ 1"
        ),
        "Theorem 26 end to end: L layers each with layer_err_le's hypotheses at its input error e_l (scores with a max set and gap gamma_l, the head, residual and FFN steps; S, E and the triangle proved from fact F5), e_0 = 0, e ≥ 0, and B_L ≤ eps, B_L ≤ 1 for Lemma 25's r_l, a_l give e_L ≤ eps and e_l ≤ 1 for every l ≤ L",
    ),
    "HardSoft.bound_const_le_of_mul_pow_le": LeanStatement(
        over_field(
            "{r a eps : α} (hr : 1 ≤ r) (ha : 0 ≤ a) (L : Nat) (h : a * HardSoft.natCast L * r ^ (L - 1) ≤ eps), HardSoft.bound (fun _ => r) (fun _ => a) L ≤ eps"
        ),
        "uniform r ≥ 1, a ≥ 0: the sufficient condition a L r^(L-1) ≤ eps gives B_L ≤ eps (the choice of tau is not in Lean)",
    ),
    "HardSoft.composition_err_le_eps_of_mul_pow_le": LeanStatement(
        over_field(
            "{e : Nat → α} {r a eps : α} {L : Nat} (he0 : e 0 = 0) (hstep : ∀ l, l < L → e l ≤ 1 → e (l + 1) ≤ r * e l + a) (hr : 1 ≤ r) (ha : 0 ≤ a) (h : a * HardSoft.natCast L * r ^ (L - 1) ≤ eps) (heps : eps ≤ 1), e L ≤ eps"
        ),
        "uniform r ≥ 1, a ≥ 0, e_0 = 0, the guarded steps (l < L) and the sufficient condition a L r^(L-1) ≤ eps ≤ 1 give e_L ≤ eps",
    ),
    "HardSoft.score_err_le": LeanStatement(
        over_field("{A X eps : α} (hA : 0 ≤ A) (h0 : 0 ≤ eps) (h1 : eps ≤ 1), A * (2 * X * eps + eps * eps) ≤ A * (2 * X + 1) * eps"),
        "A ≥ 0 and 0 ≤ eps ≤ 1 give A (2X eps + eps^2) ≤ A (2X + 1) eps (where the guard eps ≤ 1 enters)",
    ),
    "HardSoft.score_err_le_iff": LeanStatement(
        over_field("{A X eps : α} (hA : 0 < A) (h0 : 0 ≤ eps), A * (2 * X * eps + eps * eps) ≤ A * (2 * X + 1) * eps ↔ eps ≤ 1"),
        "A > 0, eps ≥ 0: A (2X eps + eps^2) ≤ A (2X + 1) eps if and only if eps ≤ 1",
    ),
    "HardSoft.not_score_err_le_of_one_lt": LeanStatement(
        over_field("{A X eps : α} (hA : 0 < A) (h1 : 1 < eps), ¬ A * (2 * X * eps + eps * eps) ≤ A * (2 * X + 1) * eps"),
        "A > 0, eps > 1: A (2X eps + eps^2) ≤ A (2X + 1) eps fails",
    ),
    "HardSoft.layer_err_le": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) (hE : HardSoft.ExpLike.LogMean E) {H N : Nat} {A B headErr smax : Nat → α} {sSoft sHard : Nat → Nat → α} {isMax : Nat → Nat → Bool} {X tau gamma LipF eps yErr outErr : α} (hA : ∀ h, h < H → 0 ≤ A h) (hB : ∀ h, h < H → 0 ≤ B h) (hX : 0 ≤ X) (htau : 0 < tau) (hLip : 0 ≤ LipF) (h0 : 0 ≤ eps) (h1 : eps ≤ 1) (hscore : ∀ h, h < H → ∀ j, j < N → HardSoft.absv (sSoft h j - sHard h j) ≤ A h * (2 * X * eps + eps * eps)) (hmax : ∀ h, h < H → ∀ j, j < N → isMax h j = true → sHard h j = smax h) (hgap : ∀ h, h < H → ∀ j, j < N → isMax h j = false → sHard h j ≤ smax h - gamma) (hm : ∀ h, h < H → 0 < HardSoft.countMax (isMax h) N) (hhead : ∀ h, h < H → headErr h ≤ B h * eps + B h * X * HardSoft.sumTo (fun j => HardSoft.absv (HardSoft.softmax E tau (sSoft h) N j - HardSoft.ahardmax (isMax h) N j)) N) (hres : yErr ≤ eps + HardSoft.sumTo headErr H) (hffn : outErr ≤ (1 + LipF) * yErr), outErr ≤ (1 + LipF) * (1 + HardSoft.sumTo (fun h => B h * (1 + X * (2 * X + 1) * A h / tau)) H) * eps + 2 * (1 + LipF) * X * HardSoft.natCast (N - 1) * E.exp (-gamma / tau) * HardSoft.sumTo B H"
        ),
        "one layer, H heads, any exp with ExpLike's properties and fact F5, 0 ≤ eps ≤ 1, exact scores with a max set (m ≥ 1) and gap gamma, perturbed scores within |A_h|(2X eps + eps^2), the head, residual and FFN steps as hypotheses (S, E and the triangle inequality proved): output error ≤ r eps + a, r = (1+Lip F)(1 + Σ_h |B_h| (1 + X(2X+1)|A_h|/tau)), a = 2(1+Lip F) X (N-1) exp(-gamma/tau) Σ_h |B_h|",
    ),
    "HardSoft.layer_err_le_concrete": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) (hE : HardSoft.ExpLike.LogMean E) {d N H m : Nat} {xq xq' b1 b2 A B smax : Nat → α} {x x' W1 W2 : Nat → Nat → α} {Q V : Nat → Nat → Nat → α} {isMax : Nat → Nat → Bool} {X tau gamma eps W1c W2c : α} (hX : 0 ≤ X) (htau : 0 < tau) (h0 : 0 ≤ eps) (h1 : eps ≤ 1) (hxq : ∀ k, k < d → HardSoft.absv (xq k) ≤ X) (hx : ∀ j, j < N → ∀ k, k < d → HardSoft.absv (x j k) ≤ X) (hxq' : ∀ k, k < d → HardSoft.absv (xq' k - xq k) ≤ eps) (hx' : ∀ j, j < N → ∀ k, k < d → HardSoft.absv (x' j k - x j k) ≤ eps) (hA : ∀ h, h < H → HardSoft.absSum (Q h) d ≤ A h) (hB0 : ∀ h, h < H → 0 ≤ B h) (hB : ∀ h, h < H → ∀ l, l < d → HardSoft.sumTo (fun k => HardSoft.absv (V h k l)) d ≤ B h) (hW1c : 0 ≤ W1c) (hW1 : ∀ c, c < m → HardSoft.sumTo (fun k => HardSoft.absv (W1 k c)) d ≤ W1c) (hW2c : 0 ≤ W2c) (hW2 : ∀ l, l < d → HardSoft.sumTo (fun c => HardSoft.absv (W2 c l)) m ≤ W2c) (hmax : ∀ h, h < H → ∀ j, j < N → isMax h j = true → HardSoft.bilinScore xq (Q h) (x j) d = smax h) (hgap : ∀ h, h < H → ∀ j, j < N → isMax h j = false → HardSoft.bilinScore xq (Q h) (x j) d ≤ smax h - gamma) (hm : ∀ h, h < H → 0 < HardSoft.countMax (isMax h) N), ∀ l, l < d → HardSoft.absv (HardSoft.ffnResidual (HardSoft.attnResidual xq' x' (fun h => HardSoft.softmax E tau (fun j => HardSoft.bilinScore xq' (Q h) (x' j) d) N) V N d H) W1 b1 W2 b2 d m l - HardSoft.ffnResidual (HardSoft.attnResidual xq x (fun h => HardSoft.ahardmax (isMax h) N) V N d H) W1 b1 W2 b2 d m l) ≤ (1 + W1c * W2c) * (1 + HardSoft.sumTo (fun h => B h * (1 + X * (2 * X + 1) * A h / tau)) H) * eps + 2 * (1 + W1c * W2c) * X * HardSoft.natCast (N - 1) * E.exp (-gamma / tau) * HardSoft.sumTo B H"
        ),
        "one concrete layer (dimension d, H heads with query-key matrices Q_h and value-output matrices V_h, N keys, ReLU FFN of width m), every size: any exp with ExpLike's properties and fact F5, exact input with ||x||_inf ≤ X, perturbed input within 0 ≤ eps ≤ 1 coordinatewise, |Q_h|_sum ≤ A_h, column sums of V_h ≤ B_h, of W1 ≤ |W1|, of W2 ≤ |W2|, exact scores x_q^T Q_h x_j with a max set (m ≥ 1) and gap gamma: the soft run (softmax at tau of its own scores) and the hard run (average-hard) differ in every output coordinate by ≤ r eps + a, Lip F = |W1| |W2|, r = (1+Lip F)(1 + Σ_h B_h (1 + X(2X+1) A_h/tau)), a = 2(1+Lip F) X (N-1) exp(-gamma/tau) Σ_h B_h (the score, head, residual and FFN steps proved from the definitions)",
    ),
    "HardSoft.sumTo_absv_sub_le_of_ratio": LeanStatement(
        over_field(
            "{p q : Nat → α} {lam y : α} {N : Nat} (hlam : 0 < lam) (hy : 1 ≤ y) (hlo : ∀ j, j < N → lam * p j ≤ y * q j) (hhi : ∀ j, j < N → q j ≤ y * lam * p j) (hsp : HardSoft.sumTo p N = 1) (hsq : HardSoft.sumTo q N = 1), (y + 1) * HardSoft.sumTo (fun j => HardSoft.absv (p j - q j)) N ≤ 2 * (y - 1)"
        ),
        "S, weight form (the SMT abstraction, every N): probability vectors p, q with every ratio q_j/p_j in [lam/y, lam y] (lam > 0, y ≥ 1) have (y + 1) ||p - q||_1 ≤ 2 (y - 1)",
    ),
    "HardSoft.softmax_lipschitz": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) (hE : HardSoft.ExpLike.LogMean E) {a b : Nat → α} {d tau : α} {N : Nat} (htau : 0 < tau) (hd : 0 ≤ d) (hab : ∀ j, j < N → HardSoft.absv (a j - b j) ≤ d), HardSoft.sumTo (fun j => HardSoft.absv (HardSoft.softmax E tau a N j - HardSoft.softmax E tau b N j)) N ≤ d / tau"
        ),
        "S for every N: any exp with ExpLike's properties and fact F5, tau > 0, |a_j - b_j| ≤ d (j < N): ||softmax_tau(a) - softmax_tau(b)||_1 ≤ d/tau",
    ),
    "HardSoft.bound_le_eps_of_temperature": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) (hT : HardSoft.ExpLike.Tangent E) {r a : Nat → α} {R AN gamma eps tau ell : α} {L : Nat} (hL : 0 < L) (hAN : 0 ≤ AN) (hg : 0 < gamma) (htau : 0 < tau) (hr1 : ∀ l, l < L → 1 ≤ r l) (hr : ∀ l, l < L → r l ≤ R / tau) (ha0 : ∀ l, l < L → 0 ≤ a l) (ha : ∀ l, l < L → a l ≤ AN * E.exp (-gamma / tau)) (hell : AN * HardSoft.natCast L * R ^ (L - 1) * (2 * HardSoft.natCast (L - 1) / (E.exp 1 * gamma)) ^ (L - 1) ≤ eps * E.exp ell) (ht : 2 / gamma * ell ≤ 1 / tau), HardSoft.bound r a L ≤ eps"
        ),
        "T for every depth L ≥ 1: any exp with ExpLike's properties and fact F1, 1 ≤ r_l ≤ R/tau, 0 ≤ a_l ≤ A N exp(-gamma/tau), gamma > 0, and any ell with A N L R^(L-1) (2(L-1)/(e gamma))^(L-1) ≤ eps e^ell: 1/tau ≥ (2/gamma) ell gives B_L ≤ eps",
    ),
    "HardSoft.bound_le_eps_of_inverse_temperature": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) (hT : HardSoft.ExpLike.Tangent E) (log : α → α) (hlog : HardSoft.ExpLike.IsLog E log) {r a : Nat → α} {R AN gamma eps tau : α} {L : Nat} (hL : 0 < L) (hAN : 0 < AN) (hg : 0 < gamma) (heps : 0 < eps) (htau : 0 < tau) (hr1 : ∀ l, l < L → 1 ≤ r l) (hr : ∀ l, l < L → r l ≤ R / tau) (ha0 : ∀ l, l < L → 0 ≤ a l) (ha : ∀ l, l < L → a l ≤ AN * E.exp (-gamma / tau)) (ht : 2 / gamma * log (AN * HardSoft.natCast L * R ^ (L - 1) * (2 * HardSoft.natCast (L - 1) / (E.exp 1 * gamma)) ^ (L - 1) / eps) ≤ 1 / tau), HardSoft.bound r a L ≤ eps"
        ),
        "T as stated, every depth L ≥ 1: facts F1 and a logarithm (exp (log x) = x for x > 0), 1 ≤ r_l ≤ R/tau, 0 ≤ a_l ≤ A N exp(-gamma/tau), A N, gamma, eps > 0: 1/tau ≥ (2/gamma) ln(A N L R^(L-1) (2(L-1)/(e gamma))^(L-1) / eps) gives B_L ≤ eps",
    ),
    "HardSoft.activation_growth": LeanStatement(
        over_field(
            "{d N H m : Nat} {xq b1 b2 Vc : Nat → α} {x w W1 W2 : Nat → Nat → α} {V : Nat → Nat → Nat → α} {X W1c W2c b1n b2n : α} (hX : 0 ≤ X) (hxq : ∀ k, k < d → HardSoft.absv (xq k) ≤ X) (hx : ∀ j, j < N → ∀ k, k < d → HardSoft.absv (x j k) ≤ X) (hw0 : ∀ h, h < H → ∀ j, j < N → 0 ≤ w h j) (hw1 : ∀ h, h < H → HardSoft.sumTo (w h) N = 1) (hVc0 : ∀ h, h < H → 0 ≤ Vc h) (hV : ∀ h, h < H → ∀ l, l < d → HardSoft.sumTo (fun k => HardSoft.absv (V h k l)) d ≤ Vc h) (hW1c : 0 ≤ W1c) (hW1 : ∀ c, c < m → HardSoft.sumTo (fun k => HardSoft.absv (W1 k c)) d ≤ W1c) (hW2 : ∀ l, l < d → HardSoft.sumTo (fun c => HardSoft.absv (W2 c l)) m ≤ W2c) (hb1n : 0 ≤ b1n) (hb1 : ∀ c, c < m → HardSoft.absv (b1 c) ≤ b1n) (hb2 : ∀ l, l < d → HardSoft.absv (b2 l) ≤ b2n), (∀ l, l < d → HardSoft.absv (HardSoft.attnResidual xq x w V N d H l) ≤ (1 + HardSoft.sumTo Vc H) * X) ∧ (∀ l, l < d → HardSoft.absv (HardSoft.ffnResidual (HardSoft.attnResidual xq x w V N d H) W1 b1 W2 b2 d m l) ≤ (1 + W1c * W2c) * ((1 + HardSoft.sumTo Vc H) * X) + b1n * W2c + b2n)"
        ),
        "G, one layer, every d, N, H, m: query and keys with ||x||_inf ≤ X, attention weights ≥ 0 summing to 1, column sums ≤ |V_h|, |W1|, |W2|, biases ≤ b1, b2: ||y||_inf ≤ (1 + Σ_h |V_h|) X and ||z||_inf ≤ (1 + |W1| |W2|) ||y|| bound + b1 |W2| + b2",
    ),
    "HardSoft.activation_growth_layers": LeanStatement(
        over_field(
            "{Xs : Nat → α} {g c : α} {L : Nat} (hg : 0 ≤ g) (hstep : ∀ l, l < L → Xs (l + 1) ≤ g * Xs l + c), Xs L ≤ g ^ L * Xs 0 + HardSoft.bound (fun _ => g) (fun _ => c) L"
        ),
        "G over L layers: X_(l+1) ≤ g X_l + c (g ≥ 0) give X_L ≤ g^L X_0 + B_L(g, c): geometric in L, linear in X_0",
    ),
    "HardSoft.corrected_offset_le_eps": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {K X gamma eps tau : α} {N : Nat} (hchoice : K * X * HardSoft.natCast N ≤ E.exp (gamma / tau) * eps), K * X * HardSoft.natCast N * E.exp (-gamma / tau) ≤ eps"
        ),
        "ERR1, every N: the proof's temperature choice e^(gamma/tau) eps ≥ K X N gives the corrected offset K X N e^(-gamma/tau) ≤ eps",
    ),
    "HardSoft.printed_offset_not_le": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {K X gamma eps tau : α} {N : Nat} (hK : 0 ≤ K) (hX : 0 ≤ X) (hg : 0 ≤ gamma) (htau : 0 < tau), K * X * HardSoft.natCast N ≤ K * X * HardSoft.natCast N * E.exp (gamma / tau) ∧ (∀ tau', 0 < tau' → tau' ≤ tau → K * X * HardSoft.natCast N * E.exp (gamma / tau) ≤ K * X * HardSoft.natCast N * E.exp (gamma / tau')) ∧ (eps < K * X * HardSoft.natCast N → ¬ K * X * HardSoft.natCast N * E.exp (gamma / tau) ≤ eps)"
        ),
        "ERR1, every N: the printed offset K X N e^(+gamma/tau) is ≥ K X N, grows as tau shrinks, and is never ≤ eps for eps < K X N",
    ),
    "HardSoft.eps_upper_bound_not_certified": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {A gamma tau b : α} {N : Nat} (hA : 0 < A) (hN : 0 < N) (hb : 0 < b) (r : Nat → α), ∃ eps : α, 0 < eps ∧ eps ≤ b ∧ ¬ HardSoft.bound r (fun _ => A * HardSoft.natCast N * E.exp (-gamma / tau)) 1 ≤ eps"
        ),
        "ERR2, every N: for any temperature and any bound b = alpha/n^beta > 0, some eps ≤ b is not certified (one layer's B_1 = A N e^(-gamma/tau) exceeds it): the printed eps ≤ alpha/n^beta admits eps no eps-free temperature handles",
    ),
    "HardSoft.bound_le_eps_of_eps_lower_bound": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) (hT : HardSoft.ExpLike.Tangent E) {r a : Nat → α} {R AN gamma b eps tau ell : α} {L : Nat} (hL : 0 < L) (hAN : 0 ≤ AN) (hg : 0 < gamma) (htau : 0 < tau) (hr1 : ∀ l, l < L → 1 ≤ r l) (hr : ∀ l, l < L → r l ≤ R / tau) (ha0 : ∀ l, l < L → 0 ≤ a l) (ha : ∀ l, l < L → a l ≤ AN * E.exp (-gamma / tau)) (hell : AN * HardSoft.natCast L * R ^ (L - 1) * (2 * HardSoft.natCast (L - 1) / (E.exp 1 * gamma)) ^ (L - 1) ≤ b * E.exp ell) (ht : 2 / gamma * ell ≤ 1 / tau) (hb : b ≤ eps), HardSoft.bound r a L ≤ eps"
        ),
        "ERR2 corrected, every depth: T's temperature chosen from b = alpha/n^beta alone certifies B_L ≤ eps for every eps ≥ b",
    ),
    "HardSoft.unguarded_err_unbounded": LeanStatement(
        over_field(
            "{L : Nat} (hL : 2 ≤ L) (M : α), HardSoft.bound (fun _ => (1 : α)) (fun _ => 2) L = 2 * HardSoft.natCast L ∧ ∃ e : Nat → α, e 0 = 0 ∧ (∀ k, k < L → e k ≤ 1 → e (k + 1) ≤ (fun _ => (1 : α)) k * e k + (fun _ => (2 : α)) k) ∧ (∀ k, k ≤ L → 0 ≤ e k) ∧ M < e L"
        ),
        "ERR3, every depth L ≥ 2: with r = 1, a = 2 the bound is finite (B_L = 2L), yet for every M a guarded error sequence (e_0 = 0, e ≥ 0) ends with e_L > M",
    ),
    "HardSoft.softmax_mass_off_max_le": LeanStatement(
        over_field(
            "{isMax : Nat → Bool} {w : Nat → α} {x : α} {N : Nat} (hmax : ∀ j, j < N → isMax j = true → w j = 1) (hoff : ∀ j, j < N → isMax j = false → w j ≤ x) (hoff0 : ∀ j, j < N → isMax j = false → 0 ≤ w j) (hx : 0 ≤ x) (hm : 0 < HardSoft.countMax isMax N), HardSoft.offMass isMax w N / HardSoft.sumTo w N ≤ HardSoft.natCast (N - HardSoft.countMax isMax N) * x / (HardSoft.natCast (HardSoft.countMax isMax N) + HardSoft.natCast (N - HardSoft.countMax isMax N) * x) ∧ HardSoft.offMass isMax w N / HardSoft.sumTo w N ≤ HardSoft.natCast (N - 1) * x"
        ),
        "weights w = 1 on the m ≥ 1 max positions and 0 ≤ w ≤ x elsewhere: off-max mass ≤ (N-m)x/(m+(N-m)x) and ≤ (N-1)x",
    ),
    "HardSoft.softmax_mass_off_max_le_rat": LeanStatement(
        "∀ {isMax : Nat → Bool} {w : Nat → Rat} {x : Rat} {N : Nat} (hmax : ∀ j, j < N → isMax j = true → w j = 1) (hoff : ∀ j, j < N → isMax j = false → w j ≤ x) (hoff0 : ∀ j, j < N → isMax j = false → 0 ≤ w j) (hx : 0 ≤ x) (hm : 0 < HardSoft.countMax isMax N), HardSoft.offMass isMax w N / HardSoft.sumTo w N ≤ HardSoft.natCast (N - 1) * x",
        "the (N-1)x form of softmax_mass_off_max_le at α = Rat",
    ),
    "HardSoft.sumTo_absv_sub_ahardmax_eq": LeanStatement(
        over_field(
            "{isMax : Nat → Bool} {p : Nat → α} {N : Nat} (hm : 0 < HardSoft.countMax isMax N) (hmax : ∀ j, j < N → isMax j = true → p j = (1 - HardSoft.offMass isMax p N) / HardSoft.natCast (HardSoft.countMax isMax N)) (hoff0 : ∀ j, j < N → isMax j = false → 0 ≤ p j), HardSoft.sumTo (fun j => HardSoft.absv (p j - HardSoft.ahardmax isMax N j)) N = 2 * HardSoft.offMass isMax p N"
        ),
        "p ≥ 0 off the max set and p = (1 - δ)/m on each of its m ≥ 1 positions (δ the mass off it): ||p - ahardmax||_1 = 2δ",
    ),
    "HardSoft.sumTo_absv_sub_ahardmax_le": LeanStatement(
        over_field(
            "{isMax : Nat → Bool} {p : Nat → α} {x : α} {N : Nat} (hm : 0 < HardSoft.countMax isMax N) (hmax : ∀ j, j < N → isMax j = true → p j = (1 - HardSoft.offMass isMax p N) / HardSoft.natCast (HardSoft.countMax isMax N)) (hoff0 : ∀ j, j < N → isMax j = false → 0 ≤ p j) (hδ : HardSoft.offMass isMax p N ≤ HardSoft.natCast (N - 1) * x), HardSoft.sumTo (fun j => HardSoft.absv (p j - HardSoft.ahardmax isMax N j)) N ≤ 2 * HardSoft.natCast (N - 1) * x"
        ),
        "the same with δ ≤ (N-1)x: ||p - ahardmax||_1 ≤ 2(N-1)x",
    ),
    "HardSoft.softmax_offMass_le_of_gap": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {s : Nat → α} {isMax : Nat → Bool} {smax gamma tau : α} {N : Nat} (htau : 0 < tau) (hmax : ∀ j, j < N → isMax j = true → s j = smax) (hgap : ∀ j, j < N → isMax j = false → s j ≤ smax - gamma) (hm : 0 < HardSoft.countMax isMax N), HardSoft.offMass isMax (HardSoft.softmax E tau s N) N ≤ HardSoft.natCast (N - HardSoft.countMax isMax N) * E.exp (-gamma / tau) / (HardSoft.natCast (HardSoft.countMax isMax N) + HardSoft.natCast (N - HardSoft.countMax isMax N) * E.exp (-gamma / tau)) ∧ HardSoft.offMass isMax (HardSoft.softmax E tau s N) N ≤ HardSoft.natCast (N - 1) * E.exp (-gamma / tau)"
        ),
        "for any exp with ExpLike's properties, tau > 0, scores = s_max on the max set (m ≥ 1) and ≤ s_max - gamma elsewhere: softmax mass off the max set ≤ (N-m)x/(m+(N-m)x) and ≤ (N-1)x, x = exp(-gamma/tau)",
    ),
    "HardSoft.sumTo_absv_softmax_sub_ahardmax_le": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {s : Nat → α} {isMax : Nat → Bool} {smax gamma tau : α} {N : Nat} (htau : 0 < tau) (hmax : ∀ j, j < N → isMax j = true → s j = smax) (hgap : ∀ j, j < N → isMax j = false → s j ≤ smax - gamma) (hm : 0 < HardSoft.countMax isMax N), HardSoft.sumTo (fun j => HardSoft.absv (HardSoft.softmax E tau s N j - HardSoft.ahardmax isMax N j)) N = 2 * HardSoft.offMass isMax (HardSoft.softmax E tau s N) N ∧ HardSoft.sumTo (fun j => HardSoft.absv (HardSoft.softmax E tau s N j - HardSoft.ahardmax isMax N j)) N ≤ 2 * HardSoft.natCast (N - 1) * E.exp (-gamma / tau)"
        ),
        "the same hypotheses: ||softmax - ahardmax||_1 = 2δ ≤ 2(N-1)x",
    ),
    "HardSoft.ziggurat_mass_off_top_le": LeanStatement(
        over_field(
            "{w : Nat → α} {x : α} {N : Nat} (hN : 0 < N) (hw0 : 0 < w 0) (hnn : ∀ k, k < N → 0 ≤ w k) (hw : ∀ k, 0 < k → k < N → w k ≤ x ^ k * w 0) (hx0 : 0 ≤ x) (hx1 : x ≤ 1), (HardSoft.sumTo w N - w 0) / HardSoft.sumTo w N ≤ x ∧ HardSoft.sumTo w N * (1 - x) ≤ w 0 * (1 - x ^ N)"
        ),
        "N ≥ 1, w_0 > 0, 0 ≤ w_k ≤ x^k w_0, 0 ≤ x ≤ 1: off-top mass ≤ x and total (1 - x) ≤ w_0 (1 - x^N)",
    ),
    "HardSoft.ziggurat_mass_off_top_le_rat": LeanStatement(
        "∀ {w : Nat → Rat} {x : Rat} {N : Nat} (hN : 0 < N) (hw0 : 0 < w 0) (hnn : ∀ k, k < N → 0 ≤ w k) (hw : ∀ k, 0 < k → k < N → w k ≤ x ^ k * w 0) (hx0 : 0 ≤ x) (hx1 : x ≤ 1), (HardSoft.sumTo w N - w 0) / HardSoft.sumTo w N ≤ x",
        "the off-top mass ≤ x form of ziggurat_mass_off_top_le at α = Rat",
    ),
    "HardSoft.sumTo_sub_top_div_sumTo_le_geom": LeanStatement(
        over_field(
            "{w : Nat → α} {x : α} {N : Nat} (hN : 0 < N) (hw0 : 0 < w 0) (hnn : ∀ k, k < N → 0 ≤ w k) (hw : ∀ k, 0 < k → k < N → w k ≤ x ^ k * w 0) (hx0 : 0 ≤ x) (hx1 : x < 1), (HardSoft.sumTo w N - w 0) / HardSoft.sumTo w N ≤ (x - x ^ N) / (1 - x ^ N) ∧ (HardSoft.sumTo w N - w 0) / HardSoft.sumTo w N ≤ x"
        ),
        "the same weights with 0 ≤ x < 1: off-top mass ≤ (x - x^N)/(1 - x^N) and ≤ x",
    ),
    "HardSoft.softmax_mass_off_top_le_of_ziggurat": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {s : Nat → α} {gamma tau : α} {N : Nat} (hN : 0 < N) (htau : 0 < tau) (hg : 0 ≤ gamma) (hz : ∀ k, 0 < k → k < N → HardSoft.natCast k * gamma ≤ s 0 - s k), HardSoft.sumTo (HardSoft.softmax E tau s N) N - HardSoft.softmax E tau s N 0 ≤ E.exp (-gamma / tau) ∧ (E.exp (-gamma / tau) < 1 → HardSoft.sumTo (HardSoft.softmax E tau s N) N - HardSoft.softmax E tau s N 0 ≤ (E.exp (-gamma / tau) - E.exp (-gamma / tau) ^ N) / (1 - E.exp (-gamma / tau) ^ N))"
        ),
        "for any exp with ExpLike's properties, N ≥ 1, tau > 0, gamma ≥ 0 and a ziggurat k gamma ≤ s_0 - s_k: softmax mass off the top ≤ x, and ≤ (x - x^N)/(1 - x^N) when x < 1, x = exp(-gamma/tau)",
    ),
    "HardSoft.softmax_mass_off_top_le_of_distinct": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {s : Nat → α} {d : Nat → Nat} {g tau : α} {N t : Nat} (ht : t < N) (htau : 0 < tau) (hg : 0 ≤ g) (hd : ∀ j, j < N → j ≠ t → 0 < d j) (hinj : ∀ a b, a < N → b < N → a ≠ t → b ≠ t → d a = d b → a = b) (hgap : ∀ j, j < N → j ≠ t → HardSoft.natCast (d j) * g ≤ s t - s j), HardSoft.sumTo (HardSoft.softmax E tau s N) N - HardSoft.softmax E tau s N t ≤ E.exp (-g / tau)"
        ),
        "for any exp with ExpLike's properties, t < N, tau > 0, g ≥ 0 and pairwise distinct naturals d_j ≥ 1 (j ≠ t) with s_t - s_j ≥ d_j g: softmax mass off t ≤ exp(-g/tau), whatever N (Lemma 6 without sorting)",
    ),
    "HardSoft.softmax_mass_off_top_le_of_keys": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {s : Nat → α} {c : Nat → Nat} {g b tau : α} {N t : Nat} (ht : t < N) (htau : 0 < tau) (hg : 0 ≤ g) (hs : ∀ k, k < N → s k = g * HardSoft.natCast (c k) + b) (hinj : ∀ k k', k < N → k' < N → c k = c k' → k = k') (htop : ∀ k, k < N → c k ≤ c t), (∀ k, k < N → k ≠ t → s k ≤ s t - g) ∧ HardSoft.sumTo (HardSoft.softmax E tau s N) N - HardSoft.softmax E tau s N t ≤ E.exp (-g / tau)"
        ),
        "scores s_k = g c_k + b on pairwise distinct naturals c_k largest at t < N, g ≥ 0, tau > 0: every k ≠ t has s_k ≤ s_t - g, and softmax mass off t ≤ exp(-g/tau)",
    ),
    "HardSoft.tiebreak_past_bounded": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {K tau : α} {n i : Nat} (sel : Nat → Bool) (hK : 0 < K) (htau : 0 < tau) (hi : 0 < i) (hin : i ≤ n), (∀ j, j < i → j ≠ HardSoft.tiebreakPastTarget sel i → HardSoft.tiebreakPastBounded K n sel j ≤ HardSoft.tiebreakPastBounded K n sel (HardSoft.tiebreakPastTarget sel i) - K / HardSoft.natCast n) ∧ HardSoft.sumTo (HardSoft.softmax E tau (HardSoft.tiebreakPastBounded K n sel) i) i - HardSoft.softmax E tau (HardSoft.tiebreakPastBounded K n sel) i (HardSoft.tiebreakPastTarget sel i) ≤ E.exp (-(K / HardSoft.natCast n) / tau)"
        ),
        "Lemma 8, bounded, past: s_j = K(select_j + j/n) over j < i, 0 < i ≤ n, K, tau > 0: the target (rightmost selected j < i, else i - 1) is ≥ K/n above every other key and softmax mass off it ≤ exp(-(K/n)/tau), for every n and selection",
    ),
    "HardSoft.tiebreak_future_bounded": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {K tau : α} {n i : Nat} (sel : Nat → Bool) (hK : 0 < K) (htau : 0 < tau) (hin : i + 1 < n), (∀ k, k < n - 1 - i → k ≠ HardSoft.tiebreakFutureTarget sel n i → HardSoft.tiebreakFutureBounded K n sel i k ≤ HardSoft.tiebreakFutureBounded K n sel i (HardSoft.tiebreakFutureTarget sel n i) - K / HardSoft.natCast n) ∧ HardSoft.sumTo (HardSoft.softmax E tau (HardSoft.tiebreakFutureBounded K n sel i) (n - 1 - i)) (n - 1 - i) - HardSoft.softmax E tau (HardSoft.tiebreakFutureBounded K n sel i) (n - 1 - i) (HardSoft.tiebreakFutureTarget sel n i) ≤ E.exp (-(K / HardSoft.natCast n) / tau)"
        ),
        "Lemma 8, bounded, future: s = K(select_j - j/n) over the keys j = i+1+k > i (k < n-1-i), i + 1 < n, K, tau > 0: the target (leftmost selected j > i, else i + 1) is ≥ K/n above every other key and softmax mass off it ≤ exp(-(K/n)/tau)",
    ),
    "HardSoft.tiebreak_past_unbounded": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {K tau : α} {n i : Nat} (sel : Nat → Bool) (hK : 0 < K) (htau : 0 < tau) (hi : 0 < i) (hin : i ≤ n), (∀ j, j < i → j ≠ HardSoft.tiebreakPastTarget sel i → HardSoft.tiebreakPastUnbounded K n sel j ≤ HardSoft.tiebreakPastUnbounded K n sel (HardSoft.tiebreakPastTarget sel i) - K) ∧ HardSoft.sumTo (HardSoft.softmax E tau (HardSoft.tiebreakPastUnbounded K n sel) i) i - HardSoft.softmax E tau (HardSoft.tiebreakPastUnbounded K n sel) i (HardSoft.tiebreakPastTarget sel i) ≤ E.exp (-K / tau)"
        ),
        "Lemma 8, unbounded, past: s_j = K(n select_j + j) over j < i, 0 < i ≤ n, K, tau > 0: the target is ≥ K above every other key and softmax mass off it ≤ exp(-K/tau), for every n and selection",
    ),
    "HardSoft.tiebreak_future_unbounded": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {K tau : α} {n i : Nat} (sel : Nat → Bool) (hK : 0 < K) (htau : 0 < tau) (hin : i + 1 < n), (∀ k, k < n - 1 - i → k ≠ HardSoft.tiebreakFutureTarget sel n i → HardSoft.tiebreakFutureUnbounded K n sel i k ≤ HardSoft.tiebreakFutureUnbounded K n sel i (HardSoft.tiebreakFutureTarget sel n i) - K) ∧ HardSoft.sumTo (HardSoft.softmax E tau (HardSoft.tiebreakFutureUnbounded K n sel i) (n - 1 - i)) (n - 1 - i) - HardSoft.softmax E tau (HardSoft.tiebreakFutureUnbounded K n sel i) (n - 1 - i) (HardSoft.tiebreakFutureTarget sel n i) ≤ E.exp (-K / tau)"
        ),
        "Lemma 8, unbounded, future: s = K(n select_j - j) over the keys j = i+1+k > i, i + 1 < n, K, tau > 0: the target is ≥ K above every other key and softmax mass off it ≤ exp(-K/tau)",
    ),
    "HardSoft.lookup_gap": LeanStatement(
        over_field("(K : α) (hK : 0 ≤ K) {t j : Nat} (h : j ≠ t), HardSoft.lookupScore K t j ≤ HardSoft.lookupScore K t t - K"),
        "Lemma 7, both sides: s_j = K(2tj - j^2), K ≥ 0: every key j ≠ t scores ≤ s_t - K",
    ),
    "HardSoft.lookup_gap_bounded": LeanStatement(
        over_field(
            "(K : α) (hK : 0 ≤ K) {n t j : Nat} (hn : 0 < n) (h : j ≠ t), HardSoft.lookupScoreBounded K n t j ≤ HardSoft.lookupScoreBounded K n t t - K / (HardSoft.natCast n * HardSoft.natCast n)"
        ),
        "Lemma 7, bounded, both sides: s_j = K(2(t/n)(j/n) - (j/n)^2), K ≥ 0, n ≥ 1: every key j ≠ t scores ≤ s_t - K/n^2",
    ),
    "HardSoft.lookup_past": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {K tau : α} {i : Nat} (hK : 0 ≤ K) (htau : 0 < tau) (hi : 0 < i), (∀ j, j < i → j ≠ i - 1 → HardSoft.lookupScore K (i - 1) j ≤ HardSoft.lookupScore K (i - 1) (i - 1) - K) ∧ HardSoft.sumTo (HardSoft.softmax E tau (HardSoft.lookupScore K (i - 1)) i) i - HardSoft.softmax E tau (HardSoft.lookupScore K (i - 1)) i (i - 1) ≤ E.exp (-K / tau)"
        ),
        "Lemma 7, past mask: t = i - 1 among the keys j < i, s_j = K(2tj - j^2), K ≥ 0, tau > 0, i ≥ 1: every other key scores ≤ s_t - K and softmax mass off t ≤ exp(-K/tau), for every i",
    ),
    "HardSoft.lookup_future": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {K tau : α} {n i : Nat} (hK : 0 ≤ K) (htau : 0 < tau) (hin : i + 1 < n), (∀ k, k < n - 1 - i → k ≠ 0 → HardSoft.lookupScore K (i + 1) (i + 1 + k) ≤ HardSoft.lookupScore K (i + 1) (i + 1 + 0) - K) ∧ HardSoft.sumTo (HardSoft.softmax E tau (fun k => HardSoft.lookupScore K (i + 1) (i + 1 + k)) (n - 1 - i)) (n - 1 - i) - HardSoft.softmax E tau (fun k => HardSoft.lookupScore K (i + 1) (i + 1 + k)) (n - 1 - i) 0 ≤ E.exp (-K / tau)"
        ),
        "Lemma 7, future mask: t = i + 1 among the keys j = i+1+k (k < n-1-i), i + 1 < n: every other key scores ≤ s_t - K and softmax mass off t (k = 0) ≤ exp(-K/tau), for every n",
    ),
    "HardSoft.lookup_past_bounded": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {K tau : α} {n i : Nat} (hK : 0 ≤ K) (htau : 0 < tau) (hi : 0 < i) (hn : 0 < n), (∀ j, j < i → j ≠ i - 1 → HardSoft.lookupScoreBounded K n (i - 1) j ≤ HardSoft.lookupScoreBounded K n (i - 1) (i - 1) - K / (HardSoft.natCast n * HardSoft.natCast n)) ∧ HardSoft.sumTo (HardSoft.softmax E tau (HardSoft.lookupScoreBounded K n (i - 1)) i) i - HardSoft.softmax E tau (HardSoft.lookupScoreBounded K n (i - 1)) i (i - 1) ≤ E.exp (-(K / (HardSoft.natCast n * HardSoft.natCast n)) / tau)"
        ),
        "Lemma 7, bounded, past mask: s_j = K(2(t/n)(j/n) - (j/n)^2), t = i - 1, keys j < i: every other key scores ≤ s_t - K/n^2 and softmax mass off t ≤ exp(-(K/n^2)/tau)",
    ),
    "HardSoft.softmax_eq_uniform_of_const": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {s : Nat → α} {c tau : α} {N : Nat} (hs : ∀ k, k < N → s k = c), ∀ j, j < N → HardSoft.softmax E tau s N j = 1 / HardSoft.natCast N"
        ),
        "counting: scores all equal to c on the N keys: every softmax weight is exactly 1/N, at every tau (soft = average-hard)",
    ),
    "HardSoft.sign_gap_bounded": LeanStatement(
        over_field(
            "{K : α} (hK : 0 ≤ K) {m D n : Nat} (hD : 0 < D) (hDn : D ≤ n), K / HardSoft.natCast n ≤ 2 * K * (HardSoft.natCast (2 * m + 1) / (2 * HardSoft.natCast D))"
        ),
        "comparison, bounded: |V| = (2m+1)/(2D) with 1 ≤ D ≤ n, K ≥ 0: the sign head's gap 2K|V| ≥ K/n",
    ),
    "HardSoft.sign_gap_unbounded": LeanStatement(
        over_field(
            "{K : α} (hK : 0 ≤ K) {m D n : Nat} (hD : 0 < D) (hDn : D ≤ n), K ≤ 2 * K * (HardSoft.natCast (2 * m + 1) / (2 * HardSoft.natCast D)) * HardSoft.natCast n"
        ),
        "comparison, unbounded: |V| = (2m+1)/(2D) with 1 ≤ D ≤ n, K ≥ 0: the gap 2K|V| n ≥ K",
    ),
    "HardSoft.tiebreak_past_bounded_at_rule": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {c x : α} {n i : Nat} (sel : Nat → Bool) (hc : 0 < c) (hi : 0 < i) (hin : i ≤ n) (hrule : E.exp (-(1 / c)) ≤ x), HardSoft.sumTo (HardSoft.softmax E (c / HardSoft.natCast n) (HardSoft.tiebreakPastBounded 1 n sel) i) i - HardSoft.softmax E (c / HardSoft.natCast n) (HardSoft.tiebreakPastBounded 1 n sel) i (HardSoft.tiebreakPastTarget sel i) ≤ x"
        ),
        "the bounded regime's temperature rule: K = 1, tau = c/n, c > 0 with exp(-1/c) ≤ x, 0 < i ≤ n: the past tie-breaking head's softmax mass off its target ≤ x, for every n and selection (the compilers' c = 1/ln(16 m) is x = 1/(16 m))",
    ),
    "HardSoft.clampUnit_eq_one": LeanStatement(
        "∀ {σ ρ : Nat → Bool} {x : Nat → Rat} {m : Nat} (hm : 0 < m) (hx : ∀ k, k < m → (if ρ k then 1 else 0) - 1 / (4 * HardSoft.natCast m) ≤ x k ∧ x k ≤ (if ρ k then 1 else 0) + 1 / (4 * HardSoft.natCast m)) (hσ : ∀ k, k < m → σ k = ρ k), HardSoft.clampUnit σ x m = 1",
        "read-out clamp over Rat: m ≥ 1 leaves each within 1/(4m) of its 0/1 value rho_k: the unit pair ReLU(2(L_sigma - |sigma| + 3/4)) - ReLU(2(L_sigma - |sigma| + 1/4)) of sigma = rho outputs exactly 1",
    ),
    "HardSoft.clampUnit_eq_zero": LeanStatement(
        "∀ {σ ρ : Nat → Bool} {x : Nat → Rat} {m k0 : Nat} (hm : 0 < m) (hx : ∀ k, k < m → (if ρ k then 1 else 0) - 1 / (4 * HardSoft.natCast m) ≤ x k ∧ x k ≤ (if ρ k then 1 else 0) + 1 / (4 * HardSoft.natCast m)) (hk0 : k0 < m) (hne : σ k0 ≠ ρ k0), HardSoft.clampUnit σ x m = 0",
        "read-out clamp over Rat: the same leaves, sigma ≠ rho at some leaf k0 < m: the unit pair of sigma outputs exactly 0",
    ),
    "HardSoft.big_m_product": LeanStatement(
        over_field(
            "(b : Bool) {z z0 s M K e d : α} (hz : HardSoft.absv (z - z0) ≤ e) (hM : HardSoft.absv z0 + 1 ≤ M * K) (hs : HardSoft.absv (s + M * K * (if b then 0 else 1)) ≤ d) (hed : e + d ≤ 1), HardSoft.absv (HardSoft.relu (z + s) - HardSoft.relu (-z + s) - (if b then z0 else 0)) ≤ (if b then e + d else 0)"
        ),
        "S-RASP's big-M product ReLU(z + s) - ReLU(-z + s) (gated: b z for a Boolean b): with z within e of an integer z0, |z0| + 1 ≤ M K and the slack s within d of -M K (1 - b), e + d ≤ 1, the product is exactly 0 when b is false and within e + d of z0 when b is true",
    ),
    "HardSoft.srasp_lookup_gap": LeanStatement(
        over_field(
            "{S p i : Nat} (hi : 0 < i) (h : p ≠ S), ((2 * HardSoft.natCast p * HardSoft.natCast S - HardSoft.natCast p * HardSoft.natCast p) / HardSoft.natCast i : α) ≤ (2 * HardSoft.natCast S * HardSoft.natCast S - HardSoft.natCast S * HardSoft.natCast S) / HardSoft.natCast i - 1 / HardSoft.natCast i"
        ),
        "S-RASP's lookup over positions: score (2pS - p^2)/i at query i ≥ 1, prefix sum S ≥ 0: every key p ≠ S scores ≤ that of p = S minus 1/i",
    ),
    "HardSoft.srasp_lookup_gap_neg": LeanStatement(
        over_field(
            "{m p i : Nat} (hi : 0 < i) (hp : 0 < p), ((2 * HardSoft.natCast p * -HardSoft.natCast m - HardSoft.natCast p * HardSoft.natCast p) / HardSoft.natCast i : α) ≤ 0 - 1 / HardSoft.natCast i"
        ),
        "the same with a negative prefix sum S = -m: every key p ≥ 1 scores ≤ 0 - 1/i, 0 being the score of p = 0",
    ),
    # ---- the applications' heads (lean/HardSoft/Applications.lean)
    "HardSoft.tiebreak_past_bounded_at_half_tau": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {n i : Nat} (sel : Nat → Bool) (hi : 0 < i) (hin : i ≤ n), (∀ j, j < i → j ≠ HardSoft.tiebreakPastTarget sel i → HardSoft.tiebreakPastBounded (1 : α) n sel j ≤ HardSoft.tiebreakPastBounded 1 n sel (HardSoft.tiebreakPastTarget sel i) - 1 / HardSoft.natCast n) ∧ HardSoft.sumTo (HardSoft.softmax E (1 / (2 * HardSoft.natCast n)) (HardSoft.tiebreakPastBounded 1 n sel) i) i - HardSoft.softmax E (1 / (2 * HardSoft.natCast n)) (HardSoft.tiebreakPastBounded 1 n sel) i (HardSoft.tiebreakPastTarget sel i) ≤ E.exp (-2)"
        ),
        "Lemma 8 with K = 1 at the applications' tau = 1/(2n), 0 < i ≤ n: for every selection the target is ≥ 1/n above every other key and softmax mass off it ≤ exp(-2)",
    ),
    "HardSoft.flip_flop_head": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {n i : Nat} (write : Nat → Bool) (hin : i < n), (∀ j, j < i + 1 → j ≠ HardSoft.tiebreakPastTarget write (i + 1) → (HardSoft.flipFlopScore n write j : α) ≤ HardSoft.flipFlopScore n write (HardSoft.tiebreakPastTarget write (i + 1)) - 1 / HardSoft.natCast n) ∧ HardSoft.sumTo (HardSoft.softmax E (1 / (2 * HardSoft.natCast n)) (HardSoft.flipFlopScore n write) (i + 1)) (i + 1) - HardSoft.softmax E (1 / (2 * HardSoft.natCast n)) (HardSoft.flipFlopScore n write) (i + 1) (HardSoft.tiebreakPastTarget write (i + 1)) ≤ E.exp (-2)"
        ),
        "flip-flop's head [write_j] + j/n over j ≤ i < n at tau = 1/(2n): the last write (else i) is ≥ 1/n above every other key and mass off it ≤ exp(-2), for every n and input",
    ),
    "HardSoft.induction_prev_head": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {n i : Nat} (hi : 0 < i) (hin : i ≤ n), (∀ j, j < i → j ≠ i - 1 → HardSoft.inductionPrevScore n j ≤ (HardSoft.inductionPrevScore n (i - 1) : α) - 1 / HardSoft.natCast n) ∧ HardSoft.sumTo (HardSoft.softmax E (1 / (2 * HardSoft.natCast n)) (HardSoft.inductionPrevScore n) i) i - HardSoft.softmax E (1 / (2 * HardSoft.natCast n)) (HardSoft.inductionPrevScore n) i (i - 1) ≤ E.exp (-2)"
        ),
        "induction / k-hop head P, j/n over j < i, 0 < i ≤ n, tau = 1/(2n): key i - 1 is ≥ 1/n above every other key and mass off it ≤ exp(-2), for every n",
    ),
    "HardSoft.induction_hop_head": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {n i : Nat} (w : Nat → Nat) (hin : i < n), (∀ j, j < i + 1 → j ≠ HardSoft.tiebreakPastTarget (HardSoft.inductionHopSel w i) (i + 1) → (HardSoft.inductionHopScore n w i j : α) ≤ HardSoft.inductionHopScore n w i (HardSoft.tiebreakPastTarget (HardSoft.inductionHopSel w i) (i + 1)) - 1 / HardSoft.natCast n) ∧ HardSoft.sumTo (HardSoft.softmax E (1 / (2 * HardSoft.natCast n)) (HardSoft.inductionHopScore n w i) (i + 1)) (i + 1) - HardSoft.softmax E (1 / (2 * HardSoft.natCast n)) (HardSoft.inductionHopScore n w i) (i + 1) (HardSoft.tiebreakPastTarget (HardSoft.inductionHopSel w i) (i + 1)) ≤ E.exp (-2)"
        ),
        "induction / k-hop head M_l, [j ≥ 1 ∧ w_{j-1} = w_i] + j/n over j ≤ i < n, tau = 1/(2n): the last match (else i) is ≥ 1/n above every other key and mass off it ≤ exp(-2), for every n and word",
    ),
    "HardSoft.indicator_head": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {tau : α} {b : Nat → Bool} {N : Nat} (htau : 0 < tau) (hm : 0 < HardSoft.countMax b N), (∀ j k, j < N → k < N → b j = false → b k = true → (if b j then (1 : α) else 0) ≤ (if b k then (1 : α) else 0) - 1) ∧ HardSoft.offMass b (HardSoft.softmax E tau (fun j => if b j then (1 : α) else 0) N) N ≤ HardSoft.natCast (N - 1) * E.exp (-1 / tau)"
        ),
        "0/1 scores b_j (induction head S, S-RASP's Once) with some b_j true, tau > 0: every key with b_j false scores 1 below every key with b_k true and softmax mass off {j : b_j} ≤ (N - 1) exp(-1/tau)",
    ),
    "HardSoft.prefix_argmax_gap": LeanStatement(
        over_field(
            "{n N t : Nat} {c : Nat → Nat} (hN : N ≤ n) (ht : t < N) (hmax : ∀ j, j < N → c j * (t + 1) ≤ c t * (j + 1)) (hlast : ∀ j, j < N → c j * (t + 1) = c t * (j + 1) → j ≤ t), ∀ j, j < N → j ≠ t → HardSoft.prefixArgmaxScore n c j ≤ (HardSoft.prefixArgmaxScore n c t : α) - 1 / (HardSoft.natCast n * HardSoft.natCast n * HardSoft.natCast n)"
        ),
        "prefix-argmax's head A, c_j/(j+1) + j/n^3 over j < N ≤ n: the last maximiser t of the ratio (cross-multiplied) scores ≥ 1/n^3 above every other key, for every n and all counts",
    ),
    "HardSoft.prefix_argmax_mass_le": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {tau : α} {n N t : Nat} {c : Nat → Nat} (htau : 0 < tau) (hN : N ≤ n) (ht : t < N) (hmax : ∀ j, j < N → c j * (t + 1) ≤ c t * (j + 1)) (hlast : ∀ j, j < N → c j * (t + 1) = c t * (j + 1) → j ≤ t), HardSoft.sumTo (HardSoft.softmax E tau (HardSoft.prefixArgmaxScore n c) N) N - HardSoft.softmax E tau (HardSoft.prefixArgmaxScore n c) N t ≤ E.exp (-(1 / (HardSoft.natCast n * HardSoft.natCast n * HardSoft.natCast n)) / tau)"
        ),
        "prefix-argmax's head A, c_j/(j+1) + j/n^3 over j < N ≤ n, tau > 0: softmax mass off the last maximiser t of the ratio ≤ exp(-(1/n^3)/tau), for every n and all counts",
    ),
    "HardSoft.prefix_argmax_head": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {n N t : Nat} {c : Nat → Nat} (hN : N ≤ n) (ht : t < N) (hmax : ∀ j, j < N → c j * (t + 1) ≤ c t * (j + 1)) (hlast : ∀ j, j < N → c j * (t + 1) = c t * (j + 1) → j ≤ t), HardSoft.sumTo (HardSoft.softmax E (1 / (2 * (HardSoft.natCast n * HardSoft.natCast n * HardSoft.natCast n))) (HardSoft.prefixArgmaxScore n c) N) N - HardSoft.softmax E (1 / (2 * (HardSoft.natCast n * HardSoft.natCast n * HardSoft.natCast n))) (HardSoft.prefixArgmaxScore n c) N t ≤ E.exp (-2)"
        ),
        "prefix-argmax's head A at the construction's tau = 1/(2n^3): softmax mass off the last maximiser t < N ≤ n of the ratio c_j/(j+1) ≤ exp(-2) < 1/4, for every n and all counts",
    ),
    "HardSoft.softmax_mass_off_top_le_of_deficits": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {s : Nat → α} {e : Nat → Nat} {A tau : α} {n N t : Nat} (hN : N ≤ n) (ht : t < N) (htau : 0 < tau) (hs : ∀ j, j < N → s j = A - HardSoft.natCast (e j) + HardSoft.natCast j / HardSoft.natCast n) (hmin : ∀ j, j < N → e t ≤ e j) (hlast : ∀ j, j < N → e j = e t → j ≤ t), (∀ j, j < N → j ≠ t → s j ≤ s t - 1 / HardSoft.natCast n) ∧ HardSoft.sumTo (HardSoft.softmax E tau s N) N - HardSoft.softmax E tau s N t ≤ E.exp (-(1 / HardSoft.natCast n) / tau)"
        ),
        "scores A - e_j + j/n over j < N ≤ n with natural deficits e_j, tau > 0: the rightmost key of least deficit is ≥ 1/n above every other key and softmax mass off it ≤ exp(-(1/n)/tau) (a ziggurat of step 1/n)",
    ),
    "HardSoft.dyck_partner_head": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {tau : α} {n i t : Nat} (op : Nat → Bool) (d : Nat → Nat) (htau : 0 < tau) (hin : i ≤ n) (ht : t < i) (hmin : ∀ j, j < i → HardSoft.dyckPartnerDeficit op d i t ≤ HardSoft.dyckPartnerDeficit op d i j) (hlast : ∀ j, j < i → HardSoft.dyckPartnerDeficit op d i j = HardSoft.dyckPartnerDeficit op d i t → j ≤ t), (∀ j, j < i → j ≠ t → HardSoft.dyckPartnerScore n op d i j ≤ (HardSoft.dyckPartnerScore n op d i t : α) - 1 / HardSoft.natCast n) ∧ HardSoft.sumTo (HardSoft.softmax E tau (HardSoft.dyckPartnerScore n op d i) i) i - HardSoft.softmax E tau (HardSoft.dyckPartnerScore n op d i) i t ≤ E.exp (-(1 / HardSoft.natCast n) / tau)"
        ),
        "Dyck's partner Aggregate, 2[open_j] - 2(depth_j - (depth_i - 1))^2 + j/n over j < i ≤ n, tau > 0: the rightmost key of least deficit 2(depth_j + 1 - depth_i)^2 + 2[not open_j] is ≥ 1/n above every other key and mass off it ≤ exp(-(1/n)/tau), for every n and all depths",
    ),
    "HardSoft.lookup_future_bounded": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {K tau : α} {n i : Nat} (hK : 0 ≤ K) (htau : 0 < tau) (hin : i + 1 < n), HardSoft.sumTo (HardSoft.softmax E tau (fun k => HardSoft.lookupScoreBounded K n (i + 1) (i + 1 + k)) (n - 1 - i)) (n - 1 - i) - HardSoft.softmax E tau (fun k => HardSoft.lookupScoreBounded K n (i + 1) (i + 1 + k)) (n - 1 - i) 0 ≤ E.exp (-(K / (HardSoft.natCast n * HardSoft.natCast n)) / tau)"
        ),
        "Lemma 7, bounded, future mask: t = i + 1 among the keys j = i+1+k (k < n-1-i), i + 1 < n, K ≥ 0, tau > 0: softmax mass off t ≤ exp(-(K/n^2)/tau), for every n",
    ),
    # ---- the head mass bounds (lean/HardSoft/HeadMass.lean)
    "HardSoft.softmax_output_err_le": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {s v : Nat → α} {tau : α} {N t : Nat} (ht : t < N) (hv : ∀ j, j < N → HardSoft.absv (v j - v t) ≤ 1), HardSoft.absv (HardSoft.sumTo (fun j => HardSoft.softmax E tau s N j * v j) N - v t) ≤ HardSoft.sumTo (HardSoft.softmax E tau s N) N - HardSoft.softmax E tau s N t"
        ),
        "a head's output error: softmax weights over the keys j < N, hard choice t < N, values with |v_j - v_t| ≤ 1 (e.g. in [0, 1]): |Σ_j p_j v_j - v_t| ≤ the softmax mass off t, for every N",
    ),
    "HardSoft.softmax_output_err_le_offMass": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {s v : Nat → α} {isMax : Nat → Bool} {c tau : α} {N : Nat} (hN : 0 < N) (hmax : ∀ j, j < N → isMax j = true → v j = c) (hv : ∀ j, j < N → isMax j = false → HardSoft.absv (v j - c) ≤ 1), HardSoft.absv (HardSoft.sumTo (fun j => HardSoft.softmax E tau s N j * v j) N - c) ≤ HardSoft.offMass isMax (HardSoft.softmax E tau s N) N"
        ),
        "a head's output error, average-hard: values c on the max set and within 1 of c off it, N ≥ 1: |Σ_j p_j v_j - c| ≤ the softmax mass off the max set",
    ),
    "HardSoft.sign_head_bounded": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {K c x : α} {m D n : Nat} (b : Bool) (hK : 0 ≤ K) (hc : 0 < c) (hD : 0 < D) (hDn : D ≤ n) (hn2 : 2 ≤ n) (hrule : E.exp (-(K / c)) ≤ x), HardSoft.offMass (HardSoft.signGroup b) (HardSoft.softmax E (c / HardSoft.natCast n) (HardSoft.signScore K ((if b then 1 else -1) * (HardSoft.natCast (2 * m + 1) / (2 * HardSoft.natCast D)))) n) n ≤ 2 * x"
        ),
        "comparison, bounded: the sign head's scores K o V p_j over the keys j < n, o V = ±(2m+1)/(2D), 1 ≤ D ≤ n, n ≥ 2, K ≥ 0, at tau = c/n with exp(-K/c) ≤ x: softmax mass off the selected parity group ≤ 2x, for every n (c = 1/ln(16 m): 1/(8 m))",
    ),
    "HardSoft.sign_head_unbounded": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {K tau : α} {m D n : Nat} (b : Bool) (hK : 0 ≤ K) (htau : 0 < tau) (hD : 0 < D) (hDn : D ≤ n) (hn2 : 2 ≤ n), HardSoft.offMass (HardSoft.signGroup b) (HardSoft.softmax E tau (HardSoft.signScoreUnbounded K ((if b then 1 else -1) * (HardSoft.natCast (2 * m + 1) / (2 * HardSoft.natCast D))) n) n) n ≤ 2 * E.exp (-K / tau)"
        ),
        "comparison, unbounded: scores K o V n p_j, o V = ±(2m+1)/(2D), 1 ≤ D ≤ n, n ≥ 2, K ≥ 0, tau > 0: softmax mass off the selected parity group ≤ 2 exp(-K/tau), for every n",
    ),
    "HardSoft.lookup_two_sided": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {K tau : α} {N t : Nat} (hK : 0 ≤ K) (htau : 0 < tau) (ht : t < N), (HardSoft.sumTo (HardSoft.softmax E tau (HardSoft.lookupScore K t) N) N - HardSoft.softmax E tau (HardSoft.lookupScore K t) N t) * (1 - E.exp (-K / tau)) ≤ 2 * E.exp (-K / tau) ∧ (E.exp (-K / tau) < 1 → HardSoft.sumTo (HardSoft.softmax E tau (HardSoft.lookupScore K t) N) N - HardSoft.softmax E tau (HardSoft.lookupScore K t) N t ≤ 2 * E.exp (-K / tau) / (1 - E.exp (-K / tau)))"
        ),
        "Lemma 7, both sides visible: s_j = K(2tj - j^2) over all keys j < N, t < N, K ≥ 0, tau > 0, x = exp(-K/tau): softmax mass off t times (1 - x) ≤ 2x, and ≤ 2x/(1-x) when x < 1, for every N",
    ),
    "HardSoft.lookup_two_sided_bounded": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {K c : α} {n N t : Nat} (hK : 0 ≤ K) (hc : 0 < c) (hn : 0 < n) (ht : t < N), (HardSoft.sumTo (HardSoft.softmax E (c / (HardSoft.natCast n * HardSoft.natCast n)) (HardSoft.lookupScoreBounded K n t) N) N - HardSoft.softmax E (c / (HardSoft.natCast n * HardSoft.natCast n)) (HardSoft.lookupScoreBounded K n t) N t) * (1 - E.exp (-(K / c))) ≤ 2 * E.exp (-(K / c)) ∧ (E.exp (-(K / c)) < 1 → HardSoft.sumTo (HardSoft.softmax E (c / (HardSoft.natCast n * HardSoft.natCast n)) (HardSoft.lookupScoreBounded K n t) N) N - HardSoft.softmax E (c / (HardSoft.natCast n * HardSoft.natCast n)) (HardSoft.lookupScoreBounded K n t) N t ≤ 2 * E.exp (-(K / c)) / (1 - E.exp (-(K / c))))"
        ),
        "Lemma 7, bounded, both sides visible: s_j = K(2(t/n)(j/n) - (j/n)^2) over all keys j < N at tau = c/n^2, x = exp(-K/c): softmax mass off t times (1 - x) ≤ 2x, and ≤ 2x/(1-x) when x < 1, for every n",
    ),
    "HardSoft.tiebreak_future_bounded_at_rule": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {c x : α} {n i : Nat} (sel : Nat → Bool) (hc : 0 < c) (hin : i + 1 < n) (hrule : E.exp (-(1 / c)) ≤ x), HardSoft.sumTo (HardSoft.softmax E (c / HardSoft.natCast n) (HardSoft.tiebreakFutureBounded 1 n sel i) (n - 1 - i)) (n - 1 - i) - HardSoft.softmax E (c / HardSoft.natCast n) (HardSoft.tiebreakFutureBounded 1 n sel i) (n - 1 - i) (HardSoft.tiebreakFutureTarget sel n i) ≤ x"
        ),
        "the bounded regime's temperature rule, future: K = 1, tau = c/n, exp(-1/c) ≤ x, i + 1 < n: the future tie-breaking head's softmax mass off its target ≤ x, for every n and selection",
    ),
    "HardSoft.tiebreak_past_unbounded_at_rule": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {K x : α} {n i : Nat} (sel : Nat → Bool) (hK : 0 < K) (hi : 0 < i) (hin : i ≤ n) (hrule : E.exp (-K) ≤ x), HardSoft.sumTo (HardSoft.softmax E 1 (HardSoft.tiebreakPastUnbounded K n sel) i) i - HardSoft.softmax E 1 (HardSoft.tiebreakPastUnbounded K n sel) i (HardSoft.tiebreakPastTarget sel i) ≤ x"
        ),
        "the unbounded regime's rule, past tie-breaking: tau = 1, K > 0 with exp(-K) ≤ x, 0 < i ≤ n: softmax mass off the target ≤ x, for every n and selection (K = ln(16 m): x = 1/(16 m))",
    ),
    "HardSoft.tiebreak_future_unbounded_at_rule": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {K x : α} {n i : Nat} (sel : Nat → Bool) (hK : 0 < K) (hin : i + 1 < n) (hrule : E.exp (-K) ≤ x), HardSoft.sumTo (HardSoft.softmax E 1 (HardSoft.tiebreakFutureUnbounded K n sel i) (n - 1 - i)) (n - 1 - i) - HardSoft.softmax E 1 (HardSoft.tiebreakFutureUnbounded K n sel i) (n - 1 - i) (HardSoft.tiebreakFutureTarget sel n i) ≤ x"
        ),
        "the unbounded regime's rule, future tie-breaking: tau = 1, K > 0 with exp(-K) ≤ x, i + 1 < n: softmax mass off the target ≤ x, for every n and selection",
    ),
    "HardSoft.lookup_past_at_rule": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {K x : α} {i : Nat} (hK : 0 ≤ K) (hi : 0 < i) (hrule : E.exp (-K) ≤ x), HardSoft.sumTo (HardSoft.softmax E 1 (HardSoft.lookupScore K (i - 1)) i) i - HardSoft.softmax E 1 (HardSoft.lookupScore K (i - 1)) i (i - 1) ≤ x"
        ),
        "the unbounded regime's rule, Lemma 7 past mask (Y): tau = 1, K ≥ 0 with exp(-K) ≤ x, i ≥ 1: softmax mass off t = i - 1 ≤ x, for every i",
    ),
    "HardSoft.lookup_future_at_rule": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {K x : α} {n i : Nat} (hK : 0 ≤ K) (hin : i + 1 < n) (hrule : E.exp (-K) ≤ x), HardSoft.sumTo (HardSoft.softmax E 1 (fun k => HardSoft.lookupScore K (i + 1) (i + 1 + k)) (n - 1 - i)) (n - 1 - i) - HardSoft.softmax E 1 (fun k => HardSoft.lookupScore K (i + 1) (i + 1 + k)) (n - 1 - i) 0 ≤ x"
        ),
        "the unbounded regime's rule, Lemma 7 future mask (X): tau = 1, K ≥ 0 with exp(-K) ≤ x, i + 1 < n: softmax mass off t = i + 1 ≤ x, for every n",
    ),
    "HardSoft.position_lookup_at_rule": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {L x : α} {S D M N : Nat} (hD : 0 < D) (hDM : D ≤ M) (hL : 0 < L) (hS : S < N) (hrule : E.exp (-L) ≤ x), (HardSoft.sumTo (HardSoft.softmax E (1 / (HardSoft.natCast M * L)) (HardSoft.positionLookupScore (HardSoft.natCast S / HardSoft.natCast D) D) N) N - HardSoft.softmax E (1 / (HardSoft.natCast M * L)) (HardSoft.positionLookupScore (HardSoft.natCast S / HardSoft.natCast D) D) N S) * (1 - x) ≤ 2 * x ∧ (x < 1 → HardSoft.sumTo (HardSoft.softmax E (1 / (HardSoft.natCast M * L)) (HardSoft.positionLookupScore (HardSoft.natCast S / HardSoft.natCast D) D) N) N - HardSoft.softmax E (1 / (HardSoft.natCast M * L)) (HardSoft.positionLookupScore (HardSoft.natCast S / HardSoft.natCast D) D) N S ≤ 2 * x / (1 - x))"
        ),
        "Lemma 7 over positions (position_lookup_spec: S-RASP's Psum lookup, the TL compiler's unbounded mixed comparisons): scores 2 f p - (1/D) p^2 at f = S/D over the keys p < N, S < N, 1 ≤ D ≤ M, at tau = 1/(M L) with L > 0, exp(-L) ≤ x: softmax mass off p = S times (1 - x) ≤ 2x, and ≤ 2x/(1-x) when x < 1, for every n (S-RASP: M = n, x = 1/(128 n^3); mixed: M = max(n-1, 1), x = 1/(32 C))",
    ),
    "HardSoft.position_lookup_bounded_at_rule": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {L x : α} {n S D M N : Nat} (hn : 0 < n) (hD : 0 < D) (hDM : D ≤ M) (hL : 0 < L) (hS : S < N) (hrule : E.exp (-L) ≤ x), (HardSoft.sumTo (HardSoft.softmax E (1 / (HardSoft.natCast n * HardSoft.natCast n * HardSoft.natCast M * L)) (HardSoft.positionLookupScoreBounded (HardSoft.natCast S / (HardSoft.natCast D * HardSoft.natCast n)) n D) N) N - HardSoft.softmax E (1 / (HardSoft.natCast n * HardSoft.natCast n * HardSoft.natCast M * L)) (HardSoft.positionLookupScoreBounded (HardSoft.natCast S / (HardSoft.natCast D * HardSoft.natCast n)) n D) N S) * (1 - x) ≤ 2 * x ∧ (x < 1 → HardSoft.sumTo (HardSoft.softmax E (1 / (HardSoft.natCast n * HardSoft.natCast n * HardSoft.natCast M * L)) (HardSoft.positionLookupScoreBounded (HardSoft.natCast S / (HardSoft.natCast D * HardSoft.natCast n)) n D) N) N - HardSoft.softmax E (1 / (HardSoft.natCast n * HardSoft.natCast n * HardSoft.natCast M * L)) (HardSoft.positionLookupScoreBounded (HardSoft.natCast S / (HardSoft.natCast D * HardSoft.natCast n)) n D) N S ≤ 2 * x / (1 - x))"
        ),
        "Lemma 7 over positions, bounded (the TL compiler's bounded mixed comparisons, key features p/n, (p/n)^2): scores 2 f (p/n) - (1/D)(p/n)^2 at f = S/(D n) over the keys p < N, S < N, 1 ≤ D ≤ M, at tau = 1/(n^2 M L), exp(-L) ≤ x: softmax mass off p = S times (1 - x) ≤ 2x, and ≤ 2x/(1-x) when x < 1, for every n",
    ),
    "HardSoft.position_lookup_copy_at_rule": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {L x : α} {S D M N : Nat} (hD : 0 < D) (hDM : D ≤ M) (hL : 0 < L) (hS : S < N) (hrule : E.exp (-L) ≤ x) (hx1 : x ≤ 1), HardSoft.absv (HardSoft.sumTo (fun p => HardSoft.softmax E (1 / (HardSoft.natCast M * L)) (HardSoft.positionLookupScore (HardSoft.natCast S / HardSoft.natCast D) D) N p * HardSoft.natCast p) N - HardSoft.natCast S) * ((1 - x) * (1 - x)) ≤ 2 * x ∧ (x < 1 → HardSoft.absv (HardSoft.sumTo (fun p => HardSoft.softmax E (1 / (HardSoft.natCast M * L)) (HardSoft.positionLookupScore (HardSoft.natCast S / HardSoft.natCast D) D) N p * HardSoft.natCast p) N - HardSoft.natCast S) ≤ 2 * x / ((1 - x) * (1 - x)))"
        ),
        "Lemma 7 over positions, copy error (position_lookup_spec's output Σ_p w_p p against the copied count S: S-RASP's Psum lookup, the TL compiler's unbounded mixed comparisons): at the hypotheses of position_lookup_at_rule and x ≤ 1, |Σ_p w_p p - S| (1-x)^2 ≤ 2x, and ≤ 2x/(1-x)^2 when x < 1, for every n",
    ),
    "HardSoft.position_lookup_copy_bounded_at_rule": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {L x : α} {n S D M N : Nat} (hn : 0 < n) (hD : 0 < D) (hDM : D ≤ M) (hL : 0 < L) (hS : S < N) (hrule : E.exp (-L) ≤ x) (hx1 : x ≤ 1), HardSoft.absv (HardSoft.sumTo (fun p => HardSoft.softmax E (1 / (HardSoft.natCast n * HardSoft.natCast n * HardSoft.natCast M * L)) (HardSoft.positionLookupScoreBounded (HardSoft.natCast S / (HardSoft.natCast D * HardSoft.natCast n)) n D) N p * HardSoft.natCast p) N - HardSoft.natCast S) * ((1 - x) * (1 - x)) ≤ 2 * x ∧ (x < 1 → HardSoft.absv (HardSoft.sumTo (fun p => HardSoft.softmax E (1 / (HardSoft.natCast n * HardSoft.natCast n * HardSoft.natCast M * L)) (HardSoft.positionLookupScoreBounded (HardSoft.natCast S / (HardSoft.natCast D * HardSoft.natCast n)) n D) N p * HardSoft.natCast p) N - HardSoft.natCast S) ≤ 2 * x / ((1 - x) * (1 - x)))"
        ),
        "Lemma 7 over positions, bounded, copy error (the TL compiler's bounded mixed comparisons): at the hypotheses of position_lookup_bounded_at_rule and x ≤ 1, |Σ_p w_p p - S| (1-x)^2 ≤ 2x, and ≤ 2x/(1-x)^2 when x < 1, for every n",
    ),
    "HardSoft.position_lookup_neg_at_rule": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {L x : α} {m D M N : Nat} (hD : 0 < D) (hDM : D ≤ M) (hL : 0 < L) (hN : 0 < N) (hrule : E.exp (-L) ≤ x), HardSoft.sumTo (HardSoft.softmax E (1 / (HardSoft.natCast M * L)) (HardSoft.positionLookupScore (-HardSoft.natCast m / HardSoft.natCast D) D) N) N - HardSoft.softmax E (1 / (HardSoft.natCast M * L)) (HardSoft.positionLookupScore (-HardSoft.natCast m / HardSoft.natCast D) D) N 0 ≤ x"
        ),
        "Lemma 7 over positions, negative prefix sum (S-RASP's Psum clamped at 0): scores 2 f p - (1/D) p^2 at f = -m/D over the keys p < N, 1 ≤ D ≤ M, at tau = 1/(M L), exp(-L) ≤ x: softmax mass off p = 0 ≤ x, for every n",
    ),
    "HardSoft.gated_position_gap": LeanStatement(
        over_field(
            "(g : Bool) {N p : Nat} (hp : p < N), (HardSoft.natCast (HardSoft.natDist p (HardSoft.gatedTarget g N)) : α) ≤ HardSoft.gatedScore g (HardSoft.gatedTarget g N) - HardSoft.gatedScore g p"
        ),
        "the gated position head (gated_position_spec: S-RASP's integer selects): scores (2g - 1) j over the keys j < N, every key p at least |p - t| below the target t = gatedTarget g N (N - 1 when g, else 0): a ziggurat of step 1, gap 1, for every N",
    ),
    "HardSoft.gated_slack_at_rule": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {tau x M : α} (g : Bool) {N : Nat} (hN : 0 < N) (htau : 0 < tau) (hx : E.exp (-1 / tau) ≤ x) (hx1 : x ≤ 1) (hM : 0 ≤ M), HardSoft.absv (M * (HardSoft.sumTo (fun p => HardSoft.softmax E tau (HardSoft.gatedScore g) N p * HardSoft.natCast p) N + (if g then 1 else 0)) - M * HardSoft.natCast N + M * HardSoft.natCast N * (if g then 0 else 1)) * ((1 - x) * (1 - x)) ≤ M * x ∧ ∀ d : α, M * x ≤ d * ((1 - x) * (1 - x)) → x < 1 → HardSoft.absv (M * (HardSoft.sumTo (fun p => HardSoft.softmax E tau (HardSoft.gatedScore g) N p * HardSoft.natCast p) N + (if g then 1 else 0)) - M * HardSoft.natCast N + M * HardSoft.natCast N * (if g then 0 else 1)) ≤ d"
        ),
        "the big-M product's slack at the temperature rule: s = M (P + b) - M N from the gated head's soft copy P over N keys is within M x/(1-x)^2 of the hard slack -M N (1 - b) (|s + M N (1 - b)| (1-x)^2 ≤ M x, M ≥ 0, exp(-1/tau) ≤ x ≤ 1), so within every d with M x ≤ d (1-x)^2 when x < 1: big_m_product's hs, for every gate and every N ≥ 1",
    ),
    "HardSoft.gated_position_copy": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {tau x : α} (g : Bool) {N : Nat} (hN : 0 < N) (htau : 0 < tau) (hx : E.exp (-1 / tau) ≤ x) (hx1 : x ≤ 1), HardSoft.absv (HardSoft.sumTo (fun p => HardSoft.softmax E tau (HardSoft.gatedScore g) N p * HardSoft.natCast p) N - HardSoft.natCast (HardSoft.gatedTarget g N)) * ((1 - x) * (1 - x)) ≤ x"
        ),
        "the gated position head, copy error (its output Σ_p w_p p against g (N - 1)): at tau > 0 with exp(-1/tau) ≤ x ≤ 1, |Σ_p w_p p - gatedTarget g N| (1-x)^2 ≤ x over the keys p < N (every key on one side: tight as x → 0), for every gate and every N ≥ 1",
    ),
    "HardSoft.rounded_ziggurat": LeanStatement(
        over_field(
            "{s r : Nat → α} {gamma u : α} {N : Nat} (hu : 0 ≤ u) (hz : ∀ k, 0 < k → k < N → HardSoft.natCast k * gamma ≤ s 0 - s k) (hr : ∀ k, k < N → HardSoft.absv (r k - s k) * 2 ≤ u), ∀ k, 0 < k → k < N → HardSoft.natCast k * (gamma - u) ≤ r 0 - r k"
        ),
        "PREC, rounded ziggurat: scores with s_0 - s_k ≥ k gamma (0 < k < N), each rounded to within half a spacing u ≥ 0 (|r_k - s_k| 2 ≤ u, k < N), give r_0 - r_k ≥ k (gamma - u): a ziggurat of step gamma - u, for every N",
    ),
    "HardSoft.rounded_mass_off_top_le": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {s r : Nat → α} {gamma u tau : α} {N : Nat} (hN : 0 < N) (htau : 0 < tau) (hu : 0 ≤ u) (hug : u ≤ gamma) (hz : ∀ k, 0 < k → k < N → HardSoft.natCast k * gamma ≤ s 0 - s k) (hr : ∀ k, k < N → HardSoft.absv (r k - s k) * 2 ≤ u), HardSoft.sumTo (HardSoft.softmax E tau r N) N - HardSoft.softmax E tau r N 0 ≤ E.exp (-(gamma - u) / tau)"
        ),
        "PREC, rounded mass bound (statement Z at the rounded step): N ≥ 1 scores with s_0 - s_k ≥ k gamma, each rounded to within u/2, 0 ≤ u ≤ gamma, tau > 0: the softmax mass off the top of the rounded scores ≤ exp(-(gamma - u)/tau), for every N",
    ),
    "HardSoft.rounded_mass_off_top_le_margin": LeanStatement(
        over_field(
            "(E : HardSoft.ExpLike α) {s r : Nat → α} {gamma u tau margin : α} {N : Nat} (hN : 0 < N) (htau : 0 < tau) (hu : 0 ≤ u) (hug : u ≤ gamma) (hz : ∀ k, 0 < k → k < N → HardSoft.natCast k * gamma ≤ s 0 - s k) (hr : ∀ k, k < N → HardSoft.absv (r k - s k) * 2 ≤ u) (hrule : E.exp (-(gamma - u) / tau) ≤ margin), HardSoft.sumTo (HardSoft.softmax E tau r N) N - HardSoft.softmax E tau r N 0 ≤ margin"
        ),
        "PREC at the audit's rule (predicted_safe: (gamma - u)/tau ≥ ln(1/margin), i.e. exp(-(gamma - u)/tau) ≤ margin): under rounded_mass_off_top_le's hypotheses, the softmax mass off the top of the rounded scores ≤ margin, for every N",
    ),
    "HardSoft.Cert.certified_of_check": LeanStatement(
        cert_names(
            over_field(
                "(C : HardSoft.Cert) (M : §ModelW) (h : §check C M = true) (R : §RatEmb α) (E : HardSoft.ExpLike α) (hE : HardSoft.ExpLike.Tangent E) (w : List Nat) (hsym : ∀ a, a ∈ w → a < HardSoft.Cert.nsym C) (i : Nat) (hi : i < w.length), §run R §Mode.hard M w w.length (§ModelW.layers M).length i (§crd C (HardSoft.Cert.root C)) = §ind (§holds (HardSoft.Cert.prog C) w w.length (HardSoft.Cert.root C) i) ∧ §run R (§Mode.soft E (§tauRule C R w.length)) M w w.length (§ModelW.layers M).length i (§crd C (HardSoft.Cert.root C)) = §ind (§holds (HardSoft.Cert.prog C) w w.length (HardSoft.Cert.root C) i)"
            )
        ),
        "CERT (Theorem 26 for one compiled program, every n): if the checker accepts a certificate C of a model M (rational weights), then for every word w over C's alphabet, of every length n = |w| ≥ 1, and every position i, the model's root coordinate after its last layer is exactly [the program's root holds at i], in hard mode (average-hard attention) and in soft mode at C's temperature rule (c/n bounded, 1 unbounded; with mixed comparisons c/max(n-1, 1) unbounded, c/(n^2 max(n-1, 1)) bounded), over any ordered field with an exponential meeting fact F1",
    ),
    "HardSoft.Cert.certified_hard_of_check": LeanStatement(
        cert_names(
            over_field(
                "(C : HardSoft.Cert) (M : §ModelW) (h : §check C M = true) (R : §RatEmb α) (w : List Nat) (hsym : ∀ a, a ∈ w → a < HardSoft.Cert.nsym C) (i : Nat) (hi : i < w.length), §run R §Mode.hard M w w.length (§ModelW.layers M).length i (§crd C (HardSoft.Cert.root C)) = §ind (§holds (HardSoft.Cert.prog C) w w.length (HardSoft.Cert.root C) i)"
            )
        ),
        "CERT, average-hard half (no exponential): if the checker accepts C for M, the hard model's root coordinate is exactly [the program's root holds at i] for every word over C's alphabet, every length and every position",
    ),
}


@dataclass(frozen=True)
class LeanDefinition:
    """What a definition or structure of the project that a pinned statement uses means: facts Lean confirms that determine it.

    equations   -- closed propositions (project constants fully qualified), each confirmed as
                   ``example : equation := by intros; exact rfl``: a definition's defining
                   equations (for a recursion on ``Nat``: the ``0`` and ``n + 1`` cases, which
                   determine it by induction), a structure's projections applied to the constructor
    constructor -- for a structure: the full type of ``<name>.mk``, confirmed as
                   ``example : constructor := @<name>.mk`` (exactly the pinned fields, in order:
                   an extra field, say ``vac : False``, changes it)
    says        -- what it is, in words
    recursor    -- for an inductive type: the full type of ``<name>.rec`` at a ``Prop`` motive,
                   confirmed as ``example : recursor := @<name>.rec`` (one premise per
                   constructor with its arguments: an added or changed constructor changes it)
    members     -- the names a pinned text may use inside this structure's or type's namespace
                   (``<name>.<member>``): its fields, its constructors, ``mk``; nothing else there
                   counts as pinned by it
    origin      -- ``file:line`` of this entry (filled in automatically; failures name it)
    """

    equations: tuple[str, ...]
    says: str
    constructor: str | None = None
    recursor: str | None = None
    members: tuple[str, ...] = ()
    origin: str = field(default_factory=_caller_origin, compare=False)


#: The definitions and structures the pinned statements use, with what determines each (keys = full Lean names).
LEAN_DEFINITIONS: dict[str, LeanDefinition] = {
    "HardSoft.natCast": LeanDefinition(
        (
            over_ring(", (HardSoft.natCast 0 : α) = 0"),
            over_ring("(n : Nat), (HardSoft.natCast (n + 1) : α) = HardSoft.natCast n + 1"),
        ),
        "the natural number n in α: 0 ↦ 0, n + 1 ↦ natCast n + 1",
    ),
    "HardSoft.bound": LeanDefinition(
        (
            over_ring("(r a : Nat → α), HardSoft.bound r a 0 = 0"),
            over_ring("(r a : Nat → α) (l : Nat), HardSoft.bound r a (l + 1) = r l * HardSoft.bound r a l + a l"),
        ),
        "the layer-error bound B_0 = 0, B_(l+1) = r_l B_l + a_l",
    ),
    "HardSoft.sumTo": LeanDefinition(
        (
            over_ring("(f : Nat → α), HardSoft.sumTo f 0 = 0"),
            over_ring("(f : Nat → α) (n : Nat), HardSoft.sumTo f (n + 1) = HardSoft.sumTo f n + f n"),
        ),
        "f 0 + ... + f (N - 1)",
    ),
    "HardSoft.countMax": LeanDefinition(
        (
            "∀ (isMax : Nat → Bool), HardSoft.countMax isMax 0 = 0",
            "∀ (isMax : Nat → Bool) (n : Nat), HardSoft.countMax isMax (n + 1) = HardSoft.countMax isMax n + (if isMax n then 1 else 0)",
        ),
        "the number of positions j < N with isMax j",
    ),
    "HardSoft.offMass": LeanDefinition(
        (
            over_ring("(isMax : Nat → Bool) (w : Nat → α), HardSoft.offMass isMax w 0 = 0"),
            over_ring(
                "(isMax : Nat → Bool) (w : Nat → α) (n : Nat), HardSoft.offMass isMax w (n + 1) = HardSoft.offMass isMax w n + (if isMax n then 0 else w n)"
            ),
        ),
        "the total weight w j over the positions j < N with isMax j = false",
    ),
    "HardSoft.absv": LeanDefinition(
        ("∀ {α : Type} [Lean.Grind.Field α] [LE α] (a : α), HardSoft.absv a = @ite α (0 ≤ a) (Classical.propDecidable (0 ≤ a)) a (-a)",),
        "the absolute value: a if 0 ≤ a, else -a",
    ),
    "HardSoft.ahardmax": LeanDefinition(
        (
            over_field(
                "(isMax : Nat → Bool) (N j : Nat), (HardSoft.ahardmax isMax N j : α) = if isMax j = true then 1 / HardSoft.natCast (HardSoft.countMax isMax N) else 0"
            ),
        ),
        "average-hard attention: 1/m on each of the m maximal positions, 0 elsewhere",
    ),
    "HardSoft.ExpLike": LeanDefinition(
        (
            "∀ {α : Type} [Lean.Grind.Field α] [LE α] [LT α] (exp : α → α) (pos : ∀ t, 0 < exp t) (add : ∀ s t, exp (s + t) = exp s * exp t) (zero : exp 0 = 1) (mono : ∀ s t, s ≤ t → exp s ≤ exp t), HardSoft.ExpLike.exp (HardSoft.ExpLike.mk exp pos add zero mono) = exp",
        ),
        "an abstract exponential: exp t > 0, exp (s + t) = exp s exp t, exp 0 = 1, monotone",
        constructor="∀ {α : Type} [Lean.Grind.Field α] [LE α] [LT α] (exp : α → α) (pos : ∀ t, 0 < exp t) (add : ∀ s t, exp (s + t) = exp s * exp t) (zero : exp 0 = 1) (mono : ∀ s t, s ≤ t → exp s ≤ exp t), HardSoft.ExpLike α",
        members=("exp", "pos", "add", "zero", "mono", "mk"),
    ),
    "HardSoft.ExpLike.LogMean": LeanDefinition(
        (
            "∀ {α : Type} [Lean.Grind.Field α] [LE α] [LT α] (E : HardSoft.ExpLike α), HardSoft.ExpLike.LogMean E = ∀ d : α, 0 ≤ d → 2 * (E.exp d - 1) ≤ d * (E.exp d + 1)",
        ),
        "fact F5 (log-mean inequality): 2 (exp d - 1) ≤ d (exp d + 1) for every d ≥ 0",
    ),
    "HardSoft.ExpLike.Tangent": LeanDefinition(
        ("∀ {α : Type} [Lean.Grind.Field α] [LE α] [LT α] (E : HardSoft.ExpLike α), HardSoft.ExpLike.Tangent E = ∀ x : α, 1 + x ≤ E.exp x",),
        "fact F1 (tangent at 0): 1 + x ≤ exp x for every x",
    ),
    "HardSoft.ExpLike.IsLog": LeanDefinition(
        (
            "∀ {α : Type} [Lean.Grind.Field α] [LE α] [LT α] (E : HardSoft.ExpLike α) (log : α → α), HardSoft.ExpLike.IsLog E log = ∀ x : α, 0 < x → E.exp (log x) = x",
        ),
        "log inverts exp on the positive numbers: exp (log x) = x for x > 0",
    ),
    "HardSoft.mixRows": LeanDefinition(
        (over_ring("(w : Nat → α) (x : Nat → Nat → α) (N k : Nat), HardSoft.mixRows w x N k = HardSoft.sumTo (fun j => w j * x j k) N"),),
        "coordinate k of the attention average Σ_(j<N) w_j x_j",
    ),
    "HardSoft.vecMat": LeanDefinition(
        (over_ring("(u : Nat → α) (M : Nat → Nat → α) (d l : Nat), HardSoft.vecMat u M d l = HardSoft.sumTo (fun k => u k * M k l) d"),),
        "coordinate l of the row vector u (dimension d) times the matrix M",
    ),
    "HardSoft.attnResidual": LeanDefinition(
        (
            over_ring(
                "(xq : Nat → α) (x w : Nat → Nat → α) (V : Nat → Nat → Nat → α) (N d H l : Nat), HardSoft.attnResidual xq x w V N d H l = xq l + HardSoft.sumTo (fun h => HardSoft.vecMat (fun k => HardSoft.mixRows (w h) x N k) (V h) d l) H"
            ),
        ),
        "coordinate l of the attention sublayer's output: the query's residual plus Σ_h (Σ_j w_(h,j) x_j) V_h",
    ),
    "HardSoft.ffnResidual": LeanDefinition(
        (
            "∀ {α : Type} [Lean.Grind.Field α] [LE α] (y : Nat → α) (W1 : Nat → Nat → α) (b1 : Nat → α) (W2 : Nat → Nat → α) (b2 : Nat → α) (d m l : Nat), HardSoft.ffnResidual y W1 b1 W2 b2 d m l = y l + HardSoft.vecMat (fun c => HardSoft.relu (HardSoft.vecMat y W1 d c + b1 c)) W2 m l + b2 l",
        ),
        "coordinate l of the feed-forward sublayer's output: y_l + Σ_c ReLU(Σ_k y_k W1_(k,c) + b1_c) W2_(c,l) + b2_l",
    ),
    "HardSoft.bilinScore": LeanDefinition(
        (
            over_ring(
                "(u : Nat → α) (M : Nat → Nat → α) (v : Nat → α) (d : Nat), HardSoft.bilinScore u M v d = HardSoft.sumTo (fun l => HardSoft.vecMat u M d l * v l) d"
            ),
        ),
        "the bilinear score u^T M v = Σ_(l<d) (Σ_(k<d) u_k M_(k,l)) v_l",
    ),
    "HardSoft.absSum": LeanDefinition(
        (
            "∀ {α : Type} [Lean.Grind.Field α] [LE α] (M : Nat → Nat → α) (d : Nat), HardSoft.absSum M d = HardSoft.sumTo (fun l => HardSoft.sumTo (fun k => HardSoft.absv (M k l)) d) d",
        ),
        "the norm |M|_sum = Σ_(l<d) Σ_(k<d) |M_(k,l)| of a d × d matrix",
    ),
    "HardSoft.softmax": LeanDefinition(
        (
            over_field(
                "(E : HardSoft.ExpLike α) (tau : α) (s : Nat → α) (N j : Nat), HardSoft.softmax E tau s N j = E.exp (s j / tau) / HardSoft.sumTo (fun k => E.exp (s k / tau)) N"
            ),
        ),
        "softmax at temperature tau over the positions k < N: exp(s_j/tau) / Σ_k exp(s_k/tau)",
    ),
    "HardSoft.expOne": LeanDefinition(
        ("∀ (t : Rat), HardSoft.ExpLike.exp HardSoft.expOne t = 1",),
        "the constant 1 as an ExpLike over Rat (the non-vacuity examples' exponential)",
    ),
    "HardSoft.tiebreakPastBounded": LeanDefinition(
        (
            over_field(
                "(K : α) (n : Nat) (sel : Nat → Bool) (j : Nat), HardSoft.tiebreakPastBounded K n sel j = K * ((if sel j then 1 else 0) + HardSoft.natCast j / HardSoft.natCast n)"
            ),
        ),
        "Lemma 8, bounded, past: the score of key j, K (select_j + j/n)",
    ),
    "HardSoft.tiebreakFutureBounded": LeanDefinition(
        (
            over_field(
                "(K : α) (n : Nat) (sel : Nat → Bool) (i k : Nat), HardSoft.tiebreakFutureBounded K n sel i k = K * ((if sel (i + 1 + k) then 1 else 0) - HardSoft.natCast (i + 1 + k) / HardSoft.natCast n)"
            ),
        ),
        "Lemma 8, bounded, future: the score of key j = i+1+k, K (select_j - j/n)",
    ),
    "HardSoft.tiebreakPastUnbounded": LeanDefinition(
        (
            over_field(
                "(K : α) (n : Nat) (sel : Nat → Bool) (j : Nat), HardSoft.tiebreakPastUnbounded K n sel j = K * (HardSoft.natCast n * (if sel j then 1 else 0) + HardSoft.natCast j)"
            ),
        ),
        "Lemma 8, unbounded, past: the score of key j, K (n select_j + j)",
    ),
    "HardSoft.tiebreakFutureUnbounded": LeanDefinition(
        (
            over_field(
                "(K : α) (n : Nat) (sel : Nat → Bool) (i k : Nat), HardSoft.tiebreakFutureUnbounded K n sel i k = K * (HardSoft.natCast n * (if sel (i + 1 + k) then 1 else 0) - HardSoft.natCast (i + 1 + k))"
            ),
        ),
        "Lemma 8, unbounded, future: the score of key j = i+1+k, K (n select_j - j)",
    ),
    "HardSoft.lastSel": LeanDefinition(
        (
            "∀ (sel : Nat → Bool), HardSoft.lastSel sel 0 = none",
            "∀ (sel : Nat → Bool) (N : Nat), HardSoft.lastSel sel (N + 1) = if sel N then some N else HardSoft.lastSel sel N",
        ),
        "the rightmost j < N with sel j (none if there is none)",
    ),
    "HardSoft.firstSel": LeanDefinition(
        (
            "∀ (sel : Nat → Bool), HardSoft.firstSel sel 0 = none",
            "∀ (sel : Nat → Bool) (N : Nat), HardSoft.firstSel sel (N + 1) = (match HardSoft.firstSel sel N with | some k => some k | none => if sel N then some N else none)",
        ),
        "the leftmost k < N with sel k (none if there is none)",
    ),
    "HardSoft.tiebreakPastTarget": LeanDefinition(
        ("∀ (sel : Nat → Bool) (i : Nat), HardSoft.tiebreakPastTarget sel i = (HardSoft.lastSel sel i).getD (i - 1)",),
        "Lemma 8, past: the intended key at query i, the rightmost selected j < i, else i - 1",
    ),
    "HardSoft.tiebreakFutureTarget": LeanDefinition(
        (
            "∀ (sel : Nat → Bool) (n i : Nat), HardSoft.tiebreakFutureTarget sel n i = (HardSoft.firstSel (fun k => sel (i + 1 + k)) (n - 1 - i)).getD 0",
        ),
        "Lemma 8, future: the intended key at query i as k = j - (i+1), the leftmost selected key, else k = 0",
    ),
    "HardSoft.lookupScore": LeanDefinition(
        (
            over_ring(
                "(K : α) (t j : Nat), HardSoft.lookupScore K t j = K * (2 * HardSoft.natCast t * HardSoft.natCast j - HardSoft.natCast j * HardSoft.natCast j)"
            ),
        ),
        "Lemma 7, unbounded: the score of key j for the target t, K (2tj - j^2)",
    ),
    "HardSoft.lookupScoreBounded": LeanDefinition(
        (
            over_ring(
                "(K : α) (n t j : Nat), HardSoft.lookupScoreBounded K n t j = K * (2 * (HardSoft.natCast t / HardSoft.natCast n) * (HardSoft.natCast j / HardSoft.natCast n) - HardSoft.natCast j / HardSoft.natCast n * (HardSoft.natCast j / HardSoft.natCast n))"
            ),
        ),
        "Lemma 7, bounded: the score of key j for the target t, K (2 (t/n)(j/n) - (j/n)^2)",
    ),
    "HardSoft.positionLookupScore": LeanDefinition(
        (
            over_ring(
                "(f : α) (D p : Nat), HardSoft.positionLookupScore f D p = 2 * f * HardSoft.natCast p - 1 / HardSoft.natCast D * (HardSoft.natCast p * HardSoft.natCast p)"
            ),
        ),
        "Lemma 7 over positions (position_lookup_spec): the score of key p at a query with average f and inverse 1/D, 2 f p - (1/D) p^2",
    ),
    "HardSoft.positionLookupScoreBounded": LeanDefinition(
        (
            over_ring(
                "(f : α) (n D p : Nat), HardSoft.positionLookupScoreBounded f n D p = 2 * f * (HardSoft.natCast p / HardSoft.natCast n) - 1 / HardSoft.natCast D * (HardSoft.natCast p / HardSoft.natCast n * (HardSoft.natCast p / HardSoft.natCast n))"
            ),
        ),
        "Lemma 7 over positions, scaled keys p/n, (p/n)^2: the score of key p, 2 f (p/n) - (1/D)(p/n)^2",
    ),
    "HardSoft.relu": LeanDefinition(
        ("∀ {α : Type} [Lean.Grind.Field α] [LE α] (x : α), HardSoft.relu x = @ite α (x ≤ 0) (Classical.propDecidable (x ≤ 0)) 0 x",),
        "ReLU(x) = max(x, 0): 0 if x ≤ 0, else x",
    ),
    "HardSoft.leafExcess": LeanDefinition(
        (
            "∀ (σ : Nat → Bool) (x : Nat → Rat) (m : Nat), HardSoft.leafExcess σ x m = HardSoft.sumTo (fun k => if σ k then x k else -x k) m - HardSoft.sumTo (fun k => if σ k then 1 else 0) m",
        ),
        "L_sigma(x) - |sigma| over the m leaves: Σ_{sigma_k = 1} x_k - Σ_{sigma_k = 0} x_k minus the number of ones of sigma",
    ),
    "HardSoft.clampUnit": LeanDefinition(
        (
            "∀ (σ : Nat → Bool) (x : Nat → Rat) (m : Nat), HardSoft.clampUnit σ x m = HardSoft.relu (2 * (HardSoft.leafExcess σ x m + 3 / 4)) - HardSoft.relu (2 * (HardSoft.leafExcess σ x m + 1 / 4))",
        ),
        "the read-out clamp unit pair of sigma: ReLU(2(L_sigma - |sigma| + 3/4)) - ReLU(2(L_sigma - |sigma| + 1/4))",
    ),
    "HardSoft.flipFlopScore": LeanDefinition(
        (
            over_ring(
                "(n : Nat) (write : Nat → Bool) (j : Nat), (HardSoft.flipFlopScore n write j : α) = (if write j then 1 else 0) + HardSoft.natCast j / HardSoft.natCast n"
            ),
        ),
        "flip-flop: the score of key j, [write_j] + j/n",
    ),
    "HardSoft.inductionPrevScore": LeanDefinition(
        (over_ring("(n : Nat) (j : Nat), (HardSoft.inductionPrevScore n j : α) = HardSoft.natCast j / HardSoft.natCast n"),),
        "induction head P: the score of key j, j/n",
    ),
    "HardSoft.inductionHopSel": LeanDefinition(
        ("∀ (w : Nat → Nat) (i j : Nat), HardSoft.inductionHopSel w i j = (decide (0 < j) && (w (j - 1) == w i))",),
        "induction head M_l: key j matches query i when the token before it is w_i (key 0 never matches)",
    ),
    "HardSoft.inductionHopScore": LeanDefinition(
        (
            over_ring(
                "(n : Nat) (w : Nat → Nat) (i j : Nat), (HardSoft.inductionHopScore n w i j : α) = (if HardSoft.inductionHopSel w i j then 1 else 0) + HardSoft.natCast j / HardSoft.natCast n"
            ),
        ),
        "induction head M_l: the score of key j, [j ≥ 1 ∧ w_{j-1} = w_i] + j/n",
    ),
    "HardSoft.prefixArgmaxScore": LeanDefinition(
        (
            over_ring(
                "(n : Nat) (c : Nat → Nat) (j : Nat), (HardSoft.prefixArgmaxScore n c j : α) = HardSoft.natCast (c j) / HardSoft.natCast (j + 1) + HardSoft.natCast j / (HardSoft.natCast n * HardSoft.natCast n * HardSoft.natCast n)"
            ),
        ),
        "prefix-argmax head A: the score of key j, c_j/(j+1) + j/n^3",
    ),
    "HardSoft.natDist": LeanDefinition(
        ("∀ (a b : Nat), HardSoft.natDist a b = if a ≤ b then b - a else a - b",),
        "the distance |b - a| of two naturals",
    ),
    "HardSoft.dyckPartnerScore": LeanDefinition(
        (
            over_ring(
                "(n : Nat) (op : Nat → Bool) (d : Nat → Nat) (i j : Nat), (HardSoft.dyckPartnerScore n op d i j : α) = 2 * (if op j then 1 else 0) - 2 * ((HardSoft.natCast (d j) - (HardSoft.natCast (d i) - 1)) * (HardSoft.natCast (d j) - (HardSoft.natCast (d i) - 1))) + HardSoft.natCast j / HardSoft.natCast n"
            ),
        ),
        "Dyck's partner Aggregate: the score of key j, 2[open_j] - 2(depth_j - (depth_i - 1))^2 + j/n",
    ),
    "HardSoft.dyckPartnerDeficit": LeanDefinition(
        (
            "∀ (op : Nat → Bool) (d : Nat → Nat) (i j : Nat), HardSoft.dyckPartnerDeficit op d i j = 2 * (HardSoft.natDist (d i) (d j + 1) * HardSoft.natDist (d i) (d j + 1)) + (if op j then 0 else 2)",
        ),
        "Dyck's partner: key j's deficit below the best score 2, 2(depth_j + 1 - depth_i)^2 + 2[not open_j]",
    ),
    "HardSoft.parity": LeanDefinition(
        (over_ring("(j : Nat), (HardSoft.parity j : α) = if j % 2 = 0 then 1 else -1"),),
        "comparison: the parity p_j = (-1)^j of key j",
    ),
    "HardSoft.signScore": LeanDefinition(
        (over_ring("(K u : α) (j : Nat), HardSoft.signScore K u j = K * u * HardSoft.parity j"),),
        "comparison, bounded: the sign head's score of key j, K u p_j with u = o V",
    ),
    "HardSoft.signScoreUnbounded": LeanDefinition(
        (over_ring("(K u : α) (n j : Nat), HardSoft.signScoreUnbounded K u n j = K * u * HardSoft.natCast n * HardSoft.parity j"),),
        "comparison, unbounded: the sign head's score of key j, K u n p_j with u = o V",
    ),
    "HardSoft.gatedScore": LeanDefinition(
        (over_ring("(g : Bool) (j : Nat), (HardSoft.gatedScore g j : α) = if g then HardSoft.natCast j else -HardSoft.natCast j"),),
        "the gated position head: the score of key j under the gate g, (2g - 1) j",
    ),
    "HardSoft.gatedTarget": LeanDefinition(
        ("∀ (g : Bool) (N : Nat), HardSoft.gatedTarget g N = if g then N - 1 else 0",),
        "the gated position head's hard choice among the keys j < N: N - 1 when g, else 0",
    ),
    "HardSoft.signGroup": LeanDefinition(
        ("∀ (b : Bool) (j : Nat), HardSoft.signGroup b j = ((j % 2 == 0) == b)",),
        "comparison: the key group the sign head selects, the even keys for b = true (o V > 0), else the odd keys",
    ),
    # Certificates: what certified_of_check's statement reads (lean/HardSoft/Cert/{Logic,Basic,Model,Sem,Check}.lean)
    "HardSoft.Cert.Node": LeanDefinition(
        (),
        "a node of a temporal-logic formula DAG (docs/temporal-logic.md): atom a, const b, not, and, or, first, last, Y, X, since, until (children by index), mod(m, r), pos as p i + q n + r > 0, a comparison of counts as sum_k c_k #_k + r > 0",
        recursor=cert_names(
            "∀ {motive : §Node → Prop}, (∀ (a : Nat), motive (§Node.atom a)) → (∀ (b : Bool), motive (§Node.const b)) → (∀ (x : Nat), motive (§Node.not x)) → (∀ (x y : Nat), motive (§Node.and x y)) → (∀ (x y : Nat), motive (§Node.or x y)) → motive §Node.first → motive §Node.last → (∀ (x : Nat), motive (§Node.prev x)) → (∀ (x : Nat), motive (§Node.next x)) → (∀ (x y : Nat), motive (§Node.since x y)) → (∀ (x y : Nat), motive (§Node.until x y)) → (∀ (m r : Nat), motive (§Node.modEq m r)) → (∀ (p q r : Int), motive (§Node.lin p q r)) → (∀ (terms : List (Int × §CountDir × Nat)) (r : Int), motive (§Node.cmp terms r)) → ∀ (t : §Node), motive t"
        ),
        members=("atom", "const", "not", "and", "or", "first", "last", "prev", "next", "since", "until", "modEq", "lin", "cmp"),
    ),
    "HardSoft.Cert.CountDir": LeanDefinition(
        (),
        "the direction of a count: #< (positions j < i), #<= (j <= i), #> (j > i)",
        recursor=cert_names(
            "∀ {motive : §CountDir → Prop}, motive §CountDir.lt → motive §CountDir.le → motive §CountDir.gt → ∀ (t : §CountDir), motive t"
        ),
        members=("lt", "le", "gt"),
    ),
    "HardSoft.Cert.countIn": LeanDefinition(
        (
            cert_names(
                "∀ (p : Nat → Prop) (n i : Nat), §countIn p n i §CountDir.lt = HardSoft.countMax (fun j => @decide (p j) (Classical.propDecidable (p j))) i"
            ),
            cert_names(
                "∀ (p : Nat → Prop) (n i : Nat), §countIn p n i §CountDir.le = HardSoft.countMax (fun j => @decide (p j) (Classical.propDecidable (p j))) (i + 1)"
            ),
            cert_names(
                "∀ (p : Nat → Prop) (n i : Nat), §countIn p n i §CountDir.gt = HardSoft.countMax (fun j => @decide (p (i + 1 + j)) (Classical.propDecidable (p (i + 1 + j)))) (n - 1 - i)"
            ),
        ),
        "a count at position i of a word of length n: the positions j < i (#<), j <= i (#<=) or i < j < n (#>) where p holds",
    ),
    "HardSoft.Cert.cmpSum": LeanDefinition(
        (
            cert_names("∀ (cnt : Nat → §CountDir → Nat), §cmpSum cnt [] = 0"),
            cert_names(
                "∀ (cnt : Nat → §CountDir → Nat) (t : Int × §CountDir × Nat) (ts : List (Int × §CountDir × Nat)), §cmpSum cnt (t :: ts) = t.1 * (cnt t.2.2 t.2.1 : Int) + §cmpSum cnt ts"
            ),
        ),
        "a comparison's sum over its terms (c_k, direction_k, x_k): sum_k c_k times the count of node x_k in direction_k",
    ),
    "HardSoft.Cert.Prog": LeanDefinition((cert_names("§Prog = List §Node"),), "a formula DAG: node g is the g-th of the list"),
    "HardSoft.Cert.nodeAt": LeanDefinition(
        (cert_names("∀ (P : §Prog) (g : Nat), §nodeAt P g = List.getD P g (§Node.const false)"),), "node g of P (false past its end)"
    ),
    "HardSoft.Cert.holdsF": LeanDefinition(
        (
            cert_names("∀ (P : §Prog) (w : List Nat) (n g i : Nat), §holdsF P w n 0 g i = False"),
            cert_names(
                "∀ (P : §Prog) (w : List Nat) (n f g i : Nat), §holdsF P w n (f + 1) g i = match §nodeAt P g with | §Node.atom a => w.getD i 0 = a | §Node.const b => b = true | §Node.not x => x < g ∧ ¬ §holdsF P w n f x i | §Node.and x y => x < g ∧ y < g ∧ §holdsF P w n f x i ∧ §holdsF P w n f y i | §Node.or x y => x < g ∧ y < g ∧ (§holdsF P w n f x i ∨ §holdsF P w n f y i) | §Node.first => i = 0 | §Node.last => i + 1 = n | §Node.prev x => x < g ∧ 0 < i ∧ §holdsF P w n f x (i - 1) | §Node.next x => x < g ∧ i + 1 < n ∧ §holdsF P w n f x (i + 1) | §Node.since x y => x < g ∧ y < g ∧ ∃ j, j < i ∧ §holdsF P w n f y j ∧ ∀ k, j < k → k < i → §holdsF P w n f x k | §Node.until x y => x < g ∧ y < g ∧ ∃ j, i < j ∧ j < n ∧ §holdsF P w n f y j ∧ ∀ k, i < k → k < j → §holdsF P w n f x k | §Node.modEq m r => i % m = r | §Node.lin p q r => 0 < p * (i : Int) + q * (n : Int) + r | §Node.cmp ts r => (∀ t, t ∈ ts → t.2.2 < g) ∧ 0 < §cmpSum (fun x d => §countIn (fun j => §holdsF P w n f x j) n i d) ts + r"
            ),
        ),
        "the temporal logic's semantics with a recursion budget: node g at position i of w (length n); a child must come before its parent; since and until are strict; a comparison of counts is sum_k c_k #_k + r > 0",
    ),
    "HardSoft.Cert.holds": LeanDefinition(
        (cert_names("∀ (P : §Prog) (w : List Nat) (n g i : Nat), §holds P w n g i = §holdsF P w n (g + 1) g i"),),
        "node g of P holds at position i of the word w of length n (budget g + 1: children have smaller indices)",
    ),
    "HardSoft.Cert.ind": LeanDefinition(
        (cert_names(over_field("(p : Prop), (§ind p : α) = @ite α p (Classical.propDecidable p) 1 0")),), "[p]: 1 if p holds, else 0"
    ),
    "HardSoft.Cert.crd": LeanDefinition(
        (cert_names("∀ (C : HardSoft.Cert) (g : Nat), §crd C g = List.getD (HardSoft.Cert.coord C) g 0"),),
        "the coordinate the certificate gives node g",
    ),
    "HardSoft.Cert.tauRule": LeanDefinition(
        (
            cert_names(
                f"∀ {BASE} (C : HardSoft.Cert) (R : §RatEmb α) (n : Nat), §tauRule C R n = if HardSoft.Cert.mixed C = true then (if HardSoft.Cert.bounded C = true then §RatEmb.cast R (HardSoft.Cert.c C) / HardSoft.natCast (n * n * max (n - 1) 1) else §RatEmb.cast R (HardSoft.Cert.c C) / HardSoft.natCast (max (n - 1) 1)) else if HardSoft.Cert.bounded C = true then §RatEmb.cast R (HardSoft.Cert.c C) / HardSoft.natCast n else 1"
            ),
        ),
        "the temperature rule: tau(n) = c / (n^2 max(n-1, 1)) with mixed comparisons in the bounded regime, c / max(n-1, 1) with mixed comparisons in the unbounded one, else c/n in the bounded regime, 1 in the unbounded one",
    ),
    "HardSoft.Cert": structure_pin(
        "HardSoft.Cert",
        "",
        (
            ("prog", "HardSoft.Cert.Prog"),
            ("nsym", "Nat"),
            ("spans", "List (List HardSoft.Cert.Span)"),
            ("coord", "List Nat"),
            ("equiv", "List (Nat × Nat × List Nat)"),
            ("root", "Nat"),
            ("bounded", "Bool"),
            ("mixed", "Bool"),
            ("c", "Rat"),
            ("K", "Rat"),
            ("expK", "Nat"),
            ("layers", "List HardSoft.Cert.LayerD"),
        ),
        "a certificate: the program (formula DAG), alphabet size, what each coordinate holds span by span, each node's coordinate, shared nodes, the root, the regime, the mixed comparisons' rule, c, K, the exponent of the mass bound, each layer's heads and unit groups",
    ),
    "HardSoft.Cert.RatEmb": structure_pin(
        "HardSoft.Cert.RatEmb",
        BASE,
        (
            ("cast", "Rat → α"),
            ("map_add", "∀ a b, cast (a + b) = cast a + cast b"),
            ("map_mul", "∀ a b, cast (a * b) = cast a * cast b"),
            ("map_one", "cast 1 = 1"),
            ("map_le", "∀ a b, a ≤ b → cast a ≤ cast b"),
        ),
        "an order-preserving ring embedding of the rationals into α (how the rational weights act in α)",
    ),
    "HardSoft.Cert.SVec": LeanDefinition(
        (cert_names("§SVec = List (Nat × Rat)"),), "a sparse rational vector: (coordinate, weight) entries, repeats adding up"
    ),
    "HardSoft.Cert.Acts": LeanDefinition((cert_names("∀ (α : Type), §Acts α = (Nat → Nat → α)"),), "activations: position, coordinate -> value"),
    "HardSoft.Cert.svGet": LeanDefinition(
        (
            cert_names("∀ (k : Nat), §svGet [] k = 0"),
            cert_names("∀ (e : Nat × Rat) (t : §SVec) (k : Nat), §svGet (e :: t) k = (if e.1 = k then e.2 else 0) + §svGet t k"),
        ),
        "the entry of a sparse vector at k (the weights listed for k, summed)",
    ),
    "HardSoft.Cert.lsum": LeanDefinition(
        (
            cert_names(over_ring("{β : Type} (f : β → α), §lsum [] f = 0")),
            cert_names(over_ring("{β : Type} (e : β) (t : List β) (f : β → α), §lsum (e :: t) f = f e + §lsum t f")),
        ),
        "the sum of f over a list",
    ),
    "HardSoft.Cert.dotv": LeanDefinition(
        (cert_names(f"∀ {BASE} (R : §RatEmb α) (x : Nat → α) (v : §SVec), §dotv R x v = §lsum v (fun e => x e.1 * §RatEmb.cast R e.2)"),),
        "the dot product of x with a sparse rational vector",
    ),
    "HardSoft.Cert.Feat": LeanDefinition(
        (),
        "a position feature of the position embedding (the compiler's names: one, is_first, is_last, i/n, parity, 1/max(i,1), 1/max(n-1-i,1), i, i^2, n, n*parity, (i/n)^2, 1/n, i mod m = r, p i + q n + r > 0)",
        recursor=cert_names(
            "∀ {motive : §Feat → Prop}, motive §Feat.one → motive §Feat.isFirst → motive §Feat.isLast → motive §Feat.iOverN → motive §Feat.parity → motive §Feat.invMaxI → motive §Feat.invMaxRest → motive §Feat.idx → motive §Feat.idxSq → motive §Feat.len → motive §Feat.lenParity → motive §Feat.iOverNSq → motive §Feat.invN → (∀ (m r : Nat), motive (§Feat.modEq m r)) → (∀ (p q r : Int), motive (§Feat.lin p q r)) → ∀ (t : §Feat), motive t"
        ),
        members=(
            "one",
            "isFirst",
            "isLast",
            "iOverN",
            "parity",
            "invMaxI",
            "invMaxRest",
            "idx",
            "idxSq",
            "len",
            "lenParity",
            "iOverNSq",
            "invN",
            "modEq",
            "lin",
        ),
    ),
    "HardSoft.Cert.Feat.val": LeanDefinition(
        tuple(
            cert_names(over_field(f"{binders}(n i : Nat), (§Feat.val {ctor} n i : α) = {rhs}"))
            for ctor, binders, rhs in (
                ("§Feat.one", "", "1"),
                ("§Feat.isFirst", "", "if i = 0 then 1 else 0"),
                ("§Feat.isLast", "", "if i + 1 = n then 1 else 0"),
                ("§Feat.iOverN", "", "HardSoft.natCast i / HardSoft.natCast n"),
                ("§Feat.parity", "", "if i % 2 = 0 then 1 else -1"),
                ("§Feat.invMaxI", "", "1 / HardSoft.natCast (max i 1)"),
                ("§Feat.invMaxRest", "", "1 / HardSoft.natCast (max (n - 1 - i) 1)"),
                ("§Feat.idx", "", "HardSoft.natCast i"),
                ("§Feat.idxSq", "", "HardSoft.natCast i * HardSoft.natCast i"),
                ("§Feat.len", "", "HardSoft.natCast n"),
                ("§Feat.lenParity", "", "HardSoft.natCast n * (if i % 2 = 0 then 1 else -1)"),
                ("§Feat.iOverNSq", "", "(HardSoft.natCast i / HardSoft.natCast n) * (HardSoft.natCast i / HardSoft.natCast n)"),
                ("§Feat.invN", "", "1 / HardSoft.natCast n"),
                ("(§Feat.modEq m r)", "(m r : Nat) ", "if i % m = r then 1 else 0"),
                ("(§Feat.lin p q r)", "(p q r : Int) ", "if 0 < p * (i : Int) + q * (n : Int) + r then 1 else 0"),
            )
        ),
        "a position feature's value at position i of a word of length n",
    ),
    "HardSoft.Cert.Mask": LeanDefinition(
        (),
        "an attention mask: none, causal (j ≤ i), strict (j < i), anticausal (j ≥ i), strictAnti (j > i)",
        recursor=cert_names(
            "∀ {motive : §Mask → Prop}, motive §Mask.none → motive §Mask.causal → motive §Mask.strict → motive §Mask.anticausal → motive §Mask.strictAnti → ∀ (t : §Mask), motive t"
        ),
        members=("none", "causal", "strict", "anticausal", "strictAnti"),
    ),
    "HardSoft.Cert.Mask.count": LeanDefinition(
        tuple(
            cert_names(f"∀ (n i : Nat), §Mask.count §Mask.{m} n i = {rhs}")
            for m, rhs in (("none", "n"), ("causal", "i + 1"), ("strict", "i"), ("anticausal", "n - i"), ("strictAnti", "n - 1 - i"))
        ),
        "how many keys position i sees under a mask (length n)",
    ),
    "HardSoft.Cert.Mask.key": LeanDefinition(
        tuple(
            cert_names(f"∀ (i k : Nat), §Mask.key §Mask.{m} i k = {rhs}")
            for m, rhs in (("none", "k"), ("causal", "k"), ("strict", "k"), ("anticausal", "i + k"), ("strictAnti", "i + 1 + k"))
        ),
        "the position of the k-th key position i sees under a mask",
    ),
    "HardSoft.Cert.HeadW": structure_pin(
        "HardSoft.Cert.HeadW",
        "",
        (
            ("q", "List HardSoft.Cert.SVec"),
            ("k", "List HardSoft.Cert.SVec"),
            ("v", "List HardSoft.Cert.SVec"),
            ("o", "List HardSoft.Cert.SVec"),
            ("mask", "HardSoft.Cert.Mask"),
        ),
        "an attention head's weights: the columns of W_Q, W_K, W_V, the rows of W_O, the mask",
    ),
    "HardSoft.Cert.UnitW": structure_pin(
        "HardSoft.Cert.UnitW",
        "",
        (("win", "HardSoft.Cert.SVec"), ("bias", "Rat"), ("wout", "HardSoft.Cert.SVec")),
        "an FFN hidden unit: its column of W_1, entry of b_1, row of W_2",
    ),
    "HardSoft.Cert.LayerW": structure_pin(
        "HardSoft.Cert.LayerW",
        "",
        (("heads", "List HardSoft.Cert.HeadW"), ("units", "List HardSoft.Cert.UnitW"), ("b2", "HardSoft.Cert.SVec")),
        "a layer's weights: its heads, its FFN units, b_2",
    ),
    "HardSoft.Cert.LayerW.empty": LeanDefinition(
        (cert_names("§LayerW.empty = §LayerW.mk [] [] []"),), "the layer with no heads and no units (past the last layer)"
    ),
    "HardSoft.Cert.ModelW": structure_pin(
        "HardSoft.Cert.ModelW",
        "",
        (
            ("d", "Nat"),
            ("we", "List HardSoft.Cert.SVec"),
            ("pe", "List (HardSoft.Cert.Feat × HardSoft.Cert.SVec)"),
            ("layers", "List HardSoft.Cert.LayerW"),
        ),
        "a model's weights: the width d, the symbol embedding rows, the position embedding rows with their features, the layers",
    ),
    "HardSoft.Cert.Mode": LeanDefinition(
        (),
        "how attention weighs the keys: hard (average-hard) or soft with an exponential and a temperature",
        recursor=cert_names(
            f"∀ {BASE} {{motive : §Mode α → Prop}}, motive §Mode.hard → (∀ (E : HardSoft.ExpLike α) (tau : α), motive (§Mode.soft E tau)) → ∀ (t : §Mode α), motive t"
        ),
        members=("hard", "soft"),
    ),
    "HardSoft.Cert.hardMax": LeanDefinition(
        (
            cert_names(over_field("(s : Nat → α), §hardMax s 0 = 0")),
            cert_names(over_field("(s : Nat → α), §hardMax s 1 = s 0")),
            cert_names(
                over_field(
                    "(s : Nat → α) (N : Nat), §hardMax s (N + 2) = @ite α (§hardMax s (N + 1) ≤ s (N + 1)) (Classical.propDecidable _) (s (N + 1)) (§hardMax s (N + 1))"
                )
            ),
        ),
        "the largest of s 0 .. s (N-1)",
    ),
    "HardSoft.Cert.ahard": LeanDefinition(
        (
            cert_names(
                over_field(
                    "(s : Nat → α) (N k : Nat), §ahard s N k = @ite α (s k = §hardMax s N) (Classical.propDecidable _) (1 / HardSoft.natCast (HardSoft.countMax (fun j => @decide (s j = §hardMax s N) (Classical.propDecidable _)) N)) 0"
                )
            ),
        ),
        "average-hard attention (the project's tie rule): weight 1/#max on each maximal score, 0 elsewhere",
    ),
    "HardSoft.Cert.weights": LeanDefinition(
        (
            cert_names(over_field("(s : Nat → α) (N k : Nat), §weights §Mode.hard s N k = §ahard s N k")),
            cert_names(
                over_field(
                    "(E : HardSoft.ExpLike α) (tau : α) (s : Nat → α) (N k : Nat), §weights (§Mode.soft E tau) s N k = HardSoft.softmax E tau s N k"
                )
            ),
        ),
        "the attention weights of a mode: average-hard, or softmax at temperature tau",
    ),
    "HardSoft.Cert.embed": LeanDefinition(
        (
            cert_names(
                over_field(
                    "(R : §RatEmb α) (M : §ModelW) (w : List Nat) (n : Nat), §embed R M w n = fun i c => §RatEmb.cast R (§svGet ((§ModelW.we M).getD (w.getD i 0) []) c) + §lsum (§ModelW.pe M) (fun fe => §Feat.val fe.1 n i * §RatEmb.cast R (§svGet fe.2 c))"
                )
            ),
        ),
        "the embedding: the symbol's row of WE plus each position feature times its row",
    ),
    "HardSoft.Cert.score": LeanDefinition(
        (
            cert_names(
                over_field(
                    "(R : §RatEmb α) (h : §HeadW) (x : §Acts α) (i k : Nat), §score R h x i k = §lsum ((§HeadW.q h).zip (§HeadW.k h)) (fun qk => §dotv R (x i) qk.1 * §dotv R (x (§Mask.key (§HeadW.mask h) i k)) qk.2)"
                )
            ),
        ),
        "a head's score of its k-th visible key at query i: (x_i W_Q)·(x_j W_K)",
    ),
    "HardSoft.Cert.headOut": LeanDefinition(
        (
            cert_names(
                over_field(
                    "(R : §RatEmb α) (mode : §Mode α) (h : §HeadW) (x : §Acts α) (n i c : Nat), §headOut R mode h x n i c = §lsum ((§HeadW.v h).zip (§HeadW.o h)) (fun vo => HardSoft.sumTo (fun k => §weights mode (§score R h x i) (§Mask.count (§HeadW.mask h) n i) k * §dotv R (x (§Mask.key (§HeadW.mask h) i k)) vo.1) (§Mask.count (§HeadW.mask h) n i) * §RatEmb.cast R (§svGet vo.2 c))"
                )
            ),
        ),
        "a head's output at query i, coordinate c: the weighted values through W_O",
    ),
    "HardSoft.Cert.attnStep": LeanDefinition(
        (
            cert_names(
                over_field(
                    "(R : §RatEmb α) (mode : §Mode α) (L : §LayerW) (x : §Acts α) (n : Nat), §attnStep R mode L x n = fun i c => x i c + §lsum (§LayerW.heads L) (fun h => §headOut R mode h x n i c)"
                )
            ),
        ),
        "a layer's attention sublayer with its residual connection",
    ),
    "HardSoft.Cert.ffnStep": LeanDefinition(
        (
            cert_names(
                over_field(
                    "(R : §RatEmb α) (L : §LayerW) (y : §Acts α), §ffnStep R L y = fun i c => y i c + §lsum (§LayerW.units L) (fun u => HardSoft.relu (§dotv R (y i) (§UnitW.win u) + §RatEmb.cast R (§UnitW.bias u)) * §RatEmb.cast R (§svGet (§UnitW.wout u) c)) + §RatEmb.cast R (§svGet (§LayerW.b2 L) c)"
                )
            ),
        ),
        "a layer's ReLU FFN sublayer with its residual connection",
    ),
    "HardSoft.Cert.run": LeanDefinition(
        (
            cert_names(over_field("(R : §RatEmb α) (mode : §Mode α) (M : §ModelW) (w : List Nat) (n : Nat), §run R mode M w n 0 = §embed R M w n")),
            cert_names(
                over_field(
                    "(R : §RatEmb α) (mode : §Mode α) (M : §ModelW) (w : List Nat) (n l : Nat), §run R mode M w n (l + 1) = §ffnStep R ((§ModelW.layers M).getD l §LayerW.empty) (§attnStep R mode ((§ModelW.layers M).getD l §LayerW.empty) (§run R mode M w n l) n)"
                )
            ),
        ),
        "the transformer: the embedding, then per layer attention and FFN (the residual stream after l layers)",
    ),
}


@dataclass(frozen=True)
class LeanExample:
    """A non-vacuity theorem of ``lean/HardSoft/Examples.lean``: the main theorem it applies at ``Rat`` and its pinned statement.

    of        -- the claimed theorem whose hypotheses it shows satisfiable together (its proof applies
                 that theorem to concrete values and proves every hypothesis)
    statement -- its full statement (project constants fully qualified), confirmed as
                 ``example : statement := @name``
    origin    -- ``file:line`` of this entry (filled in automatically; failures name it)
    """

    of: str
    statement: str
    origin: str = field(default_factory=_caller_origin, compare=False)


#: The non-vacuity theorems (keys = full Lean names); every claimed theorem has one, except those in NO_EXAMPLE.
LEAN_EXAMPLES: dict[str, LeanExample] = {
    "HardSoft.nonvacuous_bound_monotone": LeanExample(
        "HardSoft.bound_monotone",
        "0 ≤ HardSoft.bound (fun _ => (2 : Rat)) (fun _ => 1 / 8) 1 ∧ HardSoft.bound (fun _ => (2 : Rat)) (fun _ => 1 / 8) 1 ≤ HardSoft.bound (fun _ => (2 : Rat)) (fun _ => 1 / 8) 2",
    ),
    "HardSoft.nonvacuous_err_le_bound_of_bound_le_one": LeanExample(
        "HardSoft.err_le_bound_of_bound_le_one",
        "∀ l, l ≤ 2 → HardSoft.bound (fun _ => (2 : Rat)) (fun _ => 1 / 8) l ≤ HardSoft.bound (fun _ => (2 : Rat)) (fun _ => 1 / 8) l ∧ HardSoft.bound (fun _ => (2 : Rat)) (fun _ => 1 / 8) l ≤ 1",
    ),
    "HardSoft.nonvacuous_err_le_eps_of_bound_le": LeanExample(
        "HardSoft.err_le_eps_of_bound_le",
        "HardSoft.bound (fun _ => (2 : Rat)) (fun _ => 1 / 8) 2 ≤ 1 / 2",
    ),
    "HardSoft.nonvacuous_forall_err_le_bound_iff": LeanExample(
        "HardSoft.forall_err_le_bound_iff",
        "(∀ e : Nat → Rat, e 0 = 0 → (∀ l, l < 2 → e l ≤ 1 → e (l + 1) ≤ (fun _ => (2 : Rat)) l * e l + (fun _ => 1 / 8) l) → (∀ l, l ≤ 2 → 0 ≤ e l) → e 2 ≤ HardSoft.bound (fun _ => (2 : Rat)) (fun _ => 1 / 8) 2) ↔ ∀ l, l < 2 → HardSoft.bound (fun _ => (2 : Rat)) (fun _ => 1 / 8) l ≤ 1",
    ),
    "HardSoft.nonvacuous_exists_err_gt_of_one_lt_bound": LeanExample(
        "HardSoft.exists_err_gt_of_one_lt_bound",
        "∃ e : Nat → Rat, e 0 = 0 ∧ (∀ k, k < 2 → e k ≤ 1 → e (k + 1) ≤ (fun _ => (1 : Rat)) k * e k + (fun _ => 2) k) ∧ (∀ k, k ≤ 2 → 0 ≤ e k) ∧ 100 < e 2",
    ),
    "HardSoft.nonvacuous_composition_err_le_eps_rat": LeanExample(
        "HardSoft.composition_err_le_eps_rat",
        "HardSoft.bound (fun _ => (2 : Rat)) (fun _ => 1 / 8) 2 ≤ 1 / 2",
    ),
    "HardSoft.nonvacuous_bound_const_le_of_mul_pow_le": LeanExample(
        "HardSoft.bound_const_le_of_mul_pow_le",
        "HardSoft.bound (fun _ => (2 : Rat)) (fun _ => 1 / 8) 2 ≤ 1 / 2",
    ),
    "HardSoft.nonvacuous_composition_err_le_eps_of_mul_pow_le": LeanExample(
        "HardSoft.composition_err_le_eps_of_mul_pow_le",
        "HardSoft.bound (fun _ => (2 : Rat)) (fun _ => 1 / 8) 2 ≤ 1 / 2",
    ),
    "HardSoft.nonvacuous_score_err_le_iff": LeanExample(
        "HardSoft.score_err_le_iff",
        "(1 : Rat) * (2 * 1 * 2 + 2 * 2) ≤ 1 * (2 * 1 + 1) * 2 ↔ (2 : Rat) ≤ 1",
    ),
    "HardSoft.nonvacuous_score_err_le": LeanExample(
        "HardSoft.score_err_le",
        "(1 : Rat) * (2 * 1 * (1 / 2) + 1 / 2 * (1 / 2)) ≤ 1 * (2 * 1 + 1) * (1 / 2)",
    ),
    "HardSoft.nonvacuous_not_score_err_le_of_one_lt": LeanExample(
        "HardSoft.not_score_err_le_of_one_lt",
        "¬ (1 : Rat) * (2 * 1 * 2 + 2 * 2) ≤ 1 * (2 * 1 + 1) * 2",
    ),
    "HardSoft.nonvacuous_layer_err_le": LeanExample(
        "HardSoft.layer_err_le",
        "(1 / 2 + (1 / 2 + 1) : Rat) ≤ (1 + 0) * (1 + HardSoft.sumTo (fun h => (fun _ => (1 : Rat)) h * (1 + 1 * (2 * 1 + 1) * (fun _ => (1 : Rat)) h / 1)) 1) * (1 / 2) + 2 * (1 + 0) * 1 * HardSoft.natCast (2 - 1) * HardSoft.ExpLike.exp HardSoft.expOne (-1 / 1) * HardSoft.sumTo (fun _ => (1 : Rat)) 1",
    ),
    "HardSoft.nonvacuous_layer_err_le_concrete": LeanExample(
        "HardSoft.layer_err_le_concrete",
        "∀ l, l < 1 → HardSoft.absv (HardSoft.ffnResidual (HardSoft.attnResidual (fun _ => (3 / 2 : Rat)) (fun j _ => (if j = 0 then 1 else 0) + 1 / 2) (fun h => HardSoft.softmax HardSoft.expOne 1 (fun j => HardSoft.bilinScore (fun _ => (3 / 2 : Rat)) ((fun _ _ _ => (1 : Rat)) h) ((fun j _ => (if j = 0 then (1 : Rat) else 0) + 1 / 2) j) 1) 2) (fun _ _ _ => 1) 2 1 1) (fun _ _ => 1) (fun _ => 0) (fun _ _ => 1) (fun _ => 0) 1 1 l - HardSoft.ffnResidual (HardSoft.attnResidual (fun _ => (1 : Rat)) (fun j _ => if j = 0 then 1 else 0) (fun h => HardSoft.ahardmax ((fun _ j => j == 0) h) 2) (fun _ _ _ => 1) 2 1 1) (fun _ _ => 1) (fun _ => 0) (fun _ _ => 1) (fun _ => 0) 1 1 l) ≤ (1 + 1 * 1) * (1 + HardSoft.sumTo (fun h => (fun _ => (1 : Rat)) h * (1 + 1 * (2 * 1 + 1) * (fun _ => (1 : Rat)) h / 1)) 1) * (1 / 2) + 2 * (1 + 1 * 1) * 1 * HardSoft.natCast (2 - 1) * HardSoft.ExpLike.exp HardSoft.expOne (-1 / 1) * HardSoft.sumTo (fun _ => (1 : Rat)) 1",
    ),
    "HardSoft.nonvacuous_err_le_eps_of_layers": LeanExample(
        "HardSoft.err_le_eps_of_layers",
        "(fun l => if l = 0 then (0 : Rat) else 1 / 4) 1 ≤ 1 / 2 ∧ ∀ l, l ≤ 1 → (fun l => if l = 0 then (0 : Rat) else 1 / 4) l ≤ 1",
    ),
    "HardSoft.nonvacuous_sumTo_absv_sub_le_of_ratio": LeanExample(
        "HardSoft.sumTo_absv_sub_le_of_ratio",
        "(2 + 1) * HardSoft.sumTo (fun j => HardSoft.absv ((fun _ => (1 / 2 : Rat)) j - (fun j => if j = 0 then (2 / 3 : Rat) else 1 / 3) j)) 2 ≤ 2 * (2 - 1)",
    ),
    "HardSoft.nonvacuous_softmax_lipschitz": LeanExample(
        "HardSoft.softmax_lipschitz",
        "HardSoft.sumTo (fun j => HardSoft.absv (HardSoft.softmax HardSoft.expOne 1 (fun j => if j = 0 then (1 : Rat) else 0) 2 j - HardSoft.softmax HardSoft.expOne 1 (fun _ => (0 : Rat)) 2 j)) 2 ≤ 1 / 1",
    ),
    "HardSoft.nonvacuous_activation_growth": LeanExample(
        "HardSoft.activation_growth",
        "(∀ l, l < 1 → HardSoft.absv (HardSoft.attnResidual (fun _ => (1 : Rat)) (fun _ _ => 1) (fun _ _ => 1) (fun _ _ _ => 1) 1 1 1 l) ≤ (1 + HardSoft.sumTo (fun _ => (1 : Rat)) 1) * 1) ∧ (∀ l, l < 1 → HardSoft.absv (HardSoft.ffnResidual (HardSoft.attnResidual (fun _ => (1 : Rat)) (fun _ _ => 1) (fun _ _ => 1) (fun _ _ _ => 1) 1 1 1) (fun _ _ => 1) (fun _ => 0) (fun _ _ => 1) (fun _ => 0) 1 1 l) ≤ (1 + 1 * 1) * ((1 + HardSoft.sumTo (fun _ => (1 : Rat)) 1) * 1) + 0 * 1 + 0)",
    ),
    "HardSoft.nonvacuous_activation_growth_layers": LeanExample(
        "HardSoft.activation_growth_layers",
        "(fun l => if l = 0 then (1 : Rat) else if l = 1 then 3 else 7) 2 ≤ 2 ^ 2 * (fun l => if l = 0 then (1 : Rat) else if l = 1 then 3 else 7) 0 + HardSoft.bound (fun _ => (2 : Rat)) (fun _ => 1) 2",
    ),
    "HardSoft.nonvacuous_corrected_offset_le_eps": LeanExample(
        "HardSoft.corrected_offset_le_eps",
        "(1 : Rat) * 1 * HardSoft.natCast 1 * HardSoft.ExpLike.exp HardSoft.expOne (-1 / 1) ≤ 1",
    ),
    "HardSoft.nonvacuous_printed_offset_not_le": LeanExample(
        "HardSoft.printed_offset_not_le",
        "(1 : Rat) * 1 * HardSoft.natCast 1 ≤ 1 * 1 * HardSoft.natCast 1 * HardSoft.ExpLike.exp HardSoft.expOne (1 / 1) ∧ (∀ tau', 0 < tau' → tau' ≤ 1 → (1 : Rat) * 1 * HardSoft.natCast 1 * HardSoft.ExpLike.exp HardSoft.expOne (1 / 1) ≤ 1 * 1 * HardSoft.natCast 1 * HardSoft.ExpLike.exp HardSoft.expOne (1 / tau')) ∧ ((1 / 2 : Rat) < 1 * 1 * HardSoft.natCast 1 → ¬ (1 : Rat) * 1 * HardSoft.natCast 1 * HardSoft.ExpLike.exp HardSoft.expOne (1 / 1) ≤ 1 / 2)",
    ),
    "HardSoft.nonvacuous_eps_upper_bound_not_certified": LeanExample(
        "HardSoft.eps_upper_bound_not_certified",
        "∃ eps : Rat, 0 < eps ∧ eps ≤ 1 ∧ ¬ HardSoft.bound (fun _ => (1 : Rat)) (fun _ => 1 * HardSoft.natCast 1 * HardSoft.ExpLike.exp HardSoft.expOne (-1 / 1)) 1 ≤ eps",
    ),
    "HardSoft.nonvacuous_unguarded_err_unbounded": LeanExample(
        "HardSoft.unguarded_err_unbounded",
        "HardSoft.bound (fun _ => (1 : Rat)) (fun _ => 2) 2 = 2 * HardSoft.natCast 2 ∧ ∃ e : Nat → Rat, e 0 = 0 ∧ (∀ k, k < 2 → e k ≤ 1 → e (k + 1) ≤ (fun _ => (1 : Rat)) k * e k + (fun _ => (2 : Rat)) k) ∧ (∀ k, k ≤ 2 → 0 ≤ e k) ∧ 100 < e 2",
    ),
    "HardSoft.nonvacuous_softmax_mass_off_max_le": LeanExample(
        "HardSoft.softmax_mass_off_max_le",
        "HardSoft.offMass (fun j => j == 0) (fun j => if j = 0 then (1 : Rat) else 1 / 10) 2 / HardSoft.sumTo (fun j => if j = 0 then (1 : Rat) else 1 / 10) 2 ≤ HardSoft.natCast (2 - HardSoft.countMax (fun j => j == 0) 2) * (1 / 10) / (HardSoft.natCast (HardSoft.countMax (fun j => j == 0) 2) + HardSoft.natCast (2 - HardSoft.countMax (fun j => j == 0) 2) * (1 / 10)) ∧ HardSoft.offMass (fun j => j == 0) (fun j => if j = 0 then (1 : Rat) else 1 / 10) 2 / HardSoft.sumTo (fun j => if j = 0 then (1 : Rat) else 1 / 10) 2 ≤ HardSoft.natCast (2 - 1) * (1 / 10)",
    ),
    "HardSoft.nonvacuous_sumTo_absv_sub_ahardmax_eq": LeanExample(
        "HardSoft.sumTo_absv_sub_ahardmax_eq",
        "HardSoft.sumTo (fun j => HardSoft.absv ((fun j => if j = 0 then (3 / 4 : Rat) else 1 / 4) j - HardSoft.ahardmax (fun j => j == 0) 2 j)) 2 = 2 * HardSoft.offMass (fun j => j == 0) (fun j => if j = 0 then (3 / 4 : Rat) else 1 / 4) 2",
    ),
    "HardSoft.nonvacuous_sumTo_absv_sub_ahardmax_le": LeanExample(
        "HardSoft.sumTo_absv_sub_ahardmax_le",
        "HardSoft.sumTo (fun j => HardSoft.absv ((fun j => if j = 0 then (3 / 4 : Rat) else 1 / 4) j - HardSoft.ahardmax (fun j => j == 0) 2 j)) 2 ≤ 2 * HardSoft.natCast (2 - 1) * (1 / 4)",
    ),
    "HardSoft.nonvacuous_softmax_mass_off_max_le_rat": LeanExample(
        "HardSoft.softmax_mass_off_max_le_rat",
        "HardSoft.offMass (fun j => j == 0) (fun j => if j = 0 then (1 : Rat) else 1 / 10) 2 / HardSoft.sumTo (fun j => if j = 0 then (1 : Rat) else 1 / 10) 2 ≤ HardSoft.natCast (2 - 1) * (1 / 10)",
    ),
    "HardSoft.nonvacuous_softmax_offMass_le_of_gap": LeanExample(
        "HardSoft.softmax_offMass_le_of_gap",
        "HardSoft.offMass (fun j => j == 0) (HardSoft.softmax HardSoft.expOne 1 (fun j => if j = 0 then (1 : Rat) else 0) 2) 2 ≤ HardSoft.natCast (2 - 1) * HardSoft.ExpLike.exp HardSoft.expOne (-1 / 1)",
    ),
    "HardSoft.nonvacuous_sumTo_absv_softmax_sub_ahardmax_le": LeanExample(
        "HardSoft.sumTo_absv_softmax_sub_ahardmax_le",
        "HardSoft.sumTo (fun j => HardSoft.absv (HardSoft.softmax HardSoft.expOne 1 (fun j => if j = 0 then (1 : Rat) else 0) 2 j - HardSoft.ahardmax (fun j => j == 0) 2 j)) 2 ≤ 2 * HardSoft.natCast (2 - 1) * HardSoft.ExpLike.exp HardSoft.expOne (-1 / 1)",
    ),
    "HardSoft.nonvacuous_ziggurat_mass_off_top_le": LeanExample(
        "HardSoft.ziggurat_mass_off_top_le",
        "(HardSoft.sumTo (fun k => if k = 0 then (1 : Rat) else 1 / 2) 2 - (fun k => if k = 0 then (1 : Rat) else 1 / 2) 0) / HardSoft.sumTo (fun k => if k = 0 then (1 : Rat) else 1 / 2) 2 ≤ 1 / 2",
    ),
    "HardSoft.nonvacuous_sumTo_sub_top_div_sumTo_le_geom": LeanExample(
        "HardSoft.sumTo_sub_top_div_sumTo_le_geom",
        "(HardSoft.sumTo (fun k => if k = 0 then (1 : Rat) else 1 / 2) 2 - (fun k => if k = 0 then (1 : Rat) else 1 / 2) 0) / HardSoft.sumTo (fun k => if k = 0 then (1 : Rat) else 1 / 2) 2 ≤ (1 / 2 - (1 / 2) ^ 2) / (1 - (1 / 2) ^ 2)",
    ),
    "HardSoft.nonvacuous_ziggurat_mass_off_top_le_rat": LeanExample(
        "HardSoft.ziggurat_mass_off_top_le_rat",
        "(HardSoft.sumTo (fun k => if k = 0 then (1 : Rat) else 1 / 2) 2 - (fun k => if k = 0 then (1 : Rat) else 1 / 2) 0) / HardSoft.sumTo (fun k => if k = 0 then (1 : Rat) else 1 / 2) 2 ≤ 1 / 2",
    ),
    "HardSoft.nonvacuous_softmax_mass_off_top_le_of_ziggurat": LeanExample(
        "HardSoft.softmax_mass_off_top_le_of_ziggurat",
        "HardSoft.sumTo (HardSoft.softmax HardSoft.expOne 1 (fun j => if j = 0 then (1 : Rat) else 0) 2) 2 - HardSoft.softmax HardSoft.expOne 1 (fun j => if j = 0 then (1 : Rat) else 0) 2 0 ≤ HardSoft.ExpLike.exp HardSoft.expOne (-1 / 1)",
    ),
    "HardSoft.nonvacuous_softmax_mass_off_top_le_of_distinct": LeanExample(
        "HardSoft.softmax_mass_off_top_le_of_distinct",
        "HardSoft.sumTo (HardSoft.softmax HardSoft.expOne 1 (fun j => -(HardSoft.natCast j : Rat)) 3) 3 - HardSoft.softmax HardSoft.expOne 1 (fun j => -(HardSoft.natCast j : Rat)) 3 0 ≤ HardSoft.ExpLike.exp HardSoft.expOne (-1 / 1)",
    ),
    "HardSoft.nonvacuous_softmax_mass_off_top_le_of_keys": LeanExample(
        "HardSoft.softmax_mass_off_top_le_of_keys",
        "(∀ k, k < 3 → k ≠ 2 → (HardSoft.natCast k : Rat) ≤ HardSoft.natCast 2 - 1) ∧ HardSoft.sumTo (HardSoft.softmax HardSoft.expOne 1 (fun k => (HardSoft.natCast k : Rat)) 3) 3 - HardSoft.softmax HardSoft.expOne 1 (fun k => (HardSoft.natCast k : Rat)) 3 2 ≤ HardSoft.ExpLike.exp HardSoft.expOne (-1 / 1)",
    ),
    "HardSoft.nonvacuous_tiebreak_past_bounded": LeanExample(
        "HardSoft.tiebreak_past_bounded",
        "(∀ j, j < 2 → j ≠ HardSoft.tiebreakPastTarget (fun j => j == 0) 2 → HardSoft.tiebreakPastBounded (1 : Rat) 3 (fun j => j == 0) j ≤ HardSoft.tiebreakPastBounded (1 : Rat) 3 (fun j => j == 0) (HardSoft.tiebreakPastTarget (fun j => j == 0) 2) - 1 / HardSoft.natCast 3) ∧ HardSoft.sumTo (HardSoft.softmax HardSoft.expOne 1 (HardSoft.tiebreakPastBounded (1 : Rat) 3 (fun j => j == 0)) 2) 2 - HardSoft.softmax HardSoft.expOne 1 (HardSoft.tiebreakPastBounded (1 : Rat) 3 (fun j => j == 0)) 2 (HardSoft.tiebreakPastTarget (fun j => j == 0) 2) ≤ HardSoft.ExpLike.exp HardSoft.expOne (-(1 / HardSoft.natCast 3) / 1)",
    ),
    "HardSoft.nonvacuous_tiebreak_future_bounded": LeanExample(
        "HardSoft.tiebreak_future_bounded",
        "(∀ k, k < 3 - 1 - 0 → k ≠ HardSoft.tiebreakFutureTarget (fun j => j == 2) 3 0 → HardSoft.tiebreakFutureBounded (1 : Rat) 3 (fun j => j == 2) 0 k ≤ HardSoft.tiebreakFutureBounded (1 : Rat) 3 (fun j => j == 2) 0 (HardSoft.tiebreakFutureTarget (fun j => j == 2) 3 0) - 1 / HardSoft.natCast 3) ∧ HardSoft.sumTo (HardSoft.softmax HardSoft.expOne 1 (HardSoft.tiebreakFutureBounded (1 : Rat) 3 (fun j => j == 2) 0) (3 - 1 - 0)) (3 - 1 - 0) - HardSoft.softmax HardSoft.expOne 1 (HardSoft.tiebreakFutureBounded (1 : Rat) 3 (fun j => j == 2) 0) (3 - 1 - 0) (HardSoft.tiebreakFutureTarget (fun j => j == 2) 3 0) ≤ HardSoft.ExpLike.exp HardSoft.expOne (-(1 / HardSoft.natCast 3) / 1)",
    ),
    "HardSoft.nonvacuous_tiebreak_past_unbounded": LeanExample(
        "HardSoft.tiebreak_past_unbounded",
        "(∀ j, j < 2 → j ≠ HardSoft.tiebreakPastTarget (fun j => j == 0) 2 → HardSoft.tiebreakPastUnbounded (1 : Rat) 3 (fun j => j == 0) j ≤ HardSoft.tiebreakPastUnbounded (1 : Rat) 3 (fun j => j == 0) (HardSoft.tiebreakPastTarget (fun j => j == 0) 2) - 1) ∧ HardSoft.sumTo (HardSoft.softmax HardSoft.expOne 1 (HardSoft.tiebreakPastUnbounded (1 : Rat) 3 (fun j => j == 0)) 2) 2 - HardSoft.softmax HardSoft.expOne 1 (HardSoft.tiebreakPastUnbounded (1 : Rat) 3 (fun j => j == 0)) 2 (HardSoft.tiebreakPastTarget (fun j => j == 0) 2) ≤ HardSoft.ExpLike.exp HardSoft.expOne (-1 / 1)",
    ),
    "HardSoft.nonvacuous_tiebreak_future_unbounded": LeanExample(
        "HardSoft.tiebreak_future_unbounded",
        "(∀ k, k < 3 - 1 - 0 → k ≠ HardSoft.tiebreakFutureTarget (fun j => j == 2) 3 0 → HardSoft.tiebreakFutureUnbounded (1 : Rat) 3 (fun j => j == 2) 0 k ≤ HardSoft.tiebreakFutureUnbounded (1 : Rat) 3 (fun j => j == 2) 0 (HardSoft.tiebreakFutureTarget (fun j => j == 2) 3 0) - 1) ∧ HardSoft.sumTo (HardSoft.softmax HardSoft.expOne 1 (HardSoft.tiebreakFutureUnbounded (1 : Rat) 3 (fun j => j == 2) 0) (3 - 1 - 0)) (3 - 1 - 0) - HardSoft.softmax HardSoft.expOne 1 (HardSoft.tiebreakFutureUnbounded (1 : Rat) 3 (fun j => j == 2) 0) (3 - 1 - 0) (HardSoft.tiebreakFutureTarget (fun j => j == 2) 3 0) ≤ HardSoft.ExpLike.exp HardSoft.expOne (-1 / 1)",
    ),
    "HardSoft.nonvacuous_tiebreak_past_bounded_at_rule": LeanExample(
        "HardSoft.tiebreak_past_bounded_at_rule",
        "HardSoft.sumTo (HardSoft.softmax HardSoft.expOne (1 / HardSoft.natCast 3) (HardSoft.tiebreakPastBounded (1 : Rat) 3 (fun j => j == 0)) 2) 2 - HardSoft.softmax HardSoft.expOne (1 / HardSoft.natCast 3) (HardSoft.tiebreakPastBounded (1 : Rat) 3 (fun j => j == 0)) 2 (HardSoft.tiebreakPastTarget (fun j => j == 0) 2) ≤ 1",
    ),
    "HardSoft.nonvacuous_lookup_gap": LeanExample(
        "HardSoft.lookup_gap",
        "HardSoft.lookupScore (1 : Rat) 2 0 ≤ HardSoft.lookupScore (1 : Rat) 2 2 - 1",
    ),
    "HardSoft.nonvacuous_lookup_gap_bounded": LeanExample(
        "HardSoft.lookup_gap_bounded",
        "HardSoft.lookupScoreBounded (1 : Rat) 3 2 0 ≤ HardSoft.lookupScoreBounded (1 : Rat) 3 2 2 - 1 / (HardSoft.natCast 3 * HardSoft.natCast 3)",
    ),
    "HardSoft.nonvacuous_lookup_past": LeanExample(
        "HardSoft.lookup_past",
        "(∀ j, j < 3 → j ≠ 3 - 1 → HardSoft.lookupScore (1 : Rat) (3 - 1) j ≤ HardSoft.lookupScore (1 : Rat) (3 - 1) (3 - 1) - 1) ∧ HardSoft.sumTo (HardSoft.softmax HardSoft.expOne 1 (HardSoft.lookupScore (1 : Rat) (3 - 1)) 3) 3 - HardSoft.softmax HardSoft.expOne 1 (HardSoft.lookupScore (1 : Rat) (3 - 1)) 3 (3 - 1) ≤ HardSoft.ExpLike.exp HardSoft.expOne (-1 / 1)",
    ),
    "HardSoft.nonvacuous_lookup_future": LeanExample(
        "HardSoft.lookup_future",
        "(∀ k, k < 3 - 1 - 0 → k ≠ 0 → HardSoft.lookupScore (1 : Rat) (0 + 1) (0 + 1 + k) ≤ HardSoft.lookupScore (1 : Rat) (0 + 1) (0 + 1 + 0) - 1) ∧ HardSoft.sumTo (HardSoft.softmax HardSoft.expOne 1 (fun k => HardSoft.lookupScore (1 : Rat) (0 + 1) (0 + 1 + k)) (3 - 1 - 0)) (3 - 1 - 0) - HardSoft.softmax HardSoft.expOne 1 (fun k => HardSoft.lookupScore (1 : Rat) (0 + 1) (0 + 1 + k)) (3 - 1 - 0) 0 ≤ HardSoft.ExpLike.exp HardSoft.expOne (-1 / 1)",
    ),
    "HardSoft.nonvacuous_lookup_past_bounded": LeanExample(
        "HardSoft.lookup_past_bounded",
        "(∀ j, j < 2 → j ≠ 2 - 1 → HardSoft.lookupScoreBounded (1 : Rat) 3 (2 - 1) j ≤ HardSoft.lookupScoreBounded (1 : Rat) 3 (2 - 1) (2 - 1) - 1 / (HardSoft.natCast 3 * HardSoft.natCast 3)) ∧ HardSoft.sumTo (HardSoft.softmax HardSoft.expOne 1 (HardSoft.lookupScoreBounded (1 : Rat) 3 (2 - 1)) 2) 2 - HardSoft.softmax HardSoft.expOne 1 (HardSoft.lookupScoreBounded (1 : Rat) 3 (2 - 1)) 2 (2 - 1) ≤ HardSoft.ExpLike.exp HardSoft.expOne (-(1 / (HardSoft.natCast 3 * HardSoft.natCast 3)) / 1)",
    ),
    "HardSoft.nonvacuous_softmax_eq_uniform_of_const": LeanExample(
        "HardSoft.softmax_eq_uniform_of_const",
        "∀ j, j < 3 → HardSoft.softmax HardSoft.expOne 1 (fun k => if k < 3 then (5 : Rat) else 0) 3 j = 1 / HardSoft.natCast 3",
    ),
    "HardSoft.nonvacuous_sign_gap_bounded": LeanExample(
        "HardSoft.sign_gap_bounded",
        "(1 : Rat) / HardSoft.natCast 2 ≤ 2 * 1 * (HardSoft.natCast (2 * 0 + 1) / (2 * HardSoft.natCast 2))",
    ),
    "HardSoft.nonvacuous_sign_gap_unbounded": LeanExample(
        "HardSoft.sign_gap_unbounded",
        "(1 : Rat) ≤ 2 * 1 * (HardSoft.natCast (2 * 0 + 1) / (2 * HardSoft.natCast 2)) * HardSoft.natCast 2",
    ),
    "HardSoft.nonvacuous_clampUnit_eq_one": LeanExample(
        "HardSoft.clampUnit_eq_one",
        "HardSoft.clampUnit (fun k => k == 0) (fun k => if k = 0 then (9 / 10 : Rat) else 1 / 10) 2 = 1",
    ),
    "HardSoft.nonvacuous_clampUnit_eq_zero": LeanExample(
        "HardSoft.clampUnit_eq_zero",
        "HardSoft.clampUnit (fun k => k == 1) (fun k => if k = 0 then (9 / 10 : Rat) else 1 / 10) 2 = 0",
    ),
    "HardSoft.nonvacuous_big_m_product": LeanExample(
        "HardSoft.big_m_product",
        "HardSoft.absv (HardSoft.relu ((1 / 8 : Rat) + -3) - HardSoft.relu (-(1 / 8) + -3) - (if false then 0 else 0)) ≤ (if false then 1 / 8 + 0 else 0)",
    ),
    "HardSoft.nonvacuous_srasp_lookup_gap": LeanExample(
        "HardSoft.srasp_lookup_gap",
        "((2 * HardSoft.natCast 1 * HardSoft.natCast 2 - HardSoft.natCast 1 * HardSoft.natCast 1) / HardSoft.natCast 3 : Rat) ≤ (2 * HardSoft.natCast 2 * HardSoft.natCast 2 - HardSoft.natCast 2 * HardSoft.natCast 2) / HardSoft.natCast 3 - 1 / HardSoft.natCast 3",
    ),
    "HardSoft.nonvacuous_srasp_lookup_gap_neg": LeanExample(
        "HardSoft.srasp_lookup_gap_neg",
        "((2 * HardSoft.natCast 1 * -HardSoft.natCast 1 - HardSoft.natCast 1 * HardSoft.natCast 1) / HardSoft.natCast 2 : Rat) ≤ 0 - 1 / HardSoft.natCast 2",
    ),
    "HardSoft.nonvacuous_tiebreak_past_bounded_at_half_tau": LeanExample(
        "HardSoft.tiebreak_past_bounded_at_half_tau",
        "(∀ j, j < 2 → j ≠ HardSoft.tiebreakPastTarget (fun j => j == 0) 2 → HardSoft.tiebreakPastBounded (1 : Rat) 3 (fun j => j == 0) j ≤ HardSoft.tiebreakPastBounded (1 : Rat) 3 (fun j => j == 0) (HardSoft.tiebreakPastTarget (fun j => j == 0) 2) - 1 / HardSoft.natCast 3) ∧ HardSoft.sumTo (HardSoft.softmax HardSoft.expOne (1 / (2 * HardSoft.natCast 3)) (HardSoft.tiebreakPastBounded (1 : Rat) 3 (fun j => j == 0)) 2) 2 - HardSoft.softmax HardSoft.expOne (1 / (2 * HardSoft.natCast 3)) (HardSoft.tiebreakPastBounded (1 : Rat) 3 (fun j => j == 0)) 2 (HardSoft.tiebreakPastTarget (fun j => j == 0) 2) ≤ HardSoft.ExpLike.exp HardSoft.expOne (-2)",
    ),
    "HardSoft.nonvacuous_flip_flop_head": LeanExample(
        "HardSoft.flip_flop_head",
        "(∀ j, j < 1 + 1 → j ≠ HardSoft.tiebreakPastTarget (fun j => j == 0) (1 + 1) → HardSoft.flipFlopScore 3 (fun j => j == 0) j ≤ (HardSoft.flipFlopScore 3 (fun j => j == 0) (HardSoft.tiebreakPastTarget (fun j => j == 0) (1 + 1)) : Rat) - 1 / HardSoft.natCast 3) ∧ HardSoft.sumTo (HardSoft.softmax HardSoft.expOne (1 / (2 * HardSoft.natCast 3)) (HardSoft.flipFlopScore 3 (fun j => j == 0)) (1 + 1)) (1 + 1) - HardSoft.softmax HardSoft.expOne (1 / (2 * HardSoft.natCast 3)) (HardSoft.flipFlopScore 3 (fun j => j == 0)) (1 + 1) (HardSoft.tiebreakPastTarget (fun j => j == 0) (1 + 1)) ≤ HardSoft.ExpLike.exp HardSoft.expOne (-2)",
    ),
    "HardSoft.nonvacuous_induction_prev_head": LeanExample(
        "HardSoft.induction_prev_head",
        "(∀ j, j < 2 → j ≠ 2 - 1 → HardSoft.inductionPrevScore 3 j ≤ (HardSoft.inductionPrevScore 3 (2 - 1) : Rat) - 1 / HardSoft.natCast 3) ∧ HardSoft.sumTo (HardSoft.softmax HardSoft.expOne (1 / (2 * HardSoft.natCast 3)) (HardSoft.inductionPrevScore 3) 2) 2 - HardSoft.softmax HardSoft.expOne (1 / (2 * HardSoft.natCast 3)) (HardSoft.inductionPrevScore 3) 2 (2 - 1) ≤ HardSoft.ExpLike.exp HardSoft.expOne (-2)",
    ),
    "HardSoft.nonvacuous_induction_hop_head": LeanExample(
        "HardSoft.induction_hop_head",
        "(∀ j, j < 2 + 1 → j ≠ HardSoft.tiebreakPastTarget (HardSoft.inductionHopSel (fun j => j % 2) 2) (2 + 1) → HardSoft.inductionHopScore 3 (fun j => j % 2) 2 j ≤ (HardSoft.inductionHopScore 3 (fun j => j % 2) 2 (HardSoft.tiebreakPastTarget (HardSoft.inductionHopSel (fun j => j % 2) 2) (2 + 1)) : Rat) - 1 / HardSoft.natCast 3) ∧ HardSoft.sumTo (HardSoft.softmax HardSoft.expOne (1 / (2 * HardSoft.natCast 3)) (HardSoft.inductionHopScore 3 (fun j => j % 2) 2) (2 + 1)) (2 + 1) - HardSoft.softmax HardSoft.expOne (1 / (2 * HardSoft.natCast 3)) (HardSoft.inductionHopScore 3 (fun j => j % 2) 2) (2 + 1) (HardSoft.tiebreakPastTarget (HardSoft.inductionHopSel (fun j => j % 2) 2) (2 + 1)) ≤ HardSoft.ExpLike.exp HardSoft.expOne (-2)",
    ),
    "HardSoft.nonvacuous_indicator_head": LeanExample(
        "HardSoft.indicator_head",
        "(∀ j k, j < 2 → k < 2 → (fun j => j == 0) j = false → (fun j => j == 0) k = true → (if (fun j => j == 0) j then (1 : Rat) else 0) ≤ (if (fun j => j == 0) k then (1 : Rat) else 0) - 1) ∧ HardSoft.offMass (fun j => j == 0) (HardSoft.softmax HardSoft.expOne 1 (fun j => if (fun j => j == 0) j then (1 : Rat) else 0) 2) 2 ≤ HardSoft.natCast (2 - 1) * HardSoft.ExpLike.exp HardSoft.expOne (-1 / 1)",
    ),
    "HardSoft.nonvacuous_prefix_argmax_gap": LeanExample(
        "HardSoft.prefix_argmax_gap",
        "∀ j, j < 2 → j ≠ 1 → HardSoft.prefixArgmaxScore 2 (fun _ => 0) j ≤ (HardSoft.prefixArgmaxScore 2 (fun _ => 0) 1 : Rat) - 1 / (HardSoft.natCast 2 * HardSoft.natCast 2 * HardSoft.natCast 2)",
    ),
    "HardSoft.nonvacuous_prefix_argmax_mass_le": LeanExample(
        "HardSoft.prefix_argmax_mass_le",
        "HardSoft.sumTo (HardSoft.softmax HardSoft.expOne 1 (HardSoft.prefixArgmaxScore 2 (fun _ => 0)) 2) 2 - HardSoft.softmax HardSoft.expOne 1 (HardSoft.prefixArgmaxScore 2 (fun _ => 0)) 2 1 ≤ HardSoft.ExpLike.exp HardSoft.expOne (-(1 / (HardSoft.natCast 2 * HardSoft.natCast 2 * HardSoft.natCast 2)) / 1)",
    ),
    "HardSoft.nonvacuous_prefix_argmax_head": LeanExample(
        "HardSoft.prefix_argmax_head",
        "HardSoft.sumTo (HardSoft.softmax HardSoft.expOne (1 / (2 * (HardSoft.natCast 2 * HardSoft.natCast 2 * HardSoft.natCast 2))) (HardSoft.prefixArgmaxScore 2 (fun _ => 0)) 2) 2 - HardSoft.softmax HardSoft.expOne (1 / (2 * (HardSoft.natCast 2 * HardSoft.natCast 2 * HardSoft.natCast 2))) (HardSoft.prefixArgmaxScore 2 (fun _ => 0)) 2 1 ≤ HardSoft.ExpLike.exp HardSoft.expOne (-2)",
    ),
    "HardSoft.nonvacuous_softmax_mass_off_top_le_of_deficits": LeanExample(
        "HardSoft.softmax_mass_off_top_le_of_deficits",
        "(∀ j, j < 2 → j ≠ 1 → HardSoft.inductionPrevScore 2 j ≤ (HardSoft.inductionPrevScore 2 1 : Rat) - 1 / HardSoft.natCast 2) ∧ HardSoft.sumTo (HardSoft.softmax HardSoft.expOne 1 (HardSoft.inductionPrevScore 2) 2) 2 - HardSoft.softmax HardSoft.expOne 1 (HardSoft.inductionPrevScore 2) 2 1 ≤ HardSoft.ExpLike.exp HardSoft.expOne (-(1 / HardSoft.natCast 2) / 1)",
    ),
    "HardSoft.nonvacuous_dyck_partner_head": LeanExample(
        "HardSoft.dyck_partner_head",
        "(∀ j, j < 2 → j ≠ 1 → HardSoft.dyckPartnerScore 2 (fun _ => true) (fun j => j) 2 j ≤ (HardSoft.dyckPartnerScore 2 (fun _ => true) (fun j => j) 2 1 : Rat) - 1 / HardSoft.natCast 2) ∧ HardSoft.sumTo (HardSoft.softmax HardSoft.expOne 1 (HardSoft.dyckPartnerScore 2 (fun _ => true) (fun j => j) 2) 2) 2 - HardSoft.softmax HardSoft.expOne 1 (HardSoft.dyckPartnerScore 2 (fun _ => true) (fun j => j) 2) 2 1 ≤ HardSoft.ExpLike.exp HardSoft.expOne (-(1 / HardSoft.natCast 2) / 1)",
    ),
    "HardSoft.nonvacuous_lookup_future_bounded": LeanExample(
        "HardSoft.lookup_future_bounded",
        "HardSoft.sumTo (HardSoft.softmax HardSoft.expOne 1 (fun k => HardSoft.lookupScoreBounded (1 : Rat) 3 (0 + 1) (0 + 1 + k)) (3 - 1 - 0)) (3 - 1 - 0) - HardSoft.softmax HardSoft.expOne 1 (fun k => HardSoft.lookupScoreBounded (1 : Rat) 3 (0 + 1) (0 + 1 + k)) (3 - 1 - 0) 0 ≤ HardSoft.ExpLike.exp HardSoft.expOne (-(1 / (HardSoft.natCast 3 * HardSoft.natCast 3)) / 1)",
    ),
    "HardSoft.nonvacuous_softmax_output_err_le": LeanExample(
        "HardSoft.softmax_output_err_le",
        "HardSoft.absv (HardSoft.sumTo (fun j => HardSoft.softmax HardSoft.expOne 1 (fun j => if j = 0 then (1 : Rat) else 0) 2 j * (if j = 0 then (1 : Rat) else 0)) 2 - (if 0 = 0 then (1 : Rat) else 0)) ≤ HardSoft.sumTo (HardSoft.softmax HardSoft.expOne 1 (fun j => if j = 0 then (1 : Rat) else 0) 2) 2 - HardSoft.softmax HardSoft.expOne 1 (fun j => if j = 0 then (1 : Rat) else 0) 2 0",
    ),
    "HardSoft.nonvacuous_softmax_output_err_le_offMass": LeanExample(
        "HardSoft.softmax_output_err_le_offMass",
        "HardSoft.absv (HardSoft.sumTo (fun j => HardSoft.softmax HardSoft.expOne 1 (fun j => if j = 0 then (1 : Rat) else 0) 2 j * (if j = 0 then (1 : Rat) else 0)) 2 - 1) ≤ HardSoft.offMass (fun j => j == 0) (HardSoft.softmax HardSoft.expOne 1 (fun j => if j = 0 then (1 : Rat) else 0) 2) 2",
    ),
    "HardSoft.nonvacuous_sign_head_bounded": LeanExample(
        "HardSoft.sign_head_bounded",
        "HardSoft.offMass (HardSoft.signGroup false) (HardSoft.softmax HardSoft.expOne (1 / HardSoft.natCast 3) (HardSoft.signScore (1 : Rat) ((if false then 1 else -1) * (HardSoft.natCast (2 * 0 + 1) / (2 * HardSoft.natCast 2)))) 3) 3 ≤ 2 * 1",
    ),
    "HardSoft.nonvacuous_sign_head_unbounded": LeanExample(
        "HardSoft.sign_head_unbounded",
        "HardSoft.offMass (HardSoft.signGroup true) (HardSoft.softmax HardSoft.expOne 1 (HardSoft.signScoreUnbounded (1 : Rat) ((if true then 1 else -1) * (HardSoft.natCast (2 * 0 + 1) / (2 * HardSoft.natCast 2))) 3) 3) 3 ≤ 2 * HardSoft.ExpLike.exp HardSoft.expOne (-1 / 1)",
    ),
    "HardSoft.nonvacuous_lookup_two_sided": LeanExample(
        "HardSoft.lookup_two_sided",
        "(HardSoft.sumTo (HardSoft.softmax HardSoft.expOne 1 (HardSoft.lookupScore (1 : Rat) 1) 3) 3 - HardSoft.softmax HardSoft.expOne 1 (HardSoft.lookupScore (1 : Rat) 1) 3 1) * (1 - HardSoft.ExpLike.exp HardSoft.expOne (-1 / 1)) ≤ 2 * HardSoft.ExpLike.exp HardSoft.expOne (-1 / 1) ∧ (HardSoft.ExpLike.exp HardSoft.expOne (-1 / 1) < 1 → HardSoft.sumTo (HardSoft.softmax HardSoft.expOne 1 (HardSoft.lookupScore (1 : Rat) 1) 3) 3 - HardSoft.softmax HardSoft.expOne 1 (HardSoft.lookupScore (1 : Rat) 1) 3 1 ≤ 2 * HardSoft.ExpLike.exp HardSoft.expOne (-1 / 1) / (1 - HardSoft.ExpLike.exp HardSoft.expOne (-1 / 1)))",
    ),
    "HardSoft.nonvacuous_lookup_two_sided_bounded": LeanExample(
        "HardSoft.lookup_two_sided_bounded",
        "(HardSoft.sumTo (HardSoft.softmax HardSoft.expOne (1 / (HardSoft.natCast 3 * HardSoft.natCast 3)) (HardSoft.lookupScoreBounded (1 : Rat) 3 1) 3) 3 - HardSoft.softmax HardSoft.expOne (1 / (HardSoft.natCast 3 * HardSoft.natCast 3)) (HardSoft.lookupScoreBounded (1 : Rat) 3 1) 3 1) * (1 - HardSoft.ExpLike.exp HardSoft.expOne (-(1 / 1))) ≤ 2 * HardSoft.ExpLike.exp HardSoft.expOne (-(1 / 1)) ∧ (HardSoft.ExpLike.exp HardSoft.expOne (-(1 / 1)) < 1 → HardSoft.sumTo (HardSoft.softmax HardSoft.expOne (1 / (HardSoft.natCast 3 * HardSoft.natCast 3)) (HardSoft.lookupScoreBounded (1 : Rat) 3 1) 3) 3 - HardSoft.softmax HardSoft.expOne (1 / (HardSoft.natCast 3 * HardSoft.natCast 3)) (HardSoft.lookupScoreBounded (1 : Rat) 3 1) 3 1 ≤ 2 * HardSoft.ExpLike.exp HardSoft.expOne (-(1 / 1)) / (1 - HardSoft.ExpLike.exp HardSoft.expOne (-(1 / 1))))",
    ),
    "HardSoft.nonvacuous_tiebreak_future_bounded_at_rule": LeanExample(
        "HardSoft.tiebreak_future_bounded_at_rule",
        "HardSoft.sumTo (HardSoft.softmax HardSoft.expOne (1 / HardSoft.natCast 3) (HardSoft.tiebreakFutureBounded (1 : Rat) 3 (fun j => j == 2) 0) (3 - 1 - 0)) (3 - 1 - 0) - HardSoft.softmax HardSoft.expOne (1 / HardSoft.natCast 3) (HardSoft.tiebreakFutureBounded (1 : Rat) 3 (fun j => j == 2) 0) (3 - 1 - 0) (HardSoft.tiebreakFutureTarget (fun j => j == 2) 3 0) ≤ 1",
    ),
    "HardSoft.nonvacuous_tiebreak_past_unbounded_at_rule": LeanExample(
        "HardSoft.tiebreak_past_unbounded_at_rule",
        "HardSoft.sumTo (HardSoft.softmax HardSoft.expOne 1 (HardSoft.tiebreakPastUnbounded (1 : Rat) 3 (fun j => j == 0)) 2) 2 - HardSoft.softmax HardSoft.expOne 1 (HardSoft.tiebreakPastUnbounded (1 : Rat) 3 (fun j => j == 0)) 2 (HardSoft.tiebreakPastTarget (fun j => j == 0) 2) ≤ 1",
    ),
    "HardSoft.nonvacuous_tiebreak_future_unbounded_at_rule": LeanExample(
        "HardSoft.tiebreak_future_unbounded_at_rule",
        "HardSoft.sumTo (HardSoft.softmax HardSoft.expOne 1 (HardSoft.tiebreakFutureUnbounded (1 : Rat) 3 (fun j => j == 2) 0) (3 - 1 - 0)) (3 - 1 - 0) - HardSoft.softmax HardSoft.expOne 1 (HardSoft.tiebreakFutureUnbounded (1 : Rat) 3 (fun j => j == 2) 0) (3 - 1 - 0) (HardSoft.tiebreakFutureTarget (fun j => j == 2) 3 0) ≤ 1",
    ),
    "HardSoft.nonvacuous_lookup_past_at_rule": LeanExample(
        "HardSoft.lookup_past_at_rule",
        "HardSoft.sumTo (HardSoft.softmax HardSoft.expOne 1 (HardSoft.lookupScore (1 : Rat) (3 - 1)) 3) 3 - HardSoft.softmax HardSoft.expOne 1 (HardSoft.lookupScore (1 : Rat) (3 - 1)) 3 (3 - 1) ≤ 1",
    ),
    "HardSoft.nonvacuous_lookup_future_at_rule": LeanExample(
        "HardSoft.lookup_future_at_rule",
        "HardSoft.sumTo (HardSoft.softmax HardSoft.expOne 1 (fun k => HardSoft.lookupScore (1 : Rat) (0 + 1) (0 + 1 + k)) (3 - 1 - 0)) (3 - 1 - 0) - HardSoft.softmax HardSoft.expOne 1 (fun k => HardSoft.lookupScore (1 : Rat) (0 + 1) (0 + 1 + k)) (3 - 1 - 0) 0 ≤ 1",
    ),
    "HardSoft.nonvacuous_position_lookup_at_rule": LeanExample(
        "HardSoft.position_lookup_at_rule",
        "(HardSoft.sumTo (HardSoft.softmax HardSoft.expOne (1 / (HardSoft.natCast 3 * 1)) (HardSoft.positionLookupScore (HardSoft.natCast 1 / HardSoft.natCast 2 : Rat) 2) 3) 3 - HardSoft.softmax HardSoft.expOne (1 / (HardSoft.natCast 3 * 1)) (HardSoft.positionLookupScore (HardSoft.natCast 1 / HardSoft.natCast 2 : Rat) 2) 3 1) * (1 - 1) ≤ 2 * 1 ∧ ((1 : Rat) < 1 → HardSoft.sumTo (HardSoft.softmax HardSoft.expOne (1 / (HardSoft.natCast 3 * 1)) (HardSoft.positionLookupScore (HardSoft.natCast 1 / HardSoft.natCast 2 : Rat) 2) 3) 3 - HardSoft.softmax HardSoft.expOne (1 / (HardSoft.natCast 3 * 1)) (HardSoft.positionLookupScore (HardSoft.natCast 1 / HardSoft.natCast 2 : Rat) 2) 3 1 ≤ 2 * 1 / (1 - 1))",
    ),
    "HardSoft.nonvacuous_position_lookup_bounded_at_rule": LeanExample(
        "HardSoft.position_lookup_bounded_at_rule",
        "(HardSoft.sumTo (HardSoft.softmax HardSoft.expOne (1 / (HardSoft.natCast 3 * HardSoft.natCast 3 * HardSoft.natCast 2 * 1)) (HardSoft.positionLookupScoreBounded (HardSoft.natCast 1 / (HardSoft.natCast 2 * HardSoft.natCast 3) : Rat) 3 2) 3) 3 - HardSoft.softmax HardSoft.expOne (1 / (HardSoft.natCast 3 * HardSoft.natCast 3 * HardSoft.natCast 2 * 1)) (HardSoft.positionLookupScoreBounded (HardSoft.natCast 1 / (HardSoft.natCast 2 * HardSoft.natCast 3) : Rat) 3 2) 3 1) * (1 - 1) ≤ 2 * 1 ∧ ((1 : Rat) < 1 → HardSoft.sumTo (HardSoft.softmax HardSoft.expOne (1 / (HardSoft.natCast 3 * HardSoft.natCast 3 * HardSoft.natCast 2 * 1)) (HardSoft.positionLookupScoreBounded (HardSoft.natCast 1 / (HardSoft.natCast 2 * HardSoft.natCast 3) : Rat) 3 2) 3) 3 - HardSoft.softmax HardSoft.expOne (1 / (HardSoft.natCast 3 * HardSoft.natCast 3 * HardSoft.natCast 2 * 1)) (HardSoft.positionLookupScoreBounded (HardSoft.natCast 1 / (HardSoft.natCast 2 * HardSoft.natCast 3) : Rat) 3 2) 3 1 ≤ 2 * 1 / (1 - 1))",
    ),
    "HardSoft.nonvacuous_position_lookup_copy_at_rule": LeanExample(
        "HardSoft.position_lookup_copy_at_rule",
        "HardSoft.absv (HardSoft.sumTo (fun p => HardSoft.softmax HardSoft.expOne (1 / (HardSoft.natCast 3 * 1)) (HardSoft.positionLookupScore (HardSoft.natCast 1 / HardSoft.natCast 2 : Rat) 2) 3 p * HardSoft.natCast p) 3 - HardSoft.natCast 1) * ((1 - 1) * (1 - 1)) ≤ 2 * 1 ∧ ((1 : Rat) < 1 → HardSoft.absv (HardSoft.sumTo (fun p => HardSoft.softmax HardSoft.expOne (1 / (HardSoft.natCast 3 * 1)) (HardSoft.positionLookupScore (HardSoft.natCast 1 / HardSoft.natCast 2 : Rat) 2) 3 p * HardSoft.natCast p) 3 - HardSoft.natCast 1) ≤ 2 * 1 / ((1 - 1) * (1 - 1)))",
    ),
    "HardSoft.nonvacuous_position_lookup_copy_bounded_at_rule": LeanExample(
        "HardSoft.position_lookup_copy_bounded_at_rule",
        "HardSoft.absv (HardSoft.sumTo (fun p => HardSoft.softmax HardSoft.expOne (1 / (HardSoft.natCast 3 * HardSoft.natCast 3 * HardSoft.natCast 2 * 1)) (HardSoft.positionLookupScoreBounded (HardSoft.natCast 1 / (HardSoft.natCast 2 * HardSoft.natCast 3) : Rat) 3 2) 3 p * HardSoft.natCast p) 3 - HardSoft.natCast 1) * ((1 - 1) * (1 - 1)) ≤ 2 * 1 ∧ ((1 : Rat) < 1 → HardSoft.absv (HardSoft.sumTo (fun p => HardSoft.softmax HardSoft.expOne (1 / (HardSoft.natCast 3 * HardSoft.natCast 3 * HardSoft.natCast 2 * 1)) (HardSoft.positionLookupScoreBounded (HardSoft.natCast 1 / (HardSoft.natCast 2 * HardSoft.natCast 3) : Rat) 3 2) 3 p * HardSoft.natCast p) 3 - HardSoft.natCast 1) ≤ 2 * 1 / ((1 - 1) * (1 - 1)))",
    ),
    "HardSoft.nonvacuous_position_lookup_neg_at_rule": LeanExample(
        "HardSoft.position_lookup_neg_at_rule",
        "HardSoft.sumTo (HardSoft.softmax HardSoft.expOne (1 / (HardSoft.natCast 2 * 1)) (HardSoft.positionLookupScore (-HardSoft.natCast 1 / HardSoft.natCast 2 : Rat) 2) 3) 3 - HardSoft.softmax HardSoft.expOne (1 / (HardSoft.natCast 2 * 1)) (HardSoft.positionLookupScore (-HardSoft.natCast 1 / HardSoft.natCast 2 : Rat) 2) 3 0 ≤ 1",
    ),
    "HardSoft.nonvacuous_gated_position_gap": LeanExample(
        "HardSoft.gated_position_gap",
        "(HardSoft.natCast (HardSoft.natDist 2 (HardSoft.gatedTarget false 3)) : Rat) ≤ HardSoft.gatedScore false (HardSoft.gatedTarget false 3) - HardSoft.gatedScore false 2",
    ),
    "HardSoft.nonvacuous_gated_position_copy": LeanExample(
        "HardSoft.gated_position_copy",
        "HardSoft.absv (HardSoft.sumTo (fun p => HardSoft.softmax HardSoft.expOne 1 (HardSoft.gatedScore true) 3 p * HardSoft.natCast p) 3 - HardSoft.natCast (HardSoft.gatedTarget true 3)) * (((1 : Rat) - 1) * (1 - 1)) ≤ 1",
    ),
    "HardSoft.nonvacuous_gated_slack_at_rule": LeanExample(
        "HardSoft.gated_slack_at_rule",
        "HardSoft.absv ((3 : Rat) * (HardSoft.sumTo (fun p => HardSoft.softmax HardSoft.expOne 1 (HardSoft.gatedScore true) 3 p * HardSoft.natCast p) 3 + (if true then 1 else 0)) - 3 * HardSoft.natCast 3 + 3 * HardSoft.natCast 3 * (if true then 0 else 1)) * ((1 - 1) * (1 - 1)) ≤ 3 * 1 ∧ ∀ d : Rat, 3 * 1 ≤ d * ((1 - 1) * (1 - 1)) → (1 : Rat) < 1 → HardSoft.absv ((3 : Rat) * (HardSoft.sumTo (fun p => HardSoft.softmax HardSoft.expOne 1 (HardSoft.gatedScore true) 3 p * HardSoft.natCast p) 3 + (if true then 1 else 0)) - 3 * HardSoft.natCast 3 + 3 * HardSoft.natCast 3 * (if true then 0 else 1)) ≤ d",
    ),
    "HardSoft.nonvacuous_rounded_ziggurat": LeanExample(
        "HardSoft.rounded_ziggurat",
        "∀ k, 0 < k → k < 3 → HardSoft.natCast k * ((1 : Rat) - 1 / 2) ≤ (fun k => -(HardSoft.natCast k : Rat) + (if k = 0 then -1 / 4 else 1 / 4)) 0 - (fun k => -(HardSoft.natCast k : Rat) + (if k = 0 then -1 / 4 else 1 / 4)) k",
    ),
    "HardSoft.nonvacuous_rounded_mass_off_top_le": LeanExample(
        "HardSoft.rounded_mass_off_top_le",
        "HardSoft.sumTo (HardSoft.softmax HardSoft.expOne 1 (fun k => -(HardSoft.natCast k : Rat) + (if k = 0 then -1 / 4 else 1 / 4)) 3) 3 - HardSoft.softmax HardSoft.expOne 1 (fun k => -(HardSoft.natCast k : Rat) + (if k = 0 then -1 / 4 else 1 / 4)) 3 0 ≤ HardSoft.ExpLike.exp HardSoft.expOne (-(1 - 1 / 2) / 1)",
    ),
    "HardSoft.nonvacuous_rounded_mass_off_top_le_margin": LeanExample(
        "HardSoft.rounded_mass_off_top_le_margin",
        "HardSoft.sumTo (HardSoft.softmax HardSoft.expOne 1 (fun k => -(HardSoft.natCast k : Rat) + (if k = 0 then -1 / 4 else 1 / 4)) 3) 3 - HardSoft.softmax HardSoft.expOne 1 (fun k => -(HardSoft.natCast k : Rat) + (if k = 0 then -1 / 4 else 1 / 4)) 3 0 ≤ 1",
    ),
    "HardSoft.Cert.nonvacuous_certified_hard_of_check": LeanExample(
        "HardSoft.Cert.certified_hard_of_check",
        cert_names(
            "∃ (C : HardSoft.Cert) (M : §ModelW), §check C M = true ∧ (∀ a, a ∈ [0, 1] → a < HardSoft.Cert.nsym C) ∧ 1 < [0, 1].length ∧ HardSoft.Cert.prog C = [§Node.atom 0, §Node.prev 0] ∧ HardSoft.Cert.root C = 1"
        ),
    ),
}

#: Claimed theorems with no non-vacuity example, and why none is needed.
NO_EXAMPLE: dict[str, str] = {
    "HardSoft.bound_closed_form": "no hypotheses: an identity for every r, a, L",
    "HardSoft.composition_guard_necessary": "no hypotheses: one concrete instance, stated outright",
    "HardSoft.bound_le_eps_of_temperature": "unsatisfiable at Rat: its fact F1 (1 + x ≤ exp x) fails for the only ExpLike over Rat, the constant 1 (at x = 1); F1 is checked of the real exp in tests/spec/test_exp_facts.py",
    "HardSoft.bound_le_eps_of_inverse_temperature": "unsatisfiable at Rat: fact F1 fails for the constant 1, the only ExpLike over Rat (and exp (log x) = x fails at x = 2); both facts are checked of the real exp in tests/spec/test_exp_facts.py",
    "HardSoft.bound_le_eps_of_eps_lower_bound": "unsatisfiable at Rat: fact F1 fails for the constant 1, the only ExpLike over Rat; checked of the real exp in tests/spec/test_exp_facts.py",
    "HardSoft.Cert.certified_of_check": "unsatisfiable at Rat: fact F1 (ExpLike.Tangent) fails for the constant 1, the only ExpLike over Rat; its other hypotheses are those of certified_hard_of_check, shown satisfiable together by HardSoft.Cert.nonvacuous_certified_hard_of_check",
}

#: Project constants a pinned text may use without a pin, and why (``checks.families.lean.pins``: no
#: definition's equation may use one, so no pinned meaning rests on them).
UNPINNED: dict[str, str] = {
    "HardSoft.Cert.check": "the certificate checker, a hypothesis of certified_of_check: the theorem holds for whatever check computes, so its meaning does not rest on check's text; nonvacuous_certified_hard_of_check shows it accepts a real compiled model (not an always-false check)",
    "HardSoft.Cert.Span": "a field type of the certificate read only by check (what each coordinate holds, span by span)",
    "HardSoft.Cert.LayerD": "a field type of the certificate read only by check (each layer's heads and unit groups)",
}


# --------------------------------------------------------------------------- the translation's theorems
# lean/HardSoft/Cert/Translate.lean and TranslateCert.lean (claim TRANS: B-RASP and C-RASP through their translation to
# TL), kept apart for reading and merged into LEAN_STATEMENTS / LEAN_DEFINITIONS / NO_EXAMPLE below.

#: The translation's main theorems, pinned (keys: full Lean names).
TRANSLATION_STATEMENTS: dict[str, LeanStatement] = {
    "HardSoft.Cert.holds_since_tSince": LeanStatement(
        cert_names(
            "∀ {P : §Prog} {w : List Nat} {n g i x y : Nat} (h : §nodeAt P g = §Node.since x y) (hx : x < g) (hy : y < g), §holds P w n g i ↔ §tSince (§holds P w n x) (§holds P w n y) i"
        ),
        "temporal logic: a since node holds at i exactly when the strict since tSince of its children's meanings does",
    ),
    "HardSoft.Cert.holds_until_tUntil": LeanStatement(
        cert_names(
            "∀ {P : §Prog} {w : List Nat} {n g i x y : Nat} (h : §nodeAt P g = §Node.until x y) (hx : x < g) (hy : y < g), §holds P w n g i ↔ §tUntil n (§holds P w n x) (§holds P w n y) i"
        ),
        "temporal logic: an until node holds at i exactly when the strict until tUntil of its children's meanings does",
    ),
    "HardSoft.Cert.attnFormula_iff": LeanStatement(
        cert_names(
            "∀ (d : §BDir) (m : §BMask) (K V D : Nat → Prop) {n i : Nat} (hi : i < n), §attnFormula d m n K V D i ↔ §battend d m (fun _ j => K j) V D n i"
        ),
        "B-RASP attention (Yang, Chiang, Angluin 2024), every direction and mask, every length n and position i < n: the since/until formula attention_formula builds for a key-only selector K, value V and default D holds exactly when the attention's value V(j*) (j* the leftmost/rightmost j < n with M(i, j) and K(j)), else D(i), is true",
    ),
    "HardSoft.Cert.attnFormula_nodes": LeanStatement(
        cert_names(
            "∀ {P : §Prog} {w : List Nat} {n i k v dd : Nat} (d : §BDir) (m : §BMask) {K V D : Nat → Prop} (hK : ∀ j, j < n → (§holds P w n k j ↔ K j)) (hV : ∀ j, j < n → (§holds P w n v j ↔ V j)) (hD : ∀ j, j < n → (§holds P w n dd j ↔ D j)) (hi : i < n), §attnFormula d m n (§holds P w n k) (§holds P w n v) (§holds P w n dd) i ↔ §battend d m (fun _ j => K j) V D n i"
        ),
        "B-RASP attention over a formula DAG: if nodes k, v, dd hold at every position j < n exactly when the program's key K, value V and default D do, attention_formula's formula over those nodes holds at i < n exactly when the attention does",
    ),
    "HardSoft.Cert.attnFormula_query_split": LeanStatement(
        cert_names(
            "∀ (d : §BDir) (m : §BMask) (qs : List (Nat → Bool)) (Sel : List Bool → Nat → Prop) (V D : Nat → Prop) {n i : Nat} (hi : i < n), §battend d m (fun i' j => Sel (List.map (fun q => q i') qs) j) V D n i ↔ ∃ σ, σ ∈ §boolVecs qs.length ∧ §qguard qs σ i ∧ §attnFormula d m n (Sel σ) V D i"
        ),
        "B-RASP attention with query vectors: a selector reading the query vectors only through their Boolean values at i is the disjunction, over every assignment σ of those values, of (the queries are σ at i) and attention_formula's formula for the key-only selector S[q := σ], at every position i < n",
    ),
    "HardSoft.Cert.rpF_not_leftmost_past": LeanStatement(
        cert_names(
            "¬ ∀ (K V D : Nat → Prop) (n i : Nat), i < n → ((§rpF K V i ∨ (¬ §pastAny K i ∧ D i)) ↔ §battend §BDir.leftmost §BMask.past (fun _ j => K j) V D n i)"
        ),
        "B-RASP translation, a wrong variant refuted: the rightmost-past formula (!K) S (K & V) | !(true S K) & D does not compute a leftmost past attention",
    ),
    "HardSoft.Cert.craspCount_eq_countIn": LeanStatement(
        cert_names("∀ (P : Nat → Prop) (n i : Nat), §craspCount P i = §countIn P n i §CountDir.le"),
        "C-RASP (Yang, Chiang 2024): the count vector #[j <= i] P(j) is the temporal logic's inclusive count #<=[P] at i, for every length n",
    ),
    "HardSoft.Cert.holds_craspCmpNode": LeanStatement(
        cert_names(
            "∀ {P : §Prog} {w : List Nat} {n g i : Nat} {op : §CmpOp} {ts : List (Int × Nat)} {r : Int} (h : §nodeAt P g = §craspCmpNode op ts r) (hts : ∀ t, t ∈ ts → t.2 < g), §holds P w n g i ↔ §cmpOpHolds op (§linSum (fun x => (§craspCount (§holds P w n x) i : Int)) ts + r)"
        ),
        "C-RASP comparison: the Node.cmp the certificate writes for sum_k c_k #<=[x_k] + r op 0 (op one of >, >=, <, <=) holds at i exactly when sum_k c_k C_k(i) + r op 0, C_k C-RASP's count vector of node x_k",
    ),
    "HardSoft.Cert.certified_of_translation": LeanStatement(
        cert_names(
            over_field(
                "(C : HardSoft.Cert) (M : §ModelW) (h : §check C M = true) (R : §RatEmb α) (E : HardSoft.ExpLike α) (hE : HardSoft.ExpLike.Tangent E) (sem : List Nat → Nat → Prop) (hT : §TranslationCorrect (HardSoft.Cert.nsym C) sem (HardSoft.Cert.prog C) (HardSoft.Cert.root C)) (w : List Nat) (hsym : ∀ a, a ∈ w → a < HardSoft.Cert.nsym C) (i : Nat) (hi : i < w.length), §run R §Mode.hard M w w.length (§ModelW.layers M).length i (§crd C (HardSoft.Cert.root C)) = §ind (sem w i) ∧ §run R (§Mode.soft E (§tauRule C R w.length)) M w w.length (§ModelW.layers M).length i (§crd C (HardSoft.Cert.root C)) = §ind (sem w i)"
            )
        ),
        "CERT through a translation: if the checker accepts C for M and C's formula DAG is a correct translation of a program's meaning sem (TranslationCorrect), the model's root coordinate is exactly [sem w i] for every word over C's alphabet, every length and every position, hard and soft at C's temperature rule",
    ),
}


def _eqs(*texts: str) -> tuple[str, ...]:
    """Return definition equations with ``§`` spelled out (``cert_names``)."""
    return tuple(cert_names(t) for t in texts)


_PRED4 = "(Nat → Prop) × (Nat → Prop) × (Nat → Prop) × (Nat → Prop)"

#: What the translation's statements use, pinned.
TRANSLATION_DEFINITIONS: dict[str, LeanDefinition] = {
    "HardSoft.Cert.tSince": LeanDefinition(
        _eqs("∀ (F G : Nat → Prop) (i : Nat), §tSince F G i = ∃ j, j < i ∧ G j ∧ ∀ k, j < k → k < i → F k"),
        "strict since F S G on predicates: some j < i has G and every k strictly between j and i has F",
    ),
    "HardSoft.Cert.tUntil": LeanDefinition(
        _eqs("∀ (n : Nat) (F G : Nat → Prop) (i : Nat), §tUntil n F G i = ∃ j, i < j ∧ j < n ∧ G j ∧ ∀ k, i < k → k < j → F k"),
        "strict until F U G on a word of length n: some i < j < n has G and every k strictly between i and j has F",
    ),
    "HardSoft.Cert.BDir": LeanDefinition(
        (),
        "a B-RASP attention's direction: leftmost or rightmost",
        recursor=cert_names("∀ {motive : §BDir → Prop}, motive §BDir.leftmost → motive §BDir.rightmost → ∀ (t : §BDir), motive t"),
        members=("leftmost", "rightmost"),
    ),
    "HardSoft.Cert.BMask": LeanDefinition(
        (),
        "a B-RASP attention's mask: past (j < i), future (j > i), all",
        recursor=cert_names("∀ {motive : §BMask → Prop}, motive §BMask.past → motive §BMask.future → motive §BMask.all → ∀ (t : §BMask), motive t"),
        members=("past", "future", "all"),
    ),
    "HardSoft.Cert.bmask": LeanDefinition(
        _eqs(
            "∀ (i j : Nat), §bmask §BMask.past i j = (j < i)",
            "∀ (i j : Nat), §bmask §BMask.future i j = (i < j)",
            "∀ (i j : Nat), §bmask §BMask.all i j = True",
        ),
        "the mask M(i, j) (brasp._masked)",
    ),
    "HardSoft.Cert.bchosen": LeanDefinition(
        _eqs("∀ (m : §BMask) (S : Nat → Nat → Prop) (n i j : Nat), §bchosen m S n i j = (j < n ∧ §bmask m i j ∧ S i j)"),
        "the positions the attention at i may choose: j < n with M(i, j) and S(i, j)",
    ),
    "HardSoft.Cert.bpick": LeanDefinition(
        _eqs(
            "∀ (C : Nat → Prop) (j : Nat), §bpick §BDir.leftmost C j = (C j ∧ ∀ k, k < j → ¬ C k)",
            "∀ (C : Nat → Prop) (j : Nat), §bpick §BDir.rightmost C j = (C j ∧ ∀ k, j < k → ¬ C k)",
        ),
        "j is the leftmost (no chosen k < j) or rightmost (no chosen k > j) chosen position",
    ),
    "HardSoft.Cert.battend": LeanDefinition(
        _eqs(
            "∀ (d : §BDir) (m : §BMask) (S : Nat → Nat → Prop) (V D : Nat → Prop) (n i : Nat), §battend d m S V D n i = ((∃ j, §bpick d (§bchosen m S n i) j ∧ V j) ∨ ((∀ j, ¬ §bchosen m S n i j) ∧ D i))"
        ),
        "B-RASP attention as interpret_word computes it: V(j*) for the picked chosen j*, else D(i)",
    ),
    "HardSoft.Cert.pastAny": LeanDefinition(_eqs("∀ (K : Nat → Prop), §pastAny K = §tSince (fun _ => True) K"), "past_any = true S K"),
    "HardSoft.Cert.futAny": LeanDefinition(_eqs("∀ (n : Nat) (K : Nat → Prop), §futAny n K = §tUntil n (fun _ => True) K"), "fut_any = true U K"),
    "HardSoft.Cert.rpF": LeanDefinition(
        _eqs("∀ (K V : Nat → Prop), §rpF K V = §tSince (fun k => ¬ K k) (fun k => K k ∧ V k)"), "rp = (!K) S (K & V)"
    ),
    "HardSoft.Cert.lfF": LeanDefinition(
        _eqs("∀ (n : Nat) (K V : Nat → Prop), §lfF n K V = §tUntil n (fun k => ¬ K k) (fun k => K k ∧ V k)"), "lf = (!K) U (K & V)"
    ),
    "HardSoft.Cert.lpF": LeanDefinition(
        _eqs("∀ (K V : Nat → Prop), §lpF K V = §tSince (fun _ => True) (fun k => (K k ∧ ¬ §pastAny K k) ∧ V k)"),
        "lp = true S (K & !past_any & V)",
    ),
    "HardSoft.Cert.rfF": LeanDefinition(
        _eqs("∀ (n : Nat) (K V : Nat → Prop), §rfF n K V = §tUntil n (fun _ => True) (fun k => (K k ∧ ¬ §futAny n K k) ∧ V k)"),
        "rf = true U (K & !fut_any & V)",
    ),
    "HardSoft.Cert.allMaskSides": LeanDefinition(
        _eqs(
            "∀ (n : Nat) (K V : Nat → Prop), §allMaskSides n K V §BDir.leftmost = (§lpF K V, fun i => ¬ §pastAny K i, §lfF n K V, §futAny n K)",
            "∀ (n : Nat) (K V : Nat → Prop), §allMaskSides n K V §BDir.rightmost = (§rfF n K V, fun i => ¬ §futAny n K i, §rpF K V, §pastAny K)",
        ),
        "all_mask_sides: (near, none on the near side, far, any key on the far side)",
    ),
    "HardSoft.Cert.allFormula": LeanDefinition(
        _eqs(
            f"∀ (s : {_PRED4}) (K V D : Nat → Prop) (i : Nat), §allFormula s K V D i = (s.1 i ∨ (s.2.1 i ∧ ((K i ∧ V i) ∨ (¬ K i ∧ (s.2.2.1 i ∨ (¬ s.2.2.2 i ∧ D i))))))"
        ),
        "the all mask's formula: near | here_first & (K & V | !K & (far | !far_any & D))",
    ),
    "HardSoft.Cert.attnFormula": LeanDefinition(
        _eqs(
            "∀ (n : Nat) (K V D : Nat → Prop) (i : Nat), §attnFormula §BDir.rightmost §BMask.past n K V D i = (§rpF K V i ∨ (¬ §pastAny K i ∧ D i))",
            "∀ (n : Nat) (K V D : Nat → Prop) (i : Nat), §attnFormula §BDir.leftmost §BMask.past n K V D i = (§lpF K V i ∨ (¬ §pastAny K i ∧ D i))",
            "∀ (n : Nat) (K V D : Nat → Prop) (i : Nat), §attnFormula §BDir.leftmost §BMask.future n K V D i = (§lfF n K V i ∨ (¬ §futAny n K i ∧ D i))",
            "∀ (n : Nat) (K V D : Nat → Prop) (i : Nat), §attnFormula §BDir.rightmost §BMask.future n K V D i = (§rfF n K V i ∨ (¬ §futAny n K i ∧ D i))",
            "∀ (n : Nat) (K V D : Nat → Prop) (i : Nat), §attnFormula §BDir.leftmost §BMask.all n K V D i = §allFormula (§allMaskSides n K V §BDir.leftmost) K V D i",
            "∀ (n : Nat) (K V D : Nat → Prop) (i : Nat), §attnFormula §BDir.rightmost §BMask.all n K V D i = §allFormula (§allMaskSides n K V §BDir.rightmost) K V D i",
        ),
        "attention_formula's formula for each direction and mask",
    ),
    "HardSoft.Cert.boolVecs": LeanDefinition(
        _eqs(
            "§boolVecs 0 = [[]]",
            "∀ (m : Nat), §boolVecs (m + 1) = ([true, false] : List Bool).flatMap (fun b => (§boolVecs m).map (fun σ => b :: σ))",
        ),
        "every assignment of m Boolean query values (itertools.product((True, False), repeat=m))",
    ),
    "HardSoft.Cert.qguard": LeanDefinition(
        _eqs(
            "∀ (q : Nat → Bool) (qs : List (Nat → Bool)) (v : Bool) (vs : List Bool) (i : Nat), §qguard (q :: qs) (v :: vs) i = (q i = v ∧ §qguard qs vs i)",
            "∀ (i : Nat), §qguard [] [] i = True",
            "∀ (v : Bool) (vs : List Bool) (i : Nat), §qguard [] (v :: vs) i = False",
            "∀ (q : Nat → Bool) (qs : List (Nat → Bool)) (i : Nat), §qguard (q :: qs) [] i = False",
        ),
        "the guard of an assignment σ at i: AND_k (q_k(i) = σ_k)",
    ),
    "HardSoft.Cert.craspCount": LeanDefinition(
        _eqs(
            "∀ (P : Nat → Prop) (i : Nat), §craspCount P i = (List.filter (fun j => @decide (P j) (Classical.propDecidable (P j))) (List.range (i + 1))).length"
        ),
        "C-RASP's count vector #[j <= i] P(j): the positions j <= i where P holds",
    ),
    "HardSoft.Cert.linSum": LeanDefinition(
        _eqs(
            "∀ (C : Nat → Int), §linSum C [] = 0",
            "∀ (C : Nat → Int) (t : Int × Nat) (ts : List (Int × Nat)), §linSum C (t :: ts) = t.1 * C t.2 + §linSum C ts",
        ),
        "sum_k c_k C(x_k) over the terms (c_k, x_k)",
    ),
    "HardSoft.Cert.leTerms": LeanDefinition(
        _eqs("∀ (ts : List (Int × Nat)), §leTerms ts = List.map (fun t => (t.1, §CountDir.le, t.2)) ts"),
        "terms (c_k, x_k) as a comparison node's terms, each an inclusive count #<=",
    ),
    "HardSoft.Cert.CmpOp": LeanDefinition(
        (),
        "a C-RASP comparison with 0: >, >=, <, <=",
        recursor=cert_names(
            "∀ {motive : §CmpOp → Prop}, motive §CmpOp.gt → motive §CmpOp.ge → motive §CmpOp.lt → motive §CmpOp.le → ∀ (t : §CmpOp), motive t"
        ),
        members=("gt", "ge", "lt", "le"),
    ),
    "HardSoft.Cert.cmpOpHolds": LeanDefinition(
        _eqs(
            "∀ (a : Int), §cmpOpHolds §CmpOp.gt a = (0 < a)",
            "∀ (a : Int), §cmpOpHolds §CmpOp.ge a = (0 ≤ a)",
            "∀ (a : Int), §cmpOpHolds §CmpOp.lt a = (a < 0)",
            "∀ (a : Int), §cmpOpHolds §CmpOp.le a = (a ≤ 0)",
        ),
        "a op 0 for an integer a",
    ),
    "HardSoft.Cert.cmpSign": LeanDefinition(
        _eqs("§cmpSign §CmpOp.gt = 1", "§cmpSign §CmpOp.ge = 1", "§cmpSign §CmpOp.lt = -1", "§cmpSign §CmpOp.le = -1"),
        "the sign a comparison is moved to one side with (certificate._cmp_node)",
    ),
    "HardSoft.Cert.cmpBump": LeanDefinition(
        _eqs("§cmpBump §CmpOp.gt = 0", "§cmpBump §CmpOp.ge = 1", "§cmpBump §CmpOp.lt = 0", "§cmpBump §CmpOp.le = 1"),
        "the constant a non-strict comparison adds (E >= 0 is E + 1 > 0 for an integer E)",
    ),
    "HardSoft.Cert.craspCmpNode": LeanDefinition(
        _eqs(
            "∀ (op : §CmpOp) (ts : List (Int × Nat)) (r : Int), §craspCmpNode op ts r = §Node.cmp (§leTerms (List.map (fun t => (§cmpSign op * t.1, t.2)) ts)) (§cmpSign op * r + §cmpBump op)"
        ),
        "the Node.cmp of sum_k c_k #<=[x_k] + r op 0 (certificate._cmp_node)",
    ),
    "HardSoft.Cert.TranslationCorrect": LeanDefinition(
        _eqs(
            "∀ (nsym : Nat) (sem : List Nat → Nat → Prop) (P : §Prog) (root : Nat), §TranslationCorrect nsym sem P root = ∀ w, (∀ a, a ∈ w → a < nsym) → ∀ i, i < w.length → (sem w i ↔ §holds P w w.length root i)"
        ),
        "what a translation must satisfy: for every word over the alphabet and every position, the root holds exactly when the program's output does",
    ),
}

#: The translation's theorems need no non-vacuity example, and why.
TRANSLATION_NO_EXAMPLE: dict[str, str] = {
    "HardSoft.Cert.holds_since_tSince": "its hypotheses say only that node g is a since node with earlier children (any DAG with one)",
    "HardSoft.Cert.holds_until_tUntil": "its hypotheses say only that node g is an until node with earlier children (any DAG with one)",
    "HardSoft.Cert.attnFormula_iff": "no hypothesis beyond i < n",
    "HardSoft.Cert.attnFormula_nodes": "its hypotheses hold with K, V, D the nodes' own meanings (holds P w n k, ...) for any nodes",
    "HardSoft.Cert.attnFormula_query_split": "no hypothesis beyond i < n",
    "HardSoft.Cert.rpF_not_leftmost_past": "no hypotheses: a refutation",
    "HardSoft.Cert.craspCount_eq_countIn": "no hypotheses: an identity for every P, n, i",
    "HardSoft.Cert.holds_craspCmpNode": "its hypotheses say only that node g is the comparison's node with earlier children (any DAG with one)",
    "HardSoft.Cert.certified_of_translation": "as certified_of_check's (unsatisfiable at Rat through fact F1); with sem the root's own meaning TranslationCorrect holds by Iff.rfl, so nonvacuous_certified_hard_of_check covers the rest",
}

LEAN_STATEMENTS.update(TRANSLATION_STATEMENTS)
LEAN_DEFINITIONS.update(TRANSLATION_DEFINITIONS)
NO_EXAMPLE.update(TRANSLATION_NO_EXAMPLE)
