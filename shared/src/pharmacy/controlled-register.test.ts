import { describe, expect, it } from 'vitest';
import { controlledRegister } from './controlled-register.js';

describe('controlledRegister', () => {
  it('writes the running balance after each movement, in the order given, keeping each row', () => {
    const movements = [
      { id: 'm1', at: '2026-11-23T07:00:00Z', kind: 'received' as const, qty: 20 },
      { id: 'm2', at: '2026-11-23T09:10:00Z', kind: 'dispensed' as const, qty: -5 },
      { id: 'm3', at: '2026-11-23T10:00:00Z', kind: 'refunded' as const, qty: 0 },
      { id: 'm4', at: '2026-11-23T11:00:00Z', kind: 'released' as const, qty: 2 },
      { id: 'm5', at: '2026-11-23T12:30:00Z', kind: 'adjusted' as const, qty: -1 },
      { id: 'm6', at: '2026-11-23T13:00:00Z', kind: 'recalled' as const, qty: -3 },
      { id: 'm7', at: '2026-11-23T15:00:00Z', kind: 'disposed' as const, qty: 0 },
      { id: 'm8', at: '2026-11-23T17:45:00Z', kind: 'adjusted' as const, qty: 4 },
    ];
    expect(controlledRegister(movements, 10).map((r) => [r.id, r.kind, r.qty, r.balance])).toEqual([
      ['m1', 'received', 20, 30],
      ['m2', 'dispensed', -5, 25],
      ['m3', 'refunded', 0, 25],
      ['m4', 'released', 2, 27],
      ['m5', 'adjusted', -1, 26],
      ['m6', 'recalled', -3, 23],
      ['m7', 'disposed', 0, 23],
      ['m8', 'adjusted', 4, 27],
    ]);
    expect(controlledRegister(movements, 0).at(-1)!.balance).toBe(17);
  });

  it('has no rows without movements', () => {
    expect(controlledRegister([], 12)).toEqual([]);
  });

  it('lists units moved outside stock with qty 0 for every kind', () => {
    const kinds = [
      'received',
      'dispensed',
      'refunded',
      'voided',
      'adjusted',
      'released',
      'recalled',
      'expired',
      'disposed',
      'corrected',
    ] as const;
    expect(
      controlledRegister(
        kinds.map((kind) => ({ at: 'x', kind, qty: 0 })),
        7,
      ).map((r) => r.balance),
    ).toEqual(kinds.map(() => 7));
  });

  it('throws on a quantity whose sign contradicts its kind', () => {
    expect(() => controlledRegister([{ at: 'x', kind: 'dispensed', qty: 5 }], 10)).toThrow(
      'a movement of kind dispensed cannot have qty 5',
    );
    expect(() => controlledRegister([{ at: 'x', kind: 'received', qty: -5 }], 10)).toThrow(
      'a movement of kind received cannot have qty -5',
    );
    expect(() => controlledRegister([{ at: 'x', kind: 'released', qty: -1 }], 10)).toThrow(
      'a movement of kind released cannot have qty -1',
    );
    expect(() => controlledRegister([{ at: 'x', kind: 'disposed', qty: -3 }], 10)).toThrow(
      'a movement of kind disposed cannot have qty -3',
    );
    expect(() => controlledRegister([{ at: 'x', kind: 'corrected', qty: 1 }], 10)).toThrow(
      'a movement of kind corrected cannot have qty 1',
    );
    expect(() => controlledRegister([{ at: 'x', kind: 'adjusted', qty: 1.5 }], 10)).toThrow(
      'a movement of kind adjusted cannot have qty 1.5',
    );
  });
});
