// Summarizes the conformance suite's results directory (one checks.json per scenario): one line per
// scenario with its checks passed, failed and warned, and the closing line "N passed, N failed" counting
// scenarios. Exit status 1 when a check failed.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
const rows = [];
for (const d of readdirSync(dir).sort()) {
  const checks = JSON.parse(readFileSync(join(dir, d, 'checks.json'), 'utf8'));
  const scenario = d.replace(/^server-/, '').replace(/-\d{4}-\d\d-\d\dT.*$/, '');
  const count = (s) => checks.filter((c) => c.status === s).length;
  const failed = checks.filter((c) => c.status === 'FAILURE');
  const warned = checks.filter((c) => c.status === 'WARNING');
  rows.push({ scenario, pass: count('SUCCESS'), fail: failed.length, warn: warned.length, notes: [...failed, ...warned].map((c) => `${c.status} ${c.id}: ${c.errorMessage ?? c.description}`) });
}
rows.sort((a, b) => a.scenario.localeCompare(b.scenario));
for (const r of rows) {
  console.log(`${r.fail === 0 ? 'PASS' : 'FAIL'} ${r.scenario}: ${r.pass} passed, ${r.fail} failed, ${r.warn} warnings`);
  for (const n of r.notes) console.log(`     ${n}`);
}
const failed = rows.filter((r) => r.fail > 0).length;
console.log(`conformance: ${rows.length - failed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
