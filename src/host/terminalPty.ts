/**
 * The VS Code side of an agent terminal: a Pseudoterminal that shows the command's raw output (colours
 * included, \n turned into \r\n), forwards keyboard input, Ctrl+C as SIGINT, and reports the user closing it.
 *
 * Writes are batched on a timer with a bounded queue. Once the terminal is open, a full queue pauses the
 * process (real backpressure: a 100 MB producer blocks instead of growing the extension host's memory).
 * Before the terminal opens (VS Code may open it late) the queue keeps only its tail, so a process never
 * waits on a view that might not come.
 */
import * as vscode from 'vscode';

export interface PtyIo {
  input(data: string): void;
  interrupt(): void;
  /** The user closed the terminal (not called when the bridge disposes it). */
  closedByUser(): void;
  pause(): void;
  resume(): void;
}

const FLUSH_MS = 10;
const MAX_CHARS_PER_FLUSH = 256 * 1024;
const HIGH_WATER = 1024 * 1024;
const LOW_WATER = 256 * 1024;

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
  private pausedProducer = false;

  constructor(private readonly io: PtyIo) {}

  open(): void {
    this.opened = true;
    if (this.omitted > 0) this.writeEmitter.fire(`\x1b[2m[… ${this.omitted} earlier characters not shown]\x1b[0m\r\n`);
    this.omitted = 0;
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
    if (!this.opened) this.keepTail();
    else if (this.queued > HIGH_WATER && !this.pausedProducer) {
      this.pausedProducer = true;
      this.io.pause();
    }
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

  private keepTail(): void {
    while (this.queued > HIGH_WATER && this.queue.length > 1) {
      const dropped = this.queue.shift() ?? '';
      this.queued -= dropped.length;
      this.omitted += dropped.length;
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
    let budget = MAX_CHARS_PER_FLUSH;
    const out: string[] = [];
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
    if (this.pausedProducer && this.queued < LOW_WATER) {
      this.pausedProducer = false;
      this.io.resume();
    }
    this.schedule();
  }

  private clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.queue = [];
    this.queued = 0;
    if (this.pausedProducer) {
      this.pausedProducer = false;
      this.io.resume();
    }
  }
}
