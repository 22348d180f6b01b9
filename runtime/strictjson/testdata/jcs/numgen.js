// hex-ieee,expected lines as in cyberphone/json-canonicalization testdata/README.md (es6testfile100m).
const crypto = require("crypto");
const fixed = [0x0000000000000000n, 0x8000000000000000n, 0x0000000000000001n, 0x8000000000000001n,
 0x7fefffffffffffffn, 0xffefffffffffffffn, 0x4340000000000000n, 0xc340000000000000n, 0x4430000000000000n,
 0x44b52d02c7e14af5n, 0x44b52d02c7e14af6n, 0x44b52d02c7e14af7n, 0x444b1ae4d6e2ef4en, 0x444b1ae4d6e2ef4fn,
 0x444b1ae4d6e2ef50n, 0x3eb0c6f7a0b5ed8cn, 0x3eb0c6f7a0b5ed8dn, 0x41b3de4355555553n, 0x41b3de4355555554n,
 0x41b3de4355555555n, 0x41b3de4355555556n, 0x41b3de4355555557n, 0xbecbf647612f3696n, 0x43143ff3c1cb0959n,
 0x4340000000000001n, 0x4340000000000002n, 0x3ff0000000000000n, 0x3fb999999999999an, 0x0010000000000000n, 0x000fffffffffffffn];
const buf = new DataView(new ArrayBuffer(8));
const out = [];
function line(u) {
  buf.setBigUint64(0, u);
  const f = buf.getFloat64(0);
  if (!isFinite(f)) return;
  out.push(u.toString(16) + "," + JSON.stringify(f));
}
for (const u of fixed) line(u);
let seed = crypto.createHash("sha256").update("winkgen-jcs").digest();
while (out.length < 3000) {
  seed = crypto.createHash("sha256").update(seed).digest();
  line(seed.readBigUInt64BE(0));
  // also integers and short decimals, where notation changes
  const k = seed.readUInt32BE(8) % 40 - 20, m = seed.readUInt32BE(12) % 100000;
  buf.setFloat64(0, m * Math.pow(10, k)); line(buf.getBigUint64(0));
}
console.log(out.join("\n"));
