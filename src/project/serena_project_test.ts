import { assertEquals } from "../../tests/helpers/assert.ts";
import { parseSerenaProject } from "./serena_project.ts";

Deno.test("parseSerenaProject reads project_name and language_servers in Serena's forms", () => {
  assertEquals(
    parseSerenaProject(
      '# comment\nproject_name: "shop"\nlanguage_servers: ["python", typescript]\nencoding: "utf-8"\n',
    ),
    { projectName: "shop", languageServers: ["python", "typescript"] },
  );
  assertEquals(
    parseSerenaProject("project_name: 'my app' # mine\nlanguages:\n- python\n  - rust\nx: 1\n"),
    { projectName: "my app", languageServers: ["python", "rust"] },
  );
  assertEquals(parseSerenaProject("project_name:\nlanguage_servers: []\n"), {});
});
