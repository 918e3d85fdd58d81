package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	"ponte/model"
)

// Custom sandbox users: each route is the GraphQL field of the same name
// (graph/control_users.go); the body is the user's description itself.

// userDescription reads the body as a JSON object, its numbers as written (an amount's
// decimals are part of what is checked).
func userDescription(in *input) map[string]any {
	var raw json.RawMessage
	in.body(&raw)
	if in.failure() != nil {
		return nil
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		in.refuse(model.Fail(model.CodeSandboxUserInvalid, "The body is the user's description, a JSON object (docs/sandbox.md, Custom sandbox users)."))
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil || m == nil {
		in.refuse(model.Fail(model.CodeSandboxUserInvalid, "The body is the user's description, a JSON object (docs/sandbox.md, Custom sandbox users)."))
		return nil
	}
	return m
}

// createSandboxUser is POST /sandbox/users.
func (s *Server) createSandboxUser() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		desc := userDescription(in)
		return func(ctx context.Context) (any, error) { return s.mut.CreateSandboxUser(ctx, desc) }
	})
}

// listSandboxUsers is GET /sandbox/users.
func (s *Server) listSandboxUsers() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		return func(ctx context.Context) (any, error) {
			list, err := s.query.SandboxUsers(ctx)
			if err != nil {
				return nil, err
			}
			if list == nil {
				list = []*model.SandboxUser{}
			}
			return sandboxUsersPage{Results: list}, nil
		}
	})
}

// sandboxUsersPage is GET /sandbox/users's answer.
type sandboxUsersPage struct {
	Results []*model.SandboxUser `json:"results"`
}

// getSandboxUser is GET /sandbox/users/{username}.
func (s *Server) getSandboxUser() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		name := in.path("username")
		return func(ctx context.Context) (any, error) { return s.query.SandboxUser(ctx, name) }
	})
}

// replaceSandboxUser is PUT /sandbox/users/{username}.
func (s *Server) replaceSandboxUser() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		name := in.path("username")
		desc := userDescription(in)
		return func(ctx context.Context) (any, error) { return s.mut.ReplaceSandboxUser(ctx, name, desc) }
	})
}

// deleteSandboxUser is DELETE /sandbox/users/{username}.
func (s *Server) deleteSandboxUser() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		name := in.path("username")
		return func(ctx context.Context) (any, error) { return s.mut.DeleteSandboxUser(ctx, name) }
	})
}
