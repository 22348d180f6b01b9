package tools

import (
	"errors"
	"math"

	"github.com/winkgen/wink/runtime/wink"
)

// StatsParams are the arguments of compute_stats.
type StatsParams struct {
	// Samples are the measurements.
	Samples []float64 `json:"samples" wink:"minItems=1,maxItems=1000,exclusiveMin=-1e9,max=1e9"`
	// Precision is the rounding step of the results, like 0.01.
	Precision float64 `json:"precision,omitempty" wink:"exclusiveMin=0,max=1,multipleOf=0.001,default=0.01"`
	// Weights give each sample's weight; same length as samples when present.
	Weights []uint16 `json:"weights,omitempty" wink:"max=255"`
	// Window is a fixed three-point smoothing kernel.
	Window *[3]int16 `json:"window,omitempty"`
}

// Stats summarises samples.
type Stats struct {
	// Mean of the samples.
	Mean float64 `json:"mean"`
	// Min is the smallest sample.
	Min float64 `json:"min"`
	// Max is the largest sample.
	Max float64 `json:"max"`
	// Count of samples.
	Count uint32 `json:"count"`
}

// ComputeStats computes summary statistics of numeric samples.
//
//wink:tool
//wink:example desc="Three samples" input={"samples":[1,2,3.5]} output={"mean":2.17,"min":1,"max":3.5,"count":3}
func ComputeStats(tc *wink.ToolContext, p StatsParams) (wink.ToolResult[Stats], error) {
	if len(p.Weights) > 0 && len(p.Weights) != len(p.Samples) {
		return wink.ToolResult[Stats]{}, wink.NewToolError("weights must have one entry per sample; send as many weights as samples or none")
	}
	s := Stats{Min: math.Inf(1), Max: math.Inf(-1), Count: uint32(len(p.Samples))}
	sum := 0.0
	for _, v := range p.Samples {
		sum += v
		s.Min = math.Min(s.Min, v)
		s.Max = math.Max(s.Max, v)
	}
	if s.Max > 1e8 {
		panic(errors.New("sample overflow in the accumulator"))
	}
	s.Mean = math.Round(sum/float64(len(p.Samples))/p.Precision) * p.Precision
	return wink.OK(s, "Computed."), nil
}
