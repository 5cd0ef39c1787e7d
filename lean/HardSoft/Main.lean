module

public import HardSoft.Recursion
public import HardSoft.Softmax

/-!
# Main statements

The headline results of this Lean development, each stated here and proved by appeal to
`HardSoft.Recursion` (statement C, Theorem 26 with the bootstrapping fix, and the
sufficient condition of statement T) and `HardSoft.Softmax` (statements E and Z). The
letters are the claim ids of the project (see `lean/README.md`); the paper is Yang, Strobl,
Chiang, Angluin, "Simulating Hard Attention Using Soft Attention", arXiv 2412.09925.

Every statement is generic over an ordered field `α` given by core Lean's classes; the
`_rat` versions instantiate them at `Rat`, which checks that the context is satisfiable.

## Main results

* `HardSoft.bound_closed_form` (C): `B L = a (r^L - 1)/(r - 1)` for `r ≠ 1`, `B L = L a`
  for `r = 1`.
* `HardSoft.bound_monotone` (C): `r l ≥ 1`, `a l ≥ 0` give `0 ≤ B l ≤ B L` for `l ≤ L`.
* `HardSoft.err_le_bound_of_bound_le_one` (C, in `Recursion`): the bootstrap, `e l ≤ B l ≤ 1` for `l ≤ L`.
* `HardSoft.err_le_eps_of_bound_le` (C, in `Recursion`): `B L ≤ ε`, `B L ≤ 1` give `e L ≤ ε`.
* `HardSoft.composition_guard_necessary` (C): without `B L ≤ 1` the conclusion fails.
* `HardSoft.bound_const_le_of_mul_pow_le` (T, in `Recursion`): `a L r^(L-1) ≤ ε` gives `B L ≤ ε`.
* `HardSoft.composition_err_le_eps_of_mul_pow_le` (C and T together).
* `HardSoft.softmax_mass_off_max_le` (E), `HardSoft.ziggurat_mass_off_top_le` (Z).
* `HardSoft.composition_err_le_eps_rat`, `HardSoft.softmax_mass_off_max_le_rat`,
  `HardSoft.ziggurat_mass_off_top_le_rat`, `HardSoft.bound_rat_example`: at `Rat`.
-/

public section

set_option autoImplicit false

namespace HardSoft

variable {α : Type} [Lean.Grind.Field α] [LE α] [LT α] [Std.IsLinearOrder α]
  [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α]

/-- Theorem 26 (statement C, closed form of the bound recursion `B 0 = 0`, `B (l+1) = r B l +
a`): `B L = a (r^L - 1)/(r - 1)` when `r ≠ 1` and `B L = L a` when `r = 1`. -/
theorem bound_closed_form (r a : α) (L : Nat) :
    (r - 1) * bound (fun _ => r) (fun _ => a) L = a * (r ^ L - 1) ∧
    (r ≠ 1 → bound (fun _ => r) (fun _ => a) L = a * (r ^ L - 1) / (r - 1)) ∧
    (r = 1 → bound (fun _ => r) (fun _ => a) L = natCast L * a) := by
  refine ⟨sub_one_mul_bound_const r a L, bound_const_eq_div r a L, ?_⟩
  intro hr
  subst hr
  exact bound_const_one a L

/-- Theorem 26 (statement C, monotonicity): `r l ≥ 1` and `a l ≥ 0` give `0 ≤ B l ≤ B L` for
every `l ≤ L`. -/
theorem bound_monotone {r a : Nat → α} {L : Nat} (hr : ∀ l, l < L → 1 ≤ r l)
    (ha : ∀ l, l < L → 0 ≤ a l) {l : Nat} (hlL : l ≤ L) :
    0 ≤ bound r a l ∧ bound r a l ≤ bound r a L :=
  ⟨bound_nonneg (nonneg_of_one_le hr) ha l hlL, bound_mono hr ha hlL⟩

/-- Theorem 26 (statement C, the guard is needed): with `r l = 1`, `a l = 2` (so `B 2 = 4`
exceeds `1`), for every `M` some error sequence with `e 0 = 0` satisfies the guarded step
condition at every layer and has `e 2 > M`; in particular it is false that every such sequence
stays below `B 2`. -/
theorem composition_guard_necessary (M : α) :
    (∃ e : Nat → α, e 0 = 0 ∧
      (∀ l, l < 2 → e l ≤ 1 → e (l + 1) ≤ (fun _ => (1 : α)) l * e l + (fun _ => (2 : α)) l) ∧
      M < e 2) ∧
    ¬ ∀ e : Nat → α, e 0 = 0 →
      (∀ l, l < 2 → e l ≤ 1 → e (l + 1) ≤ (fun _ => (1 : α)) l * e l + (fun _ => (2 : α)) l) →
      e 2 ≤ bound (fun _ => (1 : α)) (fun _ => (2 : α)) 2 :=
  ⟨exists_err_gt_of_unguarded M, not_forall_err_le_bound_of_unguarded⟩

/-- Theorem 26 (composition and temperature, statements C and T together): for uniform per-layer
constants `r ≥ 1`, `a ≥ 0`, if `a L r^(L-1) ≤ ε ≤ 1` then the composed error obeys `e L ≤ ε`. -/
theorem composition_err_le_eps_of_mul_pow_le {e : Nat → α} {r a eps : α} {L : Nat}
    (he0 : e 0 = 0) (hstep : ∀ l, l < L → e l ≤ 1 → e (l + 1) ≤ r * e l + a)
    (hr : 1 ≤ r) (ha : 0 ≤ a) (h : a * natCast L * r ^ (L - 1) ≤ eps) (heps : eps ≤ 1) :
    e L ≤ eps := by
  have hB := bound_const_le_of_mul_pow_le hr ha L h
  exact err_le_eps_of_bound_le (r := fun _ => r) (a := fun _ => a) he0 hstep
    (fun _ _ => hr) (fun _ _ => ha) hB (by grind)

