/**
 * "Exchange" on the Sales screen (issue 52): how much of each line of the sale comes back (as
 * "Refund part" asks it), the items going out found as on the sell screen (the same scan field,
 * search and tiles, into a cart of their own), and the difference (exchange.ts) shown before the
 * cashier confirms: paid in cash, by M-Pesa with its reference, or split as at the checkout; or
 * given back by a method the sale was paid by. The till exchanges offline, as one queued mutation.
 */
import type { Receipt, Till, TillExchangeInput } from '@duka/client-sdk';
import { formatTzs, type Product, quantityText } from '@duka/shared';
import { useState } from 'preact/hooks';
import { addProduct, type Cart, cartTotals, emptyCart, lineKey, measured, parseScan, setQty } from '../cart.js';
import { type ExchangePay, type ExchangeState, exchangeState, type GiveBack, giveBackChoices, startPay } from '../exchange.js';
import { t } from '../i18n.js';
import { refundRows } from '../refund-part.js';
import { type SplitPart, splitState, startSplit } from '../split.js';
import { AskQuantity } from './ask-quantity.js';
import { errorText } from './errors.js';
import { html } from './html.js';
import { Products } from './products.js';
import { SplitPanel } from './split-tender.js';

interface Props {
  till: Till;
  version: number;
  sale: Receipt;
  onConfirm: (input: TillExchangeInput, reason: string, difference: number) => void;
  onCancel: () => void;
}

const FAULT_TEXT = {
  back: 'exchange.need_back',
  out: 'exchange.need_out',
  reference: 'exchange.need_reference',
  split: 'exchange.need_split',
} as const;

export function ExchangeForm({ till, version, sale, onConfirm, onCancel }: Props) {
  const [typed, setTyped] = useState<ReadonlyMap<number, string>>(new Map());
  const [out, setOut] = useState<Cart>(emptyCart);
  const [pay, setPay] = useState<ExchangePay>(startPay);
  const [reason, setReason] = useState('');
  const [asking, setAsking] = useState<Product | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const state = exchangeState(sale, typed, out, pay);
  // Not a form: the scan field and the quantity dialog inside are forms of their own.
  const ready = state.input !== null && reason.trim() !== '';
  const add = (p: Product) => (measured(p) ? setAsking(p) : setOut((c) => addProduct(c, p)));
  const scan = async (typedCode: string) => {
    const { code, qty } = parseScan(typedCode);
    try {
      const product = await till.productByCode(code);
      if (product?.scanned_pack) setOut((c) => addProduct(c, product, qty, product.scanned_pack!));
      else if (product && measured(product)) setAsking(product);
      else if (product) setOut((c) => addProduct(c, product, qty));
      setNotice(product ? null : t('products.not_found', { code }));
    } catch (err) {
      setNotice(errorText(err));
    }
  };
  const submit = () => {
    if (ready) onConfirm(state.input!, reason.trim(), state.difference);
  };
  return html`
    <section class="reason exchange" data-testid="exchange-form">
      <strong>${t('exchange.title', { receipt: sale.receipt_number ?? sale.client_receipt_number ?? '' })}</strong>
      <${BackLines} sale=${sale} typed=${typed} state=${state} onTyped=${setTyped} />
      <p>${t('exchange.out')}</p>
      <${Products} till=${till} version=${version} notice=${notice} onAdd=${add} onScan=${scan} />
      <${OutLines} out=${out} onOut=${setOut} />
      <${Difference} sale=${sale} state=${state} pay=${pay} onPay=${setPay} />
      ${state.fault ? html`<p class="hint" data-testid="exchange-fault" data-fault=${state.fault}>${t(FAULT_TEXT[state.fault])}</p>` : null}
      <input required data-testid="reversal-reason" placeholder=${t('sales.reason')} value=${reason} onInput=${(e: any) => setReason(e.currentTarget.value)} />
      <button type="button" class="primary" data-testid="exchange-confirm" disabled=${!ready} onClick=${submit}>${t('exchange.confirm')}</button>
      <button type="button" onClick=${onCancel}>${t('sales.cancel')}</button>
      ${
        asking
          ? html`<${AskQuantity} product=${asking} onCancel=${() => setAsking(null)}
              onAdd=${(qty: number) => (setOut((c) => addProduct(c, asking, qty)), setAsking(null))} />`
          : null
      }
    </section>
  `;
}

