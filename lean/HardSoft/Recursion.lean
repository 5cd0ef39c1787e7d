module

public import HardSoft.Defs

/-!
# The layer-error recursion and the bootstrapping fix (statement C, Theorem 26)

Theorem 26 of Yang, Strobl, Chiang, Angluin composes the per-layer bound of Lemma 25 over
the `L` layers of a transformer. Lemma 25 bounds a layer's output error by `r * ε + a` only
when the layer's input error `ε` is at most `1`; the paper's proof applies it layer after
layer without showing that every intermediate error stays `≤ 1` (erratum 3). This file
proves the recursion's closed form, its monotonicity, the bootstrapped composition that
closes the gap (require `B L ≤ 1`), and a witness that without that guard the conclusion
fails.

All statements are over an ordered field `α` as provided by core Lean
(`Lean.Grind.Field` + `Lean.Grind.OrderedRing` + a linear order).

## Main results

* `HardSoft.sub_one_mul_bound_const`: `(r - 1) * B L = a * (r^L - 1)` for uniform `r`, `a`.
* `HardSoft.bound_const_eq_div`: `B L = a * (r^L - 1) / (r - 1)` when `r ≠ 1`.
* `HardSoft.bound_const_one`: `B L = L * a` when `r = 1`.
* `HardSoft.bound_nonneg`, `HardSoft.bound_le_bound_succ`, `HardSoft.bound_mono`.
* `HardSoft.err_le_bound_of_forall_bound_le_one`: the bootstrap for `r l ≥ 0`.
* `HardSoft.err_le_bound_of_bound_le_one`: the bootstrap for `r l ≥ 1`, `a l ≥ 0`, `B L ≤ 1`.
* `HardSoft.err_le_eps_of_bound_le`: `B L ≤ ε` and `B L ≤ 1` give `e L ≤ ε`.
* `HardSoft.exists_err_gt_of_unguarded`, `HardSoft.not_forall_err_le_bound_of_unguarded`:
  the guard `B L ≤ 1` cannot be dropped.
* `HardSoft.bound_const_le_mul_pow`, `HardSoft.bound_const_le_of_mul_pow_le`:
  `B L ≤ L a r^(L-1)`, the sufficient condition used by statement T.
-/

public section

set_option autoImplicit false

namespace HardSoft

variable {α : Type} [Lean.Grind.Field α]

/-- Theorem 26 (statement C, closed form at `r = 1`): `B L = L * a`. -/
theorem bound_const_one (a : α) (L : Nat) :
    bound (fun _ => (1 : α)) (fun _ => a) L = natCast L * a := by
  induction L with
  | zero => rw [bound_zero, natCast_zero]; exact (Lean.Grind.Semiring.zero_mul a).symm
  | succ L ih => rw [bound_succ, natCast_succ, ih]; grind

end HardSoft

namespace HardSoft

open Lean.Grind

variable {α : Type} [Lean.Grind.Field α] [LE α] [LT α] [Std.IsLinearOrder α]
  [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α]

/-! ### Closed forms for uniform `r` and `a` -/

/-- Theorem 26 (statement C, closed form, division-free): for uniform `r` and `a`, `(r - 1) * B
L = a * (r^L - 1)`. -/
theorem sub_one_mul_bound_const (r a : α) (L : Nat) :
    (r - 1) * bound (fun _ => r) (fun _ => a) L = a * (r ^ L - 1) := by
  induction L with
  | zero => rw [bound_zero]; grind
  | succ L ih =>
    rw [bound_succ]
    have h2 : r * ((r - 1) * bound (fun _ => r) (fun _ => a) L) = r * (a * (r ^ L - 1)) := by
      rw [ih]
    grind

/-- Theorem 26 (statement C, closed form): for uniform `r ≠ 1` and `a`, `B L = a * (r^L - 1) /
(r - 1)`. -/
theorem bound_const_eq_div (r a : α) (L : Nat) (hr : r ≠ 1) :
    bound (fun _ => r) (fun _ => a) L = a * (r ^ L - 1) / (r - 1) := by
  have h := sub_one_mul_bound_const r a L
  grind

/-! ### Non-negativity and monotonicity -/

