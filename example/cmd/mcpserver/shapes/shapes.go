// Package shapes holds tools whose results have every shape a tool result can have (a slice, a string,
// an integer, a map, a struct that is sometimes absent), served beside the example tools by
// example/cmd/mcpserver so that MCP clients see each shape (runtime/mcpserver states each as the
// negotiated protocol version requires).
package shapes

//go:generate go tool winkgen

import (
	"strings"
	"unicode"

	"github.com/winkgen/wink/runtime/wink"
)

// TextParams are the arguments of the text tools.
type TextParams struct {
	// Text to work on.
	Text string `json:"text" wink:"maxLength=1000"`
}

// SplitWords splits a text into its words.
//
//wink:tool readonly
//wink:example desc="Two words" input={"text":"hello world"} output=["hello","world"]
func SplitWords(tc *wink.ToolContext, p TextParams) (wink.ToolResult[[]string], error) {
	return wink.OK(strings.Fields(p.Text), "Split."), nil
}

// Shout returns a text in capitals.
//
//wink:tool readonly
//wink:example desc="A greeting" input={"text":"hi"} output="HI"
func Shout(tc *wink.ToolContext, p TextParams) (wink.ToolResult[string], error) {
	return wink.OK(strings.ToUpper(p.Text), "Shouted."), nil
}

// CountLetters counts the letters of a text.
//
//wink:tool readonly
//wink:example desc="Five letters" input={"text":"a b c d e"} output=5
func CountLetters(tc *wink.ToolContext, p TextParams) (wink.ToolResult[int], error) {
	n := 0
	for _, r := range p.Text {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return wink.OK(n, "Counted."), nil
}

// LetterCounts counts each letter of a text.
//
//wink:tool readonly
//wink:example desc="Repeated letters" input={"text":"aab"} output={"a":2,"b":1}
func LetterCounts(tc *wink.ToolContext, p TextParams) (wink.ToolResult[map[string]int], error) {
	m := map[string]int{}
	for _, r := range strings.ToLower(p.Text) {
		if unicode.IsLetter(r) {
			m[string(r)]++
		}
	}
	return wink.OK(m, "Counted each letter."), nil
}

// FindParams are the arguments of find_word.
type FindParams struct {
	// Text to search.
	Text string `json:"text" wink:"maxLength=1000"`
	// Word to find.
	Word string `json:"word" wink:"minLength=1,maxLength=100"`
}

// Found is where a word was found.
type Found struct {
	// Word that was found.
	Word string `json:"word"`
	// Offset is the byte offset of its first occurrence.
	Offset int `json:"offset"`
}

// FindWord finds the first occurrence of a word in a text; when it is absent the result has no value.
//
//wink:tool readonly
//wink:example desc="Found" input={"text":"to be or not","word":"or"} output={"word":"or","offset":6}
//wink:example desc="Absent: no value" input={"text":"to be","word":"or"}
func FindWord(tc *wink.ToolContext, p FindParams) (wink.ToolResult[Found], error) {
	i := strings.Index(p.Text, p.Word)
	if i < 0 {
		return wink.Done[Found]("The word is not in the text."), nil
	}
	return wink.OK(Found{Word: p.Word, Offset: i}, "Found."), nil
}
