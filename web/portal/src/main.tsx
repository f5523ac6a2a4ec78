import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'urql';
import { client } from './client';
import { App } from './app';
import { preloadAllPages, preloadPage } from './routes';
import './styles.css';

// The page at this address starts downloading now, beside the viewer query, not after it; the others
// follow once the first page is up, so moving between pages never waits for a download.
preloadPage(window.location.pathname.replace(/^\/portal/, '') || '/');
window.addEventListener('load', () => setTimeout(preloadAllPages, 1500), { once: true });

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <Provider value={client}><App /></Provider>
    </StrictMode>,
  );
}
