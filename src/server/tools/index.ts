// The reference server's tools: those both eras serve, and those only the 2026-07-28 wire can (input_required, tasks).
import { createPayment } from './create-payment.ts';
import { generateReport } from './generate-report.ts';
import { getPaymentStatus } from './get-payment-status.ts';
import { refreshCredentials } from './refresh-credentials.ts';
import { searchDocuments } from './search-documents.ts';
import { sendNotification } from './send-notification.ts';
import { settleBatch } from './settle-batch.ts';
import { transferFunds } from './transfer-funds.ts';
import type { ToolDef } from './types.ts';

export const TOOLS: readonly ToolDef[] = [
  createPayment,
  getPaymentStatus,
  sendNotification,
  searchDocuments,
  generateReport,
  refreshCredentials,
] as unknown as readonly ToolDef[];

/** The 2026-07-28 front end's tools: every tool of both eras and those only its wire can carry. */
export const MODERN_TOOLS: readonly ToolDef[] = [...TOOLS, transferFunds, settleBatch] as unknown as readonly ToolDef[];
