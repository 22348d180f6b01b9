// Package toolbox is the route task of package codemode in a toolbox of sixteen travel tools, every one
// deferred (//wink:tool defer): route_leg (the same route as codemode's) and fifteen others the task does
// not need. It is what the tool-use benchmark measures the same task on, done three ways: one call per
// model turn with every definition loaded, by one program (codemode), and with the definitions found by
// the tool search (make bench-tools).
package toolbox

//go:generate go tool winkgen

import (
	"github.com/winkgen/wink/example/codemode"
	"github.com/winkgen/wink/runtime/wink"
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
//wink:tool readonly defer
//wink:example desc="The first leg" input={"city":"Lisbon"} output={"city":"Lisbon","next":"Madrid","km":625}
func RouteLeg(tc *wink.ToolContext, p LegParams) (wink.ToolResult[Leg], error) {
	l, ok := codemode.Legs[p.City]
	if !ok {
		return wink.Failure[Leg]("No leg of the route leaves " + p.City + "; start from Lisbon."), nil
	}
	return wink.OK(Leg{City: p.City, Next: l.Next, KM: l.KM}, ""), nil
}

// Answer is what the other tools return.
type Answer struct {
	// Tool that answered.
	Tool string `json:"tool"`
	// Detail of the answer.
	Detail string `json:"detail"`
}

// HotelSearchParams are the arguments of hotel_search.
type HotelSearchParams struct {
	// City to stay in, like "Vienna".
	City string `json:"city" wink:"minLength=1,maxLength=80"`
	// Limit is how many answers to give at most.
	Limit int `json:"limit,omitempty" wink:"min=1,max=50,default=5"`
}

// HotelSearch finds hotels in a city for a range of nights.
//
//wink:tool name=hotel_search readonly defer
func HotelSearch(tc *wink.ToolContext, p HotelSearchParams) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "hotel_search", Detail: "done"}, ""), nil
}

// HotelBookParams are the arguments of hotel_book.
type HotelBookParams struct {
	// The hotel's id from hotel_search.
	HotelID string `json:"hotel_id" wink:"minLength=1,maxLength=80"`
	// Limit is how many answers to give at most.
	Limit int `json:"limit,omitempty" wink:"min=1,max=50,default=5"`
}

// HotelBook books a room in a hotel found by hotel_search.
//
//wink:tool name=hotel_book readonly defer
func HotelBook(tc *wink.ToolContext, p HotelBookParams) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "hotel_book", Detail: "done"}, ""), nil
}

// FlightStatusParams are the arguments of flight_status.
type FlightStatusParams struct {
	// The flight number, like "TP1234".
	Flight string `json:"flight" wink:"minLength=1,maxLength=80"`
	// Limit is how many answers to give at most.
	Limit int `json:"limit,omitempty" wink:"min=1,max=50,default=5"`
}

// FlightStatus tells whether a flight is on time, delayed or cancelled.
//
//wink:tool name=flight_status readonly defer
func FlightStatus(tc *wink.ToolContext, p FlightStatusParams) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "flight_status", Detail: "done"}, ""), nil
}

// FlightSearchParams are the arguments of flight_search.
type FlightSearchParams struct {
	// The departure airport's IATA code.
	From string `json:"from" wink:"minLength=1,maxLength=80"`
	// Limit is how many answers to give at most.
	Limit int `json:"limit,omitempty" wink:"min=1,max=50,default=5"`
}

// FlightSearch finds flights between two airports on a date.
//
//wink:tool name=flight_search readonly defer
func FlightSearch(tc *wink.ToolContext, p FlightSearchParams) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "flight_search", Detail: "done"}, ""), nil
}

// TrainTimesParams are the arguments of train_times.
type TrainTimesParams struct {
	// The station's name.
	Station string `json:"station" wink:"minLength=1,maxLength=80"`
	// Limit is how many answers to give at most.
	Limit int `json:"limit,omitempty" wink:"min=1,max=50,default=5"`
}

// TrainTimes lists the train departures from a station on a day.
//
//wink:tool name=train_times readonly defer
func TrainTimes(tc *wink.ToolContext, p TrainTimesParams) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "train_times", Detail: "done"}, ""), nil
}

// CarRentalParams are the arguments of car_rental.
type CarRentalParams struct {
	// City to rent the car in.
	City string `json:"city" wink:"minLength=1,maxLength=80"`
	// Limit is how many answers to give at most.
	Limit int `json:"limit,omitempty" wink:"min=1,max=50,default=5"`
}

// CarRental quotes a rental car in a city for some days.
//
//wink:tool name=car_rental readonly defer
func CarRental(tc *wink.ToolContext, p CarRentalParams) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "car_rental", Detail: "done"}, ""), nil
}

