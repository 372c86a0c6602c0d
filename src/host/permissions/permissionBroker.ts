/**
 * session/request_permission: keeps pending requests per session, answers from `switchboard.autoApprove`
 * when a rule applies, else asks the first presenter that can show the prompt (the chat's inline card; a
 * notification when the chat is hidden), and answers every pending request with `cancelled` on Stop, crash
 * or session close (cancelAll / cancelAllPending).
 */
import * as vscode from 'vscode';
import type { PermissionOption, RequestPermissionRequest, RequestPermissionResponse, ToolCallUpdate } from '../../acp';
import { matchAutoApprove, type AutoApproveLayer, type AutoApproveMatch } from './autoApproveRules';

export interface PermissionPrompt {
  /** Unique per request, for UI surfaces to answer with PermissionBroker.resolve(). */
  id: string;
  sessionId: string;
  agentName: string;
  /** The request's tool call, its kind filled from the session's transcript when the agent left it out. */
  toolCall: ToolCallUpdate;
  options: readonly PermissionOption[];
  request: RequestPermissionRequest;
  /** A subagent's request: the child session ids from the session's own child down to the one that asks. */
  subagentPath?: readonly string[];
}

export interface PermissionPresenter {
  /** False when this surface cannot show a prompt now (e.g. the chat view is hidden). Default: true. */
  canPresent?(prompt: PermissionPrompt): boolean;
  /**
   * Shows the prompt; resolves with the chosen optionId, or undefined when the user dismissed it without
   * choosing. `signal` aborts when the request was answered elsewhere or cancelled: remove the card then.
   */
  present(prompt: PermissionPrompt, signal: AbortSignal): Promise<string | undefined>;
}

export type PermissionVia = 'auto' | 'user' | 'dismissed' | 'cancelled';

export interface PermissionDecision {
  prompt: PermissionPrompt;
  response: RequestPermissionResponse;
  via: PermissionVia;
  /** Set when a switchboard.autoApprove rule answered: show it in the card. */
  autoApproved?: AutoApproveMatch;
}

export interface PermissionBrokerOptions {
  /** Tried in order; the first whose canPresent() is true shows the prompt. */
  presenters: readonly PermissionPresenter[];
  /**
   * The `switchboard.autoApprove` rules, read per request: the user's, and a workspace's only once the user
   * confirmed it (WorkspaceSettingsGate.autoApproveLayers). None given: nothing is auto-approved.
   */
  getAutoApproveLayers?(): readonly AutoApproveLayer[];
  /** True when the user must be asked whatever the rules say (a request that names a sensitive file). */
  mustAsk?(prompt: PermissionPrompt): boolean;
}

/** What the broker knows of the session a request belongs to, passed down with the request. */
export interface PermissionContext {
  /** The agent's display name (a key of switchboard.agents), for per-agent rules and the prompt text. */
  agentName: string;
  /**
   * The kind the session's earlier tool_call update gave this tool call: a permission request may omit it.
   * Absent for a question Switchboard asks itself, which names its own kind.
   */
  toolKindOf?(toolCallId: string): string | undefined;
  /** The request is a subagent's (a child session of the session named): the path to it. */
  subagentPath?: readonly string[];
  /**
   * Aborts when the agent's request ends without the user (its turn stopped, `$/cancel_request`, the connection
   * closed): it is answered `cancelled` and its card goes, however late it reached the broker.
   */
  signal?: AbortSignal;
}

interface Pending {
  prompt: PermissionPrompt;
  controller: AbortController;
  settle(optionId: string | undefined, via: PermissionVia): void;
}

const CANCELLED: RequestPermissionResponse = { outcome: { outcome: 'cancelled' } };
let nextId = 0;

export class PermissionBroker implements vscode.Disposable {
  private readonly pendingById = new Map<string, Pending>();
  private readonly requestEmitter = new vscode.EventEmitter<PermissionPrompt>();
  private readonly resolveEmitter = new vscode.EventEmitter<PermissionDecision>();
  /** A request is waiting for the user (not fired for auto-approved ones). */
  readonly onDidRequest = this.requestEmitter.event;
  /** Every answer, auto-approved, chosen, dismissed or cancelled. */
  readonly onDidResolve = this.resolveEmitter.event;

  constructor(private readonly opts: PermissionBrokerOptions) {}

  /** The handler for session/request_permission. */
  async handle(req: RequestPermissionRequest, context: PermissionContext): Promise<RequestPermissionResponse> {
    return (await this.request(req, context)).response;
  }

