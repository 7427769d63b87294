/** The frame of the sign-in page: the product's mark and "Sign in" on one card in the middle of the window. */
import type { ReactNode } from 'react';
import './sign-in.css';

export function SignInCard({ children, title = 'Sign in' }: { children: ReactNode; title?: string }) {
  return (
    <main className="sign-in" id="main">
      <div className="sign-in-card">
        <div className="brand brand-large">
          <img src="/favicon.svg" alt="" width="36" height="36" />
          <span>zonedeck</span>
        </div>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}

/** "or" between two ways to sign in (for the eye: screen readers get the buttons' own words). */
export function OrDivider() {
  return (
    <div className="or-divider" aria-hidden="true">
      or
    </div>
  );
}
