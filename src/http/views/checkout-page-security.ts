import { checkoutPageChangeSnapshot } from '../../domain/shared/event-payloads';
import type { InventoryScript } from '../checkout-page/script-inventory';
import { csvCell } from './csv';
import { unixTime } from './resource';
import type { CspReport, ScriptNote } from '../../domain/checkout-page/entities';

/** A detected change of the page as the dashboard shows it: the same object its event carries. */
export const checkoutPageChangeView = checkoutPageChangeSnapshot;

/** One inventory script as the API, the dashboard and the assessor's export show it. */
export function inventoryScriptView(script: InventoryScript, publicUrl: string, note: ScriptNote | undefined) {
  const origin = script.origin || new URL(publicUrl).origin;
  return {
    id: script.id,
    object: 'checkout_page_script' as const,
    party: script.party,
    type: script.type,
    origin,
    path: script.path,
    url: `${origin}${script.path}`,
    sha384: script.sha384,
    size: script.size,
    integrity: script.integrity,
    loading: script.loading,
    loaded_when: script.loadedWhen,
    justification: script.justification,
    integrity_note: script.integrityNote,
    merchant_note: note?.note ?? null,
  };
}

export type InventoryScriptView = ReturnType<typeof inventoryScriptView>;

export function cspReportView(report: CspReport) {
  return {
    id: report.id,
    object: 'csp_report' as const,
    checkout_session: report.checkoutSessionId,
    format: report.format,
    directive: report.directive,
    blocked_url: report.blockedUrl,
    document_url: report.documentUrl,
    disposition: report.disposition,
    sample: report.sample,
    source_file: report.sourceFile,
    line_number: report.lineNumber,
    user_agent: report.userAgent,
    received_at: unixTime(report.receivedAt),
  };
}

const csvColumns = [
  'id',
  'party',
  'type',
  'url',
  'sha384',
  'size',
  'integrity',
  'loading',
  'loaded_when',
  'justification',
  'integrity_note',
  'merchant_note',
] as const;

/** The inventory as CSV for the assessor: one row per script. */
export function inventoryCsv(scripts: readonly InventoryScriptView[]): string {
  const rows = scripts.map((script) =>
    csvColumns.map((column) => csvCell(column === 'loaded_when' ? script.loaded_when.join(' + ') : script[column])).join(','),
  );
  return `${[csvColumns.join(','), ...rows].join('\r\n')}\r\n`;
}
