package graph

import (
	"context"
	"fmt"
	"strings"
)

// Ready reports whether the database answers and every migration is applied.
func (r *Resolver) Ready(ctx context.Context) error {
	pending, err := r.DB.Pending(ctx)
	if err != nil {
		return fmt.Errorf("database not reachable or not migrated: %v", err)
	}
	if len(pending) > 0 {
		return fmt.Errorf("migrations pending: %s", strings.Join(pending, ", "))
	}
	return nil
}
