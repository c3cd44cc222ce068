/**
 * Helpers for the symbol tool tests: a fixture as a file tree for toolHarness, and a shutdown
 * check proving no language server outlives its test.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals } from "./assert.ts";
import { FIXTURES, liveInGroup, processAlive } from "./lsp.ts";
import type { FileTree, ToolHarness } from "./tool_ctx.ts";
import { findReferencingSymbols } from "../../src/tools/symbols/find_referencing_symbols.ts";
import { isProvisional } from "../../src/symbols/lookup.ts";
import { LspMethod } from "../../src/lsp/methods.ts";
import type { ServerPool } from "../../src/lsp/pool.ts";
import { fileSymbol } from "../../src/symbols/model.ts";
import { listingLegend, TREE_LISTING_LEGEND } from "../../src/tools/shared/reference_entries.ts";

/** Every file of `fixtures/<name>`, as a tree for toolHarness. */
export async function fixtureTree(name: string): Promise<FileTree> {
  const tree: FileTree = {};
  const walk = async (dir: string, prefix: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory) await walk(join(dir, entry.name), rel);
      else tree[rel] = await Deno.readFile(join(dir, entry.name));
    }
  };
  await walk(join(FIXTURES, name), "");
  return tree;
}

/** Stop the session's language servers and prove no server process is left. */
export async function disposeAndCheck(h: ToolHarness): Promise<void> {
  const pool = h.session.services(h.project).pool as ServerPool;
  const pids = pool.running().map((s) => s.pid).filter((p): p is number => p !== null);
  assert(pids.length > 0, "a language server was running");
  await h.session.dispose();
  for (const pid of pids) {
    assert(!processAlive(pid), `server ${pid} is still alive`);
    const live = liveInGroup(pid);
    if (live >= 0) assertEquals(live, 0, `processes left in group ${pid}`);
  }
}

/** A reference of find_referencing_symbols' grouped answer, with its file and kind restored. */
export interface FlatReference {
  relative_path: string;
  kind: string;
  name_path: string;
  [key: string]: unknown;
}

/**
 * find_referencing_symbols' answer (`{file: {kind: [entry]}}`) as one list, in answer order. A
 * large answer's smaller forms (`{file: {kind: {name_path: "line:text\n..."}}}`, or the plain
 * listing; see src/tools/shared/reference_entries.ts) give one entry per name path, its lines as
 * `content_around_reference` (a listing's kinds are "" where it names none).
 */
export function flattenReferences(text: string): FlatReference[] {
  const kinds = listingKinds(text);
  if (kinds !== undefined) return flattenListing(text, kinds);
  const grouped = JSON.parse(text) as Record<
    string,
    Record<string, Array<{ name_path: string }> | Record<string, string>>
  >;
  return Object.entries(grouped).flatMap(([relative_path, byKind]) =>
    Object.entries(byKind).flatMap(([kind, list]) =>
      Array.isArray(list)
        ? list.map((entry) => ({ relative_path, kind, ...entry }))
        : Object.entries(list).map(([name_path, lines]) => ({
          relative_path,
          kind,
          name_path,
          content_around_reference: lines,
        }))
    )
  );
}

/**
 * How a listing's legend names the kinds (see listingLegend): "each" symbol's, the one kind of
 * them all, or none (null); undefined where the answer is no listing.
 */
function listingKinds(text: string): string | null | undefined {
  const legend = text.slice(0, text.indexOf("\n"));
  if (legend === listingLegend("each")) return "each";
  if (legend === TREE_LISTING_LEGEND) return null;
  if (legend === listingLegend(null)) return null;
  const shared = /, each a (\w+);/.exec(legend)?.[1];
  return shared !== undefined && legend === listingLegend(shared) ? shared : undefined;
}

