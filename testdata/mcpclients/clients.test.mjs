// The example MCP server (example/cmd/mcpserver) driven by the official TypeScript SDK client and the
// Inspector CLI, over stdio and streamable HTTP (stateful and stateless), on every protocol version the
// client offers. The client validates structuredContent against outputSchema itself; a tool list it
// cannot parse, or a result it rejects, fails the test. Run by `make mcp-clients` (part of `make test`):
//
//	WINK_MCPSERVER=/path/to/mcpserver node --test testdata/mcpclients/clients.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, inspector, inspectorInProcess, inspectorTargets, toolArgs, transports, versions } from './harness.mjs';

const bin = process.env.WINK_MCPSERVER;
if (!bin) throw new Error('set WINK_MCPSERVER to the path of a built example/cmd/mcpserver');

// The tools the example server serves, with the result shape of each.
const TOOLS = {
  schedule_task: 'object', search_docs: 'object', compute_stats: 'object', get_status: 'object',
  count_outline: 'object (kept out of the context)', archive_docs: 'NoValue',
  split_words: 'array', shout: 'string', count_letters: 'integer', letter_counts: 'map', find_word: 'object or no value',
};
// Arguments for a tool without examples.
const FALLBACK_ARGS = { archive_docs: { paths: ['/docs/a.md'] } };
const EXAMPLES_KEY = 'io.winkgen/examples';

// Versions before 2025-06-18 have no outputSchema or structuredContent.
const hasOutputSchemas = (v) => v >= '2025-06-18';

for (const [name, make] of Object.entries(transports(bin))) {
  for (const version of versions) {
    test(`TypeScript client, ${name}, protocol ${version}`, async (t) => {
      const { transport, stop } = await make();
      let client;
      try {
        client = await connect(transport, version);
        // A version the server does not speak is answered with its latest before 2026-07-28.
        const negotiated = ['2024-10-07'].includes(version) ? '2025-11-25' : version;
        assert.equal(client.negotiated(), negotiated, `asked ${version}`);
        // listTools throws if any tool does not parse at this version (a ZodError may carry no message).
        const { tools } = await client.listTools().catch((e) => {
          throw new Error(`tools/list at ${version}: ${e?.message || JSON.stringify(e?.issues ?? String(e)).slice(0, 2000)}`);
        });
        assert.deepEqual(tools.map((x) => x.name).sort(), Object.keys(TOOLS).sort());
        for (const tool of tools) {
          if (!hasOutputSchemas(negotiated) || TOOLS[tool.name] === 'NoValue') {
            assert.equal(tool.outputSchema, undefined, `${tool.name}: outputSchema at ${negotiated}`);
          } else {
            assert.equal(tool.outputSchema?.type, 'object', `${tool.name}: outputSchema.type at ${negotiated}`);
          }
          const examples = tool._meta?.[EXAMPLES_KEY] ?? [];
          if (examples.length > 0) {
            assert.deepEqual(tool.inputSchema.examples, examples.map((e) => e.input), `${tool.name}: inputSchema.examples`);
            assert.match(tool.description, /\n\nExamples:\n- /, `${tool.name}: examples in the description`);
          }
          const calls = examples.length > 0 ? examples.map((e) => e.input) : [FALLBACK_ARGS[tool.name]];
          assert.ok(calls[0], `${tool.name}: no example and no fallback arguments`);
          for (const args of calls) {
            // callTool validates structuredContent against the listed outputSchema and throws when a
            // tool with one answers a success without structuredContent.
            const res = await client.callTool({ name: tool.name, arguments: args }).catch((e) => {
              throw new Error(`${tool.name}(${JSON.stringify(args)}) at ${negotiated}: ${e?.message || String(e)}`);
            });
            assert.notEqual(res.isError, true, `${tool.name}(${JSON.stringify(args)}): ${JSON.stringify(res.content)}`);
            if (tool.outputSchema) assert.equal(typeof res.structuredContent, 'object', `${tool.name}: structuredContent`);
            else assert.equal(res.structuredContent, undefined, `${tool.name}: structuredContent without outputSchema`);
          }
          // Bad arguments: a tool result with isError and the decoder's words, never a protocol error.
          const bad = await client.callTool({ name: tool.name, arguments: { no_such_argument: 1 } });
          assert.equal(bad.isError, true, `${tool.name}: bad arguments accepted`);
          assert.match(bad.content[0].text, new RegExp(`^Invalid arguments for tool "${tool.name}"`));
          assert.equal(bad.structuredContent, undefined);
        }
        // A struct result answered without a value, and a value kept out of the context: {} under the
        // envelope, accepted by the client.
        const absent = await client.callTool({ name: 'find_word', arguments: { text: 'to be', word: 'or' } });
        assert.equal(absent.content[0].text, 'The word is not in the text.');
        if (hasOutputSchemas(negotiated)) assert.deepEqual(absent.structuredContent, {});
        const shout = await client.callTool({ name: 'shout', arguments: { text: 'hi' } });
        if (hasOutputSchemas(negotiated)) assert.deepEqual(shout.structuredContent, { result: 'HI' });
      } finally {
        await client?.close();
        stop();
      }
    });
  }
}

for (const [name, target, every] of inspectorTargets(bin)) {
  test(`Inspector CLI, ${name}: lists the tools, calls ${every ? 'every tool' : 'one'}`, async () => {
    const { args, stop } = await target();
    try {
      const { tools } = await inspector([...args, '--method', 'tools/list']);
      assert.deepEqual(tools.map((x) => x.name).sort(), Object.keys(TOOLS).sort());
      for (const tool of every ? tools : tools.slice(0, 1)) {
        const examples = tool._meta?.[EXAMPLES_KEY] ?? [];
        const input = examples.length > 0 ? examples[0].input : FALLBACK_ARGS[tool.name];
        const res = await (every ? inspectorInProcess : inspector)([...args, '--method', 'tools/call', '--tool-name', tool.name, ...toolArgs(input)]);
        assert.notEqual(res.isError, true, `${tool.name}: ${JSON.stringify(res)}`);
      }
      const bad = await inspector([...args, '--method', 'tools/call', '--tool-name', 'shout', '--tool-arg', 'text=1', '--tool-arg', 'extra=2']);
      assert.equal(bad.isError, true);
    } finally {
      stop();
    }
  });
}
