/** The strings of a first sign-in with a temporary password (issue 49); merged by i18n.ts, Swahili typed by English. */
export const enAccount = {
  'password.title': 'Set your own password',
  'password.why': 'You signed in with the temporary password from the SMS. Choose your own password to start selling.',
  'password.new': 'New password',
  'password.confirm': 'New password again',
  'password.rule': 'At least 8 characters, with a letter and a digit.',
  'password.weak': 'The password needs at least 8 characters, with a letter and a digit.',
  'password.mismatch': 'The two passwords are not the same.',
  'password.temporary': 'That is the temporary password from the SMS: choose a new one.',
  'password.submit': 'Set password and continue',
  'password.other': 'Sign in again',
  'signin.again': 'Your sign-in on this till has ended (the password may have been changed). Sign in again to continue.',
};

export const swAccount: Record<keyof typeof enAccount, string> = {
  'password.title': 'Weka nenosiri lako',
  'password.why': 'Umeingia kwa nenosiri la muda kutoka SMS. Chagua nenosiri lako ili uanze kuuza.',
  'password.new': 'Nenosiri jipya',
  'password.confirm': 'Nenosiri jipya tena',
  'password.rule': 'Angalau herufi 8, zikiwemo herufi na tarakimu.',
  'password.weak': 'Nenosiri linahitaji angalau herufi 8, zikiwemo herufi na tarakimu.',
  'password.mismatch': 'Manenosiri mawili hayalingani.',
  'password.temporary': 'Hilo ni nenosiri la muda kutoka SMS: chagua jipya.',
  'password.submit': 'Weka nenosiri na uendelee',
  'password.other': 'Ingia tena',
  'signin.again': 'Muda wako wa kuingia kwenye till hii umekwisha (huenda nenosiri limebadilishwa). Ingia tena ili uendelee.',
};
