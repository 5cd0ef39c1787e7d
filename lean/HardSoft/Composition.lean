module

public import HardSoft.Recursion
public import HardSoft.Layer

/-!
# Theorem 26 end to end (statements P and C together)

Composes the per-layer algebra of Lemma 25 (`HardSoft.layer_err_le`, statement P) over `L`
layers with the bootstrapped recursion (`HardSoft.err_le_bound_of_bound_le_one`, statement C):
if every layer `l < L` satisfies the per-layer hypotheses of Lemma 25 at its own input error
`e l` (the linear-algebra facts hold for any input error; only the step `ε² ≤ ε` needs
`ε ≤ 1`), and the bound `B_L` of the recursion with Lemma 25's `r_l`, `a_l` is at most `ε` and
at most `1`, then every layer's error is at most `1` and the output error is at most `ε`.

## Main results

* `HardSoft.layerRate_ge_one`, `HardSoft.layerAdd_nonneg`: `r_l ≥ 1` and `a_l ≥ 0`.
* `HardSoft.err_le_eps_of_layers`: Theorem 26, algebraic form.
-/

public section

set_option autoImplicit false

namespace HardSoft

open Lean.Grind

variable {α : Type} [Lean.Grind.Field α] [LE α] [LT α] [Std.IsLinearOrder α]
  [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α]

/-- Lemma 25 (statement P), helper: non-negative terms have a non-negative sum. -/
theorem sumTo_nonneg {f : Nat → α} {H : Nat} (h : ∀ k, k < H → 0 ≤ f k) : 0 ≤ sumTo f H := by
  induction H with
  | zero => rw [sumTo_zero]; exact Std.le_refl _
  | succ n ih =>
    have := ih (fun k hk => h k (by omega))
    have := h n (by omega)
    rw [sumTo_succ]
    grind

/-- Lemma 25 / Theorem 26 (statement C, `r ≥ 1`): with `|A_h|_sum, |B_h|_col, X, Lip F ≥ 0` and
`τ > 0`, the per-layer factor `r = (1 + Lip F) (1 + Σ_h |B_h|_col (1 + X (2X + 1) |A_h|_sum / τ))`
is at least `1`. -/
theorem layerRate_ge_one {H : Nat} {A B : Nat → α} {X tau LipF : α}
    (hA : ∀ h, h < H → 0 ≤ A h) (hB : ∀ h, h < H → 0 ≤ B h) (hX : 0 ≤ X) (htau : 0 < tau)
    (hLip : 0 ≤ LipF) :
    1 ≤ (1 + LipF) * (1 + sumTo (fun h => B h * (1 + X * (2 * X + 1) * A h / tau)) H) := by
  have h01 := OrderedRing.zero_le_one (R := α)
  have hS : 0 ≤ sumTo (fun h => B h * (1 + X * (2 * X + 1) * A h / tau)) H := by
    apply sumTo_nonneg
    intro k hk
    have h1 : (0 : α) ≤ 2 * X + 1 := by grind
    have h2 := OrderedRing.mul_nonneg (OrderedRing.mul_nonneg hX h1) (hA k hk)
    have h3 := div_nonneg_of_nonneg h2 htau
    exact OrderedRing.mul_nonneg (hB k hk) (by grind)
  exact one_le_mul_of_one_le (by grind) (by grind)

/-- Lemma 25 / Theorem 26 (statement C, `a ≥ 0`): with `X, x, Lip F ≥ 0` and `|B_h|_col ≥ 0`, the
per-layer additive term `a = 2 (1 + Lip F) X (N - 1) x Σ_h |B_h|_col` is non-negative. -/
theorem layerAdd_nonneg {H N : Nat} {B : Nat → α} {X x LipF : α}
    (hB : ∀ h, h < H → 0 ≤ B h) (hX : 0 ≤ X) (hx : 0 ≤ x) (hLip : 0 ≤ LipF) :
    0 ≤ 2 * (1 + LipF) * X * natCast (N - 1) * x * sumTo B H := by
  have h01 := OrderedRing.zero_le_one (R := α)
  have h1 : (0 : α) ≤ 2 * (1 + LipF) := by grind
  have h2 := OrderedRing.mul_nonneg h1 hX
  have h3 := OrderedRing.mul_nonneg h2 (natCast_nonneg (α := α) (N - 1))
  have h4 := OrderedRing.mul_nonneg h3 hx
  exact OrderedRing.mul_nonneg h4 (sumTo_nonneg hB)

