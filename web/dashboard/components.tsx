import type { ReactNode } from 'react';
import type { DashboardApiError } from './api';

/** An error from the server, said plainly and announced to screen readers. */
export function ErrorNote({ error }: { error: DashboardApiError | Error | null }) {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {error.message}
    </p>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="loading" role="status">
      Loading {what}…
    </p>
  );
}

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status}`}>{status.replaceAll('_', ' ')}</span>;
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
