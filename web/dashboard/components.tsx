import { useState, type ReactNode } from 'react';
import type { DashboardApiError } from './api';
import { errorText } from './error-messages';
import { statusLabel } from './format';
import { useT } from './i18n';

/** An error from the server, in the operator's words (error-messages.ts), announced to screen readers. */
export function ErrorNote({ error }: { error: DashboardApiError | Error | null }) {
  const t = useT();
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {errorText(error, t)}
    </p>
  );
}

export function Loading({ what }: { what: string }) {
  const t = useT();
  return (
    <p className="loading" role="status">
      {t('common.loading', { what })}
    </p>
  );
}

/** A table's column headings, in order. */
export function ColumnHeads({ labels }: { labels: string[] }) {
  return (
    <thead>
      <tr>
        {labels.map((label, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list, never reordered: its position is its identity.
          <th scope="col" key={i}>
            {label}
          </th>
        ))}
      </tr>
    </thead>
  );
}

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status}`}>{statusLabel(status)}</span>;
}

/** Label above input, with an optional hint tied by aria-describedby. */
export function Field({ id, label, hint, children }: { id: string; label: string; hint?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  );
}

/**
 * A list of one mode's objects: "Loading…" until the rows arrive, a plain sentence when there are
 * none, else a table with one header per column and the rows the page renders.
 */
export function ModeTable<T>(props: {
  rows: T[] | undefined;
  /** What is loading, e.g. "payment links". */
  what: string;
  /** What there is none of, e.g. "payment links" in "No payment links in test mode yet." */
  emptyWhat: string;
  mode: string;
  columns: string[];
  row: (item: T) => React.ReactNode;
}) {
  const t = useT();
  if (!props.rows) return <Loading what={props.what} />;
  if (props.rows.length === 0) return <p>{t('common.none', { what: props.emptyWhat, mode: props.mode })}</p>;
  return (
    <table className="data">
      <thead>
        <tr>
          {props.columns.map((column) => (
            <th scope="col" key={column}>
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{props.rows.map(props.row)}</tbody>
    </table>
  );
}

/**
 * An id in monospace with a button that copies it: the button says what it copies to screen
 * readers ("Copy payment id pay_…"), and a polite status confirms the copy.
 */
export function CopyId({ id, what, testId }: { id: string; what: string; testId?: string }) {
  const t = useT();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(id);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <span className="copy-id" data-testid={testId}>
      <code>{id}</code>{' '}
      <button type="button" className="secondary small" onClick={() => void copy()} aria-label={t('payment.copyId', { what, id })}>
        {t('common.copy')}
      </button>
      <span role="status" className="copied">
        {copied ? t('payment.copied', { id }) : ''}
      </span>
    </span>
  );
}
