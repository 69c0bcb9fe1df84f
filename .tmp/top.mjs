import { readFileSync, readdirSync } from 'node:fs';
const dir = process.argv[2];
const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
const prof = JSON.parse(readFileSync(`${dir}/${file}`, 'utf8'));
const self = new Map(); const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const dt = prof.timeDeltas; let total = 0;
for (let i = 0; i < prof.samples.length; i++) { const n = byId.get(prof.samples[i]); const key = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`; self.set(key, (self.get(key) ?? 0) + dt[i]); total += dt[i]; }
// inclusive for webhooks files
const parent = new Map(); for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const incl = new Map();
for (let i = 0; i < prof.samples.length; i++) { let id = prof.samples[i]; const seen = new Set(); while (id !== undefined) { const n = byId.get(id); const u = n.callFrame.url; const m = /src\/([a-z-]+)\//.exec(u) || /dist\/([a-z-]+)\//.exec(u); const key = m ? m[1] + ' ' + (n.callFrame.functionName||'') : null; if (key && !seen.has(key)) { seen.add(key); incl.set(key, (incl.get(key) ?? 0) + dt[i]); } id = parent.get(id); } }
console.log('total ms', (total/1000).toFixed(0));
console.log([...self].sort((a,b)=>b[1]-a[1]).slice(0,25).map(([k,v])=>`${(v/total*100).toFixed(1)}% ${k}`).join('\n'));
console.log('--- inclusive by dist folder fn');
console.log([...incl].filter(([k])=>k.startsWith('webhooks')).sort((a,b)=>b[1]-a[1]).slice(0,15).map(([k,v])=>`${(v/total*100).toFixed(1)}% ${k}`).join('\n'));
