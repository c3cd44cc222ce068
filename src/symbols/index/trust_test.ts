import { assertEquals } from "../../../tests/helpers/assert.ts";
import { parseFile } from "./parser.ts";
import { untrustedReason } from "./trust.ts";

// Generic call signatures without separators, as in hono's src/context.ts: the grammar reads
// them as expressions, and the class after them is lost.
const HONO_LIKE = `interface BodyRespond {
  <T, U>(data: T, status?: U): Response & Typed<T, U, 'body'>
  <T, U>(data: T, init?: U): Response & Typed<T, U, 'body'>
}

export class Context {
  finalized = false
  get res(): Response {
    if (this.finalized) return new Response()
    const res = new Response()
    return res
  }
}
`;

Deno.test("a file tree-sitter misreads is not trusted: a syntax error", async () => {
  const parsed = await parseFile(HONO_LIKE, "typescript");
  assertEquals(parsed.exact, false);
  assertEquals(parsed.untrusted, "syntax error");
});

Deno.test("a keyword among the names is not trusted; plain code is", async () => {
  assertEquals(
    untrustedReason([["if", 12, 0, 0, 0, 2, 0, 0, 0, 2]], "typescript", false),
    "a keyword ('if') read as a name",
  );
  // A method may be called `delete` in JavaScript; `default` names a default export.
  assertEquals(untrustedReason([["delete", 6, 0, 0, 0, 2, 0, 0, 0, 2]], "typescript", false), null);
  assertEquals(
    untrustedReason([["if", 6, 0, 0, 0, 2, 0, 0, 0, 2]], "python", false),
    "a keyword ('if') read as a name",
  );
  assertEquals(
    untrustedReason([["default", 12, 0, 0, 0, 2, 0, 0, 0, 2]], "typescript", false),
    null,
  );
  const clean = await parseFile(
    "export class Context {\n  get res() { return 1 }\n}\n",
    "typescript",
  );
  assertEquals(clean.untrusted, undefined);
  assertEquals(clean.symbols.map((s) => s[0]), ["Context"]);
});
