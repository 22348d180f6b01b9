// Package codemode is the example of programs that call tools (code mode, runtime/suites/eval's
// run_program): a route of a dozen legs, each found with one lookup that depends on the one before, so a
// model calling tools one by one needs a turn per leg, and a program needs one turn. make demo-code runs
// it (example/cmd/codemode), durably, with a worker killed in the middle of the program.
package codemode

//go:generate go tool winkgen

import (
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/winkgen/wink/runtime/wink"
)

// Legs is the route: each city's next stop and the distance to it.
var Legs = map[string]struct {
	Next string
	KM   int
}{
	"Lisbon": {"Madrid", 625}, "Madrid": {"Barcelona", 621}, "Barcelona": {"Lyon", 644}, "Lyon": {"Geneva", 150},
	"Geneva": {"Milan", 320}, "Milan": {"Venice", 268}, "Venice": {"Vienna", 610}, "Vienna": {"Prague", 333},
	"Prague": {"Berlin", 350}, "Berlin": {"Hamburg", 289}, "Hamburg": {"Copenhagen", 354}, "Copenhagen": {"Stockholm", 657},
}

// Worker names the process in the effects file; EffectsFile, when set, receives a line per handler run.
var (
	Worker      = "?"
	EffectsFile string
	// KillAt, when set, is called by every route_leg handler with the city, before ("before") and after
	// ("after") its effect line is written (the demo's worker kills itself there).
	KillAt func(city, phase string)
)

// LegParams are the arguments of route_leg.
type LegParams struct {
	// City the leg leaves from, like "Lisbon".
	City string `json:"city" wink:"minLength=1,maxLength=40"`
}

// Leg is one leg of the route.
type Leg struct {
	// City the leg leaves from.
	City string `json:"city"`
	// Next is the city the leg arrives in.
	Next string `json:"next"`
	// KM is the leg's length in kilometres.
	KM int `json:"km"`
}

// RouteLeg returns the leg of the route that leaves a city.
//
//wink:tool readonly
//wink:example desc="The first leg" input={"city":"Lisbon"} output={"city":"Lisbon","next":"Madrid","km":625}
func RouteLeg(tc *wink.ToolContext, p LegParams) (wink.ToolResult[Leg], error) {
	if KillAt != nil {
		KillAt(p.City, "before")
	}
	l, ok := Legs[p.City]
	if !ok {
		var known []string
		for c := range Legs {
			known = append(known, c)
		}
		slices.Sort(known)
		return wink.Failure[Leg]("No leg of the route leaves " + strconv.Quote(p.City) + "; it leaves from " + strings.Join(known, ", ") + "."), nil
	}
	if EffectsFile != "" {
		f, err := os.OpenFile(EffectsFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			_, _ = f.WriteString(Worker + " " + p.City + "\n")
			_ = f.Close()
		}
	}
	if KillAt != nil {
		KillAt(p.City, "after")
	}
	return wink.OK(Leg{City: p.City, Next: l.Next, KM: l.KM}, ""), nil
}

// RouteGuard is the example's policy: route_leg may only be asked about a city of the route.
type RouteGuard struct{}

// Name returns "route_guard".
func (RouteGuard) Name() string { return "route_guard" }

// Check denies a leg from a city the route does not pass.
func (RouteGuard) Check(tc *wink.ToolContext, tool *wink.Tool, params any) wink.Decision {
	if p, ok := params.(LegParams); ok {
		if _, known := Legs[p.City]; !known && p.City != "Stockholm" {
			return wink.Deny("The route does not pass " + strconv.Quote(p.City) + ".")
		}
	}
	return wink.Allow()
}

// OnResult does nothing.
func (RouteGuard) OnResult(*wink.ToolContext, *wink.Tool, any, *wink.Outcome) {}
