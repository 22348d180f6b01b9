// Package forms declares elicitation forms: every kind of field MCP's elicitation subset has.
package forms

// Status is an untitled single-select.
type Status string

// Statuses.
const (
	Active   Status = "active"
	Inactive Status = "inactive"
	Pending  Status = "pending"
)

// Choice is a titled single-select: every value has a //wink:enum title.
type Choice string

// Choices.
const (
	//wink:enum title="First Option"
	Value1 Choice = "value1"
	Value2 Choice = "value2" //wink:enum title="Second Option"
	Value3 Choice = "value3" //wink:enum title="Third Option"
)

// Legacy is a titled single-select stated the deprecated way.
//
//wink:enum legacy
type Legacy string

// Legacy values.
const (
	Opt1 Legacy = "opt1" //wink:enum title="Option One"
	Opt2 Legacy = "opt2" //wink:enum title="Option Two"
)

// Color has titles on some values only, so it is untitled.
type Color string

// Colors.
const (
	Red   Color = "red" //wink:enum title="Red paint"
	Green Color = "green"
)

// Profile is what the user fills in.
//
//wink:form
type Profile struct {
	// Name of the user.
	Name string `json:"name" wink:"minLength=1,maxLength=50,default='John Doe'"`
	// Email address.
	Email string `json:"email,omitempty" wink:"format=email"`
	// Age in years.
	Age int `json:"age" wink:"min=0,max=150,default=30"`
	// Score out of 100.
	Score float64 `json:"score" wink:"default=95.5"`
	// Verified account.
	Verified bool `json:"verified" wink:"default=true"`
	// Status of the account.
	Status Status `json:"status" wink:"default=active"`
	// Favourite option.
	Favourite Choice `json:"favourite"`
	// Colors liked (untitled multi-select).
	Colors []Color `json:"colors,omitempty" wink:"minItems=1,maxItems=2"`
	// Picks (titled multi-select).
	Picks []Choice `json:"picks,omitempty"`
	// Nickname, optional.
	Nickname *string `json:"nickname"`
	// Old is a legacy titled single-select.
	Old Legacy `json:"old,omitempty"`
	// Size from a tag enum.
	Size string `json:"size,omitempty" wink:"enum=s|m|l"`
}
