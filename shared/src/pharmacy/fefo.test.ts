import { describe, expect, it } from 'vitest';
import { allocateFefo, type FefoBatch, type FefoInput } from './fefo.js';

const batch = (
  batch_id: string,
  expiry_date: string,
  qty_on_hand: number,
  status: FefoBatch['status'] = 'sellable',
  received_at = 1000,
): FefoBatch => ({
  batch_id,
  lot_number: `LOT-${batch_id}`,
  expiry_date,
  qty_on_hand,
  status,
  received_at,
});
// Sellable, in FEFO order B (Jan), A (Mar), C (Jun).
const A = batch('A', '2027-03-31', 4);
const B = batch('B', '2027-01-31', 3);
const C = batch('C', '2027-06-30', 10);
const amox = { product_id: 'p-amox', name: 'Amoxicillin 500mg' };
const fefo = (qty: number, batches: FefoBatch[], over: Partial<FefoInput> = {}) =>
  allocateFefo({ index: 0, product: amox, qty, batches, today: '2026-11-23', ...over });
const taken = (r: ReturnType<typeof allocateFefo>) => r.allocations.map((a) => `${a.batch_id}:${a.qty}`);

describe('allocateFefo', () => {
  it('takes from the batch that expires first, spanning two batches', () => {
    expect(fefo(5, [A, B, C])).toEqual({
      allocations: [
        { batch_id: 'B', lot_number: 'LOT-B', expiry_date: '2027-01-31', qty: 3 },
        { batch_id: 'A', lot_number: 'LOT-A', expiry_date: '2027-03-31', qty: 2 },
      ],
      shortfall: 0,
      breaches: [],
    });
  });

  it('spans three batches', () => {
    expect(taken(fefo(15, [C, A, B]))).toEqual(['B:3', 'A:4', 'C:8']);
    expect(taken(fefo(17, [C, A, B]))).toEqual(['B:3', 'A:4', 'C:10']);
  });

  it('skips quarantined, recalled, expired and disposed batches, and a sellable one already past expiry', () => {
    const held = [
      batch('Q', '2026-12-01', 5, 'quarantined'),
      batch('R', '2026-12-15', 5, 'recalled'),
      batch('E', '2026-11-20', 5, 'expired'),
      batch('D', '2026-12-02', 5, 'disposed'),
      batch('G', '2026-11-22', 5),
    ];
    expect(taken(fefo(2, [...held, A, B]))).toEqual(['B:2']);
  });

  it('does not sell a batch on its expiry date, and does the day before', () => {
    const H = batch('H', '2026-11-23', 5);
    expect(taken(fefo(2, [H, B]))).toEqual(['B:2']);
    expect(taken(fefo(2, [H, B], { today: '2026-11-22' }))).toEqual(['H:2']);
  });

  it('takes the batch received first when two expire the same day, then by lot number', () => {
    const late = { ...batch('X', '2027-01-31', 2, 'sellable', 3000), lot_number: 'AAA' };
    const early = { ...batch('Y', '2027-01-31', 2, 'sellable', 1000), lot_number: 'ZZZ' };
    expect(taken(fefo(3, [late, early]))).toEqual(['Y:2', 'X:1']);
    const sameDay = { ...late, received_at: 1000 };
    expect(taken(fefo(3, [early, sameDay]))).toEqual(['X:2', 'Y:1']);
  });

  it('reports the shortfall when sellable batches hold too little, with its breach and oversold conflict', () => {
    const result = fefo(9, [A, B, batch('Q', '2026-12-01', 5, 'quarantined')], { index: 2 });
    expect(taken(result)).toEqual(['B:3', 'A:4']);
    expect(result.shortfall).toBe(2);
    expect(result.breaches).toEqual([
      {
        code: 'INSUFFICIENT_STOCK',
        field: 'lines.2.qty',
        message: 'not enough stock of Amoxicillin 500mg: 7 available',
        conflict: {
          kind: 'oversold',
          product_id: 'p-amox',
          message: 'not enough stock of Amoxicillin 500mg: 7 available',
          detail: { qty: 9, allocated: 7, shortfall: 2 },
        },
      },
    ]);
    expect(fefo(1, []).shortfall).toBe(1);
  });

  it("keeps the till's allocation when that batch still holds the units, even if it is not the first to expire", () => {
    expect(fefo(2, [A, B, C], { preferred: [{ batch_id: 'A', qty: 2 }] })).toEqual({
      allocations: [{ batch_id: 'A', lot_number: 'LOT-A', expiry_date: '2027-03-31', qty: 2 }],
      shortfall: 0,
      breaches: [],
    });
    expect(taken(fefo(2, [A, B, C], { preferred: [{ batch_id: 'A', qty: 5 }] }))).toEqual(['A:2']);
  });

  it("keeps what the till's batch still holds and allocates the rest FEFO", () => {
    expect(taken(fefo(6, [A, B, C], { preferred: [{ batch_id: 'A', qty: 6 }] }))).toEqual(['A:4', 'B:2']);
    expect(taken(fefo(5, [A, B, C], { preferred: [{ batch_id: 'C', qty: 1 }] }))).toEqual(['C:1', 'B:3', 'A:1']);
    expect(
      taken(
        fefo(5, [A, B, C], {
          preferred: [
            { batch_id: 'C', qty: 1 },
            { batch_id: 'A', qty: 4 },
          ],
        }),
      ),
    ).toEqual(['C:1', 'A:4']);
  });

  it('allocates FEFO what the till took from a batch the server does not know or has disposed of', () => {
    const D = batch('D', '2026-12-02', 5, 'disposed');
    expect(
      fefo(2, [A, B, D], {
        preferred: [
          { batch_id: 'D', qty: 2 },
          { batch_id: 'nope', qty: 1 },
        ],
      }),
    ).toEqual({
      allocations: [{ batch_id: 'B', lot_number: 'LOT-B', expiry_date: '2027-01-31', qty: 2 }],
      shortfall: 0,
      breaches: [],
    });
  });

  it('books units the till dispensed from a batch recalled meanwhile, and raises the conflict', () => {
    const R = batch('R', '2026-12-15', 5, 'recalled');
    const message = '2 Amoxicillin 500mg dispensed from lot LOT-R (expiry 2026-12-15), recalled at the time';
    expect(fefo(3, [A, B, R], { index: 1, preferred: [{ batch_id: 'R', qty: 2 }] })).toEqual({
      allocations: [
        { batch_id: 'R', lot_number: 'LOT-R', expiry_date: '2026-12-15', qty: 2 },
        { batch_id: 'B', lot_number: 'LOT-B', expiry_date: '2027-01-31', qty: 1 },
      ],
      shortfall: 0,
      breaches: [
        {
          code: 'INVALID_STATE',
          field: 'lines.1.allocations',
          message,
          conflict: {
            kind: 'dispensed_unsellable_batch',
            product_id: 'p-amox',
            message,
            detail: { batch_id: 'R', lot_number: 'LOT-R', expiry_date: '2026-12-15', status: 'recalled', qty: 2 },
          },
        },
      ],
    });
  });

  it('names a batch past its expiry date as expired, even before the midnight job marks it', () => {
    const G = batch('G', '2026-11-23', 5);
    const Q = batch('Q', '2027-05-01', 1, 'quarantined');
    const result = fefo(3, [G, Q], {
      preferred: [
        { batch_id: 'G', qty: 2 },
        { batch_id: 'Q', qty: 1 },
      ],
    });
    expect(taken(result)).toEqual(['G:2', 'Q:1']);
    expect(result.breaches.map((b) => b.message)).toEqual([
      '2 Amoxicillin 500mg dispensed from lot LOT-G (expiry 2026-11-23), expired at the time',
      '1 Amoxicillin 500mg dispensed from lot LOT-Q (expiry 2027-05-01), quarantined at the time',
    ]);
  });

  it('refuses a quantity that is not a whole number of at least 1', () => {
    expect(() => fefo(0, [A])).toThrow('qty must be a positive integer');
    expect(() => fefo(1.5, [A])).toThrow('qty must be a positive integer');
  });
});
