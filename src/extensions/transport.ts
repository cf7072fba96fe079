/**
 * One synchronous HTTP(S) POST, the transport of the Runtime SDK client. The render pipeline is
 * synchronous by design (pure stages, a streaming sink), and an extension call sits in the middle
 * of the patch loop, so the request runs on a worker thread while this thread waits on an
 * `Atomics.wait` (the pattern of `synckit`): the rest of the code stays synchronous, and a render
 * without extensions never starts the worker.
 *
 * What the request does mirrors CAPI's http.Client (client.go `createHTTPClient`, `httpCall`):
 * POST with a JSON body, the CA bundle as the only roots when given (else the system's), the
 * certificate checked against the host CAPI would use, redirects not followed (a 3xx is a non-200
 * answer), the whole call bounded by the handler's timeout, the body capped at 20 MiB.
 */
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';

export interface HttpPost {
  url: string;
  body: string;
  /** PEM roots; absent: the system's. */
  caBundle?: string;
  /** Host name the server certificate must carry. */
  verifyHost: string;
  timeoutMs: number;
}

export type HttpOutcome = { ok: true; status: number; body: string } | { ok: false; error: string };

/** maxExtensionResponseBodyBytes in client.go. */
const MAX_BODY_BYTES = 20 << 20;

/** The worker: plain JavaScript (it is eval'd, so it runs the same from sources, tests and the bundle). */
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const http = require('node:http');
const https = require('node:https');
const tls = require('node:tls');
const net = require('node:net');
const { port, shared, maxBytes } = workerData;
const flag = new Int32Array(shared);
port.on('message', ({ id, url, body, caBundle, verifyHost, timeoutMs }) => {
  let done = false;
  const finish = (outcome) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    port.postMessage({ id, outcome });
    Atomics.add(flag, 0, 1);
    Atomics.notify(flag, 0);
  };
  const u = new URL(url);
  const options = { method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }, agent: false };
  if (u.protocol === 'https:') {
    if (caBundle) options.ca = caBundle;
    if (!net.isIP(verifyHost)) options.servername = verifyHost;
    options.checkServerIdentity = (_host, cert) => tls.checkServerIdentity(verifyHost, cert);
  }
  const req = (u.protocol === 'https:' ? https : http).request(u, options, (res) => {
    const chunks = [];
    let size = 0;
    res.on('data', (c) => {
      size += c.length;
      if (size > maxBytes) {
        req.destroy();
        finish({ ok: false, error: 'http: request body too large' });
        return;
      }
      chunks.push(c);
    });
    res.on('end', () => finish({ ok: true, status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
    res.on('error', (e) => finish({ ok: false, error: e.message }));
  });
  const timer = setTimeout(() => {
    req.destroy();
    finish({ ok: false, error: 'context deadline exceeded (http request timeout expired)' });
  }, timeoutMs);
  req.on('error', (e) => finish({ ok: false, error: e.code === 'ECONNREFUSED' ? 'dial tcp ' + u.host + ': connect: connection refused' : e.message }));
  req.end(body);
});
`;

interface Channel {
  port: MessagePort;
  flag: Int32Array;
  next: number;
}

let channel: Channel | undefined;

/** The worker, started on first use; unref'd so it never keeps the process alive. */
function open(): Channel {
  if (channel) return channel;
  const shared = new SharedArrayBuffer(4);
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { port: port2, shared, maxBytes: MAX_BODY_BYTES },
    transferList: [port2],
  });
  worker.unref();
  port1.unref();
  channel = { port: port1, flag: new Int32Array(shared), next: 0 };
  return channel;
}

/**
 * POSTs and waits for the answer (or the timeout, plus a grace period for the worker to report
 * it). The monotonic clock only bounds the wait; nothing rendered depends on it.
 */
export function postSync(request: HttpPost): HttpOutcome {
  const ch = open();
  const id = ++ch.next;
  ch.port.postMessage({ id, ...request });
  const deadline = performance.now() + request.timeoutMs + 5000;
  for (;;) {
    const seen = Atomics.load(ch.flag, 0);
    // Answers of calls given up on earlier are skipped.
    for (let m = receiveMessageOnPort(ch.port); m; m = receiveMessageOnPort(ch.port)) {
      const { id: answered, outcome } = m.message as { id: number; outcome: HttpOutcome };
      if (answered === id) return outcome;
    }
    const left = deadline - performance.now();
    if (left <= 0) return { ok: false, error: 'context deadline exceeded (no answer from the transport)' };
    Atomics.wait(ch.flag, 0, seen, left);
  }
}
