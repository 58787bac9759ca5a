#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx: no separate server build step to forget.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

// Our tsconfig (JSX for the server-rendered checkout page), wherever the command is run from:
// tsx would otherwise look for one in the current folder, which is the user's project.
register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
await import('../src/cli/main.ts');
