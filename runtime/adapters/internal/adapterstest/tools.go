// Package adapterstest holds the tools the adapter tests dispatch the recorded provider tool calls to
// (testdata/wire/ at the module root). They mirror the recorded functions: getCurrentWeather (from the
// OpenAI chat recording), search (the strict OpenAI recording) and updateIssueList (the Anthropic
// recording). winkgen names are snake_case (^[a-z0-9_-]{1,64}$), so the camelCase recorded names map to
// get_current_weather and update_issue_list; label_issue has a map parameter, which OpenAI strict mode
// cannot express, so it exercises the non-strict fallback.
package adapterstest

//go:generate go run github.com/winkgen/wink/cmd/winkgen

import (
	"strings"

	"github.com/winkgen/wink/runtime/wink"
)

// Unit is a temperature unit.
type Unit string

// Temperature units.
const (
	Celsius    Unit = "celsius"
	Fahrenheit Unit = "fahrenheit"
)

// WeatherParams are the arguments of get_current_weather.
type WeatherParams struct {
	// Location is the city and state, e.g. San Francisco, CA.
	Location string `json:"location" wink:"minLength=1"`
	// Unit is the temperature unit.
	Unit Unit `json:"unit,omitempty"`
}

// Weather is a weather report.
type Weather struct {
	// Location is where the report is for.
	Location string `json:"location"`
	// Temperature in the requested unit.
	Temperature int `json:"temperature"`
	// Unit of the temperature.
	Unit Unit `json:"unit"`
}

// GetCurrentWeather gets the current weather in a given location.
//
//wink:tool
func GetCurrentWeather(tc *wink.ToolContext, p WeatherParams) (wink.ToolResult[Weather], error) {
	w := Weather{Location: p.Location, Temperature: 22, Unit: Celsius}
	if p.Unit == Fahrenheit {
		w.Temperature, w.Unit = 72, Fahrenheit
	}
	return wink.OK(w, "Weather in "+p.Location+"."), nil
}

// Engine is a web search engine.
type Engine string

// Search engines.
const (
	Google     Engine = "google"
	DuckDuckGo Engine = "duckduckgo"
	Bing       Engine = "bing"
)

// SearchParams are the arguments of search.
type SearchParams struct {
	// SearchEngine is the engine to ask.
	SearchEngine Engine `json:"search_engine"`
	// SearchQuery is what to search for.
	SearchQuery string `json:"search_query" wink:"minLength=1"`
}

// SearchResult lists search hits.
type SearchResult struct {
	// Hits are the result titles.
	Hits []string `json:"hits"`
}

// Search searches by the web search engine.
//
//wink:tool name=search
func Search(tc *wink.ToolContext, p SearchParams) (wink.ToolResult[SearchResult], error) {
	if strings.Contains(p.SearchQuery, "fail") {
		return wink.Failure[SearchResult]("Search engine " + string(p.SearchEngine) + " is unavailable."), nil
	}
	return wink.OK(SearchResult{Hits: []string{string(p.SearchEngine) + ": " + p.SearchQuery}}, "1 hit."), nil
}

// IssueList is the refreshed issue list.
type IssueList struct {
	// Open counts the open issues.
	Open int `json:"open"`
}

// UpdateIssueList updates the current issue list.
//
//wink:tool
func UpdateIssueList(tc *wink.ToolContext) (wink.ToolResult[IssueList], error) {
	return wink.OK(IssueList{Open: 3}, "Issue list updated."), nil
}

// LabelParams are the arguments of label_issue.
type LabelParams struct {
	// Issue is the issue number.
	Issue int `json:"issue" wink:"min=1"`
	// Labels are key/value labels to set, as <key> & <value> pairs.
	Labels map[string]string `json:"labels"`
}

// LabelIssue sets labels on an issue & shows them as <key>=<value>.
//
//wink:tool
func LabelIssue(tc *wink.ToolContext, p LabelParams) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("Labelled."), nil
}
