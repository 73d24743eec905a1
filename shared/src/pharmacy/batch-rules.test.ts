import { describe, expect, it } from 'vitest';
import { batchExpired, checkBatchTransition, daysToExpiry, expiryAlertDue } from './batch-rules.js';
import { BatchAction, BatchStatus } from './pharmacy-rules.schemas.js';

describe('checkBatchTransition', () => {
  // Hand-written for every status and action: the new status, or the refusal's message.
  const expected: Record<BatchStatus, Record<BatchAction, string>> = {
    sellable: {
      release: 'refused: this batch is already sellable',
      dispose: 'refused: a sellable batch cannot be disposed of',
      recall: 'recalled',
      expire: 'expired',
    },
    quarantined: {
      release: 'sellable',
      dispose: 'disposed',
      recall: 'recalled',
      expire: 'refused: a quarantined batch cannot be expired',
    },
    expired: {
      release: 'refused: an expired batch cannot be released',
      dispose: 'disposed',
      recall: 'refused: an expired batch cannot be recalled',
      expire: 'refused: this batch is already expired',
    },
    recalled: {
      release: 'refused: a recalled batch cannot be released',
      dispose: 'disposed',
      recall: 'refused: this batch is already recalled',
      expire: 'refused: a recalled batch cannot be expired',
    },
    disposed: {
      release: 'refused: a disposed batch cannot be released',
      dispose: 'refused: this batch is already disposed',
      recall: 'refused: a disposed batch cannot be recalled',
      expire: 'refused: a disposed batch cannot be expired',
    },
  };

  for (const from of BatchStatus.options) {
    for (const action of BatchAction.options) {
      it(`${action} from ${from}: ${expected[from][action]}`, () => {
        const found = checkBatchTransition(from, action);
        const outcome = found.breach ? `refused: ${found.breach.message}` : found.to;
        expect(outcome).toBe(expected[from][action]);
        if (found.breach) expect(found.breach.code).toBe('INVALID_STATE');
      });
    }
  }

  it('refuses to release a quarantined batch once it is past expiry, its expiry date included', () => {
    expect(checkBatchTransition('quarantined', 'release', { expiry_date: '2026-11-23', today: '2026-11-23' })).toEqual({
      breach: {
        code: 'INVALID_STATE',
        field: 'expiry_date',
        message: 'this batch expired on 2026-11-23: dispose of it instead of releasing it',
      },
    });
    expect(checkBatchTransition('quarantined', 'release', { expiry_date: '2026-11-24', today: '2026-11-23' })).toEqual({ to: 'sellable' });
  });
});

describe('expiry', () => {
  it('counts whole days to the expiry date, across months, years and a leap day', () => {
    expect(daysToExpiry('2026-11-24', '2026-11-23')).toBe(1);
    expect(daysToExpiry('2026-11-23', '2026-11-23')).toBe(0);
    expect(daysToExpiry('2026-11-20', '2026-11-23')).toBe(-3);
    expect(daysToExpiry('2027-02-21', '2026-11-23')).toBe(90);
    expect(daysToExpiry('2028-03-01', '2028-02-28')).toBe(2);
  });

  it('treats the expiry date itself as past expiry', () => {
    expect(batchExpired('2026-11-22', '2026-11-23')).toBe(true);
    expect(batchExpired('2026-11-23', '2026-11-23')).toBe(true);
    expect(batchExpired('2026-11-24', '2026-11-23')).toBe(false);
  });

  it('is due for an alert from alert_days before expiry until the day before it', () => {
    const due = (expiry_date: string, alert_days = 90) => expiryAlertDue({ expiry_date, alert_days, today: '2026-11-23' });
    expect(due('2027-02-22')).toBe(false);
    expect(due('2027-02-21')).toBe(true);
    expect(due('2026-11-24')).toBe(true);
    expect(due('2026-11-23')).toBe(false);
    expect(due('2026-11-24', 0)).toBe(false);
  });

  it('refuses a date that is not YYYY-MM-DD', () => {
    expect(() => daysToExpiry('23/11/2026', '2026-11-23')).toThrow('not a YYYY-MM-DD date: 23/11/2026');
  });
});
