/**
 * What the import-graph proof's tests compare Sextant with: the server's own references when it
 * is shown every source file of a fixture.
 * @module
 */
import { fixtureProject } from "./lsp.ts";
import { normalizeLocations } from "../../src/symbols/queries.ts";
import { importsAreDeclarations } from "../../src/symbols/typescript_native.ts";

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
