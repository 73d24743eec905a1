/**
 * The cashier's shift on this till: opened with the float in the drawer; while open, the X report
 * (what each payment method should hold so far, worked out offline by the shared rule); closed by
 * counting the drawer and each wallet's total from its phone statement, confirmed by the cashier
 * (closing is final), which gives the Z report with the over or short per method. Both reports print to the paired printer or the dialog.
 */
import type { Till } from '@duka/client-sdk';
import type { ShiftReport, TillShiftWithReport } from '@duka/shared';
import { typedTzs, tzs } from '../format.js';
import { useState } from 'preact/hooks';
import { formatTime, methodName, t } from '../i18n.js';
import { printShiftReport } from '../print/print-receipt.js';
import { printerErrorText } from '../print/printer-panel.js';
import { errorText } from './errors.js';
import { useLoad } from './hooks.js';
import { html } from './html.js';

const money = (amount: number | null): string => (amount === null ? '–' : tzs(amount));
const amount = (typed: string): number => typedTzs(typed) ?? 0;
const typedOk = (typed: string): boolean => typedTzs(typed) !== null;

/** The methods a cashier counts at close: the drawer always, and every other money method this shift moved. */
const toCount = (r: ShiftReport) =>
  r.methods.filter((m) => m.counted_at_close && (m.method === 'Cash' || m.sales || m.refunds || m.credit_payments || m.payouts));

export function ShiftView({ till, version, shop, onChanged }: { till: Till; version: number; shop: string; onChanged: () => void }) {
  const current = useLoad(() => till.currentShift(), [till, version], null as TillShiftWithReport | null);
  const [closed, setClosed] = useState<TillShiftWithReport | null>(null);
  const [float, setFloat] = useState('');
  const [counted, setCounted] = useState<Record<string, string>>({});
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  // Closing is final (the Z report): the cashier confirms the figures first.
  const [confirming, setConfirming] = useState(false);

  const run = async (action: () => Promise<void>) => {
    setError(null);
    try {
      await action();
      onChanged();
    } catch (e) {
      setError(errorText(e));
    }
  };
  const open = (e: Event) => {
    e.preventDefault();
    return run(async () => {
      await till.openShift({ opening_float: amount(float) });
      setClosed(null);
      setFloat('');
    });
  };
  const figures = Object.fromEntries(
    Object.entries(counted)
      .filter(([, v]) => typedOk(v))
      .map(([m, v]) => [m, amount(v)]),
  );
  const close = (e: Event) => {
    e.preventDefault();
    if (current) setConfirming(true);
  };
  const confirmClose = () =>
    run(async () => {
      setConfirming(false);
      setClosed(await till.closeShift({ counted: figures as never, ...(note.trim() ? { note: note.trim() } : {}) }));
      setCounted({});
      setNote('');
    });
  const print = async (report: ShiftReport) => {
    try {
      await printShiftReport(report, { shop, openedAt: formatTime(report.opened_at), printedAt: formatTime(new Date().toISOString()) });
    } catch (e) {
      setError(printerErrorText(e));
    }
  };

  const shown = current ?? closed;
  return html`
    <section class="shift" data-testid="shift">
      <h2>${t('shift.title')}</h2>
      ${error ? html`<p class="error" role="alert" data-testid="shift-error">${error}</p>` : null}
      ${
        !current
          ? html`<form class="open-shift" onSubmit=${open} data-testid="shift-open-form">
              <label>${t('shift.float')}
                <input data-testid="shift-float" inputmode="decimal" required value=${float} onInput=${(e: any) => setFloat(e.currentTarget.value)} />
              </label>
              <button type="submit" class="primary" data-testid="shift-open" disabled=${!typedOk(float)}>${t('shift.open')}</button>
            </form>`
          : html`<form class="close-shift" onSubmit=${close} data-testid="shift-close-form">
              <strong>${t('shift.count_title')}</strong>
              ${toCount(current.report).map(
                (m) => html`<label key=${m.method}>${t('shift.count_label', { method: methodName(m.method) })}
                  <input data-testid="shift-count" data-method=${m.method} inputmode="decimal" required=${m.method === 'Cash'} value=${counted[m.method] ?? ''}
                    onInput=${(e: any) => setCounted({ ...counted, [m.method]: e.currentTarget.value })} />
                </label>`,
              )}
              <label>${t('shift.note')}<input data-testid="shift-note" value=${note} onInput=${(e: any) => setNote(e.currentTarget.value)} /></label>
              ${
                confirming
                  ? html`<div class="confirm" role="alertdialog" data-testid="shift-close-confirm">
                      <strong>${t('shift.close_confirm')}</strong>
                      <p data-testid="shift-close-figures">${Object.entries(figures)
                        .map(([m, v]) => t('shift.close_counted', { method: methodName(m), amount: money(v) }))
                        .join(' · ')}</p>
                      <p>${t('shift.close_final')}</p>
                      <div class="actions">
                        <button type="button" data-testid="shift-close-back" onClick=${() => setConfirming(false)}>${t('shift.close_back')}</button>
                        <button type="button" class="primary" data-testid="shift-close-yes" onClick=${confirmClose}>${t('shift.close_yes')}</button>
                      </div>
                    </div>`
                  : html`<button type="submit" class="primary" data-testid="shift-close" disabled=${!typedOk(counted.Cash ?? '')}>${t('shift.close')}</button>`
              }
            </form>`
      }
      ${shown ? html`<${Report} report=${shown.report} shop=${shop} onPrint=${() => print(shown.report)} />` : null}
    </section>
  `;
}

