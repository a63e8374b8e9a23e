// The reference server's tools.
import { createPayment } from './create-payment.ts';
import { generateReport } from './generate-report.ts';
import { getPaymentStatus } from './get-payment-status.ts';
import { refreshCredentials } from './refresh-credentials.ts';
import { searchDocuments } from './search-documents.ts';
import { sendNotification } from './send-notification.ts';
import type { ToolDef } from './types.ts';

export const TOOLS: readonly ToolDef[] = [
  createPayment,
  getPaymentStatus,
  sendNotification,
  searchDocuments,
  generateReport,
  refreshCredentials,
] as unknown as readonly ToolDef[];
