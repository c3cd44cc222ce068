import { assert, assertEquals, assertStringIncludes } from "../../tests/helpers/assert.ts";
import {
  candidateFiles,
  importProof,
  type NotAnalysed,
  notAnalysedText,
  showCandidates,
} from "./completeness.ts";
import { contentHashSync } from "./cache.ts";
import { isJsOrTs } from "./import_reach.ts";
import type { LanguageServer } from "../lsp/language_server.ts";
import type { SymbolLookup } from "./lookup.ts";
import { ChangeFeed } from "../project/change_feed.ts";

const unchecked = (relPath: string, line: number): NotAnalysed => ({
  relPath,
  line,
  character: 0,
  text: `const x = Context; // ${"long ".repeat(40)}`,
  reason: "not checked: more than 64 occurrences needed the server",
  kind: "unchecked",
});

Deno.test("notAnalysedText: the reason once, a few lines per file, bounded", () => {
  const items = [
    ...Array.from({ length: 30 }, (_, i) => unchecked("src/jsx/render.ts", i * 10)),
    ...Array.from({ length: 40 }, (_, i) => unchecked(`src/f${i}.ts`, 2)),
  ];
  const text = notAnalysedText("Context", items);
  assertEquals(text.split("more than 64").length, 2, "the reason once");
  assertStringIncludes(text, "- src/jsx/render.ts:1: const x = Context;");
  assertStringIncludes(text, "- src/jsx/render.ts: 27 more, lines 31, 41");
  assertStringIncludes(text, "- 29 more files, 29 occurrences: src/f11.ts");
  assert(text.length < 4_000, `${text.length} characters`);
});

Deno.test("notAnalysedText: each reason beside its line when they differ", () => {
  const text = notAnalysedText("f", [
    { ...unchecked("a.py", 2), text: "f()", reason: "one" },
    { ...unchecked("b.py", 0), text: "f()", reason: "two" },
  ]);
  assertEquals(
    text,
    "Not analysed: 2 occurrence(s) of 'f' the language server neither listed nor explained:\n" +
      "- a.py:3: f() (one)\n- b.py:1: f() (two)",
  );
});

