module

public import HardSoft.Cert.Mixed

/-!
# Certificates, part 10: one layer keeps the invariant

A layer the checker accepts (`layerOK`) maps activations that hold their roles' values at
boundary `l - 1` to activations that hold them at boundary `l`, in average-hard mode and in soft
mode at the temperature rule (`layer_step`): every coordinate no head and no unit writes keeps its
value; an attended node's coordinate receives its head's raw output, which its clamp and eraser
turn into the exact 0/1 value; a table or gate node's coordinate receives its exact value from
inputs that are exact or within `errRule` of theirs (`2 errRule` for a sign head's). For an
inclusive comparison of counts: a count head's target receives the comparison's `V` exactly
(`cnt_part_val`), a sign head's node is attended like any other (its raw output within
`2 errRule`, `raw_bound`), and the two `W` units write `W = [n = 1 and g fails]` (`val_lower`
bounds `V` from below for `n ≥ 2`). For a bounded mixed comparison: the `scale` and `vpre` units write
`y/n` and `(r - 1/2)/n` exactly (`scale_step`, `vpre_step`), and the position lookups aimed at its `V`
add `Σ_k c_k copy_k / n`, within `Σ|c_k| copyErr / n ≤ 1/(4n)` of `(A - 1/2)/n` (`vmix_val`: the served
terms are the comparison's, `termPerm_cmpSum`), the approximate conjunct of `Inv`.

## Main results

* `HardSoft.Cert.heads_out_zero`, `HardSoft.Cert.heads_out_target`, `HardSoft.Cert.raw_bound`,
  `HardSoft.Cert.cnt_part_val`, `HardSoft.Cert.val_lower`, `HardSoft.Cert.vmix_val`, `HardSoft.Cert.layer_step`.
-/

@[expose] public section

set_option autoImplicit false

namespace HardSoft.Cert

section Step

open Classical

variable {α : Type} [Lean.Grind.Field α] [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α]
  [Lean.Grind.OrderedRing α]

/-- `nodupNat` of a cons. -/
theorem nodupNat_cons {x : Nat} {t : List Nat} (h : nodupNat (x :: t) = true) : x ∉ t ∧ nodupNat t = true := by
  change (!t.contains x && nodupNat t) = true at h
  simp only [Bool.and_eq_true, Bool.not_eq_true'] at h
  refine ⟨fun hx => ?_, h.2⟩
  have : t.contains x = true := List.contains_iff_mem.mpr hx
  rw [h.1] at this; exact absurd this (by decide)

/-- A sum whose terms vanish off the one element with key `c` (keys without repeats) is that
element's term. -/
theorem lsum_key_unique {β : Type} (key : β → Nat) (f : β → α) {c : Nat} :
    ∀ (l : List β) (q0 : β), nodupNat (l.map key) = true → q0 ∈ l → key q0 = c →
      lsum l (fun q => if key q = c then f q else 0) = f q0
  | [], _, _, hq, _ => absurd hq (by simp)
  | q :: t, q0, hnd, hq, hk => by
    simp only [List.map_cons] at hnd
    obtain ⟨hnot, hnd'⟩ := nodupNat_cons hnd
    rw [lsum_cons]
    simp only [List.mem_cons] at hq
    by_cases hqc : key q = c
    · rw [if_pos hqc]
      rcases hq with hq | hq
      · rw [← hq]
        rw [lsum_zero (fun e he => by
          rw [if_neg (fun he' => hnot (by rw [hqc, ← he']; exact List.mem_map.mpr ⟨e, he, rfl⟩))])]
        grind
      · exact absurd (List.mem_map.mpr ⟨q0, hq, by rw [hk, hqc]⟩) hnot
    · rw [if_neg hqc]
      rcases hq with hq | hq
      · rw [← hq] at hqc; exact absurd hk hqc
      · rw [lsum_key_unique key f t q0 hnd' hq hk]; grind

/-- A sum over a zip of equal-length lists of a function of the first component. -/
theorem lsum_zip_fst {β γ : Type} (f : β → α) : ∀ (a : List β) (b : List γ), a.length = b.length →
    lsum (a.zip b) (fun p => f p.1) = lsum a f
  | [], [], _ => rfl
  | x :: a, y :: b, h => by
    simp only [List.zip_cons_cons, lsum_cons]
    rw [lsum_zip_fst f a b (by simpa using h)]
  | [], _ :: _, h => by simp at h
  | _ :: _, [], h => by simp at h

/-- A sum over a `flatMap`. -/
theorem lsum_flatMap {β γ : Type} (l : List β) (g : β → List γ) (f : γ → α) :
    lsum (l.flatMap g) f = lsum l (fun b => lsum (g b) f) := by
  induction l with
  | nil => rfl
  | cons b t ih => rw [List.flatMap_cons, lsum_append, lsum_cons, ih]

/-- The value terms of a layer, each with its head's weights. -/
noncomputable def flatTerms (LW : LayerW) (LD : LayerD) : List (HeadW × HeadD × TermD) :=
  (LW.heads.zip LD.heads).flatMap (fun p => p.2.terms.map (fun t => (p.1, p.2, t)))

/-- The nodes of the flattened terms are the layer's attended nodes. -/
theorem flatTerms_nodes {LW : LayerW} {LD : LayerD} (hlen : LW.heads.length = LD.heads.length) :
    (flatTerms LW LD).map (fun q => q.2.2.node) = attended LD := by
  unfold flatTerms attended
  rw [List.map_flatMap]
  simp only [List.map_map]
  generalize LW.heads = a at hlen
  generalize LD.heads = b at hlen
  induction a generalizing b with
  | nil => cases b <;> simp_all
  | cons x a ih =>
    cases b with
    | nil => simp at hlen
    | cons y b =>
      simp only [List.zip_cons_cons, List.flatMap_cons]
      rw [ih b (by simpa using hlen)]
      simp [Function.comp_def]

/-- A flattened term comes from a pair of the layer's head weights and description. -/
theorem mem_flatTerms {LW : LayerW} {LD : LayerD} {q : HeadW × HeadD × TermD} (hq : q ∈ flatTerms LW LD) :
    (q.1, q.2.1) ∈ LW.heads.zip LD.heads ∧ q.2.2 ∈ q.2.1.terms := by
  unfold flatTerms at hq
  obtain ⟨p, hp, hq'⟩ := List.mem_flatMap.mp hq
  obtain ⟨t, ht, rfl⟩ := List.mem_map.mp hq'
  exact ⟨hp, ht⟩

/-- What `layerOK` says, piece by piece. -/
theorem layerOK_parts {C : Cert} {d l : Nat} {LW : LayerW} {LD : LayerD} (h : layerOK C d l LW LD = true) :
    LW.heads.length = LD.heads.length ∧
    (∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true) ∧
    targetsOK C LD l d = true ∧ groupsOK C LD l LD.groups LW.units = true ∧
    (∀ c, svGet LW.b2 c = b2Expected C LD.groups c) ∧ countsOK C LD = true ∧ plkNOK C LD = true := by
  unfold layerOK at h
  simp only [Bool.and_eq_true, beq_iff_eq] at h
  obtain ⟨⟨⟨⟨⟨⟨⟨_, hlen⟩, hheads⟩, hcnt⟩, htg⟩, hgr⟩, hb2⟩, hpk⟩ := h
  refine ⟨hlen, fun p hp => List.all_eq_true.mp hheads p hp, htg, hgr, fun c => ?_, hcnt, hpk⟩
  by_cases hc : c ∈ LW.b2.map (·.1) ++ LD.groups.map (GroupD.target C)
  · have := List.all_eq_true.mp hb2 c hc; simpa using this
  · simp only [List.mem_append, not_or] at hc
    rw [svGet_of_not_mem hc.1]
    unfold b2Expected groupsAt
    have : LD.groups.filter (fun G => G.target C == c) = [] := by
      rw [List.filter_eq_nil_iff]
      intro G hG hb
      exact hc.2 (List.mem_map.mpr ⟨G, hG, by simpa using hb⟩)
    rw [this]; rfl

/-- A sum over a list equals the sum over the elements a filter keeps, when the others add `0`. -/
theorem lsum_filter_eq {β : Type} {l : List β} {p : β → Bool} {f : β → α} (h0 : ∀ e, e ∈ l → p e = false → f e = 0) :
    lsum l f = lsum (l.filter p) f := by
  induction l with
  | nil => rfl
  | cons e t ih =>
    rw [lsum_cons]
    by_cases hp : p e = true
    · rw [List.filter_cons_of_pos hp, lsum_cons, ih (fun x hx => h0 x (by simp [hx]))]
    · rw [List.filter_cons_of_neg hp, h0 e (by simp) (by simpa using hp), ih (fun x hx => h0 x (by simp [hx]))]
      grind

/-- The raw output of a value term: its head's output at the term's coordinate (a sign head), or
the weighted copy of its source (a selecting head). -/
noncomputable def rawOut (R : RatEmb α) (mode : Mode α) (C : Cert) (hw : HeadW) (hd : HeadD) (x : Acts α)
    (w : List Nat) (n i : Nat) (t : TermD) : α :=
  match hd.fam with
  | .sign _ _ _ => headOut R mode hw x n i (C.crd t.node)
  | _ => termOut R mode C hw x w n i t

/-- A count head's output at coordinate `c` (`0` for the other heads). -/
noncomputable def cntOut (R : RatEmb α) (mode : Mode α) (hw : HeadW) (hd : HeadD) (x : Acts α) (n i c : Nat) : α :=
  match hd.fam with
  | .cnt _ _ => headOut R mode hw x n i c
  | _ => 0

/-- A position lookup's output at coordinate `c`: its copy if `c` is its copy coordinate (`0` for
the other heads). -/
noncomputable def plkPart (R : RatEmb α) (mode : Mode α) (hw : HeadW) (hd : HeadD) (x : Acts α) (n i c : Nat) : α :=
  match hd.fam with
  | .plk _ _ _ cc => if cc = c then plkOut R mode hw x n i else 0
  | _ => 0

/-- The copy coordinate of a head (none unless a position lookup). -/
noncomputable def copyOf (hd : HeadD) : List Nat :=
  match hd.fam with
  | .plk _ _ _ cc => [cc]
  | _ => []

/-- The copies of a layer through `copyOf`. -/
theorem plkCopies_eq (LD : LayerD) : plkCopies LD = LD.heads.flatMap copyOf := by
  unfold plkCopies copyOf; rfl

/-- `plkPart` through `copyOf`. -/
theorem plkPart_eq (R : RatEmb α) (mode : Mode α) (hw : HeadW) (hd : HeadD) (x : Acts α) (n i c : Nat) :
    plkPart R mode hw hd x n i c = if copyOf hd = [c] then plkOut R mode hw x n i else 0 := by
  unfold plkPart copyOf
  split <;> simp

/-! ### Bounded mixed comparisons: the position lookups' `V` -/

/-- The `V` coordinates the bounded position lookups of a layer write. -/
noncomputable def plkNVcs (LD : LayerD) : List Nat := (plkNEnts LD).map (·.2.2.2)

/-- A bounded position lookup's output at coordinate `c`: each served comparison's coefficient times
the lookup's output, over the entries aimed at `c` (`0` for the other heads). -/
noncomputable def plkNPart (R : RatEmb α) (mode : Mode α) (C : Cert) (hw : HeadW) (hd : HeadD) (x : Acts α)
    (n i c : Nat) : α :=
  match hd.fam with
  | .plkN dir y _ vs => lsum vs (fun e => if e.2 = c then icast (termCoef C.prog e.1 dir y) * plkNOut R mode hw x n i else 0)
  | _ => 0


/-- What every sign head the checker accepts has: one term, one value column, its node's coordinate
as its one output row, free before the layer and the node's after it. -/
theorem sign_common {C : Cert} {l : Nat} {hw : HeadW} {hd : HeadD} {o : Bool} {vc : Nat} {wc : Option Nat}
    (hok : signHeadOK C l hw hd o vc wc = true) :
    ∃ t v, hd.terms = [t] ∧ sameCols hw.v [v] = true ∧ sameCols hw.o [[(C.crd t.node, 1)]] = true ∧
      C.roleAt (C.crd t.node) (l - 1) = .zero ∧ C.roleAt (C.crd t.node) l = .node t.node := by
  cases hwc : wc with
  | some w =>
    obtain ⟨-, t, w0, one, par, kp, hterms, -, -, -, -, -, hz, hn, -, -, -, -, -, hv, ho⟩ :=
      sign_facts hok (by rw [hwc]; rfl)
    exact ⟨t, _, hterms, hv, ho, hz, hn⟩
  | none =>
    obtain ⟨-, t, one, par, kp, hterms, -, -, -, hz, hn, -, -, -, -, -, hv, ho⟩ := sign_facts_strict hok hwc
    exact ⟨t, _, hterms, hv, ho, hz, hn⟩

/-- A head the checker accepts outputs, at coordinate `c`, its value terms aimed at `c` plus (a
count head) its count columns. -/
theorem head_decomp (R : RatEmb α) (mode : Mode α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α}
    (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d) (hroles : C.spans.length = d)
    {hw : HeadW} {hd : HeadD} (hok : headOK C l hw hd = true) {i : Nat} (hi : i < n) (c : Nat) :
    headOut R mode hw x n i c
      = lsum hd.terms (fun t => if C.crd t.node = c then rawOut R mode C hw hd x w n i t else 0)
        + cntOut R mode hw hd x n i c + plkPart R mode hw hd x n i c + plkNPart R mode C hw hd x n i c := by
  unfold headOK at hok
  cases hfam : hd.fam with
  | cnt dir ts =>
    rw [hfam] at hok
    obtain ⟨-, hterms, -⟩ := cnt_facts hok
    simp only [cntOut, plkPart, plkNPart, hfam, hterms, lsum_nil]; grind
  | plkN dir y ac vs =>
    rw [hfam] at hok
    have hterms := (plkN_facts hok).2.2.2.2.1
    rw [plkN_head_out R mode hinv hroles hok hi c]
    simp only [cntOut, plkPart, plkNPart, hfam, hterms, lsum_nil]; grind
  | plk dir y ac cc =>
    rw [hfam] at hok
    have hterms := (plk_facts hok).2.2.2.2.1
    rw [plk_head_out R mode hinv hroles hok hi c]
    simp only [cntOut, plkPart, plkNPart, hfam, hterms, lsum_nil]; grind
  | sign o vc wc =>
    rw [hfam] at hok
    obtain ⟨t, v0, hterms, hv, ho, -, -⟩ := sign_common hok
    simp only [cntOut, plkPart, plkNPart, rawOut, hfam, hterms, lsum_cons, lsum_nil]
    by_cases hc : C.crd t.node = c
    · rw [if_pos hc, hc]; grind
    · rw [if_neg hc, headOut_cols, lsum_zip_sameCols hv ho (fun v o (_ : Unit) => colOut R mode hw x n i v * R.cast (svGet o c))
        (fun v v' o o' _ h1 h2 => by dsimp only; rw [colOut_congr R mode hw x n i h1, h2]) ()]
      simp only [List.zip_cons_cons, List.zip_nil_right, lsum_cons, lsum_nil, svGet, if_neg hc, Rat.add_zero, R.map_zero]
      grind
  | tbPastB | tbFutB | tbPastU | tbFutU | lkPast | lkFut =>
    rw [hfam] at hok
    have hsel : headOKSel C l hw hd = true := hok
    rw [headOut_eq R mode hinv hE hcrd hsel hi c]
    simp only [cntOut, plkPart, plkNPart, rawOut, hfam]
    have e : ∀ t : TermD, termOut R mode C hw x w n i t * (if C.crd t.node = c then 1 else 0)
        = if C.crd t.node = c then termOut R mode C hw x w n i t else 0 := by
      intro t; split <;> grind
    rw [lsum_congr (fun t _ => e t)]; grind

/-- A flatMap over a zip of equal-length lists, of a function of the second component. -/
theorem flatMap_zip_snd {β γ δ : Type} (f : γ → List δ) : ∀ (a : List β) (b : List γ), a.length = b.length →
    (a.zip b).flatMap (fun p => f p.2) = b.flatMap f
  | [], [], _ => rfl
  | x :: a, y :: b, h => by
    simp only [List.zip_cons_cons, List.flatMap_cons]
    rw [flatMap_zip_snd f a b (by simpa using h)]
  | [], _ :: _, h => by simp at h
  | _ :: _, [], h => by simp at h

/-- The count columns of a count head (none for the other heads). -/
noncomputable def colsOf (hd : HeadD) : List CntD :=
  match hd.fam with
  | .cnt _ ts => ts
  | _ => []

/-- The heads' output at coordinate `c`: the value terms aimed at `c`, plus the count heads'. -/
theorem heads_out_eq (R : RatEmb α) (mode : Mode α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α}
    (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d) (hroles : C.spans.length = d)
    {LW : LayerW} {LD : LayerD}
    (hlen : LW.heads.length = LD.heads.length) (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true)
    {i : Nat} (hi : i < n) (c : Nat) :
    lsum LW.heads (fun h => headOut R mode h x n i c)
      = lsum (flatTerms LW LD) (fun q => if C.crd q.2.2.node = c then rawOut R mode C q.1 q.2.1 x w n i q.2.2 else 0)
        + lsum (LW.heads.zip LD.heads) (fun p => cntOut R mode p.1 p.2 x n i c)
        + lsum (LW.heads.zip LD.heads) (fun p => plkPart R mode p.1 p.2 x n i c)
        + lsum (LW.heads.zip LD.heads) (fun p => plkNPart R mode C p.1 p.2 x n i c) := by
  rw [← lsum_zip_fst (fun h => headOut R mode h x n i c) LW.heads LD.heads hlen]
  unfold flatTerms
  rw [lsum_flatMap, lsum_congr (fun p hp => head_decomp R mode hinv hE hcrd hroles (hh p hp) hi c), lsum_add, lsum_add,
    lsum_add]
  congr 3
  refine lsum_congr (fun p _ => ?_)
  rw [lsum_map]

/-- The position lookups write nothing into a coordinate that is no copy. -/
theorem plk_part_zero (R : RatEmb α) (mode : Mode α) {LW : LayerW} {LD : LayerD} (x : Acts α) (n i : Nat) {c : Nat}
    (hc : c ∉ plkCopies LD) :
    lsum (LW.heads.zip LD.heads) (fun p => plkPart R mode p.1 p.2 x n i c) = 0 := by
  refine lsum_zero (fun p hp => ?_)
  rw [plkPart_eq, if_neg (fun he => hc ?_)]
  rw [plkCopies_eq]
  exact List.mem_flatMap.mpr ⟨p.2, (List.of_mem_zip hp).2, by rw [he]; simp⟩

/-- `nodupNat` of an append. -/
theorem nodupNat_append {l1 l2 : List Nat} (h : nodupNat (l1 ++ l2) = true) :
    nodupNat l2 = true ∧ ∀ x, x ∈ l1 → x ∉ l2 := by
  induction l1 with
  | nil => exact ⟨h, fun x hx => absurd hx (by simp)⟩
  | cons a t ih =>
    rw [List.cons_append] at h
    obtain ⟨hnot, hnd⟩ := nodupNat_cons h
    obtain ⟨h1, h2⟩ := ih hnd
    refine ⟨h1, fun x hx => ?_⟩
    simp only [List.mem_cons] at hx
    rcases hx with rfl | hx
    · exact fun hm => hnot (List.mem_append_right t hm)
    · exact h2 x hx

