import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

function importStatementsOf(file: string): Array<{ spec: string; typeOnly: boolean }> {
  return [...readFileSync(file, 'utf8').matchAll(/^\s*(import|export)(\s+type\b)?[^'"]*from\s+['"]([^'"]+)['"]/gm)].map((m) => ({
    spec: m[3]!,
    typeOnly: Boolean(m[2]),
  }));
}

function importsOf(file: string): string[] {
  return importStatementsOf(file).map((i) => i.spec);
}

/** The repository file a relative specifier names (extension added), or null for a package. */
function resolved(file: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(file), spec);
  return [`${base}.ts`, `${base}.tsx`, base].find((candidate) => existsSync(candidate) && statSync(candidate).isFile()) ?? base;
}

/** `from` → `to` for every import of the files under `dir` that `crosses` says goes where it must not. */
function crossings(dir: string, crosses: (target: string, typeOnly: boolean, file: string) => boolean): string[] {
  return sourceFiles(path.join(root, dir)).flatMap((file) =>
    importStatementsOf(file)
      .filter(({ spec, typeOnly }) => {
        const target = resolved(file, spec);
        return target !== null && crosses(path.relative(root, target), typeOnly, path.relative(root, file));
      })
      .map(({ spec }) => `${path.relative(root, file)} → ${spec}`),
  );
}

/**
 * Import circles among the files under `dir` (relative imports, type-only ones included): one
 * `a → b → … → a` trail per strongly connected group of files (Tarjan's algorithm).
 */
function importCycles(dir: string): string[] {
  const files = sourceFiles(path.join(root, dir));
  const inside = new Set(files);
  const edges = new Map(
    files.map((file) => [file, [...new Set(importsOf(file).map((spec) => resolved(file, spec)))].filter((t): t is string => t !== null && inside.has(t))]),
  );
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file)!) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || edges.get(file)!.includes(file)) groups.push(group);
  };
  for (const file of files) if (!index.has(file)) visit(file);
  // One circle through each group: walk from its first file, within the group, back to it.
  return groups.map((group) => {
    const members = new Set(group);
    const start = group[group.length - 1]!;
    const previous = new Map<string, string>();
    const queue = [start];
    let end: string | undefined;
    while (queue.length && !end) {
      const file = queue.shift()!;
      for (const next of edges.get(file)!) {
        if (next === start) {
          end = file;
          break;
        }
        if (members.has(next) && !previous.has(next)) {
          previous.set(next, file);
          queue.push(next);
        }
      }
    }
    const trail = [start];
    for (let file = end!; file !== start; file = previous.get(file)!) trail.splice(1, 0, file);
    return [...trail, start].map((file) => path.relative(root, file)).join(' → ');
  });
}

/**
 * The packages the domain core may import: pure functions over values, no I/O, no framework, the
 * same in Node and the browser (ADR 0091). Anything else is reached through a port.
 */
const pureLibraries = ['intl-messageformat'];

