/**
 * Limits of API tokens that the API enforces and the dashboard checks as the user types,
 * kept here so both read the same numbers.
 */

/** Longest lifetime a token may be given at creation (ten years); no expiry at all is also allowed. */
export const MAX_TOKEN_DAYS = 3650;

/** A label names where a token is used ("deploy script", "CI"); long enough for that, short enough for a table. */
export const MAX_TOKEN_LABEL = 100;
