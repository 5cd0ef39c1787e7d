module

public import HardSoft.Lipschitz

/-!
# The per-layer error bound (statement P, Lemma 25)

Lemma 25 of Yang, Strobl, Chiang, Angluin bounds the error of one transformer layer run with
softmax attention at temperature `τ` against the same layer run with average-hard attention,
as an affine function `r ε + a` of the layer's input error `ε`, provided `ε ≤ 1`. The
linear-algebra facts (the score error, the Lipschitz bound of softmax, statement E, the head,
residual and feed-forward steps) are taken here as hypotheses about real numbers (errors and
norms); what this file proves is the algebra of combining them, for any number `H` of heads
and any number `N` of unmasked positions, over an ordered field `α` (`HardSoft.LayerSteps`
proves the score, head, residual and feed-forward steps for a layer written out coordinate by
coordinate, `layer_err_le_concrete`):

* `ε² ≤ ε` exactly when `ε ≤ 1` (for `ε ≥ 0`): this is where the guard `ε ≤ 1` enters, so
  that the score error `|A|_sum (2 X ε + ε²)` is at most `|A|_sum (2X + 1) ε`;
* the output error is at most `r ε + a` with
  `r = (1 + Lip F) (1 + Σ_h |B_h|_col (1 + X (2X + 1) |A_h|_sum / τ))` and
  `a = 2 (1 + Lip F) X (N - 1) x Σ_h |B_h|_col`, `x = e^{-γ/τ}`.

## Main results

* `HardSoft.mul_self_le_self_of_le_one`, `HardSoft.score_err_le`: the guard step.
* `HardSoft.score_err_le_iff`, `HardSoft.not_score_err_le_of_one_lt`: without `ε ≤ 1` it
  fails (every `ε > 1` is a witness).
* `HardSoft.head_err_le`: one head.
* `HardSoft.layer_err_le`: the whole layer (statement P).
-/

public section

set_option autoImplicit false

namespace HardSoft

open Lean.Grind

variable {α : Type} [Lean.Grind.Field α] [LE α] [LT α] [Std.IsLinearOrder α]
  [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α]

/-! ### Where the guard `ε ≤ 1` enters -/

/-- Lemma 25 (statement P, the guard): `0 ≤ ε ≤ 1` gives `ε² ≤ ε` (written `ε * ε`). -/
theorem mul_self_le_self_of_le_one {eps : α} (h0 : 0 ≤ eps) (h1 : eps ≤ 1) :
    eps * eps ≤ eps := by
  have := OrderedRing.mul_le_mul_of_nonneg_left h1 h0
  rwa [Semiring.mul_one] at this

/-- Lemma 25 (statement P, score error): for `|A|_sum ≥ 0` and an input error `0 ≤ ε ≤ 1`, the
score error bound `|A|_sum (2 X ε + ε²)` is at most `|A|_sum (2 X + 1) ε`; the guard enters
exactly through `ε² ≤ ε`. -/
theorem score_err_le {A X eps : α} (hA : 0 ≤ A) (h0 : 0 ≤ eps) (h1 : eps ≤ 1) :
    A * (2 * X * eps + eps * eps) ≤ A * (2 * X + 1) * eps := by
  have h := mul_self_le_self_of_le_one h0 h1
  have := OrderedRing.mul_le_mul_of_nonneg_left h hA
  grind

/-- Lemma 25 (statement P, the guard cannot be dropped, witness): for `|A|_sum > 0` and any
input error `ε > 1`, the step from `|A|_sum (2 X ε + ε²)` to `|A|_sum (2 X + 1) ε` fails. -/
theorem not_score_err_le_of_one_lt {A X eps : α} (hA : 0 < A) (h1 : 1 < eps) :
    ¬ A * (2 * X * eps + eps * eps) ≤ A * (2 * X + 1) * eps := by
  intro h
  have h0 : (0 : α) < eps := by have := OrderedRing.zero_lt_one (R := α); grind
  have hsq := OrderedRing.mul_lt_mul_of_pos_left h1 h0
  have hd : (0 : α) < eps * eps - eps := by grind
  have := OrderedRing.mul_pos hA hd
  grind

/-- Lemma 25 (statement P, the guard is exact): for `|A|_sum > 0` and `ε ≥ 0`, the score-error
step `|A|_sum (2 X ε + ε²) ≤ |A|_sum (2 X + 1) ε` holds if and only if `ε ≤ 1`. -/
theorem score_err_le_iff {A X eps : α} (hA : 0 < A) (h0 : 0 ≤ eps) :
    A * (2 * X * eps + eps * eps) ≤ A * (2 * X + 1) * eps ↔ eps ≤ 1 := by
  constructor
  · intro h
    apply Classical.byContradiction
    intro hne
    exact not_score_err_le_of_one_lt hA (by grind) h
  · intro h1
    exact score_err_le (by grind) h0 h1

