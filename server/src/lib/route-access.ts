/**
 * Who may call a route, as the last sentence of its OpenAPI description says it: generated from
 * the route's access level and from what its verb asks beyond it (`needs`), so the text cannot
 * say other than the declaration. The verb enforces `needs` itself (lib/auth/authorize.ts), since
 * REST, sync mutators and the agent reach the same verb; test/api/openapi-access-text.test.ts holds
 * each declaration to what the server answers.
 */
import { PERMISSION_FLAG, type Permission, POWER_ACTION, POWERS, type Power } from '@duka/shared';
import type { Access } from './auth/middleware.js';

/** What a signed-in (`bearer`) route's verb asks beyond signing in. */
export type Needs =
  /** Every call needs the permission. */
  | { permission: Permission }
  /** A call that uses one of these powers (shared/staff/powers.ts) needs that power's permission. */
  | { powers: readonly [Power, ...Power[]] }
  /** A call that does `when` (said as "giving a discount") needs the permission, or a manager's role with `orManager`. */
  | { permission: Permission; when: string; orManager?: true };

const WHO: Record<Access, string> = {
  public: 'No sign-in needed.',
  bearer: 'Any signed-in user.',
  'password-change': 'Any signed-in user, a session signed in with a temporary password included.',
  'signing-out': 'Any access token of the user, even of a session already signed out.',
  owner: "The organisation's owner only.",
  admin: 'Platform administrators signed in with MFA only.',
  'admin-enrolment': 'Platform administrators, before MFA enrolment too.',
};

/**
 * A permission and who holds it, as holdsPermission (shared/common.ts) decides: the owner every
 * one, anyone else what their flags grant; a manager's flags start on, a staff member's off.
 */
function permission(p: Permission, orManager?: true): string {
  const flag = `\`${PERMISSION_FLAG[p]}\``;
  if (orManager) return `the ${p} permission (${flag}, which staff hold only when granted) or the owner’s or a manager’s role`;
  return `the ${p} permission (${flag}; the owner always holds it, a manager unless it was turned off, staff only when granted)`;
}

const either = (words: string[]) => (words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`);

/** What a call that does something needs, one clause per permission. */
function conditions(needs: Exclude<Needs, { permission: Permission; when?: undefined }>): string[] {
  if ('when' in needs) return [`${needs.when} needs ${permission(needs.permission, needs.orManager)}`];
  const byPermission = new Map<Permission, string[]>();
  for (const power of needs.powers) byPermission.set(POWERS[power], [...(byPermission.get(POWERS[power]) ?? []), POWER_ACTION[power]]);
  return [...byPermission].map(([p, actions]) => `${either(actions)} needs ${permission(p)}`);
}

/** The access sentence a route's description ends with. */
export function accessSentence(access: Access, needs?: Needs): string {
  if (!needs) return WHO[access];
  if (access !== 'bearer')
    throw new Error(`needs is for signed-in (bearer) routes; a ${access} route states its access by its level alone`);
  if ('permission' in needs && !('when' in needs)) return `Signed-in users with ${permission(needs.permission)}.`;
  return `Any signed-in user; ${conditions(needs).join('; ')}.`;
}

/** The declaration as the document's `x-duka-access` extension, for tools and tests to read. */
export const accessExtension = (access: Access, needs?: Needs) => ({ level: access, ...needs });
