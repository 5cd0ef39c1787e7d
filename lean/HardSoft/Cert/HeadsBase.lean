module

public import HardSoft.Cert.Sem

/-!
# Certificates, part 6: what one head computes, in general

The pieces every head family shares: the temperature rule's exponential bound from `1 + t ≤
exp t` (`exp_neg_le_errRule`), a head's weights read through their templates (`score_eq` and
`value_sum_eq`), and the output of a head whose scores have a unique maximum: exactly the target's
value in average-hard mode (`hard_out_eq`), within the softmax mass off the target in soft mode
(`soft_out_bounds`); and the output of a head whose scores all tie (counting): the count of its
keys where a node holds over the number of keys, exactly, in both modes (`tie_out_past`,
`tie_out_future`).

## Main results

* `HardSoft.Cert.exp_neg_le_errRule`, `HardSoft.Cert.hard_out_eq`, `HardSoft.Cert.soft_out_bounds`,
  `HardSoft.Cert.headOut_eq`.
* `HardSoft.Cert.weights_of_tie`, `HardSoft.Cert.tie_out_past`, `HardSoft.Cert.tie_out_future`: a
  head whose scores all tie (the count head) outputs a count over the number of keys, exactly, in
  both modes.
* `HardSoft.Cert.hard_group_out`: average-hard attention whose maximal keys are a group (the sign
  head's parity group) outputs the group's value exactly.
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

/-! ### A head whose scores all tie (counting) -/

/-- Every key counted. -/
theorem countMax_all {p : Nat → Bool} : ∀ {N : Nat}, (∀ k, k < N → p k = true) → countMax p N = N
  | 0, _ => rfl
  | N + 1, h => by
    rw [countMax_succ, countMax_all (fun k hk => h k (by omega)), h N (by omega)]
    rfl

/-- Counting (the count head, all scores equal): average-hard attention and softmax at any
temperature give every key the same weight `1/N`, so soft attention is hard attention exactly. -/
theorem weights_of_tie (mode : Mode α) {s : Nat → α} {c : α} {N : Nat} (hs : ∀ k, k < N → s k = c) :
    ∀ k, k < N → weights mode s N k = 1 / natCast N := by
  intro k hk
  cases mode with
  | hard =>
    show ahard s N k = _
    obtain ⟨k0, hk0, e⟩ := smax_mem s N (by omega)
    have hmax : hardMax s N = c := by rw [e, hs k0 hk0]
    unfold ahard
    rw [if_pos (by rw [hmax, hs k hk])]
    congr 2
    exact countMax_all (fun j hj => decide_eq_true (by rw [hmax, hs j hj]))
  | soft E tau => exact softmax_eq_uniform_of_const E hs k hk

/-- A sum of indicators is the number of positions where they hold. -/
theorem sumTo_ind (p : Nat → Prop) : ∀ N : Nat,
    sumTo (fun k => (ind (p k) : α)) N = natCast (countMax (fun j => decide (p j)) N)
  | 0 => rfl
  | N + 1 => by
    rw [sumTo_succ, sumTo_ind p N, countMax_succ, natCast_add]
    unfold ind
    by_cases h : p N
    · rw [if_pos h, if_pos (decide_eq_true h), natCast_succ, natCast_zero]; grind
    · rw [if_neg h, if_neg (by simpa using h), natCast_zero]; all_goals grind

/-- Counting: over `N` keys whose scores all tie, a head reading the 0/1 values `[p k]` outputs
`#{k < N : p k} / N` exactly, in average-hard mode and in softmax at any temperature. -/
theorem tie_out_eq (mode : Mode α) {s : Nat → α} {c : α} {N : Nat} (hs : ∀ k, k < N → s k = c) (p : Nat → Prop) :
    sumTo (fun k => weights mode s N k * ind (p k)) N = natCast (countMax (fun j => decide (p j)) N) / natCast N := by
  rw [sumTo_congr (g := fun k => (ind (p k) : α) / natCast N) (fun k hk => by
    rw [weights_of_tie mode hs k hk]; grind), sumTo_div_const, sumTo_ind]

/-- Counting, past (`#<`, strict mask: the keys `j < i`): a tied head's output is the count over
the number of keys. -/
theorem tie_out_past (mode : Mode α) {s : Nat → α} {c : α} {n i : Nat} (hs : ∀ k, k < i → s k = c) (p : Nat → Prop) :
    sumTo (fun k => weights mode s (Mask.strict.count n i) k * ind (p (Mask.strict.key i k))) (Mask.strict.count n i)
      = natCast (countIn p n i .lt) / natCast (Mask.strict.count n i) :=
  tie_out_eq mode hs p

/-- Counting, future (`#>`, strict anticausal mask: the keys `i < j < n`): a tied head's output is
the count over the number of keys. -/
theorem tie_out_future (mode : Mode α) {s : Nat → α} {c : α} {n i : Nat} (hs : ∀ k, k < n - 1 - i → s k = c) (p : Nat → Prop) :
    sumTo (fun k => weights mode s (Mask.strictAnti.count n i) k * ind (p (Mask.strictAnti.key i k))) (Mask.strictAnti.count n i)
      = natCast (countIn p n i .gt) / natCast (Mask.strictAnti.count n i) :=
  tie_out_eq mode hs (fun k => p (i + 1 + k))

