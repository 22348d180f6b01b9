package gen

import (
	"github.com/dave/jennifer/jen"

	"github.com/winkgen/wink/gen/model"
	"github.com/winkgen/wink/runtime/toolsearch"
)

// toolsearchPath is the import path of the runtime's tool search.
const toolsearchPath = "github.com/winkgen/wink/runtime/toolsearch"

// emitCatalog writes WinkCatalog, the tool search index of the package's deferred tools (//wink:tool
// defer), when it has any: the entries (name, first sentence, parameter names) and the BM25 postings
// toolsearch.Build computes here, so that nothing is indexed at run time.
func (e *emitter) emitCatalog(tools []*model.Tool) {
	var entries []toolsearch.Entry
	var docs []string
	for _, t := range tools {
		if !t.Defer {
			continue
		}
		var params []string
		if t.Params != nil {
			for _, f := range t.Params.Fields {
				params = append(params, f.JSONName)
			}
		}
		ps := ""
		for i, p := range params {
			if i > 0 {
				ps += ", "
			}
			ps += p
		}
		entries = append(entries, toolsearch.Entry{Name: t.Name, Line: toolsearch.FirstLine(t.Description), Params: ps})
		docs = append(docs, toolsearch.Doc(t.Name, t.Description, params))
	}
	if len(entries) == 0 {
		return
	}
	c := toolsearch.Build(entries, docs)
	var es []jen.Code
	for _, en := range c.Entries {
		es = append(es, jen.Values(jen.Dict{ // keyed: go vet's composites check reads generated code too
			jen.Id("Name"):   jen.Lit(en.Name),
			jen.Id("Line"):   jen.Lit(en.Line),
			jen.Id("Params"): jen.Lit(en.Params),
		}))
	}
	var terms, posts []jen.Code
	for i, t := range c.Terms {
		terms = append(terms, jen.Lit(t))
		var ps []jen.Code
		for _, p := range c.Postings[i] {
			ps = append(ps, jen.Lit(int(p)))
		}
		posts = append(posts, jen.Values(ps...))
	}
	var lens []jen.Code
	for _, l := range c.Lengths {
		lens = append(lens, jen.Lit(int(l)))
	}
	e.f.Comment("WinkCatalog is the tool search index of this package's deferred tools (//wink:tool defer), built by")
	e.f.Comment("winkgen: pass it to loop.Config.Search or the MCP server's tool search.")
	e.f.Var().Id("WinkCatalog").Op("=").Op("&").Qual(toolsearchPath, "Catalog").Values(jen.Dict{
		jen.Id("Entries"):  jen.Index().Qual(toolsearchPath, "Entry").Values(es...),
		jen.Id("Terms"):    jen.Index().String().Values(terms...),
		jen.Id("Postings"): jen.Index().Index().Uint32().Values(posts...),
		jen.Id("Lengths"):  jen.Index().Uint16().Values(lens...),
	})
}
