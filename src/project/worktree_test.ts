import { join } from "node:path";
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { Memories } from "./memories.ts";
import { detectWorktree, memoryRootFor } from "./worktree.ts";

/** Only this test runs git (Sextant itself reads git's files), so git is not on the run list. */
const GIT = "git";

async function git(cwd: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command(GIT, {
    args: ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main", ...args],
    cwd,
    stdout: "null",
    stderr: "piped",
  }).output();
  assert(out.success, new TextDecoder().decode(out.stderr));
}

/** A repository with one commit and a linked worktree beside it. */
async function repoWithWorktree() {
  const base = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-wt-" }));
  const main = join(base, "app");
  const linked = join(base, "app-feature");
  await Deno.mkdir(main);
  await git(main, "init", "-q");
  await Deno.writeTextFile(join(main, "a.ts"), "export const a = 1;\n");
  await git(main, "add", ".");
  await git(main, "commit", "-qm", "one");
  await git(main, "worktree", "add", "-q", linked, "-b", "feature");
  return {
    main,
    linked,
    async [Symbol.asyncDispose]() {
      await Deno.remove(base, { recursive: true }).catch(() => {});
    },
  };
}

Deno.test("detectWorktree: a real linked worktree points at its main checkout", async () => {
  await using repo = await repoWithWorktree();
  const info = detectWorktree(repo.linked);
  assert(info, "the linked worktree is detected");
  assertEquals(info.mainRoot, repo.main);
  assertEquals(info.commonDir, join(repo.main, ".git"));
  assertEquals(info.name, "app-feature");
  assertEquals(detectWorktree(repo.main), null, "the main checkout is not a linked worktree");
  assertEquals(detectWorktree(join(repo.main, "..")), null, "no git at all");
});

Deno.test("memoryRootFor: worktrees share the main checkout's memories unless configured", async () => {
  await using repo = await repoWithWorktree();
  assertEquals(memoryRootFor(repo.linked, { memories: "shared" }), repo.main);
  assertEquals(memoryRootFor(repo.linked, { memories: "worktree" }), repo.linked);
  assertEquals(memoryRootFor(repo.main, { memories: "shared" }), repo.main);
  // Written in the main checkout, read from the worktree, and the other way round.
  await new Memories(repo.main).write("architecture", "layers\n");
  const shared = new Memories(memoryRootFor(repo.linked, { memories: "shared" }));
  assertEquals(await shared.read("architecture"), "layers\n");
  await shared.write("from_worktree", "hello\n");
  assertEquals(await new Memories(repo.main).list(), ["architecture", "from_worktree"]);
  const own = new Memories(memoryRootFor(repo.linked, { memories: "worktree" }));
  assertEquals(await own.list(), []);
});

Deno.test("detectWorktree: a submodule-style gitdir file without commondir is not a worktree", async () => {
  const dir = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-wt-" }));
  try {
    await Deno.mkdir(join(dir, "modules", "sub"), { recursive: true });
    await Deno.mkdir(join(dir, "sub"));
    await Deno.writeTextFile(join(dir, "sub", ".git"), "gitdir: ../modules/sub\n");
    assertEquals(detectWorktree(join(dir, "sub")), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
