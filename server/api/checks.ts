/** The request checks now live in http/checks.ts, shared by the API, the BFF and the PowerDNS API. */
export { asMiddleware, runChecks, type Check } from '../http/checks';