/-- The position lookups write into a copy coordinate exactly its head's copy (copies without repeats). -/
theorem plk_part_at (R : RatEmb α) (mode : Mode α) (x : Acts α) (n i cc : Nat) :
    ∀ (a : List HeadW) (b : List HeadD), nodupNat (b.flatMap copyOf) = true →
      ∀ p0, p0 ∈ a.zip b → copyOf p0.2 = [cc] →
        lsum (a.zip b) (fun p => plkPart R mode p.1 p.2 x n i cc) = plkOut R mode p0.1 x n i
  | [], _, _, p0, hp, _ => by simp at hp
  | _ :: _, [], _, p0, hp, _ => by simp at hp
  | hw :: a, hd :: b, hnd, p0, hp, hc => by
    rw [List.flatMap_cons] at hnd
    obtain ⟨hnd', hdis⟩ := nodupNat_append hnd
    simp only [List.zip_cons_cons, List.mem_cons] at hp
    rw [List.zip_cons_cons, lsum_cons, plkPart_eq]
    rcases hp with rfl | hp
    · have hc' : copyOf hd = [cc] := hc
      have hnot := hdis cc (by rw [hc']; simp)
      rw [if_pos hc', lsum_zero (fun p hp' => by
        rw [plkPart_eq, if_neg (fun he => hnot (List.mem_flatMap.mpr ⟨p.2, (List.of_mem_zip hp').2, by rw [he]; simp⟩))])]
      grind
    · have hne : copyOf hd ≠ [cc] := fun he => hdis cc (by rw [he]; simp)
        (List.mem_flatMap.mpr ⟨p0.2, (List.of_mem_zip hp).2, by rw [hc]; simp⟩)
      rw [if_neg hne, plk_part_at R mode x n i cc a b hnd' p0 hp hc]
      grind

/-- The entries of a layer's bounded position lookups, each with its head's weights. -/
noncomputable def plkNFlat (LW : LayerW) (LD : LayerD) : List (HeadW × CountDir × Nat × Nat × Nat) :=
  (LW.heads.zip LD.heads).flatMap (fun p => match p.2.fam with
    | .plkN dir y _ vs => vs.map (fun e => (p.1, dir, y, e.1, e.2))
    | _ => [])

/-- The flattened entries are the checker's `plkNEnts`. -/
theorem plkNFlat_ents {LW : LayerW} {LD : LayerD} (hlen : LW.heads.length = LD.heads.length) :
    (plkNFlat LW LD).map (fun q => (q.2.1, q.2.2.1, q.2.2.2.1, q.2.2.2.2)) = plkNEnts LD := by
  unfold plkNFlat plkNEnts
  rw [List.map_flatMap, ← flatMap_zip_snd _ LW.heads LD.heads hlen]
  congr 1
  funext p
  cases hf : p.2.fam <;> simp [hf, Function.comp_def]

/-- The bounded position lookups' part of the heads' output, over the flattened entries. -/
theorem plkN_part_flat (R : RatEmb α) (mode : Mode α) (C : Cert) (LW : LayerW) (LD : LayerD) (x : Acts α) (n i c : Nat) :
    lsum (LW.heads.zip LD.heads) (fun p => plkNPart R mode C p.1 p.2 x n i c)
      = lsum (plkNFlat LW LD) (fun q => if q.2.2.2.2 = c
          then icast (termCoef C.prog q.2.2.2.1 q.2.1 q.2.2.1) * plkNOut R mode q.1 x n i else 0) := by
  unfold plkNFlat
  rw [lsum_flatMap]
  refine lsum_congr (fun p _ => ?_)
  unfold plkNPart
  cases hf : p.2.fam <;> simp only [lsum_nil, lsum_map]

/-- The bounded position lookups write nothing into a coordinate that is no `V` of theirs. -/
theorem plkN_part_zero (R : RatEmb α) (mode : Mode α) (C : Cert) {LW : LayerW} {LD : LayerD} (x : Acts α) (n i : Nat)
    {c : Nat} (hc : c ∉ plkNVcs LD) :
    lsum (LW.heads.zip LD.heads) (fun p => plkNPart R mode C p.1 p.2 x n i c) = 0 := by
  refine lsum_zero (fun p hp => ?_)
  unfold plkNPart
  cases hf : p.2.fam with
  | plkN dir y ac vs =>
    simp only
    refine lsum_zero (fun e he => if_neg (fun hec => hc ?_))
    unfold plkNVcs plkNEnts
    refine List.mem_map.mpr ⟨(dir, y, e.1, e.2), List.mem_flatMap.mpr ⟨p.2, (List.of_mem_zip hp).2, ?_⟩, hec⟩
    rw [hf]; exact List.mem_map.mpr ⟨e, he, rfl⟩
  | _ => rfl

/-- A flattened entry comes from a bounded position lookup the checker accepts. -/
theorem plkNFlat_mem {C : Cert} {l : Nat} {LW : LayerW} {LD : LayerD}
    (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true) {q : HeadW × CountDir × Nat × Nat × Nat}
    (hq : q ∈ plkNFlat LW LD) :
    ∃ hd ac vs, plkNHeadOK C l q.1 hd q.2.1 q.2.2.1 ac vs = true ∧ (q.2.2.2.1, q.2.2.2.2) ∈ vs := by
  unfold plkNFlat at hq
  obtain ⟨p, hp, hq'⟩ := List.mem_flatMap.mp hq
  have hok := hh p hp
  unfold headOK at hok
  cases hf : p.2.fam with
  | plkN dir y ac vs =>
    rw [hf] at hq' hok
    obtain ⟨e, he, rfl⟩ := List.mem_map.mp hq'
    exact ⟨p.2, ac, vs, hok, he⟩
  | _ => rw [hf] at hq'; simp at hq'

/-- A bounded position lookup's `V` holds `.vpre g` before the layer and `.vmix g` after it. -/
theorem plkN_vc_roles {C : Cert} {l : Nat} {LW : LayerW} {LD : LayerD} (hlen : LW.heads.length = LD.heads.length)
    (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true) {c : Nat} (hc : c ∈ plkNVcs LD) :
    ∃ g, C.roleAt c (l - 1) = .vpre g ∧ C.roleAt c l = .vmix g := by
  unfold plkNVcs at hc
  rw [← plkNFlat_ents hlen, List.map_map] at hc
  obtain ⟨q, hq, rfl⟩ := List.mem_map.mp hc
  obtain ⟨hd, ac, vs, hok, he⟩ := plkNFlat_mem hh hq
  exact ⟨q.2.2.2.1, ((plkN_facts hok).2.2.2.2.2.2.1 _ he)⟩

/-- A coordinate whose role after the layer is no `.vmix` is no bounded lookup's `V`. -/
theorem not_plkNVc {C : Cert} {l : Nat} {LW : LayerW} {LD : LayerD} (hlen : LW.heads.length = LD.heads.length)
    (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true) {c : Nat} (h : ∀ g, C.roleAt c l ≠ .vmix g) :
    c ∉ plkNVcs LD := fun hc => by
  obtain ⟨g, -, h1⟩ := plkN_vc_roles hlen hh hc
  exact h g h1

/-- `termEq` decides equality. -/
theorem termEq_eq {a b : Int × CountDir × Nat} (h : termEq a b = true) : a = b := by
  obtain ⟨a1, a2, a3⟩ := a
  obtain ⟨b1, b2, b3⟩ := b
  unfold termEq at h
  simp only [Bool.and_eq_true, beq_iff_eq] at h
  obtain ⟨⟨h1, h2⟩, h3⟩ := h
  rw [h1, dirEq_eq h2, h3]

/-- Removing a listed term from a comparison's sum. -/
theorem cmpSum_erase (cnt : Nat → CountDir → Nat) (a : Int × CountDir × Nat) :
    ∀ l : List (Int × CountDir × Nat), l.any (termEq a) = true →
      cmpSum cnt l = a.1 * (cnt a.2.2 a.2.1 : Int) + cmpSum cnt (termErase a l)
  | [], h => by simp at h
  | b :: l, h => by
    unfold termErase
    by_cases hb : termEq a b = true
    · rw [if_pos hb, termEq_eq hb]; rfl
    · rw [if_neg hb]
      have h' : l.any (termEq a) = true := by
        simp only [List.any_cons, Bool.or_eq_true] at h
        exact h.resolve_left hb
      simp only [cmpSum]
      rw [cmpSum_erase cnt a l h']
      grind

/-- Terms that are permutations of each other have the same sum. -/
theorem termPerm_cmpSum (cnt : Nat → CountDir → Nat) :
    ∀ l1 l2 : List (Int × CountDir × Nat), termPerm l1 l2 = true → cmpSum cnt l1 = cmpSum cnt l2
  | [], l2, h => by
    simp only [termPerm, List.isEmpty_iff] at h
    rw [h]
  | a :: l1, l2, h => by
    simp only [termPerm, Bool.and_eq_true] at h
    rw [cmpSum_erase cnt a l2 h.1, ← termPerm_cmpSum cnt l1 _ h.2]
    simp only [cmpSum]

/-- A sum of coefficients times counts over `N` is the comparison sum over `N`. -/
theorem lsum_cmpSum {β : Type} (cf : β → Int) (dq : β → CountDir) (xq : β → Nat) (cnt : Nat → CountDir → Nat) (N : α) :
    ∀ L : List β, lsum L (fun q => icast (cf q) * (natCast (cnt (xq q) (dq q)) / N))
      = icast (cmpSum cnt (L.map (fun q => (cf q, dq q, xq q)))) / N
  | [] => by
    simp only [List.map_nil, cmpSum, lsum_nil, (icast_facts (α := α)).1]
    grind
  | q :: L => by
    simp only [List.map_cons, cmpSum, lsum_cons]
    rw [lsum_cmpSum cf dq xq cnt N L, (icast_facts (α := α)).2.2.1, (icast_facts (α := α)).2.2.2,
      ← natCast_eq_intCast]
    grind


/-- The count columns of a count head, each with the head's direction (none for the other heads). -/
noncomputable def colsOfD (hd : HeadD) : List (CountDir × CntD) :=
  match hd.fam with
  | .cnt d ts => ts.map (fun t => (d, t))
  | _ => []

/-- The count columns of a layer, each with its head's direction. -/
noncomputable def cntColsD (LD : LayerD) : List (CountDir × CntD) := LD.heads.flatMap colsOfD

/-- The count columns of a layer are those of `cntColsD`. -/
theorem cntCols_eq (LD : LayerD) : cntCols LD = (cntColsD LD).map (·.2) := by
  unfold cntCols cntColsD
  rw [List.map_flatMap]
  congr 1
  funext hd
  unfold colsOfD
  cases hd.fam <;> simp [Function.comp_def]

/-- The count columns of a layer, through the zip of its heads' weights and descriptions. -/
theorem cntColsD_zip {LW : LayerW} {LD : LayerD} (hlen : LW.heads.length = LD.heads.length) :
    cntColsD LD = (LW.heads.zip LD.heads).flatMap (fun p => colsOfD p.2) := by
  rw [flatMap_zip_snd colsOfD LW.heads LD.heads hlen]
  rfl

/-- The count heads' output at `c`: `coef` times the column's value over the layer's count columns
aimed at `c`. -/
theorem cnt_part_eq (R : RatEmb α) (mode : Mode α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α}
    (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d) (hroles : C.spans.length = d)
    {LW : LayerW} {LD : LayerD}
    (hlen : LW.heads.length = LD.heads.length) (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true)
    {i : Nat} (hi : i < n) (c : Nat) :
    lsum (LW.heads.zip LD.heads) (fun p => cntOut R mode p.1 p.2 x n i c)
      = lsum (cntColsD LD) (fun td => if td.2.vc = c then R.cast td.2.coef * cntColVal C.prog w n i td.1 td.2 else 0) := by
  rw [cntColsD_zip hlen, lsum_flatMap]
  refine lsum_congr (fun p hp => ?_)
  have hok := hh p hp
  unfold headOK at hok
  unfold cntOut colsOfD
  cases hfam : p.2.fam with
  | cnt dir ts =>
    rw [hfam] at hok
    rw [cnt_head_out R mode hinv hE hcrd hroles hok hi c, lsum_map]
  | _ => rfl

/-- The facts of every count column of a layer. -/
theorem cntCols_facts {C : Cert} {l : Nat} {LW : LayerW} {LD : LayerD} (hlen : LW.heads.length = LD.heads.length)
    (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true) {td : CountDir × CntD} (ht : td ∈ cntColsD LD)
    (hav : td.2.avg = false) :
    cmpDir C.prog td.2.g = td.1 ∧ C.roleAt td.2.vc l = .val td.2.g ∧
      ((td.1 = .le ∧ inclusiveCmp C.prog td.2.g = true ∧ C.roleAt td.2.vc (l - 1) = .zero) ∨
       (td.1 ≠ .le ∧ strictCmp C.prog td.2.g = true ∧ C.roleAt td.2.vc (l - 1) = .pre td.2.g)) := by
  rw [cntColsD_zip hlen] at ht
  obtain ⟨p, hp, ht'⟩ := List.mem_flatMap.mp ht
  have hok := hh p hp
  unfold headOK at hok
  unfold colsOfD at ht'
  cases hfam : p.2.fam with
  | cnt dir ts =>
    rw [hfam] at hok ht'
    obtain ⟨t, htm, rfl⟩ := List.mem_map.mp ht'
    obtain ⟨hm, hl⟩ : _ ∧ _ := by
      rcases (cnt_facts hok).2.2.2.2.2.2 t htm with ⟨h, _⟩ | ⟨_, _, h⟩
      · rw [hav] at h; cases h
      · exact h
    refine ⟨?_, hl, ?_⟩
    · cases dir with
      | le => simp only [Bool.and_eq_true] at hm; exact cmpDir_of_incl hm.1
      | lt => simp only [Bool.and_eq_true] at hm; exact dirEq_eq hm.1.2
      | gt => simp only [Bool.and_eq_true] at hm; exact dirEq_eq hm.1.2
    · cases dir with
      | le => simp only [Bool.and_eq_true] at hm; exact Or.inl ⟨rfl, hm.1, Role.eq_of_beq hm.2⟩
      | lt => simp only [Bool.and_eq_true] at hm; exact Or.inr ⟨by simp, hm.1.1.2, Role.eq_of_beq hm.2⟩
      | gt => simp only [Bool.and_eq_true] at hm; exact Or.inr ⟨by simp, hm.1.1.2, Role.eq_of_beq hm.2⟩
  | _ => rw [hfam] at ht'; simp at ht'

/-- The facts of an average column of a layer. -/
theorem cntCols_avg {C : Cert} {l : Nat} {LW : LayerW} {LD : LayerD} (hlen : LW.heads.length = LD.heads.length)
    (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true) {td : CountDir × CntD} (ht : td ∈ cntColsD LD)
    (hav : td.2.avg = true) :
    td.1 ≠ .le ∧ td.2.src = some td.2.g ∧ td.2.coef = 1 ∧ C.roleAt td.2.vc (l - 1) = .zero ∧
      ((td.2.sc = none ∧ C.roleAt td.2.vc l = .avg td.1 td.2.g) ∨
        ((∃ s, td.2.sc = some s) ∧ C.roleAt td.2.vc l = .avgN td.1 td.2.g)) := by
  rw [cntColsD_zip hlen] at ht
  obtain ⟨p, hp, ht'⟩ := List.mem_flatMap.mp ht
  have hok := hh p hp
  unfold headOK at hok
  unfold colsOfD at ht'
  cases hfam : p.2.fam with
  | cnt dir ts =>
    rw [hfam] at hok ht'
    obtain ⟨t, htm, rfl⟩ := List.mem_map.mp ht'
    rcases (cnt_facts hok).2.2.2.2.2.2 t htm with ⟨_, h⟩ | ⟨h, _⟩
    · obtain ⟨h1, h2, h3, h4, h5⟩ := h
      refine ⟨h1, h2, h3, h4, ?_⟩
      rcases h5 with h5 | ⟨h5, h6⟩
      · exact Or.inl h5
      · exact Or.inr ⟨Option.isSome_iff_exists.mp h5, h6⟩
    · simp only at hav; rw [hav] at h; cases h
  | _ => rw [hfam] at ht'; simp at ht'

/-- A column that is no average reads no scaled copy. -/
theorem cntCols_sc {C : Cert} {l : Nat} {LW : LayerW} {LD : LayerD} (hlen : LW.heads.length = LD.heads.length)
    (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true) {td : CountDir × CntD} (ht : td ∈ cntColsD LD)
    (hav : td.2.avg = false) : td.2.sc = none := by
  rw [cntColsD_zip hlen] at ht
  obtain ⟨p, hp, ht'⟩ := List.mem_flatMap.mp ht
  have hok := hh p hp
  unfold headOK at hok
  unfold colsOfD at ht'
  cases hfam : p.2.fam with
  | cnt dir ts =>
    rw [hfam] at hok ht'
    obtain ⟨t, htm, rfl⟩ := List.mem_map.mp ht'
    rcases (cnt_facts hok).2.2.2.2.2.2 t htm with ⟨h, _⟩ | ⟨_, h, _⟩
    · simp only at hav; rw [hav] at h; cases h
    · exact h
  | _ => rw [hfam] at ht'; simp at ht'

/-- A count target: its coordinate is written by count columns. -/
noncomputable def isCntTarget (LD : LayerD) (c : Nat) : Prop := c ∈ (cntCols LD).map (·.vc)

/-- A count target is some column's. -/
theorem cntTarget_mem {LD : LayerD} {c : Nat} (hc : isCntTarget LD c) : ∃ td, td ∈ cntColsD LD ∧ td.2.vc = c := by
  unfold isCntTarget at hc
  rw [cntCols_eq, List.map_map] at hc
  obtain ⟨td, htd, he⟩ := List.mem_map.mp hc
  exact ⟨td, htd, he⟩

/-- The count heads write nothing into a coordinate that is no count column's target. -/
theorem cnt_part_zero (R : RatEmb α) (mode : Mode α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α}
    (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d) (hroles : C.spans.length = d)
    {LW : LayerW} {LD : LayerD}
    (hlen : LW.heads.length = LD.heads.length) (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true)
    {i : Nat} (hi : i < n) {c : Nat} (hc : ¬ isCntTarget LD c) :
    lsum (LW.heads.zip LD.heads) (fun p => cntOut R mode p.1 p.2 x n i c) = 0 := by
  rw [cnt_part_eq R mode hinv hE hcrd hroles hlen hh hi c]
  refine lsum_zero (fun td ht => ?_)
  rw [if_neg (fun he => hc (by
    unfold isCntTarget; rw [cntCols_eq, List.map_map]; exact List.mem_map.mpr ⟨td, ht, he⟩))]

/-- A count target holds nothing or a strict comparison's constant part before the layer, and a
comparison's `V` after it. -/
theorem cntTarget_zero {C : Cert} {l : Nat} {LW : LayerW} {LD : LayerD} (hlen : LW.heads.length = LD.heads.length)
    (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true) {c : Nat} (hc : isCntTarget LD c) :
    (C.roleAt c (l - 1) = .zero ∨ ∃ g, C.roleAt c (l - 1) = .pre g) ∧
      ((∃ g, C.roleAt c l = .val g) ∨ (∃ dir g, C.roleAt c l = .avg dir g) ∨ ∃ dir g, C.roleAt c l = .avgN dir g) := by
  obtain ⟨td, ht, rfl⟩ := cntTarget_mem hc
  cases hav : td.2.avg with
  | true =>
    have := cntCols_avg hlen hh ht hav
    refine ⟨Or.inl this.2.2.2.1, Or.inr ?_⟩
    rcases this.2.2.2.2 with ⟨_, h⟩ | ⟨_, h⟩
    · exact Or.inl ⟨td.1, td.2.g, h⟩
    · exact Or.inr ⟨td.1, td.2.g, h⟩
  | false =>
    have := cntCols_facts hlen hh ht hav
    refine ⟨?_, Or.inl ⟨td.2.g, this.2.1⟩⟩
    rcases this.2.2 with h | h
    · exact Or.inl h.2.2
    · exact Or.inr ⟨td.2.g, h.2.2⟩

/-- Certificates, comparison of counts (the count head in the layer, both modes): at a count
target, the value before the layer (nothing, or a strict comparison's constant part) plus the count
heads' output is exactly the comparison's `V` (`countsOK`: its columns are `cntExpectedOf`, all
aimed at one coordinate). -/
theorem cnt_part_val (R : RatEmb α) (mode : Mode α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α}
    (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d) (hroles : C.spans.length = d)
    {LW : LayerW} {LD : LayerD}
    (hlen : LW.heads.length = LD.heads.length) (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true)
    (hcnt : countsOK C LD = true) {i : Nat} (hi : i < n) {c : Nat} (hc : isCntTarget LD c) :
    roleVal C.prog w n (C.roleAt c (l - 1)) i + lsum (LW.heads.zip LD.heads) (fun p => cntOut R mode p.1 p.2 x n i c)
      = roleVal C.prog w n (C.roleAt c l) i := by
  rw [cnt_part_eq R mode hinv hE hcrd hroles hlen hh hi c]
  obtain ⟨td0, htd0, hvc0⟩ := cntTarget_mem hc
  have ht0 : td0.2 ∈ cntCols LD := by rw [cntCols_eq]; exact List.mem_map.mpr ⟨td0, htd0, rfl⟩
  have hc0 := List.all_eq_true.mp hcnt td0.2 ht0
  cases hav0 : td0.2.avg with
  | true =>
    -- an average column: the only column writing its coordinate
    rw [hav0, if_pos rfl] at hc0
    simp only [beq_iff_eq] at hc0
    obtain ⟨_, hsrc, hcoef, hz, hl⟩ := cntCols_avg hlen hh htd0 hav0
    rw [← hvc0, hz]
    rw [lsum_filter_eq (p := fun td => td.2.vc == td0.2.vc) (fun td _ hp => by rw [if_neg (by simpa using hp)])]
    have hf1 : (cntColsD LD).filter (fun td => td.2.vc == td0.2.vc) = [td0] := by
      have hlen1 : ((cntColsD LD).filter (fun td => td.2.vc == td0.2.vc)).length = 1 := by
        have : ((cntColsD LD).filter (fun td => td.2.vc == td0.2.vc)).length
            = ((cntCols LD).filter (fun u => u.vc == td0.2.vc)).length := by
          rw [cntCols_eq, List.filter_map, List.length_map]; rfl
        rw [this]; exact hc0
      have hm : td0 ∈ (cntColsD LD).filter (fun td => td.2.vc == td0.2.vc) := List.mem_filter.mpr ⟨htd0, by simp⟩
      generalize (cntColsD LD).filter (fun td => td.2.vc == td0.2.vc) = L at hlen1 hm
      match L, hlen1, hm with
      | [a], _, hm => simp only [List.mem_singleton] at hm; rw [hm]
    rw [hf1, lsum_cons, lsum_nil, if_pos rfl, hcoef, R.map_one]
    rcases hl with ⟨hsc, hl⟩ | ⟨⟨s, hsc⟩, hl⟩
    · rw [hl]; simp only [roleVal, cntColVal, cntVal, hsc, hsrc]; grind
    · rw [hl]; simp only [roleVal, cntColVal, cntVal, hsc, hsrc]; grind
  | false =>
    have hf0 := cntCols_facts hlen hh htd0 hav0
    rw [hav0, if_neg (by simp)] at hc0
    rw [← hvc0, hf0.2.1]
    cases hn : nodeAt C.prog td0.2.g with
    | cmp ts r =>
      rw [hn] at hc0
      simp only [Bool.and_eq_true, beq_iff_eq, List.all_eq_true] at hc0
      obtain ⟨hmap, hsame⟩ := hc0
      -- the columns aimed at `td0.2.vc` are those of `td0.2.g` (not averages)
      have hiff : ∀ td, td ∈ cntColsD LD → (td.2.vc = td0.2.vc ↔ (!td.2.avg && td.2.g == td0.2.g) = true) := by
        intro td ht
        constructor
        · intro he
          cases hav : td.2.avg with
          | true =>
            rcases (cntCols_avg hlen hh ht hav).2.2.2.2 with ⟨_, h1⟩ | ⟨_, h1⟩ <;>
              rw [he, hf0.2.1] at h1 <;> cases h1
          | false =>
            have h1 := (cntCols_facts hlen hh ht hav).2.1
            rw [he, hf0.2.1] at h1
            have h2 := Role.val.inj h1
            simp [h2]
        · intro hg
          have htm : td.2 ∈ cntCols LD := by rw [cntCols_eq]; exact List.mem_map.mpr ⟨td, ht, rfl⟩
          have := hsame td.2 (List.mem_filter.mpr ⟨htm, hg⟩)
          simpa using this
      rw [lsum_congr (g := fun td => if (!td.2.avg && td.2.g == td0.2.g) = true
          then R.cast td.2.coef * cntVal C.prog w n i (cmpDir C.prog td0.2.g) td.2.src else 0)
        (fun td ht => by
          by_cases h : td.2.vc = td0.2.vc
          · have hg := (hiff td ht).mp h
            have hg' := hg
            simp only [Bool.and_eq_true, Bool.not_eq_true', beq_iff_eq] at hg'
            have hdir := (cntCols_facts hlen hh ht hg'.1).1
            have hsc := cntCols_sc hlen hh ht hg'.1
            rw [hg'.2] at hdir
            simp only [if_pos h, if_pos hg, hdir, cntColVal, hsc]
          · simp only [if_neg h, if_neg (fun h' => h ((hiff td ht).mpr h'))])]
      rw [lsum_filter_eq (p := fun td => !td.2.avg && td.2.g == td0.2.g) (fun td _ hp => by rw [if_neg (by simp [hp])])]
      rw [lsum_congr (g := fun td => R.cast td.2.coef * cntVal C.prog w n i (cmpDir C.prog td0.2.g) td.2.src)
        (fun td ht => by rw [if_pos (List.mem_filter.mp ht).2])]
      have hl : lsum ((cntColsD LD).filter (fun td => !td.2.avg && td.2.g == td0.2.g))
            (fun td => R.cast td.2.coef * cntVal C.prog w n i (cmpDir C.prog td0.2.g) td.2.src)
          = lsum (((cntCols LD).filter (fun u => !u.avg && u.g == td0.2.g)).map (fun u : CntD => (u.coef, u.src)))
              (fun e => R.cast e.1 * cntVal C.prog w n i (cmpDir C.prog td0.2.g) e.2) := by
        rw [cntCols_eq, List.filter_map, List.map_map, lsum_map]
        rfl
      have hce : cntExpectedOf C.prog td0.2.g
          = if strictCmp C.prog td0.2.g then ts.map (fun t => ((t.1 : Rat), some t.2.2)) else cntExpected ts r := by
        simp only [cntExpectedOf, hn]
      rw [hl, hmap, hce]
      rcases hf0.2.2 with ⟨hle, hinc, hz⟩ | ⟨hle, hstr, hpre⟩
      · rw [if_neg (by rw [incl_not_strict hinc]; simp), hz, cmpDir_of_incl hinc]
        unfold inclusiveCmp at hinc
        rw [hn] at hinc
        simp only [Bool.and_eq_true] at hinc
        rw [cntExpected_sum R C.prog w n i r hinc.1]
        simp only [roleVal, cmpA, hn, cmpDir_of_incl (show inclusiveCmp C.prog td0.2.g = true by
          unfold inclusiveCmp; rw [hn]; simp only [Bool.and_eq_true]; exact hinc), cntDen]
        grind
      · rw [if_pos hstr, hpre, strictCols_sum R C.prog w n i _ ts (strict_dirs hstr hn).1]
        exact strict_val C.prog w n i hstr hn
    | _ =>
      rcases hf0.2.2 with ⟨_, hinc, _⟩ | ⟨_, hstr, _⟩
      · unfold inclusiveCmp at hinc; rw [hn] at hinc; simp at hinc
      · unfold strictCmp at hstr; rw [hn] at hstr; simp at hstr

/-- The per-group facts `groupsOK` checks (everything but the unit templates' sums). -/
def groupFacts (C : Cert) (LD : LayerD) (l : Nat) (G : GroupD) : Prop :=
  match G with
  | .pair g => g ∈ attended LD ∧ errOf C LD g ≤ 1 / 4 ∧ g ∉ flippedAtt LD
  | .pairFlip g => g ∈ flippedAtt LD ∧ errOf C LD g ≤ 1 / 4 ∧ g ∉ plainAtt LD
  | .pre g vc f => strictCmp C.prog g = true ∧ featCoord C (dirFeat (cmpDir C.prog g)) (l - 1) = some f ∧
    C.roleAt vc (l - 1) = .zero ∧ C.roleAt vc l = .pre g
  | .eraser g => g ∈ attended LD
  | .clear c => C.roleAt c l = .zero ∧ c ∉ (attended LD).map C.crd
  | .table g ins ex as neg =>
    C.roleAt (C.crd g) l = .node g ∧ C.roleAt (C.crd g) (l - 1) = .zero ∧ g ∉ attended LD ∧ (∀ x, x ∈ ins → inputOK C LD l x = true) ∧
    (∀ ρ, ρ ∈ allAssign (ins.length + ex.length) →
      keval C.prog (ins ++ ex) ρ (g + 1) g = some (as.contains (ρ.take ins.length) != neg)) ∧
    (approxCount LD ins : Rat) * C.errRule ≤ 1 / 4 ∧ nodupAssign as = true ∧
    (∀ σ, σ ∈ as → σ.length = ins.length)
  | .gate g ins σ neg =>
    C.roleAt (C.crd g) l = .node g ∧ C.roleAt (C.crd g) (l - 1) = .zero ∧ g ∉ attended LD ∧ (∀ x, x ∈ ins → inputOK C LD l x = true) ∧
    (∃ lits, conjLits C.prog ins (g + 1) g (!neg) = some lits ∧ litsMatch lits ins σ = true) ∧
    (approxCount LD ins : Rat) * C.errRule ≤ 1 / 4 ∧ σ.length = ins.length
  | .single g vc wc M =>
    inclusiveCmp C.prog g = true ∧ (∃ ts r, nodeAt C.prog g = .cmp ts r ∧ cmpBound ts r ≤ M) ∧
    C.roleAt vc l = .val g ∧ C.roleAt wc (l - 1) = .zero ∧ C.roleAt wc l = .single g ∧
    ∃ f e, featCoord C .isFirst (l - 1) = some f ∧ featCoord C .isLast (l - 1) = some e
  | .mix g cs =>
    mixedCmp C.prog g = true ∧
    (∃ ts r, nodeAt C.prog g = .cmp ts r ∧ copiesOK LD cs ts = true ∧ absCoef ts * C.copyErr ≤ 1 / 4) ∧
    C.roleAt (C.crd g) (l - 1) = .zero ∧ C.roleAt (C.crd g) l = .node g ∧ g ∉ attended LD
  | .copyErase cc => cc ∈ plkCopies LD
  | .scale y sc => (∃ f, featCoord C .invN (l - 1) = some f) ∧ rep C y (l - 1) = true ∧
    C.roleAt sc (l - 1) = .zero ∧ C.roleAt sc l = .scaled y
  | .vpre g vc f => C.bounded = true ∧ mixedCmp C.prog g = true ∧ featCoord C .invN (l - 1) = some f ∧
    C.roleAt vc (l - 1) = .zero ∧ C.roleAt vc l = .vpre g

/-- `clampUnitsOK` checks every assignment's length. -/
theorem clampUnits_lengths {cs : List Nat} {fl : List Bool} {tgt : Nat} {s : Rat} :
    ∀ (as : List (List Bool)) (us : List UnitW), clampUnitsOK cs fl tgt s as us = true → ∀ σ, σ ∈ as → σ.length = cs.length
  | [], _, _, σ, h => absurd h (by simp)
  | σ0 :: as, u1 :: u2 :: us, h, σ, hσ => by
    unfold clampUnitsOK at h
    simp only [Bool.and_eq_true, beq_iff_eq] at h
    simp only [List.mem_cons] at hσ
    rcases hσ with hσ | hσ
    · rw [hσ]; exact h.1.1.1.1.1.1.1
    · exact clampUnits_lengths as us h.2 σ hσ
  | _ :: _, [], h, _, _ => by simp [clampUnitsOK] at h
  | _ :: _, [_], h, _, _ => by simp [clampUnitsOK] at h

/-- Every group `groupsOK` accepts meets its facts. -/
theorem groupsOK_facts {C : Cert} {LD : LayerD} {l : Nat} :
    ∀ (gs : List GroupD) (us : List UnitW), groupsOK C LD l gs us = true → ∀ G, G ∈ gs → groupFacts C LD l G
  | [], _, _, G, hG => absurd hG (by simp)
  | .pair g :: gs, u1 :: u2 :: us, h, G, hG => by
    unfold groupsOK at h
    simp only [Bool.and_eq_true, decide_eq_true_eq] at h
    simp only [List.mem_cons] at hG
    rcases hG with hG | hG
    · rw [hG]
      refine ⟨List.contains_iff_mem.mp h.1.1.1.1.1.1.1.1.1, h.1.2, fun hm => ?_⟩
      have := h.1.1.1.1.1.1.1.1.2
      rw [List.contains_iff_mem.mpr hm] at this; cases this
    · exact groupsOK_facts gs us h.2 G hG
  | .pairFlip g :: gs, u1 :: u2 :: us, h, G, hG => by
    unfold groupsOK at h
    simp only [Bool.and_eq_true, decide_eq_true_eq] at h
    simp only [List.mem_cons] at hG
    rcases hG with hG | hG
    · rw [hG]
      refine ⟨List.contains_iff_mem.mp h.1.1.1.1.1.1.1.1.1, h.1.2, fun hm => ?_⟩
      have := h.1.1.1.1.1.1.1.1.2
      rw [List.contains_iff_mem.mpr hm] at this; cases this
    · exact groupsOK_facts gs us h.2 G hG
  | .pre g vc f :: gs, u1 :: u2 :: us, h, G, hG => by
    unfold groupsOK at h
    simp only [Bool.and_eq_true, beq_iff_eq] at h
    simp only [List.mem_cons] at hG
    rcases hG with hG | hG
    · rw [hG]
      exact ⟨h.1.1.1.1.1.1.1.1.1.1, h.1.1.1.1.1.1.1.1.1.2, Role.eq_of_beq h.1.1.1.1.1.1.1.1.2,
        Role.eq_of_beq h.1.1.1.1.1.1.1.2⟩
    · exact groupsOK_facts gs us h.2 G hG
  | .pairFlip _ :: _, [], h, _, _ => by simp [groupsOK] at h
  | .pairFlip _ :: _, [_], h, _, _ => by simp [groupsOK] at h
  | .pre _ _ _ :: _, [], h, _, _ => by simp [groupsOK] at h
  | .pre _ _ _ :: _, [_], h, _, _ => by simp [groupsOK] at h
  | .eraser g :: gs, u :: us, h, G, hG => by
    unfold groupsOK at h
    simp only [Bool.and_eq_true] at h
    simp only [List.mem_cons] at hG
    rcases hG with hG | hG
    · rw [hG]; exact List.contains_iff_mem.mp h.1.1.1.1
    · exact groupsOK_facts gs us h.2 G hG
  | .table g ins ex as neg :: gs, us, h, G, hG => by
    unfold groupsOK at h
    simp only [Bool.and_eq_true] at h
    obtain ⟨⟨⟨⟨⟨⟨⟨⟨hrole, hzero⟩, hatt⟩, hins⟩, hkev⟩, happ⟩, hnd⟩, hcl⟩, hrest⟩ := h
    simp only [List.mem_cons] at hG
    rcases hG with hG | hG
    · rw [hG]
      refine ⟨Role.eq_of_beq hrole, Role.eq_of_beq hzero, fun hm => ?_, fun x hx => List.all_eq_true.mp hins x hx, fun ρ hρ => ?_,
        of_decide_eq_true happ, hnd, fun σ hσ => ?_⟩
      · rw [List.contains_iff_mem.mpr hm] at hatt; cases hatt
      · have := List.all_eq_true.mp hkev ρ hρ; simpa using this
      · have := clampUnits_lengths as _ hcl σ hσ
        simpa using this
    · exact groupsOK_facts gs _ hrest G hG
  | .gate g ins σ neg :: gs, us, h, G, hG => by
    unfold groupsOK at h
    simp only [Bool.and_eq_true] at h
    obtain ⟨⟨⟨⟨⟨⟨⟨hrole, hzero⟩, hatt⟩, hins⟩, hlit⟩, happ⟩, hcl⟩, hrest⟩ := h
    simp only [List.mem_cons] at hG
    rcases hG with hG | hG
    · rw [hG]
      refine ⟨Role.eq_of_beq hrole, Role.eq_of_beq hzero, fun hm => ?_, fun x hx => List.all_eq_true.mp hins x hx, ?_,
        of_decide_eq_true happ, ?_⟩
      · rw [List.contains_iff_mem.mpr hm] at hatt; cases hatt
      · cases hc : conjLits C.prog ins (g + 1) g (!neg) with
        | none => rw [hc] at hlit; simp at hlit
        | some lits => rw [hc] at hlit; exact ⟨lits, rfl, hlit⟩
      · have := clampUnits_lengths [σ] _ hcl σ (by simp)
        simpa using this
    · exact groupsOK_facts gs _ hrest G hG
  | .clear c :: gs, u1 :: u2 :: us, h, G, hG => by
    unfold groupsOK at h
    simp only [Bool.and_eq_true, Bool.not_eq_true'] at h
    simp only [List.mem_cons] at hG
    rcases hG with hG | hG
    · rw [hG]
      refine ⟨Role.eq_of_beq h.1.1.1.1.1.1.1.1, fun hm => ?_⟩
      have := h.1.1.1.1.1.1.1.2
      rw [List.contains_iff_mem.mpr hm] at this; cases this
    · exact groupsOK_facts gs us h.2 G hG
  | .single g vc wc M :: gs, u1 :: u2 :: us, h, G, hG => by
    unfold groupsOK at h
    simp only [Bool.and_eq_true] at h
    obtain ⟨⟨⟨⟨⟨⟨hinc, hM⟩, hvc⟩, hz⟩, hwc⟩, hf⟩, hrest⟩ := h
    simp only [List.mem_cons] at hG
    rcases hG with hG | hG
    · rw [hG]
      refine ⟨hinc, ?_, Role.eq_of_beq hvc, Role.eq_of_beq hz, Role.eq_of_beq hwc, ?_⟩
      · cases hn : nodeAt C.prog g with
        | cmp ts r => rw [hn] at hM; exact ⟨ts, r, rfl, of_decide_eq_true hM⟩
        | _ => rw [hn] at hM; simp at hM
      · cases h1 : featCoord C .isFirst (l - 1) with
        | none => rw [h1] at hf; simp at hf
        | some f =>
          cases h2 : featCoord C .isLast (l - 1) with
          | none => rw [h1, h2] at hf; simp at hf
          | some e => exact ⟨f, e, rfl, rfl⟩
    · exact groupsOK_facts gs us hrest G hG
  | .mix g cs :: gs, u1 :: u2 :: us, h, G, hG => by
    unfold groupsOK at h
    simp only [Bool.and_eq_true] at h
    obtain ⟨⟨⟨⟨⟨⟨hmc, _⟩, hm⟩, hz⟩, hr⟩, hatt⟩, hrest⟩ := h
    simp only [List.mem_cons] at hG
    rcases hG with hG | hG
    · rw [hG]
      refine ⟨hmc, ?_, Role.eq_of_beq hz, Role.eq_of_beq hr, fun hm' => ?_⟩
      · cases hn : nodeAt C.prog g with
        | cmp ts r =>
          rw [hn] at hm
          simp only [Bool.and_eq_true, decide_eq_true_eq] at hm
          exact ⟨ts, r, rfl, hm.1.1.1.1.1.1.1, hm.2⟩
        | _ => rw [hn] at hm; simp at hm
      · rw [List.contains_iff_mem.mpr hm'] at hatt; cases hatt
    · exact groupsOK_facts gs us hrest G hG
  | .copyErase cc :: gs, u :: us, h, G, hG => by
    unfold groupsOK at h
    simp only [Bool.and_eq_true] at h
    simp only [List.mem_cons] at hG
    rcases hG with hG | hG
    · rw [hG]; exact List.contains_iff_mem.mp h.1.1.1.1
    · exact groupsOK_facts gs us h.2 G hG
  | .mix _ _ :: _, [], h, _, _ => by simp [groupsOK] at h
  | .mix _ _ :: _, [_], h, _, _ => by simp [groupsOK] at h
  | .copyErase _ :: _, [], h, _, _ => by simp [groupsOK] at h
  | .single _ _ _ _ :: _, [], h, _, _ => by simp [groupsOK] at h
  | .single _ _ _ _ :: _, [_], h, _, _ => by simp [groupsOK] at h
  | .clear _ :: _, [], h, _, _ => by simp [groupsOK] at h
  | .clear _ :: _, [_], h, _, _ => by simp [groupsOK] at h
  | .pair _ :: _, [], h, _, _ => by simp [groupsOK] at h
  | .pair _ :: _, [_], h, _, _ => by simp [groupsOK] at h
  | .eraser _ :: _, [], h, _, _ => by simp [groupsOK] at h
  | .scale y sc :: gs, u1 :: u2 :: us, h, G, hG => by
    unfold groupsOK at h
    simp only [Bool.and_eq_true] at h
    obtain ⟨⟨⟨⟨hm, hrep⟩, hz⟩, hs⟩, hrest⟩ := h
    simp only [List.mem_cons] at hG
    rcases hG with hG | hG
    · rw [hG]
      refine ⟨?_, hrep, Role.eq_of_beq hz, Role.eq_of_beq hs⟩
      cases hf : featCoord C .invN (l - 1) with
      | none => rw [hf] at hm; simp at hm
      | some f => exact ⟨f, rfl⟩
    · exact groupsOK_facts gs us hrest G hG
  | .vpre g vc f :: gs, u1 :: u2 :: us, h, G, hG => by
    unfold groupsOK at h
    simp only [Bool.and_eq_true, beq_iff_eq] at h
    obtain ⟨⟨⟨⟨⟨⟨⟨⟨⟨⟨⟨hb, hmc⟩, hfc⟩, hz⟩, hv⟩, _⟩, _⟩, _⟩, _⟩, _⟩, _⟩, hrest⟩ := h
    simp only [List.mem_cons] at hG
    rcases hG with hG | hG
    · rw [hG]; exact ⟨hb, hmc, hfc, Role.eq_of_beq hz, Role.eq_of_beq hv⟩
    · exact groupsOK_facts gs us hrest G hG
  | .scale _ _ :: _, [], h, _, _ => by simp [groupsOK] at h
  | .scale _ _ :: _, [_], h, _, _ => by simp [groupsOK] at h
  | .vpre _ _ _ :: _, [], h, _, _ => by simp [groupsOK] at h
  | .vpre _ _ _ :: _, [_], h, _, _ => by simp [groupsOK] at h

/-- The modes the soundness theorem covers: average-hard, and softmax at the temperature rule with an
exponential above its tangent. -/
def ModeOK (R : RatEmb α) (C : Cert) (n : Nat) (mode : Mode α) : Prop :=
  mode = .hard ∨ ∃ E : ExpLike α, E.Tangent ∧ mode = .soft E (C.tauRule R n)

/-- A value term's raw output in either mode: `≥ 0` and within `errRule` of its node's value. -/
theorem term_bound (R : RatEmb α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α} {mode : Mode α}
    (hmode : ModeOK R C n mode)
    (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d) (hroles : C.spans.length = d)
    (hsym : ∀ k, k < n → w.getD k 0 < C.nsym)
    (hK : 0 < C.K) (hc : 0 < C.c) (hk : 0 < C.expK)
    {hw : HeadW} {hd : HeadD} (hok : headOKSel C l hw hd = true) {t : TermD} (ht : t ∈ hd.terms)
    {i : Nat} (hi : i < n) :
    0 ≤ termOut R mode C hw x w n i t ∧
      absv (termOut R mode C hw x w n i t - ind (holds C.prog w n t.node i)) ≤ R.cast C.errRule := by
  have hs := term_spec R hinv hE hcrd hroles hsym hK hc hk hok ht hi
  rcases hmode with hm | ⟨E, hE', hm⟩
  · subst hm
    rw [hs.1]
    refine ⟨?_, ?_⟩
    · rcases ind_cases (α := α) (holds C.prog w n t.node i) with h | h <;> rw [h]
      · exact Std.le_refl _
      · exact Std.le_of_lt Lean.Grind.OrderedRing.zero_lt_one
    · have : absv ((ind (holds C.prog w n t.node i) : α) - ind (holds C.prog w n t.node i)) = 0 := by
        rw [show (ind (holds C.prog w n t.node i) : α) - ind (holds C.prog w n t.node i) = 0 by grind]
        unfold absv; rw [if_pos (Std.le_refl _)]
      rw [this]; exact errRule_nonneg R C (gamma_nonneg R hK hc) hk
  · subst hm; exact hs.2 E hE'

/-- The error bound of an attended node: at least `errRule`. -/
theorem errOf_ge (R : RatEmb α) (C : Cert) (LD : LayerD) (g : Nat) (hε : (0 : α) ≤ R.cast C.errRule) :
    R.cast C.errRule ≤ (R.cast (errOf C LD g) : α) := by
  unfold errOf
  split
  · rw [R.map_mul, R.map_two]; grind
  · exact Std.le_refl _

/-- A sign head of orientation `-1` has no correction `W` (it is a strict comparison's). -/
theorem sign_false_none {C : Cert} {l : Nat} {hw : HeadW} {hd : HeadD} {vc w : Nat}
    (hok : signHeadOK C l hw hd false vc (some w) = true) : False := by
  unfold signHeadOK at hok
  simp only [Bool.and_eq_true] at hok
  obtain ⟨_, hmat⟩ := hok
  rcases hts : hd.terms with _ | ⟨t, _ | ⟨t', rest⟩⟩
  · rw [hts] at hmat; simp at hmat
  · rw [hts] at hmat; simp at hmat
  · rw [hts] at hmat; simp at hmat

/-- The value a term's raw output approximates: its node's, flipped (`1 - [g]`) for a node a sign
head of orientation `-1` attends. -/
noncomputable def rawTarget (C : Cert) (LD : LayerD) (w : List Nat) (n g i : Nat) : α :=
  if g ∈ flippedAtt LD then 1 - ind (holds C.prog w n g i) else ind (holds C.prog w n g i)

/-- A value term of a layer's head: its raw output is `≥ 0` and within its node's error bound
(`errOf`: `2 errRule` for a sign head's, `errRule` for a selecting head's) of the node's value
(flipped for a sign head of orientation `-1`); exact in average-hard mode. -/
theorem raw_bound (R : RatEmb α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α} {mode : Mode α}
    (hmode : ModeOK R C n mode)
    (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d) (hroles : C.spans.length = d)
    (hsym : ∀ k, k < n → w.getD k 0 < C.nsym)
    (hK : 0 < C.K) (hc : 0 < C.c) (hk : 0 < C.expK)
    {LW : LayerW} {LD : LayerD} (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true)
    (hex : ∀ g, g ∈ flippedAtt LD → g ∈ plainAtt LD → False)
    {q : HeadW × HeadD × TermD} (hq : q ∈ flatTerms LW LD) {i : Nat} (hi : i < n) :
    0 ≤ rawOut R mode C q.1 q.2.1 x w n i q.2.2 ∧
      absv (rawOut R mode C q.1 q.2.1 x w n i q.2.2 - rawTarget C LD w n q.2.2.node i)
        ≤ R.cast (errOf C LD q.2.2.node) := by
  obtain ⟨hp, ht⟩ := mem_flatTerms hq
  have hok := hh _ hp
  have hε := errRule_nonneg (α := α) R C (gamma_nonneg R hK hc) hk
  have hplain : (∀ o vc wc, q.2.1.fam = .sign o vc wc → o = true) → q.2.2.node ∈ plainAtt LD := by
    intro hno
    unfold plainAtt
    refine List.mem_flatMap.mpr ⟨q.2.1, (List.of_mem_zip hp).2, ?_⟩
    split
    · next vc wc hf => exact absurd (hno _ _ _ hf) (by simp)
    · exact List.mem_map.mpr ⟨q.2.2, ht, rfl⟩
  unfold headOK at hok
  unfold rawOut
  cases hfam : q.2.1.fam with
  | cnt dir ts =>
    rw [hfam] at hok
    rw [(cnt_facts hok).2.1] at ht; simp at ht
  | plkN dir y ac vs =>
    rw [hfam] at hok
    rw [(plkN_facts hok).2.2.2.2.1] at ht; simp at ht
  | plk dir y ac cc =>
    rw [hfam] at hok
    rw [(plk_facts hok).2.2.2.2.1] at ht; simp at ht
  | sign o vc wc =>
    rw [hfam] at hok
    simp only
    have hsa : q.2.2.node ∈ signAttended LD := by
      unfold signAttended
      refine List.mem_flatMap.mpr ⟨q.2.1, (List.of_mem_zip hp).2, ?_⟩
      rw [hfam]; exact List.mem_map.mpr ⟨q.2.2, ht, rfl⟩
    have herr : (R.cast (errOf C LD q.2.2.node) : α) = 2 * R.cast C.errRule := by
      unfold errOf; rw [if_pos (List.contains_iff_mem.mpr hsa), R.map_mul,
        R.map_two]
    rw [herr]
    -- the raw output and its target
    obtain ⟨hs1, hs2⟩ : headOut R .hard q.1 x n i (C.crd q.2.2.node) = rawTarget C LD w n q.2.2.node i ∧
        ∀ E : ExpLike α, E.Tangent →
          0 ≤ headOut R (.soft E (C.tauRule R n)) q.1 x n i (C.crd q.2.2.node) ∧
          absv (headOut R (.soft E (C.tauRule R n)) q.1 x n i (C.crd q.2.2.node) - rawTarget C LD w n q.2.2.node i)
            ≤ 2 * R.cast C.errRule := by
      cases o with
      | true =>
        have hnf : q.2.2.node ∉ flippedAtt LD := fun hf =>
          hex _ hf (hplain (fun o' vc' wc' h => by rw [hfam] at h; cases h; rfl))
        unfold rawTarget
        rw [if_neg hnf]
        cases hwc : wc with
        | some w0 => exact sign_raw R hinv hroles hK hc hk hok (by rw [hwc]; rfl) ht hi
        | none =>
          have := sign_raw_strict R hinv hroles hK hc hk hok hwc ht hi
          simp only [if_true] at this
          exact this
      | false =>
        have hf : q.2.2.node ∈ flippedAtt LD := by
          unfold flippedAtt
          refine List.mem_flatMap.mpr ⟨q.2.1, (List.of_mem_zip hp).2, ?_⟩
          rw [hfam]; exact List.mem_map.mpr ⟨q.2.2, ht, rfl⟩
        unfold rawTarget
        rw [if_pos hf]
        cases hwc : wc with
        | some w0 => rw [hwc] at hok; exact (sign_false_none hok).elim
        | none =>
          have := sign_raw_strict R hinv hroles hK hc hk hok hwc ht hi
          simp only [Bool.false_eq_true, if_false] at this
          exact this
    have hT01 : (0 : α) ≤ rawTarget C LD w n q.2.2.node i := by
      unfold rawTarget
      rcases ind_cases (α := α) (holds C.prog w n q.2.2.node i) with h | h <;> rw [h] <;> split <;> grind
    rcases hmode with hm | ⟨E, hE', hm⟩
    · subst hm
      rw [hs1]
      refine ⟨hT01, ?_⟩
      rw [show (rawTarget C LD w n q.2.2.node i : α) - rawTarget C LD w n q.2.2.node i = 0 by grind]
      unfold absv; rw [if_pos (Std.le_refl _)]; grind
    · subst hm; exact hs2 E hE'
  | tbPastB | tbFutB | tbPastU | tbFutU | lkPast | lkFut =>
    rw [hfam] at hok
    simp only
    have hnf : q.2.2.node ∉ flippedAtt LD := fun hf =>
      hex _ hf (hplain (fun o' vc' wc' h => by rw [hfam] at h; cases h))
    unfold rawTarget
    rw [if_neg hnf]
    have hb := term_bound R hmode hinv hE hcrd hroles hsym hK hc hk (hd := q.2.1) hok ht hi
    exact ⟨hb.1, Std.le_trans hb.2 (errOf_ge R C LD _ hε)⟩

/-- The heads write nothing into a coordinate no value term and no count column aims at. -/
theorem heads_out_zero (R : RatEmb α) (mode : Mode α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α}
    (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d) (hroles : C.spans.length = d)
    {LW : LayerW} {LD : LayerD}
    (hlen : LW.heads.length = LD.heads.length) (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true)
    {i : Nat} (hi : i < n) {c : Nat} (hc : ∀ g, g ∈ attended LD → C.crd g ≠ c) (hct : ¬ isCntTarget LD c)
    (hpc : c ∉ plkCopies LD) (hpn : c ∉ plkNVcs LD) :
    lsum LW.heads (fun h => headOut R mode h x n i c) = 0 := by
  rw [heads_out_eq R mode hinv hE hcrd hroles hlen hh hi c, cnt_part_zero R mode hinv hE hcrd hroles hlen hh hi hct,
    plk_part_zero R mode x n i hpc, plkN_part_zero R mode C x n i hpn]
  rw [lsum_zero (fun q hq => ?_)]
  · grind
  have : q.2.2.node ∈ attended LD := by
    rw [← flatTerms_nodes hlen]; exact List.mem_map.mpr ⟨q, hq, rfl⟩
  rw [if_neg (hc _ this)]

/-- The heads write into an attended node's coordinate exactly its value term's raw output. -/
theorem heads_out_target (R : RatEmb α) (mode : Mode α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α}
    (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d) (hroles : C.spans.length = d)
    {LW : LayerW} {LD : LayerD}
    (hlen : LW.heads.length = LD.heads.length) (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true)
    (hnd : nodupNat ((attended LD).map C.crd) = true) {i : Nat} (hi : i < n) {g : Nat} (hg : g ∈ attended LD)
    (hct : ¬ isCntTarget LD (C.crd g)) (hpc : C.crd g ∉ plkCopies LD) (hpn : C.crd g ∉ plkNVcs LD) :
    ∃ q, q ∈ flatTerms LW LD ∧ q.2.2.node = g ∧
      lsum LW.heads (fun h => headOut R mode h x n i (C.crd g)) = rawOut R mode C q.1 q.2.1 x w n i q.2.2 := by
  rw [← flatTerms_nodes hlen] at hg
  obtain ⟨q, hq, hqg⟩ := List.mem_map.mp hg
  refine ⟨q, hq, hqg, ?_⟩
  rw [heads_out_eq R mode hinv hE hcrd hroles hlen hh hi, cnt_part_zero R mode hinv hE hcrd hroles hlen hh hi hct,
    plk_part_zero R mode x n i hpc, plkN_part_zero R mode C x n i hpn]
  have hnd' : nodupNat ((flatTerms LW LD).map (fun q => C.crd q.2.2.node)) = true := by
    have : (flatTerms LW LD).map (fun q => C.crd q.2.2.node) = (attended LD).map C.crd := by
      rw [← flatTerms_nodes hlen, List.map_map]; rfl
    rw [this]; exact hnd
  rw [lsum_key_unique (fun q => C.crd q.2.2.node) (fun q => rawOut R mode C q.1 q.2.1 x w n i q.2.2)
    (flatTerms LW LD) q hnd' hq (by show C.crd q.2.2.node = C.crd g; rw [hqg])]
  grind

/-- A group adds nothing to a coordinate other than its target. -/
theorem groupVal_off (R : RatEmb α) {C : Cert} {LD : LayerD} {l : Nat} {y : Nat → α} {c : Nat} {G : GroupD}
    (h : (G.target C == c) = false) : groupVal R C LD l y c G = 0 := by
  have hne : ∀ g, C.crd g = G.target C → C.crd g ≠ c := fun g hg he => by rw [hg] at he; simp [he] at h
  cases G with
  | pair g => simp only [groupVal]; rw [if_neg (hne g rfl)]; grind
  | eraser g => simp only [groupVal]; rw [if_neg (hne g rfl)]; grind
  | table g ins ex as neg =>
    simp only [groupVal]; exact lsum_zero (fun σ _ => by rw [if_neg (hne g rfl)]; grind)
  | gate g ins σ neg => simp only [groupVal]; rw [if_neg (hne g rfl)]; grind
  | clear c' =>
    have : c' ≠ c := fun he => by simp [GroupD.target, he] at h
    simp only [groupVal]; rw [if_neg this]; grind
  | single g vc wc M =>
    have : wc ≠ c := fun he => by simp [GroupD.target, he] at h
    simp only [groupVal]; rw [if_neg this]; grind
  | pre g vc f =>
    have : vc ≠ c := fun he => by simp [GroupD.target, he] at h
    simp only [groupVal]; rw [if_neg this]; grind
  | pairFlip g => simp only [groupVal]; rw [if_neg (hne g rfl)]; grind
  | mix g cs => simp only [groupVal]; rw [if_neg (hne g rfl)]; grind
  | copyErase cc =>
    have : cc ≠ c := fun he => by simp [GroupD.target, he] at h
    simp only [groupVal]; rw [if_neg this]; grind
  | scale y sc =>
    have : sc ≠ c := fun he => by simp [GroupD.target, he] at h
    simp only [groupVal]
    split
    · rw [if_neg this]; grind
    · rfl
  | vpre g vc f =>
    have : vc ≠ c := fun he => by simp [GroupD.target, he] at h
    simp only [groupVal]; rw [if_neg this]; grind

/-- Every attended node's coordinate is that node's from the layer on. -/
theorem attended_role {C : Cert} {l : Nat} {LW : LayerW} {LD : LayerD} (hlen : LW.heads.length = LD.heads.length)
    (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true) {g : Nat} (hg : g ∈ attended LD) :
    C.roleAt (C.crd g) l = .node g ∧ C.roleAt (C.crd g) (l - 1) = .zero := by
  rw [← flatTerms_nodes hlen] at hg
  obtain ⟨q, hq, rfl⟩ := List.mem_map.mp hg
  obtain ⟨hp, ht⟩ := mem_flatTerms hq
  have hok := hh _ hp
  unfold headOK at hok
  cases hfam : q.2.1.fam with
  | cnt dir ts =>
    rw [hfam] at hok
    rw [(cnt_facts hok).2.1] at ht; simp at ht
  | plkN dir y ac vs =>
    rw [hfam] at hok
    rw [(plkN_facts hok).2.2.2.2.1] at ht; simp at ht
  | plk dir y ac cc =>
    rw [hfam] at hok
    rw [(plk_facts hok).2.2.2.2.1] at ht; simp at ht
  | sign o vc wc =>
    rw [hfam] at hok
    obtain ⟨t, -, hterms, -, -, hz, hn⟩ := sign_common hok
    rw [hterms] at ht
    have : q.2.2 = t := by simpa using ht
    rw [this]; exact ⟨hn, hz⟩
  | tbPastB | tbFutB | tbPastU | tbFutU | lkPast | lkFut =>
    rw [hfam] at hok
    exact ⟨(term_of_ok (hd := q.2.1) hok ht).2.1, (term_of_ok (hd := q.2.1) hok ht).2.2.1⟩

/-- A sum of `ε` over the listed elements a predicate keeps is their number times `ε`. -/
theorem lsum_ite_count (ε : α) (p : Nat → Bool) : ∀ (l : List Nat),
    lsum l (fun x => if p x = true then ε else 0) = natCast (l.filter p).length * ε
  | [] => by simp [lsum, natCast]; grind
  | x :: t => by
    rw [lsum_cons, lsum_ite_count ε p t]
    by_cases hx : p x = true
    · rw [if_pos hx, List.filter_cons_of_pos hx, List.length_cons, natCast_succ]; grind
    · rw [if_neg hx, List.filter_cons_of_neg hx]; grind

/-- Zipping two maps of a list is the map of the pair. -/
theorem zip_map_map {β γ : Type} (f : Nat → β) (g : Nat → γ) : ∀ (ins : List Nat),
    (ins.map f).zip (ins.map g) = ins.map (fun x => (f x, g x))
  | [] => rfl
  | x :: t => by simp only [List.map_cons, List.zip_cons_cons, zip_map_map f g t]

/-- Zipping a map of a list with the list's image. -/
theorem errSum_map {β : Type} (y : β → α) (f : Nat → β) (p : Nat → Prop) : ∀ (ins : List Nat),
    errSum y (ins.map f) (ins.map (fun x => decide (p x))) = lsum ins (fun x => absv (y (f x) - ind (p x)))
  | [] => rfl
  | x :: t => by
    have ih := errSum_map y f p t
    unfold errSum at ih ⊢
    simp only [List.map_cons, List.zip_cons_cons, lsum_cons]
    rw [ih, ite_decide_eq_ind]

/-- An assignment matches the inputs' values exactly when every literal does. -/
theorem zip_iff_eq (P : Nat → Prop) : ∀ (ins : List Nat) (σ : List Bool), σ.length = ins.length →
    ((∀ e, e ∈ ins.zip σ → (P e.1 ↔ e.2 = true)) ↔ σ = ins.map (fun x => decide (P x)))
  | [], [], _ => by simp
  | x :: ins, b :: σ, h => by
    have ih := zip_iff_eq P ins σ (by simpa using h)
    simp only [List.zip_cons_cons, List.mem_cons, List.map_cons, List.cons.injEq]
    rw [← ih]
    constructor
    · intro H
      refine ⟨?_, fun e he => H e (Or.inr he)⟩
      have := H (x, b) (Or.inl rfl)
      cases b <;> simp_all
    · rintro ⟨hb, H⟩ e (he | he)
      · subst he; subst hb; simp
      · exact H e he
  | [], _ :: _, h => by simp at h
  | _ :: _, [], h => by simp at h

/-- A sum of absolute values is non-negative. -/
theorem sum_natAbs_nonneg : ∀ ts : List (Int × CountDir × Nat), 0 ≤ (ts.map (fun t => (t.1.natAbs : Int))).sum
  | [] => by simp
  | t :: ts => by
    have := sum_natAbs_nonneg ts
    simp only [List.map_cons, List.sum_cons]; omega

/-- A sum of absolute values is non-negative (in `Rat`). -/
theorem sum_natAbs_nonneg_rat : ∀ ts : List (Int × CountDir × Nat),
    (0 : Rat) ≤ (ts.map (fun t => ((t.1.natAbs : Nat) : Rat))).sum
  | [] => by simp only [List.map_nil, List.sum_nil]; exact Rat.le_refl
  | t :: ts => by
    have := sum_natAbs_nonneg_rat ts
    have h2 := Rat.natCast_nonneg (a := t.1.natAbs)
    simp only [List.map_cons, List.sum_cons]
    grind

/-- Certificates, comparison of counts (the `W` units at `n ≥ 2`): an inclusive comparison's
`V = (A - 1/2)/(i+1)` is at least `1/2 - M` when `M ≥ Σ_k |c_k| + |r - 1/2| + 1/2` (`cmpBound`),
since every count is at most `i + 1`. -/
theorem val_lower (R : RatEmb α) {P : Prog} {w : List Nat} {n g i : Nat} {ts : List (Int × CountDir × Nat)} {r : Int}
    {M : Rat} (hn : nodeAt P g = .cmp ts r) (hle : allLe ts = true) (hM : cmpBound ts r ≤ M) :
    1 / 2 - R.cast M ≤ (icast (2 * cmpA P w n g i - 1) : α) / 2 / natCast (i + 1) := by
  unfold cmpA; rw [hn]; dsimp only
  simp only [allLe, Bool.and_eq_true, List.all_eq_true] at hle
  have hdir : ∀ u, u ∈ ts → u.2.1 = .le := by
    intro u hu
    have := hle.2 u hu
    revert this; cases u.2.1 <;> simp
  have hS := cmpSum_lower (fun x d => countIn (fun j => holds P w n x j) n i d) (i + 1) ts (fun t ht => by
    rw [hdir t ht]; exact countMax_le _ _)
  generalize cmpSum (fun x d => countIn (fun j => holds P w n x j) n i d) ts = S at hS ⊢
  generalize hsA : (ts.map (fun t => (t.1.natAbs : Int))).sum = sAbs at hS
  have hsAbs0 : 0 ≤ sAbs := by rw [← hsA]; exact sum_natAbs_nonneg ts
  have hMα := R.map_le _ _ hM
  unfold cmpBound at hMα
  rw [R.map_add, R.map_add, cast_absSum, hsA] at hMα
  have hhalf : R.cast (1 / 2 : Rat) = (1 : α) / 2 := R.map_half
  have hρ : (R.cast (if r ≤ 0 then (1 / 2 - (r : Rat)) else ((r : Rat) - 1 / 2)) : α) ≥ (icast r : α) - 1 / 2 ∧
      (R.cast (if r ≤ 0 then (1 / 2 - (r : Rat)) else ((r : Rat) - 1 / 2)) : α) ≥ 1 / 2 - (icast r : α) := by
    rcases intCast_cases (α := α) r with ⟨h0, h1⟩ | ⟨h0, h1⟩
    · rw [if_neg (by omega), R.map_sub, R.map_intCast, hhalf]; constructor <;> grind
    · rw [if_pos h0, R.map_sub, R.map_intCast, hhalf]; constructor <;> grind
  generalize (R.cast (if r ≤ 0 then (1 / 2 - (r : Rat)) else ((r : Rat) - 1 / 2)) : α) = ρ at hρ hMα
  rw [hhalf] at hMα
  have hd1 := one_le_natCast_of_pos (α := α) (Nat.succ_pos i)
  have hSα : (0 : α) ≤ (icast (S + ((i + 1 : Nat) : Int) * sAbs) : α) := by
    rcases intCast_cases (α := α) (S + ((i + 1 : Nat) : Int) * sAbs) with ⟨_, h1⟩ | ⟨h0, _⟩
    · grind
    · have : S + ((i + 1 : Nat) : Int) * sAbs = 0 := by omega
      rw [this]; grind
  replace hSα : (0 : α) ≤ (icast S : α) + natCast (i + 1) * (icast sAbs : α) := by
    have := natCast_eq_intCast (α := α) (i + 1)
    grind
  have hsAbs : (0 : α) ≤ (icast sAbs : α) := by
    rcases intCast_cases (α := α) sAbs with ⟨_, h1⟩ | ⟨h0, _⟩
    · grind
    · have : sAbs = 0 := by omega
      rw [this]; grind
  generalize (natCast (i + 1) : α) = d at hd1 hSα ⊢
  have hd0 : (0 : α) < d := Std.lt_of_lt_of_le Lean.Grind.OrderedRing.zero_lt_one hd1
  have hρ0 : (0 : α) ≤ ρ := by grind
  refine le_div_of_mul_le hd0 ?_
  have m1 : ((icast sAbs : α) + ρ + 1 / 2) * d ≤ R.cast M * d :=
    Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_right hMα (Std.le_of_lt hd0)
  have m2 : ρ * 1 ≤ ρ * d := Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_left hd1 hρ0
  have e : (icast (2 * (S + r) - 1) : α) / 2 = (icast S : α) + (icast r : α) - 1 / 2 := by grind
  rw [e]
  grind

/-- `ReLU(a) - ReLU(-a) = a`. -/
theorem relu_sub_relu_neg (a : α) : relu a - relu (-a) = a := by
  unfold relu
  by_cases ha : a ≤ 0
  · by_cases hb : -a ≤ 0
    · rw [if_pos ha, if_pos hb]
      have : a = 0 := Std.le_antisymm ha (by grind)
      grind
    · rw [if_pos ha, if_neg hb]; grind
  · by_cases hb : -a ≤ 0
    · rw [if_neg ha, if_pos hb]; grind
    · exfalso; grind

/-- The clamp `pair`: a raw value within `1/4` of `b ∈ {0, 1}` is sent to `b`. -/
theorem pair_clamp_eq {S : α} (b : α) (hb : b = 0 ∨ b = 1) (h : absv (S - b) ≤ 1 / 4) :
    relu (S * 2 + -1 / 2) - relu (S * 2 + -3 / 2) = b := by
  have hb' := bounds_of_absv_le h
  rcases hb with hv | hv <;> rw [hv] at hb' ⊢
  · have := clamp_eq_zero (L := S - 1) (by grind)
    rw [show S * 2 + -1 / 2 = 2 * (S - 1 + 3 / 4) by grind, show S * 2 + -3 / 2 = 2 * (S - 1 + 1 / 4) by grind, this]
  · have := clamp_eq_one (L := S - 1) (by grind)
    rw [show S * 2 + -1 / 2 = 2 * (S - 1 + 3 / 4) by grind, show S * 2 + -3 / 2 = 2 * (S - 1 + 1 / 4) by grind, this]

/-- The clamp `pairFlip`: a raw value within `1/4` of `1 - b`, `b ∈ {0, 1}`, is sent to `b`. -/
theorem flip_clamp_eq {S : α} (b : α) (hb : b = 0 ∨ b = 1) (h : absv (S - (1 - b)) ≤ 1 / 4) :
    relu (S * (-2) + 3 / 2) - relu (S * (-2) + 1 / 2) = b := by
  have hb' := bounds_of_absv_le h
  rcases hb with hv | hv <;> rw [hv] at hb' ⊢
  · have := clamp_eq_zero (L := -S) (by grind)
    rw [show S * (-2) + 3 / 2 = 2 * (-S + 3 / 4) by grind, show S * (-2) + 1 / 2 = 2 * (-S + 1 / 4) by grind, this]
  · have := clamp_eq_one (L := -S) (by grind)
    rw [show S * (-2) + 3 / 2 = 2 * (-S + 3 / 4) by grind, show S * (-2) + 1 / 2 = 2 * (-S + 1 / 4) by grind, this]

/-- A node a sign head of orientation `-1` attends is attended. -/
theorem flipped_attended {LD : LayerD} {g : Nat} (h : g ∈ flippedAtt LD) : g ∈ attended LD := by
  unfold flippedAtt at h
  unfold attended
  obtain ⟨hd, hhd, hm⟩ := List.mem_flatMap.mp h
  refine List.mem_flatMap.mpr ⟨hd, hhd, ?_⟩
  split at hm
  · exact hm
  · simp at hm

/-- An element of the second list of a zip of equal-length lists is paired with some element. -/
theorem exists_zip_of_mem {β γ : Type} : ∀ {a : List β} {b : List γ}, a.length = b.length → ∀ {y : γ}, y ∈ b →
    ∃ x, (x, y) ∈ a.zip b
  | [], [], _, _, hy => absurd hy (by simp)
  | x :: a, y' :: b, h, y, hy => by
    simp only [List.mem_cons] at hy
    rcases hy with rfl | hy
    · exact ⟨x, by simp⟩
    · obtain ⟨x', hx'⟩ := exists_zip_of_mem (a := a) (b := b) (by simpa using h) hy
      exact ⟨x', by simp [hx']⟩
  | [], _ :: _, h, _, _ => by simp at h
  | _ :: _, [], h, _, _ => by simp at h

/-- A copy coordinate holds nothing before and after the layer. -/
theorem copy_zero {C : Cert} {l : Nat} {LW : LayerW} {LD : LayerD} (hlen : LW.heads.length = LD.heads.length)
    (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true) {c : Nat} (hm : c ∈ plkCopies LD) :
    C.roleAt c (l - 1) = .zero ∧ C.roleAt c l = .zero := by
  unfold plkCopies at hm
  obtain ⟨hd, hhd, hm'⟩ := List.mem_flatMap.mp hm
  obtain ⟨hw, hp⟩ := exists_zip_of_mem hlen hhd
  have hok : headOK C l hw hd = true := hh _ hp
  unfold headOK at hok
  cases hf : hd.fam with
  | plk dir y ac cc =>
    rw [hf] at hm' hok
    simp only [List.mem_singleton] at hm'
    obtain ⟨_, _, _, _, _, _, h1, h2, _⟩ := plk_facts hok
    rw [hm']; exact ⟨h1, h2⟩
  | _ => rw [hf] at hm'; simp at hm'

/-- A layer's position lookup of `#_d[x]` with copy `cc`. -/
theorem plkHas_mem {LD : LayerD} {dir : CountDir} {y cc : Nat} (h : plkHas LD dir y cc = true) :
    ∃ hd ac, hd ∈ LD.heads ∧ hd.fam = .plk dir y ac cc := by
  unfold plkHas at h
  obtain ⟨hd, hhd, hm⟩ := List.any_eq_true.mp h
  cases hf : hd.fam with
  | plk d' x' ac cc' =>
    rw [hf] at hm
    simp only [Bool.and_eq_true, beq_iff_eq] at hm
    obtain ⟨⟨h1, h2⟩, h3⟩ := hm
    refine ⟨hd, ac, hhd, ?_⟩
    rw [hf, dirEq_eq h1, h2, h3]
  | _ => rw [hf] at hm; simp at hm

/-- What `copiesOK` says. -/
theorem copiesOK_facts {LD : LayerD} : ∀ (cs : List Nat) (ts : List (Int × CountDir × Nat)), copiesOK LD cs ts = true →
    cs.length = ts.length ∧ ∀ q, q ∈ cs.zip ts → plkHas LD q.2.2.1 q.2.2.2 q.1 = true
  | [], [], _ => ⟨rfl, fun q hq => by simp at hq⟩
  | c :: cs, t :: ts, h => by
    unfold copiesOK at h
    simp only [Bool.and_eq_true] at h
    obtain ⟨h1, h2⟩ := copiesOK_facts cs ts h.2
    refine ⟨by simp [h1], fun q hq => ?_⟩
    simp only [List.zip_cons_cons, List.mem_cons] at hq
    rcases hq with rfl | hq
    · exact h.1
    · exact h2 q hq
  | [], _ :: _, h => by simp [copiesOK] at h
  | _ :: _, [], h => by simp [copiesOK] at h

/-- The counted nodes of a mixed comparison come before it. -/
theorem mixed_lt {P : Prog} {g : Nat} (h : mixedCmp P g = true) {ts : List (Int × CountDir × Nat)} {r : Int}
    (hn : nodeAt P g = .cmp ts r) : ∀ t, t ∈ ts → t.2.2 < g := by
  unfold mixedCmp at h
  rw [hn] at h
  simp only [Bool.and_eq_true, List.all_eq_true, decide_eq_true_eq] at h
  exact h.2

/-- Certificates, bounded mixed comparisons (a lookup's output, both modes): within `copyErr / n` of
its count over `n`. -/
theorem plkN_out_bound (R : RatEmb α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α} {mode : Mode α}
    (hmode : ModeOK R C n mode) (hinv : Inv C w n d (l - 1) x) (hroles : C.spans.length = d) (hc : 0 < C.c)
    (hk : 0 < C.expK) {hw : HeadW} {hd : HeadD} {dir : CountDir} {y ac : Nat} {vs : List (Nat × Nat)}
    (hok : plkNHeadOK C l hw hd dir y ac vs = true) {i : Nat} (hi : i < n) :
    absv (plkNOut R mode hw x n i - natCast (countIn (fun j => holds C.prog w n y j) n i dir) / natCast n)
      ≤ R.cast C.copyErr / natCast n := by
  have hn0 : (0 : α) < natCast n := zero_lt_of_one_le (one_le_natCast_of_pos (by omega))
  rcases hmode with hm | ⟨E, hE', hm⟩
  · subst hm
    rw [plkN_out_hard R hinv hroles hok hi]
    rw [show (natCast (countIn (fun j => holds C.prog w n y j) n i dir) : α) / natCast n
        - natCast (countIn (fun j => holds C.prog w n y j) n i dir) / natCast n = 0 by grind]
    unfold absv; rw [if_pos (Std.le_refl _)]
    exact div_nonneg_of_nonneg (copyErr_nonneg R hc hk (plkN_facts hok).2.2.1) hn0
  · subst hm; exact (plkN_out_soft R E hE' hinv hroles hc hk hok hi).2

/-- Certificates, bounded mixed comparisons (the layer's step at a `V`, both modes): the constant part
`(r - 1/2)/n` plus the lookups' `Σ_k c_k copy_k / n` is within `Σ|c_k| copyErr / n ≤ 1/(4n)` of
`(A - 1/2)/n` (`A = cmpA`: the served terms are exactly the comparison's, `plkNOK`). -/
theorem vmix_val (R : RatEmb α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α} {mode : Mode α}
    (hmode : ModeOK R C n mode) (hinv : Inv C w n d (l - 1) x) (hroles : C.spans.length = d) (hc : 0 < C.c)
    (hk : 0 < C.expK) {LW : LayerW} {LD : LayerD} (hlen : LW.heads.length = LD.heads.length)
    (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true) (hpk : plkNOK C LD = true)
    {i : Nat} (hi : i < n) {c : Nat} (hpn : c ∈ plkNVcs LD) {g : Nat} (hv1 : C.roleAt c l = .vmix g) :
    absv (roleVal C.prog w n (.vpre g) i + lsum (LW.heads.zip LD.heads) (fun p => plkNPart R mode C p.1 p.2 x n i c)
      - roleVal C.prog w n (.vmix g) i) ≤ 1 / (4 * natCast n) := by
  have hn1 : (1 : α) ≤ natCast n := one_le_natCast_of_pos (by omega)
  have hn0 : (0 : α) < natCast n := zero_lt_of_one_le hn1
  -- the entry aimed at `c` the check reads
  have hpn' := hpn
  unfold plkNVcs at hpn'
  obtain ⟨e0, he0, hec⟩ := List.mem_map.mp hpn'
  have hchk := List.all_eq_true.mp hpk e0 he0
  simp only [Bool.and_eq_true] at hchk
  obtain ⟨_, hts⟩ := hchk
  -- the entry's comparison is `g`
  have hg0 : e0.2.2.1 = g := by
    rw [← plkNFlat_ents hlen] at he0
    obtain ⟨q, hq, rfl⟩ := List.mem_map.mp he0
    obtain ⟨hd, ac, vs, hok, he⟩ := plkNFlat_mem hh hq
    have h1 := ((plkN_facts hok).2.2.2.2.2.2.1 _ he).2
    have hec' : q.2.2.2.2 = c := hec
    simp only at h1
    rw [hec', hv1] at h1
    show q.2.2.2.1 = g
    exact (Role.vmix.inj h1).symm
  rw [hg0, hec] at hts
  cases hn : nodeAt C.prog g with
  | cmp ts r =>
    rw [hn] at hts
    simp only [Bool.and_eq_true, decide_eq_true_eq] at hts
    obtain ⟨hperm, hbud⟩ := hts
    obtain ⟨Lf, hLf⟩ : ∃ L, L = (plkNFlat LW LD).filter (fun q => q.2.2.2.2 == c) := ⟨_, rfl⟩
    have hmemLf : ∀ q, q ∈ Lf → q ∈ plkNFlat LW LD ∧ q.2.2.2.2 = c := fun q hq => by
      rw [hLf] at hq
      have := List.mem_filter.mp hq
      exact ⟨this.1, by simpa using this.2⟩
    -- every entry aimed at `c` serves `g`
    have hqg : ∀ q, q ∈ Lf → q.2.2.2.1 = g := by
      intro q hq
      obtain ⟨hq1, hq2⟩ := hmemLf q hq
      obtain ⟨hd, ac, vs, hok, he⟩ := plkNFlat_mem hh hq1
      have h1 := ((plkN_facts hok).2.2.2.2.2.2.1 _ he).2
      simp only at h1
      rw [hq2, hv1] at h1
      exact (Role.vmix.inj h1).symm
    -- the served list
    have hserved : servedAt C LD c = Lf.map (fun q => (termCoef C.prog g q.2.1 q.2.2.1, q.2.1, q.2.2.1)) := by
      simp only [servedAt, ← plkNFlat_ents hlen, List.filter_map, List.map_map, Function.comp_def]
      rw [← hLf]
      refine List.map_congr_left (fun q hq => ?_)
      rw [hqg q hq]
    -- the heads' part
    have hpart : lsum (LW.heads.zip LD.heads) (fun p => plkNPart R mode C p.1 p.2 x n i c)
        = lsum Lf (fun q => icast (termCoef C.prog g q.2.1 q.2.2.1) * plkNOut R mode q.1 x n i) := by
      rw [plkN_part_flat, lsum_filter_eq (p := fun q => q.2.2.2.2 == c) (fun q _ hq => by
        rw [if_neg (by simpa using hq)]), ← hLf]
      refine lsum_congr (fun q hq => ?_)
      rw [if_pos (hmemLf q hq).2, hqg q hq]
    -- each lookup's output
    have hb : ∀ q, q ∈ Lf → absv (plkNOut R mode q.1 x n i
        - natCast (countIn (fun j => holds C.prog w n q.2.2.1 j) n i q.2.1) / natCast n) ≤ R.cast C.copyErr / natCast n := by
      intro q hq
      obtain ⟨hd, ac, vs, hok, _⟩ := plkNFlat_mem hh (hmemLf q hq).1
      exact plkN_out_bound R hmode hinv hroles hc hk hok hi
    have hs : lsum Lf (fun q => (icast (termCoef C.prog g q.2.1 q.2.2.1) : α)
          * (natCast (countIn (fun j => holds C.prog w n q.2.2.1 j) n i q.2.1) / natCast n))
        = (icast (cmpSum (fun y dd => countIn (fun j => holds C.prog w n y j) n i dd) ts) : α) / natCast n := by
      rw [lsum_cmpSum (fun q => termCoef C.prog g q.2.1 q.2.2.1) (fun q => q.2.1) (fun q => q.2.2.1)
        (fun y dd => countIn (fun j => holds C.prog w n y j) n i dd) (natCast n) Lf, ← hserved,
        termPerm_cmpSum _ _ _ hperm]
    have hdev : lsum Lf (fun q => icast (termCoef C.prog g q.2.1 q.2.2.1) * plkNOut R mode q.1 x n i)
          - icast (cmpSum (fun y dd => countIn (fun j => holds C.prog w n y j) n i dd) ts) / natCast n
        ≤ icast ((Lf.map (fun q => ((termCoef C.prog g q.2.1 q.2.2.1).natAbs : Int))).sum) * (R.cast C.copyErr / natCast n) ∧
        -(icast ((Lf.map (fun q => ((termCoef C.prog g q.2.1 q.2.2.1).natAbs : Int))).sum) * (R.cast C.copyErr / natCast n))
          ≤ lsum Lf (fun q => icast (termCoef C.prog g q.2.1 q.2.2.1) * plkNOut R mode q.1 x n i)
            - icast (cmpSum (fun y dd => countIn (fun j => holds C.prog w n y j) n i dd) ts) / natCast n := by
      have h := lsum_dev (α := α) (fun q : HeadW × CountDir × Nat × Nat × Nat => termCoef C.prog g q.2.1 q.2.2.1)
        (fun q => plkNOut R mode q.1 x n i)
        (fun q => natCast (countIn (fun j => holds C.prog w n q.2.2.1 j) n i q.2.1) / natCast n) Lf hb
      rw [← hs]
      exact h
    -- the budget
    have hbα : (icast ((Lf.map (fun q => ((termCoef C.prog g q.2.1 q.2.2.1).natAbs : Int))).sum) : α)
        * R.cast C.copyErr ≤ 1 / 4 := by
      have h := R.map_le _ _ hbud
      rw [R.map_mul, R.map_div (by decide), R.map_one, R.map_four] at h
      unfold absCoef at h
      rw [cast_absSum, hserved] at h
      simp only [List.map_map, Function.comp_def] at h
      exact h
    have hce : ∀ A : α, A * R.cast C.copyErr ≤ 1 / 4 → A * (R.cast C.copyErr / natCast n) ≤ 1 / (4 * natCast n) := by
      intro A hA
      have e1 : A * (R.cast C.copyErr / natCast n) = (A * R.cast C.copyErr) / natCast n := by grind
      have e2 : (1 : α) / (4 * natCast n) = (1 / 4) / natCast n := by
        have := ne_zero_of_zero_lt hn0
        grind
      rw [e1, e2]; exact div_le_div_of_le hn0 hA
    have hup := Std.le_trans hdev.1 (hce _ hbα)
    have hlo := hdev.2
    have hce' := hce _ hbα
    rw [hpart]
    simp only [roleVal, cmpA, cmpR, hn]
    have hne := ne_zero_of_zero_lt hn0
    generalize lsum Lf (fun q => icast (termCoef C.prog g q.2.1 q.2.2.1) * plkNOut R mode q.1 x n i) = L at hup hlo ⊢
    generalize cmpSum (fun y dd => countIn (fun j => holds C.prog w n y j) n i dd) ts = S at hup hlo ⊢
    generalize (icast ((Lf.map (fun q => ((termCoef C.prog g q.2.1 q.2.2.1).natAbs : Int))).sum) : α)
      * (R.cast C.copyErr / natCast n) = B at hlo hce'
    refine absv_le_of_le_of_neg_le ?_ ?_
    · grind
    · grind
  | _ =>
    rw [hn] at hts
    simp at hts

/-- Certificates, bounded mixed comparisons (the layer's step at a `V`'s constant part, both modes):
the `vpre` units write `ReLU(q/n) - ReLU(-q/n) = q/n`, `q = r - 1/2`. -/
theorem vpre_step (R : RatEmb α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α} {mode : Mode α}
    (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d)
    (hroles : C.spans.length = d) {LW : LayerW} {LD : LayerD} (hlen : LW.heads.length = LD.heads.length)
    (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true)
    {i : Nat} (hi : i < n) {c : Nat} (hcd : c < d) {g vc f : Nat}
    (hGmem : .vpre g vc f ∈ groupsAt C LD.groups c) (hGc : GroupD.target C (.vpre g vc f) = c)
    (hf : groupFacts C LD l (.vpre g vc f)) (htb : (groupsAt C LD.groups (GroupD.target C (.vpre g vc f))).length = 1)
    (hct : ¬ isCntTarget LD c) (hcp : c ∉ plkCopies LD) :
    attnStep R mode LW x n i c + lsum (LD.groups.filter (fun G => G.target C == c)) (groupVal R C LD l (attnStep R mode LW x n i) c)
      + R.cast (b2Expected C LD.groups c) = roleVal C.prog w n (C.roleAt c l) i := by
  have hy : ∀ j c, attnStep R mode LW x n j c = x j c + lsum LW.heads (fun h => headOut R mode h x n j c) :=
    fun _ _ => rfl
  have hrole := fun g (hg : g ∈ attended LD) => attended_role hlen hh hg
  have hxc := fun (ha : (C.roleAt c (l - 1)).approx = false) => inv_exact hinv hi hcd ha
  have hnottgt : ∀ c', C.roleAt c' (l - 1) ≠ .zero → ∀ g, g ∈ attended LD → C.crd g ≠ c' := by
    intro c' hz g hg he
    have := (hrole g hg).2
    rw [he] at this; exact hz this
  have hnotcnt : ∀ c', C.roleAt c' (l - 1) ≠ .zero → (∀ g, C.roleAt c' (l - 1) ≠ .pre g) → ¬ isCntTarget LD c' :=
    fun c' hz hp hct => by
      rcases (cntTarget_zero hlen hh hct).1 with h | ⟨g, h⟩
      · exact hz h
      · exact hp g h
  obtain ⟨_, _, hfc, hz, hpre⟩ := hf
  have hvc : GroupD.target C (.vpre g vc f) = c := hGc
  simp only [GroupD.target] at hvc
  subst hvc
  have hlist : groupsAt C LD.groups vc = [.vpre g vc f] := by
    cases hgs : groupsAt C LD.groups (GroupD.target C (.vpre g vc f)) with
    | nil => simp only [hgs] at htb; simp at htb
    | cons G0 rest =>
      rw [hgs] at htb
      cases rest with
      | cons _ _ => simp at htb
      | nil =>
        have : GroupD.vpre g vc f ∈ groupsAt C LD.groups vc := hGmem
        simp only [GroupD.target] at hgs
        rw [hgs] at this; simp at this; rw [hgs, this]
  have hne : ∀ g', g' ∈ attended LD → C.crd g' ≠ vc := fun g' hg' he => by
    have := (hrole g' hg').1; rw [he, hpre] at this; cases this
  have hYv : attnStep R mode LW x n i vc = 0 := by
    rw [hy, heads_out_zero R mode hinv hE hcrd hroles hlen hh hi hne hct hcp
      (not_plkNVc hlen hh (fun g' h => by rw [hpre] at h; cases h)), hxc (by rw [hz]; rfl), hz]
    simp only [roleVal]; grind
  have hff := featCoord_sound hfc
  have hYf : attnStep R mode LW x n i f = 1 / natCast n := by
    have hz' : C.roleAt f (l - 1) ≠ .zero := by rw [hff.1]; simp
    rw [hy, heads_out_zero R mode hinv hE hcrd hroles hlen hh hi (hnottgt _ hz')
        (hnotcnt _ hz' (fun g' h => by rw [hff.1] at h; cases h)) (fun hm => hz' (copy_zero hlen hh hm).1)
        (fun hm => by obtain ⟨g', h1, _⟩ := plkN_vc_roles hlen hh hm; rw [hff.1] at h1; cases h1),
      inv_exact (c := f) hinv hi (by rw [← hroles]; exact hff.2) (by rw [hff.1]; rfl), hff.1]
    simp only [roleVal, Feat.val]; grind
  unfold groupsAt at hlist
  have hb2z : b2Expected C LD.groups vc = 0 := by
    unfold b2Expected groupsAt; rw [hlist]; rfl
  rw [hlist, hb2z, R.map_zero, hpre]
  simp only [lsum_cons, lsum_nil, groupVal, if_true, roleVal]
  have h2' : R.cast (2 : Rat) = (2 : α) := R.map_two
  rw [hYv, hYf, R.map_neg, R.map_div (by decide), R.map_intCast, h2']
  have hn0 : (natCast n : α) ≠ 0 :=
    ne_zero_of_zero_lt (zero_lt_of_one_le (one_le_natCast_of_pos (by omega)))
  generalize (icast (α := α) (2 * cmpR C.prog g - 1)) = q
  rw [show 1 / natCast n * -(q / 2) = -(1 / natCast n * (q / 2)) by grind, relu_sub_relu_neg]
  grind

/-- Certificates, bounded mixed comparisons (the layer's step at a scaled copy, both modes): the
`scale` units write `ReLU(1/n) - ReLU(1/n - y) = y/n`, node `x`'s value over `n`. -/
theorem scale_step (R : RatEmb α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α} {mode : Mode α}
    (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d)
    (hroles : C.spans.length = d) {LW : LayerW} {LD : LayerD} (hlen : LW.heads.length = LD.heads.length)
    (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true)
    {i : Nat} (hi : i < n) {c : Nat} (hcd : c < d) {y sc : Nat}
    (hGmem : .scale y sc ∈ groupsAt C LD.groups c) (hGc : GroupD.target C (.scale y sc) = c)
    (hf : groupFacts C LD l (.scale y sc)) (htb : (groupsAt C LD.groups (GroupD.target C (.scale y sc))).length = 1)
    (hct : ¬ isCntTarget LD c) (hcp : c ∉ plkCopies LD) :
    attnStep R mode LW x n i c + lsum (LD.groups.filter (fun G => G.target C == c)) (groupVal R C LD l (attnStep R mode LW x n i) c)
      + R.cast (b2Expected C LD.groups c) = roleVal C.prog w n (C.roleAt c l) i := by
  have hy : ∀ j c, attnStep R mode LW x n j c = x j c + lsum LW.heads (fun h => headOut R mode h x n j c) :=
    fun _ _ => rfl
  have hrole := fun g (hg : g ∈ attended LD) => attended_role hlen hh hg
  have hxc := fun (ha : (C.roleAt c (l - 1)).approx = false) => inv_exact hinv hi hcd ha
  have hnottgt : ∀ c', C.roleAt c' (l - 1) ≠ .zero → ∀ g, g ∈ attended LD → C.crd g ≠ c' := by
    intro c' hz g hg he
    have := (hrole g hg).2
    rw [he] at this; exact hz this
  have hnotcnt : ∀ c', C.roleAt c' (l - 1) ≠ .zero → (∀ g, C.roleAt c' (l - 1) ≠ .pre g) → ¬ isCntTarget LD c' :=
    fun c' hz hp hct => by
      rcases (cntTarget_zero hlen hh hct).1 with h | ⟨g, h⟩
      · exact hz h
      · exact hp g h
  obtain ⟨⟨f, hfc⟩, hrep, hz, hsc⟩ := hf
  have hvc : GroupD.target C (.scale y sc) = c := hGc
  simp only [GroupD.target] at hvc
  subst hvc
  have hlist : groupsAt C LD.groups sc = [.scale y sc] := by
    cases hgs : groupsAt C LD.groups (GroupD.target C (.scale y sc)) with
    | nil => simp only [hgs] at htb; simp at htb
    | cons G0 rest =>
      rw [hgs] at htb
      cases rest with
      | cons _ _ => simp at htb
      | nil =>
        have : GroupD.scale y sc ∈ groupsAt C LD.groups sc := hGmem
        simp only [GroupD.target] at hgs
        rw [hgs] at this; simp at this; rw [hgs, this]
  have hne : ∀ g', g' ∈ attended LD → C.crd g' ≠ sc := fun g' hg' he => by
    have := (hrole g' hg').1; rw [he, hsc] at this; cases this
  have hYs : attnStep R mode LW x n i sc = 0 := by
    rw [hy, heads_out_zero R mode hinv hE hcrd hroles hlen hh hi hne hct hcp
      (not_plkNVc hlen hh (fun g' h => by rw [hsc] at h; cases h)), hxc (by rw [hz]; rfl), hz]
    simp only [roleVal]; grind
  have hff := featCoord_sound hfc
  have hYf : attnStep R mode LW x n i f = 1 / natCast n := by
    have hz' : C.roleAt f (l - 1) ≠ .zero := by rw [hff.1]; simp
    rw [hy, heads_out_zero R mode hinv hE hcrd hroles hlen hh hi (hnottgt _ hz')
        (hnotcnt _ hz' (fun g' h => by rw [hff.1] at h; cases h)) (fun hm => hz' (copy_zero hlen hh hm).1)
        (fun hm => by obtain ⟨g', h1, _⟩ := plkN_vc_roles hlen hh hm; rw [hff.1] at h1; cases h1),
      inv_exact (c := f) hinv hi (by rw [← hroles]; exact hff.2) (by rw [hff.1]; rfl), hff.1]
    simp only [roleVal, Feat.val]; grind
  have hYx : attnStep R mode LW x n i (C.crd y) = ind (holds C.prog w n y i) := by
    have hz' : C.roleAt (C.crd y) (l - 1) ≠ .zero := fun h0 => by unfold rep at hrep; rw [h0] at hrep; simp at hrep
    have hp : ∀ g, C.roleAt (C.crd y) (l - 1) ≠ .pre g := fun g h0 => by unfold rep at hrep; rw [h0] at hrep; simp at hrep
    have hv : ∀ g, C.roleAt (C.crd y) (l - 1) ≠ .vpre g := fun g h0 => by unfold rep at hrep; rw [h0] at hrep; simp at hrep
    rw [hy, heads_out_zero R mode hinv hE hcrd hroles hlen hh hi (hnottgt _ hz') (hnotcnt _ hz' hp)
        (fun hm => hz' (copy_zero hlen hh hm).1)
        (fun hm => by obtain ⟨g', h1, _⟩ := plkN_vc_roles hlen hh hm; exact hv g' h1),
      inv_rep hinv hE hcrd hrep hi]
    grind
  unfold groupsAt at hlist
  have hb2z : b2Expected C LD.groups sc = 0 := by
    unfold b2Expected groupsAt; rw [hlist]; rfl
  rw [hlist, hb2z, R.map_zero, hsc]
  simp only [lsum_cons, lsum_nil, groupVal, hfc, if_true, roleVal]
  rw [hYs, hYf, hYx]
  have hn1 : (1 : α) ≤ natCast n := one_le_natCast_of_pos (by omega)
  have hn0 : (0 : α) < natCast n := zero_lt_of_one_le hn1
  have hv0 : (0 : α) ≤ 1 / natCast n := div_nonneg_of_nonneg (Std.le_of_lt Lean.Grind.OrderedRing.zero_lt_one) hn0
  have hv1 : (1 : α) / natCast n ≤ 1 := by
    have := ne_zero_of_zero_lt hn0
    have h := div_le_div_of_le hn0 hn1
    grind
  rw [scale_units (ind_cases _) hv0 hv1]
  grind

/-- Certificates, mixed comparisons (the position lookup in the layer, both modes): after the heads,
a lookup's copy coordinate holds the lookup's copy, `≥ 0` and within `copyErr` of its count (exact
in average-hard mode). -/
theorem copy_attn (R : RatEmb α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α} {mode : Mode α}
    (hmode : ModeOK R C n mode) (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d)
    (hroles : C.spans.length = d) (hc : 0 < C.c) (hk : 0 < C.expK)
    {LW : LayerW} {LD : LayerD} (hlen : LW.heads.length = LD.heads.length)
    (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true) (hnd : nodupNat (plkCopies LD) = true)
    {i : Nat} (hi : i < n) {hw0 : HeadW} {hd0 : HeadD} (hp0 : (hw0, hd0) ∈ LW.heads.zip LD.heads)
    {dir : CountDir} {y ac cc : Nat} (hfam : hd0.fam = .plk dir y ac cc) :
    attnStep R mode LW x n i cc = plkOut R mode hw0 x n i ∧ 0 ≤ plkOut R mode hw0 x n i ∧
      absv (plkOut R mode hw0 x n i - natCast (countIn (fun j => holds C.prog w n y j) n i dir)) ≤ R.cast C.copyErr := by
  have hok : plkHeadOK C l hw0 hd0 dir y ac cc = true := by
    have := hh _ hp0; unfold headOK at this; rw [hfam] at this; exact this
  obtain ⟨_, _, he1, _, _, _, hz0, hz1, hccd, _⟩ := plk_facts hok
  refine ⟨?_, ?_⟩
  · show x i cc + lsum LW.heads (fun h => headOut R mode h x n i cc) = _
    rw [heads_out_eq R mode hinv hE hcrd hroles hlen hh hi cc]
    have hflat : lsum (flatTerms LW LD)
        (fun q => if C.crd q.2.2.node = cc then rawOut R mode C q.1 q.2.1 x w n i q.2.2 else 0) = 0 :=
      lsum_zero (fun q hq => by
        rw [if_neg (fun he => by
          have hat : q.2.2.node ∈ attended LD := by
            rw [← flatTerms_nodes hlen]; exact List.mem_map.mpr ⟨q, hq, rfl⟩
          have := (attended_role hlen hh hat).1
          rw [he, hz1] at this; cases this)])
    have hct : ¬ isCntTarget LD cc := fun hct => by
      rcases (cntTarget_zero hlen hh hct).2 with ⟨g', hv⟩ | ⟨dd, g', hv⟩ | ⟨dd, g', hv⟩ <;> rw [hz1] at hv <;> cases hv
    have hnd' : nodupNat (LD.heads.flatMap copyOf) = true := hnd
    rw [hflat, cnt_part_zero R mode hinv hE hcrd hroles hlen hh hi hct,
      plkN_part_zero R mode C x n i (not_plkNVc hlen hh (fun g' h => by rw [hz1] at h; cases h)),
      plk_part_at R mode x n i cc LW.heads LD.heads hnd' (hw0, hd0) hp0 (by simp only [copyOf, hfam]),
      inv_exact (c := cc) hinv hi (by rw [← hroles]; exact hccd) (by rw [hz0]; rfl), hz0]
    simp only [roleVal]; grind
  · rcases hmode with hm | ⟨E, hE', hm⟩
    · subst hm
      rw [plk_out_hard R hinv hroles hok hi]
      refine ⟨natCast_nonneg _, ?_⟩
      rw [show (natCast (countIn (fun j => holds C.prog w n y j) n i dir) : α)
          - natCast (countIn (fun j => holds C.prog w n y j) n i dir) = 0 by grind]
      unfold absv; rw [if_pos (Std.le_refl _)]
      exact copyErr_nonneg R hc hk he1
    · subst hm; exact plk_out_soft R E hE' hinv hroles hc hk hok hi

/-- Certificates, mixed comparisons (the layer's step at a copy coordinate, both modes): the copy
written by its lookup is erased by its `copyErase` unit (`x - ReLU(x) = 0`, the copy `≥ 0`). -/
theorem copy_step (R : RatEmb α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α} {mode : Mode α}
    (hmode : ModeOK R C n mode) (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d)
    (hroles : C.spans.length = d) (hc : 0 < C.c) (hk : 0 < C.expK)
    {LW : LayerW} {LD : LayerD} (hlen : LW.heads.length = LD.heads.length)
    (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true) (hnd : nodupNat (plkCopies LD) = true)
    (hpall : (plkCopies LD).all (fun cc => match groupsAt C LD.groups cc with
      | [.copyErase c'] => c' == cc
      | _ => false) = true)
    {i : Nat} (hi : i < n) {c : Nat} (hcp : c ∈ plkCopies LD) :
    attnStep R mode LW x n i c + lsum (LD.groups.filter (fun G => G.target C == c)) (groupVal R C LD l (attnStep R mode LW x n i) c)
      + R.cast (b2Expected C LD.groups c) = roleVal C.prog w n (C.roleAt c l) i := by
  have hg := List.all_eq_true.mp hpall c hcp
  have hlist : groupsAt C LD.groups c = [.copyErase c] := by
    split at hg
    · next c' hgs => simp only [beq_iff_eq] at hg; rw [hgs, hg]
    · simp at hg
  have hz := (copy_zero hlen hh hcp).2
  have hcp' := hcp
  unfold plkCopies at hcp'
  obtain ⟨hd0, hhd0, hm0⟩ := List.mem_flatMap.mp hcp'
  obtain ⟨hw0, hp0⟩ := exists_zip_of_mem hlen hhd0
  cases hf : hd0.fam with
  | plk dir y ac cc =>
    rw [hf] at hm0
    simp only [List.mem_singleton] at hm0
    rw [← hm0] at hf
    obtain ⟨hA, h0, -⟩ := copy_attn R hmode hinv hE hcrd hroles hc hk hlen hh hnd hi hp0 hf
    unfold groupsAt at hlist
    have hb2z : b2Expected C LD.groups c = 0 := by unfold b2Expected groupsAt; rw [hlist]; rfl
    rw [hlist, hb2z, hz]
    simp only [lsum_cons, lsum_nil, groupVal, if_true, roleVal, R.map_zero]
    rw [hA, relu_of_nonneg h0]; grind
  | _ => rw [hf] at hm0; simp at hm0

/-- Certificates, mixed comparisons (the copies a mix group reads, both modes): each copy `cs_k`
holds, after the heads, a value within `copyErr` of term `k`'s count. -/
theorem mix_copies (R : RatEmb α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α} {mode : Mode α}
    (hmode : ModeOK R C n mode) (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d)
    (hroles : C.spans.length = d) (hc : 0 < C.c) (hk : 0 < C.expK)
    {LW : LayerW} {LD : LayerD} (hlen : LW.heads.length = LD.heads.length)
    (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true) (hnd : nodupNat (plkCopies LD) = true)
    {i : Nat} (hi : i < n) {cs : List Nat} {ts : List (Int × CountDir × Nat)} (hcop : copiesOK LD cs ts = true) :
    cs.length = ts.length ∧ ∀ q, q ∈ cs.zip ts →
      absv (attnStep R mode LW x n i q.1 - natCast (countIn (fun j => holds C.prog w n q.2.2.2 j) n i q.2.2.1))
        ≤ R.cast C.copyErr := by
  obtain ⟨hl, hq⟩ := copiesOK_facts cs ts hcop
  refine ⟨hl, fun q hqm => ?_⟩
  obtain ⟨hd0, ac, hhd0, hf⟩ := plkHas_mem (hq q hqm)
  obtain ⟨hw0, hp0⟩ := exists_zip_of_mem hlen hhd0
  obtain ⟨hA, -, hb⟩ := copy_attn R hmode hinv hE hcrd hroles hc hk hlen hh hnd hi hp0 hf
  rw [hA]; exact hb

/-- Certificates, mixed comparisons (the layer's step at a mix group's node, both modes): the clamp
of the copied counts writes the comparison's exact value. -/
theorem mix_step (R : RatEmb α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α} {mode : Mode α}
    (hmode : ModeOK R C n mode) (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d)
    (hroles : C.spans.length = d) (hc : 0 < C.c) (hk : 0 < C.expK)
    {LW : LayerW} {LD : LayerD} (hlen : LW.heads.length = LD.heads.length)
    (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true) (hnd : nodupNat (plkCopies LD) = true)
    {i : Nat} (hi : i < n) {c : Nat} (hcd : c < d) {g : Nat} {cs : List Nat}
    (hGmem : GroupD.mix g cs ∈ groupsAt C LD.groups c) (hGc : GroupD.target C (.mix g cs) = c)
    (hf : groupFacts C LD l (.mix g cs)) (htb : (groupsAt C LD.groups (GroupD.target C (.mix g cs))).length = 1)
    (hct : ¬ isCntTarget LD c) (hcp : c ∉ plkCopies LD) :
    attnStep R mode LW x n i c + lsum (LD.groups.filter (fun G => G.target C == c)) (groupVal R C LD l (attnStep R mode LW x n i) c)
      + R.cast (b2Expected C LD.groups c) = roleVal C.prog w n (C.roleAt c l) i := by
  obtain ⟨hmc, ⟨ts, r, hn, hcop, hbud⟩, hrz, hrg, hgna⟩ := hf
  have hgc : C.crd g = c := hGc
  rw [hgc] at hrg hrz
  have hxl : x i c = 0 := by rw [inv_exact (c := c) hinv hi hcd (by rw [hrz]; rfl), hrz]; rfl
  have hlist : groupsAt C LD.groups c = [.mix g cs] := by
    rw [hGc] at htb
    cases hgs : groupsAt C LD.groups c with
    | nil => rw [hgs] at htb; simp at htb
    | cons G0 rest =>
      rw [hgs] at htb
      cases rest with
      | cons _ _ => simp at htb
      | nil => rw [hgs] at hGmem; simp at hGmem; rw [hGmem]
  have hY : attnStep R mode LW x n i c = 0 := by
    show x i c + lsum LW.heads (fun h => headOut R mode h x n i c) = 0
    rw [heads_out_zero R mode hinv hE hcrd hroles hlen hh hi (fun g2 hg2 he => by
      have := (attended_role hlen hh hg2).1; rw [he, hrg] at this
      have h22 := Role.node.inj this
      rw [← h22] at hg2; exact hgna hg2) hct hcp
      (not_plkNVc hlen hh (fun g' h => by rw [hrg] at h; cases h)), hxl]; grind
  obtain ⟨hcl, hcq⟩ := mix_copies R hmode hinv hE hcrd hroles hc hk hlen hh hnd hi hcop
  unfold groupsAt at hlist
  have hb2z : b2Expected C LD.groups c = 0 := by unfold b2Expected groupsAt; rw [hlist]; rfl
  rw [hlist, hY, hb2z, hrg]
  simp only [lsum_cons, lsum_nil, groupVal, hgc, if_true, roleVal, cmpTs, cmpR, hn]
  rw [mix_val R (attnStep R mode LW x n i) hn (mixed_lt hmc hn) hcl hcq hbud, R.map_zero]
  grind

/-- Certificates (a node's inputs after the heads, both modes): an input is exact, or attended and
within `ε` (`2ε` for a sign head's); a flipped input's effective value `1 - y` (`effv`) is as near
its node's value as its raw value `y` is to `1 - [x]` (`rawTarget`). -/
theorem input_err (R : RatEmb α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α} {mode : Mode α}
    (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d)
    (hroles : C.spans.length = d) {LW : LayerW} {LD : LayerD} (hlen : LW.heads.length = LD.heads.length)
    (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true)
    (hmode : ModeOK R C n mode) (hsym : ∀ k, k < n → w.getD k 0 < C.nsym) (hK : 0 < C.K) (hc : 0 < C.c)
    (hk : 0 < C.expK)
    (hnd : nodupNat ((attended LD).map C.crd) = true) (hex : ∀ g, g ∈ flippedAtt LD → g ∈ plainAtt LD → False)
    {i : Nat} (hi : i < n) :
    ∀ x0, inputOK C LD l x0 = true →
      absv (effv (attnStep R mode LW x n i) (C.crd x0, flipOf LD x0) - ind (holds C.prog w n x0 i))
        ≤ (if (attended LD).contains x0 = true then (R.cast C.errRule : α) else 0)
          + (if (signAttended LD).contains x0 = true then (R.cast C.errRule : α) else 0) := by
  have hy : ∀ j c, attnStep R mode LW x n j c = x j c + lsum LW.heads (fun h => headOut R mode h x n j c) :=
    fun _ _ => rfl
  have hrole := fun g (hg : g ∈ attended LD) => attended_role hlen hh hg
  have hnottgt : ∀ c', C.roleAt c' (l - 1) ≠ .zero → ∀ g, g ∈ attended LD → C.crd g ≠ c' := by
    intro c' hz g hg he
    have := (hrole g hg).2
    rw [he] at this; exact hz this
  have hnotcnt : ∀ c', C.roleAt c' (l - 1) ≠ .zero → (∀ g, C.roleAt c' (l - 1) ≠ .pre g) → ¬ isCntTarget LD c' :=
    fun c' hz hp hct => by
      rcases (cntTarget_zero hlen hh hct).1 with h | ⟨g, h⟩
      · exact hz h
      · exact hp g h
  have hattcnt : ∀ g, g ∈ attended LD → ¬ isCntTarget LD (C.crd g) := by
    intro g hg hct
    rcases (cntTarget_zero hlen hh hct).2 with ⟨g', hv⟩ | ⟨dd, g', hv⟩ | ⟨dd, g', hv⟩ <;> rw [(hrole g hg).1] at hv <;> cases hv
  have hε0 : (0 : α) ≤ R.cast C.errRule := errRule_nonneg R C (gamma_nonneg R hK hc) hk
  intro x0 hx0
  unfold inputOK at hx0
  simp only [Bool.or_eq_true] at hx0
  by_cases hat : x0 ∈ attended LD
  · rw [if_pos (List.contains_iff_mem.mpr hat)]
    obtain ⟨q, hq, hqn, hout⟩ := heads_out_target R mode hinv hE hcrd hroles hlen hh hnd hi hat (hattcnt x0 hat)
      (fun hm => by have h2 := (copy_zero hlen hh hm).2; rw [(hrole x0 hat).1] at h2; cases h2)
      (not_plkNVc hlen hh (fun g' h => by rw [(hrole x0 hat).1] at h; cases h))
    have hY : attnStep R mode LW x n i (C.crd x0) = rawOut R mode C q.1 q.2.1 x w n i q.2.2 := by
      rw [hy, hout, inv_exact hinv hi (hcrd x0) (by rw [(hrole x0 hat).2]; rfl), (hrole x0 hat).2]
      simp only [roleVal]; grind
    have hb := raw_bound R hmode hinv hE hcrd hroles hsym hK hc hk hh hex hq hi
    rw [hqn] at hb
    have hle : (R.cast (errOf C LD x0) : α) ≤ (R.cast C.errRule : α) + (if (signAttended LD).contains x0 = true then (R.cast C.errRule : α) else 0) := by
      unfold errOf
      split
      · rw [R.map_mul, R.map_two]; grind
      · grind
    have hbd := bounds_of_absv_le hb.2
    unfold rawTarget at hbd
    unfold effv flipOf
    simp only
    rw [hY]
    by_cases hf : x0 ∈ flippedAtt LD
    · rw [if_pos hf] at hbd
      rw [if_pos (List.contains_iff_mem.mpr hf)]
      exact absv_le_of_le_of_neg_le (by grind) (by grind)
    · rw [if_neg hf] at hbd
      rw [if_neg (fun h => hf (List.contains_iff_mem.mp h))]
      exact absv_le_of_le_of_neg_le (by grind) (by grind)
  · rw [if_neg (fun h => hat (List.contains_iff_mem.mp h))]
    have hnf : flipOf LD x0 = false := by
      cases hcf : flipOf LD x0
      · rfl
      · exact absurd (flipped_attended (by unfold flipOf at hcf; exact List.contains_iff_mem.mp hcf)) hat
    have hev : effv (attnStep R mode LW x n i) (C.crd x0, flipOf LD x0) = attnStep R mode LW x n i (C.crd x0) := by
      unfold effv; rw [hnf]; rfl
    rw [hev]
    have hns : (signAttended LD).contains x0 = false := by
      cases hcs : (signAttended LD).contains x0
      · rfl
      · exfalso; apply hat
        have hm := List.contains_iff_mem.mp hcs
        unfold signAttended at hm
        obtain ⟨hd, hhd, hm'⟩ := List.mem_flatMap.mp hm
        unfold attended
        refine List.mem_flatMap.mpr ⟨hd, hhd, ?_⟩
        split at hm'
        · exact hm'
        · simp at hm'
    rw [hns]; simp only [Bool.false_eq_true, if_false]
    rcases hx0 with hr | hr
    · have hz : C.roleAt (C.crd x0) (l - 1) ≠ .zero := fun h0 => by unfold rep at hr; rw [h0] at hr; simp at hr
      have hp : ∀ g, C.roleAt (C.crd x0) (l - 1) ≠ .pre g := fun g h0 => by
        unfold rep at hr; rw [h0] at hr; simp at hr
      rw [hy, heads_out_zero R mode hinv hE hcrd hroles hlen hh hi (hnottgt _ hz) (hnotcnt _ hz hp) (fun hm => hz (copy_zero hlen hh hm).1)
        (fun hm => by
          obtain ⟨g', h1, _⟩ := plkN_vc_roles hlen hh hm
          unfold rep at hr; rw [h1] at hr; simp at hr)]
      rw [inv_exact hinv hi (hcrd x0) (rep_approx hr), rep_val hE hr]
      have : (ind (holds C.prog w n x0 i) : α) + 0 - ind (holds C.prog w n x0 i) = 0 := by grind
      rw [this]; unfold absv; rw [if_pos (Std.le_refl _)]; grind
    · exact absurd (List.contains_iff_mem.mp hr) hat

/-- Certificates (the error sum of a node's inputs after the heads, both modes): at most `1/4`
when the inputs' approximate count times `ε` is. -/
theorem inputs_err (R : RatEmb α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α} {mode : Mode α}
    (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d)
    (hroles : C.spans.length = d) {LW : LayerW} {LD : LayerD} (hlen : LW.heads.length = LD.heads.length)
    (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true)
    (hmode : ModeOK R C n mode) (hsym : ∀ k, k < n → w.getD k 0 < C.nsym) (hK : 0 < C.K) (hc : 0 < C.c)
    (hk : 0 < C.expK)
    (hnd : nodupNat ((attended LD).map C.crd) = true) (hex : ∀ g, g ∈ flippedAtt LD → g ∈ plainAtt LD → False)
    {i : Nat} (hi : i < n) :
    ∀ ins : List Nat, (∀ x0, x0 ∈ ins → inputOK C LD l x0 = true) →
      (approxCount LD ins : Rat) * C.errRule ≤ 1 / 4 →
      errSum (effv (attnStep R mode LW x n i)) ((ins.map C.crd).zip (ins.map (flipOf LD)))
        (ins.map (fun x0 => decide (holds C.prog w n x0 i))) ≤ 1 / 4 := by
  have hinput := input_err R hinv hE hcrd hroles hlen hh hmode hsym hK hc hk hnd hex hi
  intro ins hins happ
  rw [zip_map_map, errSum_map]
  have h1 : lsum ins (fun x0 => absv (effv (attnStep R mode LW x n i) (C.crd x0, flipOf LD x0) - ind (holds C.prog w n x0 i)))
      ≤ lsum ins (fun x0 => (if (attended LD).contains x0 = true then (R.cast C.errRule : α) else 0)
          + (if (signAttended LD).contains x0 = true then (R.cast C.errRule : α) else 0)) := by
    clear happ
    induction ins with
    | nil => exact Std.le_refl _
    | cons a t ih =>
      rw [lsum_cons, lsum_cons]
      have := hinput a (hins a (by simp))
      have := ih (fun x0 hx0 => hins x0 (by simp [hx0]))
      grind
  rw [lsum_add, lsum_ite_count, lsum_ite_count, ← Lean.Grind.Semiring.right_distrib, ← natCast_add] at h1
  have h2 : natCast ((ins.filter (fun x0 => (attended LD).contains x0)).length
      + (ins.filter (fun x0 => (signAttended LD).contains x0)).length) * (R.cast C.errRule : α) ≤ (1 : α) / 4 := by
    have := R.map_le _ _ happ
    rw [R.map_mul, R.map_natCast, R.map_div (by decide), R.map_one] at this
    have h4 : R.cast 4 = (4 : α) := R.map_four
    rw [h4] at this
    exact this
  unfold approxCount at h2
  exact Std.le_trans h1 h2

/-- Certificates (the layer's step at an attended node's coordinate, both modes): its head's raw
output, clamped by its `pair` (or `pairFlip`) and erased by its `eraser`, is the node's exact value. -/
theorem pair_step (R : RatEmb α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α} {mode : Mode α}
    (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d)
    (hroles : C.spans.length = d) {LW : LayerW} {LD : LayerD} (hlen : LW.heads.length = LD.heads.length)
    (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true)
    {i : Nat} (hi : i < n) {c : Nat} (hcd : c < d)
    (hmode : ModeOK R C n mode) (hsym : ∀ k, k < n → w.getD k 0 < C.nsym) (hK : 0 < C.K) (hc : 0 < C.c)
    (hk : 0 < C.expK)
    (hnd : nodupNat ((attended LD).map C.crd) = true) (hex : ∀ g, g ∈ flippedAtt LD → g ∈ plainAtt LD → False) (hatt : (attended LD).all (fun g => match groupsAt C LD.groups (C.crd g) with
      | [.pair g1, .eraser g2] => g1 == g && g2 == g
      | [.pairFlip g1, .eraser g2] => g1 == g && g2 == g
      | _ => false) = true)
    (hfacts : ∀ G, G ∈ LD.groups → groupFacts C LD l G)
    (hct : ¬ isCntTarget LD c) (hcp : c ∉ plkCopies LD) {g : Nat} (hgatt : g ∈ attended LD) (hGc : C.crd g = c) :
    attnStep R mode LW x n i c + lsum (LD.groups.filter (fun G => G.target C == c)) (groupVal R C LD l (attnStep R mode LW x n i) c)
      + R.cast (b2Expected C LD.groups c) = roleVal C.prog w n (C.roleAt c l) i := by
  have hy : ∀ j c, attnStep R mode LW x n j c = x j c + lsum LW.heads (fun h => headOut R mode h x n j c) :=
    fun _ _ => rfl
  have hrole := fun g (hg : g ∈ attended LD) => attended_role hlen hh hg
  have hxc := fun (ha : (C.roleAt c (l - 1)).approx = false) => inv_exact hinv hi hcd ha
  have hgc : C.crd g = c := hGc
  have hrg := hrole g hgatt
  rw [hgc] at hrg
  have hxl : x i c = 0 := by rw [hxc (by rw [hrg.2]; rfl), hrg.2]; rfl
  have hat := List.all_eq_true.mp hatt g hgatt
  obtain ⟨q, hq, hqn, hout⟩ := heads_out_target R mode hinv hE hcrd hroles hlen hh hnd hi hgatt
    (by rw [hgc]; exact hct) (by rw [hgc]; exact hcp)
    (not_plkNVc hlen hh (fun g' h => by rw [(hrole g hgatt).1] at h; cases h))
  have hb := raw_bound R hmode hinv hE hcrd hroles hsym hK hc hk hh hex hq hi
  rw [hqn] at hb
  have hY : attnStep R mode LW x n i c = rawOut R mode C q.1 q.2.1 x w n i q.2.2 := by
    rw [hy, ← hgc, hout, hgc, hxl]; grind
  have h4 : R.cast 4 = (4 : α) := R.map_four
  rcases (show groupsAt C LD.groups c = [.pair g, .eraser g] ∨ groupsAt C LD.groups c = [.pairFlip g, .eraser g] by
      rw [← hgc]
      split at hat
      · next g1 g2 hgs => simp only [Bool.and_eq_true, beq_iff_eq] at hat; left; rw [hgs, hat.1, hat.2]
      · next g1 g2 hgs => simp only [Bool.and_eq_true, beq_iff_eq] at hat; right; rw [hgs, hat.1, hat.2]
      · simp at hat) with hlist | hlist
  · have hpair := hfacts (.pair g) (List.mem_filter.mp (by rw [hlist]; simp : GroupD.pair g ∈ groupsAt C LD.groups c)).1
    have hε4 : (R.cast (errOf C LD g) : α) ≤ 1 / 4 := by
      have := R.map_le _ _ hpair.2.1
      rw [R.map_div (by decide), R.map_one, h4] at this; exact this
    unfold rawTarget at hb
    rw [if_neg hpair.2.2] at hb
    unfold groupsAt at hlist
    have hb2z : b2Expected C LD.groups c = 0 := by
      unfold b2Expected groupsAt; rw [hlist]; rfl
    rw [hlist, hb2z, R.map_zero, hrg.1]
    simp only [lsum_cons, lsum_nil, groupVal, hgc, if_true, roleVal]
    rw [hY]
    generalize rawOut R mode C q.1 q.2.1 x w n i q.2.2 = S at hb
    obtain ⟨hS0, hSe⟩ := hb
    rw [relu_of_nonneg hS0, pair_clamp_eq _ (ind_cases _) (Std.le_trans hSe hε4)]
    grind
  · have hpf := hfacts (.pairFlip g)
      (List.mem_filter.mp (by rw [hlist]; simp : GroupD.pairFlip g ∈ groupsAt C LD.groups c)).1
    have hε4 : (R.cast (errOf C LD g) : α) ≤ 1 / 4 := by
      have := R.map_le _ _ hpf.2.1
      rw [R.map_div (by decide), R.map_one, h4] at this; exact this
    unfold rawTarget at hb
    rw [if_pos hpf.1] at hb
    unfold groupsAt at hlist
    have hb2z : b2Expected C LD.groups c = 0 := by
      unfold b2Expected groupsAt; rw [hlist]; rfl
    rw [hlist, hb2z, R.map_zero, hrg.1]
    simp only [lsum_cons, lsum_nil, groupVal, hgc, if_true, roleVal]
    rw [hY]
    generalize rawOut R mode C q.1 q.2.1 x w n i q.2.2 = S at hb
    obtain ⟨hS0, hSe⟩ := hb
    rw [relu_of_nonneg hS0, flip_clamp_eq _ (ind_cases _) (Std.le_trans hSe hε4)]
    grind

/-- Certificates, comparison of counts (the layer's step at a strict comparison's node, both
modes): the `pre` units write `ReLU(v q) - ReLU(-v q) = v q`, its direction's feature times its
constant part. -/
theorem pre_step (R : RatEmb α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α} {mode : Mode α}
    (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d)
    (hroles : C.spans.length = d) {LW : LayerW} {LD : LayerD} (hlen : LW.heads.length = LD.heads.length)
    (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true)
    {i : Nat} (hi : i < n) {c : Nat} (hcd : c < d) {g vc f : Nat}
    (hGmem : .pre g vc f ∈ groupsAt C LD.groups c) (hGc : GroupD.target C (.pre g vc f) = c)
    (hf : groupFacts C LD l (.pre g vc f)) (htb : (groupsAt C LD.groups (GroupD.target C (.pre g vc f))).length = 1)
    (hct : ¬ isCntTarget LD c) (hcp : c ∉ plkCopies LD) :
    attnStep R mode LW x n i c + lsum (LD.groups.filter (fun G => G.target C == c)) (groupVal R C LD l (attnStep R mode LW x n i) c)
      + R.cast (b2Expected C LD.groups c) = roleVal C.prog w n (C.roleAt c l) i := by
  have hy : ∀ j c, attnStep R mode LW x n j c = x j c + lsum LW.heads (fun h => headOut R mode h x n j c) :=
    fun _ _ => rfl
  have hrole := fun g (hg : g ∈ attended LD) => attended_role hlen hh hg
  have hxc := fun (ha : (C.roleAt c (l - 1)).approx = false) => inv_exact hinv hi hcd ha
  have hnottgt : ∀ c', C.roleAt c' (l - 1) ≠ .zero → ∀ g, g ∈ attended LD → C.crd g ≠ c' := by
    intro c' hz g hg he
    have := (hrole g hg).2
    rw [he] at this; exact hz this
  have hnotcnt : ∀ c', C.roleAt c' (l - 1) ≠ .zero → (∀ g, C.roleAt c' (l - 1) ≠ .pre g) → ¬ isCntTarget LD c' :=
    fun c' hz hp hct => by
      rcases (cntTarget_zero hlen hh hct).1 with h | ⟨g, h⟩
      · exact hz h
      · exact hp g h
  obtain ⟨hstr, hfc, hz, hpre⟩ := hf
  have hvc : GroupD.target C (.pre g vc f) = c := hGc
  simp only [GroupD.target] at hvc
  subst hvc
  have hlist : groupsAt C LD.groups vc = [.pre g vc f] := by
    cases hgs : groupsAt C LD.groups (GroupD.target C (.pre g vc f)) with
    | nil => simp only [hgs] at htb; simp at htb
    | cons G0 rest =>
      rw [hgs] at htb
      cases rest with
      | cons _ _ => simp at htb
      | nil =>
        have : GroupD.pre g vc f ∈ groupsAt C LD.groups vc := hGmem
        simp only [GroupD.target] at hgs
        rw [hgs] at this; simp at this; rw [hgs, this]
  have hne : ∀ g', g' ∈ attended LD → C.crd g' ≠ vc := fun g' hg' he => by
    have := (hrole g' hg').1; rw [he, hpre] at this; cases this
  have hYv : attnStep R mode LW x n i vc = 0 := by
    rw [hy, heads_out_zero R mode hinv hE hcrd hroles hlen hh hi hne hct hcp
      (fun hm => by obtain ⟨g', h1, _⟩ := plkN_vc_roles hlen hh hm; rw [hz] at h1; cases h1),
      hxc (by rw [hz]; rfl), hz]; simp only [roleVal]; grind
  have hff := featCoord_sound hfc
  have hYf : attnStep R mode LW x n i f = (dirFeat (cmpDir C.prog g)).val n i := by
    have hz' : C.roleAt f (l - 1) ≠ .zero := by rw [hff.1]; simp
    rw [hy, heads_out_zero R mode hinv hE hcrd hroles hlen hh hi (hnottgt _ hz')
        (hnotcnt _ hz' (fun g' h => by rw [hff.1] at h; cases h)) (fun hm => hz' (copy_zero hlen hh hm).1)
        (fun hm => by obtain ⟨g', h1, _⟩ := plkN_vc_roles hlen hh hm; rw [hff.1] at h1; cases h1),
      inv_exact (c := f) hinv hi (by rw [← hroles]; exact hff.2) (by rw [hff.1]; rfl), hff.1]
    simp only [roleVal]; grind
  unfold groupsAt at hlist
  have hb2z : b2Expected C LD.groups vc = 0 := by
    unfold b2Expected groupsAt; rw [hlist]; rfl
  rw [hlist, hb2z, R.map_zero, hpre]
  simp only [lsum_cons, lsum_nil, groupVal, if_true, roleVal]
  have h2' : R.cast (2 : Rat) = (2 : α) := R.map_two
  rw [hYv, hYf, R.map_neg, R.map_div (by decide), R.map_intCast, h2']
  generalize (icast (α := α) (2 * cmpR C.prog g - 1)) / 2 = q
  generalize ((dirFeat (cmpDir C.prog g)).val n i : α) = v
  rw [show v * -q = -(v * q) by grind, relu_sub_relu_neg]
  grind

/-- Certificates (the layer's step at a cleared coordinate, both modes): `-ReLU(v) + ReLU(-v)`
erases its value. -/
theorem clear_step (R : RatEmb α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α} {mode : Mode α}
    (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d)
    (hroles : C.spans.length = d) {LW : LayerW} {LD : LayerD} (hlen : LW.heads.length = LD.heads.length)
    (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true)
    {i : Nat} (hi : i < n) {c : Nat} (hcd : c < d) {c' : Nat}
    (hGmem : .clear c' ∈ groupsAt C LD.groups c) (hGc : GroupD.target C (.clear c') = c)
    (hf : groupFacts C LD l (.clear c')) (htb : (groupsAt C LD.groups (GroupD.target C (.clear c'))).length = 1)
    (hct : ¬ isCntTarget LD c) (hcp : c ∉ plkCopies LD) :
    attnStep R mode LW x n i c + lsum (LD.groups.filter (fun G => G.target C == c)) (groupVal R C LD l (attnStep R mode LW x n i) c)
      + R.cast (b2Expected C LD.groups c) = roleVal C.prog w n (C.roleAt c l) i := by
  have hy : ∀ j c, attnStep R mode LW x n j c = x j c + lsum LW.heads (fun h => headOut R mode h x n j c) :=
    fun _ _ => rfl
  have hrole := fun g (hg : g ∈ attended LD) => attended_role hlen hh hg
  have hxc := fun (ha : (C.roleAt c (l - 1)).approx = false) => inv_exact hinv hi hcd ha
  obtain ⟨hz, hnt⟩ := hf
  have hcc : c' = c := hGc
  subst hcc
  have hlist : groupsAt C LD.groups c' = [.clear c'] := by
    cases hgs : groupsAt C LD.groups (GroupD.target C (.clear c')) with
    | nil => simp only [hgs] at htb; simp at htb
    | cons G0 rest =>
      rw [hgs] at htb
      cases rest with
      | cons _ _ => simp at htb
      | nil =>
        have : GroupD.clear c' ∈ groupsAt C LD.groups c' := hGmem
        simp only [GroupD.target] at hgs
        rw [hgs] at this; simp at this; rw [hgs, this]
  have hne : ∀ g, g ∈ attended LD → C.crd g ≠ c' := fun g hg he =>
    hnt (List.mem_map.mpr ⟨g, hg, he⟩)
  have hY : attnStep R mode LW x n i c' = x i c' := by
    rw [hy, heads_out_zero R mode hinv hE hcrd hroles hlen hh hi hne hct hcp
      (not_plkNVc hlen hh (fun g' h => by rw [hz] at h; cases h))]; grind
  unfold groupsAt at hlist
  have hb2z : b2Expected C LD.groups c' = 0 := by
    unfold b2Expected groupsAt; rw [hlist]; rfl
  rw [hlist, hb2z, R.map_zero, hz]
  simp only [lsum_cons, lsum_nil, groupVal, if_true, roleVal]
  rw [hY]
  generalize x i c' = v
  have hr : relu (-v) - relu v = -v := by
    have h0 := relu_sub_relu_neg (-v)
    rwa [show -(-v) = v by grind] at h0
  rw [hr]; grind

/-- Certificates (the layer's step at a table group's node, both modes): the clamps of the
node's inputs pick its assignment, whose table entry (negated through `b_2` if asked) is the node's
value. -/
theorem table_step (R : RatEmb α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α} {mode : Mode α}
    (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d)
    (hroles : C.spans.length = d) {LW : LayerW} {LD : LayerD} (hlen : LW.heads.length = LD.heads.length)
    (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true)
    {i : Nat} (hi : i < n) {c : Nat} (hcd : c < d) {g : Nat} {ins ex : List Nat} {as : List (List Bool)} {neg : Bool}
    (hGmem : .table g ins ex as neg ∈ groupsAt C LD.groups c) (hGc : GroupD.target C (.table g ins ex as neg) = c)
    (hf : groupFacts C LD l (.table g ins ex as neg)) (htb : (groupsAt C LD.groups (GroupD.target C (.table g ins ex as neg))).length = 1)
    (hct : ¬ isCntTarget LD c) (hcp : c ∉ plkCopies LD)
    (herr : ∀ ins : List Nat, (∀ x0, x0 ∈ ins → inputOK C LD l x0 = true) →
      (approxCount LD ins : Rat) * C.errRule ≤ 1 / 4 →
      errSum (effv (attnStep R mode LW x n i)) ((ins.map C.crd).zip (ins.map (flipOf LD)))
        (ins.map (fun x0 => decide (holds C.prog w n x0 i))) ≤ 1 / 4) :
    attnStep R mode LW x n i c + lsum (LD.groups.filter (fun G => G.target C == c)) (groupVal R C LD l (attnStep R mode LW x n i) c)
      + R.cast (b2Expected C LD.groups c) = roleVal C.prog w n (C.roleAt c l) i := by
  have hy : ∀ j c, attnStep R mode LW x n j c = x j c + lsum LW.heads (fun h => headOut R mode h x n j c) :=
    fun _ _ => rfl
  have hxc := fun (ha : (C.roleAt c (l - 1)).approx = false) => inv_exact hinv hi hcd ha
  have hrole := fun g (hg : g ∈ attended LD) => attended_role hlen hh hg
  obtain ⟨hrg, hrz, hgna, hins, hkev, happ, hnda, hlens⟩ := hf
  have hgc : C.crd g = c := hGc
  rw [hgc] at hrg hrz
  have hxl : x i c = 0 := by rw [hxc (by rw [hrz]; rfl), hrz]; rfl
  have hlist : groupsAt C LD.groups c = [.table g ins ex as neg] := by
    rw [← hgc]
    cases hgs : groupsAt C LD.groups (C.crd g) with
    | nil => simp only [GroupD.target] at htb; rw [hgs] at htb; simp at htb
    | cons G0 rest =>
      simp only [GroupD.target] at htb
      rw [hgs] at htb
      cases rest with
      | cons _ _ => simp at htb
      | nil =>
        have : GroupD.table g ins ex as neg ∈ groupsAt C LD.groups (C.crd g) := by rw [hgc]; exact hGmem
        rw [hgs] at this; simp at this; rw [this]
  have hY : ∀ c', c' = c → attnStep R mode LW x n i c' = 0 := by
    intro c' hc'; subst hc'
    rw [hy, heads_out_zero R mode hinv hE hcrd hroles hlen hh hi (fun g2 hg2 he => by
      have := (hrole g2 hg2).1; rw [he, hrg] at this
      have h22 := Role.node.inj this
      rw [← h22] at hg2; exact hgna hg2) hct hcp
      (not_plkNVc hlen hh (fun g' h => by rw [hrg] at h; cases h)), hxl]; grind
  unfold groupsAt at hlist
  rw [hlist, hY c rfl]
  have hb2v : b2Expected C LD.groups c = if neg then 1 else 0 := by
    unfold b2Expected groupsAt; rw [hlist]; cases neg <;> rfl
  rw [hb2v, hrg]
  simp only [lsum_cons, lsum_nil, groupVal, hgc, if_true, roleVal]
  let ρ := ins.map (fun x0 => decide (holds C.prog w n x0 i))
  have hcl : ∀ σ, σ ∈ as → clampOf (effv (attnStep R mode LW x n i)) ((ins.map C.crd).zip (ins.map (flipOf LD))) σ
      = if σ = ρ then 1 else 0 :=
    fun σ hσ => clampOf_eq _ (by simp [hlens σ hσ]) (by simp [ρ]) (herr ins hins happ)
  rw [lsum_congr (fun σ hσ => by rw [hcl σ hσ])]
  have hsum : lsum as (fun σ => (if neg = true then -1 else 1) * (if σ = ρ then (1 : α) else 0))
      = (if as.contains ρ then 1 else 0) * (if neg = true then -1 else 1) := by
    rw [← lsum_eq_indicator as ρ hnda, ← lsum_mul_const]
    exact lsum_congr (fun σ _ => by grind)
  rw [hsum]
  have hρf : (ins ++ ex).map (fun x0 => decide (holds C.prog w n x0 i)) ∈ allAssign (ins.length + ex.length) := by
    have := mem_allAssign ((ins ++ ex).map (fun x0 => decide (holds C.prog w n x0 i)))
    simpa using this
  have hkv := hkev _ hρf
  have htake : ((ins ++ ex).map (fun x0 => decide (holds C.prog w n x0 i))).take ins.length = ρ := by
    rw [List.map_append, List.take_left' (by simp)]
  rw [htake] at hkv
  have hsem := keval_sound C.prog (ins ++ ex) _ w n i (leaves_actual C.prog w n i (ins ++ ex)) _ _ _ hkv
  have hV : (0 : α) + ((if as.contains ρ = true then 1 else 0) * (if neg = true then -1 else 1) + 0)
      + R.cast (if neg = true then 1 else 0) = if (as.contains ρ != neg) = true then 1 else 0 := by
    cases as.contains ρ <;> cases neg <;> simp [R.map_zero, R.map_one] <;> grind
  rw [hV]; unfold ind
  by_cases hh : (as.contains ρ != neg) = true
  · rw [if_pos hh, if_pos (hsem.mpr hh)]
  · rw [if_neg hh, if_neg (fun h => hh (hsem.mp h))]

/-- Certificates (the layer's step at a gate group's node, both modes): the clamp of the node's
inputs at its one assignment `σ` (negated through `b_2` if asked) is the node's value. -/
theorem gate_step (R : RatEmb α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α} {mode : Mode α}
    (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d)
    (hroles : C.spans.length = d) {LW : LayerW} {LD : LayerD} (hlen : LW.heads.length = LD.heads.length)
    (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true)
    {i : Nat} (hi : i < n) {c : Nat} (hcd : c < d) {g : Nat} {ins : List Nat} {σ : List Bool} {neg : Bool}
    (hGmem : .gate g ins σ neg ∈ groupsAt C LD.groups c) (hGc : GroupD.target C (.gate g ins σ neg) = c)
    (hf : groupFacts C LD l (.gate g ins σ neg)) (htb : (groupsAt C LD.groups (GroupD.target C (.gate g ins σ neg))).length = 1)
    (hct : ¬ isCntTarget LD c) (hcp : c ∉ plkCopies LD)
    (herr : ∀ ins : List Nat, (∀ x0, x0 ∈ ins → inputOK C LD l x0 = true) →
      (approxCount LD ins : Rat) * C.errRule ≤ 1 / 4 →
      errSum (effv (attnStep R mode LW x n i)) ((ins.map C.crd).zip (ins.map (flipOf LD)))
        (ins.map (fun x0 => decide (holds C.prog w n x0 i))) ≤ 1 / 4) :
    attnStep R mode LW x n i c + lsum (LD.groups.filter (fun G => G.target C == c)) (groupVal R C LD l (attnStep R mode LW x n i) c)
      + R.cast (b2Expected C LD.groups c) = roleVal C.prog w n (C.roleAt c l) i := by
  have hy : ∀ j c, attnStep R mode LW x n j c = x j c + lsum LW.heads (fun h => headOut R mode h x n j c) :=
    fun _ _ => rfl
  have hxc := fun (ha : (C.roleAt c (l - 1)).approx = false) => inv_exact hinv hi hcd ha
  have hrole := fun g (hg : g ∈ attended LD) => attended_role hlen hh hg
  obtain ⟨hrg, hrz, hgna, hins, ⟨lits, hcj, hlm⟩, happ, hlen'⟩ := hf
  have hgc : C.crd g = c := hGc
  rw [hgc] at hrg hrz
  have hxl : x i c = 0 := by rw [hxc (by rw [hrz]; rfl), hrz]; rfl
  have hlist : groupsAt C LD.groups c = [.gate g ins σ neg] := by
    rw [← hgc]
    cases hgs : groupsAt C LD.groups (C.crd g) with
    | nil => simp only [GroupD.target] at htb; rw [hgs] at htb; simp at htb
    | cons G0 rest =>
      simp only [GroupD.target] at htb
      rw [hgs] at htb
      cases rest with
      | cons _ _ => simp at htb
      | nil =>
        have : GroupD.gate g ins σ neg ∈ groupsAt C LD.groups (C.crd g) := by rw [hgc]; exact hGmem
        rw [hgs] at this; simp at this; rw [this]
  have hY : ∀ c', c' = c → attnStep R mode LW x n i c' = 0 := by
    intro c' hc'; subst hc'
    rw [hy, heads_out_zero R mode hinv hE hcrd hroles hlen hh hi (fun g2 hg2 he => by
      have := (hrole g2 hg2).1; rw [he, hrg] at this
      have h22 := Role.node.inj this
      rw [← h22] at hg2; exact hgna hg2) hct hcp
      (not_plkNVc hlen hh (fun g' h => by rw [hrg] at h; cases h)), hxl]; grind
  unfold groupsAt at hlist
  rw [hlist, hY c rfl]
  have hb2v : b2Expected C LD.groups c = if neg then 1 else 0 := by
    unfold b2Expected groupsAt; rw [hlist]; cases neg <;> rfl
  rw [hb2v, hrg]
  simp only [lsum_cons, lsum_nil, groupVal, hgc, if_true, roleVal]
  let ρ := ins.map (fun x0 => decide (holds C.prog w n x0 i))
  rw [clampOf_eq _ (by simp [hlen']) (by simp [ρ]) (herr ins hins happ)]
  have hsem := conjLits_sound C.prog ins w n i (g + 1) g (!neg) lits hcj
  have hlm' : (∀ e, e ∈ lits → (holds C.prog w n e.1 i ↔ e.2 = true))
      ↔ (∀ e, e ∈ ins.zip σ → (holds C.prog w n e.1 i ↔ e.2 = true)) := by
    unfold litsMatch at hlm
    simp only [Bool.and_eq_true, List.all_eq_true] at hlm
    constructor
    · intro H e he; exact H e (List.contains_iff_mem.mp (hlm.2 e he))
    · intro H e he; exact H e (List.contains_iff_mem.mp (hlm.1 e he))
  rw [hlm', zip_iff_eq (fun x0 => holds C.prog w n x0 i) ins σ hlen'] at hsem
  unfold ind
  cases neg
  · simp only [Bool.not_false] at hsem
    have hs : (holds C.prog w n g i ↔ σ = ρ) := by rw [← hsem]; simp
    by_cases hσ : σ = ρ
    · rw [if_pos hσ, if_pos (hs.mpr hσ)]; simp [R.map_zero]; grind
    · rw [if_neg hσ, if_neg (fun h => hσ (hs.mp h))]; simp [R.map_zero]; grind
  · simp only [Bool.not_true] at hsem
    have hs : (¬ holds C.prog w n g i ↔ σ = ρ) := by rw [← hsem]; simp
    by_cases hσ : σ = ρ
    · rw [if_pos hσ, if_neg (hs.mpr hσ)]; simp [R.map_one]; grind
    · rw [if_neg hσ, if_pos (Classical.byContradiction (fun h => hσ (hs.mp h)))]; simp [R.map_one]; grind


/-- Certificates, comparison of counts (the layer's step at a single-unit comparison's node, both
modes): the `W` unit reads the comparison's `V` and the features `is_first`, `is_last` and writes the
comparison's exact value. -/
theorem single_step (R : RatEmb α) {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α} {mode : Mode α}
    (hinv : Inv C w n d (l - 1) x) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d)
    (hroles : C.spans.length = d) {LW : LayerW} {LD : LayerD} (hlen : LW.heads.length = LD.heads.length)
    (hh : ∀ p, p ∈ LW.heads.zip LD.heads → headOK C l p.1 p.2 = true)
    {i : Nat} (hi : i < n) {c : Nat} (hcd : c < d) (hcnt : countsOK C LD = true)
    (hcov : (List.range d).all (fun c => if (plkCopies LD).contains c then true
      else if (C.roleAt c (l - 1)).beq (C.roleAt c l)
      then (groupsAt C LD.groups c).length == 0
      else if ((cntCols LD).map (·.vc)).contains c || ((plkNEnts LD).map (·.2.2.2)).contains c
      then (groupsAt C LD.groups c).length == 0
      else (groupsAt C LD.groups c).length != 0) = true)
    (hfacts : ∀ G, G ∈ LD.groups → groupFacts C LD l G)
    {g vc wc : Nat} {M : Rat}
    (hGmem : .single g vc wc M ∈ groupsAt C LD.groups c) (hGc : GroupD.target C (.single g vc wc M) = c)
    (hf : groupFacts C LD l (.single g vc wc M)) (htb : (groupsAt C LD.groups (GroupD.target C (.single g vc wc M))).length = 1)
    (hct : ¬ isCntTarget LD c) (hcp : c ∉ plkCopies LD) :
    attnStep R mode LW x n i c + lsum (LD.groups.filter (fun G => G.target C == c)) (groupVal R C LD l (attnStep R mode LW x n i) c)
      + R.cast (b2Expected C LD.groups c) = roleVal C.prog w n (C.roleAt c l) i := by
  have hy : ∀ j c, attnStep R mode LW x n j c = x j c + lsum LW.heads (fun h => headOut R mode h x n j c) :=
    fun _ _ => rfl
  have hxc := fun (ha : (C.roleAt c (l - 1)).approx = false) => inv_exact hinv hi hcd ha
  have hrole := fun g (hg : g ∈ attended LD) => attended_role hlen hh hg
  have hnottgt : ∀ c', C.roleAt c' (l - 1) ≠ .zero → ∀ g, g ∈ attended LD → C.crd g ≠ c' := by
    intro c' hz g hg he
    have := (hrole g hg).2
    rw [he] at this; exact hz this
  have hnotcnt : ∀ c', C.roleAt c' (l - 1) ≠ .zero → (∀ g, C.roleAt c' (l - 1) ≠ .pre g) → ¬ isCntTarget LD c' :=
    fun c' hz hp hct => by
      rcases (cntTarget_zero hlen hh hct).1 with h | ⟨g, h⟩
      · exact hz h
      · exact hp g h
  obtain ⟨hinc, ⟨ts, r, hn, hM⟩, hvc, hz, hws, f, e, h1, h2⟩ := hf
  have hwc : GroupD.target C (.single g vc wc M) = c := hGc
  simp only [GroupD.target] at hwc
  subst hwc
  have hlist : groupsAt C LD.groups wc = [.single g vc wc M] := by
    cases hgs : groupsAt C LD.groups (GroupD.target C (.single g vc wc M)) with
    | nil => simp only [hgs] at htb; simp at htb
    | cons G0 rest =>
      rw [hgs] at htb
      cases rest with
      | cons _ _ => simp at htb
      | nil =>
        have : GroupD.single g vc wc M ∈ groupsAt C LD.groups wc := hGmem
        simp only [GroupD.target] at hgs
        rw [hgs] at this; simp at this; rw [hgs, this]
  have hne : ∀ g', g' ∈ attended LD → C.crd g' ≠ wc := fun g' hg' he => by
    have := (hrole g' hg').1; rw [he, hws] at this; cases this
  have hYw : attnStep R mode LW x n i wc = 0 := by
    rw [hy, heads_out_zero R mode hinv hE hcrd hroles hlen hh hi hne hct hcp
      (fun hm => by obtain ⟨g', h1, _⟩ := plkN_vc_roles hlen hh hm; rw [hz] at h1; cases h1),
      hxc (by rw [hz]; rfl), hz]; simp only [roleVal]; grind
  -- `V` after the heads
  have hvcd : vc < d := by rw [← hroles]; exact lt_of_role (by rw [hvc]; simp)
  have hne' : ∀ g', g' ∈ attended LD → C.crd g' ≠ vc := fun g' hg' he => by
    have := (hrole g' hg').1; rw [he, hvc] at this; cases this
  have hYv : attnStep R mode LW x n i vc = roleVal C.prog w n (.val g) i := by
    by_cases hctv : isCntTarget LD vc
    · have hflat : lsum (flatTerms LW LD)
          (fun q => if C.crd q.2.2.node = vc then rawOut R mode C q.1 q.2.1 x w n i q.2.2 else 0) = 0 :=
        lsum_zero (fun q hq => by
          rw [if_neg (hne' _ (by rw [← flatTerms_nodes hlen]; exact List.mem_map.mpr ⟨q, hq, rfl⟩))])
      rw [hy, heads_out_eq R mode hinv hE hcrd hroles hlen hh hi vc, hflat,
        plk_part_zero R mode x n i (fun hm => by have h2 := (copy_zero hlen hh hm).2; rw [hvc] at h2; cases h2),
        plkN_part_zero R mode C x n i (not_plkNVc hlen hh (fun g' h => by rw [hvc] at h; cases h)),
        inv_exact (c := vc) hinv hi hvcd (by rcases (cntTarget_zero hlen hh hctv).1 with h0 | ⟨g0, h0⟩ <;> rw [h0] <;> rfl),
        ← hvc, ← cnt_part_val R mode hinv hE hcrd hroles hlen hh hcnt hi hctv]
      grind
    · rw [hy, heads_out_zero R mode hinv hE hcrd hroles hlen hh hi hne' hctv
        (fun hm => by have h2 := (copy_zero hlen hh hm).2; rw [hvc] at h2; cases h2)
        (not_plkNVc hlen hh (fun g' h => by rw [hvc] at h; cases h))]
      have hsamev : C.roleAt vc (l - 1) = .val g := by
        refine Classical.byContradiction (fun hne0 => ?_)
        have hcv' := List.all_eq_true.mp hcov vc (List.mem_range.mpr hvcd)
        have hnb : (C.roleAt vc (l - 1)).beq (C.roleAt vc l) = false := by
          cases hb : (C.roleAt vc (l - 1)).beq (C.roleAt vc l)
          · rfl
          · exact absurd (by rw [Role.eq_of_beq hb, hvc]) hne0
        rw [if_neg (fun h => by
            have h2 := (copy_zero hlen hh (List.contains_iff_mem.mp h)).2; rw [hvc] at h2; cases h2)] at hcv'
        rw [hnb, if_neg (by simp), if_neg (fun h => by
          simp only [Bool.or_eq_true] at h
          rcases h with h | h
          · exact hctv (List.contains_iff_mem.mp h)
          · exact not_plkNVc hlen hh (fun g' h' => by rw [hvc] at h'; cases h') (List.contains_iff_mem.mp h))] at hcv'
        obtain ⟨G', hG'⟩ : ∃ G', G' ∈ groupsAt C LD.groups vc := by
          cases hgs : groupsAt C LD.groups vc with
          | nil => rw [hgs] at hcv'; simp at hcv'
          | cons G _ => exact ⟨G, by simp⟩
        have hG'in : G' ∈ LD.groups := (List.mem_filter.mp hG').1
        have hG'c : G'.target C = vc := by simpa using (List.mem_filter.mp hG').2
        have hf' := hfacts G' hG'in
        cases G' with
        | pair g' | eraser g' =>
          have hg'att : g' ∈ attended LD := by first | exact hf'.1 | exact hf'
          exact hne' g' hg'att hG'c
        | clear c'' =>
          have h1' := hf'.1
          have : c'' = vc := hG'c
          rw [this, hvc] at h1'; cases h1'
        | table g' _ _ _ _ =>
          have h1' := hf'.1
          have : C.crd g' = vc := hG'c
          rw [this, hvc] at h1'; cases h1'
        | gate g' _ _ _ =>
          have h1' := hf'.1
          have : C.crd g' = vc := hG'c
          rw [this, hvc] at h1'; cases h1'
        | single g' vc' wc' M' =>
          have h1' := hf'.2.2.2.2.1
          have : wc' = vc := hG'c
          rw [this, hvc] at h1'; cases h1'
        | pairFlip g' => exact hne' g' (flipped_attended hf'.1) hG'c
        | pre g' vc' f' =>
          have h1' := hf'.2.2.2
          have : vc' = vc := hG'c
          rw [this, hvc] at h1'; cases h1'
        | mix g' cs' =>
          have h1' := hf'.2.2.2.1
          have : C.crd g' = vc := hG'c
          rw [this, hvc] at h1'; cases h1'
        | copyErase cc' =>
          have : cc' = vc := hG'c
          have hm : vc ∈ plkCopies LD := by rw [← this]; exact hf'
          have h2 := (copy_zero hlen hh hm).2
          rw [hvc] at h2; cases h2
        | scale y' sc' =>
          have h1' := hf'.2.2.2
          have : sc' = vc := hG'c
          rw [this, hvc] at h1'; cases h1'
        | vpre g' vc' f' =>
          have h1' := hf'.2.2.2.2
          have : vc' = vc := hG'c
          rw [this, hvc] at h1'; cases h1'
      rw [inv_exact (c := vc) hinv hi hvcd (by rw [hsamev]; rfl), hsamev]; grind
  -- the features `is_first`, `is_last` after the heads
  have hf1 := featCoord_sound h1
  have hf2 := featCoord_sound h2
  have hYf : attnStep R mode LW x n i f = if i = 0 then 1 else 0 := by
    have hz' : C.roleAt f (l - 1) ≠ .zero := by rw [hf1.1]; simp
    rw [hy, heads_out_zero R mode hinv hE hcrd hroles hlen hh hi (hnottgt _ hz')
        (hnotcnt _ hz' (fun g' h => by rw [hf1.1] at h; cases h)) (fun hm => hz' (copy_zero hlen hh hm).1)
        (fun hm => by obtain ⟨g', h1, _⟩ := plkN_vc_roles hlen hh hm; rw [hf1.1] at h1; cases h1),
      inv_exact (c := f) hinv hi (by rw [← hroles]; exact hf1.2) (by rw [hf1.1]; rfl), hf1.1]
    simp only [roleVal, Feat.val]; grind
  have hYe : attnStep R mode LW x n i e = if i + 1 = n then 1 else 0 := by
    have hz' : C.roleAt e (l - 1) ≠ .zero := by rw [hf2.1]; simp
    rw [hy, heads_out_zero R mode hinv hE hcrd hroles hlen hh hi (hnottgt _ hz')
        (hnotcnt _ hz' (fun g' h => by rw [hf2.1] at h; cases h)) (fun hm => hz' (copy_zero hlen hh hm).1)
        (fun hm => by obtain ⟨g', h1, _⟩ := plkN_vc_roles hlen hh hm; rw [hf2.1] at h1; cases h1),
      inv_exact (c := e) hinv hi (by rw [← hroles]; exact hf2.2) (by rw [hf2.1]; rfl), hf2.1]
    simp only [roleVal, Feat.val]; grind
  unfold groupsAt at hlist
  have hb2z : b2Expected C LD.groups wc = 0 := by
    unfold b2Expected groupsAt; rw [hlist]; rfl
  rw [hlist, hb2z, R.map_zero, hws]
  simp only [lsum_cons, lsum_nil, groupVal, if_true, singleWin, h1, h2, dotv_cons, dotv_nil]
  rw [hYw, hYv, hYf, hYe]
  clear hYw hYv hYf hYe hfacts hcov hy hrole hnottgt hnotcnt hinv hh hcnt hlist hGmem hxc
  have hhalf : R.cast (1 / 2 : Rat) = (1 : α) / 2 := R.map_half
  have h2' : R.cast (2 : Rat) = (2 : α) := R.map_two
  have hb1 : R.cast (1 / 2 - 2 * M) = (1 : α) / 2 - 2 * R.cast M := by
    rw [R.map_sub, R.map_mul, hhalf, h2']
  have hb2' : R.cast (-1 / 2 - 2 * M) = -((1 : α) / 2) - 2 * R.cast M := by
    rw [R.map_sub, R.map_mul, show (-1 / 2 : Rat) = -(1 / 2) by decide +kernel, R.map_neg, hhalf, h2']
  rw [hb1, hb2', R.map_neg, R.map_one]
  have hholds := holds_iff_cmpA (w := w) (n := n) (i := i) hinc
  simp only [roleVal, cmpDir_of_incl hinc, cntDen]
  generalize hA : cmpA C.prog w n g i = A at hholds
  by_cases hn1 : n = 1
  · subst hn1
    have hi0 : i = 0 := by omega
    subst hi0
    simp only [Nat.zero_add, ↓reduceIte, natCast_succ, natCast_zero]
    have hs := single_one (α := α) A
    have e1 : (icast (2 * A - 1) : α) / 2 / (0 + 1) * -1 + (1 * R.cast M + (1 * R.cast M + 0))
        + (1 / 2 - 2 * R.cast M) = -((icast (2 * A - 1) : α) / 2) + 1 / 2 := by grind
    have e2 : (icast (2 * A - 1) : α) / 2 / (0 + 1) * -1 + (1 * R.cast M + (1 * R.cast M + 0))
        + (-(1 / 2) - 2 * R.cast M) = -((icast (2 * A - 1) : α) / 2) + -(1 / 2) := by grind
    rw [e1, e2, hs]
    unfold ind
    by_cases h0 : 0 < A
    · rw [if_pos (decide_eq_true h0), if_neg (fun h => h.2 (hholds.mpr h0))]; grind
    · rw [if_neg (by simpa using h0), if_pos (by
        first
          | exact ⟨rfl, fun h => h0 (hholds.mp h)⟩
          | exact ⟨trivial, fun h => h0 (hholds.mp h)⟩
          | exact fun h => h0 (hholds.mp h))]; grind
  · have hlow := val_lower R (w := w) (n := n) (i := i) hn (by
      unfold inclusiveCmp at hinc; rw [hn] at hinc; simp only [Bool.and_eq_true] at hinc; exact hinc.1) hM
    rw [hA] at hlow
    have hM0 : (0 : α) ≤ R.cast M := by
      have : (0 : Rat) ≤ M := by
        refine Rat.le_trans ?_ hM
        unfold cmpBound
        have h0 := sum_natAbs_nonneg_rat ts
        split
        · next hr => have := Rat.intCast_nonpos.mpr hr; grind
        · next hr => have := Rat.intCast_pos.mpr (by omega : 0 < r); grind
      rw [← R.map_zero]; exact R.map_le _ _ this
    have hfl : (if i = 0 then (1 : α) else 0) + (if i + 1 = n then 1 else 0) ≤ 1 := by
      by_cases h0 : i = 0
      · rw [if_pos h0, if_neg (by omega)]; grind
      · rw [if_neg h0]; split <;> grind
    have hsb := single_big (V := (icast (2 * A - 1) : α) / 2 / natCast (i + 1)) hM0 hfl (by grind)
    have e1 : (icast (2 * A - 1) : α) / 2 / natCast (i + 1) * -1
        + ((if i = 0 then (1 : α) else 0) * R.cast M + ((if i + 1 = n then (1 : α) else 0) * R.cast M + 0))
        + (1 / 2 - 2 * R.cast M)
        = -((icast (2 * A - 1) : α) / 2 / natCast (i + 1)) + (if i = 0 then (1 : α) else 0) * R.cast M
          + (if i + 1 = n then (1 : α) else 0) * R.cast M + (1 / 2 - 2 * R.cast M) := by grind
    have e2 : (icast (2 * A - 1) : α) / 2 / natCast (i + 1) * -1
        + ((if i = 0 then (1 : α) else 0) * R.cast M + ((if i + 1 = n then (1 : α) else 0) * R.cast M + 0))
        + (-(1 / 2) - 2 * R.cast M)
        = -((icast (2 * A - 1) : α) / 2 / natCast (i + 1)) + (if i = 0 then (1 : α) else 0) * R.cast M
          + (if i + 1 = n then (1 : α) else 0) * R.cast M + (-(1 / 2) - 2 * R.cast M) := by grind
    rw [e1, e2, hsb.1, hsb.2]
    unfold ind; rw [if_neg (fun h => hn1 h.1)]; grind

/-- A coordinate holding its role's value exactly meets the invariant's conjuncts (an approximate
role's within `1/(4n)` a fortiori). -/
theorem inv_of_eq {n : Nat} (hn : 0 < n) {r : Role} {y v : α} (h : y = v) :
    (r.approx = false → y = v) ∧ (r.approx = true → absv (y - v) ≤ 1 / (4 * natCast n)) := by
  refine ⟨fun _ => h, fun _ => ?_⟩
  rw [h, show v - v = (0 : α) by grind]
  unfold absv; rw [if_pos (Std.le_refl _)]
  have h1 : (1 : α) ≤ natCast n := one_le_natCast_of_pos hn
  have h4 : (0 : α) < 4 * natCast n := by
    have := Std.lt_of_lt_of_le Lean.Grind.OrderedRing.zero_lt_one h1
    grind
  exact div_nonneg_of_nonneg (Std.le_of_lt Lean.Grind.OrderedRing.zero_lt_one) h4

/-- Theorem 26's induction step for a certified model (every `n`): a layer the checker accepts
maps activations holding their roles' values at boundary `l - 1` to activations holding them at
boundary `l`, in average-hard mode and in soft mode at the temperature rule. -/

theorem layer_step (R : RatEmb α) {C : Cert} {w : List Nat} {n d l : Nat} {mode : Mode α}
    (hmode : ModeOK R C n mode) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < d) (hroles : C.spans.length = d)
    (hsym : ∀ k, k < n → w.getD k 0 < C.nsym) (hK : 0 < C.K) (hc : 0 < C.c) (hk : 0 < C.expK)
    {LW : LayerW} {LD : LayerD} (hok : layerOK C d l LW LD = true) (hl : 1 ≤ l)
    {x : Acts α} (hinv : Inv C w n d (l - 1) x) :
    Inv C w n d l (ffnStep R LW (attnStep R mode LW x n)) := by
  obtain ⟨hlen, hh, htg, hgr, hb2, hcnt, hpk⟩ := layerOK_parts hok
  unfold targetsOK at htg
  simp only [Bool.and_eq_true] at htg
  obtain ⟨⟨⟨⟨⟨hnd, hatt⟩, htab⟩, hpnd⟩, hpall⟩, hcov⟩ := htg
  have hfacts := groupsOK_facts LD.groups LW.units hgr
  have hrole := fun g (hg : g ∈ attended LD) => attended_role hlen hh hg
  -- no node is attended both flipped and plain (its groups are a `pair` or a `pairFlip`)
  have hex : ∀ g, g ∈ flippedAtt LD → g ∈ plainAtt LD → False := by
    intro g hf hp
    have hat := List.all_eq_true.mp hatt g (flipped_attended hf)
    split at hat
    · next g1 g2 hgs =>
      simp only [Bool.and_eq_true, beq_iff_eq] at hat
      have hmem : GroupD.pair g ∈ LD.groups := by
        have : GroupD.pair g1 ∈ groupsAt C LD.groups (C.crd g) := by rw [hgs]; simp
        rw [hat.1] at this; exact (List.mem_filter.mp this).1
      exact (hfacts _ hmem).2.2 hf
    · next g1 g2 hgs =>
      simp only [Bool.and_eq_true, beq_iff_eq] at hat
      have hmem : GroupD.pairFlip g ∈ LD.groups := by
        have : GroupD.pairFlip g1 ∈ groupsAt C LD.groups (C.crd g) := by rw [hgs]; simp
        rw [hat.1] at this; exact (List.mem_filter.mp this).1
      exact (hfacts _ hmem).2.2 hp
    · simp at hat
  let ε : α := R.cast C.errRule
  have hε0 : (0 : α) ≤ ε := errRule_nonneg R C (gamma_nonneg R hK hc) hk
  -- the attention half
  have hy : ∀ j c, attnStep R mode LW x n j c = x j c + lsum LW.heads (fun h => headOut R mode h x n j c) :=
    fun _ _ => rfl
  intro i hi c hcd
  have hxc0 := hinv i hi c hcd
  have hF : ffnStep R LW (attnStep R mode LW x n) i c = attnStep R mode LW x n i c
      + lsum (LD.groups.filter (fun G => G.target C == c)) (groupVal R C LD l (attnStep R mode LW x n i) c)
      + R.cast (b2Expected C LD.groups c) := by
    show attnStep R mode LW x n i c
        + lsum LW.units (fun u => unitAt R (attnStep R mode LW x n i) c u) + R.cast (svGet LW.b2 c) = _
    rw [lsum_units_eq R _ c LD.groups LW.units hgr, hb2 c]
    rw [lsum_filter_eq (p := fun G => G.target C == c) (fun G _ hG => groupVal_off R hG)]
  -- a bounded position lookup's `V`: written by its heads alone, held within `1/(4n)`
  by_cases hpn : c ∈ plkNVcs LD
  · obtain ⟨g, hv0, hv1⟩ := plkN_vc_roles hlen hh hpn
    have hcv := List.all_eq_true.mp hcov c (List.mem_range.mpr hcd)
    rw [if_neg (fun h => by
      have h2 := (copy_zero hlen hh (List.contains_iff_mem.mp h)).2; rw [hv1] at h2; cases h2)] at hcv
    rw [if_neg (by rw [hv0, hv1]; simp [Role.beq]), if_pos (by
      simp only [Bool.or_eq_true]; exact Or.inr (List.contains_iff_mem.mpr hpn))] at hcv
    have hnil : groupsAt C LD.groups c = [] := by
      cases h : groupsAt C LD.groups c with
      | nil => rfl
      | cons _ _ => rw [h] at hcv; simp at hcv
    have hb2z : b2Expected C LD.groups c = 0 := by unfold b2Expected; rw [hnil]; rfl
    have hne : ∀ g', g' ∈ attended LD → C.crd g' ≠ c := fun g' hg' he => by
      have h1 := (hrole g' hg').1; rw [he, hv1] at h1; cases h1
    have hct : ¬ isCntTarget LD c := fun hct => by
      rcases (cntTarget_zero hlen hh hct).2 with ⟨g', hv⟩ | ⟨dd, g', hv⟩ | ⟨dd, g', hv⟩ <;> rw [hv1] at hv <;> cases hv
    have hcp : c ∉ plkCopies LD := fun hm => by have h2 := (copy_zero hlen hh hm).2; rw [hv1] at h2; cases h2
    have hflat : lsum (flatTerms LW LD) (fun q => if C.crd q.2.2.node = c then rawOut R mode C q.1 q.2.1 x w n i q.2.2 else 0)
        = 0 := lsum_zero (fun q hq => by
          rw [if_neg (hne _ (by rw [← flatTerms_nodes hlen]; exact List.mem_map.mpr ⟨q, hq, rfl⟩))])
    refine ⟨fun ha => by rw [hv1] at ha; simp [Role.approx] at ha, fun _ => ?_⟩
    unfold groupsAt at hnil
    rw [hF, hnil, hb2z, hy, heads_out_eq R mode hinv hE hcrd hroles hlen hh hi c, hflat,
      cnt_part_zero R mode hinv hE hcrd hroles hlen hh hi hct, plk_part_zero R mode x n i hcp, R.map_zero,
      inv_exact hinv hi hcd (by rw [hv0]; rfl), hv0, hv1]
    have hv := vmix_val R hmode hinv hroles hc hk hlen hh hpk hi hpn hv1
    simp only [lsum_nil]
    have hX : ∀ a b : α, a = b → absv b ≤ 1 / (4 * natCast n) → absv a ≤ 1 / (4 * natCast n) :=
      fun a b h hb => by rw [h]; exact hb
    exact hX _ _ (by grind) hv
  -- either the coordinate keeps its value and its role, or it holds its new role's value exactly
  suffices H : (ffnStep R LW (attnStep R mode LW x n) i c = x i c ∧ C.roleAt c (l - 1) = C.roleAt c l) ∨
      ffnStep R LW (attnStep R mode LW x n) i c = roleVal C.prog w n (C.roleAt c l) i by
    rcases H with ⟨h1, h2⟩ | h
    · rw [h1, ← h2]; exact hxc0
    · exact inv_of_eq (by omega) h
  rw [hF]
  -- a coordinate held at `l - 1` (a node or a feature) is no head's target
  have hnottgt : ∀ c', C.roleAt c' (l - 1) ≠ .zero → ∀ g, g ∈ attended LD → C.crd g ≠ c' := by
    intro c' hz g hg he
    have := (hrole g hg).2
    rw [he] at this; exact hz this
  have hnotcnt : ∀ c', C.roleAt c' (l - 1) ≠ .zero → (∀ g, C.roleAt c' (l - 1) ≠ .pre g) → ¬ isCntTarget LD c' :=
    fun c' hz hp hct => by
      rcases (cntTarget_zero hlen hh hct).1 with h | ⟨g, h⟩
      · exact hz h
      · exact hp g h
  -- an attended node's coordinate is no count target (its role after the layer is a node's)
  have hattcnt : ∀ g, g ∈ attended LD → ¬ isCntTarget LD (C.crd g) := by
    intro g hg hct
    rcases (cntTarget_zero hlen hh hct).2 with ⟨g', hv⟩ | ⟨dd, g', hv⟩ | ⟨dd, g', hv⟩ <;> rw [(hrole g hg).1] at hv <;> cases hv
  have herr := inputs_err R hinv hE hcrd hroles hlen hh hmode hsym hK hc hk hnd hex hi
  have hb2e : ∀ c', groupsAt C LD.groups c' = [] → b2Expected C LD.groups c' = 0 := by
    intro c' h; unfold b2Expected; rw [h]; rfl
  have hxc := fun (ha : (C.roleAt c (l - 1)).approx = false) => inv_exact hinv hi hcd ha
  have hcv := List.all_eq_true.mp hcov c (List.mem_range.mpr hcd)
  by_cases hcp : c ∈ plkCopies LD
  · -- a position lookup's copy: written by its head, erased by its `copyErase`
    right
    exact copy_step R hmode hinv hE hcrd hroles hc hk hlen hh hpnd hpall hi hcp
  rw [if_neg (fun h => hcp (List.contains_iff_mem.mp h))] at hcv
  by_cases hsame : (C.roleAt c (l - 1)).beq (C.roleAt c l) = true
  · -- the role does not change: no head and no group writes the coordinate
    rw [if_pos hsame] at hcv
    have hnil : groupsAt C LD.groups c = [] := by
      cases h : groupsAt C LD.groups c with
      | nil => rfl
      | cons _ _ => rw [h] at hcv; simp at hcv
    have hne : ∀ g, g ∈ attended LD → C.crd g ≠ c := fun g hg he => by
      have h1 := hrole g hg
      rw [he] at h1
      rw [Role.eq_of_beq hsame, h1.1] at h1
      exact absurd h1.2 (by simp)
    have hct : ¬ isCntTarget LD c := fun hct => by
      obtain ⟨h0, hv⟩ := cntTarget_zero hlen hh hct
      rcases hv with ⟨g', hv⟩ | ⟨dd, g', hv⟩ | ⟨dd, g', hv⟩ <;> rw [Role.eq_of_beq hsame, hv] at h0 <;>
        rcases h0 with h0 | ⟨g'', h0⟩ <;> cases h0
    unfold groupsAt at hnil
    left
    refine ⟨?_, Role.eq_of_beq hsame⟩
    rw [hnil, hb2e c hnil, hy, heads_out_zero R mode hinv hE hcrd hroles hlen hh hi hne hct hcp hpn, R.map_zero]
    simp only [lsum_nil]; grind
  · rw [if_neg hsame] at hcv
    by_cases hct : isCntTarget LD c
    · -- a count target: written by the count heads alone, with the comparison's `V`
      rw [if_pos (by simp only [Bool.or_eq_true]; exact Or.inl (List.contains_iff_mem.mpr hct))] at hcv
      have hnil : groupsAt C LD.groups c = [] := by
        cases h : groupsAt C LD.groups c with
        | nil => rfl
        | cons _ _ => rw [h] at hcv; simp at hcv
      have hne : ∀ g, g ∈ attended LD → C.crd g ≠ c := fun g hg he => hattcnt g hg (by rw [he]; exact hct)
      have hflat : lsum (flatTerms LW LD) (fun q => if C.crd q.2.2.node = c then rawOut R mode C q.1 q.2.1 x w n i q.2.2 else 0)
          = 0 := lsum_zero (fun q hq => by
            rw [if_neg (hne _ (by rw [← flatTerms_nodes hlen]; exact List.mem_map.mpr ⟨q, hq, rfl⟩))])
      unfold groupsAt at hnil
      right
      rw [hnil, hb2e c hnil, hy, heads_out_eq R mode hinv hE hcrd hroles hlen hh hi c, hflat,
        plk_part_zero R mode x n i hcp, plkN_part_zero R mode C x n i hpn, R.map_zero,
        hxc (by rcases (cntTarget_zero hlen hh hct).1 with h0 | ⟨g0, h0⟩ <;> rw [h0] <;> rfl),
        ← cnt_part_val R mode hinv hE hcrd hroles hlen hh hcnt hi hct]
      simp only [lsum_nil]; grind
    rw [if_neg (fun h => by
      simp only [Bool.or_eq_true] at h
      rcases h with h | h
      · exact hct (List.contains_iff_mem.mp h)
      · exact hpn (List.contains_iff_mem.mp h))] at hcv
    -- the role changes: some group writes the coordinate
    obtain ⟨G, hGmem⟩ : ∃ G, G ∈ groupsAt C LD.groups c := by
      cases hgs : groupsAt C LD.groups c with
      | nil => rw [hgs] at hcv; simp at hcv
      | cons G _ => exact ⟨G, by simp⟩
    have hGin : G ∈ LD.groups := (List.mem_filter.mp hGmem).1
    have hGc : G.target C = c := by simpa using (List.mem_filter.mp hGmem).2
    have hf := hfacts G hGin
    right
    cases G with
    | scale y sc =>
      exact scale_step R hinv hE hcrd hroles hlen hh hi hcd hGmem hGc hf
        (by have htb := List.all_eq_true.mp htab _ hGin; simpa only [beq_iff_eq] using htb) hct hcp
    | vpre g vc f =>
      exact vpre_step R hinv hE hcrd hroles hlen hh hi hcd hGmem hGc hf
        (by have htb := List.all_eq_true.mp htab _ hGin; simpa only [beq_iff_eq] using htb) hct hcp
    | pair g | eraser g | pairFlip g =>
      have hgatt : g ∈ attended LD := by first | exact hf.1 | exact hf | exact flipped_attended hf.1
      exact pair_step R hinv hE hcrd hroles hlen hh hi hcd hmode hsym hK hc hk hnd hex hatt hfacts hct hcp hgatt hGc
    | copyErase cc =>
      have : cc = c := hGc
      exact absurd (this ▸ hf) hcp
    | mix g cs =>
      have htb := List.all_eq_true.mp htab _ hGin
      simp only [beq_iff_eq] at htb
      exact mix_step R hmode hinv hE hcrd hroles hc hk hlen hh hpnd hi hcd hGmem hGc hf htb hct hcp
    | pre g vc f =>
      exact pre_step R hinv hE hcrd hroles hlen hh hi hcd hGmem hGc hf
        (by have htb := List.all_eq_true.mp htab _ hGin; simpa only [beq_iff_eq] using htb) hct hcp
    | clear c' =>
      exact clear_step R hinv hE hcrd hroles hlen hh hi hcd hGmem hGc hf
        (by have htb := List.all_eq_true.mp htab _ hGin; simpa only [beq_iff_eq] using htb) hct hcp
    | table g ins ex as neg =>
      exact table_step R hinv hE hcrd hroles hlen hh hi hcd hGmem hGc hf
        (by have htb := List.all_eq_true.mp htab _ hGin; simpa only [beq_iff_eq] using htb) hct hcp herr
    | gate g ins σ neg =>
      exact gate_step R hinv hE hcrd hroles hlen hh hi hcd hGmem hGc hf
        (by have htb := List.all_eq_true.mp htab _ hGin; simpa only [beq_iff_eq] using htb) hct hcp herr
    | single g vc wc M =>
      exact single_step R hinv hE hcrd hroles hlen hh hi hcd hcnt hcov hfacts hGmem hGc hf
        (by have htb := List.all_eq_true.mp htab _ hGin; simpa only [beq_iff_eq] using htb) hct hcp

end Step

end HardSoft.Cert

end
