module

public import HardSoft.Cert.Basic

/-!
# Certificates, part 3: the transformer as the project runs it

Section 2's transformer (`spec/transformer.py`) over an ordered field `α`, its rational weights
entering through a `RatEmb`: `x_i^(0) = WE[w_i] + Σ_f φ_f(i, n) P_f`; each layer adds to the
residual stream every head's output `Σ_u (Σ_j a_ij x_j W_V[:, u]) W_O[u, :]`, scores
`s_ij = Σ_t (x_i W_Q[:, t]) (x_j W_K[:, t])` over the keys the head's mask shows, then the
feed-forward network `z = y + Σ_u ReLU(y W_1[:, u] + b_1[u]) W_2[u, :] + b_2`. No layer norm.
A query that sees no key gets head output `0`. Attention weights: average-hard (weight
`1/m` on each of the `m` maximal keys) or softmax at temperature `τ` with an abstract exponential.

The weights are stored as `constructive/residual.py` builds them: `W_Q`, `W_K`, `W_V` and `W_1`
by columns, `W_O` and `W_2` by rows, each a sparse vector (`SVec`).

## Main definitions

* `HardSoft.Cert.Feat.val`: the position features of `spec.transformer.PE_FEATURES` and the
  numerical predicates of model format 4.
* `HardSoft.Cert.Mask.count`, `HardSoft.Cert.Mask.key`: the keys a query sees (`spec.attention`).
* `HardSoft.Cert.ahard`: average-hard attention weights.
* `HardSoft.Cert.run`: every layer's activations, hard or soft.

## Main results

* `HardSoft.Cert.ahard_of_unique`: a unique maximum takes all the hard weight.
-/

@[expose] public section

set_option autoImplicit false


namespace HardSoft.Cert

open Lean.Grind

/-- Position features (`spec/transformer.py`, `PE_FEATURES` and the format 4 predicates). -/
inductive Feat where
  /-- `one` -/
  | one
  /-- `is_first` -/
  | isFirst
  /-- `is_last` -/
  | isLast
  /-- `i/n` -/
  | iOverN
  /-- `parity`: `(-1)^i` -/
  | parity
  /-- `1/max(i,1)` -/
  | invMaxI
  /-- `1/max(n-1-i,1)` -/
  | invMaxRest
  /-- `i` -/
  | idx
  /-- `i^2` -/
  | idxSq
  /-- `n` -/
  | len
  /-- `n*parity` -/
  | lenParity
  /-- `(i/n)^2` -/
  | iOverNSq
  /-- `1/n` -/
  | invN
  /-- `i mod m = r` -/
  | modEq (m r : Nat)
  /-- `p*i + q*n + r > 0` -/
  | lin (p q r : Int)

/-- Checker helper: feature equality, decided. -/
noncomputable def Feat.beq : Feat → Feat → Bool
  | .one, .one | .isFirst, .isFirst | .isLast, .isLast | .iOverN, .iOverN | .parity, .parity => true
  | .invMaxI, .invMaxI | .invMaxRest, .invMaxRest | .idx, .idx | .idxSq, .idxSq | .len, .len => true
  | .lenParity, .lenParity | .iOverNSq, .iOverNSq | .invN, .invN => true
  | .modEq m r, .modEq m' r' => m == m' && r == r'
  | .lin p q r, .lin p' q' r' => p == p' && q == q' && r == r'
  | _, _ => false

