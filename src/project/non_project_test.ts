import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { DEFAULT_SETTINGS, type Settings } from "../config/schema.ts";
import { markedFolders, NonProjectFolders } from "./non_project.ts";
import { Project } from "./project.ts";

function tree(files: Record<string, string>): string {
  const root = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "sextant-nonproject-" }));
  for (const [rel, text] of Object.entries(files)) {
    const path = `${root}/${rel}`;
    Deno.mkdirSync(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    Deno.writeTextFileSync(path, text);
  }
  return root;
}

const FILES = {
  "src/main.py": "",
  "venv/pyvenv.cfg": "home = /usr/bin\n",
  "venv/lib/pkg.py": "",
  "web/package.json": JSON.stringify({ main: "./dist/index.js", exports: { ".": "./out/x.js" } }),
  "web/src/index.ts": "",
  "published/package.json": JSON.stringify({ types: "dist/types/index.d.ts" }),
  "published/dist/types/index.d.ts": "",
  "web/dist/index.js": "",
  "web/out/x.js": "",
  "web/build/rollup.config.js": "",
  "tools/build/script.py": "",
  "crate/Cargo.toml": "[package]\n",
  "crate/target/debug/x.rs": "",
  "target/keep.rs": "",
  "go/go.mod": "module x\n",
  "go/vendor/modules.txt": "",
  "go/vendor/dep/dep.go": "",
  "php/vendor/lib.php": "",
  "third_party/lib.c": "",
  "cache/CACHEDIR.TAG": "Signature: 8a477f597d28d172789f06886806bc55\n",
  "cache/x.py": "",
  "pkg/__pycache__/m.pyc": "",
};

Deno.test("NonProjectFolders: environments, caches, output and vendoring, by name, content and manifest", () => {
  const root = tree(FILES);
  try {
    const folders = new NonProjectFolders(root);
    const setAside = (dir: string) => folders.reason(dir) !== null;
    for (const dir of ["venv", "web/dist", "web/out", "crate/target", "go/vendor", "cache"]) {
      assert(setAside(dir), dir);
    }
    assert(setAside("pkg/__pycache__"), "by name");
    // Kept: a build folder no manifest names (build scripts), `target` without Cargo.toml, PHP's
    // vendor without Composer, third_party, and the project's own folders.
    // A package as npm publishes it (no sources beside its output): its output is its code.
    for (
      const dir of [
        "src",
        "web/build",
        "tools/build",
        "target",
        "php/vendor",
        "third_party",
        "published/dist",
      ]
    ) {
      assertEquals(folders.reason(dir), null, dir);
    }
    assertEquals(folders.reasonDeep("venv/lib/pkg.py", false)?.startsWith("'venv' is"), true);
    assertEquals(folders.reasonDeep("src/main.py", false), null);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("NonProjectFolders: included_paths keeps a folder that looks like an environment", () => {
  const root = tree(FILES);
  try {
    const folders = new NonProjectFolders(root, { includedPaths: ["go/vendor/", "venv"] });
    assertEquals(folders.reason("go/vendor"), null);
    assertEquals(folders.reason("venv"), null);
    assert(folders.reason("web/dist") !== null);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("Project.walk leaves non-project folders out, unless it starts in one or ignores nothing", async () => {
  const root = tree(FILES);
  try {
    const project = new Project(root, structuredClone(DEFAULT_SETTINGS) as Settings);
    const files = async (start: string, skipIgnored = true) => {
      const found: string[] = [];
      for await (const e of project.walk(start, { skipIgnored })) {
        if (!e.isDirectory) found.push(e.path);
      }
      return found.sort();
    };
    assertEquals(await files("."), [
      "crate/Cargo.toml",
      "go/go.mod",
      "php/vendor/lib.php",
      "published/dist/types/index.d.ts",
      "published/package.json",
      "src/main.py",
      "target/keep.rs",
      "third_party/lib.c",
      "tools/build/script.py",
      "web/build/rollup.config.js",
      "web/package.json",
      "web/src/index.ts",
    ]);
    assertEquals(await files("venv"), ["venv/lib/pkg.py", "venv/pyvenv.cfg"]);
    assertEquals(await files("go/vendor"), ["go/vendor/dep/dep.go", "go/vendor/modules.txt"]);
    assert((await files(".", false)).includes("venv/lib/pkg.py"));
    assert(project.isLeftOut("web/dist/index.js", false));
    assert(!project.isLeftOut("web/build/rollup.config.js", false));
    // The folders themselves are not listed either.
    const dirs: string[] = [];
    for await (const e of project.walk(".", { recursive: false })) {
      if (e.isDirectory) dirs.push(e.path);
    }
    assert(!dirs.includes("venv") && !dirs.includes("cache") && dirs.includes("src"), dirs.join());
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("markedFolders: the folders a marker file's change may turn", () => {
  assertEquals(markedFolders("a/venv/pyvenv.cfg"), ["a/venv"]);
  assertEquals(markedFolders("web/package.json"), ["web/dist", "web/build", "web/out"]);
  assertEquals(markedFolders("Cargo.toml"), ["target"]);
  assertEquals(markedFolders("src/main.py"), []);
});
