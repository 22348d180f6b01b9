// Command forecast is the README's "your tools, the agent loop and a model" program: the quickstart's
// get_forecast tool offered to any OpenAI-compatible endpoint (OPENAI_BASE_URL, OPENAI_MODEL,
// OPENAI_API_KEY) until the model answers.
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/winkgen/wink/example/quickstart"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/providers/openaihttp"
	"github.com/winkgen/wink/runtime/wink"
)

func main() {
	model, err := openaihttp.New(openaihttp.Config{}) // OPENAI_BASE_URL, OPENAI_MODEL, OPENAI_API_KEY
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := loop.Run(ctx, loop.Config{
		Provider:   model,
		Dispatcher: &wink.Dispatcher{Registry: wink.MustRegistry(quickstart.WinkTools())},
		System:     "You answer questions about the weather. Use get_forecast.",
	}, []loop.Message{loop.UserMessage("Will it be warm in Lisbon for the next two days?")})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(res.Text)
}
