import { readFileSync, readdirSync } from 'node:fs';
function load(dir){ const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile')); return JSON.parse(readFileSync(`${dir}/${file}`,'utf8')); }
function selfBy(prof){ const byId = new Map(prof.nodes.map((n) => [n.id, n])); const m=new Map(); let total=0, idle=0; for (let i=0;i<prof.samples.length;i++){ const n=byId.get(prof.samples[i]); const k=`${n.callFrame.functionName||'(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`; m.set(k,(m.get(k)??0)+prof.timeDeltas[i]); total+=prof.timeDeltas[i]; if(k.startsWith('(idle)')) idle+=prof.timeDeltas[i];} return {m,total,idle}; }
const a=selfBy(load(process.argv[2])), b=selfBy(load(process.argv[3]));
const na=Number(process.argv[4]), nb=Number(process.argv[5]);
console.log('busy ms', ((a.total-a.idle)/1000).toFixed(0), ((b.total-b.idle)/1000).toFixed(0), 'µs/req', ((a.total-a.idle)/na).toFixed(0), ((b.total-b.idle)/nb).toFixed(0));
const keys=new Set([...a.m.keys(),...b.m.keys()]);
const rows=[...keys].map(k=>[k,(a.m.get(k)??0)/na,(b.m.get(k)??0)/nb]).map(([k,x,y])=>[k,x,y,y-x]).sort((p,q)=>q[3]-p[3]);
console.log(rows.slice(0,20).map(([k,x,y,d])=>`${d.toFixed(1)}µs  (${x.toFixed(1)} -> ${y.toFixed(1)}) ${k}`).join('\n'));
