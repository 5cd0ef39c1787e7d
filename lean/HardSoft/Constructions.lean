module

public import HardSoft.Exp
public import HardSoft.Composition

/-!
# The construction heads, for every `n`: tie-breaking, table lookup, counting, comparison, read-out

The attention heads the project's compilers build (`constructive/heads.py`), with their score
formulas written out, and the facts that make soft attention simulate them at every input
length `n` (Yang, Strobl, Chiang, Angluin, "Simulating Hard Attention Using Soft Attention",
arXiv 2412.09925):

* Lemma 6 without sorting: scores that sit at pairwise distinct integer multiples of `g` below
  the top one (`s_t - s_j ≥ d_j g`, the `d_j ≥ 1` distinct) have softmax mass off the top at
  most `exp(-g/τ)`, whatever `N` (the sorted form, "the `k`-th largest is `≤ s_t - k g`", is
  what statement Z needs; distinct naturals give it, and the proof here sums the geometric
  series over the distinct exponents directly, so no sorting permutation is needed).
* Lemma 8 (tie-breaking), both directions and both regimes: the scores are an affine image
  `g c_j + b` of pairwise distinct natural keys `c_j` whose largest is at the intended key
  `j*` (rightmost selected `j < i`, or the rightmost `j < i` when none is selected; leftmost
  `j > i` for the future), so every other key is at least `g` below `j*` (`g = K/n` bounded,
  `g = K` unbounded) and the mass off `j*` is at most `exp(-g/τ)`.
* Lemma 7 (table lookup, parabolic scores `K (2 t j - j^2)`; also S-RASP's lookup over
  positions, `(2 p S - p^2)/i`, gap `1/i`): the target `t` is `K (t - j)^2`
  above key `j`; one-sided masks give a ziggurat of step `K` (mass off `t ≤ exp(-K/τ)`),
  both sides a gap `K`; the bounded form has step `K/n^2`.
* Counting (uniform attention): equal scores give softmax weights exactly `1/N` at every
  temperature, the average-hard weights.
* Comparison (sign head): `|V| = (2m+1)/(2D)` with `1 ≤ D ≤ n` gives the gap
  `2K|V| ≥ K/n` (bounded) and `2K|V| n ≥ K` (unbounded).
* The read-out clamp of the compilers' feed-forward layers (`constructive/logic/compiler.py`):
  leaves within `1/(4m)` of their 0/1 values make `ReLU(2(L_σ - |σ| + 3/4)) - ReLU(2(L_σ - |σ|
  + 1/4))` exactly `1` on the true assignment and exactly `0` on every other; the temperature
  rule `τ = c/n` with `exp(-1/c) ≤ 1/(16 m)` (`c = 1/ln(16 m)`) keeps every tie-breaking head's
  mass off below `1/(16 m)`.

Positions are `0, ..., N-1`; a head whose visible keys are `j > i` is read at `k = j - (i+1)`.

## Main results

* `HardSoft.softmax_mass_off_top_le_of_distinct`, `HardSoft.softmax_mass_off_top_le_of_keys`:
  Lemma 6 for distinct multiples.
* `HardSoft.tiebreak_past_bounded`, `HardSoft.tiebreak_future_bounded`,
  `HardSoft.tiebreak_past_unbounded`, `HardSoft.tiebreak_future_unbounded`: Lemma 8.
* `HardSoft.lookup_gap`, `HardSoft.lookup_gap_bounded`, `HardSoft.lookup_past`,
  `HardSoft.lookup_future`, `HardSoft.lookup_past_bounded`: Lemma 7.
* `HardSoft.softmax_eq_uniform_of_const`: counting; `HardSoft.sign_gap_bounded`,
  `HardSoft.sign_gap_unbounded`: comparison.
* `HardSoft.tiebreak_past_bounded_at_rule`: the bounded regime's temperature rule (`τ = c/n`).
* `HardSoft.clampUnit_eq_one`, `HardSoft.clampUnit_eq_zero`: the read-out clamp.
* `HardSoft.srasp_lookup_gap`, `HardSoft.srasp_lookup_gap_neg`: S-RASP's lookup over positions.

Proved in `HeadMass.lean`, not here: the two-sided lookup's mass bound `2x/(1-x)`, the sign
head's mass bound, the head-output error `≤` mass off, the other heads' temperature rules and the
mass bound of S-RASP's lookup over positions at the compilers' rules;
in `Applications.lean`: the S-RASP heads other than the lookup over positions (`Once`, the Dyck
partner head).
-/

@[expose] public section

set_option autoImplicit false

namespace HardSoft

open Lean.Grind

variable {α : Type} [Lean.Grind.Field α]

/-- Lemma 8 (tie-breaking), helper: the `0/1` value in `α` of `if b then m else 0`. -/
theorem natCast_ite (b : Bool) (m : Nat) :
    (natCast (if b then m else 0) : α) = natCast m * (if b then 1 else 0) := by
  cases b <;> simp [natCast_zero] <;> grind

/-- Lemma 6 (ziggurat), helper: a sum is additive in its summand. -/
theorem sumTo_add_fun (f h : Nat → α) (N : Nat) :
    sumTo (fun j => f j + h j) N = sumTo f N + sumTo h N := by
  induction N with
  | zero => rw [sumTo_zero, sumTo_zero, sumTo_zero]; exact (Lean.Grind.Semiring.add_zero 0).symm
  | succ n ih => rw [sumTo_succ, sumTo_succ, sumTo_succ, ih]; grind

/-- Lemma 6 (ziggurat), helper: a sum whose terms vanish is `0`. -/
theorem sumTo_eq_zero_of_forall {f : Nat → α} {N : Nat} (h : ∀ j, j < N → f j = 0) :
    sumTo f N = 0 := by
  induction N with
  | zero => rw [sumTo_zero]
  | succ n ih => rw [sumTo_succ, ih (fun j hj => h j (by omega)), h n (by omega)]; grind

/-- Lemma 6 (ziggurat), helper: a sum with one non-zero term `f j0` equals it. -/
theorem sumTo_eq_single {f : Nat → α} {N j0 : Nat} (hj0 : j0 < N)
    (h : ∀ j, j < N → j ≠ j0 → f j = 0) : sumTo f N = f j0 := by
  induction N with
  | zero => omega
  | succ n ih =>
    rw [sumTo_succ]
    by_cases hn : j0 = n
    · subst hn
      rw [sumTo_eq_zero_of_forall (fun j hj => h j (by omega) (by omega))]
      grind
    · rw [ih (by omega) (fun j hj hne => h j (by omega) hne), h n (by omega) (by omega)]
      grind

/-- Lemma 7 (table lookup), unbounded regime (`constructive/heads.py`, `lookup_head`): the score
of key `j` for the target `t`, `K (2 t j - j^2)`. -/
noncomputable def lookupScore (K : α) (t j : Nat) : α :=
  K * (2 * natCast t * natCast j - natCast j * natCast j)

/-- Lemma 7 (table lookup), bounded regime: the score of key `j` for the target `t`,
`K (2 (t/n)(j/n) - (j/n)^2)`. -/
noncomputable def lookupScoreBounded (K : α) (n t j : Nat) : α :=
  K * (2 * (natCast t / natCast n) * (natCast j / natCast n)
    - (natCast j / natCast n) * (natCast j / natCast n))

/-- Lemma 7 (table lookup), helper: `2tj - j^2 = t^2 - (t - j)^2`, so the target is
`K (t - j)^2` above key `j`. -/
theorem lookupScore_sub (K : α) (t j : Nat) :
    lookupScore K t t - lookupScore K t j
      = K * ((natCast t - natCast j) * (natCast t - natCast j)) := by
  unfold lookupScore
  grind

/-- Counting (uniform attention), helper: `N` ones sum to `N`. -/
theorem sumTo_one (N : Nat) : sumTo (fun _ => (1 : α)) N = natCast N := by
  induction N with
  | zero => rw [sumTo_zero, natCast_zero]
  | succ n ih => rw [sumTo_succ, ih, natCast_succ]

variable [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α]

/-! ### Lemma 6 for pairwise distinct multiples of the step -/

/-- Lemma 6 (ziggurat), helper: the sum without the term at `t < N`, plus that term, is the
sum. -/
theorem sumTo_ite_ne_add {w : Nat → α} {N t : Nat} (ht : t < N) :
    sumTo (fun j => if j = t then 0 else w j) N + w t = sumTo w N := by
  induction N with
  | zero => omega
  | succ n ih =>
    rw [sumTo_succ, sumTo_succ]
    by_cases hn : t = n
    · subst hn
      have : sumTo (fun j => if j = t then 0 else w j) t = sumTo w t :=
        sumTo_congr (fun j hj => by simp [show j ≠ t by omega])
      rw [this]
      simp <;> grind
    · have := ih (by omega)
      simp [show n ≠ t by omega]
      grind

/-- Lemma 6 (ziggurat), helper: finitely many naturals have a strict upper bound. -/
theorem exists_forall_lt (d : Nat → Nat) (N : Nat) : ∃ M, ∀ j, j < N → d j < M := by
  induction N with
  | zero => exact ⟨0, fun j hj => by omega⟩
  | succ n ih =>
    obtain ⟨M, hM⟩ := ih
    refine ⟨M + d n + 1, fun j hj => ?_⟩
    by_cases h : j = n
    · subst h; omega
    · have := hM j (by omega); omega

