/**
 * The chaos run's end check of credit, what a shop owner reads in a customer's credit profile:
 * every payment a till took is on the server exactly once (by its reference) with its amount and
 * customer; each credit sale has one tab for its total (a split sale's for its credit part), written off or settled once the sale is
 * reversed; a tab has been paid exactly what the payments' allocations say, and a payment's
 * allocations add up to it; what each customer owes is the sum of their tabs, on the server and in
 * every till's replica.
 */
import type { Owner } from './actors.js';
import type { TillReport } from './protocol.js';

/** Every customer's credit profile (tabs and payments), as the owner reads it. */
export async function readCredit(owner: Owner): Promise<any[]> {
  const profiles = [];
  for (const c of await owner.all('/customers', 'items')) profiles.push((await owner.call('GET', `/credits/customers/${c.id}`)).data);
  return profiles;
}

const cents = (tzs: number) => Math.round(tzs * 100);

export function checkCredit(reports: TillReport[], transactions: any[], profiles: any[]): string[] {
  const failures: string[] = [];
  const fail = (msg: string) => failures.length < 30 && failures.push(msg);
  const onServer = new Map<string, any[]>();
  for (const p of profiles.flatMap((x) => x.payments)) onServer.set(p.reference, [...(onServer.get(p.reference) ?? []), p]);
  const taken = reports.flatMap((r) => r.payments);
  for (const p of taken) {
    const found = onServer.get(p.reference) ?? [];
    onServer.delete(p.reference);
    if (found.length !== 1) fail(`credit payment ${p.reference} of TZS ${p.amount}: on the server ${found.length} times`);
    else if (cents(found[0].amount) !== cents(p.amount) || found[0].customer_id !== p.customer_id)
      fail(
        `credit payment ${p.reference}: till took TZS ${p.amount} from ${p.customer_id}, server has TZS ${found[0].amount} from ${found[0].customer_id}`,
      );
  }
  for (const [ref, list] of onServer) fail(`${list.length} credit payment(s) on the server no till took (reference ${ref})`);

  // A credit sale, or a split one with a credit part (issue 51): its tab holds that part.
  const creditPart = (t: any): number | undefined =>
    t.payment_method === 'Credit' ? t.total : t.payments?.find((p: any) => p.method === 'Credit')?.amount;
  const sales = new Map(transactions.filter((t) => creditPart(t) !== undefined).map((t) => [t.id, t]));
  const allocated = new Map<string, number>();
  for (const p of profiles.flatMap((x) => x.payments)) {
    const sum = p.allocations.reduce((n: number, a: any) => n + cents(a.amount), 0);
    if (sum !== cents(p.amount)) fail(`credit payment ${p.reference}: TZS ${p.amount} spread as ${sum / 100}`);
    for (const a of p.allocations) allocated.set(a.tab_id, (allocated.get(a.tab_id) ?? 0) + cents(a.amount));
  }
  for (const profile of profiles) {
    const c = profile.customer;
    let owed = 0;
    for (const tab of profile.tabs) {
      const sale = sales.get(tab.transaction_id);
      sales.delete(tab.transaction_id);
      if (!sale) {
        fail(`${c.name}: tab ${tab.id} for a sale that is not a credit sale of a till, or a second tab of one`);
        continue;
      }
      if (cents(tab.amount) !== cents(creditPart(sale)!))
        fail(`${c.name}: tab of ${sale.receipt_number} for TZS ${tab.amount}, the sale put TZS ${creditPart(sale)} on credit`);
      if (cents(tab.paid_amount) !== (allocated.get(tab.id) ?? 0))
        fail(
          `${c.name}: tab of ${sale.receipt_number} paid TZS ${tab.paid_amount}, payments allocated TZS ${(allocated.get(tab.id) ?? 0) / 100}`,
        );
      const reversed = sale.status !== 'credit';
      const open = cents(tab.amount) - cents(tab.paid_amount);
      if (reversed ? !['written_off', 'settled'].includes(tab.status) || cents(tab.balance) !== 0 : cents(tab.balance) !== open)
        fail(`${c.name}: tab of ${sale.receipt_number} (sale ${sale.status}) is ${tab.status} owing TZS ${tab.balance}`);
      owed += cents(tab.balance);
    }
    if (cents(c.outstanding_balance) !== owed || cents(profile.total_outstanding) !== owed)
      fail(`${c.name} owes TZS ${c.outstanding_balance} (profile ${profile.total_outstanding}); their tabs add up to ${owed / 100}`);
    for (const r of reports) {
      if (c.id in r.customers && cents(r.customers[c.id]!) !== cents(c.outstanding_balance))
        fail(`${c.name}: till ${r.deviceId} shows TZS ${r.customers[c.id]} owed, server ${c.outstanding_balance}`);
    }
  }
  for (const s of sales.values()) fail(`credit sale ${s.receipt_number} has no tab`);
  return failures;
}
