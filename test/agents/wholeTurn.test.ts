// The whole-turn scenario, once for every real agent in the table (wholeTurn.table.ts): the agent starts in
// an empty project holding the row's files, with permissions "ask"; the scripted model makes it read, edit,
// (create a file,) run a shell command and answer; every permission request is allowed once. Checked for
// every agent: the turn ends, the streamed text and thought, the files on disk, that every tool call ends
// completed, which kinds asked permission and for which call, the fs/* requests, one model request per
// scripted step, and that stop leaves no process that runs with the agent's HOME. What is particular to one
// agent is the row's `more`. A new agent is a new row.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { commandLine, processesWithHome } from '../fixtures/realAgents/processes';
import { pinned } from '../fixtures/realAgents/recipe';
import { TURN_TIMEOUT_MS, TurnClient } from './turnClient';
import { WHOLE_TURN } from './wholeTurn.table';
import type { ToolUpdate, Turn } from './wholeTurn/row';
import { textOf } from './wholeTurn/updates';

for (const row of WHOLE_TURN) {
  describe(`${row.recipe.label.replace(' (real)', '')} ${pinned(row.recipe.id).version} (real) does the whole turn`, function () {
    this.timeout(3 * TURN_TIMEOUT_MS);
    let client: TurnClient | undefined;
    afterEach(async () => {
      await client?.stop();
      client = undefined;
    });

    it(row.title, async () => {
      const fsCallsAtPermission: number[] = [];
      const c = (client = await TurnClient.start({
        recipe: row.recipe,
        handlers: row.handlers(),
        permissions: 'ask',
        files: row.files,
        choosePermission: (request) => {
          fsCallsAtPermission.push(c.fsCalls.length);
          return request.options.find((o) => o.kind === 'allow_once')?.optionId ?? request.options.find((o) => o.kind === 'allow_always')?.optionId;
        },
      }));
      const script = row.script(c.cwd);
      c.endpoint.script(script);
      const { init, session } = await c.openSession();
      const e = row.expect;
      if (e.version) assert.strictEqual(init.agentInfo?.version, e.version, 'the pinned version');
      if (e.authMethods) assert.deepStrictEqual(init.authMethods?.map((m) => m.id), e.authMethods);
      if (e.modeId) assert.strictEqual(session.modes?.currentModeId, e.modeId, 'permissions "ask" is this mode');
      const before = c.updates.length;
      const result = await c.prompt(session.sessionId, row.prompt);
      const turn: Turn = { c, init, session, result, updates: c.updates.slice(before).map((n) => n.update), fsCallsAtPermission };

      assert.strictEqual(result.stopReason, 'end_turn', c.diagnostics());
      assert.strictEqual(c.agentText(), e.text);
      if (e.thought !== undefined) assert.strictEqual(c.updatesOf('agent_thought_chunk').map(textOf).join(''), e.thought);
      for (const [file, content] of Object.entries(e.files)) assert.strictEqual(fs.readFileSync(path.join(c.cwd, file), 'utf8'), content, file);

      // Every tool call ends completed (an agent may send an update before its tool_call: any order).
      const all = [...c.updatesOf('tool_call'), ...c.updatesOf('tool_call_update')] as unknown as ToolUpdate[];
      const ids = [...new Set(all.map((u) => u.toolCallId))];
      assert.strictEqual(ids.length, e.toolCalls, `tool calls: ${JSON.stringify(all.map((u) => [u.toolCallId, u.sessionUpdate, u.status, u.title]))}`);
      for (const id of ids) {
        if (e.everyCallAnnounced !== false) assert.ok(c.updatesOf('tool_call').some((u) => 'toolCallId' in u && u.toolCallId === id), `a tool_call for ${id}`);
        const statuses = all.filter((u) => u.toolCallId === id).map((u) => u.status);
        assert.ok(statuses.includes('completed'), `${id} completed: ${JSON.stringify(statuses)}`);
      }
      const calls = c.updatesOf('tool_call') as unknown as ToolUpdate[];
      if (e.announced) {
        const seen = calls.map((u) => [u.title, u.kind, u.status]);
        const wanted = e.announced.map(([titles, kind, status], i) => [typeof titles === 'string' ? titles : (titles.find((t) => t === seen[i]?.[0]) ?? titles.join(' or ')), kind, status]);
        assert.deepStrictEqual(seen, wanted, 'each tool call as first announced');
      }

      // Which kinds asked permission, for which of the calls, with which options.
      assert.deepStrictEqual(c.permissionRequests.map((p) => p.toolCall.kind), e.asks);
      assert.ok(c.permissionRequests.every((p) => ids.includes(p.toolCall.toolCallId)), 'each permission request names one of the calls');
      if (e.askTitles) assert.deepStrictEqual(c.permissionRequests.map((p) => p.toolCall.title), e.askTitles);
      if (e.askCalls) assert.deepStrictEqual(c.permissionRequests.map((p) => p.toolCall.toolCallId), e.askCalls.map((i) => calls[i].toolCallId));
      if (e.options) assert.deepStrictEqual(c.permissionRequests[0].options.map((o) => [o.optionId, o.name, o.kind]), e.options);

      if (e.fsCalls) assert.deepStrictEqual(c.fsCalls.map((f) => [f.method, path.relative(c.cwd, f.path)]), e.fsCalls);

      // One main model request per scripted step, none left over.
      assert.strictEqual(c.endpoint.remaining, 0, c.endpoint.describeLog());
      assert.strictEqual(c.endpoint.mainRequests().length, script.length, c.endpoint.describeLog());

      await row.more?.(turn);

      // Stop: the agent and everything it started with its HOME are gone.
      const running = await processesWithHome(c.home);
      assert.ok(running.length >= 1, 'the agent runs with its HOME');
      if (row.daemon) {
        const daemon = running.filter((pid) => commandLine(pid).includes(row.daemon!));
        console.log(`    ${row.recipe.label}: ${daemon.length} ${row.daemon} process(es) before stop`);
      }
      await c.process.stop();
      const left = await processesWithHome(c.home);
      assert.deepStrictEqual(left.map((pid) => commandLine(pid)), [], 'no process of the agent left after stop');
    });
  });
}
