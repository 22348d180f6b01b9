// The example MCP server (example/cmd/mcpserver) as an OAuth 2.1 resource server, with the official
// TypeScript SDK client's own OAuth support doing the whole flow against oauth2-mock-server: the 401 and its
// WWW-Authenticate resource_metadata, the Protected Resource Metadata (RFC 9728), the authorization
// server's metadata, authorization code with PKCE (S256) and the RFC 8707 resource indicator, the token, a
// permitted call, and step-up after a 403 insufficient_scope. The test plays only the parts an application
// plays: an OAuthClientProvider that stores what the SDK hands it and whose redirectToAuthorization follows
// the authorization server's (auto-approving) redirect, then transport.finishAuth(code) and a retry, as
// the SDK's own OAuth client example does. Run by `make mcp-clients`:
//
//	WINK_MCPSERVER=/path/to/mcpserver node --test testdata/mcpclients/oauth.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import { OAuth2Server } from 'oauth2-mock-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';

const bin = process.env.WINK_MCPSERVER;
if (!bin) throw new Error('set WINK_MCPSERVER to the path of a built example/cmd/mcpserver');

const SEARCH = { name: 'search_docs', arguments: { query: 'filesystem', limit: 10, filters: { path_prefix: '/docs', max_size: 1000 } } };
const schedule = () => ({ name: 'schedule_task', arguments: { title: 'Ship', at: new Date(Date.now() + 3600e3).toISOString().replace(/\.\d+Z$/, 'Z') } });

// startAS starts oauth2-mock-server on a loopback port. Its authorize endpoint approves at once; the
// scopes it grants are those asked for that the user has consented to (consent, changed by the test), and
// it remembers them per code, since the mock itself would put "dummy" in an authorization code's token.
// Its tokens carry the resource the client asked for as their audience (RFC 8707). It issues no refresh
// tokens: a refresh keeps the original grant's scopes (RFC 6749 section 6), so step-up needs a new
// authorization, which the SDK starts only when it holds no refresh token.
async function startAS() {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  const as = { consent: new Set(), grants: [], byCode: new Map(), tokenRequests: [] };
  server.service.on('beforeAuthorizeRedirect', ({ url }, req) => {
    const q = new URL(req.url, 'http://x').searchParams;
    const asked = q.get('scope') ?? '';
    const granted = asked.split(' ').filter((s) => as.consent.has(s)).join(' ');
    as.grants.push({ asked, granted, resource: q.get('resource'), pkce: q.get('code_challenge_method'), clientId: q.get('client_id') });
    as.byCode.set(url.searchParams.get('code'), granted);
  });
  server.service.on('beforeTokenSigning', (token, req) => {
    as.tokenRequests.push({ grant: req.body.grant_type, resource: req.body.resource, verifier: typeof req.body.code_verifier === 'string' });
    Object.assign(token.payload, { aud: req.body.resource, scope: as.byCode.get(req.body.code) ?? '', client_id: req.body.client_id });
  });
  server.service.on('beforeResponse', (res, req) => {
    if (req.body.grant_type !== 'authorization_code') return;
    res.body.scope = as.byCode.get(req.body.code) ?? '';
    delete res.body.refresh_token;
  });
  await server.start(0, '127.0.0.1');
  as.issuer = server.issuer.url;
  as.stop = () => server.stop();
  return as;
}

// freePort is a loopback port nobody listens on, for the resource identifier the server is started with.
function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
    s.on('error', reject);
  });
}

