/** The strings of the prescription form (a `pom` or `controlled` medicine in the cart); merged by i18n.ts, Swahili typed by English. */
export const enRx = {
  'rx.title': 'Prescription',
  'rx.for': 'Needed for {names}',
  'rx.patient_name': 'Patient’s name',
  'rx.patient_age': 'Age (years)',
  'rx.patient_date_of_birth': 'or date of birth',
  'rx.patient_sex': 'Sex',
  'rx.female': 'Female',
  'rx.male': 'Male',
  'rx.prescriber_name': 'Prescriber',
  'rx.prescriber_registration_number': 'Prescriber’s registration number',
  'rx.facility': 'Hospital, clinic or dispensary',
  'rx.date_written': 'Date written',
  'rx.held': 'Not charged yet: {names} needs a prescription. Fill in: {fields}.',
};

export const swRx: Record<keyof typeof enRx, string> = {
  'rx.title': 'Cheti cha daktari',
  'rx.for': 'Kinahitajika kwa {names}',
  'rx.patient_name': 'Jina la mgonjwa',
  'rx.patient_age': 'Umri (miaka)',
  'rx.patient_date_of_birth': 'au tarehe ya kuzaliwa',
  'rx.patient_sex': 'Jinsia',
  'rx.female': 'Mwanamke',
  'rx.male': 'Mwanamume',
  'rx.prescriber_name': 'Daktari aliyeandika',
  'rx.prescriber_registration_number': 'Namba ya usajili ya daktari',
  'rx.facility': 'Hospitali, kliniki au zahanati',
  'rx.date_written': 'Tarehe ya kuandikwa',
  'rx.held': 'Bado haijalipishwa: {names} inahitaji cheti cha daktari. Jaza: {fields}.',
};
