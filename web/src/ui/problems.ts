/**
 * What the cashier and the owner must act on after a sync: work the server refused (each told in
 * the till's language with what became of the money and the stock, and marked dealt with), and
 * conflicts the server noted while booking offline sales (a sentence in the till's language, a link
 * to the sale's receipt, and "seen" to take it off this till's list; the owner still resolves it on
 * the server). The server's own English sentence is kept underneath for the figures.
 */
import type { QueuedMutation, Receipt, Till, TillConflict } from '@duka/client-sdk';
import { tzs } from '../format.js';
import { formatTime, lang, type MessageKey, t } from '../i18n.js';
import { useLoad, useSignal } from './hooks.js';
import { html } from './html.js';

interface Props {
  till: Till;
  version: number;
  onChanged: () => void;
  onView: (r: Receipt) => void;
}

const REFUSED_KINDS = ['sale.create', 'sale.refund', 'sale.void', 'credit.payment', 'expense.create', 'stock.adjust'] as const;

/** The refused mutation in words, with the sale it touched when there is one. */
async function refusedText(till: Till, m: QueuedMutation): Promise<{ text: string; sale: Receipt | null }> {
  const p = m.payload as { id?: string; transaction_id?: string; amount?: number };
  const saleId = m.type === 'sale.create' ? p.id : p.transaction_id;
  const sale = saleId ? await till.transaction(saleId) : null;
  const reason = m.error?.message ?? '';
  const receipt = sale?.receipt_number ?? sale?.client_receipt_number ?? '';
  const amount = sale ? sale.total : typeof p.amount === 'number' ? p.amount : 0;
  const key = (REFUSED_KINDS as readonly string[]).includes(m.type) ? (`refused.${m.type}` as MessageKey) : 'refused.other';
  // The sale as the replica has it now: the move undone, and the server's copy pulled (it may have
  // refunded or voided the sale itself, which is often why the move was refused).
  const state = sale ? t(`refused.state.${sale.status}`) : '';
  return { text: t(key, { receipt, total: tzs(amount), reason, type: m.type, state }).replace(/ {2,}/g, ' '), sale };
}

export function Problems({ till, version, onChanged, onView }: Props) {
  // The sentences are made when loaded: made again when the cashier switches language.
  const language = useSignal(lang);
  const refused = useLoad(
    async () => Promise.all((await till.rejected()).map(async (m) => ({ m, ...(await refusedText(till, m)) }))),
    [till, version, language],
    [] as Array<{ m: QueuedMutation; text: string; sale: Receipt | null }>,
  );
  const conflicts = useLoad(
    async () =>
      Promise.all(
        (await till.conflicts()).map(async (c) => ({
          c,
          product: c.product_id ? ((await till.product(c.product_id))?.name ?? null) : null,
          sale: c.transaction_id ? await till.transaction(c.transaction_id) : null,
        })),
      ),
    [till, version],
    [] as Array<{ c: TillConflict; product: string | null; sale: Receipt | null }>,
  );
  const dismissRefused = async (id: string) => (await till.dismissRejected(id), onChanged());
  const dismissConflict = async (id: string) => (await till.dismissConflict(id), onChanged());

  return html`
    <section class="problems" data-testid="problems">
      <h2>${t('problems.refused.title')}</h2>
      <p class="hint">${refused.length === 0 ? t('problems.refused.none') : t('problems.refused.explain')}</p>
      <ul>
        ${refused.map(
          ({ m, text, sale }) => html`
            <li key=${m.id} data-testid="refused" data-type=${m.type} class="warn">
              <span class="message" data-testid="refused-text">${text}</span>
              <time>${formatTime(m.created_at)}</time>
              ${sale ? html`<button class="link" data-testid="refused-receipt" onClick=${() => onView(sale)}>${t('conflict.open_receipt', { receipt: sale.receipt_number ?? sale.client_receipt_number ?? '' })}</button>` : null}
              <button data-testid="refused-dismiss" onClick=${() => dismissRefused(m.id)}>${t('refused.dismiss')}</button>
            </li>
          `,
        )}
      </ul>
      <h2>${t('conflicts.title')}</h2>
      <p class="hint">${conflicts.length === 0 ? t('conflicts.none') : t('conflicts.explain')}</p>
      <ul>
        ${conflicts.map(
          ({ c, product, sale }) => html`
            <li key=${c.id} data-testid="conflict" data-kind=${c.kind}>
              <span class="kind">${t(`conflict.kind.${c.kind}` as MessageKey)}</span>
              <span class="message" data-testid="conflict-text">${t(`conflict.sentence.${c.kind}` as MessageKey, { product: product ?? t('conflict.product') })}</span>
              <small class="server">${c.message}</small>
              <time>${formatTime(c.created_at)}</time>
              ${sale ? html`<button class="link" data-testid="conflict-receipt" onClick=${() => onView(sale)}>${t('conflict.open_receipt', { receipt: sale.receipt_number ?? sale.client_receipt_number ?? '' })}</button>` : null}
              <button data-testid="conflict-dismiss" onClick=${() => dismissConflict(c.id)}>${t('conflict.dismiss')}</button>
            </li>
          `,
        )}
      </ul>
    </section>
  `;
}
