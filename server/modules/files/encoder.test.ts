import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PictureEncoder } from './encoder.ts';

const covers = path.resolve(import.meta.dirname, '../../db/seed/covers');
const picture = path.join(covers, readdirSync(covers).find((f) => f.endsWith('.jpg'))!);
const MAX = 50_000_000;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(check: () => boolean, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('PictureEncoder (sharp in a child process, ADR 072)', { timeout: 60_000 }, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'podryad-encoder-'));
  let encoder: PictureEncoder;
  afterEach(() => encoder.stop());

  it('writes each asked variant from a worker process that ends once idle', async () => {
    encoder = new PictureEncoder({ idleMs: 200 });
    expect(encoder.workerPid).toBeUndefined();
    const outputs = [
      { output: path.join(dir, 'a.w320.avif'), width: 320 as const, format: 'avif' as const },
      { output: path.join(dir, 'a.w320.webp'), width: 320 as const, format: 'webp' as const },
    ];
    const made = encoder.encode({ input: picture, max: MAX, outputs });
    const pid = encoder.workerPid!;
    expect(pid).not.toBe(process.pid);
    expect(await made).toEqual(outputs.map((o) => o.output));
    expect((await readFile(outputs[0]!.output)).subarray(4, 12).toString('latin1')).toBe('ftypavif');
    expect((await readFile(outputs[1]!.output)).subarray(8, 12).toString('latin1')).toBe('WEBP');
    // Idle for idleMs: the worker goes, and its memory with it.
    await until(() => encoder.workerPid === undefined && !alive(pid));
    // The next picture starts another.
    expect(await encoder.encode({ input: picture, max: MAX, outputs: outputs.slice(1) })).toEqual([outputs[1]!.output]);
  });

  it('makes nothing of what is not a picture, or is larger than allowed, and goes on', async () => {
    encoder = new PictureEncoder();
    const junk = path.join(dir, 'junk.jpg');
    writeFileSync(junk, 'not a picture');
    const out = (name: string) => [{ output: path.join(dir, name), width: 320 as const, format: 'webp' as const }];
    expect(await encoder.encode({ input: junk, max: MAX, outputs: out('junk.webp') })).toEqual([]);
    expect(await encoder.encode({ input: picture, max: 1_000, outputs: out('bomb.webp') })).toEqual([]);
    expect(await encoder.encode({ input: picture, max: MAX, outputs: out('fine.webp') })).toEqual([path.join(dir, 'fine.webp')]);
  });

  it('answers "nothing made" when the worker dies or hangs on a picture, and the next picture gets a new worker', async () => {
    encoder = new PictureEncoder();
    const out = (name: string) => [{ output: path.join(dir, name), width: 960 as const, format: 'avif' as const }];
    const killed = encoder.encode({ input: picture, max: MAX, outputs: out('killed.avif') });
    const first = encoder.workerPid!;
    process.kill(first, 'SIGKILL');
    expect(await killed).toEqual([]);
    expect(await encoder.encode({ input: picture, max: MAX, outputs: out('after.avif') })).toEqual([path.join(dir, 'after.avif')]);
    expect(encoder.workerPid).not.toBe(first);

    // A job that outlasts its time: the worker is ended.
    const hasty = new PictureEncoder({ jobMs: 1 });
    const hung = hasty.encode({ input: picture, max: MAX, outputs: out('hung.avif') });
    const pid = hasty.workerPid!;
    expect(await hung).toEqual([]);
    await until(() => !alive(pid));
    hasty.stop();
  });
});
