// Who the agent is signed in as. Two carriers: the unstable `auth/status_update` notification (state plus
// accounts) and Claude's `_auth/status_update` extension (`{ authStatus: { kind, label, detail?, account? } }`).
// Both become one shape; a payload of neither shape is refused (the connection logs and ignores it).
import * as z from '../../shared/zod';
import { optional } from './lenient';

export interface AgentAuthStatus {
  /** False when the agent says it is signed out; undefined when it does not say. */
  signedIn: boolean | undefined;
  /** What to show: the account, or the kind of credential ("Anthropic API key"). */
  label: string;
  /** More about it (an email, a key source, an organization). */
  detail?: string;
}

const text = z.string().check(z.minLength(1), z.maxLength(500));
/** A string of at most `max` characters. */
const stringUpTo = (max: number) => z.string().check(z.maxLength(max));

const AccountSchema = z.object({
  label: text,
  active: optional(z.boolean()),
  name: optional(stringUpTo(500)),
  email: optional(stringUpTo(500)),
  organization: optional(stringUpTo(500)),
});

/** The schema's `AuthStatusUpdateNotification` (and `AuthStatusResponse`). */
export const AuthStatusUpdateSchema = z.pipe(
  z.object({ state: stringUpTo(100), accounts: z.optional(z.array(z.unknown()).check(z.maxLength(100))) }),
  z.transform((p): AgentAuthStatus => {
    const accounts = (p.accounts ?? []).flatMap((a) => {
      const parsed = AccountSchema.safeParse(a);
      return parsed.success ? [parsed.data] : [];
    });
    const account = accounts.find((a) => a.active) ?? accounts[0];
    const signedIn = p.state === 'authenticated' || p.state === 'not_required' ? true : p.state === 'unauthenticated' ? false : undefined;
    if (!account) return { signedIn, label: signedIn === false ? 'Not signed in' : p.state === 'not_required' ? 'No sign-in needed' : signedIn ? 'Signed in' : 'Sign-in state unknown' };
    const detail = [account.email ?? account.name, account.organization].filter(Boolean).join(' · ');
    return detail && detail !== account.label ? { signedIn, label: account.label, detail } : { signedIn, label: account.label };
  }),
);

/** claude-agent-acp's `_auth/status_update` payload. */
export const ClaudeAuthStatusSchema = z.pipe(
  z.object({
    authStatus: z.object({
      kind: stringUpTo(100),
      label: text,
      detail: optional(stringUpTo(500)),
      account: optional(z.object({ email: optional(stringUpTo(500)), organization: optional(stringUpTo(500)), plan: optional(stringUpTo(200)) })),
    }),
  }),
  z.transform(({ authStatus: s }): AgentAuthStatus => {
    const detail = [s.account?.email, s.account?.organization, s.detail].filter(Boolean).join(' · ');
    const signedIn = s.kind !== 'none';
    return detail ? { signedIn, label: s.label, detail } : { signedIn, label: s.label };
  }),
);
