import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import './index.css';

// Rendered as a transition, the first render yields to the browser every few milliseconds instead of
// holding the main thread for the whole app at once (long tasks are what Total Blocking Time counts).
const root = createRoot(document.getElementById('root') as HTMLElement);
startTransition(() =>
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
