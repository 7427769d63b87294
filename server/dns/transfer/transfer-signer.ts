/**
 * TSIG for the zone transfers zonedeck makes itself (`zones transfer … --tsig alg:name:secret`,
 * the migration from BIND, PowerDNS or Knot): the AXFR query signed (RFC 8945 §4.3), every
 * message of the answer verified as it comes (§5.3.1), and the answer required to end signed.
 */
import { RuleError } from '../../core/errors';
import { normalizeTsigAlgorithm, normalizeTsigKeyName } from '../../core/tsig-rules';
import { TransferError, type TransferSigner } from './axfr-client';
import { AnswerVerifier, signRequest, TSIG_ERROR_NAMES, type TsigKey } from '../tsig/tsig';

/** The key of a `-y`-style argument, `algorithm:name:secret` (the algorithm optional, hmac-sha256 then). Throws RuleError. */
export function parseTsigArgument(text: string): TsigKey {
  const parts = text.split(':');
  if (parts.length < 2 || parts.length > 3) throw new RuleError('must be algorithm:name:secret, as dig -y takes it');
  const [algorithm, name, secret] = parts.length === 3 ? parts : ['hmac-sha256', ...parts];
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(secret!)) throw new RuleError('the secret must be base64');
  return { algorithm: normalizeTsigAlgorithm(algorithm!), name: normalizeTsigKeyName(name!), secret: Buffer.from(secret!, 'base64') };
}

export function transferSigner(key: TsigKey): TransferSigner {
  let verifier: AnswerVerifier | undefined;
  const check = (error: number, what: string) => {
    if (error) throw new TransferError(`${what} did not verify with TSIG key ${key.name}: ${TSIG_ERROR_NAMES[error] ?? `TSIG error ${error}`}`);
  };
  return {
    sign(query) {
      const signed = signRequest(Buffer.from(query), key);
      verifier = new AnswerVerifier(key, signed.mac);
      return signed.message;
    },
    verify(message, index) {
      check(verifier!.push(message), `message ${index + 1} of the transfer`);
    },
    finish() {
      check(verifier!.finish(), 'the end of the transfer');
    },
  };
}
