/**
 * A sale paid several ways (issue 51): the parts, each a method, an amount and (mobile money, Bank)
 * the reference from the customer's SMS or slip; what is left to pay, or the change the cash part
 * leaves; and why the sale cannot be charged yet. The figures are split.ts's (the shared rule).
 * A mobile-money part is never asked of the customer's phone: a push asks for a whole sale.
 */
import { formatTzs, type PaymentMethod } from '@duka/shared';
import { t } from '../i18n.js';
import { addPart, MAX_PARTS, needsReference, partChoices, removePart, type SplitPart, type SplitState, setPart } from '../split.js';
import { html } from './html.js';

interface Props {
  parts: SplitPart[];
  state: SplitState;
  onParts: (parts: SplitPart[]) => void;
}

export function SplitPanel({ parts, state, onParts }: Props) {
  const { fault } = state;
  return html`
    <div class="split" data-testid="split">
      <p class="split-title">${t('split.title')}</p>
      ${parts.map(
        (p, i) => html`
          <div class="split-part" key=${i} data-testid="split-part" data-method=${p.method}>
            <select aria-label=${t('split.method')} data-testid="split-method" value=${p.method}
              onChange=${(e: any) => onParts(setPart(parts, i, { method: e.currentTarget.value as PaymentMethod }))}>
              ${partChoices(parts, i).map((m) => html`<option key=${m} value=${m}>${t(`pay.method.${m}`)}</option>`)}
            </select>
            <input aria-label=${t('split.amount')} data-testid="split-amount" inputmode="decimal" autocomplete="off" value=${p.amount}
              onInput=${(e: any) => onParts(setPart(parts, i, { amount: e.currentTarget.value }))} />
            ${parts.length > 1 ? html`<button type="button" class="remove" aria-label=${t('split.remove')} data-testid="split-remove" onClick=${() => onParts(removePart(parts, i))}>×</button>` : null}
            ${
              needsReference(p.method)
                ? html`<input class="split-reference" data-testid="split-reference" placeholder=${t('pay.reference')} aria-label=${t('pay.reference')} value=${p.reference}
                  onInput=${(e: any) => onParts(setPart(parts, i, { reference: e.currentTarget.value }))} />`
                : null
            }
          </div>
        `,
      )}
      ${parts.length < MAX_PARTS ? html`<button type="button" data-testid="split-add" onClick=${() => onParts(addPart(parts))}>${t('split.add')}</button>` : null}
      <p class=${state.left > 0 ? 'error' : 'change'} data-testid="split-left" data-cents=${Math.max(0, state.left)}>
        ${
          state.left > 0
            ? t('split.left', { amount: formatTzs(state.left) })
            : state.change
              ? t('tender.change', { amount: formatTzs(state.change) })
              : t('split.covered')
        }
      </p>
      ${
        fault && !('key' in fault && fault.key === 'split.left')
          ? html`<p class="error" data-testid="split-fault">${'key' in fault ? t(fault.key) : fault.message}</p>`
          : null
      }
    </div>
  `;
}
