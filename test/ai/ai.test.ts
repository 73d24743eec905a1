import { AiConversation, AiConversationList, AiSuggestions, AiUsage, Envelope, PageMeta } from '@duka/shared';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, registerOwner, type Session } from '../setup/factories.js';
import { newSupplier } from '../setup/suppliers-factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const DAY = 86_400_000;
/** Dar es Salaam is UTC+3 all year. */
const darDate = (ms: number) => new Date(ms + 3 * 3_600_000).toISOString().slice(0, 10);

function helpers(get: () => TestApp) {
  const t = () => get();
  const product = async (s: { token: string }, body: Record<string, unknown>) => {
    const res = await t().request('POST', '/inventory/products', { token: s.token, body: { stock: 100, ...body } });
    expect(res.status, res.text).toBe(200);
    return res.body.data as { id: string; name: string };
  };
  const sell = async (s: { token: string }, body: Record<string, unknown>) => {
    const res = await t().request('POST', '/pos/sale', { token: s.token, body });
    expect(res.status, res.text).toBe(201);
    return res.body.data;
  };
  const chat = (s: { token: string }, body: Record<string, unknown>) => t().request('POST', '/ai/chat', { token: s.token, body });
  const ask = async (s: { token: string }, message: string) => {
    const res = await chat(s, { message });
    expect(res.status, res.text).toBe(200);
    const conv = Envelope(AiConversation).parse(res.body).data;
    return conv.messages[conv.messages.length - 1]!.content;
  };
  const usage = async (s: { token: string }) => {
    const res = await t().request('GET', '/ai/usage', { token: s.token });
    expect(res.status, res.text).toBe(200);
    return Envelope(AiUsage).parse(res.body).data;
  };
  const credits = async (s: { token: string }) => (await t().request('GET', '/accounts/ai-credits', { token: s.token })).body.data;
  const messageRows = async (orgId: string) =>
    (await t().db.db.selectFrom('ai_messages').select('id').where('org_id', '=', orgId).execute()).length;
  return { product, sell, chat, ask, usage, credits, messageRows };
}

