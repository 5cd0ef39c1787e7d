module

public import HardSoft.Cert.Check

/-!
# Certificates, part 12: the checker's layers in chunks

The kernel evaluates a certificate's `check C M` in one declaration, and the wasm Lean process
holds the evaluation's memory until the declaration ends (wasm32: at most 4 GB). A large model
(about 2,800 nonzero weights) exhausts it. `layersOK_split` lets a certificate evaluate
`layersOK` over the layers in chunks, one declaration each: the chunk of the first `m` layers,
then the rest from layer `k + m` on. The generated certificate proves
`layersOK C M.d 0 M.layers C.layers = true` from its chunks, rewrites `check` with it, and lets the
kernel evaluate the remaining conjuncts (`checks/families/certify/lean_text.py`). Nothing here is
part of a certificate's statement; a wrong chunk (a layer the checker rejects) is still evaluated
by the kernel, in its own declaration.

## Main results

* `HardSoft.Cert.layersOK_split`: `layersOK` over the first `m` layers and over the rest (from layer
  `k + m` on) gives `layersOK` over all of them.
-/

@[expose] public section

set_option autoImplicit false

namespace HardSoft.Cert

/-- Certificates: `layersOK` from its chunks. If the checker accepts the first `m` layers (numbered
from `k + 1`) and the layers after them (numbered from `k + m + 1`), it accepts all the layers. -/
theorem layersOK_split (C : Cert) (d : Nat) : ∀ (m k : Nat) (lws : List LayerW) (lds : List LayerD),
    layersOK C d k (lws.take m) (lds.take m) = true →
    layersOK C d (k + m) (lws.drop m) (lds.drop m) = true → layersOK C d k lws lds = true
  | 0, k, lws, lds, _, h2 => by simpa using h2
  | _ + 1, _, [], [], _, _ => by simp [layersOK]
  | m + 1, k, LW :: lws, LD :: lds, h1, h2 => by
    simp only [List.take_succ_cons, List.drop_succ_cons, layersOK, Bool.and_eq_true] at h1 h2 ⊢
    refine ⟨h1.1, layersOK_split C d m (k + 1) lws lds h1.2 ?_⟩
    rw [show k + 1 + m = k + (m + 1) by omega]
    exact h2
  | _ + 1, _, [], _ :: _, h1, _ => by simp [layersOK] at h1
  | _ + 1, _, _ :: _, [], h1, _ => by simp [layersOK] at h1

end HardSoft.Cert

end
