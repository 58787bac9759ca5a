import { useRef } from 'react';

/**
 * A ref holding `value` as of the latest render: an effect that runs once per provider, engine or
 * client reads the callbacks and values it needs through it, always current, without re-running
 * when the parent hands down new closures.
 */
export function useLatest<T>(value: T): { readonly current: T } {
  const ref = useRef(value);
  ref.current = value;
  return ref;
}
