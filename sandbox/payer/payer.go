// Package payer is the sandbox's payer institution and PIX directory: what payments.Engine
// asks a payer's bank and the DICT, answered deterministically. The payer's CPF picks how
// the institution behaves; every well-formed PIX key resolves, always to the same account.
//
// It lives beside sandbox rather than in it because it implements payments' interface:
// sandbox is imported by payments for the document arithmetic it still shares.
package payer

import (
	"context"
	"fmt"

	"ponte/model"
	"ponte/payments"
)

// Sandbox payers: a payer CPF picks how the simulated institution behaves. Any other valid
// CPF pays normally. docs/payments.md lists them for applications.
const (
	CPFInsufficientFunds = "10000000108" // the payment is rejected: not enough balance
	CPFLimitExceeded     = "10000000280" // the payment is rejected: above the account's limit
	CPFRejectedInApp     = "10000000361" // the payer refuses in the institution's app after authorizing here
	CPFSettlementFailure = "10000000442" // the debit is refused during settlement
	CPFMultiSignature    = "10000000523" // a second signer must authorize (PAYMENT_PARTIALLY_ACCEPTED)
	CPFAccountBlocked    = "10000000604" // the institution refuses the attempt before consent: the account is blocked (REJECTED)
)

// scenarioError is the institution's reason for a scenario payer, a fresh copy each time so
// that no caller shares (and changes) another's; nil for a payer who pays.
func scenarioError(cpf string) *model.PaymentErrorDetail {
	var d model.PaymentErrorDetail
	switch cpf {
	case CPFInsufficientFunds:
		d = model.PaymentErrorDetail{Code: model.PaymentErrorInsufficientFunds, Description: "The payer's account has not enough balance for this payment.", Detail: ptr("SALDO_INSUFICIENTE")}
	case CPFLimitExceeded:
		d = model.PaymentErrorDetail{Code: model.PaymentErrorLimitExceeded, Description: "The payment is above the payer account's transaction limit.", Detail: ptr("VALOR_ACIMA_LIMITE")}
	case CPFRejectedInApp:
		d = model.PaymentErrorDetail{Code: model.PaymentErrorRejectedByUser, Description: "The payer rejected the payment in the institution's app.", Detail: ptr("REJEITADO_USUARIO")}
	case CPFSettlementFailure:
		d = model.PaymentErrorDetail{Code: model.PaymentErrorSettlementFailed, Description: "The institution could not settle the payment.", Detail: ptr("FALHA_INFRAESTRUTURA_ICP")}
	case CPFAccountBlocked:
		d = model.PaymentErrorDetail{Code: model.PaymentErrorAccountBlocked, Description: "The institution refused the attempt: the payer's account is blocked.", Detail: ptr("CONTA_BLOQUEADA")}
	default:
		return nil
	}
	return &d
}

func ptr(s string) *string { return &s }

// Institutions is the seeded list of payment institutions (db.DB has it): each sandbox
// connector, and each account the directory makes up, stands for one of them.
type Institutions interface {
	PaymentInstitutionByIndex(ctx context.Context, n int) (*model.PaymentInstitution, error)
}

// Bank is the sandbox's payer institution.
type Bank struct {
	list Institutions
}

var _ payments.Institution = (*Bank)(nil)

// New is the payer institution of every sandbox connector.
func New(list Institutions) *Bank { return &Bank{list: list} }

// Open refuses a blocked account before its payer is asked.
func (b *Bank) Open(_ context.Context, a payments.Attempt) (*model.PaymentErrorDetail, error) {
	if a.Payer.CPF == CPFAccountBlocked {
		return scenarioError(CPFAccountBlocked), nil
	}
	return nil, nil
}

// Authorize has the payer refuse in the app after authorizing on the consent page.
func (b *Bank) Authorize(_ context.Context, a payments.Attempt) (*model.PaymentErrorDetail, error) {
	if a.Payer.CPF == CPFRejectedInApp {
		return scenarioError(CPFRejectedInApp), nil
	}
	return nil, nil
}

// Settle rejects a payment for want of balance or limit when it is first taken, holds a
// multi-signature account's payment for its second signer, and fails the debit of the
// settlement-failure payer.
func (b *Bank) Settle(_ context.Context, a payments.Attempt) (payments.Answer, error) {
	cpf := a.Payer.CPF
	switch a.Status {
	case payments.PaymentPending:
		switch {
		case cpf == CPFInsufficientFunds || cpf == CPFLimitExceeded:
			return payments.Answer{Outcome: payments.Reject, Error: scenarioError(cpf)}, nil
		case cpf == CPFMultiSignature && !a.Preauthorized && a.Signatures < 2:
			return payments.Answer{Outcome: payments.AwaitSignature}, nil
		}
	case payments.SettlementProcessing:
		if cpf == CPFSettlementFailure {
			return payments.Answer{Outcome: payments.Reject, Error: scenarioError(cpf)}, nil
		}
	}
	return payments.Answer{Outcome: payments.Proceed}, nil
}

// Debtor is the payer's account: branch 0001, a number made of the CPF's digits, at the
// institution the connector stands for.
func (b *Bank) Debtor(ctx context.Context, a payments.Attempt) (*model.PaymentDebtor, error) {
	cpf := a.Payer.CPF
	if len(cpf) != 11 {
		return nil, fmt.Errorf("sandbox payer: CPF %q of attempt %s is not 11 digits", cpf, a.ID)
	}
	d := &model.PaymentDebtor{TaxNumber: cpf, Branch: "0001", Number: fmt.Sprintf("%s-%s", cpf[3:9], cpf[9:10]), AccountType: "CHECKING_ACCOUNT"}
	if a.Payer.Name != nil {
		d.Name = *a.Payer.Name
	} else {
		d.Name = "Pagador " + cpf[:3] + ".***.***-" + cpf[9:]
	}
	// Without the list the debtor still is the payer's account, as it was before the
	// institutions were seeded: the ISPB and COMPE stay empty.
	if inst, err := b.list.PaymentInstitutionByIndex(ctx, a.ConnectorID); err == nil {
		d.Ispb, d.Compe = inst.Ispb, inst.Compe
	}
	return d, nil
}

// Refund refuses a refund whose cents are ,99 and gives back every other.
func (b *Bank) Refund(_ context.Context, r payments.Refund) (*model.PaymentErrorDetail, error) {
	if r.Amount%100 == 99 {
		return &model.PaymentErrorDetail{Code: model.PaymentErrorRefundRejected, Description: "The institution refused the refund (sandbox: refunds of ,99 fail)."}, nil
	}
	return nil, nil
}