/-! ### One head -/

/-- Lemma 25 (statement P, one head): with `|A|_sum, |B|_col, X ≥ 0`, `τ > 0` and input error `0 ≤
ε ≤ 1`, the facts
* score error `≤ |A|_sum (2 X ε + ε²)`,
* `‖α' - α̃‖₁ ≤ score error / τ` (statement S, softmax is `1/τ`-Lipschitz),
* `‖α̃ - α‖₁ ≤ 2 (N-1) x` (statement E, `α̃` softmax of the exact scores, `α` hardmax),
* `‖α' - α‖₁ ≤ ‖α' - α̃‖₁ + ‖α̃ - α‖₁` (triangle inequality),
* head output error `≤ |B|_col ε + |B|_col X ‖α' - α‖₁`
give head output error `≤ |B|_col (1 + X (2X + 1) |A|_sum / τ) ε + 2 X (N-1) x |B|_col`. -/
theorem head_err_le {A B X tau x eps scoreErr dSoft dHard wErr headErr : α} {N : Nat}
    (hA : 0 ≤ A) (hB : 0 ≤ B) (hX : 0 ≤ X) (htau : 0 < tau) (h0 : 0 ≤ eps) (h1 : eps ≤ 1)
    (hscore : scoreErr ≤ A * (2 * X * eps + eps * eps))
    (hS : dSoft ≤ scoreErr / tau)
    (hE : dHard ≤ 2 * natCast (N - 1) * x)
    (hw : wErr ≤ dSoft + dHard)
    (hhead : headErr ≤ B * eps + B * X * wErr) :
    headErr ≤ B * (1 + X * (2 * X + 1) * A / tau) * eps + 2 * X * natCast (N - 1) * x * B := by
  have s1 := score_err_le (X := X) hA h0 h1
  have s2 := div_le_div_of_le htau (Std.le_trans hscore s1)
  have hw' : wErr ≤ A * (2 * X + 1) * eps / tau + 2 * natCast (N - 1) * x :=
    Std.le_trans hw (OrderedAdd.add_le_add (Std.le_trans hS s2) hE)
  have hBX := OrderedRing.mul_nonneg hB hX
  have s3 := OrderedRing.mul_le_mul_of_nonneg_left hw' hBX
  have e1 : B * eps + B * X * (A * (2 * X + 1) * eps / tau + 2 * natCast (N - 1) * x)
      = B * (1 + X * (2 * X + 1) * A / tau) * eps + 2 * X * natCast (N - 1) * x * B := by grind
  rw [← e1]
  exact Std.le_trans hhead (OrderedAdd.add_le_add (Std.le_refl _) s3)

/-! ### Summing the heads -/

/-- Lemma 25 (statement P), helper: per-term bounds `f h ≤ g h * e + c * b h` for `h < H` sum to
`Σ f ≤ (Σ g) * e + c * Σ b`. -/
theorem sumTo_le_mul_add_mul {f g b : Nat → α} {e c : α} {H : Nat}
    (h : ∀ k, k < H → f k ≤ g k * e + c * b k) :
    sumTo f H ≤ sumTo g H * e + c * sumTo b H := by
  induction H with
  | zero => rw [sumTo_zero, sumTo_zero, sumTo_zero, Lean.Grind.Semiring.zero_mul, Lean.Grind.Semiring.mul_zero, Lean.Grind.Semiring.add_zero]; exact Std.le_refl _
  | succ n ih =>
    have ih' := ih (fun k hk => h k (by omega))
    have hn := h n (by omega)
    rw [sumTo_succ, sumTo_succ, sumTo_succ]
    grind

