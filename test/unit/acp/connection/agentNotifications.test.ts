import * as assert from 'assert';
import { PassThrough } from 'node:stream';
import { AgentNotifications } from '../../../../src/acp/connection/agentNotifications';
import { RpcChannel } from '../../../../src/acp/connection/rpcChannel';
import { SubagentRoutes } from '../../../../src/acp/connection/subagentRoutes';
import type { SessionNotification } from '../../../../src/acp/schema/sessionUpdate';
import { capturingLogger } from '../helpers';

function harness() {
  const agentStdout = new PassThrough();
  const logger = capturingLogger();
  const channel = new RpcChannel(agentStdout, new PassThrough(), { logger });
  const notifications = new AgentNotifications(channel, logger, new SubagentRoutes());
  const send = (method: string, params: unknown) => agentStdout.write(`${JSON.stringify({ jsonrpc: '2.0', method, params })}\n`);
  return { channel, notifications, logger, send };
}

function next<T>(subscribe: (listener: (value: T) => void) => unknown): Promise<T> {
  return new Promise((resolve) => subscribe(resolve));
}

describe("acp: the agent's notifications", () => {
  it('delivers valid updates in order, skips one without a session id, logs the first of each unknown type once', async () => {
    const { channel, notifications, logger, send } = harness();
    const seen: SessionNotification[] = [];
    const three = new Promise<void>((resolve) => notifications.updates.add((n) => seen.push(n) === 3 && resolve()));
    send('session/update', { update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'lost' } } });
    send('session/update', { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'a' } } });
    send('session/update', { sessionId: 's', update: { sessionUpdate: 'brand_new_thing', x: 1 } });
    send('session/update', { sessionId: 's', update: { sessionUpdate: 'brand_new_thing', x: 2 } });
    await three;
    assert.deepStrictEqual(seen.map((n) => n.update.sessionUpdate), ['agent_message_chunk', '$unsupported', '$unsupported']);
    assert.ok(logger.lines.some((l) => l.includes('without a sessionId')));
    assert.strictEqual(logger.lines.filter((l) => l.includes('"brand_new_thing" was not understood')).length, 1);
    channel.close();
  });

  it('a listener that throws is logged and the next listener still gets the update', async () => {
    const { channel, notifications, logger, send } = harness();
    notifications.updates.add(() => { throw new Error('listener bug'); });
    const delivered = next<SessionNotification>((l) => notifications.updates.add(l));
    send('session/update', { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'a' } } });
    assert.strictEqual((await delivered).sessionId, 's');
    assert.ok(logger.lines.some((l) => l.includes('session/update listener failed') && l.includes('listener bug')));
    channel.close();
  });

  it("drops an invalid elicitation/complete or auth status with a log line, delivers the valid one (Claude's too)", async () => {
    const { channel, notifications, logger, send } = harness();
    const completed = next((l) => notifications.elicitationsComplete.add(l));
    send('elicitation/complete', { nope: true });
    send('elicitation/complete', { elicitationId: 'e1' });
    assert.deepStrictEqual(await completed, { elicitationId: 'e1' });
    assert.ok(logger.lines.some((l) => l.includes('Ignored an invalid elicitation/complete')));
    const statuses: unknown[] = [];
    const two = new Promise<void>((resolve) => notifications.authStatus.add((s) => statuses.push(s) === 2 && resolve()));
    send('auth/status_update', 'junk');
    send('auth/status_update', { state: 'authenticated' });
    send('_auth/status_update', { authStatus: { kind: 'none', label: 'Not signed in' } });
    await two;
    assert.deepStrictEqual(statuses, [{ signedIn: true, label: 'Signed in' }, { signedIn: false, label: 'Not signed in' }]);
    assert.ok(logger.lines.some((l) => l.includes('Ignored an invalid auth/status_update')));
    channel.close();
  });

  it('a disposed listener hears nothing more', async () => {
    const { channel, notifications, send } = harness();
    let heard = 0;
    notifications.updates.add(() => heard++).dispose();
    const delivered = next((l) => notifications.updates.add(l));
    send('session/update', { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'a' } } });
    await delivered;
    assert.strictEqual(heard, 0);
    channel.close();
  });
});