/-! ### A head whose maximum is a group of keys (the sign head) -/

/-- A count that is positive counts some key. -/
theorem exists_of_countMax_pos {p : Nat → Bool} : ∀ {N : Nat}, 0 < countMax p N → ∃ j, j < N ∧ p j = true
  | 0, h => absurd h (Nat.lt_irrefl 0)
  | N + 1, h => by
    rw [countMax_succ] at h
    cases hp : p N with
    | true => exact ⟨N, by omega, hp⟩
    | false =>
      rw [hp] at h
      obtain ⟨j, hj, hpj⟩ := exists_of_countMax_pos (N := N) (by simpa using h)
      exact ⟨j, by omega, hpj⟩

/-- Counts of predicates that agree below `N` are equal. -/
theorem countMax_congr {p q : Nat → Bool} : ∀ {N : Nat}, (∀ j, j < N → p j = q j) → countMax p N = countMax q N
  | 0, _ => rfl
  | N + 1, h => by
    rw [countMax_succ, countMax_succ, countMax_congr (fun j hj => h j (by omega)), h N (by omega)]

/-- A sum of a constant over the keys of a group. -/
theorem sumTo_ite_group (grp : Nat → Bool) (c : α) : ∀ N : Nat,
    sumTo (fun j => if grp j = true then c else 0) N = natCast (countMax grp N) * c
  | 0 => by show (0 : α) = natCast 0 * c; rw [natCast_zero]; grind
  | N + 1 => by
    rw [sumTo_succ, sumTo_ite_group grp c N, countMax_succ, natCast_add]
    cases grp N with
    | true => rw [if_pos rfl, if_pos rfl, natCast_succ, natCast_zero]; grind
    | false => rw [if_neg Bool.false_ne_true, if_neg Bool.false_ne_true, natCast_zero]; grind

/-- Average-hard attention whose maximal keys are a group (scores `smax` on it, at most
`smax - γ` off it, `γ > 0`), over values equal to `a` on the group: the output is `a` exactly
(the sign head: the selected parity group). -/
theorem hard_group_out {s v : Nat → α} {grp : Nat → Bool} {smax γ a : α} {N : Nat} (hγ : 0 < γ)
    (hm : 0 < countMax grp N) (hmax : ∀ j, j < N → grp j = true → s j = smax)
    (hoff : ∀ j, j < N → grp j = false → s j ≤ smax - γ) (hv : ∀ j, j < N → grp j = true → v j = a) :
    sumTo (fun j => ahard s N j * v j) N = a := by
  obtain ⟨j0, hj0, hg0⟩ := exists_of_countMax_pos hm
  have hlt : ∀ j, j < N → grp j = false → s j < smax := fun j hj hg => by
    have := hoff j hj hg; grind
  have hle : ∀ j, j < N → s j ≤ smax := fun j hj => by
    cases hg : grp j with
    | true => rw [hmax j hj hg]; exact Std.le_refl _
    | false => exact Std.le_of_lt (hlt j hj hg)
  have hM : hardMax s N = smax := by
    obtain ⟨k0, hk0, e⟩ := smax_mem s N (by omega)
    have h1 := smax_ge s N j0 hj0
    rw [hmax j0 hj0 hg0] at h1
    rw [e] at h1 ⊢
    exact Std.le_antisymm (hle k0 hk0) h1
  have hiff : ∀ j, j < N → (s j = hardMax s N ↔ grp j = true) := fun j hj => by
    rw [hM]
    constructor
    · intro e
      cases hg : grp j with
      | true => rfl
      | false => have := hlt j hj hg; rw [e] at this; exact absurd (Std.le_refl smax) (Std.not_le.mpr this)
    · intro hg; exact hmax j hj hg
  have hc : countMax (fun j => decide (s j = hardMax s N)) N = countMax grp N :=
    countMax_congr (fun j hj => by
      cases hg : grp j with
      | true => exact decide_eq_true ((hiff j hj).mpr hg)
      | false => exact decide_eq_false (fun e => by have := (hiff j hj).mp e; rw [hg] at this; cases this))
  have hm' : (0 : α) < natCast (countMax grp N) :=
    Std.lt_of_lt_of_le Lean.Grind.OrderedRing.zero_lt_one (one_le_natCast_of_pos hm)
  rw [sumTo_congr (g := fun j => if grp j = true then 1 / natCast (countMax grp N) * a else 0) (fun j hj => by
    unfold ahard
    rw [hc]
    dsimp only
    cases hg : grp j with
    | true => rw [if_pos ((hiff j hj).mpr hg), if_pos rfl, hv j hj hg]
    | false =>
      rw [if_neg (fun e => by have := (hiff j hj).mp e; rw [hg] at this; cases this), if_neg Bool.false_ne_true]
      grind), sumTo_ite_group]
  generalize (natCast (countMax grp N) : α) = M at *
  have : M ≠ 0 := fun e => by rw [e] at hm'; exact Std.not_le.mpr hm' (Std.le_refl _)
  grind

end Base

end HardSoft.Cert

end
