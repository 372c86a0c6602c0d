// The few user prompts diff review needs, behind an interface so host tests can answer modal
// questions (which nobody can click in a headless run) and assert on what the user was told.
import * as vscode from 'vscode';

export interface DiffUi {
  /** A modal question; resolves to the chosen button or undefined (cancelled). */
  ask(message: string, detail: string | undefined, buttons: readonly string[]): Promise<string | undefined>;
  /** A non-modal notice; resolves to the chosen button when buttons are given. */
  info(message: string, ...buttons: string[]): Promise<string | undefined>;
  warn(message: string, ...buttons: string[]): Promise<string | undefined>;
  error(message: string, ...buttons: string[]): Promise<string | undefined>;
}

export const windowUi: DiffUi = {
  async ask(message, detail, buttons) {
    return vscode.window.showWarningMessage(message, { modal: true, detail }, ...buttons);
  },
  async info(message, ...buttons) {
    return vscode.window.showInformationMessage(message, ...buttons);
  },
  async warn(message, ...buttons) {
    return vscode.window.showWarningMessage(message, ...buttons);
  },
  async error(message, ...buttons) {
    return vscode.window.showErrorMessage(message, ...buttons);
  },
};
