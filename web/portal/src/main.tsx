import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'urql';
import { client } from './client';
import { App } from './app';
import { preloadPageAt } from './routes';
import './styles.css';

// The page this load opens is fetched beside the session check, not after it (ui/lazy-page.tsx).
preloadPageAt(window.location.pathname);
const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <Provider value={client}>
        <App />
      </Provider>
    </StrictMode>,
  );
}