/-- Theorem 26 (statement C, non-negativity): `r l ≥ 0` and `a l ≥ 0` for `l < L` give `B l ≥ 0`
for every `l ≤ L`. -/
theorem bound_nonneg {r a : Nat → α} {L : Nat} (hr : ∀ l, l < L → 0 ≤ r l)
    (ha : ∀ l, l < L → 0 ≤ a l) : ∀ l, l ≤ L → 0 ≤ bound r a l := by
  intro l
  induction l with
  | zero => intro _; rw [bound_zero]; exact Std.le_refl _
  | succ l ih =>
    intro hl
    rw [bound_succ]
    have h1 := OrderedRing.mul_nonneg (hr l (by omega)) (ih (by omega))
    have h2 := ha l (by omega)
    grind

/-- Theorem 26 (statement C, one step of monotonicity): `r l ≥ 1`, `a l ≥ 0` and `B l ≥ 0` give
`B l ≤ B (l+1)`. -/
theorem bound_le_bound_succ {r a : Nat → α} {l : Nat} (hr : 1 ≤ r l) (ha : 0 ≤ a l)
    (hB : 0 ≤ bound r a l) : bound r a l ≤ bound r a (l + 1) := by
  have h1 := OrderedRing.mul_le_mul_of_nonneg_right hr hB
  rw [bound_succ]
  grind

/-- Theorem 26 (statement C, `r ≥ 1` gives `r ≥ 0`), helper over the layers `l < L`. -/
theorem nonneg_of_one_le {r : Nat → α} {L : Nat} (hr : ∀ l, l < L → 1 ≤ r l) :
    ∀ l, l < L → 0 ≤ r l := fun l hl => by
  have := OrderedRing.zero_le_one (R := α)
  have := hr l hl
  grind

/-- Theorem 26 (statement C, monotonicity): `r l ≥ 1` and `a l ≥ 0` for `l < L` give `B l ≤ B L`
for `l ≤ L`. -/
theorem bound_mono {r a : Nat → α} {L : Nat} (hr : ∀ l, l < L → 1 ≤ r l)
    (ha : ∀ l, l < L → 0 ≤ a l) {l : Nat} (hlL : l ≤ L) : bound r a l ≤ bound r a L := by
  have hB := bound_nonneg (nonneg_of_one_le hr) ha
  have key : ∀ k, k ≤ L → l ≤ k → bound r a l ≤ bound r a k := by
    intro k
    induction k with
    | zero =>
      intro _ h
      have : l = 0 := by omega
      subst this
      grind
    | succ k ih =>
      intro hk hlk
      by_cases h : l = k + 1
      · subst h; grind
      · have h1 := ih (by omega) (by omega)
        have h2 := bound_le_bound_succ (hr k (by omega)) (ha k (by omega)) (hB k (by omega))
        grind
  exact key L (Nat.le_refl L) hlL

/-! ### The bootstrap -/

/-- Theorem 26 (statement C, the bootstrap for `r l ≥ 0`): if `e 0 = 0`, every layer `l < L`
obeys `e (l+1) ≤ r l * e l + a l` whenever `e l ≤ 1` (Lemma 25 holds only for input error `≤
1`), `r l ≥ 0`, and `B l ≤ 1` for every `l < L`, then `e l ≤ B l` for every `l ≤ L`. -/
theorem err_le_bound_of_forall_bound_le_one {r a e : Nat → α} {L : Nat}
    (he0 : e 0 = 0) (hstep : ∀ l, l < L → e l ≤ 1 → e (l + 1) ≤ r l * e l + a l)
    (hr : ∀ l, l < L → 0 ≤ r l) (hB : ∀ l, l < L → bound r a l ≤ 1) :
    ∀ l, l ≤ L → e l ≤ bound r a l := by
  intro l
  induction l with
  | zero => intro _; rw [bound_zero, he0]; exact Std.le_refl _
  | succ l ih =>
    intro hl
    have ihl : e l ≤ bound r a l := ih (by omega)
    have hBl := hB l (by omega)
    have hle1 : e l ≤ 1 := by grind
    have h1 := hstep l (by omega) hle1
    have h2 := OrderedRing.mul_le_mul_of_nonneg_left ihl (hr l (by omega))
    rw [bound_succ]
    grind

