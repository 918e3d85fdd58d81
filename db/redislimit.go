package db

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// RedisCounter counts rate-limited requests in Redis, for deployments that have one
// (PONTE_REDIS_URL): one key per group, client IP and minute, incremented and given a
// two-minute expiry in one round trip, so keys of past minutes go away by themselves.
// It has the shape of auth.Counter. Redis is a store like PostgreSQL, so its statements
// live here too.
func RedisCounter(c *redis.Client) func(ctx context.Context, group, ip string, window time.Time, n int) (int, error) {
	return func(ctx context.Context, group, ip string, window time.Time, add int) (int, error) {
		key := "ponte:ratelimit:" + group + ":" + ip + ":" + strconv.FormatInt(window.Unix(), 10)
		pipe := c.TxPipeline()
		n := pipe.IncrBy(ctx, key, int64(add))
		pipe.Expire(ctx, key, 2*time.Minute)
		if _, err := pipe.Exec(ctx); err != nil {
			return 0, err
		}
		return int(n.Val()), nil
	}
}