Deno.test("showCandidates: open candidates no configuration owns stay in the question's sync", async () => {
  // A question opening new files must name the candidates an earlier one left open: the
  // document sync closes its least recently used beyond its limit, and the request pins only
  // what it is given. Left out, they were closed under it and their references missed.
  const root = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-show-" }));
  try {
    for (const f of ["a.ts", "b.ts", "c.ts"]) {
      await Deno.writeTextFile(`${root}/${f}`, "export {};");
    }
    const synced: string[][] = [];
    const server = {
      id: "typescript",
      command: "tsc",
      openDocuments: () => ["a.ts", "b.ts", "other.ts"],
      syncFiles: (files: readonly string[]) => {
        synced.push([...files]);
        return Promise.resolve();
      },
    } as unknown as LanguageServer;
    const index = {
      project: { root, absolute: (rel: string) => `${root}/${rel}` },
    } as unknown as SymbolLookup;
    const shown = await showCandidates(index, server, ["a.ts", "b.ts", "c.ts"]);
    assertEquals([...shown].sort(), ["a.ts", "b.ts", "c.ts"]);
    assertEquals(synced.map((files) => [...files].sort()), [["a.ts", "b.ts", "c.ts"]]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/** A lookup over `files` in `root` (every one a TypeScript server's), with `declarations`. */
function lookupOver(
  root: string,
  files: Record<string, string>,
  declarations: SymbolLookup["declarations"],
  indexHelpsCold: boolean | ((files: number) => boolean) = true,
): SymbolLookup {
  return {
    declarations,
    project: {
      root,
      absolute: (rel: string) => `${root}/${rel}`,
      async *walk() {
        for (const path of Object.keys(files)) yield { path, isDirectory: false };
      },
    },
    pool: { serverIdFor: (rel: string) => isJsOrTs(rel) ? "typescript" : null },
    // true: a server whose load is one thread (typescript-language-server), the index parses
    // ahead; false: one that loads on every core (TypeScript 7), a few files' outlines are its.
    indexHelpsCold: (_rel: string, count: number) =>
      typeof indexHelpsCold === "function" ? indexHelpsCold(count) : indexHelpsCold,
  } as unknown as SymbolLookup;
}

/**
 * A cold question's scan and proof, on a project where `src/user.ts` imports `Store` and
 * `src/local.ts` declares its own; between the two, user.ts drops its import and local.ts gains
 * one. `declarations`: the index the question sees (none, or one built after the scan). The
 * proof's unreachable candidates tell which texts it took its facts from.
 */
async function coldProofAfterEdits(
  declarations: (root: string) => SymbolLookup["declarations"],
): Promise<string[]> {
  const root = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-cold-proof-" }));
  const user = 'import { Store } from "./store";\nexport const user = new Store();\n';
  const files: Record<string, string> = {
    "src/store.ts": "export class Store {}\n",
    "src/user.ts": user,
    "src/local.ts": "class Store {}\nexport const local = new Store();\n",
    "README.md": "Store\n",
  };
  try {
    await Deno.mkdir(`${root}/src`);
    for (const [rel, text] of Object.entries(files)) {
      await Deno.writeTextFile(`${root}/${rel}`, text);
    }
    const server = { id: "typescript", command: "tsc" } as unknown as LanguageServer;
    const index = lookupOver(root, files, declarations(root));
    const candidates = await candidateFiles(index, server, "Store");
    assertEquals(candidates, ["src/local.ts", "src/store.ts", "src/user.ts"]);
    await Deno.writeTextFile(`${root}/src/user.ts`, "export const user = 1; // Store\n");
    await Deno.writeTextFile(`${root}/src/local.ts`, user);
    const proof = await importProof(
      index,
      server,
      { relPath: "src/store.ts", topLevel: true, name: "Store" },
      candidates,
    );
    assertEquals(proof.undecided, null);
    assertEquals(proof.shown, candidates.filter((c) => !proof.unreachable.has(c)));
    return [...proof.unreachable];
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("importProof: a cold project's proof takes its import facts from the candidate scan's reads", async () => {
  // The cold scan reads every file; the proof needs the import facts of each JavaScript and
  // TypeScript one. Read twice, typeorm's npm package spent most of its proof reading again.
  // Read again, the proof would find local.ts reaching the target and user.ts not.
  assertEquals(await coldProofAfterEdits(() => null), ["src/local.ts"]);
});

Deno.test("importProof: a cold scan's reads give way to the contents an index built since knows", async () => {
  let built = false;
  const unreachable = await coldProofAfterEdits((root) => {
    const index = {
      get built() {
        return built;
      },
      parseAhead() {
        built = true; // the index is built after the scan (its last step)
      },
      hashOf: (rel: string) => contentHashSync(Deno.readFileSync(`${root}/${rel}`)),
    };
    return index as unknown as SymbolLookup["declarations"];
  });
  assert(built);
  assertEquals(unreachable, ["src/user.ts"]);
});

Deno.test("candidateFiles: nothing parsed ahead beside a server that loads on every core", async () => {
  const root = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-ahead-none-" }));
  const files: Record<string, string> = {
    "src/store.ts": "export class Store {}\n",
    "src/user.ts": 'import { Store } from "./store";\nexport const user = new Store();\n',
  };
  try {
    await Deno.mkdir(`${root}/src`);
    for (const [rel, text] of Object.entries(files)) {
      await Deno.writeTextFile(`${root}/${rel}`, text);
    }
    const ahead: string[][] = [];
    const declarations = {
      built: false,
      parseAhead: (_needle: string, files: readonly string[]) => {
        ahead.push([...files]);
      },
    };
    const index = lookupOver(root, files, declarations as SymbolLookup["declarations"], false);
    const server = { id: "typescript", command: "tsc" } as unknown as LanguageServer;
    const candidates = await candidateFiles(index, server, "Store");
    assertEquals(candidates, ["src/store.ts", "src/user.ts"]);
    await importProof(
      index,
      server,
      { relPath: "src/store.ts", topLevel: true, name: "Store" },
      candidates,
    );
    assertEquals(ahead, []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/**
 * A project where `src/user.ts` imports `Store` from `src/store.ts` and `src/local.ts` declares its
 * own: the proof sets local.ts aside.
 */
async function storeTree(): Promise<{ root: string; files: Record<string, string> }> {
  const root = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-ahead-" }));
  const files: Record<string, string> = {
    "src/store.ts": "export class Store {}\n",
    "src/user.ts": 'import { Store } from "./store";\nexport const user = new Store();\n',
    "src/local.ts": "class Store {}\nexport const local = new Store();\n",
  };
  await Deno.mkdir(`${root}/src`);
  for (const [rel, text] of Object.entries(files)) {
    await Deno.writeTextFile(`${root}/${rel}`, text);
  }
  return { root, files };
}

Deno.test("importProof: the candidates parsed ahead of a slow answer are those the proof shows", async () => {
  const { root, files } = await storeTree();
  try {
    const ahead: Array<{ needle: string; files: string[]; delayMs: number }> = [];
    const declarations = {
      built: false,
      parseAhead: (needle: string, files: readonly string[], delayMs: number) => {
        ahead.push({ needle, files: [...files], delayMs });
      },
    };
    const index = lookupOver(root, files, declarations as SymbolLookup["declarations"]);
    const server = { id: "typescript", command: "tsc" } as unknown as LanguageServer;
    const candidates = await candidateFiles(index, server, "Store");
    assertEquals(ahead.map((a) => a.files), [["src/local.ts", "src/store.ts", "src/user.ts"]]);
    const proof = await importProof(
      index,
      server,
      { relPath: "src/store.ts", topLevel: true, name: "Store" },
      candidates,
    );
    assertEquals([...proof.unreachable], ["src/local.ts"]);
    // The same needle again (the pending parse is replaced), at the same moment or sooner.
    assertEquals(ahead.length, 2);
    assertEquals([ahead[1]!.needle, ahead[1]!.files], ["Store", ["src/store.ts", "src/user.ts"]]);
    assert(ahead[1]!.delayMs <= ahead[0]!.delayMs);
    // Another target of the same name, over the same candidates: what its proof shows is added.
    const other = await importProof(
      index,
      server,
      { relPath: "src/local.ts", topLevel: true, name: "Store" },
      candidates,
    );
    assertEquals(other.shown, ["src/local.ts"]);
    assertEquals(ahead.length, 3);
    assertEquals(ahead[2]!.files.sort(), ["src/local.ts", "src/store.ts", "src/user.ts"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("importProof: a parse ahead is dropped where the proof leaves few enough for the server's outlines", async () => {
  // hono's `Context` on TypeScript 7: 98 candidates (the index would help), 37 shown (the
  // server's outlines are cheaper than a parse worker taking a core from its load).
  const { root, files } = await storeTree();
  try {
    const calls: string[] = [];
    const declarations = {
      built: false,
      parseAhead: (needle: string, files: readonly string[]) => {
        calls.push(`ahead ${needle}: ${files.join(" ")}`);
      },
      cancelParseAhead: (needle: string) => {
        calls.push(`cancel ${needle}`);
      },
    };
    const index = lookupOver(
      root,
      files,
      declarations as unknown as SymbolLookup["declarations"],
      (count) => count > 2,
    );
    const server = { id: "typescript", command: "tsc" } as unknown as LanguageServer;
    const candidates = await candidateFiles(index, server, "Store");
    const proof = await importProof(
      index,
      server,
      { relPath: "src/store.ts", topLevel: true, name: "Store" },
      candidates,
    );
    assertEquals(proof.shown, ["src/store.ts", "src/user.ts"]);
    assertEquals(calls, ["ahead Store: src/local.ts src/store.ts src/user.ts", "cancel Store"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test({
  name:
    "candidateFiles: before the index is built, a question asked again walks again only after a change",
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const root = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-cold-walk-" }));
  const feed = new ChangeFeed(root);
  try {
    await Deno.writeTextFile(`${root}/a.ts`, "export class Store {}\n");
    await Deno.writeTextFile(`${root}/b.ts`, "export const b = 1;\n");
    let walks = 0;
    let reads = 0;
    const server = { id: "typescript", command: "tsc" } as unknown as LanguageServer;
    const index = {
      declarations: null,
      changes: feed,
      project: {
        root,
        absolute: (rel: string) => (reads++, `${root}/${rel}`),
        async *walk() {
          walks++;
          for (const entry of Deno.readDirSync(root)) {
            if (entry.isFile) yield { path: entry.name, isDirectory: false };
          }
        },
      },
      pool: { serverIdFor: (rel: string) => isJsOrTs(rel) ? "typescript" : null },
    } as unknown as SymbolLookup;
    const ask = () => candidateFiles(index, server, "Store", { since: performance.now() });
    // The watcher starts on the feed's first barrier; until it runs, every question walks.
    for (let i = 0; i < 100 && (await feed.settle()) === null; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    assertEquals(await ask(), ["a.ts"]);
    assertEquals(await ask(), ["a.ts"]);
    assertEquals(walks, 1, "nothing changed: the last walk stands");
    await Deno.writeTextFile(`${root}/b.ts`, "export const b = new Store();\n");
    assertEquals(await ask(), ["a.ts", "b.ts"], "an edit right before the question is seen");
    assertEquals(walks, 2);
    await Deno.writeTextFile(`${root}/c.ts`, "export type C = Store;\n");
    assertEquals(await ask(), ["a.ts", "b.ts", "c.ts"], "a new file is seen");
    // The index built since: its first scan takes the walk over while nothing changed, and
    // reads again once something did.
    const built = (generation: number) => ({
      built: true,
      generation,
      ready: () => Promise.resolve(),
      hashOf: (rel: string) => `${generation}:${rel}`,
      allFiles: () => ["a.ts", "b.ts", "c.ts"],
    });
    Object.assign(index, { declarations: built(1) });
    reads = 0;
    assertEquals(await ask(), ["a.ts", "b.ts", "c.ts"]);
    assertEquals(reads, 0, "what the walk read stands");
    assertEquals(await ask(), ["a.ts", "b.ts", "c.ts"]);
    assertEquals(walks, 3, "the index answers now");
    Object.assign(index, { declarations: null });
    assertEquals(await ask(), ["a.ts", "b.ts", "c.ts"]);
    await Deno.writeTextFile(`${root}/a.ts`, "export class Other {}\n");
    Object.assign(index, { declarations: built(2) });
    assertEquals(await ask(), ["b.ts", "c.ts"], "an edit since the walk: read again");
  } finally {
    await feed.dispose();
    await Deno.remove(root, { recursive: true });
  }
});
