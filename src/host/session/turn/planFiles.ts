// "Open plan" on a file plan's card (plan_update of type "file"): opens the file the agent named for that
// plan. The URI comes from the session's transcript, never from the webview. The file goes through the
// same rules as the agent's fs/read_text_file (fileConfinement.ts): inside the session's folders it opens
// as any file does; outside them only when switchboard.fileAccess allows reading it (or the user allows it
// when asked), and then read-only: the user asked to see the agent's plan, not to edit files outside the
// session's folders. Every refusal is an Error whose message the plan's card shows.
import * as vscode from 'vscode';
import { errorMessage } from '../../../acp';
import { isInsideRoot, resolveRealPath } from '../../fs/fileConfinement';
import type { FsBridge } from '../../fs/fsBridge';
import type { Session } from '../session';

export async function openPlanFile(session: Session, planId: string, fs: Pick<FsBridge, 'authorizeRead'>): Promise<void> {
  const plan = session.transcript.items.find((i) => i.kind === 'plan' && i.planId === planId);
  if (plan?.kind !== 'plan' || plan.fileUri === undefined) throw new Error('This plan is no longer a file in the session.');
  const path = localPath(plan.fileUri);
  let real: string;
  try {
    real = await fs.authorizeRead({ sessionId: session.scopedId, roots: { cwd: session.cwd, additionalDirectories: session.additionalDirectories } }, path);
  } catch (error) {
    throw new Error(`The plan file was not opened: ${errorMessage(error)}`, { cause: error });
  }
  const uri = vscode.Uri.file(real);
  const stat = await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined);
  if (!stat) throw new Error(`The plan file ${path} does not exist.`);
  if (stat.type & vscode.FileType.Directory) throw new Error(`${path} is a folder, not a plan file.`);
  const roots = await Promise.all([session.cwd, ...session.additionalDirectories].map((d) => resolveRealPath(d)));
  const inside = roots.some((root) => isInsideRoot(root, real));
  await vscode.window.showTextDocument(uri, { preview: true });
  if (!inside) await vscode.commands.executeCommand('workbench.action.files.setActiveEditorReadonlyInSession');
}

/** The absolute local path of a plan's URI; anything else is refused with the reason. */
function localPath(uriText: string): string {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(uriText)) {
    throw new Error(`The agent named the plan file "${uriText}", a relative path: only an absolute file: URI can be opened.`);
  }
  if (!/^file:\/\//i.test(uriText)) throw new Error(`The plan is at "${uriText}", which is not a file: URI; only files on this machine open.`);
  let uri: vscode.Uri;
  try {
    uri = vscode.Uri.parse(uriText, true);
  } catch (error) {
    throw new Error(`The plan's URI "${uriText}" is malformed: ${errorMessage(error)}`, { cause: error });
  }
  if (uri.path === '' || uri.path === '/') throw new Error(`The plan's URI "${uriText}" names no file.`);
  return uri.fsPath;
}
