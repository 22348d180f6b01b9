// An OAuth 2 authorization server for runtime/mcpserver/auth's tests: oauth2-mock-server (OIDC discovery,
// JWKS, token and introspection endpoints) on a loopback port, with an RS256 key. It prints
// {"issuer": "<url>"} on its first line, then answers one JSON command per stdin line with one JSON line:
//   {"op":"token","kid":"<kid or omitted>","expiresIn":<s>,"claims":{...}} -> {"token":"<JWT>"}
//     (claims are merged into the payload after the issuer's own: iss, iat, exp, nbf)
//   {"op":"rotate"} -> {"kid":"<new kid>"}: a new key, published in the JWKS next to the old one
//   {"op":"opaque","response":{...}} -> {"token":"<random>"}: an opaque token whose RFC 7662
//     introspection answer (at <issuer>/opaque/introspect) is response
// It exits when stdin closes.
import { OAuth2Server } from 'oauth2-mock-server';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';

const server = new OAuth2Server();
const first = await server.issuer.keys.generate('RS256');
let kid = first.kid;
const opaque = new Map();
server.service.addRoute('POST', '/opaque/introspect', (req, res) => {
	const answer = opaque.get(req.body?.token) ?? { active: false };
	res.setHeader('Content-Type', 'application/json');
	res.end(JSON.stringify(answer));
});
await server.start(0, '127.0.0.1');
process.stdout.write(JSON.stringify({ issuer: server.issuer.url }) + '\n');

const rl = createInterface({ input: process.stdin });
for await (const line of rl) {
	let out;
	try {
		const cmd = JSON.parse(line);
		switch (cmd.op) {
			case 'token':
				out = {
					token: await server.issuer.buildToken({
						kid: cmd.kid ?? kid,
						expiresIn: cmd.expiresIn,
						scopesOrTransform: (_header, payload) => Object.assign(payload, cmd.claims ?? {}),
					}),
				};
				break;
			case 'rotate':
				kid = (await server.issuer.keys.generate('RS256')).kid;
				out = { kid };
				break;
			case 'opaque': {
				const token = randomBytes(24).toString('base64url');
				opaque.set(token, cmd.response);
				out = { token };
				break;
			}
			default:
				out = { error: 'unknown op ' + cmd.op };
		}
	} catch (e) {
		out = { error: String(e) };
	}
	process.stdout.write(JSON.stringify(out) + '\n');
}
await server.stop();
