/**
 * stub_body: writes a body for a spec in which every subprogram raises Program_Error.
 * @module
 */
import { basename, posix } from "node:path";
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { chooseGpr } from "../../toolchain/ada/ada_project.ts";
import { parseSpec } from "../../toolchain/ada/spec_parser.ts";
import { generateBody } from "../../toolchain/ada/stub.ts";
import { readUnitHeader, unitFileName } from "../../toolchain/ada/units.ts";
import { DEFAULT_NAMING } from "../../toolchain/ada/units.ts";
import { defineTool } from "../tool.ts";
import { writeFiles } from "../shared/write.ts";
import { formatOnly } from "../../edit/text_file.ts";

/** Where a unit's own declaration (`package [body] X`) is in a file. */
export function unitHeaderPosition(
  text: string,
  unit: string,
): { line: number; column: number; preview: string } {
  const escaped = unit.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(
    `^([ \\t]*)((?:private\\s+)?(?:package|procedure|function|task|protected)(?:\\s+body)?\\s+${escaped}\\b[^\\n]*)`,
    "im",
  );
  const match = pattern.exec(text);
  if (!match) return { line: 1, column: 1, preview: text.split("\n")[0] ?? "" };
  const line = text.slice(0, match.index).split("\n").length;
  return { line, column: match[1]!.length + 1, preview: match[2]!.trim() };
}

export const stubBody = defineTool({
  name: "stub_body",
  description: "Ada: generates a compilable body (.adb) from a package or subprogram spec " +
    "(.ads): each procedure, function, entry, task and protected unit gets a body raising " +
    'Program_Error "not implemented" (functions: return raise ...); nested packages included; ' +
    "abstract, null, expression, imported and renamed subprograms skipped. Writes the body only " +
    "if it does not exist or overwrite=true; otherwise returns it as text.",
  params: {
    relative_path: z.string().describe("The spec file (.ads)."),
    overwrite: z.boolean().default(false).describe("Replace an existing body file."),
  },
  markers: ["optional", "can-edit"],
  readOnly: false,
  destructive: true,
  async handler(args, ctx) {
    const project = ctx.project();
    const resolved = project.resolveFile(args.relative_path);
    const spec = await project.readText(resolved);
    const header = readUnitHeader(spec.text);
    if (header && header.part !== "spec") {
      throw new ToolError(
        `'${resolved.relative}' is a ${header.part}, not a spec; give the .ads file of ` +
          `${header.unit}.`,
      );
    }
    const body = generateBody(parseSpec(spec.text));
    const naming = chooseGpr(project.root)?.file.project.naming ?? DEFAULT_NAMING;
    const unitName = body.unit || header?.unit || "";
    const targetName = unitName
      ? unitFileName(unitName, "body", naming)
      : basename(resolved.relative).replace(/\.ads$/i, ".adb");
    const targetFile = posix.join(posix.dirname(resolved.relative), targetName).replace(
      /^\.\//,
      "",
    );
    const result: Record<string, unknown> = {
      generated: body.code !== "",
      unit: unitName,
      targetFile,
      stubs: body.stubs,
    };
    if (body.skipped.length) result.skipped = body.skipped;
    const notes = [...body.notes];
    const version = chooseGpr(project.root)?.file.project.adaVersion;
    if (body.code && version && /Ada(83|95|2005)$/.test(version)) {
      notes.push(
        `The project compiles as ${version}: function stubs use raise expressions (Ada 2012); ` +
          "replace them with a raise statement and a return of some value.",
      );
    }
    if (notes.length) result.notes = notes;
    if (!body.code) return JSON.stringify(result);
    const target = project.resolve(targetFile, { mustExist: false });
    if (target.exists && !args.overwrite) {
      result.written = false;
      result.message = `${targetFile} exists; not overwritten (pass overwrite=true to replace it).`;
    } else {
      // The body takes the spec's text format (encoding, line ends), not its read stamp: the
      // stamp is what the spec held, and a write checks its own target against it.
      const format = formatOnly(spec.format);
      await writeFiles(ctx, {
        lock: [target.real],
        wholeContent: true,
        prepare: () =>
          Promise.resolve({
            changes: [{ real: target.real, after: body.code, format }],
            result: undefined,
          }),
      });
      result.written = true;
    }
    result.stubCode = body.code;
    return JSON.stringify(result);
  },
});
