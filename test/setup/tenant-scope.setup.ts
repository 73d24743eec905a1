/**
 * Fails a test file in which the server ran a statement on a tenant table without naming its
 * organisation (test-db.ts), even where the code that ran it caught the error.
 */
import { afterAll } from 'vitest';
import { unnamedTenantStatements } from './test-db.js';

afterAll(() => {
  const places = [...new Set(unnamedTenantStatements())];
  if (places.length) throw new Error(`statements on a tenant table that did not name the organisation:\n${places.join('\n')}`);
});
