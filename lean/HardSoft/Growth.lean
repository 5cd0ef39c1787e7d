module

public import HardSoft.Composition

/-!
# Activation growth (statement G, Lemma 29), for every size

Lemma 29 of Yang, Strobl, Chiang, Angluin, "Simulating Hard Attention Using Soft Attention"
(arXiv 2412.09925) bounds how fast activations grow through the layers. The project's statement
G, proved here for every dimension `d`, number of keys `N`, heads `H`, feed-forward width `m` and
depth `L`, with the layer written out coordinate by coordinate (no layer norm):

* the attention sublayer `y_l = x_l + Σ_h Σ_k (Σ_j w_{h,j} x_{j,k}) V_{h,k,l}`, for any weights `w_h`
  that are non-negative and sum to `1` (hard or soft attention alike), has
  `‖y‖_∞ ≤ (1 + Σ_h |V_h|_col) X` when every key and the query have `‖x‖_∞ ≤ X`;
* the feed-forward sublayer `z_l = y_l + Σ_c ReLU(Σ_k y_k W1_{k,c} + b1_c) W2_{c,l} + b2_l` has
  `‖z‖_∞ ≤ (1 + |W1|_col |W2|_col) ‖y‖_∞ + ‖b1‖_∞ |W2|_col + ‖b2‖_∞` (`Lip F ≤ |W1|_col |W2|_col`);
* so the bounds `X_(l+1) ≤ g X_l + c` give `X_L ≤ g^L X_0 + B_L(g, c)`, with `B_L(g, c) = c (g^L -
  1)/(g - 1)` the layer-error recursion (`bound_closed_form`): geometric in `L`, linear in `X_0 =
  max ‖WE + PE‖`.

`|M|_col` is the largest column sum `max_l Σ_k |M_{k,l}|` (given as an upper bound on every column's
sum), so that `‖u M‖_∞ ≤ ‖u‖_∞ |M|_col`.

## Main definitions

* `HardSoft.mixRows w x N k = Σ_{j<N} w_j x_{j,k}` (an attention average, coordinate `k`),
  `HardSoft.vecMat u M d l = Σ_{k<d} u_k M_{k,l}` (a row vector times a matrix, coordinate `l`).
* `HardSoft.attnResidual`, `HardSoft.ffnResidual`: the two residual sublayers.

## Main results

* `HardSoft.activation_growth`: one layer (statement G).
* `HardSoft.activation_growth_layers`: `L` layers, `X_L ≤ g^L X_0 + B_L(g, c)`.
-/

@[expose] public section

set_option autoImplicit false

namespace HardSoft

variable {α : Type} [Lean.Grind.Field α]

/-- Lemma 29 (statement G), definition: coordinate `k` of the attention average `Σ_{j<N} w_j x_j`
of the key vectors `x_j` with weights `w_j`. -/
noncomputable def mixRows (w : Nat → α) (x : Nat → Nat → α) (N k : Nat) : α :=
  sumTo (fun j => w j * x j k) N

/-- Lemma 29 (statement G), definition: coordinate `l` of the row vector `u` (dimension `d`) times the
matrix `M`, `Σ_{k<d} u_k M_{k,l}`. -/
noncomputable def vecMat (u : Nat → α) (M : Nat → Nat → α) (d l : Nat) : α :=
  sumTo (fun k => u k * M k l) d

/-- Lemma 29 (statement G), definition: coordinate `l` of the attention sublayer's output at a query
with residual `xq`: `xq_l + Σ_{h<H} (Σ_{j<N} w_{h,j} x_j) V_h` (head `h` with weights `w h` over the
`N` keys `x_j` and value-output matrix `V h = W_V W_O`, dimension `d`). -/
noncomputable def attnResidual (xq : Nat → α) (x : Nat → Nat → α) (w : Nat → Nat → α) (V : Nat → Nat → Nat → α)
    (N d H l : Nat) : α :=
  xq l + sumTo (fun h => vecMat (fun k => mixRows (w h) x N k) (V h) d l) H