describe('AI assistant without a gateway key: answers from the shop’s own records', () => {
  let t: TestApp;
  const h = helpers(() => t);
  let owner: Session;
  let today: string;
  let yesterday: string;
  let due: string;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await registerOwner(t);
    const sugar = await h.product(owner, { name: 'Sukari 1kg', selling_price: 3200, reorder_point: 5 });
    const rice = await h.product(owner, { name: 'Mchele 5kg', selling_price: 2500.5, stock: 3, reorder_point: 10 });
    const customer = await t.request('POST', '/customers', { token: owner.token, body: { name: 'Mussa Juma', phone: '0712345678' } });
    expect(customer.status, customer.text).toBe(200);
    // 40 days ago: a credit sale, now overdue (30 days' terms); yesterday: one cash sale.
    t.clock.advance(-40 * DAY);
    due = darDate(t.clock.now() + 30 * DAY);
    await h.sell(owner, { lines: [{ product_id: sugar.id, qty: 3 }], payment_method: 'Credit', customer_id: customer.body.data.id });
    t.clock.advance(39 * DAY);
    yesterday = darDate(t.clock.now());
    await h.sell(owner, { lines: [{ product_id: sugar.id, qty: 1 }], payment_method: 'Cash' });
    t.clock.advance(DAY);
    today = darDate(t.clock.now());
    await h.sell(owner, {
      lines: [
        { product_id: sugar.id, qty: 2 },
        { product_id: rice.id, qty: 1 },
      ],
      payment_method: 'Cash',
    });
    await h.sell(owner, { lines: [{ product_id: sugar.id, qty: 1 }], payment_method: 'M-Pesa' });
  });
  afterAll(() => t.close());

  it('sales today against yesterday, in English and in Swahili', async () => {
    expect(await h.ask(owner, 'How are sales today?')).toBe(
      `Sales today (${today}): 2 sales totalling TZS 12,100.50. Yesterday (${yesterday}): 1 sale, TZS 3,200. Up TZS 8,900.50 (+278.14%) on yesterday.`,
    );
    expect(await h.ask(owner, 'Mauzo ya leo ni kiasi gani?')).toBe(
      `Mauzo ya leo (${today}): mauzo 2, jumla TZS 12,100.50. Jana (${yesterday}): mauzo 1, TZS 3,200. Ongezeko la TZS 8,900.50 (+278.14%) kulinganisha na jana.`,
    );
  });

  it('low stock, in English and in Swahili', async () => {
    expect(await h.ask(owner, 'Which products are low in stock?')).toBe(
      '1 product is at or below the reorder point:\n- Mchele 5kg: 2 left (reorder at 10)',
    );
    expect(await h.ask(owner, 'Bidhaa zipi zinaisha?')).toBe(
      'Bidhaa 1 zinakaribia kuisha (kwenye au chini ya kiwango cha kuagiza upya):\n- Mchele 5kg: zimebaki 2 (agiza upya ikifika 10)',
    );
  });

  it('a product named is that product and "stock" alone the low-stock report; the rest it says it cannot answer', async () => {
    // "Mchele" is a Swahili word: the answer is in Swahili (languageOf).
    expect(await h.ask(owner, 'How many Mchele 5kg do I have?')).toBe('Mchele 5kg: bei TZS 2,500.50, zimebaki 2.');
    expect(await h.ask(owner, 'Sukari iliyobaki?')).toBe('Sukari 1kg: bei TZS 3,200, zimebaki 93.');
    expect(await h.ask(owner, 'Stock of maziwa')).toBe('I found no product matching "maziwa".');
    expect(await h.ask(owner, 'Stock?')).toBe('1 product is at or below the reorder point:\n- Mchele 5kg: 2 left (reorder at 10)');
    expect(await h.ask(owner, 'Stoku iko vipi?')).toMatch(/^Bidhaa 1 zinakaribia kuisha/);
    const elsewhere = (await h.ask(owner, 'Matumizi ya mwezi huu?')).split('\n\n');
    expect(elsewhere).toEqual(['Siwezi kusaidia kuhusu matumizi hapa.', expect.stringMatching(/^Ninajibu kutokana na kumbukumbu/)]);
    // A price change is never made from here; with something it does answer, only that line is added.
    expect((await h.ask(owner, 'Put milk at 1,500')).split('\n\n')).toEqual([
      'I cannot help with changing a price here.',
      expect.stringMatching(/^I answer from/),
    ]);
    expect(await h.ask(owner, 'Sales today, and my cash flow?')).toMatch(/^Sales today \(.+\n\nI cannot help with the cash flow here\.$/s);
  });

  it('who owes money, in English and in Swahili', async () => {
    expect(await h.ask(owner, 'Who owes me money?')).toBe(
      `1 customer owes you TZS 9,600 in total (1 overdue):\n- Mussa Juma: TZS 9,600, overdue (due ${due})`,
    );
    // Overdue credit: the same list, the overdue customers first and counted.
    expect(await h.ask(owner, 'Which tabs are overdue?')).toBe(
      `1 customer owes you TZS 9,600 in total (1 overdue):\n- Mussa Juma: TZS 9,600, overdue (due ${due})`,
    );
    expect(await h.ask(owner, 'Nani wanadaiwa deni?')).toBe(
      `Wateja 1 wanadaiwa jumla ya TZS 9,600 (1 wamechelewa kulipa):\n- Mussa Juma: TZS 9,600, amechelewa (ilitakiwa ${due})`,
    );
  });

  it('top products of the last 7 days (not the 40-day-old sale); staff without report rights are told so', async () => {
    const from = darDate(t.clock.now() - 6 * DAY);
    expect(await h.ask(owner, 'What are my top products?')).toBe(
      `Top products, last 7 days (${from} to ${today}):\n1. Sukari 1kg: 4 sold, TZS 12,800\n2. Mchele 5kg: 1 sold, TZS 2,500.50`,
    );
    expect(await h.ask(owner, 'Bidhaa zipi zinauzwa zaidi?')).toBe(
      `Bidhaa zinazouzwa zaidi, siku 7 zilizopita (${from} hadi ${today}):\n1. Sukari 1kg: zimeuzwa 4, TZS 12,800\n2. Mchele 5kg: zimeuzwa 1, TZS 2,500.50`,
    );
    // Best sellers on their own, not also today's sales.
    expect(await h.ask(owner, 'What sold most?')).toMatch(
      /^Top products, last 7 days \(.*\):\n1\. Sukari 1kg: 4 sold, TZS 12,800\n2\. Mchele 5kg: 1 sold, TZS 2,500\.50$/,
    );
    const staff = await createStaff(t, owner);
    expect(await h.ask(staff, 'What are my top products?')).toBe(
      'Only the shop owner or staff allowed to view reports can see the top products.',
    );
  });

  it('what to order, the orders still owed and the last stock-take, by the REST services; staff without the permission refused', async () => {
    // A shop of its own (the same clock, nothing moved): sugar sold 28 (1 a day over the 28-day window) from
    // a supplier with a 5-day lead time, rice by the kg, salt under its reorder point from no known supplier.
    const shop = await registerOwner(t);
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await t.request(method, path, { token: shop.token, body });
      expect(res.status, res.text).toBe(200);
      return res.body.data;
    };
    const supplier = await newSupplier(t, shop, { name: 'Bakhresa Wholesale', lead_time_days: 5, phone: '0712 345 678' });
    const sukari = await h.product(shop, {
      name: 'Sukari 1kg',
      selling_price: 1500,
      cost_price: 1000,
      stock: 0,
      reorder_point: 5,
      packs: [{ name: 'Bale', units: 10 }],
    });
    const mchele = await h.product(shop, { name: 'Mchele', unit: 'kg', selling_price: 3000, cost_price: 2000, stock: 0, reorder_point: 2 });
    await h.product(shop, { name: 'Chumvi', selling_price: 500, cost_price: 300, stock: 3, reorder_point: 10 });
    await call('POST', `/suppliers/${supplier.id}/deliveries`, {
      status: 'delivered',
      lines: [
        { product_id: sukari.id, qty: 30, unit_cost: 1000 },
        { product_id: mchele.id, qty: 10, unit_cost: 2000 },
      ],
    });
    await h.sell(shop, {
      lines: [
        { product_id: sukari.id, qty: 28 },
        { product_id: mchele.id, qty: 7 },
      ],
      payment_method: 'Cash',
    });
    // One bale of sugar and 4 kg of rice ordered and sent; 1 kg of rice came. A draft is not waiting for anything.
    const bale = (await call('GET', `/inventory/products/${sukari.id}`)).packs[0].id;
    const po = await call('POST', '/suppliers/purchase-orders', {
      supplier_id: supplier.id,
      lines: [
        { product_id: sukari.id, pack_id: bale, qty: 1, unit_cost: 10000 },
        { product_id: mchele.id, qty: 4, unit_cost: 2000 },
      ],
    });
    await call('POST', `/suppliers/purchase-orders/${po.id}/send`);
    await call('POST', `/suppliers/purchase-orders/${po.id}/receive`, { lines: [{ product_id: mchele.id, qty: 1 }] });
    await call('POST', '/suppliers/purchase-orders', {
      supplier_id: supplier.id,
      lines: [{ product_id: mchele.id, qty: 9, unit_cost: 2000 }],
    });

    // Sugar: 1 a day × (5 + 14) = 19 needed − 2 in stock − 10 on order = 7 → one bale of 10. Rice (4 kg, 3 kg on
    // order) lasts 16 days: not suggested. Salt: its reorder point 10 − 3 = 7.
    expect(await h.ask(shop, 'What should I order?')).toBe(
      [
        'Order 2 products (sales of the last 28 days, 14 days of cover):',
        'Bakhresa Wholesale (lead time 5 days):',
        '- Sukari 1kg: 1 × Bale (10); 2 in stock, 10 on order, 2 days left',
        'Supplier unknown (lead time 7 days):',
        '- Chumvi: 7; 3 in stock',
      ].join('\n'),
    );
    expect(await h.ask(shop, 'Nini niagize?')).toBe(
      [
        'Agiza bidhaa 2 (mauzo ya siku 28 zilizopita, akiba ya siku 14):',
        'Bakhresa Wholesale (huleta baada ya siku 5):',
        '- Sukari 1kg: Bale 1 (10); stoku 2, zimeagizwa 10, zinatosha siku 2',
        'Msambazaji hajulikani (huleta baada ya siku 7):',
        '- Chumvi: 7; stoku 3',
      ].join('\n'),
    );
    expect(await h.ask(shop, 'Which orders are still owed?')).toBe(
      `1 purchase order is waiting for delivery:\n- ${po.reference}, Bakhresa Wholesale (partly received): still owed 1 × Bale Sukari 1kg, 3 kg Mchele`,
    );
    expect(await h.ask(shop, 'Oda zipi bado hazijafika?')).toBe(
      `Oda 1 zinasubiri mzigo:\n- ${po.reference}, Bakhresa Wholesale (imepokelewa sehemu): bado 1 × Bale Sukari 1kg, 3 kg Mchele`,
    );

    expect(await h.ask(shop, 'Last stock count variance')).toBe('No stock-take has been made in this store yet.');
    // A count: sugar 0 of 2 (2 short at TZS 1,000), rice 4.5 kg of 4 (0.5 kg over at TZS 2,000); applied. A later one cancelled.
    const take = await call('POST', '/inventory/stock-takes', { scope: 'products', product_ids: [sukari.id, mchele.id] });
    await call('POST', `/inventory/stock-takes/${take.id}/counts`, {
      counts: [
        { id: randomUUID(), product_id: sukari.id, qty: 0 },
        { id: randomUUID(), product_id: mchele.id, qty: 4.5 },
      ],
    });
    await call('POST', `/inventory/stock-takes/${take.id}/apply`, { uncounted: 'leave' });
    const dropped = await call('POST', '/inventory/stock-takes', { scope: 'products', product_ids: [mchele.id] });
    await call('POST', `/inventory/stock-takes/${dropped.id}/cancel`);
    expect(await h.ask(shop, 'Last stock count variance')).toBe(
      [
        'The last stock-take:',
        `- ${today}, applied: 2 of 2 products counted, 1 over, 1 short, variance TZS -1,000 at cost`,
        `Differences in the latest (${today}):`,
        '- Sukari 1kg: 2 short (TZS -2,000)',
        '- Mchele: 0.5 kg over (TZS 1,000)',
      ].join('\n'),
    );
    expect(await h.ask(shop, 'Hesabu ya stoku ya mwisho ni tofauti gani?')).toBe(
      [
        'Hesabu ya mwisho ya stoku:',
        `- ${today}, imekamilika: bidhaa 2 kati ya 2 zimehesabiwa, 1 zimezidi, 1 zimepungua, tofauti TZS -1,000 kwa bei ya kununulia`,
        `Tofauti katika hesabu ya mwisho (${today}):`,
        '- Sukari 1kg: pungufu 2 (TZS -2,000)',
        '- Mchele: ziada 0.5 kg (TZS 1,000)',
      ].join('\n'),
    );

    // Staff without the suppliers and stock permissions are refused those two, with no figure; the
    // suggestions are any member's of the store (as the route's). Another shop sees none of it.
    const staff = await createStaff(t, shop);
    expect(await h.ask(staff, 'Which orders are still owed?')).toBe(
      'Only the shop owner or staff allowed to manage suppliers can see the purchase orders.',
    );
    expect(await h.ask(staff, 'Last stock count variance')).toBe(
      'Only the shop owner or staff allowed to adjust stock can see the stock-takes.',
    );
    // After the count, sugar is at 0: 19 − 0 − 10 on order = 9 → still one bale.
    expect(await h.ask(staff, 'What should I order?')).toBe(
      [
        'Order 2 products (sales of the last 28 days, 14 days of cover):',
        'Bakhresa Wholesale (lead time 5 days):',
        '- Sukari 1kg: 1 × Bale (10); 0 in stock, 10 on order, 0 days left',
        'Supplier unknown (lead time 7 days):',
        '- Chumvi: 7; 3 in stock',
      ].join('\n'),
    );
    const other = await registerOwner(t);
    expect(await h.ask(other, 'Which orders are still owed?')).toBe('No purchase order is waiting for delivery.');
    expect(await h.ask(other, 'Last stock count variance')).toBe('No stock-take has been made in this store yet.');
    expect(await h.ask(other, 'What should I order?')).toBe(
      "Nothing to order: no product is at its reorder point or runs out within its supplier's lead time (sales of the last 28 days).",
    );
  });

  it('lists what it can answer when the question is not understood', async () => {
    const en = await h.ask(owner, 'hello there');
    expect(en.split('\n')[0]).toBe("I answer from your shop's own records. Ask me about:");
    expect(en.split('\n')).toHaveLength(8);
    expect((await h.ask(owner, 'Habari, unaweza kunisaidia?')).split('\n')[0]).toBe(
      'Ninajibu kutokana na kumbukumbu za duka lako. Niulize kuhusu:',
    );
  });

  it('a conversation: start, continue, list, read, rename and archive; each message costs one credit', async () => {
    const shop = await registerOwner(t);
    const start = await h.chat(shop, { message: 'Mauzo ya leo?', title: 'Hesabu za leo' });
    expect(start.status, start.text).toBe(200);
    const conv = Envelope(AiConversation).parse(start.body).data;
    expect(conv).toMatchObject({ title: 'Hesabu za leo', message_count: 2, is_active: true, tokens_used: 0 });
    expect(conv.messages.map((m) => [m.role, m.source])).toEqual([
      ['user', null],
      ['assistant', 'local'],
    ]);
    expect(conv.messages[0]!.content).toBe('Mauzo ya leo?');
    expect(conv.messages[1]!.content).toBe(
      `Mauzo ya leo (${today}): mauzo 0, jumla TZS 0. Jana (${yesterday}): mauzo 0, TZS 0. Sawa na jana.`,
    );

    const more = await t.request('POST', `/ai/conversations/${conv.id}/chat`, {
      token: shop.token,
      body: { message: 'Who owes me money?' },
    });
    expect(more.status, more.text).toBe(200);
    const continued = Envelope(AiConversation).parse(more.body).data;
    expect(continued.message_count).toBe(4);
    expect(continued.messages.map((m) => m.content)).toEqual([
      'Mauzo ya leo?',
      conv.messages[1]!.content,
      'Who owes me money?',
      'No customer owes you money.',
    ]);

    const untitled = Envelope(AiConversation).parse(
      (await h.chat(shop, { message: 'Which products are low in stock?\nthanks' })).body,
    ).data;
    expect(untitled.title).toBe('Which products are low in stock?');

    const listed = await t.request('GET', '/ai/conversations', { token: shop.token });
    expect(listed.status, listed.text).toBe(200);
    const list = Envelope(AiConversationList, PageMeta).parse(listed.body).data;
    expect(list.count).toBe(2);
    expect(list.conversations.map((c) => [c.id, c.message_count])).toEqual([
      [untitled.id, 2],
      [conv.id, 4],
    ]);

    const read = await t.request('GET', `/ai/conversations/${conv.id}`, { token: shop.token });
    expect(Envelope(AiConversation).parse(read.body).data).toEqual(continued);

    const renamed = await t.request('PATCH', `/ai/conversations/${conv.id}`, { token: shop.token, body: { title: 'Mauzo na madeni' } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.data).toMatchObject({ title: 'Mauzo na madeni', is_active: true, message_count: 4 });
    const archived = await t.request('PATCH', `/ai/conversations/${conv.id}`, { token: shop.token, body: { is_active: false } });
    expect(archived.body.data).toMatchObject({ title: 'Mauzo na madeni', is_active: false });
    expect((await t.request('PATCH', `/ai/conversations/${conv.id}`, { token: shop.token, body: {} })).status).toBe(400);

    const refused = await t.request('POST', `/ai/conversations/${conv.id}/chat`, { token: shop.token, body: { message: 'Mauzo?' } });
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].code).toBe('INVALID_STATE');
    const onlyArchived = (await t.request('GET', '/ai/conversations?is_active=false', { token: shop.token })).body.data;
    expect(onlyArchived).toMatchObject({ count: 1, conversations: [{ id: conv.id, is_active: false }] });
    const onlyActive = (await t.request('GET', '/ai/conversations?is_active=true', { token: shop.token })).body.data;
    expect(onlyActive.conversations.map((c: { id: string }) => c.id)).toEqual([untitled.id]);

    // 3 messages answered = 3 credits; the refused one took none.
    expect(await h.usage(shop)).toMatchObject({
      tokens_used: 0,
      conversations_count: 2,
      credits_used: 3,
      credits_remaining: 97,
      credits_allocated: 100,
    });
    expect(await h.credits(shop)).toMatchObject({ used: 3, remaining: 97 });
  });

  it("another user's conversation is 404 (same organisation or another), and costs nothing", async () => {
    const shop = await registerOwner(t);
    const mine = Envelope(AiConversation).parse((await h.chat(shop, { message: 'Mauzo?' })).body).data;
    const colleague = await createStaff(t, shop);
    const stranger = await registerOwner(t);
    for (const other of [colleague, stranger]) {
      expect((await t.request('GET', `/ai/conversations/${mine.id}`, { token: other.token })).status).toBe(404);
      expect((await t.request('PATCH', `/ai/conversations/${mine.id}`, { token: other.token, body: { title: 'x' } })).status).toBe(404);
      const chat = await t.request('POST', `/ai/conversations/${mine.id}/chat`, { token: other.token, body: { message: 'Mauzo?' } });
      expect(chat.status).toBe(404);
      expect((await t.request('GET', '/ai/conversations', { token: other.token })).body.data).toEqual({ conversations: [], count: 0 });
    }
    expect((await h.credits(shop)).used).toBe(1);
    expect((await h.credits(stranger)).used).toBe(0);
    expect((await t.request('GET', `/ai/conversations/${mine.id}`, { token: shop.token })).body.data.message_count).toBe(2);
  });

  it('suggestions in English and Swahili with the credits; validation and auth', async () => {
    const shop = await registerOwner(t);
    await h.ask(shop, 'Mauzo?');
    const res = await t.request('GET', '/ai/suggestions', { token: shop.token });
    expect(res.status, res.text).toBe(200);
    const s = Envelope(AiSuggestions).parse(res.body).data;
    expect(s.mode).toBe('local');
    expect(s.credits).toEqual(await h.credits(shop));
    expect(s.credits).toMatchObject({ used: 1, allocated: 100, remaining: 99 });
    expect(new Set(s.suggestions.map((x) => x.language))).toEqual(new Set(['en', 'sw']));
    expect(new Set(s.suggestions.map((x) => x.topic))).toEqual(new Set(['sales_today', 'low_stock', 'top_products', 'customer_credit']));
    // Every suggestion is understood by the local answerer (none falls back to the help text).
    for (const x of s.suggestions) expect(await h.ask(shop, x.text)).not.toMatch(/^(I answer from|Ninajibu kutokana)/);

    expect((await h.chat(shop, { message: '   ' })).status).toBe(400);
    expect((await h.chat(shop, { message: 'x'.repeat(4001) })).status).toBe(400);
    expect((await t.request('GET', '/ai/conversations/not-a-uuid', { token: shop.token })).status).toBe(400);
  });
});

