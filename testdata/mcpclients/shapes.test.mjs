// The tools of every result shape (runtime/mcpserver/internal/shapestest, served by its shapesserver)
// driven by the official TypeScript SDK client and the Inspector CLI, over stdio and streamable HTTP
// (stateful and stateless), on every protocol version the client offers and on versions it does not
// (2026-07-28, which initialize cannot negotiate, and an unknown future one: both answered 2025-11-25).
// The client compiles each outputSchema with AJV and validates every structuredContent against it: struct,
// pointer (null), optional fields, []string, nil slice, []struct, [][]int, map[string]int,
// map[string]struct, string, int, float64, bool, string and integer enums, a named slice, time.Time,
// time.Duration, wink.RawJSON, wink.NoValue, a recursive struct ("$ref":"#"), a struct shared under
// $defs, a value kept out of the context, content blocks, failures, a Go error and a panic. Run by
// `make mcp-clients`:
//
//	WINK_SHAPESSERVER=/path/to/shapesserver node --test testdata/mcpclients/shapes.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, inspector, inspectorInProcess, inspectorTargets, toolArgs, transports, versions } from './harness.mjs';

const bin = process.env.WINK_SHAPESSERVER;
if (!bin) throw new Error('set WINK_SHAPESSERVER to the path of a built runtime/mcpserver/internal/shapestest/shapesserver');

const EXAMPLES_KEY = 'io.winkgen/examples';
// Tools that never state a value (wink.NoValue): no outputSchema on any version.
const NO_VALUE = new Set(['no_value_result', 'content_only']);
// Tools whose successes carry no value the client sees.
const HIDDEN = new Set(['hidden_result']);
const TOOL_COUNT = 34;

// The version the server answers a client asking for v: v when it speaks it, else 2025-11-25.
const negotiatedFor = (v) => (versions.includes(v) && v !== '2024-10-07' ? v : '2025-11-25');
const hasOutputSchemas = (v) => v >= '2025-06-18';

// callArgs are the arguments each tool is called with: its examples' inputs, each also with "absent"
// (answered by wink.Done), "fail" and "panic" when its params have them; {} for the tool without params.
function callArgs(tool) {
  const examples = tool._meta?.[EXAMPLES_KEY] ?? [];
  if (examples.length === 0) return [{ args: {} }];
  if (!tool.inputSchema.properties?.absent) return examples.map((e) => ({ args: e.input, output: e.output }));
  return examples.flatMap((e) => [
    { args: e.input, output: e.output },
    { args: { ...e.input, absent: true }, absent: true },
    { args: { ...e.input, fail: true }, fails: true },
    { args: { ...e.input, panic: true }, fails: true },
  ]);
}

// Drops object members that are null (an example's canonical output leaves optional members out).
const withoutNulls = (v) => (Array.isArray(v) ? v.map(withoutNulls)
  : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null).map(([k, x]) => [k, withoutNulls(x)])) : v);

