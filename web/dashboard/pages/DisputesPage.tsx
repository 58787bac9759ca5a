import { useState, type FormEvent } from 'react';
import { api, type DashboardApiError, type Dispute } from '../api';
import { ErrorNote, Field, Loading, StatusBadge } from '../components';
import { Confirm } from '../Confirm';
import { calendarDaysUntil, formatMoney, formatTime } from '../format';
import type { PageScope } from '../Layout';
import { useApiQuery } from '../queries';
import { useT } from '../i18n';
import { can } from '../../../src/domain/team/permissions';
import { EVIDENCE_FILE_MAX_BYTES, evidenceFileTypes } from '../../../src/domain/disputes/entities';

/**
 * Time left to answer, or that it is past: the days counted to the reply-by date as shown (7 days
 * the day a 7-day dispute opens), hours in its last day.
 */
function TimeLeft({ replyBy, now }: { replyBy: number | null; now: number }) {
  const t = useT();
  if (replyBy === null) return null;
  const seconds = replyBy - now;
  if (seconds <= 0) return <span className="error">{t('disputes.overdue')}</span>;
  const days = seconds < 86400 ? 0 : calendarDaysUntil(replyBy, now);
  return <span>{t('disputes.timeLeft', { days, hours: Math.max(1, Math.floor(seconds / 3600)) })}</span>;
}