variable [LE α]

/-- Lemma 29 (statement G), definition: coordinate `l` of the feed-forward sublayer's output,
`y_l + Σ_{c<m} ReLU(Σ_{k<d} y_k W1_{k,c} + b1_c) W2_{c,l} + b2_l`. -/
noncomputable def ffnResidual (y : Nat → α) (W1 : Nat → Nat → α) (b1 : Nat → α)
    (W2 : Nat → Nat → α) (b2 : Nat → α) (d m l : Nat) : α :=
  y l + vecMat (fun c => relu (vecMat y W1 d c + b1 c)) W2 m l + b2 l

end HardSoft

end

public section

set_option autoImplicit false

namespace HardSoft

open Lean.Grind

variable {α : Type} [Lean.Grind.Field α] [LE α] [LT α] [Std.IsLinearOrder α]
  [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α]

/-- Lemma 29 (statement G), helper: `|u| ≤ U` gives `|u b| ≤ U |b|`. -/
theorem absv_mul_le_of_absv_le {u b U : α} (hu : absv u ≤ U) : absv (u * b) ≤ U * absv b := by
  have h := le_and_neg_le_of_absv_le hu
  by_cases hb : 0 ≤ b
  · rw [absv_of_nonneg hb]
    have h1 := OrderedRing.mul_le_mul_of_nonneg_right h.1 hb
    have h2 := OrderedRing.mul_le_mul_of_nonneg_right h.2 hb
    exact absv_le_of_two_sided h1 (by grind)
  · have hb' : 0 ≤ -b := by grind
    rw [absv_of_nonpos (a := b) (by grind)]
    have h1 := OrderedRing.mul_le_mul_of_nonneg_right h.1 hb'
    have h2 := OrderedRing.mul_le_mul_of_nonneg_right h.2 hb'
    apply absv_le_of_two_sided
    · grind
    · grind

/-- Lemma 29 (statement G), helper: `|ReLU x| ≤ |x|`. -/
theorem absv_relu_le (x : α) : absv (relu x) ≤ absv x := by
  unfold relu
  by_cases h : x ≤ 0
  · rw [if_pos h, absv_of_nonneg (Std.le_refl _), absv_of_nonpos h]; grind
  · rw [if_neg h]; exact Std.le_refl _

/-- Lemma 29 (statement G), helper: `|f_j| ≤ g_j` for `j < N` gives `|Σ_{j<N} f_j| ≤ Σ_{j<N} g_j`. -/
theorem absv_sumTo_le {f g : Nat → α} {N : Nat} (h : ∀ j, j < N → absv (f j) ≤ g j) :
    absv (sumTo f N) ≤ sumTo g N := by
  have h1 := mul_sumTo_le_of_le (f := f) (p := g) (q := g) (A := 1) (B := 0) (C := 1) (N := N)
    (fun j hj => by have := (le_and_neg_le_of_absv_le (h j hj)).1; grind)
  have h2 := mul_sumTo_le_of_le (f := g) (p := f) (q := f) (A := 1) (B := 0) (C := -1) (N := N)
    (fun j hj => by have := (le_and_neg_le_of_absv_le (h j hj)).2; grind)
  apply absv_le_of_two_sided
  · grind
  · grind

/-- Lemma 29 (statement G, an attention average): weights `w_j ≥ 0` summing to `1` over `N` keys
with `|x_{j,k}| ≤ X` give `|Σ_{j<N} w_j x_{j,k}| ≤ X`. -/
theorem absv_mixRows_le {w : Nat → α} {x : Nat → Nat → α} {N k : Nat} {X : α}
    (hw0 : ∀ j, j < N → 0 ≤ w j) (hw1 : sumTo w N = 1) (hx : ∀ j, j < N → absv (x j k) ≤ X) :
    absv (mixRows w x N k) ≤ X := by
  unfold mixRows
  have h := absv_sumTo_le (f := fun j => w j * x j k) (g := fun j => w j * X) (N := N)
    (fun j hj => by
      have := absv_mul_le_of_absv_le (b := w j) (hx j hj)
      rw [absv_of_nonneg (hw0 j hj)] at this
      show absv (w j * x j k) ≤ w j * X
      rw [CommSemiring.mul_comm (w j) (x j k), CommSemiring.mul_comm (w j) X]
      exact this)
  rw [sumTo_mul_const, hw1] at h
  grind

