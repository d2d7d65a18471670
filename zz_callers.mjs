import { Profile } from 'pprof-format';
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
const p = Profile.decode(gunzipSync(readFileSync(process.argv[2])));
const target = process.argv[3];
const str = (i) => p.stringTable.strings[Number(i)];
const fn = new Map(p.function.map((f) => [Number(f.id), f]));
const loc = new Map(p.location.map((l) => [Number(l.id), l]));
const fname = (lid) => { const l = loc.get(Number(lid)); const f = fn.get(Number(l.line[0].functionId)); return str(f.name) + ':' + l.line[0].line; };
const paths = new Map(); let all = 0;
for (const s of p.sample) {
  const v = Number(s.value[0]); all += v;
  const names = s.locationId.map(fname);
  const i = names.findIndex((n) => n.startsWith(target + ':'));
  if (i < 0) continue;
  const k = names.slice(i, i + 8).join(' < ');
  paths.set(k, (paths.get(k) ?? 0) + v);
}
[...paths].sort((a, b) => b[1] - a[1]).slice(0, 12).forEach(([k, v]) => console.log((100 * v / all).toFixed(1) + '%', k));