/** The layout docs/architecture.md promises, checked so that it cannot drift. */
describe('architecture', () => {
  it('the domain core imports no framework, driver or Node-only module, and nothing from the layers around it', () => {
    const offending = sourceFiles(path.join(root, 'src/domain')).flatMap((file) =>
      importsOf(file)
        .filter((spec) => !pureLibraries.includes(spec))
        .filter((spec) => !spec.startsWith('.') || /\/src\/(http|persistence|adapters|runtime|cli)\//.test(`${path.resolve(path.dirname(file), spec)}/`))
        .filter((spec) => !spec.startsWith('.') || !path.resolve(path.dirname(file), spec).startsWith(path.join(root, 'src/domain')))
        .map((spec) => `${path.relative(root, file)} → ${spec}`),
    );
    expect(offending).toEqual([]);
  });

  it('the checkout page imports nothing from the dashboard', () => {
    const offending = sourceFiles(path.join(root, 'web/checkout')).flatMap((file) =>
      importsOf(file)
        .filter((spec) => spec.includes('dashboard'))
        .map((spec) => `${path.relative(root, file)} → ${spec}`),
    );
    expect(offending).toEqual([]);
  });

  it('src holds the layers and nothing else: a folder of src is one of them', () => {
    const folders = readdirSync(path.join(root, 'src')).filter((name) => statSync(path.join(root, 'src', name)).isDirectory());
    expect(folders.sort()).toEqual(['adapters', 'cli', 'domain', 'http', 'persistence', 'runtime']);
  });

  it('persistence implements domain ports and imports no adapter', () => {
    expect(crossings('src/persistence', (target) => target.startsWith('src/adapters/'))).toEqual([]);
  });

  /**
   * An adapter implements its area's ports: it imports the domain (and the configuration's types),
   * never the layers around it, and never the adapters of another area.
   */
  it("adapters import no http, persistence, cli or runtime file, and no other area's adapter", () => {
    const areaOf = (target: string) => target.split('/')[2];
    expect(
      crossings(
        'src/adapters',
        (target, typeOnly, file) =>
          /^src\/(http|persistence|cli)\//.test(target) ||
          (target.startsWith('src/runtime/') && !(target === 'src/runtime/config.ts' && typeOnly)) ||
          (target.startsWith('src/adapters/') && areaOf(target) !== areaOf(file)),
      ),
    ).toEqual([]);
  });

  it('http is handed its adapters: it imports none but telemetry (it reports its own errors)', () => {
    expect(crossings('src/http', (target) => target.startsWith('src/adapters/') && !target.startsWith('src/adapters/telemetry/'))).toEqual([]);
  });

  it('the adapters are wired in by the runtime only (and the CLI reaches them through it)', () => {
    expect(crossings('src/cli', (target) => target.startsWith('src/adapters/'))).toEqual([]);
  });

  /**
   * The runtime wires the server (open-tillpoint, serve, scheduler, webhook worker, admin socket,
   * metrics, readiness…); http is handed what it needs. The one thing http may read from the runtime
   * is the shape of the configuration: types from runtime/config.ts, never a value or another file.
   */
  it('http reads only the configuration types of the runtime', () => {
    expect(crossings('src/http', (target, typeOnly) => target.startsWith('src/runtime/') && !(target === 'src/runtime/config.ts' && typeOnly))).toEqual([]);
  });

  it('the pages import no use case (they talk to the server over HTTP; shared types live in the domain areas)', () => {
    expect(crossings('web', (target) => target.startsWith('src/domain/') && target.split('/').includes('use-cases'))).toEqual([]);
  });

  it('the ports of a domain area never reach the Deps aggregate that gathers them, even through other files', () => {
    const aggregate = path.join(root, 'src/domain/deps.ts');
    const ports = sourceFiles(path.join(root, 'src/domain')).filter((file) => /(^|-)ports\.ts$/.test(path.basename(file)));
    expect(ports.length).toBeGreaterThan(5);
    const offending = ports.flatMap((start) => {
      const seen = new Set<string>();
      const queue: Array<{ file: string; trail: string[] }> = [{ file: start, trail: [path.relative(root, start)] }];
      while (queue.length) {
        const { file, trail } = queue.shift()!;
        for (const spec of importsOf(file)) {
          const target = resolved(file, spec);
          if (!target || seen.has(target) || !existsSync(target)) continue;
          if (target === aggregate) return [[...trail, path.relative(root, target)].join(' → ')];
          seen.add(target);
          queue.push({ file: target, trail: [...trail, path.relative(root, target)] });
        }
      }
      return [];
    });
    expect(offending).toEqual([]);
  });
  it('no import circle anywhere in src (in persistence, the stores import the shared row mappers of rows.ts and sql-store.ts composes the stores)', () => {
    expect(importCycles('src')).toEqual([]);
  });
});
