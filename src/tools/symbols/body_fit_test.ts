import { assertEquals } from "../../../tests/helpers/assert.ts";
import { type BodyRange, fitBody } from "./body_fit.ts";

const range = (over: Partial<BodyRange>): BodyRange => ({
  rangeText: "splitPath = (path: string) => path.split('/')",
  prefix: "export const",
  decoratorsAbove: [],
  where: "src/utils/url.ts, line 3 column 14 to line 3 column 60",
  ...over,
});

Deno.test("a body that repeats the modifiers before the range keeps them once", () => {
  assertEquals(
    fitBody("export const splitPath = (p: string) => p.split('/')", range({})),
    { body: "splitPath = (p: string) => p.split('/')" },
  );
  assertEquals(
    fitBody("pub async fn run() {}", range({ rangeText: "fn run() {}", prefix: "pub async" })),
    { body: "fn run() {}" },
  );
  // A body written from the range's own start is taken as it is.
  assertEquals(fitBody("splitPath = () => []", range({})), { body: "splitPath = () => []" });
});

Deno.test("decorators above the range, repeated in the body, are kept once", () => {
  const r = range({
    rangeText: "class Foo {}",
    prefix: "export",
    decoratorsAbove: ["@Component({ a: 1 })"],
  });
  assertEquals(fitBody("@Component({ a: 1 })\nexport class Foo { x = 1 }", r), {
    body: "class Foo { x = 1 }",
  });
});

Deno.test("a body that would double a modifier or drop decorators is refused", () => {
  const doubled = fitBody("const splitPath = () => []", range({}));
  assertEquals("refused" in doubled, true);
  assertEquals(
    (doubled as { refused: string }).refused.includes(
      "src/utils/url.ts, line 3 column 14 to line 3 column 60",
    ),
    true,
  );
  const dropped = fitBody(
    "def index():\n    return 'x'",
    range({ rangeText: "@app.route('/')\ndef index():\n    return 'hi'", prefix: "" }),
  );
  assertEquals("refused" in dropped, true);
  // Another form of the declaration is the agent's choice.
  assertEquals(
    fitBody("function splitPath(p: string) { return [] }", range({ prefix: "export" })),
    { body: "function splitPath(p: string) { return [] }" },
  );
});
