import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
const s = new Session(); s.connect();
const post = (m, p) => new Promise((res, rej) => s.post(m, p, (e, r) => (e ? rej(e) : res(r))));
process.on('SIGUSR2', async () => {
  await post('HeapProfiler.enable');
  await post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
});
process.on('SIGTERM', () => {
  s.post('HeapProfiler.stopSampling', (e, r) => { if (!e) writeFileSync('/tmp/heap.heapprofile', JSON.stringify(r.profile)); });
});
