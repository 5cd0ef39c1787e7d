module

public import HardSoft.Cert.Heads

/-!
# Certificates, part 7b: comparisons of counts

The arithmetic of an inclusive comparison of counts `g = [N > 0]`,
`N = Σ_k c_k #<=[x_k](i) + const`, `const = r - 1/2` a half-integer, as the compiler builds it
(`constructive/logic/compiler.py`, "comparison of counts"): the count head's columns add up to
`V = N/(i+1)` exactly in both modes (every key ties; the constant column reads `is_first`, one
key); the two `W` units give `[N < 0]` at `n = 1` and `0` at `n ≥ 2`; `V` has the sign head's form
`±(2m+1)/(2D)`, positive exactly when `g` holds; and at `n = 1` the sign head has one key of
weight `1`, so its output is its value `1 - W = [N > 0]`. Then the two heads as the checker
accepts them: a count head (`cntHeadOK`) outputs at every coordinate the sum of its columns aimed
there, each `coef` times its count over `i + 1` (`cnt_head_out`), and the columns `cntExpected`
of a comparison add up to its `V` (`cntExpected_sum`); a sign head (`signHeadOK`) outputs `[g]`
exactly in average-hard mode and, in softmax at the certificate's rule, a value `≥ 0` within
`2 errRule` of it, for every `n ≥ 1` (`sign_raw`).

## Main results

* `HardSoft.Cert.tie_out_first`, `HardSoft.Cert.lsum_cmp`, `HardSoft.Cert.val_of_cols`,
  `HardSoft.Cert.val_sign_form`, `HardSoft.Cert.single_one`, `HardSoft.Cert.single_big`,
  `HardSoft.Cert.sign_out_one`, `HardSoft.Cert.cmpSum_lower`.
* `HardSoft.Cert.sign_raw`, `HardSoft.Cert.cnt_head_out`, `HardSoft.Cert.cntExpected_sum`.
-/

@[expose] public section

set_option autoImplicit false

namespace HardSoft.Cert

section Count

open Classical

variable {α : Type} [Lean.Grind.Field α] [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α]
  [Lean.Grind.OrderedRing α]

omit [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α] in
/-- Certificates, comparison of counts: `Σ_k c_k #_k`, summed in `α`, is the cast of the integer
`cmpSum`. -/
theorem lsum_cmp (cnt : Nat → CountDir → Nat) : ∀ (ts : List (Int × CountDir × Nat)),
    lsum ts (fun t => (icast (t.1) : α) * natCast (cnt t.2.2 t.2.1)) = (icast (cmpSum cnt ts) : α)
  | [] => by rw [lsum_nil]; simp only [cmpSum, icast]; rw [Lean.Grind.Ring.intCast_zero]
  | t :: ts => by
    rw [lsum_cons, lsum_cmp cnt ts, natCast_eq_intCast]
    simp only [cmpSum, icast, Lean.Grind.Ring.intCast_add, Lean.Grind.Ring.intCast_mul]

/-- Exactly one of the positions `0, ..., i` is the first. -/
theorem countMax_first : ∀ i : Nat, countMax (fun j => decide (j = 0)) (i + 1) = 1
  | 0 => rfl
  | i + 1 => by rw [countMax_succ, countMax_first i]; simp

/-- Certificates, comparison of counts (the count head's constant column, `is_first`): over the
`i + 1` keys of a causal head whose scores all tie, the value `[key = 0]` averages to `1/(i+1)`,
in average-hard mode and in softmax at any temperature. -/
theorem tie_out_first (mode : Mode α) {s : Nat → α} {c : α} {i : Nat} (hs : ∀ k, k < i + 1 → s k = c) :
    sumTo (fun k => weights mode s (i + 1) k * ind (k = 0)) (i + 1) = 1 / natCast (i + 1) := by
  rw [tie_out_eq mode hs (fun k => k = 0),
    countMax_congr (q := fun j => decide (j = 0)) (fun j _ => by by_cases h : j = 0 <;> simp [h]),
    countMax_first, natCast_succ, natCast_zero]
  grind

/-- Certificates, comparison of counts: the count head's columns, `S/D` (the weighted counts) and
`((2r-1)/2)/D` (the constant), add up to `V = ((2(S+r)-1)/2)/D`. -/
theorem val_of_cols (S r : Int) {D : Nat} (hD : 0 < D) :
    (icast S : α) / natCast D + ((icast (2 * r - 1) : α) / 2) / natCast D
      = (icast (2 * (S + r) - 1) : α) / 2 / natCast D := by
  have hd : (natCast D : α) ≠ 0 := by
    have := one_le_natCast_of_pos (α := α) hD
    intro h; rw [h] at this; exact absurd this (Std.not_le.mpr Lean.Grind.OrderedRing.zero_lt_one)
  simp only [icast, Lean.Grind.Ring.intCast_sub, Lean.Grind.Ring.intCast_mul, Lean.Grind.Ring.intCast_add]
  generalize (natCast D : α) = d at *
  grind

/-- An integer's cast: at least `1` if positive, at most `0` otherwise. -/
theorem intCast_cases (z : Int) : (0 < z ∧ (1 : α) ≤ (icast z : α)) ∨ (z ≤ 0 ∧ (icast z : α) ≤ 0) := by
  by_cases h : 0 < z
  · left
    obtain ⟨k, hk⟩ : ∃ k : Nat, z = (k : Int) + 1 := ⟨(z - 1).toNat, by omega⟩
    refine ⟨h, ?_⟩
    rw [hk]
    have h1 := natCast_nonneg (α := α) k
    have h2 := natCast_eq_intCast (α := α) k
    grind
  · right
    obtain ⟨k, hk⟩ : ∃ k : Nat, z = -(k : Int) := ⟨(-z).toNat, by omega⟩
    refine ⟨by omega, ?_⟩
    rw [hk]
    have h1 := natCast_nonneg (α := α) k
    have h2 := natCast_eq_intCast (α := α) k
    grind

/-- Certificates, comparison of counts: `V = ((2A-1)/2)/D` (`D ≥ 1`) has the sign head's form
`±(2m+1)/(2D)`, with the sign `+` exactly when `A > 0`. -/
theorem val_sign_form (A : Int) (D : Nat) :
    ∃ m : Nat, (icast (2 * A - 1) : α) / 2 / natCast D
      = (if decide (0 < A) then 1 else -1) * (natCast (2 * m + 1) / (2 * natCast D)) := by
  by_cases h : 0 < A
  · refine ⟨(A - 1).toNat, ?_⟩
    rw [if_pos (decide_eq_true h), natCast_eq_intCast (2 * (A - 1).toNat + 1),
      show (((2 * (A - 1).toNat + 1 : Nat) : Int)) = 2 * A - 1 by omega]
    grind
  · refine ⟨(-A).toNat, ?_⟩
    rw [if_neg (by simpa using h), natCast_eq_intCast (2 * (-A).toNat + 1),
      show (((2 * (-A).toNat + 1 : Nat) : Int)) = -(2 * A - 1) by omega]
    grind

/-- Certificates, comparison of counts (the two `W` units at `n = 1`, where `V = N = A - 1/2`):
`ReLU(1/2 - V) - ReLU(-1/2 - V) = [N < 0] = [A ≤ 0]`. -/
theorem single_one (A : Int) :
    relu (-((icast (2 * A - 1) : α) / 2) + 1 / 2) - relu (-((icast (2 * A - 1) : α) / 2) + -(1 / 2))
      = if decide (0 < A) then 0 else 1 := by
  have e : (icast (2 * A - 1) : α) = 2 * (icast A : α) - 1 := by grind
  rw [e]
  have a1 : -((2 * (icast A : α) - 1) / 2) + 1 / 2 = 1 - (icast A : α) := by grind
  have a2 : -((2 * (icast A : α) - 1) / 2) + -(1 / 2) = -(icast A : α) := by grind
  rw [a1, a2]
  rcases intCast_cases (α := α) A with ⟨h, hA⟩ | ⟨h, hA⟩
  · rw [if_pos (decide_eq_true h)]
    unfold relu
    rw [if_pos (by grind), if_pos (by grind)]; grind
  · rw [if_neg (by simpa using (show ¬ 0 < A by omega))]
    rw [relu_of_nonneg (by grind), relu_of_nonneg (by grind)]; grind

/-- Certificates, comparison of counts (the two `W` units at `n ≥ 2`: `is_first + is_last ≤ 1`):
with `V ≥ 1/2 - M`, both units' arguments `-V + M f + M l + (±1/2 - 2M)` are `≤ 0`, so `W = 0`. -/
theorem single_big {V M f l : α} (hM : 0 ≤ M) (hfl : f + l ≤ 1)
    (hV : 1 / 2 - M ≤ V) :
    relu (-V + f * M + l * M + (1 / 2 - 2 * M)) = 0 ∧ relu (-V + f * M + l * M + (-(1 / 2) - 2 * M)) = 0 := by
  have h1 : (f + l) * M ≤ 1 * M := Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_right hfl hM
  unfold relu
  constructor
  · rw [if_pos (by grind)]
  · rw [if_pos (by grind)]

/-- Certificates, comparison of counts: `Σ_k c_k #_k ≥ -D Σ_k |c_k|` when every count is at most
`D`. -/
theorem cmpSum_lower (cnt : Nat → CountDir → Nat) (D : Nat) : ∀ (ts : List (Int × CountDir × Nat)),
    (∀ t, t ∈ ts → cnt t.2.2 t.2.1 ≤ D) →
      -((D : Int) * ((ts.map (fun t => (t.1.natAbs : Int))).sum)) ≤ cmpSum cnt ts
  | [], _ => by simp [cmpSum]
  | t :: ts, h => by
    have ih := cmpSum_lower cnt D ts (fun t' ht' => h t' (by simp [ht']))
    have ht := h t (by simp)
    simp only [cmpSum, List.map_cons, List.sum_cons]
    have hterm : -((D : Int) * (t.1.natAbs : Int)) ≤ t.1 * (cnt t.2.2 t.2.1 : Int) := by
      by_cases hc : 0 ≤ t.1
      · have : 0 ≤ t.1 * (cnt t.2.2 t.2.1 : Int) := Int.mul_nonneg hc (by omega)
        have : 0 ≤ (D : Int) * (t.1.natAbs : Int) := Int.mul_nonneg (by omega) (by omega)
        omega
      · have e : (t.1.natAbs : Int) = -t.1 := by omega
        rw [e]
        have : t.1 * (D : Int) ≤ t.1 * (cnt t.2.2 t.2.1 : Int) :=
          Int.mul_le_mul_of_nonpos_left (by omega) (by omega)
        have e2 : -((D : Int) * -t.1) = t.1 * (D : Int) := by rw [Int.mul_neg, Int.neg_neg, Int.mul_comm]
        omega
    rw [Int.mul_add]
    omega

/-- Certificates, comparison of counts (the sign head at `n = 1`): one key, of weight `1` in
average-hard mode and in softmax at any temperature, so the head outputs its value at key `0`. -/
theorem sign_out_one (mode : Mode α) (s v : Nat → α) :
    sumTo (fun j => weights mode s 1 j * v j) 1 = v 0 := by
  have hw := weights_of_tie mode (s := s) (c := s 0) (N := 1) (fun k hk => by rw [show k = 0 by omega]) 0 (by omega)
  rw [sumTo_succ, sumTo_zero, hw, natCast_succ, natCast_zero]
  grind

