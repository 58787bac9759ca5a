/**
 * The merchants' receivers of `npm run bench:webhooks`, in their own process: `argv[2]` fast ones
 * that answer 200 at once, and one that reads the request and never answers. Tells the parent
 * `{ fast: number[], hanging: number }` (ports) over IPC.
 */
import http from 'node:http';

const count = Number(process.argv[2] ?? 10);

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
}

const fast: number[] = [];
for (let i = 0; i < count; i++) {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
  });
  server.keepAliveTimeout = 30_000;
  fast.push(await listen(server));
}
const hangingServer = http.createServer((request) => request.resume());
const hanging = await listen(hangingServer);
process.send!({ fast, hanging });
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
