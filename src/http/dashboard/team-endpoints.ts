import { z } from 'zod';
import { roles } from '../../domain/team/permissions';
import type { Deps } from '../../domain/deps';
import { changeMemberRole } from '../../domain/team/use-cases/change-member-role';
import { createInvite } from '../../domain/team/use-cases/create-invite';
import { getAccount } from '../../domain/team/use-cases/get-account';
import { listAuditLog } from '../../domain/team/use-cases/list-audit-log';
import { listTeam } from '../../domain/team/use-cases/list-team';
import { removeMember } from '../../domain/team/use-cases/remove-member';
import { revokeInvite } from '../../domain/team/use-cases/revoke-invite';
import { updateAccountProfile } from '../../domain/team/use-cases/update-account-profile';
import { listQuery, urlText } from '../schemas';
import { accountSettingsView, auditEntryView, inviteView, memberView } from '../views/team';
import { accountEndpoint, accountParam, type DashboardEndpoint } from './dashboard-route';

const base = '/dashboard/api/accounts/:account_id';
const accountParams = z.strictObject(accountParam);
const objectParams = z.strictObject({ ...accountParam, id: z.string().regex(/^[A-Za-z0-9_]{1,64}$/) });
const memberParams = z.strictObject({ ...accountParam, user_id: z.string().regex(/^user_[A-Za-z0-9]{1,40}$/) });
const role = z.enum(roles);

/** Account-wide endpoints: team, business profile and branding, audit log. */
export function accountEndpoints(deps: Deps): DashboardEndpoint[] {
  return [
    accountEndpoint(
      { method: 'GET', url: `${base}/team`, tag: 'Dashboard: team', summary: 'Members and pending invites', params: accountParams, permission: 'team.read' },
      async ({ member }) => {
        const team = await listTeam(deps, { accountId: member.accountId });
        return { members: team.members.map(memberView), invites: team.invites.map(inviteView) };
      },
    ),

    accountEndpoint(
      {
        method: 'POST',
        url: `${base}/invites`,
        tag: 'Dashboard: team',
        summary: 'Create an invite link for a role (shown once)',
        params: accountParams,
        body: z.strictObject({ role }),
        permission: 'team.manage',
        status: 201,
      },
      async ({ body, member }) => {
        const { invite, url } = await createInvite(deps, { by: member.membership, actor: member.actor, role: body.role });
        return { ...inviteView(invite), url };
      },
    ),

    accountEndpoint(
      {
        method: 'POST',
        url: `${base}/invites/:id/revoke`,
        tag: 'Dashboard: team',
        summary: 'Withdraw a pending invite',
        params: objectParams,
        permission: 'team.manage',
      },
      async ({ params, member }) => {
        await revokeInvite(deps, { accountId: member.accountId, actor: member.actor, id: params.id });
        return { id: params.id, revoked: true };
      },
    ),

    accountEndpoint(
      {
        method: 'POST',
        url: `${base}/members/:user_id/role`,
        tag: 'Dashboard: team',
        summary: "Change a member's role",
        params: memberParams,
        body: z.strictObject({ role }),
        permission: 'team.manage',
      },
      async ({ params, body, member }) => {
        const changed = await changeMemberRole(deps, { by: member.membership, actor: member.actor, userId: params.user_id, role: body.role });
        return { user_id: changed.userId, role: changed.role };
      },
    ),

    accountEndpoint(
      {
        method: 'DELETE',
        url: `${base}/members/:user_id`,
        tag: 'Dashboard: team',
        summary: 'Remove a member from the account',
        params: memberParams,
        permission: 'team.manage',
      },
      async ({ params, member }) => {
        await removeMember(deps, { by: member.membership, actor: member.actor, userId: params.user_id });
        return { user_id: params.user_id, removed: true };
      },
    ),

    accountEndpoint(
      {
        method: 'GET',
        url: `${base}/settings`,
        tag: 'Dashboard: settings',
        summary: 'Business profile and branding',
        params: accountParams,
        permission: 'settings.read',
      },
      async ({ member }) => accountSettingsView(await getAccount(deps, { accountId: member.accountId })),
    ),

    accountEndpoint(
      {
        method: 'POST',
        url: `${base}/settings`,
        tag: 'Dashboard: settings',
        summary: 'Update the business profile and branding the checkout page shows',
        params: accountParams,
        body: z.strictObject({
          name: z.string().max(100).optional(),
          display_name: z.string().max(100).nullable().optional(),
          logo_url: urlText().nullable().optional(),
          accent_color: z.string().max(7).nullable().optional(),
          support_email: z.string().max(254).nullable().optional(),
          send_receipts: z.boolean().optional(),
          subscription_failure_action: z.enum(['cancel', 'unpaid']).optional(),
          embed_allowed_origins: z.array(urlText(300)).max(10).optional(),
        }),
        permission: 'settings.manage',
      },
      async ({ body, member }) =>
        accountSettingsView(
          await updateAccountProfile(deps, {
            accountId: member.accountId,
            actor: member.actor,
            changes: {
              name: body.name,
              displayName: body.display_name,
              logoUrl: body.logo_url,
              accentColor: body.accent_color,
              supportEmail: body.support_email,
              sendReceipts: body.send_receipts,
              subscriptionFailureAction: body.subscription_failure_action,
              embedAllowedOrigins: body.embed_allowed_origins,
            },
          }),
        ),
    ),

    accountEndpoint(
      {
        method: 'GET',
        url: `${base}/audit-log`,
        tag: 'Dashboard: audit log',
        summary: 'Who did what, when, from where; newest first',
        params: accountParams,
        query: z.strictObject(listQuery),
        permission: 'audit.read',
      },
      async ({ query, member }) => {
        const page = await listAuditLog(deps, { accountId: member.accountId, page: { limit: query.limit, startingAfter: query.starting_after } });
        return { object: 'list', has_more: page.hasMore, data: page.data.map(auditEntryView) };
      },
    ),
  ];
}