/** A listing's blocks (after its legend) as entries: the file's own lines, then each symbol's. */
function flattenListing(text: string, kinds: string | null): FlatReference[] {
  const out: FlatReference[] = [];
  for (const block of text.split("\n\n").slice(1)) {
    const [relative_path, ...lines] = block.split("\n");
    const own = fileSymbol(relative_path!, "");
    let entry = {
      relative_path: relative_path!,
      kind: "File",
      name_path: own.name,
      lines: [] as string[],
    };
    const flush = () => {
      if (entry.lines.length === 0) return;
      const { lines: content, ...named } = entry;
      out.push({ ...named, content_around_reference: content.join("\n") });
    };
    // A tree listing's names: each continues the name path of the nearest name above it with
    // fewer spaces before it.
    const above: Array<{ depth: number; path: string }> = [];
    const tree = text.startsWith(TREE_LISTING_LEGEND);
    for (const line of lines) {
      if (/^\d+:/.test(line)) {
        entry.lines.push(line);
        continue;
      }
      flush();
      if (tree) {
        const depth = line.length - line.trimStart().length;
        while (above.length > 0 && above.at(-1)!.depth >= depth) above.pop();
        const path = above.length > 0 ? `${above.at(-1)!.path}/${line.trimStart()}` : line;
        above.push({ depth, path });
        entry = { ...entry, kind: "", name_path: path, lines: [] };
        continue;
      }
      const space = line.indexOf(" ");
      entry = kinds === "each"
        ? { ...entry, kind: line.slice(0, space), name_path: line.slice(space + 1), lines: [] }
        : { ...entry, kind: kinds ?? "", name_path: line, lines: [] };
    }
    flush();
  }
  return out;
}

/**
 * The references an answer of find_referencing_symbols lists, whatever its form (Serena's entries
 * with their context lines, entries merged per containing symbol, or the smallest form): one
 * `relative_path|kind|name_path|line:text` per reference line, each once, sorted. Two answers name
 * the same references exactly when these are equal (src/tools/shared/reference_entries.ts chooses
 * the form by its cost against grep's lines; what it lists is the same in every form).
 */
export function referenceLines(answer: string | object): string[] {
  const text = typeof answer === "string" ? answer : JSON.stringify(answer);
  const out = new Set<string>();
  for (const r of flattenReferences(text)) {
    for (const line of String(r.content_around_reference).split("\n")) {
      if (line.startsWith("...")) continue; // a context line
      const found = /^ {2}>\s*(\d+):(.*)$/s.exec(line) ?? /^(\d+):(.*)$/s.exec(line);
      if (!found) throw new Error(`Not a reference line: ${JSON.stringify(line)}`);
      out.add(`${r.relative_path}|${r.kind}|${r.name_path}|${found[1]}:${found[2]}`);
    }
  }
  return [...out].sort();
}

/** Whether every entry of a references answer has only Serena's keys (and its content). */
export function serenaReferenceKeys(answer: string): boolean {
  const keys = new Set(["name_path", "body_location", "content_around_reference"]);
  const grouped = JSON.parse(answer) as Record<string, Record<string, unknown>>;
  return Object.values(grouped).every((byKind) =>
    Object.values(byKind).every((list) =>
      Array.isArray(list) &&
      list.every((entry) =>
        "name_path" in entry && "content_around_reference" in entry &&
        Object.keys(entry).every((k) => keys.has(k))
      )
    )
  );
}

/**
 * The top-level names of a `get_symbols_overview` answer for one file, grouped by kind as
 * Serena 1.7/2.1 answers (`{"Kind": ["name", {"name": {children}}]}`), kind by kind.
 */
export function overviewNames(text: string): string[] {
  const grouped = JSON.parse(text) as Record<string, (string | Record<string, unknown>)[]>;
  return Object.values(grouped).flatMap((list) =>
    list.flatMap((entry) => typeof entry === "string" ? [entry] : Object.keys(entry))
  );
}

/**
 * Ask for a symbol's references cold, then warm; report whether the cold target was provisional
 * (lookup.ts's ProvisionalMatch) and how many references requests the cold question sent.
 */
export async function coldAndWarmReferences(
  h: ToolHarness,
  args: { name_path: string; relative_path: string },
) {
  const services = h.session.services(h.project);
  const lookup = services.symbols;
  const resolve = lookup.resolveUniqueCold.bind(lookup);
  let provisional = false;
  lookup.resolveUniqueCold = async (...given: Parameters<typeof resolve>) => {
    const match = await resolve(...given);
    provisional ||= isProvisional(match);
    return match;
  };
  let asked = 0;
  const server = await services.pool.serverFor(args.relative_path);
  const request = server.request.bind(server);
  server.request = <R>(
    method: string,
    params: unknown,
    options?: Parameters<typeof request>[2],
  ) => {
    if (method === LspMethod.references) asked++;
    return request<R>(method, params, options);
  };
  const cold = await h.run(findReferencingSymbols, args);
  const coldAsked = asked;
  const warm = await h.run(findReferencingSymbols, args);
  return { cold, warm, provisional, coldAsked };
}
