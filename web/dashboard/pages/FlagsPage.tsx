import { useState, type FormEvent } from 'react';
import { experimentSurfaces } from '../../../src/domain/flag-evaluation';
import { can } from '../../../src/domain/permissions';
import { api, type List } from '../api';
import { ErrorNote, Field, Loading, ModeTable, StatusBadge } from '../components';
import { formatTime } from '../format';
import type { PageScope } from '../Layout';
import { useAction } from '../use-action';
import { useLoad } from '../use-load';

type FlagValue = boolean | string | number;

interface Flag {
  key: string;
  value: FlagValue;
  allowed_values: string[] | null;
  built_in: boolean;
  description: string | null;
}

interface Experiment {
  id: string;
  key: string;
  status: 'draft' | 'running' | 'stopped';
  variants: Array<{ key: string; weight: number }>;
  control: string;
  planned_sample_size: number;
  started: number | null;
  stopped: number | null;
}

interface Results {
  variants: Array<{
    variant: string;
    exposed: number;
    conversions: number;
    conversion_rate: number;
    conversion_rate_interval: { lower: number; upper: number };
    difference_to_control: { difference: number; lower: number; upper: number } | null;
  }>;
  verdict: { status: string; winner: string | null; message: string };
}

const percent = (n: number) => `${(n * 100).toFixed(1)}%`;
const signedPercent = (n: number) => `${n > 0 ? '+' : ''}${(n * 100).toFixed(1)} pts`;