/-- Lemma 25 (per-layer error, statement P, the combination): for a layer with `H` heads, at most `N`
unmasked positions per query, activations `‖x_i‖ ≤ X`, temperature `τ > 0`, `x = e^{-γ/τ}`,
feed-forward Lipschitz constant `Lip F ≥ 0`, norms `|A_h|_sum, |B_h|_col ≥ 0`, and an input error
`0 ≤ ε ≤ 1`: if for every head `h < H`
* score error `≤ |A_h|_sum (2 X ε + ε²)`,
* `‖α'_h - α̃_h‖₁ ≤ score error / τ` (statement S),
* `‖α̃_h - α_h‖₁ ≤ 2 (N-1) x` (statement E),
* `‖α'_h - α_h‖₁ ≤ ‖α'_h - α̃_h‖₁ + ‖α̃_h - α_h‖₁`,
* head error `≤ |B_h|_col ε + |B_h|_col X ‖α'_h - α_h‖₁`,
and the residual error is `≤ ε + Σ_h` head error, and the output error is `≤ (1 + Lip F)` times
the residual error, then the output error is `≤ r ε + a` with
`r = (1 + Lip F) (1 + Σ_h |B_h|_col (1 + X (2X + 1) |A_h|_sum / τ))` and
`a = 2 (1 + Lip F) X (N - 1) x Σ_h |B_h|_col`. `layer_err_le` proves the S, E and triangle steps
from the scores and applies this. -/
theorem layer_err_le_of_steps {H N : Nat} {A B scoreErr dSoft dHard wErr headErr : Nat → α}
    {X tau x LipF eps yErr outErr : α}
    (hA : ∀ h, h < H → 0 ≤ A h) (hB : ∀ h, h < H → 0 ≤ B h) (hX : 0 ≤ X) (htau : 0 < tau)
    (hLip : 0 ≤ LipF) (h0 : 0 ≤ eps) (h1 : eps ≤ 1)
    (hscore : ∀ h, h < H → scoreErr h ≤ A h * (2 * X * eps + eps * eps))
    (hS : ∀ h, h < H → dSoft h ≤ scoreErr h / tau)
    (hE : ∀ h, h < H → dHard h ≤ 2 * natCast (N - 1) * x)
    (hw : ∀ h, h < H → wErr h ≤ dSoft h + dHard h)
    (hhead : ∀ h, h < H → headErr h ≤ B h * eps + B h * X * wErr h)
    (hres : yErr ≤ eps + sumTo headErr H)
    (hffn : outErr ≤ (1 + LipF) * yErr) :
    outErr ≤ (1 + LipF) * (1 + sumTo (fun h => B h * (1 + X * (2 * X + 1) * A h / tau)) H)
        * eps + 2 * (1 + LipF) * X * natCast (N - 1) * x * sumTo B H := by
  have hsum := sumTo_le_mul_add_mul (f := headErr)
    (g := fun h => B h * (1 + X * (2 * X + 1) * A h / tau)) (b := B) (e := eps)
    (c := 2 * X * natCast (N - 1) * x) (H := H) (fun k hk =>
      head_err_le (hA k hk) (hB k hk) hX htau h0 h1 (hscore k hk) (hS k hk) (hE k hk)
        (hw k hk) (hhead k hk))
  have hy : yErr ≤ eps + (sumTo (fun h => B h * (1 + X * (2 * X + 1) * A h / tau)) H * eps
      + 2 * X * natCast (N - 1) * x * sumTo B H) :=
    Std.le_trans hres (OrderedAdd.add_le_add (Std.le_refl _) hsum)
  have hL : (0 : α) ≤ 1 + LipF := by
    have := OrderedAdd.add_le_add (OrderedRing.zero_le_one (R := α)) hLip
    rwa [Semiring.add_zero] at this
  have := OrderedRing.mul_le_mul_of_nonneg_left hy hL
  have e : (1 + LipF) * (eps + (sumTo (fun h => B h * (1 + X * (2 * X + 1) * A h / tau)) H * eps
      + 2 * X * natCast (N - 1) * x * sumTo B H))
      = (1 + LipF) * (1 + sumTo (fun h => B h * (1 + X * (2 * X + 1) * A h / tau)) H)
        * eps + 2 * (1 + LipF) * X * natCast (N - 1) * x * sumTo B H := by
    generalize sumTo (fun h => B h * (1 + X * (2 * X + 1) * A h / tau)) H = G
    generalize sumTo B H = SB
    grind
  rw [← e]
  exact Std.le_trans hffn this

/-- Lemma 25 (statement P), helper: `A, X, ε ≥ 0` give a non-negative score error bound
`A (2 X ε + ε²)`. -/
theorem score_err_bound_nonneg {A X eps : α} (hA : 0 ≤ A) (hX : 0 ≤ X) (h0 : 0 ≤ eps) :
    0 ≤ A * (2 * X * eps + eps * eps) := by
  have h1 := OrderedRing.mul_nonneg hX h0
  have h2 := OrderedRing.mul_nonneg h0 h0
  exact OrderedRing.mul_nonneg hA (by grind)

