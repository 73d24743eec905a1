/**
 * Calendar arithmetic in an organisation's time zone: written once in shared/src/time.ts (the till
 * and the browser use the same), named here for the server's many callers.
 */
export {
  addDays,
  DEFAULT_TIMEZONE,
  EAT,
  lastLocalDays,
  localDate,
  localDayRange,
  localMonth,
  localMonthRange,
  localTime,
  startOfLocalDay,
  todayRange,
} from '@duka/shared';
