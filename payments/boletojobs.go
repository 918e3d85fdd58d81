package payments

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"ponte/db"
	"ponte/metrics"
	"ponte/model"
)

// Every institution is simulated, so an issued boleto's payer is too: the cents of its
// amount pick what the payer does, each step a durable job StepDelay after the last.
//
//	,91  paid by boleto after one step
//	,92  paid by PIX (the hybrid code) after one step
//	,93  OVERDUE after one step, then paid by boleto ten days late: fine and interest apply
//	,94  never paid: OVERDUE after one step, PROTESTED after another
//
// Other amounts wait for their payer (the PIX location, or a payment request naming the
// line) or for the due date.
var sandboxBoletoPayers = map[int64][]string{
	91: {"pay:BOLETO"},
	92: {"pay:PIX"},
	93: {"overdue", "late:BOLETO"},
	94: {"overdue", "protest"},
}

// BoletoStepArgs is one step of a sandbox payer.
type BoletoStepArgs struct {
	BoletoID uuid.UUID `json:"boletoId"`
	Steps    []string  `json:"steps"`
}

func (BoletoStepArgs) Kind() string { return "boleto_step" }

func (BoletoStepArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{Queue: Queue} }

func (e *Engine) startSandboxPayer(ctx context.Context, tx *db.Tx, b *db.BoletoRow) error {
	steps, ok := sandboxBoletoPayers[cents(b.Amount)%100]
	if !ok {
		return nil
	}
	return e.nextBoletoStep(ctx, tx, b.ID, steps)
}

func (e *Engine) nextBoletoStep(ctx context.Context, tx *db.Tx, id uuid.UUID, steps []string) error {
	if len(steps) == 0 {
		return nil
	}
	_, err := e.insertJob(ctx, tx, BoletoStepArgs{BoletoID: id, Steps: steps},
		&river.InsertOpts{Queue: Queue, ScheduledAt: e.now(ctx).Add(e.cfg.StepDelay)})
	return err
}

type boletoStepWorker struct {
	river.WorkerDefaults[BoletoStepArgs]
	e *Engine
}

func (w *boletoStepWorker) Work(ctx context.Context, job *river.Job[BoletoStepArgs]) error {
	e := w.e
	return e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		b, found, err := tx.LockBoleto(ctx, uuid.Nil, job.Args.BoletoID)
		if err != nil || !found || len(job.Args.Steps) == 0 {
			return err
		}
		step, rest := job.Args.Steps[0], job.Args.Steps[1:]
		now := e.now(ctx)
		switch {
		case step == "overdue":
			err = e.moveBoleto(ctx, tx, b, BoletoOverdue, "", 0)
		case step == "protest":
			err = e.moveBoleto(ctx, tx, b, BoletoProtested, "", 0)
		case strings.HasPrefix(step, "pay:"):
			if err = e.moveBoleto(ctx, tx, b, BoletoPaid, strings.TrimPrefix(step, "pay:"), AmountDue(&b.Boleto, now)); err == nil {
				err = e.payBoletoOutside(ctx, tx, b)
			}
		case strings.HasPrefix(step, "late:"):
			d := b.DueDate.Time // the due date's midnight UTC: its day is the São Paulo date
			tenDaysLate := time.Date(d.Year(), d.Month(), d.Day()+10, 12, 0, 0, 0, SaoPaulo)
			if err = e.moveBoleto(ctx, tx, b, BoletoPaid, strings.TrimPrefix(step, "late:"), AmountDue(&b.Boleto, tenDaysLate)); err == nil {
				err = e.payBoletoOutside(ctx, tx, b)
			}
		}
		if err != nil {
			if e, _ := model.AsError(err); e.Code == model.CodeBoletoNotCancelable {
				return nil // cancelled meanwhile: the payer has nothing left to do
			}
			return err
		}
		return e.nextBoletoStep(ctx, tx, b.ID, rest)
	})
}

// moveBoleto records a status change, what was paid (origin and amount, for PAID) and its
// boleto/updated event, in the caller's transaction.
func (e *Engine) moveBoleto(ctx context.Context, tx *db.Tx, b *db.BoletoRow, to, origin string, paid float64) error {
	if err := checkBoletoMove(b.Status, to); err != nil {
		return err
	}
	now := model.NewTime(e.now(ctx))
	b.Status, b.UpdatedAt = to, now
	if to == BoletoPaid {
		b.AmountPaid, b.PaymentOrigin, b.PaidAt = &paid, &origin, &now
	}
	if err := tx.SaveBoletoState(ctx, b); err != nil {
		return err
	}
	tx.AfterCommit(func() {
		metrics.PaymentMoves.WithLabelValues("boleto", to).Inc()
		e.log.InfoContext(ctx, "boleto status", "boletoId", b.ID, "status", to)
	})
	payload := map[string]any{"boletoId": b.ID.String(), "status": to, "boletoConnectionId": b.BoletoConnectionID.String(),
		"amountPaid": b.AmountPaid, "paidAt": nil}
	if b.PaidAt != nil {
		payload["paidAt"] = b.PaidAt.String()
	}
	return tx.InsertEvent(ctx, &db.Event{ClientID: b.ClientID, Event: "boleto/updated", Payload: payload})
}

