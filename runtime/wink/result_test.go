package wink_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/winkgen/wink/runtime/wink"
)

func TestResultConstructors(t *testing.T) {
	tests := []struct {
		name string
		got  wink.ToolResult[int]
		want wink.ToolResult[int]
	}{
		{"OK", wink.OK(3, "m"), wink.ToolResult[int]{Message: "m", Value: 3, HasValue: true, Success: true}},
		{"Done", wink.Done[int]("m"), wink.ToolResult[int]{Message: "m", Success: true}},
		{"Failure", wink.Failure[int]("m"), wink.ToolResult[int]{Message: "m"}},
		{"WithoutValueInContext", wink.WithoutValueInContext(wink.OK(3, "m")),
			wink.ToolResult[int]{Message: "m", Value: 3, HasValue: true, Success: true, ExcludeValueFromContext: true}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, tt.got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

func TestToolErrorText(t *testing.T) {
	base := errors.New("base")
	tests := []struct {
		err    error
		want   string
		unwrap error
	}{
		{wink.NewToolError("Pick a smaller limit."), "Pick a smaller limit.", nil},
		{wink.Errorf("limit %d too high", 5), "limit 5 too high", nil},
		{wink.Errorf("wrap: %w", base), "wrap: base", base},
		{wink.Errorf("two: %w, %w", base, errors.ErrUnsupported), "two: base, unsupported operation", errors.ErrUnsupported},
	}
	for _, tt := range tests {
		te, ok := errors.AsType[*wink.ToolError](tt.err)
		if !ok || te.Message != tt.want || tt.err.Error() != tt.want {
			t.Errorf("got %#v, want message %q", tt.err, tt.want)
		}
		if tt.unwrap != nil && !errors.Is(tt.err, tt.unwrap) {
			t.Errorf("%v does not wrap %v", tt.err, tt.unwrap)
		}
		if tt.unwrap == nil && errors.Unwrap(tt.err) != nil {
			t.Errorf("%v unwraps to %v", tt.err, errors.Unwrap(tt.err))
		}
	}
	_ = fmt.Sprint
}
