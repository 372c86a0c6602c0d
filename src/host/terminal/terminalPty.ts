/**
 * The VS Code side of an agent terminal: a Pseudoterminal that shows the command's raw output (colours
 * included, \n turned into \r\n), forwards keyboard input, Ctrl+C as SIGINT, and reports the user closing it.
 *
 * The view is fed at a bounded rate (about 2 MB/s) from a bounded queue; when a producer outruns it, the
 * oldest queued output is skipped and a "[… not shown here …]" line marks the gap. A pseudoterminal gets
 * no acknowledgement from the renderer, so without this a 100 MB producer piled up ~150 MB of IPC buffers
 * in the extension host (measured in code-server). The process itself is never slowed down for the view:
 * the agent and the chat read the separate bounded output buffer, which keeps the tail.
 */
import * as vscode from 'vscode';

export interface PtyIo {
  input(data: string): void;
  interrupt(): void;
  /** The user closed the terminal (not called when the bridge disposes it). */
  closedByUser(): void;
}

const FLUSH_MS = 16;
const CHARS_PER_FLUSH = Math.round((2 * 1024 * 1024 * FLUSH_MS) / 1000);
const MAX_QUEUED = 512 * 1024;

export class AgentPseudoterminal implements vscode.Pseudoterminal {
  private readonly writeEmitter = new vscode.EventEmitter<string>();
  private readonly closeEmitter = new vscode.EventEmitter<number | void>();
  readonly onDidWrite = this.writeEmitter.event;
  readonly onDidClose = this.closeEmitter.event;

  private opened = false;
  private closed = false;
  private disposing = false;
  private queue: string[] = [];
  private queued = 0;
  private omitted = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly io: PtyIo) {}

  open(): void {
    this.opened = true;
    this.schedule();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.clear();
    if (!this.disposing) this.io.closedByUser();
  }

  handleInput(data: string): void {
    if (data === '\x03') {
      this.io.interrupt();
      return;
    }
    // The child has no tty, so nothing echoes: echo locally; Enter sends a newline.
    this.writeEmitter.fire(data.replace(/\r/g, '\r\n'));
    this.io.input(data.replace(/\r/g, '\n'));
  }

  /** Raw process output. */
  write(text: string): void {
    if (this.closed || text.length === 0) return;
    const converted = text.replace(/\r?\n/g, '\r\n');
    this.queue.push(converted);
    this.queued += converted.length;
    if (this.queued > MAX_QUEUED) this.skipOldest();
    this.schedule();
  }

  /** A final dimmed line such as "[exit code 0]". */
  writeNotice(text: string): void {
    this.write(`\r\n\x1b[2m[${text}]\x1b[0m\r\n`);
  }

  /** Closes the terminal from our side (release, session end) without reporting a user close. */
  dispose(): void {
    this.disposing = true;
    this.close();
    this.closeEmitter.fire();
    this.writeEmitter.dispose();
    this.closeEmitter.dispose();
  }

  /** Drops the oldest queued output down to the cap, resuming at a line start when one is near. */
  private skipOldest(): void {
    while (this.queued > MAX_QUEUED && this.queue.length > 0) {
      const head = this.queue[0];
      const excess = this.queued - MAX_QUEUED;
      if (head.length <= excess) {
        this.queue.shift();
        this.queued -= head.length;
        this.omitted += head.length;
        continue;
      }
      const nl = head.indexOf('\n', excess);
      let cut = nl >= 0 && nl - excess < 4096 ? nl + 1 : excess;
      if ((head.charCodeAt(cut) & 0xfc00) === 0xdc00) cut++; // not inside a surrogate pair
      this.queue[0] = head.slice(cut);
      this.queued -= cut;
      this.omitted += cut;
    }
  }

  private schedule(): void {
    if (this.timer || !this.opened || this.closed || this.queue.length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, FLUSH_MS);
  }

  private flush(): void {
    if (this.closed) return;
    let budget = CHARS_PER_FLUSH;
    const out: string[] = [];
    if (this.omitted > 0) {
      out.push(`\r\n\x1b[2m[… ${this.omitted.toLocaleString('en')} characters of output not shown here; the agent gets the tail]\x1b[0m\r\n`);
      this.omitted = 0;
    }
    while (budget > 0 && this.queue.length > 0) {
      const head = this.queue[0];
      if (head.length <= budget) {
        out.push(head);
        this.queue.shift();
        budget -= head.length;
        this.queued -= head.length;
      } else {
        // Never split a \r\n pair or a surrogate pair across two writes.
        let cut = budget;
        if (head.charCodeAt(cut - 1) === 0x0d || (head.charCodeAt(cut - 1) & 0xfc00) === 0xd800) cut--;
        if (cut <= 0) cut = head.length;
        out.push(head.slice(0, cut));
        this.queue[0] = head.slice(cut);
        this.queued -= cut;
        budget = 0;
      }
    }
    if (out.length > 0) this.writeEmitter.fire(out.join(''));
    this.schedule();
  }

  private clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.queue = [];
    this.queued = 0;
  }
}
