import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok } from '../../lib/route.js';
import * as routes from './credits.routes.js';
import { addCreditNote, logCreditMessage, sendReminder } from './services/contacts.js';
import { listCreditTabs, writeOffTab } from './services/credit-tabs.js';
import { recordCreditPaymentOnce } from './services/credit-payments.js';
import { getCreditProfile } from './services/profile.js';

export const creditsRouter: Router = createRouter()
  .openapi(routes.list, async (c) => {
    const { items, meta } = await listCreditTabs(authedCtx(c), c.req.valid('query'));
    return ok(c, items, { meta });
  })
  .openapi(routes.profile, async (c) => ok(c, await getCreditProfile(authedCtx(c), c.req.valid('param').customer_id)))
  .openapi(routes.pay, async (c) => {
    const { payment, replayed } = await recordCreditPaymentOnce(
      authedCtx(c),
      c.req.valid('param').customer_id,
      c.req.valid('json'),
      c.req.valid('header')['idempotency-key'],
    );
    if (replayed) c.header('Idempotent-Replayed', 'true');
    return ok(c, payment, { message: replayed ? 'payment already recorded' : 'payment recorded' });
  })
  .openapi(routes.remind, async (c) => {
    const message = await sendReminder(authedCtx(c), c.req.valid('param').customer_id);
    const said = {
      sent: 'reminder sent',
      pending: `the SMS gateway did not take the reminder yet (${message.failure_reason}); it will be retried`,
      failed: `the SMS gateway refused the reminder: ${message.failure_reason}`,
    };
    return ok(c, message, { message: said[message.status as keyof typeof said] ?? 'reminder sent' });
  })
  .openapi(routes.message, async (c) =>
    ok(c, await logCreditMessage(authedCtx(c), c.req.valid('param').customer_id, c.req.valid('json')), { message: 'message logged' }),
  )
  .openapi(routes.note, async (c) =>
    ok(c, await addCreditNote(authedCtx(c), c.req.valid('param').customer_id, c.req.valid('json')), { message: 'note added' }),
  )
  .openapi(routes.writeOff, async (c) =>
    ok(c, await writeOffTab(authedCtx(c), c.req.valid('param').tab_id, c.req.valid('json')), { message: 'credit written off' }),
  );
