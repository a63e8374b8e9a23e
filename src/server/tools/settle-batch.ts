// A long settlement that runs as a task (2026-07-28 Tasks extension): tools/call answers with a task at once, the
// work takes a while, then charges as create_payment does (same ledger effect, same idempotency key, same status
// lookup). The task is claimed before the charge, so a cancel either stops it with nothing charged or is refused
// because the charge is under way: one outcome, at most one effect. Served on the 2026-07-28 wire only.
import { sleep } from '../../core/sleep.ts';
import { Cancelled } from '../errors.ts';
import { createPayment } from './create-payment.ts';
import { defineTool } from './types.ts';

/** How long the settlement works before it charges: long enough for a few polls and a cancel to land. */
const WORK_MS = 300;

export const settleBatch = defineTool({
  ...createPayment,
  name: 'settle_batch',
  title: 'Settle a charge as a long-running task',
  description: [
    'Charges a customer like create_payment, as a task: the call returns a task id at once; poll tasks/get until',
    'it is completed (its result is then in the answer) and cancel with tasks/cancel. If a poll fails, poll the',
    'same task id again: do not call settle_batch again, or use the SAME idempotency_key if you must.',
    'Example: {"customer_id":"cus_4711","amount_cents":1250,"currency":"USD","idempotency_key":"pay-2f9c1e7a-0001"}',
  ].join(' '),
  runsAsTask: true,
  async run(args, ctx) {
    const task = ctx.task;
    if (!(await sleep(WORK_MS, ctx.signal)) || (task && !task.commit())) throw new Cancelled();
    return createPayment.run(args, ctx);
  },
});
