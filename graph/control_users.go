package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/model"
)

// Custom sandbox users (sandbox control): the institution that connects them checks a
// description (SandboxUserRules, given by whoever builds the resolver), the store keeps it
// per application; an API key only, and another application's users are not found.

// SandboxUserRules are the rules of custom sandbox users. They belong to the institution
// that connects the users, which graph does not know: cmd/ponte and the tests give the
// sandbox's.
type SandboxUserRules interface {
	// CheckUser reads a description and answers its username; a refusal is a
	// SANDBOX_USER_INVALID error naming the field.
	CheckUser(raw []byte) (username string, err error)
	// MaxUsersPerApplication is how many users one client application may register.
	MaxUsersPerApplication() int
}

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
func (r *Resolver) sandboxUserDoc(description map[string]any) (string, []byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(description); err != nil {
		return "", nil, model.Fail(model.CodeSandboxUserInvalid, "The description could not be read as JSON.")
	}
	raw := bytes.TrimSpace(buf.Bytes())
	username, err := r.SandboxUserRules.CheckUser(raw)
	if err != nil {
		return "", nil, err
	}
	return username, raw, nil
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
	username, raw, err := r.sandboxUserDoc(description)
	if err != nil {
		return nil, err
	}
	now := model.NewTime(time.Now())
	max := r.SandboxUserRules.MaxUsersPerApplication()
	u := &model.SandboxUser{ID: model.NewID(), Username: username, Description: raw, CreatedAt: now, UpdatedAt: now}
	taken, full, err := r.SandboxUserStore.CreateSandboxUser(ctx, client, u, max)
	switch {
	case err != nil:
		return nil, err
	case taken:
		return nil, model.Fail(model.CodeSandboxUserExists, "This client application already has a custom sandbox user %q; replace it with PUT /sandbox/users/%s.", u.Username, u.Username)
	case full:
		return nil, model.Fail(model.CodeSandboxUserLimit, "This client application has %d custom sandbox users, the most it may; delete one first.", max)
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
	named, raw, err := r.sandboxUserDoc(description)
	if err != nil {
		return nil, err
	}
	if named != username {
		return nil, model.Fail(model.CodeSandboxUserInvalid, "username: the description names %q but replaces %q; a username cannot change (create another user).", named, username)
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
