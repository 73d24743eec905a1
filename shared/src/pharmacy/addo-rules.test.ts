import { describe, expect, it } from 'vitest';
import { type AddoCheckInput, type AddoEntry, checkAddo } from './addo-rules.js';

const permitted: AddoEntry[] = [
  { generic_name: 'Amoxicillin', strength: '250 mg', dosage_form: 'capsule' },
  { generic_name: 'Paracetamol', strength: '500mg', dosage_form: 'tablet' },
];
type Product = AddoCheckInput['lines'][number]['product'];
const medicine = (product_id: string, over: Partial<Product> = {}): Product => ({
  product_id,
  name: 'Amoxicillin 250mg capsules',
  generic_name: 'Amoxicillin',
  strength: '250 mg',
  dosage_form: 'capsule',
  schedule: 'pom',
  ...over,
});
const check = (products: Product[], outlet_type: AddoCheckInput['outlet_type'] = 'addo') =>
  checkAddo({ outlet_type, permitted, lines: products.map((product, index) => ({ index, product })) });

describe('checkAddo', () => {
  it('lets an ADDO sell what is on the list, ignoring case and spaces', () => {
    expect(
      check([
        medicine('p1'),
        medicine('p2', { generic_name: ' AMOXICILLIN', strength: '250MG' }),
        medicine('p3', { generic_name: 'paracetamol', strength: '500 mg', dosage_form: 'tablet', schedule: 'otc' }),
      ]),
    ).toEqual([]);
  });

  it('lets an ADDO sell what is not a medicine', () => {
    expect(check([medicine('soap', { name: 'Soap', generic_name: null, strength: null, dosage_form: null, schedule: null })])).toEqual([]);
  });

  it('refuses, naming the line, a medicine whose name, strength or dosage form is not on the list', () => {
    const lines = [
      medicine('ok'),
      medicine('p-500', { name: 'Amoxicillin 500mg capsules', strength: '500 mg' }),
      medicine('p-syrup', { name: 'Amoxicillin 250mg syrup', dosage_form: 'syrup' }),
      medicine('p-cipro', { name: 'Ciprofloxacin 500mg', generic_name: 'Ciprofloxacin', strength: '500mg', dosage_form: 'tablet' }),
      medicine('p-bare', { name: 'Unlabelled tablets', generic_name: null }),
    ];
    const message = (name: string) => `${name} is not on the ADDO list: an ADDO may not sell it`;
    expect(check(lines)[0]).toEqual({
      code: 'NOT_PERMITTED_FOR_ADDO',
      field: 'lines.1.product_id',
      message: message('Amoxicillin 500mg capsules'),
      conflict: { kind: 'not_permitted_for_addo', product_id: 'p-500', message: message('Amoxicillin 500mg capsules') },
    });
    expect(check(lines).map((b) => [b.field, b.message])).toEqual([
      ['lines.1.product_id', message('Amoxicillin 500mg capsules')],
      ['lines.2.product_id', message('Amoxicillin 250mg syrup')],
      ['lines.3.product_id', message('Ciprofloxacin 500mg')],
      ['lines.4.product_id', message('Unlabelled tablets')],
    ]);
  });

  it('does not apply outside an ADDO', () => {
    const cipro = medicine('p-cipro', { generic_name: 'Ciprofloxacin' });
    expect(check([cipro], 'pharmacy')).toEqual([]);
    expect(check([cipro], null)).toEqual([]);
    expect(check([cipro], 'addo')).toHaveLength(1);
  });
});
