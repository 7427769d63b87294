/** Why passkeys cannot work on a page opened at an IP address, and the fix: the same server by a name. */
import type { PasskeyAddress } from '../lib/passkey-origin';
import { Alert } from './alert';

export function PasskeyAddressNote({ problem }: { problem: PasskeyAddress }) {
  return (
    <Alert tone="info" title={`Passkeys need a name, not an address (${problem.address})`}>
      {problem.localUrl ? (
        <>
          Browsers make and use passkeys only for a site opened by its name. This is the same server: <a href={problem.localUrl}>open it at localhost</a>.
        </>
      ) : (
        <>Browsers make and use passkeys only for a site opened by its name: open this server at the name people use, which its administrator sets as PUBLIC_URL.</>
      )}
    </Alert>
  );
}
