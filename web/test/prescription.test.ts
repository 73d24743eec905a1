/** The prescription form's data (web/src/prescription.ts): what is still missing, and what `till.sell` gets. */
import type { Product } from '@duka/shared';
import { describe, expect, it } from 'vitest';
import { addProduct, emptyCart } from '../src/cart.js';
import { emptyRx, type RxDraft, rxMedicines, rxMissing, toPrescription } from '../src/prescription.js';

const FULL: RxDraft = {
  patient_name: ' Asha Juma ',
  patient_age: '34',
  patient_date_of_birth: '',
  patient_sex: 'female',
  prescriber_name: 'Dr. Neema Mushi',
  prescriber_registration_number: 'MCT-4521',
  facility: 'Mnazi Mmoja Hospital',
  date_written: '2026-11-20',
};
const product = (name: string, schedule: Product['schedule']) =>
  ({ id: name, name, schedule, unit: 'piece', stock: 5, selling_price: 100 }) as Product;

describe('the prescription form', () => {
  it('names every field still to fill, in order; age or date of birth is one', () => {
    expect(rxMissing(emptyRx())).toEqual([
      'patient_name',
      'patient_age',
      'patient_sex',
      'prescriber_name',
      'prescriber_registration_number',
      'facility',
      'date_written',
    ]);
    expect(rxMissing(FULL)).toEqual([]);
    expect(rxMissing({ ...FULL, patient_age: '', patient_date_of_birth: '2025-02-01' })).toEqual([]);
    expect(rxMissing({ ...FULL, facility: '   ', patient_age: '3.5' })).toEqual(['patient_age', 'facility']);
  });

  it('gives the sale the trimmed fields, the age as a number and no date of birth when none was typed', () => {
    expect(toPrescription(FULL)).toEqual({
      patient_name: 'Asha Juma',
      patient_age: 34,
      patient_sex: 'female',
      prescriber_name: 'Dr. Neema Mushi',
      prescriber_registration_number: 'MCT-4521',
      facility: 'Mnazi Mmoja Hospital',
      date_written: '2026-11-20',
    });
  });

  it('is asked for by pom and controlled medicines only', () => {
    let cart = emptyCart();
    for (const p of [product('Sugar', null), product('Panadol', 'otc'), product('Cipro', 'pom'), product('Morphine', 'controlled')])
      cart = addProduct(cart, p);
    expect(rxMedicines(cart)).toEqual(['Cipro', 'Morphine']);
  });
});