/-- Theorem 26 (composition, with the `ε ≤ 1` bootstrapping fix; statements P, S, E and C): a
transformer with `L` layers, layer `l` with `H l` heads, `N l` unmasked positions per query,
activations `≤ X l`, temperature `τ l > 0`, gap `γ l`, `Lip F_l ≥ 0`, norms `|A_{l,h}|_sum,
|B_{l,h}|_col ≥ 0`, errors `e l ≥ 0` with `e 0 = 0`, an exponential with `ExpLike`'s properties and
fact F5 (`ExpLike.LogMean`), and at every layer `l < L` the hypotheses of Lemma 25
(`layer_err_le`) at input error `e l`: per head the average-hard scores `s_{l,h}` with their max
set (`m ≥ 1` positions at `s_max`, the others `≥ γ l` below), the perturbed scores `s'_{l,h}` within
`|A_{l,h}|_sum (2 X_l e_l + e_l²)` of them, the head, residual and feed-forward steps (output error
`e (l+1)`). Let `B` be the recursion `B 0 = 0`, `B (l+1) = r_l B l + a_l` with Lemma 25's
`r_l = (1 + Lip F_l) (1 + Σ_h |B_{l,h}|_col (1 + X_l (2X_l + 1) |A_{l,h}|_sum / τ_l))` and
`a_l = 2 (1 + Lip F_l) X_l (N_l - 1) e^{-γ_l/τ_l} Σ_h |B_{l,h}|_col`. If `B L ≤ ε` and `B L ≤ 1`,
then the output error is `e L ≤ ε` and every layer's error is `e l ≤ 1` (`l ≤ L`), so Lemma 25
applied at every layer. -/
theorem err_le_eps_of_layers (E : ExpLike α) (hE : ExpLike.LogMean E) {L : Nat} {H N : Nat → Nat}
    {A B headErr smax : Nat → Nat → α} {sSoft sHard : Nat → Nat → Nat → α}
    {isMax : Nat → Nat → Nat → Bool} {X tau gamma LipF yErr e : Nat → α} {eps : α}
    (hA : ∀ l, l < L → ∀ h, h < H l → 0 ≤ A l h)
    (hB : ∀ l, l < L → ∀ h, h < H l → 0 ≤ B l h)
    (hX : ∀ l, l < L → 0 ≤ X l) (htau : ∀ l, l < L → 0 < tau l)
    (hLip : ∀ l, l < L → 0 ≤ LipF l)
    (he0 : e 0 = 0) (he : ∀ l, l ≤ L → 0 ≤ e l)
    (hscore : ∀ l, l < L → ∀ h, h < H l → ∀ j, j < N l →
      absv (sSoft l h j - sHard l h j) ≤ A l h * (2 * X l * e l + e l * e l))
    (hmax : ∀ l, l < L → ∀ h, h < H l → ∀ j, j < N l → isMax l h j = true → sHard l h j = smax l h)
    (hgap : ∀ l, l < L → ∀ h, h < H l → ∀ j, j < N l → isMax l h j = false →
      sHard l h j ≤ smax l h - gamma l)
    (hm : ∀ l, l < L → ∀ h, h < H l → 0 < countMax (isMax l h) (N l))
    (hhead : ∀ l, l < L → ∀ h, h < H l → headErr l h ≤ B l h * e l + B l h * X l *
      sumTo (fun j => absv (softmax E (tau l) (sSoft l h) (N l) j - ahardmax (isMax l h) (N l) j)) (N l))
    (hres : ∀ l, l < L → yErr l ≤ e l + sumTo (headErr l) (H l))
    (hffn : ∀ l, l < L → e (l + 1) ≤ (1 + LipF l) * yErr l)
    (hBeps : bound
      (fun l => (1 + LipF l) *
        (1 + sumTo (fun h => B l h * (1 + X l * (2 * X l + 1) * A l h / tau l)) (H l)))
      (fun l => 2 * (1 + LipF l) * X l * natCast (N l - 1) * E.exp (-gamma l / tau l)
        * sumTo (B l) (H l)) L ≤ eps)
    (hB1 : bound
      (fun l => (1 + LipF l) *
        (1 + sumTo (fun h => B l h * (1 + X l * (2 * X l + 1) * A l h / tau l)) (H l)))
      (fun l => 2 * (1 + LipF l) * X l * natCast (N l - 1) * E.exp (-gamma l / tau l)
        * sumTo (B l) (H l)) L ≤ 1) :
    e L ≤ eps ∧ ∀ l, l ≤ L → e l ≤ 1 := by
  have hstep : ∀ l, l < L → e l ≤ 1 →
      e (l + 1) ≤ (fun l => (1 + LipF l) *
        (1 + sumTo (fun h => B l h * (1 + X l * (2 * X l + 1) * A l h / tau l)) (H l))) l * e l
        + (fun l => 2 * (1 + LipF l) * X l * natCast (N l - 1) * E.exp (-gamma l / tau l)
          * sumTo (B l) (H l)) l :=
    fun l hl h1 =>
      layer_err_le E hE (hA l hl) (hB l hl) (hX l hl) (htau l hl) (hLip l hl) (he l (by omega)) h1
        (hscore l hl) (hmax l hl) (hgap l hl) (hm l hl) (hhead l hl) (hres l hl) (hffn l hl)
  have hr := fun l (hl : l < L) =>
    layerRate_ge_one (hA l hl) (hB l hl) (hX l hl) (htau l hl) (hLip l hl)
  have ha := fun l (hl : l < L) =>
    layerAdd_nonneg (N := N l) (hB l hl) (hX l hl) (Std.le_of_lt (E.pos (-gamma l / tau l))) (hLip l hl)
  have key := err_le_bound_of_bound_le_one he0 hstep hr ha hB1
  exact ⟨Std.le_trans (key L (Nat.le_refl L)).1 hBeps,
    fun l hl => Std.le_trans (key l hl).1 (key l hl).2⟩

end HardSoft

end