/** The Disputes inbox: open disputes by reply-by, soonest first, with the time left; then closed ones. */
export function DisputesPage({ base, place }: PageScope) {
  const t = useT();
  const list = useApiQuery<{ data: Dispute[] }>(`/accounts${base}/disputes`);
  const now = Math.floor(Date.now() / 1000);
  return (
    <>
      <h1>{t('disputes.title')}</h1>
      <ErrorNote error={list.error} />
      {!list.data ? (
        <Loading what={t('disputes.loading')} />
      ) : list.data.data.length === 0 ? (
        <p>{t('disputes.none', { mode: place.mode })}</p>
      ) : (
        <table className="data" data-testid="disputes">
          <thead>
            <tr>
              <th scope="col">{t('disputes.replyBy')}</th>
              <th scope="col">{t('disputes.amount')}</th>
              <th scope="col">{t('disputes.reason')}</th>
              <th scope="col">{t('disputes.status')}</th>
              <th scope="col">{t('disputes.payment')}</th>
            </tr>
          </thead>
          <tbody>
            {list.data.data.map((d) => (
              <tr key={d.id}>
                <td>
                  <a href={`/dashboard${base}/disputes/${d.id}`}>{formatTime(d.reply_by)}</a>{' '}
                  {(d.status === 'needs_response' || d.status === 'under_review') && <TimeLeft replyBy={d.reply_by} now={now} />}
                </td>
                <td>{formatMoney(d.amount, d.currency.toUpperCase(), undefined)}</td>
                <td>{d.reason}</td>
                <td>
                  <StatusBadge status={d.status} />
                </td>
                <td>
                  <a href={`/dashboard${base}/payments/${d.payment}`}>{d.payment}</a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

/** Reads a chosen file as base64, refusing a type or size the processor would refuse. */
async function readEvidenceFile(file: File): Promise<{ name: string; type: string; data: string } | 'type' | 'size'> {
  if (!(evidenceFileTypes as readonly string[]).includes(file.type)) return 'type';
  if (file.size > EVIDENCE_FILE_MAX_BYTES) return 'size';
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { name: file.name, type: file.type, data: btoa(binary) };
}

/** One dispute: its evidence and, while it needs a response, the evidence form, submit and accept (as the role allows). */
export function DisputeDetailPage({ base, place, id }: PageScope & { id: string }) {
  const t = useT();
  const path = `/accounts${base}/disputes/${id}`;
  const dispute = useApiQuery<Dispute>(path);
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<DashboardApiError | Error | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<'submit' | 'accept' | null>(null);
  const role = place.account.role;
  const d = dispute.data;
  const open = d?.status === 'needs_response';
  const mayAddEvidence = open && can(role, 'disputes.evidence');
  const mayRespond = open && can(role, 'disputes.respond');

  const act = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
      await dispute.reload();
    } catch (caught) {
      setError(caught as Error);
    }
    setConfirming(null);
    setBusy(false);
  };

  const addEvidence = (event: FormEvent) => {
    event.preventDefault();
    void act(async () => {
      const body: Record<string, unknown> = {};
      if (text.trim()) body.text = text;
      if (file) {
        const read = await readEvidenceFile(file);
        if (read === 'type') throw new Error(t('disputes.fileRefusedType'));
        if (read === 'size') throw new Error(t('disputes.fileRefusedSize'));
        body.file = read;
      }
      await api('POST', `${path}/evidence`, body);
      setText('');
      setFile(null);
    });
  };

  return (
    <>
      <p>
        <a href={`/dashboard${base}/disputes`}>{t('disputes.back')}</a>
      </p>
      <ErrorNote error={error ?? dispute.error} />
      {!d ? (
        <Loading what={t('disputes.loading')} />
      ) : (
        <>
          <h1>
            {formatMoney(d.amount, d.currency.toUpperCase(), undefined)} <StatusBadge status={d.status} />
          </h1>
          <dl>
            <dt>{t('disputes.reason')}</dt>
            <dd>{d.reason}</dd>
            <dt>{t('disputes.replyBy')}</dt>
            <dd data-testid="reply-by">
              {formatTime(d.reply_by)}{' '}
              {(d.status === 'needs_response' || d.status === 'under_review') && <TimeLeft replyBy={d.reply_by} now={Math.floor(Date.now() / 1000)} />}
            </dd>
            <dt>{t('disputes.payment')}</dt>
            <dd>
              <a href={`/dashboard${base}/payments/${d.payment}`}>{d.payment}</a>
            </dd>
          </dl>
          <section aria-labelledby="evidence-title" className="panel">
            <h2 id="evidence-title">{t('disputes.evidence')}</h2>
            {d.evidence.length === 0 ? (
              <p>{t('disputes.noEvidence')}</p>
            ) : (
              <ul data-testid="evidence">
                {d.evidence.map((e) => (
                  <li key={e.id}>
                    {e.kind === 'text'
                      ? e.text
                      : t('disputes.file', { name: e.file_name ?? '', type: e.content_type ?? '', kb: Math.ceil((e.size ?? 0) / 1024) })}
                  </li>
                ))}
              </ul>
            )}
            {mayAddEvidence && (
              <form onSubmit={addEvidence} aria-labelledby="add-evidence-title">
                <h3 id="add-evidence-title">{t('disputes.addEvidence')}</h3>
                <Field id="evidence-text" label={t('disputes.text')}>
                  <textarea id="evidence-text" value={text} maxLength={10000} onChange={(e) => setText(e.target.value)} />
                </Field>
                <Field id="evidence-file" label={t('disputes.fileInput')}>
                  <input id="evidence-file" type="file" accept={evidenceFileTypes.join(',')} onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
                </Field>
                <button type="submit" disabled={busy || (!text.trim() && !file)}>
                  {t('disputes.send')}
                </button>
              </form>
            )}
          </section>
          {mayRespond &&
            (confirming ? (
              <Confirm
                message={confirming === 'submit' ? t('disputes.submitConfirm') : t('disputes.acceptConfirm')}
                confirmLabel={confirming === 'submit' ? t('disputes.submitConfirmButton') : t('disputes.acceptConfirmButton')}
                busy={busy}
                onConfirm={() => void act(() => api('POST', `${path}/${confirming}`))}
                onCancel={() => setConfirming(null)}
              />
            ) : (
              <p>
                <button type="button" disabled={busy || d.evidence.length === 0} onClick={() => setConfirming('submit')}>
                  {t('disputes.submit')}
                </button>{' '}
                <button type="button" disabled={busy} onClick={() => setConfirming('accept')}>
                  {t('disputes.accept')}
                </button>
              </p>
            ))}
          {open && !can(role, 'disputes.evidence') && <p>{t('disputes.readOnly')}</p>}
        </>
      )}
    </>
  );
}
