/**
 * replace_symbol_body as an agent writes bodies, with the real servers: the whole declaration
 * (`export const ...`, decorators included) replaces the symbol without doubling what stands
 * before its range; a body that would double a modifier is refused, naming the range, and
 * nothing changes.
 */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { replaceSymbolBody } from "../../src/tools/symbols/replace_symbol_body.ts";

const count = (text: string, needle: string) => text.split(needle).length - 1;

Deno.test({
  name: "replace_symbol_body (TypeScript): `export const` written again stands once",
  ignore: skipUnless(hasServer("typescript-language-server"), "typescript-language-server"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using h = await toolHarness({
    "tsconfig.json": '{ "include": ["src"] }',
    "src/url.ts": "/** Splits a path. */\nexport const splitPath = (path: string) => " +
      "path.split('/')\n\nexport function other() {}\n",
  });
  const args = { name_path: "splitPath", relative_path: "src/url.ts" };
  assertEquals(
    await h.call(replaceSymbolBody, {
      ...args,
      body: "export const splitPath = (path: string) => path.split('/').filter(Boolean)",
    }),
    "OK",
  );
  const text = await h.read("src/url.ts");
  assertEquals(count(text, "export const"), 1, text);
  assertStringIncludes(
    text,
    "export const splitPath = (path: string) => path.split('/')" +
      ".filter(Boolean)\n",
  );

  const refused = await h.run(replaceSymbolBody, {
    ...args,
    body: "const splitPath = (path: string) => []",
  });
  assert(refused.isError, refused.text);
  assertStringIncludes(refused.text, "src/url.ts, line 2 column 14");
  assertStringIncludes(refused.text, "Nothing was changed");
  assertEquals(await h.read("src/url.ts"), text);
  await h.session.dispose();
});

Deno.test({
  name: "replace_symbol_body (Python): a decorated function keeps one set of decorators",
  ignore: skipUnless(hasServer("pyright-langserver"), "pyright-langserver"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using h = await toolHarness({
    "app.py": "import functools\n\n\n@functools.cache\ndef answer() -> int:\n    return 41\n",
  });
  const args = { name_path: "answer", relative_path: "app.py" };
  assertEquals(
    await h.call(replaceSymbolBody, {
      ...args,
      body: "@functools.cache\ndef answer() -> int:\n    return 42",
    }),
    "OK",
  );
  const text = await h.read("app.py");
  assertEquals(count(text, "@functools.cache"), 1, text);
  assertStringIncludes(text, "return 42");
  // Without the decorator: kept where it stands outside the range, else refused; never lost.
  const plain = await h.run(replaceSymbolBody, {
    ...args,
    body: "def answer() -> int:\n    return 43",
  });
  const after = await h.read("app.py");
  assertEquals(count(after, "@functools.cache"), 1, `${plain.text}\n${after}`);
  await h.session.dispose();
});
