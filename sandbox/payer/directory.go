package payer

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"ponte/brdocs"
	"ponte/model"
	"ponte/payments"
)

var names = []string{"Mariana Costa Ltda", "Padaria Pão Quente", "João Pereira", "Oficina Silva & Filhos", "Ana Souza", "Mercado Bom Preço", "Lucas Almeida", "Clínica Vida"}

// Directory stands in for the DICT, the Central Bank's directory of PIX keys.
type Directory struct {
	list Institutions
}

var _ payments.Directory = (*Directory)(nil)

// NewDirectory is the sandbox's DICT.
func NewDirectory(list Institutions) *Directory { return &Directory{list: list} }

// ResolvePixKey places every well-formed key at an account of its own, the same one each
// time: the key's hash seeds the institution, branch, number, owner's name and, for a key
// that is not a document, the owner's CPF.
func (d *Directory) ResolvePixKey(ctx context.Context, k payments.PixKey) (*payments.PixKeyOwner, error) {
	sum := sha256.Sum256([]byte(k.Key))
	seed := binary.BigEndian.Uint64(sum[:8])
	rng := rand.New(rand.NewPCG(seed, seed>>7))
	inst, err := d.list.PaymentInstitutionByIndex(ctx, int(seed%1000))
	if err != nil {
		return nil, err
	}
	o := &payments.PixKeyOwner{Name: names[seed%uint64(len(names))], Institution: inst,
		Account: model.PaymentRecipientAccount{Branch: fmt.Sprintf("%04d", 1+rng.IntN(3000)), Number: fmt.Sprintf("%d-%d", 10000+rng.IntN(900000), rng.IntN(10)), Type: "CHECKING_ACCOUNT"}}
	switch k.Kind {
	case "CPF", "CNPJ":
		o.TaxNumber = k.Key
	default:
		o.TaxNumber = brdocs.NewCPF(rng)
	}
	return o, nil
}
