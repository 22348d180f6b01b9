package ratelimit_test

import (
	"context"
	"fmt"
	"time"

	"github.com/winkgen/wink/runtime/ratelimit"
	"github.com/winkgen/wink/runtime/ratelimit/internal/ratetest"
	"github.com/winkgen/wink/runtime/wink"
)

// send_email declares //wink:tool rate=3/h burst=2: each caller may send two at once, then one every 20
// minutes. Every caller may also make 100 calls a minute in all.
func Example() {
	lim, err := ratelimit.New(ratelimit.Limits{PerPrincipal: wink.Rate{Count: 100, Per: time.Minute}}, nil)
	if err != nil {
		panic(err)
	}
	d := &wink.Dispatcher{Registry: wink.MustRegistry(ratetest.WinkTools()), RateLimit: lim}
	ctx := wink.WithPrincipal(context.Background(), &wink.Principal{Issuer: "https://as.example", Subject: "alice"})
	for range 3 {
		out, _ := d.Dispatch(ctx, wink.Call{ID: "c", Name: "send_email", Arguments: []byte(`{"to":"bob"}`)})
		fmt.Println(out.Success, out.RetryAfter.Round(time.Minute), out.Output)
	}
	// Output:
	// true 0s sent
	// true 0s sent
	// false 20m0s tool "send_email" was not called: this tool's rate limit for the caller (3/h burst=2) is used up; call it again in 20m or later, with the same arguments
}
