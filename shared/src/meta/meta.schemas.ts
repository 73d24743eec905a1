import { z } from 'zod';
import { BusinessTypeSlug } from '../common.js';
import { OutletType } from '../pharmacy/pharmacy.schemas.js';

export const BusinessType = z
  .object({ slug: BusinessTypeSlug, name: z.string(), name_swahili: z.string(), description: z.string() })
  .meta({ id: 'BusinessType' });
export const Region = z.object({ slug: z.string(), name: z.string(), districts: z.array(z.string()) }).meta({ id: 'Region' });
/** An outlet type as `/meta/outlet-types` describes it (the enumeration itself is `OutletType`). */
export const OutletTypeInfo = z.object({ slug: OutletType, name: z.string() }).meta({ id: 'OutletType' });
export type Region = z.infer<typeof Region>;
export type BusinessType = z.infer<typeof BusinessType>;
