// The webview's handle on the host: postMessage + persisted UI state. `acquireVsCodeApi` may be called
// once per page. Outside a webview (tests, a plain browser) a stand-in keeps state in memory.
import type { WebviewToHostMessage } from '../../src/shared/messages';

export interface VsCodeApi {
  postMessage(message: WebviewToHostMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

let api: VsCodeApi | undefined;

export function getVsCodeApi(): VsCodeApi {
  if (!api) {
    if (typeof acquireVsCodeApi === 'function') api = acquireVsCodeApi();
    else {
      let state: unknown;
      api = { postMessage: () => undefined, getState: () => state, setState: (s) => (state = s) };
    }
  }
  return api;
}
