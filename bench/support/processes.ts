import { readFileSync } from 'node:fs';
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Child<M> {
  process: ChildProcess;
  /** The first message the child sent (it says where it listens). */
  ready: M;
  /** SIGTERM (a graceful stop) unless told otherwise. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts a bench helper (`bench/support/<file>`, or an absolute path) under tsx in its own process, so what is measured
 * never shares an event loop with the load generator. BENCH_CPU_PROF=<dir> profiles the children
 * (`node --cpu-prof`); their stdout (the server log) goes to /dev/null.
 */
export async function startChild<M>(file: string, args: string[], env: Record<string, string> = {}): Promise<Child<M>> {
  const profile = process.env.BENCH_CPU_PROF;
  const script = path.isAbsolute(file) ? file : fileURLToPath(new URL(`./${file}`, import.meta.url));
  const child = fork(script, args, {
    execArgv: ['--import', 'tsx', ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [])],
    env: { ...process.env, ...env },
    stdio: ['ignore', process.env.BENCH_SERVER_LOG ? 'inherit' : 'ignore', 'inherit', 'ipc'],
  });
  const ready = await new Promise<M>((resolve, reject) => {
    child.once('message', (message) => resolve(message as M));
    child.once('exit', (code) => reject(new Error(`${file} ${args.join(' ')} exited with ${code} before it was ready`)));
  });
  return {
    process: child,
    ready,
    stop: (signal = 'SIGTERM') =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}

/** The value below which `fraction` of the samples lie (nearest rank). */
export function percentile(samples: number[], fraction: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!;
}

export const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '–');

const CLOCK_TICK_MS = 10; // USER_HZ is 100 on Linux

/** CPU time (ms) a process has used so far, from /proc (0 when it has gone, or runs elsewhere). */
export function processCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
  } catch {
    return 0;
  }
}
