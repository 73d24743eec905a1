/** Reference data: business and outlet types, and Tanzania's regions and districts (2022 census). */
import { readFileSync } from 'node:fs';
import { OutletType } from '@duka/shared';
import type { BusinessType, OutletTypeEntry, Region } from '@duka/shared';

export const BUSINESS_TYPES: BusinessType[] = [
  { slug: 'retail', name: 'Retail', name_swahili: 'Rejareja', description: 'Sells to customers in single units: duka, kiosk, minimarket.' },
  { slug: 'wholesale', name: 'Wholesale', name_swahili: 'Jumla', description: 'Sells in bulk to other shops and traders.' },
  {
    slug: 'retail_wholesale',
    name: 'Retail and wholesale',
    name_swahili: 'Rejareja na jumla',
    description: 'Sells both single units and in bulk, with wholesale prices from a minimum quantity.',
  },
  {
    slug: 'pharmacy',
    name: 'Pharmacy',
    name_swahili: 'Famasia (duka la dawa)',
    description: 'Dispenses medicines; returned medicine is quarantined.',
  },
];

/** A name per slug of the shared enum: a new outlet type does not compile until it is named here. */
const OUTLET_TYPE_NAMES: Record<OutletType, string> = {
  pharmacy: 'Pharmacy',
  addo: 'Accredited Drug Dispensing Outlet (ADDO / DLDM)',
};
export const OUTLET_TYPES: OutletTypeEntry[] = OutletType.options.map((slug) => ({ slug, name: OUTLET_TYPE_NAMES[slug] }));

interface RawRegions {
  regions: Array<{ slug: string; name: string; councils: Array<{ type: string; name: string }> }>;
}

const raw = JSON.parse(readFileSync(new URL('./tz-regions.json', import.meta.url), 'utf8')) as RawRegions;

/** A region's districts are its councils' distinct names, in census order. */
export const REGIONS: Region[] = raw.regions.map((r) => ({
  slug: r.slug,
  name: r.name,
  districts: [...new Set(r.councils.map((c) => c.name))],
}));

const fold = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');

export function findRegion(slugOrName: string): Region | undefined {
  const key = fold(slugOrName);
  return REGIONS.find((r) => fold(r.slug) === key || fold(r.name) === key);
}

/**
 * Registration's region and district: a known region is stored as its slug and a known district
 * with the census spelling; unknown values are kept as given.
 */
export function normaliseLocation(region?: string, district?: string): { region: string | null; district: string | null } {
  const known = region ? findRegion(region) : undefined;
  const knownDistrict = known && district ? known.districts.find((d) => fold(d) === fold(district)) : undefined;
  return { region: known?.slug ?? region ?? null, district: knownDistrict ?? district ?? null };
}
