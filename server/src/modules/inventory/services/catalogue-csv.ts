/**
 * The catalogue CSV (issue 54) read into product inputs: csv-parse reads the file, each row becomes
 * a CreateProductInput checked by the same schema and quantity rules POST /inventory/products
 * applies, each problem an error item whose field is `rows[N].column`, N the row as a spreadsheet
 * numbers it (the header is row 1).
 */
import { CATALOGUE_COLUMNS, type CatalogueColumn, CreateProductInput, type ErrorItem, type ImportPreviewRow } from '@duka/shared';
import { parse } from 'csv-parse/sync';
import { ServiceError } from '../../../lib/errors.js';
import { issueMessage, type Language } from '../../../lib/language.js';
import { productCounts } from './product-units.js';

const NUMERIC = new Set<CatalogueColumn>(['selling_price', 'cost_price', 'stock', 'reorder_point']);

export interface CatalogueRow {
  /** The spreadsheet's row number (header = 1). */
  row: number;
  input: CreateProductInput;
  category: string | null;
  /** Cells as read, for the preview. */
  cells: Partial<Record<CatalogueColumn, string>>;
}

export const rowField = (row: number, column: string) => `rows[${row}].${column}`;

/** A cell as a number: plain digits, a point for decimals, commas between thousands allowed; null when it is not one. */
function numberOf(cell: string): number | null {
  const plain = /^\d{1,3}(,\d{3})+(\.\d+)?$/.test(cell) ? cell.replaceAll(',', '') : cell;
  return /^-?\d+(\.\d+)?$/.test(plain) ? Number(plain) : null;
}

/** The header and the records of the file; a header naming an unknown or repeated column is refused (400). */
export function readCatalogue(csv: string): { header: CatalogueColumn[]; records: string[][] } {
  let table: string[][];
  try {
    table = parse(csv, { bom: true, skip_empty_lines: true, relax_column_count: true, trim: true });
  } catch (err) {
    throw new ServiceError('VALIDATION_ERROR', `the file is not readable as CSV: ${(err as Error).message}`, {
      errors: [{ code: 'VALIDATION_ERROR', field: 'csv', message: `is not readable as CSV: ${(err as Error).message}` }],
    });
  }
  const [head = [], ...records] = table;
  const header = head.map((h) => h.toLowerCase());
  const problems: ErrorItem[] = [];
  header.forEach((h, i) => {
    if (!(CATALOGUE_COLUMNS as readonly string[]).includes(h))
      problems.push({
        code: 'VALIDATION_ERROR',
        field: 'csv',
        message: `column ${i + 1} "${head[i]}" is not one of ${CATALOGUE_COLUMNS.join(', ')}`,
      });
    else if (header.indexOf(h) !== i) problems.push({ code: 'VALIDATION_ERROR', field: 'csv', message: `column "${h}" appears twice` });
  });
  if (!header.includes('name')) problems.push({ code: 'VALIDATION_ERROR', field: 'csv', message: 'the header row has no "name" column' });
  if (problems.length) throw new ServiceError('VALIDATION_ERROR', problems[0]!.message, { errors: problems });
  return { header: header as CatalogueColumn[], records };
}

/** One record as a product input, or its problems. */
/** `language`: the request's, for zod's messages about a cell (the rules' own words stay as written). */
export function rowInput(
  header: CatalogueColumn[],
  record: string[],
  row: number,
  language: Language = 'en',
): { row: CatalogueRow } | { errors: ErrorItem[] } {
  const errors: ErrorItem[] = [];
  const fault = (column: string, message: string) => errors.push({ code: 'VALIDATION_ERROR', field: rowField(row, column), message });
  if (record.length > header.length) fault('csv', `has ${record.length} cells, the header ${header.length}`);
  const cells: Partial<Record<CatalogueColumn, string>> = {};
  const raw: Record<string, unknown> = {};
  header.forEach((column, i) => {
    const cell = record[i] ?? '';
    cells[column] = cell;
    if (cell === '' || column === 'category') return;
    if (!NUMERIC.has(column)) raw[column] = cell;
    else {
      const n = numberOf(cell);
      if (n === null) fault(column, `must be a number, not "${cell}"`);
      else raw[column] = n;
    }
  });
  const parsed = CreateProductInput.safeParse(raw);
  if (!parsed.success)
    for (const issue of parsed.error.issues)
      if (!errors.some((e) => e.field === rowField(row, String(issue.path[0]))))
        fault(issue.path.join('.') || 'name', issueMessage(issue, language));
  if (errors.length || !parsed.success) return { errors };
  try {
    productCounts(parsed.data, null);
  } catch (err) {
    const item = (err as ServiceError).extra?.errors?.[0];
    if (!item?.field) throw err;
    return { errors: [{ ...item, field: rowField(row, item.field) }] };
  }
  return { row: { row, input: parsed.data, category: cells.category || null, cells } };
}

/** A parsed row as the preview shows it. */
export function previewOf(r: CatalogueRow): ImportPreviewRow {
  const i = r.input;
  return {
    row: r.row,
    name: i.name,
    sku: i.sku ?? null,
    barcode: i.barcode ?? null,
    category: r.category,
    selling_price: i.selling_price ?? null,
    cost_price: i.cost_price ?? null,
    stock: i.stock ?? null,
    reorder_point: i.reorder_point ?? null,
    unit: i.unit ?? null,
  };
}
