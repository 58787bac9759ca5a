import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Harness } from './harness';

/** A browser signed in to the dashboard: its session cookie and CSRF token. */
export interface DashboardAgent {
  cookie: string;
  csrf: string;
  userId: string;
  email: string;
  /** The account it signed up into (its own, or the one that invited it). */
  accountId: string;
}

let counter = 0;
export const uniqueEmail = (label = 'user') => `${label}.${Date.now().toString(36)}.${++counter}@shop.example`;
export const PASSWORD = 'correct horse battery staple';

/** `name=value` of a Set-Cookie header, by cookie name. */
export function setCookie(res: LightMyRequestResponse, name: string): string | undefined {
  const header = res.headers['set-cookie'];
  const all = Array.isArray(header) ? header : header ? [header] : [];
  return all.find((c) => c.startsWith(`${name}=`));
}

/** What a fresh browser does first: read the session endpoint to get a pre-sign-in CSRF token. */
export async function preAuth(h: Harness, ip = '203.0.113.7'): Promise<{ cookie: string; csrf: string; ip: string }> {
  const res = await h.app.inject({ method: 'GET', url: '/dashboard/api/session', remoteAddress: ip });
  expect(res.statusCode, res.body).toBe(200);
  const cookie = setCookie(res, 'tp_csrf')!.split(';')[0]!;
  return { cookie, csrf: res.json().csrf_token, ip };
}

export function publicPost(h: Harness, pre: { cookie: string; csrf: string; ip: string }, url: string, payload: object) {
  return h.app.inject({
    method: 'POST',
    url,
    payload,
    remoteAddress: pre.ip,
    headers: { cookie: pre.cookie, 'x-csrf-token': pre.csrf },
  });
}

function agentFrom(res: LightMyRequestResponse, email: string): DashboardAgent {
  expect(res.statusCode, res.body).toBeLessThan(300);
  const body = res.json();
  return {
    cookie: setCookie(res, 'tp_session')!.split(';')[0]!,
    csrf: body.csrf_token,
    userId: body.user.id,
    email,
    accountId: body.account_id ?? body.accounts[0]?.id,
  };
}

/** Signs up a new user with a new account (they are its owner). */
export async function signUpOwner(h: Harness, business = 'Dashboard Shop', email = uniqueEmail('owner')): Promise<DashboardAgent> {
  const pre = await preAuth(h);
  const res = await publicPost(h, pre, '/dashboard/api/sign-up', { email, password: PASSWORD, name: 'Olive Owner', business_name: business });
  return agentFrom(res, email);
}

/** A dashboard API call as a signed-in browser (with its CSRF token unless told otherwise). */
/** Signs the agent in again (a dashboard session ends; tests that move the clock by days need a new one). */
export async function signInAgain(h: Harness, agent: DashboardAgent): Promise<DashboardAgent> {
  const res = await publicPost(h, await preAuth(h), '/dashboard/api/sign-in', { email: agent.email, password: PASSWORD });
  expect(res.statusCode, res.body).toBe(200);
  return { ...agent, cookie: setCookie(res, 'tp_session')!.split(';')[0]!, csrf: res.json().csrf_token };
}

export function dashboardCall(
  h: Harness,
  agent: Pick<DashboardAgent, 'cookie' | 'csrf'>,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: object,
  options: { csrf?: boolean } = {},
) {
  return h.app.inject({
    method,
    url,
    headers: { cookie: agent.cookie, ...(options.csrf === false ? {} : { 'x-csrf-token': agent.csrf }) },
    ...(payload === undefined ? {} : { payload }),
  });
}

/** Invites a new user into the owner's account with a role; returns the new member signed in. */
export async function addMember(h: Harness, owner: DashboardAgent, role: string): Promise<DashboardAgent> {
  const invite = await dashboardCall(h, owner, 'POST', `/dashboard/api/accounts/${owner.accountId}/invites`, { role });
  expect(invite.statusCode, invite.body).toBe(201);
  const token = String(invite.json().url).split('/').at(-1);
  const pre = await preAuth(h);
  const email = uniqueEmail(role);
  const res = await publicPost(h, pre, '/dashboard/api/sign-up', { email, password: PASSWORD, name: `${role} person`, invite_token: token });
  const agent = agentFrom(res, email);
  expect(agent.accountId).toBe(owner.accountId);
  return agent;
}
