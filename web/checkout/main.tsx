import { createRoot } from 'react-dom/client';
import { readRuntimeConfig } from '../telemetry/runtime-config';
import { App } from './App';
import { reportCheckoutFailure, startCheckoutReporting } from './report';
import './styles.css';

const match = /^\/c\/([A-Za-z0-9_]+)(\/done)?\/?$/.exec(window.location.pathname);
const sessionId = match?.[1] ?? '';
const config = readRuntimeConfig();
startCheckoutReporting(config.sentry, sessionId);
const root = createRoot(document.getElementById('root')!, {
  onUncaughtError: (error) => reportCheckoutFailure('unexpected', error),
});
root.render(<App sessionId={sessionId} receipt={Boolean(match?.[2])} ofrepUrl={config.ofrepUrl} />);
