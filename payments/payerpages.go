package payments

// The payer's two pages: paymentUrl (pick an institution, give a CPF) and consentUrl
// (stands in for the institution's consent screen). They carry no credential: the
// unguessable id in the link is the capability, as with a bank's own consent links. What
// they show is the request and the attempt as the payer may see them (model/payerpages.go).

import (
	"context"

	"github.com/google/uuid"

	"ponte/model"
)

// PaymentPageForPayer reads a request for its payment page, with the institutions to pay
// through while it can be paid.
func (e *Engine) PaymentPageForPayer(ctx context.Context, id uuid.UUID) (*model.PaymentView, error) {
	p, err := e.requestRow(ctx, uuid.Nil, id)
	if err != nil {
		return nil, err
	}
	req, err := e.requestView(ctx, p, nil)
	if err != nil {
		return nil, err
	}
	v := &model.PaymentView{Request: requestForPayer(req), CanPay: Payable(req.Status), Connectors: []*model.Connector{}}
	if v.CanPay {
		if v.Connectors, err = e.payerConnectors(ctx, req); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// StartIntentForPayer is the payment page's form: the payer picks an institution and gives
// their CPF, and the attempt starts as theirs (triggeredBy USER).
func (e *Engine) StartIntentForPayer(ctx context.Context, requestID uuid.UUID, connectorID int, cpf string, name *string) (*model.PaymentIntent, error) {
	p, err := e.requestRow(ctx, uuid.Nil, requestID)
	if err != nil {
		return nil, err
	}
	id := requestID.String()
	n, err := e.createIntent(ctx, p.ClientID, model.PaymentIntentInput{PaymentRequestID: &id, ConnectorID: &connectorID,
		Parameters: &model.PaymentPayerInput{Cpf: &cpf, Name: name}}, ByUser)
	if err != nil {
		return nil, err
	}
	return intentForPayer(n), nil
}

// ConsentForPayer reads an intent for its consent page.
func (e *Engine) ConsentForPayer(ctx context.Context, id uuid.UUID) (*model.ConsentView, error) {
	row, found, err := e.db.PaymentIntent(ctx, uuid.Nil, id, false)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodePaymentIntentNotFound, "Payment intent %s not found.", id)
	}
	n, err := e.intent(ctx, row.ClientID, id)
	if err != nil {
		return nil, err
	}
	v := &model.ConsentView{Intent: intentForPayer(n), PayerName: payerName(row.Payer.Name), PayerCpf: maskCPF(row.Payer.Cpf)}
	v.CanDecide, v.SecondSigner = AwaitingPayer(n.Status)
	if d := DecisionOf(n.Status); d != "" {
		v.Decision = &d
	}
	return v, nil
}

// payerConnectors are the institutions the payment page offers for a request: those that
// initiate payments, the sandbox ones included when the request is a sandbox one (the
// sandbox payment institution is where its test payers pay).
func (e *Engine) payerConnectors(ctx context.Context, req *model.PaymentRequest) ([]*model.Connector, error) {
	yes := true
	f := model.ConnectorFilter{SupportsPaymentInitiation: &yes}
	if req.IsSandbox {
		f.Sandbox = &yes
	}
	list, _, err := e.db.Connectors(ctx, f, 100, 0)
	return list, err
}

// requestForPayer is a request as its payer's pages show it: without the application's
// customer record, its own reference, where its webhooks go, what Ponte charges it (fees
// read 0) and its smart account's details. The callback URLs stay: the page sends the
// payer's browser there.
func requestForPayer(p *model.PaymentRequest) *model.PaymentRequest {
	if p == nil {
		return nil
	}
	c := *p
	c.Customer, c.ClientPaymentID, c.WebhookURL, c.SmartAccount, c.Fees = nil, nil, nil, nil, 0
	return &c
}

// intentForPayer is an attempt as its payer's pages show it.
func intentForPayer(n *model.PaymentIntent) *model.PaymentIntent {
	c := *n
	c.PaymentRequest = requestForPayer(n.PaymentRequest)
	return &c
}

// payerName is how the pages name a payer who gave no name.
func payerName(name *string) string {
	if name == nil || *name == "" {
		return "Pagador"
	}
	return *name
}

// maskCPF shows a CPF's first three and last two digits: enough for the payer to recognise
// it, not enough for whoever holds the link to learn it.
func maskCPF(cpf string) string {
	if len(cpf) != 11 {
		return cpf
	}
	return cpf[:3] + ".***.***-" + cpf[9:]
}
