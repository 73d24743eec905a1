import { z } from 'zod';
import { ErrorItem } from '../errors.js';

/** The catalogue CSV's columns (issue 54): an export has them in this order, an import in any order. */
export const CATALOGUE_COLUMNS = [
  'name',
  'sku',
  'barcode',
  'category',
  'selling_price',
  'cost_price',
  'stock',
  'reorder_point',
  'unit',
] as const;
export type CatalogueColumn = (typeof CATALOGUE_COLUMNS)[number];

/** At most this many products in one import. */
export const CATALOGUE_IMPORT_MAX_ROWS = 5000;

export const ImportProductsInput = z
  .object({
    csv: z
      .string()
      .min(1)
      .meta({
        description: `The catalogue as CSV (UTF-8, comma separated, a header row naming the columns in any order: ${CATALOGUE_COLUMNS.join(', ')}; name is required, the others may be blank or left out); up to ${CATALOGUE_IMPORT_MAX_ROWS} products`,
      }),
    dry_run: z.boolean().optional().meta({ description: 'true: check every row and answer a preview, writing nothing' }),
  })
  .meta({ id: 'ImportProductsInput' });
export type ImportProductsInput = z.infer<typeof ImportProductsInput>;

/** One parsed row of the file, as it would be created. */
export const ImportPreviewRow = z
  .object({
    row: z.int().meta({ description: 'The row as a spreadsheet numbers it: the header is row 1, the first product row 2' }),
    name: z.string(),
    sku: z.string().nullable(),
    barcode: z.string().nullable(),
    category: z.string().nullable(),
    selling_price: z.number().nullable(),
    cost_price: z.number().nullable(),
    stock: z.number().nullable(),
    reorder_point: z.number().nullable(),
    unit: z.string().nullable(),
  })
  .meta({ id: 'ImportPreviewRow' });
export type ImportPreviewRow = z.infer<typeof ImportPreviewRow>;

export const ImportProductsPreview = z
  .object({
    rows: z.int().meta({ description: 'Product rows in the file (the header not counted)' }),
    valid: z.int().meta({ description: 'Rows with no problem' }),
    errors: z.array(ErrorItem).meta({
      description: 'Every problem found, `field` as `rows[N].column` (N the spreadsheet row); empty: the file would import',
    }),
    preview: z.array(ImportPreviewRow).meta({ description: 'The first 20 rows as parsed' }),
  })
  .meta({ id: 'ImportProductsPreview' });
export type ImportProductsPreview = z.infer<typeof ImportProductsPreview>;

export const ImportProductsResult = z
  .object({
    created: z.int(),
    categories_created: z.int().meta({ description: 'Categories named in the file that did not exist yet' }),
  })
  .meta({ id: 'ImportProductsResult' });
export type ImportProductsResult = z.infer<typeof ImportProductsResult>;
