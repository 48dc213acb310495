/**
 * One TLS handshake with an https target before the load starts, so a
 * certificate the generator would refuse on every connection is one line naming
 * --insecure instead of a run full of errors. Other failures (nothing listening)
 * are left to the run, which counts and notes them as it always does.
 */
import tls from 'node:tls';
import { isIP } from 'node:net';
import { RunError } from '../base/errors.js';
import { parseTarget } from './target.js';

/** OpenSSL's and Node's codes for a certificate that does not verify. */
const CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Codes that mean nobody answered: not this check's business. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT']);

/** Whether an error code is a certificate that did not verify. */
export function isCertificateError(code) {
  return CERTIFICATE_CODES.has(code);
}

/**
 * Resolves once a handshake succeeded (or the target is http, or unreachable);
 * rejects with a one-line RunError when the certificate is refused or TLS fails.
 * @param {string} url
 * @param {{ insecure?: boolean, timeoutMs?: number }} [options]
 */
export function checkTls(url, { insecure = false, timeoutMs = 10_000 } = {}) {
  const target = parseTarget(url);
  if (!target.tls) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      host: target.host,
      port: target.port,
      servername: isIP(target.host) ? undefined : target.host,
      rejectUnauthorized: !insecure,
      ALPNProtocols: ['http/1.1'],
    });
    const done = (error) => {
      clearTimeout(timer);
      socket.destroy();
      if (!error || UNREACHABLE.has(error.code)) resolve();
      else reject(error);
    };
    const timer = setTimeout(() => done(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })), timeoutMs);
    socket.once('secureConnect', () => done(null));
    socket.once('error', (error) => {
      const code = error.code ?? 'ERR';
      if (UNREACHABLE.has(code) || error.syscall === 'connect') return done(error);
      if (isCertificateError(code)) {
        return done(new RunError(`--url ${target.url}: the server's certificate was refused (${code}: ${error.message}); pass --insecure to accept it (a self-signed test server), or fix the certificate`));
      }
      done(new RunError(`--url ${target.url}: the TLS handshake failed (${code}); is the server speaking https on port ${target.port}?`));
    });
  });
}

/**
 * Whether what listens at host:port completes a TLS handshake (any certificate): an https
 * server given plain HTTP closes every connection with no answer, which reads as "reset"
 * and did not say that the server speaks https.
 * @param {string} host
 * @param {number} port
 * @param {number} [timeoutMs]
 * @returns {Promise<boolean>}
 */
export function speaksTls(host, port, timeoutMs = 2_000) {
  return new Promise((resolve) => {
    const socket = tls.connect({ host, port, servername: isIP(host) ? undefined : host, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] });
    const done = (yes) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(yes);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('secureConnect', () => done(true));
    socket.once('error', () => done(false));
  });
}
