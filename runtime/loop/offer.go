package loop

import (
	"github.com/winkgen/wink/runtime/toolsearch"
	"github.com/winkgen/wink/runtime/wink"
)

// Offer is what a run offers the model, turn after turn, as Run builds it: the tools loaded into a
// request, the deferred ones not found yet, the tools only programs may call, and the client tool search
// (Config.Search) whose calls it answers. Engines that drive the turns themselves (package durable's
// engines) build each request and answer each search call with it, so that a run behaves as under Run:
// the tools a search found are loaded from the next request on, and, as they are kept in the tool
// messages (Message.Found), a run rebuilt from its messages offers the same tools.
type Offer struct{ o *offer }

// NewOffer returns the offer of tools (already filtered for the run's principal, wink.Permitted) with
// the client search over cats (nil: none) to a conversation msgs, whose tool messages' Found are
// loaded. The error names a tool that clashes with the search's name.
func NewOffer(tools []*wink.Tool, cats []*toolsearch.Catalog, msgs []Message) (*Offer, error) {
	o, err := newOffer(tools, cats, msgs)
	if err != nil {
		return nil, err
	}
	return &Offer{o: o}, nil
}

// Request returns the request of the next turn: system, msgs, and the tools as Run sends them (Tools,
// Deferred, Programs, Search).
func (f *Offer) Request(system string, msgs []Message) Request {
	r := Request{System: system, Messages: msgs}
	f.o.request(&r)
	return r
}

// IsSearch reports whether c calls the client search, which the offer answers (Search), not the
// dispatcher.
func (f *Offer) IsSearch(c wink.Call) bool { return f.o.isSearch(c) }

// Search answers a client search call: the outcome the model reads and the names of the tools found,
// best first (keep them as the tool message's Found), which later requests load. Only offered deferred
// tools are found.
func (f *Offer) Search(c wink.Call) (wink.Outcome, []string) {
	out, found := f.o.search(c)
	f.o.add(found)
	return out, found
}
