import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { readConfig, settings } from '../src/runtime/config';
import { root } from './support/processes';

/**
 * The Kubernetes example (deploy/kubernetes/tillpoint.yaml, docs/scaling.md) is what an operator
 * copies: each setting it gives is one Tillpoint reads, with a value Tillpoint accepts, and its parts
 * point at each other.
 */
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: unknown;
}
type Manifest = { kind: string; metadata: { name: string }; spec: Record<string, any> };

const manifests = parseAllDocuments(readFileSync(path.join(root, 'deploy/kubernetes/tillpoint.yaml'), 'utf8')).map((doc) => doc.toJS() as Manifest);
const one = (kind: string) => {
  const found = manifests.filter((m) => m.kind === kind);
  expect(found, kind).toHaveLength(1);
  return found[0]!;
};
const deployment = one('Deployment');
const container = deployment.spec.template.spec.containers[0];
const env = container.env as EnvVar[];
const references = (value: string) => [...value.matchAll(/\$\(([A-Z_]+)\)/g)].map((m) => m[1]!);

describe('the Kubernetes example', () => {
  it('sets only settings Tillpoint reads, or values the others are built from, each defined before it is used', () => {
    const known = new Set(settings().map((s) => s.name));
    env.forEach((variable, i) => {
      for (const name of references(variable.value ?? '')) {
        expect(
          env.slice(0, i).some((earlier) => earlier.name === name),
          `${variable.name} uses $(${name}), which must come before it`,
        ).toBe(true);
      }
      const usedByOthers = env.some((other) => references(other.value ?? '').includes(variable.name));
      expect(known.has(variable.name) || usedByOthers, `${variable.name} is neither a setting nor used by one`).toBe(true);
    });
  });

  it('gives values Tillpoint accepts, with the pooler, the primary and the standbys in their places', () => {
    const given = Object.fromEntries(
      env.map((variable) => [variable.name, variable.valueFrom ? 'a'.repeat(64) : variable.value!.replace(/\$\(([A-Z_]+)\)/g, 'app')]),
    );
    const config = readConfig({ ...given, HOST: '0.0.0.0', PORT: String(container.ports[0].containerPort) });
    const cluster = one('Cluster').metadata.name;
    const pooler = one('Pooler');
    expect(pooler.spec.cluster.name).toBe(cluster);
    expect(pooler.spec.pgbouncer.poolMode).toBe('transaction');
    expect(new URL(config.databaseUrl!).hostname).toBe(pooler.metadata.name);
    expect(new URL(config.databaseDirectUrl!).hostname).toBe(`${cluster}-rw`);
    expect(config.databaseReplicaUrls.map((url) => new URL(url).hostname)).toEqual([`${cluster}-ro`]);
  });

  it('sends traffic only to ready instances, lets each finish its shutdown, and keeps all but one through a drain', () => {
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    expect(container.livenessProbe.httpGet.path).toBe('/healthz');
    const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
    expect(dockerfile).toContain(`PORT=${container.ports[0].containerPort}`);
    const shutdown = Number(env.find((variable) => variable.name === 'SHUTDOWN_TIMEOUT_SECONDS')!.value);
    expect(deployment.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(shutdown);
    const budget = one('PodDisruptionBudget');
    expect(budget.spec.selector.matchLabels).toEqual(deployment.spec.selector.matchLabels);
    expect(budget.spec.maxUnavailable).toBeLessThan(deployment.spec.replicas);
    expect(one('Service').spec.selector).toEqual(deployment.spec.template.metadata.labels);
  });
});