/-- Certificates, comparison of counts (the sign head's value at `n = 1`):
`(1 + p_0)/2 - W = 1 - [A ≤ 0] = [A > 0]`. -/
theorem sign_val_one (A : Int) (W : α) (hW : W = if decide (0 < A) then 0 else 1) :
    (1 : α) * (1 / 2) + (1 : α) * (1 / 2) + W * (-1) = if decide (0 < A) then 1 else 0 := by
  rw [hW]; split <;> grind

/-- The rule's bound is non-negative. -/
theorem errRule_nonneg (R : RatEmb α) (C : Cert) (hγ : 0 ≤ C.gammaRule) (hk : 0 < C.expK) :
    (0 : α) ≤ R.cast C.errRule := by
  have hk0 : (C.expK : Rat) ≠ 0 := by
    intro h
    have : ((C.expK : Nat) : Rat) = ((0 : Nat) : Rat) := h
    exact absurd (Rat.natCast_inj.mp this) (by omega)
  have hkα : (0 : α) < natCast C.expK := Std.lt_of_lt_of_le Lean.Grind.OrderedRing.zero_lt_one (one_le_natCast_of_pos hk)
  have hγα : (0 : α) ≤ R.cast C.gammaRule := by rw [← R.map_zero]; exact R.map_le _ _ hγ
  have hbase : R.cast (1 + C.gammaRule / C.expK) = 1 + R.cast C.gammaRule / natCast C.expK := by
    rw [R.map_add, R.map_one, R.map_div hk0, R.map_natCast]
  have hone : (1 : α) ≤ 1 + R.cast C.gammaRule / natCast C.expK := by
    have := div_nonneg_of_nonneg hγα hkα; grind
  have hP1 : (1 : α) ≤ R.cast ((1 + C.gammaRule / C.expK) ^ C.expK) := by
    rw [R.map_pow, hbase]; exact one_le_pow_of_one_le hone _
  have hne : (1 + C.gammaRule / C.expK) ^ C.expK ≠ 0 := by
    intro h0; rw [h0, R.map_zero] at hP1; exact absurd hP1 (Std.not_le.mpr Lean.Grind.OrderedRing.zero_lt_one)
  unfold Cert.errRule
  rw [R.map_div hne, R.map_one]
  exact div_nonneg_of_nonneg (Std.le_of_lt Lean.Grind.OrderedRing.zero_lt_one)
    (Std.lt_of_lt_of_le Lean.Grind.OrderedRing.zero_lt_one hP1)

/-! ### The heads of a comparison -/

/-- A head's output through one value column (`W_V` column `v`): the attention-weighted average
of `x_key v`. -/
noncomputable def colOut (R : RatEmb α) (mode : Mode α) (hw : HeadW) (x : Acts α) (n i : Nat) (v : SVec) : α :=
  sumTo (fun k => weights mode (score R hw x i) (hw.mask.count n i) k * dotv R (x (hw.mask.key i k)) v)
    (hw.mask.count n i)

/-- A column's output depends only on its entries. -/
theorem colOut_congr (R : RatEmb α) (mode : Mode α) (hw : HeadW) (x : Acts α) (n i : Nat) {v v' : SVec}
    (h : ∀ k, svGet v k = svGet v' k) : colOut R mode hw x n i v = colOut R mode hw x n i v' := by
  unfold colOut; exact sumTo_congr (fun k _ => by rw [dotv_congr R _ h])

/-- A head's output is the sum of its columns' outputs times their `W_O` entries. -/
theorem headOut_cols (R : RatEmb α) (mode : Mode α) (hw : HeadW) (x : Acts α) (n i c : Nat) :
    headOut R mode hw x n i c
      = lsum (hw.v.zip hw.o) (fun vo => colOut R mode hw x n i vo.1 * R.cast (svGet vo.2 c)) := rfl

/-- The largest score over `N` keys only sees those keys. -/
theorem hardMax_congr {s s' : Nat → α} : ∀ N, (∀ k, k < N → s k = s' k) → hardMax s N = hardMax s' N
  | 0, _ => rfl
  | 1, h => by simp only [hardMax]; exact h 0 (by omega)
  | N + 2, h => by
    simp only [hardMax]
    rw [hardMax_congr (N + 1) (fun k hk => h k (by omega)), h (N + 1) (by omega)]

/-- The attention weights over `N` keys only see the scores of those keys. -/
theorem weights_congr (mode : Mode α) {s s' : Nat → α} {N : Nat} (h : ∀ k, k < N → s k = s' k) {j : Nat}
    (hj : j < N) : weights mode s N j = weights mode s' N j := by
  cases mode with
  | hard =>
    show ahard s N j = ahard s' N j
    unfold ahard
    rw [h j hj, hardMax_congr N h, countMax_congr (q := fun k => decide (s' k = hardMax s' N))
      (fun k hk => by rw [h k hk])]
  | soft E tau => exact softmax_congr_lt E h hj

/-- An index past a list reads the default. -/
theorem getD_default_of_le {β : Type} : ∀ (l : List β) (k : Nat) (d : β), l.length ≤ k → l.getD k d = d
  | [], _, _, _ => by simp
  | _ :: _, 0, _, h => absurd h (by simp)
  | _ :: t, k + 1, d, h => by
    simp only [List.getD_cons_succ]
    exact getD_default_of_le t k d (by simp at h; omega)

/-- A coordinate with a role other than `zero` lies below the width. -/
theorem lt_of_role {C : Cert} {c l : Nat} (h : C.roleAt c l ≠ .zero) : c < C.spans.length := by
  refine Classical.byContradiction (fun hc => h ?_)
  unfold Cert.roleAt
  rw [getD_default_of_le C.spans c [] (by omega)]
  rfl

/-- What `signHeadOK` says. -/
theorem sign_facts {C : Cert} {l : Nat} {hw : HeadW} {hd : HeadD} {o : Bool} {vc : Nat} {wc : Option Nat}
    (hok : signHeadOK C l hw hd o vc wc = true) (hws : wc.isSome = true) :
    hw.mask = .none ∧ ∃ t w one par kp, hd.terms = [t] ∧ wc = some w ∧ t.node = t.src ∧
      inclusiveCmp C.prog t.node = true ∧
      C.roleAt vc (l - 1) = .val t.node ∧ C.roleAt w (l - 1) = .single t.node ∧
      C.roleAt (C.crd t.node) (l - 1) = .zero ∧ C.roleAt (C.crd t.node) l = .node t.node ∧
      featCoord C .one (l - 1) = some one ∧ featCoord C .parity (l - 1) = some par ∧
      featCoord C (if C.bounded then .parity else .lenParity) (l - 1) = some kp ∧
      sameCols hw.q [[(vc, C.K)]] = true ∧ sameCols hw.k [[(kp, 1)]] = true ∧
      sameCols hw.v [[(one, 1 / 2), (par, 1 / 2), (w, -1)]] = true ∧
      sameCols hw.o [[(C.crd t.node, 1)]] = true := by
  unfold signHeadOK at hok
  simp only [Bool.and_eq_true] at hok
  obtain ⟨⟨⟨hm, _⟩, _⟩, hmat⟩ := hok
  refine ⟨Mask.eq_of_beq hm, ?_⟩
  rcases hts : hd.terms with _ | ⟨t, _ | ⟨t', rest⟩⟩
  · rw [hts] at hmat; simp at hmat
  · cases hwc : wc with
    | none => rw [hwc] at hws; simp at hws
    | some w =>
      rw [hts, hwc] at hmat
      simp only [Bool.and_eq_true, beq_iff_eq] at hmat
      obtain ⟨⟨⟨⟨⟨⟨⟨⟨_, hsrc⟩, hinc⟩, hv⟩, hw'⟩, hz⟩, hn⟩, hf⟩, ho⟩ := hmat
      cases h1 : featCoord C .one (l - 1) with
      | none => rw [h1] at hf; simp at hf
      | some one =>
        cases h2 : featCoord C .parity (l - 1) with
        | none => rw [h1, h2] at hf; simp at hf
        | some par =>
          cases h3 : featCoord C (if C.bounded then .parity else .lenParity) (l - 1) with
          | none => rw [h1, h2, h3] at hf; simp at hf
          | some kp =>
            rw [h1, h2, h3] at hf
            simp only [Bool.and_eq_true] at hf
            exact ⟨t, w, one, par, kp, rfl, rfl, hsrc, hinc, Role.eq_of_beq hv, Role.eq_of_beq hw', Role.eq_of_beq hz,
              Role.eq_of_beq hn, rfl, rfl, rfl, hf.1.1, hf.1.2, hf.2, ho⟩
  · rw [hts] at hmat; simp at hmat

/-- What `signHeadOK` says of a sign head without correction `W`: a strict comparison's (its `V`
exact, role `val`) or, bounded regime, a mixed comparison's (its `V` approximate, role `vmix`). -/
theorem sign_facts_strict {C : Cert} {l : Nat} {hw : HeadW} {hd : HeadD} {o : Bool} {vc : Nat} {wc : Option Nat}
    (hok : signHeadOK C l hw hd o vc wc = true) (hws : wc = none) :
    hw.mask = .none ∧ ∃ t one par kp, hd.terms = [t] ∧ o = decide (1 ≤ cmpR C.prog t.node) ∧ t.node = t.src ∧
      ((strictCmp C.prog t.node = true ∧ C.roleAt vc (l - 1) = .val t.node) ∨
        (C.bounded = true ∧ C.mixed = true ∧ mixedCmp C.prog t.node = true ∧
          C.roleAt vc (l - 1) = .vmix t.node)) ∧
      C.roleAt (C.crd t.node) (l - 1) = .zero ∧ C.roleAt (C.crd t.node) l = .node t.node ∧
      featCoord C .one (l - 1) = some one ∧ featCoord C .parity (l - 1) = some par ∧
      featCoord C (if C.bounded then .parity else .lenParity) (l - 1) = some kp ∧
      sameCols hw.q [[(vc, if o then C.K else -C.K)]] = true ∧ sameCols hw.k [[(kp, 1)]] = true ∧
      sameCols hw.v [[(one, 1 / 2), (par, 1 / 2)]] = true ∧
      sameCols hw.o [[(C.crd t.node, 1)]] = true := by
  unfold signHeadOK at hok
  simp only [Bool.and_eq_true] at hok
  obtain ⟨⟨⟨hm, _⟩, _⟩, hmat⟩ := hok
  refine ⟨Mask.eq_of_beq hm, ?_⟩
  subst hws
  rcases hts : hd.terms with _ | ⟨t, _ | ⟨t', rest⟩⟩
  · rw [hts] at hmat; simp at hmat
  · rw [hts] at hmat
    simp only [Bool.and_eq_true, beq_iff_eq] at hmat
    obtain ⟨⟨⟨⟨⟨⟨ho', hsrc⟩, hsv⟩, hz⟩, hn⟩, hf⟩, ho⟩ := hmat
    have hsv' : (strictCmp C.prog t.node = true ∧ C.roleAt vc (l - 1) = .val t.node) ∨
        (C.bounded = true ∧ C.mixed = true ∧ mixedCmp C.prog t.node = true ∧
          C.roleAt vc (l - 1) = .vmix t.node) := by
      simp only [Bool.or_eq_true, Bool.and_eq_true] at hsv
      rcases hsv with ⟨h1, h2⟩ | ⟨⟨⟨h1, h2⟩, h3⟩, h4⟩
      · exact Or.inl ⟨h1, Role.eq_of_beq h2⟩
      · exact Or.inr ⟨h1, h2, h3, Role.eq_of_beq h4⟩
    cases h1 : featCoord C .one (l - 1) with
    | none => rw [h1] at hf; simp at hf
    | some one =>
      cases h2 : featCoord C .parity (l - 1) with
      | none => rw [h1, h2] at hf; simp at hf
      | some par =>
        cases h3 : featCoord C (if C.bounded then .parity else .lenParity) (l - 1) with
        | none => rw [h1, h2, h3] at hf; simp at hf
        | some kp =>
          rw [h1, h2, h3] at hf
          simp only [Bool.and_eq_true] at hf
          exact ⟨t, one, par, kp, rfl, ho', hsrc, hsv', Role.eq_of_beq hz,
            Role.eq_of_beq hn, rfl, rfl, rfl, hf.1.1, hf.1.2, hf.2, ho⟩
  · rw [hts] at hmat; simp at hmat

/-- An inclusive comparison counts to the right of `#<=`. -/
theorem cmpDir_of_incl {P : Prog} {g : Nat} (h : inclusiveCmp P g = true) : cmpDir P g = .le := by
  unfold inclusiveCmp allLe at h
  unfold cmpDir
  split at h
  · next ts r hn =>
    try rw [hn]
    simp only [Bool.and_eq_true, List.all_eq_true] at h
    cases ts with
    | nil => simp at h
    | cons t rest =>
      have := h.1.2 t (by simp)
      simp only
      revert this; cases t.2.1 <;> simp
  · simp at h

/-- A strict comparison holds exactly when its `A = Σ_k c_k #_k + r` is positive. -/
theorem holds_iff_cmpA_strict {P : Prog} {w : List Nat} {n g i : Nat} (h : strictCmp P g = true) :
    holds P w n g i ↔ 0 < cmpA P w n g i := by
  unfold strictCmp at h
  unfold cmpA
  split at h
  · next ts r hn =>
    try rw [hn]
    simp only [Bool.and_eq_true, List.all_eq_true, decide_eq_true_eq] at h
    exact holds_cmp hn h.2
  · simp at h

/-- An inclusive comparison holds exactly when its `A = Σ_k c_k #_k + r` is positive. -/
theorem holds_iff_cmpA {P : Prog} {w : List Nat} {n g i : Nat} (h : inclusiveCmp P g = true) :
    holds P w n g i ↔ 0 < cmpA P w n g i := by
  unfold inclusiveCmp at h
  unfold cmpA
  split at h
  · next ts r hn =>
    try rw [hn]
    simp only [Bool.and_eq_true, List.all_eq_true, decide_eq_true_eq] at h
    exact holds_cmp hn h.2
  · simp at h

/-- Certificates, comparison of counts, helper: the sign head's value `evenVal` is non-negative
(stated apart, so that its case split runs without the sign theorems' large contexts). -/
theorem evenVal_nonneg (k : Nat) : (0 : α) ≤ evenVal k := by
  unfold evenVal; split
  · exact Std.le_of_lt Lean.Grind.OrderedRing.zero_lt_one
  · exact Std.le_refl _

/-- Certificates, comparison of counts, helper: the sign head's value column `(1 + p_k)/2 - W` at key `k`. -/
theorem evenVal_half_sub (k : Nat) (W : α) :
    1 * (1 / 2) + ((if k % 2 = 0 then (1 : α) else -1) * (1 / 2) + (W * -1 + 0)) = evenVal k - W := by
  unfold evenVal; split <;> grind

/-- Certificates, comparison of counts, helper: the sign head's value column `(1 + p_k)/2` at key `k`. -/
theorem evenVal_half (k : Nat) : 1 * (1 / 2) + ((if k % 2 = 0 then (1 : α) else -1) * (1 / 2) + 0) = evenVal k := by
  unfold evenVal; split <;> grind

/-- Certificates, comparison of counts, helper: a signed rational cast, `R(±K) = ±R(K)`. -/
theorem cast_signed (R : RatEmb α) (o : Bool) (K : Rat) :
    R.cast (if o then K else -K) = (if o then 1 else -1) * R.cast K := by
  cases o
  · simp only [Bool.false_eq_true, if_false]; rw [R.map_neg]; grind
  · simp only [if_true]; grind

/-- Certificates, comparison of counts, helper: two signs multiply to the sign of their agreement. -/
theorem sign_sel_mul (o p : Bool) (X : α) :
    ((if o then 1 else -1) : α) * ((if p then 1 else -1) * X) = (if (o == p) then 1 else -1) * X := by
  cases o <;> cases p <;> simp <;> grind

/-- Certificates, comparison of counts, helper: the oriented indicator of a true comparison. -/
theorem sel_of_true (o : Bool) : (if o then (1 : α) else 1 - 1) = if (o == true) then 1 else 0 := by
  cases o <;> simp <;> grind

/-- Certificates, comparison of counts, helper: the oriented indicator of a false comparison. -/
theorem sel_of_false (o : Bool) : (if o then (0 : α) else 1 - 0) = if (o == false) then 1 else 0 := by
  cases o <;> simp <;> grind

/-- Certificates, comparison of counts (the sign head at the certificate's rule, every `n ≥ 1`): a
sign head the checker accepts outputs, at its node's coordinate, exactly `[g]` in average-hard mode
and, in softmax, a value `≥ 0` within `2 errRule` of it (`n ≥ 2`: `sign_out_hard`,
`sign_out_soft_bounded`, `sign_out_soft_unbounded`; `n = 1`: one key, value `1 - W = [g]`). -/
theorem sign_raw (R : RatEmb α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α}
    (hinv : Inv C w n d (l - 1) x) (hroles : C.spans.length = d)
    (hK : 0 < C.K) (hc : 0 < C.c) (hk : 0 < C.expK)
    {hw : HeadW} {hd : HeadD} {o : Bool} {vc : Nat} {wc : Option Nat} (hok : signHeadOK C l hw hd o vc wc = true)
    (hws : wc.isSome = true) {t : TermD} (ht : t ∈ hd.terms) {i : Nat} (hi : i < n) :
    headOut R .hard hw x n i (C.crd t.node) = ind (holds C.prog w n t.node i) ∧
      ∀ E : ExpLike α, E.Tangent →
        0 ≤ headOut R (.soft E (C.tauRule R n)) hw x n i (C.crd t.node) ∧
        absv (headOut R (.soft E (C.tauRule R n)) hw x n i (C.crd t.node) - ind (holds C.prog w n t.node i))
          ≤ 2 * R.cast C.errRule := by
  obtain ⟨hm, t0, w0, one, par, kp, hterms, _, _, hinc, hvc, hw0, _, _, h1, h2, h3, hq, hk', hv, ho⟩ := sign_facts hok hws
  have htt : t = t0 := by rw [hterms] at ht; simpa using ht
  subst htt
  have hε := errRule_nonneg R C (gamma_nonneg R hK hc) hk
  have hholds := holds_iff_cmpA (w := w) (n := n) (i := i) hinc
  generalize hA : cmpA C.prog w n t.node i = A at hholds
  -- the coordinates
  have hf1 := featCoord_sound h1
  have hf2 := featCoord_sound h2
  have hf3 := featCoord_sound h3
  have hvcd : vc < d := by rw [← hroles]; exact lt_of_role (by rw [hvc]; simp)
  have hw0d : w0 < d := by rw [← hroles]; exact lt_of_role (by rw [hw0]; simp)
  have xone : ∀ k, k < n → x k one = 1 := fun k hk => by
    rw [inv_exact (c := one) hinv hk (by rw [← hroles]; exact hf1.2) (by rw [hf1.1]; rfl), hf1.1]; rfl
  have xpar : ∀ k, k < n → x k par = (if k % 2 = 0 then 1 else -1) := fun k hk => by
    rw [inv_exact (c := par) hinv hk (by rw [← hroles]; exact hf2.2) (by rw [hf2.1]; rfl), hf2.1]; rfl
  have xw : ∀ k, k < n → x k w0 = ind (n = 1 ∧ ¬ holds C.prog w n t.node k) := fun k hk => by
    rw [inv_exact (c := w0) hinv hk hw0d (by rw [hw0]; rfl), hw0]; rfl
  have xvc : x i vc = (icast (2 * A - 1) : α) / 2 / natCast (i + 1) := by
    rw [inv_exact (c := vc) hinv hi hvcd (by rw [hvc]; rfl), hvc]; simp only [roleVal, cmpDir_of_incl hinc, cntDen]; rw [hA]
  have xkp : ∀ k, k < n → x k kp = (if C.bounded then 1 else natCast n) * (if k % 2 = 0 then 1 else -1) := by
    intro k hk
    rw [inv_exact (c := kp) hinv hk (by rw [← hroles]; exact hf3.2) (by rw [hf3.1]; rfl), hf3.1]
    cases hb : C.bounded <;> simp [roleVal, Feat.val] <;> grind
  -- the head's output is its one column's
  have hcount : hw.mask.count n i = n := by rw [hm]; rfl
  have hkey : ∀ k, hw.mask.key i k = k := fun k => by rw [hm]; rfl
  have hscore : ∀ k, k < n → score R hw x i k
      = R.cast C.K * ((icast (2 * A - 1) : α) / 2 / natCast (i + 1)) * ((if C.bounded then 1 else natCast n) * (if k % 2 = 0 then 1 else -1)) := by
    intro k hk
    unfold score
    rw [lsum_zip_sameCols hq hk' (fun q kk (_ : Unit) => dotv R (x i) q * dotv R (x (hw.mask.key i k)) kk)
      (fun v v' o o' _ h1 h2 => by dsimp only; rw [dotv_congr R _ h1, dotv_congr R _ h2]) ()]
    simp only [List.zip_cons_cons, List.zip_nil_right, lsum_cons, lsum_nil, dotv_cons, dotv_nil, hkey, R.map_one]
    rw [xvc, xkp k hk]; grind
  have hval : ∀ k, k < n → dotv R (x k) [(one, 1 / 2), (par, 1 / 2), (w0, -1)]
      = evenVal k - ind (n = 1 ∧ ¬ holds C.prog w n t.node k) := by
    intro k hk
    simp only [dotv_cons, dotv_nil]
    have hhalf : R.cast (1 / 2 : Rat) = (1 : α) / 2 := R.map_half
    rw [xone k hk, xpar k hk, xw k hk, hhalf, R.map_neg, R.map_one]
    exact evenVal_half_sub k _
  have hout : ∀ mode : Mode α, headOut R mode hw x n i (C.crd t.node)
      = sumTo (fun k => weights mode (score R hw x i) n k * (evenVal k - ind (n = 1 ∧ ¬ holds C.prog w n t.node k))) n := by
    intro mode
    rw [headOut_cols, lsum_zip_sameCols hv ho (fun v o (_ : Unit) => colOut R mode hw x n i v * R.cast (svGet o (C.crd t.node)))
      (fun v v' o o' _ h1 h2 => by dsimp only; rw [colOut_congr R mode hw x n i h1, h2]) ()]
    simp only [List.zip_cons_cons, List.zip_nil_right, lsum_cons, lsum_nil, svGet, if_true, Rat.add_zero, R.map_one]
    unfold colOut
    rw [hcount]
    have : ∀ a : α, a * 1 + 0 = a := fun a => by grind
    rw [this]
    exact sumTo_congr (fun k hk => by rw [hkey, hval k hk])
  -- the indicator is the sign
  have hind : (ind (holds C.prog w n t.node i) : α) = if decide (0 < A) then 1 else 0 := by
    unfold ind; by_cases h0 : 0 < A
    · rw [if_pos (hholds.mpr h0), if_pos (decide_eq_true h0)]
    · rw [if_neg (fun h => h0 (hholds.mp h)), if_neg (by simpa using h0)]
  have habs0 : absv ((0 : α)) = 0 := by unfold absv; rw [if_pos (Std.le_refl _)]
  have h2ε : (0 : α) ≤ 2 * R.cast C.errRule := by grind
  by_cases hn1 : n = 1
  · -- one key
    subst hn1
    have hi0 : i = 0 := by omega
    subst hi0
    have hexact : ∀ mode : Mode α, headOut R mode hw x 1 0 (C.crd t.node) = ind (holds C.prog w 1 t.node 0) := by
      intro mode
      rw [hout mode, sign_out_one mode _ (fun k => evenVal k - ind (1 = 1 ∧ ¬ holds C.prog w 1 t.node k))]
      by_cases hh : holds C.prog w 1 t.node 0
      · (simp [evenVal, ind, hh]) <;> grind
      · (simp [evenVal, ind, hh]) <;> grind
    refine ⟨hexact .hard, fun E _ => ?_⟩
    rw [hexact]
    refine ⟨?_, ?_⟩
    · rcases ind_cases (α := α) (holds C.prog w 1 t.node 0) with h | h <;> rw [h]
      · exact Std.le_refl _
      · exact Std.le_of_lt Lean.Grind.OrderedRing.zero_lt_one
    · rw [show (ind (holds C.prog w 1 t.node 0) : α) - ind (holds C.prog w 1 t.node 0) = 0 by grind, habs0]
      exact h2ε
  · -- n ≥ 2: no correction, the sign head proper
    have hn2 : 2 ≤ n := by omega
    have hW : ∀ k, (ind (n = 1 ∧ ¬ holds C.prog w n t.node k) : α) = 0 := fun k => by
      unfold ind; rw [if_neg (fun h => hn1 h.1)]
    obtain ⟨m, hm'⟩ := val_sign_form (α := α) A (i + 1)
    generalize hb : decide (0 < A) = b at hm' hind
    have hKα : (0 : α) < R.cast C.K := by rw [← R.map_zero]; exact R.map_lt hK
    have hev : ∀ mode : Mode α, headOut R mode hw x n i (C.crd t.node)
        = sumTo (fun k => weights mode (fun j => R.cast C.K * ((if b then 1 else -1) * (natCast (2 * m + 1) / (2 * natCast (i + 1))))
            * ((if C.bounded then 1 else natCast n) * (if j % 2 = 0 then 1 else -1))) n k * evenVal k) n := by
      intro mode
      rw [hout mode]
      refine sumTo_congr (fun k hk => ?_)
      rw [hW k, weights_congr mode (s' := fun j => R.cast C.K * ((if b then 1 else -1) * (natCast (2 * m + 1) / (2 * natCast (i + 1))))
            * ((if C.bounded then 1 else natCast n) * (if j % 2 = 0 then 1 else -1))) (fun j hj => by rw [hscore j hj, hm']) hk]
      grind
    have hnn : ∀ E : ExpLike α, 0 ≤ headOut R (.soft E (C.tauRule R n)) hw x n i (C.crd t.node) := by
      intro E
      rw [hev]
      refine sumTo_nonneg_of (fun k _ => ?_)
      have := softmax_nonneg E (C.tauRule R n) (fun j => R.cast C.K * ((if b then 1 else -1) * (natCast (2 * m + 1) / (2 * natCast (i + 1))))
            * ((if C.bounded then 1 else natCast n) * (if j % 2 = 0 then 1 else -1))) (N := n) (by omega) k
      have he : (0 : α) ≤ evenVal k := evenVal_nonneg k
      exact Lean.Grind.OrderedRing.mul_nonneg this he
    cases hbd : C.bounded with
    | true =>
      have hsc : (fun j => R.cast C.K * ((if b then 1 else -1) * (natCast (2 * m + 1) / (2 * natCast (i + 1))))
            * ((if true = true then 1 else natCast n) * (if j % 2 = 0 then (1 : α) else -1)))
          = signScore (R.cast C.K) ((if b then 1 else -1) * (natCast (2 * m + 1) / (2 * natCast (i + 1)))) := by
        funext j; unfold signScore parity; simp only [if_true]; grind
      refine ⟨?_, fun E hE => ⟨hnn E, ?_⟩⟩
      · rw [hev, hbd, hsc, hind]
        exact sign_out_hard hKα b (by omega) (by omega) (Or.inr hn2)
      · rw [hev, hbd, hsc, hind]
        exact sign_out_soft_bounded R E hE hbd hK hc hk b (by omega) (by omega) hn2
    | false =>
      have hsc : (fun j => R.cast C.K * ((if b then 1 else -1) * (natCast (2 * m + 1) / (2 * natCast (i + 1))))
            * ((if false = true then 1 else natCast n) * (if j % 2 = 0 then (1 : α) else -1)))
          = signScoreUnbounded (R.cast C.K) ((if b then 1 else -1) * (natCast (2 * m + 1) / (2 * natCast (i + 1)))) n := by
        funext j; unfold signScoreUnbounded parity; simp only [Bool.false_eq_true, if_false]; grind
      refine ⟨?_, fun E hE => ⟨hnn E, ?_⟩⟩
      · rw [hev, hbd, hsc, hind]
        exact sign_out_hard_unbounded hKα b (by omega) (by omega) (Or.inr hn2)
      · rw [hev, hbd, hsc, hind]
        exact sign_out_soft_unbounded R E hE hbd hK hc hk b (by omega) (by omega) hn2

/-- A comparison's sum is `0` when every count is. -/
theorem cmpSum_zero (cnt : Nat → CountDir → Nat) : ∀ (ts : List (Int × CountDir × Nat)),
    (∀ t, t ∈ ts → cnt t.2.2 t.2.1 = 0) → cmpSum cnt ts = 0
  | [], _ => rfl
  | t :: ts, h => by
    simp only [cmpSum]
    rw [h t (by simp), cmpSum_zero cnt ts (fun t' ht' => h t' (by simp [ht']))]
    simp

/-- At `n = 1` a strict comparison counts nothing: `A = r`. -/
theorem cmpA_one {P : Prog} {w : List Nat} {g : Nat} (h : strictCmp P g = true) :
    cmpA P w 1 g 0 = cmpR P g := by
  unfold strictCmp at h
  unfold cmpA cmpR
  split at h
  · next ts r hn =>
    try rw [hn]
    simp only [Bool.and_eq_true, Bool.or_eq_true, List.all_eq_true] at h
    show cmpSum (fun x d => countIn (fun j => holds P w 1 x j) 1 0 d) ts + r = r
    rw [cmpSum_zero (fun x d => countIn (fun j => holds P w 1 x j) 1 0 d) ts (fun t ht => by
      obtain ⟨c0, d0, x0⟩ := t
      rcases h.1.2 with h' | h'
      · have := h' _ ht
        cases d0 <;> simp [dirEq] at this <;> simp [countIn, countMax]
      · have := h' _ ht
        cases d0 <;> simp [dirEq] at this <;> simp [countIn, countMax])]
    simp
  · simp at h

/-- A mixed comparison holds exactly when its `A = Σ_k c_k #_k + r` is positive. -/
theorem holds_iff_cmpA_mixed {P : Prog} {w : List Nat} {n g i : Nat} (h : mixedCmp P g = true) :
    holds P w n g i ↔ 0 < cmpA P w n g i := by
  unfold mixedCmp at h
  unfold cmpA
  split at h
  · next ts r hn =>
    try rw [hn]
    simp only [Bool.and_eq_true, List.all_eq_true, decide_eq_true_eq] at h
    exact holds_cmp hn h.2
  · simp at h

/-- At `n = 1` a mixed comparison counts nothing: `A = r`. -/
theorem cmpA_one_mixed {P : Prog} {w : List Nat} {g : Nat} (h : mixedCmp P g = true) :
    cmpA P w 1 g 0 = cmpR P g := by
  unfold mixedCmp at h
  unfold cmpA cmpR
  split at h
  · next ts r hn =>
    try rw [hn]
    simp only [Bool.and_eq_true, List.all_eq_true] at h
    show cmpSum (fun x d => countIn (fun j => holds P w 1 x j) 1 0 d) ts + r = r
    rw [cmpSum_zero (fun x d => countIn (fun j => holds P w 1 x j) 1 0 d) ts (fun t ht => by
      obtain ⟨c0, d0, x0⟩ := t
      have := h.1.1.1.2 _ ht
      cases d0 <;> simp [dirEq] at this <;> simp [countIn, countMax])]
    simp
  · simp at h

/-- Certificates, bounded mixed comparisons, helper: a value `V` within `e` of `s p` (`s = ±1`,
`p ≥ 2e`) is `s q` with `q ≥ e`. -/
theorem approx_sign_form {V p e : α} (s : Bool) (hp : 2 * e ≤ p)
    (h : absv (V - (if s then 1 else -1) * p) ≤ e) :
    ∃ q : α, e ≤ q ∧ V = (if s then 1 else -1) * q := by
  obtain ⟨h1, h2⟩ := bounds_of_absv_le h
  cases s
  · simp only [Bool.false_eq_true, if_false] at h1 h2 ⊢
    exact ⟨-V, by grind, by grind⟩
  · simp only [if_true] at h1 h2 ⊢
    exact ⟨V, by grind, by grind⟩

/-- Comparison (the sign head), average-hard, any `q > 0`: scores `K o V p_j` with `o V = ±q` over
`n ≥ 1` keys (`n ≥ 2` when `o V < 0`): the head outputs `[o V > 0]` exactly. -/
theorem sign_out_hard_q {K q : α} (hK : 0 < K) (hq : 0 < q) (b : Bool) {n : Nat} (hn0 : 0 < n)
    (hn : b = true ∨ 2 ≤ n) :
    sumTo (fun j => ahard (signScore K ((if b then 1 else -1) * q)) n j * evenVal j) n = if b then 1 else 0 := by
  have hγ : 0 < 2 * K * q := by
    have := Lean.Grind.OrderedRing.mul_pos hK hq
    grind
  have hc := countMax_signGroup n
  have hm : 0 < countMax (signGroup b) n := by
    rcases hn with hn | hn
    · subst hn; rw [hc.1]; omega
    · cases b
      · rw [hc.2]; omega
      · rw [hc.1]; omega
  exact hard_group_out (grp := signGroup b) (smax := K * q) hγ hm
    (fun j _ hj => (signScore_group K q b j).1 hj)
    (fun j _ hj => by rw [(signScore_group K q b j).2 hj]; exact Std.le_refl _)
    (fun j _ hj => (evenVal_group b j).1 hj)

/-- Certificates, bounded mixed comparisons (the sign head reading an approximate `V`): a sign
head the checker accepts over a mixed comparison's `V'`, within `1/(4n)` of `V = (A - 1/2)/n`
(`A = cmpA`, so `|V| ≥ 1/(2n)`), outputs `[o V > 0]` exactly in average-hard mode and, in softmax
at the rule `τ = c / (n^2 max(n-1, 1))`, a value `≥ 0` within `2 errRule` of it (the gap
`2K|V'| ≥ K/(2n)`; at `n = 1` one key, `A = r`, `o = [r ≥ 1]`). -/
theorem sign_raw_vmix (R : RatEmb α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α}
    (hinv : Inv C w n d (l - 1) x) (hroles : C.spans.length = d)
    (hK : 0 < C.K) (hc : 0 < C.c) (hk : 0 < C.expK)
    {hw : HeadW} {t : TermD} {o : Bool} {vc one par kp : Nat}
    (hm : hw.mask = .none) (ho' : o = decide (1 ≤ cmpR C.prog t.node)) (hbd : C.bounded = true)
    (hmx : C.mixed = true) (hmix : mixedCmp C.prog t.node = true) (hvc : C.roleAt vc (l - 1) = .vmix t.node)
    (h1 : featCoord C .one (l - 1) = some one) (h2 : featCoord C .parity (l - 1) = some par)
    (h3 : featCoord C (if C.bounded then .parity else .lenParity) (l - 1) = some kp)
    (hq : sameCols hw.q [[(vc, if o then C.K else -C.K)]] = true) (hk' : sameCols hw.k [[(kp, 1)]] = true)
    (hv : sameCols hw.v [[(one, 1 / 2), (par, 1 / 2)]] = true) (ho : sameCols hw.o [[(C.crd t.node, 1)]] = true)
    {i : Nat} (hi : i < n) :
    headOut R .hard hw x n i (C.crd t.node)
        = (if o then ind (holds C.prog w n t.node i) else 1 - ind (holds C.prog w n t.node i)) ∧
      ∀ E : ExpLike α, E.Tangent →
        0 ≤ headOut R (.soft E (C.tauRule R n)) hw x n i (C.crd t.node) ∧
        absv (headOut R (.soft E (C.tauRule R n)) hw x n i (C.crd t.node)
          - (if o then ind (holds C.prog w n t.node i) else 1 - ind (holds C.prog w n t.node i)))
          ≤ 2 * R.cast C.errRule := by
  have hε := errRule_nonneg R C (gamma_nonneg R hK hc) hk
  have hholds := holds_iff_cmpA_mixed (w := w) (n := n) (i := i) hmix
  have hA1 : n = 1 → cmpA C.prog w n t.node i = cmpR C.prog t.node := by
    intro hn1; subst hn1
    have hi0 : i = 0 := by omega
    subst hi0
    exact cmpA_one_mixed hmix
  rw [hbd] at h3
  -- the coordinates
  have hf1 := featCoord_sound h1
  have hf2 := featCoord_sound h2
  have hf3 := featCoord_sound h3
  have hvcd : vc < d := by rw [← hroles]; exact lt_of_role (by rw [hvc]; simp)
  have xone : ∀ k, k < n → x k one = 1 := fun k hk => by
    rw [inv_exact (c := one) hinv hk (by rw [← hroles]; exact hf1.2) (by rw [hf1.1]; rfl), hf1.1]; rfl
  have xpar : ∀ k, k < n → x k par = (if k % 2 = 0 then 1 else -1) := fun k hk => by
    rw [inv_exact (c := par) hinv hk (by rw [← hroles]; exact hf2.2) (by rw [hf2.1]; rfl), hf2.1]; rfl
  have xkp : ∀ k, k < n → x k kp = (if k % 2 = 0 then 1 else -1) := fun k hk => by
    rw [inv_exact (c := kp) hinv hk (by rw [← hroles]; exact hf3.2) (by rw [hf3.1]; rfl), hf3.1]; rfl
  have xvc : absv (x i vc - (icast (2 * cmpA C.prog w n t.node i - 1) : α) / 2 / natCast n)
      ≤ 1 / (4 * natCast n) := by
    have := (hinv i hi vc hvcd).2 (by rw [hvc]; rfl)
    rw [hvc] at this; exact this
  generalize hA : cmpA C.prog w n t.node i = A at hholds hA1 xvc
  have hcount : hw.mask.count n i = n := by rw [hm]; rfl
  have hkey : ∀ k, hw.mask.key i k = k := fun k => by rw [hm]; rfl
  have hKo : R.cast (if o then C.K else -C.K) = (if o then 1 else -1) * R.cast C.K := cast_signed R o C.K
  have hscore : ∀ k, k < n → score R hw x i k
      = (if o then 1 else -1) * R.cast C.K * x i vc * (if k % 2 = 0 then 1 else -1) := by
    intro k hk
    unfold score
    rw [lsum_zip_sameCols hq hk' (fun q kk (_ : Unit) => dotv R (x i) q * dotv R (x (hw.mask.key i k)) kk)
      (fun v v' o o' _ h1 h2 => by dsimp only; rw [dotv_congr R _ h1, dotv_congr R _ h2]) ()]
    simp only [List.zip_cons_cons, List.zip_nil_right, lsum_cons, lsum_nil, dotv_cons, dotv_nil, hkey, R.map_one]
    rw [xkp k hk, hKo]; grind
  have hval : ∀ k, k < n → dotv R (x k) [(one, 1 / 2), (par, 1 / 2)] = evenVal k := by
    intro k hk
    simp only [dotv_cons, dotv_nil]
    have hhalf : R.cast (1 / 2 : Rat) = (1 : α) / 2 := R.map_half
    rw [xone k hk, xpar k hk, hhalf]
    exact evenVal_half k
  have hout : ∀ mode : Mode α, headOut R mode hw x n i (C.crd t.node)
      = sumTo (fun k => weights mode (score R hw x i) n k * evenVal k) n := by
    intro mode
    rw [headOut_cols, lsum_zip_sameCols hv ho (fun v o (_ : Unit) => colOut R mode hw x n i v * R.cast (svGet o (C.crd t.node)))
      (fun v v' o o' _ h1 h2 => by dsimp only; rw [colOut_congr R mode hw x n i h1, h2]) ()]
    simp only [List.zip_cons_cons, List.zip_nil_right, lsum_cons, lsum_nil, svGet, if_true, Rat.add_zero, R.map_one]
    unfold colOut
    rw [hcount]
    have : ∀ a : α, a * 1 + 0 = a := fun a => by grind
    rw [this]
    exact sumTo_congr (fun k hk => by rw [hkey, hval k hk])
  -- the sign of `V'`: `V' = s q` with `s = [A > 0]`, `q ≥ 1/(4n)`
  have hn1α : (1 : α) ≤ natCast n := one_le_natCast_of_pos (by omega)
  have hnα : (0 : α) < natCast n := Std.lt_of_lt_of_le Lean.Grind.OrderedRing.zero_lt_one hn1α
  obtain ⟨m, hm'⟩ := val_sign_form (α := α) A n
  rw [hm'] at xvc
  have hp : 2 * (1 / (4 * natCast n)) ≤ (natCast (2 * m + 1) / (2 * natCast n) : α) := by
    have hm1 : (1 : α) ≤ natCast (2 * m + 1) := one_le_natCast_of_pos (by omega)
    have h2n : (0 : α) < 2 * natCast n := by grind
    have := div_le_div_of_le h2n hm1
    have e : 2 * (1 / (4 * natCast n)) = (1 : α) / (2 * natCast n) := by
      have := ne_zero_of_zero_lt hnα
      generalize (natCast n : α) = a at *
      grind
    rw [e]; exact this
  obtain ⟨q, hq4, hVq⟩ := approx_sign_form _ hp xvc
  have he0 : (0 : α) < 1 / (4 * natCast n) :=
    zero_lt_div_of_zero_lt Lean.Grind.OrderedRing.zero_lt_one (by grind)
  have hq0 : (0 : α) < q := Std.lt_of_lt_of_le he0 hq4
  generalize hb : (o == decide (0 < A)) = b
  have hsgn : ((if o then 1 else -1) : α) * x i vc = (if b then 1 else -1) * q := by
    rw [hVq, ← hb]; exact sign_sel_mul o _ _
  have htgt : (if o then (ind (holds C.prog w n t.node i) : α) else 1 - ind (holds C.prog w n t.node i))
      = if b then 1 else 0 := by
    rw [← hb]; unfold ind
    by_cases h0 : 0 < A
    · rw [if_pos (hholds.mpr h0), decide_eq_true h0]; exact sel_of_true o
    · rw [if_neg (fun h => h0 (hholds.mp h)), show decide (0 < A) = false by simpa using h0]; exact sel_of_false o
  rw [htgt]
  have habs0 : absv ((0 : α)) = 0 := by unfold absv; rw [if_pos (Std.le_refl _)]
  have h2ε : (0 : α) ≤ 2 * R.cast C.errRule := by grind
  by_cases hn1 : n = 1
  · have hbt : b = true := by
      rw [← hb]
      have hAr := hA1 hn1
      rw [hAr, ho']
      by_cases hr : 1 ≤ cmpR C.prog t.node
      · rw [decide_eq_true hr, decide_eq_true (by omega : 0 < cmpR C.prog t.node)]; rfl
      · rw [show decide (1 ≤ cmpR C.prog t.node) = false by simpa using hr,
          show decide (0 < cmpR C.prog t.node) = false by simpa using (by omega : ¬ 0 < cmpR C.prog t.node)]; rfl
    subst hn1
    have hexact : ∀ mode : Mode α, headOut R mode hw x 1 i (C.crd t.node) = if b then 1 else 0 := by
      intro mode
      rw [hout mode, sign_out_one mode _ evenVal, hbt]
      simp [evenVal]
    refine ⟨hexact .hard, fun E _ => ?_⟩
    rw [hexact, hbt]
    simp only [if_true]
    refine ⟨Std.le_of_lt Lean.Grind.OrderedRing.zero_lt_one, ?_⟩
    rw [show (1 : α) - 1 = 0 by grind, habs0]; exact h2ε
  · have hn2 : 2 ≤ n := by omega
    have hKα : (0 : α) < R.cast C.K := by rw [← R.map_zero]; exact R.map_lt hK
    have hsc : ∀ mode : Mode α, headOut R mode hw x n i (C.crd t.node)
        = sumTo (fun k => weights mode (signScore (R.cast C.K) ((if b then 1 else -1) * q)) n k * evenVal k) n := by
      intro mode
      rw [hout mode]
      refine sumTo_congr (fun k hk => ?_)
      rw [weights_congr mode (s' := signScore (R.cast C.K) ((if b then 1 else -1) * q)) (fun j hj => by
              rw [hscore j hj]; unfold signScore parity
              rw [← hsgn]; grind) hk]
    have hnn : ∀ E : ExpLike α, 0 ≤ headOut R (.soft E (C.tauRule R n)) hw x n i (C.crd t.node) := by
      intro E
      rw [hsc]
      refine sumTo_nonneg_of (fun k _ => ?_)
      have := softmax_nonneg E (C.tauRule R n) (signScore (R.cast C.K) ((if b then 1 else -1) * q)) (N := n) (by omega) k
      have he : (0 : α) ≤ evenVal k := evenVal_nonneg k
      exact Lean.Grind.OrderedRing.mul_nonneg this he
    refine ⟨?_, fun E hE => ⟨hnn E, ?_⟩⟩
    · rw [hsc]
      exact sign_out_hard_q hKα hq0 b (by omega) (Or.inr hn2)
    · rw [hsc]
      obtain ⟨htau, hex⟩ := exponent_mixed_bounded R hbd hmx hK hc hn2
      have hγ := exp_neg_le_errRule R E hE C (gamma_nonneg R hK hc) hk
      refine Std.le_trans (softmax_output_err_le_offMass E (isMax := signGroup b) (by omega)
        (fun j _ hj => (evenVal_group b j).1 hj) (fun j _ hj => (evenVal_group b j).2 hj)) ?_
      have h := sign_offMass_le E (s := signScore (R.cast C.K) ((if b then 1 else -1) * q)) (smax := R.cast C.K * q)
        (gamma := 2 * R.cast C.K * q) (n := n) b hn2 htau
        (fun j _ hj => (signScore_group (R.cast C.K) q b j).1 hj)
        (fun j _ hj => by rw [(signScore_group (R.cast C.K) q b j).2 hj] <;> exact Std.le_refl _)
      have h4n : (0 : α) ≤ 4 * natCast n := by grind
      have h1q := Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_left hq4 h4n
      have e1 : 4 * natCast n * (1 / (4 * natCast n)) = (1 : α) := by
        have := ne_zero_of_zero_lt hnα
        generalize (natCast n : α) = a at *
        grind
      rw [e1] at h1q
      have hK2 := Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_left h1q (Std.le_of_lt hKα)
      have hgap : R.cast C.K ≤ 2 * natCast n * (2 * R.cast C.K * q) := by
        generalize (natCast n : α) = a at *
        generalize R.cast C.K = kk at *
        grind
      have hm := Std.le_trans (E.mono _ _ (hex _ hgap)) hγ
      refine Std.le_trans h ?_
      generalize E.exp (-(2 * R.cast C.K * q) / C.tauRule R n) = a at *
      grind

/-- Certificates, comparison of counts (the sign head of a strict comparison, orientation `o`, no
correction): a sign head the checker accepts outputs `[o V > 0]` (`[g]` if `o`, `1 - [g]` if not)
exactly in average-hard mode and, in softmax at the certificate's rule, a value `≥ 0` within
`2 errRule` of it, for every `n ≥ 1` (at `n = 1`, `V = r - 1/2` and `o = [r ≥ 1]`, so `o V > 0`). -/
theorem sign_raw_strict (R : RatEmb α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α}
    (hinv : Inv C w n d (l - 1) x) (hroles : C.spans.length = d)
    (hK : 0 < C.K) (hc : 0 < C.c) (hk : 0 < C.expK)
    {hw : HeadW} {hd : HeadD} {o : Bool} {vc : Nat} {wc : Option Nat} (hok : signHeadOK C l hw hd o vc wc = true)
    (hws : wc = none) {t : TermD} (ht : t ∈ hd.terms) {i : Nat} (hi : i < n) :
    headOut R .hard hw x n i (C.crd t.node)
        = (if o then ind (holds C.prog w n t.node i) else 1 - ind (holds C.prog w n t.node i)) ∧
      ∀ E : ExpLike α, E.Tangent →
        0 ≤ headOut R (.soft E (C.tauRule R n)) hw x n i (C.crd t.node) ∧
        absv (headOut R (.soft E (C.tauRule R n)) hw x n i (C.crd t.node)
          - (if o then ind (holds C.prog w n t.node i) else 1 - ind (holds C.prog w n t.node i)))
          ≤ 2 * R.cast C.errRule := by
  obtain ⟨hm, t0, one, par, kp, hterms, ho', _, hsv, _, _, h1, h2, h3, hq, hk', hv, ho⟩ := sign_facts_strict hok hws
  have htt : t = t0 := by rw [hterms] at ht; simpa using ht
  subst htt
  rcases hsv with ⟨hstr, hvc⟩ | ⟨hbd, hmx, hmix, hvc⟩
  case inr => exact sign_raw_vmix R hinv hroles hK hc hk hm ho' hbd hmx hmix hvc h1 h2 h3 hq hk' hv ho hi
  have hε := errRule_nonneg R C (gamma_nonneg R hK hc) hk
  have hholds := holds_iff_cmpA_strict (w := w) (n := n) (i := i) hstr
  have hDb : 0 < cntDen (cmpDir C.prog t.node) n i ∧ cntDen (cmpDir C.prog t.node) n i ≤ n := by
    cases cmpDir C.prog t.node <;> simp only [cntDen] <;> omega
  have hA1 : n = 1 → cmpA C.prog w n t.node i = cmpR C.prog t.node := by
    intro hn1; subst hn1
    have hi0 : i = 0 := by omega
    subst hi0
    exact cmpA_one hstr
  -- the coordinates
  have hf1 := featCoord_sound h1
  have hf2 := featCoord_sound h2
  have hf3 := featCoord_sound h3
  have hvcd : vc < d := by rw [← hroles]; exact lt_of_role (by rw [hvc]; simp)
  have xone : ∀ k, k < n → x k one = 1 := fun k hk => by
    rw [inv_exact (c := one) hinv hk (by rw [← hroles]; exact hf1.2) (by rw [hf1.1]; rfl), hf1.1]; rfl
  have xpar : ∀ k, k < n → x k par = (if k % 2 = 0 then 1 else -1) := fun k hk => by
    rw [inv_exact (c := par) hinv hk (by rw [← hroles]; exact hf2.2) (by rw [hf2.1]; rfl), hf2.1]; rfl
  have xvc : x i vc = (icast (2 * cmpA C.prog w n t.node i - 1) : α) / 2
      / natCast (cntDen (cmpDir C.prog t.node) n i) := by
    rw [inv_exact (c := vc) hinv hi hvcd (by rw [hvc]; rfl), hvc]; rfl
  generalize hA : cmpA C.prog w n t.node i = A at hholds hA1 xvc
  generalize cntDen (cmpDir C.prog t.node) n i = D at hDb xvc
  have xkp : ∀ k, k < n → x k kp = (if C.bounded then 1 else natCast n) * (if k % 2 = 0 then 1 else -1) := by
    intro k hk
    rw [inv_exact (c := kp) hinv hk (by rw [← hroles]; exact hf3.2) (by rw [hf3.1]; rfl), hf3.1]
    cases hb : C.bounded <;> simp [roleVal, Feat.val] <;> grind
  have hcount : hw.mask.count n i = n := by rw [hm]; rfl
  have hkey : ∀ k, hw.mask.key i k = k := fun k => by rw [hm]; rfl
  have hKo : R.cast (if o then C.K else -C.K) = (if o then 1 else -1) * R.cast C.K := cast_signed R o C.K
  have hscore : ∀ k, k < n → score R hw x i k
      = (if o then 1 else -1) * R.cast C.K * ((icast (2 * A - 1) : α) / 2 / natCast D)
        * ((if C.bounded then 1 else natCast n) * (if k % 2 = 0 then 1 else -1)) := by
    intro k hk
    unfold score
    rw [lsum_zip_sameCols hq hk' (fun q kk (_ : Unit) => dotv R (x i) q * dotv R (x (hw.mask.key i k)) kk)
      (fun v v' o o' _ h1 h2 => by dsimp only; rw [dotv_congr R _ h1, dotv_congr R _ h2]) ()]
    simp only [List.zip_cons_cons, List.zip_nil_right, lsum_cons, lsum_nil, dotv_cons, dotv_nil, hkey, R.map_one]
    rw [xvc, xkp k hk, hKo]; grind
  have hval : ∀ k, k < n → dotv R (x k) [(one, 1 / 2), (par, 1 / 2)] = evenVal k := by
    intro k hk
    simp only [dotv_cons, dotv_nil]
    have hhalf : R.cast (1 / 2 : Rat) = (1 : α) / 2 := R.map_half
    rw [xone k hk, xpar k hk, hhalf]
    exact evenVal_half k
  have hout : ∀ mode : Mode α, headOut R mode hw x n i (C.crd t.node)
      = sumTo (fun k => weights mode (score R hw x i) n k * evenVal k) n := by
    intro mode
    rw [headOut_cols, lsum_zip_sameCols hv ho (fun v o (_ : Unit) => colOut R mode hw x n i v * R.cast (svGet o (C.crd t.node)))
      (fun v v' o o' _ h1 h2 => by dsimp only; rw [colOut_congr R mode hw x n i h1, h2]) ()]
    simp only [List.zip_cons_cons, List.zip_nil_right, lsum_cons, lsum_nil, svGet, if_true, Rat.add_zero, R.map_one]
    unfold colOut
    rw [hcount]
    have : ∀ a : α, a * 1 + 0 = a := fun a => by grind
    rw [this]
    exact sumTo_congr (fun k hk => by rw [hkey, hval k hk])
  obtain ⟨m, hm'⟩ := val_sign_form (α := α) A D
  generalize hb : (o == decide (0 < A)) = b
  have hsgn : ((if o then 1 else -1) : α) * ((if decide (0 < A) then 1 else -1) * (natCast (2 * m + 1) / (2 * natCast D)))
      = (if b then 1 else -1) * (natCast (2 * m + 1) / (2 * natCast D)) := by
    rw [← hb]; exact sign_sel_mul o _ _
  have htgt : (if o then (ind (holds C.prog w n t.node i) : α) else 1 - ind (holds C.prog w n t.node i))
      = if b then 1 else 0 := by
    rw [← hb]; unfold ind
    by_cases h0 : 0 < A
    · rw [if_pos (hholds.mpr h0), decide_eq_true h0]; exact sel_of_true o
    · rw [if_neg (fun h => h0 (hholds.mp h)), show decide (0 < A) = false by simpa using h0]; exact sel_of_false o
  rw [htgt]
  have habs0 : absv ((0 : α)) = 0 := by unfold absv; rw [if_pos (Std.le_refl _)]
  have h2ε : (0 : α) ≤ 2 * R.cast C.errRule := by grind
  by_cases hn1 : n = 1
  · have hbt : b = true := by
      rw [← hb]
      have hAr := hA1 hn1
      rw [hAr, ho']
      by_cases hr : 1 ≤ cmpR C.prog t.node
      · rw [decide_eq_true hr, decide_eq_true (by omega : 0 < cmpR C.prog t.node)]; rfl
      · rw [show decide (1 ≤ cmpR C.prog t.node) = false by simpa using hr,
          show decide (0 < cmpR C.prog t.node) = false by simpa using (by omega : ¬ 0 < cmpR C.prog t.node)]; rfl
    subst hn1
    have hexact : ∀ mode : Mode α, headOut R mode hw x 1 i (C.crd t.node) = if b then 1 else 0 := by
      intro mode
      rw [hout mode, sign_out_one mode _ evenVal, hbt]
      simp [evenVal]
    refine ⟨hexact .hard, fun E _ => ?_⟩
    rw [hexact, hbt]
    simp only [if_true]
    refine ⟨Std.le_of_lt Lean.Grind.OrderedRing.zero_lt_one, ?_⟩
    rw [show (1 : α) - 1 = 0 by grind, habs0]; exact h2ε
  · have hn2 : 2 ≤ n := by omega
    have hKα : (0 : α) < R.cast C.K := by rw [← R.map_zero]; exact R.map_lt hK
    have hev : ∀ mode : Mode α, headOut R mode hw x n i (C.crd t.node)
        = sumTo (fun k => weights mode (fun j => R.cast C.K * ((if b then 1 else -1) * (natCast (2 * m + 1) / (2 * natCast D)))
            * ((if C.bounded then 1 else natCast n) * (if j % 2 = 0 then 1 else -1))) n k * evenVal k) n := by
      intro mode
      rw [hout mode]
      refine sumTo_congr (fun k hk => ?_)
      rw [weights_congr mode (s' := fun j => R.cast C.K * ((if b then 1 else -1) * (natCast (2 * m + 1) / (2 * natCast D)))
            * ((if C.bounded then 1 else natCast n) * (if j % 2 = 0 then 1 else -1))) (fun j hj => by
              rw [hscore j hj, hm', ← hsgn]; grind) hk]
    have hnn : ∀ E : ExpLike α, 0 ≤ headOut R (.soft E (C.tauRule R n)) hw x n i (C.crd t.node) := by
      intro E
      rw [hev]
      refine sumTo_nonneg_of (fun k _ => ?_)
      have := softmax_nonneg E (C.tauRule R n) (fun j => R.cast C.K * ((if b then 1 else -1) * (natCast (2 * m + 1) / (2 * natCast D)))
            * ((if C.bounded then 1 else natCast n) * (if j % 2 = 0 then 1 else -1))) (N := n) (by omega) k
      have he : (0 : α) ≤ evenVal k := evenVal_nonneg k
      exact Lean.Grind.OrderedRing.mul_nonneg this he
    cases hbd : C.bounded with
    | true =>
      have hsc : (fun j => R.cast C.K * ((if b then 1 else -1) * (natCast (2 * m + 1) / (2 * natCast D)))
            * ((if true = true then 1 else natCast n) * (if j % 2 = 0 then (1 : α) else -1)))
          = signScore (R.cast C.K) ((if b then 1 else -1) * (natCast (2 * m + 1) / (2 * natCast D))) := by
        funext j; unfold signScore parity; simp only [if_true]; grind
      refine ⟨?_, fun E hE => ⟨hnn E, ?_⟩⟩
      · rw [hev, hbd, hsc]
        exact sign_out_hard hKα b hDb.1 hDb.2 (Or.inr hn2)
      · rw [hev, hbd, hsc]
        exact sign_out_soft_bounded R E hE hbd hK hc hk b hDb.1 hDb.2 hn2
    | false =>
      have hsc : (fun j => R.cast C.K * ((if b then 1 else -1) * (natCast (2 * m + 1) / (2 * natCast D)))
            * ((if false = true then 1 else natCast n) * (if j % 2 = 0 then (1 : α) else -1)))
          = signScoreUnbounded (R.cast C.K) ((if b then 1 else -1) * (natCast (2 * m + 1) / (2 * natCast D))) n := by
        funext j; unfold signScoreUnbounded parity; simp only [Bool.false_eq_true, if_false]; grind
      refine ⟨?_, fun E hE => ⟨hnn E, ?_⟩⟩
      · rw [hev, hbd, hsc]
        exact sign_out_hard_unbounded hKα b hDb.1 hDb.2 (Or.inr hn2)
      · rw [hev, hbd, hsc]
        exact sign_out_soft_unbounded R E hE hbd hK hc hk b hDb.1 hDb.2 hn2

/-- Certificates, definition: a count column's output at position `i`: `#[x](i)` over the number of
keys for a counted node `x`, `1/(i+1)` for the constant (`is_first`, inclusive counts only). -/
noncomputable def cntVal (P : Prog) (w : List Nat) (n i : Nat) (d : CountDir) (src : Option Nat) : α :=
  match src with
  | some x => natCast (countIn (fun j => holds P w n x j) n i d) / natCast (maskCount d n i)
  | none => 1 / natCast (maskCount d n i)

/-- Certificates, definition: a count column's output: `cntVal`, over `n` for a scaled column
(`sc = some s`, bounded mixed comparisons: it reads node values over `n`). -/
noncomputable def cntColVal (P : Prog) (w : List Nat) (n i : Nat) (d : CountDir) (t : CntD) : α :=
  match t.sc with
  | some _ => cntVal P w n i d t.src / natCast n
  | none => cntVal P w n i d t.src

/-- What `cntHeadOK` says. -/
theorem cnt_facts {C : Cert} {l : Nat} {hw : HeadW} {hd : HeadD} {dir : CountDir} {ts : List CntD}
    (hok : cntHeadOK C l hw hd dir ts = true) :
    hw.mask = (Family.cnt dir ts).mask ∧ hd.terms = [] ∧ sameCols hw.q [[]] = true ∧ sameCols hw.k [[]] = true ∧
      cntVOK C l hw.v ts = true ∧ sameCols hw.o (ts.map (fun t => [(t.vc, t.coef)])) = true ∧
      ∀ t, t ∈ ts →
        (t.avg = true ∧ dir ≠ .le ∧ t.src = some t.g ∧ t.coef = 1 ∧ C.roleAt t.vc (l - 1) = .zero ∧
          ((t.sc = none ∧ C.roleAt t.vc l = .avg dir t.g) ∨ (t.sc.isSome = true ∧ C.roleAt t.vc l = .avgN dir t.g))) ∨
        (t.avg = false ∧ t.sc = none ∧ (match (generalizing := false) dir with
        | .le => inclusiveCmp C.prog t.g && (C.roleAt t.vc (l - 1)).beq .zero
        | _ => t.src.isSome && strictCmp C.prog t.g && dirEq (cmpDir C.prog t.g) dir &&
            (C.roleAt t.vc (l - 1)).beq (.pre t.g)) = true ∧ C.roleAt t.vc l = .val t.g) := by
  unfold cntHeadOK at hok
  simp only [Bool.and_eq_true] at hok
  obtain ⟨⟨⟨⟨⟨⟨⟨⟨⟨hm, _⟩, _⟩, hterms⟩, _⟩, hq⟩, hk⟩, hv⟩, ho⟩, hall⟩ := hok
  refine ⟨Mask.eq_of_beq hm, by simpa using hterms, hq, hk, hv, ho, fun t ht => ?_⟩
  have := List.all_eq_true.mp hall t ht
  cases hav : t.avg with
  | true =>
    rw [hav, if_pos rfl] at this
    simp only [Bool.and_eq_true, beq_iff_eq, Bool.not_eq_true'] at this
    obtain ⟨⟨⟨⟨h1, h2⟩, h3⟩, h4⟩, h5⟩ := this
    refine Or.inl ⟨rfl, fun h => by rw [h] at h1; simp [dirEq] at h1, h2, h3, Role.eq_of_beq h4, ?_⟩
    cases hsc : t.sc with
    | none => rw [hsc] at h5; exact Or.inl ⟨rfl, Role.eq_of_beq h5⟩
    | some s =>
      rw [hsc] at h5
      simp only [Bool.and_eq_true] at h5
      exact Or.inr ⟨rfl, Role.eq_of_beq h5.2⟩
  | false =>
    rw [hav] at this
    simp only [Bool.false_eq_true, if_false, Bool.and_eq_true] at this
    obtain ⟨⟨hn, hm⟩, hb⟩ := this
    exact Or.inr ⟨rfl, by simpa using hn, hm, Role.eq_of_beq hb⟩

/-- Certificates, comparison of counts (the count head, both modes, every direction): a count head
the checker accepts outputs, at every coordinate `c`, `Σ` over its columns aimed at `c` of `coef`
times the column's count over its number of keys (every key ties: no score). -/
theorem cnt_head_out (R : RatEmb α) (mode : Mode α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α}
    (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d) (hroles : C.spans.length = d)
    {hw : HeadW} {hd : HeadD} {dir : CountDir} {ts : List CntD} (hok : cntHeadOK C l hw hd dir ts = true)
    {i : Nat} (hi : i < n) (c : Nat) :
    headOut R mode hw x n i c
      = lsum ts (fun t => if t.vc = c then R.cast t.coef * cntColVal C.prog w n i dir t else 0) := by
  obtain ⟨hm, -, hq, hk, hv, ho, hcol⟩ := cnt_facts hok
  have hcount : hw.mask.count n i = maskCount dir n i := by rw [hm]; cases dir <;> rfl
  have hs : ∀ k, k < hw.mask.count n i → score R hw x i k = 0 := by
    intro k _
    unfold score
    rw [lsum_zip_sameCols hq hk (fun q kk (_ : Unit) => dotv R (x i) q * dotv R (x (hw.mask.key i k)) kk)
      (fun v v' o o' _ h1 h2 => by dsimp only; rw [dotv_congr R _ h1, dotv_congr R _ h2]) ()]
    simp only [List.zip_cons_cons, List.zip_nil_right, lsum_cons, lsum_nil, dotv_nil]
    grind
  have hkl : ∀ k, k < hw.mask.count n i → hw.mask.key i k < n := by
    intro k hk'; rw [hm] at hk' ⊢; cases dir <;> simp only [Family.mask, Mask.count, Mask.key] at hk' ⊢ <;> omega
  have hcore : ∀ x0, sumTo (fun k => weights mode (score R hw x i) (hw.mask.count n i) k
      * ind (holds C.prog w n x0 (hw.mask.key i k))) (hw.mask.count n i)
      = natCast (countIn (fun j => holds C.prog w n x0 j) n i dir) / natCast (maskCount dir n i) := by
    intro x0
    rw [← hcount, hm]
    rw [hm] at hs
    cases dir with
    | le => exact tie_out_eq mode hs (fun k => holds C.prog w n x0 k)
    | lt => exact tie_out_past mode hs (fun k => holds C.prog w n x0 k)
    | gt => exact tie_out_future mode hs (fun k => holds C.prog w n x0 k)
  have hsrc : ∀ (v : SVec) (t : CntD), (dir = .le ∨ t.src.isSome = true) → (match t.src with
      | some x0 => sameVec v [(C.crd x0, 1)] && rep C x0 (l - 1)
      | none => match featCoord C .isFirst (l - 1) with
        | some f => sameVec v [(f, 1)]
        | none => false) = true → colOut R mode hw x n i v = cntVal C.prog w n i dir t.src := by
    intro v t hdir h
    cases hts : t.src with
    | some x0 =>
      rw [hts] at h
      simp only [Bool.and_eq_true] at h
      rw [colOut_congr R mode hw x n i (sameVec_sound h.1)]
      unfold colOut
      simp only [cntVal, dotv_cons, dotv_nil, R.map_one]
      rw [sumTo_congr (g := fun k => weights mode (score R hw x i) (hw.mask.count n i) k
          * ind (holds C.prog w n x0 (hw.mask.key i k)))
        (fun k hk => by rw [inv_rep hinv hE hcrd h.2 (hkl k hk)]; grind)]
      exact hcore x0
    | none =>
      rw [hts] at h hdir
      have hle : dir = .le := by simpa using hdir
      subst hle
      simp only at h
      split at h
      · next f hf =>
        rw [colOut_congr R mode hw x n i (sameVec_sound h)]
        unfold colOut
        have hkey : ∀ k, hw.mask.key i k = k := fun k => by rw [hm]; rfl
        have hc1 : hw.mask.count n i = i + 1 := hcount
        rw [hc1]
        rw [hc1] at hs
        simp only [cntVal, maskCount, dotv_cons, dotv_nil, hkey, R.map_one]
        have hfs := featCoord_sound hf
        rw [sumTo_congr (g := fun k => weights mode (score R hw x i) (i + 1) k * ind (k = 0))
          (fun k hk => by
            rw [inv_exact (c := f) hinv (by omega) (by rw [← hroles]; exact hfs.2) (by rw [hfs.1]; rfl), hfs.1]
            simp only [roleVal, Feat.val, ind]; grind)]
        exact tie_out_first mode hs
      · simp at h
  have hsrc' : ∀ (v : SVec) (t : CntD), (dir = .le ∨ t.src.isSome = true) → (match t.sc with
      | some s => sameVec v [(s, 1)] && (match t.src with
        | some x => (C.roleAt s (l - 1)).beq (.scaled x)
        | none => false)
      | none => match t.src with
        | some x0 => sameVec v [(C.crd x0, 1)] && rep C x0 (l - 1)
        | none => match featCoord C .isFirst (l - 1) with
          | some f => sameVec v [(f, 1)]
          | none => false) = true → colOut R mode hw x n i v = cntColVal C.prog w n i dir t := by
    intro v t hdir h
    cases hsc : t.sc with
    | none =>
      rw [hsc] at h
      simp only [cntColVal, hsc]
      exact hsrc v t hdir h
    | some s =>
      rw [hsc] at h
      cases hts : t.src with
      | none => rw [hts] at h; simp at h
      | some x0 =>
        rw [hts] at h
        simp only [Bool.and_eq_true] at h
        have hrs := Role.eq_of_beq h.2
        have hsd : s < d := by rw [← hroles]; exact lt_of_role (by rw [hrs]; simp)
        rw [colOut_congr R mode hw x n i (sameVec_sound h.1)]
        unfold colOut
        simp only [cntColVal, hsc, cntVal, hts, dotv_cons, dotv_nil, R.map_one]
        rw [sumTo_congr (g := fun k => weights mode (score R hw x i) (hw.mask.count n i) k
            * ind (holds C.prog w n x0 (hw.mask.key i k)) / natCast n)
          (fun k hk => by
            rw [inv_exact hinv (hkl k hk) hsd (by rw [hrs]; rfl), hrs]
            simp only [roleVal]; grind),
          sumTo_div_const, hcore x0]
  rw [headOut_cols]
  have hall : ∀ t, t ∈ ts → dir = .le ∨ t.src.isSome = true := by
    intro t ht
    rcases hcol t ht with ⟨_, _, hs, _⟩ | ⟨_, _, this, _⟩
    · exact Or.inr (by rw [hs]; rfl)
    cases dir with
    | le => exact Or.inl rfl
    | lt => simp only [Bool.and_eq_true] at this; exact Or.inr this.1.1.1
    | gt => simp only [Bool.and_eq_true] at this; exact Or.inr this.1.1.1
  clear hok hcol hm
  revert hall hv ho
  generalize hw.v = vs
  generalize hw.o = os
  induction ts generalizing vs os with
  | nil =>
    intro hv ho' _
    cases vs <;> simp [cntVOK] at hv
    cases os <;> simp [sameCols] at ho'
    rfl
  | cons t ts ih =>
    intro hv ho' hall
    cases vs with
    | nil => simp [cntVOK] at hv
    | cons v vs =>
      cases os with
      | nil => simp [sameCols] at ho'
      | cons o os =>
        simp only [cntVOK, Bool.and_eq_true] at hv
        simp only [List.map_cons, sameCols, Bool.and_eq_true] at ho'
        simp only [List.zip_cons_cons, lsum_cons]
        rw [ih vs os hv.2 ho'.2 (fun t' ht' => hall t' (by simp [ht'])), hsrc' v t (hall t (by simp)) hv.1,
          sameVec_sound ho'.1 c]
        simp only [svGet]
        by_cases hc : t.vc = c
        · rw [if_pos hc, if_pos hc, Rat.add_zero]; grind
        · rw [if_neg hc, if_neg hc, Rat.add_zero, R.map_zero]; grind

/-- No comparison is both inclusive and strict. -/
theorem incl_not_strict {P : Prog} {g : Nat} (h : inclusiveCmp P g = true) : strictCmp P g = false := by
  unfold inclusiveCmp allLe at h
  unfold strictCmp
  split at h
  · next ts r hn =>
    try rw [hn]
    simp only [Bool.and_eq_true, List.all_eq_true] at h
    cases ts with
    | nil => simp at h
    | cons t rest =>
      have ht := h.1.2 t (by simp)
      cases hd : t.2.1 with
      | le => simp [List.all_cons, hd, dirEq]
      | lt => rw [hd] at ht; simp at ht
      | gt => rw [hd] at ht; simp at ht
  · simp at h

/-- Every term of a strict comparison counts in its direction, which is `#<` or `#>`. -/
theorem strict_dirs {P : Prog} {g : Nat} {ts : List (Int × CountDir × Nat)} {r : Int} (h : strictCmp P g = true)
    (hn : nodeAt P g = .cmp ts r) : (∀ t, t ∈ ts → t.2.1 = cmpDir P g) ∧ cmpDir P g ≠ .le := by
  unfold strictCmp at h
  rw [hn] at h
  unfold cmpDir
  rw [hn]
  simp only [Bool.and_eq_true, Bool.or_eq_true, List.all_eq_true] at h
  cases ts with
  | nil => simp at h
  | cons t0 rest =>
    simp only
    rcases h.1.2 with h' | h'
    · have h0 := dirEq_eq (h' t0 (by simp))
      refine ⟨fun t ht => by rw [dirEq_eq (h' t ht), h0], by rw [h0]; simp⟩
    · have h0 := dirEq_eq (h' t0 (by simp))
      refine ⟨fun t ht => by rw [dirEq_eq (h' t ht), h0], by rw [h0]; simp⟩

/-- Certificates, comparison of counts: the columns of a strict comparison (its terms, no constant)
add up to `Σ_k c_k #_k` over the number of keys. -/
theorem strictCols_sum (R : RatEmb α) (P : Prog) (w : List Nat) (n i : Nat) (dir : CountDir) :
    ∀ (ts : List (Int × CountDir × Nat)), (∀ t, t ∈ ts → t.2.1 = dir) →
    lsum (ts.map (fun t => ((t.1 : Rat), some t.2.2))) (fun e => R.cast e.1 * cntVal P w n i dir e.2)
      = (icast (cmpSum (fun x d => countIn (fun j => holds P w n x j) n i d) ts) : α) / natCast (maskCount dir n i)
  | [], _ => by simp only [List.map_nil, lsum_nil, cmpSum]; grind
  | t :: ts, h => by
    simp only [List.map_cons, lsum_cons, cmpSum]
    rw [strictCols_sum R P w n i dir ts (fun u hu => h u (by simp [hu]))]
    simp only [cntVal]
    rw [R.map_intCast, h t (by simp), natCast_eq_intCast (countIn _ n i dir)]
    simp only [icast, Lean.Grind.Ring.intCast_add, Lean.Grind.Ring.intCast_mul]
    grind

/-- Certificates, comparison of counts: a strict comparison's constant part plus its columns' sum is
its `V = (A - 1/2)/D` (at a position with no key, every count is `0` and `D = 1`). -/
theorem strict_val (P : Prog) (w : List Nat) (n i : Nat) {g : Nat} {ts : List (Int × CountDir × Nat)} {r : Int}
    (hs : strictCmp P g = true) (hn : nodeAt P g = .cmp ts r) :
    roleVal P w n (.pre g) i
        + (icast (cmpSum (fun x d => countIn (fun j => holds P w n x j) n i d) ts) : α)
          / natCast (maskCount (cmpDir P g) n i)
      = roleVal P w n (.val g) i := by
  obtain ⟨hd, hne⟩ := strict_dirs hs hn
  simp only [roleVal, cmpA, cmpR, hn]
  generalize cmpDir P g = dir at hd hne
  have hzero : maskCount dir n i = 0 →
      cmpSum (fun x d => countIn (fun j => holds P w n x j) n i d) ts = 0 := by
    intro h0
    refine cmpSum_zero _ ts (fun t ht => ?_)
    rw [hd t ht]
    cases dir with
    | le => exact absurd rfl hne
    | lt => simp only [maskCount] at h0; simp only [countIn, h0]; rfl
    | gt => simp only [maskCount] at h0; simp only [countIn, h0]; rfl
  generalize hS : cmpSum (fun x d => countIn (fun j => holds P w n x j) n i d) ts = S at hzero
  cases dir with
  | le => exact absurd rfl hne
  | lt =>
    simp only [maskCount, cntDen, dirFeat, Feat.val] at hzero ⊢
    by_cases hi0 : i = 0
    · subst hi0
      rw [hzero rfl]
      simp only [show max 0 1 = 1 from rfl, natCast_succ, natCast_zero]
      grind
    · rw [show max i 1 = i by omega]
      grind
  | gt =>
    simp only [maskCount, cntDen, dirFeat, Feat.val] at hzero ⊢
    by_cases hi0 : n - 1 - i = 0
    · rw [hzero hi0, hi0]
      simp only [show max 0 1 = 1 from rfl, natCast_succ, natCast_zero]
      grind
    · rw [show max (n - 1 - i) 1 = n - 1 - i by omega]
      grind

/-- Certificates, comparison of counts: the columns `cntExpected ts r` of an inclusive comparison
add up to its `V = ((2 A - 1)/2)/(i+1)`, `A = Σ_k c_k #<=_k + r`. -/
theorem cntExpected_sum (R : RatEmb α) (P : Prog) (w : List Nat) (n i : Nat) {ts : List (Int × CountDir × Nat)} (r : Int)
    (hle : allLe ts = true) :
    lsum (cntExpected ts r) (fun e => R.cast e.1 * cntVal P w n i .le e.2)
      = (icast (2 * (cmpSum (fun x d => countIn (fun j => holds P w n x j) n i d) ts + r) - 1) : α) / 2
          / natCast (i + 1) := by
  have h2 : R.cast (2 : Rat) = (2 : α) := R.map_two
  cases ts with
  | nil => simp [allLe] at hle
  | cons t rest =>
    simp only [allLe, Bool.and_eq_true, List.all_eq_true] at hle
    have hdir : ∀ u, u ∈ t :: rest → u.2.1 = .le := by
      intro u hu
      have := hle.2 u hu
      revert this; cases u.2.1 <;> simp
    simp only [cntExpected, lsum_cons, lsum_map, cntVal, cmpSum, maskCount]
    have hrest : lsum rest (fun u => R.cast (u.1 : Rat) * (natCast (countIn (fun j => holds P w n u.2.2 j) n i .le)
          / natCast (i + 1)))
        = (icast (cmpSum (fun x d => countIn (fun j => holds P w n x j) n i d) rest) : α) * (1 / natCast (i + 1)) := by
      rw [← lsum_cmp, ← lsum_mul_const]
      refine lsum_congr (fun u hu => ?_)
      rw [R.map_intCast, hdir u (List.mem_cons_of_mem _ hu)]
      grind
    rw [hrest, R.map_intCast, hdir t (by simp), R.map_div (by decide), R.map_intCast, h2,
      natCast_eq_intCast (countIn _ n i .le)]
    grind

end Count

end HardSoft.Cert

end
