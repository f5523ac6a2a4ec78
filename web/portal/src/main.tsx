import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'urql';
import { client } from './client';
import { App } from './app';
import './styles.css';

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
