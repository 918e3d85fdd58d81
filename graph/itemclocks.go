package graph

import (
	"context"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/model"
)

// TestClockID names an item's test clock to an API key. Test clocks are a server's sandbox
// control: a Connect Token is refused, as it is at /sandbox/test-clocks.
func (r *itemResolver) TestClockID(ctx context.Context, it *model.Item) (*uuid.UUID, error) {
	if _, err := auth.Require(ctx, auth.ControlSandbox); err != nil {
		return nil, err
	}
	return it.TestClockID, nil
}
