#!/usr/bin/env node
// Faultline's entry point: loads the TypeScript sources through tsx so `npx faultline` works right after `npm ci`.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