// Boleto reads one boleto.
func (e *Engine) Boleto(ctx context.Context, id uuid.UUID) (*model.Boleto, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	b, found, err := e.db.Boleto(ctx, clientID, id)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeBoletoNotFound, "Boleto %s not found.", id)
	}
	return &b.Boleto, nil
}

// Boletos lists the application's boletos by the filters given.
func (e *Engine) Boletos(ctx context.Context, f model.BoletoFilter, page, pageSize *int) (*model.BoletoPage, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	n, err := readPage(page, pageSize, func(limit, offset int) ([]*model.Boleto, int, error) {
		return e.boletos(ctx, clientID, f, limit, offset)
	})
	if err != nil {
		return nil, err
	}
	return &model.BoletoPage{Total: n.total, TotalPages: n.pages, Page: n.page, Results: n.results}, nil
}

func (e *Engine) boletos(ctx context.Context, clientID uuid.UUID, f model.BoletoFilter, limit, offset int) ([]*model.Boleto, int, error) {
	q := db.BoletoQuery{ClientID: clientID, Status: emptyAsNil(f.Status)}
	if nonEmpty(f.BoletoConnectionID) {
		id, err := parseID("boletoConnectionId", *f.BoletoConnectionID)
		if err != nil {
			return nil, 0, err
		}
		q.ConnectionID = &id
	}
	if q.Status != nil {
		if _, known := boletoMoves[*q.Status]; !known {
			return nil, 0, bad("status must be OPEN, PAID, OVERDUE, CANCELLED or PROTESTED (got %q).", *q.Status)
		}
	}
	if nonEmpty(f.DueDateFrom) {
		t, err := model.ParseTime(*f.DueDateFrom)
		if err != nil {
			return nil, 0, bad("dueDateFrom: %v.", err)
		}
		q.DueFrom = &t.Time
	}
	if nonEmpty(f.DueDateTo) {
		t, err := model.ParseUpTo(*f.DueDateTo)
		if err != nil {
			return nil, 0, bad("dueDateTo: %v.", err)
		}
		q.DueTo = &t
	}
	rows, total, err := e.db.Boletos(ctx, q, limit, offset)
	out := make([]*model.Boleto, len(rows))
	for i, r := range rows {
		out[i] = &r.Boleto
	}
	return out, total, err
}

// CancelBoleto cancels an OPEN or OVERDUE boleto.
func (e *Engine) CancelBoleto(ctx context.Context, id uuid.UUID) (*model.Boleto, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	var out *model.Boleto
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		b, found, err := tx.LockBoleto(ctx, clientID, id)
		if err != nil {
			return err
		}
		if !found {
			return model.Fail(model.CodeBoletoNotFound, "Boleto %s not found.", id)
		}
		if ctx, err = e.boletoOnClock(ctx, b); err != nil {
			return err
		}
		if err := e.moveBoleto(ctx, tx, b, BoletoCancelled, "", 0); err != nil {
			return model.Fail(model.CodeBoletoNotCancelable, "Boleto %s is %s; only an OPEN or OVERDUE boleto can be cancelled.", id, b.Status)
		}
		out = &b.Boleto
		return nil
	})
	return out, err
}

// BoletoPixCharge is the charge the hybrid code's location serves: ATIVA while the boleto
// can be paid (with what paying today costs), CONCLUIDA once paid, REMOVIDA_PELO_PSP after
// it ended otherwise.
func (e *Engine) BoletoPixCharge(ctx context.Context, id uuid.UUID) (*model.PixCharge, error) {
	b, found, err := e.db.Boleto(ctx, uuid.Nil, id)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeBoletoNotFound, "No boleto PIX charge %s.", id)
	}
	if ctx, err = e.boletoOnClock(ctx, b); err != nil {
		return nil, err
	}
	c := &model.PixCharge{Txid: strings.ReplaceAll(b.ID.String(), "-", "")[:25], Status: "ATIVA", Chave: b.NossoNumero,
		SolicitacaoPagador: "Boleto " + b.SeuNumero}
	switch b.Status {
	case BoletoPaid:
		c.Status = "CONCLUIDA"
	case BoletoCancelled, BoletoProtested:
		c.Status = "REMOVIDA_PELO_PSP"
	}
	c.Calendario.Criacao = b.CreatedAt.String()
	c.Valor.Original = fmt.Sprintf("%.2f", AmountDue(&b.Boleto, e.now(ctx)))
	return c, nil
}

