module

public import HardSoft.Cert.Select

/-!
# Certificates, part 7: each head family computes its node

For a head the checker accepts (`headOK`) at layer `l`, reading activations that hold their roles'
values at boundary `l - 1`: its output at a coordinate is the sum of its value terms aimed at that
coordinate (`headOut_eq`), and each term's raw output is, in average-hard mode, exactly the 0/1
value of the node it serves, and in soft mode at the temperature rule, `≥ 0` and within `errRule`
of it (`term_hard`, `term_soft`). The families are Lemma 8's tie-breaking heads (past and future,
bounded and unbounded regime; since and until through their select, `Y` and `X` with every key
selected) and Lemma 7's one-sided lookups (`Y`, `X`, unbounded regime); each family's scores are
shown to be the Lean formula of `HardSoft.Constructions` by evaluating the weight templates.
The unbounded families hold at both unbounded rules, `τ = 1` (`γ = K`) and the mixed comparisons'
`τ = c / max(n-1, 1) ≤ c` (`γ = K/c`): the exponent `-K/τ ≤ -γ` and `exp` is monotone
(`exponent_unbounded`, `mass_le_errRule_unbounded`); the bounded ones at both bounded rules,
`τ = c/n` and the mixed comparisons' `τ = c / (n^2 max(n-1, 1)) ≤ c/n`: a gap `≥ K/n` has
`-gap/τ ≤ -K/c` (`exponent_bounded`; `exponent_mixed_bounded` for the gap `K/(2n)` of a sign head
reading an approximate `V`).
The file ends with the sign head of a comparison of counts at the certificate's rule, over its
score formula (not yet a family the checker accepts): exactly `[o V > 0]` in average-hard mode,
within `2 errRule` of it in softmax (`sign_out_hard`, `sign_out_soft_bounded`, ...).

## Main results

* `HardSoft.Cert.headOut_eq`, `HardSoft.Cert.term_facts`, `HardSoft.Cert.term_hard`,
  `HardSoft.Cert.term_soft`.
* `HardSoft.Cert.sign_out_hard`, `HardSoft.Cert.sign_out_hard_unbounded`,
  `HardSoft.Cert.sign_out_soft_bounded`, `HardSoft.Cert.sign_out_soft_unbounded`.
-/

@[expose] public section

set_option autoImplicit false

namespace HardSoft.Cert

section Heads

open Classical

variable {α : Type} [Lean.Grind.Field α] [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α]
  [Lean.Grind.OrderedRing α]

/-- A coordinate below `d` holding a feature holds the feature's value. -/
theorem inv_feat {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α} (hinv : Inv C w n d l x) {c : Nat}
    {f : Feat} (hr : C.roleAt c l = .feat f) (hc : c < d) {i : Nat} (hi : i < n) : x i c = f.val n i := by
  rw [inv_exact hinv hi hc (by rw [hr]; rfl), hr]; rfl

/-- A node the checker accepts at boundary `l` is read exactly from its coordinate. -/
theorem inv_rep {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α} (hinv : Inv C w n d l x)
    (hE : equivOK C = true) (hd : ∀ g, C.crd g < d) {g : Nat} (h : rep C g l = true) {i : Nat} (hi : i < n) :
    x i (C.crd g) = ind (holds C.prog w n g i) := by
  rw [inv_exact hinv hi (hd g) (rep_approx h), rep_val hE h]

/-- The keys a strict or strict-anticausal mask shows are positions of the word. -/
theorem key_lt {m : Mask} (hm : m = .strict ∨ m = .strictAnti) {n i k : Nat} (hi : i < n) (hk : k < m.count n i) :
    m.key i k < n := by
  rcases hm with h | h <;> subst h <;> simp only [Mask.count, Mask.key] at hk ⊢ <;> omega

/-- The raw output of one value term: the weights times the copied node's 0/1 value at each key. -/
noncomputable def termOut (R : RatEmb α) (mode : Mode α) (C : Cert) (hw : HeadW) (x : Acts α) (w : List Nat)
    (n i : Nat) (t : TermD) : α :=
  sumTo (fun k => weights mode (score R hw x i) (hw.mask.count n i) k *
    ind (holds C.prog w n t.src (hw.mask.key i k))) (hw.mask.count n i)

/-- A selecting head's (tie-breaking or lookup) template exists only for its families, whose masks
are strict. -/
theorem sel_mask {C : Cert} {l : Nat} {hw : HeadW} {hd : HeadD} (h : (match scoreTemplate C hd.fam hd.sel (l - 1) with
    | some tm => sameCols hw.q (tm.map (·.1)) && sameCols hw.k (tm.map (·.2))
    | none => false) = true) : hd.fam.mask = .strict ∨ hd.fam.mask = .strictAnti := by
  cases hfam : hd.fam <;> (try simp only [Family.mask, true_or, or_true]) <;> (rw [hfam] at h; simp [scoreTemplate] at h)

