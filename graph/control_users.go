package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/model"
	"ponte/sandbox"
)

// Custom sandbox users (sandbox control): the sandbox package checks a description, the
// store keeps it per application; an API key only, and another application's users are
// not found.

// SandboxUserStore keeps the applications' custom sandbox users (db.DB is one).
type SandboxUserStore interface {
	// CreateSandboxUser writes u unless its username is taken or the application has max.
	CreateSandboxUser(ctx context.Context, clientID uuid.UUID, u *model.SandboxUser, max int) (taken, full bool, err error)
	ReplaceSandboxUser(ctx context.Context, clientID uuid.UUID, u *model.SandboxUser) (found bool, err error)
	SandboxUsers(ctx context.Context, clientID uuid.UUID) ([]model.SandboxUser, error)
	SandboxUser(ctx context.Context, clientID uuid.UUID, username string) (*model.SandboxUser, bool, error)
	DeleteSandboxUser(ctx context.Context, clientID uuid.UUID, username string) (*model.SandboxUser, bool, error)
}

func (r *Resolver) sandboxUserCaller(ctx context.Context) (uuid.UUID, error) {
	p, err := auth.Require(ctx, auth.ControlSandbox)
	if err != nil {
		return uuid.Nil, err
	}
	return p.ClientID, nil
}

// sandboxUserDoc checks a description given as a GraphQL Map (or REST's body read as one)
// and returns it as the JSON the store keeps.
func sandboxUserDoc(description map[string]any) (*sandbox.User, []byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(description); err != nil {
		return nil, nil, model.Fail(model.CodeSandboxUserInvalid, "The description could not be read as JSON.")
	}
	raw := bytes.TrimSpace(buf.Bytes())
	u, err := sandbox.ParseUser(raw)
	if err != nil {
		return nil, nil, err
	}
	return u, raw, nil
}

func notFoundUser(username string) error {
	return model.Fail(model.CodeSandboxUserNotFound, "No custom sandbox user %q for this client application.", username)
}

func (r *queryResolver) SandboxUsers(ctx context.Context) ([]*model.SandboxUser, error) {
	client, err := r.sandboxUserCaller(ctx)
	if err != nil {
		return nil, err
	}
	list, err := r.SandboxUserStore.SandboxUsers(ctx, client)
	if err != nil {
		return nil, err
	}
	out := make([]*model.SandboxUser, len(list))
	for i := range list {
		out[i] = &list[i]
	}
	return out, nil
}

func (r *queryResolver) SandboxUser(ctx context.Context, username string) (*model.SandboxUser, error) {
	client, err := r.sandboxUserCaller(ctx)
	if err != nil {
		return nil, err
	}
	u, found, err := r.SandboxUserStore.SandboxUser(ctx, client, username)
	if err == nil && !found {
		err = notFoundUser(username)
	}
	return u, err
}

func (r *mutationResolver) CreateSandboxUser(ctx context.Context, description map[string]any) (*model.SandboxUser, error) {
	client, err := r.sandboxUserCaller(ctx)
	if err != nil {
		return nil, err
	}
	spec, raw, err := sandboxUserDoc(description)
	if err != nil {
		return nil, err
	}
	now := model.NewTime(time.Now())
	u := &model.SandboxUser{ID: model.NewID(), Username: spec.Username, Description: raw, CreatedAt: now, UpdatedAt: now}
	taken, full, err := r.SandboxUserStore.CreateSandboxUser(ctx, client, u, sandbox.MaxUsersPerApplication)
	switch {
	case err != nil:
		return nil, err
	case taken:
		return nil, model.Fail(model.CodeSandboxUserExists, "This client application already has a custom sandbox user %q; replace it with PUT /sandbox/users/%s.", u.Username, u.Username)
	case full:
		return nil, model.Fail(model.CodeSandboxUserLimit, "This client application has %d custom sandbox users, the most it may; delete one first.", sandbox.MaxUsersPerApplication)
	}
	return u, nil
}

func (r *mutationResolver) ReplaceSandboxUser(ctx context.Context, username string, description map[string]any) (*model.SandboxUser, error) {
	client, err := r.sandboxUserCaller(ctx)
	if err != nil {
		return nil, err
	}
	if _, given := description["username"]; !given {
		// The path names the user; a description without its username takes it from there.
		description["username"] = username
	}
	spec, raw, err := sandboxUserDoc(description)
	if err != nil {
		return nil, err
	}
	if spec.Username != username {
		return nil, model.Fail(model.CodeSandboxUserInvalid, "username: the description names %q but replaces %q; a username cannot change (create another user).", spec.Username, username)
	}
	u := &model.SandboxUser{Username: username, Description: raw, UpdatedAt: model.NewTime(time.Now())}
	found, err := r.SandboxUserStore.ReplaceSandboxUser(ctx, client, u)
	if err == nil && !found {
		err = notFoundUser(username)
	}
	if err != nil {
		return nil, err
	}
	return u, nil
}

func (r *mutationResolver) DeleteSandboxUser(ctx context.Context, username string) (*model.SandboxUser, error) {
	client, err := r.sandboxUserCaller(ctx)
	if err != nil {
		return nil, err
	}
	u, found, err := r.SandboxUserStore.DeleteSandboxUser(ctx, client, username)
	if err == nil && !found {
		err = notFoundUser(username)
	}
	return u, err
}
