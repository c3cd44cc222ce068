/**
 * Parsing with tree-sitter: the runtime is initialised once per thread, each grammar is loaded
 * on first use, and a file's text becomes its declarations (see extract.ts).
 * @module
 */
import { Language, Parser } from "npm:web-tree-sitter@0.25.10";
import type { CompactSymbol } from "../model.ts";
import { type Extracted, extractFile } from "./extract.ts";
import { grammarBytes, runtimeBytes } from "./grammar_files.ts";
import type { GrammarId } from "./grammars.ts";
import { untrustedReason } from "./trust.ts";

let runtime: Promise<void> | null = null;
const parsers = new Map<GrammarId, Promise<Parser>>();
/**
 * The grammar load under way, if any: loads run one at a time. web-tree-sitter links a grammar's
 * module into the runtime's symbol table while it loads, and two loads at once can see each other's
 * half-linked exports (measured: loading the typescript and tsx grammars together failed about one
 * time in twelve, "bad export type for 'tree_sitter_tsx_external_scanner_create': undefined", and
 * the index left those files to the language server).
 */
let loading: Promise<unknown> = Promise.resolve();

/** Run `load` after every load asked before it has ended (failed or not). */
export function oneLoadAtATime<T>(load: () => Promise<T>): Promise<T> {
  const done = loading.then(load);
  loading = done.catch(() => {});
  return done;
}

async function parserFor(grammar: GrammarId): Promise<Parser> {
  runtime ??= (async () => {
    await Parser.init({ wasmBinary: await runtimeBytes() });
  })();
  await runtime;
  let parser = parsers.get(grammar);
  if (!parser) {
    parser = (async () => {
      let bytes: Uint8Array;
      try {
        bytes = await grammarBytes(grammar);
      } catch (error) {
        throw new Error(`The ${grammar} grammar could not be read: ${String(error)}`);
      }
      const language = await oneLoadAtATime(() => Language.load(bytes));
      const p = new Parser();
      p.setLanguage(language);
      return p;
    })();
    parsers.set(grammar, parser);
  }
  return await parser;
}

/** The declarations of a file's text (`\n` line endings), parsed with the given grammar. */
export async function parseDeclarations(
  text: string,
  grammar: GrammarId,
): Promise<CompactSymbol[]> {
  return (await parseFile(text, grammar)).symbols;
}

/**
 * {@linkcode parseDeclarations}, with whether they are exactly the server's (extract.ts); `why`
 * collects the reasons they are not. `untrusted`: why they cannot stand for the file at all
 * (trust.ts); the index then leaves the file to the language server.
 */
export async function parseFile(
  text: string,
  grammar: GrammarId,
  why?: Set<string>,
): Promise<Extracted & { untrusted?: string }> {
  const parser = await parserFor(grammar);
  let tree;
  try {
    tree = parser.parse(text);
  } catch (error) {
    // A grammar's scanner can fail (tree-sitter-wasms' bash on any `case`), and the parser then
    // fails every later file: the next file gets a new one.
    parsers.delete(grammar);
    parser.delete();
    throw error;
  }
  if (!tree) return { symbols: [], exact: false, untrusted: "no tree" };
  try {
    const extracted = extractFile(tree.rootNode, grammar, why);
    const untrusted = untrustedReason(extracted.symbols, grammar, tree.rootNode.hasError);
    return untrusted === null ? extracted : { ...extracted, exact: false, untrusted };
  } finally {
    tree.delete();
  }
}
