import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateSdkTypes, SDK_TYPES_FILE } from './sdk-types';

// `npm run sdk:types`: regenerates sdk/node/src/generated/openapi.ts from the server's contracts.
const file = fileURLToPath(SDK_TYPES_FILE);
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, await generateSdkTypes());
console.log(`Wrote ${file}`);