async function startResourceServer(issuer) {
  const addr = `127.0.0.1:${await freePort()}`;
  const resource = `http://${addr}/mcp`;
  const proc = spawn(bin, ['-http', addr, '-issuer', issuer, '-resource', resource], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no "listening on" from the server in 20s:\n' + stderr)), 20000);
    proc.stderr.on('data', (b) => {
      stderr += b;
      if (/listening on /.test(stderr)) { clearTimeout(timer); resolve(); }
    });
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited ${code}:\n${stderr}`)); });
  });
  return { resource, origin: `http://${addr}`, stop: () => proc.kill() };
}

// Provider is the application's OAuthClientProvider: a public client with a client id registered
// beforehand (oauth2-mock-server has no registration endpoint), keeping everything in memory. Its
// redirectToAuthorization plays the browser: it requests the authorization URL and reads the code from
// the redirect to redirectUrl, checking the state.
class Provider {
  redirectUrl = 'http://127.0.0.1/callback';
  clientMetadata = { client_name: 'wink-ts-oauth-test', redirect_uris: [this.redirectUrl], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  #client = { client_id: 'wink-ts-oauth-test' };
  #tokens;
  #verifier;
  #state;
  #discovery;
  codes = [];
  authorizationUrls = [];
  state() { this.#state = randomBytes(16).toString('hex'); return this.#state; }
  clientInformation() { return this.#client; }
  saveClientInformation(info) { this.#client = info; }
  tokens() { return this.#tokens; }
  saveTokens(tokens) { this.#tokens = tokens; }
  saveCodeVerifier(v) { this.#verifier = v; }
  codeVerifier() { return this.#verifier; }
  discoveryState() { return this.#discovery; }
  saveDiscoveryState(s) { this.#discovery = s; }
  async redirectToAuthorization(url) {
    this.authorizationUrls.push(new URL(url));
    const res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(10000) });
    assert.equal(res.status, 302, `authorization endpoint: ${res.status}`);
    const back = new URL(res.headers.get('location'));
    assert.equal(back.origin + back.pathname, this.redirectUrl);
    assert.equal(back.searchParams.get('state'), this.#state, 'state');
    this.codes.push(back.searchParams.get('code'));
  }
}

// logged wraps fetch to record what the SDK's transport and auth code requested and saw.
function logged(seen) {
  return async (url, init) => {
    const res = await fetch(url, { ...init, signal: init?.signal ?? AbortSignal.timeout(10000) });
    const body = init?.body ? String(init.body) : '';
    seen.push({
      method: init?.method ?? 'GET', url: String(url), status: res.status,
      rpc: /"method":"([^"]+)"/.exec(body)?.[1], tool: /"name":"([^"]+)"/.exec(body)?.[1],
      challenge: res.headers.get('www-authenticate'),
    });
    return res;
  };
}

test('TypeScript client OAuth: discovery from the 401, token, call, step-up after 403', { timeout: 60000 }, async () => {
  const as = await startAS();
  const rs = await startResourceServer(as.issuer).catch(async (e) => { await as.stop(); throw e; });
  const provider = new Provider();
  const seen = [];
  const transport = () => new StreamableHTTPClientTransport(new URL(rs.resource), { authProvider: provider, fetch: logged(seen) });
  let client;
  try {
    // The user consents to reading only.
    as.consent = new Set(['docs:read']);
    // 1. Connect without a token: the SDK gets 401, discovers, and sends the user to authorize.
    const first = transport();
    await assert.rejects(new Client({ name: 'wink-ts-oauth-test', version: '0' }).connect(first), UnauthorizedError);
    const metadataURL = `${rs.origin}/.well-known/oauth-protected-resource/mcp`;
    assert.equal(seen[0].rpc, 'initialize');
    assert.equal(seen[0].status, 401, 'initialize without a token');
    assert.equal(seen[0].challenge, `Bearer resource_metadata="${metadataURL}"`);
    const md = seen.find((s) => s.url === metadataURL);
    assert.equal(md?.status, 200, 'Protected Resource Metadata fetched from the URL the 401 named');
    assert.ok(seen.some((s) => s.url.startsWith(as.issuer + '/.well-known/') && s.status === 200), 'authorization server metadata');
    const prm = provider.discoveryState().resourceMetadata;
    assert.equal(prm.resource, rs.resource);
    assert.deepEqual(prm.authorization_servers, [as.issuer]);
    assert.ok(prm.scopes_supported.includes('docs:read') && prm.scopes_supported.includes('tasks:write'), `scopes_supported ${prm.scopes_supported}`);
    // Without a scope in the 401, the SDK asks for every scope the metadata lists; the user grants docs:read.
    assert.equal(as.grants.length, 1);
    assert.deepEqual(as.grants[0].asked.split(' ').sort(), [...prm.scopes_supported].sort());
    assert.equal(as.grants[0].granted, 'docs:read');
    assert.equal(as.grants[0].resource, rs.resource, 'resource indicator in the authorization request');
    assert.equal(as.grants[0].pkce, 'S256');
    await first.finishAuth(provider.codes[0]);
    assert.deepEqual(as.tokenRequests.at(-1), { grant: 'authorization_code', resource: rs.resource, verifier: true });
    assert.equal(provider.tokens().scope, 'docs:read');

    // 2. Connect with the token and call a tool docs:read permits.
    const second = transport();
    client = new Client({ name: 'wink-ts-oauth-test', version: '0' });
    await client.connect(second);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).filter((n) => ['search_docs', 'schedule_task'].includes(n)), ['search_docs'],
      'tools/list shows a docs:read token search_docs, not schedule_task');
    const found = await client.callTool(SEARCH);
    assert.notEqual(found.isError, true, JSON.stringify(found.content));
    assert.equal(typeof found.structuredContent, 'object');

    // 3. schedule_task needs tasks:write: 403 insufficient_scope naming it; the SDK re-authorizes for it.
    as.consent = new Set(['docs:read', 'tasks:write']); // the user approves writing when asked
    const before = seen.length;
    await assert.rejects(client.callTool(schedule()), UnauthorizedError);
    const refused = seen.slice(before).find((s) => s.tool === 'schedule_task');
    assert.equal(refused?.status, 403, 'schedule_task with docs:read');
    assert.match(refused.challenge, /^Bearer error="insufficient_scope", scope="tasks:write"/);
    assert.equal(as.grants.length, 2);
    assert.equal(as.grants[1].asked, 'tasks:write', 'the step-up asks for the scope the 403 named');
    assert.equal(as.grants[1].granted, 'tasks:write');
    await second.finishAuth(provider.codes[1]);
    assert.equal(provider.tokens().scope, 'tasks:write');

    // 4. The same call, on the same session, with the stepped-up token.
    const done = await client.callTool(schedule());
    assert.notEqual(done.isError, true, JSON.stringify(done.content));
    // An object result is the structured content itself on 2026-07-28, under "result" before it.
    const task = done.structuredContent?.result ?? done.structuredContent;
    assert.equal(task?.title, 'Ship', JSON.stringify(done.structuredContent));
    assert.equal(task?.id, 'T-1');
    const last = seen.at(-1);
    assert.equal(last.tool, 'schedule_task');
    assert.equal(last.status, 200);
  } finally {
    await client?.close();
    rs.stop();
    await as.stop();
  }
});
