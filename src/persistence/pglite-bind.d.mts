/** PostgreSQL's Bind message for prepared statement `statement` with these serialized parameters (pglite-bind.mjs). */
export function bindMessage(statement: string, values: Array<string | Uint8Array | ArrayBuffer | null>): Uint8Array;
