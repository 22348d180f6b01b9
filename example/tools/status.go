package tools

import "github.com/winkgen/wink/runtime/wink"

// Status reports the agent's health.
type Status struct {
	// Healthy is true when every subsystem is up.
	Healthy bool `json:"healthy"`
	// Uptime in seconds.
	Uptime float64 `json:"uptime_seconds"`
}

// GetStatus reports whether the agent is healthy. It takes no arguments.
//
//wink:tool name=get_status readonly
//wink:example desc="Healthy" input={} output={"healthy":true,"uptime_seconds":12.5}
func GetStatus(tc *wink.ToolContext) (wink.ToolResult[Status], error) {
	return wink.OK(Status{Healthy: true, Uptime: 12.5}, "Agent is healthy."), nil
}
