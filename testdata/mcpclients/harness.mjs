// What the client tests share (clients.test.mjs, shapes.test.mjs): starting a winkgen MCP server binary
// over streamable HTTP, connecting the TypeScript SDK client at a chosen protocol version, and running
// the Inspector CLI.
import { spawn, execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';

const here = dirname(fileURLToPath(import.meta.url));

// The versions the TypeScript client offers.
export const versions = [...new Set([LATEST_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS])];

// startHTTP runs bin with -http on a free port (and -stateless if asked) and returns its URL and a stop
// function.
export async function startHTTP(bin, stateless) {
  const args = ['-http', '127.0.0.1:0'];
  if (stateless) args.push('-stateless');
  const proc = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no "listening on" from the server in 20s:\n' + stderr)), 20000);
    proc.stderr.on('data', (b) => {
      stderr += b;
      const m = /listening on (\S+)/.exec(stderr);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    proc.on('exit', (code) => reject(new Error(`server exited ${code}:\n${stderr}`)));
  });
  return { url, stop: () => proc.kill() };
}

// transports makes, for bin, each transport the tests use: stdio, stateful and stateless HTTP.
export function transports(bin) {
  return {
    stdio: async () => ({ transport: new StdioClientTransport({ command: bin, stderr: 'ignore' }), stop: () => {} }),
    'http-stateful': async () => {
      const s = await startHTTP(bin, false);
      return { transport: new StreamableHTTPClientTransport(new URL(s.url)), stop: s.stop };
    },
    'http-stateless': async () => {
      const s = await startHTTP(bin, true);
      return { transport: new StreamableHTTPClientTransport(new URL(s.url)), stop: s.stop };
    },
  };
}

// connect makes a client that asks for version in its initialize request (the SDK always asks for its
// latest; the transport rewrites the request). The client's negotiated() is the version the server
// answered.
export async function connect(transport, version) {
  const send = transport.send.bind(transport);
  transport.send = (msg, opts) => {
    if (msg.method === 'initialize') msg = { ...msg, params: { ...msg.params, protocolVersion: version } };
    return send(msg, opts);
  };
  let negotiated;
  let handler;
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => handler && ((m, extra) => {
      if (negotiated === undefined && typeof m?.result?.protocolVersion === 'string') negotiated = m.result.protocolVersion;
      return handler(m, extra);
    }),
    set: (h) => { handler = h; },
  });
  const client = new Client({ name: 'wink-ts-client-test', version: '0' });
  await client.connect(transport);
  client.negotiated = () => negotiated;
  return client;
}

// The Inspector CLI is the installed `inspector` command (@modelcontextprotocol/inspector 2.x, `inspector
// --cli`), started the way a user starts it: from any directory (here the system's temporary directory),
// with the server's command or URL as its target.
const binDir = join(here, 'node_modules', '.bin');
const inspectorBin = join(binDir, 'inspector');

// inspector runs the Inspector CLI with args and returns its parsed JSON output. The CLI exits with
// status 5 (and still prints the result) exactly when a tools/call result has isError true.
export function inspector(args) {
  return new Promise((resolve, reject) => {
    execFile(inspectorBin, ['--cli', ...args], { cwd: tmpdir(), timeout: 60000, env: { ...process.env, PATH: binDir + delimiter + process.env.PATH } }, (err, stdout, stderr) => {
      let res;
      try { res = JSON.parse(stdout); } catch { res = undefined; }
      if (err && !(err.code === 5 && res?.isError === true)) reject(new Error(`inspector --cli ${args.join(' ')}: ${err.message}\n${stderr}`));
      else if (!err && res?.isError === true) reject(new Error(`inspector --cli ${args.join(' ')}: exit status 0 for a result with isError true`));
      else if (res === undefined) reject(new Error(`inspector --cli ${args.join(' ')}: output is not JSON: ${stdout}`));
      else resolve(res);
    });
  });
}

// inspectorInProcess runs the Inspector CLI's own entry point, runCli, in this process with args (the
// launcher behind `inspector --cli` imports the same module and awaits runCli with the arguments after
// --cli; the CLI writes the result to --output) and returns the result, with inspector()'s rules for
// errors: the calls of each tool go through it, as a Node.js process per call costs about 1.2 s of CPU
// and checks nothing more (the processes of inspector() still list the tools and make a bad call).
const cliEntry = join(here, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'cli', 'build', 'index.js');
let runCli;
export async function inspectorInProcess(args) {
  runCli ??= (await import(cliEntry)).runCli;
  const dir = mkdtempSync(join(tmpdir(), 'inspector-'));
  try {
    let err;
    try {
      await runCli(['node', 'inspector', ...args, '--quiet', '--output', join(dir, 'result.json')]);
    } catch (e) {
      err = e;
    }
    let res;
    try { res = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')); } catch { res = undefined; }
    // The CLI's exit status 5 is its CliExitCodeError with exitCode 5.
    if (err && !(err.exitCode === 5 && res?.isError === true)) throw new Error(`inspector --cli ${args.join(' ')} (in process): ${err.message}`);
    if (!err && res?.isError === true) throw new Error(`inspector --cli ${args.join(' ')} (in process): no error for a result with isError true`);
    if (res === undefined) throw new Error(`inspector --cli ${args.join(' ')} (in process): no JSON result written`);
    return res;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// toolArgs are the Inspector CLI's --tool-arg flags for the arguments object input.
export function toolArgs(input) {
  return Object.entries(input).flatMap(([k, v]) => ['--tool-arg', `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`]);
}

// inspectorTargets are the ways the Inspector CLI reaches bin: stdio and (stateful) HTTP, with whether the
// tests call every tool through it. Every Inspector CLI run is a Node.js process (about 1.2 s of CPU), and
// over stdio it starts the server as well; what depends on the tool (the CLI typing --tool-arg values from
// the tool's input schema, reading its result) does not depend on the transport, and what depends on the
// transport (starting, initializing, a call and its error result) is the same for every tool. So every
// tool is called over HTTP (through inspectorInProcess), and over stdio the CLI lists the tools and makes
// one good and one bad call; on both, the listing and the bad call are Inspector CLI processes.
export function inspectorTargets(bin) {
  return [['stdio', async () => ({ args: [bin], stop: () => {} }), false],
    ['http', async () => { const s = await startHTTP(bin, false); return { args: [s.url, '--transport', 'http'], stop: s.stop }; }, true]];
}
