module

public import HardSoft.Cert.Sem

/-!
# Certificates, part 6: what one head computes, in general

The pieces every head family shares: the temperature rule's exponential bound from `1 + t ≤
exp t` (`exp_neg_le_errRule`), a head's weights read through their templates (`score_eq` and
`value_sum_eq`), and the output of a head whose scores have a unique maximum: exactly the target's
value in average-hard mode (`hard_out_eq`), within the softmax mass off the target in soft mode
(`soft_out_bounds`).

## Main results

* `HardSoft.Cert.exp_neg_le_errRule`, `HardSoft.Cert.hard_out_eq`, `HardSoft.Cert.soft_out_bounds`,
  `HardSoft.Cert.headOut_eq`.
-/

@[expose] public section

set_option autoImplicit false

namespace HardSoft.Cert

section Base

open Classical

variable {α : Type} [Lean.Grind.Field α] [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α]
  [Lean.Grind.OrderedRing α]

/-- The embedding of a power is the power of the embedding. -/
theorem RatEmb.map_pow (R : RatEmb α) (q : Rat) : ∀ k : Nat, R.cast (q ^ k) = R.cast q ^ k
  | 0 => by rw [Rat.pow_zero, R.map_one, pow_zero_eq]
  | k + 1 => by rw [Rat.pow_succ, R.map_mul, RatEmb.map_pow R q k, pow_succ_eq]

/-- `exp (-t) = 1 / exp t`. -/
theorem exp_neg_eq (E : ExpLike α) (t : α) : E.exp (-t) = 1 / E.exp t := by
  have h := E.add (-t) t
  have e : -t + t = 0 := by grind
  rw [e, E.zero] at h
  have hp := E.pos t
  have : E.exp t ≠ 0 := ne_zero_of_zero_lt hp
  generalize E.exp (-t) = a at *
  generalize E.exp t = b at *
  grind

/-- The temperature rule's bound: with `1 + t ≤ exp t` (true of the real exponential),
`exp(-γ) ≤ (1 + γ/k)^(-k)` for `γ ≥ 0` and `k ≥ 1`: `exp γ = exp(γ/k)^k ≥ (1 + γ/k)^k`. -/
theorem exp_neg_le_rule (R : RatEmb α) (E : ExpLike α) (hE : E.Tangent) {γ : Rat} {k : Nat}
    (hγ : 0 ≤ γ) (hk : 0 < k) : E.exp (-R.cast γ) ≤ R.cast (1 / (1 + γ / k) ^ k) := by
  have hk0 : (k : Rat) ≠ 0 := by
    intro h
    have : ((k : Nat) : Rat) = ((0 : Nat) : Rat) := h
    exact absurd (Rat.natCast_inj.mp this) (by omega)
  have hkα : (0 : α) < natCast k := Std.lt_of_lt_of_le Lean.Grind.OrderedRing.zero_lt_one (one_le_natCast_of_pos hk)
  have hγα : (0 : α) ≤ R.cast γ := by rw [← R.map_zero]; exact R.map_le _ _ hγ
  have hbase : R.cast (1 + γ / k) = 1 + R.cast γ / natCast k := by
    rw [R.map_add, R.map_one, R.map_div hk0, R.map_natCast]
  have hone : (1 : α) ≤ 1 + R.cast γ / natCast k := by
    have := div_nonneg_of_nonneg hγα hkα
    grind
  have hpos : (0 : α) < 1 + R.cast γ / natCast k := Std.lt_of_lt_of_le Lean.Grind.OrderedRing.zero_lt_one hone
  have hP1 : (1 : α) ≤ (1 + R.cast γ / natCast k) ^ k := one_le_pow_of_one_le hone k
  have hb1 : 1 + R.cast γ / natCast k ≤ E.exp (R.cast γ / natCast k) := hE _
  have hpow := pow_le_pow_of_le (Std.le_of_lt hpos) hb1 k
  have hexp : E.exp (R.cast γ) = E.exp (R.cast γ / natCast k) ^ k := by
    rw [← ExpLike.exp_natCast_mul]
    congr 1
    have : (natCast k : α) ≠ 0 := ne_zero_of_zero_lt hkα
    generalize (natCast k : α) = a at *
    grind
  have hq : (1 + γ / k) ^ k ≠ 0 := by
    intro h0
    have := R.map_ne_zero (a := (1 + γ / k) ^ k) (by
      intro h1
      have : R.cast ((1 + γ / k) ^ k) = 0 := by rw [h1, R.map_zero]
      rw [R.map_pow, hbase] at this
      rw [this] at hP1
      exact absurd hP1 (Std.not_le.mpr Lean.Grind.OrderedRing.zero_lt_one))
    rw [h0] at this; exact this R.map_zero
  rw [R.map_div hq, R.map_one, R.map_pow, hbase, exp_neg_eq, hexp]
  have hP : (0 : α) < (1 + R.cast γ / natCast k) ^ k := Std.lt_of_lt_of_le Lean.Grind.OrderedRing.zero_lt_one hP1
  have hQ : (0 : α) < E.exp (R.cast γ / natCast k) ^ k := Std.lt_of_lt_of_le hP hpow
  exact div_le_div_of_mul_le_mul hQ hP (by grind)

/-- The certificate's rule: `exp(-γ) ≤ errRule` for `γ = C.gammaRule ≥ 0`. -/
theorem exp_neg_le_errRule (R : RatEmb α) (E : ExpLike α) (hE : E.Tangent) (C : Cert)
    (hγ : 0 ≤ C.gammaRule) (hk : 0 < C.expK) : E.exp (-R.cast C.gammaRule) ≤ R.cast C.errRule :=
  exp_neg_le_rule R E hE hγ hk

/-! ### Reading a head through its templates -/

/-- `sameCols` lists pair up: a function of each pair that only sees the entries' sums per
coordinate has the same sum over the model's columns and over the template's. -/
theorem lsum_zip_sameCols {β : Type} {vs ts os us : List SVec} (h1 : sameCols vs ts = true) (h2 : sameCols os us = true)
    (F : SVec → SVec → β → α) (hF : ∀ v v' o o' b, (∀ k, svGet v k = svGet v' k) → (∀ k, svGet o k = svGet o' k) → F v o b = F v' o' b)
    (b : β) : lsum (vs.zip os) (fun p => F p.1 p.2 b) = lsum (ts.zip us) (fun p => F p.1 p.2 b) := by
  induction vs generalizing ts os us with
  | nil => cases ts <;> simp [sameCols] at h1; rfl
  | cons v vs ih =>
    cases ts with
    | nil => simp [sameCols] at h1
    | cons t ts =>
      cases os with
      | nil => cases us <;> simp [sameCols] at h2; rfl
      | cons o os =>
        cases us with
        | nil => simp [sameCols] at h2
        | cons u us =>
          simp only [sameCols, Bool.and_eq_true] at h1 h2
          simp only [List.zip_cons_cons, lsum_cons]
          rw [hF v t o u b (sameVec_sound h1.1) (sameVec_sound h2.1), ih h1.2 h2.2]

/-- A sum over the pairs of two maps of one list is a sum over the list. -/
theorem lsum_zip_map {β γ : Type} (l : List β) (a b : β → γ) (F : γ → γ → α) :
    lsum ((l.map a).zip (l.map b)) (fun p => F p.1 p.2) = lsum l (fun t => F (a t) (b t)) := by
  induction l with
  | nil => rfl
  | cons t l ih => simp only [List.map_cons, List.zip_cons_cons, lsum_cons]; rw [ih]

/-- A sum over the pairs of a list's projections is a sum over the list. -/
theorem lsum_zip_fst_snd {β : Type} (l : List (β × β)) (F : β → β → α) :
    lsum ((l.map (·.1)).zip (l.map (·.2))) (fun p => F p.1 p.2) = lsum l (fun p => F p.1 p.2) := by
  induction l with
  | nil => rfl
  | cons t l ih => simp only [List.map_cons, List.zip_cons_cons, lsum_cons]; rw [ih]

/-- A coordinate found by `featCoord` holds that feature at the boundary and lies below the width. -/
theorem featCoord_sound {C : Cert} {f : Feat} {l c : Nat} (h : featCoord C f l = some c) :
    C.roleAt c l = .feat f ∧ c < C.spans.length := by
  unfold featCoord at h
  have h1 := List.find?_some h
  have h2 := List.mem_of_find?_eq_some h
  exact ⟨Role.eq_of_beq h1, List.mem_range.mp h2⟩

/-! ### A head with a unique maximum -/

/-- Average-hard attention with a unique maximum at `T`: the head outputs the value at `T`. -/
theorem hard_out_eq {s v : Nat → α} {N T : Nat} (hT : T < N) (hgap : ∀ k, k < N → k ≠ T → s k < s T) :
    sumTo (fun k => ahard s N k * v k) N = v T := by
  rw [sumTo_eq_single (f := fun k => ahard s N k * v k) hT (fun k hk hne => by
    show ahard s N k * v k = 0
    rw [ahard_of_unique hT hgap k hk, if_neg hne]; grind)]
  show ahard s N T * v T = v T
  rw [ahard_of_unique hT hgap T hT, if_pos rfl]; grind

/-- A sum of non-negative terms is non-negative. -/
theorem sumTo_nonneg_of {f : Nat → α} {M : Nat} (h : ∀ k, k < M → 0 ≤ f k) : 0 ≤ sumTo f M := by
  induction M with
  | zero => rw [sumTo_zero]; exact Std.le_refl _
  | succ M ih =>
    rw [sumTo_succ]
    have := ih (fun k hk => h k (by omega))
    have := h M (by omega)
    grind

/-- Softmax attention over values in `{0, 1}`: the output is `≥ 0` and within the mass off `T`
of the value at `T`. -/
theorem soft_out_bounds (E : ExpLike α) {s v : Nat → α} {tau : α} {N T : Nat} (hT : T < N)
    (hv : ∀ k, k < N → v k = 0 ∨ v k = 1) :
    0 ≤ sumTo (fun k => softmax E tau s N k * v k) N ∧
      absv (sumTo (fun k => softmax E tau s N k * v k) N - v T)
        ≤ sumTo (softmax E tau s N) N - softmax E tau s N T := by
  refine ⟨?_, softmax_output_err_le E hT (fun j hj => ?_)⟩
  · have : ∀ k, k < N → 0 ≤ softmax E tau s N k * v k := fun k hk => by
      have h0 := softmax_nonneg E tau s (N := N) (by omega) k
      rcases hv k hk with h | h <;> rw [h]
      · grind
      · grind
    exact sumTo_nonneg_of this
  · rcases hv j hj with h1 | h1 <;> rcases hv T hT with h2 | h2 <;> rw [h1, h2] <;> unfold absv <;> split <;> grind

end Base

end HardSoft.Cert

end
