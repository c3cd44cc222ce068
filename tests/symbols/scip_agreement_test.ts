/**
 * find_references from a SCIP index against the live server on real code, 30 symbols per tree
 * (scripts/checks/scip_agreement.ts): typeorm as published on npm (scip-typescript against tsserver) and
 * flask's sdist from PyPI (scip-python against pyright). Every difference is recorded here with
 * its cause; a new one, or one that goes away, fails the test. The built index is cached in
 * `.cache/real/` by indexer and package version (building typeorm's takes a minute).
 */
import { join } from "node:path";
import { assertEquals } from "../helpers/assert.ts";
import { hasServer } from "../helpers/lsp.ts";
import { once, REAL_CACHE } from "../helpers/real_code.ts";
import { type BenchTree, TYPEORM_VERSION, typeormTree } from "../../scripts/bench/lib/project.ts";
import { FLASK_VERSION, flaskTree } from "../../scripts/bench/generations.ts";
import { agreement, CAUSES } from "../../scripts/checks/scip_agreement.ts";
import { agrees, referencingAgreement } from "../../scripts/checks/scip_referencing_agreement.ts";
import { buildIndex, INDEXERS } from "../../src/symbols/scip/build.ts";
import { manifestPath } from "../../src/symbols/scip/freshness.ts";

/** Changes when `sextant index build`'s recipe changes what an index holds. */
const RECIPE = "allowJs without tsconfig";

/** `<kind> <name> <side> <file:line:column>` → cause. */
type Known = Record<string, string>;

const TYPEORM_KNOWN: Known = {
  // JavaScript uses of a `.d.ts` declaration: the live goto_definition leads from each to the
  // declaration, the live references answer leaves them out (typeorm has no tsconfig: tsserver
  // answers from inferred projects). The index's answer is the more complete one here.
  "class EntityMetadataNotFoundError only-index data-source/DataSource.js:304:31":
    CAUSES.serverLeftOut,
  "class RelationQueryBuilder only-index index.js:159:125": CAUSES.serverLeftOut,
  "class RelationQueryBuilder only-index query-builder/index.js:14:118": CAUSES.serverLeftOut,
  // index.mjs re-exports the CommonJS build by destructuring (`const { Brackets, ... } =
  // TypeORM`): scip-typescript makes each binding a local; tsserver follows it to the class.
  "class EntityMetadataNotFoundError only-server index.mjs:60:5": CAUSES.localInIndex,
  "class RelationQueryBuilder only-server index.mjs:12:5": CAUSES.localInIndex,
  "function TreeLevelColumn only-server index.mjs:141:5": CAUSES.localInIndex,
};

const FLASK_KNOWN: Known = {
  // scip-python puts no `src` on its search path (pyright's autoSearchPaths, which Sextant gives
  // pyright, does): the typing tests' `from flask import Response` resolves to the flask
  // installed on the machine, another package's symbol.
  ...Object.fromEntries(
    [
      "typing_app_decorators.py:4:19",
      "typing_app_decorators.py:10:26",
      "typing_app_decorators.py:10:39",
      "typing_app_decorators.py:11:12",
      "typing_app_decorators.py:15:33",
      "typing_app_decorators.py:15:46",
      "typing_app_decorators.py:16:12",
      "typing_route.py:11:28",
      "typing_route.py:27:21",
    ].map((l) => [`class Response only-server tests/type_check/${l}`, "other package"]),
  ),
  // scip-python names a function nested in a method by the class and its own name: the
  // `decorator` closures of Scaffold's methods are one symbol.
  "method Scaffold/decorator only-index src/flask/sansio/scaffold.py:453:13": CAUSES.sharedSymbol,
  "method Scaffold/decorator only-index src/flask/sansio/scaffold.py:457:16": CAUSES.sharedSymbol,
  "method Scaffold/decorator only-index src/flask/sansio/scaffold.py:635:13": CAUSES.sharedSymbol,
  "method Scaffold/decorator only-index src/flask/sansio/scaffold.py:639:16": CAUSES.sharedSymbol,
};

/**
 * find_referencing_symbols' differences, `<kind> <name> <side> <file> <containing kind> <name
 * path> <line>`: the same locations as find_references', for the same causes.
 */
const TYPEORM_REFERENCING_KNOWN: Known = Object.fromEntries([
  [
    "class EntityMetadataNotFoundError only-index data-source/DataSource.js Method " +
    "DataSource/getMetadata 304",
    CAUSES.serverLeftOut,
  ],
  [
    "class EntityMetadataNotFoundError only-server index.mjs Constant " +
    "EntityMetadataNotFoundError 60",
    CAUSES.localInIndex,
  ],
  ["class RelationQueryBuilder only-index index.js File index 159", CAUSES.serverLeftOut],
  [
    "class RelationQueryBuilder only-index query-builder/index.js Function " +
    "registerQueryBuilders 14",
    CAUSES.serverLeftOut,
  ],
  [
    "class RelationQueryBuilder only-server index.mjs Constant RelationQueryBuilder 12",
    CAUSES.localInIndex,
  ],
  [
    "function TreeLevelColumn only-server index.mjs Constant TreeLevelColumn 141",
    CAUSES.localInIndex,
  ],
]);

const FLASK_REFERENCING_KNOWN: Known = Object.fromEntries(
  [
    "typing_app_decorators.py File typing_app_decorators 4",
    "typing_app_decorators.py Function after_async 16",
    "typing_app_decorators.py Function after_sync 11",
    "typing_app_decorators.py Variable after_async/response 15",
    "typing_app_decorators.py Variable after_sync/response 10",
    "typing_route.py File typing_route 11",
    "typing_route.py Function hello_json 27",
  ].map((e) => [`class Response only-server tests/type_check/${e}`, "other package"]),
);