// WeatherParams are the arguments of weather_forecast.
type WeatherParams struct {
	// City of the forecast.
	City string `json:"city" wink:"minLength=1,maxLength=80"`
	// Limit is how many answers to give at most.
	Limit int `json:"limit,omitempty" wink:"min=1,max=50,default=5"`
}

// Weather gives the weather forecast of a city for the next days.
//
//wink:tool name=weather_forecast readonly defer
func Weather(tc *wink.ToolContext, p WeatherParams) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "weather_forecast", Detail: "done"}, ""), nil
}

// CurrencyParams are the arguments of currency_convert.
type CurrencyParams struct {
	// The currency to convert from, like "EUR".
	From string `json:"from" wink:"minLength=1,maxLength=80"`
	// Limit is how many answers to give at most.
	Limit int `json:"limit,omitempty" wink:"min=1,max=50,default=5"`
}

// Currency converts an amount between two currencies at today's rate.
//
//wink:tool name=currency_convert readonly defer
func Currency(tc *wink.ToolContext, p CurrencyParams) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "currency_convert", Detail: "done"}, ""), nil
}

// VisaParams are the arguments of visa_rules.
type VisaParams struct {
	// The country to enter.
	Country string `json:"country" wink:"minLength=1,maxLength=80"`
	// Limit is how many answers to give at most.
	Limit int `json:"limit,omitempty" wink:"min=1,max=50,default=5"`
}

// Visa says whether a passport needs a visa to enter a country.
//
//wink:tool name=visa_rules readonly defer
func Visa(tc *wink.ToolContext, p VisaParams) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "visa_rules", Detail: "done"}, ""), nil
}

// MuseumParams are the arguments of museum_hours.
type MuseumParams struct {
	// The museum's name.
	Museum string `json:"museum" wink:"minLength=1,maxLength=80"`
	// Limit is how many answers to give at most.
	Limit int `json:"limit,omitempty" wink:"min=1,max=50,default=5"`
}

// Museum gives a museum's opening hours and ticket prices.
//
//wink:tool name=museum_hours readonly defer
func Museum(tc *wink.ToolContext, p MuseumParams) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "museum_hours", Detail: "done"}, ""), nil
}

// RestaurantParams are the arguments of restaurant_search.
type RestaurantParams struct {
	// A place or address to search around.
	Near string `json:"near" wink:"minLength=1,maxLength=80"`
	// Limit is how many answers to give at most.
	Limit int `json:"limit,omitempty" wink:"min=1,max=50,default=5"`
}

// Restaurant finds restaurants near a place, by cuisine.
//
//wink:tool name=restaurant_search readonly defer
func Restaurant(tc *wink.ToolContext, p RestaurantParams) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "restaurant_search", Detail: "done"}, ""), nil
}

// EventParams are the arguments of event_listing.
type EventParams struct {
	// City of the events.
	City string `json:"city" wink:"minLength=1,maxLength=80"`
	// Limit is how many answers to give at most.
	Limit int `json:"limit,omitempty" wink:"min=1,max=50,default=5"`
}

// Event lists concerts and events in a city on a date.
//
//wink:tool name=event_listing readonly defer
func Event(tc *wink.ToolContext, p EventParams) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "event_listing", Detail: "done"}, ""), nil
}

// InsuranceParams are the arguments of travel_insurance.
type InsuranceParams struct {
	// A short description of the trip.
	Trip string `json:"trip" wink:"minLength=1,maxLength=80"`
	// Limit is how many answers to give at most.
	Limit int `json:"limit,omitempty" wink:"min=1,max=50,default=5"`
}

// Insurance quotes travel insurance for a trip.
//
//wink:tool name=travel_insurance readonly defer
func Insurance(tc *wink.ToolContext, p InsuranceParams) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "travel_insurance", Detail: "done"}, ""), nil
}

// PackingParams are the arguments of packing_list.
type PackingParams struct {
	// A short description of the trip.
	Trip string `json:"trip" wink:"minLength=1,maxLength=80"`
	// Limit is how many answers to give at most.
	Limit int `json:"limit,omitempty" wink:"min=1,max=50,default=5"`
}

// Packing suggests a packing list for a trip's weather and length.
//
//wink:tool name=packing_list readonly defer
func Packing(tc *wink.ToolContext, p PackingParams) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "packing_list", Detail: "done"}, ""), nil
}

// TripParams are the arguments of trip_summary.
type TripParams struct {
	// The trip's id.
	TripID string `json:"trip_id" wink:"minLength=1,maxLength=80"`
	// Limit is how many answers to give at most.
	Limit int `json:"limit,omitempty" wink:"min=1,max=50,default=5"`
}

// Trip summarises the bookings of a trip.
//
//wink:tool name=trip_summary readonly defer
func Trip(tc *wink.ToolContext, p TripParams) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "trip_summary", Detail: "done"}, ""), nil
}
