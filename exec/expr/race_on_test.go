//go:build race

package expr

// raceEnabled: the race detector's sync.Pool drops items at random, so
// math/big's pooled scratch space allocates where it otherwise does not.
const raceEnabled = true