/-- Theorem 26 (Edelman et al. bound, statement E, used by Lemma 25): with softmax weights
rescaled to `w_j = exp((s_j - s_max)/τ)`, i.e. `w_j = 1` on the `m ≥ 1` maximal positions and `0
≤ w_j ≤ x = e^{-γ/τ}` elsewhere (gap `≥ γ`), the softmax mass off the max set is at most `(N-m)
x / (m + (N-m) x)` and at most `(N-1) x`. -/
theorem softmax_mass_off_max_le {isMax : Nat → Bool} {w : Nat → α} {x : α} {N : Nat}
    (hmax : ∀ j, j < N → isMax j = true → w j = 1)
    (hoff : ∀ j, j < N → isMax j = false → w j ≤ x)
    (hoff0 : ∀ j, j < N → isMax j = false → 0 ≤ w j)
    (hx : 0 ≤ x) (hm : 0 < countMax isMax N) :
    offMass isMax w N / sumTo w N
        ≤ natCast (N - countMax isMax N) * x
            / (natCast (countMax isMax N) + natCast (N - countMax isMax N) * x) ∧
      offMass isMax w N / sumTo w N ≤ natCast (N - 1) * x :=
  ⟨offMass_div_sumTo_le hmax hoff hoff0 hx hm,
    offMass_div_sumTo_le_pred_mul hmax hoff hoff0 hx hm⟩

/-- Lemma 6 (statement Z, ziggurat): with weights `w_k = exp((s_(k) - s_(0))/τ)` for the scores
sorted downwards and a ziggurat `s_(0) - s_(k) ≥ k γ`, so `0 ≤ w_k ≤ x^k w_0` with `x = e^{-γ/τ}
≤ 1`, the softmax mass off the top position is at most `x` for every `N`, and `total (1 - x) ≤
top (1 - x^N)`. -/
theorem ziggurat_mass_off_top_le {w : Nat → α} {x : α} {N : Nat} (hN : 0 < N)
    (hw0 : 0 < w 0) (hnn : ∀ k, k < N → 0 ≤ w k)
    (hw : ∀ k, 0 < k → k < N → w k ≤ x ^ k * w 0) (hx0 : 0 ≤ x) (hx1 : x ≤ 1) :
    (sumTo w N - w 0) / sumTo w N ≤ x ∧ sumTo w N * (1 - x) ≤ w 0 * (1 - x ^ N) :=
  ⟨sumTo_sub_top_div_sumTo_le hN hw0 hnn hw hx0 hx1, sumTo_mul_one_sub_le hN hw hx1⟩

/-- Theorem 26 (statement C) at `α = Rat`: the composed bound instantiated at the rationals. -/
theorem composition_err_le_eps_rat {r a e : Nat → Rat} {L : Nat} {eps : Rat}
    (he0 : e 0 = 0) (hstep : ∀ l, l < L → e l ≤ 1 → e (l + 1) ≤ r l * e l + a l)
    (hr : ∀ l, l < L → 1 ≤ r l) (ha : ∀ l, l < L → 0 ≤ a l)
    (hBeps : bound r a L ≤ eps) (hB1 : bound r a L ≤ 1) : e L ≤ eps :=
  err_le_eps_of_bound_le he0 hstep hr ha hBeps hB1

/-- Theorem 26 (Edelman et al. bound, statement E) at `α = Rat`: the `(N-1) x` form. -/
theorem softmax_mass_off_max_le_rat {isMax : Nat → Bool} {w : Nat → Rat} {x : Rat} {N : Nat}
    (hmax : ∀ j, j < N → isMax j = true → w j = 1)
    (hoff : ∀ j, j < N → isMax j = false → w j ≤ x)
    (hoff0 : ∀ j, j < N → isMax j = false → 0 ≤ w j)
    (hx : 0 ≤ x) (hm : 0 < countMax isMax N) :
    offMass isMax w N / sumTo w N ≤ natCast (N - 1) * x :=
  (softmax_mass_off_max_le hmax hoff hoff0 hx hm).2

/-- Lemma 6 (statement Z) at `α = Rat`. -/
theorem ziggurat_mass_off_top_le_rat {w : Nat → Rat} {x : Rat} {N : Nat} (hN : 0 < N)
    (hw0 : 0 < w 0) (hnn : ∀ k, k < N → 0 ≤ w k)
    (hw : ∀ k, 0 < k → k < N → w k ≤ x ^ k * w 0) (hx0 : 0 ≤ x) (hx1 : x ≤ 1) :
    (sumTo w N - w 0) / sumTo w N ≤ x :=
  (ziggurat_mass_off_top_le hN hw0 hnn hw hx0 hx1).1

/-- Theorem 26 (statement C) at `α = Rat`, a concrete value: `r = 2`, `a = 1` give `B 3 = 7 = 1
· (2^3 - 1)/(2 - 1)`. -/
theorem bound_rat_example : bound (fun _ => (2 : Rat)) (fun _ => 1) 3 = 7 := by
  rw [bound_succ, bound_succ, bound_succ, bound_zero]
  grind

end HardSoft

end
