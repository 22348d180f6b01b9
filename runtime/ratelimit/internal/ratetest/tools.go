// Package ratetest holds tools declaring rate limits, for the rate limiter's tests and benchmarks.
package ratetest

import (
	"sync/atomic"
	"time"

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

// SearchParams are a search as a model writes one.
type SearchParams struct {
	// Query is the text to look for.
	Query string `json:"query" wink:"minLength=1,maxLength=200"`
	// Limit is the most results to return.
	Limit int `json:"limit,omitempty" wink:"min=1,max=50,default=10"`
	// Kinds narrow the search to these kinds of document.
	Kinds []string `json:"kinds,omitempty" wink:"maxItems=5"`
	// Since keeps documents changed at or after this time.
	Since *time.Time `json:"since,omitempty"`
}

// SearchResult is what Search found.
type SearchResult struct {
	// Matches are the documents' paths.
	Matches []string `json:"matches"`
	// Total is how many documents matched.
	Total int `json:"total"`
}

// Search searches the documents.
//
//wink:tool readonly
func Search(tc *wink.ToolContext, p SearchParams) (wink.ToolResult[SearchResult], error) {
	return wink.OK(SearchResult{Matches: []string{"guide/" + p.Query + ".md"}, Total: 1}, "1 match"), nil
}
