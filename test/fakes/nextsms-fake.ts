/**
 * A local NextSMS API: `POST /api/sms/v1/text/single` and `GET /api/sms/v1/reports?messageId=`,
 * both behind Basic `username:password` (else 401). It checks the JSON body (`from` a registered
 * sender id, `to` as 255… digits, `text`, `reference`) and answers with NextSMS's message status
 * groups (PENDING on acceptance, REJECTED with the reason). `deliver` sets the state the reports
 * API then serves, since NextSMS posts no callbacks.
 */
import { SegmentedMessage } from 'sms-segments-calculator';
import { basicCredentials, type FakeAnswer, HttpFake, json, type RecordedRequest } from './http-fake.js';

export interface NextSmsAccount {
  username: string;
  password: string;
  senderIds: string[];
}

const REJECTED: Record<string, { id: number; name: string; description: string }> = {
  credits: { id: 12, name: 'REJECTED_NOT_ENOUGH_CREDITS', description: 'Not enough credits' },
  sender: { id: 13, name: 'REJECTED_SENDER', description: 'Sender ID not registered' },
  destination: { id: 14, name: 'REJECTED_DESTINATION', description: 'Invalid destination address' },
};

const REPORT_STATUS: Record<string, { groupId: number; id: number; name: string; description: string }> = {
  PENDING: { groupId: 1, id: 7, name: 'PENDING_ENROUTE', description: 'Message sent to next instance' },
  DELIVERED: { groupId: 3, id: 5, name: 'DELIVERED_TO_HANDSET', description: 'Message delivered to handset' },
  UNDELIVERABLE: { groupId: 2, id: 9, name: 'UNDELIVERABLE_NOT_DELIVERED', description: 'Message sent not delivered' },
  EXPIRED: { groupId: 4, id: 15, name: 'EXPIRED_EXPIRED', description: 'Message expired' },
};

const unauthorised = json(401, { requestError: { serviceException: { messageId: 'UNAUTHORIZED', text: 'Invalid login details' } } });

interface Sent {
  to: string;
  reference: string;
  smsCount: number;
  group: string;
}

export class NextSmsFake extends HttpFake {
  readonly sent = new Map<string, Sent>();
  private nextId = 28_089_492_984_101;

  constructor(readonly account: NextSmsAccount) {
    super((req, scripted) => this.route(req, scripted));
  }

  private route(req: RecordedRequest, scripted: 'ok' | { reject: string }): FakeAnswer {
    const auth = basicCredentials(req.headers.authorization);
    if (!auth || auth[0] !== this.account.username || auth[1] !== this.account.password) return unauthorised;
    const url = new URL(req.url, 'http://fake');
    if (req.method === 'POST' && url.pathname === '/api/sms/v1/text/single') return this.answerSend(req, scripted);
    if (req.method === 'GET' && url.pathname === '/api/sms/v1/reports') return this.answerReports(url.searchParams.get('messageId'));
    return json(404, { message: 'Not Found' });
  }

  private answerSend(req: RecordedRequest, scripted: 'ok' | { reject: string }): FakeAnswer {
    if (!req.headers['content-type']?.startsWith('application/json'))
      return json(415, { message: 'Content-Type must be application/json' });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(req.body) as Record<string, unknown>;
    } catch {
      return json(400, { message: 'Invalid JSON' });
    }
    for (const field of ['from', 'to', 'text']) {
      if (typeof body[field] !== 'string' || body[field] === '') return json(400, { message: `The ${field} field is required.` });
    }
    const to = body.to as string;
    const text = body.text as string;
    const rejected = !this.account.senderIds.includes(body.from as string)
      ? 'sender'
      : !/^255[67]\d{8}$/.test(to)
        ? 'destination'
        : scripted === 'ok'
          ? null
          : scripted.reject;
    const messageId = String(this.nextId++);
    const smsCount = new SegmentedMessage(text, 'auto').segmentsCount;
    if (rejected) {
      const r = REJECTED[rejected];
      if (!r) throw new Error(`the NextSMS fake has no rejection ${rejected}`);
      return json(200, { messages: [{ to, status: { groupId: 5, groupName: 'REJECTED', ...r }, messageId, smsCount }] });
    }
    this.sent.set(messageId, { to, reference: String(body.reference ?? ''), smsCount, group: 'PENDING' });
    return json(200, { messages: [{ to, status: { groupName: 'PENDING', ...REPORT_STATUS.PENDING }, messageId, smsCount }] });
  }

  private answerReports(messageId: string | null): FakeAnswer {
    const sent = messageId ? this.sent.get(messageId) : undefined;
    if (!messageId || !sent) return json(200, { results: [] });
    const status = REPORT_STATUS[sent.group]!;
    const failed = sent.group !== 'DELIVERED' && sent.group !== 'PENDING';
    return json(200, {
      results: [
        {
          bulkId: '',
          messageId,
          to: sent.to,
          sentAt: '2026-11-23T10:00:00.000+0000',
          doneAt: '2026-11-23T10:00:05.000+0000',
          smsCount: sent.smsCount,
          status: { groupName: sent.group, ...status },
          error: failed
            ? {
                groupId: 1,
                groupName: 'HANDSET_ERRORS',
                id: 27,
                name: 'EC_ABSENT_SUBSCRIBER',
                description: 'Absent Subscriber',
                permanent: false,
              }
            : { groupId: 0, groupName: 'OK', id: 0, name: 'NO_ERROR', description: 'No Error', permanent: false },
        },
      ],
    });
  }

  /** Moves a sent message to `DELIVERED`, `UNDELIVERABLE` or `EXPIRED` for the reports API. */
  deliver(messageId: string, group: 'DELIVERED' | 'UNDELIVERABLE' | 'EXPIRED'): void {
    const sent = this.sent.get(messageId);
    if (!sent) throw new Error(`NextSMS never accepted ${messageId}`);
    sent.group = group;
  }
}
