/** The registers as CSV files, written by the reports' CSV writer (formula-like text defused). */
import { type ControlledRegisterQuery, type DisposalRegisterQuery, toCents } from '@duka/shared';
import type { AuthedContext } from '../../../lib/context.js';
import { localDate, localTime } from '../../../lib/time.js';
import type { Column } from '../../reports/reports.exports.js';
import { csvText } from '../../reports/reports.exports.js';
import { readControlledRegister, readDisposalRegister } from './registers.js';

export interface CsvFile {
  fileName: string;
  text: string;
}

const cols = (...keys: string[]): Column[] => keys.map((key) => ({ key }));

export async function controlledRegisterCsv(ctx: AuthedContext, q: ControlledRegisterQuery): Promise<CsvFile> {
  const r = await readControlledRegister(ctx, q);
  const when = (at: string) => ({ date: localDate(Date.parse(at), r.timezone), time: localTime(Date.parse(at), r.timezone) });
  const rows = [
    { date: r.date_from, time: '00:00:00', kind: 'opening_balance', balance: r.opening_balance },
    ...r.lines.map((l) => ({
      ...when(l.at),
      kind: l.kind,
      lot_number: l.lot_number,
      expiry_date: l.expiry_date,
      qty: l.qty,
      balance: l.balance,
      units: l.units,
      status_from: l.status_from,
      status_to: l.status_to,
      reference: l.reference,
      note: l.note,
      user: l.user_name,
    })),
  ];
  const columns = cols(
    'date',
    'time',
    'kind',
    'lot_number',
    'expiry_date',
    'qty',
    'balance',
    'units',
    'status_from',
    'status_to',
    'reference',
    'note',
    'user',
  );
  return { fileName: `controlled-register_${r.date_from}_to_${r.date_to}.csv`, text: await csvText(columns, rows) };
}

export async function disposalRegisterCsv(ctx: AuthedContext, q: DisposalRegisterQuery): Promise<CsvFile> {
  const r = await readDisposalRegister(ctx, q);
  const rows = r.lines.map((l) => ({
    date: l.date,
    product: l.product_name,
    generic_name: l.generic_name,
    strength: l.strength,
    lot_number: l.lot_number,
    expiry_date: l.expiry_date,
    status_from: l.status_from,
    qty: l.qty,
    unit: l.unit,
    reason: l.reason,
    method: l.method,
    witness: l.witness,
    user: l.user_name,
    unit_cost: toCents(l.unit_cost),
    value_at_cost: toCents(l.value_at_cost),
  }));
  const columns = [
    ...cols(
      'date',
      'product',
      'generic_name',
      'strength',
      'lot_number',
      'expiry_date',
      'status_from',
      'qty',
      'unit',
      'reason',
      'method',
      'witness',
      'user',
    ),
    { key: 'unit_cost', money: true },
    { key: 'value_at_cost', money: true },
  ];
  return { fileName: `disposal-register_${r.date_from}_to_${r.date_to}.csv`, text: await csvText(columns, rows) };
}
