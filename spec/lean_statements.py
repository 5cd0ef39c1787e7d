"""The pinned Lean statements: for each Lean theorem a claim of ``spec.claims`` cites, its exact statement and what it proves in words.

The Lean check makes Lean confirm every statement here (``checks.families.lean.pins``);
the traceability table's Lean column is each entry's ``says``.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

from hardsoft import locations

#: The ordered-field context of the generic Lean theorems (the section variables of lean/HardSoft/*.lean).
FIELD = "{α : Type} [Lean.Grind.Field α] [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α]"


def over_field(rest: str) -> str:
    """Return the Lean statement ``∀ FIELD rest``: ``rest`` is ``binders, conclusion`` of a theorem generic over α."""
    return f"∀ {FIELD} {rest}"


def _caller_origin() -> str:
    """Return ``file:line`` of the code that constructs a LeanStatement (the registry entry)."""
    frame = sys._getframe(2)
    path = Path(frame.f_code.co_filename)
    tree = locations.source_tree()
    try:
        shown = str(path.relative_to(tree)) if tree is not None else path.name
    except ValueError:
        shown = str(path)
    return f"{shown}:{frame.f_lineno}"


@dataclass(frozen=True)
class LeanStatement:
    """What a Lean theorem cited by a claim proves: its exact statement (pinned) and the same in words.

    statement -- the theorem's full type in Lean syntax, binders written with ``∀`` (read inside
                 ``namespace HardSoft``); the generated pin module makes Lean confirm
                 ``example : statement := @name`` (``checks.families.lean.pins``)
    says      -- what the theorem proves, in words, no more than the statement: the Lean column of
                 the traceability table
    origin    -- ``file:line`` of this entry (filled in automatically; failures name it)
    """

    statement: str
    says: str
    origin: str = field(default_factory=_caller_origin, compare=False)


#: For each Lean theorem a claim cites: its pinned statement and what it says (keys = the names in Claim.lean).
LEAN_STATEMENTS: dict[str, LeanStatement] = {
    "HardSoft.bound_closed_form": LeanStatement(
        over_field(
            "(r a : α) (L : Nat), (r - 1) * bound (fun _ => r) (fun _ => a) L = a * (r ^ L - 1) ∧ (r ≠ 1 → bound (fun _ => r) (fun _ => a) L = a * (r ^ L - 1) / (r - 1)) ∧ (r = 1 → bound (fun _ => r) (fun _ => a) L = natCast L * a)"
        ),
        "uniform r, a: (r - 1) B_L = a (r^L - 1); B_L = a (r^L - 1)/(r - 1) if r ≠ 1; B_L = L a if r = 1",
    ),
    "HardSoft.bound_monotone": LeanStatement(
        over_field(
            "{r a : Nat → α} {L : Nat} (hr : ∀ l, l < L → 1 ≤ r l) (ha : ∀ l, l < L → 0 ≤ a l) {l : Nat} (hlL : l ≤ L), 0 ≤ bound r a l ∧ bound r a l ≤ bound r a L"
        ),
        "r_l ≥ 1 and a_l ≥ 0 for l < L give 0 ≤ B_l ≤ B_L for every l ≤ L",
    ),
    "HardSoft.err_le_bound_of_bound_le_one": LeanStatement(
        over_field(
            "{r a e : Nat → α} {L : Nat} (he0 : e 0 = 0) (hstep : ∀ l, l < L → e l ≤ 1 → e (l + 1) ≤ r l * e l + a l) (hr : ∀ l, l < L → 1 ≤ r l) (ha : ∀ l, l < L → 0 ≤ a l) (hBL : bound r a L ≤ 1), ∀ l, l ≤ L → e l ≤ bound r a l ∧ bound r a l ≤ 1"
        ),
        "e_0 = 0, the guarded step e_l ≤ 1 → e_(l+1) ≤ r_l e_l + a_l, r_l ≥ 1, a_l ≥ 0 (each for l < L) and B_L ≤ 1 give e_l ≤ B_l ≤ 1 for every l ≤ L",
    ),
    "HardSoft.err_le_eps_of_bound_le": LeanStatement(
        over_field(
            "{r a e : Nat → α} {L : Nat} {eps : α} (he0 : e 0 = 0) (hstep : ∀ l, l < L → e l ≤ 1 → e (l + 1) ≤ r l * e l + a l) (hr : ∀ l, l < L → 1 ≤ r l) (ha : ∀ l, l < L → 0 ≤ a l) (hBeps : bound r a L ≤ eps) (hB1 : bound r a L ≤ 1), e L ≤ eps"
        ),
        "the same hypotheses with B_L ≤ eps and B_L ≤ 1 give e_L ≤ eps",
    ),
    "HardSoft.forall_err_le_bound_iff": LeanStatement(
        over_field(
            "{r a : Nat → α} {L : Nat} (hr : ∀ l, l < L → 0 ≤ r l) (ha : ∀ l, l < L → 0 ≤ a l), (∀ e : Nat → α, e 0 = 0 → (∀ l, l < L → e l ≤ 1 → e (l + 1) ≤ r l * e l + a l) → (∀ l, l ≤ L → 0 ≤ e l) → e L ≤ bound r a L) ↔ ∀ l, l < L → bound r a l ≤ 1"
        ),
        "the guard, sharp: for r_l, a_l ≥ 0 (l < L), every guarded sequence with e_0 = 0 and e ≥ 0 has e_L ≤ B_L if and only if B_l ≤ 1 for every l < L",
    ),
    "HardSoft.exists_err_gt_of_one_lt_bound": LeanStatement(
        over_field(
            "{r a : Nat → α} {L l : Nat} (hr : ∀ k, k < L → 0 ≤ r k) (ha : ∀ k, k < L → 0 ≤ a k) (hl : l < L) (hBl : 1 < bound r a l) (M : α), ∃ e : Nat → α, e 0 = 0 ∧ (∀ k, k < L → e k ≤ 1 → e (k + 1) ≤ r k * e k + a k) ∧ (∀ k, k ≤ L → 0 ≤ e k) ∧ M < e L"
        ),
        "r_k, a_k ≥ 0 (k < L) and B_l > 1 for some l < L: for every M a guarded sequence (e_0 = 0, e ≥ 0) has e_L > M",
    ),
    "HardSoft.composition_guard_necessary": LeanStatement(
        over_field(
            "(M : α), (∃ e : Nat → α, e 0 = 0 ∧ (∀ l, l < 2 → e l ≤ 1 → e (l + 1) ≤ (fun _ => (1 : α)) l * e l + (fun _ => (2 : α)) l) ∧ M < e 2) ∧ ¬ ∀ e : Nat → α, e 0 = 0 → (∀ l, l < 2 → e l ≤ 1 → e (l + 1) ≤ (fun _ => (1 : α)) l * e l + (fun _ => (2 : α)) l) → e 2 ≤ bound (fun _ => (1 : α)) (fun _ => (2 : α)) 2"
        ),
        "one instance, r = 1, a = 2, L = 2 (B_2 = 4): for every M a guarded sequence has e_2 > M, so e_2 ≤ B_2 fails",
    ),
    "HardSoft.composition_err_le_eps_rat": LeanStatement(
        "∀ {r a e : Nat → Rat} {L : Nat} {eps : Rat} (he0 : e 0 = 0) (hstep : ∀ l, l < L → e l ≤ 1 → e (l + 1) ≤ r l * e l + a l) (hr : ∀ l, l < L → 1 ≤ r l) (ha : ∀ l, l < L → 0 ≤ a l) (hBeps : bound r a L ≤ eps) (hB1 : bound r a L ≤ 1), e L ≤ eps",
        "err_le_eps_of_bound_le at α = Rat",
    ),
    "HardSoft.err_le_eps_of_layers": LeanStatement(
        over_field(
            "{L : Nat} {H N : Nat → Nat} {A B scoreErr dSoft dHard wErr headErr : Nat → Nat → α} {X tau x LipF yErr e : Nat → α} {eps : α} (hA : ∀ l, l < L → ∀ h, h < H l → 0 ≤ A l h) (hB : ∀ l, l < L → ∀ h, h < H l → 0 ≤ B l h) (hX : ∀ l, l < L → 0 ≤ X l) (htau : ∀ l, l < L → 0 < tau l) (hx : ∀ l, l < L → 0 ≤ x l) (hLip : ∀ l, l < L → 0 ≤ LipF l) (he0 : e 0 = 0) (he : ∀ l, l ≤ L → 0 ≤ e l) (hscore : ∀ l, l < L → ∀ h, h < H l → scoreErr l h ≤ A l h * (2 * X l * e l + e l * e l)) (hS : ∀ l, l < L → ∀ h, h < H l → dSoft l h ≤ scoreErr l h / tau l) (hE : ∀ l, l < L → ∀ h, h < H l → dHard l h ≤ 2 * natCast (N l - 1) * x l) (hw : ∀ l, l < L → ∀ h, h < H l → wErr l h ≤ dSoft l h + dHard l h) (hhead : ∀ l, l < L → ∀ h, h < H l → headErr l h ≤ B l h * e l + B l h * X l * wErr l h) (hres : ∀ l, l < L → yErr l ≤ e l + sumTo (headErr l) (H l)) (hffn : ∀ l, l < L → e (l + 1) ≤ (1 + LipF l) * yErr l) (hBeps : bound (fun l => (1 + LipF l) * (1 + sumTo (fun h => B l h * (1 + X l * (2 * X l + 1) * A l h / tau l)) (H l))) (fun l => 2 * (1 + LipF l) * X l * natCast (N l - 1) * x l * sumTo (B l) (H l)) L ≤ eps) (hB1 : bound (fun l => (1 + LipF l) * (1 + sumTo (fun h => B l h * (1 + X l * (2 * X l + 1) * A l h / tau l)) (H l))) (fun l => 2 * (1 + LipF l) * X l * natCast (N l - 1) * x l * sumTo (B l) (H l)) L ≤ 1), e L ≤ eps ∧ ∀ l, l ≤ L → e l ≤ 1"
        ),
        "Theorem 26, algebraic form: L layers each with Lemma 25's step facts as hypotheses (l < L), e_0 = 0, e ≥ 0, and B_L ≤ eps, B_L ≤ 1 for Lemma 25's r_l, a_l give e_L ≤ eps and e_l ≤ 1 for every l ≤ L",
    ),
    "HardSoft.bound_const_le_of_mul_pow_le": LeanStatement(
        over_field(
            "{r a eps : α} (hr : 1 ≤ r) (ha : 0 ≤ a) (L : Nat) (h : a * natCast L * r ^ (L - 1) ≤ eps), bound (fun _ => r) (fun _ => a) L ≤ eps"
        ),
        "uniform r ≥ 1, a ≥ 0: the sufficient condition a L r^(L-1) ≤ eps gives B_L ≤ eps (the choice of tau is not in Lean)",
    ),
    "HardSoft.composition_err_le_eps_of_mul_pow_le": LeanStatement(
        over_field(
            "{e : Nat → α} {r a eps : α} {L : Nat} (he0 : e 0 = 0) (hstep : ∀ l, l < L → e l ≤ 1 → e (l + 1) ≤ r * e l + a) (hr : 1 ≤ r) (ha : 0 ≤ a) (h : a * natCast L * r ^ (L - 1) ≤ eps) (heps : eps ≤ 1), e L ≤ eps"
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
            "{H N : Nat} {A B scoreErr dSoft dHard wErr headErr : Nat → α} {X tau x LipF eps yErr outErr : α} (hA : ∀ h, h < H → 0 ≤ A h) (hB : ∀ h, h < H → 0 ≤ B h) (hX : 0 ≤ X) (htau : 0 < tau) (hLip : 0 ≤ LipF) (h0 : 0 ≤ eps) (h1 : eps ≤ 1) (hscore : ∀ h, h < H → scoreErr h ≤ A h * (2 * X * eps + eps * eps)) (hS : ∀ h, h < H → dSoft h ≤ scoreErr h / tau) (hE : ∀ h, h < H → dHard h ≤ 2 * natCast (N - 1) * x) (hw : ∀ h, h < H → wErr h ≤ dSoft h + dHard h) (hhead : ∀ h, h < H → headErr h ≤ B h * eps + B h * X * wErr h) (hres : yErr ≤ eps + sumTo headErr H) (hffn : outErr ≤ (1 + LipF) * yErr), outErr ≤ (1 + LipF) * (1 + sumTo (fun h => B h * (1 + X * (2 * X + 1) * A h / tau)) H) * eps + 2 * (1 + LipF) * X * natCast (N - 1) * x * sumTo B H"
        ),
        "one layer, H heads, with the score-error, S, E (≤ 2(N-1)x), triangle, head, residual and FFN steps as hypotheses and 0 ≤ eps ≤ 1: output error ≤ r eps + a, r = (1+Lip F)(1 + Σ_h |B_h| (1 + X(2X+1)|A_h|/tau)), a = 2(1+Lip F) X (N-1) x Σ_h |B_h|",
    ),
    "HardSoft.softmax_mass_off_max_le": LeanStatement(
        over_field(
            "{isMax : Nat → Bool} {w : Nat → α} {x : α} {N : Nat} (hmax : ∀ j, j < N → isMax j = true → w j = 1) (hoff : ∀ j, j < N → isMax j = false → w j ≤ x) (hoff0 : ∀ j, j < N → isMax j = false → 0 ≤ w j) (hx : 0 ≤ x) (hm : 0 < countMax isMax N), offMass isMax w N / sumTo w N ≤ natCast (N - countMax isMax N) * x / (natCast (countMax isMax N) + natCast (N - countMax isMax N) * x) ∧ offMass isMax w N / sumTo w N ≤ natCast (N - 1) * x"
        ),
        "weights w = 1 on the m ≥ 1 max positions and 0 ≤ w ≤ x elsewhere: off-max mass ≤ (N-m)x/(m+(N-m)x) and ≤ (N-1)x",
    ),
    "HardSoft.softmax_mass_off_max_le_rat": LeanStatement(
        "∀ {isMax : Nat → Bool} {w : Nat → Rat} {x : Rat} {N : Nat} (hmax : ∀ j, j < N → isMax j = true → w j = 1) (hoff : ∀ j, j < N → isMax j = false → w j ≤ x) (hoff0 : ∀ j, j < N → isMax j = false → 0 ≤ w j) (hx : 0 ≤ x) (hm : 0 < countMax isMax N), offMass isMax w N / sumTo w N ≤ natCast (N - 1) * x",
        "the (N-1)x form of softmax_mass_off_max_le at α = Rat",
    ),
    "HardSoft.sumTo_absv_sub_ahardmax_eq": LeanStatement(
        over_field(
            "{isMax : Nat → Bool} {p : Nat → α} {N : Nat} (hm : 0 < countMax isMax N) (hmax : ∀ j, j < N → isMax j = true → p j = (1 - offMass isMax p N) / natCast (countMax isMax N)) (hoff0 : ∀ j, j < N → isMax j = false → 0 ≤ p j), sumTo (fun j => absv (p j - ahardmax isMax N j)) N = 2 * offMass isMax p N"
        ),
        "p ≥ 0 off the max set and p = (1 - δ)/m on each of its m ≥ 1 positions (δ the mass off it): ||p - ahardmax||_1 = 2δ",
    ),
    "HardSoft.sumTo_absv_sub_ahardmax_le": LeanStatement(
        over_field(
            "{isMax : Nat → Bool} {p : Nat → α} {x : α} {N : Nat} (hm : 0 < countMax isMax N) (hmax : ∀ j, j < N → isMax j = true → p j = (1 - offMass isMax p N) / natCast (countMax isMax N)) (hoff0 : ∀ j, j < N → isMax j = false → 0 ≤ p j) (hδ : offMass isMax p N ≤ natCast (N - 1) * x), sumTo (fun j => absv (p j - ahardmax isMax N j)) N ≤ 2 * natCast (N - 1) * x"
        ),
        "the same with δ ≤ (N-1)x: ||p - ahardmax||_1 ≤ 2(N-1)x",
    ),
    "HardSoft.softmax_offMass_le_of_gap": LeanStatement(
        over_field(
            "(E : ExpLike α) {s : Nat → α} {isMax : Nat → Bool} {smax gamma tau : α} {N : Nat} (htau : 0 < tau) (hmax : ∀ j, j < N → isMax j = true → s j = smax) (hgap : ∀ j, j < N → isMax j = false → s j ≤ smax - gamma) (hm : 0 < countMax isMax N), offMass isMax (softmax E tau s N) N ≤ natCast (N - countMax isMax N) * E.exp (-gamma / tau) / (natCast (countMax isMax N) + natCast (N - countMax isMax N) * E.exp (-gamma / tau)) ∧ offMass isMax (softmax E tau s N) N ≤ natCast (N - 1) * E.exp (-gamma / tau)"
        ),
        "for any exp with ExpLike's properties, tau > 0, scores = s_max on the max set (m ≥ 1) and ≤ s_max - gamma elsewhere: softmax mass off the max set ≤ (N-m)x/(m+(N-m)x) and ≤ (N-1)x, x = exp(-gamma/tau)",
    ),
    "HardSoft.sumTo_absv_softmax_sub_ahardmax_le": LeanStatement(
        over_field(
            "(E : ExpLike α) {s : Nat → α} {isMax : Nat → Bool} {smax gamma tau : α} {N : Nat} (htau : 0 < tau) (hmax : ∀ j, j < N → isMax j = true → s j = smax) (hgap : ∀ j, j < N → isMax j = false → s j ≤ smax - gamma) (hm : 0 < countMax isMax N), sumTo (fun j => absv (softmax E tau s N j - ahardmax isMax N j)) N = 2 * offMass isMax (softmax E tau s N) N ∧ sumTo (fun j => absv (softmax E tau s N j - ahardmax isMax N j)) N ≤ 2 * natCast (N - 1) * E.exp (-gamma / tau)"
        ),
        "the same hypotheses: ||softmax - ahardmax||_1 = 2δ ≤ 2(N-1)x",
    ),
    "HardSoft.ziggurat_mass_off_top_le": LeanStatement(
        over_field(
            "{w : Nat → α} {x : α} {N : Nat} (hN : 0 < N) (hw0 : 0 < w 0) (hnn : ∀ k, k < N → 0 ≤ w k) (hw : ∀ k, 0 < k → k < N → w k ≤ x ^ k * w 0) (hx0 : 0 ≤ x) (hx1 : x ≤ 1), (sumTo w N - w 0) / sumTo w N ≤ x ∧ sumTo w N * (1 - x) ≤ w 0 * (1 - x ^ N)"
        ),
        "N ≥ 1, w_0 > 0, 0 ≤ w_k ≤ x^k w_0, 0 ≤ x ≤ 1: off-top mass ≤ x and total (1 - x) ≤ w_0 (1 - x^N)",
    ),
    "HardSoft.ziggurat_mass_off_top_le_rat": LeanStatement(
        "∀ {w : Nat → Rat} {x : Rat} {N : Nat} (hN : 0 < N) (hw0 : 0 < w 0) (hnn : ∀ k, k < N → 0 ≤ w k) (hw : ∀ k, 0 < k → k < N → w k ≤ x ^ k * w 0) (hx0 : 0 ≤ x) (hx1 : x ≤ 1), (sumTo w N - w 0) / sumTo w N ≤ x",
        "the off-top mass ≤ x form of ziggurat_mass_off_top_le at α = Rat",
    ),
    "HardSoft.sumTo_sub_top_div_sumTo_le_geom": LeanStatement(
        over_field(
            "{w : Nat → α} {x : α} {N : Nat} (hN : 0 < N) (hw0 : 0 < w 0) (hnn : ∀ k, k < N → 0 ≤ w k) (hw : ∀ k, 0 < k → k < N → w k ≤ x ^ k * w 0) (hx0 : 0 ≤ x) (hx1 : x < 1), (sumTo w N - w 0) / sumTo w N ≤ (x - x ^ N) / (1 - x ^ N) ∧ (sumTo w N - w 0) / sumTo w N ≤ x"
        ),
        "the same weights with 0 ≤ x < 1: off-top mass ≤ (x - x^N)/(1 - x^N) and ≤ x",
    ),
    "HardSoft.softmax_mass_off_top_le_of_ziggurat": LeanStatement(
        over_field(
            "(E : ExpLike α) {s : Nat → α} {gamma tau : α} {N : Nat} (hN : 0 < N) (htau : 0 < tau) (hg : 0 ≤ gamma) (hz : ∀ k, 0 < k → k < N → natCast k * gamma ≤ s 0 - s k), sumTo (softmax E tau s N) N - softmax E tau s N 0 ≤ E.exp (-gamma / tau) ∧ (E.exp (-gamma / tau) < 1 → sumTo (softmax E tau s N) N - softmax E tau s N 0 ≤ (E.exp (-gamma / tau) - E.exp (-gamma / tau) ^ N) / (1 - E.exp (-gamma / tau) ^ N))"
        ),
        "for any exp with ExpLike's properties, N ≥ 1, tau > 0, gamma ≥ 0 and a ziggurat k gamma ≤ s_0 - s_k: softmax mass off the top ≤ x, and ≤ (x - x^N)/(1 - x^N) when x < 1, x = exp(-gamma/tau)",
    ),
}