describe('AI credits: the message after the last credit is refused and writes nothing', () => {
  let t: TestApp;
  const h = helpers(() => t);
  beforeAll(async () => {
    t = await createTestApp();
    // The free plan is the source of the monthly allowance (billing).
    await t.db.db.updateTable('plans').set({ ai_credits_monthly: 2 }).where('code', '=', 'free').execute();
  });
  afterAll(() => t.close());

  it('2 credits on the free plan: two messages answered, the third is 402 PLAN_LIMIT naming the plan with more', async () => {
    const owner = await registerOwner(t);
    const conv = Envelope(AiConversation).parse((await h.chat(owner, { message: 'Mauzo ya leo?' })).body).data;
    const second = await t.request('POST', `/ai/conversations/${conv.id}/chat`, {
      token: owner.token,
      body: { message: 'Who owes me money?' },
    });
    expect(second.status, second.text).toBe(200);
    expect(await h.messageRows(owner.orgId)).toBe(4);

    const third = await t.request('POST', `/ai/conversations/${conv.id}/chat`, {
      token: owner.token,
      body: { message: 'Bidhaa zipi zinaisha?' },
    });
    expect(third.status).toBe(402);
    expect(third.body.errors[0]).toMatchObject({ code: 'PLAN_LIMIT', field: 'ai_credits' });
    expect(third.body.message).toBe('your plan allows 2 AI credits a month and 2 are used; the Business plan (biashara) lifts this limit');
    const fresh = await h.chat(owner, { message: 'Mauzo?', title: 'New' });
    expect(fresh.status).toBe(402);
    expect(fresh.body.errors[0].code).toBe('PLAN_LIMIT');

    expect(await h.messageRows(owner.orgId)).toBe(4);
    expect((await t.request('GET', `/ai/conversations/${conv.id}`, { token: owner.token })).body.data.message_count).toBe(4);
    expect((await t.request('GET', '/ai/conversations', { token: owner.token })).body.data.count).toBe(1);
    expect(await h.usage(owner)).toMatchObject({ credits_used: 2, credits_remaining: 0, credits_allocated: 2, conversations_count: 1 });
    expect(await h.credits(owner)).toMatchObject({ used: 2, allocated: 2, remaining: 0, percentage: 100 });

    // Credits are the organisation's: a colleague is refused too; another organisation is not.
    const staff = await createStaff(t, owner);
    expect((await h.chat(staff, { message: 'Mauzo?' })).status).toBe(402);
    const other = await registerOwner(t);
    expect((await h.chat(other, { message: 'Mauzo?' })).status).toBe(200);
  });
});

