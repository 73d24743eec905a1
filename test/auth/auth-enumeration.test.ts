/**
 * Issue 18, no account enumeration: for every public route that takes an account name, a real
 * account and a name no account has get the same status and message and take the same time. The
 * two kinds are interleaved (known-unknown, then unknown-known) so that drift falls on both alike;
 * means are compared as a ratio. What a route does after answering (issue 33: a code sent) runs
 * between the timed requests, as it would between a prober's.
 */
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, registerOwner, type Session, uniqueEmail, uniquePhone } from '../setup/factories.js';
import { type ApiResponse, createTestApp, type TestApp } from '../setup/test-app.js';

const ROUNDS = 30;

describe('no account enumeration', () => {
  let t: TestApp;
  let accounts: Session[];
  beforeAll(async () => {
    t = await createTestApp({ config: { TRUST_PROXY: 1 } });
    accounts = [];
    for (let i = 0; i < ROUNDS + 3; i++) accounts.push(await registerOwner(t));
  }, 120_000);
  afterAll(() => t.close());

  let addressNo = 0;
  /** Each request from its own address, so that no address's lock plays a part. */
  const post = (path: string, body: unknown) =>
    t.request('POST', path, {
      body,
      settle: false,
      headers: { 'x-forwarded-for': `203.0.113.${addressNo++ % 250}, 10.20.${addressNo % 250}.1` },
    });

  /**
   * Send `known(i)` and `unknown(i)` ROUNDS times each (after 3 unmeasured rounds that warm up
   * statements and code paths), alternating which goes first; every pair of answers must be the
   * same to a client, and the mean times (the slowest and fastest tenth of each kind left out, so
   * that one pause of a busy machine does not decide) must be within 20 % of each other, however
   * fast both are. A noisy measurement is taken again, up to 3 times (`beforeEach` runs before
   * each): a real difference larger than the tolerance fails all three.
   */
  async function compare(
    known: (i: number) => Promise<ApiResponse>,
    unknown: (i: number) => Promise<ApiResponse>,
    beforeEach: () => void = () => {},
  ) {
    const timed = async (send: () => Promise<ApiResponse>) => {
      const start = performance.now();
      const res = await send();
      const ms = performance.now() - start;
      await t.deps.afterAnswer.idle();
      return { res, ms };
    };
    const trimmedMean = (xs: number[]) => {
      const cut = Math.floor(xs.length / 10);
      const kept = [...xs].sort((a, b) => a - b).slice(cut, xs.length - cut);
      return kept.reduce((sum, x) => sum + x, 0) / kept.length;
    };
    const measured: string[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      beforeEach();
      const times = { known: [] as number[], unknown: [] as number[] };
      for (let i = 0; i < ROUNDS + 3; i++) {
        const first = i % 2 === 0 ? 'known' : 'unknown';
        const a = await timed(() => (first === 'known' ? known(i) : unknown(i)));
        const b = await timed(() => (first === 'known' ? unknown(i) : known(i)));
        const [k, u] = first === 'known' ? [a, b] : [b, a];
        const visible = (r: ApiResponse) => ({
          status: r.status,
          message: r.body?.message,
          errors: r.body?.errors,
          data: r.body?.data,
          retryAfter: r.headers.get('retry-after'),
        });
        expect(visible(u.res), `round ${i}`).toEqual(visible(k.res));
        if (i < 3) continue;
        times.known.push(k.ms);
        times.unknown.push(u.ms);
      }
      const [mk, mu] = [trimmedMean(times.known), trimmedMean(times.unknown)];
      if (Math.max(mk, mu) / Math.min(mk, mu) < 1.2) return;
      measured.push(`known ${mk.toFixed(2)} ms, unknown ${mu.toFixed(2)} ms`);
    }
    expect.fail(`times differ in every measurement: ${measured.join('; ')}`);
  }

  it('password/forgot: same answer, same time, for an account and for an unknown name', async () => {
    await compare(
      (i) => post('/auth/password/forgot', { identifier: accounts[i]!.email }),
      () => post('/auth/password/forgot', { identifier: uniqueEmail('ghost') }),
      () => t.clock.advance(61_000),
    );
  });

  it('password/reset with a wrong code: same answer, same time, whether or not the account exists and has a live code', async () => {
    // The accounts hold the reset codes the previous test sent (the case that differed most).
    const body = (identifier: string) => ({ identifier, otp: '000000', new_password: 'mpyaSana2026', confirm_password: 'mpyaSana2026' });
    const res = await post('/auth/password/reset', body(uniquePhone()));
    expect(res.status).toBe(401);
    expect(res.body.errors).toEqual([{ code: 'INVALID_CREDENTIALS', message: 'code is wrong or has expired; request a new one' }]);
    await compare(
      (i) => post('/auth/password/reset', body(accounts[i]!.email)),
      () => post('/auth/password/reset', body(uniqueEmail('ghost'))),
    );
  });

  it('otp/verify with a wrong code: the same message for an account with a live code and for an unknown phone', async () => {
    const known = accounts[ROUNDS]!;
    await post('/auth/otp/send', { phone: known.phone, purpose: 'login' });
    const stranger = uniquePhone();
    await post('/auth/otp/send', { phone: stranger, purpose: 'login' });
    // Past the 5 tries too: an exhausted code answers as a wrong one does.
    for (let i = 0; i < 7; i++) {
      const k = await post('/auth/otp/verify', { phone: known.phone, purpose: 'login', code: '000000' });
      const u = await post('/auth/otp/verify', { phone: stranger, purpose: 'login', code: '000000' });
      expect(k.status).toBe(401);
      expect(u.body).toEqual({ ...k.body, meta: u.body.meta });
      expect(k.body.message).toBe('code is wrong or has expired; request a new one');
    }
  });

  it('otp/send: same answer, same time, for an account (a code written to the outbox) and for an unknown phone', async () => {
    await compare(
      (i) => post('/auth/otp/send', { phone: accounts[i]!.phone, purpose: 'login' }),
      () => post('/auth/otp/send', { phone: uniquePhone(), purpose: 'login' }),
      () => t.clock.advance(61_000),
    );
  });

  it('login with a wrong password: same answer, same time, for an account and an unknown name, and the same 423 once the name has had its hour', async () => {
    const known = accounts[ROUNDS + 1]!.email;
    let unknown = '';
    let statuses: number[] = [];
    await compare(
      async () => {
        const res = await post('/auth/login', { identifier: known, password: 'wrongpass1' });
        statuses.push(res.status);
        return res;
      },
      () => post('/auth/login', { identifier: unknown, password: 'wrongpass1' }),
      () => {
        // A new hour and a new unknown name for each measurement.
        t.clock.advance(3_600_000);
        unknown = uniqueEmail('ghost');
        statuses = [];
      },
    );
    // 20 wrong passwords an hour for one name, then its passwords are not checked, known or not.
    expect(statuses.filter((s) => s === 401)).toHaveLength(20);
    expect(statuses.filter((s) => s === 423)).toHaveLength(ROUNDS + 3 - 20);
    expect((await post('/auth/login', { identifier: known, password: PASSWORD })).status).toBe(423);
  });
});
