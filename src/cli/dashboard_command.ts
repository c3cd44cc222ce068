/**
 * `sextant dashboard [--open]`: make sure this user's service runs (starting it as a front
 * would), have it serve its dashboard, and print the page's link, which carries a one-time
 * sign-in code. `--open` also opens it in the default browser.
 * @module
 */
import type { CliOptions } from "../config/cli_options.ts";
import { describeError } from "../errors.ts";
import { VERSION } from "../version.ts";
import { servicePaths } from "../service/endpoint.ts";
import { jsonLine, LineReader, type Welcome } from "../service/handshake.ts";
import { connectOrStart } from "./relay.ts";

/** Ask the service for a dashboard link; the link, or an error message. */
async function askForLink(options: CliOptions): Promise<{ link: string } | { error: string }> {
  const connection = await connectOrStart(servicePaths(), options);
  if (!connection) {
    return { error: "The Sextant service could not be reached or started (see its log)." };
  }
  const { conn, token } = connection;
  try {
    const writer = conn.writable.getWriter();
    await writer.write(jsonLine({ sextant: VERSION, token, op: "dashboard" }));
    writer.releaseLock();
    const welcome = await new LineReader(conn.readable).nextJson<Welcome>();
    if (welcome === null) return { error: "The service closed the connection." };
    if (!welcome.ok) return { error: welcome.error };
    if (!welcome.dashboard) return { error: "The service gave no dashboard address." };
    return { link: welcome.dashboard };
  } finally {
    try {
      conn.close();
    } catch { /* closed */ }
  }
}

/**
 * Open `url` in the user's browser. Through `sh` (or `cmd` on Windows), which the permission
 * set already allows: the opener's name differs per system (xdg-open, open).
 */
async function openInBrowser(url: string): Promise<boolean> {
  const command = Deno.build.os === "windows"
    ? { command: "cmd", args: ["/c", "start", "", url] }
    : {
      command: "sh",
      args: [
        "-c",
        'if command -v xdg-open >/dev/null 2>&1; then exec xdg-open "$1"; else exec open "$1"; fi',
        "sh",
        url,
      ],
    };
  try {
    const { success } = await new Deno.Command(command.command, {
      args: command.args,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).output();
    return success;
  } catch {
    return false;
  }
}

/** Run `sextant dashboard`; the exit code. */
export async function dashboard(options: CliOptions): Promise<number> {
  let answer;
  try {
    answer = await askForLink(options);
  } catch (error) {
    answer = { error: describeError(error) };
  }
  if ("error" in answer) {
    console.error(`sextant: ${answer.error}`);
    return 1;
  }
  console.log(answer.link);
  console.error(
    "sextant: the link signs one browser in, once, within 10 minutes; the page then keeps a " +
      "cookie. Run 'sextant dashboard' again for another.",
  );
  if (options.open && !(await openInBrowser(answer.link))) {
    console.error("sextant: could not open a browser; open the link above yourself.");
  }
  return 0;
}
