/**
 * The merchant API's load phase, shared by `bench:api` and `bench:api-ab`: `POST
 * /v1/checkout/sessions` with 10 connections (autocannon; BENCH_CONNECTIONS=n for n) for some
 * seconds, and what it cost the server and its PostgreSQL backends per request.
 */
import autocannon from 'autocannon';
import { cpuNow, cpuSince, sessionBody } from './hot-path';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

export interface LoadResult {
  rps: number;
  requests: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export async function drive(port: number, key: string | undefined, seconds: number): Promise<LoadResult> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/v1/checkout/sessions`,
    method: 'POST',
    connections: CONNECTIONS,
    duration: seconds,
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: sessionBody,
  });
  return {
    rps: result.requests.average,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/**
 * The load phase, with the CPU time per request of the server and of the PostgreSQL backends whose
 * application name is `tillpoint-bench-<name>` (see api-server.ts).
 */
export async function measured(name: string, port: number, key: string | undefined, seconds: number) {
  const before = await cpuNow(name, port);
  const result = await drive(port, key, seconds);
  return { ...result, ...cpuSince(before, await cpuNow(name, port), result.requests) };
}
