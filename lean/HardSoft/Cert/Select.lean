module

public import HardSoft.Cert.HeadsBase

/-!
# Certificates, part 8: the selects of since and until meet Lemma 8's conditions

`selectOK` accepts the plain select `r | !x` of `x S r` (`x U r`) or the anchored `h | Y h`
(`h | X h`); this file shows each meets the conditions of `since_iff_target` /
`until_iff_target` at the positions of the word (`select_since`, `select_until`), through the
meaning of the syntactic tests it uses.

## Main results

* `HardSoft.Cert.select_since`, `HardSoft.Cert.select_until`; `HardSoft.Cert.conjuncts_holds`,
  `HardSoft.Cert.negOf_holds`, `HardSoft.Cert.impliesF_holds`.
-/

@[expose] public section

set_option autoImplicit false

namespace HardSoft.Cert

section Select

variable {C : Cert} {w : List Nat} {n : Nat}

/-- Every conjunct of `r` holds wherever `r` does. -/
theorem conjuncts_holds (P : Prog) : ∀ (fuel r c : Nat), c ∈ conjuncts P fuel r → ∀ k, holds P w n r k → holds P w n c k := by
  intro fuel
  induction fuel with
  | zero => intro r c h k hr; simp [conjuncts] at h; rw [h]; exact hr
  | succ f ih =>
    intro r c h k hr
    unfold conjuncts at h
    split at h
    · next x y hg =>
      simp only [List.mem_cons] at h
      rcases h with h | h
      · rw [h]; exact hr
      · by_cases hxy : x < r ∧ y < r
        · rw [if_pos hxy] at h
          have ha := (holds_and hg hxy.1 hxy.2).mp hr
          simp only [List.mem_append] at h
          rcases h with h | h
          · exact ih x c h k ha.1
          · exact ih y c h k ha.2
        · rw [if_neg hxy] at h; simp at h
    · simp at h; rw [h]; exact hr

/-- `negOf h f`: `h` holds exactly where `f` fails, at every position of a word over the alphabet. -/
theorem negOf_holds (hsym : ∀ k, k < n → w.getD k 0 < C.nsym) {h f : Nat} (hn : negOf C h f = true) :
    ∀ k, k < n → (holds C.prog w n h k ↔ ¬ holds C.prog w n f k) := by
  intro k hk
  unfold negOf at hn
  simp only [Bool.or_eq_true] at hn
  rcases hn with (hn | hn) | hn
  · split at hn
    · next x hf =>
      simp only [Bool.and_eq_true, beq_iff_eq, decide_eq_true_eq] at hn
      rw [holds_not hf (hn.1 ▸ hn.2)]
      rw [hn.1]; exact ⟨fun a b => b a, fun a => Classical.byContradiction (fun b => a b)⟩
    · simp at hn
  · split at hn
    · next x hh =>
      simp only [Bool.and_eq_true, beq_iff_eq, decide_eq_true_eq] at hn
      rw [holds_not hh (hn.1 ▸ hn.2), hn.1]
    · simp at hn
  · have := List.all_eq_true.mp hn (w.getD k 0) (List.mem_range.mpr (hsym k hk))
    split at this
    · next u v h1 h2 =>
      rw [symEval_sound C.prog _ _ _ _ h1 w n k hk rfl, symEval_sound C.prog _ _ _ _ h2 w n k hk rfl]
      revert this
      cases u <;> cases v <;> decide
    · simp at this

/-- `impliesF c f`: `f` holds wherever `c` does, at every position of a word over the alphabet. -/
theorem impliesF_holds (hsym : ∀ k, k < n → w.getD k 0 < C.nsym) {c f : Nat} (hi : impliesF C c f = true) :
    ∀ k, k < n → holds C.prog w n c k → holds C.prog w n f k := by
  intro k hk hc
  unfold impliesF at hi
  simp only [Bool.or_eq_true, beq_iff_eq] at hi
  rcases hi with hi | hi
  · rw [← hi]; exact hc
  · have := List.all_eq_true.mp hi (w.getD k 0) (List.mem_range.mpr (hsym k hk))
    split at this
    · next u v h1 h2 =>
      rw [symEval_sound C.prog _ _ _ _ h1 w n k hk rfl] at hc
      rw [symEval_sound C.prog _ _ _ _ h2 w n k hk rfl]
      revert this hc
      cases u <;> cases v <;> decide
    · simp at this

