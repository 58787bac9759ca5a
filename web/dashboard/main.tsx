import { createRoot } from 'react-dom/client';
import { App } from './App';
import { DashboardIntl } from './i18n';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <DashboardIntl>
    <App />
  </DashboardIntl>,
);
