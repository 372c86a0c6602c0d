// The parent <-> child map of one connection (unstable subagents): a `subagent_update` on a session announces
// a child of it. The child's own updates and requests name only the child, so the route from the root
// session the client opened down to the child is worked out here, for the host to deliver them there.

/** Where an update or request of a session goes. */
export type SessionRoute =
  /** A session the client opened (or one it knows nothing of while it opens sessions). */
  | { kind: 'own' }
  /** A child: `root` is the session the client opened, `path` the child ids from root's child down to it. */
  | { kind: 'child'; root: string; path: string[] }
  /** A session no one announced and the client did not open: kept under "Unknown subagent". */
  | { kind: 'unknown' };

/** The methods whose answer names a session the client opened (load, resume and fork name it too). */
export const SESSION_OPENERS: ReadonlySet<string> = new Set(['session/new', 'session/load', 'session/resume', 'session/fork']);

/** More announced children than this per connection and the oldest are forgotten. */
const MAX_CHILDREN = 10_000;

export class SubagentRoutes {
  private readonly parents = new Map<string, string>();
  private readonly own = new Set<string>();
  /** Session openers in flight: their session's early updates are not a stranger's. */
  private opening = 0;

  /** `parent` announced `child` (again: the first parent stays, the RFD never moves a child). */
  announce(parent: string, child: string): void {
    if (child === parent || this.parents.has(child) || this.own.has(child)) return;
    if (this.parents.size >= MAX_CHILDREN) this.parents.delete(this.parents.keys().next().value!);
    this.parents.set(child, parent);
  }

  /** Runs a session opener; the session it names (answer or params) is the client's own. */
  async opens<T>(request: Promise<T>, named?: string): Promise<T> {
    this.opening++;
    if (named !== undefined) this.own.add(named);
    try {
      const result = await request;
      const id = (result as { sessionId?: unknown } | undefined)?.sessionId;
      if (typeof id === 'string') this.own.add(id);
      return result;
    } finally {
      this.opening--;
    }
  }

  routeOf(sessionId: string): SessionRoute {
    if (this.own.has(sessionId)) return { kind: 'own' };
    const path: string[] = [];
    const seen = new Set<string>();
    let at = sessionId;
    for (let parent = this.parents.get(at); parent !== undefined; parent = this.parents.get(at)) {
      if (seen.has(at)) break;
      seen.add(at);
      path.unshift(at);
      at = parent;
    }
    if (path.length > 0) return { kind: 'child', root: at, path };
    return this.opening > 0 ? { kind: 'own' } : { kind: 'unknown' };
  }

  /** Every child announced below `sessionId`, at any depth, deepest first. */
  descendantsOf(sessionId: string): string[] {
    const out: string[] = [];
    for (const [child, parent] of this.parents) if (parent === sessionId) out.push(...this.descendantsOf(child), child);
    return out;
  }
}
