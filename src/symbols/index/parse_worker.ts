/**
 * The parse worker: indexes the files it is sent (see index_file.ts) and answers with their
 * declarations. Started by workers.ts as a Deno Worker.
 * @module
 */
/// <reference lib="deno.worker" />
import { indexFile } from "./index_file.ts";
import type { ParseReply, ParseRequest, ParseResult } from "./worker_messages.ts";

self.onmessage = async (event: MessageEvent<ParseRequest>) => {
  const { id, jobs } = event.data;
  let reply: ParseReply;
  try {
    const results: ParseResult[] = [];
    for (const job of jobs) results.push(await indexFile(job));
    reply = { id, results };
  } catch (error) {
    reply = { id, error: String(error) };
  }
  self.postMessage(reply);
};
