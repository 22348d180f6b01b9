// Package quickstart is the README's quickstart, kept compiling and tested.
package quickstart

//go:generate go tool winkgen

import "github.com/winkgen/wink/runtime/wink"

// Unit is a temperature unit.
type Unit string

// Units.
const (
	Celsius    Unit = "celsius"
	Fahrenheit Unit = "fahrenheit"
)

// ForecastParams are the arguments of get_forecast.
type ForecastParams struct {
	// City to forecast, like "Lisbon".
	City string `json:"city" wink:"minLength=1,maxLength=100"`
	// Days ahead, 1 to 7.
	Days int `json:"days" wink:"min=1,max=7,default=1"`
	// Unit of the temperatures.
	Unit Unit `json:"unit,omitempty" wink:"default=celsius"`
}

// Forecast is the predicted weather.
type Forecast struct {
	// High temperatures, one per day.
	Highs []float64 `json:"highs"`
}

// GetForecast returns the weather forecast for a city.
//
//wink:tool
//wink:example desc="Two days in Lisbon" input={"city":"Lisbon","days":2} output={"highs":[21.5,23]}
func GetForecast(tc *wink.ToolContext, p ForecastParams) (wink.ToolResult[Forecast], error) {
	highs := make([]float64, p.Days)
	for i := range highs {
		highs[i] = 21.5
	}
	return wink.OK(Forecast{Highs: highs}, "Forecast for "+p.City+"."), nil
}
