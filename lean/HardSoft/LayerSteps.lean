module

public import HardSoft.Growth

/-!
# The per-layer error bound for a concrete layer (statement P, Lemma 25)

`HardSoft.layer_err_le` (in `HardSoft.Layer`) proves Lemma 25 of Yang, Strobl, Chiang, Angluin,
"Simulating Hard Attention Using Soft Attention" (arXiv 2412.09925) from the scores, with the
layer's four linear-algebra steps (score, head, residual, feed-forward) as hypotheses about
numbers. This file writes the layer out coordinate by coordinate, with the definitions of
`HardSoft.Growth` (row vectors times matrices, `|M|_col` the largest column sum, given as an upper
bound on every column's sum, so that `‖u M‖_∞ ≤ ‖u‖_∞ |M|_col`), proves the four steps from the
definitions, and so proves Lemma 25 for the concrete layer from the exponential's facts alone:

* the bilinear score `s_j = x_q^T A x_j` has error `≤ |A|_sum (2 X ε + ε²)`, `|A|_sum` the sum of
  the absolute entries, when the exact vectors have `‖·‖_∞ ≤ X` and the perturbed ones are within
  `ε` (`bilinScore_err_le`);
* one head `(Σ_j w_j x_j) V` has error `≤ |V|_col ε + |V|_col X ‖w' - w‖₁` for perturbed weights
  `w' ≥ 0` summing to `1` (`head_out_err_le`);
* the residual stream `x_q + Σ_h head_h` has error `≤ ε + Σ_h` head error (`attnResidual_err_le`);
* the feed-forward sublayer `y + ReLU(y W1 + b1) W2 + b2` has error `≤ (1 + |W1|_col |W2|_col)`
  times its input error (ReLU is `1`-Lipschitz; `ffnResidual_err_le`).

The layer has no layer norm; the query's residual `x_q` is any vector (in a transformer it is one
of the `x_j`, the query's own position), and the weight norms are hypotheses as upper bounds
(`|Q_h|_sum ≤ A_h`, every column sum of `V_h` `≤ B_h`), so the exact norms are one instance.

## Main definitions

* `HardSoft.bilinScore u M v d = Σ_{l<d} (Σ_{k<d} u_k M_{k,l}) v_l`, the score `u^T M v`.
* `HardSoft.absSum M d = Σ_{l<d} Σ_{k<d} |M_{k,l}|`, the norm `|A|_sum`.

## Main results

* `HardSoft.bilinScore_err_le`, `HardSoft.head_out_err_le`, `HardSoft.attnResidual_err_le`,
  `HardSoft.ffnResidual_err_le`: the four steps.
* `HardSoft.layer_err_le_concrete`: Lemma 25 (statement P) for the concrete layer run with softmax
  at `τ` on the perturbed input and with average-hard attention on the exact input.
-/

@[expose] public section

set_option autoImplicit false

namespace HardSoft

variable {α : Type} [Lean.Grind.Field α]

/-- Lemma 25 (statement P), helper: `Σ f - Σ g = Σ (f - g)`. -/
theorem sumTo_sub_sumTo (f g : Nat → α) (N : Nat) :
    sumTo f N - sumTo g N = sumTo (fun j => f j - g j) N := by
  induction N with
  | zero => rw [sumTo_zero, sumTo_zero, sumTo_zero]; grind
  | succ n ih => rw [sumTo_succ, sumTo_succ, sumTo_succ, ← ih]; grind

/-- Lemma 25 (statement P), helper: `Σ_j (f_j a + b g_j) = (Σ f) a + b Σ g`. -/
theorem sumTo_mul_add_mul (f g : Nat → α) (a b : α) (N : Nat) :
    sumTo (fun j => f j * a + b * g j) N = sumTo f N * a + b * sumTo g N := by
  induction N with
  | zero => rw [sumTo_zero, sumTo_zero, sumTo_zero]; grind
  | succ n ih => rw [sumTo_succ, sumTo_succ, sumTo_succ, ih]; grind

/-- Lemma 25 (statement P), helper: `u M - v M = (u - v) M` (coordinate `l`). -/
theorem vecMat_sub (u v : Nat → α) (M : Nat → Nat → α) (d l : Nat) :
    vecMat u M d l - vecMat v M d l = vecMat (fun k => u k - v k) M d l := by
  unfold vecMat
  rw [sumTo_sub_sumTo]
  exact sumTo_congr (fun k _ => by grind)

/-- Lemma 25 (statement P), definition: the bilinear score `u^T M v = Σ_{l<d} (Σ_{k<d} u_k M_{k,l})
v_l` of a query `u` and a key `v` (dimension `d`) under the query-key matrix `M = W_Q W_Kᵀ`. -/
noncomputable def bilinScore (u : Nat → α) (M : Nat → Nat → α) (v : Nat → α) (d : Nat) : α :=
  sumTo (fun l => vecMat u M d l * v l) d

variable [LE α]

/-- Lemma 25 (statement P), definition: the norm `|M|_sum = Σ_{l<d} Σ_{k<d} |M_{k,l}|`, the sum of
the absolute entries of a `d × d` matrix. -/
noncomputable def absSum (M : Nat → Nat → α) (d : Nat) : α :=
  sumTo (fun l => sumTo (fun k => absv (M k l)) d) d

end HardSoft

end

public section

set_option autoImplicit false

namespace HardSoft

open Lean.Grind

variable {α : Type} [Lean.Grind.Field α] [LE α] [LT α] [Std.IsLinearOrder α]
  [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α]

/-! ### Helpers -/

/-- Lemma 25 (statement P), helper: `|a| ≤ p` and `|b| ≤ q` give `|a + b| ≤ p + q`. -/
theorem absv_add_le_of_le {a b p q : α} (ha : absv a ≤ p) (hb : absv b ≤ q) :
    absv (a + b) ≤ p + q := by
  have h1 := le_and_neg_le_of_absv_le ha
  have h2 := le_and_neg_le_of_absv_le hb
  exact absv_le_of_two_sided (by grind) (by grind)

/-- Lemma 25 (statement P), helper: `|a| ≤ p`, `|b| ≤ q` and `p ≥ 0` give `|a b| ≤ p q`. -/
theorem absv_mul_le_mul_of_le {a b p q : α} (hp : 0 ≤ p) (ha : absv a ≤ p) (hb : absv b ≤ q) :
    absv (a * b) ≤ p * q :=
  Std.le_trans (absv_mul_le_of_absv_le ha) (OrderedRing.mul_le_mul_of_nonneg_left hb hp)

/-- Lemma 25 (statement P), helper: `|a' b' - a b| ≤ 2 X ε + ε²` when `|a|, |b| ≤ X` and
`|a' - a|, |b' - b| ≤ ε` (`X, ε ≥ 0`). -/
theorem absv_mul_sub_mul_le {a b a' b' X eps : α} (hX : 0 ≤ X) (h0 : 0 ≤ eps)
    (ha : absv a ≤ X) (hb : absv b ≤ X) (ha' : absv (a' - a) ≤ eps) (hb' : absv (b' - b) ≤ eps) :
    absv (a' * b' - a * b) ≤ 2 * X * eps + eps * eps := by
  have e : a' * b' - a * b = (a' - a) * (b' - b) + ((a' - a) * b + a * (b' - b)) := by grind
  rw [e]
  have h1 := absv_mul_le_mul_of_le h0 ha' hb'
  have h2 := absv_mul_le_mul_of_le h0 ha' hb
  have h3 := absv_mul_le_mul_of_le hX ha hb'
  have := absv_add_le_of_le h1 (absv_add_le_of_le h2 h3)
  grind

