/**
 * "Count stock" (issue 52, docs/inventory.md "Counting on the browser till"): the cashier picks an
 * open stock-take of the store, then scans (each scan counts one: a pack's barcode its units, a
 * scale label its weight, a measured product's own barcode asks how much) or types a quantity on a
 * product's row, and sees what this till counted of each. Offline too: the till keeps the open
 * counts it last fetched and queues every count (`till.count`), sent when it is back online.
 */
import type { Till, TillCount, TillStockTake } from '@duka/client-sdk';
import { type Product, quantityText } from '@duka/shared';
import { useEffect, useRef, useState } from 'preact/hooks';
import { measured, parseScan } from '../cart.js';
import { formatTime, t } from '../i18n.js';
import { inOrder } from '../in-order.js';
import { countedHere, countRows } from '../stock-count.js';
import { CountAsk, CountRowItem } from './count-inputs.js';
import { errorText } from './errors.js';
import { html } from './html.js';
import { useLoad } from './hooks.js';

export function StockCount({ till, version }: { till: Till; version: number }) {
  const [take, setTake] = useState<TillStockTake | null>(null);
  return take
    ? html`<${CountTake} till=${till} version=${version} take=${take} onBack=${() => setTake(null)} />`
    : html`<${PickTake} till=${till} onPick=${setTake} />`;
}

function PickTake({ till, onPick }: { till: Till; onPick: (take: TillStockTake) => void }) {
  const [again, setAgain] = useState(0);
  const [found, setFound] = useState<{ takes: TillStockTake[]; error: string | null } | null>(null);
  useEffect(() => {
    let live = true;
    till.openStockTakes().then(
      (takes) => live && setFound({ takes, error: null }),
      (e: unknown) => live && setFound({ takes: [], error: errorText(e) }),
    );
    return () => void (live = false);
  }, [till, again]);
  return html`
    <section class="stock-count" data-testid="count-pick">
      <h2>${t('count.pick')}</h2>
      ${found?.error ? html`<p class="error" role="alert" data-testid="count-error">${found.error}</p>` : null}
      ${found && !found.error && found.takes.length === 0 ? html`<p class="empty" data-testid="count-none">${t('count.none')}</p>` : null}
      <ul>
        ${(found?.takes ?? []).map(
          (s) => html`
            <li key=${s.id}>
              <button data-testid="count-take" data-stock-take-id=${s.id} onClick=${() => onPick(s)}>
                <strong>${s.note ?? t('count.take', { date: formatTime(s.opened_at) })}</strong>
                <span class="hint"> · ${t('count.products', { n: s.product_ids.length })}</span>
              </button>
            </li>`,
        )}
      </ul>
      <button data-testid="count-refresh" onClick=${() => setAgain((n) => n + 1)}>${t('count.refresh')}</button>
      <p class="hint">${t('count.offline_note')}</p>
    </section>
  `;
}

/** What a scan came to: counted at once, a measured product asking how much, or no such code. */
type Scanned = { kind: 'counted'; count: TillCount } | { kind: 'ask'; product: Product } | { kind: 'unknown'; code: string };

async function countScan(till: Till, take: TillStockTake, typed: string): Promise<Scanned> {
  const { code, qty } = parseScan(typed);
  const product = await till.productByCode(code);
  if (!product) return { kind: 'unknown', code };
  const own = !product.scale_label && !product.scanned_pack;
  if (own && measured(product) && take.product_ids.includes(product.id)) return { kind: 'ask', product };
  // `3*code` counts 3 (of the pack, when it is a pack's barcode); a label says its weight itself.
  return { kind: 'counted', count: await till.count(take.id, code, qty === 1 || product.scale_label ? undefined : qty) };
}

function CountTake({ till, version, take, onBack }: { till: Till; version: number; take: TillStockTake; onBack: () => void }) {
  const [tick, setTick] = useState(0);
  const [query, setQuery] = useState('');
  const [notice, setNotice] = useState<{ text: string; error: boolean } | null>(null);
  const [asking, setAsking] = useState<Product | null>(null);
  // Looked up at once, shown in the order scanned (in-order.ts).
  const [scans] = useState(inOrder);
  const field = useRef<HTMLInputElement>(null);
  const products = useLoad(
    () => Promise.all(take.product_ids.map((id) => till.product(id))),
    [till, take.id, version],
    [] as (Product | null)[],
  );
  const totals = useLoad(() => till.stockTakeTotals(take.id), [till, take.id, version, tick], {} as Record<string, number>);

  const counted = (c: TillCount) => {
    const total = quantityText(c.till_total, c.unit);
    setNotice({ text: t('count.added', { name: c.name, qty: quantityText(c.qty, c.unit), total }), error: false });
    setTick((n) => n + 1);
    // Back to the scan field, so the next scan is not typed into a row's quantity.
    field.current?.focus();
  };
  const failed = (e: unknown) => setNotice({ text: errorText(e), error: true });
  const count = (productId: string, qty: number) => void till.count(take.id, productId, qty).then(counted, failed);
  const scan = (e: Event) => {
    e.preventDefault();
    // From the field itself: a scanner types faster than the app re-renders.
    const typed = (field.current?.value ?? '').trim();
    if (field.current) field.current.value = '';
    if (!typed) return;
    void scans(
      countScan(till, take, typed),
      (found) => {
        if (found.kind === 'counted') counted(found.count);
        else if (found.kind === 'ask') setAsking(found.product);
        else setNotice({ text: t('products.not_found', { code: found.code }), error: true });
      },
      failed,
    );
  };
  const ask = (qty: number) => {
    if (asking) count(asking.id, qty);
    setAsking(null);
    field.current?.focus();
  };

  const rows = countRows(take, products, totals, query);
  return html`
    <section class="stock-count" data-testid="count-screen" data-stock-take-id=${take.id}>
      <h2>${take.note ?? t('count.take', { date: formatTime(take.opened_at) })}</h2>
      <button data-testid="count-back" onClick=${onBack}>${t('count.back')}</button>
      <p class="hint" data-testid="count-progress">${t('count.progress', { n: countedHere(take, totals), total: take.product_ids.length })}</p>
      <form class="scan" onSubmit=${scan}>
        <input ref=${field} data-testid="count-scan" autofocus inputmode="numeric" autocomplete="off" placeholder=${t('count.scan')} />
      </form>
      ${notice ? html`<p class=${notice.error ? 'error' : 'note'} role=${notice.error ? 'alert' : 'status'} data-testid="count-notice">${notice.text}</p>` : null}
      <input type="search" class="search" data-testid="count-search" placeholder=${t('count.search')} value=${query}
        onInput=${(e: any) => setQuery(e.currentTarget.value)} />
      <ul class="count-rows">
        ${rows.map((r) => html`<${CountRowItem} key=${r.id} row=${r} onCount=${(qty: number) => count(r.id, qty)} />`)}
      </ul>
      <p class="hint">${t('count.offline_note')}</p>
      ${asking ? html`<${CountAsk} product=${asking} onCount=${ask} onCancel=${() => (setAsking(null), field.current?.focus())} />` : null}
    </section>
  `;
}
