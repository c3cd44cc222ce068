/**
 * The start bundle (src/cli/start_bundle.ts): which commands use it, the stamp that names it,
 * and a standalone Sextant that runs from it end to end, with the files it finds from the
 * checkout's root (the parse worker, the grammars, the regex child).
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals, assertNotEquals } from "../helpers/assert.ts";
import { FIXTURES, hasServer, LSP_CACHE, skipUnless } from "../helpers/lsp.ts";
import { call, Client, startArgs, StdioClientTransport, withLspPath } from "../helpers/mcp.ts";
import {
  loadsWholeProgram,
  OTHER_BUNDLES_KEPT,
  removeOldBundles,
  runFromBundle,
  sourceStamp,
  START_BUNDLE_FOLDER,
  startBundle,
} from "../../src/cli/start_bundle.ts";
import { pathToFileURL } from "node:url";

Deno.test("the start bundle serves the commands that load the whole program, and only those", () => {
  assert(loadsWholeProgram(["--standalone", "--project", "."]));
  assert(loadsWholeProgram(["--http", "127.0.0.1:0"]));
  assert(loadsWholeProgram(["service", "run"]));
  assert(!loadsWholeProgram([]), "the front that relays to the service");
  assert(!loadsWholeProgram(["service", "status"]));
  assert(!loadsWholeProgram(["doctor"]));
  assert(!loadsWholeProgram(["--no-such-option"]), "a usage error is main's to report");
});

Deno.test("the stamp follows every source file but the tests", async () => {
  const root = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-stamp-" })) + "/";
  try {
    for (const file of ["main.ts", "main_bundle.ts", "deno.json", "deno.lock"]) {
      await Deno.writeTextFile(root + file, "");
    }
    await Deno.mkdir(root + "src/deep", { recursive: true });
    await Deno.writeTextFile(root + "src/deep/a.ts", "export const a = 1;\n");
    await Deno.writeTextFile(root + "src/deep/a_test.ts", "");
    const first = sourceStamp(root);
    assert(first !== null);
    assertEquals(sourceStamp(root), first, "the same files, the same stamp");
    await Deno.writeTextFile(root + "src/deep/a_test.ts", "// a test changed\n");
    assertEquals(sourceStamp(root), first, "tests are not in the bundle");
    await Deno.writeTextFile(root + "src/deep/a.ts", "export const a = 2;;\n");
    const second = sourceStamp(root);
    assertNotEquals(second, first, "a module changed");
    await Deno.writeTextFile(root + "src/deep/b.ts", "");
    assertNotEquals(sourceStamp(root), second, "a module added");
    await Deno.remove(root + "deno.lock");
    assertEquals(sourceStamp(root), null, "an entry file missing: no bundle");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

function exists(url: URL): boolean {
  try {
    Deno.statSync(url);
    return true;
  } catch {
    return false;
  }
}

/** A checkout of the fewest files a bundle is built from, in a temporary folder. */
async function tinyCheckout(entry: string): Promise<string> {
  const root = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-bundle-" })) + "/";
  await Deno.writeTextFile(root + "deno.json", "{}\n");
  await Deno.writeTextFile(root + "deno.lock", '{ "version": "5" }\n');
  await Deno.writeTextFile(root + "main.ts", "");
  await Deno.writeTextFile(root + "main_bundle.ts", entry);
  await Deno.mkdir(root + "src");
  await Deno.writeTextFile(root + "src/a.ts", "export const a = 1;\n");
  return root;
}

Deno.test("a bundle is built once per stamp; a failed build or a damaged bundle is set aside for good", async () => {
  const good = await tinyCheckout(
    'import { a } from "./src/a.ts";\nexport const b = [a, "the entry\'s own text"];\n',
  );
  const bad = await tinyCheckout("export const b = ;\n");
  try {
    const url = await startBundle(pathToFileURL(good));
    assert(url !== null, "no bundle built");
    const built = Deno.statSync(new URL(url)).mtime;
    assert(
      (await Deno.readTextFile(new URL(url))).includes("the entry's own text"),
      "the entry's code",
    );
    assertEquals(await startBundle(pathToFileURL(good)), url, "the same files, the same bundle");
    assertEquals(Deno.statSync(new URL(url)).mtime, built, "not built again");
    // Damaged on disk: set aside, and the modules run as they are (false: main runs).
    await Deno.writeTextFile(new URL(url), "export const b = ;\n");
    assertEquals(await runFromBundle(["--standalone"], pathToFileURL(good)), false);
    assert(!exists(new URL(url)) && exists(new URL(`${url}.failed`)), "not set aside");
    assertEquals(await startBundle(pathToFileURL(good)), null, "not built again");
    assertEquals(await startBundle(pathToFileURL(bad)), null);
    const left = [...Deno.readDirSync(bad + START_BUNDLE_FOLDER)].map((e) => e.name);
    assertEquals(left.length, 1, `only the failure is on record: ${left}`);
    assert(left[0]!.endsWith(".js.failed"), left[0]);
    // Not tried again: no build (no lock file, no partial file) for the same files.
    assertEquals(await startBundle(pathToFileURL(bad)), null);
    assertEquals([...Deno.readDirSync(bad + START_BUNDLE_FOLDER)].map((e) => e.name), left);
  } finally {
    await Deno.remove(good, { recursive: true });
    await Deno.remove(bad, { recursive: true });
  }
});

