// Package state has session state types and no tools: winkgen emits their codecs.
package state

import "time"

// Phase is an enum.
type Phase string

// Phases.
const (
	PhaseOpen   Phase = "open"
	PhaseClosed Phase = "closed"
)

// Note is nested state.
type Note struct {
	Text string `json:"text" wink:"minLength=1"`
	At   time.Time
}

// Board is kept in a session slice.
//
//wink:state
type Board struct {
	Phase  Phase             `json:"phase"`
	Notes  []Note            `json:"notes"`
	Tags   map[string]int    `json:"tags"`
	Pinned *Note             `json:"pinned,omitempty"`
	Extra  map[string]string `json:"extra,omitempty"`
}
