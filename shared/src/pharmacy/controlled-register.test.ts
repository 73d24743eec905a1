import { describe, expect, it } from 'vitest';
import { controlledRegister } from './controlled-register.js';

describe('controlledRegister', () => {
  it('writes the running balance after each movement, in the order given, keeping each row', () => {
    const movements = [
      { id: 'm1', at: '2026-11-23T07:00:00Z', kind: 'received' as const, qty: 20 },
      { id: 'm2', at: '2026-11-23T09:10:00Z', kind: 'dispensed' as const, qty: -5 },
      { id: 'm3', at: '2026-11-23T10:00:00Z', kind: 'refunded' as const, qty: 2 },
      { id: 'm4', at: '2026-11-23T12:30:00Z', kind: 'adjusted' as const, qty: -1 },
      { id: 'm5', at: '2026-11-23T15:00:00Z', kind: 'disposed' as const, qty: -3 },
      { id: 'm6', at: '2026-11-23T17:45:00Z', kind: 'adjusted' as const, qty: 4 },
    ];
    expect(controlledRegister(movements, 10).map((r) => [r.id, r.kind, r.qty, r.balance])).toEqual([
      ['m1', 'received', 20, 30],
      ['m2', 'dispensed', -5, 25],
      ['m3', 'refunded', 2, 27],
      ['m4', 'adjusted', -1, 26],
      ['m5', 'disposed', -3, 23],
      ['m6', 'adjusted', 4, 27],
    ]);
    expect(controlledRegister(movements, 0).at(-1)!.balance).toBe(17);
  });

  it('has no rows without movements', () => {
    expect(controlledRegister([], 12)).toEqual([]);
  });

  it('throws on a quantity whose sign contradicts its kind, or 0', () => {
    expect(() => controlledRegister([{ at: 'x', kind: 'dispensed', qty: 5 }], 10)).toThrow('a movement of kind dispensed cannot have qty 5');
    expect(() => controlledRegister([{ at: 'x', kind: 'received', qty: -5 }], 10)).toThrow('a movement of kind received cannot have qty -5');
    expect(() => controlledRegister([{ at: 'x', kind: 'adjusted', qty: 0 }], 10)).toThrow('a movement of kind adjusted cannot have qty 0');
  });
});
