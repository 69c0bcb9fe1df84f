import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
const subs = Number(process.argv[2] ?? 3);
const dir = `/tmp/prof-${subs}`;
const { rmSync, mkdirSync } = await import('node:fs');
rmSync(dir, { recursive: true, force: true }); mkdirSync(dir);
let received = 0;
const receiver = createServer((req, res) => { req.resume(); req.on('end', () => { received++; res.writeHead(202).end(); }); });
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const rport = receiver.address().port;
const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, 'dist/main.js'], {
  env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: `sqlite:${dir}/db.sqlite`, ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: 'admin-password-123', LOG_LEVEL: 'info', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const port = await new Promise((resolve) => { let out = ''; child.stdout.on('data', (c) => { out += c; const m = /Listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out); if (m) resolve(Number(m[1])); }); });
const auth = 'Basic ' + Buffer.from('admin:admin-password-123').toString('base64');
for (let i = 0; i < subs; i++) {
  const r = await fetch(`http://127.0.0.1:${port}/webhooks`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify({ url: `http://127.0.0.1:${rport}/s${i}` }) });
  if (r.status !== 201) throw new Error(await r.text());
}
const body = () => JSON.stringify({ name: 'n', location: 'l', eventDescription: 'd', dates: ['2026-01-01'], price: 1 });
const run = (d) => autocannon({ url: `http://127.0.0.1:${port}/special-events`, connections: 50, duration: d, method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: body() });
await run(2);
received = 0;
const r = await run(Number(process.argv[3] ?? 6));
console.log(`subs=${subs} req/s=${r.requests.average} p99=${r.latency.p99} non2xx=${r.non2xx} delivered during run=${received}`);
child.kill('SIGINT');
await new Promise((r) => child.on('exit', r));
receiver.close();
