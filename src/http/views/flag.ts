import { builtInFlags, isBuiltInFlag } from '../../domain/flags/flag-evaluation';
import { unixTime } from './resource';
import type { FlagValue, Flag } from '../../domain/flags/entities';

/** A flag as the API shows it: built-in flags appear with their default until set. */
export function flagView(key: string, stored: Flag | null) {
  const builtIn = isBuiltInFlag(key) ? builtInFlags[key] : null;
  return {
    object: 'flag' as const,
    key,
    value: (stored?.value ?? builtIn?.default) as FlagValue,
    default: builtIn ? builtIn.default : null,
    allowed_values: builtIn?.values ?? null,
    built_in: Boolean(builtIn),
    description: stored?.description ?? builtIn?.description ?? null,
    updated: unixTime(stored?.updatedAt ?? null),
  };
}