/-- Theorem 26 (statement C, the bootstrap with the `ε ≤ 1` fix): if `e 0 = 0`, every layer `l <
L` obeys `e (l+1) ≤ r l * e l + a l` whenever `e l ≤ 1`, `r l ≥ 1`, `a l ≥ 0` for `l < L`, and
`B L ≤ 1`, then `e l ≤ B l ≤ 1` for every `l ≤ L`: the bounds grow with `l`, so `B L ≤ 1` keeps
every intermediate error inside the range where Lemma 25 applies. -/
theorem err_le_bound_of_bound_le_one {r a e : Nat → α} {L : Nat}
    (he0 : e 0 = 0) (hstep : ∀ l, l < L → e l ≤ 1 → e (l + 1) ≤ r l * e l + a l)
    (hr : ∀ l, l < L → 1 ≤ r l) (ha : ∀ l, l < L → 0 ≤ a l) (hBL : bound r a L ≤ 1) :
    ∀ l, l ≤ L → e l ≤ bound r a l ∧ bound r a l ≤ 1 := by
  have hB : ∀ l, l ≤ L → bound r a l ≤ 1 := fun l hl => by
    have := bound_mono hr ha hl
    grind
  intro l hl
  exact ⟨err_le_bound_of_forall_bound_le_one he0 hstep (nonneg_of_one_le hr)
    (fun k hk => hB k (by omega)) l hl, hB l hl⟩

/-- Theorem 26 (statement C, composed): under the hypotheses of the bootstrap, `B L ≤ ε` and `B
L ≤ 1` (that is, `B L ≤ min ε 1`) give `e L ≤ ε`. -/
theorem err_le_eps_of_bound_le {r a e : Nat → α} {L : Nat} {eps : α}
    (he0 : e 0 = 0) (hstep : ∀ l, l < L → e l ≤ 1 → e (l + 1) ≤ r l * e l + a l)
    (hr : ∀ l, l < L → 1 ≤ r l) (ha : ∀ l, l < L → 0 ≤ a l)
    (hBeps : bound r a L ≤ eps) (hB1 : bound r a L ≤ 1) : e L ≤ eps := by
  have := (err_le_bound_of_bound_le_one he0 hstep hr ha hB1 L (Nat.le_refl L)).1
  grind

/-! ### The guard is needed -/

/-- Theorem 26 (statement C, the guard is needed): with `r l = 1` and `a l = 2` (so `B 1 = 2 >
1`), for every `M` there is an error sequence with `e 0 = 0` that satisfies the guarded step
condition `e l ≤ 1 → e (l+1) ≤ r l * e l + a l` at every layer and has `e 2 > M`: once an
intermediate error exceeds `1` the guarded step says nothing, so no bound follows without `B L ≤
1`. -/
theorem exists_err_gt_of_unguarded (M : α) :
    ∃ e : Nat → α, e 0 = 0 ∧
      (∀ l, l < 2 → e l ≤ 1 → e (l + 1) ≤ (fun _ => (1 : α)) l * e l + (fun _ => (2 : α)) l) ∧
      M < e 2 := by
  refine ⟨fun l => if l = 0 then 0 else if l = 1 then 2 else M + 1, ?_, ?_, ?_⟩
  · simp
  · intro l _ hl
    have h01 := OrderedRing.zero_lt_one (R := α)
    rcases l with _ | _ | k <;> simp at hl ⊢ <;> grind
  · simp
    have h01 := OrderedRing.zero_lt_one (R := α)
    grind

/-- Theorem 26 (statement C, the guard is needed, as a refutation): it is not true that every
error sequence with `e 0 = 0` obeying the guarded step for `r l = 1`, `a l = 2` stays below the
bound `B 2 = 4`; here `B 2 > 1`, so the hypothesis `B L ≤ 1` of `err_le_bound_of_bound_le_one`
fails and so does its conclusion. -/
theorem not_forall_err_le_bound_of_unguarded :
    ¬ ∀ e : Nat → α, e 0 = 0 →
      (∀ l, l < 2 → e l ≤ 1 → e (l + 1) ≤ (fun _ => (1 : α)) l * e l + (fun _ => (2 : α)) l) →
      e 2 ≤ bound (fun _ => (1 : α)) (fun _ => (2 : α)) 2 := by
  intro h
  obtain ⟨e, he0, hstep, hgt⟩ := exists_err_gt_of_unguarded
    (bound (fun _ => (1 : α)) (fun _ => (2 : α)) 2)
  have := h e he0 hstep
  grind