for (const [name, make] of Object.entries(transports(bin))) {
  for (const version of [...versions, '2026-07-28', '2099-01-01']) {
    test(`shapes: TypeScript client, ${name}, asking ${version}`, async () => {
      const { transport, stop } = await make();
      let client;
      try {
        client = await connect(transport, version);
        const negotiated = negotiatedFor(version);
        assert.equal(client.negotiated(), negotiated, `asked ${version}`);
        // listTools compiles every outputSchema with AJV and throws if one does not parse at this version.
        const { tools } = await client.listTools().catch((e) => {
          throw new Error(`tools/list: ${e?.message || JSON.stringify(e?.issues ?? String(e)).slice(0, 2000)}`);
        });
        assert.equal(tools.length, TOOL_COUNT);
        for (const tool of tools) {
          if (!hasOutputSchemas(negotiated) || NO_VALUE.has(tool.name)) {
            assert.equal(tool.outputSchema, undefined, `${tool.name}: outputSchema at ${negotiated}`);
          } else {
            assert.equal(tool.outputSchema?.type, 'object', `${tool.name}: outputSchema.type at ${negotiated}`);
          }
          for (const c of callArgs(tool)) {
            const what = `${tool.name}(${JSON.stringify(c.args)}) at ${negotiated}`;
            // callTool validates structuredContent against the listed outputSchema, and throws when a
            // tool with one answers a success without structuredContent.
            const res = await client.callTool({ name: tool.name, arguments: c.args }).catch((e) => {
              throw new Error(`${what}: ${e?.message || String(e)}`);
            });
            const fails = c.fails || tool.name === 'error_result';
            assert.equal(res.isError === true, fails, `${what}: ${JSON.stringify(res.content)}`);
            if (fails || !tool.outputSchema) {
              assert.equal(res.structuredContent, undefined, `${what}: structuredContent`);
              continue;
            }
            if (c.absent || HIDDEN.has(tool.name)) assert.deepEqual(res.structuredContent, {}, what);
            else assert.ok('result' in res.structuredContent, `${what}: no result in ${JSON.stringify(res.structuredContent)}`);
            if (c.output !== undefined) assert.deepEqual(withoutNulls(res.structuredContent.result), withoutNulls(c.output), what);
          }
          // Bad arguments: a tool result with isError and the decoder's words, never a protocol error.
          for (const bad of [{ no_such_argument: 1 }, { name: 'UPPER' }, { name: 'abc', wait: '2h' }, { name: 'abc', color: 'pink' },
            { name: 'abc', options: { depth: 9 } }, { name: 'abc', email: 'not an address' }]) {
            if (!tool.inputSchema.properties?.name && !('no_such_argument' in bad)) continue;
            const res = await client.callTool({ name: tool.name, arguments: bad });
            assert.equal(res.isError, true, `${tool.name}(${JSON.stringify(bad)}): accepted`);
            assert.match(res.content[0].text, new RegExp(`^Invalid arguments for tool "${tool.name}"`));
            assert.equal(res.structuredContent, undefined);
          }
        }
        // Content blocks follow the text, as MCP blocks.
        const blocks = await client.callTool({ name: 'content_result', arguments: { name: 'abc' } });
        assert.deepEqual(blocks.content.map((b) => b.type), ['text', 'image', 'audio', 'resource', 'resource', 'resource_link', 'text']);
        assert.equal(blocks.content[1].data, Buffer.from('\x89PNG\r\n\x1a\n', 'latin1').toString('base64'));
        assert.equal(blocks.content[4].resource.blob, Buffer.from([0, 1, 2]).toString('base64'));
        // A recursive result validates through the rebased "$ref".
        const tree = await client.callTool({ name: 'tree_result', arguments: { name: 'abc' } });
        if (hasOutputSchemas(negotiated)) assert.equal(tree.structuredContent.result.children[0].name, 'leaf');
      } finally {
        await client?.close();
        stop();
      }
    });
  }
}

for (const [name, target, every] of inspectorTargets(bin)) {
  test(`shapes: Inspector CLI, ${name}: lists the tools, calls ${every ? 'every tool' : 'one'}`, async () => {
    const { args, stop } = await target();
    try {
      const { tools } = await inspector([...args, '--method', 'tools/list']);
      assert.equal(tools.length, TOOL_COUNT);
      for (const tool of every ? tools : tools.slice(0, 1)) {
        const examples = tool._meta?.[EXAMPLES_KEY] ?? [];
        const input = examples.length > 0 ? examples[examples.length - 1].input : {};
        const res = await (every ? inspectorInProcess : inspector)([...args, '--method', 'tools/call', '--tool-name', tool.name, ...toolArgs(input)]);
        assert.equal(res.isError === true, tool.name === 'error_result', `${tool.name}: ${JSON.stringify(res)}`);
      }
      const bad = await inspector([...args, '--method', 'tools/call', '--tool-name', 'string_result', '--tool-arg', 'name=abc', '--tool-arg', 'extra2=2']);
      assert.equal(bad.isError, true);
    } finally {
      stop();
    }
  });
}
