import { describe, expect, it } from 'vitest';
import { addoMatchKey } from './addo.schemas.js';

describe('addoMatchKey', () => {
  it('ignores case and every space in the name and strength, and keeps the form', () => {
    expect(addoMatchKey({ generic_name: 'Paracetamol', strength: '500 mg', dosage_form: 'tablet' })).toBe('paracetamol|500mg|tablet');
    expect(addoMatchKey({ generic_name: '  PARA cetamol ', strength: '500MG', dosage_form: 'tablet' })).toBe('paracetamol|500mg|tablet');
    expect(addoMatchKey({ generic_name: 'Amoxicillin', strength: '125 mg/5 ml', dosage_form: 'suspension' })).toBe(
      'amoxicillin|125mg/5ml|suspension',
    );
  });

  it('tells apart another strength or another form', () => {
    const base = addoMatchKey({ generic_name: 'Paracetamol', strength: '500 mg', dosage_form: 'tablet' });
    expect(addoMatchKey({ generic_name: 'Paracetamol', strength: '1 g', dosage_form: 'tablet' })).not.toBe(base);
    expect(addoMatchKey({ generic_name: 'Paracetamol', strength: '500 mg', dosage_form: 'suppository' })).not.toBe(base);
  });
});