/-- A head the checker accepts outputs, at coordinate `c`, the sum of its value terms aimed at `c`. -/
theorem headOut_eq (R : RatEmb α) (mode : Mode α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α}
    (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hd : ∀ g, C.crd g < d) {hw : HeadW} {hd' : HeadD}
    (hok : headOKSel C l hw hd' = true) {i : Nat} (hi : i < n) (c : Nat) :
    headOut R mode hw x n i c
      = lsum hd'.terms (fun t => termOut R mode C hw x w n i t * (if C.crd t.node = c then 1 else 0)) := by
  unfold headOKSel at hok
  simp only [Bool.and_eq_true] at hok
  obtain ⟨⟨⟨⟨⟨⟨_, hmask⟩, _⟩, htm⟩, hv⟩, ho⟩, hterms⟩ := hok
  have hm : hw.mask = .strict ∨ hw.mask = .strictAnti := by
    rw [Mask.eq_of_beq hmask]; exact sel_mask htm
  unfold headOut
  rw [lsum_zip_sameCols hv ho (fun v o (_ : Unit) => sumTo (fun k => weights mode (score R hw x i) (hw.mask.count n i) k
      * dotv R (x (hw.mask.key i k)) v) (hw.mask.count n i) * R.cast (svGet o c))
      (fun v v' o o' _ h1 h2 => by dsimp only; rw [h2 c]; congr 1; exact sumTo_congr (fun k _ => by rw [dotv_congr R _ h1])) ()]
  rw [lsum_zip_map hd'.terms (fun t => [(C.crd t.src, (1 : Rat))]) (fun t => [(C.crd t.node, (1 : Rat))])
    (fun v o => sumTo (fun k => weights mode (score R hw x i) (hw.mask.count n i) k
      * dotv R (x (hw.mask.key i k)) v) (hw.mask.count n i) * R.cast (svGet o c))]
  refine lsum_congr (fun t ht => ?_)
  have ht' := List.all_eq_true.mp hterms t ht
  simp only [Bool.and_eq_true] at ht'
  unfold termOut
  congr 1
  · refine sumTo_congr (fun k hk => ?_)
    rw [dotv_cons, dotv_nil, R.map_one, inv_rep hinv hE hd ht'.1.1.1 (key_lt hm hi hk)]
    grind
  · simp only [svGet]
    by_cases h : C.crd t.node = c
    · rw [if_pos h, if_pos h, Rat.add_zero, R.map_one]
    · rw [if_neg h, if_neg h, Rat.add_zero, R.map_zero]

/-- The constant exponential `1`, an `ExpLike` over every ordered field: it reads the gap parts of
the head theorems, which do not depend on the exponential. -/
noncomputable def constExp : ExpLike α where
  exp := fun _ => 1
  pos := fun _ => Lean.Grind.OrderedRing.zero_lt_one
  add := fun _ _ => by grind
  zero := rfl
  mono := fun _ _ _ => Std.le_refl _

/-- The select of a head as a Boolean function of the key (no select: nothing selected). -/
noncomputable def selFn (C : Cert) (w : List Nat) (n : Nat) (sel : Option Nat) : Nat → Bool :=
  match sel with
  | some b => fun j => decide (holds C.prog w n b j)
  | none => fun _ => false

/-- Nothing selected: no rightmost selected key. -/
theorem lastSel_false : ∀ N, lastSel (fun _ => false) N = none
  | 0 => rfl
  | N + 1 => by show (if false then some N else lastSel (fun _ => false) N) = none; exact lastSel_false N

/-- Nothing selected: no leftmost selected key. -/
theorem firstSel_false (f : Nat → Bool) (hf : ∀ k, f k = false) : ∀ N, firstSel f N = none
  | 0 => rfl
  | N + 1 => by
    show (match firstSel f N with | some k => some k | none => if f N then some N else none) = none
    rw [firstSel_false f hf N, hf N]; rfl

/-- A head's scores are its template's: `Σ_t (x_i q_t)(x_j k_t)` over the template's pairs. -/
theorem score_tm (R : RatEmb α) {C : Cert} {l : Nat} {hw : HeadW} {hd : HeadD} (hok : headOKSel C l hw hd = true) :
    ∃ tm, scoreTemplate C hd.fam hd.sel (l - 1) = some tm ∧ ∀ (x : Acts α) (i k : Nat),
      score R hw x i k = lsum tm (fun p => dotv R (x i) p.1 * dotv R (x (hw.mask.key i k)) p.2) := by
  unfold headOKSel at hok
  simp only [Bool.and_eq_true] at hok
  have h := hok.1.1.1.2
  cases htm : scoreTemplate C hd.fam hd.sel (l - 1) with
  | none => rw [htm] at h; simp at h
  | some tm =>
    rw [htm] at h
    simp only [Bool.and_eq_true] at h
    refine ⟨tm, rfl, fun x i k => ?_⟩
    unfold score
    rw [lsum_zip_sameCols h.1 h.2 (fun q kk (_ : Unit) => dotv R (x i) q * dotv R (x (hw.mask.key i k)) kk)
      (fun v v' o o' _ h1 h2 => by dsimp only; rw [dotv_congr R _ h1, dotv_congr R _ h2]) ()]
    exact lsum_zip_fst_snd tm (fun q kk => dotv R (x i) q * dotv R (x (hw.mask.key i k)) kk)

/-- The family's mask. -/
theorem mask_of_ok {C : Cert} {l : Nat} {hw : HeadW} {hd : HeadD} (hok : headOKSel C l hw hd = true) :
    hw.mask = hd.fam.mask := by
  unfold headOKSel at hok
  simp only [Bool.and_eq_true] at hok
  exact Mask.eq_of_beq hok.1.1.1.1.1.2

/-- The select of a tie-breaking head is held exactly at boundary `l - 1`. -/
theorem sel_rep_of_ok {C : Cert} {l : Nat} {hw : HeadW} {hd : HeadD} (hok : headOKSel C l hw hd = true) {b : Nat}
    (hb : hd.sel = some b) : rep C b (l - 1) = true := by
  unfold headOKSel at hok
  simp only [Bool.and_eq_true] at hok
  have := hok.1.1.1.1.2
  rw [hb] at this; exact this

/-- The value terms' facts a head the checker accepts carries. -/
theorem term_of_ok {C : Cert} {l : Nat} {hw : HeadW} {hd : HeadD} (hok : headOKSel C l hw hd = true) {t : TermD}
    (ht : t ∈ hd.terms) :
    rep C t.src (l - 1) = true ∧ C.roleAt (C.crd t.node) l = .node t.node ∧
      C.roleAt (C.crd t.node) (l - 1) = .zero ∧ termKindOK C hd t = true := by
  unfold headOKSel at hok
  simp only [Bool.and_eq_true] at hok
  have := List.all_eq_true.mp hok.2 t ht
  simp only [Bool.and_eq_true] at this
  exact ⟨this.1.1.1, Role.eq_of_beq this.1.1.2, Role.eq_of_beq this.1.2, this.2⟩

/-- A past family's node (`Y src`, or `x S src` through its select) holds at `i > 0` exactly when
`src` holds at the past target; at `0` it fails. -/
theorem past_sem {C : Cert} {w : List Nat} {n : Nat} (hsym : ∀ k, k < n → w.getD k 0 < C.nsym) {hd : HeadD}
    {t : TermD} (hk : termKindOK C hd t = true) (hp : hd.fam.past = true) {i : Nat} (hin : i ≤ n) :
    (0 < i → (holds C.prog w n t.node i ↔ holds C.prog w n t.src (tiebreakPastTarget (selFn C w n hd.sel) i))) ∧
      (i = 0 → ¬ holds C.prog w n t.node i) := by
  unfold termKindOK at hk
  cases hs : hd.sel with
  | none =>
    rw [hs] at hk
    cases hn : nodeAt C.prog t.node <;> rw [hn] at hk <;> simp only [Bool.false_eq_true] at hk
    · next x =>
      simp only [Bool.and_eq_true, beq_iff_eq, decide_eq_true_eq] at hk
      obtain ⟨⟨_, hx⟩, hxl⟩ := hk
      refine ⟨fun hi => ?_, fun hi => ?_⟩
      · rw [holds_prev hn hxl, hx]
        unfold tiebreakPastTarget selFn
        rw [lastSel_false]
        simp only [Option.getD_none]
        exact ⟨fun h => h.2, fun h => ⟨hi, h⟩⟩
      · rw [holds_prev hn hxl]; omega
    · next x =>
      simp only [Bool.and_eq_true, beq_iff_eq, decide_eq_true_eq] at hk
      rw [hp] at hk; simp at hk
  | some b =>
    rw [hs] at hk
    cases hn : nodeAt C.prog t.node <;> rw [hn] at hk <;> simp only [Bool.false_eq_true] at hk
    · next x r =>
      simp only [Bool.and_eq_true, beq_iff_eq, decide_eq_true_eq] at hk
      obtain ⟨⟨⟨⟨⟨_, _⟩, hr⟩, hxl⟩, hrl⟩, hsel⟩ := hk
      refine ⟨fun hi => ?_, fun hi => ?_⟩
      · rw [holds_since hn hxl hrl, ← hr]
        obtain ⟨h1, h2, h3⟩ := select_since (i := i) hsym hsel hin
        simp only [selFn]
        exact since_iff_target h1 h2 h3 hi
      · rw [holds_since hn hxl hrl]; rintro ⟨j, hj, _⟩; omega
    · next x r =>
      simp only [Bool.and_eq_true, beq_iff_eq, decide_eq_true_eq] at hk
      rw [hp] at hk; simp at hk

/-- A future family's node (`X src`, or `x U src`) holds at `i` with `i + 1 < n` exactly when `src`
holds at the future target; with `i + 1 ≥ n` it fails. -/
theorem fut_sem {C : Cert} {w : List Nat} {n : Nat} (hsym : ∀ k, k < n → w.getD k 0 < C.nsym) {hd : HeadD}
    {t : TermD} (hk : termKindOK C hd t = true) (hp : hd.fam.past = false) {i : Nat} :
    (i + 1 < n → (holds C.prog w n t.node i ↔
        holds C.prog w n t.src (i + 1 + tiebreakFutureTarget (selFn C w n hd.sel) n i))) ∧
      (n ≤ i + 1 → ¬ holds C.prog w n t.node i) := by
  unfold termKindOK at hk
  cases hs : hd.sel with
  | none =>
    rw [hs] at hk
    cases hn : nodeAt C.prog t.node <;> rw [hn] at hk <;> simp only [Bool.false_eq_true] at hk
    · next x =>
      simp only [Bool.and_eq_true, beq_iff_eq, decide_eq_true_eq] at hk
      rw [hp] at hk; simp at hk
    · next x =>
      simp only [Bool.and_eq_true, beq_iff_eq, decide_eq_true_eq, Bool.not_eq_true'] at hk
      obtain ⟨⟨_, hx⟩, hxl⟩ := hk
      refine ⟨fun hi => ?_, fun hi => ?_⟩
      · rw [holds_next hn hxl, hx]
        unfold tiebreakFutureTarget selFn
        rw [firstSel_false _ (fun _ => rfl)]
        simp only [Option.getD_none, Nat.add_zero]
        exact ⟨fun h => h.2, fun h => ⟨hi, h⟩⟩
      · rw [holds_next hn hxl]; omega
  | some b =>
    rw [hs] at hk
    cases hn : nodeAt C.prog t.node <;> rw [hn] at hk <;> simp only [Bool.false_eq_true] at hk
    · next x r =>
      simp only [Bool.and_eq_true, beq_iff_eq, decide_eq_true_eq] at hk
      rw [hp] at hk; simp at hk
    · next x r =>
      simp only [Bool.and_eq_true, beq_iff_eq, decide_eq_true_eq, Bool.not_eq_true'] at hk
      obtain ⟨⟨⟨⟨⟨_, _⟩, hr⟩, hxl⟩, hrl⟩, hsel⟩ := hk
      refine ⟨fun hi => ?_, fun hi => ?_⟩
      · rw [holds_until hn hxl hrl, ← hr]
        obtain ⟨h1, h2, h3⟩ := select_until (i := i) hsym hsel
        simp only [selFn]
        exact until_iff_target h1 h2 h3 hi
      · rw [holds_until hn hxl hrl]; rintro ⟨j, hj, hjn, _⟩; omega

/-- Softmax over `N` keys only sees the scores of those keys. -/
theorem softmax_congr_lt (E : ExpLike α) {s s' : Nat → α} {tau : α} {N : Nat} (h : ∀ k, k < N → s k = s' k)
    {j : Nat} (hj : j < N) : softmax E tau s N j = softmax E tau s' N j := by
  unfold softmax
  rw [h j hj, sumTo_congr (fun k hk => by rw [h k hk])]

/-- The softmax mass off `T` only sees the scores of the `N` keys. -/
theorem mass_congr (E : ExpLike α) {s s' : Nat → α} {tau : α} {N T : Nat} (h : ∀ k, k < N → s k = s' k)
    (hT : T < N) :
    sumTo (softmax E tau s N) N - softmax E tau s N T = sumTo (softmax E tau s' N) N - softmax E tau s' N T := by
  rw [sumTo_congr (fun k hk => softmax_congr_lt E h hk), softmax_congr_lt E h hT]

/-- `[decide p]` as a 0/1 value is `ind p`. -/
theorem ite_decide_eq_ind (p : Prop) : ((if decide p = true then 1 else 0 : α)) = ind p := by
  unfold ind; by_cases hp : p <;> simp [hp]

/-- The gamma of the certificate is non-negative when `K, c > 0`. -/
theorem gamma_nonneg (R : RatEmb α) {C : Cert} (hK : 0 < C.K) (hc : 0 < C.c) : 0 ≤ C.gammaRule := by
  apply R.le_of_map_le
  rw [R.map_zero]
  have hK' : (0 : α) < R.cast C.K := by rw [← R.map_zero]; exact R.map_lt hK
  unfold Cert.gammaRule
  cases hb : (C.bounded || C.mixed)
  · simp only [Bool.false_eq_true, if_false]; exact Std.le_of_lt hK'
  · simp only [if_true]
    have hcα : (0 : α) < R.cast C.c := by rw [← R.map_zero]; exact R.map_lt hc
    rw [R.map_div (fun h => by rw [h] at hc; exact absurd hc (by decide))]
    exact div_nonneg_of_nonneg (Std.le_of_lt hK') hcα

/-- The bounded regime's `γ`: `K/c`. -/
theorem gamma_bounded {C : Cert} (hb : C.bounded = true) : C.gammaRule = C.K / C.c := by
  unfold Cert.gammaRule; rw [hb]; rfl

/-- The mixed comparisons' `γ`: `K/c`. -/
theorem gamma_mixed {C : Cert} (hm : C.mixed = true) : C.gammaRule = C.K / C.c := by
  unfold Cert.gammaRule; rw [hm, Bool.or_true]; rfl

/-- The plain unbounded regime's `γ`: `K`. -/
theorem gamma_plain {C : Cert} (hb : C.bounded = false) (hm : C.mixed = false) : C.gammaRule = C.K := by
  unfold Cert.gammaRule; rw [hb, hm]; rfl

/-- The bounded regime's rule (no mixed comparison): `τ = c/n`. -/
theorem tau_bounded (R : RatEmb α) {C : Cert} (hb : C.bounded = true) (hm : C.mixed = false) (n : Nat) :
    C.tauRule R n = R.cast C.c / natCast n := by
  unfold Cert.tauRule; rw [hm, hb]; rfl

/-- The mixed comparisons' rule, unbounded regime: `τ = c / max(n-1, 1)`. -/
theorem tau_mixed (R : RatEmb α) {C : Cert} (hb : C.bounded = false) (hm : C.mixed = true) (n : Nat) :
    C.tauRule R n = R.cast C.c / natCast (max (n - 1) 1) := by
  unfold Cert.tauRule; rw [hm, hb]; rfl

/-- The mixed comparisons' rule, bounded regime: `τ = c / (n^2 max(n-1, 1))`. -/
theorem tau_mixed_bounded (R : RatEmb α) {C : Cert} (hb : C.bounded = true) (hm : C.mixed = true) (n : Nat) :
    C.tauRule R n = R.cast C.c / natCast (n * n * max (n - 1) 1) := by
  unfold Cert.tauRule; rw [hm, hb]; rfl

/-- The plain unbounded regime's rule: `τ = 1`. -/
theorem tau_plain (R : RatEmb α) {C : Cert} (hb : C.bounded = false) (hm : C.mixed = false) (n : Nat) :
    C.tauRule R n = 1 := by
  unfold Cert.tauRule; rw [hm, hb]; rfl

/-- The facts a head family's scores give at query `i`: a target `T` among the `N` visible keys,
strictly above every other key, and (in soft mode at the rule, for any exponential above its
tangent) the softmax mass off `T` within `errRule`. -/
def GapFacts (R : RatEmb α) (C : Cert) (s : Nat → α) (n N T : Nat) : Prop :=
  T < N ∧ (∀ k, k < N → k ≠ T → s k < s T) ∧
    ∀ E : ExpLike α, E.Tangent →
      sumTo (softmax E (C.tauRule R n) s N) N - softmax E (C.tauRule R n) s N T ≤ R.cast C.errRule

/-- The soft mode's exponent in the unbounded regime: `τ = 1` (`γ = K`), or the mixed comparisons'
`τ = c / max(n-1, 1) ≤ c` (`γ = K/c`): `τ > 0` and `-K/τ ≤ -γ`. -/
theorem exponent_unbounded (R : RatEmb α) {C : Cert} {n : Nat} (hb : C.bounded = false) (hK : 0 < C.K) (hc : 0 < C.c) :
    0 < C.tauRule R n ∧ -R.cast C.K / C.tauRule R n ≤ -R.cast C.gammaRule := by
  have hKα : (0 : α) < R.cast C.K := by rw [← R.map_zero]; exact R.map_lt hK
  have hcα : (0 : α) < R.cast C.c := by rw [← R.map_zero]; exact R.map_lt hc
  cases hm : C.mixed
  · rw [tau_plain R hb hm, gamma_plain hb hm]
    exact ⟨Lean.Grind.OrderedRing.zero_lt_one, by grind⟩
  · rw [tau_mixed R hb hm, gamma_mixed hm, R.map_div (fun h => by rw [h] at hc; exact absurd hc (by decide))]
    have hM : (1 : α) ≤ natCast (max (n - 1) 1) := one_le_natCast_of_pos (by omega)
    have hMpos : (0 : α) < natCast (max (n - 1) 1) := Std.lt_of_lt_of_le Lean.Grind.OrderedRing.zero_lt_one hM
    refine ⟨zero_lt_div_of_zero_lt hcα hMpos, ?_⟩
    have hq : (0 : α) ≤ R.cast C.K / R.cast C.c := div_nonneg_of_nonneg (Std.le_of_lt hKα) hcα
    have hmul := Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_left hM hq
    have hcne : R.cast C.c ≠ 0 := ne_zero_of_zero_lt hcα
    have hMne : (natCast (max (n - 1) 1) : α) ≠ 0 := ne_zero_of_zero_lt hMpos
    have e : -R.cast C.K / (R.cast C.c / natCast (max (n - 1) 1))
        = -(R.cast C.K / R.cast C.c * natCast (max (n - 1) 1)) := by
      generalize (natCast (max (n - 1) 1) : α) = a at *
      generalize R.cast C.K = kk at *
      generalize R.cast C.c = cc at *
      grind
    rw [e]
    generalize R.cast C.K / R.cast C.c * natCast (max (n - 1) 1) = b at *
    grind

/-- The unbounded regime's mass bound: a mass `≤ exp(-K/τ)` at the rule is `≤ errRule`. -/
theorem mass_le_errRule_unbounded (R : RatEmb α) (E : ExpLike α) (hE : E.Tangent) {C : Cert} {n : Nat}
    (hb : C.bounded = false) (hK : 0 < C.K) (hc : 0 < C.c) (hk : 0 < C.expK) {m : α}
    (hm : m ≤ E.exp (-R.cast C.K / C.tauRule R n)) : m ≤ R.cast C.errRule :=
  Std.le_trans hm (Std.le_trans (E.mono _ _ (exponent_unbounded R hb hK hc).2)
    (exp_neg_le_errRule R E hE C (gamma_nonneg R hK hc) hk))

/-- The bounded regime's rule is `c/N` with `n ≤ N`: `N = n`, or `N = n^2 max(n-1, 1)` (mixed
comparisons). -/
theorem tau_bounded_le (R : RatEmb α) {C : Cert} (hb : C.bounded = true) {n : Nat} (hn : 0 < n) :
    ∃ N : Nat, n ≤ N ∧ C.tauRule R n = R.cast C.c / natCast N := by
  cases hm : C.mixed
  · exact ⟨n, Nat.le_refl _, tau_bounded R hb hm n⟩
  · refine ⟨n * n * max (n - 1) 1, ?_, tau_mixed_bounded R hb hm n⟩
    have h1 : n * 1 ≤ n * (n * max (n - 1) 1) := Nat.mul_le_mul_left n (Nat.mul_pos hn (by omega))
    rw [Nat.mul_one, ← Nat.mul_assoc] at h1
    exact h1

/-- The bounded regime's exponent at `τ = c/N`: a gap `g` with `K ≤ g N` has `-g/τ ≤ -γ` (`γ = K/c`). -/
theorem exponent_div (R : RatEmb α) {C : Cert} (hb : C.bounded = true) (hc : 0 < C.c) {N : Nat}
    (hNα : (0 : α) < natCast N) {g : α} (h1 : R.cast C.K ≤ g * natCast N) :
    -g / (R.cast C.c / natCast N) ≤ -R.cast C.gammaRule := by
  have hcα : (0 : α) < R.cast C.c := by rw [← R.map_zero]; exact R.map_lt hc
  rw [gamma_bounded hb, R.map_div (fun h => by rw [h] at hc; exact absurd hc (by decide))]
  have e : -g / (R.cast C.c / natCast N) = -(g * natCast N) / R.cast C.c := by
    have := ne_zero_of_zero_lt hNα
    have := ne_zero_of_zero_lt hcα
    generalize (natCast N : α) = a at *
    generalize R.cast C.c = cc at *
    grind
  rw [e]
  have h2 := div_le_div_of_le hcα (show -(g * natCast N) ≤ -R.cast C.K by grind)
  have e2 : -R.cast C.K / R.cast C.c = -(R.cast C.K / R.cast C.c) := by
    have := ne_zero_of_zero_lt hcα
    generalize R.cast C.c = cc at *
    generalize R.cast C.K = kk at *
    grind
  rw [e2] at h2
  exact h2

/-- The soft mode's exponent in the bounded regime, mixed comparisons or not (`τ = c/N ≤ c/n`):
`τ > 0`, and a gap `g ≥ K/n` has `-g/τ ≤ -γ` (`γ = K/c`). -/
theorem exponent_bounded (R : RatEmb α) {C : Cert} (hb : C.bounded = true) (hK : 0 < C.K) (hc : 0 < C.c) {n : Nat}
    (hn : 0 < n) :
    0 < C.tauRule R n ∧ ∀ g : α, R.cast C.K / natCast n ≤ g → -g / C.tauRule R n ≤ -R.cast C.gammaRule := by
  have hKα : (0 : α) < R.cast C.K := by rw [← R.map_zero]; exact R.map_lt hK
  have hcα : (0 : α) < R.cast C.c := by rw [← R.map_zero]; exact R.map_lt hc
  obtain ⟨N, hN, hτ⟩ := tau_bounded_le R hb hn
  have hn1 : (1 : α) ≤ natCast n := one_le_natCast_of_pos hn
  have hnα : (0 : α) < natCast n := Std.lt_of_lt_of_le Lean.Grind.OrderedRing.zero_lt_one hn1
  have hNn : (natCast n : α) ≤ natCast N := natCast_le_of_le hN
  have hNα : (0 : α) < natCast N := Std.lt_of_lt_of_le hnα hNn
  rw [hτ]
  refine ⟨zero_lt_div_of_zero_lt hcα hNα, fun g hg => ?_⟩
  have hg0 : (0 : α) ≤ g := Std.le_trans (Std.le_of_lt (zero_lt_div_of_zero_lt hKα hnα)) hg
  have h1 : R.cast C.K / natCast n * natCast n ≤ g * natCast N :=
    Std.le_trans (Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_right hg (natCast_nonneg n))
      (Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_left hNn hg0)
  have hKe : R.cast C.K / natCast n * natCast n = R.cast C.K := by
    have := ne_zero_of_zero_lt hnα
    generalize (natCast n : α) = a at *
    generalize R.cast C.K = kk at *
    grind
  rw [hKe] at h1
  exact exponent_div R hb hc hNα h1

/-- The bounded mixed comparisons' exponent: at `τ = c / (n^2 max(n-1, 1))` (`n ≥ 2`), a gap `g`
with `K ≤ 2 n g` (`g ≥ K/(2n)`: the sign head of an approximate `V`) has `-g/τ ≤ -γ`. -/
theorem exponent_mixed_bounded (R : RatEmb α) {C : Cert} (hb : C.bounded = true) (hm : C.mixed = true)
    (hK : 0 < C.K) (hc : 0 < C.c) {n : Nat} (hn : 2 ≤ n) :
    0 < C.tauRule R n ∧ ∀ g : α, R.cast C.K ≤ 2 * natCast n * g → -g / C.tauRule R n ≤ -R.cast C.gammaRule := by
  have hKα : (0 : α) < R.cast C.K := by rw [← R.map_zero]; exact R.map_lt hK
  have hcα : (0 : α) < R.cast C.c := by rw [← R.map_zero]; exact R.map_lt hc
  rw [tau_mixed_bounded R hb hm n]
  have hnM : 0 + 1 + 1 ≤ n * max (n - 1) 1 := by
    have : 2 * 1 ≤ n * max (n - 1) 1 := Nat.mul_le_mul hn (by omega)
    omega
  have hN : (natCast (n * n * max (n - 1) 1) : α) = natCast n * natCast (n * max (n - 1) 1) := by
    rw [Nat.mul_assoc, natCast_mul_of_nat]
  have h2 : (2 : α) ≤ natCast (n * max (n - 1) 1) := by
    have := natCast_le_of_le (α := α) hnM
    rw [natCast_succ, natCast_succ, natCast_zero] at this
    grind
  have hn1 : (1 : α) ≤ natCast n := one_le_natCast_of_pos (by omega)
  have hnα : (0 : α) < natCast n := Std.lt_of_lt_of_le Lean.Grind.OrderedRing.zero_lt_one hn1
  have hBα : (0 : α) < natCast (n * max (n - 1) 1) := by grind
  have hNα : (0 : α) < natCast (n * n * max (n - 1) 1) := by
    rw [hN]; exact Lean.Grind.OrderedRing.mul_pos hnα hBα
  refine ⟨zero_lt_div_of_zero_lt hcα hNα, fun g hg => ?_⟩
  have hg0 : (0 : α) ≤ 2 * natCast n * g := Std.le_trans (Std.le_of_lt hKα) hg
  have h3 := Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_left h2 hg0
  have h1 : R.cast C.K ≤ g * natCast (n * n * max (n - 1) 1) := by
    rw [hN]
    generalize (natCast (n * max (n - 1) 1) : α) = B at *
    generalize (natCast n : α) = a at *
    generalize R.cast C.K = kk at *
    grind
  exact exponent_div R hb hc hNα h1

/-- Lemma 8 (tie-breaking, bounded regime, past) read off a certified head: its scores are
`tiebreakPastBounded K n sel`, so the target has the gap `K/n` and, at `τ = c/n`, mass off it
`≤ exp(-K/c) ≤ errRule`. -/
theorem facts_tbPastB (R : RatEmb α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α}
    (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d) (hroles : C.spans.length = d)
    (hK : 0 < C.K) (hc : 0 < C.c) (hk : 0 < C.expK)
    {hw : HeadW} {hd : HeadD} (hok : headOKSel C l hw hd = true) (hfam : hd.fam = .tbPastB) {i : Nat}
    (hi : 0 < i) (hin' : i < n) :
    GapFacts R C (score R hw x i) n i (tiebreakPastTarget (selFn C w n hd.sel) i) := by
  have hin : i ≤ n := Nat.le_of_lt hin' 
  have hbnd : C.bounded = true := by
    unfold headOKSel at hok; simp only [Bool.and_eq_true] at hok
    have := hok.1.1.1.1.1.1; rw [hfam] at this; simpa [Family.inRegime] using this
  have hmask : hw.mask = .strict := by rw [mask_of_ok hok, hfam]; rfl
  obtain ⟨tm, htm, hs⟩ := score_tm R hok
  unfold scoreTemplate at htm
  rw [hfam] at htm
  cases ho : featCoord C .one (l - 1) <;> cases hp : featCoord C .iOverN (l - 1) <;> rw [ho, hp] at htm <;> simp at htm
  next o p =>
  obtain ⟨hro, hod⟩ := featCoord_sound ho
  obtain ⟨hrp, hpd⟩ := featCoord_sound hp
  rw [hroles] at hod hpd
  have hKα : (0 : α) < R.cast C.K := by rw [← R.map_zero]; exact R.map_lt hK
  have hnα : (0 : α) < natCast n := Std.lt_of_lt_of_le Lean.Grind.OrderedRing.zero_lt_one (one_le_natCast_of_pos (by omega))
  have hscore : ∀ k, k < i → score R hw x i k = tiebreakPastBounded (R.cast C.K) n (selFn C w n hd.sel) k := by
    intro k hki
    rw [hs x i k, ← htm, hmask]
    simp only [Mask.key, lsum_cons, lsum_nil, dotv_cons, dotv_nil]
    have hxo : x i o = 1 := by rw [inv_feat hinv hro hod (by omega)]; rfl
    have hxp : x k p = natCast k / natCast n := by rw [inv_feat hinv hrp hpd (by omega)]; rfl
    rw [hxo, hxp, R.map_one]
    unfold tiebreakPastBounded selFn
    cases hsel : hd.sel with
    | none => simp only [dotv_nil]; simp; grind
    | some b =>
      simp only [dotv_cons, dotv_nil]
      rw [inv_rep hinv hE hcrd (sel_rep_of_ok hok hsel) (by omega), ite_decide_eq_ind]
      grind
  refine ⟨(tiebreakPast_keys _ hi hin).1, fun k hk hne => ?_, fun E hE' => ?_⟩
  · have hg := (tiebreak_past_bounded constExp (selFn C w n hd.sel) hKα hnα hi hin).1 k hk hne
    rw [hscore k hk, hscore _ (tiebreakPast_keys _ hi hin).1]
    have : (0 : α) < R.cast C.K / natCast n := zero_lt_div_of_zero_lt hKα hnα
    generalize tiebreakPastBounded (R.cast C.K) n (selFn C w n hd.sel) k = a at hg ⊢
    generalize tiebreakPastBounded (R.cast C.K) n (selFn C w n hd.sel) (tiebreakPastTarget (selFn C w n hd.sel) i) = b at hg ⊢
    grind
  · obtain ⟨htau, hex⟩ := exponent_bounded R hbnd hK hc (n := n) (by omega)
    rw [mass_congr E hscore (tiebreakPast_keys _ hi hin).1]
    have hm := (tiebreak_past_bounded E (tau := C.tauRule R n) (selFn C w n hd.sel) hKα htau hi hin).2
    exact Std.le_trans hm (Std.le_trans (E.mono _ _ (hex _ (Std.le_refl _)))
      (exp_neg_le_errRule R E hE' C (gamma_nonneg R hK hc) hk))

/-- The regime of a certified head's family. -/
theorem bounded_of_ok {C : Cert} {l : Nat} {hw : HeadW} {hd : HeadD} (hok : headOKSel C l hw hd = true) :
    hd.fam.inRegime C.bounded = true := by
  unfold headOKSel at hok; simp only [Bool.and_eq_true] at hok
  exact hok.1.1.1.1.1.1

/-- Lemma 8 (tie-breaking, bounded regime, future) read off a certified head. -/
theorem facts_tbFutB (R : RatEmb α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α}
    (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d) (hroles : C.spans.length = d)
    (hK : 0 < C.K) (hc : 0 < C.c) (hk : 0 < C.expK)
    {hw : HeadW} {hd : HeadD} (hok : headOKSel C l hw hd = true) (hfam : hd.fam = .tbFutB) {i : Nat}
    (hin : i + 1 < n) :
    GapFacts R C (score R hw x i) n (n - 1 - i) (tiebreakFutureTarget (selFn C w n hd.sel) n i) := by
  have hbnd : C.bounded = true := by have := bounded_of_ok hok; rw [hfam] at this; simpa [Family.inRegime] using this
  have hmask : hw.mask = .strictAnti := by rw [mask_of_ok hok, hfam]; rfl
  obtain ⟨tm, htm, hs⟩ := score_tm R hok
  unfold scoreTemplate at htm
  rw [hfam] at htm
  cases ho : featCoord C .one (l - 1) <;> cases hp : featCoord C .iOverN (l - 1) <;> rw [ho, hp] at htm <;> simp at htm
  next o p =>
  obtain ⟨hro, hod⟩ := featCoord_sound ho
  obtain ⟨hrp, hpd⟩ := featCoord_sound hp
  rw [hroles] at hod hpd
  have hKα : (0 : α) < R.cast C.K := by rw [← R.map_zero]; exact R.map_lt hK
  have hnα : (0 : α) < natCast n := Std.lt_of_lt_of_le Lean.Grind.OrderedRing.zero_lt_one (one_le_natCast_of_pos (by omega))
  have hscore : ∀ k, k < n - 1 - i → score R hw x i k = tiebreakFutureBounded (R.cast C.K) n (selFn C w n hd.sel) i k := by
    intro k hki
    rw [hs x i k, ← htm, hmask]
    simp only [Mask.key, lsum_cons, lsum_nil, dotv_cons, dotv_nil]
    have hxo : x i o = 1 := by rw [inv_feat hinv hro hod (by omega)]; rfl
    have hxp : x (i + 1 + k) p = natCast (i + 1 + k) / natCast n := by rw [inv_feat hinv hrp hpd (by omega)]; rfl
    rw [hxo, hxp, R.map_one, R.map_neg]
    unfold tiebreakFutureBounded selFn
    cases hsel : hd.sel with
    | none => simp only [dotv_nil]; simp; grind
    | some b =>
      simp only [dotv_cons, dotv_nil]
      rw [inv_rep hinv hE hcrd (sel_rep_of_ok hok hsel) (by omega), ite_decide_eq_ind]
      grind
  have hT := (tiebreakFuture_keys (selFn C w n hd.sel) hin).1
  refine ⟨hT, fun k hk hne => ?_, fun E hE' => ?_⟩
  · have hg := (tiebreak_future_bounded constExp (selFn C w n hd.sel) hKα hnα hin).1 k hk hne
    rw [hscore k hk, hscore _ hT]
    have : (0 : α) < R.cast C.K / natCast n := zero_lt_div_of_zero_lt hKα hnα
    generalize tiebreakFutureBounded (R.cast C.K) n (selFn C w n hd.sel) i k = a at hg ⊢
    generalize tiebreakFutureBounded (R.cast C.K) n (selFn C w n hd.sel) i (tiebreakFutureTarget (selFn C w n hd.sel) n i) = b at hg ⊢
    grind
  · obtain ⟨htau, hex⟩ := exponent_bounded R hbnd hK hc (n := n) (by omega)
    rw [mass_congr E hscore hT]
    have hm := (tiebreak_future_bounded E (tau := C.tauRule R n) (selFn C w n hd.sel) hKα htau hin).2
    exact Std.le_trans hm (Std.le_trans (E.mono _ _ (hex _ (Std.le_refl _)))
      (exp_neg_le_errRule R E hE' C (gamma_nonneg R hK hc) hk))

/-- Lemma 8 (tie-breaking, unbounded regime, past) read off a certified head. -/
theorem facts_tbPastU (R : RatEmb α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α}
    (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d) (hroles : C.spans.length = d)
    (hK : 0 < C.K) (hc : 0 < C.c) (hk : 0 < C.expK)
    {hw : HeadW} {hd : HeadD} (hok : headOKSel C l hw hd = true) (hfam : hd.fam = .tbPastU) {i : Nat}
    (hi : 0 < i) (hin' : i < n) :
    GapFacts R C (score R hw x i) n i (tiebreakPastTarget (selFn C w n hd.sel) i) := by
  have hin : i ≤ n := Nat.le_of_lt hin'
  have hbnd : C.bounded = false := by have := bounded_of_ok hok; rw [hfam] at this; cases hb : C.bounded <;> simp_all [Family.inRegime]
  have hmask : hw.mask = .strict := by rw [mask_of_ok hok, hfam]; rfl
  obtain ⟨tm, htm, hs⟩ := score_tm R hok
  unfold scoreTemplate at htm
  rw [hfam] at htm
  cases ho : featCoord C .one (l - 1) <;> cases hp : featCoord C .idx (l - 1) <;> cases hm : featCoord C .len (l - 1) <;>
    simp only [ho, hp, hm, reduceCtorEq, Option.some.injEq] at htm
  next o p m =>
  obtain ⟨hro, hod⟩ := featCoord_sound ho
  obtain ⟨hrp, hpd⟩ := featCoord_sound hp
  obtain ⟨hrm, hmd⟩ := featCoord_sound hm
  rw [hroles] at hod hpd hmd
  have hKα : (0 : α) < R.cast C.K := by rw [← R.map_zero]; exact R.map_lt hK
  have hscore : ∀ k, k < i → score R hw x i k = tiebreakPastUnbounded (R.cast C.K) n (selFn C w n hd.sel) k := by
    intro k hki
    rw [hs x i k, ← htm, hmask]
    simp only [Mask.key, lsum_cons, lsum_nil, dotv_cons, dotv_nil]
    have hxo : x i o = 1 := by rw [inv_feat hinv hro hod (by omega)]; rfl
    have hxp : x k p = natCast k := by rw [inv_feat hinv hrp hpd (by omega)]; rfl
    have hxm : x i m = natCast n := by rw [inv_feat hinv hrm hmd (by omega)]; rfl
    rw [hxo, hxp, hxm, R.map_one]
    unfold tiebreakPastUnbounded selFn
    cases hsel : hd.sel with
    | none => simp only [dotv_nil]; simp; grind
    | some b =>
      simp only [dotv_cons, dotv_nil]
      rw [inv_rep hinv hE hcrd (sel_rep_of_ok hok hsel) (by omega), ite_decide_eq_ind]
      grind
  have hT := (tiebreakPast_keys (selFn C w n hd.sel) hi hin).1
  refine ⟨hT, fun k hk hne => ?_, fun E hE' => ?_⟩
  · have hg := (tiebreak_past_unbounded constExp (selFn C w n hd.sel) hKα Lean.Grind.OrderedRing.zero_lt_one hi hin).1 k hk hne
    rw [hscore k hk, hscore _ hT]
    generalize tiebreakPastUnbounded (R.cast C.K) n (selFn C w n hd.sel) k = a at hg ⊢
    generalize tiebreakPastUnbounded (R.cast C.K) n (selFn C w n hd.sel) (tiebreakPastTarget (selFn C w n hd.sel) i) = b at hg ⊢
    grind
  · have htau := (exponent_unbounded (n := n) R hbnd hK hc).1
    rw [mass_congr E hscore hT]
    have hm := (tiebreak_past_unbounded E (tau := C.tauRule R n) (selFn C w n hd.sel) hKα htau hi hin).2
    exact mass_le_errRule_unbounded R E hE' hbnd hK hc hk hm

/-- Lemma 8 (tie-breaking, unbounded regime, future) read off a certified head. -/
theorem facts_tbFutU (R : RatEmb α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α}
    (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d) (hroles : C.spans.length = d)
    (hK : 0 < C.K) (hc : 0 < C.c) (hk : 0 < C.expK)
    {hw : HeadW} {hd : HeadD} (hok : headOKSel C l hw hd = true) (hfam : hd.fam = .tbFutU) {i : Nat}
    (hin : i + 1 < n) :
    GapFacts R C (score R hw x i) n (n - 1 - i) (tiebreakFutureTarget (selFn C w n hd.sel) n i) := by
  have hbnd : C.bounded = false := by have := bounded_of_ok hok; rw [hfam] at this; cases hb : C.bounded <;> simp_all [Family.inRegime]
  have hmask : hw.mask = .strictAnti := by rw [mask_of_ok hok, hfam]; rfl
  obtain ⟨tm, htm, hs⟩ := score_tm R hok
  unfold scoreTemplate at htm
  rw [hfam] at htm
  cases ho : featCoord C .one (l - 1) <;> cases hp : featCoord C .idx (l - 1) <;> cases hm : featCoord C .len (l - 1) <;>
    simp only [ho, hp, hm, reduceCtorEq, Option.some.injEq] at htm
  next o p m =>
  obtain ⟨hro, hod⟩ := featCoord_sound ho
  obtain ⟨hrp, hpd⟩ := featCoord_sound hp
  obtain ⟨hrm, hmd⟩ := featCoord_sound hm
  rw [hroles] at hod hpd hmd
  have hKα : (0 : α) < R.cast C.K := by rw [← R.map_zero]; exact R.map_lt hK
  have hscore : ∀ k, k < n - 1 - i → score R hw x i k = tiebreakFutureUnbounded (R.cast C.K) n (selFn C w n hd.sel) i k := by
    intro k hki
    rw [hs x i k, ← htm, hmask]
    simp only [Mask.key, lsum_cons, lsum_nil, dotv_cons, dotv_nil]
    have hxo : x i o = 1 := by rw [inv_feat hinv hro hod (by omega)]; rfl
    have hxp : x (i + 1 + k) p = natCast (i + 1 + k) := by rw [inv_feat hinv hrp hpd (by omega)]; rfl
    have hxm : x i m = natCast n := by rw [inv_feat hinv hrm hmd (by omega)]; rfl
    rw [hxo, hxp, hxm, R.map_one, R.map_neg]
    unfold tiebreakFutureUnbounded selFn
    cases hsel : hd.sel with
    | none => simp only [dotv_nil]; simp; grind
    | some b =>
      simp only [dotv_cons, dotv_nil]
      rw [inv_rep hinv hE hcrd (sel_rep_of_ok hok hsel) (by omega), ite_decide_eq_ind]
      grind
  have hT := (tiebreakFuture_keys (selFn C w n hd.sel) hin).1
  refine ⟨hT, fun k hk hne => ?_, fun E hE' => ?_⟩
  · have hg := (tiebreak_future_unbounded constExp (selFn C w n hd.sel) hKα Lean.Grind.OrderedRing.zero_lt_one hin).1 k hk hne
    rw [hscore k hk, hscore _ hT]
    generalize tiebreakFutureUnbounded (R.cast C.K) n (selFn C w n hd.sel) i k = a at hg ⊢
    generalize tiebreakFutureUnbounded (R.cast C.K) n (selFn C w n hd.sel) i (tiebreakFutureTarget (selFn C w n hd.sel) n i) = b at hg ⊢
    grind
  · have htau := (exponent_unbounded (n := n) R hbnd hK hc).1
    rw [mass_congr E hscore hT]
    have hm := (tiebreak_future_unbounded E (tau := C.tauRule R n) (selFn C w n hd.sel) hKα htau hin).2
    exact mass_le_errRule_unbounded R E hE' hbnd hK hc hk hm

/-- Nothing selected: the past target is the previous position. -/
theorem target_none_past (i : Nat) : tiebreakPastTarget (fun _ => false) i = i - 1 := by
  unfold tiebreakPastTarget; rw [lastSel_false]; rfl

/-- Nothing selected: the future target is the next position. -/
theorem target_none_fut (n i : Nat) : tiebreakFutureTarget (fun _ => false) n i = 0 := by
  unfold tiebreakFutureTarget; rw [firstSel_false _ (fun _ => rfl)]; rfl

/-- Lemma 7 (lookup, unbounded regime, past mask) read off a certified head: scores
`K (2 (i-1) j - j^2)`, target `i - 1`, gap `K`, mass off it `≤ exp(-K) ≤ errRule` at `τ = 1`. -/
theorem facts_lkPast (R : RatEmb α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α}
    (hinv : Inv C w n d (l - 1) x) (hroles : C.spans.length = d)
    (hK : 0 < C.K) (hc : 0 < C.c) (hk : 0 < C.expK)
    {hw : HeadW} {hd : HeadD} (hok : headOKSel C l hw hd = true) (hfam : hd.fam = .lkPast) (hsel : hd.sel = none)
    {i : Nat} (hi : 0 < i) (hin : i < n) :
    GapFacts R C (score R hw x i) n i (tiebreakPastTarget (selFn C w n hd.sel) i) := by
  have hbnd : C.bounded = false := by have := bounded_of_ok hok; rw [hfam] at this; cases hb : C.bounded <;> simp_all [Family.inRegime]
  have hmask : hw.mask = .strict := by rw [mask_of_ok hok, hfam]; rfl
  have hTe : tiebreakPastTarget (selFn C w n hd.sel) i = i - 1 := by rw [hsel]; exact target_none_past i
  rw [hTe]
  obtain ⟨tm, htm, hs⟩ := score_tm R hok
  unfold scoreTemplate at htm
  rw [hfam] at htm
  cases ho : featCoord C .one (l - 1) <;> cases hp : featCoord C .idx (l - 1) <;> cases hq : featCoord C .idxSq (l - 1) <;>
    simp only [ho, hp, hq, reduceCtorEq, Option.some.injEq] at htm
  next o p q =>
  obtain ⟨hro, hod⟩ := featCoord_sound ho
  obtain ⟨hrp, hpd⟩ := featCoord_sound hp
  obtain ⟨hrq, hqd⟩ := featCoord_sound hq
  rw [hroles] at hod hpd hqd
  have hKα : (0 : α) < R.cast C.K := by rw [← R.map_zero]; exact R.map_lt hK
  have hscore : ∀ k, k < i → score R hw x i k = lookupScore (R.cast C.K) (i - 1) k := by
    intro k hki
    rw [hs x i k, ← htm, hmask]
    simp only [Mask.key, lsum_cons, lsum_nil, dotv_cons, dotv_nil]
    have hxo : x i o = 1 := by rw [inv_feat hinv hro hod (by omega)]; rfl
    have hxp : x i p = natCast i := by rw [inv_feat hinv hrp hpd (by omega)]; rfl
    have hxpk : x k p = natCast k := by rw [inv_feat hinv hrp hpd (by omega)]; rfl
    have hxq : x k q = natCast k * natCast k := by rw [inv_feat hinv hrq hqd (by omega)]; rfl
    rw [hxo, hxp, hxpk, hxq, R.map_one, R.map_neg, R.map_one, R.map_mul, R.map_neg]
    have h2 : R.cast 2 = (2 : α) := R.map_two
    rw [h2]
    unfold lookupScore
    have e : (natCast i : α) = natCast (i - 1) + 1 := by rw [← natCast_succ, Nat.sub_add_cancel hi]
    rw [e]
    grind
  have hT : i - 1 < i := by omega
  refine ⟨hT, fun k hk hne => ?_, fun E hE' => ?_⟩
  · have hg := (lookup_past constExp (Std.le_of_lt hKα) Lean.Grind.OrderedRing.zero_lt_one hi).1 k hk hne
    rw [hscore k hk, hscore _ hT]
    generalize lookupScore (R.cast C.K) (i - 1) k = a at hg ⊢
    generalize lookupScore (R.cast C.K) (i - 1) (i - 1) = b at hg ⊢
    grind
  · have htau := (exponent_unbounded (n := n) R hbnd hK hc).1
    rw [mass_congr E hscore hT]
    have hm := (lookup_past E (tau := C.tauRule R n) (Std.le_of_lt hKα) htau hi).2
    exact mass_le_errRule_unbounded R E hE' hbnd hK hc hk hm

/-- Lemma 7 (lookup, unbounded regime, future mask) read off a certified head: target `i + 1`. -/
theorem facts_lkFut (R : RatEmb α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α}
    (hinv : Inv C w n d (l - 1) x) (hroles : C.spans.length = d)
    (hK : 0 < C.K) (hc : 0 < C.c) (hk : 0 < C.expK)
    {hw : HeadW} {hd : HeadD} (hok : headOKSel C l hw hd = true) (hfam : hd.fam = .lkFut) (hsel : hd.sel = none)
    {i : Nat} (hin : i + 1 < n) :
    GapFacts R C (score R hw x i) n (n - 1 - i) (tiebreakFutureTarget (selFn C w n hd.sel) n i) := by
  have hbnd : C.bounded = false := by have := bounded_of_ok hok; rw [hfam] at this; cases hb : C.bounded <;> simp_all [Family.inRegime]
  have hmask : hw.mask = .strictAnti := by rw [mask_of_ok hok, hfam]; rfl
  have hTe : tiebreakFutureTarget (selFn C w n hd.sel) n i = 0 := by rw [hsel]; exact target_none_fut n i
  rw [hTe]
  obtain ⟨tm, htm, hs⟩ := score_tm R hok
  unfold scoreTemplate at htm
  rw [hfam] at htm
  cases ho : featCoord C .one (l - 1) <;> cases hp : featCoord C .idx (l - 1) <;> cases hq : featCoord C .idxSq (l - 1) <;>
    simp only [ho, hp, hq, reduceCtorEq, Option.some.injEq] at htm
  next o p q =>
  obtain ⟨hro, hod⟩ := featCoord_sound ho
  obtain ⟨hrp, hpd⟩ := featCoord_sound hp
  obtain ⟨hrq, hqd⟩ := featCoord_sound hq
  rw [hroles] at hod hpd hqd
  have hKα : (0 : α) < R.cast C.K := by rw [← R.map_zero]; exact R.map_lt hK
  have hscore : ∀ k, k < n - 1 - i → score R hw x i k = lookupScore (R.cast C.K) (i + 1) (i + 1 + k) := by
    intro k hki
    rw [hs x i k, ← htm, hmask]
    simp only [Mask.key, lsum_cons, lsum_nil, dotv_cons, dotv_nil]
    have hxo : x i o = 1 := by rw [inv_feat hinv hro hod (by omega)]; rfl
    have hxp : x i p = natCast i := by rw [inv_feat hinv hrp hpd (by omega)]; rfl
    have hxpk : x (i + 1 + k) p = natCast (i + 1 + k) := by rw [inv_feat hinv hrp hpd (by omega)]; rfl
    have hxq : x (i + 1 + k) q = natCast (i + 1 + k) * natCast (i + 1 + k) := by rw [inv_feat hinv hrq hqd (by omega)]; rfl
    rw [hxo, hxp, hxpk, hxq, R.map_one, R.map_mul, R.map_neg]
    have h2 : R.cast 2 = (2 : α) := R.map_two
    rw [h2]
    unfold lookupScore
    rw [natCast_succ]
    grind
  have hT : 0 < n - 1 - i := by omega
  refine ⟨hT, fun k hk hne => ?_, fun E hE' => ?_⟩
  · have hg := (lookup_future constExp (Std.le_of_lt hKα) Lean.Grind.OrderedRing.zero_lt_one hin).1 k hk hne
    rw [hscore k hk, hscore _ hT]
    generalize lookupScore (R.cast C.K) (i + 1) (i + 1 + k) = a at hg ⊢
    generalize lookupScore (R.cast C.K) (i + 1) (i + 1 + 0) = b at hg ⊢
    grind
  · have htau := (exponent_unbounded (n := n) R hbnd hK hc).1
    rw [mass_congr E hscore hT]
    have hm := (lookup_future E (tau := C.tauRule R n) (Std.le_of_lt hKα) htau hin).2
    exact mass_le_errRule_unbounded R E hE' hbnd hK hc hk hm

/-- A lookup family's value terms have no select. -/
theorem sel_none_of_lookup {C : Cert} {hd : HeadD} {t : TermD} (hk : termKindOK C hd t = true)
    (hf : hd.fam.tiebreak = false) : hd.sel = none := by
  unfold termKindOK at hk
  cases hs : hd.sel with
  | none => rfl
  | some b =>
    rw [hs] at hk
    cases hn : nodeAt C.prog t.node <;> rw [hn] at hk <;> simp [hf] at hk

/-- From a family's gap facts and the node's meaning at the target: the term's hard output is the
node's value, its soft output (at the rule) is `≥ 0` and within `errRule` of it. -/
theorem term_of_facts (R : RatEmb α) {C : Cert} {hw : HeadW} {x : Acts α} {w : List Nat} {n i T : Nat} {t : TermD}
    (hf : GapFacts R C (score R hw x i) n (hw.mask.count n i) T)
    (hsem : holds C.prog w n t.node i ↔ holds C.prog w n t.src (hw.mask.key i T)) :
    termOut R .hard C hw x w n i t = ind (holds C.prog w n t.node i) ∧
      ∀ E : ExpLike α, E.Tangent →
        0 ≤ termOut R (.soft E (C.tauRule R n)) C hw x w n i t ∧
          absv (termOut R (.soft E (C.tauRule R n)) C hw x w n i t - ind (holds C.prog w n t.node i)) ≤ R.cast C.errRule := by
  obtain ⟨hT, hgap, hmass⟩ := hf
  have hind : ind (holds C.prog w n t.node i) = (ind (holds C.prog w n t.src (hw.mask.key i T)) : α) := by
    rw [propext hsem]
  refine ⟨?_, fun E hE' => ?_⟩
  · unfold termOut weights
    rw [hind]
    exact hard_out_eq (v := fun k => ind (holds C.prog w n t.src (hw.mask.key i k))) hT hgap
  · unfold termOut weights
    have hb := soft_out_bounds E (s := score R hw x i) (tau := C.tauRule R n)
      (v := fun k => ind (holds C.prog w n t.src (hw.mask.key i k))) hT (fun k _ => ind_cases _)
    rw [hind]
    exact ⟨hb.1, Std.le_trans hb.2 (hmass E hE')⟩

/-- With no visible key the term outputs `0`, which is the node's value when the node fails. -/
theorem term_of_empty (R : RatEmb α) {C : Cert} {hw : HeadW} {x : Acts α} {w : List Nat} {n i : Nat} {t : TermD}
    (h0 : hw.mask.count n i = 0) (hn : ¬ holds C.prog w n t.node i) (mode : Mode α) :
    termOut R mode C hw x w n i t = ind (holds C.prog w n t.node i) := by
  unfold termOut; rw [h0, sumTo_zero]; unfold ind; rw [if_neg hn]

/-- Every value term of a head the checker accepts: its hard output is the 0/1 value of the node it
serves at `i`; its soft output at the temperature rule is `≥ 0` and within `errRule` of it. -/
theorem term_spec (R : RatEmb α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α}
    (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d) (hroles : C.spans.length = d)
    (hsym : ∀ k, k < n → w.getD k 0 < C.nsym)
    (hK : 0 < C.K) (hc : 0 < C.c) (hk : 0 < C.expK)
    {hw : HeadW} {hd : HeadD} (hok : headOKSel C l hw hd = true) {t : TermD} (ht : t ∈ hd.terms)
    {i : Nat} (hi : i < n) :
    termOut R .hard C hw x w n i t = ind (holds C.prog w n t.node i) ∧
      ∀ E : ExpLike α, E.Tangent →
        0 ≤ termOut R (.soft E (C.tauRule R n)) C hw x w n i t ∧
          absv (termOut R (.soft E (C.tauRule R n)) C hw x w n i t - ind (holds C.prog w n t.node i)) ≤ R.cast C.errRule := by
  obtain ⟨_, _, _, hkind⟩ := term_of_ok hok ht
  have hmask := mask_of_ok hok
  have empty : hw.mask.count n i = 0 → ¬ holds C.prog w n t.node i →
      termOut R .hard C hw x w n i t = ind (holds C.prog w n t.node i) ∧
      ∀ E : ExpLike α, E.Tangent →
        0 ≤ termOut R (.soft E (C.tauRule R n)) C hw x w n i t ∧
          absv (termOut R (.soft E (C.tauRule R n)) C hw x w n i t - ind (holds C.prog w n t.node i)) ≤ R.cast C.errRule := by
    intro h0 hn
    refine ⟨term_of_empty R h0 hn _, fun E hE' => ?_⟩
    rw [term_of_empty R h0 hn _]
    unfold ind; rw [if_neg hn]
    refine ⟨Std.le_refl _, ?_⟩
    have : absv ((0 : α) - 0) = 0 := by rw [show (0 : α) - 0 = 0 by grind]; unfold absv; rw [if_pos (Std.le_refl _)]
    rw [this]
    exact Std.le_trans (Std.le_of_lt (E.pos _)) (exp_neg_le_errRule R E hE' C (gamma_nonneg R hK hc) hk)
  cases hfam : hd.fam with
  | cnt _ _ | sign _ _ _ | plk _ _ _ _ | plkN _ _ _ _ =>
    obtain ⟨tm, htm, _⟩ := score_tm R hok
    rw [hfam] at htm; simp [scoreTemplate] at htm
  | tbPastB | tbPastU | lkPast =>
    have hp : hd.fam.past = true := by rw [hfam]; rfl
    have hm : hw.mask = .strict := by rw [hmask, hfam]; rfl
    obtain ⟨hsem, hsem0⟩ := past_sem hsym hkind hp (Nat.le_of_lt hi)
    by_cases h0 : i = 0
    · exact empty (by rw [hm]; show i = 0; exact h0) (hsem0 h0)
    · have hi0 : 0 < i := by omega
      have hcount : hw.mask.count n i = i := by rw [hm]; rfl
      have hkey : hw.mask.key i (tiebreakPastTarget (selFn C w n hd.sel) i) = tiebreakPastTarget (selFn C w n hd.sel) i := by
        rw [hm]; rfl
      refine term_of_facts R (T := tiebreakPastTarget (selFn C w n hd.sel) i) ?_ (by rw [hkey]; exact hsem hi0)
      rw [hcount]
      first
        | exact facts_tbPastB R hinv hE hcrd hroles hK hc hk hok hfam hi0 hi
        | exact facts_tbPastU R hinv hE hcrd hroles hK hc hk hok hfam hi0 hi
        | exact facts_lkPast R hinv hroles hK hc hk hok hfam (sel_none_of_lookup hkind (by rw [hfam]; rfl)) hi0 hi
  | tbFutB | tbFutU | lkFut =>
    have hp : hd.fam.past = false := by rw [hfam]; rfl
    have hm : hw.mask = .strictAnti := by rw [hmask, hfam]; rfl
    obtain ⟨hsem, hsem0⟩ := fut_sem hsym hkind hp (i := i)
    by_cases h0 : n ≤ i + 1
    · exact empty (by rw [hm]; show n - 1 - i = 0; omega) (hsem0 h0)
    · have hin : i + 1 < n := by omega
      have hcount : hw.mask.count n i = n - 1 - i := by rw [hm]; rfl
      have hkey : hw.mask.key i (tiebreakFutureTarget (selFn C w n hd.sel) n i)
          = i + 1 + tiebreakFutureTarget (selFn C w n hd.sel) n i := by rw [hm]; rfl
      refine term_of_facts R (T := tiebreakFutureTarget (selFn C w n hd.sel) n i) ?_ (by rw [hkey]; exact hsem hin)
      rw [hcount]
      first
        | exact facts_tbFutB R hinv hE hcrd hroles hK hc hk hok hfam hin
        | exact facts_tbFutU R hinv hE hcrd hroles hK hc hk hok hfam hin
        | exact facts_lkFut R hinv hroles hK hc hk hok hfam (sel_none_of_lookup hkind (by rw [hfam]; rfl)) hin

/-! ### The sign head (comparison of counts) -/

/-- The sign head's value at key `j`: `(1 + p_j)/2`, `1` on the even keys and `0` on the odd ones. -/
noncomputable def evenVal (j : Nat) : α := if j % 2 = 0 then 1 else 0

/-- The sign head's value is `[o V > 0]` on the selected parity group and within `1` of it off it. -/
theorem evenVal_group (b : Bool) (j : Nat) :
    (signGroup b j = true → (evenVal j : α) = if b then 1 else 0) ∧
      (signGroup b j = false → absv ((evenVal j : α) - (if b then 1 else 0)) ≤ 1) := by
  unfold evenVal signGroup
  constructor
  · intro h
    cases b <;> rcases Nat.mod_two_eq_zero_or_one j with hj | hj <;> simp [hj] at h ⊢
  · intro h
    unfold absv
    cases b <;> rcases Nat.mod_two_eq_zero_or_one j with hj | hj <;> simp [hj] at h ⊢ <;> grind

/-- Comparison (the sign head), average-hard: scores `K o V p_j` with `o V = ±q`,
`q = (2m+1)/(2D)`, `1 ≤ D ≤ n`, `K > 0`, over `n` keys (`n ≥ 2` when `o V < 0`: an odd key
exists), over the values `[j even]`: the head outputs `[o V > 0]` exactly. -/
theorem sign_out_hard {K : α} (hK : 0 < K) (b : Bool) {m D n : Nat} (hD : 0 < D) (hDn : D ≤ n)
    (hn : b = true ∨ 2 ≤ n) :
    sumTo (fun j => ahard (signScore K ((if b then 1 else -1) * (natCast (2 * m + 1) / (2 * natCast D)))) n j
      * evenVal j) n = if b then 1 else 0 := by
  have hg := sign_gap_bounded (m := m) (Std.le_of_lt hK) hD hDn
  have hpos := (rule_tau_pos (α := α) hK (show 0 < n by omega)).1
  generalize (natCast (2 * m + 1) / (2 * natCast D) : α) = q at *
  have hγ : 0 < 2 * K * q := Std.lt_of_lt_of_le hpos hg
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

/-- Comparison (the sign head, bounded regime), softmax at the certificate's rule (`τ = c/n`, or
the mixed comparisons' `c / (n^2 max(n-1, 1)) ≤ c/n`): over `n ≥ 2` keys, for any `q > 0` whose
gap `2Kq` is at least `K/n`, the head's output is within `2 errRule` of `[o V > 0]`. -/
theorem sign_out_soft_bounded_q (R : RatEmb α) (E : ExpLike α) (hE : E.Tangent) {C : Cert} (hb : C.bounded = true)
    (hK : 0 < C.K) (hc : 0 < C.c) (hk : 0 < C.expK) (b : Bool) {q : α} {n : Nat} (hn2 : 2 ≤ n)
    (hq : R.cast C.K / natCast n ≤ 2 * R.cast C.K * q) :
    absv (sumTo (fun j => softmax E (C.tauRule R n) (signScore (R.cast C.K) ((if b then 1 else -1) * q)) n j
        * evenVal j) n - (if b then 1 else 0)) ≤ 2 * R.cast C.errRule := by
  have hγ := exp_neg_le_errRule R E hE C (gamma_nonneg R hK hc) hk
  obtain ⟨htau, hex⟩ := exponent_bounded R hb hK hc (n := n) (by omega)
  refine Std.le_trans (softmax_output_err_le_offMass E (isMax := signGroup b) (by omega)
    (fun j _ hj => (evenVal_group b j).1 hj) (fun j _ hj => (evenVal_group b j).2 hj)) ?_
  have h := sign_offMass_le E (s := signScore (R.cast C.K) ((if b then 1 else -1) * q)) (smax := R.cast C.K * q)
    (gamma := 2 * R.cast C.K * q) (n := n) b hn2 htau
    (fun j _ hj => (signScore_group (R.cast C.K) q b j).1 hj)
    (fun j _ hj => by rw [(signScore_group (R.cast C.K) q b j).2 hj] <;> exact Std.le_refl _)
  have hm := Std.le_trans (E.mono _ _ (hex _ hq)) hγ
  refine Std.le_trans h ?_
  generalize E.exp (-(2 * R.cast C.K * q) / C.tauRule R n) = a at *
  grind

/-- Comparison (the sign head, bounded regime), softmax at the certificate's rule: over `n ≥ 2`
keys, the head's output is within `2 errRule` of `[o V > 0]`. -/
theorem sign_out_soft_bounded (R : RatEmb α) (E : ExpLike α) (hE : E.Tangent) {C : Cert} (hb : C.bounded = true)
    (hK : 0 < C.K) (hc : 0 < C.c) (hk : 0 < C.expK) (b : Bool) {m D n : Nat} (hD : 0 < D) (hDn : D ≤ n) (hn2 : 2 ≤ n) :
    absv (sumTo (fun j => softmax E (C.tauRule R n)
        (signScore (R.cast C.K) ((if b then 1 else -1) * (natCast (2 * m + 1) / (2 * natCast D)))) n j * evenVal j) n
      - (if b then 1 else 0)) ≤ 2 * R.cast C.errRule := by
  have hKα : (0 : α) ≤ R.cast C.K := by rw [← R.map_zero]; exact R.map_le _ _ (Rat.le_of_lt hK)
  exact sign_out_soft_bounded_q R E hE hb hK hc hk b hn2 (sign_gap_bounded (m := m) hKα hD hDn)

/-- Comparison (the sign head, unbounded regime: scores `K o V n p_j`), average-hard: the head
outputs `[o V > 0]` exactly (as `sign_out_hard`, with `K n` for `K`). -/
theorem sign_out_hard_unbounded {K : α} (hK : 0 < K) (b : Bool) {m D n : Nat} (hD : 0 < D) (hDn : D ≤ n)
    (hn : b = true ∨ 2 ≤ n) :
    sumTo (fun j => ahard (signScoreUnbounded K ((if b then 1 else -1) * (natCast (2 * m + 1) / (2 * natCast D))) n) n j
      * evenVal j) n = if b then 1 else 0 := by
  have e : signScoreUnbounded K ((if b then 1 else -1) * (natCast (2 * m + 1) / (2 * natCast D))) n
      = signScore (K * natCast n) ((if b then 1 else -1) * (natCast (2 * m + 1) / (2 * natCast D))) := by
    funext j; unfold signScoreUnbounded signScore; grind
  rw [e]
  have hn1 := one_le_natCast_of_pos (α := α) (show 0 < n by omega)
  have hKn : 0 < K * natCast n := by
    have := Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_left hn1 (Std.le_of_lt hK)
    grind
  exact sign_out_hard hKn b hD hDn hn

/-- Comparison (the sign head, unbounded regime), softmax at the certificate's rule `τ = 1`: over
`n ≥ 2` keys, the head's output is within `2 errRule` of `[o V > 0]`. -/
theorem sign_out_soft_unbounded (R : RatEmb α) (E : ExpLike α) (hE : E.Tangent) {C : Cert} (hb : C.bounded = false)
    (hK : 0 < C.K) (hc : 0 < C.c) (hk : 0 < C.expK) (b : Bool) {m D n : Nat} (hD : 0 < D) (hDn : D ≤ n) (hn2 : 2 ≤ n) :
    absv (sumTo (fun j => softmax E (C.tauRule R n)
        (signScoreUnbounded (R.cast C.K) ((if b then 1 else -1) * (natCast (2 * m + 1) / (2 * natCast D))) n) n j
          * evenVal j) n
      - (if b then 1 else 0)) ≤ 2 * R.cast C.errRule := by
  have hKα : (0 : α) ≤ R.cast C.K := by rw [← R.map_zero]; exact R.map_le _ _ (Rat.le_of_lt hK)
  have h := sign_head_unbounded E (tau := C.tauRule R n) (m := m) b hKα (exponent_unbounded R hb hK hc).1 hD hDn hn2
  have he := mass_le_errRule_unbounded R E hE hb hK hc hk (n := n) (Std.le_refl _)
  refine Std.le_trans (softmax_output_err_le_offMass E (isMax := signGroup b) (by omega)
    (fun j _ hj => (evenVal_group b j).1 hj) (fun j _ hj => (evenVal_group b j).2 hj)) ?_
  refine Std.le_trans h ?_
  generalize E.exp (-R.cast C.K / C.tauRule R n) = a at *
  grind

end Heads

end HardSoft.Cert

end