interface Seen {
  authorization: string | undefined;
  path: string | undefined;
  body: any;
}

describe('AI assistant with a gateway key: an OpenAI-compatible chat API with the shop tools', () => {
  let t: TestApp;
  const h = helpers(() => t);
  let server: Server;
  const seen: Seen[] = [];
  let mode: 'tools' | 'fail' = 'tools';
  const KEY = 'sk-test-duka-0123456789';

  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let data = '';
      req.on('data', (c) => (data += c));
      req.on('end', () => resolve(data));
    });

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const body = JSON.parse(await readBody(req));
      seen.push({ authorization: req.headers.authorization, path: req.url, body });
      res.setHeader('content-type', 'application/json');
      if (mode === 'fail') {
        res.statusCode = 500;
        res.end(JSON.stringify({ error: { message: 'upstream exploded' } }));
        return;
      }
      const last = body.messages[body.messages.length - 1];
      if (last.role === 'user') {
        res.end(
          JSON.stringify({
            choices: [
              {
                message: {
                  role: 'assistant',
                  content: null,
                  tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_sales_today', arguments: '{}' } }],
                },
              },
            ],
            usage: { total_tokens: 120 },
          }),
        );
        return;
      }
      const result = JSON.parse(last.content);
      res.end(
        JSON.stringify({
          choices: [{ message: { role: 'assistant', content: `Leo umeuza mara ${result.sales_count}, jumla TZS ${result.revenue}.` } }],
          usage: { total_tokens: 80 },
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    t = await createTestApp({ config: { AI_GATEWAY_URL: `http://127.0.0.1:${port}/v1` } });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends history and tools with the key, runs the tool call, stores the answer and its tokens; a 500 gives the credit back', async () => {
    const owner = await registerOwner(t);
    const sugar = await h.product(owner, { name: 'Sukari 1kg', selling_price: 3200 });
    await h.sell(owner, { lines: [{ product_id: sugar.id, qty: 2 }], payment_method: 'Cash' });
    const set = await t.request('PATCH', '/accounts/organisation', { token: owner.token, body: { aigateway_api_key: KEY } });
    expect(set.status, set.text).toBe(200);
    expect((await t.request('GET', '/ai/suggestions', { token: owner.token })).body.data.mode).toBe('gateway');

    const res = await h.chat(owner, { message: 'Nimeuza kiasi gani leo?' });
    expect(res.status, res.text).toBe(200);
    const conv = Envelope(AiConversation).parse(res.body).data;
    expect(conv.messages.map((m) => [m.role, m.content, m.source, m.tokens_used])).toEqual([
      ['user', 'Nimeuza kiasi gani leo?', null, 0],
      ['assistant', 'Leo umeuza mara 1, jumla TZS 6400.', 'gateway', 200],
    ]);
    expect(conv.tokens_used).toBe(200);

    expect(seen).toHaveLength(2);
    const [first, second] = seen as [Seen, Seen];
    expect(first.authorization).toBe(`Bearer ${KEY}`);
    expect(first.path).toBe('/v1/chat/completions');
    expect(first.body.model).toBe('gpt-4o-mini');
    expect(first.body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
    expect(first.body.messages[1].content).toBe('Nimeuza kiasi gani leo?');
    expect(first.body.tools.map((x: { type: string; function: { name: string } }) => `${x.type}:${x.function.name}`).sort()).toEqual([
      'function:get_customer_debts',
      'function:get_low_stock',
      'function:get_open_purchase_orders',
      'function:get_reorder_suggestions',
      'function:get_sales_today',
      'function:get_stock_takes',
      'function:get_top_products',
    ]);
    expect(second.authorization).toBe(`Bearer ${KEY}`);
    const toolMessage = second.body.messages[second.body.messages.length - 1];
    expect(toolMessage).toMatchObject({ role: 'tool', tool_call_id: 'call_1' });
    expect(JSON.parse(toolMessage.content)).toMatchObject({ sales_count: 1, revenue: 6400, date: darDate(t.clock.now()) });
    expect(second.body.messages[second.body.messages.length - 2]).toMatchObject({
      role: 'assistant',
      tool_calls: [{ id: 'call_1', function: { name: 'get_sales_today' } }],
    });

    const stored = Envelope(AiConversation).parse(
      (await t.request('GET', `/ai/conversations/${conv.id}`, { token: owner.token })).body,
    ).data;
    expect(stored).toEqual(conv);
    expect(await h.usage(owner)).toMatchObject({ tokens_used: 200, credits_used: 1, conversations_count: 1 });

    // The history goes with the next question.
    seen.length = 0;
    const next = await t.request('POST', `/ai/conversations/${conv.id}/chat`, { token: owner.token, body: { message: 'Na jana?' } });
    expect(next.status, next.text).toBe(200);
    expect(seen[0]!.body.messages.slice(1)).toEqual([
      { role: 'user', content: 'Nimeuza kiasi gani leo?' },
      { role: 'assistant', content: 'Leo umeuza mara 1, jumla TZS 6400.' },
      { role: 'user', content: 'Na jana?' },
    ]);
    expect(await h.usage(owner)).toMatchObject({ tokens_used: 400, credits_used: 2 });

    // Upstream 500: 503 with the reason, the credit back, the message not kept.
    mode = 'fail';
    seen.length = 0;
    const failed = await t.request('POST', `/ai/conversations/${conv.id}/chat`, {
      token: owner.token,
      body: { message: 'Bidhaa zipi zinaisha?' },
    });
    expect(failed.status).toBe(503);
    expect(failed.body.errors[0].code).toBe('SERVICE_UNAVAILABLE');
    expect(failed.body.meta).toMatchObject({ reason: 'AI_GATEWAY_ERROR', upstream_status: 500 });
    expect(failed.body.message).toBe('the AI service answered HTTP 500; your credit was given back, send the message again');
    expect(failed.text).not.toContain(KEY);
    expect(seen).toHaveLength(1);
    const after = (await t.request('GET', `/ai/conversations/${conv.id}`, { token: owner.token })).body.data;
    expect(after.message_count).toBe(4);
    expect(after.updated_at).toBe(Envelope(AiConversation).parse(next.body).data.updated_at);
    const newChat = await h.chat(owner, { message: 'Mauzo?' });
    expect(newChat.status).toBe(503);
    expect((await t.request('GET', '/ai/conversations', { token: owner.token })).body.data.count).toBe(1);
    expect(await h.messageRows(owner.orgId)).toBe(4);
    expect(await h.usage(owner)).toMatchObject({ tokens_used: 400, credits_used: 2, credits_remaining: 98 });
    expect(await h.credits(owner)).toMatchObject({ used: 2 });
    mode = 'tools';
  });
});

