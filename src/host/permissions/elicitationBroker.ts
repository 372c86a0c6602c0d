/**
 * elicitation/create: the agent asks the user for structured input (a form from a JSON schema) or to visit a
 * URL. Same pattern as PermissionBroker: pending requests, presenters (the chat's form; a quick-input
 * fallback), first answer wins, cancelAll on Stop / crash / close. Answers follow the schema: `accept` (with
 * `content` for forms), `decline` (the user said no) or `cancel` (dismissed, or the turn was stopped).
 */
import * as vscode from 'vscode';
import type { CreateElicitationRequest, CreateElicitationResponse, ElicitationSchema } from '../../acp';
import { invalidParams } from '../../acp';

export interface ElicitationPrompt {
  id: string;
  mode: 'form' | 'url';
  message: string;
  /** Session-scoped elicitations; request-scoped ones (before a session exists) have requestId instead. */
  sessionId?: string;
  toolCallId?: string;
  requestId?: string | number | null;
  /** Form mode. */
  requestedSchema?: ElicitationSchema;
  /** URL mode. */
  url?: string;
  elicitationId?: string;
  request: CreateElicitationRequest;
}

export interface ElicitationPresenter {
  canPresent?(prompt: ElicitationPrompt): boolean;
  /** `signal` aborts when the request was cancelled or answered elsewhere. */
  present(prompt: ElicitationPrompt, signal: AbortSignal): Promise<CreateElicitationResponse>;
}

export interface ElicitationDecision {
  prompt: ElicitationPrompt;
  response: CreateElicitationResponse;
}

interface Pending {
  prompt: ElicitationPrompt;
  settle(response: CreateElicitationResponse): void;
}

const CANCEL: CreateElicitationResponse = { action: 'cancel' };
let nextId = 0;

export class ElicitationBroker implements vscode.Disposable {
  private readonly pendingById = new Map<string, Pending>();
  private readonly requestEmitter = new vscode.EventEmitter<ElicitationPrompt>();
  private readonly resolveEmitter = new vscode.EventEmitter<ElicitationDecision>();
  readonly onDidRequest = this.requestEmitter.event;
  readonly onDidResolve = this.resolveEmitter.event;

  constructor(private readonly opts: { presenters: readonly ElicitationPresenter[] }) {}

  /**
   * The handler for elicitation/create. `signal` is the agent request's own: a request that ended (cancelled by
   * the agent, the connection closed) is answered `cancel`, and its form is never shown or goes away.
   */
  async handle(req: CreateElicitationRequest, signal?: AbortSignal): Promise<CreateElicitationResponse> {
    const prompt = toPrompt(req);
    if (signal?.aborted) return CANCEL;
    return new Promise<CreateElicitationResponse>((resolve) => {
      const controller = new AbortController();
      const ended = (): void => settle(CANCEL);
      const settle = (response: CreateElicitationResponse): void => {
        if (!this.pendingById.delete(prompt.id)) return;
        signal?.removeEventListener('abort', ended);
        controller.abort();
        this.resolveEmitter.fire({ prompt, response });
        resolve(response);
      };
      this.pendingById.set(prompt.id, { prompt, settle });
      signal?.addEventListener('abort', ended, { once: true });
      this.requestEmitter.fire(prompt);
      void this.present(prompt, controller.signal);
    });
  }

  /** Answers from any UI surface; false when no longer pending. */
  resolve(promptId: string, response: CreateElicitationResponse): boolean {
    const p = this.pendingById.get(promptId);
    if (!p) return false;
    p.settle(response);
    return true;
  }

  /**
   * elicitation/complete: the agent says the URL flow of `elicitationId` finished elsewhere, so a card still
   * waiting for the user is answered `accept` and goes away. False when no such elicitation is pending.
   */
  complete(elicitationId: string): boolean {
    const p = [...this.pendingById.values()].find((x) => x.prompt.mode === 'url' && x.prompt.elicitationId === elicitationId);
    p?.settle({ action: 'accept' });
    return p !== undefined;
  }

  pending(sessionId?: string): ElicitationPrompt[] {
    return [...this.pendingById.values()].map((p) => p.prompt).filter((p) => sessionId === undefined || p.sessionId === sessionId);
  }

  cancelAll(sessionId: string): number {
    const mine = [...this.pendingById.values()].filter((p) => p.prompt.sessionId === sessionId);
    for (const p of mine) p.settle(CANCEL);
    return mine.length;
  }

  cancelAllPending(): number {
    const all = [...this.pendingById.values()];
    for (const p of all) p.settle(CANCEL);
    return all.length;
  }

  dispose(): void {
    this.cancelAllPending();
    this.requestEmitter.dispose();
    this.resolveEmitter.dispose();
  }

  private async present(prompt: ElicitationPrompt, signal: AbortSignal): Promise<void> {
    for (const presenter of this.opts.presenters) {
      if (signal.aborted) return;
      let ok: boolean;
      try {
        ok = presenter.canPresent?.(prompt) ?? true;
      } catch {
        ok = false;
      }
      if (!ok) continue;
      try {
        const response = await presenter.present(prompt, signal);
        this.pendingById.get(prompt.id)?.settle(response);
        return;
      } catch {
        // Try the next surface.
      }
    }
    this.pendingById.get(prompt.id)?.settle(CANCEL);
  }
}

