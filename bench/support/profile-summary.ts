/**
 * Summarizes `node --cpu-prof` output (BENCH_CPU_PROF=<dir>): self time by area of the code, and
 * the heaviest functions, by self time and (our own code's) by total time, callees included.
 * `tsx bench/support/profile-summary.ts <file.cpuprofile>`; TOP=n for more lines; LAST=s counts only
 * the samples of the profile's last s seconds (the measured phase, without start-up and set-up).
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}
const profile = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as {
  nodes: Node[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
};
const last = Number(process.env.LAST ?? 0);
if (last > 0 && profile.samples && profile.timeDeltas) {
  // Recount each node's hits from the samples taken in the window.
  const from = profile.endTime - last * 1e6;
  const hits = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas![i] ?? 0;
    if (at >= from) hits.set(id, (hits.get(id) ?? 0) + 1);
  });
  for (const node of profile.nodes) node.hitCount = hits.get(node.id) ?? 0;
}
const total = profile.nodes.reduce((sum, node) => sum + node.hitCount, 0);

function area(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1]!;
  if (url.startsWith('node:')) return url.split('/')[0]!.replace(/^node:internal.*/, 'node internals');
  const src = /\/(src\/[^/]+(?:\/[^/]+)?)/.exec(url);
  return src ? src[1]!.replace(/\.ts$/, '') : url;
}

const byArea = new Map<string, number>();
const byFunction = new Map<string, number>();
for (const node of profile.nodes) {
  const { functionName, url, lineNumber } = node.callFrame;
  const a = area(url, functionName);
  byArea.set(a, (byArea.get(a) ?? 0) + node.hitCount);
  const f = `${functionName || '(anonymous)'} ${url.replace(/.*node_modules\//, '').replace(/.*\/src\//, 'src/')}:${lineNumber + 1}`;
  byFunction.set(f, (byFunction.get(f) ?? 0) + node.hitCount);
}
// Shares of the time the process was busy (not idle): a server that waited between load phases
// is judged on the work it did.
const idle = byArea.get('(idle)') ?? 0;
const busy = total - idle;
const pct = (n: number) => `${((100 * n) / busy).toFixed(1).padStart(5)}%`;
console.log(
  `${total} samples over ${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s; idle ${((100 * idle) / total).toFixed(1)}%; shares below are of the busy time`,
);
byArea.delete('(idle)');
byFunction.delete('(idle) :0');
console.log('\nself time by area:');
for (const [a, n] of [...byArea].sort((x, y) => y[1] - x[1]).slice(0, 18)) console.log(`${pct(n)}  ${a}`);
console.log('\nheaviest functions (self):');
for (const [f, n] of [...byFunction].sort((x, y) => y[1] - x[1]).slice(0, Number(process.env.TOP ?? 15))) console.log(`${pct(n)}  ${f}`);

// Total time of our own functions (src/), callees included; a function on the stack twice counts once.
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const name = (node: Node) =>
  `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/.*\/src\//, 'src/')}:${node.callFrame.lineNumber + 1}`;
const inclusive = new Map<string, number>();
for (const node of profile.nodes) {
  if (!node.hitCount || node.callFrame.functionName === '(idle)') continue;
  const seen = new Set<string>();
  for (let at: Node | undefined = node; at; at = nodes.get(parent.get(at.id) ?? -1)) {
    if (!/\/src\//.test(at.callFrame.url)) continue;
    const key = name(at);
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + node.hitCount);
  }
}
console.log('\nour functions by total time (callees included):');
for (const [f, n] of [...inclusive].sort((x, y) => y[1] - x[1]).slice(0, Number(process.env.TOP ?? 15))) console.log(`${pct(n)}  ${f}`);
