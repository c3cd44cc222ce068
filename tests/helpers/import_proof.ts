/**
 * What the import-graph proof's tests compare Sextant with: the server's own references when it
 * is shown every source file of a fixture.
 * @module
 */
import { assertEquals } from "./assert.ts";
import { fixtureProject, linkTypeScript7 } from "./lsp.ts";
import { disposeAndCheck, fixtureTree } from "./symbols.ts";
import { type ToolHarness, toolHarness } from "./tool_ctx.ts";
import { findReferencesChecked, normalizeLocations } from "../../src/symbols/queries.ts";
import { parseNamePath } from "../../src/symbols/name_path.ts";
import { importsAreDeclarations } from "../../src/symbols/typescript_native.ts";
import { findReferencingSymbols } from "../../src/tools/symbols/find_referencing_symbols.ts";

/** Every JavaScript and TypeScript file of a tree, outside node_modules, sorted. */
export async function sourceFiles(root: string, dir = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(`${root}/${dir}`)) {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory && entry.name !== "node_modules") {
      out.push(...await sourceFiles(root, rel));
    } else if (/\.[jt]s$/.test(rel)) out.push(rel);
  }
  return out.sort();
}

/**
 * The server's own references to the symbol named at `target` in a fixture, the server shown
 * every source file: `path:line:column`, 0-based, the declaration itself left out, sorted.
 */
export async function referencesShownEverything(
  fixtureName: string,
  target: { file: string; line: number; character: number },
  typescript: 5 | 7,
): Promise<string[]> {
  await using fixture = await fixtureProject(fixtureName, { typescript });
  const server = await fixture.pool.serverFor(target.file);
  const files = await sourceFiles(fixture.root);
  await server.syncFiles(files);
  const result = await server.request<unknown>("textDocument/references", {
    textDocument: { uri: server.uriOf(target.file) },
    position: { line: target.line, character: target.character },
    context: { includeDeclaration: importsAreDeclarations(server) },
  }, { sync: files });
  return normalizeLocations(result)
    .map((l) => `${server.relPathOf(l.uri)}:${l.range.start.line}:${l.range.start.character}`)
    .filter((key) => key !== `${target.file}:${target.line}:${target.character}`)
    .sort();
}

/** A fixture the proof is checked on, and what the server's own answer must show of it. */
export interface ProofCase {
  fixture: string;
  /** The symbol's name and the position of its declaration's name. */
  name: string;
  target: { file: string; line: number; character: number };
  /** Files that hold a reference in the server's own answer. */
  referring: readonly string[];
  /** Files that mention the name and must never be shown to the server nor named. */
  unrelated: readonly string[];
  /** What is left unexplained (`path:line kind`), the same cold and warm. */
  unexplained: readonly string[];
}

/**
 * The import-graph proof on a fixture, with a real TypeScript server: the fixture is what it
 * claims (every referring file in the server's own answer shown every file, no unrelated one),
 * Sextant's references equal that answer cold and warm with only `unexplained` left over, the
 * unrelated files are never shown to the server, and find_referencing_symbols' answer and notes
 * never name them. `more` checks what else the case needs on the same session, given the
 * server's own answer.
 */
export async function proofKeepsEveryReference(
  c: ProofCase,
  typescript: 5 | 7,
  more?: (h: ToolHarness, expected: string[]) => Promise<void>,
): Promise<void> {
  const expected = await referencesShownEverything(c.fixture, c.target, typescript);
  for (const file of c.referring) {
    assertEquals(expected.some((key) => key.startsWith(`${file}:`)), true, file);
  }
  for (const file of c.unrelated) {
    assertEquals(expected.some((key) => key.startsWith(`${file}:`)), false, file);
  }
  await using h = await toolHarness(await fixtureTree(c.fixture));
  if (typescript === 7) await linkTypeScript7(h.root);
  const services = h.session.services(h.project);
  const index = services.symbols;
  for (const when of ["cold", "warm"]) {
    const target = await index.resolveUnique(parseNamePath(c.name), c.target.file);
    const checked = await findReferencesChecked(index, target);
    const keys = checked.hits
      .map((hit) => `${hit.relPath}:${hit.position.line}:${hit.position.character}`)
      .sort();
    assertEquals(keys, expected, `${when}: the server's own answer when shown every file`);
    assertEquals(
      checked.notAnalysed.map((n) => `${n.relPath}:${n.line} ${n.kind}`),
      [...c.unexplained],
      `${when}: what is left unexplained`,
    );
    const server = await services.pool.serverFor(c.target.file);
    const open = new Set(server.openDocuments?.() ?? []);
    assertEquals(c.unrelated.filter((f) => open.has(f)), [], `${when}: unrelated files shown`);
    index.startDeclarations(); // the warm question runs on the declaration index
    await index.declarations?.ready();
  }
  const answer = await h.call(findReferencingSymbols, {
    name_path: c.name,
    relative_path: c.target.file,
  });
  const told = [answer, ...h.notes()].join("\n");
  for (const file of c.unrelated) assertEquals(told.includes(file), false, file);
  await more?.(h, expected);
  await disposeAndCheck(h);
}
