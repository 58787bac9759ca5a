#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx: no separate server build step to forget.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