/-- Lemma 6 (ziggurat), helper: among `j < N`, `j ≠ t`, at most one has `d j = M` (the `d j` are
distinct), so those terms sum to at most `x^M`. -/
theorem sumTo_level_le {w : Nat → α} {d : Nat → Nat} {x : α} {N t M : Nat}
    (hinj : ∀ a b, a < N → b < N → a ≠ t → b ≠ t → d a = d b → a = b)
    (hw : ∀ j, j < N → j ≠ t → w j ≤ x ^ d j) (hx0 : 0 ≤ x) :
    sumTo (fun j => if j ≠ t ∧ d j = M then w j else 0) N ≤ x ^ M := by
  by_cases hex : ∃ j0, j0 < N ∧ j0 ≠ t ∧ d j0 = M
  · obtain ⟨j0, hj0, hjt, hjM⟩ := hex
    rw [sumTo_eq_single hj0 (fun j hj hne => by
      have : ¬ (j ≠ t ∧ d j = M) := fun ⟨h1, h2⟩ => hne (hinj j j0 hj hj0 h1 hjt (by omega))
      simp only [this]; rfl)]
    rw [if_pos (⟨hjt, hjM⟩ : j0 ≠ t ∧ d j0 = M)]
    have := hw j0 hj0 hjt
    rw [hjM] at this
    exact this
  · rw [sumTo_eq_zero_of_forall (fun j hj => by
      have : ¬ (j ≠ t ∧ d j = M) := fun ⟨h1, h2⟩ => hex ⟨j, hj, h1, h2⟩
      simp only [this]; rfl)]
    exact pow_nonneg_of_nonneg hx0 M

/-- Lemma 6 (ziggurat), the geometric series over distinct exponents: with `w j ≤ x^{d j}` for
`j ≠ t`, the `d j ≥ 1` distinct and `0 ≤ x ≤ 1`, the terms with `d j ≤ M` sum to `S` with
`S (1 - x) ≤ x - x^{M+1}`. -/
theorem sumTo_levels_mul_le {w : Nat → α} {d : Nat → Nat} {x : α} {N t : Nat}
    (hd : ∀ j, j < N → j ≠ t → 0 < d j)
    (hinj : ∀ a b, a < N → b < N → a ≠ t → b ≠ t → d a = d b → a = b)
    (hw : ∀ j, j < N → j ≠ t → w j ≤ x ^ d j) (hx0 : 0 ≤ x) (hx1 : x ≤ 1) (M : Nat) :
    sumTo (fun j => if j ≠ t ∧ d j < M + 1 then w j else 0) N * (1 - x) ≤ x - x ^ (M + 1) := by
  induction M with
  | zero =>
    rw [sumTo_eq_zero_of_forall (fun j hj => by
      have : ¬ (j ≠ t ∧ d j < 0 + 1) := fun ⟨h1, h2⟩ => by have := hd j hj h1; omega
      simp only [this]; rfl)]
    rw [pow_succ_eq, pow_zero_eq]
    grind
  | succ M ih =>
    have hsplit : sumTo (fun j => if j ≠ t ∧ d j < M + 1 + 1 then w j else 0) N
        = sumTo (fun j => if j ≠ t ∧ d j < M + 1 then w j else 0) N
          + sumTo (fun j => if j ≠ t ∧ d j = M + 1 then w j else 0) N := by
      rw [← sumTo_add_fun]
      apply sumTo_congr
      intro j _
      by_cases h1 : j = t
      · simp [h1] <;> grind
      · by_cases h2 : d j < M + 1
        · simp [h1, h2, show d j ≠ M + 1 by omega, show d j < M + 1 + 1 by omega] <;> grind
        · by_cases h3 : d j = M + 1
          · simp [h1, h3] <;> grind
          · simp [h1, h2, h3, show ¬ d j < M + 1 + 1 by omega] <;> grind
    have hlev := sumTo_level_le (M := M + 1) hinj hw hx0
    have h1x : (0 : α) ≤ 1 - x := Lean.Grind.OrderedAdd.sub_nonneg_iff.mpr (by assumption)
    rw [hsplit]
    have hprod := OrderedRing.mul_le_mul_of_nonneg_right
      (Std.le_refl (sumTo (fun j => if j ≠ t ∧ d j < M + 1 then w j else 0) N)) h1x
    have hl := OrderedRing.mul_le_mul_of_nonneg_right hlev h1x
    rw [pow_succ_eq x (M + 1)]
    generalize x ^ (M + 1) = P at ih hl ⊢
    generalize sumTo (fun j => if j ≠ t ∧ d j < M + 1 then w j else 0) N = A at ih hprod ⊢
    generalize sumTo (fun j => if j ≠ t ∧ d j = M + 1 then w j else 0) N = B at hl ⊢
    grind

/-- Lemma 6 (ziggurat) for distinct exponents, weight form: `w t = 1`, `w j ≥ 0`, and for
`j ≠ t` `w j ≤ x^{d j}` with the `d j ≥ 1` pairwise distinct, `0 ≤ x ≤ 1`: the weight off `t` is
at most `x` of the total. -/
theorem sumTo_sub_top_div_le_of_distinct {w : Nat → α} {d : Nat → Nat} {x : α} {N t : Nat}
    (ht : t < N) (hwt : w t = 1) (hnn : ∀ j, j < N → 0 ≤ w j)
    (hd : ∀ j, j < N → j ≠ t → 0 < d j)
    (hinj : ∀ a b, a < N → b < N → a ≠ t → b ≠ t → d a = d b → a = b)
    (hw : ∀ j, j < N → j ≠ t → w j ≤ x ^ d j) (hx0 : 0 ≤ x) (hx1 : x ≤ 1) :
    (sumTo w N - w t) / sumTo w N ≤ x := by
  obtain ⟨M, hM⟩ := exists_forall_lt d N
  have hF := sumTo_levels_mul_le hd hinj hw hx0 hx1 M
  have hoff : sumTo (fun j => if j ≠ t ∧ d j < M + 1 then w j else 0) N = sumTo w N - w t := by
    have h1 := sumTo_ite_ne_add (w := w) ht
    have h2 : sumTo (fun j => if j ≠ t ∧ d j < M + 1 then w j else 0) N
        = sumTo (fun j => if j = t then 0 else w j) N := by
      apply sumTo_congr
      intro j hj
      have := hM j hj
      by_cases hjt : j = t
      · simp [hjt]
      · simp [hjt, show d j < M + 1 by omega]
    rw [h2]
    grind
  have hoff0 : 0 ≤ sumTo w N - w t := by
    rw [← sumTo_ite_ne_add (w := w) ht]
    have := sumTo_nonneg (f := fun j => if j = t then (0 : α) else w j) (H := N)
      (fun j hj => by by_cases hjt : j = t <;> simp [hjt] <;> grind)
    grind
  have hP := pow_nonneg_of_nonneg hx0 (M + 1)
  rw [hoff] at hF
  have hS : 0 < sumTo w N := by grind
  apply div_le_of_le_mul hS
  rw [hwt] at hF ⊢
  generalize x ^ (M + 1) = P at hF hP
  generalize sumTo w N = S at hF hoff0 hS ⊢
  have e : (S - 1) * (1 - x) = S - 1 - x * S + x := by grind
  rw [e] at hF
  generalize x * S = Q at hF ⊢
  grind

/-- Lemma 6 (ziggurat) for pairwise distinct multiples, from scores: for `t < N`, `τ > 0`,
`g ≥ 0`, and natural numbers `d j ≥ 1` (`j ≠ t`), pairwise distinct, with
`s_t - s_j ≥ d_j g`, the softmax mass off `t` is at most `exp(-g/τ)`, whatever `N`. -/
theorem softmax_mass_off_top_le_of_distinct (E : ExpLike α) {s : Nat → α} {d : Nat → Nat}
    {g tau : α} {N t : Nat} (ht : t < N) (htau : 0 < tau) (hg : 0 ≤ g)
    (hd : ∀ j, j < N → j ≠ t → 0 < d j)
    (hinj : ∀ a b, a < N → b < N → a ≠ t → b ≠ t → d a = d b → a = b)
    (hgap : ∀ j, j < N → j ≠ t → natCast (d j) * g ≤ s t - s j) :
    sumTo (softmax E tau s N) N - softmax E tau s N t ≤ E.exp (-g / tau) := by
  have hsum : sumTo (softmax E tau s N) N - softmax E tau s N t
      = (sumTo (fun k => E.exp ((s k - s t) / tau)) N - E.exp ((s t - s t) / tau))
        / sumTo (fun k => E.exp ((s k - s t) / tau)) N := by
    have h1 : sumTo (softmax E tau s N) N
        = sumTo (fun k => E.exp ((s k - s t) / tau)
            / sumTo (fun k => E.exp ((s k - s t) / tau)) N) N := by
      apply sumTo_congr
      intro k _
      rw [softmax_eq_div_sumTo E tau (s t)]
    rw [h1, sumTo_div_const, softmax_eq_div_sumTo E tau (s t)]
    grind
  rw [hsum]
  exact sumTo_sub_top_div_le_of_distinct (d := d) ht (weight_eq_one_of_eq_max E rfl)
    (fun j _ => Std.le_of_lt (E.pos _)) hd hinj
    (fun j hj hjt => weight_le_pow_of_ziggurat E htau (hgap j hj hjt))
    (Std.le_of_lt (E.pos _)) (exp_neg_div_le_one E hg htau)