/-- The select of `x S r` the checker accepts meets Lemma 8's conditions at the positions before
`i ≤ n` (`since_iff_target`). -/
theorem select_since (hsym : ∀ k, k < n → w.getD k 0 < C.nsym) {anch : Bool} {b x r i : Nat}
    (hs : selectOK C true anch b x r = true) (hin : i ≤ n) :
    (∀ k, k < i → holds C.prog w n r k → holds C.prog w n b k) ∧
    (∀ k, k < i → ¬ holds C.prog w n x k → holds C.prog w n b k) ∧
    (∀ k, k < i → holds C.prog w n b k → holds C.prog w n x k → ¬ holds C.prog w n r k →
      ¬ ∃ j, j < k ∧ holds C.prog w n r j ∧ ∀ m, j < m → m < k → holds C.prog w n x m) := by
  unfold selectOK at hs
  cases anch with
  | false =>
    simp only [Bool.not_false, if_true] at hs
    split at hs
    · next r' y hb =>
      simp only [Bool.and_eq_true, beq_iff_eq, decide_eq_true_eq] at hs
      obtain ⟨⟨⟨hr', hrb⟩, hyb⟩, hy⟩ := hs
      split at hy
      · next x' hyn =>
        simp only [Bool.and_eq_true, beq_iff_eq, decide_eq_true_eq] at hy
        have hB : ∀ k, holds C.prog w n b k ↔ holds C.prog w n r k ∨ ¬ holds C.prog w n x k := by
          intro k
          rw [holds_or hb (hr' ▸ hrb) hyb, holds_not hyn (hy.1 ▸ hy.2), hr', hy.1]
        refine ⟨fun k _ h => (hB k).mpr (Or.inl h), fun k _ h => (hB k).mpr (Or.inr h), ?_⟩
        intro k _ hbk hxk hrk
        rcases (hB k).mp hbk with h | h
        · exact absurd h hrk
        · exact absurd hxk h
      · simp at hy
    · simp at hs
  | true =>
    simp only [Bool.not_true, Bool.false_eq_true, if_false] at hs
    split at hs
    · next h p hb =>
      simp only [Bool.and_eq_true, decide_eq_true_eq] at hs
      obtain ⟨⟨⟨⟨⟨hhb, hpb⟩, hneg⟩, hp⟩, hcj⟩, himp⟩ := hs
      split at hp
      · next h' hpn =>
        simp only [Bool.and_eq_true, beq_iff_eq, decide_eq_true_eq, true_and] at hp
        obtain ⟨hh', hhp⟩ := hp
        subst hh'
        have hB : ∀ k, holds C.prog w n b k ↔ holds C.prog w n h' k ∨ (0 < k ∧ holds C.prog w n h' (k - 1)) := by
          intro k; rw [holds_or hb hhb hpb, holds_prev hpn hhp]
        have hH := negOf_holds hsym hneg
        have hRp : ∀ k, holds C.prog w n r k → holds C.prog w n p k :=
          fun k hr => conjuncts_holds C.prog (r + 1) r p (by simpa using hcj) k hr
        obtain ⟨c, hc, hcx⟩ := List.any_eq_true.mp himp
        have hRF : ∀ k, k < n → holds C.prog w n r k → holds C.prog w n x k :=
          fun k hk hr => impliesF_holds hsym hcx k hk (conjuncts_holds C.prog (r + 1) r c hc k hr)
        refine ⟨fun k _ hr => (hB k).mpr (Or.inr ((holds_prev hpn hhp).mp (hRp k hr))),
          fun k hk hx => (hB k).mpr (Or.inl ((hH k (by omega)).mpr hx)), ?_⟩
        intro k hk hbk
        exact block_of_anchored (i := i) (fun m hm => hH m (by omega)) (fun m hm => hRF m (by omega)) k hk ((hB k).mp hbk)
      · simp at hp
      · simp at hp
    · simp at hs

