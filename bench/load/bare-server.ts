/**
 * The ceiling's first half: a bare Node.js `http` server answering a fixed small JSON, run as its
 * own process (`node --import tsx bench/load/bare-server.ts`, loaded as the service is) on the
 * cores the service would get. It prints its port once listening. Whatever the service answers,
 * it cannot answer faster than this on this machine.
 */
import http from 'node:http';

const BODY = JSON.stringify({ status: 'ok' });

const server = http.createServer((request, response) => {
  request.resume(); // read and discard any body, as a real server must
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(BODY) });
    response.end(BODY);
  });
});
server.keepAliveTimeout = 72_000; // as the service's default
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
