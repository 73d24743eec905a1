import { messages } from '../../i18n/lang.js';

export const t = messages(
  {
    'title': 'Expenses',
    'add': 'Add expense',
    'edit': 'Edit expense',
    'what': 'What for',
    'category': 'Category',
    'all': 'All categories',
    'amount': 'Amount (TSh)',
    'method': 'Paid by',
    'reference': 'Reference',
    'notes': 'Notes',
    'date': 'Date',
    'summary': 'This month by category',
    'total': 'Total',
  },
  {
    'title': 'Matumizi',
    'add': 'Ongeza matumizi',
    'edit': 'Badilisha matumizi',
    'what': 'Kwa ajili ya',
    'category': 'Aina',
    'all': 'Aina zote',
    'amount': 'Kiasi (TSh)',
    'method': 'Imelipwa kwa',
    'reference': 'Kumbukumbu',
    'notes': 'Maelezo',
    'date': 'Tarehe',
    'summary': 'Mwezi huu kwa aina',
    'total': 'Jumla',
  },
);
