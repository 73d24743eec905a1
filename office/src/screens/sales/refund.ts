/**
 * A refund from a sale's page: per line still not given back, how much comes back (decimals for a
 * measured line, "All" for what is left of it), or nothing typed for everything left; the money it
 * comes to shown before confirming (refund-plan.ts: the server's own rules), and the reason. The
 * form's Idempotency-Key goes with it (a retry after a lost answer refunds once). The server
 * chooses which tender part pays (the credit still owed, then the cash, then the rest: docs/pos.md),
 * so there is no method to pick. A refusal is the server's, its line marked.
 */
import type { Transaction, Unit } from '@duka/shared';
import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { num, tsh } from '../../i18n/lang.js';
import { ErrorBanner, Field, useSubmit, useValues } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { t } from './messages.js';
import { type RefundRow, refundPlan, refundRows } from './refund-plan.js';

/** `3`, `1.25 kg`. */
export const qtyText = (qty: number, unit: Unit) => `${num(qty)}${unit === 'piece' ? '' : ` ${unit}`}`;

export function Refund({ sale, onDone, onCancel }: { sale: Transaction; onDone: (sale: Transaction) => void; onCancel: () => void }) {
  const [typed, setTyped] = useState<ReadonlyMap<number, string>>(new Map());
  // The lines of the body last sent: the server names a refused one by its place there.
  const [sent, setSent] = useState<number[]>([]);
  const form = useValues({ reason: '' });
  const plan = refundPlan(sale, typed);
  const save = useSubmit(async (idempotencyKey) => {
    setSent(plan.sent);
    const body = { reason: form.values.reason, ...(plan.lines ? { lines: plan.lines } : {}) };
    onDone((await api<Transaction>('POST', `/pos/transactions/${sale.id}/refund`, { body, idempotencyKey })).data);
  });
  const type = (index: number, value: string) => setTyped(new Map(typed).set(index, value));
  const rows = refundRows(sale).filter((r) => r.left > 0 && !r.repeat);
  const nothing = plan.lines !== undefined && plan.lines.length === 0;

  const line = (r: RefundRow) => {
    const at = sent.indexOf(r.index);
    const field = at >= 0 ? `lines.${at}.qty` : `line-${r.index}`;
    const local = !save.error && plan.fault?.index === r.index ? plan.fault : null;
    const wrong = local
      ? local.kind === 'too_much'
        ? t('refund.too_much', { qty: qtyText(r.left, r.unit) })
        : t(r.decimals ? 'refund.wrong_decimal' : 'refund.wrong_whole')
      : null;
    return html`<li class="refund-line" key=${r.index} data-testid="refund-line" data-index=${r.index}>
      <${Field} label=${r.name} name=${field} error=${save.error}>
        <input data-testid="refund-qty" inputmode=${r.decimals ? 'decimal' : 'numeric'} autocomplete="off" placeholder="0"
          value=${typed.get(r.index) ?? ''} onInput=${(e: Event) => type(r.index, (e.currentTarget as HTMLInputElement).value)} />
        <small class="muted" data-testid="refund-left">${t('refund.left', { sold: qtyText(r.sold, r.unit), left: qtyText(r.left, r.unit) })}</small>
        ${wrong ? html`<small class="error" data-testid="refund-wrong">${wrong}</small>` : null}
      </${Field}>
      <button type="button" data-testid="refund-all" aria-label=${t('refund.all_of', { name: r.name })} onClick=${() => type(r.index, String(r.left))}>
        ${t('refund.all')}
      </button>
    </li>`;
  };

  return html`<form class="stack card no-print refund" data-testid="refund-form" onSubmit=${save.submit}>
    <h2>${t('refund.title')}</h2>
    <p class="muted">${t('refund.hint')}</p>
    <${ErrorBanner} error=${save.error} />
    <ul class="refund-lines">${rows.map(line)}</ul>
    <p class="refund-amount" data-testid="refund-amount" data-cents=${plan.amount ?? ''}>
      ${plan.lines ? t('refund.amount') : t('refund.amount_all')}: <strong>${plan.amount === null ? '–' : tsh(plan.amount / 100)}</strong>
    </p>
    <${Field} label=${t('reason')} name="reason" error=${save.error}>
      <input data-testid="refund-reason" required maxLength=${500} ...${form.bind('reason')} />
    </${Field}>
    <div class="actions">
      <button class="primary" type="submit" disabled=${save.busy || nothing} data-testid="refund-submit">
        ${save.busy ? core('loading') : t('refund.submit')}
      </button>
      <button type="button" onClick=${onCancel}>${core('cancel')}</button>
    </div>
  </form>`;
}
