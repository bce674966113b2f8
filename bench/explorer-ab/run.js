// node bench/explorer-ab/run.js <bundle.js> [k]: three counters to k (49) without reduction, as bench/explorer.bench.ts; prints states per CPU second of explore()
const B = require(process.argv[2]);
const k = Number(process.argv[3] ?? 49);
const b = ['c1', 'c2', 'c3'];
const text = `package C { action def Count {
    ${b.map((x) => `attribute ${x} : ScalarValues::Integer := 0;`).join('\n')}
    first start; then fork; ${b.map((x) => `then ${x}Loop;`).join(' ')}
    ${b.map((x) => `action ${x}Loop { first start; then while ${x} < ${k} { assign ${x} := ${x} + 1; } then done; } then j;`).join('\n')}
    join j; then done; } }`;
const p = B.prepareBehavior([{ path: 'bench.sysml', document: B.parse(text).document }], { kind: 'outcomes', subject: 'C::Count', schedule: 'all', free: ['schedule'] });
const cpu0 = process.cpuUsage();
B.explore(p.runtime, p.runtime.initial(), { policy: { kind: 'all' }, exhaustive: true, reduction: false, limits: { memoryMiB: 512 } }, {}).then((r) => {
  const c = process.cpuUsage(cpu0); const s = (c.user + c.system) / 1e6;
  console.log(`${r.states} states ${r.steps} steps ${s.toFixed(3)} cpu-s ${Math.round(r.states / s)} per-cpu-s`);
});
