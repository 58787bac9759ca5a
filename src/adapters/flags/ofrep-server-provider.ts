import { OFREPApi, handleEvaluationError, isEvaluationFailureResponse, toResolutionDetails } from '@openfeature/ofrep-core';
import {
  GeneralError,
  TypeMismatchError,
  type EvaluationContext,
  type FlagValue,
  type JsonValue,
  type Provider,
  type ResolutionDetails,
} from '@openfeature/server-sdk';

/**
 * An OpenFeature server provider that asks an external OFREP flag service (FLAGS_OFREP_URL), one
 * single-flag evaluation per read. The published @openfeature/ofrep-provider targets an older
 * ofrep-core than the web provider needs, so this small provider uses the current core directly.
 */
export class OfrepServerProvider implements Provider {
  readonly metadata = { name: 'ofrep-server' } as const;
  readonly runsOn = 'server' as const;
  private readonly api: OFREPApi;

  constructor(baseUrl: string, headers: [string, string][] = []) {
    this.api = new OFREPApi({ baseUrl, headers, timeoutMs: 2000 });
  }

  private async resolve<T extends FlagValue>(key: string, defaultValue: T, context: EvaluationContext): Promise<ResolutionDetails<T>> {
    const result = await this.api.postEvaluateFlag(key, { context });
    const body = result.value as unknown;
    if (isEvaluationFailureResponse(body)) return handleEvaluationError(body, defaultValue);
    if (result.httpStatus !== 200) throw new GeneralError(`the flag service answered ${result.httpStatus}`);
    const details = toResolutionDetails(body as never, defaultValue);
    if (typeof details.value !== typeof defaultValue) throw new TypeMismatchError(`${key} is not a ${typeof defaultValue}`);
    return details as ResolutionDetails<T>;
  }

  resolveBooleanEvaluation(key: string, defaultValue: boolean, context: EvaluationContext) {
    return this.resolve(key, defaultValue, context);
  }
  resolveStringEvaluation(key: string, defaultValue: string, context: EvaluationContext) {
    return this.resolve(key, defaultValue, context);
  }
  resolveNumberEvaluation(key: string, defaultValue: number, context: EvaluationContext) {
    return this.resolve(key, defaultValue, context);
  }
  resolveObjectEvaluation<T extends JsonValue>(key: string, defaultValue: T, context: EvaluationContext) {
    return this.resolve(key, defaultValue, context);
  }

  async onClose() {
    this.api.close();
  }
}
