// Package authtest holds the tools runtime/mcpserver/auth's tests serve: tools declaring OAuth scopes
// (//wink:tool scopes=...) and one declaring none, which reports the caller's principal.
package authtest

import (
	"strings"

	"github.com/winkgen/wink/runtime/wink"
)

// TicketParams name a ticket.
type TicketParams struct {
	// ID is the ticket.
	ID int `json:"id"`
}

// Ticket is one ticket.
type Ticket struct {
	// ID is the ticket.
	ID int `json:"id"`
	// State is open or closed.
	State string `json:"state"`
}

// ReadTicket reads a ticket.
//
//wink:tool readonly scopes=tickets:read
func ReadTicket(tc *wink.ToolContext, p TicketParams) (wink.ToolResult[Ticket], error) {
	return wink.OK(Ticket{ID: p.ID, State: "open"}, "Ticket is open."), nil
}

// CloseTicket closes a ticket.
//
//wink:tool scopes=tickets:read,tickets:write
func CloseTicket(tc *wink.ToolContext, p TicketParams) (wink.ToolResult[Ticket], error) {
	return wink.OK(Ticket{ID: p.ID, State: "closed"}, "Ticket closed."), nil
}

// Caller is who called.
type Caller struct {
	// Subject is the token's subject.
	Subject string `json:"subject"`
	// Scopes are the granted scopes, space-separated.
	Scopes string `json:"scopes"`
}

// Whoami reports the caller.
//
//wink:tool readonly
func Whoami(tc *wink.ToolContext) (wink.ToolResult[Caller], error) {
	p := tc.Principal()
	if p == nil {
		return wink.OK(Caller{}, "anonymous"), nil
	}
	return wink.OK(Caller{Subject: p.Subject, Scopes: strings.Join(p.Scopes, " ")}, p.Subject), nil
}
