import { AiCredits, Envelope } from '@duka/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, registerOwner } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('GET /accounts/ai-credits', () => {
  let t: TestApp;
  let start: number;
  beforeAll(async () => {
    t = await createTestApp();
    start = t.clock.now();
  });
  afterAll(() => t.close());
  // Tests that move the clock put it back, so none depends on another's time.
  afterEach(() => t.clock.advance(start - t.clock.now()));

  const credits = async (token: string) => {
    const res = await t.request('GET', '/accounts/ai-credits', { token });
    expect(res.status, res.text).toBe(200);
    return Envelope(AiCredits).parse(res.body).data;
  };
  const use = (orgId: string, month: string, used: number) =>
    t.db.db
      .insertInto('ai_credit_usage')
      .values({ org_id: orgId, month, used, tokens: used * 500 })
      .execute();
  /** Dar es Salaam is UTC+3 all year (no daylight saving). */
  const darMonth = (ms: number) => new Date(ms + 3 * 3_600_000).toISOString().slice(0, 7);
  const setClock = (iso: string) => t.clock.advance(Date.parse(iso) - t.clock.now());

  it('starts each organisation with the whole monthly allocation', async () => {
    const owner = await registerOwner(t);
    expect(await credits(owner.token)).toEqual({ used: 0, allocated: 100, remaining: 100, month: darMonth(t.clock.now()), percentage: 0 });
  });

  it("counts this month's usage of the organisation only, for owner and staff alike", async () => {
    const owner = await registerOwner(t);
    const staff = await createStaff(t, owner);
    const other = await registerOwner(t);
    const month = darMonth(t.clock.now());
    await use(owner.orgId, month, 25);
    await use(owner.orgId, '2020-01', 90);
    await use(other.orgId, month, 60);

    const expected = { used: 25, allocated: 100, remaining: 75, month, percentage: 25 };
    expect(await credits(owner.token)).toEqual(expected);
    expect(await credits(staff.token)).toEqual(expected);
    expect((await credits(other.token)).used).toBe(60);
  });

  it('never reports negative remaining credit', async () => {
    const owner = await registerOwner(t);
    await use(owner.orgId, darMonth(t.clock.now()), 130);
    expect(await credits(owner.token)).toMatchObject({ used: 130, allocated: 100, remaining: 0, percentage: 130 });
  });

  it('follows the organisation allocation when one is configured', async () => {
    const owner = await registerOwner(t);
    await t.db.db.updateTable('organisations').set({ ai_credits_monthly: 300 }).where('id', '=', owner.orgId).execute();
    await use(owner.orgId, darMonth(t.clock.now()), 1);
    expect(await credits(owner.token)).toMatchObject({ used: 1, allocated: 300, remaining: 299, percentage: 0.33 });
  });

  it('turns the month at midnight in Dar es Salaam, not at midnight UTC', async () => {
    setClock('2026-11-30T20:55:00Z'); // 23:55 on 30 November in Dar es Salaam
    const owner = await registerOwner(t);
    await use(owner.orgId, '2026-11', 40);
    await use(owner.orgId, '2026-12', 7);
    expect(await credits(owner.token)).toEqual({ used: 40, allocated: 100, remaining: 60, month: '2026-11', percentage: 40 });

    setClock('2026-11-30T21:05:00Z'); // still November in UTC, already 00:05 on 1 December in Dar es Salaam
    expect(await credits(owner.token)).toEqual({ used: 7, allocated: 100, remaining: 93, month: '2026-12', percentage: 7 });
  });

  it('uses the time zone set on the organisation', async () => {
    setClock('2026-11-30T21:30:00Z');
    const owner = await registerOwner(t);
    expect((await credits(owner.token)).month).toBe('2026-12');
    const patched = await t.request('PATCH', '/accounts/organisation', { token: owner.token, body: { timezone: 'UTC' } });
    expect(patched.status).toBe(200);
    expect((await credits(owner.token)).month).toBe('2026-11');
  });

  // No token: test/api/access-rules.test.ts.
});
