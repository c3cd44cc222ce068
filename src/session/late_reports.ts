/**
 * The reports of a session's edits that were not ready when their edit answered (the errors an
 * edit introduced, tools/new_errors.ts), kept until the session's next answer carries them, and
 * how many of its tool calls are in flight (only the outermost delivers, so a tool another tool
 * calls never takes them). A report is held as the promise of its note's text, so this knows
 * nothing of tools.
 * @module
 */

/** One session's late reports. */
export class LateReports {
  #callsInFlight = 0;
  /** Each resolves to a note, or null when its check found nothing to say; none rejects. */
  #pending: Array<Promise<string | null>> = [];

  /** The session's tool calls running now (a tool another tool calls counts too). */
  get callsInFlight(): number {
    return this.#callsInFlight;
  }

  callStarted(): void {
    this.#callsInFlight++;
  }

  callEnded(): void {
    this.#callsInFlight--;
  }

  /** How many reports wait for the session's next answer. */
  get pending(): number {
    return this.#pending.length;
  }

  /** Keep a report (a promise that never rejects) for the session's next answer. */
  add(note: Promise<string | null>): void {
    this.#pending.push(note);
  }

  /**
   * Resolves when every pending report is ready (each check behind one is bounded): the next
   * call waits for this, so it never shares a language server with those checks.
   */
  async ready(): Promise<void> {
    if (this.#pending.length > 0) await Promise.all(this.#pending);
  }

  /** The pending reports' notes, in the order their edits answered; none is kept after. */
  async take(): Promise<string[]> {
    const taken = this.#pending;
    this.#pending = [];
    const notes: string[] = [];
    for (const note of taken) {
      const text = await note;
      if (text !== null) notes.push(text);
    }
    return notes;
  }
}