/-- The select of `x U r` the checker accepts meets Lemma 8's conditions at the positions after
`i` (`until_iff_target`). -/
theorem select_until (hsym : ∀ k, k < n → w.getD k 0 < C.nsym) {anch : Bool} {b x r i : Nat}
    (hs : selectOK C false anch b x r = true) :
    (∀ k, i < k → k < n → holds C.prog w n r k → holds C.prog w n b k) ∧
    (∀ k, i < k → k < n → ¬ holds C.prog w n x k → holds C.prog w n b k) ∧
    (∀ k, i < k → k < n → holds C.prog w n b k → holds C.prog w n x k → ¬ holds C.prog w n r k →
      ¬ ∃ j, k < j ∧ j < n ∧ holds C.prog w n r j ∧ ∀ m, k < m → m < j → holds C.prog w n x m) := by
  unfold selectOK at hs
  cases anch with
  | false =>
    simp only [Bool.not_false, if_true] at hs
    split at hs
    · next r' y hb =>
      simp only [Bool.and_eq_true, beq_iff_eq, decide_eq_true_eq] at hs
      obtain ⟨⟨⟨hr', hrb⟩, hyb⟩, hy⟩ := hs
      split at hy
      · next x' hyn =>
        simp only [Bool.and_eq_true, beq_iff_eq, decide_eq_true_eq] at hy
        have hB : ∀ k, holds C.prog w n b k ↔ holds C.prog w n r k ∨ ¬ holds C.prog w n x k := by
          intro k
          rw [holds_or hb (hr' ▸ hrb) hyb, holds_not hyn (hy.1 ▸ hy.2), hr', hy.1]
        refine ⟨fun k _ _ h => (hB k).mpr (Or.inl h), fun k _ _ h => (hB k).mpr (Or.inr h), ?_⟩
        intro k _ _ hbk hxk hrk
        rcases (hB k).mp hbk with h | h
        · exact absurd h hrk
        · exact absurd hxk h
      · simp at hy
    · simp at hs
  | true =>
    simp only [Bool.not_true, Bool.false_eq_true, if_false] at hs
    split at hs
    · next h p hb =>
      simp only [Bool.and_eq_true, decide_eq_true_eq] at hs
      obtain ⟨⟨⟨⟨⟨hhb, hpb⟩, hneg⟩, hp⟩, hcj⟩, himp⟩ := hs
      split at hp
      · simp at hp
      · next h' hpn =>
        simp only [Bool.and_eq_true, beq_iff_eq, decide_eq_true_eq, Bool.not_false, true_and] at hp
        obtain ⟨hh', hhp⟩ := hp
        subst hh'
        have hB : ∀ k, holds C.prog w n b k ↔ holds C.prog w n h' k ∨ (k + 1 < n ∧ holds C.prog w n h' (k + 1)) := by
          intro k; rw [holds_or hb hhb hpb, holds_next hpn hhp]
        have hH := negOf_holds hsym hneg
        have hRp : ∀ k, holds C.prog w n r k → holds C.prog w n p k :=
          fun k hr => conjuncts_holds C.prog (r + 1) r p (by simpa using hcj) k hr
        obtain ⟨c, hc, hcx⟩ := List.any_eq_true.mp himp
        have hRF : ∀ k, k < n → holds C.prog w n r k → holds C.prog w n x k :=
          fun k hk hr => impliesF_holds hsym hcx k hk (conjuncts_holds C.prog (r + 1) r c hc k hr)
        refine ⟨fun k _ _ hr => (hB k).mpr (Or.inr ((holds_next hpn hhp).mp (hRp k hr))),
          fun k _ hk hx => (hB k).mpr (Or.inl ((hH k hk).mpr hx)), ?_⟩
        intro k hik hk hbk
        exact block_of_anchored_until (i := i) (fun m _ hm => hH m hm) (fun m _ hm => hRF m hm) k hik hk ((hB k).mp hbk)
      · simp at hp
    · simp at hs

end Select

end HardSoft.Cert

end
