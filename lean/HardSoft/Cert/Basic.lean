module

public import HardSoft.Cert.Logic

/-!
# Certificates, part 2: rational weights in an ordered field, sparse vectors, list sums

A compiled model's weights are rationals (every float64 is one). The soft model runs over an
ordered field `α` with an abstract exponential (`ExpLike`); the weights enter through an ordered
embedding `RatEmb α` of `Rat` into `α` (over the reals, the usual inclusion; over `Rat`, the
identity). A weight matrix is stored by its columns (or rows) as sparse vectors `SVec`: lists of
`(coordinate, weight)`, repeated coordinates adding up, as `constructive/residual.py` builds them.

## Main results

* `HardSoft.Cert.RatEmb.map_zero`, `map_neg`, `map_sub`, `map_natCast`, `map_lt`: the embedding
  respects the operations and the order.
* `HardSoft.Cert.dotv_congr`: a sparse dot product depends only on the entries' sums per
  coordinate (`svGet`), so a column that matches a template (`sameVec`) computes the
  template's linear form.
* `HardSoft.Cert.clamp_eq_one`, `HardSoft.Cert.clamp_eq_zero`: the compilers' clamp unit pair
  `ReLU(2(L + 3/4)) - ReLU(2(L + 1/4))` is `1` for `L ≥ -1/4` and `0` for `L ≤ -3/4`.
-/

@[expose] public section

set_option autoImplicit false


namespace HardSoft.Cert

open Lean.Grind

/-- Certificates, definition: an embedding of `Rat` into the ordered field `α` that respects `+`,
`*`, `1` and `≤` (the inclusion into the reals; the identity of `Rat`). -/
structure RatEmb (α : Type) [Lean.Grind.Field α] [LE α] [LT α] where
  /-- the embedding -/
  cast : Rat → α
  /-- `cast (a + b) = cast a + cast b` -/
  map_add : ∀ a b, cast (a + b) = cast a + cast b
  /-- `cast (a * b) = cast a * cast b` -/
  map_mul : ∀ a b, cast (a * b) = cast a * cast b
  /-- `cast 1 = 1` -/
  map_one : cast 1 = 1
  /-- `a ≤ b → cast a ≤ cast b` -/
  map_le : ∀ a b, a ≤ b → cast a ≤ cast b

section Alg

variable {α : Type} [Lean.Grind.Field α] [LE α] [LT α]

namespace RatEmb

variable (R : RatEmb α)

/-- The embedding sends `0` to `0`. -/
theorem map_zero : R.cast 0 = 0 := by
  have h := R.map_add 0 0
  rw [Rat.add_zero] at h
  grind

/-- The embedding respects negation. -/
theorem map_neg (a : Rat) : R.cast (-a) = -R.cast a := by
  have h := R.map_add a (-a)
  rw [Rat.add_neg_cancel, R.map_zero] at h
  grind

/-- The embedding respects subtraction. -/
theorem map_sub (a b : Rat) : R.cast (a - b) = R.cast a - R.cast b := by
  rw [Rat.sub_eq_add_neg, R.map_add, R.map_neg]; grind

/-- The embedding sends a natural number to its cast. -/
theorem map_natCast (k : Nat) : R.cast (k : Rat) = natCast k := by
  induction k with
  | zero => exact R.map_zero
  | succ k ih =>
    rw [Rat.natCast_add, R.map_add, ih, show ((1 : Nat) : Rat) = 1 from rfl, R.map_one]; rfl

/-- The embedding sends a nonzero rational to a nonzero element. -/
theorem map_ne_zero {a : Rat} (h : a ≠ 0) : R.cast a ≠ 0 := by
  intro hc
  have e := R.map_mul a a⁻¹
  rw [Rat.mul_inv_cancel a h, R.map_one, hc] at e
  grind

/-- The embedding is injective. -/
theorem map_inj {a b : Rat} (h : R.cast a = R.cast b) : a = b := by
  refine Classical.byContradiction (fun hne => ?_)
  have := R.map_ne_zero (a := a - b) (fun hc => hne (by
    have := Rat.sub_eq_add_neg a b
    rw [hc] at this
    have e2 := congrArg (· + b) this
    simp only [Rat.zero_add, Rat.add_assoc, Rat.neg_add_cancel, Rat.add_zero] at e2
    exact e2.symm))
  rw [R.map_sub, h] at this
  grind