/** Kill switches and flags (changed at once, no deploy), experiments and their results. */
export function FlagsPage({ base, place }: PageScope) {
  const flags = useLoad(() => api<List<Flag>>('GET', `/accounts${base}/flags`), base);
  const experiments = useLoad(() => api<List<Experiment>>('GET', `/accounts${base}/experiments?limit=100`), base);
  const manage = can(place.account.role, 'flags.manage');
  const { busy, error, notice, act } = useAction();
  const [surface, setSurface] = useState<keyof typeof experimentSurfaces>('checkout_layout');
  const [sampleSize, setSampleSize] = useState('1000');
  const [shown, setShown] = useState<string | null>(null);

  const setFlag = (flag: Flag, value: FlagValue) =>
    act(async () => {
      await api('POST', `/accounts${base}/flags/${flag.key}`, { value });
      await flags.reload();
      return `${flag.key} is now ${String(value)}.`;
    });
  const create = (event: FormEvent) => {
    event.preventDefault();
    void act(async () => {
      const variants = experimentSurfaces[surface].variants.map((key) => ({ key, weight: 1 }));
      await api('POST', `/accounts${base}/experiments`, { key: surface, variants, planned_sample_size: Number(sampleSize) });
      await experiments.reload();
      return `Experiment on ${surface} created as a draft.`;
    });
  };
  const setStatus = (x: Experiment, status: 'running' | 'stopped') =>
    act(async () => {
      await api('POST', `/accounts${base}/experiments/${x.id}`, { status });
      await experiments.reload();
      return status === 'running' ? `Experiment on ${x.key} started.` : `Experiment on ${x.key} stopped.`;
    });

  return (
    <>
      <h1>Flags and experiments</h1>
      <ErrorNote error={error ?? flags.error ?? experiments.error} />
      {notice && <p role="status">{notice}</p>}
      <section aria-labelledby="flags-title">
        <h2 id="flags-title">Flags ({place.mode} mode)</h2>
        {!flags.data ? (
          <Loading what="flags" />
        ) : (
          <table className="data">
            <thead>
              <tr>
                <th scope="col">Flag</th>
                <th scope="col">What it does</th>
                <th scope="col">Value</th>
              </tr>
            </thead>
            <tbody>
              {flags.data.data.map((f) => (
                <tr key={f.key}>
                  <td className="mono">{f.key}</td>
                  <td>{f.description ?? '—'}</td>
                  <td>
                    {typeof f.value === 'boolean' ? (
                      <label className="inline">
                        <input type="checkbox" checked={f.value} disabled={!manage || busy} onChange={(e) => void setFlag(f, e.target.checked)} />
                        <span>
                          {f.value ? 'On' : 'Off'}
                          <span className="visually-hidden"> ({f.key})</span>
                        </span>
                      </label>
                    ) : f.allowed_values ? (
                      <select aria-label={f.key} value={String(f.value)} disabled={!manage || busy} onChange={(e) => void setFlag(f, e.target.value)}>
                        {f.allowed_values.map((v) => (
                          <option key={v}>{v}</option>
                        ))}
                      </select>
                    ) : (
                      <span className="mono">{String(f.value)}</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-labelledby="experiments-title">
        <h2 id="experiments-title">Experiments</h2>
        {manage && (
          <form className="panel" onSubmit={create} aria-labelledby="new-experiment-title">
            <h3 id="new-experiment-title">New experiment</h3>
            <Field id="experiment-surface" label="What to vary">
              <select id="experiment-surface" value={surface} onChange={(e) => setSurface(e.target.value as keyof typeof experimentSurfaces)}>
                {Object.entries(experimentSurfaces).map(([key, s]) => (
                  <option key={key} value={key}>
                    {key} ({s.variants.join(' / ')})
                  </option>
                ))}
              </select>
            </Field>
            <Field id="experiment-sample" label="Planned sample size per variant" hint="No winner is called before every variant reaches it.">
              <input id="experiment-sample" type="number" min={1} required aria-describedby="experiment-sample-hint" value={sampleSize} onChange={(e) => setSampleSize(e.target.value)} />
            </Field>
            <button type="submit" disabled={busy}>
              Create experiment
            </button>
          </form>
        )}
        <ModeTable
          rows={experiments.data?.data}
          what="experiments"
          emptyWhat="experiments"
          mode={place.mode}
          columns={['Surface', 'Variants', 'State', 'Actions']}
          row={(x) => (
                <tr key={x.id}>
                  <td className="mono">{x.key}</td>
                  <td>{x.variants.map((v) => v.key).join(' / ')}</td>
                  <td>
                    <StatusBadge status={x.status} /> {x.started && `since ${formatTime(x.started)}`}
                  </td>
                  <td className="actions">
                    <button type="button" className="secondary" onClick={() => setShown(x.id)} aria-label={`Results of ${x.key} ${x.id}`}>
                      Results
                    </button>
                    {manage && x.status === 'draft' && (
                      <button type="button" disabled={busy} onClick={() => void setStatus(x, 'running')}>
                        Start
                      </button>
                    )}
                    {manage && x.status === 'running' && (
                      <button type="button" className="danger" disabled={busy} onClick={() => void setStatus(x, 'stopped')}>
                        Stop
                      </button>
                    )}
                  </td>
                </tr>
          )}
        />
      </section>
      {shown && <ExperimentResults key={shown} path={`/accounts${base}/experiments/${shown}/results`} />}
    </>
  );
}

function ExperimentResults({ path }: { path: string }) {
  const results = useLoad(() => api<Results>('GET', path), path);
  const r = results.data;
  return (
    <section aria-labelledby="results-title">
      <h2 id="results-title">Results</h2>
      <ErrorNote error={results.error} />
      {!r ? (
        <Loading what="results" />
      ) : (
        <>
          <p data-testid="verdict">{r.verdict.message}</p>
          <table className="data">
            <caption className="visually-hidden">Per variant, with 95% intervals</caption>
            <thead>
              <tr>
                <th scope="col">Variant</th>
                <th scope="col">Exposed</th>
                <th scope="col">Conversions</th>
                <th scope="col">Rate (95% interval)</th>
                <th scope="col">Difference to control (95% interval)</th>
              </tr>
            </thead>
            <tbody>
              {r.variants.map((v) => (
                <tr key={v.variant}>
                  <th scope="row">{v.variant}</th>
                  <td>{v.exposed}</td>
                  <td>{v.conversions}</td>
                  <td>
                    {percent(v.conversion_rate)} ({percent(v.conversion_rate_interval.lower)} – {percent(v.conversion_rate_interval.upper)})
                  </td>
                  <td>
                    {v.difference_to_control
                      ? `${signedPercent(v.difference_to_control.difference)} (${signedPercent(v.difference_to_control.lower)} – ${signedPercent(v.difference_to_control.upper)})`
                      : 'Control'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