function toPrompt(req: CreateElicitationRequest): ElicitationPrompt {
  const r = req as Readonly<Record<string, unknown>>;
  const mode = r.mode;
  if (mode !== 'form' && mode !== 'url') {
    // Unknown modes must not be rendered as a known one (schema); tell the agent instead of guessing.
    throw invalidParams(`Unsupported elicitation mode: ${String(mode)}`, { reason: 'unsupported_mode' });
  }
  const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  const requestId = r.requestId;
  return {
    id: `elicit_${++nextId}`,
    mode,
    message: typeof req.message === 'string' ? req.message : '',
    ...(str(r.sessionId) !== undefined ? { sessionId: str(r.sessionId) } : {}),
    ...(str(r.toolCallId) !== undefined ? { toolCallId: str(r.toolCallId) } : {}),
    ...(typeof requestId === 'string' || typeof requestId === 'number' ? { requestId } : {}),
    ...(mode === 'form' ? { requestedSchema: (r.requestedSchema ?? {}) as ElicitationSchema } : {}),
    ...(mode === 'url' ? { url: str(r.url) ?? '', elicitationId: str(r.elicitationId) ?? '' } : {}),
    request: req,
  };
}

type Json = Readonly<Record<string, unknown>>;
type Value = string | number | boolean | string[];

/**
 * The fallback when the chat is hidden: a notification, then one quick input per form field (text, number,
 * yes/no, pick one, pick many); a URL opens in the browser (http and https only) after VS Code's own prompt.
 */
export class QuickInputElicitationPresenter implements ElicitationPresenter {
  async present(prompt: ElicitationPrompt, signal: AbortSignal): Promise<CreateElicitationResponse> {
    if (prompt.mode === 'url') return this.presentUrl(prompt);
    const go = await vscode.window.showInformationMessage(prompt.message || 'The agent asks for input', 'Respond…', 'Decline');
    if (go === 'Decline') return { action: 'decline' };
    if (go === undefined || signal.aborted) return CANCEL;
    const schema = (prompt.requestedSchema ?? {}) as ElicitationSchema;
    const content: Record<string, Value> = {};
    const required = new Set(schema.required ?? []);
    for (const [key, prop] of Object.entries(schema.properties ?? {})) {
      if (signal.aborted) return CANCEL;
      const value = await askField(key, prop as Json, required.has(key));
      if (value === null) return CANCEL; // Escape
      if (value !== undefined) content[key] = value;
    }
    return { action: 'accept', content };
  }

  private async presentUrl(prompt: ElicitationPrompt): Promise<CreateElicitationResponse> {
    let uri: vscode.Uri | undefined;
    try {
      uri = vscode.Uri.parse(prompt.url ?? '', true);
    } catch {
      uri = undefined;
    }
    if (!uri || (uri.scheme !== 'https' && uri.scheme !== 'http')) return { action: 'decline' };
    const pick = await vscode.window.showInformationMessage(`${prompt.message}\n${uri.toString(true)}`, 'Open', 'Decline');
    if (pick === 'Decline') return { action: 'decline' };
    if (pick !== 'Open') return CANCEL;
    await vscode.env.openExternal(uri);
    return { action: 'accept' };
  }
}

/** undefined: left empty (optional field); null: the user pressed Escape. */
async function askField(key: string, prop: Json, required: boolean): Promise<Value | undefined | null> {
  const title = typeof prop.title === 'string' ? prop.title : key;
  const placeHolder = typeof prop.description === 'string' ? prop.description : undefined;
  const type = prop.type;
  if (type === 'boolean') {
    const pick = await vscode.window.showQuickPick(['Yes', 'No'], { title, placeHolder });
    return pick === undefined ? null : pick === 'Yes';
  }
  const choices = enumChoices(type === 'array' ? (prop.items as Json | undefined) ?? {} : prop);
  if (choices.length > 0) {
    const items = choices.map((c) => ({ label: c.title, value: c.value }));
    if (type === 'array') {
      const picks = await vscode.window.showQuickPick(items, { title, placeHolder, canPickMany: true });
      return picks === undefined ? null : picks.map((p) => p.value);
    }
    const pick = await vscode.window.showQuickPick(items, { title, placeHolder });
    return pick === undefined ? null : pick.value;
  }
  const numeric = type === 'number' || type === 'integer';
  const text = await vscode.window.showInputBox({
    title,
    prompt: placeHolder,
    value: prop.default !== undefined && prop.default !== null ? String(prop.default) : undefined,
    validateInput: (v) => {
      if (v === '') return required ? 'Required' : undefined;
      if (numeric && !Number.isFinite(Number(v))) return 'Enter a number';
      if (type === 'integer' && !Number.isInteger(Number(v))) return 'Enter a whole number';
      return undefined;
    },
  });
  if (text === undefined) return null;
  if (text === '') return undefined;
  return numeric ? Number(text) : text;
}

function enumChoices(s: Json): Array<{ title: string; value: string }> {
  if (Array.isArray(s.enum)) return s.enum.map((v) => ({ title: String(v), value: String(v) }));
  const options = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : [];
  return (options as Json[])
    .filter((o) => typeof o.const === 'string')
    .map((o) => ({ title: typeof o.title === 'string' ? o.title : String(o.const), value: String(o.const) }));
}
