package loop

import (
	"errors"
	"strconv"

	"github.com/winkgen/wink/runtime/toolsearch"
	"github.com/winkgen/wink/runtime/wink"
)

// offer splits the offered tools into what a request loads and what it defers: deferred tools
// (wink.Spec.Deferred) are loaded once a search found them (found), the others always; tools only
// programs may call go to Request.Programs.
type offer struct {
	all      []*wink.Tool
	deferred map[string]bool // offered deferred tools, by name
	found    map[string]bool // deferred tools a search of this conversation found
	cats     []*toolsearch.Catalog
	programs bool // some tool only programs may call is offered (Request.Programs)
}

func newOffer(tools []*wink.Tool, cats []*toolsearch.Catalog, msgs []Message) (*offer, error) {
	o := &offer{all: tools, deferred: map[string]bool{}, found: map[string]bool{}, cats: cats}
	for _, t := range tools {
		if t.Spec().Deferred {
			o.deferred[t.Spec().Name] = true
		}
		if direct, _ := t.Spec().Callable(); !direct {
			o.programs = true
		}
		if cats != nil && t.Spec().Name == toolsearch.Name {
			return nil, errors.New("loop: a tool is named " + strconv.Quote(toolsearch.Name) + ", the name of the tool search Config.Search turns on; rename it")
		}
	}
	for _, m := range msgs {
		o.add(m.Found)
	}
	return o, nil
}

func (o *offer) add(names []string) {
	for _, n := range names {
		if o.deferred[n] {
			o.found[n] = true
		}
	}
}

// request fills the tools of a request: the loaded ones in the offered order, then the deferred ones not
// found yet; Search when the client search is on.
func (o *offer) request(r *Request) {
	if len(o.deferred) == 0 && !o.programs {
		r.Tools = o.all
	} else {
		for _, t := range o.all {
			n := t.Spec().Name
			if direct, _ := t.Spec().Callable(); !direct {
				r.Programs = append(r.Programs, t) // never a tool of the model's own
			} else if o.deferred[n] && !o.found[n] {
				r.Deferred = append(r.Deferred, t)
			} else {
				r.Tools = append(r.Tools, t)
			}
		}
	}
	r.Search = o.cats != nil
}

// isSearch reports whether c is a call of the client search the loop answers itself.
func (o *offer) isSearch(c wink.Call) bool { return o.cats != nil && c.Name == toolsearch.Name }

// search answers a search call: the outcome the model reads (toolsearch.Text, or how to fix the
// arguments) and the names found, best first. Only offered deferred tools are found.
func (o *offer) search(c wink.Call) (wink.Outcome, []string) {
	out := wink.Outcome{CallID: c.ID, Name: c.Name}
	q, err := toolsearch.ParseQuery(c.Arguments)
	if err != nil {
		out.Message, out.Output = err.Error(), err.Error()
		return out, nil
	}
	hits := toolsearch.Search(o.cats, q.Text, q.Limit, func(n string) bool { return o.deferred[n] })
	names := make([]string, len(hits))
	for i, h := range hits {
		names[i] = h.Name
	}
	out.Success = true
	out.Message = toolsearch.Text(q.Text, hits)
	out.Output = out.Message
	return out, names
}

// dispatchWithSearch runs a turn's calls: search calls are answered by the loop (found[i] holds the
// names the i-th call found), the others go to dispatch, all outcomes at their call's index.
func (o *offer) dispatch(run func([]wink.Call) ([]wink.Outcome, []*wink.HeldError, error), calls []wink.Call) (outcomes []wink.Outcome, found [][]string, held []*wink.HeldError, err error) {
	n := 0
	for _, c := range calls {
		if o.isSearch(c) {
			n++
		}
	}
	if n == 0 {
		outcomes, held, err = run(calls)
		return outcomes, nil, held, err
	}
	outcomes = make([]wink.Outcome, len(calls))
	found = make([][]string, len(calls))
	var rest []wink.Call
	var at []int
	for i, c := range calls {
		if o.isSearch(c) {
			outcomes[i], found[i] = o.search(c)
			o.add(found[i])
		} else {
			rest, at = append(rest, c), append(at, i)
		}
	}
	if len(rest) > 0 {
		var got []wink.Outcome
		got, held, err = run(rest)
		for k, g := range got {
			outcomes[at[k]] = g
		}
	}
	return outcomes, found, held, err
}
