/** A CSV cell, quoted when needed; a leading formula character (`=`, `+`, `-`, `@`) is defused for spreadsheets. */
export function csvCell(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
