import { Envelope, type PublicReviewList, StoreReview } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('reviews', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const post = (s: { token: string } | null, body: Record<string, unknown>) => t.request('POST', '/reviews', { token: s?.token, body });
  const review = async (s: Session, body: Record<string, unknown>) => {
    const res = await post(s, body);
    expect(res.status, res.text).toBe(200);
    return Envelope(StoreReview).parse(res.body).data;
  };
  const publicList = async (query = '') => {
    const res = await t.request('GET', `/reviews/public${query}`);
    expect(res.status, res.text).toBe(200);
    return res.body.data as PublicReviewList;
  };

  it('records a review from the active store; ratings outside 1 to 5 are refused', async () => {
    const owner = await registerOwner(t, {
      shop: { name: 'Duka la Neema', business_type: 'retail', region: 'arusha', district: 'Arusha' },
    });
    const r = await review(owner, { rating: 5, title: 'Asante', body: 'The till works without internet', trigger: 'post_sale' });
    expect(r).toEqual({
      id: expect.any(String),
      rating: 5,
      title: 'Asante',
      body: 'The till works without internet',
      trigger: 'post_sale',
      store_name: 'Duka la Neema',
      store_id: owner.storeId,
      created_at: new Date(t.clock.now()).toISOString(),
    });
    expect(await review(owner, { rating: 1 })).toMatchObject({ rating: 1, title: '', body: '', trigger: 'manual' });
    for (const rating of [0, 6, 3.5, '4', null]) {
      const res = await post(owner, { rating, title: 'x' });
      expect(res.status, String(rating)).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ code: 'VALIDATION_ERROR', field: 'rating' });
    }
    expect((await post(owner, { rating: 4, trigger: 'email' })).status).toBe(400);
    const stored = await t.db.db
      .selectFrom('reviews')
      .select(['org_id', 'store_id', 'user_id'])
      .where('id', '=', r.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ org_id: owner.orgId, store_id: owner.storeId, user_id: owner.userId });
  });

  it('lists reviews publicly, newest first, with only the public fields, honouring the limit', async () => {
    const before = (await publicList()).count;
    const a = await registerOwner(t, {
      shop: { name: 'Mama Asha Duka', business_type: 'retail', region: 'dar-es-salaam', district: 'Kinondoni' },
    });
    const b = await registerOwner(t, {
      shop: { name: 'Juma Wholesale', business_type: 'wholesale', region: 'mwanza', district: 'Ilemela' },
    });
    const made: StoreReview[] = [];
    for (let i = 0; i < 25; i++) {
      t.clock.advance(1000);
      made.push(await review(i % 2 ? b : a, { rating: (i % 5) + 1, title: `Review ${i}`, body: `Body ${i}`, trigger: 'prompted' }));
    }
    const newest = [...made].reverse();

    const list = await publicList();
    expect(list.count).toBe(before + 25);
    expect(list.items).toHaveLength(20);
    expect(list.items.map((r) => r.title)).toEqual(newest.slice(0, 20).map((r) => r.title));
    for (const item of list.items)
      expect(Object.keys(item).sort()).toEqual(['body', 'created_at', 'id', 'rating', 'store_name', 'title', 'trigger']);
    expect(list.items[0]).toEqual({
      id: made[24]!.id,
      rating: 5,
      title: 'Review 24',
      body: 'Body 24',
      trigger: 'prompted',
      store_name: 'Mama Asha Duka',
      created_at: made[24]!.created_at,
    });
    expect(list.items[1]).toMatchObject({ title: 'Review 23', store_name: 'Juma Wholesale' });
    expect(JSON.stringify(list)).not.toContain(a.orgId);
    expect(JSON.stringify(list)).not.toContain(a.userId);

    expect((await publicList('?limit=3')).items.map((r) => r.title)).toEqual(['Review 24', 'Review 23', 'Review 22']);
    expect((await publicList('?limit=500')).items.length).toBe(Math.min(100, before + 25));
    expect((await t.request('GET', '/reviews/public?limit=0')).status).toBe(400);
    expect((await t.request('GET', '/reviews/public?limit=abc')).status).toBe(400);
  });
});
