package rest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"

	"github.com/99designs/gqlgen/graphql"

	"ponte/model"
)

// uploadStatement is POST /items/{id}/statements: the file is the whole body (any
// Content-Type but multipart), or the part named "file" of a multipart/form-data body, as
// a browser form or curl -F sends it. The body has its own limit (64 MiB), which edge
// leaves to this route.
func (s *Server) uploadStatement() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id := in.id("id", "Item id")
		name := in.query("name").str("name")
		var file graphql.Upload
		if in.failure() == nil {
			var err error
			file, err = readStatement(in.r)
			in.refuse(err)
		}
		if name != nil {
			file.Filename = *name
		}
		return func(ctx context.Context) (any, error) { return s.mut.UploadStatement(ctx, id, file) }
	})
}

// isUpload tells edge which requests carry a statement file, whose body it leaves alone.
func isUpload(r *http.Request) bool {
	return r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/items/") && strings.HasSuffix(r.URL.Path, "/statements")
}

func statementTooLarge() error {
	return model.Fail(model.CodeStatementFileTooLarge, "The statement file exceeds %d bytes (64 MiB).", model.MaxStatementFileBytes)
}

// readStatement reads the file of an upload, refusing one over the limit as soon as it is
// known to be: from Content-Length, before reading anything.
func readStatement(r *http.Request) (graphql.Upload, error) {
	// A multipart body carries a little more than its file.
	limit := int64(model.MaxStatementFileBytes + 64<<10)
	if r.ContentLength > limit {
		return graphql.Upload{}, statementTooLarge()
	}
	body := http.MaxBytesReader(nil, r.Body, limit)
	mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	var up graphql.Upload
	var content []byte
	var err error
	if mt == "multipart/form-data" {
		content, up.Filename, err = filePart(body, params["boundary"])
	} else {
		content, err = io.ReadAll(body)
	}
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig) || len(content) > model.MaxStatementFileBytes:
		return up, statementTooLarge()
	case err != nil:
		return up, err
	}
	up.File, up.Size, up.ContentType = bytes.NewReader(content), int64(len(content)), mt
	return up, nil
}

// filePart reads the part named file of a multipart body.
func filePart(body io.Reader, boundary string) ([]byte, string, error) {
	if boundary == "" {
		return nil, "", invalid("The multipart/form-data body has no boundary in its Content-Type.")
	}
	mr := multipart.NewReader(body, boundary)
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return nil, "", invalid("The multipart/form-data body has no part named file.")
		}
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				return nil, "", err
			}
			return nil, "", invalid("The multipart/form-data body is malformed.")
		}
		if part.FormName() != "file" {
			continue
		}
		content, err := io.ReadAll(part)
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				return nil, "", err
			}
			return nil, "", invalid("The multipart/form-data body is malformed.")
		}
		return content, part.FileName(), nil
	}
}

// connectorSettings is GET /connectors/{id}/settings.
func (s *Server) connectorSettings() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id := in.number("id", "Connector id")
		return func(ctx context.Context) (any, error) { return settingsAnswer(s.query.ConnectorSettings(ctx, id)) }
	})
}

// putConnectorSettings is PUT /connectors/{id}/settings: the body is the mapping.
func (s *Server) putConnectorSettings() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id := in.number("id", "Connector id")
		var m map[string]any
		in.body(&m)
		if in.failure() == nil && m == nil {
			in.refuse(model.Fail(model.CodeConnectorSettingsInvalid, "The body must be the mapping, a JSON object (DELETE removes it)."))
		}
		return func(ctx context.Context) (any, error) { return settingsAnswer(s.mut.SetConnectorSettings(ctx, id, m)) }
	})
}

// deleteConnectorSettings is DELETE /connectors/{id}/settings.
func (s *Server) deleteConnectorSettings() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id := in.number("id", "Connector id")
		return func(ctx context.Context) (any, error) {
			return settingsAnswer(s.mut.SetConnectorSettings(ctx, id, nil))
		}
	})
}

// settingsAnswer is the body of the settings routes: {settings}, null when none is set.
func settingsAnswer(m map[string]any, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return map[string]any{"settings": m}, nil
}
