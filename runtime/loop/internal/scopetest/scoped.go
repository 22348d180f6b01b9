// Package scopetest holds a tool declaring an OAuth scope, for the loop's test of scope enforcement.
package scopetest

import (
	"sync/atomic"

	"github.com/winkgen/wink/runtime/wink"
)

// Calls counts the calls CloseTicket's handler ran.
var Calls atomic.Int64

// TicketParams name a ticket.
type TicketParams struct {
	// ID is the ticket.
	ID int `json:"id"`
}

// CloseTicket closes a ticket.
//
//wink:tool scopes=tickets:write
func CloseTicket(tc *wink.ToolContext, p TicketParams) (wink.ToolResult[wink.NoValue], error) {
	Calls.Add(1)
	return wink.OK(wink.NoValue{}, "closed"), nil
}
