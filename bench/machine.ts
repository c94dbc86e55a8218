/**
 * What kind of machine the figures come from: three costs that differ between the machines this project is measured
 * on far more than a loop's speed does (bench/README, session 64).
 * - `loop`: 10⁸ additions in a function, in ms: the processor's own speed.
 * - `page fault`: the first write to each 4 KiB page of fresh memory, in µs a page (the kernel maps and zeroes it).
 * - `system call`: an `fstat` of an open file, in µs (Node's binding included).
 * On a machine whose kernel runs under a paravirtual hypervisor (PVM) the last two cost 10–20 times what they cost
 * elsewhere: Chromium, forks and fresh memory slow down, while a loop does not.
 *   node --import tsx bench/machine.ts
 */
import { fstatSync, openSync, closeSync } from 'node:fs';

export interface MachineCosts {
  loopMs: number;
  pageFaultUs: number;
  syscallUs: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (since: bigint) => Number(process.hrtime.bigint() - since) / 1e6;

function loop(): number {
  let sum = 0;
  for (let i = 0; i < 1e8; i++) sum += i;
  return sum;
}

/** Three rounds of each, the median kept. */
export function machineCosts(): MachineCosts {
  const loops: number[] = [];
  const faults: number[] = [];
  const calls: number[] = [];
  const PAGE = 4096;
  const BYTES = 64 * 1024 * 1024;
  const CALLS = 20_000;
  const fd = openSync(process.execPath, 'r');
  try {
    for (let round = 0; round < 3; round++) {
      let start = process.hrtime.bigint();
      loop();
      loops.push(ms(start));
      // A large ArrayBuffer is calloc'ed: fresh pages from the kernel, mapped on their first write.
      const memory = new Uint8Array(new ArrayBuffer(BYTES));
      start = process.hrtime.bigint();
      for (let i = 0; i < BYTES; i += PAGE) memory[i] = 1;
      faults.push((ms(start) * 1000) / (BYTES / PAGE));
      start = process.hrtime.bigint();
      for (let i = 0; i < CALLS; i++) fstatSync(fd);
      calls.push((ms(start) * 1000) / CALLS);
    }
  } finally {
    closeSync(fd);
  }
  return { loopMs: median(loops), pageFaultUs: median(faults), syscallUs: median(calls) };
}

export const describeMachine = ({ loopMs, pageFaultUs, syscallUs }: MachineCosts) =>
  `loop ${loopMs.toFixed(0)} ms, page fault ${pageFaultUs.toFixed(2)} µs, system call ${syscallUs.toFixed(2)} µs`;

if (import.meta.url === `file://${process.argv[1]}`) console.log(describeMachine(machineCosts()));