/-- `Feat.beq` decides equality. -/
theorem Feat.eq_of_beq {f g : Feat} (h : f.beq g = true) : f = g := by
  cases f <;> cases g <;> first | rfl | exact absurd h Bool.false_ne_true | skip
  · rename_i m r m' r'
    have h' : (m == m' && r == r') = true := h
    simp only [Bool.and_eq_true, beq_iff_eq] at h'
    rw [h'.1, h'.2]
  · rename_i p q r p' q' r'
    have h' : (p == p' && q == q' && r == r') = true := h
    simp only [Bool.and_eq_true, beq_iff_eq] at h'
    rw [h'.1.1, h'.1.2, h'.2]

/-- `Feat.beq` is reflexive. -/
theorem Feat.beq_self (f : Feat) : f.beq f = true := by
  cases f <;> first | rfl | skip
  · rename_i m r
    show (m == m && r == r) = true
    simp only [beq_self_eq_true, Bool.and_self]
  · rename_i p q r
    show (p == p && q == q && r == r) = true
    simp only [beq_self_eq_true, Bool.and_self]

variable {α : Type} [Lean.Grind.Field α] [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α]
  [Lean.Grind.OrderedRing α]

/-- The value of a position feature at position `i` of a word of length `n`. -/
noncomputable def Feat.val (f : Feat) (n i : Nat) : α :=
  match f with
  | .one => 1
  | .isFirst => if i = 0 then 1 else 0
  | .isLast => if i + 1 = n then 1 else 0
  | .iOverN => natCast i / natCast n
  | .parity => if i % 2 = 0 then 1 else -1
  | .invMaxI => 1 / natCast (max i 1)
  | .invMaxRest => 1 / natCast (max (n - 1 - i) 1)
  | .idx => natCast i
  | .idxSq => natCast i * natCast i
  | .len => natCast n
  | .lenParity => natCast n * (if i % 2 = 0 then 1 else -1)
  | .iOverNSq => (natCast i / natCast n) * (natCast i / natCast n)
  | .invN => 1 / natCast n
  | .modEq m r => if i % m = r then 1 else 0
  | .lin p q r => if 0 < p * (i : Int) + q * (n : Int) + r then 1 else 0

/-- Attention masks (`spec.constants.MASK_KINDS`): none (`j < n`), causal (`j ≤ i`), strict
(`j < i`), anticausal (`j ≥ i`), strict anticausal (`j > i`). -/
inductive Mask where
  | none | causal | strict | anticausal | strictAnti

/-- Checker helper: mask equality, decided. -/
noncomputable def Mask.beq : Mask → Mask → Bool
  | .none, .none | .causal, .causal | .strict, .strict | .anticausal, .anticausal | .strictAnti, .strictAnti => true
  | _, _ => false

/-- `Mask.beq` decides equality. -/
theorem Mask.eq_of_beq {a b : Mask} (h : a.beq b = true) : a = b := by
  cases a <;> cases b <;> first | rfl | exact absurd h Bool.false_ne_true

/-- The number of keys query `i` sees at length `n`. -/
noncomputable def Mask.count : Mask → Nat → Nat → Nat
  | .none, n, _ => n
  | .causal, _, i => i + 1
  | .strict, _, i => i
  | .anticausal, n, i => n - i
  | .strictAnti, n, i => n - 1 - i

/-- The position of the `k`-th key query `i` sees. -/
noncomputable def Mask.key : Mask → Nat → Nat → Nat
  | .none, _, k => k
  | .causal, _, k => k
  | .strict, _, k => k
  | .anticausal, i, k => i + k
  | .strictAnti, i, k => i + 1 + k

/-- One attention head: `W_Q`, `W_K`, `W_V` by columns, `W_O` by rows, and its mask. -/
structure HeadW where
  /-- columns of `W_Q` -/
  q : List SVec
  /-- columns of `W_K` -/
  k : List SVec
  /-- columns of `W_V` -/
  v : List SVec
  /-- rows of `W_O` -/
  o : List SVec
  /-- the mask -/
  mask : Mask

/-- One hidden unit of a feed-forward network: its column of `W_1`, its bias `b_1`, its row of `W_2`. -/
structure UnitW where
  /-- column of `W_1` -/
  win : SVec
  /-- entry of `b_1` -/
  bias : Rat
  /-- row of `W_2` -/
  wout : SVec

/-- One layer: heads, hidden units, and the output bias `b_2`. -/
structure LayerW where
  /-- the heads -/
  heads : List HeadW
  /-- the hidden units -/
  units : List UnitW
  /-- `b_2` -/
  b2 : SVec

/-- The empty layer (past the last). -/
noncomputable def LayerW.empty : LayerW := ⟨[], [], []⟩

/-- A model: width `d`, word embedding rows (one per symbol), position embedding rows (one per
feature), layers. -/
structure ModelW where
  /-- the width `d` -/
  d : Nat
  /-- rows of `WE`, one per symbol of the alphabet -/
  we : List SVec
  /-- rows of the position embedding, each with its feature -/
  pe : List (Feat × SVec)
  /-- the layers -/
  layers : List LayerW

/-- Activations: position, then coordinate. -/
abbrev Acts (α : Type) := Nat → Nat → α

/-- Attention: average-hard, or softmax at temperature `τ` with the exponential `E`. -/
inductive Mode (α : Type) [Lean.Grind.Field α] [LE α] [LT α] where
  | hard
  | soft (E : ExpLike α) (tau : α)

section Hard

open Classical

/-- The largest of `s 0, ..., s (N-1)` (`0` for `N = 0`). -/
noncomputable def hardMax (s : Nat → α) : Nat → α
  | 0 => 0
  | 1 => s 0
  | N + 2 => if hardMax s (N + 1) ≤ s (N + 1) then s (N + 1) else hardMax s (N + 1)

/-- Average-hard attention weights over `N` keys: `1/m` on each of the `m` keys of maximal score. -/
noncomputable def ahard (s : Nat → α) (N : Nat) (k : Nat) : α :=
  if s k = hardMax s N then 1 / natCast (countMax (fun j => decide (s j = hardMax s N)) N) else 0

end Hard

/-- The attention weights of a mode. -/
noncomputable def weights (mode : Mode α) (s : Nat → α) (N : Nat) (k : Nat) : α :=
  match mode with
  | .hard => ahard s N k
  | .soft E tau => softmax E tau s N k

variable (R : RatEmb α)

/-- `x^(0)_i = WE[w_i] + Σ_f φ_f(i, n) P_f`. -/
noncomputable def embed (M : ModelW) (w : List Nat) (n : Nat) : Acts α := fun i c =>
  R.cast (svGet (M.we.getD (w.getD i 0) []) c) + lsum M.pe (fun fe => fe.1.val n i * R.cast (svGet fe.2 c))

/-- The score of the `k`-th key query `i` sees: `Σ_t (x_i W_Q[:, t]) (x_j W_K[:, t])`. -/
noncomputable def score (h : HeadW) (x : Acts α) (i k : Nat) : α :=
  lsum (h.q.zip h.k) (fun qk => dotv R (x i) qk.1 * dotv R (x (h.mask.key i k)) qk.2)

/-- A head's output at query `i`, coordinate `c`: `Σ_u (Σ_k a_k x_{key k} W_V[:, u]) W_O[u, c]`. -/
noncomputable def headOut (mode : Mode α) (h : HeadW) (x : Acts α) (n i c : Nat) : α :=
  lsum (h.v.zip h.o) (fun vo =>
    sumTo (fun k => weights mode (score R h x i) (h.mask.count n i) k * dotv R (x (h.mask.key i k)) vo.1)
      (h.mask.count n i) * R.cast (svGet vo.2 c))

/-- The attention half of a layer: `y_i = x_i + Σ_h head_h(x)_i`. -/
noncomputable def attnStep (mode : Mode α) (L : LayerW) (x : Acts α) (n : Nat) : Acts α := fun i c =>
  x i c + lsum L.heads (fun h => headOut R mode h x n i c)

/-- The feed-forward half of a layer: `z_i = y_i + Σ_u ReLU(y_i W_1[:, u] + b_1[u]) W_2[u, :] + b_2`. -/
noncomputable def ffnStep (L : LayerW) (y : Acts α) : Acts α := fun i c =>
  y i c + lsum L.units (fun u => relu (dotv R (y i) u.win + R.cast u.bias) * R.cast (svGet u.wout c))
    + R.cast (svGet L.b2 c)

/-- Every layer's activations: `run 0` is the embedding, `run (l+1)` layer `l` applied to `run l`. -/
noncomputable def run (mode : Mode α) (M : ModelW) (w : List Nat) (n : Nat) : Nat → Acts α
  | 0 => embed R M w n
  | l + 1 => ffnStep R (M.layers.getD l LayerW.empty) (attnStep R mode (M.layers.getD l LayerW.empty) (run mode M w n l) n)

/-! ### Average-hard attention with a unique maximum -/

section HardFacts

open Classical

/-- `hardMax` bounds every score. -/
theorem smax_ge (s : Nat → α) : ∀ (N k : Nat), k < N → s k ≤ hardMax s N := by
  intro N
  induction N with
  | zero => intro k hk; omega
  | succ N ih =>
    intro k hk
    cases N with
    | zero =>
      have : k = 0 := by omega
      rw [this]; show s 0 ≤ s 0; exact Std.le_refl _
    | succ N =>
      show s k ≤ (if hardMax s (N + 1) ≤ s (N + 1) then s (N + 1) else hardMax s (N + 1))
      by_cases h : hardMax s (N + 1) ≤ s (N + 1)
      · rw [if_pos h]
        by_cases hk' : k = N + 1
        · rw [hk']; exact Std.le_refl _
        · exact Std.le_trans (ih k (by omega)) h
      · rw [if_neg h]
        by_cases hk' : k = N + 1
        · rw [hk']; exact Std.le_of_lt (Std.not_le.mp h)
        · exact ih k (by omega)

/-- `hardMax` is one of the scores. -/
theorem smax_mem (s : Nat → α) : ∀ (N : Nat), 0 < N → ∃ k, k < N ∧ hardMax s N = s k := by
  intro N
  induction N with
  | zero => intro h; omega
  | succ N ih =>
    intro _
    cases N with
    | zero => exact ⟨0, by omega, rfl⟩
    | succ N =>
      show ∃ k, k < N + 2 ∧ (if hardMax s (N + 1) ≤ s (N + 1) then s (N + 1) else hardMax s (N + 1)) = s k
      by_cases h : hardMax s (N + 1) ≤ s (N + 1)
      · rw [if_pos h]; exact ⟨N + 1, by omega, rfl⟩
      · rw [if_neg h]
        obtain ⟨k, hk, e⟩ := ih (by omega)
        exact ⟨k, by omega, e⟩

/-- No key counted. -/
theorem countMax_zero {p : Nat → Bool} : ∀ {N : Nat}, (∀ k, k < N → p k = false) → countMax p N = 0
  | 0, _ => rfl
  | N + 1, h => by
    show countMax p N + (if p N then 1 else 0) = 0
    rw [h N (by omega), countMax_zero (fun k hk => h k (by omega))]
    rfl

/-- Exactly one key counted. -/
theorem countMax_single {p : Nat → Bool} {N t : Nat} (ht : t < N) (h : ∀ k, k < N → (p k = true ↔ k = t)) :
    countMax p N = 1 := by
  induction N with
  | zero => omega
  | succ N ih =>
    show countMax p N + (if p N then 1 else 0) = 1
    by_cases htN : t = N
    · have h0 : countMax p N = 0 := countMax_zero (fun k hk => by
        have := h k (by omega)
        cases hp : p k
        · rfl
        · exact absurd (this.mp hp) (by omega))
      rw [h0, (h N (by omega)).mpr htN.symm]
      rfl
    · rw [ih (by omega) (fun k hk => h k (by omega))]
      have : p N = false := by
        cases hp : p N
        · rfl
        · exact absurd ((h N (by omega)).mp hp).symm htN
      rw [this]; rfl

/-- Average-hard attention: when key `t` scores strictly above every other key, it gets weight `1`
and every other key `0`. -/
theorem ahard_of_unique {s : Nat → α} {N t : Nat} (ht : t < N) (h : ∀ k, k < N → k ≠ t → s k < s t) :
    ∀ k, k < N → ahard s N k = if k = t then 1 else 0 := by
  have hmax : hardMax s N = s t := by
    obtain ⟨k0, hk0, e⟩ := smax_mem s N (by omega)
    by_cases hk : k0 = t
    · rw [e, hk]
    · have h1 := smax_ge s N t ht
      have h2 := h k0 hk0 hk
      rw [e] at h1
      exact absurd h1 (Std.not_le.mpr h2)
  have hiff : ∀ k, k < N → (decide (s k = hardMax s N) = true ↔ k = t) := by
    intro k hk
    rw [hmax, decide_eq_true_iff]
    constructor
    · intro e
      refine Classical.byContradiction (fun hne => ?_)
      have := h k hk hne
      rw [e] at this
      exact Std.not_le.mpr this (Std.le_refl _)
    · intro e; rw [e]
  have hc := countMax_single ht hiff
  intro k hk
  unfold ahard
  rw [hc, hmax]
  by_cases hkt : k = t
  · rw [if_pos (by rw [hkt]), if_pos hkt, natCast_succ, natCast_zero]; grind
  · rw [if_neg (fun e => hkt ((hiff k hk).mp (by rw [hmax]; exact decide_eq_true e))), if_neg hkt]

end HardFacts

end HardSoft.Cert

end
