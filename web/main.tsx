// The global sheets first: tokens, reset and layout, then the buttons and tables every feature
// uses; each component imports its own sheet after these (see vite.config.ts).
import './styles.css';
import './ui/buttons.css';
import './ui/tables.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { Providers } from './app/providers';
import { router } from './app/router';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
