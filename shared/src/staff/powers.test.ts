import { describe, expect, it } from 'vitest';
import { checkPower, POWERS } from './powers.js';
import { permissionsOf } from '../common.js';

describe('checkPower: what a cashier may not do', () => {
  it('lets an owner use every power whatever their list says', () => {
    for (const power of Object.keys(POWERS) as Array<keyof typeof POWERS>)
      expect(checkPower(power, { role: 'owner', perms: [] })).toBeUndefined();
  });

  it('refuses a cashier without the permission, naming it and its flag', () => {
    expect(checkPower('write_off_debt', { role: 'staff', perms: ['refund', 'discount'] })).toEqual({
      code: 'FORBIDDEN',
      permission: 'credit',
      flag: 'can_manage_credit',
      message: 'writing off a debt needs the credit permission (can_manage_credit); ask a manager or the owner',
    });
    expect(checkPower('adjust_stock', undefined)?.permission).toBe('stock');
    expect(checkPower('mark_delivery_paid', { role: 'manager', perms: ['credit', 'stock'] })?.flag).toBe('can_manage_suppliers');
  });

  it('lets anyone holding the permission through, a staff member the owner trusted included', () => {
    expect(checkPower('change_price', { role: 'staff', perms: ['stock'] })).toBeUndefined();
    expect(checkPower('remove_supplier', { role: 'manager', perms: ['suppliers'] })).toBeUndefined();
  });

  it('reads permissions from the stored flags: all for an owner, the flags for anyone else', () => {
    expect(permissionsOf('owner', {})).toEqual(['refund', 'discount', 'reports', 'pharmacy', 'credit', 'stock', 'suppliers']);
    expect(permissionsOf('manager', { can_refund: 1, can_manage_stock: 1, can_manage_credit: 0 })).toEqual(['refund', 'stock']);
    expect(permissionsOf('staff', { can_manage_suppliers: true })).toEqual(['suppliers']);
  });
});
