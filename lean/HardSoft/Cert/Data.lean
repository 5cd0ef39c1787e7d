module

/-!
# Certificates, data: how generated certificates write their numbers

`hardsoft certify` (`checks/families/certify/lean_text.py`) writes a compiled model's weights and
its description as Lean data in a module of its own that imports this library; every weight is a
float64, hence a rational `n / d` with `d` a power of two, written `qr n d`. The kernel evaluates
`mkRat` (a `gcd` on naturals, which it computes with GMP) when it checks a certificate by
`decide +kernel`.

## Main definitions

* `HardSoft.Cert.qr`: the rational `n / d`.
-/

@[expose] public section

set_option autoImplicit false

namespace HardSoft.Cert

/-- Certificate data: the rational `n / d` (`mkRat`, normalised; `d = 0` gives `0`). -/
noncomputable def qr (n : Int) (d : Nat) : Rat := mkRat n d

end HardSoft.Cert

end
