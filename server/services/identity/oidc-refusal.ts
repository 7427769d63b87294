/** How a single sign-on fails: a refused callback the sign-in page words, or a provider out of reach. */

/** Why a callback is refused; `code` goes to the sign-in page (`/sign-in?error=<code>`), which words it. */
export type OidcRefusalCode = 'sso_expired' | 'sso_failed' | 'sso_denied' | 'sso_no_account' | 'sso_not_linked' | 'sso_taken' | 'sso_disabled' | 'sso_unavailable';

export class OidcRefusal extends Error {
  constructor(
    readonly code: OidcRefusalCode,
    message: string,
    /** The refused request was a link from the Account page (so the answer lands there). */
    readonly link = false,
  ) {
    super(message);
  }
}

/** The provider cannot be reached (discovery failed): the button answers 503 and discovery is tried again next time. */
export class OidcUnavailable extends Error {}
