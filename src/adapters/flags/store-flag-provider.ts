import {
  ErrorCode,
  FlagNotFoundError,
  InvalidContextError,
  TargetingKeyMissingError,
  TypeMismatchError,
  type EvaluationContext,
  type JsonValue,
  type Provider,
  type ResolutionDetails,
} from '@openfeature/server-sdk';
import type { Mode } from '../../domain/shared/events';
import type { FlagEvaluation } from '../../domain/flags/flag-evaluation';
import type { Scope } from '../../domain/shared/scope';
import type { FlagState } from '../../domain/flags/ports';

/**
 * Evaluates one key for one unit: from `state` when given (the scope's flags as already read, which
 * only the server's own reader passes, server-flags.ts), else from a read of its own.
 */
export type EvaluateOne = (scope: Scope, key: string, targetingKey: string | null, state: FlagState | null) => Promise<FlagEvaluation>;

/** The evaluation context the server passes: the account and mode, and the unit (a session id). */
export function scopeFromContext(context: EvaluationContext): Scope {
  const accountId = context.accountId;
  const mode = context.mode;
  if (typeof accountId !== 'string' || (mode !== 'test' && mode !== 'live')) {
    throw new InvalidContextError('the evaluation context needs accountId and mode');
  }
  return { accountId, mode: mode as Mode };
}

/**
 * An in-process OpenFeature provider over Tillpoint's own flag store: the same evaluation the OFREP
 * endpoint serves, without the HTTP round trip.
 */
export class StoreFlagProvider implements Provider {
  readonly metadata = { name: 'tillpoint-store' } as const;
  readonly runsOn = 'server' as const;

  constructor(private readonly evaluate: EvaluateOne) {}

  private async resolve<T extends JsonValue>(key: string, context: EvaluationContext, check: (v: unknown) => v is T): Promise<ResolutionDetails<T>> {
    const result = await this.evaluate(scopeFromContext(context), key, context.targetingKey ?? null, null);
    if ('errorCode' in result) {
      if (result.errorCode === 'FLAG_NOT_FOUND') throw new FlagNotFoundError(result.errorDetails);
      throw new TargetingKeyMissingError(result.errorDetails);
    }
    if (!check(result.value)) throw new TypeMismatchError(`${key} is a ${typeof result.value} flag`);
    return { value: result.value, variant: result.variant, reason: result.reason, flagMetadata: result.metadata };
  }

  resolveBooleanEvaluation(key: string, _default: boolean, context: EvaluationContext) {
    return this.resolve(key, context, (v): v is boolean => typeof v === 'boolean');
  }
  resolveStringEvaluation(key: string, _default: string, context: EvaluationContext) {
    return this.resolve(key, context, (v): v is string => typeof v === 'string');
  }
  resolveNumberEvaluation(key: string, _default: number, context: EvaluationContext) {
    return this.resolve(key, context, (v): v is number => typeof v === 'number');
  }
  async resolveObjectEvaluation<T extends JsonValue>(key: string, defaultValue: T): Promise<ResolutionDetails<T>> {
    // Tillpoint's flags are never objects.
    return { value: defaultValue, reason: 'ERROR', errorCode: ErrorCode.TYPE_MISMATCH, errorMessage: `${key} is not an object flag` };
  }
}
