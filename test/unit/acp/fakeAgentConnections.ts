// Shared setup for the client's tests against the scripted fake agent (connection.fakeAgent.*.test.ts): agents
// spawned as real child processes, every message the client sends them validated against the official schema.
import { TranscriptState, type SessionNotification } from '../../../src/acp';
import { CLIENT_INFO } from './helpers';
import { schemaCheckedFakeAgents } from './schemaValidator';

/**
 * For a describe block (it registers the afterEach that checks and disposes the agents): `start` spawns a fake
 * agent with `args`; `ready` also initializes it and opens a session whose updates fill a transcript.
 */
export function fakeAgentConnections() {
  const start = schemaCheckedFakeAgents();

  async function ready(args: string[] = []) {
    const harness = start(args);
    await harness.conn.initialize({ clientInfo: CLIENT_INFO });
    const session = await harness.conn.newSession({ cwd: '/work' });
    const state = new TranscriptState(session.sessionId);
    state.applySessionSetup(session);
    const updates: SessionNotification[] = [];
    const listening = harness.conn.onSessionUpdate((n) => {
      updates.push(n);
      if (n.sessionId === session.sessionId) state.apply(n.update);
    });
    return { h: harness, sessionId: session.sessionId, session, state, updates, listening };
  }

  return { start, ready };
}