/-- Lemma 29 (statement G, a vector times a matrix): `|u_k| ≤ U` (`k < d`, `U ≥ 0`) and a column sum
`Σ_{k<d} |M_{k,l}| ≤ C` give `|Σ_{k<d} u_k M_{k,l}| ≤ U C`. -/
theorem absv_vecMat_le {u : Nat → α} {M : Nat → Nat → α} {d l : Nat} {U C : α} (hU : 0 ≤ U)
    (hu : ∀ k, k < d → absv (u k) ≤ U) (hM : sumTo (fun k => absv (M k l)) d ≤ C) :
    absv (vecMat u M d l) ≤ U * C := by
  unfold vecMat
  have h := absv_sumTo_le (f := fun k => u k * M k l) (g := fun k => absv (M k l) * U) (N := d)
    (fun k hk => by
      have := absv_mul_le_of_absv_le (b := M k l) (hu k hk)
      rw [CommSemiring.mul_comm U] at this
      exact this)
  rw [sumTo_mul_const] at h
  have := OrderedRing.mul_le_mul_of_nonneg_right hM hU
  grind

/-- Lemma 29 (statement G, activation growth through one layer, for every `d`, `N`, `H`, `m`): at a
query whose residual `xq` and every key `x_j` (`j < N`) have `‖·‖_∞ ≤ X` (`X ≥ 0`, dimension `d`),
with heads `h < H` whose weights `w_h` are non-negative and sum to `1` and whose value-output matrices
have column sums `≤ |V_h|_col` (`≥ 0`), the attention sublayer's output `y` has `‖y‖_∞ ≤ (1 + Σ_h
|V_h|_col) X =: Y`; and the feed-forward sublayer (width `m`; column sums `≤ |W1|_col`, `≤ |W2|_col`,
`‖b1‖_∞ ≤ β₁`, `‖b2‖_∞ ≤ β₂`, `|W1|_col, β₁ ≥ 0`) maps it to `‖z‖_∞ ≤ (1 + |W1|_col |W2|_col) Y + β₁
|W2|_col + β₂`. -/
theorem activation_growth {d N H m : Nat} {xq b1 b2 Vc : Nat → α} {x w W1 W2 : Nat → Nat → α}
    {V : Nat → Nat → Nat → α} {X W1c W2c b1n b2n : α} (hX : 0 ≤ X)
    (hxq : ∀ k, k < d → absv (xq k) ≤ X) (hx : ∀ j, j < N → ∀ k, k < d → absv (x j k) ≤ X)
    (hw0 : ∀ h, h < H → ∀ j, j < N → 0 ≤ w h j) (hw1 : ∀ h, h < H → sumTo (w h) N = 1)
    (hVc0 : ∀ h, h < H → 0 ≤ Vc h)
    (hV : ∀ h, h < H → ∀ l, l < d → sumTo (fun k => absv (V h k l)) d ≤ Vc h)
    (hW1c : 0 ≤ W1c) (hW1 : ∀ c, c < m → sumTo (fun k => absv (W1 k c)) d ≤ W1c)
    (hW2 : ∀ l, l < d → sumTo (fun c => absv (W2 c l)) m ≤ W2c)
    (hb1n : 0 ≤ b1n) (hb1 : ∀ c, c < m → absv (b1 c) ≤ b1n) (hb2 : ∀ l, l < d → absv (b2 l) ≤ b2n) :
    (∀ l, l < d → absv (attnResidual xq x w V N d H l) ≤ (1 + sumTo Vc H) * X) ∧
      (∀ l, l < d → absv (ffnResidual (attnResidual xq x w V N d H) W1 b1 W2 b2 d m l)
        ≤ (1 + W1c * W2c) * ((1 + sumTo Vc H) * X) + b1n * W2c + b2n) := by
  have hVs := sumTo_nonneg (f := Vc) (H := H) hVc0
  have hY0 : 0 ≤ (1 + sumTo Vc H) * X := OrderedRing.mul_nonneg (by grind) hX
  have hy : ∀ l, l < d → absv (attnResidual xq x w V N d H l) ≤ (1 + sumTo Vc H) * X := by
    intro l hl
    unfold attnResidual
    have hheads := absv_sumTo_le (f := fun h => vecMat (fun k => mixRows (w h) x N k) (V h) d l)
      (g := fun h => X * Vc h) (N := H)
      (fun h hh => absv_vecMat_le hX (fun k _ => absv_mixRows_le (hw0 h hh) (hw1 h hh)
        (fun j hj => hx j hj k (by omega))) (hV h hh l hl))
    have e : sumTo (fun h => X * Vc h) H = sumTo Vc H * X := by
      rw [← sumTo_mul_const]; exact sumTo_congr (fun h _ => CommSemiring.mul_comm X (Vc h))
    rw [e] at hheads
    have h1 := le_and_neg_le_of_absv_le (hxq l hl)
    have h2 := le_and_neg_le_of_absv_le hheads
    exact absv_le_of_two_sided (by grind) (by grind)
  refine ⟨hy, fun l hl => ?_⟩
  generalize hY : (1 + sumTo Vc H) * X = Y at hY0 hy ⊢
  unfold ffnResidual
  have hu : ∀ c, c < m → absv (relu (vecMat (attnResidual xq x w V N d H) W1 d c + b1 c))
      ≤ Y * W1c + b1n := by
    intro c hc
    have h1 := absv_vecMat_le hY0 hy (hW1 c hc)
    have h2 := le_and_neg_le_of_absv_le h1
    have h3 := le_and_neg_le_of_absv_le (hb1 c hc)
    exact Std.le_trans (absv_relu_le _) (absv_le_of_two_sided (by grind) (by grind))
  have hU0 : 0 ≤ Y * W1c + b1n := by have := OrderedRing.mul_nonneg hY0 hW1c; grind
  have hf := le_and_neg_le_of_absv_le (absv_vecMat_le hU0 hu (hW2 l hl))
  have hyl := le_and_neg_le_of_absv_le (hy l hl)
  have hb := le_and_neg_le_of_absv_le (hb2 l hl)
  exact absv_le_of_two_sided (by grind) (by grind)

/-- Lemma 29 (statement G, through `L` layers): activation bounds with `X_(l+1) ≤ g X_l + c` for every
layer `l < L` (`g ≥ 0`; by `activation_growth`, `g = (1 + Lip F)(1 + Σ_h |V_h|_col)` and `c = β₁
|W2|_col + β₂`, the largest over the layers) give `X_L ≤ g^L X_0 + B_L`, where `B` is the recursion
`B 0 = 0`, `B (l+1) = g B l + c` (`= c (g^L - 1)/(g - 1)` for `g ≠ 1`): geometric in `L`, linear in
`X_0`. -/
theorem activation_growth_layers {Xs : Nat → α} {g c : α} {L : Nat} (hg : 0 ≤ g)
    (hstep : ∀ l, l < L → Xs (l + 1) ≤ g * Xs l + c) :
    Xs L ≤ g ^ L * Xs 0 + bound (fun _ => g) (fun _ => c) L := by
  induction L with
  | zero => rw [pow_zero_eq, bound_zero, Lean.Grind.Semiring.one_mul, Lean.Grind.Semiring.add_zero]; exact Std.le_refl _
  | succ L ih =>
    have ih' := ih (fun l hl => hstep l (by omega))
    have h1 := OrderedRing.mul_le_mul_of_nonneg_left ih' hg
    have h2 := hstep L (by omega)
    rw [pow_succ_eq, bound_succ]
    grind

end HardSoft

end
