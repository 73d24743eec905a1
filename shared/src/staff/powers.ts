/**
 * What a cashier may not do (issue 18): the powers that move money or stock out of the shop's
 * books, each needing one permission (`common.ts`): owners hold every permission; a manager or
 * staff member holds what their flags grant, and a manager's flags are on unless the owner turned
 * them off. The server checks these inside its verbs (REST, sync and the agent reach the same verb),
 * and the till applies the same check offline to what it does locally (stock adjustments, a new
 * customer's credit limit), so both refuse with the same words.
 */
import { holdsPermission, PERMISSION_FLAG, type Permission } from '../common.js';

export const POWERS = {
  /** Forgiving what is owed on a credit tab. */
  write_off_debt: 'credit',
  /** Setting or changing a customer's credit limit (0 means no limit, so setting 0 is a change too). */
  set_credit_limit: 'credit',
  /** Deactivating a customer (the contract has no DELETE; `is_active: false` is the removal). */
  remove_customer: 'credit',
  /** Marking a supplier delivery paid (or unpaid) by hand, without a recorded payment. */
  mark_delivery_paid: 'suppliers',
  /** DELETE /suppliers/:id (it hides the supplier; a PATCHed status `inactive` or `on_hold` is reversible and free). */
  remove_supplier: 'suppliers',
  /** A product's selling, wholesale or cost price, wholesale quantity or tax rate. */
  change_price: 'stock',
  /** A stock adjustment, or a product's stock set directly (on create or update). */
  adjust_stock: 'stock',
  /** DELETE /inventory/products/:id, or `is_active: false`, which is what DELETE does to a product with history. */
  remove_product: 'stock',
} as const satisfies Record<string, Permission>;
export type Power = keyof typeof POWERS;

/** What each power does, in the words of its refusal and of the OpenAPI descriptions (server/src/lib/route-access.ts). */
export const POWER_ACTION: Record<Power, string> = {
  write_off_debt: 'writing off a debt',
  set_credit_limit: "changing a customer's credit limit",
  remove_customer: 'removing a customer',
  mark_delivery_paid: 'marking a delivery paid',
  remove_supplier: 'removing a supplier',
  change_price: 'changing prices',
  adjust_stock: 'changing stock',
  remove_product: 'removing a product',
};

export interface PowerBreach {
  code: 'FORBIDDEN';
  /** The permission that is missing, and the user flag that grants it. */
  permission: Permission;
  flag: (typeof PERMISSION_FLAG)[Permission];
  message: string;
}

/** Undefined when `user` may use `power`; else what to refuse with, naming the permission. */
export function checkPower(power: Power, user: { role?: string; perms?: readonly string[] } | null | undefined): PowerBreach | undefined {
  const permission = POWERS[power];
  if (holdsPermission(user, permission)) return undefined;
  const flag = PERMISSION_FLAG[permission];
  return {
    code: 'FORBIDDEN',
    permission,
    flag,
    message: `${POWER_ACTION[power]} needs the ${permission} permission (${flag}); ask a manager or the owner`,
  };
}
