import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { movedPath, ReadTracker } from "./read_tracker.ts";

Deno.test("ReadTracker: a line range counts as read until the file is edited", () => {
  const reads = new ReadTracker();
  assert(!reads.wasRead("/p/a.ts"));
  reads.recordRead("/p/a.ts", 10, 20);
  assert(reads.wasRead("/p/a.ts"));
  assert(reads.rangeWasRead("/p/a.ts", 12, 20));
  assert(!reads.rangeWasRead("/p/a.ts", 5, 12), "a range only partly read is not read");
  reads.noteEdited("/p/a.ts");
  assert(reads.wasRead("/p/a.ts"), "the file stays read");
  assert(!reads.rangeWasRead("/p/a.ts", 12, 20), "its lines moved: read them again");
  reads.noteCreated("/p/new.ts");
  assert(reads.rangeWasRead("/p/new.ts", 0, 1_000), "a created file is read whole");
});

Deno.test("ReadTracker: what was read follows a move of its file or of a folder above it", () => {
  const reads = new ReadTracker();
  reads.recordRead("/p/src/a.ts", 0, 5);
  reads.recordRead("/p/srcx/b.ts");
  reads.noteMoved("/p/src", "/p/lib");
  assert(!reads.wasRead("/p/src/a.ts"));
  assert(reads.rangeWasRead("/p/lib/a.ts", 0, 5));
  assert(reads.wasRead("/p/srcx/b.ts"), "a sibling whose name starts the same stays");
  assertEquals(movedPath("/p/src", "/p/src", "/p/lib"), "/p/lib");
  assertEquals(movedPath("/p/srcx/b.ts", "/p/src", "/p/lib"), null);
});
