// Package taskfleet tests MCP tasks on a fleet: worker processes sharing PostgreSQL (pgtasks), one of
// them killed mid-task. It has no code of its own; its test binary is also the worker it starts.
package taskfleet
