import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'urql';
import { client } from './client';
import { App } from './app';
import { preloadAllPages, preloadPage } from './routes';
import './styles.css';

// The page at this address starts downloading now, beside the viewer query, not after it; the others
// follow as soon as it is in (the first paint waits for none of them), so moving between pages renders
// at once, as it did in one bundle.
void preloadPage(window.location.pathname.replace(/^\/portal/, '') || '/').then(preloadAllPages);

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <Provider value={client}><App /></Provider>
    </StrictMode>,
  );
}
