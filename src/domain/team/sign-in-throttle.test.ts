import { describe, expect, it } from 'vitest';
import { signInThrottle, signInWait } from './sign-in-throttle';

const now = new Date('2026-06-01T12:00:00Z');
const secondsAgo = (...seconds: number[]) => seconds.map((s) => new Date(now.getTime() - s * 1000));
const limits = signInThrottle.email;

describe('sign-in throttle', () => {
  it('lets the first failures through at once', () => {
    expect(signInWait([], limits, now)).toBe(0);
    expect(signInWait(secondsAgo(30, 0), limits, now)).toBe(0);
  });

  it('asks for a doubling wait after the third failure', () => {
    expect(signInWait(secondsAgo(30, 20, 0), limits, now)).toBe(1000);
    expect(signInWait(secondsAgo(40, 30, 20, 0), limits, now)).toBe(2000);
    expect(signInWait(secondsAgo(50, 40, 30, 20, 1), limits, now)).toBe(3000);
  });

  it('locks for 15 minutes after the tenth failure', () => {
    const ten = secondsAgo(100, 90, 80, 70, 60, 50, 40, 30, 20, 10);
    expect(signInWait(ten, limits, now)).toBe(15 * 60 * 1000 - 10_000);
    const later = new Date(now.getTime() + 15 * 60 * 1000);
    expect(signInWait(ten, limits, later)).toBe(0);
  });

  it('forgets failures older than the window', () => {
    expect(signInWait(secondsAgo(7200, 7100, 7000, 0), limits, now)).toBe(0);
  });
});
