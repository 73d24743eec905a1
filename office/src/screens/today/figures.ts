/**
 * What Today shows, read from the routes the user may call (a figure behind a route the user may
 * not call is left out, not shown as zero): the day's sales, the cash the open shifts should hold,
 * mobile money confirmed against waiting, low stock, open shifts, the tills last seen, conflicts
 * waiting and credit due; and, for an owner of more than one store, each store's sales today.
 */
import type {
  CustomerWithCredit,
  TillDevice,
  PaymentReconciliation,
  PosSummary,
  Product,
  SyncConflict,
  StoreList,
  StoreWithKpis,
  SyncRefusal,
  TillShift,
  TillShiftWithReport,
} from '@duka/shared';
import { may, profile } from '../../access.js';
import { api, get } from '../../api.js';
import { today } from '../../i18n/lang.js';

export interface Figures {
  summary?: PosSummary;
  cashExpected?: number;
  mobile?: { confirmed: number; waiting: number };
  lowStock?: Product[];
  openShifts?: TillShift[];
  conflicts?: number;
  /** What the server refused of the tills' pushes in the last week. */
  refusals?: number;
  credit?: { customers: number; overdue: number; outstanding: number };
  /** The session's store's tills still in service, most recently heard from first. */
  tills?: TillDevice[];
  /** Every active store of the organisation with its sales today, for the owner's all-stores panel. */
  stores?: StoreWithKpis[];
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

async function cashExpected(shifts: TillShift[]): Promise<number> {
  const reports = await Promise.all(shifts.map((s) => get<TillShiftWithReport>(`/pos/shifts/${s.id}`)));
  return sum(reports.map((r) => Number(r.report.methods.find((m) => m.method === 'Cash')?.expected ?? 0)));
}

/** Each figure on its own: one the server cannot give now is left out, the others still show. Rejects only when none came. */
export async function readFigures(): Promise<Figures> {
  const f: Figures = {};
  const day = today();
  const reads = await Promise.allSettled([
    may('GET /pos/summary') && get<PosSummary>('/pos/summary').then((s) => (f.summary = s)),
    may('GET /pos/shifts') &&
      api<TillShift[]>('GET', '/pos/shifts', { query: { status: 'open', page_size: 100 } }).then(async (a) => {
        f.openShifts = a.data;
        f.cashExpected = await cashExpected(a.data);
      }),
    may('GET /payments/reconciliation') &&
      get<PaymentReconciliation>('/payments/reconciliation', { date: day }).then((r) => {
        f.mobile = {
          confirmed: sum(r.wallets.map((w) => Number(w.confirmed.amount))),
          waiting: sum(r.wallets.map((w) => Number(w.unverified.amount))),
        };
      }),
    may('GET /inventory/low-stock') && get<Product[]>('/inventory/low-stock').then((p) => (f.lowStock = p)),
    may('GET /sync/conflicts') &&
      api<SyncConflict[]>('GET', '/sync/conflicts', { query: { resolved: false, page_size: 1 } }).then(
        (a) => (f.conflicts = a.meta?.total ?? a.data.length),
      ),
    may('GET /sync/devices') &&
      get<TillDevice[]>('/sync/devices').then((all) => {
        const store = profile.value?.store?.id;
        f.tills = all
          .filter((d) => !d.retired_at && d.store_id === store)
          .sort((a, b) => (b.last_seen_at ?? '').localeCompare(a.last_seen_at ?? ''));
      }),
    may('GET /sync/refusals') &&
      api<SyncRefusal[]>('GET', '/sync/refusals', { query: { days: 7, page_size: 1 } }).then(
        (a) => (f.refusals = a.meta?.total ?? a.data.length),
      ),
    may('GET /customers/credits') &&
      get<CustomerWithCredit[]>('/customers/credits').then((c) => {
        f.credit = {
          customers: c.length,
          overdue: c.filter((x) => x.overdue_count > 0).length,
          outstanding: sum(c.map((x) => Number(x.total_outstanding))),
        };
      }),
    may('GET /stores') && get<StoreList>('/stores', { status: 'active' }).then((list) => (f.stores = list.items)),
  ]);
  const failed = reads.filter((r) => r.status === 'rejected');
  if (failed.length && failed.length === reads.filter((r) => r.status === 'rejected' || r.value !== false).length) throw failed[0]!.reason;
  return f;
}
