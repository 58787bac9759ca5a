export { Tillpoint, type TillpointOptions } from './client.js';
export {
  ApiError,
  AuthenticationError,
  CardError,
  ConnectionError,
  IdempotencyError,
  InvalidRequestError,
  PermissionError,
  ProcessorError,
  RateLimitError,
  TillpointError,
  WebhookSignatureError,
} from './errors.js';
export { ListPromise } from './pagination.js';
export type { EventStreamOptions } from './stream.js';
export { DEFAULT_TOLERANCE_SECONDS, Webhooks } from './webhooks.js';
export type * from './types.js';