/-- Lemma 6 (ziggurat) for scores on distinct natural keys: if `s_k = g c_k + b` (`k < N`) with
the naturals `c_k` pairwise distinct and largest at `t < N`, `g ≥ 0`, `τ > 0`, then every
`k ≠ t` has `s_k ≤ s_t - g`, and the softmax mass off `t` is at most `exp(-g/τ)`. -/
theorem softmax_mass_off_top_le_of_keys (E : ExpLike α) {s : Nat → α} {c : Nat → Nat}
    {g b tau : α} {N t : Nat} (ht : t < N) (htau : 0 < tau) (hg : 0 ≤ g)
    (hs : ∀ k, k < N → s k = g * natCast (c k) + b)
    (hinj : ∀ k k', k < N → k' < N → c k = c k' → k = k')
    (htop : ∀ k, k < N → c k ≤ c t) :
    (∀ k, k < N → k ≠ t → s k ≤ s t - g) ∧
      sumTo (softmax E tau s N) N - softmax E tau s N t ≤ E.exp (-g / tau) := by
  have hdiff : ∀ k, k < N → s t - s k = natCast (c t - c k) * g := by
    intro k hk
    have e : (natCast (c t) : α) = natCast (c t - c k) + natCast (c k) := by
      rw [← natCast_add]; congr 1; have := htop k hk; omega
    rw [hs t ht, hs k hk, e]
    grind
  have hpos : ∀ k, k < N → k ≠ t → 0 < c t - c k := by
    intro k hk hkt
    have := htop k hk
    have : c k ≠ c t := fun h => hkt (hinj k t hk ht h)
    omega
  refine ⟨fun k hk hkt => ?_, ?_⟩
  · have h1 := one_le_natCast_of_pos (α := α) (hpos k hk hkt)
    have h2 := OrderedRing.mul_le_mul_of_nonneg_right h1 hg
    have := hdiff k hk
    grind
  · refine softmax_mass_off_top_le_of_distinct E (d := fun k => c t - c k) ht htau hg hpos
      (fun a a' ha ha' _ _ h => ?_) (fun k hk _ => by rw [hdiff k hk]; exact Std.le_refl _)
    have := htop a ha
    have := htop a' ha'
    exact hinj a a' ha ha' (by simp only at h; omega)

/-! ### Lemma 8: the tie-breaking head -/

/-- Lemma 8 (tie-breaking), definition: the rightmost `j < N` with `sel j` (`none` if there is
none). -/
def lastSel (sel : Nat → Bool) : Nat → Option Nat
  | 0 => none
  | N + 1 => if sel N then some N else lastSel sel N

/-- Lemma 8 (tie-breaking), definition: the leftmost `k < N` with `sel k` (`none` if there is
none). -/
def firstSel (sel : Nat → Bool) : Nat → Option Nat
  | 0 => none
  | N + 1 =>
    match firstSel sel N with
    | some k => some k
    | none => if sel N then some N else none

/-- Lemma 8 (tie-breaking), the key the past head is meant to pick at query `i`
(`constructive/heads.py`, `tiebreak_head`, mode rightmost): the rightmost selected `j < i`, or
`i - 1` (the rightmost visible key) when no visible key is selected. -/
def tiebreakPastTarget (sel : Nat → Bool) (i : Nat) : Nat := (lastSel sel i).getD (i - 1)

/-- Lemma 8 (tie-breaking), the key the future head is meant to pick at query `i`, as
`k = j - (i+1)` (keys `j = i+1+k`, `k < n-1-i`; mode leftmost): the leftmost selected key, or
`k = 0` (`j = i + 1`) when no visible key is selected. -/
def tiebreakFutureTarget (sel : Nat → Bool) (n i : Nat) : Nat :=
  (firstSel (fun k => sel (i + 1 + k)) (n - 1 - i)).getD 0

/-- Lemma 8 (tie-breaking), bounded regime, past (`tiebreak_head`): the score of key `j < i`,
`K (select_j + j/n)`. -/
noncomputable def tiebreakPastBounded (K : α) (n : Nat) (sel : Nat → Bool) (j : Nat) : α :=
  K * ((if sel j then 1 else 0) + natCast j / natCast n)

/-- Lemma 8 (tie-breaking), bounded regime, future: the score of key `j = i+1+k`,
`K (select_j - j/n)`. -/
noncomputable def tiebreakFutureBounded (K : α) (n : Nat) (sel : Nat → Bool) (i k : Nat) : α :=
  K * ((if sel (i + 1 + k) then 1 else 0) - natCast (i + 1 + k) / natCast n)

/-- Lemma 8 (tie-breaking), unbounded regime, past: the score of key `j < i`,
`K (n select_j + j)`. -/
noncomputable def tiebreakPastUnbounded (K : α) (n : Nat) (sel : Nat → Bool) (j : Nat) : α :=
  K * (natCast n * (if sel j then 1 else 0) + natCast j)

/-- Lemma 8 (tie-breaking), unbounded regime, future: the score of key `j = i+1+k`,
`K (n select_j - j)`. -/
noncomputable def tiebreakFutureUnbounded (K : α) (n : Nat) (sel : Nat → Bool) (i k : Nat) : α :=
  K * (natCast n * (if sel (i + 1 + k) then 1 else 0) - natCast (i + 1 + k))

/-- Lemma 8 (tie-breaking), helper: what `lastSel` returns is the rightmost selected key. -/
theorem lastSel_some {sel : Nat → Bool} {N t : Nat} (h : lastSel sel N = some t) :
    t < N ∧ sel t = true ∧ ∀ j, j < N → sel j = true → j ≤ t := by
  induction N with
  | zero => change none = some t at h; cases h
  | succ N ih =>
    change (if sel N = true then some N else lastSel sel N) = some t at h
    by_cases hN : sel N = true
    · rw [if_pos hN] at h
      cases h
      exact ⟨Nat.lt_succ_self _, hN, fun j hj _ => Nat.le_of_lt_succ hj⟩
    · rw [if_neg hN] at h
      obtain ⟨h1, h2, h3⟩ := ih h
      refine ⟨Nat.lt_succ_of_lt h1, h2, fun j hj hs => ?_⟩
      rcases Nat.lt_succ_iff_lt_or_eq.mp hj with hlt | heq
      · exact h3 j hlt hs
      · rw [heq] at hs; exact absurd hs hN

