/**
 * New names asked while the declaration index builds: on a never-seen generated project, the
 * session's first global `find_symbol` starts the build; then a name not asked before goes out
 * every `paceMs` (start to start) until the index is on disk (written about two seconds after the
 * build ends) or `capMs` passed. Each answer is timed from the question, and kept: once the build
 * is done the same names are asked again, and an answer during the build that differs from the
 * answer after it is incomplete (the row then fails, whatever its time).
 *
 * Used by the `find-symbol` part of generations.ts.
 * @module
 */
import { join } from "node:path";
import type { Sextant } from "../scale.ts";

/** One name asked during the build. */
export interface NewNameSample {
  name: string;
  /** When it was asked, ms after the first call started. */
  at: number;
  ms: number;
  text: string;
}

/** What {@linkcode askWhileBuilding} measured. */
export interface NewNamesResult {
  /** The session's first global find_symbol (it starts the build), ms. */
  firstMs: number;
  samples: NewNameSample[];
  /** When the index reached the disk, ms after the first call started (NaN: not within the cap). */
  storedAt: number;
  /** The same names asked again after the build, ms each. */
  afterMs: number[];
  /** Names whose answer during the build differed from the answer after it. */
  incomplete: string[];
}

/** Options of {@linkcode askWhileBuilding}. */
export interface NewNamesOptions {
  /** How many generated modules the project has (names are spread over them). */
  files: number;
  /** Start-to-start interval between questions. */
  paceMs?: number;
  /** Stop asking after this long even if the index is not on disk yet. */
  capMs?: number;
}

/** Names of the generator's modules (bench/lib/project.ts), in an order that jumps around. */
function nameAt(i: number, files: number): string {
  // A multiplicative walk over the modules: consecutive questions land far apart in the tree.
  const n = (i * 7919 + 104_729) % files;
  return i % 2 === 0 ? `Options${n}` : `makeWidget${n}`;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Start the build with one find_symbol, then ask new names while it runs (see the module
 * documentation). `sextant` must be a fresh session on `root` with no index on disk.
 */
export async function askWhileBuilding(
  sextant: Sextant,
  root: string,
  options: NewNamesOptions,
): Promise<NewNamesResult> {
  const pace = options.paceMs ?? 250;
  const cap = options.capMs ?? 60_000;
  const store = join(root, ".sextant", "cache", "declarations.jsonl");
  const ask = (name: string) =>
    sextant.call("find_symbol", { name_path_pattern: name, include_body: false });
  const t0 = performance.now();
  await ask("Widget1");
  const firstMs = performance.now() - t0;
  const samples: NewNameSample[] = [];
  let storedAt = NaN;
  for (let i = 0; performance.now() - t0 < cap; i++) {
    if (await exists(store)) {
      storedAt = performance.now() - t0;
      break;
    }
    const name = nameAt(i, options.files);
    const at = performance.now() - t0;
    const text = await ask(name);
    samples.push({ name, at, ms: performance.now() - t0 - at, text });
    const next = t0 + at + pace;
    const wait = next - performance.now();
    if (wait > 0) await delay(wait);
  }
  // A name declared nowhere answers only from the whole index (its close names need all of it).
  await ask("NoSuchNameAnywhere");
  const afterMs: number[] = [];
  const incomplete: string[] = [];
  for (const s of samples) {
    const started = performance.now();
    const text = await ask(s.name);
    afterMs.push(performance.now() - started);
    if (text !== s.text) incomplete.push(s.name);
  }
  return { firstMs, samples, storedAt, afterMs, incomplete };
}
