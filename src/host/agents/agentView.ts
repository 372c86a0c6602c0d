// Maps an agent's runtime and sign-in state to the chat's view of it.
import type { AgentView, AuthMethodView } from '../../shared/chatState';
import type { AuthFlow } from '../auth/authMethods';
import type { AgentRuntime } from './agentRuntime';

export function agentView(
  id: string,
  runtime: AgentRuntime | undefined,
  signIn: { flows?: AuthFlow[]; error?: string; retry?: string } = {},
  /** An inert data: URI (registry agents). */
  icon?: string,
  account?: AgentView['account'],
  providers?: AgentView['providers'],
): AgentView {
  const authFlows = signIn.flows;
  const view: AgentView = { id, name: id, status: runtime?.status ?? 'stopped' };
  if (icon) view.icon = icon;
  if (runtime?.crash && runtime.status === 'crashed') view.crash = runtime.crash;
  if (runtime?.detail) view.detail = runtime.detail;
  if (runtime?.isRemote) view.remote = true;
  const toApply = runtime?.settingsToApply ?? [];
  if (toApply.length > 0) view.settingsToApply = toApply;
  if (account) view.account = { ...account };
  if (providers) view.providers = providers;
  if (authFlows && runtime?.status === 'auth_required') {
    view.authMethods = authFlows.map(authMethodView);
    if (signIn.error) view.authError = signIn.error;
    if (signIn.retry) view.afterSignIn = signIn.retry;
  }
  return view;
}

function authMethodView(flow: AuthFlow): AuthMethodView {
  const view: AuthMethodView = { id: flow.id, name: flow.name, kind: flow.type };
  if (flow.description) view.description = flow.description;
  if (flow.type === 'env_var') view.vars = flow.vars.map((v) => v.name);
  return view;
}