  /** `alwaysAsk`: a question Switchboard asks itself (a write to a sensitive file): never auto-approved. */
  request(req: RequestPermissionRequest, context: PermissionContext, how: { alwaysAsk?: boolean } = {}): Promise<PermissionDecision> {
    const prompt = this.makePrompt(req, context);
    const ask = how.alwaysAsk === true || this.opts.mustAsk?.(prompt) === true;
    const auto = ask
      ? undefined
      : matchAutoApprove(this.opts.getAutoApproveLayers?.() ?? [], prompt.toolCall.kind, prompt.agentName, prompt.options);
    if (auto) {
      return Promise.resolve(this.finish({ prompt, via: 'auto', autoApproved: auto, response: selected(auto.optionId) }));
    }
    if (prompt.options.length === 0 || context.signal?.aborted) return Promise.resolve(this.finish({ prompt, via: 'cancelled', response: CANCELLED }));
    return new Promise((resolve) => {
      const controller = new AbortController();
      const ended = () => settle(undefined, 'cancelled');
      const settle = (optionId: string | undefined, via: PermissionVia): void => {
        if (!this.pendingById.delete(prompt.id)) return; // already answered: first answer wins
        context.signal?.removeEventListener('abort', ended);
        controller.abort();
        const response = optionId !== undefined ? selected(optionId) : CANCELLED;
        resolve(this.finish({ prompt, via, response }));
      };
      this.pendingById.set(prompt.id, { prompt, controller, settle });
      context.signal?.addEventListener('abort', ended, { once: true });
      this.requestEmitter.fire(prompt);
      void this.present(prompt, controller.signal);
    });
  }

  /** Answers a pending request from any UI surface; false if it is no longer pending or the id is not an option. */
  resolve(promptId: string, optionId: string): boolean {
    const p = this.pendingById.get(promptId);
    if (!p || !p.prompt.options.some((o) => o.optionId === optionId)) return false;
    p.settle(optionId, 'user');
    return true;
  }

  pending(sessionId?: string): PermissionPrompt[] {
    return [...this.pendingById.values()].map((p) => p.prompt).filter((p) => sessionId === undefined || p.sessionId === sessionId);
  }

  /** Stop, crash or session close: every pending request of the session is answered `cancelled`. */
  cancelAll(sessionId: string): number {
    const mine = [...this.pendingById.values()].filter((p) => p.prompt.sessionId === sessionId);
    for (const p of mine) p.settle(undefined, 'cancelled');
    return mine.length;
  }

  cancelAllPending(): number {
    const all = [...this.pendingById.values()];
    for (const p of all) p.settle(undefined, 'cancelled');
    return all.length;
  }

  dispose(): void {
    this.cancelAllPending();
    this.requestEmitter.dispose();
    this.resolveEmitter.dispose();
  }

  private makePrompt(req: RequestPermissionRequest, context: PermissionContext): PermissionPrompt {
    const toolCall = { ...req.toolCall };
    if (!toolCall.kind && toolCall.toolCallId) {
      const kind = context.toolKindOf?.(toolCall.toolCallId);
      if (kind) toolCall.kind = kind as ToolCallUpdate['kind'];
    }
    return {
      id: `perm_${++nextId}`,
      sessionId: req.sessionId,
      agentName: context.agentName,
      toolCall,
      options: Array.isArray(req.options) ? req.options : [],
      request: req,
      ...(context.subagentPath?.length ? { subagentPath: context.subagentPath } : {}),
    };
  }

  private async present(prompt: PermissionPrompt, signal: AbortSignal): Promise<void> {
    const candidates = this.opts.presenters.filter((p) => safeCanPresent(p, prompt));
    for (const presenter of candidates) {
      if (signal.aborted) return;
      try {
        const optionId = await presenter.present(prompt, signal);
        if (signal.aborted) return;
        if (optionId !== undefined && prompt.options.some((o) => o.optionId === optionId)) {
          this.pendingById.get(prompt.id)?.settle(optionId, 'user');
        } else {
          // Dismissed: a one-time rejection keeps the agent going without granting anything.
          const reject = prompt.options.find((o) => o.kind === 'reject_once');
          this.pendingById.get(prompt.id)?.settle(reject?.optionId, 'dismissed');
        }
        return;
      } catch {
        // This surface failed (e.g. the webview went away): try the next one.
      }
    }
    this.pendingById.get(prompt.id)?.settle(undefined, 'cancelled');
  }

  private finish(decision: PermissionDecision): PermissionDecision {
    this.resolveEmitter.fire(decision);
    return decision;
  }
}

function selected(optionId: string): RequestPermissionResponse {
  return { outcome: { outcome: 'selected', optionId } };
}

function safeCanPresent(p: PermissionPresenter, prompt: PermissionPrompt): boolean {
  try {
    return p.canPresent?.(prompt) ?? true;
  } catch {
    return false;
  }
}

/** The fallback when the chat is hidden: a notification with one button per option. */
export class NotificationPermissionPresenter implements PermissionPresenter {
  async present(prompt: PermissionPrompt, signal: AbortSignal): Promise<string | undefined> {
    const items = prompt.options.map((o) => ({ title: o.name, optionId: o.optionId }));
    const picked = await vscode.window.showInformationMessage(permissionMessage(prompt), ...items);
    // A notification cannot be withdrawn; a click after the request was answered elsewhere is ignored.
    return signal.aborted ? undefined : picked?.optionId;
  }
}

export function permissionMessage(prompt: PermissionPrompt): string {
  const who = prompt.agentName;
  const what = prompt.toolCall.title || prompt.toolCall.kind || 'run a tool';
  const where = (prompt.toolCall.locations ?? []).map((l) => l.path).slice(0, 3);
  return `${who} asks permission: ${what}${where.length ? ` (${where.join(', ')})` : ''}`;
}
