package itemsync

import (
	"context"
	"encoding/json"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
)

// Configurable is an institution an application configures per connector (the mapping of a
// CSV export). CheckSettings validates settings and returns them as they are stored.
type Configurable interface {
	Configures(c *model.Connector) bool
	CheckSettings(c *model.Connector, settings json.RawMessage) (json.RawMessage, error)
}

// maxWaitingUploads bounds the files an item keeps waiting for their executions (a year
// of monthly statements uploaded at once fits).
const maxWaitingUploads = 24

// UploadStatement takes a statement file for an item whose connector reads files: the
// institution reads it first, so a file it cannot read is refused and changes nothing;
// then the file is kept and an execution stores what it holds, with the same events as any
// other. Files uploaded while the item updates wait their turn, in the order they came.
func (e *Engine) UploadStatement(ctx context.Context, itemID uuid.UUID, name string, file []byte) (*model.Item, error) {
	p, err := caller(ctx, auth.UpdateItem, itemID)
	if err != nil {
		return nil, err
	}
	if len(file) > model.MaxStatementFileBytes {
		return nil, model.Fail(model.CodeStatementFileTooLarge, "The statement file has %d bytes; the limit is %d (64 MiB).", len(file), model.MaxStatementFileBytes)
	}
	it, found, err := e.db.Item(ctx, p.ClientID, itemID)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeItemNotFound, "Item %s not found.", itemID)
	}
	c, _, err := e.db.Connector(ctx, it.ConnectorID)
	if err != nil {
		return nil, err
	}
	inst, err := e.institution(c)
	if err != nil {
		return nil, err
	}
	taker, ok := inst.(FileTaker)
	if !ok || c.StatementFormat == nil {
		return nil, model.Fail(model.CodeItemTakesNoFiles, "Item %s is on connector %d (%s), which does not read statement files.", itemID, c.ID, c.Name)
	}
	settings, err := e.db.ConnectorSettings(ctx, p.ClientID, c.ID)
	if err != nil {
		return nil, err
	}
	if len(file) == 0 {
		return nil, model.Fail(model.CodeStatementFileInvalid, "The request has no statement file: send the file as the body, or as the part named file of a multipart/form-data body.").
			WithData(map[string]any{"line": 0})
	}
	sess := &Session{ItemID: it.ID, ClientID: it.ClientID, Connector: c, Products: it.Products, Settings: settings, Now: e.now(), BaseURL: e.cfg.BaseURL}
	if err := taker.Check(ctx, sess, file); err != nil {
		return nil, err
	}
	if name == "" {
		name = "statement"
	}
	var item *db.ItemRow
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		it, found, err := tx.LockItem(ctx, p.ClientID, itemID)
		if err != nil {
			return err
		}
		if !found {
			return model.Fail(model.CodeItemNotFound, "Item %s not found.", itemID)
		}
		waiting, err := tx.WaitingUploads(ctx, it.ID)
		if err != nil {
			return err
		}
		if waiting >= maxWaitingUploads {
			return model.Fail(model.CodeItemAlreadyUpdating, "Item %s already has %d statement files waiting to be read; upload more when they are done.", it.ID, waiting)
		}
		up := &db.StatementUpload{ID: model.NewID(), ItemID: it.ID, Name: name, CreatedAt: e.now()}
		if err := tx.InsertStatementUpload(ctx, up, file); err != nil {
			return err
		}
		item = it
		if isRunning(it.Status) {
			// Files queue: the execution running now starts the next one as it ends.
			return nil
		}
		return e.startExecution(ctx, tx, it, triggeredBy(p), nil, &up.ID)
	})
	if err != nil {
		return nil, err
	}
	item.Connector = c
	return &item.Item, nil
}

// ConnectorSettings is what the calling application configured for connector id (a CSV
// mapping), or nil.
func (e *Engine) ConnectorSettings(ctx context.Context, connectorID int) (json.RawMessage, error) {
	p, err := caller(ctx, auth.ConfigureConnector)
	if err != nil {
		return nil, err
	}
	if _, err := e.configurable(ctx, connectorID); err != nil {
		return nil, err
	}
	return e.db.ConnectorSettings(ctx, p.ClientID, connectorID)
}

// SetConnectorSettings stores the calling application's settings for connector id, after
// its institution checked them; nil settings remove them.
func (e *Engine) SetConnectorSettings(ctx context.Context, connectorID int, settings json.RawMessage) (json.RawMessage, error) {
	p, err := caller(ctx, auth.ConfigureConnector)
	if err != nil {
		return nil, err
	}
	cfg, err := e.configurable(ctx, connectorID)
	if err != nil {
		return nil, err
	}
	if settings != nil {
		c, _, err := e.db.Connector(ctx, connectorID)
		if err != nil {
			return nil, err
		}
		if settings, err = cfg.CheckSettings(c, settings); err != nil {
			return nil, err
		}
	}
	return settings, e.db.SetConnectorSettings(ctx, p.ClientID, connectorID, settings, e.now())
}

func (e *Engine) configurable(ctx context.Context, connectorID int) (Configurable, error) {
	c, found, err := e.db.Connector(ctx, connectorID)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeConnectorNotFound, "Connector %d not found.", connectorID)
	}
	inst, err := e.institution(c)
	if err != nil {
		return nil, err
	}
	cfg, ok := inst.(Configurable)
	if !ok || !cfg.Configures(c) {
		return nil, model.Fail(model.CodeConnectorTakesNoSettings, "Connector %d (%s) has nothing to configure.", c.ID, c.Name)
	}
	return cfg, nil
}

// nextUpload starts, as an execution of a file-fed item ends, the execution of the file
// that has waited longest, inside the ending execution's transaction.
func (e *Engine) nextUpload(ctx context.Context, tx *db.Tx, st *state) error {
	if _, files := st.inst.(FileTaker); !files {
		return nil
	}
	next, err := tx.NextStatementUpload(ctx, st.it.ID)
	if err != nil || next == nil {
		return err
	}
	return e.startExecution(ctx, tx, st.it, st.ex.TriggeredBy, nil, next)
}
