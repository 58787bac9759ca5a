import { QueryClientProvider } from '@tanstack/react-query';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { DashboardIntl } from './i18n';
import { createDashboardQueryClient } from './queries';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <QueryClientProvider client={createDashboardQueryClient()}>
    <DashboardIntl>
      <App />
    </DashboardIntl>
  </QueryClientProvider>,
);