/-- Lemma 25 (per-layer error, statement P, from the scores): for a layer with `H` heads, at most
`N` unmasked positions per query, activations `‖x_i‖ ≤ X`, temperature `τ > 0`, feed-forward
Lipschitz constant `Lip F ≥ 0`, norms `|A_h|_sum, |B_h|_col ≥ 0`, an input error `0 ≤ ε ≤ 1`, and an
exponential with `ExpLike`'s properties and fact F5 (`ExpLike.LogMean`): let head `h` have the
average-hard scores `s_h` (at the exact input), with max set `M_h` (`m_h ≥ 1` positions at `s_max,h`,
every other score `≤ s_max,h - γ`), and the scores `s'_h` of the perturbed input. If
* every score error `|s'_{h,j} - s_{h,j}| ≤ |A_h|_sum (2 X ε + ε²)` (`j < N`),
* head error `≤ |B_h|_col ε + |B_h|_col X ‖softmax_τ(s'_h) - ahardmax(s_h)‖₁`,
* residual error `≤ ε + Σ_h` head error, output error `≤ (1 + Lip F)` residual error,
then the output error is `≤ r ε + a` with `r = (1 + Lip F) (1 + Σ_h |B_h|_col (1 + X (2X + 1)
|A_h|_sum / τ))` and `a = 2 (1 + Lip F) X (N - 1) e^{-γ/τ} Σ_h |B_h|_col`. Statement S
(`softmax_lipschitz`), statement E (`sumTo_absv_softmax_sub_ahardmax_le`) and the triangle
inequality are proved here, not assumed; the score, head, residual and feed-forward steps are the
linear algebra of the layer, taken as hypotheses. -/
theorem layer_err_le (E : ExpLike α) (hE : ExpLike.LogMean E) {H N : Nat} {A B headErr smax : Nat → α}
    {sSoft sHard : Nat → Nat → α} {isMax : Nat → Nat → Bool} {X tau gamma LipF eps yErr outErr : α}
    (hA : ∀ h, h < H → 0 ≤ A h) (hB : ∀ h, h < H → 0 ≤ B h) (hX : 0 ≤ X) (htau : 0 < tau)
    (hLip : 0 ≤ LipF) (h0 : 0 ≤ eps) (h1 : eps ≤ 1)
    (hscore : ∀ h, h < H → ∀ j, j < N →
      absv (sSoft h j - sHard h j) ≤ A h * (2 * X * eps + eps * eps))
    (hmax : ∀ h, h < H → ∀ j, j < N → isMax h j = true → sHard h j = smax h)
    (hgap : ∀ h, h < H → ∀ j, j < N → isMax h j = false → sHard h j ≤ smax h - gamma)
    (hm : ∀ h, h < H → 0 < countMax (isMax h) N)
    (hhead : ∀ h, h < H → headErr h ≤ B h * eps
      + B h * X * sumTo (fun j => absv (softmax E tau (sSoft h) N j - ahardmax (isMax h) N j)) N)
    (hres : yErr ≤ eps + sumTo headErr H)
    (hffn : outErr ≤ (1 + LipF) * yErr) :
    outErr ≤ (1 + LipF) * (1 + sumTo (fun h => B h * (1 + X * (2 * X + 1) * A h / tau)) H)
        * eps + 2 * (1 + LipF) * X * natCast (N - 1) * E.exp (-gamma / tau) * sumTo B H := by
  refine layer_err_le_of_steps (N := N) (x := E.exp (-gamma / tau))
    (scoreErr := fun h => A h * (2 * X * eps + eps * eps))
    (dSoft := fun h => sumTo (fun j => absv (softmax E tau (sSoft h) N j - softmax E tau (sHard h) N j)) N)
    (dHard := fun h => sumTo (fun j => absv (softmax E tau (sHard h) N j - ahardmax (isMax h) N j)) N)
    (wErr := fun h => sumTo (fun j => absv (softmax E tau (sSoft h) N j - ahardmax (isMax h) N j)) N)
    hA hB hX htau hLip h0 h1 (fun h _ => Std.le_refl _) (fun h hh => ?_) (fun h hh => ?_)
    (fun h _ => ?_) hhead hres hffn
  · exact softmax_lipschitz E hE htau (score_err_bound_nonneg (hA h hh) hX h0) (hscore h hh)
  · exact (sumTo_absv_softmax_sub_ahardmax_le E htau (hmax h hh) (hgap h hh) (hm h hh)).2
  · have := mul_sumTo_le_of_le (C := 1) (A := 1) (B := 1) (N := N)
      (f := fun j => absv (softmax E tau (sSoft h) N j - ahardmax (isMax h) N j))
      (p := fun j => absv (softmax E tau (sSoft h) N j - softmax E tau (sHard h) N j))
      (q := fun j => absv (softmax E tau (sHard h) N j - ahardmax (isMax h) N j))
      (fun j _ => by have := absv_sub_le_add (a := softmax E tau (sSoft h) N j)
                        (b := softmax E tau (sHard h) N j) (c := ahardmax (isMax h) N j); grind)
    grind

end HardSoft

end
