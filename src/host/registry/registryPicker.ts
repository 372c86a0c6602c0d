// "Switchboard: Add Agent from Registry…": a searchable list of the registry's agents (icon, version,
// license, authors, how each installs here, installed / update available), then install or manage one.
import * as vscode from 'vscode';
import { errorMessage } from '../../acp';
import { describePlan, isAbortError, isNewer, type InstalledAgent, type RegistryAgent, type RegistryLoad } from '../../agents/registry';
import { cachedIcons } from './registryIcons';
import { confirmUninstall, installWithProgress, makeDefaultAgent, type RegistryUiDeps } from './installFlow';
import type { RegistryInstalls } from './registryInstalls';

interface AgentItem extends vscode.QuickPickItem {
  readonly agent?: RegistryAgent;
  readonly installed?: InstalledAgent;
}

export async function addAgentFromRegistry(deps: RegistryUiDeps): Promise<void> {
  const pick = vscode.window.createQuickPick<AgentItem>();
  pick.title = 'Add Agent from Registry';
  pick.placeholder = 'Loading the ACP Registry…';
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  pick.busy = true;
  const controller = new AbortController();
  let chosen: AgentItem | undefined;
  const closed = new Promise<void>((resolve) => {
    pick.onDidAccept(() => {
      chosen = pick.selectedItems[0];
      pick.hide();
    });
    pick.onDidHide(() => {
      controller.abort();
      resolve();
    });
  });
  pick.show();
  let load: RegistryLoad;
  try {
    load = await deps.service.load(controller.signal);
  } catch (error) {
    pick.dispose();
    if (!isAbortError(error)) void showLoadError(deps, errorMessage(error));
    return;
  }
  const [icons, installs] = await Promise.all([cachedIcons(deps.service, load, controller.signal), deps.service.installs()]);
  pick.items = buildItems(deps, installs, load, icons);
  pick.busy = false;
  if (load.source === 'cache') {
    const saved = new Date(load.fetchedAt).toLocaleString();
    pick.title = `Add Agent from Registry (offline: the list saved ${saved})`;
    pick.placeholder = `Offline, showing the list saved ${saved}. ${load.networkError ?? ''}`;
  } else {
    pick.placeholder = `Search ${load.registry.agents.length} ${load.registry.agents.length === 1 ? 'agent' : 'agents'} by name, description or author`;
  }
  await closed;
  pick.dispose();
  if (!chosen) return;
  if (chosen.installed) await manageInstalled(deps, chosen.installed, chosen.agent, load);
  else if (chosen.agent) await installWithProgress(deps, chosen.agent, load);
}

function buildItems(deps: RegistryUiDeps, installs: RegistryInstalls, load: RegistryLoad, icons: ReadonlyMap<string, vscode.Uri>): AgentItem[] {
  const installed = deps.service.installed;
  const byId = new Map(load.registry.agents.map((a) => [a.id, a]));
  const item = (agent: RegistryAgent, record: InstalledAgent | undefined): AgentItem => {
    const plan = installs.plan(agent);
    const status = record
      ? isNewer(agent.version, record.version)
        ? `update available (installed ${record.version})`
        : 'installed'
      : plan.kind === 'unsupported'
        ? 'not available on this machine'
        : undefined;
    const icon = icons.get(agent.id);
    return {
      label: agent.name,
      description: [`v${agent.version}`, agent.license, status].filter(Boolean).join(' · '),
      detail: [agent.description, agent.authors?.length ? `by ${agent.authors.join(', ')}` : undefined, plan.kind === 'unsupported' ? plan.reason : describePlan(plan)]
        .filter(Boolean)
        .join(' — '),
      ...(icon ? { iconPath: icon } : {}),
      agent,
      ...(record ? { installed: record } : {}),
    };
  };
  const mine: AgentItem[] = installed.map((record) => {
    const agent = byId.get(record.id);
    if (agent) return item(agent, record);
    return { label: record.name, description: `v${record.version} · installed · no longer in this registry`, detail: record.description, installed: record };
  });
  const others = load.registry.agents.filter((a) => !installed.some((r) => r.id === a.id)).map((a) => item(a, undefined));
  const separator = (label: string): AgentItem => ({ label, kind: vscode.QuickPickItemKind.Separator });
  const left = load.problems.length ? [separator(`${load.problems.length} malformed ${load.problems.length === 1 ? 'entry was' : 'entries were'} left out (see the Switchboard log)`)] : [];
  return [...(mine.length ? [separator('Installed'), ...mine] : []), separator('Available'), ...others, ...left];
}

async function manageInstalled(deps: RegistryUiDeps, record: InstalledAgent, agent: RegistryAgent | undefined, load: RegistryLoad): Promise<void> {
  type Action = vscode.QuickPickItem & { run: () => Promise<unknown> };
  const actions: Action[] = [
    { label: '$(comment-discussion) Start a session', run: () => deps.agents.startSession(record.name) },
    { label: '$(star) Make it the default agent', run: () => makeDefaultAgent(record) },
    ...(agent && isNewer(agent.version, record.version)
      ? [{ label: `$(arrow-up) Update to ${agent.version}`, description: `installed ${record.version}`, run: () => installWithProgress(deps, agent, load) }]
      : []),
    { label: '$(trash) Uninstall', run: () => confirmUninstall(deps, record) },
  ];
  const action = await vscode.window.showQuickPick(actions, { title: `${record.name} ${record.version}`, placeHolder: record.description });
  await action?.run();
}

async function showLoadError(deps: RegistryUiDeps, message: string): Promise<void> {
  deps.log.error(message);
  const settings = 'Open Settings';
  const choice = await vscode.window.showErrorMessage(`Switchboard: ${message}`, settings);
  if (choice) await vscode.commands.executeCommand('workbench.action.openSettings', 'switchboard.registry.url');
}