interface Case {
  name: string;
  version: string;
  indexer: { package: string; version: string };
  server: string;
  make: () => Promise<BenchTree>;
  known: Known;
  equal: number;
  referencingKnown: Known;
  /** Symbols whose name path both sides refuse (the indexer names a nested function apart). */
  refused: number;
  referencingEqual: number;
}

const CASES: Case[] = [
  {
    name: "typeorm",
    version: TYPEORM_VERSION,
    indexer: INDEXERS.typescript,
    server: "typescript-language-server",
    make: typeormTree,
    known: TYPEORM_KNOWN,
    equal: 27,
    referencingKnown: TYPEORM_REFERENCING_KNOWN,
    refused: 2,
    referencingEqual: 25,
  },
  {
    name: "flask",
    version: FLASK_VERSION,
    indexer: INDEXERS.python,
    server: "pyright-langserver",
    make: flaskTree,
    known: FLASK_KNOWN,
    equal: 28,
    referencingKnown: FLASK_REFERENCING_KNOWN,
    refused: 3,
    referencingEqual: 26,
  },
];

/** The tree's index in `.sextant/`: built once into the cache, copied from it afterwards. */
async function withIndex(c: Case, root: string): Promise<void> {
  const dir = join(REAL_CACHE, `scip-${c.name}-${c.version}`);
  const pin = `${c.indexer.package}@${c.indexer.version} ${c.name}@${c.version} ${RECIPE}`;
  const target = join(root, ".sextant", "index.scip");
  await once(dir, pin, async (tmp) => {
    const built = await buildIndex(root);
    const failed = built.runs.filter((r) => !r.ok);
    if (failed.length > 0) throw new Error(`the indexer failed: ${JSON.stringify(failed)}`);
    await Deno.copyFile(built.output, join(tmp, "index.scip"));
    await Deno.copyFile(built.manifest, join(tmp, "index.scip.files"));
  });
  await Deno.mkdir(join(root, ".sextant"), { recursive: true });
  await Deno.copyFile(join(dir, "index.scip"), target);
  await Deno.copyFile(join(dir, "index.scip.files"), manifestPath(target));
}

for (const c of CASES) {
  const missing = !hasServer(c.server)
    ? `${c.server} is not installed`
    : !hasServer("npm", ["--version"])
    ? "npm is not installed (the indexers come through npm exec)"
    : null;
  const skipReason = missing ?? await c.make().then(
    async (tree) => {
      await tree.dispose();
      return null;
    },
    (error) => `${c.name} cannot be fetched: ${error instanceof Error ? error.message : error}`,
  );
  if (skipReason !== null) console.log(`skipping the SCIP agreement on ${c.name}: ${skipReason}`);

  Deno.test({
    name: `find_references from a SCIP index agrees with the live server on ${c.name} ` +
      `(30 symbols, differences recorded)`,
    ignore: skipReason !== null,
    sanitizeResources: false,
    sanitizeOps: false,
  }, async () => {
    const tree = await c.make();
    try {
      await withIndex(c, tree.root);
      const rows = await agreement(tree.root, { symbols: 30 });
      assertEquals(rows.length, 30);
      assertEquals(rows.flatMap((r) => r.serverError ?? []), [], "the live server failed");
      const found: Known = {};
      for (const row of rows) {
        for (const d of row.differences) {
          const cause = d.cause.startsWith("the indexer resolves it to another package")
            ? "other package"
            : d.cause;
          found[`${row.symbol.kind} ${row.symbol.name} ${d.side} ${d.location}`] = cause;
        }
      }
      assertEquals(found, c.known);
      assertEquals(rows.filter((r) => r.differences.length === 0).length, c.equal);
    } finally {
      await tree.dispose();
    }
  });

  Deno.test({
    name: `find_referencing_symbols from a SCIP index agrees with the live server on ${c.name} ` +
      `(30 symbols, differences recorded)`,
    ignore: skipReason !== null,
    sanitizeResources: false,
    sanitizeOps: false,
  }, async () => {
    const tree = await c.make();
    try {
      await withIndex(c, tree.root);
      const rows = await referencingAgreement(tree.root, { symbols: 30 });
      assertEquals(rows.length, 30);
      const refused = rows.filter((r) => typeof r.index === "string");
      // Refused alike (an ambiguous or unknown name path), never by one side only.
      assertEquals(refused.filter((r) => !agrees(r)).map((r) => r.symbol.name), []);
      assertEquals(refused.length, c.refused);
      assertEquals(rows.filter((r) => typeof r.index !== "string" && !r.fromIndex).length, 0);
      const found: Known = {};
      for (const row of rows) {
        const head = `${row.symbol.kind} ${row.symbol.name}`;
        for (const e of row.onlyIndex) {
          found[`${head} only-index ${e}`] = c.referencingKnown[`${head} only-index ${e}`] ?? "new";
        }
        for (const e of row.onlyServer) {
          found[`${head} only-server ${e}`] = c.referencingKnown[`${head} only-server ${e}`] ??
            "new";
        }
      }
      assertEquals(found, c.referencingKnown);
      assertEquals(
        rows.filter((r) => typeof r.index !== "string" && agrees(r)).length,
        c.referencingEqual,
      );
    } finally {
      await tree.dispose();
    }
  });
}
