// How the offline checks start a real agent from npm without credentials: the pinned package and its
// command line come from test/fixtures/realAgents (agents.json, recipe.ts), the environment from the
// agent's recipe, signed out. Plain Node, shared by the unit tier and the host tier (test/host/realAgents).
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { prepareAgentEnv, type RealAgentRecipe } from '../fixtures/realAgents/recipe';

/**
 * The model endpoint a signed-out agent is pointed at: a closed port on this machine, so a request the
 * agent makes anyway fails at once and never leaves the machine. (None is expected: signed out, the
 * agents stop at the sign-in check.)
 */
export const CLOSED_ENDPOINT = 'http://127.0.0.1:9';


/**
 * The env to add for a signed-out start: an empty HOME with the recipe's config files (written now) and
 * its offline switches, permissions "ask", no key. For Claude that includes IS_SANDBOX=1 (root may then
 * use bypassPermissions, which the mode list offers) and settings.json's defaultMode "default".
 */
export function signedOutEnv(recipe: RealAgentRecipe, home: string, cwd: string): Record<string, string> {
  return { HOME: home, USERPROFILE: home, ...prepareAgentEnv(recipe, { home, cwd, endpointUrl: CLOSED_ENDPOINT, permissions: 'ask', signedOut: true }) };
}

export function makeTempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function removeDir(dir: string | undefined): void {
  if (dir) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}
