/**
 * Limits of API tokens that the API enforces and the dashboard checks as the user types,
 * kept here so both read the same numbers.
 */

/** Longest lifetime a token may be given at creation (ten years); no expiry at all is also allowed. */
export const MAX_TOKEN_DAYS = 3650;

/** A label names where a token is used ("deploy script", "CI"); long enough for that, short enough for a table. */
export const MAX_TOKEN_LABEL = 100;

/**
 * Control characters in a label: a label is shown in tables and terminals, and PostgreSQL text
 * cannot hold NUL at all, so they are refused rather than stored.
 */
export const LABEL_CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
