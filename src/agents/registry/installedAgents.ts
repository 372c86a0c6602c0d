import { readFileSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as z from '../zod';

/*
 * The record of what was installed from the registry: `<root>/installed.json`. It is the only source of
 * truth (a folder it does not name is a leftover and gets removed), written atomically, and re-read before
 * every change because every VS Code window shares the extension's global storage.
 */

const installedAgentSchema = z.object({
  id: z.string(),
  name: z.string(),
  version: z.string(),
  description: z.optional(z.string()),
  kind: z.enum(['binary', 'npx', 'uvx']),
  command: z.string(),
  args: z.array(z.string()),
  env: z.record(z.string(), z.string()),
  /** The version folder of a binary install. */
  directory: z.optional(z.string()),
  /** An inert data: URI (see icon.ts). */
  icon: z.optional(z.string()),
  /** The registry it came from. */
  registryUrl: z.string(),
  installedAt: z.number(),
});

export type InstalledAgent = z.infer<typeof installedAgentSchema>;

const indexSchema = z.object({ agents: z.array(z.unknown()) });

export class InstalledAgents {
  constructor(private readonly root: string) {}

  get indexFile(): string {
    return path.join(this.root, 'installed.json');
  }

  /** Every valid record; a damaged record is skipped (its agent can be installed again). */
  async list(): Promise<InstalledAgent[]> {
    return parseIndex(await fs.readFile(this.indexFile, 'utf8').catch(() => undefined));
  }

  /** The same, read synchronously: the agent list must be complete the moment VS Code asks for it at startup. */
  listSync(): InstalledAgent[] {
    try {
      return parseIndex(readFileSync(this.indexFile, 'utf8'));
    } catch {
      return [];
    }
  }

  async get(id: string): Promise<InstalledAgent | undefined> {
    return (await this.list()).find((a) => a.id === id);
  }

  /** Adds or replaces the record with the same id. */
  async put(agent: InstalledAgent): Promise<void> {
    const agents = (await this.list()).filter((a) => a.id !== agent.id);
    await this.write([...agents, agent]);
  }

  async remove(id: string): Promise<InstalledAgent | undefined> {
    const agents = await this.list();
    const removed = agents.find((a) => a.id === id);
    if (removed) await this.write(agents.filter((a) => a.id !== id));
    return removed;
  }

  private async write(agents: InstalledAgent[]): Promise<void> {
    await fs.mkdir(this.root, { recursive: true });
    const temp = `${this.indexFile}.${process.pid}.${Date.now()}.tmp`;
    await fs.writeFile(temp, JSON.stringify({ agents }, null, 2));
    await fs.rename(temp, this.indexFile);
  }
}

function parseIndex(text: string | undefined): InstalledAgent[] {
  if (text === undefined) return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return [];
  }
  const index = indexSchema.safeParse(json);
  if (!index.success) return [];
  return index.data.agents.flatMap((entry) => {
    const parsed = installedAgentSchema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}
