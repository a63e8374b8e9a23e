// An environment variable's name, as profiles write them (a target's env, its admin token variable, hooks).
import { z } from 'zod';

export const envVarName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name');
