/**
 * The prescription form of the cart panel: shown while the cart holds a `pom` or `controlled`
 * medicine, whose sale the till (and the server) refuse without one. Charge waits for it; the
 * reason names what is still to fill in (`rxHeld`).
 */
import { t } from '../i18n.js';
import { type RxDraft, type RxField, rxMissing } from '../prescription.js';
import { html } from './html.js';

/** Why Charge waits for the prescription, in the till's language; null when it is complete. */
export function rxHeld(draft: RxDraft, names: readonly string[]): string | null {
  const missing = rxMissing(draft);
  if (names.length === 0 || missing.length === 0) return null;
  return t('rx.held', { names: names.join(', '), fields: missing.map((f) => t(`rx.${f}`)).join(', ') });
}

const TEXT: ReadonlyArray<[RxField, string]> = [
  ['patient_name', 'text'],
  ['patient_age', 'number'],
  ['patient_date_of_birth', 'date'],
];
const PRESCRIBER: ReadonlyArray<[RxField, string]> = [
  ['prescriber_name', 'text'],
  ['prescriber_registration_number', 'text'],
  ['facility', 'text'],
  ['date_written', 'date'],
];

interface Props {
  draft: RxDraft;
  /** The medicines in the cart that need it. */
  names: readonly string[];
  onDraft: (d: RxDraft) => void;
}

export function PrescriptionForm({ draft, names, onDraft }: Props) {
  const field = ([f, type]: [RxField, string]) => html`
    <label key=${f}>${t(`rx.${f}`)}
      <input type=${type} data-testid=${`rx-${f}`} value=${draft[f]} min=${type === 'number' ? 0 : undefined}
        onInput=${(e: any) => onDraft({ ...draft, [f]: e.currentTarget.value })} />
    </label>`;
  return html`
    <fieldset class="prescription" data-testid="prescription">
      <legend>${t('rx.title')}</legend>
      <p class="hint">${t('rx.for', { names: names.join(', ') })}</p>
      ${TEXT.map(field)}
      <label>${t('rx.patient_sex')}
        <select data-testid="rx-patient_sex" value=${draft.patient_sex} onChange=${(e: any) => onDraft({ ...draft, patient_sex: e.currentTarget.value })}>
          <option value="">–</option>
          <option value="female">${t('rx.female')}</option>
          <option value="male">${t('rx.male')}</option>
        </select>
      </label>
      ${PRESCRIBER.map(field)}
    </fieldset>`;
}
