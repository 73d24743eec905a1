/** The strings of selling by weight, by scale label and by the pack (issue 51); merged by i18n.ts, Swahili typed by English. */
export const enUnits = {
  'units.ask_title': 'How much {name}?',
  'units.ask_hint': 'In {unit}, up to 3 decimals (0.5, 1.25)',
  'units.ask_add': 'Add {qty}',
  'units.ask_wrong': 'Type a quantity in {unit}, more than 0, at most 3 decimals.',
  'units.cancel': 'Cancel',
  'units.label': 'Scale label',
  'units.pack': '{qty} × {pack}',
};

export const swUnits: Record<keyof typeof enUnits, string> = {
  'units.ask_title': '{name} kiasi gani?',
  'units.ask_hint': 'Kwa {unit}, hadi desimali 3 (0.5, 1.25)',
  'units.ask_add': 'Ongeza {qty}',
  'units.ask_wrong': 'Andika kiasi kwa {unit}, zaidi ya 0, hadi desimali 3.',
  'units.cancel': 'Ghairi',
  'units.label': 'Lebo ya mizani',
  'units.pack': '{qty} × {pack}',
};
