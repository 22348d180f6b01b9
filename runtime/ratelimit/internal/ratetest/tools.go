// Package ratetest holds tools declaring rate limits, for the rate limiter's tests and benchmarks.
package ratetest

import (
	"sync/atomic"

	"github.com/winkgen/wink/runtime/wink"
)

// Sends counts the calls SendEmail's handler ran.
var Sends atomic.Int64

// EmailParams are an email to send.
type EmailParams struct {
	// To is the recipient.
	To string `json:"to"`
}

// SendEmail sends an email.
//
//wink:tool rate=3/h burst=2
func SendEmail(tc *wink.ToolContext, p EmailParams) (wink.ToolResult[wink.NoValue], error) {
	Sends.Add(1)
	return wink.OK(wink.NoValue{}, "sent"), nil
}

// Lookups counts the calls Lookup's handler ran.
var Lookups atomic.Int64

// LookupParams name a record.
type LookupParams struct {
	// ID is the record.
	ID int `json:"id"`
}

// Lookup reads a record.
//
//wink:tool readonly
func Lookup(tc *wink.ToolContext, p LookupParams) (wink.ToolResult[wink.NoValue], error) {
	Lookups.Add(1)
	return wink.OK(wink.NoValue{}, "found"), nil
}
