/**
 * Who may do what in the back office, by the API's own declarations: each route the office calls
 * is listed with the access its OpenAPI operation declares (`x-duka-access`), and
 * test/office/access.test.ts holds this table to the server's document, so a screen can never
 * offer what the API would refuse, nor hide what it allows. A screen and each of its actions are
 * shown when the signed-in user may call the route behind them.
 */
import { type Permission, permissionsOf, type Profile } from '@duka/shared';
import { computed, signal } from '@preact/signals';

export type Access = { level: 'bearer' | 'owner' | 'public' } | { level: 'bearer'; permission: Permission };

const bearer = { level: 'bearer' } as const;
const owner = { level: 'owner' } as const;
const needs = (permission: Permission) => ({ level: 'bearer', permission }) as const;

/** `METHOD /path` (the OpenAPI path, `{id}` for a parameter) → the access the server declares for it. */
export const ROUTES = {
  'GET /accounts/me': bearer,
  'PATCH /accounts/me': { level: 'bearer' },
  'GET /accounts/organisation': owner,
  'PATCH /accounts/organisation': owner,
  'POST /accounts/switch-store': bearer,
  'GET /pos/summary': bearer,
  'GET /pos/shifts': bearer,
  'GET /pos/shifts/{id}': bearer,
  'GET /pos/transactions': bearer,
  'GET /payments/reconciliation': needs('reports'),
  'GET /inventory/low-stock': bearer,
  'GET /inventory/products': bearer,
  'POST /inventory/products': bearer,
  'PATCH /inventory/products/{id}': bearer,
  'POST /inventory/products/{id}/adjust': needs('stock'),
  'GET /sync/conflicts': owner,
  'GET /customers/credits': bearer,
  'GET /payments/received': needs('reports'),
  'GET /stores': owner,
  'GET /staff': owner,
  'POST /staff': owner,
  'GET /suppliers': bearer,
  'POST /suppliers/deliveries': bearer,
  'GET /customers': bearer,
  'POST /credits/customers/{customer_id}/payments': bearer,
  'GET /reports/types': bearer,
  'POST /reports/generate': needs('reports'),
  'GET /analytics/trend': owner,
  'GET /payments/collection-accounts': owner,
  'POST /payments/collection-accounts': owner,
  // Issue 54, suppliers, stock transfers, expenses, customers and credit (screens/{suppliers,stock,expenses,customers}).
  'POST /suppliers': bearer,
  'GET /suppliers/{id}': bearer,
  'PATCH /suppliers/{id}': bearer,
  'GET /suppliers/{id}/deliveries': bearer,
  'GET /suppliers/{id}/payments': bearer,
  'POST /suppliers/{id}/pay': owner,
  'POST /suppliers/deliveries/{id}/pay': owner,
  'GET /inventory/transfers': bearer,
  'POST /inventory/transfers': needs('stock'),
  'GET /expenses': bearer,
  'POST /expenses': bearer,
  'GET /expenses/{id}': bearer,
  'PATCH /expenses/{id}': bearer,
  'GET /expenses/summary': bearer,
  'POST /customers': bearer,
  'GET /customers/{id}': bearer,
  'PATCH /customers/{id}': bearer,
  'GET /credits/customers/{customer_id}': bearer,
  'POST /credits/customers/{customer_id}/remind': bearer,
  'POST /credits/{tab_id}/write-off': needs('credit'),
} satisfies Record<string, Access>;
export type Route = keyof typeof ROUTES;

export const profile = signal<Profile | null>(null);

const permissions = computed(() => {
  const user = profile.value?.user;
  return new Set<Permission>(user ? permissionsOf(user.role, user) : []);
});

/** Whether the signed-in user may call `route`, as the server decides it. */
export function may(route: Route): boolean {
  const user = profile.value?.user;
  if (!user) return false;
  const access: Access = ROUTES[route];
  if (access.level === 'owner') return user.role === 'owner';
  return !('permission' in access) || permissions.value.has(access.permission);
}
