/**
 * The README and the pages of docs/: every relative link leads to a file that exists (and to a
 * heading of it, when it names one), `sextant --help` is quoted in docs/configuration.md as the
 * program prints it, the README stays a five-minute read, and no page for users cites the
 * project's internal records by number, which mean nothing to a reader.
 * @module
 */
import { dirname, join, relative } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { REPO_ROOT } from "../helpers/mcp.ts";
import { USAGE } from "../../src/cli/args.ts";

const README = join(REPO_ROOT, "README.md");
const DOCS = join(REPO_ROOT, "docs");

function pages(): string[] {
  const docs = [...Deno.readDirSync(DOCS)]
    .filter((entry) => entry.isFile && entry.name.endsWith(".md"))
    .map((entry) => join(DOCS, entry.name))
    .sort();
  return [README, ...docs];
}

/** Markdown without its fenced code blocks and code spans, where a link is only text. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
}

/** The targets of the inline links `[text](target)` of a Markdown text. */
export function linkTargets(text: string): string[] {
  return [...prose(text).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, `-` for spaces. */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of text.replace(/^```[\s\S]*?^```/gm, "").matchAll(/^#{1,6}[ \t]+(.+)$/gm)) {
    const slug = match[1]!.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

Deno.test("headingAnchors: GitHub's anchors, duplicates numbered", () => {
  const text = "# Tools\n## Check a project: `sextant doctor`\n## Serena 1.7's tools\n" +
    "```sh\n# not a heading\n```\n## Tools\n";
  assertEquals(
    [...headingAnchors(text)],
    ["tools", "check-a-project-sextant-doctor", "serena-17s-tools", "tools-1"],
  );
  assertEquals(linkTargets("[a](b.md) `[c](d.md)` [e](f.md#g)\n```\n[h](i.md)\n```\n"), [
    "b.md",
    "f.md#g",
  ]);
});

Deno.test("README and docs: every relative link leads to an existing file and heading", () => {
  const broken: string[] = [];
  let checked = 0;
  for (const page of pages()) {
    const text = Deno.readTextFileSync(page);
    for (const target of linkTargets(text)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
      checked++;
      const [path = "", anchor] = target.split("#", 2);
      const file = path === "" ? page : join(dirname(page), decodeURIComponent(path));
      const where = `${relative(REPO_ROOT, page)}: ${target}`;
      let info: Deno.FileInfo;
      try {
        info = Deno.statSync(file);
      } catch {
        broken.push(`${where} (no such file)`);
        continue;
      }
      if (anchor && info.isFile && file.endsWith(".md")) {
        if (!headingAnchors(Deno.readTextFileSync(file)).has(anchor)) {
          broken.push(`${where} (no such heading)`);
        }
      }
    }
  }
  assert(checked > 20, `only ${checked} links found`);
  assertEquals(broken, []);
});

Deno.test("docs/configuration.md quotes sextant --help as the program prints it", () => {
  assertStringIncludes(Deno.readTextFileSync(join(DOCS, "configuration.md")), USAGE);
});

Deno.test("the README stays a five-minute read: at most 250 lines", () => {
  const lines = Deno.readTextFileSync(README).split("\n").length;
  assert(lines <= 250, `README.md has ${lines} lines; move detail into docs/`);
});

Deno.test("README and docs: no names that only the team knows", () => {
  // docs/ARCHITECTURE.md is for contributors and may cite the project's own records.
  const pagesForUsers = pages().filter((page) => !page.endsWith("ARCHITECTURE.md"));
  const found = pagesForUsers.flatMap((page) =>
    [...Deno.readTextFileSync(page).matchAll(/\bseed \d+|\bissue \d+|Ada LSP MCP plan/gi)]
      .map((m) => `${relative(REPO_ROOT, page)}: ${m[0]}`)
  );
  assertEquals(found, []);
});
