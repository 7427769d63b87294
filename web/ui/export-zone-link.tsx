/**
 * "Export zone file": a plain same-origin link to the BFF, which the session cookie
 * authenticates; the API answers `Content-Disposition: attachment`, so the browser saves
 * `<zone>.zone` and the page stays. No script builds the file, and the CSP needs nothing new.
 */
import { bff } from '../lib/paths';

export function ExportZoneLink({ name }: { name: string }) {
  return (
    <a className="btn btn-small" href={bff.zoneFile(name)} download={`${name}.zone`} title={`Download ${name} as an RFC 1035 master file (BIND format)`}>
      Export zone file
    </a>
  );
}
