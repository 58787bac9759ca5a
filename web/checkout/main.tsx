import { createRoot } from 'react-dom/client';
import { App } from './App';
import './styles.css';

const match = /^\/c\/([A-Za-z0-9_]+)(\/done)?\/?$/.exec(window.location.pathname);
const root = createRoot(document.getElementById('root')!);
root.render(<App sessionId={match?.[1] ?? ''} receipt={Boolean(match?.[2])} />);
