// Loaded into the measured server by bench/memory.ts (`node --import ./bench/memory-probe.mjs …`): on SIGUSR2 it
// writes the process's memory, as the process itself sees it, to MEMORY_PROBE_OUT as JSON. It keeps only weak
// references to the WebAssembly memories it sees made, so a closed PGlite's memory can still be collected.
import { readFileSync, writeFileSync } from 'node:fs';
import v8 from 'node:v8';

const memories = new Set();
const OriginalMemory = WebAssembly.Memory;
// PGlite makes its memory itself (`new WebAssembly.Memory`) and hands it to Emscripten; initdb's module exports its own.
WebAssembly.Memory = new Proxy(OriginalMemory, {
  construct(target, args) {
    const memory = Reflect.construct(target, args);
    memories.add(new WeakRef(memory));
    return memory;
  },
});
const keepExported = (result) => {
  const instance = result?.instance ?? result;
  for (const value of Object.values(instance?.exports ?? {})) if (value instanceof OriginalMemory) memories.add(new WeakRef(value));
  return result;
};
for (const name of ['instantiate', 'instantiateStreaming']) {
  const original = WebAssembly[name];
  WebAssembly[name] = function (...args) {
    return original.apply(this, args).then(keepExported);
  };
}

/**
 * The resident part of each WebAssembly memory, from /proc/self/smaps: V8 maps a memory as its accessible (rw) part
 * directly followed by a guard reservation of several GiB (no access); no other mapping looks like that. Also the
 * largest other resident mappings, for the breakdown.
 */
function mappings() {
  const all = [];
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) /.exec(line);
    // The sixth field, the mapped file's name, when there is one.
    if (head) all.push({ start: BigInt(`0x${head[1]}`), end: BigInt(`0x${head[2]}`), perms: head[3], name: line.split(/ +/)[5] ?? '', rss: 0 });
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && all.length) all.at(-1).rss = Number(rss[1]) * 1024;
  }
  let wasmRss = 0;
  const others = [];
  for (let i = 0; i < all.length; i++) {
    const m = all[i];
    const next = all[i + 1];
    const isWasm = m.perms.startsWith('rw') && next && next.start === m.end && next.perms.startsWith('---') && next.end - next.start >= 4n * 1024n ** 3n;
    if (isWasm) wasmRss += m.rss;
    else if (m.rss >= 4 * 1024 ** 2) others.push({ size: Number(m.end - m.start), rss: m.rss, perms: m.perms, name: m.name });
  }
  others.sort((a, b) => b.rss - a.rss);
  return { wasmRss, others: others.slice(0, 15) };
}

function status() {
  const out = {};
  for (const line of readFileSync('/proc/self/status', 'utf8').split('\n')) {
    const m = /^(VmRSS|VmHWM|RssAnon|RssFile|RssShmem):\s+(\d+) kB/.exec(line);
    if (m) out[m[1]] = Number(m[2]) * 1024;
  }
  return out;
}

process.on('SIGUSR2', async () => {
  if (process.env.MEMORY_PROBE_GC && typeof globalThis.gc === 'function') {
    globalThis.gc();
    await new Promise((r) => setTimeout(r, 1000));
  }
  const live = [...memories].map((ref) => ref.deref()).filter(Boolean);
  const wasm = [...new Set(live)].map((memory) => memory.buffer.byteLength);
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, s.space_used_size]));
  writeFileSync(
    process.env.MEMORY_PROBE_OUT,
    JSON.stringify({ usage: process.memoryUsage(), wasm, mappings: mappings(), spaces, status: status() }),
  );
});
