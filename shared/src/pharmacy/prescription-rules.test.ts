import { describe, expect, it } from 'vitest';
import { Prescription } from './pharmacy-rules.schemas.js';
import { checkPrescription, type PrescriptionCheckInput } from './prescription-rules.js';

const rx: Prescription = {
  patient_name: 'Neema Joseph',
  patient_age: 34,
  patient_sex: 'female',
  prescriber_name: 'Dr. Baraka Mushi',
  prescriber_registration_number: 'MCT 4521',
  facility: 'Mwananyamala Hospital',
  date_written: '2026-11-20',
};
const lines: PrescriptionCheckInput['lines'] = [
  { index: 0, product_id: 'p-para', name: 'Paracetamol 500mg', schedule: 'otc' },
  { index: 1, product_id: 'p-amox', name: 'Amoxicillin 500mg', schedule: 'pom' },
  { index: 3, product_id: 'p-morph', name: 'Morphine 10mg', schedule: 'controlled' },
  { index: 4, product_id: 'p-soap', name: 'Soap', schedule: null },
];
const check = (over: Partial<PrescriptionCheckInput>) => checkPrescription({ lines, today: '2026-11-23', ...over });

describe('checkPrescription', () => {
  it('needs none for otc medicines and what is not a medicine', () => {
    expect(check({ lines: [lines[0]!, lines[3]!] })).toEqual([]);
  });

  it('names every pom and controlled line of a sale without a prescription', () => {
    const pom = 'Amoxicillin 500mg is prescription-only: the sale needs a prescription';
    const controlled = 'Morphine 10mg is a controlled medicine: the sale needs a prescription';
    expect(check({})).toEqual([
      {
        code: 'PRESCRIPTION_REQUIRED',
        field: 'lines.1.product_id',
        message: pom,
        conflict: { kind: 'prescription', product_id: 'p-amox', message: pom },
      },
      {
        code: 'PRESCRIPTION_REQUIRED',
        field: 'lines.3.product_id',
        message: controlled,
        conflict: { kind: 'prescription', product_id: 'p-morph', message: controlled },
      },
    ]);
    expect(check({ prescription: null }).map((b) => b.field)).toEqual(['lines.1.product_id', 'lines.3.product_id']);
  });

  it('accepts a complete prescription, with the age or the date of birth, written up to the day of the sale', () => {
    expect(check({ prescription: rx })).toEqual([]);
    expect(check({ prescription: { ...rx, patient_age: undefined, patient_date_of_birth: '1992-04-17' } })).toEqual([]);
    expect(check({ prescription: { ...rx, patient_age: 0 } })).toEqual([]);
    expect(check({ prescription: { ...rx, date_written: '2026-11-23' } })).toEqual([]);
  });

  it("refuses a prescription without the patient's age or date of birth", () => {
    const message = "the prescription needs the patient's age or date of birth";
    expect(check({ prescription: { ...rx, patient_age: undefined } })).toEqual([
      { code: 'VALIDATION_ERROR', field: 'prescription.patient_age', message, conflict: { kind: 'prescription', message } },
    ]);
  });

  it('refuses a prescription dated after the day of the sale, and a date of birth after it', () => {
    const message = 'the prescription is dated 2026-11-24, after the day of the sale (2026-11-23)';
    expect(check({ prescription: { ...rx, date_written: '2026-11-24' } })).toEqual([
      { code: 'VALIDATION_ERROR', field: 'prescription.date_written', message, conflict: { kind: 'prescription', message } },
    ]);
    expect(check({ prescription: { ...rx, patient_date_of_birth: '2027-01-01' } }).map((b) => [b.field, b.message])).toEqual([
      ['prescription.patient_date_of_birth', "the patient's date of birth (2027-01-01) is after the day of the sale (2026-11-23)"],
    ]);
  });
});

describe('Prescription schema', () => {
  const problems = (value: unknown) => {
    const parsed = Prescription.safeParse(value);
    return parsed.success ? [] : parsed.error.issues.map((i) => i.path.join('.'));
  };

  it('accepts a complete prescription and trims its text', () => {
    expect(Prescription.parse({ ...rx, patient_name: '  Neema Joseph ' }).patient_name).toBe('Neema Joseph');
  });

  it('names each missing or malformed field', () => {
    const { prescriber_registration_number: _, ...noNumber } = rx;
    expect(problems(noNumber)).toEqual(['prescriber_registration_number']);
    expect(problems({ ...rx, patient_name: '   ', facility: '' })).toEqual(['patient_name', 'facility']);
    expect(problems({ ...rx, patient_sex: 'x', date_written: '20/11/2026', patient_age: 2.5 })).toEqual([
      'patient_age',
      'patient_sex',
      'date_written',
    ]);
  });
});