function Report({ report: r, shop, onPrint }: { report: ShiftReport; shop: string; onPrint: () => void }) {
  const z = r.kind === 'Z';
  const result =
    r.totals.over_short < 0
      ? t('shift.short', { amount: money(-r.totals.over_short) })
      : r.totals.over_short > 0
        ? t('shift.over', { amount: money(r.totals.over_short) })
        : t('shift.exact');
  return html`
    <article class="receipt shift-report" data-testid="shift-report" data-kind=${r.kind} data-over-short=${r.totals.over_short}>
      <header><strong>${shop}</strong><div>${t(z ? 'shift.z_report' : 'shift.x_report')}</div></header>
      <p>${t('shift.opened', { time: formatTime(r.opened_at), amount: money(r.opening_float) })}</p>
      ${z && r.closed_at ? html`<p data-testid="shift-result">${t('shift.closed', { time: formatTime(r.closed_at), result })}</p>` : null}
      <table>
        <thead><tr><th>${t('shift.method')}</th><th class="num">${t('shift.expected')}</th>${z ? html`<th class="num">${t('shift.counted')}</th><th class="num">${t('shift.over_short')}</th>` : null}</tr></thead>
        <tbody>
          ${r.methods.map(
            (
              m,
            ) => html`<tr key=${m.method} data-testid="shift-method" data-method=${m.method} data-expected=${m.expected ?? ''} data-counted=${m.counted ?? ''} data-over-short=${m.over_short ?? ''}>
              <td>${methodName(m.method)}<br /><small>${t('shift.sales')} ${money(m.sales)}${m.refunds ? ` · ${t('shift.refunds')} −${money(m.refunds)}` : ''}${m.payouts ? ` · ${t('shift.payouts')} −${money(m.payouts)}` : ''}${m.credit_payments ? ` · ${t('shift.credit_payments')} ${money(m.credit_payments)}` : ''}</small></td>
              <td class="num">${m.counted_at_close ? money(m.expected) : t('shift.not_money')}</td>
              ${z ? html`<td class="num">${m.counted_at_close ? (m.counted === null ? t('shift.not_counted') : money(m.counted)) : ''}</td><td class="num">${money(m.over_short)}</td>` : null}
            </tr>`,
          )}
        </tbody>
        <tfoot><tr class="total"><td>${t('shift.total')}</td><td class="num">${money(r.totals.expected)}</td>${z ? html`<td class="num">${money(r.totals.counted)}</td><td class="num">${money(r.totals.over_short)}</td>` : null}</tr></tfoot>
      </table>
      <p>${t('shift.counts', { sales: r.sales_count, refunds: r.refund_count, payouts: r.payout_count, payments: r.credit_payment_count })}</p>
      ${r.note ? html`<p>${r.note}</p>` : null}
    </article>
    <button class="no-print" data-testid="shift-print" onClick=${onPrint}>${t('shift.print')}</button>
  `;
}
