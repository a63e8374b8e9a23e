// Notifications API. Like most messaging APIs it does NOT deduplicate: every accepted POST sends a message. It
// stores the caller's client_reference so messages can be searched, which is how a caller checks an uncertain send.
import { DEPENDENCY_PATHS, type Message } from '../../src/core/dependency-contract.ts';
import { type ApiContext, apiError, defineApi, get, post, readJson } from './types.ts';

const TABLE = 'notifications';

async function send(request: Request, ctx: ApiContext): Promise<Response> {
  const body = await readJson(request);
  const { recipient, channel, message, client_reference: ref } = body ?? {};
  if (typeof recipient !== 'string' || (channel !== 'email' && channel !== 'sms') || typeof message !== 'string') {
    return apiError(400, 'invalid_request', 'recipient, channel (email|sms) and message are required');
  }
  const sent: Message = {
    id: `msg_${String(ctx.state.size(TABLE) + 1).padStart(6, '0')}`,
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
  return Response.json(sent, { status: 201 });
}

function search(request: Request, ctx: ApiContext): Response {
  const ref = new URL(request.url).searchParams.get('client_reference');
  const data = ctx.state.values<Message>(TABLE).filter((m) => ref === null || m.client_reference === ref);
  return Response.json({ data });
}

export const notificationsApi = defineApi('notifications', [
  post(DEPENDENCY_PATHS.messages, send),
  get(DEPENDENCY_PATHS.messages, search),
]);