/-- Lemma 25 (statement P), helper: `|M|_sum ≥ 0`. -/
theorem absSum_nonneg (M : Nat → Nat → α) (d : Nat) : 0 ≤ absSum M d :=
  sumTo_nonneg (fun _ _ => sumTo_nonneg (fun _ _ => absv_nonneg _))

/-- Lemma 25 (statement P), helper: ReLU is `1`-Lipschitz, `|ReLU a - ReLU b| ≤ |a - b|`. -/
theorem absv_relu_sub_le (a b : α) : absv (relu a - relu b) ≤ absv (a - b) := by
  have h := le_and_neg_le_of_absv_le (Std.le_refl (absv (a - b)))
  unfold relu
  apply absv_le_of_two_sided
  · by_cases ha : a ≤ 0 <;> by_cases hb : b ≤ 0 <;> simp only [ha, hb, if_true, if_false] <;> grind
  · by_cases ha : a ≤ 0 <;> by_cases hb : b ≤ 0 <;> simp only [ha, hb, if_true, if_false] <;> grind

/-! ### The four steps -/

/-- Lemma 25 (statement P, the score step): if `‖u‖_∞, ‖v‖_∞ ≤ X` and `‖u' - u‖_∞, ‖v' - v‖_∞ ≤ ε`
(dimension `d`, `X, ε ≥ 0`), the bilinear scores differ by `|u'^T M v' - u^T M v| ≤ |M|_sum (2 X ε +
ε²)`. -/
theorem bilinScore_err_le {u v u' v' : Nat → α} {M : Nat → Nat → α} {d : Nat} {X eps : α}
    (hX : 0 ≤ X) (h0 : 0 ≤ eps) (hu : ∀ k, k < d → absv (u k) ≤ X)
    (hv : ∀ k, k < d → absv (v k) ≤ X) (hu' : ∀ k, k < d → absv (u' k - u k) ≤ eps)
    (hv' : ∀ k, k < d → absv (v' k - v k) ≤ eps) :
    absv (bilinScore u' M v' d - bilinScore u M v d) ≤ absSum M d * (2 * X * eps + eps * eps) := by
  have e : bilinScore u' M v' d - bilinScore u M v d
      = sumTo (fun l => sumTo (fun k => (u' k * v' l - u k * v l) * M k l) d) d := by
    unfold bilinScore
    rw [sumTo_sub_sumTo]
    apply sumTo_congr
    intro l _
    unfold vecMat
    rw [← sumTo_mul_const, ← sumTo_mul_const, sumTo_sub_sumTo]
    exact sumTo_congr (fun k _ => by grind)
  rw [e]
  have h := absv_sumTo_le (N := d)
    (f := fun l => sumTo (fun k => (u' k * v' l - u k * v l) * M k l) d)
    (g := fun l => sumTo (fun k => absv (M k l)) d * (2 * X * eps + eps * eps))
    (fun l hl => by
      have h2 := absv_sumTo_le (N := d) (f := fun k => (u' k * v' l - u k * v l) * M k l)
        (g := fun k => absv (M k l) * (2 * X * eps + eps * eps))
        (fun k hk => by
          have := absv_mul_le_of_absv_le (b := M k l)
            (absv_mul_sub_mul_le hX h0 (hu k hk) (hv l hl) (hu' k hk) (hv' l hl))
          show absv ((u' k * v' l - u k * v l) * M k l) ≤ absv (M k l) * (2 * X * eps + eps * eps)
          rw [CommSemiring.mul_comm (absv (M k l))]
          exact this)
      rw [sumTo_mul_const] at h2
      exact h2)
  rw [sumTo_mul_const] at h
  exact h