/-- Lemma 8 (tie-breaking), helper: `lastSel` returns `none` only when no key is selected. -/
theorem lastSel_none {sel : Nat → Bool} {N : Nat} (h : lastSel sel N = none) :
    ∀ j, j < N → sel j = false := by
  induction N with
  | zero => intro j hj; omega
  | succ N ih =>
    by_cases hN : sel N = true
    · simp [lastSel, hN] at h
    · have hN' : sel N = false := by simpa using hN
      simp only [lastSel, hN'] at h
      intro j hj
      by_cases hjN : j = N
      · subst hjN; exact hN'
      · exact ih h j (by omega)

/-- Lemma 8 (tie-breaking), helper: `firstSel` returns `none` only when no key is selected. -/
theorem firstSel_none {sel : Nat → Bool} {N : Nat} (h : firstSel sel N = none) :
    ∀ j, j < N → sel j = false := by
  induction N with
  | zero => intro j hj; exact absurd hj (Nat.not_lt_zero j)
  | succ N ih =>
    cases h' : firstSel sel N with
    | some k => simp only [firstSel, h', reduceCtorEq] at h
    | none =>
      have hN : sel N = false := by
        cases hs : sel N
        · rfl
        · simp only [firstSel, h', hs, ↓reduceIte, reduceCtorEq] at h
      intro j hj
      rcases Nat.lt_succ_iff_lt_or_eq.mp hj with hlt | heq
      · exact ih h' j hlt
      · rw [heq]; exact hN

/-- Lemma 8 (tie-breaking), helper: what `firstSel` returns is the leftmost selected key. -/
theorem firstSel_some {sel : Nat → Bool} {N t : Nat} (h : firstSel sel N = some t) :
    t < N ∧ sel t = true ∧ ∀ j, j < t → sel j = false := by
  induction N with
  | zero => simp [firstSel] at h
  | succ N ih =>
    cases h' : firstSel sel N with
    | some k =>
      simp only [firstSel, h', Option.some.injEq] at h
      subst h
      obtain ⟨h1, h2, h3⟩ := ih h'
      exact ⟨by omega, h2, h3⟩
    | none =>
      by_cases hN : sel N = true
      · simp only [firstSel, h', hN, if_true, Option.some.injEq] at h
        subst h
        exact ⟨by omega, hN, fun j hj => firstSel_none h' j hj⟩
      · have hN' : sel N = false := by simpa using hN
        simp [firstSel, h', hN'] at h

/-- Lemma 8 (tie-breaking), helper: keys `(if b then n else 0) + a` with `a, a' < n` are equal
only when `a = a'`. -/
theorem key_eq_aux {b b' : Bool} {n a a' : Nat} (ha : a < n) (ha' : a' < n)
    (h : (if b then n else 0) + a = (if b' then n else 0) + a') : a = a' := by
  cases b <;> cases b'
  · exact Nat.add_left_cancel h
  · rw [if_neg Bool.false_ne_true, if_pos rfl, Nat.zero_add] at h
    exact absurd (h ▸ ha) (Nat.not_lt.mpr (Nat.le_add_right n a'))
  · rw [if_pos rfl, if_neg Bool.false_ne_true, Nat.zero_add] at h
    exact absurd (h ▸ ha') (Nat.not_lt.mpr (Nat.le_add_right n a))
  · exact Nat.add_left_cancel h

/-- Lemma 8 (tie-breaking), helper: a key `(if b then n else 0) + a` with `a < n` is at most the
key `(if b' then n else 0) + a'` when `b'` is selected (and `a ≤ a'` if `b` is too), or when `b` is
not and `a ≤ a'`. -/
theorem key_le_aux {b b' : Bool} {n a a' : Nat} (ha : a < n)
    (h : (b' = true ∧ (b = true → a ≤ a')) ∨ (b = false ∧ a ≤ a')) :
    (if b then n else 0) + a ≤ (if b' then n else 0) + a' := by
  rcases h with ⟨hb', hle⟩ | ⟨hb, hle⟩
  · rw [if_pos hb']
    cases b
    · rw [if_neg Bool.false_ne_true, Nat.zero_add]
      exact Nat.le_trans (Nat.le_of_lt ha) (Nat.le_add_right n a')
    · rw [if_pos rfl]; exact Nat.add_le_add_left (hle rfl) n
  · subst hb
    rw [if_neg Bool.false_ne_true, Nat.zero_add]
    cases b'
    · rw [if_neg Bool.false_ne_true, Nat.zero_add]; exact hle
    · rw [if_pos rfl]; exact Nat.le_trans hle (Nat.le_add_left a' n)

/-- Lemma 8 (tie-breaking), helper: the past keys `c_j = n [select_j] + j` (`j < i < n`) are
pairwise distinct and largest at the target. -/
theorem tiebreakPast_keys (sel : Nat → Bool) {n i : Nat} (hi : 0 < i) (hin : i ≤ n) :
    tiebreakPastTarget sel i < i ∧
      (∀ k k', k < i → k' < i → (if sel k then n else 0) + k = (if sel k' then n else 0) + k'
        → k = k') ∧
      ∀ k, k < i → (if sel k then n else 0) + k
        ≤ (if sel (tiebreakPastTarget sel i) then n else 0) + tiebreakPastTarget sel i := by
  refine ⟨?_, fun k k' hk hk' h =>
    key_eq_aux (Nat.lt_of_lt_of_le hk hin) (Nat.lt_of_lt_of_le hk' hin) h, fun k hk => ?_⟩
  · unfold tiebreakPastTarget
    cases h : lastSel sel i with
    | some t => exact (lastSel_some h).1
    | none => exact Nat.sub_one_lt_of_lt hi
  · unfold tiebreakPastTarget
    cases h : lastSel sel i with
    | some t =>
      obtain ⟨_, h2, h3⟩ := lastSel_some h
      exact key_le_aux (Nat.lt_of_lt_of_le hk hin) (Or.inl ⟨h2, fun hs => h3 k hk hs⟩)
    | none =>
      exact key_le_aux (Nat.lt_of_lt_of_le hk hin)
        (Or.inr ⟨lastSel_none h k hk, Nat.le_sub_one_of_lt hk⟩)

/-- Lemma 8 (tie-breaking), helper: the future keys `c_k = n [select_{i+1+k}] + (N - 1 - k)`
(`k < N = n-1-i`) are pairwise distinct and largest at the target. -/
theorem tiebreakFuture_keys (sel : Nat → Bool) {n i : Nat} (hin : i + 1 < n) :
    tiebreakFutureTarget sel n i < n - 1 - i ∧
      (∀ k k', k < n - 1 - i → k' < n - 1 - i →
        (if sel (i + 1 + k) then n else 0) + (n - 1 - i - 1 - k)
          = (if sel (i + 1 + k') then n else 0) + (n - 1 - i - 1 - k') → k = k') ∧
      ∀ k, k < n - 1 - i → (if sel (i + 1 + k) then n else 0) + (n - 1 - i - 1 - k)
        ≤ (if sel (i + 1 + tiebreakFutureTarget sel n i) then n else 0)
          + (n - 1 - i - 1 - tiebreakFutureTarget sel n i) := by
  have hb : ∀ k, n - 1 - i - 1 - k < n := fun k => Nat.lt_of_le_of_lt (Nat.sub_le _ k)
    (Nat.lt_of_le_of_lt (Nat.sub_le _ 1)
      (Nat.lt_of_le_of_lt (Nat.sub_le (n - 1) i) (Nat.sub_one_lt_of_lt hin)))
  refine ⟨?_, fun k k' hk hk' h => ?_, fun k hk => ?_⟩
  · unfold tiebreakFutureTarget
    cases h : firstSel (fun k => sel (i + 1 + k)) (n - 1 - i) with
    | some t => exact (firstSel_some h).1
    | none => exact Nat.sub_pos_of_lt (Nat.lt_sub_of_add_lt hin)
  · have e := key_eq_aux (hb k) (hb k') h
    rw [← Nat.sub_sub_self (Nat.le_sub_one_of_lt hk), e, Nat.sub_sub_self (Nat.le_sub_one_of_lt hk')]
  · unfold tiebreakFutureTarget
    cases h : firstSel (fun k => sel (i + 1 + k)) (n - 1 - i) with
    | some t =>
      obtain ⟨_, h2, h3⟩ := firstSel_some h
      refine key_le_aux (hb k) (Or.inl ⟨h2, fun hs => ?_⟩)
      have hkt : ¬ k < t := fun hlt' => by
        have h3k : sel (i + 1 + k) = false := h3 k hlt'
        rw [hs] at h3k; exact Bool.noConfusion h3k
      exact Nat.sub_le_sub_left (Nat.le_of_not_lt hkt) _
    | none =>
      exact key_le_aux (hb k) (Or.inr ⟨firstSel_none h k hk, Nat.sub_le_sub_left (Nat.zero_le k) _⟩)

/-- Lemma 8 (tie-breaking, bounded regime, past: `s_j = K (select_j + j/n)` over the keys
`j < i`, `0 < i ≤ n`, `K > 0`, `τ > 0`; a causal head that also sees `j = i` is this with `i + 1`
keys): the target `j*` (rightmost selected `j < i`, else `i - 1`) is at least `K/n` above every
other visible key, and the softmax mass off `j*` is at most `exp(-(K/n)/τ)`, for every `n` and
every selection. -/
theorem tiebreak_past_bounded (E : ExpLike α) {K tau : α} {n i : Nat} (sel : Nat → Bool)
    (hK : 0 < K) (htau : 0 < tau) (hi : 0 < i) (hin : i ≤ n) :
    (∀ j, j < i → j ≠ tiebreakPastTarget sel i →
        tiebreakPastBounded K n sel j ≤ tiebreakPastBounded K n sel (tiebreakPastTarget sel i) - K / natCast n) ∧
      sumTo (softmax E tau (tiebreakPastBounded K n sel) i) i
          - softmax E tau (tiebreakPastBounded K n sel) i (tiebreakPastTarget sel i)
        ≤ E.exp (-(K / natCast n) / tau) := by
  obtain ⟨ht, hinj, htop⟩ := tiebreakPast_keys sel hi hin
  have hn : (0 : α) < natCast n := Std.lt_of_lt_of_le OrderedRing.zero_lt_one
    (one_le_natCast_of_pos (by omega))
  have hg : (0 : α) ≤ K / natCast n := div_nonneg_of_nonneg (Std.le_of_lt hK) hn
  have hs : ∀ k, k < i → tiebreakPastBounded K n sel k
      = K / natCast n * natCast ((if sel k then n else 0) + k) + 0 := by
    intro k _
    unfold tiebreakPastBounded
    have ec : (natCast ((if sel k then n else 0) + k) : α)
        = natCast n * (if sel k then 1 else 0) + natCast k := by rw [natCast_add, natCast_ite]
    rw [ec]
    have : (natCast n : α) ≠ 0 := ne_zero_of_zero_lt hn
    generalize (if sel k then (1 : α) else 0) = v
    generalize (natCast n : α) = a at *
    grind
  exact softmax_mass_off_top_le_of_keys E ht htau hg hs hinj htop

/-- Lemma 8 (tie-breaking, bounded regime, future: `s_j = K (select_j - j/n)` over the keys
`j = i+1+k > i`, `k < n-1-i`, `i + 1 < n`, `K > 0`, `τ > 0`): the target (leftmost selected
`j > i`, else `i + 1`) is at least `K/n` above every other visible key, and the softmax mass
off it is at most `exp(-(K/n)/τ)`, for every `n` and every selection. -/
theorem tiebreak_future_bounded (E : ExpLike α) {K tau : α} {n i : Nat} (sel : Nat → Bool)
    (hK : 0 < K) (htau : 0 < tau) (hin : i + 1 < n) :
    (∀ k, k < n - 1 - i → k ≠ tiebreakFutureTarget sel n i →
        tiebreakFutureBounded K n sel i k
          ≤ tiebreakFutureBounded K n sel i (tiebreakFutureTarget sel n i) - K / natCast n) ∧
      sumTo (softmax E tau (tiebreakFutureBounded K n sel i) (n - 1 - i)) (n - 1 - i)
          - softmax E tau (tiebreakFutureBounded K n sel i) (n - 1 - i) (tiebreakFutureTarget sel n i)
        ≤ E.exp (-(K / natCast n) / tau) := by
  obtain ⟨ht, hinj, htop⟩ := tiebreakFuture_keys sel hin
  have hn : (0 : α) < natCast n := Std.lt_of_lt_of_le OrderedRing.zero_lt_one
    (one_le_natCast_of_pos (by omega))
  have hg : (0 : α) ≤ K / natCast n := div_nonneg_of_nonneg (Std.le_of_lt hK) hn
  have hs : ∀ k, k < n - 1 - i → tiebreakFutureBounded K n sel i k
      = K / natCast n * natCast ((if sel (i + 1 + k) then n else 0) + (n - 1 - i - 1 - k))
        + -(K / natCast n) * natCast (n - 1) := by
    intro k hk
    unfold tiebreakFutureBounded
    have e : (natCast (i + 1 + k) : α) + natCast (n - 1 - i - 1 - k) = natCast (n - 1) := by
      rw [← natCast_add]; congr 1; omega
    have ec : (natCast ((if sel (i + 1 + k) then n else 0) + (n - 1 - i - 1 - k)) : α)
        = natCast n * (if sel (i + 1 + k) then 1 else 0) + natCast (n - 1 - i - 1 - k) := by
      rw [natCast_add, natCast_ite]
    rw [ec]
    have : (natCast n : α) ≠ 0 := ne_zero_of_zero_lt hn
    generalize (if sel (i + 1 + k) then (1 : α) else 0) = v
    generalize (natCast n : α) = a at *
    generalize (natCast (i + 1 + k) : α) = b at *
    generalize (natCast (n - 1 - i - 1 - k) : α) = c at *
    generalize (natCast (n - 1) : α) = m at *
    grind
  exact softmax_mass_off_top_le_of_keys E ht htau hg hs hinj htop

/-- Lemma 8 (tie-breaking, unbounded regime, past: `s_j = K (n select_j + j)` over `j < i`,
`0 < i ≤ n`, `K > 0`, `τ > 0`): the target is at least `K` above every other visible key, and
the softmax mass off it is at most `exp(-K/τ)`, for every `n` and every selection. -/
theorem tiebreak_past_unbounded (E : ExpLike α) {K tau : α} {n i : Nat} (sel : Nat → Bool)
    (hK : 0 < K) (htau : 0 < tau) (hi : 0 < i) (hin : i ≤ n) :
    (∀ j, j < i → j ≠ tiebreakPastTarget sel i →
        tiebreakPastUnbounded K n sel j ≤ tiebreakPastUnbounded K n sel (tiebreakPastTarget sel i) - K) ∧
      sumTo (softmax E tau (tiebreakPastUnbounded K n sel) i) i
          - softmax E tau (tiebreakPastUnbounded K n sel) i (tiebreakPastTarget sel i)
        ≤ E.exp (-K / tau) := by
  obtain ⟨ht, hinj, htop⟩ := tiebreakPast_keys sel hi hin
  have hs : ∀ k, k < i → tiebreakPastUnbounded K n sel k
      = K * natCast ((if sel k then n else 0) + k) + 0 := by
    intro k _
    unfold tiebreakPastUnbounded
    have ec : (natCast ((if sel k then n else 0) + k) : α)
        = natCast n * (if sel k then 1 else 0) + natCast k := by rw [natCast_add, natCast_ite]
    rw [ec]
    grind
  exact softmax_mass_off_top_le_of_keys E ht htau (Std.le_of_lt hK) hs hinj htop

/-- Lemma 8 (tie-breaking, unbounded regime, future: `s_j = K (n select_j - j)` over the keys
`j = i+1+k > i`, `k < n-1-i`, `i + 1 < n`, `K > 0`, `τ > 0`): the target is at least `K` above
every other visible key, and the softmax mass off it is at most `exp(-K/τ)`, for every `n` and
every selection. -/
theorem tiebreak_future_unbounded (E : ExpLike α) {K tau : α} {n i : Nat} (sel : Nat → Bool)
    (hK : 0 < K) (htau : 0 < tau) (hin : i + 1 < n) :
    (∀ k, k < n - 1 - i → k ≠ tiebreakFutureTarget sel n i →
        tiebreakFutureUnbounded K n sel i k
          ≤ tiebreakFutureUnbounded K n sel i (tiebreakFutureTarget sel n i) - K) ∧
      sumTo (softmax E tau (tiebreakFutureUnbounded K n sel i) (n - 1 - i)) (n - 1 - i)
          - softmax E tau (tiebreakFutureUnbounded K n sel i) (n - 1 - i) (tiebreakFutureTarget sel n i)
        ≤ E.exp (-K / tau) := by
  obtain ⟨ht, hinj, htop⟩ := tiebreakFuture_keys sel hin
  have hs : ∀ k, k < n - 1 - i → tiebreakFutureUnbounded K n sel i k
      = K * natCast ((if sel (i + 1 + k) then n else 0) + (n - 1 - i - 1 - k))
        + -K * natCast (n - 1) := by
    intro k hk
    unfold tiebreakFutureUnbounded
    have e : (natCast (i + 1 + k) : α) + natCast (n - 1 - i - 1 - k) = natCast (n - 1) := by
      rw [← natCast_add]; congr 1; omega
    have ec : (natCast ((if sel (i + 1 + k) then n else 0) + (n - 1 - i - 1 - k)) : α)
        = natCast n * (if sel (i + 1 + k) then 1 else 0) + natCast (n - 1 - i - 1 - k) := by
      rw [natCast_add, natCast_ite]
    rw [ec]
    generalize (natCast (i + 1 + k) : α) = b at *
    generalize (natCast (n - 1 - i - 1 - k) : α) = c at *
    generalize (natCast (n - 1) : α) = m at *
    grind
  exact softmax_mass_off_top_le_of_keys E ht htau (Std.le_of_lt hK) hs hinj htop

/-! ### Lemma 7: table lookup with parabolic scores -/

/-- Lemma 7 (table lookup), helper: the bounded score is the unbounded one with `K/n^2`. -/
theorem lookupScoreBounded_eq (K : α) {n : Nat} (hn : 0 < n) (t j : Nat) :
    lookupScoreBounded K n t j = lookupScore (K / (natCast n * natCast n)) t j := by
  unfold lookupScoreBounded lookupScore
  have : (natCast n : α) ≠ 0 := by
    have := one_le_natCast_of_pos (α := α) hn
    grind
  generalize (natCast n : α) = a at *
  grind

/-- Lemma 7 (table lookup), helper: for naturals `t ≠ j`, `(t - j)^2 ≥ 1`. -/
theorem one_le_sq_natCast_sub {t j : Nat} (h : j ≠ t) :
    (1 : α) ≤ (natCast t - natCast j) * (natCast t - natCast j) := by
  rcases Nat.lt_or_gt_of_ne h with hlt | hgt
  · have e : (natCast t : α) = natCast (t - j) + natCast j := by
      rw [← natCast_add, Nat.sub_add_cancel (Nat.le_of_lt hlt)]
    have hb := one_le_natCast_of_pos (α := α) (Nat.sub_pos_of_lt hlt)
    have hd : (natCast t : α) - natCast j = natCast (t - j) := by
      rw [e]; grind
    rw [hd]
    exact one_le_mul_of_one_le hb hb
  · have e : (natCast j : α) = natCast (j - t) + natCast t := by
      rw [← natCast_add, Nat.sub_add_cancel (Nat.le_of_lt hgt)]
    have hb := one_le_natCast_of_pos (α := α) (Nat.sub_pos_of_lt hgt)
    have hd : ((natCast t : α) - natCast j) * (natCast t - natCast j) = natCast (j - t) * natCast (j - t) := by
      rw [e]; grind
    rw [hd]
    exact one_le_mul_of_one_le hb hb

/-- Lemma 7 (table lookup), helper: a natural `d` has `d ≤ d^2` in `α`. -/
theorem natCast_le_sq (d : Nat) : (natCast d : α) ≤ natCast d * natCast d := by
  cases d with
  | zero => rw [natCast_zero, Lean.Grind.Semiring.zero_mul]; exact Std.le_refl _
  | succ d =>
    have hb := one_le_natCast_of_pos (α := α) (show 0 < d + 1 by omega)
    have h0 : (0 : α) ≤ natCast (d + 1) := natCast_nonneg _
    have := OrderedRing.mul_le_mul_of_nonneg_left hb h0
    grind

/-- Lemma 7 (table lookup, unbounded regime, both sides visible: `s_j = K (2 t j - j^2)`,
`K ≥ 0`): every key `j ≠ t` scores at least `K` below the target `t`. -/
theorem lookup_gap (K : α) (hK : 0 ≤ K) {t j : Nat} (h : j ≠ t) :
    lookupScore K t j ≤ lookupScore K t t - K := by
  have e := lookupScore_sub K t j
  have h1 := one_le_sq_natCast_sub (α := α) h
  have := OrderedRing.mul_le_mul_of_nonneg_left h1 hK
  grind

/-- Lemma 7 (table lookup, bounded regime, both sides visible: `s_j = K (2 (t/n)(j/n) -
(j/n)^2)`, `K ≥ 0`, `n ≥ 1`): every key `j ≠ t` scores at least `K/n^2` below the target. -/
theorem lookup_gap_bounded (K : α) (hK : 0 ≤ K) {n t j : Nat} (hn : 0 < n) (h : j ≠ t) :
    lookupScoreBounded K n t j ≤ lookupScoreBounded K n t t - K / (natCast n * natCast n) := by
  rw [lookupScoreBounded_eq K hn, lookupScoreBounded_eq K hn]
  have hn1 := one_le_natCast_of_pos (α := α) hn
  have hnn : (0 : α) < natCast n * natCast n :=
    OrderedRing.mul_pos (by grind) (by grind)
  exact lookup_gap _ (div_nonneg_of_nonneg hK hnn) h

/-- Lemma 7 (table lookup, unbounded regime, past mask: query `i ≥ 1` reads `t = i - 1` among the
keys `j < i`, `s_j = K (2 t j - j^2)`, `K ≥ 0`, `τ > 0`): every other key scores at least `K`
below `t`, and the softmax mass off `t` is at most `exp(-K/τ)` (keys at distance `k` lose
`K k^2 ≥ K k`: a ziggurat of step `K`), for every `i`. -/
theorem lookup_past (E : ExpLike α) {K tau : α} {i : Nat} (hK : 0 ≤ K) (htau : 0 < tau)
    (hi : 0 < i) :
    (∀ j, j < i → j ≠ i - 1 → lookupScore K (i - 1) j ≤ lookupScore K (i - 1) (i - 1) - K) ∧
      sumTo (softmax E tau (lookupScore K (i - 1)) i) i
          - softmax E tau (lookupScore K (i - 1)) i (i - 1)
        ≤ E.exp (-K / tau) := by
  refine ⟨fun j _ h => lookup_gap K hK h, ?_⟩
  refine softmax_mass_off_top_le_of_distinct E (d := fun j => i - 1 - j) (Nat.sub_one_lt_of_lt hi) htau hK
    (fun j hj hjt => Nat.sub_pos_of_lt (Nat.lt_of_le_of_ne (Nat.le_sub_one_of_lt hj) hjt))
    (fun a b ha hb _ _ h => by
      have h' : i - 1 - a = i - 1 - b := h
      rw [← Nat.sub_sub_self (Nat.le_sub_one_of_lt ha), h', Nat.sub_sub_self (Nat.le_sub_one_of_lt hb)]) ?_
  intro j hj _
  rw [lookupScore_sub]
  have e : (natCast (i - 1) : α) = natCast (i - 1 - j) + natCast j := by
    rw [← natCast_add, Nat.sub_add_cancel (Nat.le_sub_one_of_lt hj)]
  rw [e]
  have hsq := natCast_le_sq (α := α) (i - 1 - j)
  have := OrderedRing.mul_le_mul_of_nonneg_left hsq hK
  generalize (natCast (i - 1 - j) : α) = b at *
  grind

/-- Lemma 7 (table lookup, unbounded regime, future mask: query `i` with `i + 1 < n` reads
`t = i + 1` among the keys `j = i+1+k`, `k < n-1-i`, `s = K (2 t j - j^2)`, `K ≥ 0`, `τ > 0`):
every other key scores at least `K` below `t`, and the softmax mass off `t` (`k = 0`) is at
most `exp(-K/τ)`, for every `n`. -/
theorem lookup_future (E : ExpLike α) {K tau : α} {n i : Nat} (hK : 0 ≤ K) (htau : 0 < tau)
    (hin : i + 1 < n) :
    (∀ k, k < n - 1 - i → k ≠ 0 →
        lookupScore K (i + 1) (i + 1 + k) ≤ lookupScore K (i + 1) (i + 1 + 0) - K) ∧
      sumTo (softmax E tau (fun k => lookupScore K (i + 1) (i + 1 + k)) (n - 1 - i)) (n - 1 - i)
          - softmax E tau (fun k => lookupScore K (i + 1) (i + 1 + k)) (n - 1 - i) 0
        ≤ E.exp (-K / tau) := by
  refine ⟨fun k _ h => by
    rw [show i + 1 + 0 = i + 1 by omega]; exact lookup_gap K hK (by omega), ?_⟩
  refine softmax_mass_off_top_le_of_distinct E (d := fun k => k) (by omega) htau hK
    (fun k _ hk => by show 0 < k; omega) (fun a b _ _ _ _ h => h) ?_
  intro k _ _
  show natCast k * K ≤ lookupScore K (i + 1) (i + 1 + 0) - lookupScore K (i + 1) (i + 1 + k)
  rw [show i + 1 + 0 = i + 1 by omega, lookupScore_sub]
  have e : (natCast (i + 1 + k) : α) = natCast (i + 1) + natCast k := natCast_add _ _
  rw [e]
  have hsq := natCast_le_sq (α := α) k
  have := OrderedRing.mul_le_mul_of_nonneg_left hsq hK
  generalize (natCast k : α) = b at *
  grind

/-- Lemma 7 (table lookup, bounded regime, past mask: `s_j = K (2 (t/n)(j/n) - (j/n)^2)`,
`t = i - 1`, keys `j < i`, `0 < i`, `0 < n`, `K ≥ 0`, `τ > 0`): every other key scores at least
`K/n^2` below `t`, and the softmax mass off `t` is at most `exp(-(K/n^2)/τ)`. -/
theorem lookup_past_bounded (E : ExpLike α) {K tau : α} {n i : Nat} (hK : 0 ≤ K)
    (htau : 0 < tau) (hi : 0 < i) (hn : 0 < n) :
    (∀ j, j < i → j ≠ i - 1 →
        lookupScoreBounded K n (i - 1) j
          ≤ lookupScoreBounded K n (i - 1) (i - 1) - K / (natCast n * natCast n)) ∧
      sumTo (softmax E tau (lookupScoreBounded K n (i - 1)) i) i
          - softmax E tau (lookupScoreBounded K n (i - 1)) i (i - 1)
        ≤ E.exp (-(K / (natCast n * natCast n)) / tau) := by
  have hf : lookupScoreBounded K n (i - 1) = lookupScore (K / (natCast n * natCast n)) (i - 1) :=
    funext fun j => lookupScoreBounded_eq K hn (i - 1) j
  have hn1 := one_le_natCast_of_pos (α := α) hn
  have hnn : (0 : α) < natCast n * natCast n := OrderedRing.mul_pos (by grind) (by grind)
  rw [hf]
  exact lookup_past E (div_nonneg_of_nonneg hK hnn) htau hi

/-! ### Counting: uniform attention -/

/-- Counting (uniform attention, `count_head`: every visible score equals the same `c`): the
softmax weight of every key is exactly `1/N`, the average-hard weight, at every temperature
`τ`, for every `N ≥ 1` (soft attention equals hard attention exactly; the mass off the max
set, which is every key, is `0`). -/
theorem softmax_eq_uniform_of_const (E : ExpLike α) {s : Nat → α} {c tau : α} {N : Nat}
    (hs : ∀ k, k < N → s k = c) : ∀ j, j < N → softmax E tau s N j = 1 / natCast N := by
  intro j hj
  rw [softmax_eq_div_sumTo E tau c, weight_eq_one_of_eq_max E (hs j hj)]
  have : sumTo (fun k => E.exp ((s k - c) / tau)) N = sumTo (fun _ => (1 : α)) N :=
    sumTo_congr (fun k hk => weight_eq_one_of_eq_max E (hs k hk))
  rw [this, sumTo_one]

/-! ### Comparison: the sign head -/

/-- Comparison (sign head, bounded regime, `sign_head`: scores `K o V p_j`, `p_j = ±1`, so the
two key groups are `2K|V|` apart): `|V| = (2m+1)/(2D)` (a half-integer over `D`) with
`1 ≤ D ≤ n` and `K ≥ 0` gives the gap `2K|V| ≥ K/n`. -/
theorem sign_gap_bounded {K : α} (hK : 0 ≤ K) {m D n : Nat} (hD : 0 < D) (hDn : D ≤ n) :
    K / natCast n ≤ 2 * K * (natCast (2 * m + 1) / (2 * natCast D)) := by
  have hD1 := one_le_natCast_of_pos (α := α) hD
  have hc1 := one_le_natCast_of_pos (α := α) (Nat.succ_pos (2 * m))
  have eDn : (natCast n : α) = natCast (n - D) + natCast D := by
    rw [← natCast_add, Nat.sub_add_cancel hDn]
  have hnD := natCast_nonneg (α := α) (n - D)
  rw [eDn]
  generalize (natCast (2 * m + 1) : α) = c at *
  generalize (natCast (n - D) : α) = r at *
  generalize (natCast D : α) = d at *
  have h01 := OrderedRing.zero_le_one (R := α)
  have ha : (0 : α) < r + d := by grind
  have h2d : (0 : α) < 2 * d := by grind
  have hq : c / (2 * d) * (2 * d) = c := by
    have : (2 * d : α) ≠ 0 := ne_zero_of_zero_lt h2d
    rw [Field.div_eq_mul_inv, Semiring.mul_assoc, CommSemiring.mul_comm _ (2 * d),
      Field.mul_inv_cancel this, Semiring.mul_one]
  have hq0 : 0 ≤ c / (2 * d) := div_nonneg_of_nonneg (Std.le_trans h01 hc1) h2d
  apply div_le_of_le_mul ha
  generalize c / (2 * d) = q at *
  subst hq
  have h1 : 0 ≤ 2 * K * q * r :=
    OrderedRing.mul_nonneg (OrderedRing.mul_nonneg (OrderedRing.mul_nonneg (by grind) hK) hq0) hnD
  have h2 := OrderedRing.mul_le_mul_of_nonneg_left hc1 hK
  grind

/-- Comparison (sign head, unbounded regime: scores `K o V n p_j`, groups `2K|V| n` apart):
`|V| = (2m+1)/(2D)` with `1 ≤ D ≤ n` and `K ≥ 0` gives the gap `2K|V| n ≥ K`. -/
theorem sign_gap_unbounded {K : α} (hK : 0 ≤ K) {m D n : Nat} (hD : 0 < D) (hDn : D ≤ n) :
    K ≤ 2 * K * (natCast (2 * m + 1) / (2 * natCast D)) * natCast n := by
  have hb := sign_gap_bounded (m := m) hK hD hDn
  have hn1 := one_le_natCast_of_pos (α := α) (show 0 < n by omega)
  have := OrderedRing.mul_le_mul_of_nonneg_right hb (natCast_nonneg (α := α) n)
  rwa [div_mul_cancel_of_ne_zero (ne_zero_of_zero_lt (zero_lt_of_one_le hn1))] at this

/-! ### The temperature rule of the bounded regime -/

/-- Lemma 8 with the compilers' temperature rule (`constructive/logic/compiler.py`, bounded
regime: `K = 1`, `τ = c/n`): for `0 < i ≤ n`, `c > 0` and `exp(-1/c) ≤ x`, the past tie-breaking
head's softmax mass off its target is at most `x`, for every `n` and every selection; the
compilers' `c = 1/ln(16 m)` is `x = 1/(16 m)`. (The bound is a variable `x`, not `1/(16 m)`: over
`Rat` the only `ExpLike` is the constant `1`, so `exp(-1/c) ≤ 1/(16 m)` holds there for no `m`,
and the theorem's hypotheses could not be shown satisfiable together at `Rat`.) -/
theorem tiebreak_past_bounded_at_rule (E : ExpLike α) {c x : α} {n i : Nat} (sel : Nat → Bool)
    (hc : 0 < c) (hi : 0 < i) (hin : i ≤ n) (hrule : E.exp (-(1 / c)) ≤ x) :
    sumTo (softmax E (c / natCast n) (tiebreakPastBounded 1 n sel) i) i
        - softmax E (c / natCast n) (tiebreakPastBounded 1 n sel) i (tiebreakPastTarget sel i)
      ≤ x := by
  have hn1 := one_le_natCast_of_pos (α := α) (Nat.lt_of_lt_of_le hi hin)
  have hn : (0 : α) < natCast n := Std.lt_of_lt_of_le OrderedRing.zero_lt_one hn1
  have htau : 0 < c / natCast n := zero_lt_div_of_zero_lt hc hn
  have h := (tiebreak_past_bounded E sel OrderedRing.zero_lt_one htau hi hin).2
  have e : -((1 : α) / natCast n) / (c / natCast n) = -(1 / c) := by
    generalize (natCast n : α) = a at *
    have := ne_zero_of_zero_lt hn
    have := ne_zero_of_zero_lt hc
    grind
  rw [e] at h
  exact Std.le_trans h hrule

/-! ### The read-out clamp of the feed-forward layers -/

/-- Read-out, definition: `L_σ(x) - |σ| = Σ_{σ_k = 1} (x_k - 1) - Σ_{σ_k = 0} x_k` over the `m`
leaves (`L_σ(x) = Σ_{σ_k=1} x_k - Σ_{σ_k=0} x_k`, `|σ|` the number of ones of `σ`). -/
noncomputable def leafExcess (σ : Nat → Bool) (x : Nat → Rat) (m : Nat) : Rat :=
  sumTo (fun k => if σ k then x k else -x k) m - sumTo (fun k => if σ k then 1 else 0) m

/-- Read-out (`constructive/logic/compiler.py`), definition: the clamp unit pair of assignment
`σ`, `ReLU(2(L_σ - |σ| + 3/4)) - ReLU(2(L_σ - |σ| + 1/4))`. -/
noncomputable def clampUnit (σ : Nat → Bool) (x : Nat → Rat) (m : Nat) : Rat :=
  relu (2 * (leafExcess σ x m + 3 / 4)) - relu (2 * (leafExcess σ x m + 1 / 4))

/-- Read-out, helper: `L_σ - |σ|` as one sum. -/
theorem leafExcess_eq (σ : Nat → Bool) (x : Nat → Rat) (m : Nat) :
    leafExcess σ x m = sumTo (fun k => if σ k then x k - 1 else -x k) m := by
  unfold leafExcess
  induction m with
  | zero => rw [sumTo_zero, sumTo_zero, sumTo_zero]; grind
  | succ n ih =>
    rw [sumTo_succ, sumTo_succ, sumTo_succ]
    cases σ n <;> simp <;> grind

/-- Read-out, helper: terms `≥ -e` sum to `≥ -m e`. -/
theorem neg_mul_le_sumTo {f : Nat → Rat} {e : Rat} {m : Nat} (h : ∀ k, k < m → -e ≤ f k) :
    -(natCast m * e) ≤ sumTo f m := by
  induction m with
  | zero => rw [sumTo_zero, natCast_zero]; grind
  | succ n ih =>
    have := ih (fun k hk => h k (by omega))
    have := h n (by omega)
    rw [sumTo_succ, natCast_succ]
    grind

/-- Read-out, helper: terms `≤ e`, one of them `≤ e - 1`, sum to `≤ m e - 1`. -/
theorem sumTo_le_mul_sub_one {f : Nat → Rat} {e : Rat} {m k0 : Nat} (hk0 : k0 < m)
    (h : ∀ k, k < m → f k ≤ e) (h0 : f k0 ≤ e - 1) : sumTo f m ≤ natCast m * e - 1 := by
  induction m with
  | zero => omega
  | succ n ih =>
    rw [sumTo_succ, natCast_succ]
    by_cases hn : k0 = n
    · subst hn
      have : sumTo f k0 ≤ natCast k0 * e := by
        have := neg_mul_le_sumTo (f := fun k => -f k) (e := e) (m := k0)
          (fun k hk => by have := h k (by omega); grind)
        have e1 : sumTo (fun k => -f k) k0 = -sumTo f k0 := by
          have := sumTo_mul_const f (-1) k0
          have e2 : sumTo (fun k => f k * -1) k0 = sumTo (fun k => -f k) k0 :=
            sumTo_congr (fun k _ => by grind)
          grind
        grind
      grind
    · have := ih (by omega) (fun k hk => h k (by omega))
      have := h n (by omega)
      grind

/-- Read-out, helper: `m · 1/(4m) = 1/4` for `m ≥ 1`. -/
theorem natCast_mul_one_div_four_mul {m : Nat} (hm : 0 < m) :
    natCast m * (1 / (4 * natCast m)) = (1 : Rat) / 4 := by
  have hm1 := one_le_natCast_of_pos (α := Rat) hm
  generalize (natCast m : Rat) = a at *
  have : a ≠ 0 := ne_zero_of_zero_lt (zero_lt_of_one_le hm1)
  grind

/-- Read-out (the compilers' FFN clamp, true assignment): if each of the `m ≥ 1` leaves `x_k`
is within `1/(4m)` of its 0/1 value `ρ_k`, the clamp unit pair of `σ = ρ` outputs exactly `1`. -/
theorem clampUnit_eq_one {σ ρ : Nat → Bool} {x : Nat → Rat} {m : Nat} (hm : 0 < m)
    (hx : ∀ k, k < m → (if ρ k then 1 else 0) - 1 / (4 * natCast m) ≤ x k ∧
      x k ≤ (if ρ k then 1 else 0) + 1 / (4 * natCast m))
    (hσ : ∀ k, k < m → σ k = ρ k) : clampUnit σ x m = 1 := by
  have hlow : -(natCast m * (1 / (4 * natCast m))) ≤ leafExcess σ x m := by
    rw [leafExcess_eq]
    apply neg_mul_le_sumTo
    intro k hk
    obtain ⟨hl, hu⟩ := hx k hk
    rw [hσ k hk]
    clear hx hσ
    generalize (1 / (4 * natCast m) : Rat) = e at hl hu ⊢
    by_cases hr : ρ k = true
    · rw [if_pos hr] at hl hu ⊢; grind
    · rw [if_neg hr] at hl hu ⊢; grind
  rw [natCast_mul_one_div_four_mul hm] at hlow
  unfold clampUnit relu
  generalize leafExcess σ x m = L at *
  clear hx hσ
  have h1 : ¬ 2 * (L + 3 / 4) ≤ 0 := by grind
  rw [if_neg h1]
  by_cases h2 : 2 * (L + 1 / 4) ≤ 0
  · rw [if_pos h2]; grind
  · rw [if_neg h2]; grind

/-- Read-out (the compilers' FFN clamp, every other assignment): if each of the `m ≥ 1` leaves
`x_k` is within `1/(4m)` of its 0/1 value `ρ_k` and `σ` differs from `ρ` at some leaf, the clamp
unit pair of `σ` outputs exactly `0`. -/
theorem clampUnit_eq_zero {σ ρ : Nat → Bool} {x : Nat → Rat} {m k0 : Nat} (hm : 0 < m)
    (hx : ∀ k, k < m → (if ρ k then 1 else 0) - 1 / (4 * natCast m) ≤ x k ∧
      x k ≤ (if ρ k then 1 else 0) + 1 / (4 * natCast m))
    (hk0 : k0 < m) (hne : σ k0 ≠ ρ k0) : clampUnit σ x m = 0 := by
  have hm1 := one_le_natCast_of_pos (α := Rat) hm
  have hme := natCast_mul_one_div_four_mul hm
  have hup : leafExcess σ x m ≤ natCast m * (1 / (4 * natCast m)) - 1 := by
    rw [leafExcess_eq]
    apply sumTo_le_mul_sub_one hk0
    · intro k hk
      have := hx k hk
      cases σ k <;> cases ρ k <;> simp at this ⊢ <;> grind
    · have := hx k0 hk0
      cases h1 : σ k0 <;> cases h2 : ρ k0 <;> simp [h1, h2] at this hne ⊢ <;> grind
  rw [hme] at hup
  unfold clampUnit relu
  generalize leafExcess σ x m = L at *
  clear hx hme
  have h1 : 2 * (L + 3 / 4) ≤ 0 := by grind
  have h2 : 2 * (L + 1 / 4) ≤ 0 := by grind
  rw [if_pos h1, if_pos h2]
  grind

/-! ### S-RASP: the big-M product of an integer conditional or select -/

/-- Helper: `|a| ≤ b` gives `a ≤ b` and `-b ≤ a`. -/
theorem bounds_of_absv_le {a b : α} (h : absv a ≤ b) : a ≤ b ∧ -b ≤ a := by
  unfold absv at h
  by_cases h0 : 0 ≤ a
  · rw [if_pos h0] at h
    constructor <;> grind
  · rw [if_neg h0] at h
    constructor <;> grind

/-- Helper (also the output error's, `HardSoft.HeadMass`): `a ≤ b` and `-b ≤ a` give `|a| ≤ b`. -/
theorem absv_le_of_le_of_neg_le {a b : α} (h1 : a ≤ b) (h2 : -b ≤ a) : absv a ≤ b := by
  unfold absv
  by_cases h : 0 ≤ a
  · rw [if_pos h]; exact h1
  · rw [if_neg h]; grind

/-- S-RASP's big-M product (`gated` in `constructive/srasp/compiler.py`: `b z` for a Boolean `b`
and an integer `z`, written `ReLU(z + s) - ReLU(-z + s)` with the slack `s = -M K (1 - b)`,
`K = (i+1)^d` for operands of degree `d`): let the unit's input `z` be within `e` of the integer
`z0`, `|z0| + 1 ≤ M K` (the compiler's `M = 2C + 1` against `|z0| ≤ 2 C K`), the slack within `d`
of `-M K (1 - b)` (the gate head's copy error times `M`), and `e + d ≤ 1`. Then the product is
exactly `0` when `b` is false (the errors of `z` do not pass) and within `e + d` of `z0` when `b`
is true: for every `n`, every `z0` and every gate. -/
theorem big_m_product (b : Bool) {z z0 s M K e d : α} (hz : absv (z - z0) ≤ e)
    (hM : absv z0 + 1 ≤ M * K) (hs : absv (s + M * K * (if b then 0 else 1)) ≤ d)
    (hed : e + d ≤ 1) :
    absv (relu (z + s) - relu (-z + s) - (if b then z0 else 0)) ≤ (if b then e + d else 0) := by
  obtain ⟨hz1, hz2⟩ := bounds_of_absv_le hz
  obtain ⟨hm1, hm2⟩ := bounds_of_absv_le (a := z0) (Std.le_refl (absv z0))
  cases b with
  | false =>
    have hs' : absv (s + M * K * 1) ≤ d := hs
    show absv (relu (z + s) - relu (-z + s) - 0) ≤ 0
    obtain ⟨hs1, hs2⟩ := bounds_of_absv_le hs'
    have h1 : z + s ≤ 0 := by grind
    have h2 : -z + s ≤ 0 := by grind
    unfold relu
    rw [if_pos h1, if_pos h2]
    exact absv_le_of_le_of_neg_le (by grind) (by grind)
  | true =>
    have hs' : absv (s + M * K * 0) ≤ d := hs
    show absv (relu (z + s) - relu (-z + s) - z0) ≤ e + d
    obtain ⟨hs1, hs2⟩ := bounds_of_absv_le hs'
    unfold relu
    by_cases h1 : z + s ≤ 0
    · rw [if_pos h1]
      by_cases h2 : -z + s ≤ 0
      · rw [if_pos h2]
        exact absv_le_of_le_of_neg_le (by grind) (by grind)
      · rw [if_neg h2]
        exact absv_le_of_le_of_neg_le (by grind) (by grind)
    · rw [if_neg h1]
      by_cases h2 : -z + s ≤ 0
      · rw [if_pos h2]
        exact absv_le_of_le_of_neg_le (by grind) (by grind)
      · rw [if_neg h2]
        exact absv_le_of_le_of_neg_le (by grind) (by grind)

/-! ### S-RASP: the lookup head over positions -/

/-- S-RASP's lookup over positions (`constructive/srasp/compiler.py`, layer B of `Psum`: Lemma 7
with positions as the table; score `(2 p S - p^2)/i` at query `i ≥ 1` over the keys `p`, with
`S = S_i ≥ 0` the prefix sum): every key `p ≠ S` scores at least `1/i` below `p = S`. -/
theorem srasp_lookup_gap {S p i : Nat} (hi : 0 < i) (h : p ≠ S) :
    ((2 * natCast p * natCast S - natCast p * natCast p) / natCast i : α)
      ≤ (2 * natCast S * natCast S - natCast S * natCast S) / natCast i - 1 / natCast i := by
  have hi1 := one_le_natCast_of_pos (α := α) hi
  have hpos : (0 : α) < natCast i := zero_lt_of_one_le hi1
  have key : (2 * natCast p * natCast S - natCast p * natCast p + 1 : α)
      ≤ 2 * natCast S * natCast S - natCast S * natCast S := by
    have := one_le_sq_natCast_sub (α := α) h
    grind
  have := div_le_div_of_le hpos key
  have e : ((2 * natCast p * natCast S - natCast p * natCast p + 1) / natCast i : α)
      = (2 * natCast p * natCast S - natCast p * natCast p) / natCast i + 1 / natCast i := by
    grind
  grind

/-- S-RASP's lookup over positions, negative prefix sum (`S = -m ≤ 0`, the maximum is the key
`p = 0`, score `0`): every key `p ≥ 1` scores at least `1/i` below it. -/
theorem srasp_lookup_gap_neg {m p i : Nat} (hi : 0 < i) (hp : 0 < p) :
    ((2 * natCast p * -natCast m - natCast p * natCast p) / natCast i : α) ≤ 0 - 1 / natCast i := by
  have hi1 := one_le_natCast_of_pos (α := α) hi
  have hpos : (0 : α) < natCast i := zero_lt_of_one_le hi1
  have hp1 := one_le_natCast_of_pos (α := α) hp
  have hsq := natCast_le_sq (α := α) p
  have hpm := OrderedRing.mul_nonneg (natCast_nonneg (α := α) p) (natCast_nonneg (α := α) m)
  have key : (2 * natCast p * -natCast m - natCast p * natCast p : α) ≤ -1 := by grind
  have := div_le_div_of_le hpos key
  have e : ((-1 : α) / natCast i) = 0 - 1 / natCast i := by grind
  grind

end HardSoft

end
