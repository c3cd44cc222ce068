/**
 * The sandbox: resolveInProject and Project.resolve on real temp folders, plus the file tools'
 * refusal to write through symbolic links that lead out of the project.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals, assertRejects, assertThrows } from "../../tests/helpers/assert.ts";
import { type ToolHarness, toolHarness } from "../../tests/helpers/tool_ctx.ts";
import { resolveInProject } from "./sandbox.ts";
import { ToolError } from "../errors.ts";
import { Project } from "./project.ts";
import { DEFAULT_SETTINGS, type Settings } from "../config/schema.ts";
import { editTool } from "../tools/files/edit.ts";
import { replaceContentTool } from "../tools/files/replace_content.ts";
import { createTextFile } from "../tools/files/create_text_file.ts";
import { readFile } from "../tools/files/read_file.ts";

const OUTSIDE = /outside the project root/;

async function withProject(
  fn: (h: ToolHarness & { outside: string }) => Promise<void> | void,
  files: Record<string, string> = {},
  projectConfig?: Partial<Settings>,
): Promise<void> {
  await using h = await toolHarness(
    { "a.txt": "A\n", "src/b.ts": "export const b = 1;\n", ...files },
    projectConfig ? { projectConfig } : {},
  );
  await fn(h);
}

function rejects(root: string, path: string, match: RegExp, mustExist = true): void {
  const error = assertThrows(() => resolveInProject(root, path, { mustExist }), match);
  assert(error instanceof ToolError, `expected a ToolError, got ${error.name}`);
}

// --- `..` traversal ------------------------------------------------------------------------

for (
  const path of [
    "..",
    "../x",
    "../project/../x",
    "a/../../x",
    "a/./../..",
    "./../x",
    "src/../../outside/f.txt",
    "src/b/c/../../../../x",
    "..\u002F..\u002Fetc/passwd",
  ]
) {
  Deno.test(`sandbox: '..' escape '${path}' is refused (existing or new)`, async () => {
    await withProject((h) => {
      rejects(h.root, path, OUTSIDE, true);
      rejects(h.root, path, OUTSIDE, false);
    });
  });
}

Deno.test("sandbox: '..' that stays inside is fine", async () => {
  await withProject((h) => {
    assertEquals(resolveInProject(h.root, "src/../a.txt").relative, "a.txt");
    assertEquals(resolveInProject(h.root, "src/..").relative, ".");
  });
});

Deno.test("sandbox: a name that merely starts with '..' is inside", async () => {
  await withProject((h) => {
    const r = resolveInProject(h.root, "..foo", { mustExist: false });
    assertEquals(r.relative, "..foo");
    assertEquals(r.real, join(h.root, "..foo"));
  });
});

// --- absolute paths -------------------------------------------------------------------------

Deno.test("sandbox: absolute paths outside are refused", async () => {
  await withProject((h) => {
    rejects(h.root, "/etc/passwd", OUTSIDE);
    rejects(h.root, "/", OUTSIDE);
    rejects(h.root, join(h.outside, "new.txt"), OUTSIDE, false);
  });
});

Deno.test("sandbox: absolute paths inside are accepted", async () => {
  await withProject((h) => {
    const r = resolveInProject(h.root, join(h.root, "src", "b.ts"));
    assertEquals(r.relative, "src/b.ts");
    assertEquals(r.exists, true);
    assertEquals(r.real, join(h.root, "src", "b.ts"));
    assertEquals(resolveInProject(h.root, h.root).relative, ".");
  });
});

Deno.test("sandbox: a prefix sibling (/x/project-evil) is not inside /x/project", async () => {
  await withProject(async (h) => {
    const evil = `${h.root}-evil`;
    await Deno.mkdir(evil);
    await Deno.writeTextFile(join(evil, "f.txt"), "evil");
    rejects(h.root, join(evil, "f.txt"), OUTSIDE);
    rejects(h.root, "../project-evil/f.txt", OUTSIDE);
    rejects(h.root, `${h.root}-evil`, OUTSIDE);
  });
});

Deno.test("sandbox: an absolute path through a symlinked alias of the root is accepted", async () => {
  await withProject(async (h) => {
    const alias = join(h.outside, "alias");
    await Deno.symlink(h.root, alias);
    const r = resolveInProject(h.root, join(alias, "a.txt"));
    assertEquals(r.relative, "a.txt");
    assertEquals(r.real, join(h.root, "a.txt"));
    const n = resolveInProject(h.root, join(alias, "new", "n.txt"), { mustExist: false });
    assertEquals(n.relative, "new/n.txt");
    assertEquals(n.real, join(h.root, "new", "n.txt"));
    // ...but the alias does not make a '..' escape legal.
    rejects(h.root, join(alias, "..", "outside"), OUTSIDE);
  });
});

// --- NUL, empty, root --------------------------------------------------------------------------

Deno.test("sandbox: NUL bytes are refused", async () => {
  await withProject((h) => {
    rejects(h.root, "a.txt\0.png", /NUL byte/);
    rejects(h.root, "\0", /NUL byte/, false);
  });
});

Deno.test("sandbox: empty path, '.', './' and whitespace mean the root", async () => {
  await withProject((h) => {
    for (const p of ["", ".", "./", "  "]) {
      const r = resolveInProject(h.root, p);
      assertEquals(r.relative, ".", `for '${p}'`);
      assertEquals(r.real, h.root);
      assertEquals(r.exists, true);
    }
  });
});

Deno.test("sandbox: redundant separators and trailing slashes are normalized", async () => {
  await withProject((h) => {
    assertEquals(resolveInProject(h.root, "src//b.ts").relative, "src/b.ts");
    assertEquals(resolveInProject(h.root, "./src/./b.ts").relative, "src/b.ts");
    assertEquals(resolveInProject(h.root, "src/").relative, "src");
  });
});

Deno.test("sandbox: a missing path is refused when it must exist", async () => {
  await withProject((h) => {
    rejects(h.root, "nope.txt", /No file or directory 'nope.txt'/);
    rejects(h.root, "src/nope/deeper.ts", /No file or directory 'src\/nope\/deeper.ts'/);
  });
});

// --- symbolic links -----------------------------------------------------------------------

Deno.test("sandbox: a symlinked file pointing out is refused", async () => {
  await withProject(async (h) => {
    await Deno.writeTextFile(join(h.outside, "secret.txt"), "secret");
    await Deno.symlink(join(h.outside, "secret.txt"), h.path("leak.txt"));
    rejects(h.root, "leak.txt", /symbolic link/);
    rejects(h.root, "leak.txt", /symbolic link/, false);
  });
});

Deno.test("sandbox: a relative symlink climbing out ('../outside') is refused", async () => {
  await withProject(async (h) => {
    await Deno.writeTextFile(join(h.outside, "secret.txt"), "secret");
    await Deno.symlink("../outside/secret.txt", h.path("rel-leak.txt"));
    rejects(h.root, "rel-leak.txt", /symbolic link/);
  });
});

Deno.test("sandbox: a chain of symlinks ending outside is refused", async () => {
  await withProject(async (h) => {
    await Deno.writeTextFile(join(h.outside, "secret.txt"), "secret");
    await Deno.symlink(join(h.outside, "secret.txt"), h.path("hop2"));
    await Deno.symlink("hop2", h.path("hop1"));
    rejects(h.root, "hop1", /symbolic link/);
  });
});

Deno.test("sandbox: a symlinked folder pointing out is refused, for files in it too", async () => {
  await withProject(async (h) => {
    await Deno.writeTextFile(join(h.outside, "secret.txt"), "secret");
    await Deno.symlink(h.outside, h.path("out"));
    rejects(h.root, "out", /symbolic link/);
    rejects(h.root, "out/secret.txt", /symbolic link/);
  });
});

Deno.test("sandbox: a new file below a symlinked parent that points out is refused", async () => {
  await withProject(async (h) => {
    await Deno.symlink(h.outside, h.path("out"));
    rejects(h.root, "out/new.txt", /outside the project root|symbolic link/, false);
    rejects(h.root, "out/sub/deeper/new.txt", /outside the project root|symbolic link/, false);
  });
});

Deno.test("sandbox: a dangling symlink is refused, also as a parent of a new file", async () => {
  await withProject(async (h) => {
    await Deno.symlink(join(h.outside, "not-yet.txt"), h.path("dangling.txt"));
    await Deno.symlink(join(h.outside, "no-dir"), h.path("dangling-dir"));
    rejects(h.root, "dangling.txt", /symbolic link/);
    rejects(h.root, "dangling.txt", /symbolic link/, false);
    rejects(h.root, "dangling-dir/new.txt", /symbolic link/, false);
    rejects(h.root, "dangling-dir/sub/new.txt", /symbolic link/, false);
  });
});

Deno.test("sandbox: a symlink inside pointing inside is accepted and resolved", async () => {
  await withProject(async (h) => {
    await Deno.symlink("src/b.ts", h.path("link.ts"));
    await Deno.symlink("src", h.path("srclink"));
    const file = resolveInProject(h.root, "link.ts");
    assertEquals(file.relative, "link.ts");
    assertEquals(file.real, h.path("src/b.ts"));
    const viaDir = resolveInProject(h.root, "srclink/b.ts");
    assertEquals(viaDir.real, h.path("src/b.ts"));
    const fresh = resolveInProject(h.root, "srclink/new/c.ts", { mustExist: false });
    assertEquals(fresh.real, h.path("src/new/c.ts"));
  });
});

Deno.test("sandbox: a symlink to the root itself stays inside", async () => {
  await withProject(async (h) => {
    await Deno.symlink(".", h.path("self"));
    assertEquals(resolveInProject(h.root, "self/self/a.txt").real, h.path("a.txt"));
  });
});

// --- new files ------------------------------------------------------------------------------

Deno.test("sandbox: a new file under non-existing nested parents is accepted, inside", async () => {
  await withProject((h) => {
    const r = resolveInProject(h.root, "x/y/z/new.txt", { mustExist: false });
    assertEquals(r.exists, false);
    assertEquals(r.relative, "x/y/z/new.txt");
    assertEquals(r.real, h.path("x/y/z/new.txt"));
    assertEquals(r.absolute, h.path("x/y/z/new.txt"));
  });
});

Deno.test("sandbox: a new file whose ancestor is a file is refused", async () => {
  await withProject((h) => {
    rejects(h.root, "a.txt/new.txt", /'a.txt' is a file/, false);
    rejects(h.root, "a.txt/x/y.txt", /'a.txt' is a file/, false);
    rejects(h.root, "a.txt/new.txt", /No file or directory/, true);
  });
});

// --- Project.resolve: ignore rules ------------------------------------------------------

Deno.test("project: ignored paths are refused with requireNotIgnored, allowed without", async () => {
  await withProject((h) => {
    assertThrows(() => h.project.resolve("debug.log"), /ignored/);
    assertThrows(() => h.project.resolve("build"), /ignored/);
    assertThrows(() => h.project.resolve("build/out.js"), /ignored/);
    assertEquals(
      h.project.resolve("debug.log", { requireNotIgnored: false }).relative,
      "debug.log",
    );
    assertEquals(h.project.resolve("keep.log").relative, "keep.log");
    assertEquals(h.project.resolve("a.txt").relative, "a.txt");
  }, {
    ".gitignore": "*.log\n!keep.log\nbuild/\n",
    "debug.log": "x",
    "keep.log": "x",
    "build/out.js": "x",
  });
});

Deno.test("project: a nested .gitignore applies to its own folder only", async () => {
  await withProject((h) => {
    assertThrows(() => h.project.resolve("sub/secret.txt"), /ignored/);
    assertThrows(() => h.project.resolve("sub/deep/secret.txt"), /ignored/);
    assertEquals(h.project.resolve("secret.txt").relative, "secret.txt");
    // An anchored pattern in a nested file is relative to that folder.
    assertThrows(() => h.project.resolve("sub/gen/x.ts"), /ignored/);
    assertEquals(h.project.resolve("gen/x.ts").relative, "gen/x.ts");
  }, {
    "sub/.gitignore": "secret.txt\n/gen/\n",
    "sub/secret.txt": "s",
    "sub/deep/secret.txt": "s",
    "sub/gen/x.ts": "g",
    "secret.txt": "not secret",
    "gen/x.ts": "g",
  });
});

Deno.test("project: a deeper .gitignore can re-include what a parent ignores", async () => {
  await withProject((h) => {
    assertThrows(() => h.project.resolve("x.log"), /ignored/);
    assertEquals(h.project.resolve("logs/x.log").relative, "logs/x.log");
  }, { ".gitignore": "*.log\n", "logs/.gitignore": "!*.log\n", "x.log": "", "logs/x.log": "" });
});

Deno.test("project: config ignored_paths are honoured", async () => {
  await withProject(
    (h) => {
      assertThrows(() => h.project.resolve("generated/api.ts"), /ignored/);
      assertThrows(() => h.project.resolve("src/b.snap"), /ignored/);
      assertEquals(h.project.resolve("src/b.ts").relative, "src/b.ts");
    },
    { "generated/api.ts": "", "src/b.snap": "" },
    {
      ignored_paths: ["generated/", "*.snap"],
    },
  );
});

Deno.test("project: ignore_all_files_in_gitignore=false turns .gitignore off", async () => {
  await withProject(
    (h) => {
      assertEquals(h.project.resolve("debug.log").relative, "debug.log");
    },
    { ".gitignore": "*.log\n", "debug.log": "" },
    { ignore_all_files_in_gitignore: false },
  );
});

for (const path of [".git/config", ".git", "node_modules/pkg/index.js", ".sextant/project.jsonc"]) {
  Deno.test(`project: always-ignored '${path}' is refused`, async () => {
    await withProject((h) => {
      assertThrows(() => h.project.resolve(path), /ignored/);
    }, {
      ".git/config": "[core]\n",
      "node_modules/pkg/index.js": "x",
      ".sextant/project.jsonc": "{}",
    });
  });
}

Deno.test("project: a symlink into an ignored folder does not bypass the ignore rules", async () => {
  await withProject(async (h) => {
    await Deno.symlink(".git", h.path("gitdir"));
    await Deno.symlink("debug.log", h.path("log-alias.txt"));
    assertThrows(() => h.project.resolve("gitdir/config"), /ignored/);
    assertThrows(() => h.project.resolve("log-alias.txt"), /ignored/);
  }, { ".git/config": "[core]\n", ".gitignore": "*.log\n", "debug.log": "x" });
});

Deno.test("project: open resolves a symlinked root to its real path", async () => {
  await withProject(async (h) => {
    const alias = join(h.outside, "alias");
    await Deno.symlink(h.root, alias);
    const p = Project.open(alias, DEFAULT_SETTINGS as Settings);
    assertEquals(p.root, h.root);
    assertThrows(
      () => Project.open(join(h.outside, "nope"), DEFAULT_SETTINGS as Settings),
      /exist/,
    );
    assertThrows(() => Project.open(h.path("a.txt"), DEFAULT_SETTINGS as Settings), /directory/);
  });
});

// --- writes never follow a symlink out ---------------------------------------------------------

Deno.test("writes: create_text_file refuses symlinks out and writes nothing outside", async () => {
  await withProject(async (h) => {
    const secret = join(h.outside, "secret.txt");
    await Deno.writeTextFile(secret, "secret\n");
    await Deno.symlink(secret, h.path("leak.txt"));
    await Deno.symlink(join(h.outside, "fresh.txt"), h.path("dangling.txt"));
    await Deno.symlink(h.outside, h.path("outdir"));
    await Deno.symlink(join(h.outside, "nodir"), h.path("danglingdir"));
    for (const p of ["leak.txt", "dangling.txt", "outdir/x.txt", "danglingdir/x.txt", "../x.txt"]) {
      const r = await h.run(createTextFile, { relative_path: p, content: "pwned" });
      assert(r.isError, `create_text_file ${p} should fail`);
    }
    assertEquals(await Deno.readTextFile(secret), "secret\n");
    assertEquals([...Deno.readDirSync(h.outside)].map((e) => e.name), ["secret.txt"]);
  });
});

Deno.test("writes: edit and replace_content refuse a symlink out, the target is untouched", async () => {
  await withProject(async (h) => {
    const secret = join(h.outside, "secret.txt");
    await Deno.writeTextFile(secret, "secret\n");
    await Deno.symlink(secret, h.path("leak.txt"));
    await assertRejects(() => h.call(readFile, { relative_path: "leak.txt" }), /symbolic link/);
    await assertRejects(
      () => h.call(editTool, { file_path: "leak.txt", old_string: "secret", new_string: "x" }),
      /symbolic link/,
    );
    await assertRejects(
      () =>
        h.call(replaceContentTool, {
          relative_path: "leak.txt",
          needle: "secret",
          repl: "x",
          mode: "literal",
        }),
      /symbolic link/,
    );
    assertEquals(await Deno.readTextFile(secret), "secret\n");
  });
});

Deno.test("writes: editing through a symlink inside changes the target and keeps the link", async () => {
  await withProject(async (h) => {
    await Deno.symlink("src/b.ts", h.path("link.ts"));
    await h.call(readFile, { relative_path: "link.ts" });
    await h.call(editTool, { file_path: "link.ts", old_string: "= 1", new_string: "= 2" });
    assertEquals(await h.read("src/b.ts"), "export const b = 2;\n");
    assert(Deno.lstatSync(h.path("link.ts")).isSymlink, "link.ts must still be a symlink");
    await h.call(createTextFile, { relative_path: "link.ts", content: "export const b = 3;\n" });
    assertEquals(await h.read("src/b.ts"), "export const b = 3;\n");
    assert(Deno.lstatSync(h.path("link.ts")).isSymlink, "link.ts must still be a symlink");
  });
});

Deno.test("sandbox: a symlink loop is refused with a clear error", async () => {
  await withProject(async (h) => {
    await Deno.symlink("loop-b", h.path("loop-a"));
    await Deno.symlink("loop-a", h.path("loop-b"));
    rejects(h.root, "loop-a", /loop-a/);
    rejects(h.root, "loop-a/x.txt", /loop-a/, false);
  });
});
