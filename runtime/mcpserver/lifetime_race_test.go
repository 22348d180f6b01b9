//go:build race

package mcpserver_test

// ltRace reports a build with the race detector, which makes each request many times slower.
const ltRace = true
