/**
 * Powerful settings from a workspace apply only once the user confirmed them. An agent can write the
 * workspace's `.vscode/settings.json` (its own tools need no fs/* request), so a workspace value of
 * `switchboard.autoApprove`, `fileAccess`, `agents`, `mcpServers`, `registry.url` or `useVSCodeMcpServers`
 * is ignored until the user answers Allow in a notification that says exactly what it grants; a changed
 * value asks again. User (and remote machine) settings apply as they are: only the user writes them.
 *
 * Decisions are kept per workspace and value hash in the workspace's Memento (VS Code's storage, not a file
 * in the workspace) and forgotten by `switchboard.revokeWorkspaceSettings`.
 */
import * as vscode from 'vscode';
import type { AutoApproveConfig, AutoApproveLayer } from './autoApproveRules';
import { grantsSomething, valueHash, type GatedSetting } from './settingsConsent';

const loadText = () => import('./settingsConsentText');

const STATE_KEY = 'switchboard.workspaceSettingsDecisions';
export const ALLOW = 'Allow';
export const IGNORE = 'Ignore';

/** The settings read from `switchboard.*` (the rest of GatedSetting is checked with `allows`). */
const SETTINGS: readonly GatedSetting[] = ['autoApprove', 'fileAccess', 'agents', 'mcpServers', 'registry.url', 'useVSCodeMcpServers', 'instructions', 'instructionsFile'];

type Decisions = Partial<Record<GatedSetting, { hash: string; allow: boolean }>>;

/** Shows the question; resolves with the button chosen, undefined when dismissed. */
export type ConsentPrompt = (message: string) => Thenable<string | undefined>;

export interface GatedValue<T> {
  /** The user's (or remote machine's) value. */
  user: T | undefined;
  /** The workspace's value, only when the user confirmed it (or it grants nothing). */
  workspace: T | undefined;
}

export interface WorkspaceSettingsGateOptions {
  memento: vscode.Memento;
  log: vscode.LogOutputChannel;
  /** Default: a warning notification with Allow and Ignore. */
  prompt?: ConsentPrompt;
}

const notificationPrompt: ConsentPrompt = (message) =>
  vscode.window.showWarningMessage(`Switchboard: ${message} Allow it only if you wrote it or trust who did.`, ALLOW, IGNORE);

export class WorkspaceSettingsGate implements vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  /** A workspace value was allowed, or the decisions were forgotten: re-read what depends on them. */
  readonly onDidChange = this.changeEmitter.event;
  /** Questions shown in this window (setting + hash), so a dismissed one is not repeated on every read. */
  private readonly asked = new Set<string>();
  private readonly disposables: vscode.Disposable[] = [this.changeEmitter];

  constructor(private readonly opts: WorkspaceSettingsGateOptions) {
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('switchboard')) this.review();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.review()),
    );
    this.review();
  }

  /** Asks now about every workspace value of a gated setting that is not decided yet. */
  review(): void {
    for (const key of SETTINGS) this.read(key);
  }

  /** `switchboard.<key>` split by where it applies from; an unconfirmed workspace value is left out (and asked about). */
  read<T>(key: GatedSetting): GatedValue<T> {
    const inspected = vscode.workspace.getConfiguration('switchboard').inspect<T>(key);
    const fromWorkspace = vscode.workspace.isTrusted ? (inspected?.workspaceFolderValue ?? inspected?.workspaceValue) : undefined;
    return {
      user: inspected?.globalValue,
      workspace: fromWorkspace !== undefined && this.allows(key, fromWorkspace) ? fromWorkspace : undefined,
    };
  }

  /** The workspace's value wins once confirmed, as VS Code's own merge would have it. */
  effective<T>(key: GatedSetting): T | undefined {
    const v = this.read<T>(key);
    return v.workspace ?? v.user;
  }

  /** `switchboard.autoApprove` as layers, so each approval can say which settings it came from. */
  autoApproveLayers(): AutoApproveLayer[] {
    const v = this.read<AutoApproveConfig>('autoApprove');
    return [
      { config: v.user, source: 'user' },
      ...(v.workspace !== undefined ? [{ config: v.workspace, source: 'workspace' as const }] : []),
    ];
  }

  /**
   * True when a workspace's `value` for `key` may apply: it grants nothing, or the user allowed exactly this
   * value. Otherwise false, and the user is asked (once per value in this window).
   */
  allows(key: GatedSetting, value: unknown): boolean {
    if (!grantsSomething(key, value)) return true;
    const hash = valueHash(value);
    const decision = this.decisions()[key];
    if (decision?.hash === hash) return decision.allow;
    this.ask(key, value, hash);
    return false;
  }

  /** Forgets every decision for this workspace; the workspace's values are asked about again. */
  async revoke(): Promise<void> {
    await this.opts.memento.update(STATE_KEY, undefined);
    this.asked.clear();
    this.opts.log.info('workspace settings: confirmations forgotten');
    this.changeEmitter.fire();
    this.review();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  private decisions(): Decisions {
    const stored = this.opts.memento.get<unknown>(STATE_KEY);
    return typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? (stored as Decisions) : {};
  }

  /** Remembers the user's answer about a workspace's `value` for `key` (the notification's buttons). */
  async decide(key: GatedSetting, value: unknown, allow: boolean): Promise<void> {
    await this.opts.memento.update(STATE_KEY, { ...this.decisions(), [key]: { hash: valueHash(value), allow } });
    this.opts.log.info(`workspace settings: switchboard.${key} from the workspace ${allow ? 'allowed' : 'ignored'} by the user`);
    if (allow) this.changeEmitter.fire();
  }

  private ask(key: GatedSetting, value: unknown, hash: string): void {
    const id = `${key}\0${hash}`;
    if (this.asked.has(id)) return;
    this.asked.add(id);
    void loadText()
      .then(({ describeGrant }) => {
        const grant = describeGrant(key, value) ?? `This workspace sets switchboard.${key}.`;
        this.opts.log.warn(`workspace settings: switchboard.${key} from the workspace waits for confirmation: ${grant}`);
        return (this.opts.prompt ?? notificationPrompt)(grant);
      })
      .then(
        // Dismissed: nothing is remembered; the value stays ignored and is asked about in the next window.
        (choice) => (choice === ALLOW || choice === IGNORE ? this.decide(key, value, choice === ALLOW) : undefined),
        (e: unknown) => this.opts.log.error(`workspace settings: the confirmation for switchboard.${key} failed: ${String(e)}`),
      );
  }
}
