// Icons for the registry list: fetched once per agent version, checked to be inert (see icon.ts), kept as
// files in global storage (a quick pick shows an icon from a file URI, as an image).
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { fetchIcon, type RegistryAgent, type RegistryLoad } from '../../agents/registry';
import type { RegistryService } from './registryService';

/** How long the list waits for icons it has not seen before; later ones are kept for the next time. */
const ICON_WAIT_MS = 3_000;

export async function cachedIcons(service: RegistryService, load: RegistryLoad, signal: AbortSignal): Promise<Map<string, vscode.Uri>> {
  const icons = new Map<string, vscode.Uri>();
  const pending = load.registry.agents.filter((a) => a.icon).map(async (agent) => {
    const file = await iconFile(service, agent, load, signal);
    if (file) icons.set(agent.id, vscode.Uri.file(file));
  });
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.allSettled(pending), new Promise<void>((resolve) => (timer = setTimeout(resolve, ICON_WAIT_MS)))]);
  clearTimeout(timer);
  return new Map(icons);
}

/** The icon's file, fetching it the first time; undefined when the agent has no usable icon. */
async function iconFile(service: RegistryService, agent: RegistryAgent, load: RegistryLoad, signal: AbortSignal): Promise<string | undefined> {
  const base = path.join(service.iconFolder, `${agent.id}-${agent.version}`);
  for (const ext of ['.svg', '.png']) {
    if (await exists(base + ext)) return base + ext;
  }
  // A marker for "no usable icon" spares a fetch each time the list opens.
  if (await exists(`${base}.none`)) return undefined;
  const dataUri = await fetchIcon(service.fetch, agent.icon, load.url, signal);
  if (signal.aborted) return undefined;
  await fs.mkdir(service.iconFolder, { recursive: true });
  if (!dataUri) {
    if (load.source === 'network') await fs.writeFile(`${base}.none`, '');
    return undefined;
  }
  const file = base + (dataUri.startsWith('data:image/png') ? '.png' : '.svg');
  await fs.writeFile(file, Buffer.from(dataUri.slice(dataUri.indexOf(',') + 1), 'base64'));
  return file;
}

function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