describe('AI assistant with a gateway that cannot be reached', () => {
  let t: TestApp;
  const h = helpers(() => t);
  beforeAll(async () => {
    // A port that was free a moment ago and is closed now: the connection is refused.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    t = await createTestApp({ config: { AI_GATEWAY_URL: `http://127.0.0.1:${port}/v1` } });
  });
  afterAll(() => t.close());

  it('503 saying so, the credit back, nothing kept', async () => {
    const owner = await registerOwner(t);
    await t.request('PATCH', '/accounts/organisation', { token: owner.token, body: { aigateway_api_key: 'sk-unreachable' } });
    const res = await h.chat(owner, { message: 'Mauzo ya leo?' });
    expect(res.status).toBe(503);
    expect(res.body.message).toBe('the AI service could not be reached; your credit was given back, send the message again');
    expect(res.body.meta.reason).toBe('AI_GATEWAY_ERROR');
    expect(await h.messageRows(owner.orgId)).toBe(0);
    expect(await h.usage(owner)).toMatchObject({ credits_used: 0, conversations_count: 0, tokens_used: 0 });

    // Clearing the key brings back the local answers.
    await t.request('PATCH', '/accounts/organisation', { token: owner.token, body: { aigateway_api_key: null } });
    const local = await h.chat(owner, { message: 'Mauzo ya leo?' });
    expect(local.status, local.text).toBe(200);
    expect(local.body.data.messages[1]).toMatchObject({ source: 'local', tokens_used: 0 });
  });
});
