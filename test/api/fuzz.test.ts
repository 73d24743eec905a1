/**
 * A short seeded fuzz run (test/fuzz/): every operation of the OpenAPI document and push batches of
 * every mutation type, malformed and at their bounds, with every kind of token. No answer may be a
 * 5xx or leave the contract's envelope. `npm run fuzz -- --seed N --requests K` runs this file with
 * another seed and size (FUZZ_SEED, FUZZ_REQUESTS).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeFailure, runFuzz } from '../fuzz/run.js';
import { CLOSED_TRA } from '../setup/fiscal-device.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const seed = Number(process.env.FUZZ_SEED ?? 20261124);
const requests = Number(process.env.FUZZ_REQUESTS ?? 1500);

describe('fuzz', () => {
  let t: TestApp;
  // The owner's store fiscalises; its receipts could never be signed, and TRA is a closed port anyway.
  beforeAll(async () => (t = await createTestApp({ config: { TRA_TEST_URL: CLOSED_TRA } })));
  afterAll(() => t.close());

  it(`answers ${requests} fuzzed requests (seed ${seed}) without a 5xx, each in the envelope`, {
    timeout: Math.max(120_000, requests * 100),
  }, async () => {
    const result = await runFuzz(t, { seed, requests, log: process.env.FUZZ_SEED ? (l) => console.log(l) : undefined });
    console.log(
      `fuzz seed ${seed} on ${t.dialect}: ${result.sent} requests, ${result.operations} operations (${result.reachedOperations} answered below 400 at least once), by status ${JSON.stringify(result.byStatus)}`,
    );
    expect(result.failures.slice(0, 20).map(describeFailure), `${result.failures.length} failures`).toEqual([]);
    expect(result.sent).toBe(requests);
  });
});
