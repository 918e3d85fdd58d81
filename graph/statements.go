package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/99designs/gqlgen/graphql"
	"github.com/google/uuid"

	"ponte/model"
)

// Statement files: itemsync checks the caller; the institution reads the file.

func (r *mutationResolver) UploadStatement(ctx context.Context, itemID uuid.UUID, file graphql.Upload) (*model.Item, error) {
	if file.Size > model.MaxStatementFileBytes {
		return nil, model.Fail(model.CodeStatementFileTooLarge, "The statement file has %d bytes; the limit is %d (64 MiB).", file.Size, model.MaxStatementFileBytes)
	}
	body, err := io.ReadAll(io.LimitReader(file.File, model.MaxStatementFileBytes+1))
	if err != nil {
		return nil, model.Fail(model.CodeInvalidRequest, "Could not read the statement file.")
	}
	return r.Sync.UploadStatement(ctx, itemID, file.Filename, body)
}

func (r *queryResolver) ConnectorSettings(ctx context.Context, connectorID int) (map[string]any, error) {
	raw, err := r.Sync.ConnectorSettings(ctx, connectorID)
	if err != nil || raw == nil {
		return nil, err
	}
	return settingsMap(raw)
}

func (r *mutationResolver) SetConnectorSettings(ctx context.Context, connectorID int, settings map[string]any) (map[string]any, error) {
	var raw json.RawMessage
	if settings != nil {
		var err error
		if raw, err = json.Marshal(settings); err != nil {
			return nil, model.Fail(model.CodeConnectorSettingsInvalid, "The settings are not a JSON object.")
		}
	}
	stored, err := r.Sync.SetConnectorSettings(ctx, connectorID, raw)
	if err != nil || stored == nil {
		return nil, err
	}
	return settingsMap(stored)
}

func settingsMap(raw json.RawMessage) (map[string]any, error) {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("stored connector settings: %w", err)
	}
	return m, nil
}
