import { z } from 'zod';
import { BusinessTypeSlug } from '../common.js';

export const BusinessType = z
  .object({ slug: BusinessTypeSlug, name: z.string(), name_swahili: z.string(), description: z.string() })
  .meta({ id: 'BusinessType' });
export const Region = z.object({ slug: z.string(), name: z.string(), districts: z.array(z.string()) }).meta({ id: 'Region' });
export const OutletType = z.object({ slug: z.string(), name: z.string() }).meta({ id: 'OutletType' });
export type Region = z.infer<typeof Region>;
export type BusinessType = z.infer<typeof BusinessType>;