Deno.test("the start bundle loads no heavy part of Deno's Node.js layer", async () => {
  // Each of node:fs, node:crypto, node:module, node:net or node:util loads most of the layer at
  // every start (~25 ms with all of them: docs/performance.md, "Session 10"); these
  // four load its small core. Imports made when a function runs (`await import(...)`: the parse
  // worker's tree-sitter, code mode's child process) are not loaded at the start.
  const url = await startBundle();
  assert(url !== null, "this checkout has a start bundle");
  const text = await Deno.readTextFile(new URL(url));
  const loaded = new Set<string>();
  // A static import, or a call (the bundler's CommonJS `require`, renamed by the minifier) other
  // than `import(...)`: the bundle is minified (`from"node:path"`).
  for (const m of text.matchAll(/(?:\bfrom|(?<!\bimport)\()\s*"node:([\w/]+)"/g)) {
    loaded.add(m[1]!.split("/")[0]!);
  }
  assertEquals([...loaded].sort(), ["os", "path", "timers", "url"]);
});

Deno.test({
  name: "a standalone Sextant runs from the start bundle: the index, its grammars and regexes work",
  ignore: skipUnless(hasServer("typescript-language-server"), "typescript-language-server"),
}, async () => {
  const parent = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-bundle-" }));
  const root = join(parent, "typescript");
  await new Deno.Command("cp", { args: ["-r", join(FIXTURES, "typescript"), root] }).output();
  // A start builds the bundle it lacks, unless another process is building it: then a second.
  let text = "";
  for (let attempt = 0; attempt < 2 && !text.includes("start bundle"); attempt++) {
    const transport = new StdioClientTransport({
      command: Deno.execPath(),
      args: startArgs(["--project", root, "--log-level", "debug"]),
      env: withLspPath({
        ...Deno.env.toObject(),
        SEXTANT_LSP_PATH: LSP_CACHE,
        XDG_CONFIG_HOME: join(parent, "xdg"),
      }),
      stderr: "pipe",
    });
    const stderr = (async () => {
      let all = "";
      for await (const chunk of transport.stderr as unknown as AsyncIterable<Uint8Array>) {
        all += new TextDecoder().decode(chunk);
      }
      return all;
    })();
    const client = new Client({ name: "bundle-test", version: "0" });
    try {
      await client.connect(transport);
      // A name search over the whole project: answered by the declaration index (its parse
      // worker and grammars), before any server is needed.
      const found = await call(client, "find_symbol", { name_path: "Circle" });
      assert(!found.isError && found.text.includes("Circle"), found.text);
      // A regex search: the regex child process.
      const matches = await call(client, "search_for_pattern", {
        substring_pattern: "class Circle",
      });
      assert(!matches.isError && matches.text.includes("shapes.ts"), matches.text);
    } finally {
      await client.close();
    }
    text = await stderr;
  }
  await Deno.remove(parent, { recursive: true }).catch(() => {});
  assert(text.includes("running from the start bundle"), "never ran from the start bundle");
});

Deno.test("old bundles: other stamps go after an hour unused, and beyond the most recently used", async () => {
  const folder = await Deno.makeTempDir({ prefix: "sextant-bundles-" });
  try {
    const now = Date.now();
    const minutes = (m: number) => new Date(now - m * 60_000);
    const write = (name: string, used: Date) => {
      Deno.writeTextFileSync(join(folder, name), "");
      Deno.utimeSync(join(folder, name), used, used);
    };
    write("sextant-00.js", minutes(600)); // this start's own: kept whatever its age
    for (let i = 1; i <= 6; i++) write(`sextant-0${i}.js`, minutes(i)); // recent, 1-6 minutes
    write("sextant-07.js.failed", minutes(7));
    write("sextant-08.js", minutes(90)); // unused for an hour and a half
    write("notes.txt", minutes(600)); // not a bundle
    removeOldBundles(folder, "sextant-00.js", now);
    const left = [...Deno.readDirSync(folder)].map((e) => e.name).sort();
    const recent = ["sextant-01.js", "sextant-02.js", "sextant-03.js", "sextant-04.js"];
    assertEquals(OTHER_BUNDLES_KEPT, recent.length);
    assertEquals(left, ["notes.txt", "sextant-00.js", ...recent]);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});
