//go:build !race

package wink_test

// raceEnabled reports a -race build, where sync.Pool drops items at random.
const raceEnabled = false
