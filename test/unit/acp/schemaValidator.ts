// Validates every message the client sends against the official ACP JSON schema
// (schema/v1/schema.json from @agentclientprotocol/sdk), per method where the schema
// defines one, and the JSON-RPC envelope always.
import Ajv2020 from 'ajv/dist/2020';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TraceEvent } from '../../../src/acp';
import { fakeAgent, type Harness } from './helpers';

type Json = Record<string, unknown>;

const ROOT = path.resolve(__dirname, '../../../..');
const schemaPath = (file: string) => path.join(ROOT, 'node_modules/@agentclientprotocol/sdk/schema/v1', file);

/** `schema.unstable.json` for the unstable methods (session/fork, session/set_title, auth/status). */
function load(file = 'schema.json') {
  const schema = JSON.parse(fs.readFileSync(schemaPath(file), 'utf8')) as { $defs: Record<string, Json> };
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema(schema, 'acp');
  const def = (name: string) => {
    const validate = ajv.getSchema(`acp#/$defs/${name}`);
    if (!validate) throw new Error(`no $def ${name}`);
    return validate;
  };
  // method -> params/result definitions, from the schema's own x-method annotations.
  const clientSends = new Map<string, string>(); // our requests/notifications: params def
  const clientAnswers = new Map<string, string>(); // our responses to agent requests: result def
  for (const [name, d] of Object.entries(schema.$defs)) {
    const method = d['x-method'] as string | undefined;
    if (!method) continue;
    if ((d['x-side'] === 'agent' || d['x-side'] === 'protocol') && (name.endsWith('Request') || name.endsWith('Notification'))) clientSends.set(method, name);
    if (d['x-side'] === 'client' && name.endsWith('Response')) clientAnswers.set(method, name);
  }
  return { def, clientSends, clientAnswers, root: ajv.compile({ $ref: 'acp#' }) };
}

const cached = new Map<string, ReturnType<typeof load>>();

/** Returns a list of problems (empty when every message is valid). */
export function validateSent(events: TraceEvent[], file: 'schema.json' | 'schema.unstable.json' = 'schema.json'): string[] {
  let v = cached.get(file);
  if (!v) cached.set(file, (v = load(file)));
  const problems: string[] = [];
  for (const e of events) {
    if (e.direction !== 'send') continue;
    const message = e.json as Json;
    const check = (name: string, value: unknown) => {
      const validate = v.def(name);
      if (!validate(value)) problems.push(`${e.method ?? e.type} ${name}: ${JSON.stringify(validate.errors?.slice(0, 3))} in ${JSON.stringify(message).slice(0, 300)}`);
    };
    if (!v.root(message)) problems.push(`envelope: ${JSON.stringify(v.root.errors?.slice(0, 3))} in ${JSON.stringify(message).slice(0, 300)}`);
    if (e.type === 'request' || e.type === 'notification') {
      const name = v.clientSends.get(e.method!);
      if (name) check(name, message.params);
      else if (!e.method!.startsWith('_') && e.method !== 'session/set_model') problems.push(`unknown method sent: ${e.method}`);
    } else if (e.type === 'response') {
      const name = e.method ? v.clientAnswers.get(e.method) : undefined;
      if (name) check(name, message.result);
    } else if (e.type === 'error') {
      check('Error', message.error);
    }
  }
  return problems;
}

/** Checks the agent's notifications and requests the client received (`session/update`, requests) against `file`. */
export function validateReceived(events: TraceEvent[], file: 'schema.json' | 'schema.unstable.json' = 'schema.json'): string[] {
  let v = cached.get(file);
  if (!v) cached.set(file, (v = load(file)));
  const defs: Record<string, string> = {
    'session/update': 'SessionNotification',
    'session/request_permission': 'RequestPermissionRequest',
    'fs/read_text_file': 'ReadTextFileRequest',
    'fs/write_text_file': 'WriteTextFileRequest',
  };
  const problems: string[] = [];
  for (const e of events) {
    const name = e.direction === 'receive' && (e.type === 'notification' || e.type === 'request') ? defs[e.method!] : undefined;
    if (!name) continue;
    const validate = v.def(name);
    const params = (e.json as Json).params;
    if (!validate(params)) problems.push(`${e.method} ${name}: ${JSON.stringify(validate.errors?.slice(0, 3))} in ${JSON.stringify(params).slice(0, 300)}`);
  }
  return problems;
}

export function countValidated(events: TraceEvent[]): number {
  return events.filter((e) => e.direction === 'send').length;
}

/**
 * For a describe block: starts fake agents that are disposed after each test, when every message the client
 * sent them must match `file`.
 */
export function schemaCheckedFakeAgents(file: 'schema.json' | 'schema.unstable.json' = 'schema.json'): (args?: string[]) => Harness {
  const started: Harness[] = [];
  afterEach(async () => {
    for (const s of started.splice(0)) {
      const problems = validateSent(s.trace, file);
      await s.dispose();
      assert.deepEqual(problems, [], `every message the client sent must match ${file}`);
    }
  });
  return (args = []) => {
    const h = fakeAgent(args);
    started.push(h);
    return h;
  };
}
