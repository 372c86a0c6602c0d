import * as assert from 'assert';
import { ResponseError } from 'vscode-jsonrpc/node';
import { agentErrorFor, ignoringNotFound } from '../../../../src/acp/connection/agentErrors';
import { AcpRequestError, AuthRequiredError, ErrorCode, NotFoundError, RequestCancelledError } from '../../../../src/acp/errors';
import type { AuthMethod } from '../../../../src/acp/schema/agentResponses';

const fromInitialize: AuthMethod[] = [{ id: 'login', name: 'Log in' } as AuthMethod];

describe('acp: agent errors', () => {
  it('auth required carries the sign-in methods of the error when it has some, else those from initialize', () => {
    const withOwn = agentErrorFor('session/prompt', new ResponseError(ErrorCode.AuthRequired, 'sign in', { authMethods: [{ id: 'key', name: 'API key' }] }), fromInitialize);
    assert.ok(withOwn instanceof AuthRequiredError);
    assert.deepStrictEqual(withOwn.authMethods.map((m) => m.id), ['key']);
    for (const data of [undefined, { authMethods: [] }, { authMethods: 'junk' }, 'text']) {
      const error = agentErrorFor('session/new', new ResponseError(ErrorCode.AuthRequired, 'sign in', data), fromInitialize);
      assert.ok(error instanceof AuthRequiredError);
      assert.deepStrictEqual(error.authMethods.map((m) => m.id), ['login']);
    }
  });

  it('not found, cancelled and every other code become their typed errors with the method', () => {
    assert.ok(agentErrorFor('session/load', new ResponseError(ErrorCode.ResourceNotFound, 'gone'), []) instanceof NotFoundError);
    assert.ok(agentErrorFor('session/prompt', new ResponseError(ErrorCode.RequestCancelled, 'stop'), []) instanceof RequestCancelledError);
    const other = agentErrorFor('session/new', new ResponseError(-32603, 'internal'), []);
    assert.ok(other instanceof AcpRequestError);
    assert.strictEqual(other.code, -32603);
  });

  it('ignoringNotFound swallows only not found', async () => {
    await ignoringNotFound(Promise.reject(new NotFoundError('session/close', 'gone', undefined)));
    await assert.rejects(ignoringNotFound(Promise.reject(new Error('other'))), /other/);
  });
});
