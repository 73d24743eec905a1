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
  'GET /inventory/products/{id}': bearer,
  'GET /inventory/products/barcode/{code}': bearer,
  'PATCH /inventory/products/{id}': bearer,
  'POST /inventory/products/{id}/adjust': needs('stock'),
  'GET /inventory/products/{id}/adjustments': bearer,
  'GET /inventory/categories': bearer,
  'POST /inventory/products/import': needs('stock'),
  'GET /inventory/products/export': bearer,
  'GET /sync/conflicts': owner,
  'GET /sync/refusals': owner,
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
  'GET /reports/exports': needs('reports'),
  'GET /reports/exports/{id}/download': needs('reports'),
  'GET /reports/scheduled': owner,
  'POST /reports/scheduled': owner,
  'PATCH /reports/scheduled/{id}': owner,
  'DELETE /reports/scheduled/{id}': owner,
  'POST /reports/scheduled/{id}/send': owner,
  'GET /analytics/trend': owner,
  'GET /analytics/overview': owner,
  'POST /ai/chat': bearer,
  'POST /ai/conversations/{id}/chat': bearer,
  'GET /accounts/ai-credits': bearer,
  'GET /payments/collection-accounts': owner,
  'POST /payments/collection-accounts': owner,
  // Staff, stores, shifts and sales (screens/staff, stores, shifts, sales).
  'GET /staff/{id}': owner,
  'PATCH /staff/{id}/permissions': owner,
  'PATCH /staff/{id}/shift': owner,
  'DELETE /staff/{id}': owner,
  'POST /staff/{id}/reset-password': owner,
  'POST /stores': owner,
  'GET /stores/{id}': owner,
  'PATCH /stores/{id}': owner,
  'PATCH /stores/{id}/status': owner,
  'DELETE /stores/{id}': owner,
  'GET /pos/transactions/{id}': bearer,
  'POST /pos/transactions/{id}/refund': needs('refund'),
  // Declared `bearer`: a cashier may void their own sale for a while; anything else needs the refund permission (see mayVoid).
  'POST /pos/transactions/{id}/void': bearer,
  'PATCH /payments/collection-accounts/{id}': owner,
  'POST /payments/collection-accounts/{id}/rotate-callback': owner,
  'GET /stores/{id}/fiscal': owner,
  'PUT /stores/{id}/fiscal': owner,
  'POST /stores/{id}/fiscal/register': owner,
  'GET /sms/account': owner,
  'GET /subscriptions/current': owner,
  'GET /subscriptions/plans': bearer,
  'GET /subscriptions/invoices': owner,
  'POST /subscriptions/checkout': owner,
  'POST /subscriptions/cancel': owner,
  'GET /sync/devices': owner,
  'POST /sync/devices/{id}/retire': owner,
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
  // Issue 54, purchase orders and reorder suggestions (screens/suppliers/orders*, suggestions.ts).
  'GET /suppliers/purchase-orders': needs('suppliers'),
  'POST /suppliers/purchase-orders': needs('suppliers'),
  'GET /suppliers/purchase-orders/{id}': needs('suppliers'),
  'POST /suppliers/purchase-orders/{id}/send': needs('suppliers'),
  'POST /suppliers/purchase-orders/{id}/receive': needs('suppliers'),
  'POST /suppliers/purchase-orders/{id}/cancel': needs('suppliers'),
  'POST /suppliers/purchase-orders/from-suggestions': needs('suppliers'),
  'GET /inventory/reorder-suggestions': bearer,
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

/** Whether the signed-in user holds `permission` (an owner every one, a manager and staff by their flags). */
export function holds(permission: Permission): boolean {
  return permissions.value.has(permission);
}