/-- Lemma 25 (statement P, the head step): a head with value-output matrix `V` (every column sum
`Σ_{k<d} |V_{k,l}| ≤ B`), exact keys `‖x_j‖_∞ ≤ X` and perturbed keys within `ε` (`j < N`),
exact weights `w` and perturbed weights `w' ≥ 0` summing to `1`: the head outputs `(Σ_j w'_j x'_j) V`
and `(Σ_j w_j x_j) V` differ in every coordinate `l < d` by `≤ B ε + B X ‖w' - w‖₁`. -/
theorem head_out_err_le {w w' : Nat → α} {x x' V : Nat → Nat → α} {N d : Nat} {B X eps : α}
    (hX : 0 ≤ X) (h0 : 0 ≤ eps)
    (hV : ∀ l, l < d → sumTo (fun k => absv (V k l)) d ≤ B)
    (hx : ∀ j, j < N → ∀ k, k < d → absv (x j k) ≤ X)
    (hx' : ∀ j, j < N → ∀ k, k < d → absv (x' j k - x j k) ≤ eps)
    (hw0 : ∀ j, j < N → 0 ≤ w' j) (hw1 : sumTo w' N = 1) :
    ∀ l, l < d → absv (vecMat (fun k => mixRows w' x' N k) V d l - vecMat (fun k => mixRows w x N k) V d l)
      ≤ B * eps + B * X * sumTo (fun j => absv (w' j - w j)) N := by
  intro l hl
  have hD := sumTo_nonneg (f := fun j => absv (w' j - w j)) (H := N) (fun _ _ => absv_nonneg _)
  have hU : 0 ≤ eps + X * sumTo (fun j => absv (w' j - w j)) N := by
    have := OrderedRing.mul_nonneg hX hD; grind
  have hmix : ∀ k, k < d → absv (mixRows w' x' N k - mixRows w x N k)
      ≤ eps + X * sumTo (fun j => absv (w' j - w j)) N := by
    intro k hk
    unfold mixRows
    rw [sumTo_sub_sumTo]
    have h := absv_sumTo_le (N := N) (f := fun j => w' j * x' j k - w j * x j k)
      (g := fun j => w' j * eps + X * absv (w' j - w j))
      (fun j hj => by
        have e : w' j * x' j k - w j * x j k = w' j * (x' j k - x j k) + x j k * (w' j - w j) := by
          grind
        show absv (w' j * x' j k - w j * x j k) ≤ w' j * eps + X * absv (w' j - w j)
        rw [e]
        have hw := hw0 j hj
        have h1 := absv_mul_le_mul_of_le hw (by rw [absv_of_nonneg hw]; exact Std.le_refl _)
          (hx' j hj k hk)
        exact absv_add_le_of_le h1 (absv_mul_le_of_absv_le (hx j hj k hk)))
    rw [sumTo_mul_add_mul, hw1] at h
    grind
  rw [vecMat_sub]
  have := absv_vecMat_le hU hmix (hV l hl)
  grind

/-- Lemma 25 (statement P, the residual step): if the query's residual differs by `≤ ε` in
coordinate `l` and every head `h < H` by `≤ headErr_h`, the attention sublayer's outputs
`x_q + Σ_h head_h` differ in coordinate `l` by `≤ ε + Σ_h headErr_h`. -/
theorem attnResidual_err_le {xq xq' headErr : Nat → α} {x x' w w' : Nat → Nat → α}
    {V : Nat → Nat → Nat → α} {N d H l : Nat} {eps : α} (hq : absv (xq' l - xq l) ≤ eps)
    (hhead : ∀ h, h < H → absv (vecMat (fun k => mixRows (w' h) x' N k) (V h) d l
      - vecMat (fun k => mixRows (w h) x N k) (V h) d l) ≤ headErr h) :
    absv (attnResidual xq' x' w' V N d H l - attnResidual xq x w V N d H l)
      ≤ eps + sumTo headErr H := by
  unfold attnResidual
  have h := absv_sumTo_le (N := H) (g := headErr)
    (f := fun h => vecMat (fun k => mixRows (w' h) x' N k) (V h) d l
      - vecMat (fun k => mixRows (w h) x N k) (V h) d l) hhead
  rw [← sumTo_sub_sumTo] at h
  have := absv_add_le_of_le hq h
  grind

/-- Lemma 25 (statement P, the feed-forward step): if the sublayer inputs differ by `‖y' - y‖_∞ ≤ δ`
(dimension `d`, `δ ≥ 0`) and the feed-forward matrices have column sums `≤ |W1|_col` (`≥ 0`, width
`m`) and `≤ |W2|_col`, the outputs `y + ReLU(y W1 + b1) W2 + b2` differ in every coordinate `l < d`
by `≤ (1 + |W1|_col |W2|_col) δ` (`Lip F = |W1|_col |W2|_col`, ReLU `1`-Lipschitz). -/
theorem ffnResidual_err_le {y y' b1 b2 : Nat → α} {W1 W2 : Nat → Nat → α} {d m : Nat}
    {W1c W2c del : α} (hdel : 0 ≤ del) (hW1c : 0 ≤ W1c)
    (hW1 : ∀ c, c < m → sumTo (fun k => absv (W1 k c)) d ≤ W1c)
    (hW2 : ∀ l, l < d → sumTo (fun c => absv (W2 c l)) m ≤ W2c)
    (hy : ∀ k, k < d → absv (y' k - y k) ≤ del) :
    ∀ l, l < d → absv (ffnResidual y' W1 b1 W2 b2 d m l - ffnResidual y W1 b1 W2 b2 d m l)
      ≤ (1 + W1c * W2c) * del := by
  intro l hl
  have hU : 0 ≤ del * W1c := OrderedRing.mul_nonneg hdel hW1c
  have hr : ∀ c, c < m → absv (relu (vecMat y' W1 d c + b1 c) - relu (vecMat y W1 d c + b1 c))
      ≤ del * W1c := by
    intro c hc
    have e : vecMat y' W1 d c + b1 c - (vecMat y W1 d c + b1 c) = vecMat (fun k => y' k - y k) W1 d c := by
      rw [← vecMat_sub]; grind
    have := absv_vecMat_le hdel hy (hW1 c hc)
    rw [← e] at this
    exact Std.le_trans (absv_relu_sub_le _ _) this
  have h2 := absv_vecMat_le hU hr (hW2 l hl)
  rw [← vecMat_sub] at h2
  unfold ffnResidual
  have := absv_add_le_of_le (hy l hl) h2
  have e : y' l + vecMat (fun c => relu (vecMat y' W1 d c + b1 c)) W2 m l + b2 l
      - (y l + vecMat (fun c => relu (vecMat y W1 d c + b1 c)) W2 m l + b2 l)
      = (y' l - y l) + (vecMat (fun c => relu (vecMat y' W1 d c + b1 c)) W2 m l
        - vecMat (fun c => relu (vecMat y W1 d c + b1 c)) W2 m l) := by grind
  rw [e]
  grind

/-! ### The concrete layer -/

/-- Lemma 25 (statement P, per-layer error of a concrete layer): a layer of dimension `d` with `H`
heads over `N` keys (query-key matrices `Q_h`, value-output matrices `V_h`) and a feed-forward
sublayer of width `m` (`W1`, `b1`, `W2`, `b2`), run in hard mode on the exact input (query residual
`x_q`, keys `x_j`; scores `s_{h,j} = x_qᵀ Q_h x_j`, average-hard attention over the max set `M_h`:
`m_h ≥ 1` positions at `s_max,h`, every other score `≤ s_max,h - γ`) and in soft mode on a perturbed
input (`x'_q`, `x'_j`; softmax at `τ > 0` of its own scores), for any exponential with `ExpLike`'s
properties and fact F5 (`ExpLike.LogMean`). If `‖x_q‖_∞, ‖x_j‖_∞ ≤ X` (`X ≥ 0`), the perturbed input
is within `0 ≤ ε ≤ 1` in every coordinate, `|Q_h|_sum ≤ A_h`, every column sum of `V_h` is `≤ B_h`
(`B_h ≥ 0`), of `W1` `≤ |W1|_col` and of `W2` `≤ |W2|_col` (both `≥ 0`), then the outputs differ in
every coordinate by `≤ r ε + a` with `Lip F = |W1|_col |W2|_col`,
`r = (1 + Lip F) (1 + Σ_h B_h (1 + X (2X + 1) A_h / τ))` and
`a = 2 (1 + Lip F) X (N - 1) e^{-γ/τ} Σ_h B_h`. The score, head, residual and feed-forward steps are
proved from the definitions (`bilinScore_err_le`, `head_out_err_le`, `attnResidual_err_le`,
`ffnResidual_err_le`) and combined by `layer_err_le`. -/
theorem layer_err_le_concrete (E : ExpLike α) (hE : ExpLike.LogMean E) {d N H m : Nat}
    {xq xq' b1 b2 A B smax : Nat → α} {x x' W1 W2 : Nat → Nat → α} {Q V : Nat → Nat → Nat → α}
    {isMax : Nat → Nat → Bool} {X tau gamma eps W1c W2c : α}
    (hX : 0 ≤ X) (htau : 0 < tau) (h0 : 0 ≤ eps) (h1 : eps ≤ 1)
    (hxq : ∀ k, k < d → absv (xq k) ≤ X) (hx : ∀ j, j < N → ∀ k, k < d → absv (x j k) ≤ X)
    (hxq' : ∀ k, k < d → absv (xq' k - xq k) ≤ eps)
    (hx' : ∀ j, j < N → ∀ k, k < d → absv (x' j k - x j k) ≤ eps)
    (hA : ∀ h, h < H → absSum (Q h) d ≤ A h)
    (hB0 : ∀ h, h < H → 0 ≤ B h)
    (hB : ∀ h, h < H → ∀ l, l < d → sumTo (fun k => absv (V h k l)) d ≤ B h)
    (hW1c : 0 ≤ W1c) (hW1 : ∀ c, c < m → sumTo (fun k => absv (W1 k c)) d ≤ W1c)
    (hW2c : 0 ≤ W2c) (hW2 : ∀ l, l < d → sumTo (fun c => absv (W2 c l)) m ≤ W2c)
    (hmax : ∀ h, h < H → ∀ j, j < N → isMax h j = true → bilinScore xq (Q h) (x j) d = smax h)
    (hgap : ∀ h, h < H → ∀ j, j < N → isMax h j = false →
      bilinScore xq (Q h) (x j) d ≤ smax h - gamma)
    (hm : ∀ h, h < H → 0 < countMax (isMax h) N) :
    ∀ l, l < d → absv (ffnResidual (attnResidual xq' x'
        (fun h => softmax E tau (fun j => bilinScore xq' (Q h) (x' j) d) N) V N d H) W1 b1 W2 b2 d m l
      - ffnResidual (attnResidual xq x (fun h => ahardmax (isMax h) N) V N d H) W1 b1 W2 b2 d m l)
      ≤ (1 + W1c * W2c) * (1 + sumTo (fun h => B h * (1 + X * (2 * X + 1) * A h / tau)) H) * eps
        + 2 * (1 + W1c * W2c) * X * natCast (N - 1) * E.exp (-gamma / tau) * sumTo B H := by
  intro l hl
  have hhead : ∀ h, h < H → ∀ k, k < d →
      absv (vecMat (fun i => mixRows (softmax E tau (fun j => bilinScore xq' (Q h) (x' j) d) N) x' N i)
          (V h) d k - vecMat (fun i => mixRows (ahardmax (isMax h) N) x N i) (V h) d k)
        ≤ B h * eps + B h * X * sumTo (fun j => absv (softmax E tau
          (fun j => bilinScore xq' (Q h) (x' j) d) N j - ahardmax (isMax h) N j)) N := by
    intro h hh
    have hN : 0 < N := Nat.lt_of_lt_of_le (hm h hh) (countMax_le _ _)
    have hW := sumTo_exp_pos E (fun k => bilinScore xq' (Q h) (x' k) d / tau) hN
    exact head_out_err_le hX h0 (hB h hh) hx hx'
      (fun j _ => div_nonneg_of_nonneg (Std.le_of_lt (E.pos _)) hW)
      (sumTo_softmax_eq_one_of_pos E tau _ hN)
  have hy : ∀ k, k < d → absv (attnResidual xq' x'
        (fun h => softmax E tau (fun j => bilinScore xq' (Q h) (x' j) d) N) V N d H k
      - attnResidual xq x (fun h => ahardmax (isMax h) N) V N d H k)
      ≤ eps + sumTo (fun h => B h * eps + B h * X * sumTo (fun j => absv (softmax E tau
          (fun j => bilinScore xq' (Q h) (x' j) d) N j - ahardmax (isMax h) N j)) N) H :=
    fun k hk => attnResidual_err_le (hxq' k hk) (fun h hh => hhead h hh k hk)
  have hdel := Std.le_trans (absv_nonneg _) (hy l hl)
  have hout := ffnResidual_err_le (b1 := b1) (b2 := b2) hdel hW1c hW1 hW2 hy l hl
  have hc : 0 ≤ 2 * X * eps + eps * eps := by
    have := OrderedRing.mul_nonneg hX h0
    have := OrderedRing.mul_nonneg h0 h0
    grind
  exact layer_err_le E hE (H := H) (N := N) (A := A) (B := B)
    (headErr := fun h => B h * eps + B h * X * sumTo (fun j => absv (softmax E tau
          (fun j => bilinScore xq' (Q h) (x' j) d) N j - ahardmax (isMax h) N j)) N)
    (sSoft := fun h j => bilinScore xq' (Q h) (x' j) d)
    (sHard := fun h j => bilinScore xq (Q h) (x j) d)
    (yErr := eps + sumTo (fun h => B h * eps + B h * X * sumTo (fun j => absv (softmax E tau
          (fun j => bilinScore xq' (Q h) (x' j) d) N j - ahardmax (isMax h) N j)) N) H)
    (fun h hh => Std.le_trans (absSum_nonneg _ _) (hA h hh)) hB0 hX htau
    (OrderedRing.mul_nonneg hW1c hW2c) h0 h1
    (fun h hh j hj => Std.le_trans
      (bilinScore_err_le hX h0 hxq (hx j hj) hxq' (hx' j hj))
      (OrderedRing.mul_le_mul_of_nonneg_right (hA h hh) hc))
    hmax hgap hm (fun _ _ => Std.le_refl _) (Std.le_refl _) hout

end HardSoft

end
