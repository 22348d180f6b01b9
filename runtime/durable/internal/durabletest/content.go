package durabletest

import (
	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// SnapshotParams are the arguments of snapshot.
type SnapshotParams struct {
	// Account to picture.
	Account string `json:"account" wink:"minLength=1,maxLength=40"`
}

// Snapshot records a look at an account and returns one content block of every kind (SnapshotBlocks).
// The account's latest look replaces its earlier ones.
//
//wink:tool
func Snapshot(tc *wink.ToolContext, p SnapshotParams) (wink.ToolResult[wink.NoValue], error) {
	// The account's latest look replaces the earlier ones: a session's state does not grow with looks.
	session.Replace(tc.Session(), Entries, func(items []Entry) []Entry {
		out := items[:0]
		for _, e := range items {
			if e.Account != p.Account || e.Cents != 0 {
				out = append(out, e)
			}
		}
		return append(out, Entry{Account: p.Account, Key: durable.IdempotencyKey(tc)})
	})
	return wink.WithContent(wink.Done[wink.NoValue]("Snapshot of "+p.Account+":"), SnapshotBlocks(p.Account)...), nil
}

// SnapshotBlocks are the blocks Snapshot returns for account: text, an image, audio, an embedded text
// resource, an embedded blob, an empty embedded blob (Data empty, not nil) and a resource link with
// every field set.
func SnapshotBlocks(account string) []wink.Content {
	link := wink.ResourceLink("file:///accounts/"+account+".csv", account+".csv", "text/csv")
	link.Title, link.Description, link.Size = "Ledger of "+account, "every change, one a line", 1234
	return []wink.Content{
		wink.Text("Balance chart of " + account + " below."),
		wink.Image("image/png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"+account)),
		wink.Audio("audio/wav", []byte("RIFF\x24\x00\x00\x00WAVE"+account)),
		wink.EmbeddedResource("file:///accounts/"+account+".json", "application/json", `{"account":"`+account+`"}`),
		wink.EmbeddedBlob("file:///accounts/"+account+".pdf", "application/pdf", []byte("%PDF-1.7\n"+account)),
		wink.EmbeddedBlob("file:///accounts/"+account+".bin", "application/octet-stream", []byte{}),
		link,
	}
}
