import { QueryClientProvider } from '@tanstack/react-query';
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { vi } from 'vitest';
import { createDashboardQueryClient } from './queries';

/** The dashboard's component tests: a page rendered as the app renders it, with a query client of its own. */
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | null = null;

/** Lets React and the queries finish what is pending. */
export const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

/** Renders `element` under a fresh query client and settles; the container it is in. */
export async function renderWithQueries(element: ReactNode): Promise<HTMLElement> {
  const container = document.createElement('div');
  document.body.appendChild(container);
  root = createRoot(container);
  await act(async () => root!.render(<QueryClientProvider client={createDashboardQueryClient()}>{element}</QueryClientProvider>));
  await settle();
  return container;
}

/** What each test leaves behind, gone (a test file's afterEach): the page, the stubbed globals, the document. */
export function cleanUpRendered() {
  act(() => root?.unmount());
  root = null;
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
}
