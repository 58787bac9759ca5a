import type { ApiRequestRecord, ApiKey } from '../../domain/team/entities';
import { unixTime } from './resource';

/** A key as the dashboard lists it: never its secret, only how it starts and ends. */
export function apiKeyView(key: ApiKey) {
  return {
    id: key.id,
    kind: key.kind,
    mode: key.mode,
    name: key.name,
    redacted: `${key.prefix}…${key.last4}`,
    created: unixTime(key.createdAt),
    last_used_at: unixTime(key.lastUsedAt),
    revoked_at: unixTime(key.revokedAt),
    expires_at: unixTime(key.expiresAt),
    permissions: key.permissions,
  };
}

/** One line of the request log. */
export function apiRequestView(record: ApiRequestRecord) {
  return {
    id: record.id,
    method: record.method,
    path: record.path,
    status: record.status,
    error_code: record.errorCode,
    key_id: record.keyId,
    request_id: record.requestId,
    created: unixTime(record.at),
  };
}