/-! ### The guard, sharp -/

/-- Theorem 26 (statement C, the guard is sharp, witness): if some layer `l < L` has `B l > 1`
(with `r k, a k ≥ 0` for `k < L`), then for every `c > 1` there is a guarded error sequence (`e 0
= 0`, `e k ≥ 0`, and `e k ≤ 1 → e (k+1) ≤ r k * e k + a k` for `k < L`) with `e L = c`: follow
the bound `e k = B k` up to layer `l`, where `e l = B l > 1` switches the guard off, and stay at
`c > 1` from then on, so every later guarded step is vacuous too. -/
theorem exists_err_eq_of_one_lt_bound {r a : Nat → α} {L l : Nat}
    (hr : ∀ k, k < L → 0 ≤ r k) (ha : ∀ k, k < L → 0 ≤ a k) (hl : l < L)
    (hBl : 1 < bound r a l) {c : α} (hc : 1 < c) :
    ∃ e : Nat → α, e 0 = 0 ∧ (∀ k, k < L → e k ≤ 1 → e (k + 1) ≤ r k * e k + a k) ∧
      (∀ k, k ≤ L → 0 ≤ e k) ∧ e L = c := by
  have hB := bound_nonneg hr ha
  refine ⟨fun k => if k ≤ l then bound r a k else c, ?_, ?_, ?_, ?_⟩
  · simp only []
    rw [if_pos (Nat.zero_le l), bound_zero]
  · intro k hk hek
    simp only [] at hek ⊢
    by_cases h1 : k + 1 ≤ l
    · rw [if_pos h1, if_pos (by omega : k ≤ l), bound_succ]
      grind
    · by_cases h2 : k ≤ l
      · have : k = l := by omega
        subst this
        rw [if_pos h2] at hek
        grind
      · rw [if_neg h2] at hek
        grind
  · intro k hk
    simp only []
    by_cases h : k ≤ l
    · rw [if_pos h]; exact hB k hk
    · rw [if_neg h]; grind
  · simp only []
    rw [if_neg (by omega)]

/-- Theorem 26 (statement C, the guard is sharp, unbounded errors): if some layer `l < L` has `B l
> 1` (with `r k, a k ≥ 0` for `k < L`), then for every `M` some guarded error sequence (`e 0 =
0`, `e k ≥ 0`, `e k ≤ 1 → e (k+1) ≤ r k * e k + a k` for `k < L`) has `e L > M`. -/
theorem exists_err_gt_of_one_lt_bound {r a : Nat → α} {L l : Nat}
    (hr : ∀ k, k < L → 0 ≤ r k) (ha : ∀ k, k < L → 0 ≤ a k) (hl : l < L)
    (hBl : 1 < bound r a l) (M : α) :
    ∃ e : Nat → α, e 0 = 0 ∧ (∀ k, k < L → e k ≤ 1 → e (k + 1) ≤ r k * e k + a k) ∧
      (∀ k, k ≤ L → 0 ≤ e k) ∧ M < e L := by
  have h01 := OrderedRing.zero_lt_one (R := α)
  rcases (Std.le_total : M ≤ 1 ∨ 1 ≤ M) with hM | hM
  · obtain ⟨e, h0, hs, hn, hL⟩ := exists_err_eq_of_one_lt_bound (c := 2) hr ha hl hBl (by grind)
    exact ⟨e, h0, hs, hn, by grind⟩
  · obtain ⟨e, h0, hs, hn, hL⟩ :=
      exists_err_eq_of_one_lt_bound (c := M + 1) hr ha hl hBl (by grind)
    exact ⟨e, h0, hs, hn, by grind⟩

