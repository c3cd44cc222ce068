import { assert, assertEquals, assertRejects } from "../../../tests/helpers/assert.ts";
import { toolHarness } from "../../../tests/helpers/tool_ctx.ts";
import { editFile, writeFiles } from "./write.ts";

Deno.test("writeFiles: writes under the lock, records the change, tells listeners", async () => {
  await using h = await toolHarness({ "a.txt": "one\n", "b.txt": "two\r\n" });
  const heard: string[][] = [];
  const notify = h.session.filesChanged.bind(h.session);
  h.session.filesChanged = (paths) => {
    heard.push([...paths]);
    return notify(paths);
  };
  const a = h.project.resolveFile("a.txt");
  const b = h.project.resolveFile("b.txt");
  h.session.reads.recordRead(a.real, 0, 5);
  const result = await writeFiles(h.ctx, {
    lock: [a.real, b.real],
    prepare: async () => {
      const fileA = await h.project.readText(a);
      const fileB = await h.project.readText(b);
      return {
        changes: [
          { real: a.real, before: fileA.text, after: "ONE\n", format: fileA.format },
          // Unchanged content is not written and not reported.
          { real: b.real, before: fileB.text, after: fileB.text, format: fileB.format },
        ],
        result: 42,
      };
    },
  });
  assertEquals(result, 42);
  assertEquals(await h.read("a.txt"), "ONE\n");
  assertEquals(await h.read("b.txt"), "two\r\n");
  assertEquals(heard, [[a.real]]);
  // Lines may have moved: the line range read before must be read again.
  assertEquals(h.session.reads.rangeWasRead(a.real, 0, 1), false);
  assert(h.session.reads.wasRead(a.real));
});

Deno.test("writeFiles: whole content counts as read; a new file gets its folders", async () => {
  await using h = await toolHarness({});
  const target = h.project.resolve("new/dir/c.txt", { mustExist: false });
  await writeFiles(h.ctx, {
    lock: [target.real],
    wholeContent: true,
    prepare: () =>
      Promise.resolve({
        changes: [{
          real: target.real,
          after: "c\n",
          format: { eol: "\n", bom: false, finalNewline: true, encoding: "utf-8", mode: null },
        }],
        result: undefined,
      }),
  });
  assertEquals(await h.read("new/dir/c.txt"), "c\n");
  assert(h.session.reads.wasRead(target.real));
});

Deno.test("writeFiles: a failing prepare writes nothing; no changes means no notice", async () => {
  await using h = await toolHarness({ "a.txt": "one\n" });
  let heard = 0;
  const notify = h.session.filesChanged.bind(h.session);
  h.session.filesChanged = (paths) => {
    heard++;
    return notify(paths);
  };
  const a = h.project.resolveFile("a.txt");
  await assertRejects(
    () =>
      writeFiles(h.ctx, {
        lock: [a.real],
        prepare: () => Promise.reject(new Error("no")),
      }),
    "no",
  );
  assertEquals(
    await writeFiles(h.ctx, {
      lock: [a.real],
      prepare: () => Promise.resolve({ changes: [], result: "dry" }),
    }),
    "dry",
  );
  assertEquals(heard, 0);
  assertEquals(await h.read("a.txt"), "one\n");
});

Deno.test("editFile: parallel edits of one file both land (the lock serializes them)", async () => {
  await using h = await toolHarness({ "n.txt": "0" });
  await Promise.all(
    Array.from({ length: 5 }, () => editFile(h.ctx, "n.txt", (text) => String(Number(text) + 1))),
  );
  assertEquals(await h.read("n.txt"), "5");
});
