import { readFileSync } from 'node:fs';
import { BusinessType, Envelope, OutletTypeEntry, Region } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const census = JSON.parse(readFileSync(new URL('../../server/src/modules/meta/tz-regions.json', import.meta.url), 'utf8')) as {
  regions: Array<{ slug: string; name: string; councils: Array<{ name: string }> }>;
};

describe('reference data', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('lists the four business types with Swahili names, without a token', async () => {
    const res = await t.request('GET', '/meta/business-types');
    expect(res.status).toBe(200);
    const { data } = Envelope(z.array(BusinessType)).parse(res.body);
    expect(data.map((b) => b.slug)).toEqual(['retail', 'wholesale', 'retail_wholesale', 'pharmacy']);
    expect(data.find((b) => b.slug === 'wholesale')!.name_swahili).toBe('Jumla');
    expect(data.every((b) => b.name_swahili.length > 0)).toBe(true);
  });

  it("lists all 31 regions with their councils' distinct names as districts", async () => {
    const res = await t.request('GET', '/meta/regions');
    const { data } = Envelope(z.array(Region)).parse(res.body);
    expect(data).toHaveLength(31);
    const dodoma = data.find((r) => r.slug === 'dodoma')!;
    // Kondoa has a district council and a town council: one district.
    expect(dodoma.districts).toEqual(['Kondoa', 'Mpwapwa', 'Kongwa', 'Chamwino', 'Dodoma', 'Bahi', 'Chemba']);
    for (const region of census.regions) {
      expect(data.find((r) => r.slug === region.slug)!.districts).toEqual([...new Set(region.councils.map((c) => c.name))]);
    }
  });

  it("answers a region's districts by slug, and 404 for an unknown region", async () => {
    const res = await t.request('GET', '/meta/regions/dodoma/districts');
    expect(res.status).toBe(200);
    expect(res.body.data).toContain('Chamwino');
    const missing = await t.request('GET', '/meta/regions/atlantis/districts');
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].code).toBe('NOT_FOUND');
  });

  it('lists the pharmacy outlet types', async () => {
    const res = await t.request('GET', '/meta/outlet-types');
    const { data } = Envelope(z.array(OutletTypeEntry)).parse(res.body);
    expect(data.map((o) => o.slug)).toEqual(['pharmacy', 'addo']);
  });
});
