// Summarizes one run of the conformance suite (--requirements REVISION, results directory with one
// checks.json per scenario):
//
//   node summary.mjs RESULTS_DIR REVISION BASELINE RUN
//
// prints one line per scenario (checks passed, failed, warned; "required", or why the revision does not
// score it: extension, pending, added-after-release), the failed checks, and the score:
// "RUN: N of M required scenarios pass; not scored: N of M pass". The requirement set is the one the
// installed suite ships (requirements/REVISION.yaml).
//
// Every scenario that ran must pass, scored or not, unless BASELINE lists it for this RUN: a line
// "RUN SCENARIO" allows the whole scenario to fail, "RUN SCENARIO:CHECK" only that check, "#" starts a
// comment. Exit status 1 when a check failed that the baseline does not allow, or when a baseline entry
// of this RUN passed (the entry is stale: remove it).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [dir, revision, baselinePath, run] = process.argv.slice(2);
const here = dirname(fileURLToPath(import.meta.url));

// requirements reads the suite's frozen set: the server scenarios the revision scores, and why each
// not-scored server scenario runs anyway.
function requirements() {
  const text = readFileSync(join(here, 'node_modules', '@modelcontextprotocol', 'conformance', 'requirements', `${revision}.yaml`), 'utf8');
  const required = new Set();
  const why = new Map();
  let section = '';
  let entry = null;
  for (const line of text.split('\n')) {
    if (/^\S/.test(line)) { section = line.replace(/:.*$/, ''); continue; }
    let m;
    if (section === 'server' && (m = /^ {2}- (\S+)/.exec(line))) required.add(m[1]);
    if (section === 'not_scored') {
      if ((m = /^ {2}- scenario: (\S+)/.exec(line))) entry = { name: m[1] };
      else if (entry && (m = /^ {4}leg: (\S+)/.exec(line))) entry.leg = m[1];
      else if (entry && (m = /^ {4}reason: (\S+)/.exec(line))) { entry.reason = m[1]; if (entry.leg === 'server') why.set(entry.name, entry.reason); }
    }
  }
  return { required, why };
}

function baseline() {
  const allowed = new Set();
  if (!baselinePath || !existsSync(baselinePath)) return allowed;
  for (const raw of readFileSync(baselinePath, 'utf8').split('\n')) {
    const [r, entry] = raw.replace(/#.*$/, '').trim().split(/\s+/);
    if (r === run && entry) allowed.add(entry);
  }
  return allowed;
}

const { required, why } = requirements();
const allowed = baseline();
const used = new Set();
const rows = [];
for (const d of readdirSync(dir).sort()) {
  const checks = JSON.parse(readFileSync(join(dir, d, 'checks.json'), 'utf8'));
  const scenario = d.replace(/^server-/, '').replace(/-\d{4}-\d\d-\d\dT.*$/, '');
  const failed = checks.filter((c) => c.status === 'FAILURE');
  const warned = checks.filter((c) => c.status === 'WARNING');
  const unexpected = failed.filter((c) => {
    for (const key of [scenario, `${scenario}:${c.id}`]) if (allowed.has(key)) { used.add(key); return false; }
    return true;
  });
  rows.push({
    scenario, failed, unexpected,
    kind: required.has(scenario) ? 'required' : (why.get(scenario) ?? 'not in the set'),
    pass: checks.filter((c) => c.status === 'SUCCESS').length,
    notes: [...failed, ...warned].map((c) => `${c.status}${failed.includes(c) && !unexpected.includes(c) ? ' (baseline)' : ''} ${c.id}: ${c.errorMessage ?? c.description}`),
  });
}
rows.sort((a, b) => a.scenario.localeCompare(b.scenario));
for (const r of rows) {
  console.log(`${r.failed.length === 0 ? 'PASS' : 'FAIL'} ${r.scenario} (${r.kind}): ${r.pass} passed, ${r.failed.length} failed`);
  for (const n of r.notes) console.log(`     ${n}`);
}
const score = (rs) => `${rs.filter((r) => r.failed.length === 0).length} of ${rs.length}`;
const scored = rows.filter((r) => r.kind === 'required');
console.log(`${run}: ${score(scored)} required scenarios pass; not scored: ${score(rows.filter((r) => r.kind !== 'required'))} pass`);
let status = 0;
const bad = rows.filter((r) => r.unexpected.length > 0);
if (bad.length > 0) {
  console.log(`${run}: failing and not in the baseline: ${bad.map((r) => r.scenario).join(', ')}`);
  status = 1;
}
const stale = [...allowed].filter((a) => !used.has(a));
if (stale.length > 0) {
  console.log(`${run}: these baseline entries pass now, remove them from ${baselinePath}: ${stale.join(', ')}`);
  status = 1;
}
process.exit(status);
