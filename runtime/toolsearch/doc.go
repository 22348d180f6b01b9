// Package toolsearch finds tools the model has not been shown yet. A tool declared with
// //wink:tool defer is left out of the model's context (its definition is sent marked defer_loading to
// providers that load tools on demand, and not at all to the others) until a search finds it.
//
// # The index is generated
//
// winkgen builds each package's index when it generates the package and emits it as WinkCatalog in
// wink_gen.go: one Entry per deferred tool (name, the first sentence of its description, its parameter
// names) and BM25 postings over the Terms of its name, description and parameter names. Nothing is
// tokenized or indexed at run time; a search tokenizes its query, looks each term up by binary search
// and scores the postings (BM25, k1 = 1.2, b = 0.75). Several packages' catalogs are searched as one
// collection ([Search]).
//
// # The search tool
//
// The model searches by calling a client-side tool named [Name] with {"query": text, "limit": n}
// ([ParamsSchema]; limit 1-[MaxLimit], default [DefaultLimit]). loop.Config.Search turns it on: the loop
// answers the call itself, and the tools found are loaded from the next request on. How the answer reads
// depends on the provider:
//
//   - Anthropic Messages: a tool_result whose content is one {"type":"tool_reference","tool_name":N}
//     block per tool found (the API then loads the deferred definitions it names);
//   - OpenAI Responses: the call arrives as a tool_search_call item (the search tool is sent as
//     {"type":"tool_search","execution":"client",...}) and is answered by a tool_search_output item that
//     carries the found tools' definitions;
//   - other providers: the text [Text] writes (one line per tool), the found tools being added to the
//     next request's tools.
//
// Over MCP, the server's tool search is an ordinary tool of that name that answers with the found tools'
// names, descriptions and input schemas.
//
// Bounds: a query is 1-200 characters, arguments at most 4 KiB; a search returns at most MaxLimit tools.
// Queries are matched on words (ASCII letters and digits, CamelCase and snake_case split, a plural s
// dropped, a few common English words ignored), never on regular expressions.
package toolsearch
