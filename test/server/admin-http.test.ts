// The HTTP admin endpoint: bearer token required, same operations as the IPC control channel.
import { afterEach, describe, expect, it } from 'vitest';
import { AdminClient, type AdminHttpServer, startAdminHttp } from '../../src/control/admin-http.ts';
import { call, connect, key, payment, startServer } from './helpers.ts';

let admin: AdminHttpServer | undefined;
afterEach(async () => {
  await admin?.close();
  admin = undefined;
});

describe('admin HTTP endpoint', () => {
  it('rejects a missing or wrong token with 401 and serves the ledger with the right one', async () => {
    const server = await startServer();
    admin = await startAdminHttp(server, { token: 's3cret-admin-token' });
    expect(admin.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${admin.url}/ledger`)).status).toBe(401);
    expect((await fetch(`${admin.url}/ledger`, { headers: { authorization: 'Bearer nope' } })).status).toBe(401);

    const { client } = await connect(server.url);
    await call(client, 'create_payment', payment(key('pay')), { traceId: 'op-admin' });
    const res = await fetch(`${admin.url}/ledger`, { headers: { authorization: 'Bearer s3cret-admin-token' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([expect.objectContaining({ kind: 'payment.charge', traceId: 'op-admin' })]);

    const control = new AdminClient(admin.url, 's3cret-admin-token');
    await control.call('setDependencyFaults', [{ id: 'down', dependency: 'search', kind: 'status', status: 503 }]);
    expect((await call(client, 'search_documents', { query: '*' })).isError).toBe(true);
    await expect(control.call('setDependencyFaults', [{ id: 'bad', kind: 'nope' } as never])).rejects.toThrow(
      /HTTP 400.*unknown dependency fault/,
    );
    await control.call('reset');
    expect(await control.call('ledger')).toEqual([]);
  });
});
