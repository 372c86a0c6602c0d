import type { LoginShellEnvironment, LoginShellOptions } from './shellEnvironment';

/**
 * Memoises `readLoginShellEnvironment`: the shell runs once per cache (per window), and concurrent
 * callers share one run. The shell code loads with the first call (when an agent or an install starts).
 */
export class LoginShellEnvironmentCache {
  private pending: Promise<LoginShellEnvironment> | undefined;

  constructor(private readonly options: LoginShellOptions = {}) {}

  get(): Promise<LoginShellEnvironment> {
    this.pending ??= import('./shellEnvironment').then(({ readLoginShellEnvironment }) => readLoginShellEnvironment(this.options));
    return this.pending;
  }
}