/** The sale's lines still not given back, each with how much comes back (whole pieces, or decimals of a measure). */
function BackLines(p: {
  sale: Receipt;
  typed: ReadonlyMap<number, string>;
  state: ExchangeState;
  onTyped: (m: ReadonlyMap<number, string>) => void;
}) {
  const rows = refundRows(p.sale).filter((r) => r.left > 0 && !r.repeat);
  return html`
    <p>${t('exchange.back')}</p>
    <ul>
      ${rows.map(
        (r) => html`
          <li key=${r.index} data-testid="exchange-back-line" data-product-id=${p.sale.lines[r.index]!.product_id} data-left=${r.left}>
            <span class="name">${r.name}</span>
            <input data-testid="exchange-back-qty" inputmode=${r.decimals ? 'decimal' : 'numeric'} autocomplete="off" placeholder="0"
              aria-label=${t('refund_part.qty', { name: r.name })} value=${p.typed.get(r.index) ?? ''}
              onInput=${(e: any) => p.onTyped(new Map(p.typed).set(r.index, e.currentTarget.value))} />
            <span class="hint">${t('refund_part.left', { qty: quantityText(r.left, r.unit) })}</span>
            ${p.state.back.faults.has(r.index) ? html`<span class="error" role="alert" data-testid="exchange-back-wrong">${t(p.state.back.faults.get(r.index) === 'too_much' ? 'refund_part.too_much' : r.decimals ? 'refund_part.wrong_decimal' : 'refund_part.wrong_whole', { qty: quantityText(r.left, r.unit) })}</span>` : null}
          </li>
        `,
      )}
    </ul>
  `;
}

/** The items going out, each its quantity and amount, with − / remove as in the cart. */
function OutLines({ out, onOut }: { out: Cart; onOut: (c: Cart) => void }) {
  const totals = cartTotals(out);
  if (out.lines.length === 0) return html`<p class="empty">${t('exchange.out_none')}</p>`;
  return html`
    <ul class="lines">
      ${out.lines.map(
        (l, i) => html`
          <li key=${lineKey(l)} data-testid="exchange-out-line" data-product-id=${l.product.id} data-qty=${l.qty}>
            <span class="name">${l.product.name}${l.pack ? ` · ${l.pack.name}` : ''}</span>
            <span class="qty">${quantityText(l.qty, l.product.unit ?? 'piece')}</span>
            <span class="amount">${formatTzs(totals.lines[i]?.line_total ?? 0)}</span>
            <button type="button" class="remove" aria-label=${t('cart.remove')} onClick=${() => onOut(setQty(out, lineKey(l), 0))}>×</button>
          </li>
        `,
      )}
    </ul>
  `;
}

/** What each side is worth, the difference, and how it is paid or given back. */
function Difference({
  sale,
  state,
  pay,
  onPay,
}: {
  sale: Receipt;
  state: ExchangeState;
  pay: ExchangePay;
  onPay: (p: ExchangePay) => void;
}) {
  const d = state.difference;
  const choice = (key: string, on: boolean, label: string, click: () => void) =>
    html`<button type="button" key=${key} role="radio" aria-checked=${on} class=${on ? 'selected' : ''} data-testid="exchange-method" data-method=${key} onClick=${click}>${label}</button>`;
  return html`
    <p data-testid="exchange-amounts">${t('exchange.back_amount', { amount: formatTzs(state.back.amount) })} · ${t('exchange.out_amount', { amount: formatTzs(state.outTotal) })}</p>
    <p class="total" data-testid="exchange-difference" data-cents=${d}>
      ${d > 0 ? t('exchange.to_pay', { amount: formatTzs(d) }) : d < 0 ? t('exchange.to_give', { amount: formatTzs(-d) }) : t('exchange.even')}
    </p>
    ${
      d > 0
        ? html`<div class="methods" role="radiogroup" aria-label=${t('exchange.pay_by')}>
            ${(['Cash', 'M-Pesa'] as const).map((m) => choice(m, pay.method === m, t(`pay.method.${m}`), () => onPay({ ...pay, method: m })))}
            ${choice('split', pay.method === 'split', t('exchange.split'), () => onPay({ ...pay, method: 'split', parts: pay.parts.length ? pay.parts : startSplit() }))}
          </div>
          ${pay.method === 'M-Pesa' ? html`<input data-testid="exchange-reference" placeholder=${t('pay.reference')} aria-label=${t('pay.reference')} value=${pay.reference} onInput=${(e: any) => onPay({ ...pay, reference: e.currentTarget.value })} />` : null}
          ${pay.method === 'split' ? html`<${SplitPanel} parts=${pay.parts} state=${splitState(pay.parts, d)} focus=${0} why=${null} onEnter=${() => {}} onParts=${(parts: SplitPart[]) => onPay({ ...pay, parts })} />` : null}`
        : null
    }
    ${
      d < 0
        ? html`<div class="methods" role="radiogroup" aria-label=${t('exchange.give_by')}>
            ${giveBackChoices(sale).map((m: GiveBack) => choice(m, pay.giveBack === m, m === 'tab' ? t('exchange.to_tab') : t(`pay.method.${m}`), () => onPay({ ...pay, giveBack: m })))}
          </div>`
        : null
    }
  `;
}
