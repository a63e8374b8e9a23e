// The server drops the standalone GET SSE stream and refuses it back, so the SDK client runs out of reconnect
// attempts ("Maximum reconnection attempts" on client.onerror) and silently lives without it from then on.
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { defineBehaviour } from './behaviour.ts';

export const getStreamDrop = defineBehaviour({
  kind: 'get-stream-drop',
  summary: 'the standalone GET stream is closed and refused until the client gives up reconnecting',
  covers: ['protocol'],
  params: z.strictObject({
    refuseStatus: z
      .number()
      .int()
      .min(400)
      .max(599)
      .default(503)
      .describe('HTTP status that answers every GET for the standalone stream while the window is open'),
  }),
  counters: ['standaloneStreamsClosed', 'getsRefused'],
  removedOnModernWire: 'the standalone GET stream is gone on the 2026-07-28 wire (subscriptions/listen replaces it)',
  opened(_p, host) {
    for (const session of host.sessions.values()) {
      // closeStandaloneSSEStream is a no-op when the session has no GET stream open.
      if (hasStandaloneStream(session.transport)) host.count('standaloneStreamsClosed');
      session.transport.closeStandaloneSSEStream();
    }
  },
  request(p, req, res, _session, host) {
    if (req.method !== 'GET') return false;
    host.count('getsRefused');
    host.reply(res, p.refuseStatus, -32000, 'Service Unavailable: the standalone SSE stream is refused');
    return true;
  },
});

/** Whether the transport has its standalone GET stream open (SDK-internal map; only used for a statistic). */
function hasStandaloneStream(transport: StreamableHTTPServerTransport): boolean {
  const inner = (transport as unknown as { _webStandardTransport?: { _streamMapping?: Map<string, unknown> } })
    ._webStandardTransport;
  return inner?._streamMapping?.has('_GET_stream') ?? false;
}