// PayBoletoByPix is the sandbox PSP settling a payer's PIX to the hybrid code: the boleto
// becomes PAID with origin PIX and what paying today costs.
func (e *Engine) PayBoletoByPix(ctx context.Context, id uuid.UUID) (*model.PixCharge, error) {
	err := e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		b, found, err := tx.LockBoleto(ctx, uuid.Nil, id)
		if err != nil {
			return err
		}
		if !found {
			return model.Fail(model.CodeBoletoNotFound, "No boleto PIX charge %s.", id)
		}
		if ctx, err = e.boletoOnClock(ctx, b); err != nil {
			return err
		}
		if why := e.boletoUnpayable(ctx, b); why != "" {
			return model.Fail(model.CodeBoletoNotPayable, "%s", why)
		}
		if err := e.moveBoleto(ctx, tx, b, BoletoPaid, "PIX", AmountDue(&b.Boleto, e.now(ctx))); err != nil {
			return err
		}
		return e.payBoletoOutside(ctx, tx, b)
	})
	if err != nil {
		return nil, err
	}
	return e.BoletoPixCharge(ctx, id)
}

// BoletoSweepArgs is the daily lifecycle run: OPEN boletos past their due date (São Paulo)
// become OVERDUE, OVERDUE ones past BoletoProtestAfter become PROTESTED.
type BoletoSweepArgs struct{}

func (BoletoSweepArgs) Kind() string { return "boleto_sweep" }

type boletoSweepWorker struct {
	river.WorkerDefaults[BoletoSweepArgs]
	e *Engine
}

func (w *boletoSweepWorker) Work(ctx context.Context, _ *river.Job[BoletoSweepArgs]) error {
	_, err := w.e.SweepBoletos(ctx)
	return err
}

// SweepBoletos moves the boletos whose dates have passed, in batches; it returns how many
// moved. Boletos on a test clock are left to the clock's advance (sweepBoletos).
func (e *Engine) SweepBoletos(ctx context.Context) (int, error) {
	return e.sweepBoletos(ctx, uuid.Nil)
}

// sweepBoletos is the sweep of the boletos of one test clock (uuid.Nil: of none), on the
// day ctx's time falls on.
func (e *Engine) sweepBoletos(ctx context.Context, clockID uuid.UUID) (int, error) {
	today := e.today(ctx)
	protestDays := e.protestDays()
	moved := 0
	for {
		ids, err := e.db.UnsettledBoletos(ctx, clockID, today, today.AddDate(0, 0, -protestDays), 200)
		if err != nil || len(ids) == 0 {
			return moved, err
		}
		for _, id := range ids {
			// The move is decided under the boleto's lock from what it is now: another sweep
			// (a new leader's run at start beside the daily one) may have moved it since it
			// was listed, and a payer may have paid it. Deciding from the list would protest
			// a boleto that one sweep had just made overdue.
			changed := false
			err := e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
				b, found, err := tx.LockBoleto(ctx, uuid.Nil, id)
				if err != nil || !found {
					return err
				}
				due := b.DueDate.Time
				to := ""
				switch {
				case b.Status == BoletoOpen && due.Before(today):
					to = BoletoOverdue
				case b.Status == BoletoOverdue && due.Before(today.AddDate(0, 0, -protestDays)):
					to = BoletoProtested
				default:
					return nil
				}
				changed = true
				return e.moveBoleto(ctx, tx, b, to, "", 0)
			})
			if err != nil {
				return moved, err
			}
			if changed {
				moved++
			}
		}
	}
}

// spDaily runs once a day, five minutes past midnight in São Paulo.
type spDaily struct{}

func (spDaily) Next(t time.Time) time.Time {
	l := t.In(SaoPaulo)
	next := time.Date(l.Year(), l.Month(), l.Day(), 0, 5, 0, 0, SaoPaulo)
	if !next.After(t) {
		next = next.AddDate(0, 0, 1)
	}
	return next
}

// Periodic is the engine's periodic work: the daily boleto sweep, also run at start so a
// service that was down at midnight catches up.
func (e *Engine) Periodic() []*river.PeriodicJob {
	return []*river.PeriodicJob{river.NewPeriodicJob(spDaily{}, func() (river.JobArgs, *river.InsertOpts) {
		return BoletoSweepArgs{}, &river.InsertOpts{Queue: Queue}
	}, &river.PeriodicJobOpts{RunOnStart: true, ID: "boleto_sweep"})}
}
