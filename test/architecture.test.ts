import { readdirSync, readFileSync, statSync } from 'node:fs';
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

function importsOf(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)[^'"]*from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
}

/** The layout docs/architecture.md promises, checked so that it cannot drift. */
describe('architecture', () => {
  it('the domain core imports no framework, driver or Node-only module, and nothing from the layers around it', () => {
    const offending = sourceFiles(path.join(root, 'src/domain')).flatMap((file) =>
      importsOf(file)
        .filter((spec) => !spec.startsWith('.') || /\/(http|persistence|runtime|processors|webhooks|flags|telemetry|cli)\//.test(path.resolve(path.dirname(file), spec) + '/'))
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
});
