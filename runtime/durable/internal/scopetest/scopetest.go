// Package scopetest holds tools declaring OAuth scopes and a scripted model, for the durable engines'
// tests of a run's principal (who the run acts for, restored on every worker).
package scopetest

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/wink"
)

// Closed counts the calls CloseTicket's handler ran.
var Closed atomic.Int64

// TicketParams name a ticket.
type TicketParams struct {
	// ID is the ticket.
	ID int `json:"id"`
}

// CloseTicket closes a ticket.
//
//wink:tool scopes=tickets:write
func CloseTicket(tc *wink.ToolContext, p TicketParams) (wink.ToolResult[wink.NoValue], error) {
	Closed.Add(1)
	return wink.OK(wink.NoValue{}, "closed"), nil
}

// ReadTicket reads a ticket.
//
//wink:tool scopes=tickets:read
func ReadTicket(tc *wink.ToolContext, p TicketParams) (wink.ToolResult[wink.NoValue], error) {
	return wink.OK(wink.NoValue{}, "open"), nil
}

// Model answers turn 1 with a call of close_ticket and turn 2 with text, and records the tools each
// request offered (the turn is the number of assistant messages in the request, plus one, so any
// worker's instance answers any turn).
type Model struct {
	mu      sync.Mutex
	Offered [][]string
}

// Complete implements loop.Provider.
func (m *Model) Complete(_ context.Context, req loop.Request) (loop.Response, error) {
	var names []string
	for _, t := range req.Tools {
		names = append(names, t.Spec().Name)
	}
	m.mu.Lock()
	m.Offered = append(m.Offered, names)
	m.mu.Unlock()
	turn := 1
	for _, msg := range req.Messages {
		if msg.Role == loop.RoleAssistant {
			turn++
		}
	}
	switch turn {
	case 1:
		return loop.Response{ToolCalls: []wink.Call{{ID: "c1", Name: "close_ticket", Arguments: []byte(`{"id":7}`)}}, Stop: "tool_calls"}, nil
	case 2:
		return loop.Response{Text: "done", Stop: "stop"}, nil
	}
	return loop.Response{}, errors.New("scopetest: no turn " + strconv.Itoa(turn))
}

// Agent wires the two tools and m, with no session, and records the principal each wiring was told.
func Agent(m *Model, seen func(durable.Run, *wink.Principal)) durable.Agent {
	reg := wink.MustRegistry(WinkTools())
	return func(ctx context.Context, run durable.Run) (loop.Config, error) {
		if seen != nil {
			seen(run, wink.PrincipalFrom(ctx))
		}
		return loop.Config{Provider: m, Dispatcher: &wink.Dispatcher{Registry: reg}}, nil
	}
}