/-- The embedding respects division by a nonzero rational. -/
theorem map_div {a b : Rat} (hb : b ≠ 0) : R.cast (a / b) = R.cast a / R.cast b := by
  have e := R.map_mul (a / b) b
  rw [Rat.div_mul_cancel hb] at e
  have := R.map_ne_zero hb
  generalize R.cast (a / b) = x at *
  generalize R.cast b = y at *
  grind

end RatEmb

end Alg

section Order

variable {α : Type} [Lean.Grind.Field α] [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α]
  [Lean.Grind.OrderedRing α]

namespace RatEmb

variable (R : RatEmb α)

/-- The embedding is strictly monotone. -/
theorem map_lt {a b : Rat} (h : a < b) : R.cast a < R.cast b := by
  have h1 := R.map_le a b (Rat.le_of_lt h)
  have h2 : R.cast a ≠ R.cast b := fun hc => Rat.lt_irrefl (R.map_inj hc ▸ h)
  exact Std.lt_of_le_of_ne h1 h2

/-- The embedding reflects the order. -/
theorem le_of_map_le {a b : Rat} (h : R.cast a ≤ R.cast b) : a ≤ b := by
  rcases Rat.le_total (a := a) (b := b) with h' | h'
  · exact h'
  · by_cases hab : b = a
    · rw [hab]; exact Rat.le_refl
    · have := R.map_lt (Rat.lt_of_le_of_ne h' hab); exact absurd h (Std.not_le.mpr this)

end RatEmb

end Order

/-! ### Sums over lists -/

section Sums

variable {α : Type} [Lean.Grind.Field α]

/-- Certificates, definition: `Σ_{e ∈ l} f e`. -/
noncomputable def lsum {β : Type} (l : List β) (f : β → α) : α :=
  match l with
  | [] => 0
  | e :: t => f e + lsum t f

/-- The empty sum. -/
theorem lsum_nil {β : Type} (f : β → α) : lsum [] f = 0 := rfl

/-- A sum's first term. -/
theorem lsum_cons {β : Type} (e : β) (t : List β) (f : β → α) : lsum (e :: t) f = f e + lsum t f := rfl

/-- A sum over concatenated lists. -/
theorem lsum_append {β : Type} (l m : List β) (f : β → α) : lsum (l ++ m) f = lsum l f + lsum m f := by
  induction l with
  | nil => simp [lsum_nil]; grind
  | cons e t ih => rw [List.cons_append, lsum_cons, lsum_cons, ih]; grind

/-- Sums of functions equal on the list. -/
theorem lsum_congr {β : Type} {l : List β} {f g : β → α} (h : ∀ e, e ∈ l → f e = g e) : lsum l f = lsum l g := by
  induction l with
  | nil => rfl
  | cons e t ih =>
    rw [lsum_cons, lsum_cons, h e (by simp), ih (fun x hx => h x (by simp [hx]))]

/-- A sum of zeros. -/
theorem lsum_zero {β : Type} {l : List β} {f : β → α} (h : ∀ e, e ∈ l → f e = 0) : lsum l f = 0 := by
  induction l with
  | nil => rfl
  | cons e t ih => rw [lsum_cons, h e (by simp), ih (fun x hx => h x (by simp [hx]))]; grind

/-- A sum of sums. -/
theorem lsum_add {β : Type} (l : List β) (f g : β → α) : lsum l (fun e => f e + g e) = lsum l f + lsum l g := by
  induction l with
  | nil => simp [lsum_nil]; grind
  | cons e t ih => rw [lsum_cons, lsum_cons, lsum_cons, ih]; grind

/-- A constant factor out of a sum. -/
theorem lsum_mul_const {β : Type} (l : List β) (f : β → α) (c : α) : lsum l (fun e => f e * c) = lsum l f * c := by
  induction l with
  | nil => simp [lsum_nil]; grind
  | cons e t ih => rw [lsum_cons, lsum_cons, ih]; grind

/-- A sum over a mapped list. -/
theorem lsum_map {β γ : Type} (l : List β) (m : β → γ) (f : γ → α) : lsum (l.map m) f = lsum l (fun e => f (m e)) := by
  induction l with
  | nil => rfl
  | cons e t ih => rw [List.map_cons, lsum_cons, lsum_cons, ih]

/-- A sum whose terms vanish but at the one element the filter keeps. -/
theorem lsum_of_filter_eq_single {β : Type} {l : List β} {p : β → Bool} {f : β → α} {e0 : β}
    (hf : l.filter p = [e0]) (h0 : ∀ e, e ∈ l → p e = false → f e = 0) : lsum l f = f e0 := by
  induction l with
  | nil => simp at hf
  | cons e t ih =>
    rw [lsum_cons]
    by_cases hp : p e = true
    · rw [List.filter_cons_of_pos hp] at hf
      simp only [List.cons.injEq] at hf
      obtain ⟨he, ht⟩ := hf
      rw [he, lsum_zero (fun x hx => h0 x (by simp [hx]) (by
        have : x ∉ t.filter p := by rw [ht]; simp
        simp only [List.mem_filter] at this
        cases hpx : p x
        · rfl
        · exact absurd ⟨hx, hpx⟩ this))]
      grind
    · rw [List.filter_cons_of_neg hp] at hf
      rw [h0 e (by simp) (by simpa using hp), ih hf (fun x hx => h0 x (by simp [hx]))]
      grind

/-- A sum whose terms all vanish (the filter keeps nothing). -/
theorem lsum_of_filter_eq_nil {β : Type} {l : List β} {p : β → Bool} {f : β → α}
    (hf : l.filter p = []) (h0 : ∀ e, e ∈ l → p e = false → f e = 0) : lsum l f = 0 := by
  refine lsum_zero (fun e he => h0 e he ?_)
  have : e ∉ l.filter p := by rw [hf]; simp
  simp only [List.mem_filter] at this
  cases hpe : p e
  · rfl
  · exact absurd ⟨he, hpe⟩ this

end Sums

/-! ### Sparse vectors -/

section Sparse

variable {α : Type} [Lean.Grind.Field α] [LE α] [LT α]

/-- Certificates, definition: a sparse vector (a column or a row of a weight matrix): entries
`(coordinate, weight)`, repeated coordinates adding up. -/
abbrev SVec := List (Nat × Rat)

/-- Certificates, definition: the entry of a sparse vector at coordinate `k` (the sum of the
weights listed for `k`). -/
noncomputable def svGet (v : SVec) (k : Nat) : Rat :=
  match v with
  | [] => 0
  | e :: t => (if e.1 = k then e.2 else 0) + svGet t k

/-- Certificates, definition: the dot product `Σ_k x_k v_k` of a vector `x : Nat → α` with a
sparse rational vector `v`. -/
noncomputable def dotv (R : RatEmb α) (x : Nat → α) (v : SVec) : α := lsum v (fun e => x e.1 * R.cast e.2)

/-- Checker: whether two sparse vectors have the same entry at every coordinate either lists. -/
noncomputable def sameVec (v T : SVec) : Bool :=
  (v.map (·.1) ++ T.map (·.1)).all (fun c => svGet v c == svGet T c)

/-- An unlisted coordinate has entry `0`. -/
theorem svGet_of_not_mem {v : SVec} {k : Nat} (h : k ∉ v.map (·.1)) : svGet v k = 0 := by
  induction v with
  | nil => rfl
  | cons e t ih =>
    simp only [List.map_cons, List.mem_cons, _root_.not_or] at h
    unfold svGet
    rw [if_neg (fun he => h.1 he.symm), ih h.2, Rat.zero_add]

/-- `sameVec` is sound: equal entries at every coordinate. -/
theorem sameVec_sound {v T : SVec} (h : sameVec v T = true) (k : Nat) : svGet v k = svGet T k := by
  unfold sameVec at h
  rw [List.all_eq_true] at h
  by_cases hk : k ∈ v.map (·.1) ++ T.map (·.1)
  · have := h k hk; simpa using this
  · simp only [List.mem_append, _root_.not_or] at hk
    rw [svGet_of_not_mem hk.1, svGet_of_not_mem hk.2]

/-- Some bound exceeds every coordinate a sparse vector lists. -/
theorem exists_bound (l : SVec) : ∃ D, ∀ e, e ∈ l → e.1 < D := by
  induction l with
  | nil => exact ⟨0, fun e he => by simp at he⟩
  | cons e t ih =>
    obtain ⟨D, hD⟩ := ih
    refine ⟨max D (e.1 + 1), fun x hx => ?_⟩
    simp only [List.mem_cons] at hx
    rcases hx with hx | hx
    · rw [hx]; omega
    · have := hD x hx; omega

/-- A sparse dot product as a dense sum over the coordinates below a bound. -/
theorem dotv_eq_sumTo (R : RatEmb α) (x : Nat → α) {v : SVec} {D : Nat} (hD : ∀ e, e ∈ v → e.1 < D) :
    dotv R x v = sumTo (fun c => x c * R.cast (svGet v c)) D := by
  induction v with
  | nil =>
    show (0 : α) = _
    rw [sumTo_congr (g := fun _ => (0 : α)) (fun c _ => by show x c * R.cast 0 = 0; rw [R.map_zero]; grind)]
    rw [sumTo_eq_zero_of_forall (fun _ _ => rfl)]
  | cons e t ih =>
    unfold dotv at ih ⊢
    rw [lsum_cons, ih (fun x hx => hD x (by simp [hx]))]
    have he := hD e (by simp)
    have e1 : sumTo (fun c => x c * R.cast (svGet (e :: t) c)) D
        = sumTo (fun c => (if c = e.1 then x e.1 * R.cast e.2 else 0) + x c * R.cast (svGet t c)) D := by
      refine sumTo_congr (fun c _ => ?_)
      show x c * R.cast ((if e.1 = c then e.2 else 0) + svGet t c) = _
      rw [R.map_add]
      by_cases hc : c = e.1
      · rw [if_pos hc.symm, if_pos hc, hc]; grind
      · rw [if_neg (fun h => hc h.symm), if_neg hc, R.map_zero]; grind
    rw [e1, sumTo_add_fun,
      sumTo_eq_single (f := fun c => if c = e.1 then x e.1 * R.cast e.2 else 0) he (fun j _ hj => by
        show (if j = e.1 then x e.1 * R.cast e.2 else 0) = 0
        rw [if_neg hj])]
    show _ = (if e.1 = e.1 then x e.1 * R.cast e.2 else 0) + _
    rw [if_pos rfl]

/-- A sparse dot product depends only on the entries' sums per coordinate. -/
theorem dotv_congr (R : RatEmb α) (x : Nat → α) {v T : SVec} (h : ∀ k, svGet v k = svGet T k) :
    dotv R x v = dotv R x T := by
  obtain ⟨D, hD⟩ := exists_bound (v ++ T)
  rw [dotv_eq_sumTo R x (D := D) (fun e he => hD e (by simp [he])),
    dotv_eq_sumTo R x (D := D) (fun e he => hD e (by simp [he]))]
  exact sumTo_congr (fun c _ => by rw [h c])

/-- The dot product with the empty vector. -/
theorem dotv_nil (R : RatEmb α) (x : Nat → α) : dotv R x [] = 0 := rfl

/-- A dot product's first entry. -/
theorem dotv_cons (R : RatEmb α) (x : Nat → α) (e : Nat × Rat) (t : SVec) :
    dotv R x (e :: t) = x e.1 * R.cast e.2 + dotv R x t := rfl

/-- A dot product over concatenated entries. -/
theorem dotv_append (R : RatEmb α) (x : Nat → α) (v T : SVec) :
    dotv R x (v ++ T) = dotv R x v + dotv R x T := lsum_append _ _ _

/-- A dot product only reads the listed coordinates. -/
theorem dotv_congr_x (R : RatEmb α) {x y : Nat → α} {v : SVec} (h : ∀ e, e ∈ v → x e.1 = y e.1) :
    dotv R x v = dotv R y v := lsum_congr (fun e he => by rw [h e he])

end Sparse

/-! ### The clamp unit pair -/

section Clamp

variable {α : Type} [Lean.Grind.Field α] [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α]
  [Lean.Grind.OrderedRing α]

/-- The clamp unit pair at `L ≥ -1/4` is `1`. -/
theorem clamp_eq_one {L : α} (h1 : -(1 / 4) ≤ L) :
    relu (2 * (L + 3 / 4)) - relu (2 * (L + 1 / 4)) = 1 := by
  unfold relu
  have a : ¬ 2 * (L + 3 / 4) ≤ 0 := by grind
  rw [if_neg a]
  by_cases b : 2 * (L + 1 / 4) ≤ 0
  · rw [if_pos b]
    have hL1 : L ≤ -(1 / 4) := by grind
    have hL : L = -(1 / 4) := Std.le_antisymm hL1 h1
    rw [hL]; grind
  · rw [if_neg b]; grind

/-- The clamp unit pair at `L ≤ -3/4` is `0`. -/
theorem clamp_eq_zero {L : α} (h : L ≤ -(3 / 4)) :
    relu (2 * (L + 3 / 4)) - relu (2 * (L + 1 / 4)) = 0 := by
  unfold relu
  rw [if_pos (by grind), if_pos (by grind)]; grind

/-- `ReLU x = x` for `x ≥ 0`. -/
theorem relu_of_nonneg {x : α} (h : 0 ≤ x) : relu x = x := by
  unfold relu
  by_cases hx : x ≤ 0
  · rw [if_pos hx]; grind
  · rw [if_neg hx]

end Clamp

end HardSoft.Cert

end