/-- Theorem 26 (statement C, the guard is sharp): for `r l ≥ 0` and `a l ≥ 0` (`l < L`), every
guarded error sequence (`e 0 = 0`, `e l ≥ 0` for `l ≤ L`, and `e l ≤ 1 → e (l+1) ≤ r l * e l + a
l` for `l < L`) ends with `e L ≤ B L` if and only if `B l ≤ 1` for every `l < L`. (`B L` itself
may exceed `1`: the last layer's output is never fed to a guarded step.) -/
theorem forall_err_le_bound_iff {r a : Nat → α} {L : Nat}
    (hr : ∀ l, l < L → 0 ≤ r l) (ha : ∀ l, l < L → 0 ≤ a l) :
    (∀ e : Nat → α, e 0 = 0 → (∀ l, l < L → e l ≤ 1 → e (l + 1) ≤ r l * e l + a l) →
        (∀ l, l ≤ L → 0 ≤ e l) → e L ≤ bound r a L) ↔
      ∀ l, l < L → bound r a l ≤ 1 := by
  constructor
  · intro h l hl
    apply Classical.byContradiction
    intro hne
    have hlt : 1 < bound r a l := by grind
    obtain ⟨e, h0, hs, hn, hgt⟩ := exists_err_gt_of_one_lt_bound hr ha hl hlt (bound r a L)
    have := h e h0 hs hn
    grind
  · intro hB e h0 hs _
    exact err_le_bound_of_forall_bound_le_one h0 hs hr hB L (Nat.le_refl L)

/-! ### A sufficient condition (used by statement T) -/

/-- Theorem 26 (statement T), helper: one step of `B (L+1) ≤ (L+1) a r^L`, over plain variables
(`P` stands for `r^L`, `c` for `L+1`). -/
theorem mul_add_le_succ_mul_of_le {r a B P c : α} (hr : 1 ≤ r) (ha : 0 ≤ a)
    (hB : B ≤ c * a * P) (hP : 1 ≤ P) : r * B + a ≤ (c + 1) * a * (P * r) := by
  have h0 : (0 : α) ≤ r := by have := OrderedRing.zero_le_one (R := α); grind
  have h1 := OrderedRing.mul_le_mul_of_nonneg_left hB h0
  have h2 := OrderedRing.mul_le_mul_of_nonneg_left (one_le_mul_of_one_le hP hr) ha
  grind

/-- Theorem 26 / statement T (sufficient condition): for uniform `r ≥ 1` and `a ≥ 0`, `B (L+1) ≤
(L+1) * a * r^L`, i.e. `B L ≤ L a r^(L-1)` for `L ≥ 1`. -/
theorem bound_const_succ_le_mul_pow {r a : α} (hr : 1 ≤ r) (ha : 0 ≤ a) (L : Nat) :
    bound (fun _ => r) (fun _ => a) (L + 1) ≤ natCast (L + 1) * a * r ^ L := by
  induction L with
  | zero => rw [bound_succ, bound_zero, natCast_succ, natCast_zero, pow_zero_eq]; grind
  | succ L ih =>
    have key := mul_add_le_succ_mul_of_le hr ha ih (one_le_pow_of_one_le hr L)
    rw [bound_succ, natCast_succ (L + 1), pow_succ_eq]
    exact key

/-- Theorem 26 / statement T (sufficient condition): for uniform `r ≥ 1` and `a ≥ 0`, `B L ≤ L *
a * r^(L-1)` (with `r^(0-1) = r^0`, harmless since `B 0 = 0`). -/
theorem bound_const_le_mul_pow {r a : α} (hr : 1 ≤ r) (ha : 0 ≤ a) (L : Nat) :
    bound (fun _ => r) (fun _ => a) L ≤ natCast L * a * r ^ (L - 1) := by
  cases L with
  | zero => rw [bound_zero, natCast_zero, Lean.Grind.Semiring.zero_mul, Lean.Grind.Semiring.zero_mul]; exact Std.le_refl _
  | succ L => exact bound_const_succ_le_mul_pow hr ha L

/-- Theorem 26 / statement T (sufficient condition): for uniform `r ≥ 1` and `a ≥ 0`, `a * L *
r^(L-1) ≤ ε` implies `B L ≤ ε`. -/
theorem bound_const_le_of_mul_pow_le {r a eps : α} (hr : 1 ≤ r) (ha : 0 ≤ a) (L : Nat)
    (h : a * natCast L * r ^ (L - 1) ≤ eps) : bound (fun _ => r) (fun _ => a) L ≤ eps := by
  have := bound_const_le_mul_pow hr ha L
  grind

end HardSoft

end
