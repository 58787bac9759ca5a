import type { DomainEvent } from '../../domain/shared/events';
import { eventEnvelope } from '../../domain/shared/event-payloads';
import { unixTime } from './resource';

/**
 * An event as `GET /v1/events` shows it: the object's snapshot at the moment of the change, in the
 * same envelope a webhook delivers, so a receiver can parse both alike.
 */
export const eventView = eventEnvelope;

/** An event on a dashboard timeline: what happened and when; its snapshot stays server-side (it may hold emails). */
export function timelineEventView(event: DomainEvent) {
  return { id: event.id, type: event.type, object: event.objectId, created: unixTime(event.createdAt) };
}
