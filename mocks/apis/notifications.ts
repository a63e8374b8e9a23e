// Notifications API. Like most messaging APIs it does NOT deduplicate: every accepted POST sends a message. It
// stores the caller's client_reference so messages can be searched, which is how a caller checks an uncertain send.
import { HttpResponse } from 'msw';
import { type ApiContext, apiError, DEPENDENCY_URLS, type DependencyApi, readJson } from './types.ts';

export interface Message {
  id: string;
  recipient: string;
  channel: 'email' | 'sms';
  status: 'sent';
  client_reference?: string;
  created_ms: number;
}

const TABLE = 'notifications';

async function send(request: Request, ctx: ApiContext): Promise<Response> {
  const body = await readJson(request);
  const { recipient, channel, message, client_reference: ref } = body ?? {};
  if (typeof recipient !== 'string' || (channel !== 'email' && channel !== 'sms') || typeof message !== 'string') {
    return apiError(400, 'invalid_request', 'recipient, channel (email|sms) and message are required');
  }
  const sent: Message = {
    id: `msg_${String(ctx.state.values(TABLE).length + 1).padStart(6, '0')}`,
    recipient,
    channel,
    status: 'sent',
    ...(typeof ref === 'string' && { client_reference: ref }),
    created_ms: Date.now(),
  };
  ctx.state.put(TABLE, sent.id, sent);
  ctx.ledger.record({
    kind: 'notification.send',
    traceId: ctx.traceId,
    idempotencyKey: typeof ref === 'string' ? ref : ctx.idempotencyKey,
    args: { recipient, channel, message },
    details: { messageId: sent.id, channel },
  });
  return HttpResponse.json(sent, { status: 201 });
}

function search(url: URL, ctx: ApiContext): Response {
  const ref = url.searchParams.get('client_reference');
  const data = ctx.state.values<Message>(TABLE).filter((m) => ref === null || m.client_reference === ref);
  return HttpResponse.json({ data });
}

export const notificationsApi: DependencyApi = {
  name: 'notifications',
  baseUrl: DEPENDENCY_URLS.notifications,
  async resolve(request, ctx) {
    const url = new URL(request.url);
    if (url.pathname === '/v1/messages' && request.method === 'POST') return send(request, ctx);
    if (url.pathname === '/v1/messages' && request.method === 'GET') return search(url, ctx);
    return apiError(404, 'not_found', 'Unknown endpoint');
  },
};
